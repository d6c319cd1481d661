#include "shell/mainwindow.h"

#include "charts/chartspanel.h"
#include "compare/comparewindow.h"
#include "lessons/handout.h"
#include "lessons/predictionpanel.h"
#include "editor/editorstyle.h"
#include "shell/helpdialog.h"
#include "lessons/lessonplayer.h"
#include "i18n.h"
#include "live/livemode.h"
#include "tables/logview.h"
#include "presentation/presentation.h"
#include "tables/recordsview.h"
#include "document/runcontroller.h"
#include "editor/scenarioeditor.h"
#include "timeline/timelinestyle.h"
#include "timeline/timelinewidget.h"
#include "trace.h"
#include "live/watchpanel.h"
#include "live/watchservedialog.h"

#include <QAction>
#include <QActionGroup>
#include <QVariantAnimation>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QEventLoop>
#include <QProgressDialog>
#include <QFutureWatcher>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QRegularExpressionValidator>
#include <QShortcut>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QToolButton>

#include <algorithm>
#include <functional>

namespace retrylab {

namespace {
// Default layout at 1280x720: room for the form on the left; the timeline, charts, records and
// log share the rest as pages, so each gets the full height.
constexpr int ScenarioDockWidth = 350;
constexpr int WatchDockWidth = 470;

QIcon themedIcon(const QString &name, QStyle::StandardPixmap fallback, const QStyle *style)
{
    return QIcon::fromTheme(name, style->standardIcon(fallback));
}

QDockWidget *makeDock(const QString &title, const QString &objectName, QWidget *content, QMainWindow *window)
{
    auto *dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
                      | QDockWidget::DockWidgetFloatable);
    return dock;
}
} // namespace

MainWindow::MainWindow(QWidget *parent, bool restoreLastScenario)
    : QMainWindow(parent)
    , m_run(new RunController(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/retrylab.svg")));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    createViews();
    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    connectViews();
    createPresentation();
    createLessons();

    resize(1280, 720);
    resizeDocks({m_scenarioDock}, {ScenarioDockWidth}, Qt::Horizontal);
    m_defaultState = saveState();

    restoreSettings(restoreLastScenario);
    // A saved layout may have had a lesson open: the dock waits for the next lesson.
    m_lessonDock->hide();
}

MainWindow::~MainWindow()
{
    // Destroying the children moves the focus: the seed box must not apply a seed to a
    // half-destroyed window.
    disconnect(m_seedEdit, nullptr, this, nullptr);
    // Nor may the lesson dock's hiding, nor the player, reach the half-destroyed status bar.
    disconnect(m_lessonDock, nullptr, this, nullptr);
    disconnect(m_lessonPlayer, nullptr, this, nullptr);
}

void MainWindow::createViews()
{
    m_editor = new ScenarioEditor;
    m_editor->setObjectName(QStringLiteral("scenarioEditor"));
    m_scenarioDock = makeDock(tr("Scenario"), QStringLiteral("scenarioDock"), m_editor, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_scenarioDock);

    // A bottom dock left the charts 25 px tall at 1280x720: every view gets the whole centre instead.
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    m_timeline = new TimelineWidget;
    m_timeline->setObjectName(QStringLiteral("timeline"));
    m_timeline->setOperationPickerVisible(false); // the toolbar has the Operation box
    m_charts = new ChartsPanel;
    m_charts->setObjectName(QStringLiteral("charts"));
    m_records = new RecordsView;
    m_records->setObjectName(QStringLiteral("records"));
    m_log = new LogView;
    m_log->setObjectName(QStringLiteral("log"));
    m_pages->addTab(m_timeline, tr("Timeline"));
    m_pages->addTab(m_charts, tr("Charts"));
    m_pages->addTab(m_records, tr("Records"));
    m_pages->addTab(m_log, tr("Log"));
    m_pages->setTabToolTip(int(Page::Timeline), tr("The attempts of one operation, animated (Ctrl+1)"));
    m_pages->setTabToolTip(int(Page::Charts),
                           tr("Duplicates over time, what-if variants, sweeps, attempts per operation (Ctrl+2)"));
    m_pages->setTabToolTip(int(Page::Records), tr("The rows the order service committed (Ctrl+3)"));
    m_pages->setTabToolTip(int(Page::Log), tr("Every event of the run (Ctrl+4)"));
    m_pageStale = QList<bool>(m_pages->count(), false);
    // Prediction mode's bar sits above the pages, shown only while the mode is on. Not a toolbar: the
    // saved window state (restoreState) must not carry it.
    m_prediction = new PredictionPanel;
    m_prediction->setObjectName(QStringLiteral("prediction"));
    m_prediction->hide();
    auto *centre = new QWidget(this);
    auto *column = new QVBoxLayout(centre);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_prediction);
    column->addWidget(m_pages, 1);
    setCentralWidget(centre);
    connect(m_pages, &QTabWidget::currentChanged, this, &MainWindow::refreshPage);

    // Beside the timeline rather than a page of its own: the class watches the address and
    // their requests arriving at the same time.
    m_watch = new WatchSession(this);
    m_watchPanel = new WatchPanel(m_watch);
    auto *watchScroll = new QScrollArea;
    watchScroll->setWidget(m_watchPanel);
    watchScroll->setWidgetResizable(true);
    watchScroll->setFrameShape(QFrame::NoFrame);
    m_watchDock = makeDock(tr("Watch"), QStringLiteral("watchDock"), watchScroll, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_watchDock);
    tabifyDockWidget(m_scenarioDock, m_watchDock);
    m_watchDock->hide();
    m_scenarioDock->raise();

    m_live = new LiveMode(this);
    m_liveEdit = new QTimer(this);
    m_liveEdit->setSingleShot(true);
    m_liveEdit->setInterval(400);
    connect(m_liveEdit, &QTimer::timeout, this, &MainWindow::startLiveRun);
}

