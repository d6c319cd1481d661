#include "shell/mainwindow.h"
#include "presentation/presentation.h"
#include "document/runcontroller.h"
#include "common/settings.h"
#include "timeline/timelinescene.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinewidget.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

using namespace retrylab;

namespace {

constexpr int RunTimeoutMs = 120000;

bool waitForIdle(MainWindow &w)
{
    RunController *run = w.runController();
    return QTest::qWaitFor([run] { return !run->isPending() && run->hasResult(); }, RunTimeoutMs);
}

QLabel *captionLabel(const MainWindow &w)
{
    return w.timeline()->findChild<QLabel *>(QStringLiteral("caption"));
}

// What leaving presentation mode must give back exactly.
struct Layout
{
    Qt::WindowStates windowState;
    QRect geometry;
    bool scenarioDockVisible;
    bool watchDockVisible;
    int scenarioDockWidth;
    QByteArray dockState;
    QFont windowFont;
    bool windowFontExplicit;
    QFont captionFont;
    qreal strokeScale;
    QList<Qt::ToolButtonStyle> toolButtonStyles;
    bool overviewAllowed;

    static Layout of(const MainWindow &w)
    {
        return {w.windowState(),
                w.geometry(),
                w.scenarioDock()->isVisible(),
                w.live()->watchDock()->isVisible(),
                w.scenarioDock()->width(),
                const_cast<MainWindow &>(w).saveState(),
                w.font(),
                w.testAttribute(Qt::WA_SetFont),
                captionLabel(w)->font(),
                w.timeline()->strokeScale(),
                stylesOf(w),
                w.timeline()->isOverviewAllowed()};
    }

    static QList<Qt::ToolButtonStyle> stylesOf(const MainWindow &w)
    {
        QList<Qt::ToolButtonStyle> styles;
        const QList<QToolButton *> buttons = w.findChildren<QToolButton *>();
        for (const QToolButton *button : buttons) {
            if (qobject_cast<QToolBar *>(button->parentWidget())
                && button->objectName() != QLatin1String("qt_toolbar_ext_button"))
                styles << button->toolButtonStyle();
        }
        return styles;
    }
};

void compareLayouts(const Layout &actual, const Layout &expected)
{
    QCOMPARE(actual.windowState, expected.windowState);
    QCOMPARE(actual.geometry, expected.geometry);
    QCOMPARE(actual.scenarioDockVisible, expected.scenarioDockVisible);
    QCOMPARE(actual.watchDockVisible, expected.watchDockVisible);
    QCOMPARE(actual.scenarioDockWidth, expected.scenarioDockWidth);
    QCOMPARE(actual.dockState, expected.dockState);
    QCOMPARE(actual.windowFont, expected.windowFont);
    QCOMPARE(actual.windowFont.pointSizeF(), expected.windowFont.pointSizeF());
    QCOMPARE(actual.windowFontExplicit, expected.windowFontExplicit);
    QCOMPARE(actual.captionFont.pointSizeF(), expected.captionFont.pointSizeF());
    QCOMPARE(actual.strokeScale, expected.strokeScale);
    QCOMPARE(actual.toolButtonStyles, expected.toolButtonStyles);
    QCOMPARE(actual.overviewAllowed, expected.overviewAllowed);
}

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void f11HidesEditingDocksGoesFullScreenAndEnlarges();
    void leavingRestoresTheLayout_data();
    void leavingRestoresTheLayout();
    void laneNamesFitTheirColumnWhenLarge();
    void zoomKeysChangeAndPersist();
    void zoomIsPinnedAtItsBounds();
    void storedZoomOutOfRangeIsClamped();
    void presentingScalesOnTopOfTheZoom();
    void presentingScaleFollowsTheScreen();
    void keysStepAndPlayWhilePresenting();
    void closingWhilePresentingSavesTheNormalLayout();

private:
    QTemporaryDir m_settingsDir;
};

