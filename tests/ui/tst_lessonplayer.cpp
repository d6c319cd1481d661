// The lesson player in the window: steps apply their scenario, seed and operation; a question hides
// the outcome until Reveal has played the operation; highlights reach the editor and the timeline;
// Page Up / Page Down step through the lesson; every built-in lesson steps through without error.
#include "charts/chartspanel.h"
#include "charts/loadchart.h"
#include "lessons/lessonplayer.h"
#include "shell/mainwindow.h"
#include "document/runcontroller.h"
#include "editor/editorpresetlist.h"
#include "editor/scenarioeditor.h"
#include "i18n.h"
#include "testpaths.h"
#include "timeline/timelinescene.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "uitestsupport.h"

#include <QAction>
#include <QGraphicsItem>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QStyle>
#include <QTest>
#include <QTextLayout>
#include <QTranslator>
#include <QVariantAnimation>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include "story.h"

#include <QRegularExpression>

using namespace retrylab;
using test::labelText;

namespace {

constexpr int RunTimeoutMs = 120000;

// The step's run is on show and its operation and highlight applied.
bool waitForStep(MainWindow &w)
{
    RunController *run = w.runController();
    return QTest::qWaitFor([&] { return !run->isPending() && run->hasResult() && w.lessons()->isLessonStepReady(); },
                           RunTimeoutMs);
}

// Reveal, with the animation at its fastest, and wait for the answer.
bool revealAndWait(MainWindow &w)
{
    w.timeline()->setSpeed(16);
    auto *reveal = w.findChild<QPushButton *>(QStringLiteral("lessonReveal"));
    if (!reveal || !reveal->isEnabled())
        return false;
    QTest::mouseClick(reveal, Qt::LeftButton);
    return QTest::qWaitFor([&] { return w.lessons()->player()->isRevealed(); }, RunTimeoutMs);
}

// What the window says about the run and the scenario outside the timeline (whose own texts the
// timeline's tests cover) and the lesson panel (whose numbers tst_lessons ties to the lesson): the
// window title, the status bar, the toolbar's note on the operation, the preset list as drawn,
// and the scenario's title and description in the editor.
QStringList visibleTexts(const MainWindow &w)
{
    QStringList out{w.windowTitle()};
    const QList<QLabel *> status = w.statusBar()->findChildren<QLabel *>();
    for (const QLabel *label : status) {
        if (label->isVisibleTo(&w))
            out << label->text();
    }
    if (const auto *why = w.findChild<QLabel *>(QStringLiteral("operationWhy")))
        out << why->text();
    const PresetList *presets = w.editor()->presetList();
    for (int i = 0; i < presets->count(); ++i)
        out << presets->item(i)->text() << presets->item(i)->data(PresetList::DescriptionRole).toString();
    if (const auto *title = w.editor()->findChild<QLineEdit *>(QStringLiteral("scenarioTitle")))
        out << title->text();
    if (const auto *description = w.editor()->findChild<QPlainTextEdit *>(QStringLiteral("scenarioDescription")))
        out << description->toPlainText();
    return out;
}

// The texts among `texts` that state `number` as a number of its own (not a part of a longer one).
QStringList stating(const QStringList &texts, const QString &number)
{
    const QRegularExpression re(QStringLiteral("(?<![\\d.,])%1(?![\\d]|[.,]\\d)").arg(QRegularExpression::escape(number)));
    QStringList out;
    for (const QString &t : texts) {
        if (re.match(t).hasMatch())
            out << t;
    }
    return out;
}

Lesson builtin(const char *name)
{
    const LessonParse p = lesson::builtin(QLatin1String(name));
    if (!p.ok())
        qFatal("%s: %s", name, qPrintable(p.errors.join(QLatin1Char('\n'))));
    return p.lesson;
}

} // namespace

class TestLessonPlayer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void menuListsEveryLesson();
    void stepsApplyScenarioSeedAndOperation();
    void nextPreviousRestartAndPageKeys();
    void pageKeysFromTheTimeline();
    void questionHidesThenRevealsTheAnswer();
    void choiceQuestion();
    void highlights();
    void chartHighlightOpensTheChart();
    void closingShowsTheOutcome();
    void everyLessonStepsThrough();
    void answerShowsOnlyAfterReveal();
    void pauseDuringRevealOffersContinue();
    void revealSpeedKeepsRevealsShort();
    void longRevealPlaysFasterAndSaysSo();
    void playerAlone();
    void titleWrapsWholeOrUnderTheStepCount_data();
    void titleWrapsWholeOrUnderTheStepCount();
    void choiceButtonsGrowWithTheirText_data();
    void choiceButtonsGrowWithTheirText();
    void languageChange();
    void menuFollowsLanguage();
    void commandLine();

private:
    // Before Reveal: the title, editor and presets tell the step's story, and no text outside the
    // timeline states the answer (from 10 up; smaller numbers are everywhere).
    void checkNothingStatesTheAnswer(const MainWindow &w, const QString &where);
};

void TestLessonPlayer::menuListsEveryLesson()
{
    MainWindow w;
    QVERIFY(w.lessons()->menu());
    QVERIFY(!w.lessons()->dock()->isVisible());
    QStringList titles;
    for (QAction *a : w.lessons()->menu()->actions())
        titles << a->text();
    for (const QString &name : lesson::builtinNames()) {
        const QString title = lesson::builtin(name).lesson.title;
        QVERIFY2(titles.contains(title), qPrintable(title));
    }
    QVERIFY(w.findChild<QAction *>(QStringLiteral("openLessonAction")));
    // The menu comes before Help.
    bool lessonsSeen = false;
    for (QAction *m : w.menuBar()->actions()) {
        lessonsSeen |= m->menu() == w.lessons()->menu();
        if (m->text() == QStringLiteral("&Help"))
            QVERIFY(lessonsSeen);
    }
    QVERIFY(lessonsSeen);
    // A menu entry starts the lesson.
    w.show();
    w.findChild<QAction *>(QStringLiteral("lesson-key-expiry"))->trigger();
    QVERIFY(w.lessons()->dock()->isVisible());
    QCOMPARE(w.lessons()->player()->lesson().name, QStringLiteral("key-expiry"));
    QVERIFY(waitForStep(w));
}