void MainWindow::createActions()
{
    const QStyle *s = style();
    m_openAction = new QAction(themedIcon(QStringLiteral("document-open"), QStyle::SP_DialogOpenButton, s),
                               tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setToolTip(tr("Open a scenario file"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::open);

    m_saveAction = new QAction(themedIcon(QStringLiteral("document-save"), QStyle::SP_DialogSaveButton, s),
                               tr("&Save"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(themedIcon(QStringLiteral("document-save-as"), QStyle::SP_DialogSaveButton, s),
                                 tr("Save &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);

    m_quitAction = new QAction(themedIcon(QStringLiteral("application-exit"), QStyle::SP_DialogCloseButton, s),
                               tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_runAction = new QAction(themedIcon(QStringLiteral("view-refresh"), QStyle::SP_BrowserReload, s),
                              tr("&Re-run"), this);
    m_runAction->setShortcut(QKeySequence::Refresh);
    m_runAction->setToolTip(tr("Run the scenario again (same seed, same result)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::rerun);

    m_playAction = new QAction(themedIcon(QStringLiteral("media-playback-start"), QStyle::SP_MediaPlay, s),
                               tr("&Play"), this);
    m_playAction->setShortcuts({QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_MediaTogglePlayPause)});
    connect(m_playAction, &QAction::triggered, this, &MainWindow::togglePlayback);

    m_stepPreviousAction = new QAction(
        themedIcon(QStringLiteral("media-skip-backward"), QStyle::SP_MediaSkipBackward, s), tr("Step &back"), this);
    m_stepPreviousAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Left), QKeySequence(Qt::Key_MediaPrevious)});
    m_stepPreviousAction->setToolTip(tr("Previous event of this operation"));
    connect(m_stepPreviousAction, &QAction::triggered, this, &MainWindow::stepPrevious);

    m_stepNextAction = new QAction(themedIcon(QStringLiteral("media-skip-forward"), QStyle::SP_MediaSkipForward, s),
                                   tr("Step &next"), this);
    m_stepNextAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Right), QKeySequence(Qt::Key_MediaNext)});
    m_stepNextAction->setToolTip(tr("Next event of this operation"));
    connect(m_stepNextAction, &QAction::triggered, this, &MainWindow::stepNext);

    m_previousInterestingAction = new QAction(
        themedIcon(QStringLiteral("go-previous"), QStyle::SP_ArrowLeft, s), tr("Previous &interesting operation"), this);
    m_previousInterestingAction->setObjectName(QStringLiteral("previousInteresting"));
    m_previousInterestingAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Left));
    m_previousInterestingAction->setToolTip(
        tr("Previous operation with a duplicate, orphan, replay, 409, 422 or status query (Page Up on the timeline)"));
    connect(m_previousInterestingAction, &QAction::triggered, this, &MainWindow::previousInterestingOperation);

    m_nextInterestingAction = new QAction(themedIcon(QStringLiteral("go-next"), QStyle::SP_ArrowRight, s),
                                          tr("Next i&nteresting operation"), this);
    m_nextInterestingAction->setObjectName(QStringLiteral("nextInteresting"));
    m_nextInterestingAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Right));
    m_nextInterestingAction->setToolTip(
        tr("Next operation with a duplicate, orphan, replay, 409, 422 or status query (Page Down on the timeline)"));
    connect(m_nextInterestingAction, &QAction::triggered, this, &MainWindow::nextInterestingOperation);

    m_newSeedAction = new QAction(themedIcon(QStringLiteral("roll"), QStyle::SP_BrowserReload, s), tr("New &seed"), this);
    m_newSeedAction->setObjectName(QStringLiteral("newSeed"));
    m_newSeedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_newSeedAction->setToolTip(tr("Run again with a new random seed: the lesson should hold for any seed"));
    connect(m_newSeedAction, &QAction::triggered, this, &MainWindow::newSeed);

    const QStringList pageNames{tr("&Timeline"), tr("&Charts"), tr("R&ecords"), tr("&Log")};
    for (int i = 0; i < pageNames.size(); ++i) {
        auto *a = new QAction(pageNames.at(i), this);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        a->setCheckable(true);
        connect(a, &QAction::triggered, this, [this, i] { showPage(Page(i)); });
        m_pageActions << a;
    }

    m_resetLayoutAction = new QAction(tr("&Reset layout"), this);
    connect(m_resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);

    m_predictAction = new QAction(tr("&Predict before you see"), this);
    m_predictAction->setObjectName(QStringLiteral("predictAction"));
    m_predictAction->setCheckable(true);
    m_predictAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_predictAction->setToolTip(tr("Hide the outcome until the class has guessed records, duplicates and attempts"));

    // ---- Compare mode (issue 12)
    m_compareAction = new QAction(tr("&Compare…"), this);
    m_compareAction->setObjectName(QStringLiteral("compareAction"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_compareAction->setToolTip(tr("Run this scenario and a copy with one toggle changed side by side, same seed"));
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::openCompare);
    // ---- end of compare mode

    m_serveAction = new QAction(themedIcon(QStringLiteral("network-server"), QStyle::SP_DriveNetIcon, s),
                                tr("Ser&ve…"), this);
    m_serveAction->setObjectName(QStringLiteral("serveAction"));
    m_serveAction->setToolTip(tr("Run the order service over HTTP for curl, Python or any client"));
    connect(m_serveAction, &QAction::triggered, this, &MainWindow::serveWithDialog);

    m_watchAction = new QAction(themedIcon(QStringLiteral("network-receive"), QStyle::SP_ComputerIcon, s),
                                tr("&Watch live requests"), this);
    m_watchAction->setObjectName(QStringLiteral("watchAction"));
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
            QMessageBox::warning(this, tr("Cannot serve"), error);
        }
    });

    m_liveAction = new QAction(themedIcon(QStringLiteral("network-transmit-receive"), QStyle::SP_DriveNetIcon, s),
                               tr("&Live"), this);
    m_liveAction->setObjectName(QStringLiteral("liveAction"));
    m_liveAction->setCheckable(true);
    m_liveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_liveAction->setToolTip(tr("Run the scenario over real HTTP on this computer (loopback) instead of simulating it"));
    connect(m_liveAction, &QAction::toggled, this, &MainWindow::setLive);

    m_stopLiveAction = new QAction(themedIcon(QStringLiteral("process-stop"), QStyle::SP_BrowserStop, s),
                                   tr("S&top live run"), this);
    m_stopLiveAction->setObjectName(QStringLiteral("stopLiveAction"));
    m_stopLiveAction->setIconText(tr("Stop")); // the toolbar is full at 1280 pixels
    m_stopLiveAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopLiveAction->setToolTip(tr("Stop the live run; the previous result stays on show"));
    m_stopLiveAction->setEnabled(false);
    connect(m_stopLiveAction, &QAction::triggered, this, &MainWindow::stopLiveRun);

    m_aboutAction = new QAction(windowIcon(), tr("&About RetryLab"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::about);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_presetMenu = file->addMenu(themedIcon(QStringLiteral("document-new"), QStyle::SP_FileIcon, style()),
                                 tr("&New from preset"));
    const QStringList presets = scenario::presetNames();
    for (const QString &name : presets) {
        QAction *a = m_presetMenu->addAction(name);
        const ScenarioParse parsed = scenario::preset(name);
        if (parsed.ok() && !parsed.scenario.title.isEmpty())
            a->setToolTip(i18n::content(parsed.scenario.title));
        connect(a, &QAction::triggered, this, [this, name] { newFromPreset(name); });
    }
    m_presetMenu->setToolTipsVisible(true);
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    m_exportMenu = file->addMenu(tr("&Export"));
    const QList<QPair<ExportKind, QString>> exports{
        {ExportKind::TimelinePng, tr("Timeline as &PNG…")},
        {ExportKind::TimelineSvg, tr("Timeline as &SVG…")},
        {ExportKind::TimelineSlide, tr("Timeline as a s&lide (1920×1080 PNG)…")},
        {ExportKind::ChartsPng, tr("Current chart as P&NG…")},
        {ExportKind::ChartsSvg, tr("Current chart as S&VG…")},
        {ExportKind::RecordsCsv, tr("Records as &CSV…")},
        {ExportKind::TraceJsonl, tr("Trace as &JSONL…")},
        {ExportKind::HandoutPdf, tr("&Handout as PDF…")},
    };
    for (const auto &e : exports) {
        QAction *a = m_exportMenu->addAction(e.second);
        const ExportKind kind = e.first;
        connect(a, &QAction::triggered, this, [this, kind] { exportWithDialog(kind); });
    }
    file->addSeparator();
    file->addAction(m_serveAction);
    file->addAction(m_watchAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    auto *pageGroup = new QActionGroup(this);
    for (QAction *a : std::as_const(m_pageActions)) {
        pageGroup->addAction(a);
        m_viewMenu->addAction(a);
    }
    m_pageActions.first()->setChecked(true);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_scenarioDock->toggleViewAction());
    m_viewMenu->addAction(m_watchDock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_predictAction);
    m_viewMenu->addAction(m_compareAction); // compare mode (issue 12)
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);
    createLanguageMenu();

    QMenu *playback = menuBar()->addMenu(tr("&Playback"));
    playback->addAction(m_runAction);
    playback->addAction(m_newSeedAction);
    playback->addSeparator();
    playback->addAction(m_liveAction);
    playback->addAction(m_stopLiveAction);
    playback->addSeparator();
    playback->addAction(m_previousInterestingAction);
    playback->addAction(m_nextInterestingAction);
    playback->addSeparator();
    playback->addAction(m_playAction);
    playback->addAction(m_stepPreviousAction);
    playback->addAction(m_stepNextAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    const auto addHelp = [this, help](const QString &text, const char *name, HelpDialog::Page page) {
        QAction *a = help->addAction(text);
        a->setObjectName(QLatin1String(name));
        connect(a, &QAction::triggered, this, [this, page] { HelpDialog::showHelp(this, page); });
        return a;
    };
    addHelp(tr("&Keyboard shortcuts"), "helpShortcutsAction", HelpDialog::Page::Shortcuts)
        ->setShortcut(QKeySequence(Qt::Key_F1));
    addHelp(tr("&Glossary"), "helpGlossaryAction", HelpDialog::Page::Glossary);
    addHelp(tr("How to &teach with RetryLab"), "helpTeachingAction", HelpDialog::Page::Teaching);
    help->addSeparator();
    help->addAction(m_aboutAction);
}

// --- Language (View > Language) -----------------------------------------------------------------

