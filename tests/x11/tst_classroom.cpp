// A class in front of a projector, on a real X server (xvfb-run, platform xcb): every step of every
// built-in lesson in presentation mode at 1024x640, 1280x720 and 1920x1080, before and after Reveal.
// The question, the guess field, the answer sentence and the explanation are fully on screen (inside
// the lesson panel's visible area and the window, wrapped text given all the height it needs, never
// clipped), the status bar's texts are whole, and all six lanes of the timeline, Database included,
// are in view without scrolling. One window is reused; the steps switch in it.
#include "x11/x11support.h"
#include "charts/chartspanel.h"
#include "compare/comparechart.h"
#include "compare/comparewindow.h"
#include "document/runcontroller.h"
#include "lessons/lessoncontroller.h"
#include "lessons/lessonplayer.h"
#include "presentation/presentation.h"
#include "presentation/presentationcontroller.h"
#include "shell/mainwindow.h"
#include "timeline/timelinescene.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QVariantAnimation>

using namespace retrylab;

namespace {

constexpr int RunTimeoutMs = 120000;

const QList<QSize> Sizes{{1024, 640}, {1280, 720}, {1920, 1080}};

QString sizeName(const QSize &s)
{
    return QStringLiteral("%1x%2").arg(s.width()).arg(s.height());
}

// `w`'s rectangle in window coordinates.
QRect inWindow(const QWidget *w, const QWidget *window)
{
    return QRect(w->mapTo(window, QPoint(0, 0)), w->size());
}

} // namespace

class TestClassroom : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyLessonStepReadableAtEverySize_data();
    void everyLessonStepReadableAtEverySize();
    void compareShowsEveryLaneAtEverySize_data();
    void compareShowsEveryLaneAtEverySize();
    void cleanupTestCase();

private:
    // Puts the presenting window at `size` and waits until its layout has settled.
    bool present(const QSize &size);
    bool waitForStep();
    // Every failure of one size and state, empty when all is readable.
    QStringList unreadable(bool revealed) const;
    void checkText(const QWidget *w, const QString &what, QStringList *problems) const;
    void checkLanes(QStringList *problems) const;
    void checkStatusBar(QStringList *problems) const;

    MainWindow *m_window = nullptr;
};

void TestClassroom::initTestCase()
{
    const QString notHere = x11test::setUp(QStringLiteral("RetryLabX11Classroom"));
    QVERIFY2(notHere.isEmpty(), qPrintable(notHere));
    QSettings().clear();
    m_window = new MainWindow(nullptr, false);
    m_window->resize(Sizes.at(1));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    m_window->presenter()->presentation()->setActive(true);
}

void TestClassroom::cleanupTestCase()
{
    delete m_window;
    m_window = nullptr;
}

bool TestClassroom::present(const QSize &size)
{
    // Presentation mode at the projector's size: full screen is the screen's size, so the window is
    // given the size instead (the fonts follow the window, as on a projector of that resolution).
    m_window->setWindowState(m_window->windowState() & ~Qt::WindowFullScreen);
    m_window->setGeometry(QRect(QPoint(0, 0), size));
    const bool sized = QTest::qWaitFor([this, size] { return m_window->size() == size; }, 5000);
    // Settled: the layouts that follow the new size and font have run.
    QTest::qWait(50);
    QCoreApplication::processEvents();
    return sized;
}

bool TestClassroom::waitForStep()
{
    RunController *run = m_window->runController();
    return QTest::qWaitFor(
        [this, run] { return !run->isPending() && run->hasResult() && m_window->lessons()->isLessonStepReady(); },
        RunTimeoutMs);
}

