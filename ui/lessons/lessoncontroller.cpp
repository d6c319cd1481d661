#include "lessons/lessoncontroller.h"

#include "charts/chartspanel.h"
#include "common/makedock.h"
#include "document/labdocument.h"
#include "document/windowbudget.h"
#include "editor/editorpresetlist.h"
#include "editor/scenarioeditor.h"
#include "i18n.h"
#include "lessons/handout.h"
#include "lessons/lessonplayer.h"
#include "shell/labframe.h"
#include "timeline/timelinewidget.h"
#include "trace.h"

#include <QDockWidget>
#include <QEventLoop>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHash>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScreen>
#include <QShortcut>
#include <QVariantAnimation>

#include <algorithm>
#include <memory>

namespace retrylab {

LessonController::LessonController(LabFrame *frame, QObject *parent)
    : QObject(parent)
    , m_frame(frame)
{
    QMainWindow *window = m_frame->frameWindow();
    m_player = new LessonPlayer;
    m_player->setObjectName(QStringLiteral("lessonPlayer"));
    // The player scrolls its texts itself (after shrinking them to fit): the dock is as wide as
    // its buttons need, at any zoom.
    m_dock = makeDock(tr("Lesson"), QStringLiteral("lessonDock"), m_player, window);
    m_dock->setMinimumWidth(320);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();

    connect(m_player, &LessonPlayer::stepChanged, this, &LessonController::applyStep);
    connect(m_player, &LessonPlayer::revealRequested, this, &LessonController::revealAnswer);
    connect(m_player, &LessonPlayer::continueRequested, this, &LessonController::continueReveal);
    connect(m_player, &LessonPlayer::hidingChanged, this, [this] { m_frame->applyOutcomeHiding(); });
    connect(m_frame->document(), &LabDocument::resultShown, this, &LessonController::onResultShown);
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this] {
        updateKeys();
        m_frame->applyOutcomeHiding();
    });

    // Page Down / Page Up step through the lesson wherever the focus is (a presenter clicker sends
    // them); on the timeline they otherwise jump between interesting operations.
    m_nextKey = new QShortcut(QKeySequence(Qt::Key_PageDown), window);
    m_nextKey->setContext(Qt::WindowShortcut);
    connect(m_nextKey, &QShortcut::activated, m_player, &LessonPlayer::next);
    m_previousKey = new QShortcut(QKeySequence(Qt::Key_PageUp), window);
    m_previousKey->setContext(Qt::WindowShortcut);
    connect(m_previousKey, &QShortcut::activated, m_player, &LessonPlayer::previous);
    updateKeys();
    createMenu();
}

LessonController::~LessonController()
{
    // Neither the dock's hiding nor the player may reach a half-destroyed frame.
    disconnect(m_dock, nullptr, this, nullptr);
    disconnect(m_player, nullptr, this, nullptr);
}

void LessonController::createMenu()
{
    m_menu = new QMenu(tr("&Lessons"), m_frame->frameWindow());
    m_menu->setObjectName(QStringLiteral("lessonsMenu"));
    m_menu->setToolTipsVisible(true);
    const QStringList names = lesson::builtinNames();
    for (const QString &name : names) {
        const LessonParse parsed = lesson::builtin(name);
        if (!parsed.ok())
            continue;
        QAction *a = m_menu->addAction(i18n::content(parsed.lesson.title));
        a->setObjectName(QStringLiteral("lesson-") + name);
        a->setToolTip(i18n::content(parsed.lesson.summary));
        connect(a, &QAction::triggered, this, [this, name] {
            if (!m_frame->maybeSave())
                return;
            QString error;
            if (!startLesson(name, 0, &error))
                QMessageBox::warning(m_frame->frameWindow(), tr("Cannot open the lesson"), error);
        });
    }
    m_menu->addSeparator();
    QAction *open = m_menu->addAction(tr("Open lesson &file…"));
    open->setObjectName(QStringLiteral("openLessonAction"));
    connect(open, &QAction::triggered, this, &LessonController::openLessonFile);
    QAction *close = m_menu->addAction(tr("&Close lesson"));
    close->setObjectName(QStringLiteral("closeLessonAction"));
    connect(close, &QAction::triggered, this, &LessonController::closeLesson);
    QAction *handout = m_menu->addAction(tr("&Handout of this lesson as PDF…"));
    handout->setObjectName(QStringLiteral("lessonHandoutAction"));
    connect(handout, &QAction::triggered, this, [this] { m_frame->exportLessonHandout(); });
    QAction *student = m_menu->addAction(tr("&Student handout (no answers) as PDF…"));
    student->setObjectName(QStringLiteral("lessonStudentHandoutAction"));
    connect(student, &QAction::triggered, this, &LessonController::exportStudentHandout);
    connect(m_menu, &QMenu::aboutToShow, this, [this, close, handout, student] {
        close->setEnabled(isLessonOpen());
        handout->setEnabled(isLessonOpen());
        student->setEnabled(isLessonOpen());
    });
}