void MainWindow::createLanguageMenu()
{
    m_viewMenu->addSeparator();
    m_languageMenu = m_viewMenu->addMenu(tr("&Language"));
    m_languageMenu->setObjectName(QStringLiteral("languageMenu"));
    auto *group = new QActionGroup(this);
    // Each language under its own name, whatever the current language.
    const QList<QPair<QString, QString>> names{{QStringLiteral("en"), QStringLiteral("English")},
                                               {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto &name : names) {
        QAction *a = m_languageMenu->addAction(name.second);
        a->setObjectName(QStringLiteral("language_%1").arg(name.first));
        a->setData(name.first);
        a->setCheckable(true);
        a->setChecked(i18n::currentLanguage() == name.first);
        group->addAction(a);
        m_languageActions << a;
        const QString language = name.first;
        connect(a, &QAction::triggered, this, [this, language] { setLanguage(language); });
    }
    // The embedded server cannot move to a new window: the address the class uses would change.
    connect(m_languageMenu, &QMenu::aboutToShow, this, [this] {
        for (QAction *a : std::as_const(m_languageActions))
            a->setEnabled(!isServing());
        m_languageMenu->setToolTip(isServing() ? tr("Stop serving to change the language") : QString());
    });
    m_languageMenu->setToolTipsVisible(true);
}

void MainWindow::setLanguage(const QString &language)
{
    if (language == i18n::currentLanguage() || !i18n::isSupported(language) || isServing())
        return;
    i18n::install(language);
    m_settings.setLanguage(language);
    m_settings.sync();
    for (QAction *a : std::as_const(m_languageActions))
        a->setChecked(a->data().toString() == language);
    Q_EMIT languageChanged(language);
}

MainWindow::Handover MainWindow::handover()
{
    Handover h;
    h.presenting = m_presentation->isActive();
    m_presentation->setActive(false);
    h.baseline = m_editor->originalScenario();
    h.scenario = m_run->scenario();
    h.fileName = m_fileName;
    h.modified = m_modified;
    h.operation = hasResult() ? currentOperation() : 0;
    h.playhead = hasResult() ? m_timeline->playhead() : -1;
    h.page = int(currentPage());
    h.chartsTab = m_charts->currentTab();
    // Not saveGeometry(): the new window goes exactly where this one is, frame or no frame.
    h.geometry = geometry();
    h.maximized = isMaximized();
    h.windowState = saveState();
    h.predicting = m_predictAction->isChecked();
    h.live = m_live->isEnabled();
    if (isLessonOpen()) {
        h.lesson = m_lessonPlayer->lesson();
        h.lessonStep = m_lessonPlayer->step();
        h.lessonGuess = m_lessonPlayer->guessedNumber();
        h.lessonChoice = m_lessonPlayer->guessedChoice();
        h.lessonRevealed = m_lessonPlayer->isRevealed();
    }
    if (m_compare && m_compare->isVisible())
        h.compareVariant = m_compare->variantIndex();
    return h;
}

void MainWindow::takeOver(const Handover &h)
{
    setGeometry(h.geometry);
    if (h.maximized)
        setWindowState(windowState() | Qt::WindowMaximized);
    restoreState(h.windowState);
    m_watchDock->hide(); // nothing is served by a new window
    applyScenario(h.baseline, h.fileName);
    if (h.modified || h.scenario.seed != h.baseline.seed) {
        m_editor->setScenario(h.scenario, ScenarioEditor::Baseline::Keep);
        onScenarioEdited(h.scenario);
        setModified(h.modified);
        updateTitle();
        updateSeedField();
    }
    m_charts->setCurrentTab(h.chartsTab);
    showPage(Page(h.page));
    m_predictAction->setChecked(h.predicting);
    if (h.operation > 0) {
        const int operation = h.operation;
        const qint64 playhead = h.playhead;
        connect(this, &MainWindow::resultShown, this, [this, operation, playhead] {
            setOperation(operation);
            if (playhead >= 0)
                m_timeline->setPlayhead(playhead);
        }, Qt::SingleShotConnection);
    }
    if (h.live)
        setLive(true);
    if (!h.lesson.steps.isEmpty()) {
        // The step sets its own scenario up again; the class's guess and the answer come back with it.
        startLesson(h.lesson, h.lessonStep);
        if (!qIsNaN(h.lessonGuess))
            m_lessonPlayer->setGuess(h.lessonGuess);
        if (h.lessonChoice >= 0)
            m_lessonPlayer->setGuessedChoice(h.lessonChoice);
        if (h.lessonRevealed)
            m_lessonPlayer->reveal(); // answered once the step's run is on show
    }
    if (h.compareVariant >= 0) {
        openCompare();
        m_compare->setVariantIndex(h.compareVariant);
    }
    if (h.presenting)
        m_presentation->setActive(true);
}

QString MainWindow::toolButtonText(QString text)
{
    static const QRegularExpression mnemonic(QStringLiteral("\\(&[^)]\\)"));
    text.remove(mnemonic);
    text.replace(QLatin1String("&&"), QStringLiteral("\x01")).remove(QLatin1Char('&')).replace(QChar(1), QLatin1Char('&'));
    if (text.endsWith(QChar(0x2026)))
        text.chop(1);
    else if (text.endsWith(QLatin1String("...")))
        text.chop(3);
    return text.trimmed();
}

void MainWindow::createToolBar()
{
    QToolBar *bar = addToolBar(tr("Toolbar"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addAction(m_openAction);
    bar->addAction(m_saveAction);
    bar->addSeparator();
    bar->addAction(m_runAction);
    bar->addAction(m_liveAction);
    m_liveScale = new QComboBox(bar);
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
    m_liveScaleAction = bar->addWidget(m_liveScale);
    m_liveScaleAction->setVisible(false);
    bar->addAction(m_stopLiveAction);
    m_stopLiveAction->setVisible(false);

    // The seed, shown and editable: a class sees that another seed tells the same story.
    auto *seedBox = new QWidget(bar);
    auto *seedLayout = new QHBoxLayout(seedBox);
    seedLayout->setContentsMargins(6, 0, 2, 0);
    auto *seedLabel = new QLabel(tr("Seed"), seedBox);
    m_seedEdit = new QLineEdit(seedBox);
    m_seedEdit->setObjectName(QStringLiteral("seedEdit"));
    m_seedEdit->setAccessibleName(tr("Seed"));
    m_seedEdit->setToolTip(tr("The seed of every random draw: the same seed gives the same run. Type one and press Enter."));
    m_seedEdit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), m_seedEdit));
    seedLabel->setBuddy(m_seedEdit);
    seedLayout->addWidget(seedLabel);
    seedLayout->addWidget(m_seedEdit);
    m_seedEdit->setFixedWidth(m_seedEdit->fontMetrics().horizontalAdvance(QStringLiteral("000000000")) + 16);
    seedBox->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    bar->addWidget(seedBox);
    bar->addAction(m_newSeedAction);
    bar->addAction(m_watchAction);
    connect(m_seedEdit, &QLineEdit::editingFinished, this, [this] {
        bool ok = false;
        const quint64 seed = m_seedEdit->text().toULongLong(&ok);
        if (ok && seed != m_run->scenario().seed) {
            m_openOnStory = true;
            setSeed(seed);
        } else {
            m_seedEdit->setText(QString::number(m_run->scenario().seed));
        }
    });
    bar->addSeparator();
    // Play and step live once, in the timeline's own bar (and the Playback menu).

    auto *opBox = new QWidget(bar);
    auto *opLayout = new QHBoxLayout(opBox);
    opLayout->setContentsMargins(6, 0, 2, 0);
    auto *label = new QLabel(tr("Operation"), opBox);
    m_operation = new QSpinBox(opBox);
    m_operation->setObjectName(QStringLiteral("operationSpin"));
    m_operation->setRange(1, 1);
    m_operation->setAccessibleName(tr("Operation"));
    m_operation->setToolTip(tr("The logical operation (order) shown on the timeline"));
    // Space plays, even while the operation box has the focus.
    m_operation->installEventFilter(this);
    label->setBuddy(m_operation);
    opLayout->addWidget(label);
    opLayout->addWidget(m_operation);
    opBox->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    bar->addWidget(opBox);
    bar->addAction(m_previousInterestingAction);
    bar->addAction(m_nextInterestingAction);
    // Arrows only: the label beside them says what makes the operation interesting.
    for (QAction *a : {m_previousInterestingAction, m_nextInterestingAction}) {
        if (auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
    m_operationWhy = new QLabel(bar);
    m_operationWhy->setObjectName(QStringLiteral("operationWhy"));
    m_operationWhy->setContentsMargins(6, 0, 6, 0);
    m_operationWhy->setToolTip(tr("What makes this operation worth a look"));
    bar->addWidget(m_operationWhy);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(bar->toggleViewAction());

    // A presentation clicker sends Page Up / Page Down: on the timeline they jump between the telling operations.
    // (While a lesson is open they step through the lesson instead: see createLessons.)
    auto *nextKey = new QShortcut(QKeySequence(Qt::Key_PageDown), m_timeline);
    nextKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(nextKey, &QShortcut::activated, this, &MainWindow::nextInterestingOperation);
    auto *previousKey = new QShortcut(QKeySequence(Qt::Key_PageUp), m_timeline);
    previousKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(previousKey, &QShortcut::activated, this, &MainWindow::previousInterestingOperation);
    m_timelineNextKey = nextKey;
    m_timelinePreviousKey = previousKey;

    connect(m_operation, &QSpinBox::valueChanged, this, [this](int op) {
        if (m_timeline->operation() != op)
            m_timeline->setOperation(op);
    });
    // Toolbar buttons show the action's text without its mnemonic. Qt drops the "&" but keeps the
    // Chinese style "(&O)" as "(O)": the button text follows the action's text without either.
    const QList<QAction *> actions = bar->actions();
    for (QAction *a : actions) {
        const auto update = [a] { a->setIconText(toolButtonText(a->text())); };
        update();
        connect(a, &QAction::changed, a, update);
    }
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_operation && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier) {
            if (event->type() == QEvent::KeyPress)
                togglePlayback();
            event->accept();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::createPresentation()
{
    m_presentation = new Presentation(this, m_timeline, {m_scenarioDock, m_watchDock}, &m_settings, this);

    m_presentAction = new QAction(themedIcon(QStringLiteral("view-fullscreen"), QStyle::SP_TitleBarMaxButton, style()),
                                  tr("&Presentation mode"), this);
    m_presentAction->setObjectName(QStringLiteral("presentAction"));
    m_presentAction->setCheckable(true);
    m_presentAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_presentAction->setToolTip(tr("Full screen with large text for a projector; F11 or Escape leaves"));
    connect(m_presentAction, &QAction::toggled, m_presentation, &Presentation::setActive);
    connect(m_presentation, &Presentation::activeChanged, this, [this](bool active) {
        const QSignalBlocker blocker(m_presentAction);
        m_presentAction->setChecked(active);
        updatePresentationKeys();
        // The clicker's Page Up / Page Down work on the timeline.
        if (active && currentPage() == Page::Timeline)
            m_timeline->setFocus(Qt::OtherFocusReason);
    });

    m_zoomInAction = new QAction(tr("Zoom &in"), this);
    m_zoomInAction->setObjectName(QStringLiteral("zoomInAction"));
    m_zoomInAction->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(m_zoomInAction, &QAction::triggered, m_presentation, &Presentation::zoomIn);
    m_zoomOutAction = new QAction(tr("Zoom &out"), this);
    m_zoomOutAction->setObjectName(QStringLiteral("zoomOutAction"));
    m_zoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(m_zoomOutAction, &QAction::triggered, m_presentation, &Presentation::zoomOut);
    m_zoomResetAction = new QAction(tr("&Actual size"), this);
    m_zoomResetAction->setObjectName(QStringLiteral("zoomResetAction"));
    m_zoomResetAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_zoomResetAction, &QAction::triggered, m_presentation, &Presentation::resetZoom);
    auto updateZoomActions = [this](int percent) {
        m_zoomInAction->setEnabled(percent < Settings::maxZoomPercent);
        m_zoomOutAction->setEnabled(percent > Settings::minZoomPercent);
        m_zoomResetAction->setText(tr("&Actual size (now %1%)").arg(percent));
    };
    connect(m_presentation, &Presentation::zoomChanged, this, updateZoomActions);
    updateZoomActions(m_presentation->zoomPercent());

    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_presentAction);
    m_viewMenu->addAction(m_zoomInAction);
    m_viewMenu->addAction(m_zoomOutAction);
    m_viewMenu->addAction(m_zoomResetAction);

    // Keys only while presenting: Escape leaves, Left / Right step through the events.
    m_leaveKey = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(m_leaveKey, &QShortcut::activated, this, [this] { m_presentation->setActive(false); });
    const QList<QPair<Qt::Key, void (MainWindow::*)()>> steps{{Qt::Key_Left, &MainWindow::stepPrevious},
                                                             {Qt::Key_Right, &MainWindow::stepNext}};
    for (const auto &step : steps) {
        auto *key = new QShortcut(QKeySequence(step.first), this);
        connect(key, &QShortcut::activated, this, step.second);
        m_presentingKeys << key;
    }
    // Escape stops a live run first (its own shortcut): the two never compete for the key.
    connect(m_stopLiveAction, &QAction::changed, this, &MainWindow::updatePresentationKeys);
    updatePresentationKeys();
}

void MainWindow::updatePresentationKeys()
{
    const bool active = m_presentation->isActive();
    m_leaveKey->setEnabled(active && !m_stopLiveAction->isEnabled());
    for (QShortcut *key : std::as_const(m_presentingKeys))
        key->setEnabled(active);
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::FontChange && m_seedEdit)
        m_seedEdit->setFixedWidth(m_seedEdit->fontMetrics().horizontalAdvance(QStringLiteral("000000000")) + 16);
}

