// Rarely taken engine paths, each forced by a script and pinned with hand-computed times:
// Retry-After outside statusForcelist, a double submit ending in 409, a stale timeout, the
// wrapper's deadline per business attempt, a payload changed by the wrapper, exact deadlines.
#include "simulator.h"

#include <QTest>

#include "testsupport.h"

using namespace retrylab;
using namespace retrylab::test;

using test::quietScenario;
using test::scriptEntry;
using test::simulateChecked;

namespace {

constexpr qint64 kMs = 1000;

// Times (in ms) of the events of one kind, optionally of one op only.
QList<qint64> timesOf(const Trace &t, EventKind kind, int op = 0)
{
    QList<qint64> out;
    for (const TraceEvent &e : eventsOf(t, kind, op))
        out.append(e.t / kMs);
    return out;
}

QStringList pathsOf(const Trace &t, EventKind kind, int op = 0)
{
    QStringList out;
    for (const TraceEvent &e : eventsOf(t, kind, op))
        out.append(e.path());
    return out;
}

} // namespace

class TestPaths : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void retryAfterOn503OutsideForcelist_data();
    void retryAfterOn503OutsideForcelist();
    void doubleSubmitFinal409IsNoOrphan();
    void staleTimeoutIsIgnored();
    void wrapperDeadlineRestartsPerBusinessAttempt_data();
    void wrapperDeadlineRestartsPerBusinessAttempt();
    void payloadChangedOnWrapperRetry_data();
    void payloadChangedOnWrapperRetry();
    void businessDeadlineCountsTheRetryAfterWait_data();
    void businessDeadlineCountsTheRetryAfterWait();
    void breakerCountsOnlyTrouble_data();
    void breakerCountsOnlyTrouble();
};

// Two orders 1 ms apart on a server with one slot and no queue: op 1 holds the slot from 20 to
// 70 ms, op 2 arrives at 21 ms and gets 503 with Retry-After, received at 41 ms. 503 is not in
// statusForcelist. The retry of op 2 starts at 41 ms + the wait of the layer that retries it,
// and succeeds 90 ms later (20 + 50 + 20).
void TestPaths::retryAfterOn503OutsideForcelist_data()
{
    QTest::addColumn<int>("transport");    // 0 off, 1 urllib3 defaults (POST not allowed), 2 POST allowed
    QTest::addColumn<bool>("respectTransport");
    QTest::addColumn<bool>("respectBusiness");
    QTest::addColumn<int>("retryAfterS");
    QTest::addColumn<int>("businessBackoffMs");
    QTest::addColumn<QString>("retryPath");
    QTest::addColumn<qint64>("retryAtMs");

    // The transport never retries a POST with allowed_methods left at its default; the business
    // loop gets the 503 with its header and waits max(Retry-After, backoff) = 3 s.
    QTest::addRow("post-not-allowed-business-waits-retry-after")
        << 1 << true << true << 3 << 1000 << QStringLiteral("op2/b2/w1/t1") << qint64(3041);
    // urllib3 is_retry: Retry-After on 503 makes it retryable without the forcelist.
    QTest::addRow("post-allowed-transport-waits-retry-after")
        << 2 << true << true << 3 << 1000 << QStringLiteral("op2/b1/w1/t2") << qint64(3041);
    // respect_retry_after_header off: not retryable for the transport; the business loop still
    // reads the header.
    QTest::addRow("post-allowed-not-respected-business-retries")
        << 2 << false << true << 3 << 1000 << QStringLiteral("op2/b2/w1/t1") << qint64(3041);
    QTest::addRow("no-transport-business-waits-retry-after")
        << 0 << true << true << 3 << 1000 << QStringLiteral("op2/b2/w1/t1") << qint64(3041);
    // businessRespectRetryAfter off: the business loop waits its own 1 s backoff.
    QTest::addRow("business-ignores-retry-after")
        << 0 << true << false << 3 << 1000 << QStringLiteral("op2/b2/w1/t1") << qint64(1041);
    QTest::addRow("transport-defaults-business-ignores-retry-after")
        << 1 << true << false << 3 << 1000 << QStringLiteral("op2/b2/w1/t1") << qint64(1041);
    // A Retry-After shorter than the backoff: the backoff wins, 2 s.
    QTest::addRow("business-backoff-longer-than-retry-after")
        << 0 << true << true << 1 << 2000 << QStringLiteral("op2/b2/w1/t1") << qint64(2041);
}

