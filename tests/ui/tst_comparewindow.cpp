// Compare mode's window: the right numbers, B rerun by its toggle, one playback for both timelines.
#include "compare/comparechart.h"
#include "compare/comparewindow.h"
#include "presentation/presentation.h"
#include "presentation/presentationcontroller.h"
#include "shell/mainwindow.h"
#include "document/runcontroller.h"
#include "i18n.h"
#include "story.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinescene.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"

#include "testsupport.h"

#include <QAction>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QScopeGuard>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QScrollBar>
#include <QSlider>
#include <QToolButton>
#include <QTableWidget>
#include <QTest>
#include <QVariantAnimation>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

using namespace retrylab;
using retrylab::test::presetScenario;

namespace {

constexpr int RunTimeoutMs = 120000;

// The table's cells of one metric: A, B, B - A, change.
QStringList tableRow(const QTableWidget *table, const QString &key)
{
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->data(Qt::UserRole).toString() == key)
            return {table->item(r, 1)->text(), table->item(r, 2)->text(), table->item(r, 3)->text(),
                    table->item(r, 4)->text()};
    }
    return {};
}

bool openAndWait(CompareWindow &w, const Scenario &s, int op = 0)
{
    QSignalSpy shown(&w, &CompareWindow::resultShown);
    w.setScenario(s, op);
    return shown.wait(RunTimeoutMs);
}

int variantIndex(const CompareWindow &w, const QString &label)
{
    for (int i = 0; i < w.variants().size(); ++i) {
        if (w.variants().at(i).label == label)
            return i;
    }
    return -1;
}

} // namespace

class TestCompareWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void ghostRequestNumbers();
    void changingTheToggleRerunsB();
    void stepMovesBothPlayheads();
    void playbackMovesBothPlayheads();
    void oneTimelineMovesTheOther();
    void operationIsShared();
    void timeAxesShareOneScale();
    void chartHoldsBothRuns();
    void equalRunsBothShowAndTheKeyIsWhole();
    void chartTextsAreWhole_data();
    void chartTextsAreWhole();
    void databaseLanesInViewAt720();
    void followsPresentationAndZoom();
    void keys();
    void onePlaybackBarAndOneKey();
    void cancelKeepsThePreviousResult();
    void tooBigIsRefused();
    void mainWindowOpensCompare();
};

void TestCompareWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLab"));
}

void TestCompareWindow::init()
{
    QSettings().clear();
}

void TestCompareWindow::ghostRequestNumbers()
{
    CompareWindow w;
    const Scenario ghost = presetScenario(QStringLiteral("ghost-request"));
    QVERIFY(openAndWait(w, ghost));
    // B: the default toggle, said in its title.
    QCOMPARE(w.variants().at(w.variantIndex()).label, QStringLiteral("key per op + atomic server"));
    QCOMPARE(w.variantBox()->currentText(), QStringLiteral("key per op + atomic server"));
    QCOMPARE(w.titleB()->text(), QStringLiteral("B \u00b7 key per op + atomic server"));
    const auto *changes = w.findChild<QLabel *>(QStringLiteral("compareChangesB"));
    QVERIFY(changes);
    QCOMPARE(changes->text(),
             QStringLiteral("client.keyPlacement: none \u2192 perOperation; server.idempotency.mode: off \u2192 atomic"));

    // The numbers are those of single runs (seed 42): 32 records with 12 duplicates against 20 and 0.
    Scenario fixed = ghost;
    fixed.client.keyPlacement = KeyPlacement::PerOperation;
    fixed.server.idempotency.mode = IdempotencyMode::Atomic;
    const Metrics a = simulate(ghost).metrics;
    const Metrics b = simulate(fixed).metrics;
    QCOMPARE(w.result().a.metrics, a);
    QCOMPARE(w.result().b.metrics, b);
    const QTableWidget *table = w.summaryTable();
    QCOMPARE(table->rowCount(), 9);
    QCOMPARE(tableRow(table, QStringLiteral("records")),
             (QStringList{QStringLiteral("32"), QStringLiteral("20"), QStringLiteral("\u221212"),
                          QStringLiteral("\u221238%")}));
    QCOMPARE(tableRow(table, QStringLiteral("duplicates")),
             (QStringList{QStringLiteral("12"), QStringLiteral("0"), QStringLiteral("\u221212"),
                          QStringLiteral("\u2212100%")}));
    QCOMPARE(tableRow(table, QStringLiteral("httpAttempts")),
             (QStringList{QString::number(a.httpAttempts), QString::number(b.httpAttempts), QStringLiteral("0"),
                          QStringLiteral("0%")}));
    QCOMPARE(tableRow(table, QStringLiteral("latencyP99Ms")).value(0), QString::number(a.latencyP99Ms, 'f', 1));
    QCOMPARE(tableRow(table, QStringLiteral("goodputPerS")).value(1), QString::number(b.goodputPerS, 'f', 2));
    // A better B is marked: fewer duplicates in green, bold.
    int duplicatesRow = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->data(Qt::UserRole).toString() == QLatin1String("duplicates"))
            duplicatesRow = r;
    QVERIFY(table->item(duplicatesRow, 3)->font().bold());
    QVERIFY(table->item(duplicatesRow, 3)->background().color().green()
            > table->item(duplicatesRow, 3)->background().color().red());
    // A change below 5% is not marked: latency p99 moved by 0.5% (noise to a class).
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->data(Qt::UserRole).toString() != QLatin1String("latencyP99Ms"))
            continue;
        QCOMPARE(table->item(r, 4)->text(), QStringLiteral("\u22120.5%"));
        QVERIFY(!table->item(r, 3)->font().bold());
        QCOMPARE(table->item(r, 3)->background().style(), Qt::NoBrush);
    }
    // The first rows (records, duplicates, orphans) are always in view.
    QVERIFY(table->minimumHeight() >= table->rowHeight(0) * 3);
}

