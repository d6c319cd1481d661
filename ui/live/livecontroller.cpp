#include "live/livecontroller.h"

#include "common/makedock.h"
#include "document/labdocument.h"
#include "document/runcontroller.h"
#include "live/livemode.h"
#include "check/checkwords.h"
#include "live/proxydialog.h"
#include "live/subjectpanel.h"
#include "live/watchpanel.h"
#include "live/watchservedialog.h"
#include "shell/labframe.h"
#include "shell/statusoutcome.h"
#include "timeline/timelinewidget.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

namespace retrylab {

namespace {
// Room for the Watch panel's commands without a scroll bar; the timeline keeps the rest.
constexpr int WatchDockWidth = 470;

QIcon themedIcon(const QString &name, QStyle::StandardPixmap fallback, const QStyle *style)
{
    return QIcon::fromTheme(name, style->standardIcon(fallback));
}

// A dock of `content` (scrolling when the dock is small) behind the Scenario dock, hidden until
// its source is on show.
QDockWidget *tabbedDock(LabFrame *frame, QWidget *content, const QString &title, const QString &name)
{
    QMainWindow *window = frame->frameWindow();
    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    QDockWidget *dock = makeDock(title, name, scroll, window);
    window->addDockWidget(Qt::LeftDockWidgetArea, dock);
    window->tabifyDockWidget(frame->scenarioDock(), dock);
    dock->hide();
    frame->scenarioDock()->raise();
    return dock;
}

} // namespace

LiveController::LiveController(LabFrame *frame, StatusOutcome *status, QObject *parent)
    : QObject(parent)
    , m_frame(frame)
    , m_status(status)
{
    createWatch();
    m_live = new LiveMode(this);
    m_liveEdit = new QTimer(this);
    m_liveEdit->setSingleShot(true);
    m_liveEdit->setInterval(400);
    connect(m_liveEdit, &QTimer::timeout, this, &LiveController::startLiveRun);
    createActions();

    connect(m_watch, &WatchSession::resultReady, this, &LiveController::onWatchResult);
    connect(m_watch, &WatchSession::runningChanged, this, &LiveController::onServingChanged);
    connect(m_watchPanel, &WatchPanel::serveRequested, this, &LiveController::serveWithDialog);
    connect(m_watchPanel, &WatchPanel::stopRequested, this, &LiveController::stopServing);
    connect(m_proxy, &ProxySession::resultReady, this, &LiveController::onProxyResult);
    connect(m_proxy, &ProxySession::runningChanged, this, &LiveController::onProxyingChanged);
    createSubject();

    connect(m_live, &LiveMode::finished, this, &LiveController::onLiveRunFinished);
    connect(m_live, &LiveMode::runningChanged, this, &LiveController::onLiveRunningChanged);
    connect(m_live, &LiveMode::tick, this, &LiveController::updateLiveRunLabel);
    connect(m_live, &LiveMode::failed, this, [this](const QString &error) {
        m_status->showBanner(tr("Live run failed: %1").arg(error), error);
    });
    connect(m_live, &LiveMode::cancelled, this, [this] {
        m_frame->frameWindow()->statusBar()->showMessage(tr("Live run stopped; result unchanged"), 8000);
    });
}

void LiveController::createWatch()
{
    // Beside the timeline rather than a page of its own: the class watches the address and
    // their requests arriving at the same time.
    m_watch = new WatchSession(this);
    m_proxy = new ProxySession(this);
    m_watchPanel = new WatchPanel(m_watch);
    m_watchDock = tabbedDock(m_frame, m_watchPanel, tr("Watch"), QStringLiteral("watchDock"));
}

void LiveController::createActions()
{
    const QStyle *s = m_frame->frameWindow()->style();
    m_serveAction = new QAction(themedIcon(QStringLiteral("network-server"), QStyle::SP_DriveNetIcon, s),
                                tr("Ser&ve…"), this);
    m_serveAction->setObjectName(QStringLiteral("serveAction"));
    m_serveAction->setToolTip(tr("Run the order service over HTTP for curl, Python or any client"));
    connect(m_serveAction, &QAction::triggered, this, &LiveController::serveWithDialog);

    m_watchAction = new QAction(themedIcon(QStringLiteral("network-receive"), QStyle::SP_ComputerIcon, s),
                                tr("&Watch live requests"), this);
    m_watchAction->setObjectName(QStringLiteral("watchAction"));
    m_watchAction->setIconText(tr("Watch")); // the toolbar fits 1024 pixels; the menu has the whole name
    m_watchAction->setProperty(OwnIconTextProperty, true);
    m_watchAction->setCheckable(true);
    m_watchAction->setToolTip(tr("Serve orders on port 8080 (or a free one) and show every request that arrives"));
    connect(m_watchAction, &QAction::toggled, this, [this](bool on) {
        if (on == isServing())
            return;
        if (!on) {
            stopServing();
            return;
        }
        QString error;
        if (!startServing(m_watchOptions, &error)) {
            const QSignalBlocker blocker(m_watchAction);
            m_watchAction->setChecked(false);
            QMessageBox::warning(m_frame->frameWindow(), tr("Cannot serve"), error);
        }
    });

    m_proxyAction = new QAction(themedIcon(QStringLiteral("network-wired"), QStyle::SP_DriveNetIcon, s), tr("P&roxy…"), this);
    m_proxyAction->setObjectName(QStringLiteral("proxyAction"));
    m_proxyAction->setToolTip(tr("Put a fault proxy in front of your own HTTP service and watch its duplicates"));
    connect(m_proxyAction, &QAction::triggered, this, &LiveController::proxyWithDialog);

    m_checkReportAction = new QAction(themedIcon(QStringLiteral("document-open"), QStyle::SP_DialogOpenButton, s),
                                      tr("Open chec&k report…"), this);
    m_checkReportAction->setObjectName(QStringLiteral("checkReportAction"));
    m_checkReportAction->setToolTip(tr("Show a report of retrylab check --save FILE: each probe's requests on the timeline"));
    connect(m_checkReportAction, &QAction::triggered, this, &LiveController::openCheckReportWithDialog);

    m_liveAction = new QAction(themedIcon(QStringLiteral("network-transmit-receive"), QStyle::SP_DriveNetIcon, s),
                               tr("&Live"), this);
    m_liveAction->setObjectName(QStringLiteral("liveAction"));
    m_liveAction->setCheckable(true);
    m_liveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_liveAction->setToolTip(tr("Run the scenario over real HTTP on this computer (loopback) instead of simulating it"));
    connect(m_liveAction, &QAction::toggled, this, &LiveController::setLive);

    m_stopLiveAction = new QAction(themedIcon(QStringLiteral("process-stop"), QStyle::SP_BrowserStop, s),
                                   tr("S&top live run"), this);
    m_stopLiveAction->setObjectName(QStringLiteral("stopLiveAction"));
    m_stopLiveAction->setIconText(tr("Stop")); // the toolbar fits 1024 pixels
    m_stopLiveAction->setProperty(OwnIconTextProperty, true);
    m_stopLiveAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopLiveAction->setToolTip(tr("Stop the live run; the previous result stays on show"));
    m_stopLiveAction->setEnabled(false);
    connect(m_stopLiveAction, &QAction::triggered, this, &LiveController::stopLiveRun);
}

void LiveController::addToFileMenu(QMenu *menu)
{
    menu->addAction(m_serveAction);
    menu->addAction(m_watchAction);
    menu->addAction(m_proxyAction);
    menu->addAction(m_checkReportAction);
}

void LiveController::addToViewMenu(QMenu *menu)
{
    menu->addAction(m_watchDock->toggleViewAction());
}

void LiveController::addToPlaybackMenu(QMenu *menu)
{
    menu->addAction(m_liveAction);
    menu->addAction(m_stopLiveAction);
}

void LiveController::addLiveToToolBar(QToolBar *bar)
{
    bar->addAction(m_liveAction);
    m_liveScale = new QComboBox(bar);
    createLiveScale();
    m_liveScaleAction = bar->addWidget(m_liveScale);
    m_liveScaleAction->setVisible(false);
    bar->addAction(m_stopLiveAction);
    m_stopLiveAction->setVisible(false);
    // A stop sign alone, its words in the tooltip: the time scale beside it takes room at 1024 pixels.
    if (auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(m_stopLiveAction)))
        button->setToolButtonStyle(Qt::ToolButtonIconOnly);
}

