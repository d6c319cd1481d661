#pragma once

#include "simulator.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace retrylab {

class LabDocument;

class TraceFilterModel;
class TraceModel;

// The event log: every trace event of a run, filtered by request ID, operation,
// lane and kind, so one business operation's attempts can be read together.
class LogView : public QWidget
{
    Q_OBJECT
public:
    explicit LogView(QWidget *parent = nullptr);

    // Pulls the result of `document` when shown.
    void setDocument(LabDocument *document);
    void setResult(const RunResult &result);
    // Selects and shows one event without emitting eventSelected. When the filters
    // hide it, the selection is cleared.
    void selectEvent(int traceIndex);
    // The events the filters currently show, as trace JSONL (trace::save).
    bool exportJsonl(const QString &fileName, QString *error = nullptr) const;

    void setRequestIdFilter(const QString &text);
    void setOpFilter(int op);
    // -1 = all lanes / kinds.
    void setLaneFilter(int lane);
    void setKindFilter(int kind);

    TraceModel *model() const { return m_model; }
    TraceFilterModel *filterModel() const { return m_filter; }
    QTableView *tableView() const { return m_table; }
    int visibleEventCount() const;

Q_SIGNALS:
    // The user picked an event: its index in RunResult::trace.
    void eventSelected(int traceIndex);

private:
    void filtersEdited();
    void currentRowChanged();
    void exportWithDialog();
    void updateCount();

    TraceModel *m_model = nullptr;
    TraceFilterModel *m_filter = nullptr;
    QLineEdit *m_requestId = nullptr;
    QSpinBox *m_op = nullptr;
    QComboBox *m_lane = nullptr;
    QComboBox *m_kind = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_count = nullptr;
    QTableView *m_table = nullptr;
    bool m_syncing = false;
};

} // namespace retrylab
