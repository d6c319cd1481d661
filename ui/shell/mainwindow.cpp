#include "shell/mainwindow.h"

#include "charts/chartspanel.h"
#include "common/elidedlabel.h"
#include "common/makedock.h"
#include "compare/comparewindow.h"
#include "document/labdocument.h"
#include "document/runcontroller.h"
#include "editor/scenarioeditor.h"
#include "i18n.h"
#include "lessons/lessonplayer.h"
#include "lessons/predictionpanel.h"
#include "live/watchpanel.h"
#include "presentation/presentation.h"
#include "shell/helpdialog.h"
#include "shell/labactions.h"
#include "shell/statusoutcome.h"
#include "tables/logview.h"
#include "tables/recordsview.h"
#include "timeline/timelinewidget.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QScreen>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QRegularExpressionValidator>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include <algorithm>

namespace retrylab {

namespace {
// Default layout at 1280x720: room for the form on the left; the timeline, charts, records and
// log share the rest as pages, so each gets the full height.
constexpr int ScenarioDockWidth = 350;

} // namespace

MainWindow::MainWindow(QWidget *parent, bool restoreLastScenario)
    : QMainWindow(parent)
    , m_document(new LabDocument(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/retrylab.svg")));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    createViews();
    createControllers();
    connectActions();
    createMenus();
    createToolBar();
    connectViews();

    // Presentation mode and lessons come after the menus and toolbar they add to.
    m_presenter = new PresentationController(this, {m_scenarioDock, m_sources->watchDock()}, &m_settings, this);
    m_presenter->addToViewMenu(m_viewMenu);
    m_presenter->setEscapeTakenBy(m_sources->stopLiveAction());
    m_guide = new LessonController(this, this);
    m_guide->setTimelineKeys(m_timelineNextKey, m_timelinePreviousKey);
    connect(m_presenter->presentation(), &Presentation::activeChanged, m_guide,
            &LessonController::onPresentationChanged);
    const QList<QAction *> menus = menuBar()->actions(); // Lessons before Help, the last menu
    menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.constLast(), m_guide->menu());
    m_exporter->setLessonHandout(
        [this] { return m_guide->isLessonOpen() ? m_guide->player()->lesson().name : QString(); },
        [this](const QString &fileName, QWidget *progress) { return m_guide->writeHandout(fileName, progress); });

    resize(1280, 720);
    resizeDocks({m_scenarioDock}, {ScenarioDockWidth}, Qt::Horizontal);
    m_defaultState = saveState();

    restoreSettings(restoreLastScenario);
    // A saved layout may have had a lesson open: the dock waits for the next lesson.
    m_guide->dock()->hide();
}

MainWindow::~MainWindow()
{
    // Destroying the children moves the focus: the seed box must not apply a seed to a
    // half-destroyed window.
    disconnect(m_seedEdit, nullptr, this, nullptr);
    // A playing timeline stops while the frame is whole: its animation's end would otherwise
    // reach the playback actions (and a reveal's controller) from a half-destroyed window.
    m_timeline->pause();
    disconnect(m_timeline->animation(), nullptr, this, nullptr);
    // The controllers go first, while the frame they call is whole (the lesson dock's hiding,
    // the embedded server's stopping).
    delete m_guide;
    delete m_presenter;
    delete m_sources;
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
    followDocument();
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
    connect(m_pages, &QTabWidget::currentChanged, this, &MainWindow::checkPageAction);
}

void MainWindow::createControllers()
{
    m_status = new StatusOutcome(this);
    // Beside the scenario, tabbed with it: the Watch dock.
    m_sources = new LiveController(this, m_status, this);
    m_exporter = new Exporter(this, m_document, m_timeline, m_charts, m_records);
    m_exporter->setBringUpToDate([this] { updateHiddenPages(); });
}

void MainWindow::connectActions()
{
    m_actions.create(this, style());
    connect(m_actions.resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    connect(m_actions.compare, &QAction::triggered, this, &MainWindow::openCompare);
    connect(m_actions.about, &QAction::triggered, this, &MainWindow::about);
    connect(m_actions.open, &QAction::triggered, this, &MainWindow::open);
    connect(m_actions.save, &QAction::triggered, this, &MainWindow::save);
    connect(m_actions.saveAs, &QAction::triggered, this, &MainWindow::saveAs);
    connect(m_actions.quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions.run, &QAction::triggered, this, &MainWindow::rerun);
    connect(m_actions.play, &QAction::triggered, this, &MainWindow::togglePlayback);
    connect(m_actions.stepPrevious, &QAction::triggered, this, &MainWindow::stepPrevious);
    connect(m_actions.stepNext, &QAction::triggered, this, &MainWindow::stepNext);
    connect(m_actions.previousInteresting, &QAction::triggered, this, &MainWindow::previousInterestingOperation);
    connect(m_actions.nextInteresting, &QAction::triggered, this, &MainWindow::nextInterestingOperation);
    connect(m_actions.newSeed, &QAction::triggered, this, &MainWindow::newSeed);
    for (int i = 0; i < m_actions.pages.size(); ++i)
        connect(m_actions.pages.at(i), &QAction::triggered, this, [this, i] { showPage(Page(i)); });
}

void MainWindow::createMenus()
{
    createFileMenu();

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    auto *pageGroup = new QActionGroup(this);
    for (QAction *a : std::as_const(m_actions.pages)) {
        pageGroup->addAction(a);
        m_viewMenu->addAction(a);
    }
    m_actions.pages.first()->setChecked(true);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_scenarioDock->toggleViewAction());
    m_sources->addToViewMenu(m_viewMenu);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_actions.predict);
    m_viewMenu->addAction(m_actions.compare);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_actions.resetLayout);
    createLanguageMenu();

    QMenu *playback = menuBar()->addMenu(tr("&Playback"));
    playback->addAction(m_actions.run);
    playback->addAction(m_actions.newSeed);
    playback->addSeparator();
    m_sources->addToPlaybackMenu(playback);
    playback->addSeparator();
    playback->addAction(m_actions.previousInteresting);
    playback->addAction(m_actions.nextInteresting);
    playback->addSeparator();
    playback->addAction(m_actions.play);
    playback->addAction(m_actions.stepPrevious);
    playback->addAction(m_actions.stepNext);

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
    help->addAction(m_actions.about);
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_presetMenu = file->addMenu(LabActions::icon(QStringLiteral("document-new"), QStyle::SP_FileIcon, style()),
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
    file->addAction(m_actions.open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    file->addAction(m_actions.save);
    file->addAction(m_actions.saveAs);
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    const QList<QPair<Exporter::Kind, QString>> exports{
        {Exporter::Kind::TimelinePng, tr("Timeline as &PNG…")},
        {Exporter::Kind::TimelineSvg, tr("Timeline as &SVG…")},
        {Exporter::Kind::TimelineSlide, tr("Timeline as a s&lide (1920×1080 PNG)…")},
        {Exporter::Kind::ChartsPng, tr("Current chart as P&NG…")},
        {Exporter::Kind::ChartsSvg, tr("Current chart as S&VG…")},
        {Exporter::Kind::RecordsCsv, tr("Records as &CSV…")},
        {Exporter::Kind::TraceJsonl, tr("Trace as &JSONL…")},
        {Exporter::Kind::HandoutPdf, tr("&Handout as PDF…")},
    };
    for (const auto &e : exports) {
        QAction *a = exportMenu->addAction(e.second);
        const Exporter::Kind kind = e.first;
        connect(a, &QAction::triggered, m_exporter, [this, kind] { m_exporter->exportWithDialog(kind); });
    }
    file->addSeparator();
    m_sources->addToFileMenu(file);
    file->addSeparator();
    file->addAction(m_actions.quit);
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
            a->setEnabled(!m_sources->isServing());
        m_languageMenu->setToolTip(m_sources->isServing() ? tr("Stop serving to change the language") : QString());
    });
    m_languageMenu->setToolTipsVisible(true);
}