void LiveController::createLiveScale()
{
    m_liveScale->setObjectName(QStringLiteral("liveScale"));
    m_liveScale->setAccessibleName(tr("Live time scale"));
    m_liveScale->setToolTip(tr("Real time per simulated time: at 0.1x a simulated second takes a tenth of a second"));
    const QList<double> scales = LiveMode::timeScales();
    for (double scale : scales) {
        // The sign of the timeline's playback speed, but the other way round: 0.1× here is faster.
        m_liveScale->addItem(QStringLiteral("%1\u00d7").arg(QLocale::c().toString(scale, 'g', 3)), scale);
        const int times = qRound(1.0 / scale);
        m_liveScale->setItemData(m_liveScale->count() - 1,
                                 times == 1 ? tr("Real time: a simulated second takes a second")
                                            : tr("%1 times faster than real time").arg(times),
                                 Qt::ToolTipRole);
        if (scale == LiveMode::defaultTimeScale)
            m_liveScale->setCurrentIndex(m_liveScale->count() - 1);
    }
    connect(m_liveScale, &QComboBox::currentIndexChanged, this,
            [this] { m_live->setTimeScale(m_liveScale->currentData().toDouble()); });
    m_live->setTimeScale(m_liveScale->currentData().toDouble());
}

void LiveController::addWatchToToolBar(QToolBar *bar)
{
    bar->addAction(m_watchAction);
}