void TestLessonPlayer::stepsApplyScenarioSeedAndOperation()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QString error;
    QVERIFY2(w.lessons()->startLesson(QStringLiteral("key-store-restart"), 0, &error), qPrintable(error));
    QVERIFY(waitForStep(w));
    const Lesson l = w.lessons()->player()->lesson();
    QCOMPARE(w.scenario(), LessonController::shownScenario(l, 0)); // the step as the window tells it
    {
        // ... which differs from the step's scenario in its name and words only.
        Scenario settings = w.scenario();
        settings.name = l.steps.at(0).scenario.name;
        settings.title = l.steps.at(0).scenario.title;
        settings.description = l.steps.at(0).scenario.description;
        QCOMPARE(settings, l.steps.at(0).scenario);
    }
    QCOMPARE(w.result().scenario.seed, l.steps.at(0).scenario.seed);
    QCOMPARE(w.currentOperation(), 3); // the story operation: ORD-0003, hit by the restart
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("lessonProgress"))->text(), QStringLiteral("Step 1 of 3"));
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("lessonStepTitle"))->text(), l.steps.at(0).title);
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("lessonWatch"))->text(), l.steps.at(0).watch);

    // The second step only sets the key store: the editor and the run show it.
    w.lessons()->player()->next();
    QVERIFY(waitForStep(w));
    QCOMPARE(w.scenario().server.idempotency.store, KeyStore::Durable);
    QCOMPARE(w.editor()->scenario().server.idempotency.store, KeyStore::Durable);
    QCOMPARE(w.result().metrics.duplicates, 0);

    // A step with its own seed and operation.
    const QByteArray json = R"({"name": "t", "title": "T", "summary": "S", "steps": [
        {"title": "A", "scenario": "ghost-request", "seed": 7, "operation": 5, "watch": "W."},
        {"title": "B", "set": {"client.wrapper.enabled": false}, "watch": "W."}]})";
    const LessonParse parsed = lesson::fromJsonBytes(json);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    w.lessons()->startLesson(parsed.lesson);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.result().scenario.seed, quint64(7));
    QCOMPARE(w.currentOperation(), 5);
    QCOMPARE(w.timeline()->operation(), 5);
    w.lessons()->player()->next();
    QVERIFY(waitForStep(w));
    QCOMPARE(w.result().scenario.seed, quint64(7)); // inherited
    QVERIFY(!w.result().scenario.client.wrapper.enabled);
    QCOMPARE(w.currentOperation(), storyOperation(w.result()));
}

void TestLessonPlayer::nextPreviousRestartAndPageKeys()
{
    MainWindow w;
    w.show();
    QVERIFY(w.lessons()->startLesson(QStringLiteral("new-key-on-retry")));
    QVERIFY(waitForStep(w));
    LessonPlayer *p = w.lessons()->player();
    auto *next = w.findChild<QPushButton *>(QStringLiteral("lessonNext"));
    auto *previous = w.findChild<QPushButton *>(QStringLiteral("lessonPrevious"));
    auto *restart = w.findChild<QPushButton *>(QStringLiteral("lessonRestart"));
    QVERIFY(!previous->isEnabled());
    QVERIFY(!restart->isEnabled());
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(p->step(), 1);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.scenario().client.keyPlacement, KeyPlacement::PerWrapperAttempt);
    QTest::mouseClick(next, Qt::LeftButton);
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(p->step(), 3);
    QVERIFY(!next->isEnabled()); // the last step
    QVERIFY(waitForStep(w));
    QCOMPARE(w.scenario().client.keyPlacement, KeyPlacement::PerOperation);
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("lessonProgress"))->text(), QStringLiteral("Step 4 of 4"));
    QTest::mouseClick(previous, Qt::LeftButton);
    QCOMPARE(p->step(), 2);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.scenario().client.keyPlacement, KeyPlacement::PerBusinessAttempt);
    QTest::mouseClick(restart, Qt::LeftButton);
    QCOMPARE(p->step(), 0);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.scenario().client.keyPlacement, KeyPlacement::None);

    // Page Down / Page Up, with the focus in the lesson panel or the editor.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    next->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown);
    QCOMPARE(p->step(), 1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown);
    QCOMPARE(p->step(), 2);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageUp);
    QCOMPARE(p->step(), 1);
    QVERIFY(waitForStep(w));
}

void TestLessonPlayer::pageKeysFromTheTimeline()
{
    MainWindow w;
    w.show();
    QVERIFY(w.lessons()->startLesson(QStringLiteral("nested-layers")));
    QVERIFY(waitForStep(w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.timeline()->setFocus();
    QVERIFY(w.timeline()->hasFocus() || w.timeline()->isAncestorOf(QApplication::focusWidget()));
    const int op = w.currentOperation();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown);
    QCOMPARE(w.lessons()->player()->step(), 1); // the lesson's step, not the next interesting operation
    QVERIFY(waitForStep(w));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageUp);
    QCOMPARE(w.lessons()->player()->step(), 0);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.currentOperation(), op);

    // Without a lesson, Page Down on the timeline jumps to the next interesting operation again.
    w.lessons()->closeLesson();
    QVERIFY(!w.lessons()->isLessonOpen());
    w.timeline()->setFocus();
    QVERIFY(w.interestingOperations().size() > 1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown);
    QVERIFY(w.currentOperation() != op);
    QCOMPARE(w.lessons()->player()->step(), 0);
}

