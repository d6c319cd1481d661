// Compare mode's core: the difference summary of two runs and the default toggle.
#include "compare.h"

#include "testsupport.h"
#include "work.h"

#include <QFutureWatcher>

#include <functional>
#include <QSignalSpy>
#include <QTest>

using namespace retrylab;
using retrylab::test::presetScenario;

namespace {

// ghost-request with the complete fix: a key per operation that an atomic server honours.
Scenario ghostFixed()
{
    Scenario s = presetScenario(QStringLiteral("ghost-request"));
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    return s;
}

QStringList changeList(const QList<ScenarioChange> &changes)
{
    QStringList out;
    for (const ScenarioChange &c : changes)
        out << QStringLiteral("%1=%2").arg(c.path, c.to);
    return out;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ghostRequestPair();
    void ghostRequestPairNumbers();
    void rowsFollowMetrics();
    void identicalScenariosGiveZero();
    void anyOneDifferenceIsNotZero();
    void bRunsWithTheSeedOfA();
    void relativeChange_data();
    void relativeChange();
    void formatting();
    void verdict();
    void defaultToggle_data();
    void defaultToggle();
    void defaultToggleWithoutChoice();
    void loadVariants();
    void toggleLabel();
    void backgroundRun();
    void backgroundCancel();
    void curves();
};

void TestCompare::ghostRequestPair()
{
    const Scenario a = presetScenario(QStringLiteral("ghost-request"));
    const Scenario b = ghostFixed();
    const CompareResult r = compare::run(a, b, false);
    QVERIFY(!r.cancelled);
    // Hand-check against single runs of each.
    RunOptions metricsOnly;
    metricsOnly.trace = false;
    const Metrics ma = simulate(a, metricsOnly).metrics;
    const Metrics mb = simulate(b, metricsOnly).metrics;
    QCOMPARE(r.summary.a, ma);
    QCOMPARE(r.summary.b, mb);
    const CompareSummary &s = r.summary;
    QCOMPARE(s.row(QStringLiteral("records"))->a, double(ma.records));
    QCOMPARE(s.row(QStringLiteral("records"))->b, double(mb.records));
    QCOMPARE(s.row(QStringLiteral("duplicates"))->difference(), double(mb.duplicates - ma.duplicates));
    QCOMPARE(s.row(QStringLiteral("orphans"))->difference(), double(mb.orphans - ma.orphans));
    QCOMPARE(s.row(QStringLiteral("httpAttempts"))->difference(), double(mb.httpAttempts - ma.httpAttempts));
    QCOMPARE(s.row(QStringLiteral("clientSucceeded"))->b, double(mb.clientSucceeded));
    QCOMPARE(s.row(QStringLiteral("clientFailed"))->b, double(mb.clientFailed));
    QCOMPARE(s.row(QStringLiteral("latencyP50Ms"))->a, ma.latencyP50Ms);
    QCOMPARE(s.row(QStringLiteral("latencyP99Ms"))->b, mb.latencyP99Ms);
    QCOMPARE(s.row(QStringLiteral("goodputPerS"))->a, ma.goodputPerS);
    QCOMPARE(s.row(QStringLiteral("goodputPerS"))->b, mb.goodputPerS);
    // The lesson: the key and the atomic server remove every duplicate.
    QVERIFY(ma.duplicates > 0);
    QCOMPARE(mb.duplicates, 0);
    QCOMPARE(*s.row(QStringLiteral("duplicates"))->relative(), -1.0);
    QCOMPARE(compare::formatRelative(*s.row(QStringLiteral("duplicates"))), QStringLiteral("\u2212100%"));
}

void TestCompare::ghostRequestPairNumbers()
{
    // The same pair pinned, seed 42 (checked with `retrylab run` on each side).
    const CompareResult r = compare::run(presetScenario(QStringLiteral("ghost-request")), ghostFixed(), false);
    const CompareSummary &s = r.summary;
    const auto pair = [&s](const char *key) {
        const CompareRow *row = s.row(QLatin1String(key));
        return row ? qMakePair(qint64(row->a), qint64(row->b)) : qMakePair(qint64(-1), qint64(-1));
    };
    QCOMPARE(pair("records"), qMakePair(qint64(32), qint64(20)));
    QCOMPARE(pair("duplicates"), qMakePair(qint64(12), qint64(0)));
    QCOMPARE(pair("orphans"), qMakePair(qint64(0), qint64(0)));
    QCOMPARE(pair("httpAttempts"), qMakePair(qint64(32), qint64(32)));
    QCOMPARE(pair("clientSucceeded"), qMakePair(qint64(20), qint64(20)));
    QCOMPARE(pair("clientFailed"), qMakePair(qint64(0), qint64(0)));
}

void TestCompare::rowsFollowMetrics()
{
    Metrics a;
    a.records = 32;
    a.duplicates = 12;
    a.orphans = 1;
    a.httpAttempts = 3000000000ll; // past 2^31: still exact
    a.clientSucceeded = 19;
    a.clientFailed = 1;
    a.latencyP50Ms = 120.5;
    a.latencyP99Ms = 9000;
    a.goodputPerS = 1.25;
    Metrics b;
    b.records = 20;
    b.httpAttempts = 3000000001ll;
    b.clientSucceeded = 20;
    b.latencyP50Ms = 100;
    b.latencyP99Ms = 4000.25;
    b.goodputPerS = 2.5;
    const CompareSummary s = compare::summarize(a, b);
    QStringList keys;
    for (const CompareRow &r : s.rows)
        keys << r.key;
    QCOMPARE(keys, (QStringList{QStringLiteral("records"), QStringLiteral("duplicates"), QStringLiteral("orphans"),
                                QStringLiteral("httpAttempts"), QStringLiteral("clientSucceeded"),
                                QStringLiteral("clientFailed"), QStringLiteral("latencyP50Ms"),
                                QStringLiteral("latencyP99Ms"), QStringLiteral("goodputPerS")}));
    QCOMPARE(s.row(QStringLiteral("records"))->difference(), -12.0);
    QCOMPARE(s.row(QStringLiteral("duplicates"))->difference(), -12.0);
    QCOMPARE(s.row(QStringLiteral("orphans"))->b, 0.0);
    QCOMPARE(s.row(QStringLiteral("httpAttempts"))->difference(), 1.0);
    QCOMPARE(compare::formatValue(*s.row(QStringLiteral("httpAttempts")), s.row(QStringLiteral("httpAttempts"))->a),
             QStringLiteral("3000000000"));
    QCOMPARE(s.row(QStringLiteral("clientSucceeded"))->difference(), 1.0);
    QCOMPARE(s.row(QStringLiteral("clientFailed"))->difference(), -1.0);
    QCOMPARE(s.row(QStringLiteral("latencyP50Ms"))->difference(), -20.5);
    QCOMPARE(s.row(QStringLiteral("latencyP99Ms"))->b, 4000.25);
    QCOMPARE(s.row(QStringLiteral("goodputPerS"))->difference(), 1.25);
    QCOMPARE(*s.row(QStringLiteral("goodputPerS"))->relative(), 1.0);
    QVERIFY(s.row(QStringLiteral("records"))->isInteger());
    QVERIFY(!s.row(QStringLiteral("latencyP50Ms"))->isInteger());
    QVERIFY(!s.isZero());
    QCOMPARE(s.row(QStringLiteral("nothing")), nullptr);
}

void TestCompare::identicalScenariosGiveZero()
{
    const QStringList presets = scenario::presetNames();
    for (const QString &name : presets) {
        const Scenario s = presetScenario(name);
        if (work::estimate(s).attempts > 2000000)
            continue; // the big ones say nothing more and take long
        const CompareResult r = compare::run(s, s, false);
        QVERIFY2(r.summary.isZero(), qPrintable(name));
        for (const CompareRow &row : r.summary.rows) {
            QCOMPARE(row.difference(), 0.0);
            QCOMPARE(compare::formatDifference(row), row.isInteger() ? QStringLiteral("0") : compare::formatValue(row, 0));
            QCOMPARE(compare::formatRelative(row), QStringLiteral("0%"));
        }
    }
}

void TestCompare::anyOneDifferenceIsNotZero()
{
    // Each metric of the summary alone makes the runs differ.
    const QList<std::function<void(Metrics &)>> changes{
            [](Metrics &m) { m.records = 1; },         [](Metrics &m) { m.duplicates = 1; },
            [](Metrics &m) { m.orphans = 1; },         [](Metrics &m) { m.httpAttempts = 1; },
            [](Metrics &m) { m.clientSucceeded = 1; }, [](Metrics &m) { m.clientFailed = 1; },
            [](Metrics &m) { m.latencyP50Ms = 0.1; },  [](Metrics &m) { m.latencyP99Ms = 0.1; },
            [](Metrics &m) { m.goodputPerS = 0.01; },
    };
    QVERIFY(compare::summarize(Metrics{}, Metrics{}).isZero());
    for (int i = 0; i < changes.size(); ++i) {
        Metrics b;
        changes.at(i)(b);
        const CompareSummary s = compare::summarize(Metrics{}, b);
        QVERIFY2(!s.isZero(), qPrintable(s.rows.at(i).key));
        int differing = 0;
        for (const CompareRow &r : s.rows)
            differing += r.a != r.b ? 1 : 0;
        QCOMPARE(differing, 1);
        QVERIFY(s.rows.at(i).a != s.rows.at(i).b);
        QCOMPARE(compare::formatRelative(s.rows.at(i)), QStringLiteral("\u2014")); // from zero: no ratio
    }
}

void TestCompare::bRunsWithTheSeedOfA()
{
    const Scenario a = presetScenario(QStringLiteral("ghost-request"));
    Scenario b = a;
    b.seed = 7;
    QCOMPARE(compare::withSeedOf(a, b).seed, a.seed);
    const CompareResult r = compare::run(a, b, false);
    QVERIFY(r.summary.isZero());
}

void TestCompare::relativeChange_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<bool>("defined");
    QTest::addColumn<double>("relative");
    QTest::addColumn<QString>("text");
    QTest::addRow("zero-base-zero") << 0.0 << 0.0 << true << 0.0 << QStringLiteral("0%");
    QTest::addRow("zero-base-positive") << 0.0 << 5.0 << false << 0.0 << QStringLiteral("\u2014");
    QTest::addRow("zero-base-negative") << 0.0 << -5.0 << false << 0.0 << QStringLiteral("\u2014");
    QTest::addRow("growth") << 20.0 << 32.0 << true << 0.6 << QStringLiteral("+60%");
    QTest::addRow("to-zero") << 12.0 << 0.0 << true << -1.0 << QStringLiteral("\u2212100%");
    QTest::addRow("negative-base") << -4.0 << -2.0 << true << 0.5 << QStringLiteral("+50%");
    QTest::addRow("small-one-decimal") << 13504.9 << 13442.5 << true << (13442.5 - 13504.9) / 13504.9
                                       << QStringLiteral("\u22120.5%");
    QTest::addRow("below-ten-one-decimal") << 100.0 << 109.94 << true << (109.94 - 100.0) / 100.0 << QStringLiteral("+9.9%");
    QTest::addRow("ten-whole") << 100.0 << 110.0 << true << 0.1 << QStringLiteral("+10%");
    QTest::addRow("tiny-rounds-to-zero") << 10000.0 << 10001.0 << true << 0.0001 << QStringLiteral("0%");
}

