#include "series.h"
#include "simulator.h"
#include "testsupport.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>

Q_DECLARE_METATYPE(retrylab::Scenario)

using namespace retrylab;

namespace {

constexpr qint64 kMs = 1000;
constexpr qint64 kS = 1000000;

TraceEvent traced(qint64 t, EventKind kind, int op = 1, const QString &path = QString(), int status = 0)
{
    TraceEvent e;
    e.t = t;
    e.kind = kind;
    e.op = op;
    e.setPath(path.isEmpty() ? QStringLiteral("op%1/b1/w1/t1").arg(op) : path);
    e.status = status;
    return e;
}

SeriesBucket sum(const Series &s)
{
    SeriesBucket total;
    for (const SeriesBucket &b : s.buckets) {
        total.attempts += b.attempts;
        total.firstTries += b.firstTries;
        total.retries += b.retries;
        total.served += b.served;
        total.commits += b.commits;
        total.successes += b.successes;
        total.failures += b.failures;
        total.timeouts += b.timeouts;
        total.conflicts += b.conflicts;
        total.rejected503 += b.rejected503;
        total.budgetRefusals += b.budgetRefusals;
    }
    return total;
}

} // namespace

class TestSeries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void addsUpToMetrics_data();
    void addsUpToMetrics();
    void boundaries();
    void circuitRefusalIsNoAttempt();
    void operationCountedOnce();
    void inFlight();
    void emptyTrace();
    void parseBucket_data();
    void parseBucket();
    void formatAndAutoBucket();
    void csvAndJson();
    void refusesPastMaxBuckets();
};

