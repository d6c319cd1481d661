// Many clients: the AWS backoff-and-jitter study reproduced (OCC server, closed-loop clients,
// normal latency), and the engine's many-client machinery (arrivals, phases, windows, budget
// scope, failure-rate breaker, load-dependent service).
#include "faults.h"
#include "simulator.h"
#include "sweep.h"
#include "trace.h"
#include "testsupport.h"

#include <QTest>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <cmath>
#include <cstring>

using namespace retrylab;
using retrylab::test::quietScenario;
using retrylab::test::scriptEntry;

namespace {

// The AWS simulator's setup (aws-samples/aws-arch-backoff-simulator, src/backoff_simulator.py):
// one row, every client at t = 0, each message |N(10, 2)| ms, base 5 ms, cap 2 s, retry until
// the write succeeds.
enum class Strategy { None, Exponential, Full, Equal, Decorrelated };

// The preset jitter-contention is the AWS simulator's setup; each strategy is one --set away,
// exactly as the issue and the README state them.
Scenario awsStudy(int clients, Strategy strategy, quint64 seed)
{
    static const Scenario preset = retrylab::test::presetScenario(QStringLiteral("jitter-contention"));
    QStringList sets{QStringLiteral("workload.clients=%1").arg(clients), QStringLiteral("seed=%1").arg(seed)};
    switch (strategy) {
    case Strategy::None:
        sets << QStringLiteral("client.business.backoff.kind=constant") << QStringLiteral("client.business.backoff.initialMs=0")
             << QStringLiteral("client.business.backoff.jitter=none");
        break;
    case Strategy::Exponential:
        sets << QStringLiteral("client.business.backoff.jitter=none");
        break;
    case Strategy::Full:
        sets << QStringLiteral("client.business.backoff.jitter=full");
        break;
    case Strategy::Equal:
        sets << QStringLiteral("client.business.backoff.jitter=equal");
        break;
    case Strategy::Decorrelated:
        sets << QStringLiteral("client.business.backoff.jitter=decorrelated");
        break;
    }
    const ScenarioParse parsed = scenario::withSets(preset, sets);
    if (!parsed.ok())
        qFatal("%s", qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    return parsed.scenario;
}

struct Mean
{
    double calls = 0;
    double completionS = 0;
    int failed = 0;
};

Mean meanOver(int clients, Strategy strategy, int seeds)
{
    // Kept for the ranking test, which compares the strategies at each client count.
    static QHash<QPair<int, int>, Mean> done;
    const QPair<int, int> key{clients, int(strategy) * 100000 + seeds};
    if (done.contains(key))
        return done.value(key);
    QList<quint64> list;
    for (int i = 0; i < seeds; ++i)
        list << quint64(1000 + i);
    RunOptions quiet;
    quiet.trace = false;
    const QList<Metrics> runs = QtConcurrent::blockingMapped(list, [&](quint64 seed) {
        return simulate(awsStudy(clients, strategy, seed), quiet).metrics;
    });
    Mean m;
    for (const Metrics &r : runs) {
        m.calls += double(r.writeAttempts);
        m.completionS += r.completionS;
        m.failed += r.clientFailed;
    }
    m.calls /= seeds;
    m.completionS /= seeds;
    done.insert(key, m);
    return m;
}

// The preset: a server near capacity (4 slots x 50 ms = 80 requests/s, 60 offered), clients with
// urllib3 retrying POST and a business loop, a 1 s timeout, and a 2 s trigger at 10 s: every
// request sent in it is delayed 1.5 s. Arrivals last 60 s.
Scenario metastable(bool budget)
{
    Scenario s = retrylab::test::presetScenario(QStringLiteral("metastable"));
    s.client.retryBudget.enabled = budget;
    return s;
}

// Operations that ended successfully in [fromS, toS), per second.
double goodput(const RunResult &r, double fromS, double toS)
{
    int n = 0;
    for (const OpSummary &o : r.ops)
        n += o.succeeded && o.end >= qint64(fromS * 1e6) && o.end < qint64(toS * 1e6);
    return n / (toS - fromS);
}

} // namespace

Q_DECLARE_METATYPE(Strategy)

class TestContention : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void awsStudyCalls_data();
    void awsStudyCalls();
    void awsStudyRanking();
    void awsFigureSameOnOneAndTwoThreads();
    void metastableStaysDown();
    void budgetRestoresMetastable();
    void closedLoopClients();
    void closedLoopFollowsTheServer();
    void poissonArrivals();
    void phases();
    void windowsOpenAndClose();
    void serverWindowsUseArrivalTime();
    void latencyPerInFlight();
    void globalBudget_data();
    void globalBudget();
    void failureRateBreaker_data();
    void failureRateBreaker();
    void retriesOnlyBreaker();
    void normalLatency();
    void occConflict();
    void occLostResponseWritesTwice();
    void noWaitRetryKeepsItsTurn();
};

