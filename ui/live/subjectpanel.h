#pragma once

#include "check/checktrace.h"
#include "scenario.h"
#include "simulator.h"

#include <QUrl>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace retrylab {

// The Scenario dock's stand-in while the window shows someone's own service instead of a scenario:
// for the Proxy view the service behind the proxy, the faults the proxy applies and what its ledger
// counted; for a check report the endpoint and the card, one row per probe round, a click opening
// that round on the timeline.
class SubjectPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SubjectPanel(QWidget *parent = nullptr);

    void showProxy(const QUrl &proxy, const QUrl &upstream, bool running, const Scenario &faults, const Metrics &counts);
    void showCheck(const CheckReport &report, const QString &fileName, const QList<CheckOperation> &operations);
    // The row of the operation on the timeline is selected (no signal).
    void setCurrentOperation(int op);

    QString heading() const;
    QString details() const; // the plain text of the details: the service, the faults or the file
    QString counts() const;  // the plain text of the counts
    QString finding() const; // why the selected probe round got its verdict
    QTreeWidget *card() const { return m_card; }

Q_SIGNALS:
    void operationRequested(int op);

private:
    QLabel *m_heading = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_counts = nullptr;
    QTreeWidget *m_card = nullptr;
    QLabel *m_finding = nullptr;
};

} // namespace retrylab
