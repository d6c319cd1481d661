#pragma once

#include "lesson.h"
#include "scenario.h"
#include "common/settings.h"
#include "simulator.h"
#include "story.h"
#include "live/watchsession.h"

#include <QByteArray>
#include <QRect>
#include <QSize>
#include <QMainWindow>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QShortcut;
class QSpinBox;
class QTabWidget;
class QTimer;

namespace retrylab {

class ChartsPanel;
class LessonPlayer;
class CompareWindow;
class LiveMode;
class LogView;
class Presentation;
class RecordsView;
class RunController;
class ScenarioEditor;
class TimelineWidget;
class WatchPanel;
class WatchSession;

// The desktop lab: the scenario editor in a dock, the timeline, charts, records and log as
// pages of the central area, one RunController feeding every view with the same RunResult.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // LessonHandoutPdf: the open lesson, one step per page (Lessons > Handout of this lesson).
    enum class ExportKind { TimelinePng, TimelineSvg, TimelineSlide, ChartsPng, ChartsSvg, RecordsCsv, TraceJsonl, HandoutPdf,
                            LessonHandoutPdf };
    // The size of a slide export: a projector's 1080p.
    static constexpr QSize SlideSize{1920, 1080};
    // Pages of the central area, in tab order.
    enum class Page { Timeline, Charts, Records, Log };

    // Without restoreLastScenario the window opens empty, for a caller that loads one itself
    // (--scenario): a heavy scenario remembered from last time is then never loaded for nothing.
    explicit MainWindow(QWidget *parent = nullptr, bool restoreLastScenario = true);
    ~MainWindow() override;

    // These load without asking about unsaved changes (the menu actions ask first).
    bool loadPreset(const QString &name, QString *error = nullptr);
    bool loadFile(const QString &fileName, QString *error = nullptr);
    // A preset name or a scenario file, as on the command line.
    bool loadScenario(const QString &nameOrFile, QString *error = nullptr);
    bool saveToFile(const QString &fileName, QString *error = nullptr);
    // Writes the chosen view to a file; the suffix picks nothing, the kind does.
    bool exportTo(ExportKind kind, const QString &fileName, QString *error = nullptr);
    static QString exportSuffix(ExportKind kind);
    // A toolbar button's text for an action's text: "打开(&O)…" -> "打开", "&Open…" -> "Open".
    static QString toolButtonText(QString text);

    void setSeed(quint64 seed);
    int currentOperation() const;
    void setOperation(int op);
    // Operations worth a look in the current result (duplicate, orphan, 409, 422, replay, query).
    const QList<InterestingOp> &interestingOperations() const { return m_interesting; }
    void showPage(Page page);
    Page currentPage() const;
    // Hidden pages get a new result when they are shown; this brings them all up to date now.
    void updateHiddenPages();

    bool isModified() const { return m_modified; }
    QString currentFile() const { return m_fileName; }
    Scenario scenario() const;
    const RunResult &result() const;
    bool hasResult() const;

    ScenarioEditor *editor() const { return m_editor; }
    RunController *runController() const { return m_run; }
    TimelineWidget *timeline() const { return m_timeline; }
    QTabWidget *pages() const { return m_pages; }
    ChartsPanel *charts() const { return m_charts; }
    RecordsView *recordsView() const { return m_records; }
    LogView *logView() const { return m_log; }
    QDockWidget *scenarioDock() const { return m_scenarioDock; }
    // The embedded order server (File > Serve…) and its Watch panel.
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
    // The Live switch: while on, Re-run, a new seed, an edit and loading a scenario run it over
    // real HTTP on loopback (LiveMode) instead of simulating.
    LiveMode *liveMode() const { return m_live; }
    QAction *liveAction() const { return m_liveAction; }
    QAction *stopLiveAction() const { return m_stopLiveAction; }
    QComboBox *liveScaleBox() const { return m_liveScale; }
    // The result on show came from a live run of the lab's own client.
    bool showsLiveRun() const { return m_source == ResultSource::LiveRun; }
    // Presentation mode (F11, View > Presentation mode; Escape leaves) and the projector zoom
    // (Ctrl+plus, Ctrl+minus, Ctrl+0), remembered between sessions.
    Presentation *presentation() const { return m_presentation; }
    QAction *presentAction() const { return m_presentAction; }
    // ---- Compare mode (issue 12): View > Compare… (Ctrl+Shift+C) opens the compare window on
    // the current scenario and operation; null until first opened.
    CompareWindow *compareWindow() const { return m_compare; }
    QAction *compareAction() const { return m_compareAction; }
    // ---- end of compare mode