void TestContention::metastableStaysDown()
{
    // Stable before the trigger, collapsed after it although the trigger lasted 2 s: every request
    // waits in the queue past the client's timeout, so the server works for nobody (late commits)
    // while the retries keep the queue full.
    const RunResult r = simulate(metastable(false));
    QCOMPARE(r.scenario.windows.size(), 1);
    QCOMPARE(r.scenario.windows.first().toS, 12.0);
    QVERIFY(goodput(r, 0, 10) > 55);
    QCOMPARE(goodput(r, 20, 60), 0.0);
    QVERIFY(r.metrics.lateCommits > 2500);
    QVERIFY(r.metrics.amplification > 8);
    // Busy all the while: the server commits work for nobody until the arrivals stop.
    QVERIFY(r.metrics.lastCommitS > 60);
    // Without the trigger, the same load is served all along.
    Scenario calm = metastable(false);
    calm.windows.clear();
    const RunResult c = simulate(calm);
    QVERIFY(goodput(c, 20, 60) > 55);
    QCOMPARE(c.metrics.clientFailed, 0);
}

void TestContention::budgetRestoresMetastable()
{
    // A global retry budget: with nothing succeeding, no retries are paid for, the offered load
    // falls back below capacity, the queue drains and goodput returns.
    const RunResult r = simulate(metastable(true));
    QCOMPARE(r.scenario.client.retryBudget.scope, BudgetScope::Global);
    QVERIFY(r.metrics.budgetRefusals > 0);
    QVERIFY(goodput(r, 20, 60) > 55);
    QVERIFY(r.metrics.amplification < 1.2);
    // The same budget per client (3 clients, 10 tokens each) also restores it.
    Scenario perClient = metastable(true);
    perClient.client.retryBudget.scope = BudgetScope::PerClient;
    QVERIFY(goodput(simulate(perClient), 20, 60) > 55);
}

// The AWS figure's sweep spreads its runs over every core (QtConcurrent, results folded in job
// order): on two threads it prints, bit for bit, what one thread prints. A smaller figure (3 client
// counts x the 5 strategies x 8 seeds) keeps the test short; the shape is bench_sweep's.
void TestContention::awsFigureSameOnOneAndTwoThreads()
{
    const Scenario base = retrylab::test::presetScenario(QStringLiteral("jitter-contention"));
    SweepSpec spec = sweep::awsFigureSpec(8);
    spec.to = 50;
    spec.steps = 3;
    QVERIFY(sweep::validate(base, spec).isEmpty());
    QThreadPool *pool = QThreadPool::globalInstance();
    const int threads = pool->maxThreadCount();
    pool->setMaxThreadCount(1);
    const QList<SweepPoint> serial = sweep::run(base, spec);
    pool->setMaxThreadCount(2);
    const QList<SweepPoint> parallel = sweep::run(base, spec);
    pool->setMaxThreadCount(threads);
    QCOMPARE(parallel.size(), 15);
    QCOMPARE(parallel.size(), serial.size());
    for (int i = 0; i < serial.size(); ++i) {
        QCOMPARE(parallel[i].label, serial[i].label);
        QCOMPARE(parallel[i].label2, serial[i].label2);
        QCOMPARE(parallel[i].stats.size(), serial[i].stats.size());
        for (int k = 0; k < serial[i].stats.size(); ++k) {
            const SweepStat &a = parallel[i].stats[k].second;
            const SweepStat &b = serial[i].stats[k].second;
            // Bit for bit: the same sums in the same order, not merely close.
            QVERIFY2(std::memcmp(&a, &b, sizeof(SweepStat)) == 0,
                     qPrintable(QStringLiteral("point %1, %2: %3 against %4").arg(i).arg(serial[i].stats[k].first)
                                    .arg(a.mean, 0, 'g', 17).arg(b.mean, 0, 'g', 17)));
        }
    }
}