void TestClassroom::checkText(const QWidget *w, const QString &what, QStringList *problems) const
{
    if (!w || !w->isVisibleTo(m_window)) {
        *problems << QStringLiteral("%1 is not shown").arg(what);
        return;
    }
    const QRect r = inWindow(w, m_window);
    if (!m_window->rect().contains(r))
        *problems << QStringLiteral("%1 (%2,%3 %4x%5) is outside the window")
                         .arg(what).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    // Inside what the lesson panel's scroll area shows now: nothing scrolled away.
    const auto *scroll = m_window->lessons()->player()->findChild<QScrollArea *>(QStringLiteral("lessonScroll"));
    if (scroll && scroll->isAncestorOf(w)) {
        const QRect shown = inWindow(scroll->viewport(), m_window);
        if (!shown.contains(r))
            *problems << QStringLiteral("%1 (y %2..%3) is scrolled out of the lesson panel (y %4..%5)")
                             .arg(what).arg(r.top()).arg(r.bottom()).arg(shown.top()).arg(shown.bottom());
    }
    // Given the room its text needs: a wrapped label its height for its width, anything else its size hint.
    if (const auto *label = qobject_cast<const QLabel *>(w); label && label->wordWrap()) {
        const int needed = label->heightForWidth(label->width());
        if (label->height() < needed)
            *problems << QStringLiteral("%1 is cut: %2 px high, its text needs %3").arg(what).arg(label->height()).arg(needed);
    } else {
        const QSize hint = w->sizeHint();
        if (w->height() < hint.height() || (qobject_cast<const QLabel *>(w) && w->width() < hint.width()))
            *problems << QStringLiteral("%1 is squeezed: %2x%3, needs %4x%5")
                             .arg(what).arg(w->width()).arg(w->height()).arg(hint.width()).arg(hint.height());
    }
}

// The lanes of `timeline` that are not wholly in its view.
static QStringList lanesOutOfView(const TimelineWidget *timeline)
{
    QStringList problems;
    const TimelineView *view = timeline->view();
    const auto *scene = static_cast<const TimelineScene *>(timeline->scene());
    const QRect viewport = view->viewport()->rect();
    for (int lane = 0; lane < TimelineScene::kLaneCount; ++lane) {
        const QRect r = view->mapFromScene(QRectF(scene->sceneRect().left(), scene->laneTop(lane), 1,
                                                  scene->laneHeight(lane)))
                            .boundingRect();
        if (r.top() < viewport.top() || r.bottom() > viewport.bottom() + 1)
            problems << QStringLiteral("lane %1 (y %2..%3) is not in view (0..%4)")
                            .arg(lane).arg(r.top()).arg(r.bottom()).arg(viewport.bottom());
    }
    return problems;
}

void TestClassroom::checkLanes(QStringList *problems) const
{
    TimelineWidget *timeline = m_window->timeline();
    TimelineView *view = timeline->view();
    *problems << lanesOutOfView(timeline);
    if (!m_window->rect().contains(inWindow(view, m_window)))
        *problems << QStringLiteral("the timeline is outside the window");
    // The playback bar: the time readout whole, the seek slider beside it, not collapsed onto it.
    const auto *slider = timeline->findChild<QSlider *>(QStringLiteral("scrub"));
    if (!slider || slider->width() < 3 * slider->sizeHint().height())
        *problems << QStringLiteral("the seek slider is collapsed (%1 px)").arg(slider ? slider->width() : 0);
    const QList<QLabel *> labels = timeline->findChildren<QLabel *>();
    for (const QLabel *label : labels) {
        if (label->isVisibleTo(m_window) && label->text().contains(QLatin1String(" / "))
            && label->width() < label->sizeHint().width())
            *problems << QStringLiteral("the time readout \"%1\" is cut: %2 px of %3")
                             .arg(label->text()).arg(label->width()).arg(label->sizeHint().width());
    }
}

void TestClassroom::checkStatusBar(QStringList *problems) const
{
    QStatusBar *bar = m_window->statusBar();
    if (!bar->isVisible()) {
        *problems << QStringLiteral("the status bar is hidden");
        return;
    }
    const QList<QLabel *> labels = bar->findChildren<QLabel *>();
    for (const QLabel *label : labels) {
        if (!label->isVisibleTo(m_window) || label->text().isEmpty())
            continue;
        const QRect r = inWindow(label, m_window);
        if (label->width() < label->sizeHint().width() || !m_window->rect().contains(r))
            *problems << QStringLiteral("status \"%1\" is cut: %2 px of %3")
                             .arg(label->text()).arg(label->width()).arg(label->sizeHint().width());
    }
}

