#include "shell/statusoutcome.h"

#include "editor/editorstyle.h"
#include "timeline/timelinestyle.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>

namespace retrylab {

StatusOutcome::StatusOutcome(QMainWindow *window)
    : QObject(window)
    , m_window(window)
{
    QStatusBar *bar = window->statusBar();
    m_busy = new QProgressBar(window);
    m_busy->setObjectName(QStringLiteral("statusBusy"));
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_busy->setToolTip(tr("Running the scenario in the background"));
    m_busy->hide();
    bar->addWidget(m_busy);

    // Shown instead of a run the window refused: the numbers beside it are the last run's.
    m_refused = new QLabel(window);
    m_refused->setObjectName(QStringLiteral("statusRefused"));
    m_refused->setWordWrap(false);
    m_refused->hide();
    bar->addPermanentWidget(m_refused); // first, so leftmost

    m_watch = addLabel(QStringLiteral("statusLive"), tr("The embedded order server: where to send orders"));
    m_watch->hide();
    m_liveRun = addLabel(QStringLiteral("statusLiveRun"),
                         tr("This result came from real HTTP requests, not from the simulation"));
    m_liveRun->hide();
    m_worstCase = addLabel(QStringLiteral("statusWorstCase"),
                           tr("HTTP attempts per operation if every enabled layer exhausts its retries"));
    m_attempts = addLabel(QStringLiteral("statusAttempts"), tr("HTTP attempts, and per logical operation"));
    m_records = addLabel(QStringLiteral("statusRecords"),
                         tr("Rows the order service committed; late: committed after their client had given up on "
                            "that attempt"));
    m_queries = addLabel(QStringLiteral("statusQueries"),
                         tr("Status queries (GET /orders?ref=) the client sent before resending"));
    m_duplicates = addLabel(QStringLiteral("statusDuplicates"),
                            tr("Records beyond the first for the same business reference"));
    m_outstanding = addLabel(
        QStringLiteral("statusOutstanding"),
        tr("Duplicates the reconciliation job has not voided yet (voided records still count as created)"));
    m_orphans = addLabel(QStringLiteral("statusOrphans"),
                         tr("Operations the client reported as failed although a record exists"));
    m_lost = addLabel(QStringLiteral("statusLost"), tr("Operations reported as succeeded without a record (must be 0)"));
    m_bar = bar;
    bar->installEventFilter(this);
}

bool StatusOutcome::eventFilter(QObject *watched, QEvent *event)
{
    // The bar's own pointer: while the window is destroyed, statusBar() must not be asked.
    if (event->type() == QEvent::Resize && watched == m_bar)
        fitToBar();
    return QObject::eventFilter(watched, event);
}

void StatusOutcome::setTexts(QLabel *label, const QString &full, const QString &shortText)
{
    label->setProperty("fullText", full);
    label->setProperty("shortText", shortText);
    fitToBar();
}

void StatusOutcome::fitToBar()
{
    QStatusBar *bar = m_bar;
    int needed = 0;
    const QList<QLabel *> labels = bar->findChildren<QLabel *>(Qt::FindDirectChildrenOnly);
    for (const QLabel *label : labels) {
        if (label->isHidden())
            continue;
        const QVariant full = label->property("fullText");
        const QString text = full.isValid() ? full.toString() : label->text();
        const QMargins m = label->contentsMargins();
        // The layout's spacing and the frame QStatusBar draws around a permanent widget.
        needed += label->fontMetrics().horizontalAdvance(text) + m.left() + m.right() + 10;
    }
    // The size grip and the bar's own margins.
    m_short = needed > bar->width() - 24;
    for (QLabel *label : labels) {
        const QVariant full = label->property("fullText");
        if (full.isValid())
            label->setText(m_short ? label->property("shortText").toString() : full.toString());
    }
}

QLabel *StatusOutcome::addLabel(const QString &name, const QString &tip)
{
    auto *label = new QLabel(m_window);
    label->setObjectName(name);
    label->setToolTip(tip);
    label->setContentsMargins(8, 0, 8, 0);
    m_window->statusBar()->addPermanentWidget(label);
    return label;
}

void StatusOutcome::showOutcome(const RunResult &result, ResultSource source, bool hidden, bool liveRunning)
{
    const Metrics &m = result.metrics;
    // In prediction mode the numbers read "?" and none is red: that would give the answer away.
    const auto show = [&](QLabel *label, const QString &whenHidden, const QString &text) {
        label->setText(hidden ? whenHidden : text);
    };
    const bool queries = result.scenario.client.queryBeforeRetry || m.queries > 0;
    m_queries->setVisible(queries);
    show(m_queries, tr("Queries: ?"), tr("Queries: %1").arg(m.queries));
    const bool reconciling = result.scenario.reconciliation.enabled || m.voided > 0;
    m_outstanding->setVisible(reconciling);
    show(m_outstanding, tr("Outstanding: ?"),
         m.voided == 1 ? tr("1 voided, outstanding: %1").arg(m.duplicatesOutstanding)
                       : tr("%1 voided, outstanding: %2").arg(m.voided).arg(m.duplicatesOutstanding));
    if (hidden)
        setTexts(m_attempts, tr("Attempts: ?"), tr("Attempts: ?"));
    else
        setTexts(m_attempts,
                 tr("Attempts: %1 (%2 per op)").arg(m.httpAttempts).arg(QLocale().toString(m.amplification, 'f', 2)),
                 tr("Attempts: %1").arg(m.httpAttempts));
    // Late commits are records too, committed after their client gave up on that attempt: say how many.
    show(m_records, tr("Records: ?"),
         m.lateCommits > 0 ? tr("Records (%1 late): %2").arg(m.lateCommits).arg(m.records) : tr("Records: %1").arg(m.records));
    show(m_duplicates, tr("Duplicates: ?"), tr("Duplicates: %1").arg(m.duplicates));
    show(m_orphans, tr("Orphans: ?"), tr("Orphans: %1").arg(m.orphans));
    show(m_lost, tr("Lost: ?"), tr("Lost: %1").arg(m.lost));
    // What outside clients concluded is theirs to know: the server counts only what it saw.
    // A live run's label needs the room: at 1280 pixels both do not fit.
    m_worstCase->setVisible(source == ResultSource::Simulation && !liveRunning);
    // The proxy sees what its clients got, so it counts orphans; lost orders need the client's own view.
    m_orphans->setVisible(source != ResultSource::Watch);
    m_lost->setVisible(!isWatched(source));
    m_watch->setVisible(isWatched(source));
    if (isWatched(source))
        m_queries->setVisible(m.queries > 0);

    // Duplicates and lost orders are the lesson: make them stand out when present.
    for (QLabel *label : {m_duplicates, m_lost}) {
        const bool warn = !hidden && (label == m_duplicates ? m.duplicates : m.lost) > 0;
        QPalette p = m_window->statusBar()->palette();
        QFont f = m_window->statusBar()->font();
        if (warn) {
            p.setColor(QPalette::WindowText, warningColor(p));
            f.setBold(true);
        }
        label->setPalette(p);
        label->setFont(f);
        label->setProperty("warning", warn);
    }
    // Full or short texts for what the bar now holds: the records' and duplicates' texts, the bold
    // font and which labels show all changed above (at 1024x640 "Attempts: 35882 (9.97 pe" was cut).
    fitToBar();
}

void StatusOutcome::updateWorstCase(const Scenario &scenario, bool hidden)
{
    const qint64 worst = scenario.worstCaseAttemptsPerOp();
    // An unlimited layer retries until its deadline: its bound in attempts (deadline / 1 ms) says nothing.
    const ClientConfig &c = scenario.client;
    const LayerConfig *unlimited = c.business.enabled && c.business.maxAttempts == 0 ? &c.business
        : c.wrapper.enabled && c.wrapper.maxAttempts == 0                            ? &c.wrapper
                                                                                      : nullptr;
    if (hidden) {
        const QString unknown = tr("Worst case: ?"); // a lesson may ask for exactly this number
        setTexts(m_worstCase, unknown, unknown);
    } else if (unlimited) {
        const QString until =
            tr("Worst case: retries until %1").arg(timeline::formatDuration(qint64(unlimited->deadlineMs) * 1000));
        setTexts(m_worstCase, until, until);
    } else if (worst == 1) {
        setTexts(m_worstCase, tr("Worst case: 1 attempt per op"), tr("Worst case: 1 attempt per op"));
    } else {
        setTexts(m_worstCase, tr("Worst case: %1 attempts per op").arg(scenario.worstCaseText()),
                 tr("Worst case: %1 attempts per op").arg(QLocale().toString(worst)));
    }
}

void StatusOutcome::showBanner(const QString &text, const QString &toolTip)
{
    QPalette p = m_window->statusBar()->palette();
    p.setColor(QPalette::WindowText, warningColor(p));
    m_refused->setPalette(p);
    QFont f = m_window->statusBar()->font();
    f.setBold(true);
    m_refused->setFont(f);
    m_refused->setText(text);
    m_refused->setToolTip(toolTip);
    m_refused->show();
    fitToBar();
}

void StatusOutcome::hideBanner()
{
    m_refused->hide();
    fitToBar();
}

void StatusOutcome::setRunBusy(bool busy)
{
    m_busy->setVisible(busy);
    if (busy)
        m_window->statusBar()->showMessage(tr("Running…"));
    else
        m_window->statusBar()->clearMessage();
}

void StatusOutcome::setLiveRunning(bool running, bool runBusy, ResultSource source)
{
    m_busy->setVisible(running || runBusy);
    m_busy->setToolTip(running ? tr("Running the scenario over real HTTP") : tr("Running the scenario in the background"));
    m_window->statusBar()->clearMessage();
    m_worstCase->setVisible(!running && source == ResultSource::Simulation);
    fitToBar();
}

} // namespace retrylab