void TestLessonPlayer::questionHidesThenRevealsTheAnswer()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    // nested-layers step 3: "How many duplicate orders will the server hold?" (12).
    QVERIFY(w.lessons()->startLesson(QStringLiteral("nested-layers"), 2));
    QVERIFY(waitForStep(w));
    const LessonStep &s = *w.lessons()->player()->currentStep();
    QCOMPARE(s.question.metric, QStringLiteral("duplicates"));
    QVERIFY(w.outcomeHidden());
    QCOMPARE(labelText(w, "statusDuplicates"), QStringLiteral("Duplicates: ?"));
    QCOMPARE(labelText(w, "statusRecords"), QStringLiteral("Records: ?"));
    for (const MainWindow::Page page : {MainWindow::Page::Charts, MainWindow::Page::Records, MainWindow::Page::Log})
        QVERIFY(!w.pages()->isTabEnabled(int(page)));
    // The operation waits at its start: its end would give the answer away.
    qint64 start = -1;
    for (const TraceEvent &e : w.result().trace)
        if (e.op == w.currentOperation() && start < 0)
            start = e.t;
    QCOMPARE(w.timeline()->playhead(), start);
    QVERIFY(!w.findChild<QLabel *>(QStringLiteral("lessonAnswer"))->isVisible());
    // Nor does the operation's future show, faded, on the timeline, nor "duplicate" beside the operation box.
    QVERIFY(w.timeline()->isAnswerHidden());
    {
        // Drawn: what is ahead of the playhead is not even faded (the faded drawing differs).
        auto *scene = qobject_cast<TimelineScene *>(w.timeline()->scene());
        QVERIFY(scene);
        QCOMPARE(scene->futureOpacity(), 0.0);
        QWidget *viewport = w.timeline()->view()->viewport();
        const QImage hidden = viewport->grab().toImage();
        w.timeline()->setAnswerHidden(false);
        QVERIFY(scene->futureOpacity() > 0);
        const QImage faded = viewport->grab().toImage();
        QVERIFY(hidden != faded);
        w.timeline()->setAnswerHidden(true);
        QCOMPARE(viewport->grab().toImage(), hidden);
        // Right of the playhead the view shows what it shows with no event drawn at all.
        const QList<QGraphicsItem *> items = scene->items();
        for (QGraphicsItem *item : items)
            item->setVisible(false);
        const QImage bare = viewport->grab().toImage();
        for (QGraphicsItem *item : items)
            item->setVisible(true);
        const int x = w.timeline()->view()->mapFromScene(QPointF(scene->playheadX(), 0)).x() + 40;
        QVERIFY(x > 0 && x < hidden.width() - 100);
        const QRect future(x, 0, hidden.width() - x, hidden.height());
        QCOMPARE(hidden.copy(future), bare.copy(future));
        QVERIFY(faded.copy(future) != bare.copy(future));
    }
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("operationWhy"))->text().isEmpty());

    // The class says 20; Reveal plays the operation to its end, then answers.
    auto *guess = w.findChild<QLineEdit *>(QStringLiteral("lessonGuess"));
    QVERIFY(guess->isVisible());
    guess->setText(QStringLiteral("20"));
    w.timeline()->setSpeed(16);
    QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("lessonReveal")), Qt::LeftButton);
    QVERIFY(w.lessons()->player()->isRevealing());
    QVERIFY(w.timeline()->isPlaying());
    QVERIFY(w.outcomeHidden()); // still hidden while it plays
    QVERIFY(QTest::qWaitFor([&] { return w.lessons()->player()->isRevealed(); }, RunTimeoutMs));
    QVERIFY(!w.timeline()->isPlaying());
    const int duplicates = w.result().metrics.duplicates;
    QCOMPARE(duplicates, 12);
    QCOMPARE(w.lessons()->player()->answerText(), QStringLiteral("You said 20; the answer is 12."));
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("lessonAnswer"))->isVisible());
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("lessonRevealText"))->text(), s.reveal);
    QVERIFY(!w.outcomeHidden());
    QVERIFY(!w.timeline()->isAnswerHidden());
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("operationWhy"))->text().contains(QLatin1String("duplicate")));
    QCOMPARE(labelText(w, "statusDuplicates"), QStringLiteral("Duplicates: 12"));
    QVERIFY(w.pages()->isTabEnabled(int(MainWindow::Page::Charts)));
    QVERIFY(!w.findChild<QPushButton *>(QStringLiteral("lessonReveal"))->isEnabled());

    // The right guess is said so; going back to the step asks again.
    w.lessons()->player()->setStep(2);
    QVERIFY(waitForStep(w));
    QVERIFY(w.outcomeHidden());
    w.lessons()->player()->setGuess(12);
    QVERIFY(revealAndWait(w));
    QCOMPARE(w.lessons()->player()->answerText(), QStringLiteral("You said 12: exactly right."));
    // No guess at all: just the answer.
    w.lessons()->player()->setStep(2);
    QVERIFY(waitForStep(w));
    QVERIFY(revealAndWait(w));
    QCOMPARE(w.lessons()->player()->answerText(), QStringLiteral("The answer is 12."));
}

void TestLessonPlayer::choiceQuestion()
{
    MainWindow w;
    w.show();
    // payload-fingerprint step 1: the retry gets 422 (choice 1).
    QVERIFY(w.lessons()->startLesson(QStringLiteral("payload-fingerprint")));
    QVERIFY(waitForStep(w));
    auto *first = w.findChild<QRadioButton *>(QStringLiteral("lessonChoice0"));
    auto *second = w.findChild<QRadioButton *>(QStringLiteral("lessonChoice1"));
    QVERIFY(first && second && first->isVisible());
    QVERIFY(!w.findChild<QLineEdit *>(QStringLiteral("lessonGuess"))->isVisible());
    // A click on a choice's (wrapped) text picks it.
    QTest::mouseClick(w.findChild<QLabel *>(QStringLiteral("lessonChoiceText1")), Qt::LeftButton);
    QCOMPARE(w.lessons()->player()->guessedChoice(), 1);
    QTest::mouseClick(first, Qt::LeftButton);
    QCOMPARE(w.lessons()->player()->guessedChoice(), 0);
    QVERIFY(revealAndWait(w));
    QCOMPARE(w.lessons()->player()->answerText(),
             QStringLiteral("You chose \"%1\"; the answer is \"%2\".").arg(first->accessibleName(), second->accessibleName()));
    QCOMPARE(second->accessibleName(), w.lessons()->player()->currentStep()->question.choices.at(1).text);
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("lessonChoiceText1"))->font().bold());
    QVERIFY(!w.findChild<QLabel *>(QStringLiteral("lessonChoiceText0"))->font().bold());
    QVERIFY(!first->isEnabled());
    w.lessons()->player()->setStep(0);
    QVERIFY(waitForStep(w));
    w.lessons()->player()->setGuessedChoice(1);
    QVERIFY(revealAndWait(w));
    QCOMPARE(w.lessons()->player()->answerText(), QStringLiteral("You chose \"%1\": right.").arg(w.findChild<QRadioButton *>(QStringLiteral("lessonChoice1"))->accessibleName()));
}