    // ---- Guided lessons (the Lessons menu, the lesson dock, retrylab --lesson) ----
    // Opens a built-in lesson by name, or a lesson file, at `step` (0-based, clamped); the dock shows
    // it and each step applies its scenario, seed, operation and highlight. False with the errors.
    bool startLesson(const QString &nameOrFile, int step = 0, QString *error = nullptr);
    void startLesson(const Lesson &lesson, int step = 0);
    // Closes the lesson dock: highlights cleared, the outcome shown again.
    void closeLesson();
    bool isLessonOpen() const;
    LessonPlayer *lessonPlayer() const { return m_lessonPlayer; }
    QDockWidget *lessonDock() const { return m_lessonDock; }
    QMenu *lessonsMenu() const { return m_lessonsMenu; }
    // False from a step's change until its run is on show and its operation and highlight applied.
    bool isLessonStepReady() const { return !m_lessonPending; }
    // True while anything hides the outcome: prediction mode, or a lesson question not yet revealed.
    bool outcomeHidden() const;

    // --- Language (View > Language) ---------------------------------------------------------
    // Switching the language rebuilds the window, so that every text (widgets, menus, and the
    // narration and chart titles computed from a run) is created anew in the new language. The new
    // window takes over what the user had in front of them. A feature with state worth keeping
    // across the switch adds a field to Handover, fills it in handover() and applies it in takeOver().
    struct Handover
    {
        Scenario baseline;    // as loaded (preset or file): the editor's "modified" reference
        Scenario scenario;    // as edited, with its seed
        QString fileName;
        bool modified = false;
        int operation = 0;    // on the timeline; 0: the story operation
        qint64 playhead = -1; // microseconds of virtual time; -1: the end
        int page = 0;         // MainWindow::Page
        int chartsTab = 0;    // ChartsPanel::Tab
        QRect geometry;          // without the frame, as outside presentation mode
        bool maximized = false;
        QByteArray windowState; // docks and toolbars, as outside presentation mode
        bool presenting = false;
        bool predicting = false;
        bool live = false;
        // An open lesson: its step, the class's guess and whether the answer was shown.
        Lesson lesson;          // no steps: none open
        int lessonStep = 0;
        double lessonGuess = qQNaN();
        int lessonChoice = -1;
        bool lessonRevealed = false;
        // An open compare window: the B toggle picked (-1: none open).
        int compareVariant = -1;
    };
    // Leaves presentation mode first (the layout to hand over is the normal one).
    Handover handover();
    // Applies h to a window built with restoreLastScenario false, before it is shown; the
    // operation and playhead follow once the scenario's run is shown.
    void takeOver(const Handover &h);
    // The View > Language actions, one per i18n::languages() entry (data: the language code).
    QList<QAction *> languageActions() const { return m_languageActions; }
    // Installs the translators of `language`, remembers it and emits languageChanged; nothing for
    // the language already installed.
    void setLanguage(const QString &language);

public Q_SLOTS:
    void newFromPreset(const QString &name);
    void open();
    void openRecent(const QString &fileName);
    bool save();
    bool saveAs();
    void exportWithDialog(retrylab::MainWindow::ExportKind kind);
    void rerun();
    void togglePlayback();
    void stepNext();
    void stepPrevious();
    void nextInterestingOperation();
    void previousInterestingOperation();
    // Runs the scenario with a fresh random seed: the lesson must hold for any seed.
    void newSeed();
    void resetLayout();
    void about();
    // Lessons > Open lesson file…
    void openLessonFile();
    // File > Serve…: asks for the port and the network, then serves; stops when serving.
    void serveWithDialog();
    // Live on or off; off runs the simulation again.
    void setLive(bool on);
    // Stops the live run in flight; the result on show stays.
    void stopLiveRun();
    // Compare mode: A = the current scenario, B = it with one toggle changed (same seed).
    void openCompare();

Q_SIGNALS:
    // After the views were given a new result.
    void resultShown();
    // View > Language installed `language` (en or zh_CN); WindowHost (gui.h) answers by replacing
    // this window with one built in that language.
    void languageChanged(const QString &language);

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createViews();
    void createActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    void createPresentation();
    void createLessons();
    void applyLessonStep(int step);
    void finishLessonStep();
    void revealLessonAnswer();
    void finishLessonReveal();
    void updateLessonKeys();
    // The open lesson's handout: every step run on the worker threads (progress and Cancel in
    // `progress` when given), then written. Empty or the error.
    QString writeOpenLessonHandout(const QString &fileName, QWidget *progressParent);
    void updatePresentationKeys();
    void connectViews();
    void applyScenario(const Scenario &scenario, const QString &fileName);
    void onScenarioEdited(const Scenario &scenario);
    void onResult(const RunResult &result);
    void onLiveResult(const RunResult &result, int lastOperation);
    void onServingChanged(bool serving);
    void startLiveRun();
    void onLiveRunFinished(const RunResult &result, const QString &description);
    void onLiveRunningChanged(bool running);
    void updateLiveRunLabel();
    // The banner at the left of the status bar: the numbers beside it are the last run's.
    void showBanner(const QString &text, const QString &toolTip);
    void onEventSelected(QObject *source, int traceIndex);
    void updateTitle();
    void updateWorstCase(const Scenario &scenario);
    void updatePlaybackActions();
    // The run's numbers in the status bar ("?" while prediction mode hides them).
    void showOutcome(const RunResult &result);
    // Prediction mode: hides the outcome (status numbers, charts, records, log) until the reveal.
    void applyPredictionHiding();
    void updateInterestingActions();
    void updateSeedField();
    void refreshPage(int index);
    void setModified(bool modified);
    bool maybeSave();
    void rebuildRecentMenu();
    void restoreSettings(bool lastScenario);
    void saveSettings();