void TestContention::awsStudyRanking()
{
    // The AWS simulator's order at 50, 100 and 150 clients, most writes first: no backoff,
    // exponential, decorrelated, equal jitter, full jitter.
    const QList<Strategy> order{Strategy::None, Strategy::Exponential, Strategy::Decorrelated, Strategy::Equal,
                                Strategy::Full};
    for (const int clients : {50, 100, 150}) {
        QList<Strategy> ranked = order;
        std::stable_sort(ranked.begin(), ranked.end(), [clients](Strategy a, Strategy b) {
            return meanOver(clients, a, 100).calls > meanOver(clients, b, 100).calls;
        });
        QCOMPARE(ranked, order);
    }
}

void TestContention::awsStudyCalls_data()
{
    QTest::addColumn<int>("clients");
    QTest::addColumn<Strategy>("strategy");
    QTest::addColumn<double>("published");
    // Mean write calls of the AWS simulator's own code, 100 runs each (measured with it).
    const struct
    {
        const char *name;
        Strategy strategy;
        double calls[3];
    } rows[] = {
        {"none", Strategy::None, {690, 2421, 5140}},
        {"exponential", Strategy::Exponential, {623, 1856, 3550}},
        {"equal", Strategy::Equal, {348, 812, 1325}},
        {"full", Strategy::Full, {333, 796, 1318}},
        {"decorrelated", Strategy::Decorrelated, {375, 1001, 1760}},
    };
    const int clients[] = {50, 100, 150};
    for (const auto &row : rows)
        for (int i = 0; i < 3; ++i)
            QTest::addRow("%s-%d", row.name, clients[i]) << clients[i] << row.strategy << row.calls[i];
}

void TestContention::awsStudyCalls()
{
    QFETCH(int, clients);
    QFETCH(Strategy, strategy);
    QFETCH(double, published);
    const Mean m = meanOver(clients, strategy, 100);
    qInfo("%d clients: %.0f calls (AWS %.0f), completion %.2f s", clients, m.calls, published, m.completionS);
    QCOMPARE(m.failed, 0);
    QVERIFY2(std::fabs(m.calls - published) <= 0.10 * published,
             qPrintable(QStringLiteral("%1 calls, the AWS simulator %2").arg(m.calls).arg(published)));
}


// Start times of the operations, in ms, in op order.
static QList<qint64> startsMs(const RunResult &r)
{
    QList<qint64> out;
    for (const OpSummary &o : r.ops)
        out << o.start / 1000;
    return out;
}

void TestContention::closedLoopClients()
{
    // 2 clients x 3 operations, 100 ms of thought between them; an operation takes 20 + 50 + 20 ms.
    Scenario s = quietScenario();
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = 2;
    s.workload.opsPerClient = 3;
    s.workload.thinkTimeMs = 100;
    RunResult r = simulate(s);
    QCOMPARE(r.metrics.logicalOperations, 6);
    QCOMPARE(startsMs(r), (QList<qint64>{0, 190, 380, 0, 190, 380}));
    QCOMPARE(r.metrics.completionS, 0.47);
    // Spread: client 1 starts at 1 x 1000 / 2 ms.
    s.workload.startTogether = false;
    r = simulate(s);
    QCOMPARE(startsMs(r), (QList<qint64>{0, 190, 380, 500, 690, 880}));
    QCOMPARE(r.metrics.completionS, 0.97);
    // No thinking: the next operation starts at the instant the previous one ends.
    s.workload.thinkTimeMs = 0;
    s.workload.startTogether = true;
    QCOMPARE(startsMs(simulate(s)), (QList<qint64>{0, 90, 180, 0, 90, 180}));
}