void MainWindow::setLanguage(const QString &language)
{
    if (language == i18n::currentLanguage() || !i18n::isSupported(language) || m_sources->isServing())
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
    h.presentation = m_presenter->saveState(); // first: leaves presentation mode
    h.baseline = m_editor->originalScenario();
    h.scenario = m_document->scenario();
    h.fileName = m_document->fileName();
    h.modified = m_document->isModified();
    h.operation = hasResult() ? currentOperation() : 0;
    h.playhead = hasResult() ? m_timeline->playhead() : -1;
    h.page = int(currentPage());
    h.chartsTab = m_charts->currentTab();
    // Not saveGeometry(): the new window goes exactly where this one is, frame or no frame.
    h.geometry = geometry();
    h.maximized = isMaximized();
    h.windowState = saveState();
    h.predicting = m_actions.predict->isChecked();
    h.sources = m_sources->saveState();
    h.lesson = m_guide->saveState();
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
    m_sources->watchDock()->hide(); // nothing is served by a new window
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
    m_actions.predict->setChecked(h.predicting);
    if (h.operation > 0) {
        const int operation = h.operation;
        const qint64 playhead = h.playhead;
        connect(m_document, &LabDocument::resultShown, this, [this, operation, playhead] {
            setOperation(operation);
            if (playhead >= 0)
                m_timeline->setPlayhead(playhead);
        }, Qt::SingleShotConnection);
    }
    m_sources->restoreState(h.sources);
    m_guide->restoreState(h.lesson);
    if (h.compareVariant >= 0) {
        openCompare();
        m_compare->setVariantIndex(h.compareVariant);
    }
    m_presenter->restoreState(h.presentation);
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
    bar->addAction(m_actions.open);
    bar->addAction(m_actions.save);
    // Icons only: a folder and a disk are clear, their words are in the tooltips and the File menu,
    // and the toolbar must fit a 1024-pixel screen in every language.
    for (QAction *a : {m_actions.open, m_actions.save}) {
        if (auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
    bar->addSeparator();
    bar->addAction(m_actions.run);
    m_sources->addLiveToToolBar(bar);
    bar->addWidget(createSeedBox(bar));
    bar->addAction(m_actions.newSeed);
    m_sources->addWatchToToolBar(bar);
    bar->addSeparator();
    // Play and step live once, in the timeline's own bar (and the Playback menu).

    bar->addWidget(createOperationBox(bar));
    bar->addAction(m_actions.previousInteresting);
    bar->addAction(m_actions.nextInteresting);
    // Arrows only: the label beside them says what makes the operation interesting.
    for (QAction *a : {m_actions.previousInteresting, m_actions.nextInteresting}) {
        if (auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
    m_operationWhy = new ElidedLabel(bar);
    m_operationWhy->setObjectName(QStringLiteral("operationWhy"));
    m_operationWhy->setContentsMargins(6, 0, 6, 0);
    m_operationWhy->setToolTip(tr("What makes this operation worth a look"));
    bar->addWidget(m_operationWhy);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(bar->toggleViewAction());

    // A presentation clicker sends Page Up / Page Down: on the timeline they jump between the telling operations.
    // (While a lesson is open they step through the lesson instead: see LessonController.)
    m_timelineNextKey = new QShortcut(QKeySequence(Qt::Key_PageDown), m_timeline);
    m_timelineNextKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(m_timelineNextKey, &QShortcut::activated, this, &MainWindow::nextInterestingOperation);
    m_timelinePreviousKey = new QShortcut(QKeySequence(Qt::Key_PageUp), m_timeline);
    m_timelinePreviousKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(m_timelinePreviousKey, &QShortcut::activated, this, &MainWindow::previousInterestingOperation);

    // Toolbar buttons show the action's text without its mnemonic. Qt drops the "&" but keeps the
    // Chinese style "(&O)" as "(O)": the button text follows the action's text without either.
    const QList<QAction *> actions = bar->actions();
    for (QAction *a : actions) {
        if (a->property(OwnIconTextProperty).toBool())
            continue;
        const auto update = [a] { a->setIconText(toolButtonText(a->text())); };
        update();
        connect(a, &QAction::changed, a, update);
    }
}

QWidget *MainWindow::createSeedBox(QWidget *parent)
{
    // The seed, shown and editable: a class sees that another seed tells the same story.
    auto *seedBox = new QWidget(parent);
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
    connect(m_seedEdit, &QLineEdit::editingFinished, this, [this] {
        bool ok = false;
        const quint64 seed = m_seedEdit->text().toULongLong(&ok);
        if (ok && seed != m_document->scenario().seed) {
            m_document->setOpenOnStory(true);
            setSeed(seed);
        } else {
            m_seedEdit->setText(QString::number(m_document->scenario().seed));
        }
    });
    return seedBox;
}

QWidget *MainWindow::createOperationBox(QWidget *parent)
{
    auto *opBox = new QWidget(parent);
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
    connect(m_operation, &QSpinBox::valueChanged, this, [this](int op) {
        if (m_timeline->operation() != op)
            m_timeline->setOperation(op);
    });
    return opBox;
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

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::FontChange && m_seedEdit)
        m_seedEdit->setFixedWidth(m_seedEdit->fontMetrics().horizontalAdvance(QStringLiteral("000000000")) + 16);
}

void MainWindow::connectViews()
{
    connect(m_actions.predict, &QAction::toggled, this, [this](bool on) {
        m_prediction->setVisible(on);
        m_prediction->setActive(on);
        m_prediction->newRound(result().metrics); // the result on show is the one to predict
        applyOutcomeHiding();
    });
    connect(m_prediction, &PredictionPanel::hidingChanged, this, &MainWindow::applyOutcomeHiding);
    connect(m_editor, &ScenarioEditor::scenarioChanged, this, &MainWindow::onScenarioEdited);
    connect(m_editor, &ScenarioEditor::presetActivated, this, &MainWindow::newFromPreset);
    connect(m_editor, &ScenarioEditor::settingsModifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &LabDocument::resultShown, this, &MainWindow::resultShown);
    RunController *run = m_document->runController();
    connect(run, &RunController::runRefused, this, [this](const QString &message) {
        m_status->showBanner(tr("Not run: too much work (hover here); the numbers are the last run's"), message);
    });
    connect(run, &RunController::busyChanged, m_status, &StatusOutcome::setRunBusy);

    // Every view's pick goes through the document, which tells the others.
    connect(m_timeline, &TimelineWidget::eventSelected, this, [this](int index) { m_document->selectEvent(index, m_timeline); });
    connect(m_records, &RecordsView::eventSelected, this, [this](int index) { m_document->selectEvent(index, m_records); });
    connect(m_log, &LogView::eventSelected, this, [this](int index) { m_document->selectEvent(index, m_log); });
    connect(m_document, &LabDocument::selectionChanged, this, &MainWindow::onSelectionChanged);
    connect(m_timeline, &TimelineWidget::operationChanged, this, [this](int op) {
        m_document->setOperation(op);
        const QSignalBlocker blocker(m_operation);
        m_operation->setValue(op);
        updateInterestingActions();
    });
    connect(m_timeline->animation(), &QAbstractAnimation::stateChanged, this, &MainWindow::updatePlaybackActions);
    // A bar of "Attempts per operation" opens its operation on the timeline.
    connect(m_charts, &ChartsPanel::operationActivated, this, [this](int op) {
        setOperation(op);
        showPage(Page::Timeline);
    });
    // "Load over time" draws the timeline's playhead.
    connect(m_timeline, &TimelineWidget::playheadMoved, m_document, &LabDocument::setPlayhead);
    connect(m_timeline, &TimelineWidget::playheadMoved, m_charts, &ChartsPanel::setPlayhead);
}

void MainWindow::onSelectionChanged(int traceIndex, QObject *origin)
{
    const TraceEvent &event = m_document->result().trace.at(traceIndex);
    const int op = event.op;
    if (origin != m_timeline) {
        if (op > 0 && op != m_timeline->operation())
            setOperation(op);
        m_timeline->selectEvent(traceIndex);
        // The playhead goes to the picked event, so the caption narrates it.
        if (op > 0)
            m_timeline->setPlayhead(event.t);
    }
    if (origin != m_records)
        m_records->selectEvent(traceIndex);
    if (origin != m_log)
        m_log->selectEvent(traceIndex);
}

Scenario MainWindow::scenario() const
{
    return m_document->scenario();
}

const RunResult &MainWindow::result() const
{
    return m_document->result();
}

bool MainWindow::hasResult() const
{
    return m_document->hasResult();
}

RunController *MainWindow::runController() const
{
    return m_document->runController();
}

const QList<InterestingOp> &MainWindow::interestingOperations() const
{
    return m_document->interesting();
}

bool MainWindow::isModified() const
{
    return m_document->isModified();
}

QString MainWindow::currentFile() const
{
    return m_document->fileName();
}

void MainWindow::openCompare()
{
    if (!m_compare)
        m_compare = new CompareWindow(this);
    m_compare->setScenario(scenario(), currentOperation());
    m_presenter->showFollower(m_compare); // full screen while presenting, text at the zoom
    m_compare->raise();
    m_compare->activateWindow();
}

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
    m_document->setOpenOnStory(true);
    // A lesson about load opens its charts on Load over time; any other leaves that tab for its duplicates.
    if (isAboutLoad(scenario))
        m_charts->setCurrentTab(ChartsPanel::LoadTab);
    else if (m_charts->currentTab() == ChartsPanel::LoadTab)
        m_charts->setCurrentTab(ChartsPanel::DuplicatesTab);
    m_editor->setScenario(scenario);
    m_document->setBaseline(scenario);
    m_document->runController()->setScenario(scenario);
    m_sources->onScenarioLoaded();
    m_document->setFileName(fileName);
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
    m_document->setFileName(QFileInfo(fileName).absoluteFilePath());
    m_settings.addRecentFile(m_document->fileName());
    m_settings.setLastScenario(m_document->fileName());
    setModified(false);
    updateTitle();
    return true;
}

void MainWindow::setSeed(quint64 seed)
{
    Scenario s = m_document->scenario();
    if (s.seed == seed)
        return;
    s.seed = seed;
    m_document->setOpenOnStory(true);
    m_editor->setScenario(s, ScenarioEditor::Baseline::Keep); // a new seed is not an edit of the lesson
    onScenarioEdited(s);
    updateSeedField();
}

void MainWindow::onScenarioEdited(const Scenario &scenario)
{
    m_document->runController()->setScenario(scenario);
    m_sources->onScenarioEdited();
    updateWorstCase(scenario);
    setModified(true);
    updateTitle();
}

void MainWindow::followDocument()
{
    // The views pull a new result themselves; the frame's part comes around them, in the order of
    // connection: before the timeline has it, after (the operation to open), after the pages.
    connect(m_document, &LabDocument::resultChanged, this, &MainWindow::onResultArriving);
    m_timeline->setDocument(m_document);
    connect(m_document, &LabDocument::resultChanged, this, &MainWindow::openResultOperation);
    m_charts->setDocument(m_document);
    m_records->setDocument(m_document);
    m_log->setDocument(m_document);
    connect(m_document, &LabDocument::resultChanged, this, &MainWindow::onResultFollowed);
}

void MainWindow::onResultArriving(const RunResult &result)
{
    const int previousOp = m_timeline->operation();
    const ResultSource source = m_document->source();
    m_sources->updateLiveRunLabel();
    // A live server numbers operations by their reference (ORD-0007 is op 7), so they may have gaps.
    const int opCount = qMax(1, qMax(int(result.ops.size()), result.ops.isEmpty() ? 0 : result.ops.constLast().op));
    {
        const QSignalBlocker blocker(m_operation);
        m_operation->setRange(1, opCount);
        m_operation->setSuffix(isWatched(source) ? QString() : tr(" of %1").arg(opCount));
    }
    m_status->hideBanner();
    // A new scenario or seed opens on the operation that tells the lesson; an edit keeps the one in view.
    m_openingStory = m_document->takeOpenOnStory();
    m_openingOperation =
        m_openingStory ? storyOperation(result, m_document->interesting()) : qBound(1, previousOp, opCount);
}

void MainWindow::openResultOperation()
{
    if (m_timeline->operation() != m_openingOperation)
        m_timeline->setOperation(m_openingOperation);
    // The whole story at a glance, seen from its first attempt; Play starts it again from the beginning.
    if (m_openingStory)
        m_timeline->showWhole();
    const QSignalBlocker blocker(m_operation);
    m_operation->setValue(m_timeline->operation());
}

void MainWindow::onResultFollowed(const RunResult &result)
{
    updateWorstCase(result.scenario);
    updateSeedField();
    updateInterestingActions();
    m_prediction->newRound(result.metrics);
    showOutcome();
    updatePlaybackActions();
    m_document->notifyShown();
}

void MainWindow::showOutcome()
{
    m_status->showOutcome(result(), m_document->source(), outcomeHidden(), m_sources->isLiveRunning());
    m_sources->showWatchStatus();
}

void MainWindow::updateWorstCase(const Scenario &scenario)
{
    m_status->updateWorstCase(scenario, outcomeHidden());
}

bool MainWindow::outcomeHidden() const
{
    return m_prediction->hiding() || (m_guide && m_guide->hidesOutcome());
}

void MainWindow::applyOutcomeHiding()
{
    const bool hide = outcomeHidden();
    showOutcome();
    updateWorstCase(scenario());
    for (const Page page : {Page::Charts, Page::Records, Page::Log})
        m_pages->setTabEnabled(int(page), !hide);
    if (hide && m_pages->currentIndex() != int(Page::Timeline))
        showPage(Page::Timeline);
    // "duplicate, 409" beside the operation box would give the answer away too.
    if (m_operationWhy)
        updateInterestingActions();
    // A lesson question: the operation's future is not drawn faded, it is not drawn.
    if (m_guide)
        m_timeline->setAnswerHidden(m_guide->hidesOutcome());
}

void MainWindow::stopPredicting()
{
    if (m_prediction->isActive())
        m_actions.predict->setChecked(false);
}

void MainWindow::stopOutsideSources()
{
    m_sources->stopAll();
}

void MainWindow::exportLessonHandout()
{
    m_exporter->exportWithDialog(Exporter::Kind::LessonHandoutPdf);
}

void MainWindow::setScenarioLocked(bool locked)
{
    m_editor->setEnabled(!locked);
    for (QAction *a : {m_actions.run, m_actions.newSeed, m_actions.open})
        a->setEnabled(!locked);
    m_seedEdit->setEnabled(!locked);
    m_presetMenu->setEnabled(!locked);
    m_recentMenu->setEnabled(!locked);
}

void MainWindow::setSubject(const QString &subject)
{
    m_subject = subject;
    updateTitle();
}

void MainWindow::setRerunLive(bool live)
{
    m_actions.run->setToolTip(live ? tr("Run the scenario again over real HTTP (Live is on)")
                                 : tr("Run the scenario again (same seed, same result)"));
}

void MainWindow::showPage(Page page)
{
    m_pages->setCurrentIndex(int(page));
}

MainWindow::Page MainWindow::currentPage() const
{
    return Page(m_pages->currentIndex());
}

void MainWindow::updateHiddenPages()
{
    m_document->bringViewsUpToDate();
}

void MainWindow::checkPageAction(int index)
{
    if (index >= 0 && index < m_actions.pages.size())
        m_actions.pages.at(index)->setChecked(true);
}

void MainWindow::updateInterestingActions()
{
    const int op = m_timeline->operation();
    const QList<InterestingOp> &interesting = m_document->interesting();
    const bool before = !interesting.isEmpty() && interesting.first().op < op;
    const bool after = !interesting.isEmpty() && interesting.last().op > op;
    m_actions.previousInteresting->setEnabled(before);
    m_actions.nextInteresting->setEnabled(after);
    QString why;
    for (const InterestingOp &i : interesting) {
        if (i.op == op) {
            why = story::describe(i);
            break;
        }
    }
    if (isWatched(m_document->source())) {
        // An operation in the Watch view is the client's own reference ("tea for two" is operation
        // 100000000): name it.
        const QList<OpSummary> &ops = m_document->result().ops;
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
    // Cut where the toolbar ends: the whole text in the tooltip.
    m_operationWhy->setToolTip(why.isEmpty() ? tr("What makes this operation worth a look")
                                             : QStringLiteral("%1\n%2").arg(why, tr("What makes this operation worth a look")));
    m_operationWhy->setVisible(!why.isEmpty());
}

void MainWindow::nextInterestingOperation()
{
    const int op = m_timeline->operation();
    for (const InterestingOp &i : m_document->interesting()) {
        if (i.op > op) {
            setOperation(i.op);
            return;
        }
    }
}

void MainWindow::previousInterestingOperation()
{
    const int op = m_timeline->operation();
    const QList<InterestingOp> &interesting = m_document->interesting();
    for (auto it = interesting.crbegin(); it != interesting.crend(); ++it) {
        if (it->op < op) {
            setOperation(it->op);
            return;
        }
    }
}

void MainWindow::newSeed()
{
    const Scenario &s = m_document->scenario();
    quint64 seed = s.seed;
    // Small numbers are easy to read out to a class; never the same seed twice in a row.
    while (seed == s.seed)
        seed = QRandomGenerator::global()->bounded(quint32(1), quint32(1000000));
    m_document->setOpenOnStory(true);
    setSeed(seed);
}

void MainWindow::updateSeedField()
{
    if (!m_seedEdit->hasFocus())
        m_seedEdit->setText(QString::number(m_document->scenario().seed));
}

void MainWindow::updateTitle()
{
    const Scenario &s = m_document->scenario();
    QString title = s.title.isEmpty() ? s.name : i18n::content(s.title);
    // The title was written for other settings: say so, as a saved file will.
    if (m_editor->settingsModified() && !title.endsWith(tr("(modified)")))
        title += QLatin1Char(' ') + tr("(modified)");
    if (!m_document->fileName().isEmpty())
        title = QStringLiteral("%1 (%2)").arg(title, QFileInfo(m_document->fileName()).fileName());
    if (!m_subject.isEmpty())
        title = m_subject;
    setWindowTitle(QStringLiteral("%1[*] \u2014 RetryLab").arg(title));
    setWindowModified(m_document->isModified());
}

void MainWindow::setModified(bool modified)
{
    m_document->setModified(modified);
    setWindowModified(modified);
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("The scenario \"%1\" has changes that are not saved.").arg(m_document->scenario().name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newFromPreset(const QString &name)
{
    if (!maybeSave()) {
        m_editor->setScenario(m_document->scenario(), ScenarioEditor::Baseline::Keep); // puts the list selection back
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
    const QString current = m_document->fileName();
    QString dir = current.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                     : QFileInfo(current).absolutePath();
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
    if (m_document->fileName().isEmpty())
        return saveAs();
    QString error;
    if (!saveToFile(m_document->fileName(), &error)) {
        QMessageBox::warning(this, tr("Cannot save scenario"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveAs()
{
    const QString suggestion = m_document->fileName().isEmpty()
        ? QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
              .filePath(m_document->scenario().name + QStringLiteral(".json"))
        : m_document->fileName();
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

void MainWindow::rerun()
{
    if (!m_sources->rerun())
        m_document->runController()->rerun();
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
    m_actions.play->setText(playing ? tr("&Pause") : tr("&Play"));
    m_actions.play->setIcon(playing
                              ? LabActions::icon(QStringLiteral("media-playback-pause"), QStyle::SP_MediaPause, style())
                              : LabActions::icon(QStringLiteral("media-playback-start"), QStyle::SP_MediaPlay, style()));
}

void MainWindow::resetLayout()
{
    const bool lesson = m_guide->isLessonOpen();
    restoreState(m_defaultState);
    m_scenarioDock->show();
    m_sources->showDockIfServing();
    showPage(Page::Timeline);
    resizeDocks({m_scenarioDock}, {ScenarioDockWidth}, Qt::Horizontal);
    // An open lesson stays open, at its default width.
    if (lesson) {
        m_guide->dock()->show();
        resizeDocks({m_scenarioDock, m_guide->dock()}, {ScenarioDockWidth, m_guide->defaultDockWidth()},
                    Qt::Horizontal);
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

bool MainWindow::opensMaximized(QSize window, QSize room, bool geometryRestored)
{
    // Room for the window manager's frame: a title bar and borders (openbox, KWin, Mutter: 20-40 px).
    constexpr int FrameWidth = 16;
    constexpr int FrameHeight = 48;
    return !geometryRestored && room.isValid()
        && (window.width() + FrameWidth > room.width() || window.height() + FrameHeight > room.height());
}

QSize MainWindow::openingSize(QSize window, QSize room, bool geometryRestored)
{
    // Five sixths of the room: the window's frame and a margin of desktop stay in view.
    if (geometryRestored || !room.isValid())
        return window;
    return window.expandedTo(QSize(room.width() * 5 / 6, room.height() * 5 / 6));
}

void MainWindow::showOnScreen()
{
    const QScreen *onScreen = screen();
    const QRect available = onScreen ? onScreen->availableGeometry() : QRect();
    if (opensMaximized(size(), available.size(), m_geometryRestored)) {
        showMaximized();
        return;
    }
    const QSize opening = openingSize(size(), available.isValid() ? available.size() : QSize(), m_geometryRestored);
    if (opening != size()) {
        resize(opening);
        move(available.center() - QPoint(opening.width() / 2, opening.height() / 2));
    }
    show();
}

void MainWindow::restoreSettings(bool lastScenario)
{
    const QByteArray geometry = m_settings.windowGeometry();
    if (!geometry.isEmpty())
        m_geometryRestored = restoreGeometry(geometry);
    const QByteArray state = m_settings.windowState();
    if (!state.isEmpty())
        restoreState(state);
    m_sources->watchDock()->hide(); // nothing is served at start-up
    // Nor proxied or checked: a saved state with "Your service" on show would put an empty panel in
    // front of a lesson opened from the command line.
    m_sources->subjectDock()->hide();

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
        connect(m_document, &LabDocument::resultShown, this, [this] { m_settings.setLastScenarioPending(false); },
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
    m_presenter->presentation()->setActive(false);
    saveSettings();
    m_settings.setLastScenarioPending(false); // closed by the user: the start did not hang
    event->accept();
}

} // namespace retrylab