void TestPaths::retryAfterOn503OutsideForcelist()
{
    QFETCH(int, transport);
    QFETCH(bool, respectTransport);
    QFETCH(bool, respectBusiness);
    QFETCH(int, retryAfterS);
    QFETCH(int, businessBackoffMs);
    QFETCH(QString, retryPath);
    QFETCH(qint64, retryAtMs);
    Scenario s = quietScenario();
    s.workload.orders = 2;
    s.workload.interArrivalMs = 1;
    s.server.capacity = 1;
    s.server.queue = 0;
    s.server.retryAfterS = retryAfterS;
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 2;
    s.client.business.backoff.initialMs = businessBackoffMs;
    s.client.businessRespectRetryAfter = respectBusiness;
    s.client.transport.enabled = transport > 0;
    s.client.transport.statusForcelist = {500, 502, 504};
    s.client.transport.respectRetryAfter = respectTransport;
    if (transport == 2)
        s.client.transport.allowedMethods.clear();
    const RunResult r = simulateChecked(s);

    QCOMPARE(r.metrics.rejected503, qint64(1));
    QCOMPARE(r.metrics.httpAttempts, qint64(3));
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.clientSucceeded, 2);
    QCOMPARE(timesOf(r.trace, EventKind::ResponseReceived, 2).value(0), qint64(41));
    QCOMPARE(pathsOf(r.trace, EventKind::TransportAttempt, 2), (QStringList{QStringLiteral("op2/b1/w1/t1"), retryPath}));
    QCOMPARE(timesOf(r.trace, EventKind::TransportAttempt, 2), (QList<qint64>{1, retryAtMs}));
    QCOMPARE(timesOf(r.trace, EventKind::OpSucceeded, 2), QList<qint64>{retryAtMs + 90});
    // Only the layer that retried scheduled a retry.
    int transportRetries = 0;
    for (const TraceEvent &e : r.trace)
        transportRetries += e.kind == EventKind::RetryScheduled && e.lane == Lane::Transport;
    QCOMPARE(transportRetries, retryPath.endsWith(QLatin1String("/t2")) ? 1 : 0);
}

// A double submit 5 ms after the first, same key, no business loop: the first holds the key
// from 20 to 100 ms (80 ms of processing); the second arrives at 25 ms, gets 409 and fails at
// 45 ms, for good. The operation still succeeded (its first submission did, at 120 ms): one
// record, no orphan.
void TestPaths::doubleSubmitFinal409IsNoOrphan()
{
    Scenario s = quietScenario();
    s.workload.doubleSubmitRate = 1.0;
    s.workload.doubleSubmitDelayMs = 5;
    s.server.processingMs = {80, 0};
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.httpAttempts, qint64(2));
    QCOMPARE(r.metrics.conflicts409, qint64(1));
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.duplicates, 0);
    QCOMPARE(r.metrics.clientSucceeded, 1);
    QCOMPARE(r.metrics.clientFailed, 0);
    QCOMPARE(r.metrics.orphans, 0);
    QCOMPARE(r.metrics.durationS, 0.12);
    QCOMPARE(r.ops.size(), 1);
    QCOMPARE(r.ops.first().submissions, 2);
    QVERIFY(r.ops.first().succeeded);
    QCOMPARE(r.ops.first().end, qint64(120) * kMs);
    QCOMPARE(timesOf(r.trace, EventKind::OpFailed), QList<qint64>{45});
    QCOMPARE(timesOf(r.trace, EventKind::OpSucceeded), QList<qint64>{120});
    for (const TraceEvent &e : r.trace) {
        if (e.kind == EventKind::OpFailed) {
            QCOMPARE(e.sub, 2);
            QVERIFY2(e.detail().startsWith(QLatin1String("409")), qPrintable(e.detail()));
        }
        if (e.kind == EventKind::OpSucceeded)
            QCOMPARE(e.sub, 1);
    }
}