void TestSeries::addsUpToMetrics_data()
{
    QTest::addColumn<Scenario>("scenario");
    QTest::addColumn<qint64>("bucketUs");
    QTest::addColumn<int>("mustHave"); // an EventKind the row exists for, or -1
    const QStringList presets = scenario::presetNames();
    QVERIFY(presets.size() >= 14);
    for (const QString &name : presets)
        QTest::addRow("%s", qPrintable(name)) << test::presetScenario(name) << qint64(250 * kMs) << -1;
    // What the presets may not exercise: the breaker refusing attempts, the budget refusing
    // retries, double submits (two submissions, one operation), restarts dropping requests.
    const auto with = [](const QString &preset, const QStringList &sets) {
        const ScenarioParse parsed = scenario::withSets(test::presetScenario(preset), sets);
        if (!parsed.ok())
            qFatal("%s", qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        return parsed.scenario;
    };
    // Many clients (issue 11): the AWS study's OCC contention (version conflicts), closed-loop
    // clients with think time, Poisson arrivals in phases, a latency-spike window with a global
    // budget, load-dependent service and the failure-rate breaker that blocks retries only.
    {
        Scenario occ;
        occ.workload.mode = WorkloadMode::Closed;
        occ.workload.clients = 60;
        occ.workload.opsPerClient = 2;
        occ.workload.thinkTimeMs = 30;
        occ.server.model = ServerModel::Occ;
        occ.server.occRows = 2;
        occ.server.processingMs = Distribution{0, 0};
        occ.network.latencyMs.shape = DistributionShape::Normal;
        occ.network.latencyMs.mean = 10;
        occ.network.latencyMs.sd = 2;
        occ.client.wrapper.enabled = false;
        occ.client.transport.enabled = false;
        occ.client.business = LayerConfig{true, 0, {BackoffKind::AwsExponential, 5, 2.0, 2000, Jitter::Full}, 180000};
        QTest::addRow("occ-closed-loop") << occ << qint64(10 * kMs) << int(EventKind::VersionConflict);
    }
    {
        Scenario storm;
        storm.seed = 7;
        storm.workload.orders = 3000;
        storm.workload.clients = 3;
        storm.workload.arrivals = Arrivals::Poisson;
        storm.workload.phases = {LoadPhase{0, 10, 40}, LoadPhase{10, 20, 90}, LoadPhase{20, 40, 40}};
        storm.server.capacity = 4;
        storm.server.queue = 100;
        storm.server.processingMs = Distribution{40, 20};
        storm.server.latencyPerInFlightMs = 2;
        storm.network.spikeMs = 1500;
        storm.windows = {FaultWindow{12, 14, FaultKind::LatencySpike, 1.0}};
        storm.client.timeoutMs = 1000;
        storm.client.business = LayerConfig{true, 3, {BackoffKind::Exponential, 200, 2.0, 2000, Jitter::Full}, 0};
        storm.client.wrapper.enabled = false;
        storm.client.transport.enabled = true;
        storm.client.transport.allowedMethods.append(QStringLiteral("POST"));
        storm.client.retryBudget.enabled = true;
        storm.client.retryBudget.scope = BudgetScope::Global;
        QTest::addRow("phases-window-global-budget") << storm << qint64(100 * kMs) << int(EventKind::BudgetExhausted);
        storm.client.retryBudget.enabled = false;
        storm.client.circuitBreaker.enabled = true;
        storm.client.circuitBreaker.mode = BreakerMode::FailureRate;
        storm.client.circuitBreaker.window = 10;
        storm.client.circuitBreaker.failureRatePercent = 50;
        storm.client.circuitBreaker.retriesOnly = true;
        QTest::addRow("failure-rate-breaker-retries-only") << storm << qint64(kS) << int(EventKind::CircuitOpen);
    }
    QTest::addRow("retry-storm-breaker")
            << with(QStringLiteral("retry-storm"), {QStringLiteral("client.circuitBreaker.enabled=true"),
                                                     QStringLiteral("client.circuitBreaker.failureThreshold=2")})
            << qint64(kS) << int(EventKind::CircuitOpen);
    QTest::addRow("retry-storm-budget")
            << with(QStringLiteral("retry-storm"), {QStringLiteral("client.retryBudget.enabled=true")})
            << qint64(20 * kMs) << int(EventKind::BudgetExhausted);
    QTest::addRow("retry-storm-restarts")
            << with(QStringLiteral("retry-storm"), {QStringLiteral("server.restarts=[{\"atS\":5},{\"atS\":20},{\"atS\":21}]")})
            << qint64(kS) << int(EventKind::ServerRestarted);
    QTest::addRow("ghost-request-double-submits")
            << with(QStringLiteral("ghost-request"), {QStringLiteral("workload.doubleSubmitRate=0.7"),
                                                       QStringLiteral("workload.orders=200"),
                                                       QStringLiteral("network.responseLoss=0.7")})
            << qint64(kMs) << int(EventKind::OpStart);
}

void TestSeries::addsUpToMetrics()
{
    QFETCH(Scenario, scenario);
    QFETCH(qint64, bucketUs);
    QFETCH(int, mustHave);
    const RunResult r = simulate(scenario);
    QVERIFY(r.error.isEmpty());
    QVERIFY(!r.trace.isEmpty());
    if (mustHave >= 0) {
        // The row exercises what it was added for (OpStart: a double submit's second submission,
        // and an operation whose submissions ended differently).
        const bool found = std::any_of(r.trace.cbegin(), r.trace.cend(), [mustHave](const TraceEvent &e) {
            return int(e.kind) == mustHave && (e.kind != EventKind::OpStart || e.sub == 2);
        });
        QVERIFY(found);
        if (mustHave == int(EventKind::OpStart)) {
            QHash<int, int> outcomes; // op -> bit 1 succeeded, bit 2 failed
            for (const TraceEvent &e : r.trace) {
                if (e.kind == EventKind::OpSucceeded)
                    outcomes[e.op] |= 1;
                else if (e.kind == EventKind::OpFailed)
                    outcomes[e.op] |= 2;
            }
            QVERIFY(std::count(outcomes.cbegin(), outcomes.cend(), 3) > 0);
        }
    }
    const Series s = series::fromTrace(r.trace, bucketUs);
    QCOMPARE(s.bucketUs, bucketUs);
    const SeriesBucket total = sum(s);
    const Metrics &m = r.metrics;
    QCOMPARE(total.attempts, m.httpAttempts);
    QCOMPARE(total.firstTries + total.retries, total.attempts);
    QVERIFY(total.firstTries > 0);
    QCOMPARE(total.successes, qint64(m.clientSucceeded));
    QCOMPARE(total.failures, qint64(m.clientFailed));
    QCOMPARE(total.timeouts, m.timeouts);
    QCOMPARE(total.commits, qint64(m.records));
    QCOMPARE(total.rejected503, m.rejected503);
    QCOMPARE(total.budgetRefusals, m.budgetRefusals);
    QCOMPARE(total.conflicts, m.conflicts409 + m.versionConflicts);
    qint64 responses = 0;
    for (const TraceEvent &e : r.trace)
        responses += e.kind == EventKind::ResponseSent;
    QCOMPARE(total.served, responses);

    // Every bucket from t = 0 to the one holding the last event, none missing.
    QCOMPARE(s.buckets.size(), r.trace.constLast().t / bucketUs + 1);
    for (int i = 0; i < s.buckets.size(); ++i) {
        QCOMPARE(s.buckets.at(i).startUs, i * bucketUs);
        QVERIFY(s.buckets.at(i).inFlight >= 0);
        QVERIFY(s.buckets.at(i).inFlightMax >= s.buckets.at(i).inFlight);
        QVERIFY(s.buckets.at(i).successes >= 0 && s.buckets.at(i).failures >= 0);
    }
    // The run ends with nothing pending: every request that reached the server left it.
    QCOMPARE(s.buckets.constLast().inFlight, 0);

    // Fed event by event from the engine's sink, without the trace: the same series.
    series::Builder builder(bucketUs);
    RunOptions options;
    options.trace = false;
    options.sink = [&builder](const TraceEvent &e) { builder.add(e); };
    const RunResult streamed = simulate(scenario, options);
    QVERIFY(streamed.trace.isEmpty());
    QVERIFY(builder.ok());
    QCOMPARE(builder.lastEventUs(), r.trace.constLast().t);
    QVERIFY(builder.finish() == s);
}

void TestSeries::boundaries()
{
    // An event exactly at t = k x bucket belongs to bucket k; one microsecond earlier to k - 1.
    const qint64 b = 100 * kMs;
    const Trace trace{
        traced(0, EventKind::TransportAttempt, 1),
        traced(b - 1, EventKind::TransportAttempt, 2),
        traced(b, EventKind::TransportAttempt, 3),
        traced(b, EventKind::Committed, 3),
        traced(2 * b - 1, EventKind::Timeout, 1),
        traced(2 * b, EventKind::TransportAttempt, 1, QStringLiteral("op1/b1/w1/t2")),
        traced(2 * b, EventKind::Rejected, 1, QStringLiteral("op1/b1/w1/t2"), 503),
        traced(2 * b, EventKind::Rejected, 2, QString(), 409),
        traced(2 * b, EventKind::Rejected, 2, QString(), 429),
        traced(2 * b, EventKind::VersionConflict, 3),
        traced(3 * b, EventKind::BudgetExhausted, 1),
        traced(5 * b, EventKind::OpSucceeded, 3),
    };
    const Series s = series::fromTrace(trace, b);
    QCOMPARE(s.buckets.size(), 6); // up to the bucket of the last event; 4 stays empty
    QCOMPARE(s.buckets.at(0).attempts, 2);
    QCOMPARE(s.buckets.at(0).firstTries, 2);
    QCOMPARE(s.buckets.at(1).attempts, 1);
    QCOMPARE(s.buckets.at(1).commits, 1);
    QCOMPARE(s.buckets.at(1).timeouts, 1);
    QCOMPARE(s.buckets.at(2).attempts, 1);
    QCOMPARE(s.buckets.at(2).firstTries, 0);
    QCOMPARE(s.buckets.at(2).retries, 1);
    QCOMPARE(s.buckets.at(2).rejected503, 1);
    QCOMPARE(s.buckets.at(2).conflicts, 2);
    QCOMPARE(s.buckets.at(3).budgetRefusals, 1);
    SeriesBucket empty;
    empty.startUs = 4 * b;
    QVERIFY(s.buckets.at(4) == empty);
    QCOMPARE(s.buckets.at(5).successes, 1);
    QCOMPARE(s.buckets.at(5).startUs, 5 * b);
}

void TestSeries::circuitRefusalIsNoAttempt()
{
    const Trace trace{
        traced(0, EventKind::TransportAttempt, 1),
        traced(0, EventKind::CircuitOpen, 1),
        traced(10, EventKind::TransportAttempt, 2, QStringLiteral("op2/b2/w1/t1")),
        traced(10, EventKind::CircuitOpen, 2, QStringLiteral("op2/b2/w1/t1")),
        traced(20, EventKind::TransportAttempt, 3),
    };
    const Series s = series::fromTrace(trace, kS);
    QCOMPARE(s.buckets.size(), 1);
    QCOMPARE(s.buckets.at(0).attempts, 1);
    QCOMPARE(s.buckets.at(0).firstTries, 1);
    QCOMPARE(s.buckets.at(0).retries, 0);
}

void TestSeries::operationCountedOnce()
{
    // Op 1: its first submission fails, the double submit succeeds later: one success, no failure.
    // Op 2: both submissions fail: one failure, at the last one. Op 3: both succeed: one success.
    const Trace trace{
        traced(0 * kS, EventKind::OpFailed, 1),
        traced(1 * kS, EventKind::OpFailed, 2),
        traced(1 * kS, EventKind::OpSucceeded, 3),
        traced(2 * kS, EventKind::OpSucceeded, 1),
        traced(2 * kS, EventKind::OpSucceeded, 3),
        traced(3 * kS, EventKind::OpFailed, 2),
        traced(3 * kS, EventKind::OpFailed, 1),
    };
    const Series s = series::fromTrace(trace, kS);
    QCOMPARE(s.buckets.size(), 4);
    QCOMPARE(s.buckets.at(0).failures, 0);
    QCOMPARE(s.buckets.at(1).failures, 0);
    QCOMPARE(s.buckets.at(1).successes, 1);
    QCOMPARE(s.buckets.at(2).successes, 1);
    QCOMPARE(s.buckets.at(3).failures, 1);
    QCOMPARE(sum(s).successes, 2);
    QCOMPARE(sum(s).failures, 1);
}

void TestSeries::inFlight()
{
    // 10 ms buckets. Bucket 0: two arrive, one answered (1 at its end, peak 2). Bucket 1: nothing
    // (1 carried). Bucket 2: three more arrive (peak 4), a restart drops two of them (2 at the end).
    // Bucket 3: both answered, one served: 0 at the end.
    const qint64 b = 10 * kMs;
    const Trace trace{
        traced(1 * kMs, EventKind::RequestArrived, 1),
        traced(2 * kMs, EventKind::RequestArrived, 2),
        traced(5 * kMs, EventKind::ResponseSent, 1),
        traced(20 * kMs, EventKind::RequestArrived, 3),
        traced(21 * kMs, EventKind::RequestArrived, 4),
        traced(22 * kMs, EventKind::RequestArrived, 5),
        traced(25 * kMs, EventKind::ServerRestarted, 3),
        traced(25 * kMs, EventKind::ServerRestarted, 4),
        traced(30 * kMs, EventKind::ResponseSent, 2),
        traced(39 * kMs, EventKind::ResponseSent, 5),
    };
    const Series s = series::fromTrace(trace, b);
    QCOMPARE(s.buckets.size(), 4);
    const QList<int> end{1, 1, 2, 0};
    const QList<int> peak{2, 1, 4, 2};
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(s.buckets.at(i).inFlight, end.at(i));
        QCOMPARE(s.buckets.at(i).inFlightMax, peak.at(i));
    }
    QCOMPARE(s.buckets.at(3).served, 2);
    QCOMPARE(s.buckets.at(2).served, 0); // a dropped request was not served
}