void TestPresentation::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // Settings of our own: the other window tests (and other checkouts on this machine) clear the
    // shared test-mode settings while they run beside this one.
    QVERIFY(m_settingsDir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLab"));
}

void TestPresentation::init()
{
    QSettings().clear();
    QVERIFY(QSettings().fileName().startsWith(m_settingsDir.path()));
}

void TestPresentation::f11HidesEditingDocksGoesFullScreenAndEnlarges()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitForIdle(w));
    w.live()->watchDock()->show(); // as while serving: it goes too
    QVERIFY(w.scenarioDock()->isVisible());
    QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
    const qreal windowPoints = w.font().pointSizeF();
    const qreal captionPoints = captionLabel(w)->font().pointSizeF();
    const qreal strokes = w.timeline()->strokeScale();
    QVERIFY(w.timeline()->isOverviewAllowed());

    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(w.presenter()->presentation()->isActive());
    QVERIFY(w.presenter()->presentAction()->isChecked());
    QVERIFY(w.windowState() & Qt::WindowFullScreen);
    QVERIFY(!w.scenarioDock()->isVisible());
    QVERIFY(!w.live()->watchDock()->isVisible());
    // On a screen of 1600x900 and more, half as large again (the test screen may be smaller: the
    // window is given the size a projector of 1600x900 would give it).
    w.resize(Presentation::fullScaleSize);
    QTRY_COMPARE(w.size(), Presentation::fullScaleSize);
    QCOMPARE(w.presenter()->presentation()->presentingScale(), Presentation::presentingFontScale);
    QCOMPARE(w.font().pointSizeF(), windowPoints * Presentation::presentingFontScale);
    QCOMPARE(captionLabel(w)->font().pointSizeF(), captionPoints * Presentation::presentingFontScale);
    QCOMPARE(w.timeline()->strokeScale(), strokes * Presentation::presentingStrokeScale);
    // The timeline's own text grows with the window font, and its lane names still fit their column.
    QVERIFY(w.timeline()->font().pointSizeF() > windowPoints * 1.4);
    // The overview strip goes: its small rows do not grow with the text.
    QVERIFY(!w.timeline()->isOverviewAllowed());
    QVERIFY(!w.timeline()->overview()->isVisibleTo(&w));
    // The toolbar keeps its icons only: its words do not fit at this size.
    const QList<QToolButton *> buttons = w.findChildren<QToolButton *>();
    for (const QToolButton *button : buttons) {
        if (qobject_cast<QToolBar *>(button->parentWidget())
            && button->objectName() != QLatin1String("qt_toolbar_ext_button"))
            QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonIconOnly);
    }
}

void TestPresentation::leavingRestoresTheLayout_data()
{
    QTest::addColumn<int>("leaveKey");
    QTest::addColumn<bool>("maximized");
    QTest::addColumn<int>("zoom");
    QTest::addRow("F11") << int(Qt::Key_F11) << false << 100;
    QTest::addRow("Escape") << int(Qt::Key_Escape) << false << 100;
    QTest::addRow("F11 zoomed") << int(Qt::Key_F11) << false << 130;
    QTest::addRow("Escape maximized") << int(Qt::Key_Escape) << true << 100;
}