// t1 gets 503 at 90 ms; the transport (POST allowed) retries at once: t2 is sent at 90 ms and
// spiked by 5 s. t1's read timeout falls due at 3000 ms while t2 is outstanding: ignored. t2
// times out at 3090 ms, the transport waits 0.5 x 2 = 1 s, t3 at 4090 ms succeeds at 4180 ms.
// The ghost t2 arrives at 5110 ms and commits at 5160 ms: a late commit.
void TestPaths::staleTimeoutIsIgnored()
{
    Scenario s = quietScenario();
    s.client.transport.enabled = true;
    s.client.transport.allowedMethods.clear();
    s.network.spikeMs = 5000;
    s.network.script = {scriptEntry(1, "*/*/t1", FaultKind::Server5xxBeforeCommit),
                        scriptEntry(1, "*/*/t2", FaultKind::LatencySpike)};
    const RunResult r = simulateChecked(s);
    QCOMPARE(timesOf(r.trace, EventKind::TransportAttempt), (QList<qint64>{0, 90, 4090}));
    QCOMPARE(timesOf(r.trace, EventKind::Timeout), QList<qint64>{3090});
    QCOMPARE(pathsOf(r.trace, EventKind::Timeout), QStringList{QStringLiteral("op1/b1/w1/t2")});
    QCOMPARE(r.metrics.timeouts, qint64(1));
    QCOMPARE(timesOf(r.trace, EventKind::OpSucceeded), QList<qint64>{4180});
    QCOMPARE(timesOf(r.trace, EventKind::Committed), (QList<qint64>{4160, 5160}));
    QCOMPARE(timesOf(r.trace, EventKind::LateResponse), QList<qint64>{5180});
    QCOMPARE(r.metrics.httpAttempts, qint64(3));
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.lateCommits, 1);
    QCOMPARE(r.metrics.durationS, 4.18);
}

// Every connection refused after 5 ms; the wrapper waits 1000 ms within a deadline counted from
// the first wrapper attempt of each business attempt; the business loop waits 1000 ms, 3 attempts.
// Deadline 1006: w1 fails at 5 ms, 5 + 1000 < 1006 retries; w2 fails at 1010, 1010 + 1000 - 0 >=
// 1006 stops; b2 starts at 2010 and its wrapper's deadline starts there again, so each business
// attempt makes two wrapper attempts. Deadline 1005: 5 + 1000 reaches it, one wrapper attempt each.
void TestPaths::wrapperDeadlineRestartsPerBusinessAttempt_data()
{
    QTest::addColumn<int>("deadlineMs");
    QTest::addColumn<QList<qint64>>("attempts");
    QTest::addColumn<QStringList>("paths");
    QTest::addColumn<qint64>("failedAt");
    QTest::addRow("two-wrapper-attempts-per-business-attempt")
        << 1006 << QList<qint64>{0, 1005, 2010, 3015, 4020, 5025}
        << QStringList{QStringLiteral("op1/b1/w1/t1"), QStringLiteral("op1/b1/w2/t1"), QStringLiteral("op1/b2/w1/t1"),
                       QStringLiteral("op1/b2/w2/t1"), QStringLiteral("op1/b3/w1/t1"), QStringLiteral("op1/b3/w2/t1")}
        << qint64(5030);
    QTest::addRow("deadline-reached-exactly") << 1005 << QList<qint64>{0, 1005, 2010}
                                             << QStringList{QStringLiteral("op1/b1/w1/t1"), QStringLiteral("op1/b2/w1/t1"),
                                                            QStringLiteral("op1/b3/w1/t1")}
                                             << qint64(2015);
}