void TestSeries::emptyTrace()
{
    const Series s = series::fromTrace(Trace(), kS);
    QCOMPARE(s.buckets.size(), 1); // [0, 1 s): a run that did nothing still starts at 0
    QVERIFY(s.buckets.at(0) == SeriesBucket());
}

void TestSeries::parseBucket_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("expected"); // -1: refused
    QTest::addColumn<QString>("message");
    QTest::addRow("one-second") << QStringLiteral("1s") << qint64(kS) << QString();
    QTest::addRow("fraction") << QStringLiteral("0.02s") << qint64(20 * kMs) << QString();
    QTest::addRow("milliseconds") << QStringLiteral("250ms") << qint64(250 * kMs) << QString();
    QTest::addRow("spaces") << QStringLiteral(" 1.5 ms ") << qint64(1500) << QString();
    QTest::addRow("leading-dot") << QStringLiteral(".5s") << qint64(500 * kMs) << QString();
    QTest::addRow("floor-ms") << QStringLiteral("1ms") << qint64(kMs) << QString();
    QTest::addRow("floor-s") << QStringLiteral("0.001s") << qint64(kMs) << QString();
    QTest::addRow("ceiling") << QStringLiteral("3600s") << qint64(3600 * kS) << QString();
    QTest::addRow("ceiling-ms") << QStringLiteral("3600000ms") << qint64(3600 * kS) << QString();
    const QString expected = QStringLiteral("expected a duration like 1s, 0.02s or 250ms, got '%1'");
    QTest::addRow("below-floor") << QStringLiteral("0.999ms") << qint64(-1)
                                 << QStringLiteral("a bucket must be at least 1 ms, got '0.999ms'");
    QTest::addRow("below-floor-s") << QStringLiteral("0.0009s") << qint64(-1)
                                   << QStringLiteral("a bucket must be at least 1 ms, got '0.0009s'");
    QTest::addRow("above-ceiling") << QStringLiteral("3600.001s") << qint64(-1)
                                   << QStringLiteral("a bucket must be at most 3600 s, got '3600.001s'");
    QTest::addRow("huge") << QStringLiteral("99999999999999999999999s") << qint64(-1)
                          << QStringLiteral("a bucket must be at most 3600 s, got '99999999999999999999999s'");
    QTest::addRow("zero") << QStringLiteral("0s") << qint64(-1) << QStringLiteral("a bucket must be at least 1 ms, got '0s'");
    QTest::addRow("negative") << QStringLiteral("-1s") << qint64(-1)
                              << QStringLiteral("a bucket must be at least 1 ms, got '-1s'");
    QTest::addRow("garbage") << QStringLiteral("abc") << qint64(-1) << expected.arg(QStringLiteral("abc"));
    QTest::addRow("no-unit") << QStringLiteral("1") << qint64(-1) << expected.arg(QStringLiteral("1"));
    QTest::addRow("other-unit") << QStringLiteral("1m") << qint64(-1) << expected.arg(QStringLiteral("1m"));
    QTest::addRow("empty") << QString() << qint64(-1) << expected.arg(QString());
    QTest::addRow("nan") << QStringLiteral("nans") << qint64(-1) << expected.arg(QStringLiteral("nans"));
    QTest::addRow("exponent") << QStringLiteral("1e3ms") << qint64(-1) << expected.arg(QStringLiteral("1e3ms"));
}