// ---- Watch

void LiveController::onWatchResult(const RunResult &result, int lastOperation)
{
    LabDocument *document = m_frame->document();
    TimelineWidget *timeline = m_frame->timeline();
    document->setOpenOnStory(false);
    const bool follow = m_watchPanel->followsLatest();
    const qint64 playhead = timeline->playhead();
    const bool playing = timeline->isPlaying();
    document->publish(result, ResultSource::Watch);
    m_watchPanel->showResult(result);
    if (follow) {
        if (lastOperation > 0 && lastOperation != timeline->operation())
            m_frame->setOperation(lastOperation);
        // The whole exchange at a glance, as a finished run opens.
        timeline->seekToEnd();
        return;
    }
    // Not following: whoever explains an operation keeps it, with its playhead and playback,
    // while other requests arrive.
    timeline->setPlayhead(playhead);
    if (playing)
        timeline->play();
}

bool LiveController::isServing() const
{
    return m_watch->isRunning();
}

bool LiveController::startServing(const WatchOptions &options, QString *error)
{
    if (m_live->isEnabled()) {
        if (error)
            *error = tr("Live is on: switch Live off first (one order server at a time).");
        return false;
    }
    RunController *run = m_frame->document()->runController();
    run->cancel(); // a simulated result must not replace what arrives
    m_watchOptions = options;
    const QString message = m_watch->start(run->scenario(), options);
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

void LiveController::stopServing()
{
    m_watch->stop();
}

void LiveController::serveWithDialog()
{
    if (isServing()) {
        stopServing();
        return;
    }
    WatchServeDialog dialog(m_watchOptions, m_frame->frameWindow());
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        if (startServing(dialog.options(), &error))
            return;
        if (!dialog.options().anyPortIfBusy)
            error += QLatin1Char('\n') + tr("Choose another port, or tick \"If this port is in use, pick a free one\".");
        dialog.showError(error);
    }
}

void LiveController::onServingChanged(bool serving)
{
    // The server runs this scenario: changing it (or running the simulation) would replace the
    // requests on show with a simulated run.
    m_frame->setScenarioLocked(serving);
    m_serveAction->setText(serving ? tr("Stop ser&ving") : tr("Ser&ve…"));
    m_liveAction->setEnabled(!serving);
    m_liveAction->setToolTip(serving ? tr("Live is off while File > Serve is serving: stop serving first "
                                          "(one order server at a time)")
                                     : tr("Run the scenario over real HTTP on this computer (loopback) instead "
                                          "of simulating it"));
    {
        const QSignalBlocker blocker(m_watchAction);
        m_watchAction->setChecked(serving);
    }
    QMainWindow *window = m_frame->frameWindow();
    if (serving) {
        m_watchDock->show();
        m_watchDock->raise();
        // Room for the commands without a scroll bar; the timeline keeps the rest.
        window->resizeDocks({m_watchDock}, {qMin(WatchDockWidth, window->width() / 2)}, Qt::Horizontal);
        // The Watch label in the status bar says where it serves (showWatchStatus): no passing message
        // beside it repeats "Serving at ...".
    } else if (m_frame->document()->source() == ResultSource::Watch) {
        m_status->watchLabel()->setText(tr("Stopped serving"));
    }
}