void TestCompareWindow::changingTheToggleRerunsB()
{
    CompareWindow w;
    const Scenario ghost = presetScenario(QStringLiteral("ghost-request"));
    QVERIFY(openAndWait(w, ghost));
    const Metrics a = w.result().a.metrics;
    const int noWrapper = variantIndex(w, QStringLiteral("no @retry wrapper"));
    QVERIFY(noWrapper >= 0);
    QSignalSpy shown(&w, &CompareWindow::resultShown);
    // As a user picks it: the combo's activated signal.
    w.variantBox()->setCurrentIndex(noWrapper);
    Q_EMIT w.variantBox()->activated(noWrapper);
    QVERIFY(shown.wait(RunTimeoutMs));
    Scenario expected = ghost;
    expected.client.wrapper.enabled = false;
    QVERIFY(whatif::sameSettings(w.scenarioB(), expected));
    QCOMPARE(w.result().b.metrics, simulate(expected).metrics);
    QCOMPARE(w.result().a.metrics, a);
    QCOMPARE(w.titleB()->text(), QStringLiteral("B \u00b7 no @retry wrapper"));
    QCOMPARE(tableRow(w.summaryTable(), QStringLiteral("httpAttempts")).value(1),
             QString::number(simulate(expected).metrics.httpAttempts));
    QVERIFY(simulate(expected).metrics.httpAttempts != a.httpAttempts);
}

void TestCompareWindow::stepMovesBothPlayheads()
{
    CompareWindow w;
    w.resize(1280, 720);
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    QVERIFY(w.times().size() > 3);
    QCOMPARE(w.playhead(), w.times().first());
    for (int i = 1; i <= 3; ++i) {
        w.stepNext();
        QCOMPARE(w.playhead(), w.times().at(i));
        QCOMPARE(w.timelineA()->playhead(), w.times().at(i));
        QCOMPARE(w.timelineB()->playhead(), w.times().at(i));
    }
    w.stepPrevious();
    QCOMPARE(w.timelineA()->playhead(), w.times().at(2));
    QCOMPARE(w.timelineB()->playhead(), w.times().at(2));
}

void TestCompareWindow::playbackMovesBothPlayheads()
{
    CompareWindow w;
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    auto *anim = w.findChild<QVariantAnimation *>(QStringLiteral("comparePlayback"));
    QVERIFY(anim);
    w.play();
    QVERIFY(w.isPlaying());
    QVERIFY(!w.timelineA()->isPlaying()); // one playback drives both; the timelines' own are idle
    QVERIFY(!w.timelineB()->isPlaying());
    // Both operations run to at least this time: the playheads meet there.
    const qint64 common = std::min(static_cast<TimelineScene *>(w.timelineA()->scene())->times().last(),
                                   static_cast<TimelineScene *>(w.timelineB()->scene())->times().last());
    bool checked = false;
    for (int ms = 0; ms <= anim->duration(); ms += 50) {
        anim->setCurrentTime(ms);
        if (w.playhead() > common)
            break;
        QCOMPARE(w.timelineA()->playhead(), w.playhead());
        QCOMPARE(w.timelineB()->playhead(), w.playhead());
        checked = checked || w.playhead() > w.times().first();
    }
    QVERIFY(checked);
    w.togglePlayback();
    QVERIFY(!w.isPlaying());
}