    Settings m_settings;
    RunController *m_run = nullptr;
    ScenarioEditor *m_editor = nullptr;
    TimelineWidget *m_timeline = nullptr;
    ChartsPanel *m_charts = nullptr;
    RecordsView *m_records = nullptr;
    LogView *m_log = nullptr;
    WatchSession *m_watch = nullptr;
    WatchPanel *m_watchPanel = nullptr;
    QDockWidget *m_watchDock = nullptr;

    QDockWidget *m_scenarioDock = nullptr;
    QTabWidget *m_pages = nullptr;

    QAction *m_openAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_playAction = nullptr;
    QAction *m_stepNextAction = nullptr;
    QAction *m_stepPreviousAction = nullptr;
    QAction *m_nextInterestingAction = nullptr;
    QAction *m_previousInterestingAction = nullptr;
    QAction *m_newSeedAction = nullptr;
    QList<QAction *> m_pageActions;
    QAction *m_resetLayoutAction = nullptr;
    QAction *m_predictAction = nullptr;
    class PredictionPanel *m_prediction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_serveAction = nullptr;
    QAction *m_watchAction = nullptr;
    QAction *m_liveAction = nullptr;
    QAction *m_stopLiveAction = nullptr;
    QAction *m_liveScaleAction = nullptr; // the toolbar's time scale box
    QComboBox *m_liveScale = nullptr;
    QMenu *m_presetMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_exportMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QSpinBox *m_operation = nullptr;
    QLabel *m_operationWhy = nullptr;
    QLineEdit *m_seedEdit = nullptr;

    QLabel *m_statusWorstCase = nullptr;
    QLabel *m_statusAttempts = nullptr;
    QLabel *m_statusRecords = nullptr;
    QLabel *m_statusDuplicates = nullptr;
    QLabel *m_statusOutstanding = nullptr;
    QLabel *m_statusQueries = nullptr;
    QLabel *m_statusRefused = nullptr;
    QLabel *m_statusOrphans = nullptr;
    QLabel *m_statusLost = nullptr;
    QLabel *m_statusLive = nullptr;
    QLabel *m_statusLiveRun = nullptr;
    QProgressBar *m_busy = nullptr;

    QString m_fileName;
    bool m_modified = false;
    bool m_syncingSelection = false;
    // The next result opens on its story operation (a preset or file was loaded, or a new seed).
    bool m_openOnStory = true;
    QList<InterestingOp> m_interesting;
    QList<bool> m_pageStale; // per page: shows an older result than m_run's
    QByteArray m_defaultState;
    // Where a result comes from: the simulation, the embedded server's Watch, or a Live run.
    enum class ResultSource { Simulation, Watch, LiveRun };
    // Hands a result from outside the simulation to the run controller; onResult then knows its source.
    void publishResult(const RunResult &result, ResultSource source);
    ResultSource m_source = ResultSource::Simulation;     // of the result on show
    ResultSource m_publishing = ResultSource::Simulation; // of the result being handed over
    WatchOptions m_watchOptions; // the last ones asked for in File > Serve…
    LiveMode *m_live = nullptr;
    QTimer *m_liveEdit = nullptr; // a burst of edits in Live mode starts one run
    QString m_liveRunDescription;
    Presentation *m_presentation = nullptr;
    QAction *m_presentAction = nullptr;
    QAction *m_zoomInAction = nullptr;
    QAction *m_zoomOutAction = nullptr;
    QAction *m_zoomResetAction = nullptr;
    QList<QAction *> m_languageActions;
    QMenu *m_languageMenu = nullptr;
    void createLanguageMenu();
    QShortcut *m_leaveKey = nullptr;      // Escape, while presenting
    QList<QShortcut *> m_presentingKeys; // Left / Right step events while presenting
    // Guided lessons.
    LessonPlayer *m_lessonPlayer = nullptr;
    QDockWidget *m_lessonDock = nullptr;
    QMenu *m_lessonsMenu = nullptr;
    QShortcut *m_timelineNextKey = nullptr;     // Page Down on the timeline: next interesting operation
    QShortcut *m_timelinePreviousKey = nullptr; // Page Up on the timeline
    QShortcut *m_lessonNextKey = nullptr;       // Page Down anywhere while a lesson is open: next step
    QShortcut *m_lessonPreviousKey = nullptr;   // Page Up: previous step
    bool m_lessonPending = false;               // a step was applied, its run not yet shown
    QMetaObject::Connection m_lessonRevealDone; // the reveal's animation end
    // Compare mode (issue 12).
    CompareWindow *m_compare = nullptr;
    QAction *m_compareAction = nullptr;
};

} // namespace retrylab
