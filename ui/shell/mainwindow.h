#pragma once

#include "common/settings.h"
#include "lessons/lessoncontroller.h"
#include "live/livecontroller.h"
#include "presentation/presentationcontroller.h"
#include "scenario.h"
#include "shell/exporter.h"
#include "shell/labactions.h"
#include "shell/labframe.h"
#include "simulator.h"
#include "story.h"

#include <QByteArray>
#include <QMainWindow>
#include <QRect>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QShortcut;
class QSpinBox;
class QTabWidget;

namespace retrylab {

class ChartsPanel;
class CompareWindow;
class LabDocument;
class LogView;
class PredictionPanel;
class RecordsView;
class RunController;
class ScenarioEditor;
class StatusOutcome;
class TimelineWidget;

// The desktop lab's frame: the scenario editor in a dock, the timeline, charts, records and log as
// pages of the central area, the menus and the toolbar. The views observe one LabDocument; each
// feature (lessons, Watch and Live run, presentation, export, the status bar's outcome) is a
// controller that adds its own actions and docks and keeps its own state.
class MainWindow : public QMainWindow, public LabFrame
{
    Q_OBJECT
public:
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
    // A toolbar button's text for an action's text: "打开(&O)…" -> "打开", "&Open…" -> "Open".
    static QString toolButtonText(QString text);
    // Whether a window of this size, with no saved geometry, opens maximized on a screen with this
    // room: when it and its title bar do not fit (a 1280x720 projector), a plain show() would push the
    // status bar below the screen's edge.
    static bool opensMaximized(QSize window, QSize room, bool geometryRestored);
    // The size a window of this size, with no saved geometry, opens at on a screen with this room:
    // on a screen larger than it (1920x1080) most of the screen, kept centred, so that a class reads
    // the timeline without the teacher reaching for the maximise button; else its own size.
    static QSize openingSize(QSize window, QSize room, bool geometryRestored);
    // show(), or showMaximized() when opensMaximized() says so for this window and its screen;
    // sized by openingSize() first.
    void showOnScreen();

    void setSeed(quint64 seed);
    int currentOperation() const;
    void setOperation(int op) override;
    // Operations worth a look in the current result (duplicate, orphan, 409, 422, replay, query).
    const QList<InterestingOp> &interestingOperations() const;
    void showPage(Page page) override;
    Page currentPage() const override;
    // Hidden pages pull a new result when they are shown; this brings them all up to date now.
    void updateHiddenPages();

    bool isModified() const;
    QString currentFile() const;
    Scenario scenario() const;
    const RunResult &result() const;
    bool hasResult() const;
    bool outcomeHidden() const override;

    LabDocument *document() const override { return m_document; }
    ScenarioEditor *editor() const override { return m_editor; }
    RunController *runController() const;
    TimelineWidget *timeline() const override { return m_timeline; }
    QTabWidget *pages() const { return m_pages; }
    ChartsPanel *charts() const override { return m_charts; }
    RecordsView *recordsView() const { return m_records; }
    LogView *logView() const { return m_log; }
    QDockWidget *scenarioDock() const override { return m_scenarioDock; }

    // The features' controllers.
    LessonController *lessons() const { return m_guide; }
    LiveController *live() const { return m_sources; }
    PresentationController *presenter() const { return m_presenter; }
    Exporter *exporter() const { return m_exporter; }
    StatusOutcome *statusOutcome() const { return m_status; }
    // ---- Compare mode (issue 12): View > Compare… (Ctrl+Shift+C) opens the compare window on
    // the current scenario and operation; null until first opened.
    CompareWindow *compareWindow() const { return m_compare; }
    QAction *compareAction() const { return m_actions.compare; }

    // --- Language (View > Language) ---------------------------------------------------------
    // Switching the language rebuilds the window, so that every text (widgets, menus, and the
    // narration and chart titles computed from a run) is created anew in the new language. The new
    // window takes over what the user had in front of them: the frame's part here, each
    // controller's in its own State.
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
        bool predicting = false;
        int compareVariant = -1; // an open compare window: the B toggle picked (-1: none open)
        PresentationController::State presentation;
        LiveController::State sources;
        LessonController::State lesson;
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

    // LabFrame
    QMainWindow *frameWindow() override { return this; }
    bool maybeSave() override;
    void applyScenario(const Scenario &scenario, const QString &fileName) override;
    void applyOutcomeHiding() override;
    void updatePlaybackActions() override;
    void stopPredicting() override;
    void stopOutsideSources() override;
    void exportLessonHandout() override;
    void setScenarioLocked(bool locked) override;
    void setRerunLive(bool live) override;
    void setSubject(const QString &subject) override;

public Q_SLOTS:
    void newFromPreset(const QString &name);
    void open();
    void openRecent(const QString &fileName);
    bool save();
    bool saveAs();
    void rerun();
    void togglePlayback();
    void stepNext() override;
    void stepPrevious() override;
    void nextInterestingOperation();
    void previousInterestingOperation();
    // Runs the scenario with a fresh random seed: the lesson must hold for any seed.
    void newSeed();
    void resetLayout();
    void about();
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
    void createControllers();
    void connectActions();
    void createMenus();
    void createFileMenu();
    void createLanguageMenu();
    void createToolBar();
    QWidget *createSeedBox(QWidget *parent);
    QWidget *createOperationBox(QWidget *parent);
    void connectViews();
    void onScenarioEdited(const Scenario &scenario);
    // A new result, in three steps around the views that pull it (followDocument).
    void followDocument();
    void onResultArriving(const RunResult &result);
    void openResultOperation();
    void onResultFollowed(const RunResult &result);
    // The run's numbers in the status bar, and the Watch label.
    void showOutcome();
    void updateWorstCase(const Scenario &scenario);
    void onSelectionChanged(int traceIndex, QObject *origin);
    void updateTitle();
    void updateInterestingActions();
    void updateSeedField();
    void checkPageAction(int index);
    void setModified(bool modified);
    void rebuildRecentMenu();
    void restoreSettings(bool lastScenario);
    void saveSettings();

    Settings m_settings;
    LabDocument *m_document = nullptr;
    ScenarioEditor *m_editor = nullptr;
    TimelineWidget *m_timeline = nullptr;
    ChartsPanel *m_charts = nullptr;
    RecordsView *m_records = nullptr;
    LogView *m_log = nullptr;
    QDockWidget *m_scenarioDock = nullptr;
    QTabWidget *m_pages = nullptr;
    PredictionPanel *m_prediction = nullptr;

    StatusOutcome *m_status = nullptr;
    Exporter *m_exporter = nullptr;
    LiveController *m_sources = nullptr;
    PresentationController *m_presenter = nullptr;
    LessonController *m_guide = nullptr;
    CompareWindow *m_compare = nullptr;

    LabActions m_actions;
    QMenu *m_presetMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QList<QAction *> m_languageActions;
    QSpinBox *m_operation = nullptr;
    QLabel *m_operationWhy = nullptr;
    int m_openingOperation = 1; // the operation a result arriving opens on
    QString m_subject; // LabFrame::setSubject: the title names it instead of the scenario
    bool m_geometryRestored = false; // the user's saved geometry was restored at start-up
    bool m_openingStory = false; // ... which is its story's: the whole story shown at once
    QLineEdit *m_seedEdit = nullptr;
    QShortcut *m_timelineNextKey = nullptr;     // Page Down on the timeline: next interesting operation
    QShortcut *m_timelinePreviousKey = nullptr; // Page Up on the timeline
    QByteArray m_defaultState;
};

} // namespace retrylab