void TestCompareWindow::oneTimelineMovesTheOther()
{
    CompareWindow w;
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    const qint64 t = w.times().at(2);
    w.timelineA()->setPlayhead(t); // as its own slider would
    QCOMPARE(w.timelineB()->playhead(), t);
    QCOMPARE(w.playhead(), t);
    w.timelineB()->setPlayhead(w.times().at(1));
    QCOMPARE(w.timelineA()->playhead(), w.times().at(1));
}

void TestCompareWindow::operationIsShared()
{
    CompareWindow w;
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request")), 5));
    QCOMPARE(w.operation(), 5);
    QCOMPARE(w.timelineA()->operation(), 5);
    QCOMPARE(w.timelineB()->operation(), 5);
    w.setOperation(7);
    QCOMPARE(w.timelineA()->operation(), 7);
    QCOMPARE(w.timelineB()->operation(), 7);
    // A click in one timeline's overview picks the operation for both.
    w.timelineB()->setOperation(3);
    QCOMPARE(w.operation(), 3);
    QCOMPARE(w.timelineA()->operation(), 3);
    QCOMPARE(w.playhead(), w.times().first());
    // Without an operation asked for, the window opens on A's story operation.
    CompareWindow story;
    const Scenario ghost = presetScenario(QStringLiteral("ghost-request"));
    QVERIFY(openAndWait(story, ghost));
    QCOMPARE(story.operation(), storyOperation(simulate(ghost)));
}

void TestCompareWindow::timeAxesShareOneScale()
{
    CompareWindow w;
    w.resize(1600, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    auto *a = static_cast<TimelineScene *>(w.timelineA()->scene());
    auto *b = static_cast<TimelineScene *>(w.timelineB()->scene());
    QTRY_COMPARE(a->zoom(), b->zoom());
    // Both operations start at the same instant (same seed, same arrivals), drawn at the same x of
    // their views (each scene pads its start differently: the window scrolls by the difference).
    QCOMPARE(a->times().first(), b->times().first());
    const auto startX = [](TimelineWidget *t) {
        const auto *s = static_cast<TimelineScene *>(t->scene());
        return t->view()->mapFromScene(QPointF(s->xOf(s->times().first()), 0)).x();
    };
    // Each scene pads its start for the glyphs left of its first instant (B's key is minted there):
    // the window scrolls the side with more padding by the difference when its scene is wide
    // enough; never does it make the starts further apart than the padding alone.
    const qreal padding = std::abs(a->xOf(a->times().first()) - b->xOf(b->times().first()));
    QVERIFY(std::abs(startX(w.timelineA()) - startX(w.timelineB())) <= padding + 1);
    // Both operations in full: the last instant of each is in its view.
    for (TimelineWidget *t : {w.timelineA(), w.timelineB()}) {
        const auto *s = static_cast<TimelineScene *>(t->scene());
        const int x = t->view()->mapFromScene(QPointF(s->xOf(s->times().last()), 0)).x();
        QVERIFY2(x > 0 && x < t->view()->viewport()->width(), qPrintable(t->objectName()));
    }
    w.resize(1200, 800);
    QTRY_COMPARE(a->zoom(), b->zoom());
    QTRY_VERIFY(std::abs(startX(w.timelineA()) - startX(w.timelineB()))
                <= std::abs(a->xOf(a->times().first()) - b->xOf(b->times().first())) + 1);
}

void TestCompareWindow::chartHoldsBothRuns()
{
    CompareWindow w;
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    const QList<QLineSeries *> series = w.chart()->series();
    QCOMPARE(series.size(), 4);
    QCOMPARE(w.chart()->chart()->series().size(), 4); // one chart, one pair of axes
    QStringList names;
    for (QLineSeries *s : series)
        names << s->name();
    QCOMPARE(names, (QStringList{QStringLiteral("A: records"), QStringLiteral("B: records"),
                                 QStringLiteral("A: duplicates"), QStringLiteral("B: duplicates")}));
    // The key under the chart names all four, wrapped rather than cut ("A: duplicat…" at 1280x720).
    QCOMPARE(w.chart()->keyLabels().size(), 4);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(w.chart()->keyLabels().at(i)->text(), names.at(i));
    QCOMPARE(series.at(0)->points().constLast().y(), 32.0);
    QCOMPARE(series.at(1)->points().constLast().y(), 20.0);
    QCOMPARE(series.at(2)->points().constLast().y(), 12.0);
    QCOMPARE(series.at(3)->points().constLast().y(), 0.0);
    for (QLineSeries *s : series)
        QCOMPARE(s->attachedAxes().size(), 2);
    QVERIFY(w.chart()->countAxis()->max() >= 32);
}

// A coincides with B in many a run: A's lines are wide, B's narrow over them, so both show, and the
// key says which curves are the same. The key is never cut at 1280x720.
void TestCompareWindow::equalRunsBothShowAndTheKeyIsWhole()
{
    CompareWindow w;
    w.resize(1280, 720);
    QFont f = w.font();
    f.setPointSizeF(f.pointSizeF() * 1.2); // presentation mode at 1280x720
    w.setFont(f);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("layered-fix"))));
    const QList<QLineSeries *> series = w.chart()->series();
    QCOMPARE(series.at(2)->points(), series.at(3)->points()); // no duplicates either way
    QVERIFY(series.at(0)->pen().widthF() >= series.at(1)->pen().widthF() + 3);
    QVERIFY(series.at(2)->pen().widthF() >= series.at(3)->pen().widthF() + 3);
    QCOMPARE(series.at(3)->name(), QStringLiteral("B: duplicates, the same as A"));
    QVERIFY(series.indexOf(series.at(1)) > series.indexOf(series.at(0))); // B drawn over A
    for (const QLabel *label : w.chart()->keyLabels()) {
        QVERIFY(label->isVisible());
        // Once the layout has followed the new names.
        QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(QStringLiteral("\"%1\" is cut").arg(label->text())));
        QVERIFY(QRect(QPoint(0, 0), w.size()).contains(QRect(label->mapTo(&w, QPoint(0, 0)), label->size())));
    }
}