void MainWindow::createStatusBar()
{
    auto makeLabel = [this](const QString &name, const QString &tip) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setToolTip(tip);
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
        return label;
    };
    m_busy = new QProgressBar(this);
    m_busy->setObjectName(QStringLiteral("statusBusy"));
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_busy->setToolTip(tr("Running the scenario in the background"));
    m_busy->hide();
    statusBar()->addWidget(m_busy);

    // Shown instead of a run the window refused: the numbers beside it are the last run's.
    m_statusRefused = new QLabel(this);
    m_statusRefused->setObjectName(QStringLiteral("statusRefused"));
    m_statusRefused->setWordWrap(false);
    m_statusRefused->hide();
    statusBar()->addPermanentWidget(m_statusRefused); // first, so leftmost

    m_statusLive = makeLabel(QStringLiteral("statusLive"), tr("The embedded order server: where to send orders"));
    m_statusLive->hide();
    m_statusLiveRun = makeLabel(QStringLiteral("statusLiveRun"),
                                tr("This result came from real HTTP requests, not from the simulation"));
    m_statusLiveRun->hide();
    m_statusWorstCase = makeLabel(QStringLiteral("statusWorstCase"),
                                  tr("HTTP attempts per operation if every enabled layer exhausts its retries"));
    m_statusAttempts = makeLabel(QStringLiteral("statusAttempts"), tr("HTTP attempts, and per logical operation"));
    m_statusRecords = makeLabel(QStringLiteral("statusRecords"), tr("Rows the order service committed"));
    m_statusQueries = makeLabel(QStringLiteral("statusQueries"),
                                tr("Status queries (GET /orders?ref=) the client sent before resending"));
    m_statusDuplicates = makeLabel(QStringLiteral("statusDuplicates"),
                                   tr("Records beyond the first for the same business reference"));
    m_statusOutstanding = makeLabel(
        QStringLiteral("statusOutstanding"),
        tr("Duplicates the reconciliation job has not voided yet (voided records still count as created)"));
    m_statusOrphans = makeLabel(QStringLiteral("statusOrphans"),
                                tr("Operations the client reported as failed although a record exists"));
    m_statusLost = makeLabel(QStringLiteral("statusLost"),
                             tr("Operations reported as succeeded without a record (must be 0)"));
}

void MainWindow::connectViews()
{
    connect(m_predictAction, &QAction::toggled, this, [this](bool on) {
        m_prediction->setVisible(on);
        m_prediction->setActive(on);
        m_prediction->newRound(result().metrics); // the result on show is the one to predict
        applyPredictionHiding();
    });
    connect(m_prediction, &PredictionPanel::hidingChanged, this, &MainWindow::applyPredictionHiding);
    connect(m_editor, &ScenarioEditor::scenarioChanged, this, &MainWindow::onScenarioEdited);
    connect(m_editor, &ScenarioEditor::presetActivated, this, &MainWindow::newFromPreset);
    connect(m_editor, &ScenarioEditor::settingsModifiedChanged, this, &MainWindow::updateTitle);
    connect(m_run, &RunController::resultReady, this, &MainWindow::onResult);
    connect(m_run, &RunController::runRefused, this, [this](const QString &message) {
        showBanner(tr("Not run: too much work (hover here); the numbers are the last run's"), message);
    });
    connect(m_run, &RunController::busyChanged, this, [this](bool busy) {
        m_busy->setVisible(busy);
        if (busy)
            statusBar()->showMessage(tr("Running…"));
        else
            statusBar()->clearMessage();
    });

    connect(m_timeline, &TimelineWidget::eventSelected, this,
            [this](int index) { onEventSelected(m_timeline, index); });
    connect(m_timeline, &TimelineWidget::operationChanged, this, [this](int op) {
        const QSignalBlocker blocker(m_operation);
        m_operation->setValue(op);
        updateInterestingActions();
    });
    connect(m_timeline->animation(), &QAbstractAnimation::stateChanged, this, &MainWindow::updatePlaybackActions);
    connect(m_records, &RecordsView::eventSelected, this, [this](int index) { onEventSelected(m_records, index); });
    // A bar of "Attempts per operation" opens its operation on the timeline.
    connect(m_charts, &ChartsPanel::operationActivated, this, [this](int op) {
        setOperation(op);
        showPage(Page::Timeline);
    });
    connect(m_log, &LogView::eventSelected, this, [this](int index) { onEventSelected(m_log, index); });
    // "Load over time" draws the timeline's playhead.
    connect(m_timeline, &TimelineWidget::playheadMoved, m_charts, &ChartsPanel::setPlayhead);

    connect(m_watch, &WatchSession::resultReady, this, &MainWindow::onLiveResult);
    connect(m_watch, &WatchSession::runningChanged, this, &MainWindow::onServingChanged);
    connect(m_watchPanel, &WatchPanel::serveRequested, this, &MainWindow::serveWithDialog);
    connect(m_watchPanel, &WatchPanel::stopRequested, this, &MainWindow::stopServing);

    connect(m_live, &LiveMode::finished, this, &MainWindow::onLiveRunFinished);
    connect(m_live, &LiveMode::runningChanged, this, &MainWindow::onLiveRunningChanged);
    connect(m_live, &LiveMode::tick, this, &MainWindow::updateLiveRunLabel);
    connect(m_live, &LiveMode::failed, this, [this](const QString &error) {
        showBanner(tr("Live run failed: %1").arg(error), error);
    });
    connect(m_live, &LiveMode::cancelled, this, [this] {
        statusBar()->showMessage(tr("Live run stopped; result unchanged"), 8000);
    });
}

void MainWindow::showBanner(const QString &text, const QString &toolTip)
{
    QPalette p = statusBar()->palette();
    p.setColor(QPalette::WindowText, warningColor(p));
    m_statusRefused->setPalette(p);
    QFont f = statusBar()->font();
    f.setBold(true);
    m_statusRefused->setFont(f);
    m_statusRefused->setText(text);
    m_statusRefused->setToolTip(toolTip);
    m_statusRefused->show();
}

void MainWindow::onEventSelected(QObject *source, int traceIndex)
{
    // Each view re-emits when told to select: the guard stops the echo.
    if (m_syncingSelection || !m_run->hasResult())
        return;
    const Trace &trace = m_run->result().trace;
    if (traceIndex < 0 || traceIndex >= trace.size())
        return;
    m_syncingSelection = true;
    const int op = trace.at(traceIndex).op;
    if (source != m_timeline) {
        if (op > 0 && op != m_timeline->operation())
            setOperation(op);
        m_timeline->selectEvent(traceIndex);
        // The playhead goes to the picked event, so the caption narrates it.
        if (op > 0)
            m_timeline->setPlayhead(trace.at(traceIndex).t);
    }
    if (source != m_records)
        m_records->selectEvent(traceIndex);
    if (source != m_log)
        m_log->selectEvent(traceIndex);
    m_syncingSelection = false;
}

Scenario MainWindow::scenario() const
{
    return m_run->scenario();
}

const RunResult &MainWindow::result() const
{
    return m_run->result();
}

bool MainWindow::hasResult() const
{
    return m_run->hasResult();
}

// ---- Compare mode (issue 12)
void MainWindow::openCompare()
{
    if (!m_compare)
        m_compare = new CompareWindow(this);
    m_compare->setScenario(scenario(), currentOperation());
    m_compare->show();
    m_compare->raise();
    m_compare->activateWindow();
}
// ---- end of compare mode

int MainWindow::currentOperation() const
{
    return m_timeline->operation();
}

void MainWindow::setOperation(int op)
{
    m_timeline->setOperation(op);
    const QSignalBlocker blocker(m_operation);
    m_operation->setValue(op);
}

void MainWindow::applyScenario(const Scenario &scenario, const QString &fileName)
{
    m_openOnStory = true;
    // A lesson about load opens its charts on Load over time; any other leaves that tab for its duplicates.
    if (isAboutLoad(scenario))
        m_charts->setCurrentTab(ChartsPanel::LoadTab);
    else if (m_charts->currentTab() == ChartsPanel::LoadTab)
        m_charts->setCurrentTab(ChartsPanel::DuplicatesTab);
    m_editor->setScenario(scenario);
    m_run->setScenario(scenario);
    if (m_live->isEnabled()) {
        m_run->cancel(); // the live run replaces the simulation
        startLiveRun();
    }
    m_fileName = fileName;
    m_settings.setLastScenario(fileName.isEmpty() ? scenario.name : fileName);
    updateWorstCase(scenario);
    setModified(false);
    updateTitle();
}

bool MainWindow::loadPreset(const QString &name, QString *error)
{
    const ScenarioParse parsed = scenario::preset(name);
    if (!parsed.ok()) {
        if (error)
            *error = parsed.errors.join(QLatin1Char('\n'));
        return false;
    }
    applyScenario(parsed.scenario, QString());
    return true;
}

bool MainWindow::loadFile(const QString &fileName, QString *error)
{
    const ScenarioParse parsed = scenario::load(fileName);
    if (!parsed.ok()) {
        if (error)
            *error = parsed.errors.join(QLatin1Char('\n'));
        return false;
    }
    applyScenario(parsed.scenario, QFileInfo(fileName).absoluteFilePath());
    m_settings.addRecentFile(fileName);
    return true;
}