QStringList TestClassroom::unreadable(bool revealed) const
{
    QStringList problems;
    LessonPlayer *player = m_window->lessons()->player();
    const LessonStep *step = player->currentStep();
    checkText(player->findChild<QLabel *>(QStringLiteral("lessonStepTitle")), QStringLiteral("the step's title"), &problems);
    const LessonQuestion::Kind kind = step->question.kind;
    if (kind != LessonQuestion::Kind::None)
        checkText(player->findChild<QLabel *>(QStringLiteral("lessonQuestion")), QStringLiteral("the question"), &problems);
    if (kind == LessonQuestion::Kind::Number)
        checkText(player->findChild<QLineEdit *>(QStringLiteral("lessonGuess")), QStringLiteral("the guess field"), &problems);
    if (kind == LessonQuestion::Kind::Choice) {
        for (int i = 0; i < step->question.choices.size(); ++i)
            checkText(player->findChild<QLabel *>(QStringLiteral("lessonChoiceText%1").arg(i)),
                      QStringLiteral("choice %1").arg(i + 1), &problems);
    }
    if (kind != LessonQuestion::Kind::None && !revealed)
        checkText(player->findChild<QPushButton *>(QStringLiteral("lessonReveal")), QStringLiteral("Reveal"), &problems);
    if (revealed && kind != LessonQuestion::Kind::None)
        checkText(player->findChild<QLabel *>(QStringLiteral("lessonAnswer")), QStringLiteral("the answer sentence"), &problems);
    if ((revealed || kind == LessonQuestion::Kind::None) && !step->reveal.isEmpty())
        checkText(player->findChild<QLabel *>(QStringLiteral("lessonRevealText")), QStringLiteral("the explanation"), &problems);
    checkText(player->findChild<QPushButton *>(QStringLiteral("lessonNext")), QStringLiteral("Next"), &problems);
    // A step that opens a chart after its Reveal (retry-storms step 3: Load) shows the chart, whole,
    // instead of the timeline; every other state shows the six lanes.
    if (revealed && !step->highlight.chart.isEmpty()) {
        const QWidget *charts = m_window->charts();
        if (!charts->isVisibleTo(m_window) || !m_window->rect().contains(inWindow(charts, m_window)))
            problems << QStringLiteral("the %1 chart is not on show").arg(step->highlight.chart);
    } else {
        checkLanes(&problems);
    }
    checkStatusBar(&problems);
    return problems;
}

void TestClassroom::everyLessonStepReadableAtEverySize_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<int>("step");
    const QStringList names = lesson::builtinNames();
    for (const QString &name : names) {
        const LessonParse parsed = lesson::builtin(name);
        for (int i = 0; i < parsed.lesson.steps.size(); ++i)
            QTest::addRow("%s-step%d", qPrintable(name), i + 1) << name << i;
    }
}