void TestCompareWindow::chartTextsAreWhole_data()
{
    QTest::addColumn<QString>("language");
    QTest::addRow("en") << QStringLiteral("en");
    QTest::addRow("zh_CN") << QStringLiteral("zh_CN");
}

// metastable at 1280x720 with the program's 11-point font (zh_CN): the chart under the timelines
// drew its time labels and the time axis's title as "...", Qt Charts eliding them in the few lines
// the chart is given. Every text the chart draws is whole.
void TestCompareWindow::chartTextsAreWhole()
{
    QFETCH(QString, language);
    QVERIFY(i18n::install(language));
    const auto restore = qScopeGuard([] { i18n::install(QStringLiteral("en")); });
    CompareWindow w;
    w.resize(1280, 720);
    QFont f = w.font();
    f.setPointSizeF(11);
    w.setFont(f);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("metastable"))));
    QCoreApplication::processEvents();
    auto *view = w.chart()->findChild<QChartView *>(QStringLiteral("compareChart"));
    QVERIFY(view);
    QStringList drawn;
    for (QGraphicsItem *item : view->scene()->items()) {
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
            drawn << text->toPlainText();
    }
    QVERIFY(drawn.size() >= 4);
    for (const QString &text : std::as_const(drawn))
        QVERIFY2(!text.contains(QStringLiteral("...")) && !text.contains(QChar(0x2026)) && !text.contains(QChar(0x22ee)),
                 qPrintable(QStringLiteral("\"%1\" among %2").arg(text, drawn.join(QStringLiteral(" | ")))));
}

