// LatencyHistogram: streamed percentiles within the stated relative error of the exact ones, and
// the engine's streamed metrics (operation state freed as operations end) equal to the metrics
// counted from the whole tables, on every preset.
#include "latencyhistogram.h"
#include "scenario.h"
#include "simulator.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace retrylab;

namespace {

// The exact computation the engine made before it streamed: rank ceil(p * n) of the sorted samples.
double exactPercentile(std::vector<qint64> v, double p)
{
    if (v.empty())
        return 0;
    const size_t idx = std::min(v.size() - 1, size_t(std::ceil(p * double(v.size()))) - (p > 0 ? 1 : 0));
    std::nth_element(v.begin(), v.begin() + long(idx), v.end());
    return double(v[idx]);
}

const double kPercentiles[] = {0.0, 0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0};

// Every percentile of `samples` through a histogram that keeps `exact` samples exact, against the
// exact ones: equal while exact, else within LatencyHistogram::RelativeError (0.1%).
void checkWithinError(const std::vector<qint64> &samples, size_t exact, const char *what)
{
    LatencyHistogram h(exact);
    for (const qint64 v : samples)
        h.add(v);
    for (const double p : kPercentiles) {
        const double want = exactPercentile(samples, p);
        const double got = h.percentile(p);
        if (samples.size() <= exact || want < 2048) {
            QVERIFY2(got == want, qPrintable(QStringLiteral("%1 p%2: %3, exactly %4").arg(QLatin1String(what)).arg(p).arg(got).arg(want)));
        } else {
            // Half a bucket: 1/2048 of the value, inside the stated 0.1%.
            QVERIFY(LatencyHistogram::RelativeError >= 1.0 / 2048);
            QVERIFY2(std::abs(got - want) <= want / 2048,
                     qPrintable(QStringLiteral("%1 p%2: %3 against %4").arg(QLatin1String(what)).arg(p).arg(got).arg(want)));
        }
    }
}

// Operation latencies (microseconds) and attempts of a run with its tables.
void opSamples(const RunResult &r, std::vector<qint64> *latency, std::vector<qint64> *attempts)
{
    for (const OpSummary &op : r.ops) {
        latency->push_back(op.end - op.start);
        attempts->push_back(op.attempts);
    }
}

} // namespace

class TestHistogram : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emptyIsZero();
    void exactUpToTheLimit();
    void smallValuesStayExact();
    void bucketEdges();
    void withinStatedError_data();
    void withinStatedError();
    void presetsWithinStatedError_data();
    void presetsWithinStatedError();
    void streamedEqualsTables_data();
    void streamedEqualsTables();
    void bigRunPercentilesWithinError();
};

void TestHistogram::emptyIsZero()
{
    LatencyHistogram h;
    QCOMPARE(h.percentile(0.5), 0.0);
    QCOMPARE(h.count(), 0);
}

// Exactly ExactSamples samples are still exact; one more and the histogram takes over (a value
// above 2048 then reads as its bucket's middle, no longer itself).
void TestHistogram::exactUpToTheLimit()
{
    const size_t limit = 1000;
    LatencyHistogram h(limit);
    for (size_t i = 0; i < limit; ++i)
        h.add(qint64(1000001)); // 1000001 lies inside a bucket of width 1024, not at its middle
    QCOMPARE(h.percentile(0.5), 1000001.0);
    h.add(1000001);
    QVERIFY(h.percentile(0.5) != 1000001.0);
    QVERIFY(std::abs(h.percentile(0.5) - 1000001.0) <= 1000001.0 / 2048);
}

// Below 2048 every bucket holds one value: attempt counts and sub-2 ms latencies stay exact.
void TestHistogram::smallValuesStayExact()
{
    std::vector<qint64> v;
    for (qint64 i = 0; i < 2048; ++i)
        v.push_back(i);
    v.push_back(2047);
    checkWithinError(v, 0, "0..2047");
    LatencyHistogram h(0);
    h.add(2047);
    QCOMPARE(h.percentile(1.0), 2047.0);
}

// The first values of two neighbouring powers of two, and the last below them.
void TestHistogram::bucketEdges()
{
    for (const qint64 v : {qint64(2048), qint64(2049), qint64(4095), qint64(4096), qint64(1) << 40,
                           (qint64(1) << 40) - 1, (qint64(1) << 62) + 12345}) {
        LatencyHistogram h(0);
        h.add(v);
        const double got = h.percentile(0.5);
        QVERIFY2(std::abs(got - double(v)) <= double(v) / 2048, qPrintable(QStringLiteral("%1 read as %2").arg(v).arg(got)));
    }
    LatencyHistogram negative(0);
    negative.add(-5); // a latency is never negative: clamped to 0, not an out-of-range bucket
    QCOMPARE(negative.percentile(1.0), 0.0);
}

void TestHistogram::withinStatedError_data()
{
    QTest::addColumn<int>("shape");
    QTest::addRow("uniform-0-to-60s") << 0;
    QTest::addRow("lognormal-latencies") << 1;
    QTest::addRow("two-modes-timeouts") << 2;
}