bool MainWindow::loadScenario(const QString &nameOrFile, QString *error)
{
    if (scenario::presetNames().contains(nameOrFile))
        return loadPreset(nameOrFile, error);
    if (QFileInfo::exists(nameOrFile))
        return loadFile(nameOrFile, error);
    const ScenarioParse parsed = scenario::resolve(nameOrFile); // for its error message
    if (error)
        *error = parsed.errors.join(QLatin1Char('\n'));
    return false;
}

bool MainWindow::saveToFile(const QString &fileName, QString *error)
{
    // The text written for a preset is marked "(modified)" when the settings no longer match it.
    const QString message = scenario::save(m_editor->scenarioToSave(), fileName);
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    m_fileName = QFileInfo(fileName).absoluteFilePath();
    m_settings.addRecentFile(m_fileName);
    m_settings.setLastScenario(m_fileName);
    setModified(false);
    updateTitle();
    return true;
}

void MainWindow::setSeed(quint64 seed)
{
    Scenario s = m_run->scenario();
    if (s.seed == seed)
        return;
    s.seed = seed;
    m_openOnStory = true;
    m_editor->setScenario(s, ScenarioEditor::Baseline::Keep); // a new seed is not an edit of the lesson
    onScenarioEdited(s);
    updateSeedField();
}

void MainWindow::onScenarioEdited(const Scenario &scenario)
{
    m_run->setScenario(scenario);
    if (m_live->isEnabled()) {
        m_run->cancel();
        m_liveEdit->start();
    }
    updateWorstCase(scenario);
    setModified(true);
    updateTitle();
}

void MainWindow::onResult(const RunResult &result)
{
    const int previousOp = m_timeline->operation();
    m_source = m_publishing;
    updateLiveRunLabel();
    // A live server numbers operations by their reference (ORD-0007 is op 7), so they may have gaps.
    const int opCount = qMax(1, qMax(int(result.ops.size()), result.ops.isEmpty() ? 0 : result.ops.constLast().op));
    {
        const QSignalBlocker blocker(m_operation);
        m_operation->setRange(1, opCount);
        m_operation->setSuffix(m_source == ResultSource::Watch ? QString() : tr(" of %1").arg(opCount));
    }
    m_statusRefused->hide();
    m_interesting = m_run->interesting(); // computed with the run, off the GUI thread when it was big
    // A new scenario or seed opens on the operation that tells the lesson; an edit keeps the one in view.
    const bool story = m_openOnStory;
    const int op = story ? storyOperation(result, m_interesting) : qBound(1, previousOp, opCount);
    m_openOnStory = false;
    m_timeline->setLive(m_source == ResultSource::Watch);
    m_timeline->setRealNetwork(m_source == ResultSource::LiveRun);
    m_charts->setLive(m_source == ResultSource::Watch);
    // A background run comes with what the views derive from it, computed on its worker thread.
    const PreparedViews &prepared = m_run->prepared();
    if (prepared.ready)
        m_timeline->setResult(result, prepared.timeline);
    else
        m_timeline->setResult(result);
    if (m_timeline->operation() != op)
        m_timeline->setOperation(op);
    // The whole story at a glance; Play starts it again from the beginning.
    if (story)
        m_timeline->seekToEnd();
    {
        const QSignalBlocker blocker(m_operation);
        m_operation->setValue(m_timeline->operation());
    }
    // Only the page in view gets the result now; the others when they are shown. Even with the
    // data prepared, resetting the tables and charts of a 40,000-order result costs tens of ms.
    for (int i = 0; i < m_pageStale.size(); ++i)
        m_pageStale[i] = i != int(Page::Timeline);
    refreshPage(m_pages->currentIndex());

    updateWorstCase(result.scenario);
    updateSeedField();
    updateInterestingActions();
    m_prediction->newRound(result.metrics);
    showOutcome(result);
    updatePlaybackActions();
    Q_EMIT resultShown();
}

void MainWindow::showOutcome(const RunResult &result)
{
    const Metrics &m = result.metrics;
    // In prediction mode the numbers read "?" and none is red: that would give the answer away.
    const bool hide = outcomeHidden();
    const auto show = [&](QLabel *label, const QString &hidden, const QString &text) {
        label->setText(hide ? hidden : text);
    };
    const bool queries = result.scenario.client.queryBeforeRetry || m.queries > 0;
    m_statusQueries->setVisible(queries);
    show(m_statusQueries, tr("Queries: ?"), tr("Queries: %1").arg(m.queries));
    const bool reconciling = result.scenario.reconciliation.enabled || m.voided > 0;
    m_statusOutstanding->setVisible(reconciling);
    show(m_statusOutstanding, tr("Outstanding: ?"),
         m.voided == 1 ? tr("1 voided, outstanding: %1").arg(m.duplicatesOutstanding)
                       : tr("%1 voided, outstanding: %2").arg(m.voided).arg(m.duplicatesOutstanding));
    show(m_statusAttempts, tr("Attempts: ?"),
         tr("Attempts: %1 (%2 per op)").arg(m.httpAttempts).arg(QLocale().toString(m.amplification, 'f', 2)));
    show(m_statusRecords, tr("Records: ?"), tr("Records: %1").arg(m.records));
    show(m_statusDuplicates, tr("Duplicates: ?"), tr("Duplicates: %1").arg(m.duplicates));
    show(m_statusOrphans, tr("Orphans: ?"), tr("Orphans: %1").arg(m.orphans));
    show(m_statusLost, tr("Lost: ?"), tr("Lost: %1").arg(m.lost));
    // What outside clients concluded is theirs to know: the server counts only what it saw.
    // A live run's label needs the room: at 1280 pixels both do not fit.
    m_statusWorstCase->setVisible(m_source == ResultSource::Simulation && !m_live->isRunning());
    m_statusOrphans->setVisible(m_source != ResultSource::Watch);
    m_statusLost->setVisible(m_source != ResultSource::Watch);
    m_statusLive->setVisible(m_source == ResultSource::Watch);
    if (m_source == ResultSource::Watch) {
        m_statusQueries->setVisible(m.queries > 0);
        const qint64 dropped = m_watch->watchTrace().droppedEvents();
        QString live = m_watch->isRunning() ? tr("Serving at %1").arg(m_watch->commandUrl().toString())
                                            : tr("Stopped serving");
        if (dropped > 0)
            live += QStringLiteral(" \u00b7 ") + tr("older events dropped");
        m_statusLive->setText(live);
    }

    // Duplicates and lost orders are the lesson: make them stand out when present.
    for (QLabel *label : {m_statusDuplicates, m_statusLost}) {
        const bool warn = !hide && (label == m_statusDuplicates ? m.duplicates : m.lost) > 0;
        QPalette p = statusBar()->palette();
        QFont f = statusBar()->font();
        if (warn) {
            p.setColor(QPalette::WindowText, warningColor(p));
            f.setBold(true);
        }
        label->setPalette(p);
        label->setFont(f);
        label->setProperty("warning", warn);
    }
}

void MainWindow::applyPredictionHiding()
{
    const bool hide = outcomeHidden();
    showOutcome(result());
    updateWorstCase(scenario());
    for (const Page page : {Page::Charts, Page::Records, Page::Log})
        m_pages->setTabEnabled(int(page), !hide);
    if (hide && m_pages->currentIndex() != int(Page::Timeline))
        showPage(Page::Timeline);
    // "duplicate, 409" beside the operation box would give the answer away too.
    if (m_operationWhy)
        updateInterestingActions();
    // A lesson question: the operation's future is not drawn faded, it is not drawn (lessons wiring).
    if (m_lessonPlayer)
        m_timeline->setFutureHidden(isLessonOpen() && m_lessonPlayer->hiding());
}

void MainWindow::onLiveResult(const RunResult &result, int lastOperation)
{
    m_openOnStory = false;
    const bool follow = m_watchPanel->followsLatest();
    const qint64 playhead = m_timeline->playhead();
    const bool playing = m_timeline->isPlaying();
    publishResult(result, ResultSource::Watch);
    m_watchPanel->showResult(result);
    if (follow) {
        if (lastOperation > 0 && lastOperation != m_timeline->operation())
            setOperation(lastOperation);
        // The whole exchange at a glance, as a finished run opens.
        m_timeline->seekToEnd();
        return;
    }
    // Not following: whoever explains an operation keeps it, with its playhead and playback,
    // while other requests arrive.
    m_timeline->setPlayhead(playhead);
    if (playing)
        m_timeline->play();
}

bool MainWindow::isServing() const
{
    return m_watch->isRunning();
}

bool MainWindow::startServing(const WatchOptions &options, QString *error)
{
    if (m_live->isEnabled()) {
        if (error)
            *error = tr("Live is on: switch Live off first (one order server at a time).");
        return false;
    }
    m_run->cancel(); // a simulated result must not replace what arrives
    m_watchOptions = options;
    const QString message = m_watch->start(m_run->scenario(), options);
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

void MainWindow::stopServing()
{
    m_watch->stop();
}

void MainWindow::serveWithDialog()
{
    if (isServing()) {
        stopServing();
        return;
    }
    WatchServeDialog dialog(m_watchOptions, this);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        if (startServing(dialog.options(), &error))
            return;
        if (!dialog.options().anyPortIfBusy)
            error += QLatin1Char('\n') + tr("Choose another port, or tick \"If this port is in use, pick a free one\".");
        dialog.showError(error);
    }
}

void MainWindow::onServingChanged(bool serving)
{
    // The server runs this scenario: changing it (or running the simulation) would replace the
    // requests on show with a simulated run.
    m_editor->setEnabled(!serving);
    for (QAction *a : {m_runAction, m_newSeedAction, m_openAction})
        a->setEnabled(!serving);
    m_seedEdit->setEnabled(!serving);
    m_presetMenu->setEnabled(!serving);
    m_recentMenu->setEnabled(!serving);
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
    if (serving) {
        m_watchDock->show();
        m_watchDock->raise();
        // Room for the commands without a scroll bar; the timeline keeps the rest.
        resizeDocks({m_watchDock}, {qMin(WatchDockWidth, width() / 2)}, Qt::Horizontal);
        statusBar()->showMessage(tr("Serving at %1").arg(m_watch->commandUrl().toString()), 5000);
    } else if (m_source == ResultSource::Watch) {
        m_statusLive->setText(tr("Stopped serving"));
    }
}