void TestLessonPlayer::highlights()
{
    MainWindow w;
    w.show();
    // key-expiry step 1 highlights the control server.idempotency.ttlS.
    QVERIFY(w.lessons()->startLesson(QStringLiteral("key-expiry")));
    QVERIFY(waitForStep(w));
    QCOMPARE(w.editor()->highlightedField(), QStringLiteral("server.idempotency.ttlS"));
    QWidget *field = w.editor()->field(QStringLiteral("server.idempotency.ttlS"));
    QVERIFY(field && field->styleSheet().contains(QLatin1String("border")));
    QCOMPARE(w.timeline()->emphasisedLane(), -1);
    // nested-layers step 2 emphasises the transport lane; the control highlight is gone.
    QVERIFY(w.lessons()->startLesson(QStringLiteral("nested-layers"), 1));
    QVERIFY(waitForStep(w));
    QCOMPARE(w.timeline()->emphasisedLane(), int(Lane::Transport));
    QVERIFY(w.editor()->highlightedField().isEmpty());
    QVERIFY(field->styleSheet().isEmpty());
    // An event highlight on a question step waits for the reveal, then selects the first such event.
    QVERIFY(w.lessons()->startLesson(QStringLiteral("timeout-is-not-failure")));
    QVERIFY(waitForStep(w));
    QCOMPARE(w.timeline()->emphasisedLane(), -1);
    QCOMPARE(w.timeline()->selectedEvent(), -1);
    QVERIFY(revealAndWait(w));
    const int selected = w.timeline()->selectedEvent();
    QVERIFY(selected >= 0);
    QCOMPARE(w.result().trace.at(selected).kind, EventKind::ResponseLost);
    for (int i = 0; i < selected; ++i)
        QVERIFY(w.result().trace.at(i).kind != EventKind::ResponseLost || w.result().trace.at(i).op != 1);
    // Without a question the event is selected at once (request-ids step 3 has one, so use a file).
    const QByteArray json = R"({"name": "t", "title": "T", "summary": "S", "steps": [
        {"title": "A", "scenario": "stable-key", "watch": "W.", "highlight": {"event": "replayed"}}]})";
    w.lessons()->startLesson(lesson::fromJsonBytes(json).lesson);
    QVERIFY(waitForStep(w));
    QVERIFY(w.timeline()->selectedEvent() >= 0);
    QCOMPARE(w.result().trace.at(w.timeline()->selectedEvent()).kind, EventKind::Replayed);
}

// retry-storms step 3 asks how many POSTs per order a budget leaves; the Load chart shows the storm
// ending, so it opens after Reveal, never before (it would show the answer). Without a question a
// step's chart opens at once.
void TestLessonPlayer::chartHighlightOpensTheChart()
{
    MainWindow w;
    w.show();
    QVERIFY(w.lessons()->startLesson(QStringLiteral("retry-storms"), 2));
    QVERIFY(waitForStep(w));
    QCOMPARE(w.lessons()->player()->currentStep()->highlight.chart, QStringLiteral("load"));
    QCOMPARE(w.currentPage(), LabFrame::Page::Timeline);
    QCOMPARE(w.editor()->highlightedField(), QStringLiteral("client.retryBudget.enabled"));
    w.charts()->setCurrentTab(ChartsPanel::DuplicatesTab);
    w.lessons()->player()->setGuessedChoice(0);
    QVERIFY(revealAndWait(w));
    QCOMPARE(w.currentPage(), LabFrame::Page::Charts);
    QCOMPARE(w.charts()->currentTab(), int(ChartsPanel::LoadTab));
    QVERIFY(w.charts()->loadChart()->isVisible());
    // The step before it has no chart: the window stays on the timeline after its Reveal.
    w.lessons()->player()->setStep(1);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.currentPage(), LabFrame::Page::Timeline);
    w.lessons()->player()->setGuess(1);
    QVERIFY(revealAndWait(w));
    QCOMPARE(w.currentPage(), LabFrame::Page::Timeline);

    const QByteArray json = "{\"name\": \"t\", \"title\": \"T\", \"summary\": \"S\", \"steps\": ["
                            "{\"title\": \"A\", \"scenario\": \"ghost-request\", \"watch\": \"W.\","
                            " \"highlight\": {\"chart\": \"attempts\"}}]}";
    const LessonParse parsed = lesson::fromJsonBytes(json);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    w.lessons()->startLesson(parsed.lesson);
    QVERIFY(waitForStep(w));
    QCOMPARE(w.currentPage(), LabFrame::Page::Charts);
    QCOMPARE(w.charts()->currentTab(), int(ChartsPanel::AttemptsTab));
}

void TestLessonPlayer::closingShowsTheOutcome()
{
    MainWindow w;
    w.show();
    QVERIFY(w.lessons()->startLesson(QStringLiteral("concurrent-race")));
    QVERIFY(waitForStep(w));
    QVERIFY(w.outcomeHidden());
    QVERIFY(!w.editor()->highlightedField().isEmpty());
    w.findChild<QAction *>(QStringLiteral("closeLessonAction"))->trigger();
    QVERIFY(!w.lessons()->dock()->isVisible());
    QVERIFY(!w.outcomeHidden());
    QVERIFY(w.editor()->highlightedField().isEmpty());
    QCOMPARE(labelText(w, "statusRecords"), QStringLiteral("Records: %1").arg(w.result().metrics.records));
}