void TestPresentation::leavingRestoresTheLayout()
{
    QFETCH(int, leaveKey);
    QFETCH(bool, maximized);
    QFETCH(int, zoom);
    Settings().setZoomPercent(zoom);
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitForIdle(w));
    if (maximized) {
        w.showMaximized();
        QTRY_VERIFY(w.windowState() & Qt::WindowMaximized);
    } else {
        w.setGeometry(QRect(40, 50, 1100, 700));
    }
    // A layout of the user's own: the watch dock out, the scenario dock wider than by default.
    w.live()->watchDock()->show();
    const int defaultWidth = w.scenarioDock()->width();
    w.resizeDocks({w.scenarioDock()}, {defaultWidth + 60}, Qt::Horizontal);
    QCoreApplication::processEvents();
    // As wide as the window and the editor's minimum allow (the offscreen screen is only 800 pixels wide).
    if (!maximized)
        QVERIFY(w.scenarioDock()->width() > defaultWidth);
    const Layout before = Layout::of(w);

    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(w.windowState() & Qt::WindowFullScreen);
    QVERIFY(!w.scenarioDock()->isVisible());
    // Larger by the presenting scale of the screen's size (1 on a small one: presentingScaleFollowsTheScreen).
    QCOMPARE(w.font().pointSizeF(),
             before.windowFont.pointSizeF() * w.presenter()->presentation()->presentingScale());

    QTest::keyClick(&w, Qt::Key(leaveKey));
    QVERIFY(!w.presenter()->presentation()->isActive());
    QVERIFY(!w.presenter()->presentAction()->isChecked());
    QTRY_VERIFY(!(w.windowState() & Qt::WindowFullScreen));
    QTRY_COMPARE(w.geometry(), before.geometry);
    QTRY_COMPARE(w.scenarioDock()->width(), before.scenarioDockWidth);
    compareLayouts(Layout::of(w), before);
    // Escape does nothing more once out of presentation mode.
    QTest::keyClick(&w, Qt::Key_Escape);
    compareLayouts(Layout::of(w), before);
}

void TestPresentation::laneNamesFitTheirColumnWhenLarge()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitForIdle(w));
    auto *scene = qobject_cast<TimelineScene *>(w.timeline()->scene());
    QVERIFY(scene);
    QCOMPARE(scene->labelWidth(), TimelineScene::kLabelWidth);
    auto namesFit = [scene] {
        const QFontMetricsF lane(scene->laneFont());
        for (const char *name : {"Business", "Wrapper", "Transport", "Network", "Server", "Database"}) {
            // The name starts 20 pixels into the column, after the lane's colour swatch.
            if (20 + lane.horizontalAdvance(QLatin1String(name)) > scene->labelWidth() - 4)
                return false;
        }
        return true;
    };
    QVERIFY(namesFit());
    w.presenter()->presentation()->setZoomPercent(Settings::maxZoomPercent);
    w.presenter()->presentation()->setActive(true);
    QVERIFY(scene->labelWidth() > TimelineScene::kLabelWidth);
    QVERIFY(namesFit());
    w.presenter()->presentation()->setActive(false);
    w.presenter()->presentation()->resetZoom();
    QCOMPARE(scene->labelWidth(), TimelineScene::kLabelWidth);
}

void TestPresentation::zoomKeysChangeAndPersist()
{
    qreal basePoints = 0;
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        basePoints = w.font().pointSizeF();
        QVERIFY(!w.testAttribute(Qt::WA_SetFont));
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::defaultZoomPercent);
        QTest::keyClick(&w, Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), 100 + Presentation::zoomStep);
        QTest::keyClick(&w, Qt::Key_Equal, Qt::ControlModifier); // Ctrl+= without Shift, as on most keyboards
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), 100 + 2 * Presentation::zoomStep);
        QCOMPARE(w.font().pointSizeF(), basePoints * 1.2);
        QCOMPARE(captionLabel(w)->font().pointSizeF(), basePoints * 1.2 * 1.6);
        QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), 100 + Presentation::zoomStep);
        QCOMPARE(w.font().pointSizeF(), basePoints * 1.1);
        QCOMPARE(Settings().zoomPercent(), 110);
    }
    {
        // A new window reads it back.
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), 110);
        QCOMPARE(w.font().pointSizeF(), basePoints * 1.1);
        QTest::keyClick(&w, Qt::Key_Plus, Qt::ControlModifier);
        QTest::keyClick(&w, Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), 130);
        // Ctrl+0: back to the system font, not an explicit one of the same size.
        QTest::keyClick(&w, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::defaultZoomPercent);
        QCOMPARE(w.font().pointSizeF(), basePoints);
        QVERIFY(!w.testAttribute(Qt::WA_SetFont));
        QCOMPARE(Settings().zoomPercent(), Settings::defaultZoomPercent);
    }
}

