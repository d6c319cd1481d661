// File > Open check report… in the window: a report of `retrylab check --save FILE` on the
// timeline, each probe round an operation named by its probe and verdict, the card beside it in
// the Scenario dock's place, and the window titled by the endpoint. A bad file changes nothing.
#include "checkreportsample.h"

#include "check/checktrace.h"
#include "document/labdocument.h"
#include "document/runcontroller.h"
#include "live/livecontroller.h"
#include "i18n.h"
#include "live/subjectpanel.h"
#include "shell/gui.h"
#include "shell/mainwindow.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinescene.h"
#include "timeline/timelinewidget.h"

#include <QApplication>
#include <QDockWidget>
#include <QGraphicsItem>
#include <QFile>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTabBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace retrylab;

namespace {

QString writeReport(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return QString();
    return path;
}

// The sample report in `dir`, opened in `w`.
bool openSample(MainWindow &w, const QTemporaryDir &dir)
{
    const QString path = writeReport(dir, QStringLiteral("card.json"), QJsonDocument(checksample::report().toJson()).toJson());
    w.show();
    QString error;
    const bool opened = !path.isEmpty() && w.live()->openCheckReport(path, &error);
    if (!opened)
        qWarning("%s", qPrintable(error));
    return opened;
}

} // namespace

class TestCheckReportView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reportShowsEachProbeWithItsVerdict();
    void cardRowsOpenTheirOperation();
    void aScenarioAgainPutsTheScenarioBack();
    void corruptReportIsRefusedNamingWhere();
    void languageSwitchKeepsTheReport();
    void openedBeforeShownRaisesTheCard();
    void labelsDoNotOverlap_data();
    void labelsDoNotOverlap();
    void unansweredAttemptLastsUntilItsTimeout();
    void inFlightAttemptsLastUntilTheirAnswers();
};

void TestCheckReportView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLabCheckReportView"));
    QSettings().clear();
}

void TestCheckReportView::reportShowsEachProbeWithItsVerdict()
{
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(openSample(w, dir));
    LabDocument *doc = w.document();
    QCOMPARE(doc->source(), ResultSource::Check);
    // Six probes sent requests (the mismatch probe had no {n}): six operations, named by probe and verdict.
    const QList<OpSummary> &ops = doc->result().ops;
    QCOMPARE(ops.size(), 6);
    QCOMPARE(ops.at(0).ref, QStringLiteral("same key, same body, twice: pass"));
    QCOMPARE(ops.at(1).ref, QStringLiteral("same key while in flight: FAIL"));
    QCOMPARE(ops.at(2).ref, QStringLiteral("answer lost, retry (ghost): pass"));
    // Every exchange of the report is an attempt on the timeline's run.
    int attempts = 0;
    for (const TraceEvent &e : doc->result().trace)
        attempts += e.kind == EventKind::TransportAttempt ? 1 : 0;
    QCOMPARE(attempts, 11);
    QCOMPARE(doc->result().metrics.duplicates, 2);
    // It opens on the failing probe: what a class should look at first.
    QCOMPARE(w.timeline()->operation(), 3);
    QVERIFY2(w.windowTitle().startsWith(QStringLiteral("Idempotency check of http://127.0.0.1:5000/orders (card.json)")),
             qPrintable(w.windowTitle()));
    // The card in the Scenario dock's place: all seven probes, the failing one's finding in full.
    QDockWidget *dock = w.live()->subjectDock();
    QTRY_VERIFY(dock->isVisible());
    SubjectPanel *panel = w.live()->subjectPanel();
    QCOMPARE(panel->heading(), QStringLiteral("Idempotency check"));
    QVERIFY(panel->details().startsWith(QStringLiteral("Endpoint:\n  http://127.0.0.1:5000/orders\nReport: card.json\n")));
    QCOMPARE(panel->counts(), QStringLiteral("4 pass, 1 fail, 1 warn, 1 cannot tell, 0 not applicable"));
    QTreeWidget *card = panel->card();
    QCOMPARE(card->topLevelItemCount(), 7);
    QCOMPARE(card->topLevelItem(2)->text(0), QStringLiteral("same key while in flight"));
    QCOMPARE(card->topLevelItem(2)->text(1), QStringLiteral("FAIL"));
    QCOMPARE(card->currentItem(), card->topLevelItem(2));
    QCOMPARE(panel->finding(), QStringLiteral("2 resources for one key sent at once: a check-then-insert race"));
}