void TestLessonPlayer::everyLessonStepsThrough()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    for (const QString &name : lesson::builtinNames()) {
        QString error;
        QVERIFY2(w.lessons()->startLesson(name, 0, &error), qPrintable(error));
        LessonPlayer *p = w.lessons()->player();
        for (int i = 0; i < p->stepCount(); ++i) {
            if (i > 0)
                p->next();
            QCOMPARE(p->step(), i);
            QVERIFY2(waitForStep(w), qPrintable(QStringLiteral("%1 step %2").arg(name).arg(i + 1)));
            const LessonStep &s = *p->currentStep();
            QVERIFY(w.scenario() == LessonController::shownScenario(p->lesson(), i));
            checkNothingStatesTheAnswer(w, QStringLiteral("%1 step %2").arg(name).arg(i + 1));
            if (s.operation > 0)
                QCOMPARE(w.currentOperation(), s.operation);
            if (s.highlight.kind == LessonHighlight::Kind::Control)
                QCOMPARE(w.editor()->highlightedField(), s.highlight.target);
            QCOMPARE(w.outcomeHidden(), s.question.kind != LessonQuestion::Kind::None);
            // The window's own run gives the lesson's answer (load lessons are answered without playing).
            if (s.question.kind == LessonQuestion::Kind::Number) {
                double actual = 0;
                QVERIFY(lesson::metricValue(w.result(), w.currentOperation(), s.question.metric, &actual));
                QCOMPARE(LessonPlayer::formatNumber(actual, s.question.answer),
                         LessonPlayer::formatNumber(s.question.answer, s.question.answer));
            }
        }
    }
}

void TestLessonPlayer::checkNothingStatesTheAnswer(const MainWindow &w, const QString &where)
{
    const LessonPlayer *p = w.lessons()->player();
    const LessonStep &s = *p->currentStep();
    // The window tells the step's story, not the base preset's: its title, the editor, the presets.
    QVERIFY2(w.windowTitle().contains(i18n::content(s.title)), qPrintable(where + QLatin1String(": ") + w.windowTitle()));
    const ScenarioParse base = scenario::preset(s.scenario.name);
    if (base.ok() && !base.scenario.title.isEmpty())
        QVERIFY2(!w.windowTitle().contains(base.scenario.title), qPrintable(where));
    const PresetList *presets = w.editor()->presetList();
    QVERIFY2(!presets->descriptionsShown() && presets->selectedItems().isEmpty(), qPrintable(where));
    if (s.question.kind != LessonQuestion::Kind::Number)
        return;
    double actual = 0;
    QVERIFY(lesson::metricValue(w.result(), w.currentOperation(), s.question.metric, &actual));
    const QString answer = LessonPlayer::formatNumber(actual, s.question.answer);
    // Small numbers ("op 2", "3 attempts per op") say nothing; from 10 up a number there is the answer.
    if (std::fabs(actual) < 10)
        return;
    const QStringList found = stating(visibleTexts(w), answer);
    QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1: the answer %2 is on screen before Reveal: %3")
                                             .arg(where, answer, found.join(QStringLiteral(" | ")))));
}

void TestLessonPlayer::answerShowsOnlyAfterReveal()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    // jitter-and-budgets step 1: "How many writes do 50 updates take?" (609); its preset's story
    // used to print 609 and 342, the answers of steps 1 and 2.
    QVERIFY(w.lessons()->startLesson(QStringLiteral("jitter-and-budgets"), 0));
    QVERIFY(waitForStep(w));
    checkNothingStatesTheAnswer(w, QStringLiteral("jitter-and-budgets step 1"));
    QVERIFY(stating(visibleTexts(w), QStringLiteral("342")).isEmpty());
    QVERIFY(revealAndWait(w));
    QVERIFY(!stating(visibleTexts(w), QStringLiteral("609")).isEmpty());
    // Closed, the lesson gives the presets their stories back.
    w.lessons()->closeLesson();
    QVERIFY(w.editor()->presetList()->descriptionsShown());
}

void TestLessonPlayer::pauseDuringRevealOffersContinue()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(w.lessons()->startLesson(QStringLiteral("timeout-is-not-failure"), 0));
    QVERIFY(waitForStep(w));
    LessonPlayer *p = w.lessons()->player();
    auto *reveal = w.findChild<QPushButton *>(QStringLiteral("lessonReveal"));
    auto *state = w.findChild<QLabel *>(QStringLiteral("lessonRevealState"));
    p->setGuess(1);
    QTest::mouseClick(reveal, Qt::LeftButton);
    QVERIFY(w.timeline()->isPlaying());
    QVERIFY(!reveal->isEnabled());
    QCOMPARE(reveal->text(), QStringLiteral("Playing…"));
    QVERIFY(!p->isRevealPaused());

    // Space on the timeline pauses: the panel says so and offers to go on.
    w.timeline()->setFocus();
    QTest::keyClick(w.timeline(), Qt::Key_Space);
    QVERIFY(!w.timeline()->isPlaying());
    QVERIFY(p->isRevealPaused());
    QVERIFY(!p->isRevealed());
    QVERIFY(reveal->isEnabled());
    QCOMPARE(reveal->text(), QStringLiteral("&Continue"));
    QVERIFY(state->isVisible());
    QVERIFY(state->text().startsWith(QLatin1String("Paused")));
    QVERIFY(w.outcomeHidden());
    const qint64 pausedAt = w.timeline()->playhead();

    // Continue plays on from there (not from the start) and answers at the end.
    QTest::mouseClick(reveal, Qt::LeftButton);
    QVERIFY(w.timeline()->isPlaying());
    QVERIFY(!p->isRevealPaused());
    QVERIFY(w.timeline()->playhead() >= pausedAt);
    QVERIFY(!state->isVisible());
    // Space again pauses, Space again resumes: the panel follows the timeline.
    QTest::keyClick(w.timeline(), Qt::Key_Space);
    QVERIFY(p->isRevealPaused());
    QTest::keyClick(w.timeline(), Qt::Key_Space);
    QVERIFY(!p->isRevealPaused());
    QCOMPARE(reveal->text(), QStringLiteral("Playing…"));
    QVariantAnimation *anim = w.timeline()->animation();
    anim->setCurrentTime(anim->totalDuration());
    QVERIFY(QTest::qWaitFor([p] { return p->isRevealed(); }, RunTimeoutMs));
    QVERIFY(!p->isRevealPaused());
    QVERIFY(!state->isVisible());
    QVERIFY(!w.outcomeHidden());
    QCOMPARE(p->answerText(), QStringLiteral("You said 1; the answer is 2."));
}