void TestCompare::relativeChange()
{
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(bool, defined);
    QFETCH(double, relative);
    QFETCH(QString, text);
    CompareRow row;
    row.a = a;
    row.b = b;
    QCOMPARE(row.relative().has_value(), defined);
    if (defined)
        QCOMPARE(*row.relative(), relative);
    QCOMPARE(compare::formatRelative(row), text);
}

void TestCompare::formatting()
{
    CompareRow count{QStringLiteral("x"), QString(), CompareRow::Unit::Count, 0, 32, 20};
    QCOMPARE(compare::formatValue(count, 32), QStringLiteral("32"));
    QCOMPARE(compare::formatDifference(count), QStringLiteral("\u221212"));
    count.b = 40;
    QCOMPARE(compare::formatDifference(count), QStringLiteral("+8"));
    CompareRow ms{QStringLiteral("y"), QString(), CompareRow::Unit::Milliseconds, -1, 120, 116.5};
    QCOMPARE(compare::formatValue(ms, 116.5), QStringLiteral("116.5"));
    QCOMPARE(compare::formatDifference(ms), QStringLiteral("\u22123.5"));
    ms.b = 120.01; // below the shown precision: no sign on a zero
    QCOMPARE(compare::formatDifference(ms), QStringLiteral("0.0"));
    CompareRow rate{QStringLiteral("z"), QString(), CompareRow::Unit::PerSecond, 1, 1.5, 1.75};
    QCOMPARE(compare::formatValue(rate, 1.75), QStringLiteral("1.75"));
    QCOMPARE(compare::formatDifference(rate), QStringLiteral("+0.25"));
}