void LiveController::showWatchStatus()
{
    if (m_frame->document()->source() == ResultSource::Check) {
        m_status->watchLabel()->setText(tr("Check report %1").arg(QFileInfo(m_checkReportFile).fileName()));
        return;
    }
    if (m_frame->document()->source() == ResultSource::Proxy) {
        QString text = m_proxy->isRunning() ? tr("Proxy at %1 in front of %2")
                                                  .arg(m_proxy->url().toString(), m_proxy->upstream().toString())
                                            : tr("Proxy stopped");
        if (m_proxy->proxyTrace().droppedExchanges() > 0)
            text += QStringLiteral(" \u00b7 ") + tr("older exchanges dropped");
        m_status->watchLabel()->setText(text);
        return;
    }
    if (m_frame->document()->source() != ResultSource::Watch)
        return;
    const qint64 dropped = m_watch->watchTrace().droppedEvents();
    QString text = m_watch->isRunning() ? tr("Serving at %1").arg(m_watch->commandUrl().toString())
                                        : tr("Stopped serving");
    if (dropped > 0)
        text += QStringLiteral(" \u00b7 ") + tr("older events dropped");
    m_status->watchLabel()->setText(text);
}

void LiveController::showDockIfServing()
{
    if (isServing()) {
        m_watchDock->show();
        m_watchDock->raise();
    }
}

// ---- Proxy

bool LiveController::isProxying() const
{
    return m_proxy->isRunning();
}

bool LiveController::startProxy(const ProxyOptions &options, const Scenario &faults, QString *error)
{
    // One outside source on show at a time: the proxy's exchanges, not a Live run or the Watch view.
    if (m_live->isEnabled() || isServing()) {
        if (error)
            *error = tr("Switch Live off and stop serving first: the window shows one source of requests at a time.");
        return false;
    }
    m_frame->document()->runController()->cancel(); // a simulated result must not replace what goes through
    m_proxyOptions = options;
    const QString message = m_proxy->start(faults, options);
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

void LiveController::stopProxy()
{
    m_proxy->stop();
}

void LiveController::proxyWithDialog()
{
    if (isProxying()) {
        stopProxy();
        return;
    }
    ProxyDialog dialog(m_proxyOptions, m_frame->document()->scenario(), m_frame->frameWindow());
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        if (startProxy(dialog.options(), dialog.faults(), &error))
            return;
        dialog.showError(error);
    }
}

void LiveController::onProxyResult(const RunResult &result, int lastOperation)
{
    LabDocument *document = m_frame->document();
    TimelineWidget *timeline = m_frame->timeline();
    document->setOpenOnStory(false);
    document->publish(result, ResultSource::Proxy);
    // The latest logical request, whole: a class watches each retry arrive.
    if (lastOperation > 0 && lastOperation != timeline->operation())
        m_frame->setOperation(lastOperation);
    timeline->seekToEnd();
}

void LiveController::onProxyingChanged(bool proxying)
{
    m_frame->setScenarioLocked(proxying);
    m_proxyAction->setText(proxying ? tr("Stop the p&roxy") : tr("P&roxy…"));
    m_serveAction->setEnabled(!proxying);
    m_watchAction->setEnabled(!proxying);
    m_liveAction->setEnabled(!proxying);
    // The Watch label says where the proxy listens (showWatchStatus), once.
    if (proxying)
        m_frame->showPage(LabFrame::Page::Timeline);
    showWatchStatus();
}

// ---- A check report and the subject panel

void LiveController::createSubject()
{
    // Where the Scenario dock is, in its place: the scenario on show is not what the views show.
    m_subjectPanel = new SubjectPanel;
    m_subjectDock = tabbedDock(m_frame, m_subjectPanel, tr("Your service"), QStringLiteral("subjectDock"));
    // A probe at a glance, as a report opens: its last answer in view.
    connect(m_subjectPanel, &SubjectPanel::operationRequested, this, [this](int op) {
        m_frame->setOperation(op);
        m_frame->timeline()->seekToEnd();
    });
    LabDocument *document = m_frame->document();
    connect(document, &LabDocument::operationChanged, m_subjectPanel, &SubjectPanel::setCurrentOperation);
    connect(document, &LabDocument::resultChanged, this, &LiveController::showSubject);
}