void TestLessonPlayer::revealSpeedKeepsRevealsShort()
{
    // At most longestRevealMs: the class's speed. One millisecond more: just fast enough.
    const int limit = LessonController::longestRevealMs;
    QCOMPARE(limit, 8000);
    QCOMPARE(LessonController::revealSpeed(1.0, limit), 1.0);
    QCOMPARE(LessonController::revealSpeed(2.0, limit), 2.0);
    QCOMPARE(LessonController::revealSpeed(1.0, 0), 1.0);
    QVERIFY(LessonController::revealSpeed(1.0, limit + 1) > 1.0);
    QCOMPARE(LessonController::revealSpeed(1.0, 4 * limit), 4.0);
    QCOMPARE(LessonController::revealSpeed(0.5, 2 * limit), 1.0);
}

void TestLessonPlayer::longRevealPlaysFasterAndSaysSo()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    // jitter-and-budgets step 1 took 29 s at 1x (issue 19).
    QVERIFY(w.lessons()->startLesson(QStringLiteral("jitter-and-budgets"), 0));
    QVERIFY(waitForStep(w));
    QCOMPARE(w.timeline()->speed(), 1.0);
    LessonPlayer *p = w.lessons()->player();
    p->setGuess(100);
    p->reveal();
    QVERIFY(w.timeline()->isPlaying());
    QVariantAnimation *anim = w.timeline()->animation();
    const int left = anim->duration() - anim->currentTime();
    QVERIFY2(left <= LessonController::longestRevealMs + 50, qPrintable(QString::number(left)));
    QVERIFY(w.timeline()->speed() > 2.0);
    auto *state = w.findChild<QLabel *>(QStringLiteral("lessonRevealState"));
    QVERIFY(state->isVisible());
    QVERIFY2(state->text().startsWith(QLatin1String("A long operation: played at")), qPrintable(state->text()));
    anim->setCurrentTime(anim->totalDuration());
    QVERIFY(QTest::qWaitFor([p] { return p->isRevealed(); }, RunTimeoutMs));
    // The class's speed comes back; the note goes.
    QCOMPARE(w.timeline()->speed(), 1.0);
    QVERIFY(!state->isVisible());

    // A short reveal keeps the chosen speed and says nothing.
    QVERIFY(w.lessons()->startLesson(QStringLiteral("timeout-is-not-failure"), 0));
    QVERIFY(waitForStep(w));
    p->reveal();
    QVERIFY(w.timeline()->isPlaying());
    QCOMPARE(w.timeline()->speed(), 1.0);
    QVERIFY(!state->isVisible());
}

void TestLessonPlayer::playerAlone()
{
    LessonPlayer p;
    QVERIFY(!p.hasLesson());
    QVERIFY(!p.hiding());
    p.next(); // nothing to do
    const Lesson l = builtin("timeout-is-not-failure");
    QSignalSpy steps(&p, &LessonPlayer::stepChanged);
    QSignalSpy hiding(&p, &LessonPlayer::hidingChanged);
    QSignalSpy reveal(&p, &LessonPlayer::revealRequested);
    p.setLesson(l, 99); // clamped
    QCOMPARE(p.step(), l.steps.size() - 1);
    QCOMPARE(steps.count(), 1);
    QCOMPARE(hiding.count(), 1);
    QVERIFY(p.hiding());
    p.reveal();
    QCOMPARE(reveal.count(), 1);
    p.reveal(); // once per step
    QCOMPARE(reveal.count(), 1);
    p.showAnswer(2);
    QVERIFY(!p.hiding());
    QCOMPARE(hiding.count(), 2);
    QCOMPARE(p.answerText(), QStringLiteral("The answer is 2."));
    p.restart();
    QCOMPARE(p.step(), 0);
    QVERIFY(p.hiding());
    QCOMPARE(LessonPlayer::formatNumber(3.10504, 3.1), QStringLiteral("3.1"));
    QCOMPARE(LessonPlayer::formatNumber(12, 12), QStringLiteral("12"));
    QCOMPARE(LessonPlayer::formatNumber(12.78, 12), QStringLiteral("12.8"));
}

void TestLessonPlayer::titleWrapsWholeOrUnderTheStepCount_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<qreal>("points");
    // The window's 11 points, and presentation mode's 1.2 times (1280x720) and 1.5 times (1600x900 up).
    for (const char *language : {"en", "zh_CN"}) {
        for (const qreal points : {11.0, 13.2, 16.5})
            QTest::addRow("%s-%gpt", language, points) << QString::fromLatin1(language) << points;
    }
}

// zh_CN, 1280x720, presentation mode, nested-layers: the lesson's title wrapped beside "第 2 步，共 4 步"
// with its last character alone on the second line ("…次数相 / 乘"). At every width of the panel, the
// title is on one line beside the step count when both fit there; else the count has a line of its
// own and the title wraps under it in as few lines as the panel's width allows, the last line not a
// stub. Planted: the count always beside the title (the old layout) fails with the title wrapped
// beside it; the count on its own line without the balanced width fails on "乘" alone.
void TestLessonPlayer::choiceButtonsGrowWithTheirText_data()
{
    QTest::addColumn<qreal>("points");
    QTest::addColumn<QString>("language");
    for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QTest::addRow("window-%s", qPrintable(language)) << 9.0 << language;
        QTest::addRow("presentation-%s", qPrintable(language)) << 13.5 << language;
        QTest::addRow("large-%s", qPrintable(language)) << 20.0 << language;
    }
}