void TestPaths::wrapperDeadlineRestartsPerBusinessAttempt()
{
    QFETCH(int, deadlineMs);
    QFETCH(QList<qint64>, attempts);
    QFETCH(QStringList, paths);
    QFETCH(qint64, failedAt);
    Scenario s = quietScenario();
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.client.wrapper.enabled = true;
    s.client.wrapper.maxAttempts = 3;
    s.client.wrapper.backoff = {BackoffKind::Constant, 1000, 2.0, 8000, Jitter::None};
    s.client.wrapper.deadlineMs = deadlineMs;
    s.network.script = {scriptEntry(1, "*/*/*", FaultKind::ConnectFailure)};
    const RunResult r = simulateChecked(s);
    QCOMPARE(timesOf(r.trace, EventKind::TransportAttempt), attempts);
    QCOMPARE(pathsOf(r.trace, EventKind::TransportAttempt), paths);
    QCOMPARE(timesOf(r.trace, EventKind::OpFailed), QList<qint64>{failedAt});
    QCOMPARE(r.metrics.httpAttempts, qint64(attempts.size()));
    int deadlines = 0;
    for (const TraceEvent &e : r.trace)
        deadlines += e.kind == EventKind::GaveUp && e.lane == Lane::Wrapper && e.detail() == QLatin1String("deadline reached");
    QCOMPARE(deadlines, 3);
}

// No business loop: the @retry wrapper builds the request again on each of its attempts. w1's
// response is lost after the commit (70 ms); the client times out at 3000 ms, w2 at 3100 ms
// carries the same key with a changed payload: 422 at 3120 ms, received at 3140; the wrapper
// (retry on any error) tries w3 at 3240 ms: 422 at 3260 ms, and stops at 3280 ms after 3 attempts.
// With an unchanged payload w2 is replayed instead.
void TestPaths::payloadChangedOnWrapperRetry_data()
{
    QTest::addColumn<bool>("mutate");
    QTest::addColumn<QList<qint64>>("rejected422");
    QTest::addColumn<qint64>("replays");
    QTest::addColumn<qint64>("endMs");
    QTest::addColumn<bool>("succeeded");
    QTest::addRow("changed-payload-422") << true << QList<qint64>{3120, 3260} << qint64(0) << qint64(3280) << false;
    QTest::addRow("same-payload-replayed") << false << QList<qint64>{} << qint64(1) << qint64(3140) << true;
}

void TestPaths::payloadChangedOnWrapperRetry()
{
    QFETCH(bool, mutate);
    QFETCH(QList<qint64>, rejected422);
    QFETCH(qint64, replays);
    QFETCH(qint64, endMs);
    QFETCH(bool, succeeded);
    Scenario s = quietScenario();
    s.client.wrapper.enabled = true;
    s.client.wrapper.maxAttempts = 3;
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.client.mutatePayloadOnRetry = mutate;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    s.network.script = {scriptEntry(1, "b1/w1/t1", FaultKind::ResponseLost)};
    const RunResult r = simulateChecked(s);
    QList<qint64> rejected;
    for (const TraceEvent &e : r.trace)
        if (e.kind == EventKind::Rejected && e.status == 422)
            rejected.append(e.t / kMs);
    QCOMPARE(rejected, rejected422);
    QCOMPARE(r.metrics.mismatch422, qint64(rejected422.size()));
    QCOMPARE(r.metrics.replays, replays);
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.httpAttempts, qint64(1 + (succeeded ? 1 : 2)));
    QCOMPARE(timesOf(r.trace, succeeded ? EventKind::OpSucceeded : EventKind::OpFailed), QList<qint64>{endMs});
    QCOMPARE(r.metrics.orphans, succeeded ? 0 : 1);
}