void TestCheckReportView::cardRowsOpenTheirOperation()
{
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(openSample(w, dir));
    QTreeWidget *card = w.live()->subjectPanel()->card();
    card->setCurrentItem(card->topLevelItem(3)); // the ghost
    QCOMPARE(w.timeline()->operation(), 4);
    // Opened whole: the playhead at the retry's answer, the last event of the probe.
    qint64 last = 0;
    for (const TraceEvent &e : w.document()->result().trace)
        last = e.op == 4 ? std::max(last, e.t) : last;
    QCOMPARE(w.timeline()->playhead(), last);
    QCOMPARE(w.live()->subjectPanel()->finding(),
             QStringLiteral("the retry got the resource the lost answer created; no second one"));
    // And the other way: the operation box moves the card's selection.
    w.setOperation(7);
    QCOMPARE(card->currentItem(), card->topLevelItem(6));
}

void TestCheckReportView::aScenarioAgainPutsTheScenarioBack()
{
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(openSample(w, dir));
    QTRY_VERIFY(w.live()->subjectDock()->isVisible());
    QVERIFY(w.loadScenario(QStringLiteral("ghost-request")));
    QTRY_COMPARE(w.document()->source(), ResultSource::Simulation);
    QTRY_VERIFY(!w.live()->subjectDock()->isVisible());
    QVERIFY2(!w.windowTitle().contains(QStringLiteral("Idempotency check")), qPrintable(w.windowTitle()));
}

void TestCheckReportView::corruptReportIsRefusedNamingWhere()
{
    QTemporaryDir dir;
    QByteArray bytes = QJsonDocument(checksample::report().toJson()).toJson();
    bytes.replace("\"status\": 201", "\"status\": \"201\"");
    const QString file = writeReport(dir, QStringLiteral("bad.json"), bytes);
    MainWindow w;
    w.show();
    QTRY_VERIFY(w.document()->result().metrics.logicalOperations > 0); // the preset's run is on show
    QString error;
    QVERIFY(!w.live()->openCheckReport(file, &error));
    QVERIFY2(error.startsWith(file + QStringLiteral(": probes[0].rounds[0].exchanges[0].status: expected an integer from 0 to 999, got \"201\"")),
             qPrintable(error));
    QCOMPARE(w.document()->source(), ResultSource::Simulation);
    QVERIFY(!w.live()->subjectDock()->isVisible());
}

void TestCheckReportView::languageSwitchKeepsTheReport()
{
    // View > Language rebuilds the window: the report stays on show with the probe the class had
    // open, its playhead, the card and the title, in the new language.
    QTemporaryDir dir;
    WindowHost host(new MainWindow(nullptr, false));
    const auto restore = qScopeGuard([] { i18n::install(QStringLiteral("en")); });
    QVERIFY(openSample(*host.window(), dir));
    MainWindow *en = host.window();
    QTreeWidget *card = en->live()->subjectPanel()->card();
    card->setCurrentItem(card->topLevelItem(3)); // the ghost, not the first failure it opened on
    QCOMPARE(en->timeline()->operation(), 4);
    const qint64 playhead = en->timeline()->playhead() - 1;
    en->timeline()->setPlayhead(playhead);
    const int events = int(en->document()->result().trace.size());

    QSignalSpy replaced(&host, &WindowHost::windowReplaced);
    host.switchLanguage(QStringLiteral("zh_CN"));
    QVERIFY(replaced.count() == 1 || replaced.wait(10000));
    MainWindow *zh = host.window();
    QVERIFY(zh != nullptr);
    QCOMPARE(zh->document()->source(), ResultSource::Check);
    QCOMPARE(int(zh->document()->result().trace.size()), events);
    QCOMPARE(zh->timeline()->operation(), 4);
    QCOMPARE(zh->timeline()->playhead(), playhead);
    QTRY_VERIFY(zh->live()->subjectDock()->isVisible());
    QTreeWidget *zhCard = zh->live()->subjectPanel()->card();
    QCOMPARE(zhCard->topLevelItemCount(), 7);
    QCOMPARE(zhCard->currentItem(), zhCard->topLevelItem(3));
    QVERIFY2(!zh->windowTitle().startsWith(QStringLiteral("Idempotency check")) && zh->windowTitle().contains(QStringLiteral("card.json")),
             qPrintable(zh->windowTitle()));
    // A simulation started by the new window must not replace the report afterwards.
    QTRY_VERIFY(!zh->runController()->isBusy());
    QCOMPARE(zh->document()->source(), ResultSource::Check);
}