void TestPresentation::zoomIsPinnedAtItsBounds()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const qreal basePoints = w.font().pointSizeF();
    auto *zoomIn = w.findChild<QAction *>(QStringLiteral("zoomInAction"));
    auto *zoomOut = w.findChild<QAction *>(QStringLiteral("zoomOutAction"));
    QVERIFY(zoomIn && zoomOut);

    w.presenter()->presentation()->setZoomPercent(Settings::maxZoomPercent - 5);
    QTest::keyClick(&w, Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::maxZoomPercent);
    QVERIFY(!zoomIn->isEnabled());
    QVERIFY(zoomOut->isEnabled());
    w.presenter()->presentation()->zoomIn();
    QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::maxZoomPercent);
    QCOMPARE(w.font().pointSizeF(), basePoints * Settings::maxZoomPercent / 100.0);
    QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::maxZoomPercent - Presentation::zoomStep);
    QVERIFY(zoomIn->isEnabled());

    w.presenter()->presentation()->setZoomPercent(Settings::minZoomPercent + 5);
    QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::minZoomPercent);
    QVERIFY(!zoomOut->isEnabled());
    w.presenter()->presentation()->zoomOut();
    QCOMPARE(w.presenter()->presentation()->zoomPercent(), Settings::minZoomPercent);
    QCOMPARE(w.font().pointSizeF(), basePoints * Settings::minZoomPercent / 100.0);
    QCOMPARE(Settings().zoomPercent(), Settings::minZoomPercent);
    // Thin text never thins the strokes.
    QCOMPARE(w.timeline()->strokeScale(), 1.0);
}

void TestPresentation::storedZoomOutOfRangeIsClamped()
{
    QSettings().setValue(QStringLiteral("view/zoomPercent"), 1000);
    QCOMPARE(Settings().zoomPercent(), Settings::maxZoomPercent);
    QSettings().setValue(QStringLiteral("view/zoomPercent"), 10);
    QCOMPARE(Settings().zoomPercent(), Settings::minZoomPercent);
    QSettings().setValue(QStringLiteral("view/zoomPercent"), QStringLiteral("huge"));
    QCOMPARE(Settings().zoomPercent(), Settings::defaultZoomPercent);
    Settings().setZoomPercent(Settings::maxZoomPercent + 1);
    QCOMPARE(Settings().zoomPercent(), Settings::maxZoomPercent);
}

void TestPresentation::presentingScalesOnTopOfTheZoom()
{
    Settings().setZoomPercent(200);
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const qreal zoomedPoints = w.font().pointSizeF();
    QCOMPARE(w.timeline()->strokeScale(), 2.0);
    w.presenter()->presentAction()->trigger(); // View > Presentation mode
    QVERIFY(w.presenter()->presentation()->isActive());
    w.resize(Presentation::fullScaleSize);
    QTRY_COMPARE(w.size(), Presentation::fullScaleSize);
    QCOMPARE(w.font().pointSizeF(), zoomedPoints * Presentation::presentingFontScale);
    QCOMPARE(w.timeline()->strokeScale(), 2.0 * Presentation::presentingStrokeScale);
    // Zooming while presenting changes the zoom under it; leaving keeps the new zoom.
    QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(w.presenter()->presentation()->zoomPercent(), 200 - Presentation::zoomStep);
    QCOMPARE(w.font().pointSizeF(), zoomedPoints * 0.95 * Presentation::presentingFontScale);
    w.presenter()->presentAction()->trigger();
    QVERIFY(!w.presenter()->presentation()->isActive());
    QCOMPARE(w.font().pointSizeF(), zoomedPoints * 0.95);
}