void TestHistogram::withinStatedError()
{
    QFETCH(int, shape);
    std::mt19937_64 rng(20231203 + quint64(shape));
    std::uniform_int_distribution<qint64> uniform(0, 60000000);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<qint64> v;
    for (int i = 0; i < 200000; ++i) {
        if (shape == 0) {
            v.push_back(uniform(rng));
        } else if (shape == 1) {
            // exp of a sum of uniforms: a skewed, long-tailed shape (no std::normal_distribution
            // needed, and the same numbers on every standard library)
            const double z = unit(rng) + unit(rng) + unit(rng) + unit(rng) - 2.0;
            v.push_back(qint64(std::exp(11.0 + 1.5 * z)));
        } else {
            v.push_back(unit(rng) < 0.7 ? 90000 + qint64(unit(rng) * 20000) : 3000000 + qint64(unit(rng) * 50000));
        }
    }
    checkWithinError(v, 0, "histogram only");
    checkWithinError(v, 100000, "spilled after 100000");
    checkWithinError(v, v.size(), "exact");
}

void TestHistogram::presetsWithinStatedError_data()
{
    QTest::addColumn<QString>("preset");
    for (const QString &name : scenario::presetNames())
        QTest::newRow(qPrintable(name)) << name;
}

// Each preset's own latencies and attempts, through the histogram alone.
void TestHistogram::presetsWithinStatedError()
{
    QFETCH(QString, preset);
    const RunResult r = simulate(test::presetScenario(preset));
    std::vector<qint64> latency, attempts;
    opSamples(r, &latency, &attempts);
    QVERIFY(!latency.empty());
    checkWithinError(latency, 0, "latency");
    checkWithinError(attempts, 0, "attempts");
}

void TestHistogram::streamedEqualsTables_data()
{
    QTest::addColumn<Scenario>("scenario");
    for (const QString &name : scenario::presetNames())
        QTest::newRow(qPrintable(name)) << test::presetScenario(name);
    // Shapes the presets may not reach: a closed workload with double submits and a per-operation
    // key, Poisson phases, token mode with double submits, a stopped run.
    Scenario closed = test::presetScenario(QStringLiteral("retry-storm"));
    closed.workload.mode = WorkloadMode::Closed;
    closed.workload.clients = 7;
    closed.workload.opsPerClient = 5;
    closed.workload.doubleSubmitRate = 0.5;
    closed.client.keyPlacement = KeyPlacement::PerOperation;
    closed.server.idempotency.mode = IdempotencyMode::Atomic;
    QTest::newRow("closed-double-submit") << closed;
    Scenario phases = test::presetScenario(QStringLiteral("ghost-request"));
    phases.workload.arrivals = Arrivals::Poisson;
    phases.workload.phases = {LoadPhase{0, 2, 50}, LoadPhase{5, 6, 200}};
    phases.workload.doubleSubmitRate = 0.3;
    QTest::newRow("poisson-phases") << phases;
    Scenario token = test::presetScenario(QStringLiteral("server-token"));
    token.workload.orders = 40;
    token.workload.doubleSubmitRate = 0.5;
    token.client.keyPlacement = KeyPlacement::PerOperation;
    token.network.responseLoss = 0.3;
    QTest::newRow("token-double-submit") << token;
}

// The streamed run (no tables: every operation freed as it ends) counts what the tables count.
void TestHistogram::streamedEqualsTables()
{
    QFETCH(Scenario, scenario);
    RunOptions streamed;
    streamed.trace = false;
    const RunResult a = simulate(scenario, streamed);
    const RunResult b = simulate(scenario);
    const auto x = a.metrics.flat();
    const auto y = b.metrics.flat();
    QCOMPARE(x.size(), y.size());
    for (int i = 0; i < x.size(); ++i)
        QVERIFY2(x[i].second == y[i].second, qPrintable(QStringLiteral("%1: streamed %2, tables %3")
                                                            .arg(x[i].first).arg(x[i].second).arg(y[i].second)));
    QCOMPARE(a.events, b.events);
}

// Beyond LatencyHistogram::ExactSamples operations the engine's percentiles are streamed: within
// 0.1% of the exact ones over the run's own operations (from its tables).
void TestHistogram::bigRunPercentilesWithinError()
{
    Scenario s = test::presetScenario(QStringLiteral("ghost-request"));
    s.workload.orders = int(LatencyHistogram::ExactSamples) + 4000;
    s.workload.interArrivalMs = 5;
    s.network.responseLoss = 0.3;
    s.network.script.clear();
    RunOptions streamed;
    streamed.trace = false;
    const RunResult r = simulate(s, streamed);
    const RunResult tables = simulate(s);
    std::vector<qint64> latency, attempts;
    opSamples(tables, &latency, &attempts);
    QCOMPARE(qint64(latency.size()), qint64(s.workload.orders));
    const struct
    {
        double got;
        double p;
    } checks[] = {{r.metrics.latencyP50Ms, 0.5}, {r.metrics.latencyP95Ms, 0.95}, {r.metrics.latencyP99Ms, 0.99}};
    for (const auto &c : checks) {
        const double want = exactPercentile(latency, c.p) / 1000;
        QVERIFY2(std::abs(c.got - want) <= LatencyHistogram::RelativeError * want,
                 qPrintable(QStringLiteral("p%1: %2 ms against %3 ms").arg(c.p).arg(c.got).arg(want)));
    }
    QCOMPARE(r.metrics.attemptsPerOpP50, exactPercentile(attempts, 0.5));
    QCOMPARE(r.metrics.attemptsPerOpP99, exactPercentile(attempts, 0.99));
    QCOMPARE(r.metrics.duplicates, tables.metrics.duplicates);
    QCOMPARE(r.metrics.orphans, tables.metrics.orphans);
    QCOMPARE(r.metrics.httpAttempts, tables.metrics.httpAttempts);
}

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