void TestContention::closedLoopFollowsTheServer()
{
    // A slower server slows a closed loop's arrivals; an open loop's stay on schedule.
    Scenario s = quietScenario();
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = 1;
    s.workload.opsPerClient = 3;
    s.server.processingMs = {500, 0};
    QCOMPARE(startsMs(simulate(s)), (QList<qint64>{0, 540, 1080}));
    s.workload.mode = WorkloadMode::Open;
    s.workload.orders = 3;
    s.workload.interArrivalMs = 100;
    QCOMPARE(startsMs(simulate(s)), (QList<qint64>{0, 100, 200}));
}

void TestContention::poissonArrivals()
{
    Scenario s = quietScenario();
    s.workload.orders = 4000;
    s.workload.interArrivalMs = 100;
    s.workload.clients = 2; // 50 ms apart on average
    s.workload.arrivals = Arrivals::Poisson;
    const RunResult r = simulate(s);
    const QList<qint64> starts = startsMs(r);
    QCOMPARE(starts.first(), 0);
    double sum = 0, sq = 0;
    for (int i = 1; i < starts.size(); ++i) {
        const double gap = double(r.ops[i].start - r.ops[i - 1].start) / 1000;
        QVERIFY(gap >= 0);
        sum += gap;
        sq += gap * gap;
    }
    const int n = starts.size() - 1;
    const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
    QVERIFY2(std::fabs(mean - 50) < 3, qPrintable(QString::number(mean)));
    QVERIFY2(std::fabs(sd / mean - 1) < 0.08, qPrintable(QString::number(sd / mean))); // exponential gaps
    QCOMPARE(startsMs(simulate(s)), starts); // same seed, same arrivals
    s.seed++;
    QVERIFY(startsMs(simulate(s)) != starts);
    s.workload.arrivals = Arrivals::Fixed;
    QCOMPARE(simulate(s).ops.at(3).start, 150000);
}

void TestContention::phases()
{
    Scenario s = quietScenario();
    s.workload.orders = 1000;
    s.workload.phases = {LoadPhase{20, 30, 20}, LoadPhase{0, 10, 5}}; // out of order on purpose
    RunResult r = simulate(s);
    QCOMPARE(r.metrics.logicalOperations, 250);
    int first = 0, gap = 0, second = 0;
    for (const OpSummary &o : r.ops) {
        first += o.start < 10000000;
        gap += o.start >= 10000000 && o.start < 20000000;
        second += o.start >= 20000000;
    }
    QCOMPARE(first, 50);
    QCOMPARE(gap, 0);
    QCOMPARE(second, 200);
    QCOMPARE(r.ops.at(1).start, 200000);
    QCOMPARE(r.ops.at(50).start, 20000000);
    // The phases define the arrivals: workload.orders counts only without them (issue 20 item 10;
    // tst_workload pins it).
    s.workload.orders = 60;
    QCOMPARE(simulate(s).metrics.logicalOperations, 250);
    // toS is excluded: 10 per second from 0 to 1 s is 0.0 ... 0.9 s.
    s.workload.orders = 1000;
    s.workload.phases = {LoadPhase{0, 1, 10}};
    r = simulate(s);
    QCOMPARE(r.metrics.logicalOperations, 10);
    QCOMPARE(r.ops.last().start, 900000);
    // Poisson phases: about rate x length arrivals.
    s.workload.phases = {LoadPhase{0, 100, 10}};
    s.workload.arrivals = Arrivals::Poisson;
    const int n = simulate(s).metrics.logicalOperations;
    QVERIFY2(n > 900 && n < 1100, qPrintable(QString::number(n)));
}