void TestCompare::verdict()
{
    CompareRow lowerBetter{QStringLiteral("duplicates"), QString(), CompareRow::Unit::Count, -1, 12, 0};
    QCOMPARE(lowerBetter.verdict(), 1);
    lowerBetter.b = 13;
    QCOMPARE(lowerBetter.verdict(), -1);
    lowerBetter.b = 12;
    QCOMPARE(lowerBetter.verdict(), 0);
    CompareRow higherBetter{QStringLiteral("goodputPerS"), QString(), CompareRow::Unit::PerSecond, 1, 1, 2};
    QCOMPARE(higherBetter.verdict(), 1);
    CompareRow neither{QStringLiteral("records"), QString(), CompareRow::Unit::Count, 0, 32, 20};
    QCOMPARE(neither.verdict(), 0);
}

void TestCompare::defaultToggle_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("changes");
    QTest::addColumn<QString>("label");
    const QString keyPerOp = QStringLiteral("client.keyPlacement=perOperation");
    const QString atomic = QStringLiteral("server.idempotency.mode=atomic");
    // No key and a server that ignores keys: the complete fix.
    QTest::addRow("ghost-request") << QStringLiteral("ghost-request") << QStringList{keyPerOp, atomic}
                                   << QStringLiteral("key per op + atomic server");
    // Lessons about load: the fixes of the AWS study (full jitter) and of the metastable lesson (a
    // global budget), not the key (on an OCC row a key per operation replays the first 409 forever).
    const QStringList budget{QStringLiteral("client.retryBudget.enabled=true"),
                             QStringLiteral("client.retryBudget.scope=global")};
    QTest::addRow("retry-storm") << QStringLiteral("retry-storm") << budget << QStringLiteral("global retry budget");
    // metastable keeps a global budget switched off: switching it on is the one change.
    QTest::addRow("metastable") << QStringLiteral("metastable") << QStringList{budget.first()}
                                << QStringLiteral("global retry budget");
    QTest::addRow("jitter-contention") << QStringLiteral("jitter-contention")
                                       << QStringList{QStringLiteral("client.business.backoff.jitter=full")}
                                       << QStringLiteral("full jitter");
    // A new key per retry: the stable key fixes it.
    QTest::addRow("rotating-key") << QStringLiteral("rotating-key") << QStringList{keyPerOp}
                                  << QStringLiteral("key per op");
    // Already fixed: show what the key buys by taking it away.
    QTest::addRow("stable-key") << QStringLiteral("stable-key")
                                << QStringList{QStringLiteral("client.keyPlacement=none")}
                                << QStringLiteral("no key");
    QTest::addRow("layered-fix") << QStringLiteral("layered-fix")
                                 << QStringList{QStringLiteral("client.keyPlacement=none")}
                                 << QStringLiteral("no key, server requires one (400)");
    QTest::addRow("server-token") << QStringLiteral("server-token")
                                  << QStringList{QStringLiteral("client.keyPlacement=none")}
                                  << QStringLiteral("no key, server requires one (400)");
}