// Issue 19: at a 1280x720 projector the layout of 1920x1080 at the size a class reads, with room
// for the lesson's answer and all six lanes; never smaller than the normal window.
void TestPresentation::presentingScaleFollowsTheScreen()
{
    QCOMPARE(Presentation::presentingScaleFor(QSize(1920, 1080)), 1.5);
    QCOMPARE(Presentation::presentingScaleFor(QSize(1600, 900)), 1.5);
    QVERIFY(Presentation::presentingScaleFor(QSize(1599, 900)) < 1.5);
    QVERIFY(Presentation::presentingScaleFor(QSize(1600, 899)) < 1.5);
    QCOMPARE(Presentation::presentingScaleFor(QSize(1280, 720)), 1.2);
    QCOMPARE(Presentation::presentingScaleFor(QSize(1280, 1024)), 1.2); // the narrower side decides
    QCOMPARE(Presentation::presentingScaleFor(QSize(1067, 600)), 1.0);
    QCOMPARE(Presentation::presentingScaleFor(QSize(1024, 640)), 1.0);
    QCOMPARE(Presentation::presentingScaleFor(QSize(800, 600)), 1.0);
    QCOMPARE(Presentation::presentingScaleFor(QSize(3840, 2160)), 1.5);

    // The window's size decides, again when it changes (another screen, another resolution).
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const qreal points = w.font().pointSizeF();
    w.presenter()->presentation()->setActive(true);
    w.resize(1280, 720);
    QTRY_COMPARE(w.size(), QSize(1280, 720));
    QCOMPARE(w.font().pointSizeF(), points * 1.2);
    w.resize(1920, 1080);
    QTRY_COMPARE(w.size(), QSize(1920, 1080));
    QCOMPARE(w.font().pointSizeF(), points * 1.5);
    w.presenter()->presentation()->setActive(false);
    QCOMPARE(w.font().pointSizeF(), points);
}

void TestPresentation::keysStepAndPlayWhilePresenting()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const QList<InterestingOp> ops = w.interestingOperations();
    QVERIFY(ops.size() >= 2);
    w.setOperation(ops.first().op);
    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(w.presenter()->presentation()->isActive());
    // The clicker: Page Down / Page Up go to the next and previous interesting operation.
    QTRY_VERIFY(w.timeline()->isAncestorOf(QApplication::focusWidget()) || QApplication::focusWidget() == w.timeline());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown);
    QCOMPARE(w.currentOperation(), ops.at(1).op);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageUp);
    QCOMPARE(w.currentOperation(), ops.first().op);

    // Left / Right step the events, wherever the focus is (not in a text field).
    w.timeline()->pause();
    w.timeline()->setPlayhead(0);
    const qint64 start = w.timeline()->playhead();
    w.setFocus();
    QTest::keyClick(&w, Qt::Key_Right);
    const qint64 afterRight = w.timeline()->playhead();
    QVERIFY(afterRight > start);
    QTest::keyClick(&w, Qt::Key_Right);
    QVERIFY(w.timeline()->playhead() > afterRight);
    QTest::keyClick(&w, Qt::Key_Left);
    QCOMPARE(w.timeline()->playhead(), afterRight);
    QCOMPARE(w.currentOperation(), ops.first().op);

    // Space plays and pauses.
    QVERIFY(!w.timeline()->isPlaying());
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(w.timeline()->isPlaying());
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(!w.timeline()->isPlaying());

    // Out of presentation mode, plain Left / Right are not the window's keys.
    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(!w.presenter()->presentation()->isActive());
    w.setFocus();
    const qint64 outside = w.timeline()->playhead();
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(w.timeline()->playhead(), outside);
}

void TestPresentation::closingWhilePresentingSavesTheNormalLayout()
{
    QByteArray normalGeometry;
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.setGeometry(QRect(60, 70, 1000, 640));
        QTRY_COMPARE(w.geometry(), QRect(60, 70, 1000, 640));
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(w.windowState() & Qt::WindowFullScreen);
        QVERIFY(w.close());
    }
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
    QCOMPARE(w.geometry(), QRect(60, 70, 1000, 640));
    QVERIFY(w.scenarioDock()->isVisible());
    QVERIFY(!w.presenter()->presentation()->isActive());
}

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