void TestContention::windowsOpenAndClose()
{
    // Orders at 0, 1, 2, 3 and 4 s; connections fail from 1 s up to (not including) 3 s.
    Scenario s = quietScenario();
    s.workload.orders = 5;
    s.windows = {FaultWindow{1, 3, FaultKind::ConnectFailure, 1.0}};
    RunResult r = simulate(s);
    QList<bool> ok;
    for (const OpSummary &o : r.ops)
        ok << o.succeeded;
    QCOMPARE(ok, (QList<bool>{true, false, false, true, true}));
    // A window replaces the scenario's probability for its fault while it lasts.
    s.windows = {FaultWindow{0, 1, FaultKind::ResponseLost, 0.0}};
    s.network.responseLoss = 1.0;
    r = simulate(s);
    ok.clear();
    for (const OpSummary &o : r.ops)
        ok << o.succeeded;
    QCOMPARE(ok, (QList<bool>{true, false, false, false, false}));
    QCOMPARE(r.metrics.records, 5); // committed all the same
    // Windows of another fault change nothing.
    s.windows = {FaultWindow{0, 100, FaultKind::RequestLost, 0.0}};
    QCOMPARE(simulate(s).metrics.clientSucceeded, 0);
}

void TestContention::serverWindowsUseArrivalTime()
{
    // The server's dice are thrown when the request arrives (20 ms after it was sent).
    Scenario s = quietScenario();
    s.workload.orders = 3;
    s.windows = {FaultWindow{1.02, 2.02, FaultKind::Server5xxBeforeCommit, 1.0}};
    const RunResult r = simulate(s);
    QList<bool> ok;
    for (const OpSummary &o : r.ops)
        ok << o.succeeded;
    QCOMPARE(ok, (QList<bool>{true, false, true}));
    QCOMPARE(r.metrics.serverErrors, 1);
}

void TestContention::latencyPerInFlight()
{
    // Three orders at t = 0: each one that starts processing is slowed by the ones already processing.
    Scenario s = quietScenario();
    s.workload.orders = 3;
    s.workload.interArrivalMs = 0;
    s.server.latencyPerInFlightMs = 10;
    RunResult r = simulate(s);
    QList<qint64> ends;
    for (const OpSummary &o : r.ops)
        ends << o.end / 1000;
    QCOMPARE(ends, (QList<qint64>{90, 100, 110}));
    s.server.latencyPerInFlightMs = 0;
    r = simulate(s);
    QCOMPARE(r.ops.at(2).end, 90000);
}

void TestContention::globalBudget_data()
{
    QTest::addColumn<int>("scope");
    QTest::addColumn<double>("initial");
    QTest::addColumn<qint64>("attempts");
    QTest::addColumn<qint64>("refusals");
    // Two clients, one order each, every response lost, up to 3 business attempts each.
    QTest::newRow("global, 1 token") << int(BudgetScope::Global) << 1.0 << qint64(3) << qint64(2);
    QTest::newRow("per client, 1 token each") << int(BudgetScope::PerClient) << 1.0 << qint64(4) << qint64(2);
    QTest::newRow("global, 0 tokens") << int(BudgetScope::Global) << 0.0 << qint64(2) << qint64(2);
    QTest::newRow("global, 1.99 tokens") << int(BudgetScope::Global) << 1.99 << qint64(3) << qint64(2);
    QTest::newRow("global, 2 tokens") << int(BudgetScope::Global) << 2.0 << qint64(4) << qint64(2);
    QTest::newRow("global, full (null)") << int(BudgetScope::Global) << -1.0 << qint64(6) << qint64(0);
    QTest::newRow("global, above the cap") << int(BudgetScope::Global) << 50.0 << qint64(6) << qint64(0);
}

void TestContention::globalBudget()
{
    QFETCH(int, scope);
    QFETCH(double, initial);
    QFETCH(qint64, attempts);
    QFETCH(qint64, refusals);
    Scenario s = quietScenario();
    s.workload.orders = 2;
    s.workload.clients = 2;
    s.workload.interArrivalMs = 0;
    s.network.responseLoss = 1.0;
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.client.retryBudget.enabled = true;
    s.client.retryBudget.scope = BudgetScope(scope);
    s.client.retryBudget.initialTokens = initial;
    s.client.retryBudget.maxTokens = 10;
    const Metrics m = simulate(s).metrics;
    QCOMPARE(m.httpAttempts, attempts);
    QCOMPARE(m.budgetRefusals, refusals);
}