// At 1280x720, opened from the presenting window as a class opens it (Ctrl+Shift+C: the window's
// font, its layout), both timelines show all six lanes: Database, where the duplicates are,
// included (issue 19). Where the window has the height, every row of the table shows too.
// tests/x11/tst_classroom holds the same on a real X server at four sizes.
void TestCompareWindow::databaseLanesInViewAt720()
{
    MainWindow main;
    main.resize(1280, 720);
    main.show();
    QVERIFY(QTest::qWaitForWindowExposed(&main));
    QString error;
    QVERIFY2(main.loadPreset(QStringLiteral("ghost-request"), &error), qPrintable(error));
    QVERIFY(QTest::qWaitFor([&main] { return main.hasResult(); }, RunTimeoutMs));
    Presentation *presentation = main.presenter()->presentation();
    presentation->setActive(true);
    main.setWindowState(main.windowState() & ~Qt::WindowFullScreen);
    main.setGeometry(0, 0, 1280, 720); // the projector's size, whatever this screen's is
    QTRY_COMPARE(main.size(), QSize(1280, 720));
    main.compareAction()->trigger();
    CompareWindow &w = *main.compareWindow();
    QTRY_VERIFY_WITH_TIMEOUT(w.hasResult() && !w.isRunning(), RunTimeoutMs);
    w.setWindowState(w.windowState() & ~Qt::WindowFullScreen);
    w.setGeometry(0, 0, 1280, 720);
    QTRY_COMPARE(w.size(), QSize(1280, 720));
    QCOMPARE(w.font(), main.font());
    QTest::qWait(50);
    for (TimelineWidget *t : {w.timelineA(), w.timelineB()}) {
        auto *scene = static_cast<TimelineScene *>(t->scene());
        const QRect viewport = t->view()->viewport()->rect();
        for (int lane = 0; lane < TimelineScene::kLaneCount; ++lane) {
            const QRect r = t->view()->mapFromScene(QRectF(scene->sceneRect().left(), scene->laneTop(lane), 1,
                                                           scene->laneHeight(lane))).boundingRect();
            QVERIFY2(r.top() >= viewport.top() && r.bottom() <= viewport.bottom() + 1,
                     qPrintable(QStringLiteral("%1 lane %2: y %3..%4 in a view of %5")
                                    .arg(t->objectName()).arg(lane).arg(r.top()).arg(r.bottom()).arg(viewport.height())));
        }
    }
    // At 1920x1080 the lanes and every row of the table: nobody scrolls a table on a projector
    // that has the room.
    main.setGeometry(0, 0, 1920, 1080);
    w.setGeometry(0, 0, 1920, 1080);
    QTRY_COMPARE(w.size(), QSize(1920, 1080));
    QTRY_COMPARE(w.summaryTable()->verticalScrollBar()->maximum(), 0);
    QTRY_VERIFY(w.summaryTable()->viewport()->height() >= w.summaryTable()->rowHeight(0) * w.summaryTable()->rowCount());
}