void LessonController::setTimelineKeys(QShortcut *next, QShortcut *previous)
{
    m_timelineNextKey = next;
    m_timelinePreviousKey = previous;
    updateKeys();
}

int LessonController::defaultDockWidth(bool presenting) const
{
    return qMax(340, m_frame->frameWindow()->width() * (presenting ? 30 : 27) / 100);
}

void LessonController::onPresentationChanged(bool presenting)
{
    if (isLessonOpen())
        m_frame->frameWindow()->resizeDocks({m_dock}, {defaultDockWidth(presenting)}, Qt::Horizontal);
}

bool LessonController::startLesson(const QString &nameOrFile, int step, QString *error)
{
    const LessonParse parsed = lesson::resolve(nameOrFile);
    if (!parsed.ok()) {
        if (error)
            *error = parsed.errors.join(QLatin1Char('\n'));
        return false;
    }
    // Every step checked now against the window's budgets, not when the class reaches it.
    if (const QString refusal = windowbudget::lessonRefusal(parsed.lesson); !refusal.isEmpty()) {
        if (error)
            *error = refusal;
        return false;
    }
    startLesson(parsed.lesson, step);
    return true;
}

void LessonController::startLesson(const Lesson &lesson, int step)
{
    m_frame->stopPredicting(); // the lesson asks its own questions
    const bool wasOpen = isLessonOpen();
    bringDockToFront(m_dock);
    // A quarter of the window for the lesson's text, readable from the back of a room.
    if (!wasOpen)
        placeDock();
    m_player->setLesson(lesson, step);
    updateKeys();
}

void LessonController::placeDock()
{
    QMainWindow *window = m_frame->frameWindow();
    QDockWidget *scenarioDock = m_frame->scenarioDock();
    // Visible to the window: a lesson of the command line opens before the window shows.
    const bool beside = scenarioDock->isVisibleTo(window) && window->dockWidgetArea(scenarioDock) != Qt::RightDockWidgetArea;
    // Three columns want about 1200 px: on a narrower screen (a 1024 px projector) the lesson takes
    // the Scenario dock's place as a tab beside it, and the timeline keeps its width.
    // The screen's width too: a window opening maximized on a small screen is not its size yet.
    const QScreen *screen = window->screen();
    const int width = screen ? std::min(window->width(), screen->availableGeometry().width()) : window->width();
    if (beside && width < MinWidthBesideScenario) {
        window->tabifyDockWidget(scenarioDock, m_dock);
        bringDockToFront(m_dock);
        window->resizeDocks({m_dock}, {defaultDockWidth()}, Qt::Horizontal);
        return;
    }
    if (window->dockWidgetArea(m_dock) != Qt::RightDockWidgetArea) {
        window->addDockWidget(Qt::RightDockWidgetArea, m_dock); // out of a tab of an earlier, narrower window
        m_dock->show();
    }
    // The form keeps room for its fields (before the window first shows, its width is not laid out yet).
    if (beside)
        window->resizeDocks({scenarioDock, m_dock}, {std::max(scenarioDock->width(), MinScenarioWidth), defaultDockWidth()},
                            Qt::Horizontal);
    else
        window->resizeDocks({m_dock}, {defaultDockWidth()}, Qt::Horizontal);
}

void LessonController::closeLesson()
{
    endRevealPlayback();
    m_revealAtOnce = false;
    m_frame->editor()->presetList()->setDescriptionsShown(true);
    m_pending = false;
    m_frame->editor()->clearHighlight();
    m_frame->timeline()->emphasiseLane(-1);
    m_dock->hide();
    m_frame->applyOutcomeHiding();
}

bool LessonController::isLessonOpen() const
{
    return m_dock && !m_dock->isHidden() && m_player->hasLesson();
}

bool LessonController::hidesOutcome() const
{
    return isLessonOpen() && m_player->hiding();
}

void LessonController::openLessonFile()
{
    if (!m_frame->maybeSave())
        return;
    const QString fileName = QFileDialog::getOpenFileName(m_frame->frameWindow(), tr("Open lesson"), QString(),
                                                          tr("Lesson files (*.json);;All files (*)"));
    if (fileName.isEmpty())
        return;
    QString error;
    if (!startLesson(fileName, 0, &error))
        QMessageBox::warning(m_frame->frameWindow(), tr("Cannot open the lesson"), error);
}