void TestCompare::defaultToggle()
{
    QFETCH(QString, preset);
    QFETCH(QStringList, changes);
    QFETCH(QString, label);
    const Scenario s = presetScenario(preset);
    const WhatIfVariant v = compare::defaultVariant(s);
    QCOMPARE(changeList(v.changes), changes);
    QCOMPARE(v.label, label);
    // It is one of the variants the window offers, not a copy of their logic.
    bool found = false;
    for (const WhatIfVariant &w : compare::variants(s))
        found = found || (w.label == v.label && w.changes == v.changes);
    QVERIFY(found);
    QCOMPARE(whatif::changes(s, v.scenario), v.changes);
}

// The load toggles come after the what-if variants, only for lessons about load, only when they change something.
void TestCompare::loadVariants()
{
    const Scenario contention = presetScenario(QStringLiteral("jitter-contention"));
    const QList<WhatIfVariant> all = compare::variants(contention);
    const QList<WhatIfVariant> whatIf = whatif::variants(contention);
    QCOMPARE(all.size(), whatIf.size() + 2);
    QCOMPARE(all.at(whatIf.size()).label, QStringLiteral("full jitter"));
    QCOMPARE(all.at(whatIf.size() + 1).label, QStringLiteral("global retry budget"));
    // With full jitter already, only the budget is offered; with neither lesson about load, none.
    Scenario jittered = contention;
    jittered.client.business.backoff.jitter = Jitter::Full;
    QCOMPARE(compare::variants(jittered).size(), whatif::variants(jittered).size() + 1);
    const Scenario ghost = presetScenario(QStringLiteral("ghost-request"));
    QCOMPARE(compare::variants(ghost).size(), whatif::variants(ghost).size());
    // Full jitter on the AWS setup: fewer writes (609 -> 342, the preset's own lesson).
    RunOptions metricsOnly;
    metricsOnly.trace = false;
    const RunResult a = simulate(contention, metricsOnly);
    const RunResult b = simulate(compare::defaultVariant(contention).scenario, metricsOnly);
    QCOMPARE(a.metrics.httpAttempts, qint64(609));
    QCOMPARE(b.metrics.httpAttempts, qint64(342));
}