// The compare window follows presentation mode and the zoom: the main window's font, the
// timelines' strokes, Ctrl+plus / Ctrl+minus in the compare window itself, full screen.
void TestCompareWindow::followsPresentationAndZoom()
{
    MainWindow main;
    main.show();
    QString error;
    QVERIFY2(main.loadPreset(QStringLiteral("ghost-request"), &error), qPrintable(error));
    QVERIFY(QTest::qWaitFor([&main] { return main.hasResult(); }, RunTimeoutMs));
    Presentation *presentation = main.presenter()->presentation();
    presentation->setActive(true);
    main.compareAction()->trigger();
    CompareWindow *w = main.compareWindow();
    QVERIFY(w && w->isVisible());
    QVERIFY(w->windowState() & Qt::WindowFullScreen);
    QCOMPARE(w->font().pointSizeF(), main.font().pointSizeF());
    QCOMPARE(w->timelineA()->strokeScale(), presentation->strokeScale());
    const qreal before = w->font().pointSizeF();
    const int zoom = presentation->zoomPercent();
    QTest::keyClick(w, Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(presentation->zoomPercent(), zoom + Presentation::zoomStep);
    QVERIFY(w->font().pointSizeF() > before);
    QCOMPARE(w->font().pointSizeF(), main.font().pointSizeF());
    QTest::keyClick(w, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(w->font().pointSizeF(), before);
    presentation->setActive(false);
    QCOMPARE(w->font().pointSizeF(), main.font().pointSizeF());
}

void TestCompareWindow::keys()
{
    CompareWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    const qint64 start = w.playhead();
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(w.playhead(), w.times().at(1));
    QCOMPARE(w.timelineB()->playhead(), w.times().at(1));
    QTest::keyClick(&w, Qt::Key_Left);
    QCOMPARE(w.playhead(), start);
    // With a timeline focused too: the window's keys drive both.
    w.timelineA()->setFocus();
    QTest::keyClick(w.timelineA(), Qt::Key_Space);
    QVERIFY(w.isPlaying());
    QVERIFY(!w.timelineA()->isPlaying());
    QTest::keyClick(w.timelineA(), Qt::Key_Space);
    QVERIFY(!w.isPlaying());
    QTest::keyClick(&w, Qt::Key_Escape);
    QTRY_VERIFY(!w.isVisible());
}

void TestCompareWindow::onePlaybackBarAndOneKey()
{
    CompareWindow w;
    w.resize(1920, 1080);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    // Each timeline's own playback bar would drive only itself: hidden, the window's drives both.
    for (TimelineWidget *t : {w.timelineA(), w.timelineB()}) {
        for (QSlider *s : t->findChildren<QSlider *>(QString(), Qt::FindDirectChildrenOnly))
            QVERIFY(!s->isVisible());
        for (QToolButton *b : t->findChildren<QToolButton *>(QString(), Qt::FindDirectChildrenOnly))
            QVERIFY(!b->isVisible());
        for (TimelineLegend *l : t->findChildren<TimelineLegend *>())
            QVERIFY(!l->isVisible()); // one key for both, below them
        for (QComboBox *c : t->findChildren<QComboBox *>(QString(), Qt::FindDirectChildrenOnly))
            QVERIFY(!c->isVisible()); // the speed box
        QVERIFY(!t->caption().isEmpty()); // the narration stays
    }
    auto *slider = w.findChild<QSlider *>(QStringLiteral("compareScrub"));
    QVERIFY(slider && slider->isVisible());
    auto *legend = w.findChild<TimelineLegend *>(QStringLiteral("compareLegend"));
    QVERIFY(legend && legend->isVisible());
    QVERIFY(legend->width() >= legend->sizeHint().width()); // one key, not cut off
}

void TestCompareWindow::cancelKeepsThePreviousResult()
{
    CompareWindow w;
    QVERIFY(openAndWait(w, presetScenario(QStringLiteral("ghost-request"))));
    const Metrics b = w.result().b.metrics;
    w.setVariantIndex(variantIndex(w, QStringLiteral("no key")) >= 0 ? variantIndex(w, QStringLiteral("no key"))
                                                                    : variantIndex(w, QStringLiteral("no @retry wrapper")));
    QVERIFY(w.isRunning());
    QSignalSpy dropped(&w, &CompareWindow::runDropped);
    QSignalSpy shownEarly(&w, &CompareWindow::resultShown);
    w.cancel();
    QVERIFY(!w.isRunning());
    // The run ends (stopped by the flag, or done) and goes nowhere: the previous result stays.
    QVERIFY(dropped.wait(RunTimeoutMs));
    QCOMPARE(shownEarly.count(), 0);
    QCOMPARE(w.result().b.metrics, b);
    // A new run after a cancel is shown as usual.
    QSignalSpy shown(&w, &CompareWindow::resultShown);
    w.rerun();
    QVERIFY(shown.wait(RunTimeoutMs));
}

void TestCompareWindow::tooBigIsRefused()
{
    // A million orders of 3 x 3 attempts each, twice: more than the window keeps in memory.
    Scenario big = presetScenario(QStringLiteral("ghost-request"));
    big.workload.orders = 1000000;
    CompareWindow w;
    QSignalSpy running(&w, &CompareWindow::runningChanged);
    w.setScenario(big);
    QVERIFY(!w.isRunning());
    QCOMPARE(running.count(), 0);
    QVERIFY(!w.hasResult());
    const auto *status = w.findChild<QLabel *>(QStringLiteral("compareStatus"));
    QVERIFY(status);
    QVERIFY2(status->text().startsWith(QStringLiteral("Not run: A and B could make up to ")), qPrintable(status->text()));
    QVERIFY(status->text().contains(QStringLiteral("retrylab compare")));
}

void TestCompareWindow::mainWindowOpensCompare()
{
    MainWindow main;
    QString error;
    QVERIFY2(main.loadPreset(QStringLiteral("ghost-request"), &error), qPrintable(error));
    QVERIFY(QTest::qWaitFor([&main] { return main.hasResult() && main.runController()->result().ops.size() > 0; },
                            RunTimeoutMs));
    QVERIFY(main.compareAction());
    QCOMPARE(main.compareAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QVERIFY(main.compareWindow() == nullptr);
    main.setOperation(4);
    main.compareAction()->trigger();
    CompareWindow *w = main.compareWindow();
    QVERIFY(w);
    QVERIFY(w->isVisible());
    QVERIFY(whatif::sameSettings(w->scenarioA(), main.scenario()));
    QTRY_VERIFY_WITH_TIMEOUT(w->hasResult(), RunTimeoutMs);
    QCOMPARE(w->operation(), 4);
    QCOMPARE(w->result().a.metrics, main.result().metrics);
    // Opened again: the same window, on the scenario of now.
    main.compareAction()->trigger();
    QCOMPARE(main.findChildren<CompareWindow *>().size(), 1);
}

QTEST_MAIN(TestCompareWindow)
#include "tst_comparewindow.moc"