void TestContention::failureRateBreaker_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("percent");
    QTest::addColumn<qint64>("rejections");
    // One client, an order a second, the odd ones answered 503: failures never come two in a row,
    // but half of every window of 4 fails.
    QTest::newRow("consecutive, threshold 2") << int(BreakerMode::Consecutive) << 50 << qint64(0);
    QTest::newRow("failure rate 50%") << int(BreakerMode::FailureRate) << 50 << qint64(5);
    QTest::newRow("failure rate 51%") << int(BreakerMode::FailureRate) << 51 << qint64(0);
}

void TestContention::failureRateBreaker()
{
    QFETCH(int, mode);
    QFETCH(int, percent);
    QFETCH(qint64, rejections);
    Scenario s = quietScenario();
    s.workload.orders = 10;
    for (int op = 1; op <= 9; op += 2)
        s.network.script << scriptEntry(op, "*/*/*", FaultKind::Server5xxBeforeCommit);
    s.client.circuitBreaker.enabled = true;
    s.client.circuitBreaker.mode = BreakerMode(mode);
    s.client.circuitBreaker.failureThreshold = 2;
    s.client.circuitBreaker.window = 4;
    s.client.circuitBreaker.failureRatePercent = percent;
    s.client.circuitBreaker.openMs = 5000;
    // 50%: the 4th outcome (3.09 s) opens it until 8.09 s: orders 5 to 9 (4 to 8 s) are refused,
    // order 10 (9 s) goes through.
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.circuitRejections, rejections);
    QCOMPARE(r.metrics.httpAttempts, 10 - rejections);
}

void TestContention::retriesOnlyBreaker()
{
    // Every attempt fails; the first failure opens the breaker for 10 s. Order 2 (at 2 s) is a
    // first try: refused by a plain breaker, let through by one that blocks retries only.
    Scenario s = quietScenario();
    s.workload.orders = 2;
    s.workload.interArrivalMs = 2000;
    s.network.script << scriptEntry(0, "*/*/*", FaultKind::Server5xxBeforeCommit);
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.client.circuitBreaker.enabled = true;
    s.client.circuitBreaker.failureThreshold = 1;
    s.client.circuitBreaker.openMs = 10000;
    Metrics m = simulate(s).metrics;
    QCOMPARE(m.httpAttempts, 1);
    QCOMPARE(m.circuitRejections, 5);
    s.client.circuitBreaker.retriesOnly = true;
    m = simulate(s).metrics;
    QCOMPARE(m.httpAttempts, 2);
    QCOMPARE(m.circuitRejections, 4);
}

void TestContention::normalLatency()
{
    Distribution d;
    d.shape = DistributionShape::Normal;
    d.mean = 10;
    d.sd = 2;
    RngStream rng(1, RngStream::Network, {1});
    double sum = 0, sq = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const double v = double(faults::drawUs(d, rng)) / 1000;
        sum += v;
        sq += v * v;
    }
    const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
    QVERIFY2(std::fabs(mean - 10) < 0.05, qPrintable(QString::number(mean)));
    QVERIFY2(std::fabs(sd - 2) < 0.05, qPrintable(QString::number(sd)));
    // The absolute value: a mean of 0 folds the normal into a half-normal, mean sd x sqrt(2 / pi).
    d.mean = 0;
    d.sd = 5;
    sum = 0;
    for (int i = 0; i < n; ++i) {
        const qint64 v = faults::drawUs(d, rng);
        QVERIFY(v >= 0);
        sum += double(v) / 1000;
    }
    QVERIFY2(std::fabs(sum / n - 5 * std::sqrt(2 / M_PI)) < 0.1, qPrintable(QString::number(sum / n)));
    // sd 0: exactly the mean.
    d.mean = 7.5;
    d.sd = 0;
    QCOMPARE(faults::drawUs(d, rng), 7500);
    // Uniform keeps its one draw: base + U(0, jitter).
    Distribution u{20, 0};
    QCOMPARE(faults::drawUs(u, rng), 20000);
}