void LessonController::exportStudentHandout()
{
    const QString fileName = QFileDialog::getSaveFileName(
        m_frame->frameWindow(), tr("Student handout"), m_player->lesson().name + QStringLiteral("-student.pdf"),
        tr("PDF files (*.pdf)"));
    if (fileName.isEmpty())
        return;
    const QString error = writeHandout(fileName, m_frame->frameWindow(), HandoutCopy::Student);
    if (!error.isEmpty())
        QMessageBox::warning(m_frame->frameWindow(), tr("Cannot write the handout"), error);
}

QString LessonController::writeHandout(const QString &fileName, QWidget *progressParent, HandoutCopy copy)
{
    if (!isLessonOpen())
        return tr("no lesson is open: start one from the Lessons menu");
    const Lesson lesson = m_player->lesson();
    // Its steps' runs are all kept at once: together they must fit the window's memory bound.
    if (const QString refusal = windowbudget::lessonRefusal(lesson, true); !refusal.isEmpty())
        return refusal;
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
    return writeLessonHandout(lesson, runs.results(), fileName, copy);
}

void LessonController::updateKeys()
{
    const bool lesson = isLessonOpen();
    m_nextKey->setEnabled(lesson);
    m_previousKey->setEnabled(lesson);
    if (m_timelineNextKey)
        m_timelineNextKey->setEnabled(!lesson);
    if (m_timelinePreviousKey)
        m_timelinePreviousKey->setEnabled(!lesson);
}

void LessonController::applyStep(int step)
{
    Q_UNUSED(step);
    const LessonStep *s = m_player->currentStep();
    if (!s)
        return;
    endRevealPlayback();
    m_revealAtOnce = false;
    m_frame->timeline()->pause();
    m_frame->editor()->presetList()->setDescriptionsShown(false);
    m_frame->editor()->clearHighlight();
    m_frame->timeline()->emphasiseLane(-1);
    // A lesson's numbers are the simulation's: no live run, no serving.
    m_frame->stopOutsideSources();
    m_pending = true;
    m_frame->applyScenario(shownScenario(m_player->lesson(), m_player->step()), QString());
    m_frame->applyOutcomeHiding();
}

Scenario LessonController::shownScenario(const Lesson &lesson, int step)
{
    if (step < 0 || step >= lesson.steps.size())
        return Scenario();
    const LessonStep &s = lesson.steps.at(step);
    Scenario shown = s.scenario;
    shown.name = QStringLiteral("%1-step%2").arg(lesson.name).arg(step + 1);
    shown.title = tr("%1, step %2: %3").arg(i18n::content(lesson.title)).arg(step + 1).arg(i18n::content(s.title));
    shown.description = i18n::content(s.watch);
    return shown;
}

void LessonController::onResultShown()
{
    if (m_pending)
        finishStep();
}

void LessonController::finishStep()
{
    m_pending = false;
    const LessonStep *s = m_player->currentStep();
    if (!s)
        return;
    TimelineWidget *timeline = m_frame->timeline();
    if (s->operation > 0)
        m_frame->setOperation(s->operation);
    const LessonHighlight &h = s->highlight;
    const bool question = s->question.kind != LessonQuestion::Kind::None;
    if (h.kind == LessonHighlight::Kind::Control) {
        m_frame->editor()->highlightField(h.target);
    } else if (h.kind == LessonHighlight::Kind::Lane) {
        Lane lane;
        if (trace::laneFromName(h.target, &lane))
            timeline->emphasiseLane(int(lane));
    }
    if (question) {
        // The class predicts before it sees: the operation waits at its start.
        m_frame->showPage(LabFrame::Page::Timeline);
        timeline->pause();
        timeline->setPlayhead(0);
    } else if (h.kind == LessonHighlight::Kind::Event) {
        EventKind kind;
        if (trace::kindFromName(h.target, &kind))
            timeline->selectFirstEvent(kind);
    }
    if (!question)
        showChart(h.chart);
    m_frame->applyOutcomeHiding();
    m_frame->updatePlaybackActions();
}