void LiveController::showSubject()
{
    const LabDocument *document = m_frame->document();
    const ResultSource source = document->source();
    if (source == ResultSource::Proxy) {
        m_subjectPanel->showProxy(m_proxy->url(), m_proxy->upstream(), m_proxy->isRunning(), document->result().scenario,
                                  document->result().metrics);
        m_frame->setSubject(tr("Proxy in front of %1").arg(m_proxy->upstream().toString()));
    } else if (source == ResultSource::Check) {
        m_frame->setSubject(tr("Idempotency check of %1 (%2)").arg(m_checkReport.url, QFileInfo(m_checkReportFile).fileName()));
    } else {
        m_frame->setSubject(QString());
        if (m_subjectDock->isVisible()) {
            // The Scenario takes its place in front; a tab in front of it (a lesson) stays there.
            const bool inFront = !m_subjectDock->visibleRegion().isEmpty();
            m_subjectDock->hide();
            if (inFront)
                m_frame->scenarioDock()->raise();
        }
        return;
    }
    if (!m_subjectDock->isVisible())
        bringDockToFront(m_subjectDock);
}

bool LiveController::openCheckReport(const QString &fileName, QString *error)
{
    if (m_live->isEnabled() || isServing() || isProxying()) {
        if (error)
            *error = tr("Switch Live off, stop serving and stop the proxy first: the window shows one source of requests at a time.");
        return false;
    }
    CheckReport report;
    const QStringList errors = check::loadReport(fileName, &report);
    if (!errors.isEmpty()) {
        if (error)
            *error = errors.join(QLatin1Char('\n'));
        return false;
    }
    showCheckReport(report, fileName, 0);
    return true;
}

void LiveController::showCheckReport(const CheckReport &report, const QString &fileName, int operation)
{
    m_checkReport = report;
    m_checkReportFile = fileName;
    m_checkTrace = CheckTrace::of(report);
    // Each operation named by its probe and verdict, beside the operation box.
    RunResult result = m_checkTrace.result;
    for (OpSummary &op : result.ops) {
        const CheckOperation &o = m_checkTrace.operations.at(op.op - 1);
        op.ref = tr("%1: %2").arg(check::probeTitle(o.probe), check::verdictWord(o.verdict.verdict));
        if (report.roundsAsked > 1)
            op.ref += QLatin1Char(' ') + tr("(round %1)").arg(o.round);
    }
    LabDocument *document = m_frame->document();
    document->runController()->cancel(); // a simulated result must not replace the report
    document->setOpenOnStory(false);
    m_subjectPanel->showCheck(report, fileName, m_checkTrace.operations);
    document->publish(result, ResultSource::Check);
    // The first failure, else the first probe: what a class should look at first.
    int first = result.ops.isEmpty() ? 1 : result.ops.constFirst().op;
    for (const CheckOperation &o : std::as_const(m_checkTrace.operations)) {
        if (o.verdict.verdict == Verdict::Fail && o.deciding) {
            first = o.op;
            break;
        }
    }
    m_frame->setOperation(operation > 0 && operation <= result.ops.size() ? operation : first);
    m_frame->timeline()->seekToEnd();
    m_frame->showPage(LabFrame::Page::Timeline);
    showWatchStatus();
}

void LiveController::openCheckReportWithDialog()
{
    const QString fileName = QFileDialog::getOpenFileName(m_frame->frameWindow(), tr("Open check report"), QString(),
                                                          tr("Check reports (*.json);;All files (*)"));
    if (fileName.isEmpty())
        return;
    QString error;
    if (!openCheckReport(fileName, &error))
        QMessageBox::warning(m_frame->frameWindow(), tr("Cannot open the check report"), error);
}

// ---- Live run

bool LiveController::isLiveOn() const
{
    return m_live->isEnabled();
}

bool LiveController::isLiveRunning() const
{
    return m_live->isRunning();
}