void MainWindow::updateWorstCase(const Scenario &scenario)
{
    const qint64 worst = scenario.worstCaseAttemptsPerOp();
    // An unlimited layer retries until its deadline: its bound in attempts (deadline / 1 ms) says nothing.
    const ClientConfig &c = scenario.client;
    const LayerConfig *unlimited = c.business.enabled && c.business.maxAttempts == 0 ? &c.business
        : c.wrapper.enabled && c.wrapper.maxAttempts == 0                            ? &c.wrapper
                                                                                      : nullptr;
    if (outcomeHidden())
        m_statusWorstCase->setText(tr("Worst case: ?")); // a lesson may ask for exactly this number
    else if (unlimited)
        m_statusWorstCase->setText(tr("Worst case: retries until %1")
                                       .arg(timeline::formatDuration(qint64(unlimited->deadlineMs) * 1000)));
    else
        m_statusWorstCase->setText(worst == 1 ? tr("Worst case: 1 attempt per op")
                                              : tr("Worst case: %1 attempts per op").arg(scenario.worstCaseText()));
}

void MainWindow::showPage(Page page)
{
    m_pages->setCurrentIndex(int(page));
}

MainWindow::Page MainWindow::currentPage() const
{
    return Page(m_pages->currentIndex());
}

void MainWindow::refreshPage(int index)
{
    if (index >= 0 && index < m_pageActions.size())
        m_pageActions.at(index)->setChecked(true);
    if (index < 0 || index >= m_pageStale.size() || !m_pageStale.at(index) || !m_run->hasResult())
        return;
    m_pageStale[index] = false;
    const RunResult &result = m_run->result();
    const PreparedViews &prepared = m_run->prepared();
    switch (Page(index)) {
    case Page::Timeline:
        if (prepared.ready)
            m_timeline->setResult(result, prepared.timeline);
        else
            m_timeline->setResult(result);
        break;
    case Page::Charts:
        if (prepared.ready)
            m_charts->setResult(result, prepared.charts);
        else
            m_charts->setResult(result);
        break;
    case Page::Records:
        if (prepared.ready)
            m_records->setPrepared(prepared.records);
        else
            m_records->setResult(result);
        break;
    case Page::Log:
        m_log->setResult(result);
        break;
    }
}

void MainWindow::updateHiddenPages()
{
    for (int i = 0; i < m_pageStale.size(); ++i)
        refreshPage(i);
    refreshPage(m_pages->currentIndex()); // keeps the page action checked
}

void MainWindow::updateInterestingActions()
{
    const int op = m_timeline->operation();
    const bool before = !m_interesting.isEmpty() && m_interesting.first().op < op;
    const bool after = !m_interesting.isEmpty() && m_interesting.last().op > op;
    m_previousInterestingAction->setEnabled(before);
    m_nextInterestingAction->setEnabled(after);
    QString why;
    for (const InterestingOp &i : std::as_const(m_interesting)) {
        if (i.op == op) {
            why = story::describe(i);
            break;
        }
    }
    if (m_source == ResultSource::Watch) {
        // A live operation is the client's own reference ("tea for two" is operation 100000000): name it.
        const QList<OpSummary> &ops = m_run->result().ops;
        const auto it = std::lower_bound(ops.cbegin(), ops.cend(), op,
                                         [](const OpSummary &s, int o) { return s.op < o; });
        if (it != ops.cend() && it->op == op && !it->ref.isEmpty())
            why = why.isEmpty() ? it->ref : QStringLiteral("%1 \u00b7 %2").arg(it->ref, why);
    }
    // While the outcome is hidden, "duplicate, 409" would give the answer away. (Emptied, not hidden:
    // the toolbar's layout shows its widgets again.)
    if (outcomeHidden())
        why.clear();
    m_operationWhy->setText(why);
    m_operationWhy->setVisible(!why.isEmpty());
}

void MainWindow::nextInterestingOperation()
{
    const int op = m_timeline->operation();
    for (const InterestingOp &i : std::as_const(m_interesting)) {
        if (i.op > op) {
            setOperation(i.op);
            return;
        }
    }
}

void MainWindow::previousInterestingOperation()
{
    const int op = m_timeline->operation();
    for (auto it = m_interesting.crbegin(); it != m_interesting.crend(); ++it) {
        if (it->op < op) {
            setOperation(it->op);
            return;
        }
    }
}

void MainWindow::newSeed()
{
    const Scenario &s = m_run->scenario();
    quint64 seed = s.seed;
    // Small numbers are easy to read out to a class; never the same seed twice in a row.
    while (seed == s.seed)
        seed = QRandomGenerator::global()->bounded(quint32(1), quint32(1000000));
    m_openOnStory = true;
    setSeed(seed);
}

void MainWindow::updateSeedField()
{
    if (!m_seedEdit->hasFocus())
        m_seedEdit->setText(QString::number(m_run->scenario().seed));
}

void MainWindow::updateTitle()
{
    const Scenario &s = m_run->scenario();
    QString title = s.title.isEmpty() ? s.name : i18n::content(s.title);
    // The title was written for other settings: say so, as a saved file will.
    if (m_editor->settingsModified() && !title.endsWith(tr("(modified)")))
        title += QLatin1Char(' ') + tr("(modified)");
    if (!m_fileName.isEmpty())
        title = QStringLiteral("%1 (%2)").arg(title, QFileInfo(m_fileName).fileName());
    setWindowTitle(QStringLiteral("%1[*] \u2014 RetryLab").arg(title));
    setWindowModified(m_modified);
}

void MainWindow::setModified(bool modified)
{
    m_modified = modified;
    setWindowModified(modified);
}