void TestCheckReportView::openedBeforeShownRaisesTheCard()
{
    // `retrylab --check-report FILE` opens the report and then shows the window (ui/shell/gui.cpp):
    // the card must be the dock's tab on show, not behind the Scenario tab.
    QTemporaryDir dir;
    const QString path = writeReport(dir, QStringLiteral("card.json"), QJsonDocument(checksample::report().toJson()).toJson());
    MainWindow w(nullptr, false);
    QString error;
    QVERIFY2(w.live()->openCheckReport(path, &error), qPrintable(error));
    w.showOnScreen();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QDockWidget *subject = w.live()->subjectDock();
    QTRY_VERIFY(subject->isVisible());
    const QList<QTabBar *> bars = w.findChildren<QTabBar *>();
    QTabBar *docks = nullptr;
    for (QTabBar *bar : bars) {
        for (int i = 0; i < bar->count() && !docks; ++i)
            docks = bar->tabText(i) == subject->windowTitle() ? bar : nullptr;
    }
    QVERIFY2(docks, "no tab for the Your service dock");
    QTRY_COMPARE(docks->tabText(docks->currentIndex()), subject->windowTitle());
    QTRY_VERIFY(!subject->visibleRegion().isEmpty());
    QTRY_VERIFY(w.findChild<QDockWidget *>(QStringLiteral("scenarioDock"))->visibleRegion().isEmpty());
}

void TestCheckReportView::labelsDoNotOverlap_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QSize>("size");
    for (const char *language : {"en", "zh_CN"}) {
        for (const QSize size : {QSize(1008, 592), QSize(1264, 672), QSize(1904, 1032)})
            QTest::addRow("%s-%dx%d", language, size.width(), size.height()) << QString::fromLatin1(language) << size;
    }
}

void TestCheckReportView::labelsDoNotOverlap()
{
    // The in-flight probe's two 201s and their records "#4 duplicate" and "#3" share an instant;
    // each probe, in the window a class sees, at the sizes of three screens.
    QFETCH(QString, language);
    QFETCH(QSize, size);
    QVERIFY(i18n::install(language));
    const auto restore = qScopeGuard([] { i18n::install(QStringLiteral("en")); });
    QFont font = QApplication::font();
    const QFont before = font;
    const auto restoreFont = qScopeGuard([before] { QApplication::setFont(before); });
    font.setPointSizeF(11); // the program's own (ui/shell/gui.cpp)
    QApplication::setFont(font);
    QTemporaryDir dir;
    MainWindow w(nullptr, false);
    QVERIFY(openSample(w, dir));
    w.resize(size);
    QTRY_COMPARE(w.size(), size);
    const QList<OpSummary> ops = w.document()->result().ops;
    for (const OpSummary &summary : ops) {
        w.setOperation(summary.op);
        w.timeline()->seekToEnd();
        QCoreApplication::processEvents();
        const auto *scene = static_cast<const TimelineScene *>(w.timeline()->scene());
        // Label rectangles, and the glyphs of marks (a record, an answer's status) as their
        // squares: no label on another, no label on another's mark, no mark on another.
        QList<QPair<QRectF, QString>> labels;
        QList<QPair<QRectF, QString>> glyphs;
        const QList<QGraphicsItem *> items = scene->items();
        for (QGraphicsItem *item : items) {
            const auto *event = qgraphicsitem_cast<TimelineEventItem *>(item);
            if (!event || !event->isVisible())
                continue;
            const EventPlan &plan = scene->plans().at(event->planIndex());
            const QString name = plan.label.isEmpty() ? QStringLiteral("a mark of event %1").arg(event->traceIndex()) : plan.label;
            if (!event->sceneLabelRect().isNull())
                labels.append({event->sceneLabelRect(), scene->labelText(event->planIndex())});
            // (A dot, a response leaving, sits under the mark that sent it by design.)
            const bool mark = plan.glyph != timeline::Glyph::None && plan.glyph != timeline::Glyph::Dot
                              && plan.glyph != timeline::Glyph::Arrow;
            if (mark && (plan.form == EventPlan::Form::Marker || plan.form == EventPlan::Form::Arrow)) {
                const qreal r = TimelineScene::kGlyphRadius;
                glyphs.append({QRectF(scene->anchorOf(event->planIndex()) - QPointF(r, r), QSizeF(2 * r, 2 * r)),
                               QStringLiteral("the mark of \"%1\"").arg(name)});
            }
        }
        QVERIFY2(!labels.isEmpty(), qPrintable(summary.ref));
        for (const auto &glyph : std::as_const(glyphs)) {
            for (const auto &other : std::as_const(glyphs)) {
                const QRectF overlap = glyph.first.intersected(other.first);
                QVERIFY2(&glyph == &other || overlap.width() <= 0 || overlap.height() <= 0,
                         qPrintable(QStringLiteral("operation %1: %2 overlaps %3").arg(summary.op).arg(glyph.second, other.second)));
            }
            for (const auto &label : std::as_const(labels)) {
                const QRectF overlap = glyph.first.intersected(label.first);
                QVERIFY2(overlap.width() <= 0 || overlap.height() <= 0,
                         qPrintable(QStringLiteral("operation %1: \"%2\" overlaps %3").arg(summary.op).arg(label.second, glyph.second)));
            }
        }
        for (int i = 0; i < labels.size(); ++i) {
            for (int j = i + 1; j < labels.size(); ++j) {
                const QRectF a = labels[i].first;
                const QRectF b = labels[j].first;
                const QRectF overlap = a.intersected(b);
                QVERIFY2(overlap.width() <= 0 || overlap.height() <= 0,
                         qPrintable(QStringLiteral("operation %1: \"%2\" (%3,%4 %5x%6) overlaps \"%7\" (%8,%9 %10x%11)")
                                        .arg(summary.op).arg(labels[i].second).arg(a.x()).arg(a.y()).arg(a.width()).arg(a.height())
                                        .arg(labels[j].second).arg(b.x()).arg(b.y()).arg(b.width()).arg(b.height())));
            }
        }
    }
}

