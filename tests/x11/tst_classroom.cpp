// A class in front of a projector, on a real X server (xvfb-run, platform xcb): every step of every
// built-in lesson in presentation mode at 1024x640, 1280x720 and 1920x1080, before and after Reveal.
// The question, the guess field, the answer sentence and the explanation are fully on screen (inside
// the lesson panel's visible area and the window, wrapped text given all the height it needs, never
// clipped), the status bar's texts are whole, and all six lanes of the timeline, Database included,
// are in view without scrolling. One window is reused; the steps switch in it.
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
#include <QApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
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
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLabX11Classroom"));
    QVERIFY2(QGuiApplication::platformName() == QLatin1String("xcb"),
             qPrintable(QStringLiteral("this test needs a real X server (platform xcb), got \"%1\"; "
                                       "run it under xvfb-run as ctest does")
                            .arg(QGuiApplication::platformName())));
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
    checkLanes(&problems);
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
    if (!lessons->isLessonOpen() || player->lesson().name != lesson) {
        QString error;
        QVERIFY2(lessons->startLesson(lesson, step, &error), qPrintable(error));
    } else {
        player->setStep(step);
    }
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

QTEST_MAIN(TestClassroom)
#include "tst_classroom.moc"