void TestCompare::defaultToggleWithoutChoice()
{
    // Key per op, atomic server, no retry layer: nothing to toggle but the key placement.
    Scenario s = test::quietScenario();
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    const WhatIfVariant v = compare::defaultVariant(s);
    QCOMPARE(changeList(v.changes), QStringList{QStringLiteral("client.keyPlacement=none")});
}

void TestCompare::toggleLabel()
{
    const Scenario a = presetScenario(QStringLiteral("ghost-request"));
    const WhatIfVariant v = compare::defaultVariant(a);
    QCOMPARE(compare::toggleLabel(v.changes),
             QStringLiteral("client.keyPlacement: none \u2192 perOperation; server.idempotency.mode: off \u2192 atomic"));
    QCOMPARE(compare::toggleLabel({}), QString());
}

void TestCompare::backgroundRun()
{
    const Scenario a = presetScenario(QStringLiteral("ghost-request"));
    const Scenario b = ghostFixed();
    QFutureWatcher<CompareResult> watcher;
    QSignalSpy finished(&watcher, &QFutureWatcher<CompareResult>::finished);
    QSignalSpy progress(&watcher, &QFutureWatcher<CompareResult>::progressValueChanged);
    watcher.setFuture(compare::start(a, b));
    QVERIFY(finished.wait(60000));
    const CompareResult r = watcher.result();
    QVERIFY(!r.cancelled);
    QVERIFY(!r.a.trace.isEmpty());
    QVERIFY(!r.b.trace.isEmpty());
    QCOMPARE(r.summary.a, simulate(a).metrics);
    QCOMPARE(r.summary.b, simulate(b).metrics);
    QCOMPARE(watcher.progressMaximum(), 2);
    QCOMPARE(watcher.progressValue(), 2);
}

void TestCompare::backgroundCancel()
{
    const Scenario a = presetScenario(QStringLiteral("ghost-request"));
    auto flag = std::make_shared<std::atomic_bool>(true); // cancelled before it starts
    QFutureWatcher<CompareResult> watcher;
    QSignalSpy finished(&watcher, &QFutureWatcher<CompareResult>::finished);
    watcher.setFuture(compare::start(a, ghostFixed(), true, flag));
    QVERIFY(finished.wait(60000));
    QCOMPARE(watcher.future().resultCount(), 1);
    QVERIFY(watcher.result().cancelled);
    QVERIFY(watcher.result().summary.rows.isEmpty());

    std::atomic_bool stop{true};
    QVERIFY(compare::run(a, ghostFixed(), false, &stop).cancelled);
}

void TestCompare::curves()
{
    const RunResult r = simulate(presetScenario(QStringLiteral("ghost-request")));
    const compare::Curves c = compare::curves(r);
    QCOMPARE(c.records.constLast().y(), double(r.metrics.records));
    QCOMPARE(c.duplicates.constLast().y(), double(r.metrics.duplicates));
    QCOMPARE(c.records.constFirst(), QPointF(0, 0));
    QVERIFY(c.end >= r.metrics.durationS);
    QCOMPARE(c.records.constLast().x(), c.end);
    for (qsizetype i = 1; i < c.records.size(); ++i) {
        QVERIFY(c.records.at(i).x() >= c.records.at(i - 1).x());
        QVERIFY(c.records.at(i).y() >= c.records.at(i - 1).y());
    }
    // Without a trace there are no records to draw: a flat line at zero.
    RunOptions metricsOnly;
    metricsOnly.trace = false;
    const compare::Curves flat = compare::curves(simulate(presetScenario(QStringLiteral("ghost-request")), metricsOnly));
    QCOMPARE(flat.records.constLast().y(), 0.0);
}

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