void LessonController::revealAnswer()
{
    endRevealPlayback();
    if (m_pending || !m_frame->document()->hasResult()) {
        // The step's run is not on show yet: answer once it is.
        m_revealDone = connect(m_frame->document(), &LabDocument::resultShown, this, &LessonController::revealAnswer,
                               Qt::SingleShotConnection);
        return;
    }
    TimelineWidget *timeline = m_frame->timeline();
    m_frame->showPage(LabFrame::Page::Timeline);
    timeline->pause();
    if (m_revealAtOnce) {
        // The class saw this answer before the language changed: no second performance.
        m_revealAtOnce = false;
        timeline->seekToEnd();
        finishReveal();
        return;
    }
    timeline->setPlayhead(0);
    timeline->play();
    if (!timeline->isPlaying()) {
        finishReveal();
        return;
    }
    // A long operation plays faster: a class waits about longestRevealMs, not half a minute.
    QVariantAnimation *anim = timeline->animation();
    const double chosen = timeline->speed();
    const double speed = revealSpeed(chosen, anim->duration() - anim->currentTime());
    double pace = 0;
    if (speed != chosen) {
        m_speedBeforeReveal = chosen;
        timeline->setSpeed(speed);
        pace = timeline->speed();
    }
    m_player->setRevealPace(pace, (anim->duration() - anim->currentTime()) / 1000.0);
    m_revealDone = connect(anim, &QAbstractAnimation::finished, this, &LessonController::finishReveal,
                           Qt::SingleShotConnection);
    m_revealState = connect(anim, &QAbstractAnimation::stateChanged, this, &LessonController::onRevealAnimationState);
    m_frame->updatePlaybackActions();
}

double LessonController::revealSpeed(double chosen, qint64 remainingMs)
{
    if (remainingMs <= longestRevealMs)
        return chosen;
    return chosen * double(remainingMs) / longestRevealMs;
}

void LessonController::onRevealAnimationState()
{
    const QVariantAnimation *anim = m_frame->timeline()->animation();
    // Stopped at its end: finished() follows and shows the answer. Stopped before: paused.
    const bool atEnd = anim->currentTime() >= anim->duration();
    if (anim->state() == QAbstractAnimation::Running)
        m_player->setRevealPaused(false);
    else if (!atEnd)
        m_player->setRevealPaused(true);
}

void LessonController::continueReveal()
{
    TimelineWidget *timeline = m_frame->timeline();
    m_frame->showPage(LabFrame::Page::Timeline);
    timeline->play();
    if (!timeline->isPlaying()) // already at its end
        finishReveal();
    m_frame->updatePlaybackActions();
}

void LessonController::showChart(const QString &name)
{
    static const QHash<QString, int> tabs{{QStringLiteral("duplicates"), ChartsPanel::DuplicatesTab},
                                          {QStringLiteral("whatIf"), ChartsPanel::WhatIfTab},
                                          {QStringLiteral("attempts"), ChartsPanel::AttemptsTab},
                                          {QStringLiteral("load"), ChartsPanel::LoadTab}};
    const auto it = tabs.constFind(name);
    if (it == tabs.constEnd())
        return;
    m_frame->charts()->setCurrentTab(*it);
    m_frame->showPage(LabFrame::Page::Charts);
}

void LessonController::endRevealPlayback()
{
    disconnect(m_revealDone);
    disconnect(m_revealState);
    if (m_speedBeforeReveal > 0) {
        m_frame->timeline()->setSpeed(m_speedBeforeReveal);
        m_speedBeforeReveal = 0;
    }
}

void LessonController::finishReveal()
{
    endRevealPlayback();
    const LessonStep *s = m_player->currentStep();
    if (!s)
        return;
    const RunResult &result = m_frame->document()->result();
    double actual = 0;
    if (!lesson::metricValue(result, lesson::shownOperation(*s, result), s->question.metric, &actual))
        actual = qQNaN();
    m_player->showAnswer(actual);
    if (s->highlight.kind == LessonHighlight::Kind::Event) {
        EventKind kind;
        if (trace::kindFromName(s->highlight.target, &kind))
            m_frame->timeline()->selectFirstEvent(kind);
    }
    showChart(s->highlight.chart);
    m_frame->updatePlaybackActions();
}

LessonController::State LessonController::saveState() const
{
    State state;
    if (!isLessonOpen())
        return state;
    state.lesson = m_player->lesson();
    state.step = m_player->step();
    state.guess = m_player->guessedNumber();
    state.choice = m_player->guessedChoice();
    state.revealed = m_player->isRevealed();
    return state;
}

void LessonController::restoreState(const State &state)
{
    if (state.lesson.steps.isEmpty())
        return;
    // The step sets its own scenario up again; the class's guess and the answer come back with it.
    startLesson(state.lesson, state.step);
    if (!qIsNaN(state.guess))
        m_player->setGuess(state.guess);
    if (state.choice >= 0)
        m_player->setGuessedChoice(state.choice);
    if (state.revealed) {
        m_revealAtOnce = true;
        m_player->reveal(); // answered once the step's run is on show, without playing it again
    }
}

} // namespace retrylab