namespace {

// The height of the first line of `label` as it is drawn (a fallback font's line for Chinese text).
qreal firstLineHeight(const QLabel *label)
{
    QTextLayout layout(label->text().section(QLatin1Char('\n'), 0, 0), label->font());
    layout.beginLayout();
    QTextLine line = layout.createLine();
    if (line.isValid())
        line.setLineWidth(1e6);
    layout.endLayout();
    return line.isValid() ? line.height() : QFontMetricsF(label->font()).height();
}

} // namespace

// retry-storms step 1 in presentation mode at 1920x1080: each choice's radio button was Qt's 13 px
// dot, above the middle of its 20 px text. It grows with the text (at least 0.75 of a line) and stands
// on the middle of the text's first line, for every choice of every lesson step. In zh_CN it stood
// 3 px above: the Chinese line, in its fallback font, is taller than the Latin font's.
void TestLessonPlayer::choiceButtonsGrowWithTheirText()
{
    QFETCH(qreal, points);
    QFETCH(QString, language);
    QVERIFY(i18n::install(language));
    const auto restore = qScopeGuard([] { i18n::install(QStringLiteral("en")); });
    LessonPlayer p;
    QFont font = p.font();
    font.setPointSizeF(points);
    p.setFont(font);
    p.resize(420, 2000);
    p.show();
    int checked = 0;
    for (const QString &name : lesson::builtinNames()) {
        const Lesson lesson = lesson::builtin(name).lesson;
        for (int step = 1; step <= lesson.steps.size(); ++step) {
            p.setLesson(lesson, step);
            QCoreApplication::processEvents();
            for (int i = 0;; ++i) {
                auto *button = p.findChild<QRadioButton *>(QStringLiteral("lessonChoice%1").arg(i));
                auto *text = p.findChild<QLabel *>(QStringLiteral("lessonChoiceText%1").arg(i));
                if (!button || !text)
                    break;
                const QFontMetrics fm(text->font());
                const int indicator = button->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth, nullptr, button);
                const QString where = QStringLiteral("%1 step %2 choice %3 at %4 pt: indicator %5 px, text %6 px high")
                                          .arg(name).arg(step).arg(i).arg(points).arg(indicator).arg(fm.height());
                QVERIFY2(indicator >= 0.75 * fm.height(), qPrintable(where));
                // Its middle on the middle of the first line (both in the row's coordinates).
                const qreal buttonMiddle = button->geometry().center().y();
                const qreal lineMiddle = text->geometry().top() + text->contentsRect().top() + firstLineHeight(text) / 2.0;
                QVERIFY2(qAbs(buttonMiddle - lineMiddle) <= 2, qPrintable(where + QStringLiteral(": middles at %1 and %2")
                                                                                  .arg(buttonMiddle).arg(lineMiddle)));
                ++checked;
            }
        }
    }
    QVERIFY(checked >= 10);
}

void TestLessonPlayer::titleWrapsWholeOrUnderTheStepCount()
{
    QFETCH(QString, language);
    QFETCH(qreal, points);
    QVERIFY(i18n::install(language));
    const auto restore = qScopeGuard([] { i18n::install(QStringLiteral("en")); });
    LessonPlayer p;
    QFont font = p.font();
    font.setPointSizeF(points);
    p.setFont(font);
    auto *title = p.findChild<QLabel *>(QStringLiteral("lessonTitle"));
    auto *progress = p.findChild<QLabel *>(QStringLiteral("lessonProgress"));
    auto *content = p.findChild<QWidget *>(QStringLiteral("lessonContent"));
    QVERIFY(title && progress && content);
    p.show();
    const auto lineWidths = [](const QLabel *label, int width) {
        QTextLayout layout(label->text(), label->font());
        QTextOption option;
        option.setWrapMode(QTextOption::WordWrap);
        layout.setTextOption(option);
        QList<qreal> widths;
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            widths << line.naturalTextWidth();
        }
        layout.endLayout();
        return widths;
    };
    int stacked = 0;
    const QStringList names = lesson::builtinNames();
    for (const QString &name : names) {
        p.setLesson(lesson::builtin(name).lesson, 1);
        for (int width = 320; width <= 680; width += 12) {
            // Tall enough that nothing scrolls: the texts wrap at the panel's width.
            p.resize(width, 2000);
            QCoreApplication::processEvents();
            const QString where = QStringLiteral("%1 at %2 px: \"%3\"").arg(name).arg(width).arg(title->text());
            // (A command too long for the panel scrolls it sideways: the texts wrap wider than it.)
            if (content->width() > content->parentWidget()->width())
                continue;
            const QMargins margins = content->layout()->contentsMargins();
            const int room = content->width() - margins.left() - margins.right();
            const QRect t = title->geometry();
            const QRect c = progress->geometry();
            QVERIFY2(!t.intersects(c), qPrintable(where + QStringLiteral(": the title overlaps the step count")));
            const QList<qreal> lines = lineWidths(title, title->contentsRect().width());
            QVERIFY2(title->height() >= title->heightForWidth(title->width()), qPrintable(where + QStringLiteral(": the title is cut")));
            const int oneLine = title->fontMetrics().horizontalAdvance(title->text());
            if (oneLine + 8 + c.width() + 2 <= room) {
                QVERIFY2(lines.size() == 1, qPrintable(where + QStringLiteral(": wrapped though it fits beside the count")));
                continue;
            }
            if (oneLine + 8 + c.width() <= room)
                continue; // at the edge, a pixel either way
            ++stacked;
            QVERIFY2(c.bottom() < t.top(), qPrintable(where + QStringLiteral(": wrapped beside the step count")));
            QVERIFY2(lines.size() == lineWidths(title, room).size(),
                     qPrintable(where + QStringLiteral(": %1 lines where the panel's width needs %2").arg(lines.size()).arg(lineWidths(title, room).size())));
            if (lines.size() > 1) {
                const qreal longest = *std::max_element(lines.cbegin(), lines.cend());
                QVERIFY2(lines.last() >= longest / 2,
                         qPrintable(where + QStringLiteral(": its last line is %1 px of %2").arg(lines.last()).arg(longest)));
            }
        }
    }
    QVERIFY(stacked > 0); // the widths tried include some too narrow for both
}