void TestSeries::parseBucket()
{
    QFETCH(QString, text);
    QFETCH(qint64, expected);
    QFETCH(QString, message);
    qint64 us = -7;
    QString error;
    const bool ok = series::parseBucket(text, &us, &error);
    QCOMPARE(ok, expected >= 0);
    if (ok) {
        QCOMPARE(us, expected);
        QVERIFY(error.isEmpty());
    } else {
        QCOMPARE(error, message);
        QCOMPARE(us, qint64(-7));
    }
}

void TestSeries::formatAndAutoBucket()
{
    QCOMPARE(series::formatBucket(10 * kMs), QStringLiteral("10 ms"));
    QCOMPARE(series::formatBucket(1500), QStringLiteral("1.5 ms"));
    QCOMPARE(series::formatBucket(100 * kMs), QStringLiteral("100 ms"));
    QCOMPARE(series::formatBucket(200 * kMs), QStringLiteral("0.2 s"));
    QCOMPARE(series::formatBucket(kS), QStringLiteral("1 s"));
    QCOMPARE(series::formatBucket(2500 * kMs), QStringLiteral("2.5 s"));
    QCOMPARE(series::bucketArgument(20 * kMs), QStringLiteral("20ms"));
    QCOMPARE(series::bucketArgument(500 * kMs), QStringLiteral("0.5s"));
    QCOMPARE(series::bucketArgument(5 * kS), QStringLiteral("5s"));
    for (const qint64 b : {qint64(kMs), qint64(1500), qint64(20 * kMs), qint64(500 * kMs), qint64(3600 * kS)}) {
        qint64 back = 0;
        QVERIFY(series::parseBucket(series::bucketArgument(b), &back, nullptr));
        QCOMPARE(back, b);
    }

    QCOMPARE(series::bucketCount(0, kS), 1);
    QCOMPARE(series::bucketCount(kS - 1, kS), 1);
    QCOMPARE(series::bucketCount(kS, kS), 2);
    // 1-2-5 ladder, the smallest size that fits: a 10 s run in at most 200 buckets is 100 ms
    // (50 ms would need 201: the last event at exactly 10 s opens bucket 200).
    QCOMPARE(series::autoBucket(10 * kS, 200), 100 * kMs);
    QCOMPARE(series::autoBucket(10 * kS - 1, 200), 50 * kMs);
    QCOMPARE(series::autoBucket(60 * kS, 200), 500 * kMs);
    QCOMPARE(series::autoBucket(0, 200), kMs);
    QCOMPARE(series::autoBucket(50 * kMs, 200), kMs); // a short run: the 1 ms floor
    QCOMPARE(series::autoBucket(3600 * kS, 200), 20 * kS);
    for (qint64 span = 80 * kMs; span < 100000 * kS; span = span * 3 / 2 + 7) {
        const qint64 b = series::autoBucket(span, 200);
        const qint64 n = series::bucketCount(span, b);
        QVERIFY2(n >= 60 && n <= 200, qPrintable(QStringLiteral("%1 us: %2 buckets").arg(span).arg(n)));
    }
    QCOMPARE(series::autoBucket(2000 * kS, series::MaxBuckets), 5 * kMs);
}