bool MainWindow::maybeSave()
{
    if (!m_modified)
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("The scenario \"%1\" has changes that are not saved.").arg(m_run->scenario().name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newFromPreset(const QString &name)
{
    if (!maybeSave()) {
        m_editor->setScenario(m_run->scenario(), ScenarioEditor::Baseline::Keep); // puts the list selection back
        return;
    }
    QString error;
    if (!loadPreset(name, &error))
        QMessageBox::warning(this, tr("Cannot load preset"), error);
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    QString dir = m_fileName.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                       : QFileInfo(m_fileName).absolutePath();
    const QString fileName = QFileDialog::getOpenFileName(this, tr("Open scenario"), dir,
                                                          tr("Scenarios (*.json);;All files (*)"));
    if (fileName.isEmpty())
        return;
    QString error;
    if (!loadFile(fileName, &error))
        QMessageBox::warning(this, tr("Cannot open scenario"), error);
}

void MainWindow::openRecent(const QString &fileName)
{
    if (!maybeSave())
        return;
    QString error;
    if (!loadFile(fileName, &error)) {
        if (!QFileInfo::exists(fileName))
            m_settings.removeRecentFile(fileName);
        QMessageBox::warning(this, tr("Cannot open scenario"), error);
    }
}

bool MainWindow::save()
{
    if (m_fileName.isEmpty())
        return saveAs();
    QString error;
    if (!saveToFile(m_fileName, &error)) {
        QMessageBox::warning(this, tr("Cannot save scenario"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveAs()
{
    const QString suggestion = m_fileName.isEmpty()
        ? QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
              .filePath(m_run->scenario().name + QStringLiteral(".json"))
        : m_fileName;
    QString fileName = QFileDialog::getSaveFileName(this, tr("Save scenario as"), suggestion,
                                                    tr("Scenarios (*.json);;All files (*)"));
    if (fileName.isEmpty())
        return false;
    if (QFileInfo(fileName).suffix().isEmpty())
        fileName += QStringLiteral(".json");
    QString error;
    if (!saveToFile(fileName, &error)) {
        QMessageBox::warning(this, tr("Cannot save scenario"), error);
        return false;
    }
    return true;
}

QString MainWindow::exportSuffix(ExportKind kind)
{
    switch (kind) {
    case ExportKind::TimelinePng:
    case ExportKind::TimelineSlide:
    case ExportKind::ChartsPng:
        return QStringLiteral("png");
    case ExportKind::TimelineSvg:
    case ExportKind::ChartsSvg:
        return QStringLiteral("svg");
    case ExportKind::RecordsCsv:
        return QStringLiteral("csv");
    case ExportKind::TraceJsonl:
        return QStringLiteral("jsonl");
    case ExportKind::HandoutPdf:
    case ExportKind::LessonHandoutPdf:
        return QStringLiteral("pdf");
    }
    return QString();
}

bool MainWindow::exportTo(ExportKind kind, const QString &fileName, QString *error)
{
    updateHiddenPages(); // an export writes what the current result shows
    QString message;
    bool ok = false;
    switch (kind) {
    case ExportKind::TimelinePng:
    case ExportKind::TimelineSvg:
        ok = m_timeline->exportImage(fileName, &message);
        break;
    case ExportKind::TimelineSlide:
        ok = m_timeline->exportImage(fileName, &message, SlideSize);
        break;
    case ExportKind::ChartsPng:
    case ExportKind::ChartsSvg:
        ok = m_charts->exportChart(m_charts->currentTab(), fileName, &message);
        break;
    case ExportKind::RecordsCsv:
        ok = m_records->exportCsv(fileName, &message);
        break;
    case ExportKind::TraceJsonl:
        message = trace::save(m_run->result().trace, fileName);
        ok = message.isEmpty();
        break;
    case ExportKind::HandoutPdf:
        message = writeHandout(m_run->result(), m_charts, fileName);
        ok = message.isEmpty();
        break;
    case ExportKind::LessonHandoutPdf:
        message = writeOpenLessonHandout(fileName, nullptr);
        ok = message.isEmpty();
        break;
    }
    if (!ok && error)
        *error = message.isEmpty() ? tr("cannot write \"%1\"").arg(fileName) : message;
    return ok;
}

void MainWindow::exportWithDialog(ExportKind kind)
{
    const QString suffix = exportSuffix(kind);
    const QString base = kind == ExportKind::LessonHandoutPdf && isLessonOpen() ? m_lessonPlayer->lesson().name
                         : m_fileName.isEmpty()                                  ? m_run->scenario().name
                                                                                 : QFileInfo(m_fileName).completeBaseName();
    QString part;
    switch (kind) {
    case ExportKind::TimelinePng:
    case ExportKind::TimelineSvg:
        part = QStringLiteral("-op%1").arg(m_timeline->operation());
        break;
    case ExportKind::TimelineSlide:
        part = QStringLiteral("-op%1-slide").arg(m_timeline->operation());
        break;
    case ExportKind::ChartsPng:
    case ExportKind::ChartsSvg:
        part = QStringLiteral("-chart");
        break;
    case ExportKind::RecordsCsv:
        part = QStringLiteral("-records");
        break;
    case ExportKind::TraceJsonl:
        part = QStringLiteral("-trace");
        break;
    case ExportKind::HandoutPdf:
        part = QStringLiteral("-handout");
        break;
    case ExportKind::LessonHandoutPdf:
        part = QStringLiteral("-handout");
        break;
    }
    const QString dir = m_fileName.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                             : QFileInfo(m_fileName).absolutePath();
    QString fileName = QFileDialog::getSaveFileName(
        this, tr("Export"), QDir(dir).filePath(base + part + QLatin1Char('.') + suffix),
        tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (fileName.isEmpty())
        return;
    if (QFileInfo(fileName).suffix().isEmpty())
        fileName += QLatin1Char('.') + suffix;
    QString error;
    const bool ok = kind == ExportKind::LessonHandoutPdf ? (error = writeOpenLessonHandout(fileName, this)).isEmpty()
                                                         : exportTo(kind, fileName, &error);
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(fileName)), 4000);
}

void MainWindow::rerun()
{
    if (m_live->isEnabled()) {
        startLiveRun();
        return;
    }
    m_run->rerun();
}

void MainWindow::setLive(bool on)
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
    m_runAction->setToolTip(on ? tr("Run the scenario again over real HTTP (Live is on)")
                               : tr("Run the scenario again (same seed, same result)"));
    if (on) {
        m_run->cancel();
        startLiveRun();
    } else {
        m_liveEdit->stop();
        m_openOnStory = m_source == ResultSource::LiveRun;
        m_run->rerun(); // back to the simulation of the same scenario
    }
}

void MainWindow::stopLiveRun()
{
    m_liveEdit->stop();
    m_live->stop();
}

void MainWindow::startLiveRun()
{
    m_liveEdit->stop();
    m_statusRefused->hide();
    m_live->start(m_run->scenario());
}

void MainWindow::onLiveRunningChanged(bool running)
{
    m_stopLiveAction->setEnabled(running);
    m_busy->setVisible(running || m_run->isBusy());
    m_busy->setToolTip(running ? tr("Running the scenario over real HTTP") : tr("Running the scenario in the background"));
    statusBar()->clearMessage();
    m_statusWorstCase->setVisible(!running && m_source == ResultSource::Simulation);
    updateLiveRunLabel();
}

void MainWindow::updateLiveRunLabel()
{
    if (m_live->isRunning()) {
        const double seconds = double(m_live->elapsedMs()) / 1000.0;
        m_statusLiveRun->setText(tr("Live run over %1: %2 s")
                                     .arg(m_live->url().toString(QUrl::StripTrailingSlash),
                                          QLocale().toString(seconds, 'f', 1)));
    } else {
        m_statusLiveRun->setText(m_liveRunDescription);
    }
    m_statusLiveRun->setVisible(m_live->isRunning() || m_source == ResultSource::LiveRun);
}

void MainWindow::onLiveRunFinished(const RunResult &result, const QString &description)
{
    m_liveRunDescription = description;
    m_openOnStory = true; // another source, another result: open it as a loaded scenario opens
    publishResult(result, ResultSource::LiveRun);
}

void MainWindow::publishResult(const RunResult &result, ResultSource source)
{
    m_publishing = source;
    m_run->setResult(result);
    m_publishing = ResultSource::Simulation;
}

void MainWindow::togglePlayback()
{
    if (m_timeline->isPlaying())
        m_timeline->pause();
    else
        m_timeline->play();
    updatePlaybackActions();
}

void MainWindow::stepNext()
{
    m_timeline->stepNext();
}

void MainWindow::stepPrevious()
{
    m_timeline->stepPrevious();
}

void MainWindow::updatePlaybackActions()
{
    const bool playing = m_timeline->isPlaying();
    m_playAction->setText(playing ? tr("&Pause") : tr("&Play"));
    m_playAction->setIcon(playing
                              ? themedIcon(QStringLiteral("media-playback-pause"), QStyle::SP_MediaPause, style())
                              : themedIcon(QStringLiteral("media-playback-start"), QStyle::SP_MediaPlay, style()));
}

void MainWindow::resetLayout()
{
    const bool lesson = isLessonOpen();
    restoreState(m_defaultState);
    m_scenarioDock->show();
    if (isServing()) {
        m_watchDock->show();
        m_watchDock->raise();
    }
    showPage(Page::Timeline);
    resizeDocks({m_scenarioDock}, {ScenarioDockWidth}, Qt::Horizontal);
    // An open lesson stays open, at its default width.
    if (lesson) {
        m_lessonDock->show();
        resizeDocks({m_scenarioDock, m_lessonDock}, {ScenarioDockWidth, qMax(340, width() * 27 / 100)}, Qt::Horizontal);
    }
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About RetryLab"),
        tr("<h3>RetryLab %1</h3>"
           "<p>A simulator and teaching lab about retries and idempotency: a timeout is not a failure, "
           "nested retry layers multiply attempts, and idempotency keys prevent duplicates only when minted "
           "once per operation and stored atomically.</p>")
            .arg(QApplication::applicationVersion()));
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_settings.recentFiles();
    int n = 1;
    for (const QString &file : files) {
        QAction *a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(n++).arg(QFileInfo(file).fileName()));
        a->setToolTip(QDir::toNativeSeparators(file));
        connect(a, &QAction::triggered, this, [this, file] { openRecent(file); });
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    connect(m_recentMenu->addAction(tr("&Clear list")), &QAction::triggered, this,
            [this] { m_settings.clearRecentFiles(); });
}

void MainWindow::restoreSettings(bool lastScenario)
{
    const QByteArray geometry = m_settings.windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = m_settings.windowState();
    if (!state.isEmpty())
        restoreState(state);
    m_watchDock->hide(); // nothing is served at start-up

    if (!lastScenario)
        return;
    QString last = m_settings.lastScenario();
    QString error;
    if (!last.isEmpty() && m_settings.lastScenarioPending()) {
        // The last start never showed this scenario's result: it hung or was killed. Do not try again.
        statusBar()->showMessage(
            tr("\"%1\" did not finish loading last time, so the lab opened a preset instead.").arg(last), 15000);
        m_settings.setLastScenarioPending(false);
        last.clear();
    }
    if (!last.isEmpty()) {
        m_settings.setLastScenarioPending(true);
        connect(this, &MainWindow::resultShown, this, [this] { m_settings.setLastScenarioPending(false); },
                Qt::SingleShotConnection);
    }
    if (last.isEmpty() || !loadScenario(last, &error)) {
        m_settings.setLastScenarioPending(false);
        const QStringList presets = scenario::presetNames();
        const QString fallback = presets.contains(QStringLiteral("ghost-request")) ? QStringLiteral("ghost-request")
                                                                                   : presets.value(0);
        if (fallback.isEmpty() || !loadPreset(fallback))
            applyScenario(Scenario(), QString());
    }
}

void MainWindow::saveSettings()
{
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowState(saveState());
    m_settings.sync();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    // The layout to remember is the one presentation mode will restore, not the full screen.
    m_presentation->setActive(false);
    saveSettings();
    m_settings.setLastScenarioPending(false); // closed by the user: the start did not hang
    event->accept();
}

// ---------------------------------------------------------------- guided lessons
// The Lessons menu, the lesson dock and its keys. The player says which step to show; the window
// applies the step's scenario (seed included), waits for its run, then shows the step's operation
// and highlight. A question hides the outcome (as prediction mode does) until Reveal has played the
// operation to its end.


void MainWindow::createLessons()
{
    m_lessonPlayer = new LessonPlayer;
    m_lessonPlayer->setObjectName(QStringLiteral("lessonPlayer"));
    // No scroll area: the dock is as wide as the player's buttons need, at any zoom.
    m_lessonDock = makeDock(tr("Lesson"), QStringLiteral("lessonDock"), m_lessonPlayer, this);
    m_lessonDock->setMinimumWidth(320);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    m_lessonDock->hide();

    connect(m_lessonPlayer, &LessonPlayer::stepChanged, this, &MainWindow::applyLessonStep);
    connect(m_lessonPlayer, &LessonPlayer::revealRequested, this, &MainWindow::revealLessonAnswer);
    connect(m_lessonPlayer, &LessonPlayer::hidingChanged, this, &MainWindow::applyPredictionHiding);
    connect(this, &MainWindow::resultShown, this, [this] {
        if (m_lessonPending)
            finishLessonStep();
    });
    // Presenting: the editor is hidden, so the lesson takes more of the width.
    connect(m_presentation, &Presentation::activeChanged, this, [this](bool active) {
        if (isLessonOpen())
            resizeDocks({m_lessonDock}, {qMax(340, width() * (active ? 30 : 27) / 100)}, Qt::Horizontal);
    });
        connect(m_lessonDock, &QDockWidget::visibilityChanged, this, [this] {
        updateLessonKeys();
        applyPredictionHiding();
    });

    // Page Down / Page Up step through the lesson wherever the focus is (a presenter clicker sends
    // them); on the timeline they otherwise jump between interesting operations.
    m_lessonNextKey = new QShortcut(QKeySequence(Qt::Key_PageDown), this);
    m_lessonNextKey->setContext(Qt::WindowShortcut);
    connect(m_lessonNextKey, &QShortcut::activated, m_lessonPlayer, &LessonPlayer::next);
    m_lessonPreviousKey = new QShortcut(QKeySequence(Qt::Key_PageUp), this);
    m_lessonPreviousKey->setContext(Qt::WindowShortcut);
    connect(m_lessonPreviousKey, &QShortcut::activated, m_lessonPlayer, &LessonPlayer::previous);
    updateLessonKeys();

    m_lessonsMenu = new QMenu(tr("&Lessons"), this);
    m_lessonsMenu->setObjectName(QStringLiteral("lessonsMenu"));
    m_lessonsMenu->setToolTipsVisible(true);
    const QStringList names = lesson::builtinNames();
    for (const QString &name : names) {
        const LessonParse parsed = lesson::builtin(name);
        if (!parsed.ok())
            continue;
        QAction *a = m_lessonsMenu->addAction(i18n::content(parsed.lesson.title));
        a->setObjectName(QStringLiteral("lesson-") + name);
        a->setToolTip(i18n::content(parsed.lesson.summary));
        connect(a, &QAction::triggered, this, [this, name] {
            if (!maybeSave())
                return;
            QString error;
            if (!startLesson(name, 0, &error))
                QMessageBox::warning(this, tr("Cannot open the lesson"), error);
        });
    }
    m_lessonsMenu->addSeparator();
    QAction *open = m_lessonsMenu->addAction(tr("Open lesson &file…"));
    open->setObjectName(QStringLiteral("openLessonAction"));
    connect(open, &QAction::triggered, this, &MainWindow::openLessonFile);
    QAction *close = m_lessonsMenu->addAction(tr("&Close lesson"));
    close->setObjectName(QStringLiteral("closeLessonAction"));
    connect(close, &QAction::triggered, this, &MainWindow::closeLesson);
    QAction *handout = m_lessonsMenu->addAction(tr("&Handout of this lesson as PDF…"));
    handout->setObjectName(QStringLiteral("lessonHandoutAction"));
    connect(handout, &QAction::triggered, this, [this] { exportWithDialog(ExportKind::LessonHandoutPdf); });
    connect(m_lessonsMenu, &QMenu::aboutToShow, this, [this, close, handout] {
        close->setEnabled(isLessonOpen());
        handout->setEnabled(isLessonOpen());
    });
    // Before Help, the last menu.
    const QList<QAction *> menus = menuBar()->actions();
    menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.constLast(), m_lessonsMenu);
}

bool MainWindow::startLesson(const QString &nameOrFile, int step, QString *error)
{
    const LessonParse parsed = lesson::resolve(nameOrFile);
    if (!parsed.ok()) {
        if (error)
            *error = parsed.errors.join(QLatin1Char('\n'));
        return false;
    }
    startLesson(parsed.lesson, step);
    return true;
}

void MainWindow::startLesson(const Lesson &lesson, int step)
{
    if (m_prediction->isActive())
        m_predictAction->setChecked(false); // the lesson asks its own questions
    const bool wasOpen = isLessonOpen();
    m_lessonDock->show();
    m_lessonDock->raise();
    // A quarter of the window for the lesson's text, readable from the back of a room.
    if (!wasOpen) {
        const int editor = m_scenarioDock->width();
        if (m_scenarioDock->isVisible())
            resizeDocks({m_scenarioDock, m_lessonDock}, {editor, qMax(340, width() * 27 / 100)}, Qt::Horizontal);
        else
            resizeDocks({m_lessonDock}, {qMax(340, width() * 27 / 100)}, Qt::Horizontal);
    }
    m_lessonPlayer->setLesson(lesson, step);
    updateLessonKeys();
}

void MainWindow::closeLesson()
{
    disconnect(m_lessonRevealDone);
    m_lessonPending = false;
    m_editor->clearHighlight();
    m_timeline->emphasiseLane(-1);
    m_lessonDock->hide();
    applyPredictionHiding();
}

bool MainWindow::isLessonOpen() const
{
    return m_lessonDock && !m_lessonDock->isHidden() && m_lessonPlayer->hasLesson();
}

bool MainWindow::outcomeHidden() const
{
    return m_prediction->hiding() || (isLessonOpen() && m_lessonPlayer->hiding());
}

void MainWindow::openLessonFile()
{
    if (!maybeSave())
        return;
    const QString fileName = QFileDialog::getOpenFileName(this, tr("Open lesson"), QString(),
                                                          tr("Lesson files (*.json);;All files (*)"));
    if (fileName.isEmpty())
        return;
    QString error;
    if (!startLesson(fileName, 0, &error))
        QMessageBox::warning(this, tr("Cannot open the lesson"), error);
}

QString MainWindow::writeOpenLessonHandout(const QString &fileName, QWidget *progressParent)
{
    if (!isLessonOpen())
        return tr("no lesson is open: start one from the Lessons menu");
    const Lesson lesson = m_lessonPlayer->lesson();
    // Every step's run, traced, off the GUI thread; the window stays responsive meanwhile.
    QFuture<RunResult> runs = startLessonRuns(lesson);
    QFutureWatcher<RunResult> watcher;
    QEventLoop wait;
    connect(&watcher, &QFutureWatcher<RunResult>::finished, &wait, &QEventLoop::quit);
    std::unique_ptr<QProgressDialog> progress;
    if (progressParent) {
        progress = std::make_unique<QProgressDialog>(tr("Running the lesson's steps…"), tr("Cancel"), 0,
                                                     int(lesson.steps.size()), progressParent);
        progress->setWindowModality(Qt::WindowModal);
        progress->setMinimumDuration(300);
        connect(&watcher, &QFutureWatcher<RunResult>::progressValueChanged, progress.get(), &QProgressDialog::setValue);
        connect(progress.get(), &QProgressDialog::canceled, &watcher, [&watcher] { watcher.cancel(); });
    }
    watcher.setFuture(runs);
    if (!watcher.isFinished())
        wait.exec();
    if (watcher.isCanceled())
        return tr("cancelled: no handout was written");
    return writeLessonHandout(lesson, runs.results(), fileName);
}

void MainWindow::updateLessonKeys()
{
    const bool lesson = isLessonOpen();
    m_lessonNextKey->setEnabled(lesson);
    m_lessonPreviousKey->setEnabled(lesson);
    m_timelineNextKey->setEnabled(!lesson);
    m_timelinePreviousKey->setEnabled(!lesson);
}

void MainWindow::applyLessonStep(int step)
{
    Q_UNUSED(step);
    const LessonStep *s = m_lessonPlayer->currentStep();
    if (!s)
        return;
    disconnect(m_lessonRevealDone);
    m_timeline->pause();
    m_editor->clearHighlight();
    m_timeline->emphasiseLane(-1);
    // A lesson's numbers are the simulation's: no live run, no serving.
    if (m_live->isEnabled())
        setLive(false);
    if (isServing())
        stopServing();
    m_lessonPending = true;
    applyScenario(s->scenario, QString());
    applyPredictionHiding();
}

void MainWindow::finishLessonStep()
{
    m_lessonPending = false;
    const LessonStep *s = m_lessonPlayer->currentStep();
    if (!s)
        return;
    if (s->operation > 0)
        setOperation(s->operation);
    const LessonHighlight &h = s->highlight;
    const bool question = s->question.kind != LessonQuestion::Kind::None;
    if (h.kind == LessonHighlight::Kind::Control) {
        m_editor->highlightField(h.target);
    } else if (h.kind == LessonHighlight::Kind::Lane) {
        Lane lane;
        if (trace::laneFromName(h.target, &lane))
            m_timeline->emphasiseLane(int(lane));
    }
    if (question) {
        // The class predicts before it sees: the operation waits at its start.
        showPage(Page::Timeline);
        m_timeline->pause();
        m_timeline->setPlayhead(0);
    } else if (h.kind == LessonHighlight::Kind::Event) {
        EventKind kind;
        if (trace::kindFromName(h.target, &kind))
            m_timeline->selectFirstEvent(kind);
    }
    applyPredictionHiding();
    updatePlaybackActions();
}

void MainWindow::revealLessonAnswer()
{
    disconnect(m_lessonRevealDone);
    if (m_lessonPending || !hasResult()) {
        // The step's run is not on show yet: answer once it is.
        m_lessonRevealDone = connect(this, &MainWindow::resultShown, this, &MainWindow::revealLessonAnswer,
                                     Qt::SingleShotConnection);
        return;
    }
    showPage(Page::Timeline);
    m_timeline->pause();
    m_timeline->setPlayhead(0);
    m_timeline->play();
    if (!m_timeline->isPlaying()) {
        finishLessonReveal();
        return;
    }
    m_lessonRevealDone = connect(m_timeline->animation(), &QAbstractAnimation::finished, this,
                                 &MainWindow::finishLessonReveal, Qt::SingleShotConnection);
    updatePlaybackActions();
}

void MainWindow::finishLessonReveal()
{
    disconnect(m_lessonRevealDone);
    const LessonStep *s = m_lessonPlayer->currentStep();
    if (!s)
        return;
    double actual = 0;
    if (!lesson::metricValue(result(), lesson::shownOperation(*s, result()), s->question.metric, &actual))
        actual = qQNaN();
    m_lessonPlayer->showAnswer(actual);
    if (s->highlight.kind == LessonHighlight::Kind::Event) {
        EventKind kind;
        if (trace::kindFromName(s->highlight.target, &kind))
            m_timeline->selectFirstEvent(kind);
    }
    updatePlaybackActions();
}

} // namespace retrylab
