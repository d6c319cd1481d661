#pragma once

#include "check/checktrace.h"
#include "live/proxysession.h"
#include "live/watchsession.h"
#include "simulator.h"

#include <QObject>

class QAction;
class QComboBox;
class QDockWidget;
class QMenu;
class QTimer;
class QToolBar;

namespace retrylab {

class LabFrame;
class LiveMode;
class StatusOutcome;
class SubjectPanel;
class WatchPanel;

// The two ways a result comes from real HTTP instead of the simulation: the Watch view (File >
// Serve…: the embedded order server shows what outside clients send) and a Live run (Playback >
// Live: the lab's own client runs the scenario over loopback). Both publish into the document
// with their source; one order server at a time, so each switches the other off.
class LiveController : public QObject
{
    Q_OBJECT
public:
    // Creates the Watch dock (hidden) and the actions; `frame` outlives the controller.
    LiveController(LabFrame *frame, StatusOutcome *status, QObject *parent = nullptr);

    // ---- Where the frame puts the actions
    void addToFileMenu(QMenu *menu);         // Serve…, Watch live requests, Proxy…
    void addToViewMenu(QMenu *menu);         // the Watch dock's toggle
    void addToPlaybackMenu(QMenu *menu);     // Live, Stop live run
    void addLiveToToolBar(QToolBar *bar);    // Live, its time scale, Stop
    void addWatchToToolBar(QToolBar *bar);   // Watch live requests

    // ---- Watch: the embedded order server and its panel
    WatchSession *watchSession() const { return m_watch; }
    WatchPanel *watchPanel() const { return m_watchPanel; }
    QDockWidget *watchDock() const { return m_watchDock; }
    QAction *serveAction() const { return m_serveAction; }
    QAction *watchAction() const { return m_watchAction; }
    // Serves the current scenario's server and fault settings; while it runs, the views show
    // what arrives and the scenario cannot be changed. Returns false with the reason.
    bool startServing(const WatchOptions &options, QString *error = nullptr);
    void stopServing();
    bool isServing() const;

    // ---- Proxy: a fault proxy in front of someone's own service (File > Proxy…)
    ProxySession *proxySession() const { return m_proxy; }
    QAction *proxyAction() const { return m_proxyAction; }
    // Starts the proxy with `faults` (the scenario's network.* and server.* fault fields); while it
    // runs, the views show what goes through it and the scenario cannot be changed. Returns false
    // with the reason.
    bool startProxy(const ProxyOptions &options, const Scenario &faults, QString *error = nullptr);
    void stopProxy();
    bool isProxying() const;

    // ---- A check report (`retrylab check --save FILE`): each probe round an operation on the timeline
    QAction *checkReportAction() const { return m_checkReportAction; }
    // Shows the report in `fileName`; false with the reason (the file's errors, each naming where,
    // or another source of requests still running).
    bool openCheckReport(const QString &fileName, QString *error = nullptr);
    // The check report on show (empty when none was opened).
    const CheckTrace &checkTrace() const { return m_checkTrace; }

    // ---- What the window shows instead of a scenario: the proxied service or the check report
    SubjectPanel *subjectPanel() const { return m_subjectPanel; }
    QDockWidget *subjectDock() const { return m_subjectDock; }

    // ---- Live run: the lab's own client over real HTTP
    LiveMode *liveMode() const { return m_live; }
    QAction *liveAction() const { return m_liveAction; }
    QAction *stopLiveAction() const { return m_stopLiveAction; }
    QComboBox *liveScaleBox() const { return m_liveScale; }
    // Live is on: Re-run, a new seed, an edit and loading a scenario run it over real HTTP.
    bool isLiveOn() const;
    bool isLiveRunning() const;

    // ---- What the frame tells it
    // A scenario was loaded: in Live mode it runs over HTTP instead of being simulated.
    void onScenarioLoaded();
    // An edit: in Live mode a burst of edits starts one run.
    void onScenarioEdited();
    // Re-run: true when a Live run started (the frame then does not simulate).
    bool rerun();
    // The status bar's Watch label, after the outcome was shown.
    void showWatchStatus();
    // The status bar's Live run label: running, or the description of the Live run on show.
    void updateLiveRunLabel();
    // Reset layout: the Watch dock comes back while serving.
    void showDockIfServing();
    // Stops both: the frame goes back to the simulation (a lesson's numbers are the simulation's).
    void stopAll();

    // The language switch: whether Live was on (nothing is served by a new window), and the check
    // report on show with the probe open in it (shown again from memory, not read again).
    struct State
    {
        bool live = false;
        CheckReport checkReport;
        QString checkReportFile; // empty: no report on show
        int checkOperation = 0;
        qint64 checkPlayhead = -1;
    };
    State saveState() const;
    void restoreState(const State &state);

public Q_SLOTS:
    // File > Serve…: asks for the port and the network, then serves; stops when serving.
    void serveWithDialog();
    void proxyWithDialog();
    // File > Open check report…
    void openCheckReportWithDialog();
    // Live on or off; off runs the simulation again.
    void setLive(bool on);
    // Stops the live run in flight; the result on show stays.
    void stopLiveRun();

private:
    void createWatch();
    void createActions();
    void createLiveScale();
    void onWatchResult(const RunResult &result, int lastOperation);
    void onServingChanged(bool serving);
    void onProxyResult(const RunResult &result, int lastOperation);
    void onProxyingChanged(bool proxying);
    void createSubject();
    // Shows `report` (read from `fileName`) and opens `operation`, or its first failing probe when 0.
    void showCheckReport(const CheckReport &report, const QString &fileName, int operation);
    // The subject panel, its dock and the window's title follow the source on show.
    void showSubject();
    void startLiveRun();
    void onLiveRunFinished(const RunResult &result, const QString &description);
    void onLiveRunningChanged(bool running);

    LabFrame *m_frame;
    StatusOutcome *m_status;
    WatchSession *m_watch = nullptr;
    WatchPanel *m_watchPanel = nullptr;
    QDockWidget *m_watchDock = nullptr;
    WatchOptions m_watchOptions; // the last ones asked for in File > Serve…
    ProxySession *m_proxy = nullptr;
    ProxyOptions m_proxyOptions; // the last ones asked for in File > Proxy…
    QAction *m_proxyAction = nullptr;
    QAction *m_checkReportAction = nullptr;
    CheckReport m_checkReport;   // the report on show (File > Open check report…)
    QString m_checkReportFile;
    CheckTrace m_checkTrace;
    SubjectPanel *m_subjectPanel = nullptr;
    QDockWidget *m_subjectDock = nullptr;
    LiveMode *m_live = nullptr;
    QTimer *m_liveEdit = nullptr; // a burst of edits in Live mode starts one run
    QString m_liveRunDescription;
    QAction *m_serveAction = nullptr;
    QAction *m_watchAction = nullptr;
    QAction *m_liveAction = nullptr;
    QAction *m_stopLiveAction = nullptr;
    QAction *m_liveScaleAction = nullptr; // the toolbar's time scale box
    QComboBox *m_liveScale = nullptr;
};

} // namespace retrylab