void TestCheckReportView::unansweredAttemptLastsUntilItsTimeout()
{
    // A request that got no answer, and the check's retry sent before its --timeout ran out: t1 is
    // drawn from its send to where the check gave up (the timeout's triangle), not as a 1 ms pill
    // cut at t2's send; t2 keeps its own bar, to its answer.
    // Planted: attemptEnd() without the client's give-up (its bar cut at t2) fails the first.
    CheckReport report = checksample::report();
    CheckExchange unanswered;
    unanswered.key = "k-9";
    unanswered.sentUs = 10;
    unanswered.error = QStringLiteral("Operation canceled");
    const qint64 start = 2000000;
    report.rounds[0] = {checksample::round(Probe::Replay, 1, start,
                                           {unanswered, checksample::answered(1, "k-9", 201, "id:9", 600000, 700000)})};
    const CheckTrace trace = CheckTrace::of(report);
    const auto bar = [&](int op, const QString &label) {
        const QList<EventPlan> plans = timeline::planOperation(trace.result.trace, op, {});
        for (const EventPlan &plan : plans) {
            if (plan.form == EventPlan::Form::Bar && plan.lane == Lane::Transport && plan.label == label)
                return plan;
        }
        return EventPlan();
    };
    const EventPlan t1 = bar(1, QStringLiteral("t1"));
    QCOMPARE(t1.t, start + 10);
    QCOMPARE(t1.to, start + 10 + qint64(report.timeoutMs) * 1000);
    const EventPlan t2 = bar(1, QStringLiteral("t2"));
    QCOMPARE(t2.t, start + 600000);
    QCOMPARE(t2.to, start + 700000);
    // In flight together, each in a half of the lane: neither bar hides the other.
    QCOMPARE_NE(t1.slot, 0);
    QCOMPARE(t2.slot, -t1.slot);
}

void TestCheckReportView::inFlightAttemptsLastUntilTheirAnswers()
{
    // The in-flight probe (operation 3): two requests with one key sent at 0 and 5 us, answered at
    // 400 and 420 us. t1 was a pill cut at t2's send, under t2's bar: each is drawn as what it was,
    // a request waiting for its answer, t1 in the lane's upper half and t2 in its lower half, each
    // with its own messages, server work and record.
    // Planted: the answered t1 cut at t2's send (the old attemptEnd) fails on its end; the two bars in
    // one row (no separate slots) fails on the slots.
    const CheckTrace trace = CheckTrace::of(checksample::report());
    const qint64 inFlight = 3000;
    const QList<EventPlan> plans = timeline::planOperation(trace.result.trace, 3, {});
    EventPlan t1, t2;
    for (const EventPlan &plan : plans) {
        if (plan.form == EventPlan::Form::Bar && plan.lane == Lane::Transport)
            (plan.label == QStringLiteral("t1") ? t1 : t2) = plan;
    }
    QCOMPARE(t1.label, QStringLiteral("t1"));
    QCOMPARE(t2.label, QStringLiteral("t2"));
    QCOMPARE(t1.t, inFlight);
    QCOMPARE(t1.to, inFlight + 400);
    QCOMPARE(t2.t, inFlight + 5);
    QCOMPARE(t2.to, inFlight + 420);
    QCOMPARE(t1.slot, -1);
    QCOMPARE(t2.slot, 1);
    // Every event of a request in its request's half: what it sent, where it arrived, what it created,
    // what it got back.
    QSet<int> slotsOfRecords;
    for (const EventPlan &plan : plans) {
        const TraceEvent &e = trace.result.trace.at(plan.traceIndex);
        QVERIFY2(plan.slot != 0, qPrintable(QStringLiteral("%1 at %2 us is in neither half").arg(trace::kindName(e.kind)).arg(e.t)));
        if (e.kind == EventKind::Committed)
            slotsOfRecords.insert(plan.slot);
        if (e.kind == EventKind::ResponseReceived)
            QCOMPARE(plan.slot, e.t == inFlight + 400 ? -1 : 1);
    }
    QCOMPARE(slotsOfRecords, QSet<int>({-1, 1}));
}

QTEST_MAIN(TestCheckReportView)
#include "tst_checkreportview.moc"