void TestSeries::csvAndJson()
{
    const Trace trace{
        traced(0, EventKind::TransportAttempt, 1),
        traced(0, EventKind::RequestArrived, 1),
        traced(20 * kMs, EventKind::TransportAttempt, 2, QStringLiteral("op2/b1/w1/t2")),
        traced(25 * kMs, EventKind::Committed, 1),
        traced(30 * kMs, EventKind::ResponseSent, 1),
        traced(30 * kMs, EventKind::OpSucceeded, 1),
    };
    const Series s = series::fromTrace(trace, 20 * kMs);
    const QList<QByteArray> lines = series::toCsv(s).split('\n');
    QCOMPARE(lines.size(), 4); // header, two buckets, the final newline
    QCOMPARE(lines.at(0), QByteArray("startS,attempts,firstTries,retries,served,commits,successes,failures,"
                                     "timeouts,conflicts,rejected503,budgetRefusals,inFlight,inFlightMax"));
    QCOMPARE(lines.at(1), QByteArray("0,1,1,0,0,0,0,0,0,0,0,0,1,1"));
    QCOMPARE(lines.at(2), QByteArray("0.02,1,0,1,1,1,1,0,0,0,0,0,0,1"));
    QCOMPARE(lines.at(3), QByteArray());

    const QJsonObject json = series::toJson(s);
    QCOMPARE(json.value(QStringLiteral("bucketS")).toDouble(), 0.02);
    const QJsonArray buckets = json.value(QStringLiteral("buckets")).toArray();
    QCOMPARE(buckets.size(), 2);
    const QJsonObject second = buckets.at(1).toObject();
    QCOMPARE(second.value(QStringLiteral("startS")).toDouble(), 0.02);
    QCOMPARE(second.value(QStringLiteral("retries")).toInt(), 1);
    QCOMPARE(second.value(QStringLiteral("commits")).toInt(), 1);
    QCOMPARE(second.value(QStringLiteral("inFlightMax")).toInt(), 1);
    QCOMPARE(second.keys().size(), 14);

    // The streamed pieces say the same as toJson and toCsv, bucket by bucket.
    const Series storm = series::fromTrace(test::runPreset(QStringLiteral("retry-storm")).trace, 500 * kMs);
    const QJsonArray stormBuckets = series::toJson(storm).value(QStringLiteral("buckets")).toArray();
    QCOMPARE(stormBuckets.size(), storm.buckets.size());
    QByteArray csv = series::csvHeader();
    for (int i = 0; i < storm.buckets.size(); ++i) {
        QByteArray line;
        series::appendJsonBucket(line, storm.buckets.at(i));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
        QCOMPARE(doc.object(), stormBuckets.at(i).toObject());
        series::appendCsvRow(csv, storm.buckets.at(i));
    }
    QCOMPARE(csv, series::toCsv(storm));
    QCOMPARE(series::secondsText(20 * kMs), QByteArray("0.02"));
    QCOMPARE(series::secondsText(3600 * kS + 1), QByteArray("3600.000001"));
}

void TestSeries::refusesPastMaxBuckets()
{
    // The last bucket allowed starts at (MaxBuckets - 1) x bucket; an event past it is refused.
    series::Builder builder(kMs);
    builder.add(traced((series::MaxBuckets - 1) * kMs, EventKind::TransportAttempt));
    QVERIFY(builder.ok());
    QCOMPARE(builder.finish().buckets.size(), series::MaxBuckets);
    builder.add(traced(series::MaxBuckets * kMs, EventKind::TransportAttempt));
    QVERIFY(!builder.ok());
    QCOMPARE(builder.lastEventUs(), series::MaxBuckets * kMs);
    builder.add(traced(series::MaxBuckets * kMs + 5, EventKind::TransportAttempt));
    QCOMPARE(builder.lastEventUs(), series::MaxBuckets * kMs + 5);
    QVERIFY(!builder.ok());
    // The size the CLI suggests instead holds the whole run.
    const qint64 fits = series::autoBucket(builder.lastEventUs(), series::MaxBuckets);
    QCOMPARE(fits, 2 * kMs);
    QVERIFY(series::bucketCount(builder.lastEventUs(), fits) <= series::MaxBuckets);
}

QTEST_GUILESS_MAIN(TestSeries)
#include "tst_series.moc"