namespace {
// Every lesson text and the player's progress, "translated" by a marker.
class MarkingTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (qstrcmp(context, "content") == 0)
            return QStringLiteral("[zh] ") + QString::fromUtf8(source);
        if (qstrcmp(context, "retrylab::LessonPlayer") == 0 && qstrcmp(source, "Step %1 of %2") == 0)
            return QStringLiteral("第 %1 步，共 %2 步");
        return QString();
    }
    bool isEmpty() const override { return false; }
};
} // namespace

void TestLessonPlayer::languageChange()
{
    LessonPlayer p;
    const Lesson l = builtin("payload-fingerprint");
    p.setLesson(l, 0);
    p.setGuessedChoice(1);
    MarkingTranslator translator;
    QCoreApplication::installTranslator(&translator); // sends LanguageChange to every widget
    QTRY_COMPARE(p.findChild<QLabel *>(QStringLiteral("lessonWatch"))->text(), QStringLiteral("[zh] ") + l.steps.at(0).watch);
    QCOMPARE(p.findChild<QLabel *>(QStringLiteral("lessonTitle"))->text(), QStringLiteral("[zh] ") + l.title);
    QCOMPARE(p.findChild<QLabel *>(QStringLiteral("lessonProgress"))->text(), QStringLiteral("第 1 步，共 3 步"));
    QCOMPARE(p.findChild<QLabel *>(QStringLiteral("lessonChoiceText0"))->text(),
             QStringLiteral("[zh] ") + l.steps.at(0).question.choices.at(0).text);
    QCOMPARE(p.guessedChoice(), 1); // the class's guess survives the switch
    QCoreApplication::removeTranslator(&translator);
    QTRY_COMPARE(p.findChild<QLabel *>(QStringLiteral("lessonWatch"))->text(), l.steps.at(0).watch);
}

// A language switch rebuilds the window (WindowHost): a window built under a translator lists the
// lessons' titles and summaries translated.
void TestLessonPlayer::menuFollowsLanguage()
{
    const Lesson l = builtin("key-expiry");
    {
        MainWindow w;
        QAction *a = w.findChild<QAction *>(QStringLiteral("lesson-key-expiry"));
        QVERIFY(a);
        QCOMPARE(a->text(), l.title);
    }
    MarkingTranslator translator;
    QCoreApplication::installTranslator(&translator);
    MainWindow w;
    QAction *a = w.findChild<QAction *>(QStringLiteral("lesson-key-expiry"));
    QVERIFY(a);
    QCOMPARE(a->text(), QStringLiteral("[zh] ") + l.title);
    QCOMPARE(a->toolTip(), QStringLiteral("[zh] ") + l.summary);
    QCoreApplication::removeTranslator(&translator);
}

void TestLessonPlayer::commandLine()
{
    QProcess lessons;
    lessons.start(retrylab::test::retrylabBin(), {QStringLiteral("lessons")});
    QVERIFY(lessons.waitForFinished(60000));
    QCOMPARE(lessons.exitCode(), 0);
    const QString out = QString::fromUtf8(lessons.readAllStandardOutput());
    for (const QString &name : lesson::builtinNames()) {
        const Lesson l = lesson::builtin(name).lesson;
        QVERIFY2(out.contains(name), qPrintable(name));
        QVERIFY2(out.contains(l.title.left(30)), qPrintable(l.title));
    }
    QVERIFY(out.contains(QRegularExpression(QStringLiteral("\\ntimeout-is-not-failure +3 +A timeout is not a failure\\n"))));

    QProcess json;
    json.start(retrylab::test::retrylabBin(), {QStringLiteral("lessons"), QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY(json.waitForFinished(60000));
    const QJsonArray list = QJsonDocument::fromJson(json.readAllStandardOutput()).array();
    QCOMPARE(list.size(), lesson::builtinNames().size());
    QCOMPARE(list.at(0).toObject().value(QStringLiteral("steps")).toInt(),
             int(lesson::builtin(list.at(0).toObject().value(QStringLiteral("name")).toString()).lesson.steps.size()));

    // A wrong lesson or step is a usage error before any window opens.
    QProcess bad;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    bad.setProcessEnvironment(env);
    bad.start(retrylab::test::retrylabBin(), {QStringLiteral("--lesson"), QStringLiteral("no-such-lesson")});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QLatin1String("unknown lesson")));
    bad.start(retrylab::test::retrylabBin(), {QStringLiteral("--lesson"), QStringLiteral("key-expiry"), QStringLiteral("--step"),
                                             QStringLiteral("9")});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QLatin1String("--step: the lesson has 4 steps, got 9")));
    // A good one opens (the screenshot renders it offscreen and exits).
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("lesson.png"));
    bad.start(retrylab::test::retrylabBin(), {QStringLiteral("--lesson"), QStringLiteral("key-expiry"), QStringLiteral("--step"),
                                             QStringLiteral("2"), QStringLiteral("--screenshot"), png});
    QVERIFY(bad.waitForFinished(120000));
    QCOMPARE(bad.exitCode(), 0);
    QVERIFY(QFile::exists(png));
    // The screenshot resets the layout: the lesson stays in it.
    const QImage shot(png);
    QCOMPARE(shot.size(), QSize(1280, 720));
    MainWindow w;
    QVERIFY(w.lessons()->startLesson(QStringLiteral("key-expiry")));
    w.resetLayout();
    QVERIFY(w.lessons()->isLessonOpen());
}

QTEST_MAIN(TestLessonPlayer)
#include "tst_lessonplayer.moc"
