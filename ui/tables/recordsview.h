#pragma once

#include "recordsmodel.h"
#include "simulator.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTableView;
QT_END_NAMESPACE

namespace retrylab {

class LabDocument;

class RecordsStyleProxy;

// The order records table: duplicates grouped under the record they repeat and marked
// with a warning tint, a bold group and a warning sign, above a one-line summary.
class RecordsView : public QWidget
{
    Q_OBJECT
public:
    explicit RecordsView(QWidget *parent = nullptr);
    ~RecordsView() override;

    // Pulls the result of `document` when shown.
    void setDocument(LabDocument *document);
    void setResult(const RunResult &result);
    // The same with the table computed elsewhere (RecordsModel::prepare, on a worker thread).
    void setPrepared(RecordsModel::Prepared prepared);
    // Selects the record a trace event refers to (or clears the selection) without
    // emitting eventSelected.
    void selectEvent(int traceIndex);
    // Records in table order, RFC 4180 quoting, written atomically.
    bool exportCsv(const QString &fileName, QString *error = nullptr) const;

    QString summary() const;
    RecordsModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }

Q_SIGNALS:
    // The user picked a record: the trace index of its Committed event.
    void eventSelected(int traceIndex);

protected:
    void changeEvent(QEvent *event) override;

private:
    void currentRowChanged();
    void exportWithDialog();
    void updateSummary();

    RecordsModel *m_model = nullptr;
    RecordsStyleProxy *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_export = nullptr;
    bool m_syncing = false;
};

} // namespace retrylab