void TestClassroom::everyLessonStepReadableAtEverySize()
{
    QFETCH(QString, lesson);
    QFETCH(int, step);
    LessonController *lessons = m_window->lessons();
    LessonPlayer *player = lessons->player();
    QString error;
    QVERIFY2(x11test::openLessonStep(lessons, lesson, step, &error), qPrintable(error));
    QVERIFY(waitForStep());
    QVERIFY(m_window->presenter()->presentation()->isActive());

    QStringList problems;
    for (const QSize &size : Sizes) {
        QVERIFY(present(size));
        for (const QString &p : unreadable(false))
            problems << QStringLiteral("%1 before Reveal: %2").arg(sizeName(size), p);
    }
    const LessonStep *s = player->currentStep();
    if (s->question.kind != LessonQuestion::Kind::None) {
        // A guess that is surely wrong: the longest answer sentence.
        if (s->question.kind == LessonQuestion::Kind::Number)
            player->setGuess(123456);
        else
            player->setGuessedChoice(0);
        player->reveal();
        // The animation driven to its end, as a patient class would watch it.
        QVariantAnimation *anim = m_window->timeline()->animation();
        QVERIFY(QTest::qWaitFor([&] {
            if (anim->state() == QAbstractAnimation::Running)
                anim->setCurrentTime(anim->totalDuration());
            return player->isRevealed();
        }, RunTimeoutMs));
        for (const QSize &size : Sizes) {
            QVERIFY(present(size));
            for (const QString &p : unreadable(true))
                problems << QStringLiteral("%1 after Reveal: %2").arg(sizeName(size), p);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n  "))));
}

void TestClassroom::compareShowsEveryLaneAtEverySize_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QSize>("size");
    // Full screen on the projector (F11 or presentation mode: the whole screen), and a window
    // maximised under a 30-pixel title bar on a 1280x720 screen.
    const QList<QSize> sizes{{1024, 640}, {1280, 690}, {1280, 720}, {1920, 1080}};
    for (const char *preset : {"ghost-request", "retry-storm"}) {
        for (const QSize &size : sizes)
            QTest::addRow("%s-%s", preset, qPrintable(sizeName(size))) << QString::fromLatin1(preset) << size;
    }
}

// Compare mode in front of a class (issue 19): opened from the presenting window with Ctrl+Shift+C,
// both timelines show all six lanes, Database (where the duplicates are) included, without
// scrolling; the chart and the difference table keep a readable share below them.
void TestClassroom::compareShowsEveryLaneAtEverySize()
{
    QFETCH(QString, preset);
    QFETCH(QSize, size);
    // The program's own base font (ui/shell/gui.cpp: 11 points at least, for a projector), set before
    // its window is made, as the program does: the test's smaller default hid the lanes that a real
    // window scrolled out.
    const QFont before = QApplication::font();
    const auto restore = qScopeGuard([&before] { QApplication::setFont(before); });
    if (before.pointSizeF() > 0 && before.pointSizeF() < 11) {
        QFont projector = before;
        projector.setPointSizeF(11);
        QApplication::setFont(projector);
    }
    MainWindow window(nullptr, false);
    window.setGeometry(QRect(QPoint(0, 0), size));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error;
    QVERIFY2(window.loadPreset(preset, &error), qPrintable(error));
    RunController *run = window.runController();
    QVERIFY(QTest::qWaitFor([run] { return !run->isPending() && run->hasResult(); }, RunTimeoutMs));
    // Presenting at the projector's size: the window's size sets the text size the compare window follows.
    window.presenter()->presentation()->setActive(true);
    window.setWindowState(window.windowState() & ~Qt::WindowFullScreen);
    window.setGeometry(QRect(QPoint(0, 0), size));
    QVERIFY(QTest::qWaitFor([&window, size] { return window.size() == size; }, 5000));

    QCOMPARE(window.compareAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    window.compareAction()->trigger();
    CompareWindow *compare = window.compareWindow();
    QVERIFY(compare && compare->isVisible());
    QVERIFY(compare->windowState() & Qt::WindowFullScreen);
    QVERIFY(QTest::qWaitFor([compare] { return compare->hasResult() && !compare->isRunning(); }, RunTimeoutMs));
    // The screen of the test is larger than the projector: the window is given the projector's size.
    compare->setWindowState(compare->windowState() & ~Qt::WindowFullScreen);
    compare->setGeometry(QRect(QPoint(0, 0), size));
    QVERIFY(QTest::qWaitFor([compare, size] { return compare->size() == size; }, 5000));
    // Shown again at this size, as on a projector where the window opens full screen: B's toggle
    // run again (the table is filled at the window's width, where long metric names wrap).
    QSignalSpy shown(compare, &CompareWindow::resultShown);
    compare->rerun();
    QVERIFY(shown.wait(RunTimeoutMs));
    QTest::qWait(50);
    QCoreApplication::processEvents();
    QCOMPARE(compare->font(), window.font());
    QVERIFY(compare->font().pointSizeF() >= 11);

    QStringList problems;
    for (TimelineWidget *t : {compare->timelineA(), compare->timelineB()}) {
        for (const QString &p : lanesOutOfView(t))
            problems << QStringLiteral("%1: %2").arg(t->objectName(), p);
        if (!compare->rect().contains(inWindow(t, compare)))
            problems << QStringLiteral("%1 is outside the window").arg(t->objectName());
    }
    // Below the lanes, the chart and the table stay readable: a few rows and a plot, not a sliver.
    const QRect chart = inWindow(compare->chart(), compare);
    if (!compare->rect().contains(chart) || chart.height() < 120)
        problems << QStringLiteral("the chart is %1 px high at y %2").arg(chart.height()).arg(chart.y());
    const QTableWidget *table = compare->summaryTable();
    const int rowsShown = table->viewport()->height() / std::max(1, table->rowHeight(0));
    if (rowsShown < std::min(3, table->rowCount()))
        problems << QStringLiteral("the table shows %1 rows").arg(rowsShown);
    compare->close();
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n  "))));
}

QTEST_MAIN(TestClassroom)
#include "tst_classroom.moc"