void TestContention::occConflict()
{
    // Two clients read version 0 at 20 ms and write at 60 ms: the first write commits (version 1),
    // the second is stale: 409. Its business loop waits 1 s, reads version 1 and commits.
    Scenario s = quietScenario();
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = 2;
    s.server.model = ServerModel::Occ;
    s.server.processingMs = {0, 0};
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.reads, 3);
    QCOMPARE(r.metrics.writeAttempts, 3);
    QCOMPARE(r.metrics.httpAttempts, 3);
    QCOMPARE(r.metrics.versionConflicts, 1);
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.duplicates, 0);
    QCOMPARE(r.metrics.completionS, 1.16);
    int conflicts = 0;
    for (const TraceEvent &e : r.trace) {
        if (e.kind == EventKind::VersionConflict) {
            ++conflicts;
            QCOMPARE(e.status, 409);
            QCOMPARE(e.t, 60000);
            QCOMPARE(e.detail(), QStringLiteral("row 1: read version 0, now 1"));
        }
    }
    QCOMPARE(conflicts, 1);
    // Two rows: the clients (mostly) stop meeting; with the seed here they pick different rows.
    s.server.occRows = 2;
    const RunResult two = simulate(s);
    QCOMPARE(two.metrics.versionConflicts, 0);
    QCOMPARE(two.metrics.completionS, 0.08);
    // The orders model reads nothing and never conflicts.
    s.server.model = ServerModel::Orders;
    QCOMPARE(simulate(s).metrics.reads, 0);
}

void TestContention::occLostResponseWritesTwice()
{
    // Optimistic concurrency does not make a retry safe: the write commits, its response is lost,
    // the retry reads the new version and writes again. Only an idempotency key stops it.
    Scenario s = quietScenario();
    s.server.model = ServerModel::Occ;
    s.server.processingMs = {0, 0};
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.network.script << scriptEntry(1, "b1/*/*", FaultKind::ResponseLost);
    const Metrics m0 = simulate(s).metrics;
    const Metrics &m = m0;
    QCOMPARE(m.records, 2);
    QCOMPARE(m.duplicates, 1);
    QCOMPARE(m.versionConflicts, 0);
    QStringList commits;
    for (const TraceEvent &e : simulate(s).trace)
        if (e.kind == EventKind::Committed)
            commits << e.detail();
    QCOMPARE(commits, (QStringList{QStringLiteral("UPDATE row 1 to version 1 (ORD-0001)"),
                                   QStringLiteral("UPDATE row 1 to version 2: ORD-0001 applied again (record #1)")}));
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    const Metrics keyed = simulate(s).metrics;
    QCOMPARE(keyed.records, 1);
    QCOMPARE(keyed.replays, 1);
}

void TestContention::noWaitRetryKeepsItsTurn()
{
    // The AWS study without backoff: a conflicting write's business retry is due at the instant
    // of its answer (Engine::atLast runs it at once when the loop would take it next). Answers
    // of other clients at the same microsecond come first, in the order they were scheduled; the
    // traces below were made by the engine that scheduled every retry (trial cb44de0).
    const struct
    {
        int clients;
        quint64 seed;
        const char *fullHash;
    } runs[] = {
        {10, 1000, "bee05f8c772f6b0d51f51e499b95b0c904f49e374a76f432ae98ba4ebbb73c61"},
        {50, 1001, "3a223236ac4f9703a67aeafa0df1fbaf2d8ccb72069968cde854feb75057ed5e"},
        {100, 1002, "54538fa5bd46e4dea2ad01eea05923e6ed253dfc8d800bb318f881be48cf50a8"},
        {190, 1003, "56d715360921d5c4dbe7092a1bf097c4e80face4f3aa052d1c09b6f28345b5ef"},
    };
    for (const auto &run : runs) {
        const RunResult r = simulate(awsStudy(run.clients, Strategy::None, run.seed));
        QVERIFY2(trace::fullHash(r.trace) == run.fullHash, qPrintable(QStringLiteral("%1 clients, seed %2: %3")
                                                                            .arg(run.clients).arg(run.seed)
                                                                            .arg(QString::fromLatin1(trace::fullHash(r.trace)))));
        // The same run untraced: the same writes.
        RunOptions quiet;
        quiet.trace = false;
        QCOMPARE(simulate(awsStudy(run.clients, Strategy::None, run.seed), quiet).metrics.writeAttempts,
                 r.metrics.writeAttempts);
    }
}

QTEST_GUILESS_MAIN(TestContention)
#include "tst_contention.moc"