void LiveController::setLive(bool on)
{
    if (on && isServing()) {
        const QSignalBlocker blocker(m_liveAction);
        m_liveAction->setChecked(false);
        return;
    }
    {
        const QSignalBlocker blocker(m_liveAction);
        m_liveAction->setChecked(on);
    }
    if (on == m_live->isEnabled())
        return;
    m_live->setEnabled(on);
    m_liveScaleAction->setVisible(on);
    m_stopLiveAction->setVisible(on);
    const QString serveTip = tr("Serve is off while Live is on: switch Live off first (one order server at a time)");
    m_serveAction->setEnabled(!on);
    m_watchAction->setEnabled(!on);
    m_watchAction->setVisible(!on); // room in the toolbar for the time scale and Stop; File > Serve… says why
    m_serveAction->setToolTip(on ? serveTip : tr("Run the order service over HTTP for curl, Python or any client"));
    m_watchAction->setToolTip(on ? serveTip
                                 : tr("Serve orders on port 8080 (or a free one) and show every request that arrives"));
    m_watchPanel->setEnabled(!on);
    m_frame->setRerunLive(on);
    LabDocument *document = m_frame->document();
    if (on) {
        document->runController()->cancel();
        startLiveRun();
    } else {
        m_liveEdit->stop();
        document->setOpenOnStory(document->source() == ResultSource::LiveRun);
        document->runController()->rerun(); // back to the simulation of the same scenario
    }
}

void LiveController::stopLiveRun()
{
    m_liveEdit->stop();
    m_live->stop();
}

void LiveController::startLiveRun()
{
    m_liveEdit->stop();
    m_status->hideBanner();
    m_live->start(m_frame->document()->scenario());
}

void LiveController::onScenarioLoaded()
{
    if (!m_live->isEnabled())
        return;
    m_frame->document()->runController()->cancel(); // the live run replaces the simulation
    startLiveRun();
}

void LiveController::onScenarioEdited()
{
    if (!m_live->isEnabled())
        return;
    m_frame->document()->runController()->cancel();
    m_liveEdit->start();
}

bool LiveController::rerun()
{
    if (!m_live->isEnabled())
        return false;
    startLiveRun();
    return true;
}

void LiveController::stopAll()
{
    if (m_live->isEnabled())
        setLive(false);
    if (isServing())
        stopServing();
    if (isProxying())
        stopProxy();
}

void LiveController::onLiveRunningChanged(bool running)
{
    m_stopLiveAction->setEnabled(running);
    m_status->setLiveRunning(running, m_frame->document()->runController()->isBusy(), m_frame->document()->source());
    updateLiveRunLabel();
}

void LiveController::updateLiveRunLabel()
{
    QLabel *label = m_status->liveRunLabel();
    if (m_live->isRunning()) {
        const double seconds = double(m_live->elapsedMs()) / 1000.0;
        label->setText(tr("Live run over %1: %2 s")
                           .arg(m_live->url().toString(QUrl::StripTrailingSlash), QLocale().toString(seconds, 'f', 1)));
    } else {
        label->setText(m_liveRunDescription);
    }
    label->setVisible(m_live->isRunning() || m_frame->document()->source() == ResultSource::LiveRun);
}

void LiveController::onLiveRunFinished(const RunResult &result, const QString &description)
{
    m_liveRunDescription = description;
    m_frame->document()->setOpenOnStory(true); // another source, another result: open it as a loaded scenario opens
    m_frame->document()->publish(result, ResultSource::LiveRun);
}

LiveController::State LiveController::saveState() const
{
    State state;
    state.live = m_live->isEnabled();
    if (m_frame->document()->source() == ResultSource::Check) {
        state.checkReport = m_checkReport;
        state.checkReportFile = m_checkReportFile;
        state.checkOperation = m_frame->timeline()->operation();
        state.checkPlayhead = m_frame->timeline()->playhead();
    }
    return state;
}

void LiveController::restoreState(const State &state)
{
    if (state.live)
        setLive(true);
    if (!state.checkReportFile.isEmpty() && !state.live) {
        showCheckReport(state.checkReport, state.checkReportFile, state.checkOperation);
        if (state.checkPlayhead >= 0)
            m_frame->timeline()->setPlayhead(state.checkPlayhead);
    }
}

} // namespace retrylab
