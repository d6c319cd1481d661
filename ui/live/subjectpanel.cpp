#include "live/subjectpanel.h"

#include "check/checkwords.h"
#include "live/proxydialog.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace retrylab {

namespace {

QLabel *plainLabel(const QString &name, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText); // URLs and file names are shown, never interpreted
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString number(qint64 n)
{
    return QLocale().toString(n);
}

} // namespace

SubjectPanel::SubjectPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("subjectPanel"));
    auto *layout = new QVBoxLayout(this);
    m_heading = plainLabel(QStringLiteral("subjectHeading"), this);
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 1.2);
    big.setBold(true);
    m_heading->setFont(big);
    layout->addWidget(m_heading);
    m_details = plainLabel(QStringLiteral("subjectDetails"), this);
    layout->addWidget(m_details);
    m_counts = plainLabel(QStringLiteral("subjectCounts"), this);
    QFont bold = font();
    bold.setBold(true);
    m_counts->setFont(bold);
    layout->addWidget(m_counts);
    m_card = new QTreeWidget(this);
    m_card->setObjectName(QStringLiteral("checkCard"));
    m_card->setRootIsDecorated(false);
    m_card->setWordWrap(true);
    m_card->setHeaderLabels({tr("Probe"), tr("Verdict")});
    m_card->header()->setStretchLastSection(false);
    m_card->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_card->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    layout->addWidget(m_card, 1);
    m_card->hide();
    // The finding in full under the card: a tool tip is unseen on a projector.
    m_finding = plainLabel(QStringLiteral("checkFinding"), this);
    layout->addWidget(m_finding);
    connect(m_card, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        m_finding->setText(item ? item->toolTip(0) : QString());
        if (item)
            Q_EMIT operationRequested(item->data(0, Qt::UserRole).toInt());
    });
    layout->addStretch();
}

void SubjectPanel::showProxy(const QUrl &proxy, const QUrl &upstream, bool running, const Scenario &faults,
                             const Metrics &counts)
{
    // Each address on a line of its own: a dock a third of the screen wide would break it at "//".
    m_heading->setText(running ? tr("Proxy in front of your service") : tr("The proxy has stopped"));
    QStringList lines{tr("Your service:"), QStringLiteral("  ") + upstream.toString()};
    if (running)
        lines << tr("Point your client at:") << QStringLiteral("  ") + proxy.toString();
    const QStringList struck = ProxyDialog::faultSummary(faults);
    lines << (struck.isEmpty() ? tr("Faults: none, every request passes") : tr("Faults:"));
    for (const QString &f : struck)
        lines << QStringLiteral("  \u2022 ") + f;
    m_details->setText(lines.join(QLatin1Char('\n')));
    m_counts->setText(tr("Requests: %1\nOrders: %2\nCreated: %3\nDuplicates: %4\nOrphans: %5")
                          .arg(number(counts.httpAttempts), number(counts.logicalOperations), number(counts.records),
                               number(counts.duplicates), number(counts.orphans)));
    m_card->hide();
    m_finding->clear();
}

void SubjectPanel::showCheck(const CheckReport &report, const QString &fileName, const QList<CheckOperation> &operations)
{
    m_heading->setText(tr("Idempotency check"));
    QStringList lines{tr("Endpoint:"), QStringLiteral("  ") + report.url, tr("Report: %1").arg(QFileInfo(fileName).fileName())};
    lines << tr("rounds per probe: %1 \u00b7 sent at once in flight: %2").arg(report.roundsAsked).arg(report.concurrency);
    lines << tr("Click a probe to see its requests on the timeline.");
    m_details->setText(lines.join(QLatin1Char('\n')));
    int counts[5] = {0, 0, 0, 0, 0};
    for (const ProbeVerdict &v : report.card)
        ++counts[int(v.verdict)];
    m_counts->setText(tr("%1 pass, %2 fail, %3 warn, %4 cannot tell, %5 not applicable")
                          .arg(counts[int(Verdict::Pass)])
                          .arg(counts[int(Verdict::Fail)])
                          .arg(counts[int(Verdict::Warn)])
                          .arg(counts[int(Verdict::CannotTell)])
                          .arg(counts[int(Verdict::NotApplicable)]));
    const QSignalBlocker blocker(m_card);
    m_card->clear();
    for (const CheckOperation &o : operations) {
        QString title = check::probeTitle(o.probe);
        if (report.roundsAsked > 1)
            title += QLatin1Char(' ') + tr("(round %1)").arg(o.round);
        auto *item = new QTreeWidgetItem(m_card, {title, check::verdictWord(o.verdict.verdict)});
        item->setData(0, Qt::UserRole, o.op);
        item->setToolTip(0, check::findingText(o.verdict, report.idField));
        item->setToolTip(1, item->toolTip(0));
        if (o.verdict.verdict == Verdict::Fail) {
            QFont bold = item->font(1);
            bold.setBold(true);
            item->setFont(1, bold);
        }
    }
    m_card->show();
    m_finding->clear();
}

void SubjectPanel::setCurrentOperation(int op)
{
    const QSignalBlocker blocker(m_card);
    for (int i = 0; i < m_card->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_card->topLevelItem(i);
        if (item->data(0, Qt::UserRole).toInt() == op) {
            m_card->setCurrentItem(item);
            m_finding->setText(item->toolTip(0));
            return;
        }
    }
}

QString SubjectPanel::heading() const
{
    return m_heading->text();
}

QString SubjectPanel::details() const
{
    return m_details->text();
}

QString SubjectPanel::counts() const
{
    return m_counts->text();
}

QString SubjectPanel::finding() const
{
    return m_finding->text();
}

} // namespace retrylab