// A 429 with Retry-After: 2 is received at 40 ms; the business wait is max(2000, 1000) = 2000 ms.
// tenacity stop_before_delay: a deadline of 2040 ms is reached exactly (40 + 2000) and stops;
// 2041 ms lets the retry start at 2040 ms. The deadline counts the Retry-After wait, not the backoff.
void TestPaths::businessDeadlineCountsTheRetryAfterWait_data()
{
    QTest::addColumn<int>("deadlineMs");
    QTest::addColumn<QList<qint64>>("attempts");
    QTest::addRow("reached-exactly-stops") << 2040 << QList<qint64>{0};
    QTest::addRow("one-ms-more-retries") << 2041 << QList<qint64>{0, 2040};
}

void TestPaths::businessDeadlineCountsTheRetryAfterWait()
{
    QFETCH(int, deadlineMs);
    QFETCH(QList<qint64>, attempts);
    Scenario s = quietScenario();
    s.client.business.enabled = true;
    s.client.business.deadlineMs = deadlineMs;
    s.server.retryAfterS = 2;
    s.network.script = {scriptEntry(1, "b1/*/*", FaultKind::Throttle429)};
    const RunResult r = simulateChecked(s);
    QCOMPARE(timesOf(r.trace, EventKind::TransportAttempt), attempts);
    if (attempts.size() == 1) {
        QCOMPARE(timesOf(r.trace, EventKind::OpFailed), QList<qint64>{40});
        QCOMPARE(r.metrics.clientFailed, 1);
    } else {
        QCOMPARE(timesOf(r.trace, EventKind::OpSucceeded), QList<qint64>{2130});
        QCOMPARE(r.metrics.clientSucceeded, 1);
    }
}

// Four orders a second apart, one client, a breaker opening after 2 consecutive failures for 60 s.
// op 1's connection is refused (failure 1). A 400 for op 2 is an answer from a healthy server:
// the count starts again, op 3's refusal is failure 1 again and op 4 is sent. A 503 for op 2 is
// failure 2: the breaker opens and refuses ops 3 and 4 without sending them.
void TestPaths::breakerCountsOnlyTrouble_data()
{
    QTest::addColumn<bool>("answer400");
    QTest::addColumn<qint64>("attempts");
    QTest::addColumn<qint64>("rejections");
    QTest::addRow("400-resets-the-count") << true << qint64(4) << qint64(0);
    QTest::addRow("503-opens-the-breaker") << false << qint64(2) << qint64(2);
}

void TestPaths::breakerCountsOnlyTrouble()
{
    QFETCH(bool, answer400);
    QFETCH(qint64, attempts);
    QFETCH(qint64, rejections);
    Scenario s = quietScenario();
    s.workload.orders = 4;
    s.client.circuitBreaker.enabled = true;
    s.client.circuitBreaker.failureThreshold = 2;
    s.client.circuitBreaker.openMs = 60000;
    s.network.script = {scriptEntry(1, "*/*/*", FaultKind::ConnectFailure), scriptEntry(3, "*/*/*", FaultKind::ConnectFailure)};
    if (answer400) {
        s.server.idempotency.mode = IdempotencyMode::Atomic;
        s.server.idempotency.requireKey = true; // and the client sends none: 400
    } else {
        s.network.script.append(scriptEntry(2, "*/*/*", FaultKind::Server5xxBeforeCommit));
    }
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.httpAttempts, attempts);
    QCOMPARE(r.metrics.circuitRejections, rejections);
    QCOMPARE(timesOf(r.trace, EventKind::CircuitOpen), answer400 ? QList<qint64>{} : (QList<qint64>{2000, 3000}));
    QCOMPARE(r.metrics.clientFailed, 4);
}

QTEST_GUILESS_MAIN(TestPaths)
#include "tst_paths.moc"
