// README "Stored results": which answers are stored under the idempotency key and replayed, row by
// row, on the simulated path through ServerPipeline (the live server hosts the same pipeline and
// asks the same OrderService::storedStatus).
//
// Where the rule comes from:
// - IETF draft-ietf-httpapi-idempotency-key-header, section 2.6: a request still in progress gets 409,
//   a key reused with another payload 422; neither is the operation's result.
// - Stripe, "Idempotent requests": the status and body of the first request are saved "regardless of
//   whether it succeeds or fails ... including 500 errors", but "results are only saved if an API
//   endpoint started executing": validation failures and concurrent conflicts save nothing.
// - brandur, rocket-rides-atomic: an error before the commit rolls back and unlocks the key.
#include "faults.h"
#include "orderservice.h"
#include "server/serverpipeline.h"
#include "simulator.h"

#include "recordinghost.h"
#include "testsupport.h"

#include <QTest>

#include <memory>

using namespace retrylab;
using namespace retrylab::test;

namespace {

constexpr quint64 kKey = 77;

// One server on the recording host.
struct Bench
{
    explicit Bench(const Scenario &scenario, const ServerPipeline::Options &options = {})
        : s(scenario)
        , service(s.server)
        , pipeline(s, service, host, options)
    {
        host.pipeline = &pipeline;
    }
    // A keyed POST with `faults`; returns its id after it arrived.
    ServerHost::Id arrive(quint32 faults = 0, qint64 version = 0, quint64 fingerprint = 1)
    {
        ServerRequest r = post(1, kKey);
        r.faults = faults;
        r.version = version;
        r.order.fingerprint = fingerprint;
        const ServerHost::Id id = host.add(r);
        pipeline.arrive(id);
        return id;
    }
    bool processing(ServerHost::Id id) const
    {
        return std::find(host.scheduled.begin(), host.scheduled.end(), id) != host.scheduled.end();
    }

    Scenario s;
    OrderService service;
    RecordingHost host;
    ServerPipeline pipeline;
};

Scenario atomicServer(bool storeErrors)
{
    Scenario s;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    s.server.idempotency.storeErrors = storeErrors;
    s.server.errorStatus = 503;
    s.server.retryAfterS = 2;
    return s;
}

} // namespace

class TestStoredResults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ruleTable_data();
    void ruleTable();
    void throughThePipeline_data();
    void throughThePipeline();
    void refusalsKeepTheKeysAnswer();
    void fiveClientsOneRowAllSucceed();
};

void TestStoredResults::ruleTable_data()
{
    QTest::addColumn<int>("outcome");
    QTest::addColumn<bool>("storeErrors");
    QTest::addColumn<int>("stored");
    const auto row = [](const char *name, KeyOutcome o, bool storeErrors, int stored) {
        QTest::addRow("%s", name) << int(o) << storeErrors << stored;
    };
    row("created", KeyOutcome::Created, true, 201);
    row("created-only-successes", KeyOutcome::Created, false, 201);
    row("failed-after-commit-store-errors", KeyOutcome::FailedAfterCommit, true, 503);
    row("failed-after-commit-only-successes", KeyOutcome::FailedAfterCommit, false, 201);
    row("failed-before-commit-store-errors", KeyOutcome::FailedBeforeCommit, true, 0);
    row("failed-before-commit", KeyOutcome::FailedBeforeCommit, false, 0);
    row("version-conflict-store-errors", KeyOutcome::VersionConflict, true, 0);
    row("commit-refused", KeyOutcome::CommitRefused, true, 0);
    row("refused", KeyOutcome::Refused, true, 0);
    row("throttled", KeyOutcome::Throttled, true, 0);
    row("dropped", KeyOutcome::Dropped, true, 0);
}

void TestStoredResults::ruleTable()
{
    QFETCH(int, outcome);
    QFETCH(bool, storeErrors);
    QFETCH(int, stored);
    IdempotencyConfig c;
    c.storeErrors = storeErrors;
    QCOMPARE(OrderService::storedStatus(KeyOutcome(outcome), 503, c), stored);
}

void TestStoredResults::throughThePipeline_data()
{
    // How the first keyed request ends, what it answered, and what a second request with the same
    // key and payload then gets: a replay of `replayed`, or (0) processing afresh, which commits.
    QTest::addColumn<int>("outcome");
    QTest::addColumn<bool>("storeErrors");
    QTest::addColumn<int>("firstStatus");
    QTest::addColumn<int>("replayed");
    const auto row = [](const char *name, KeyOutcome o, bool storeErrors, int first, int replayed) {
        QTest::addRow("%s", name) << int(o) << storeErrors << first << replayed;
    };
    row("created-replays-201", KeyOutcome::Created, true, 201, 201);
    row("after-commit-replays-the-error", KeyOutcome::FailedAfterCommit, true, 503, 503);
    row("after-commit-replays-201", KeyOutcome::FailedAfterCommit, false, 503, 201);
    row("before-commit-released", KeyOutcome::FailedBeforeCommit, true, 503, 0);
    row("before-commit-released-only-successes", KeyOutcome::FailedBeforeCommit, false, 503, 0);
    row("version-conflict-released", KeyOutcome::VersionConflict, true, 409, 0);
    row("commit-refused-released", KeyOutcome::CommitRefused, true, 500, 0);
    row("throttled-429-not-stored", KeyOutcome::Throttled, true, 429, 0);
    row("dropped-by-restart-released", KeyOutcome::Dropped, true, 0, 0);
}

void TestStoredResults::throughThePipeline()
{
    QFETCH(int, outcome);
    QFETCH(bool, storeErrors);
    QFETCH(int, firstStatus);
    QFETCH(int, replayed);
    const KeyOutcome o = KeyOutcome(outcome);
    ServerPipeline::Options options;
    options.occ = o == KeyOutcome::VersionConflict;
    Bench b(atomicServer(storeErrors), options);

    quint32 faults = 0;
    if (o == KeyOutcome::FailedAfterCommit)
        faults = faults::Error5xxAfter;
    else if (o == KeyOutcome::FailedBeforeCommit)
        faults = faults::Error5xxBefore;
    else if (o == KeyOutcome::Throttled)
        faults = faults::Throttle429;
    if (o == KeyOutcome::CommitRefused)
        b.host.refuseCommit = QStringLiteral("disk full");
    // occ: the first write carries version 3 of a row still at 0, a stale read.
    const ServerHost::Id first = b.arrive(faults, o == KeyOutcome::VersionConflict ? 3 : 0);
    if (o == KeyOutcome::Dropped)
        b.pipeline.restart();
    else if (b.processing(first))
        b.pipeline.processingDone(first);
    b.host.refuseCommit.clear();
    QCOMPARE(b.host.requests[first].status, firstStatus);

    const ServerHost::Id second = b.arrive();
    if (replayed) {
        QVERIFY(!b.processing(second));
        QVERIFY(b.host.requests[second].replayed);
        QCOMPARE(b.host.delivered.back(), std::make_pair(second, replayed));
        QCOMPARE(b.pipeline.counters().replays, qint64(1));
        return;
    }
    // Nothing was stored: the retry is processed and commits the order.
    QVERIFY(b.processing(second));
    b.pipeline.processingDone(second);
    QCOMPARE(b.host.delivered.back(), std::make_pair(second, 201));
    QVERIFY(!b.host.requests[second].replayed);
    QCOMPARE(b.pipeline.counters().replays, qint64(0));
    QCOMPARE(b.service.records().size(), size_t(1)); // the first never committed
}

void TestStoredResults::refusalsKeepTheKeysAnswer()
{
    // 409 "in progress" and 422 "other payload" answer about the key, not the order: neither
    // replaces what the key holds (the draft's 409 and 422; Stripe saves nothing for them).
    Bench b(atomicServer(true));
    const ServerHost::Id held = b.arrive();
    const ServerHost::Id concurrent = b.arrive();
    QCOMPARE(b.host.delivered.back(), std::make_pair(concurrent, 409));
    b.pipeline.processingDone(held);
    QCOMPARE(b.host.delivered.back(), std::make_pair(held, 201));
    const ServerHost::Id other = b.arrive(0, 0, 2);
    QCOMPARE(b.host.delivered.back(), std::make_pair(other, 422));
    const ServerHost::Id again = b.arrive();
    QVERIFY(b.host.requests[again].replayed);
    QCOMPARE(b.host.delivered.back(), std::make_pair(again, 201));
    QCOMPARE(b.service.records().size(), size_t(1));
}

void TestStoredResults::fiveClientsOneRowAllSucceed()
{
    // Issue 20 item 2: five clients update one row with optimistic concurrency, each with its own
    // per-operation key on an atomic store. Before the rule a version conflict was stored under
    // the key and replayed to every retry (1 of 5 orders, 64 replays, 19 s); a conflict is not a
    // result, so each loser re-reads and commits: 5 of 5, nothing replayed.
    Scenario s = presetScenario(QStringLiteral("jitter-contention"));
    s.workload.clients = 5;
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    QVERIFY(s.server.idempotency.storeErrors); // the default
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.logicalOperations, 5);
    QCOMPARE(r.metrics.clientSucceeded, 5);
    QCOMPARE(r.metrics.records, 5);
    QCOMPARE(r.metrics.replays, 0);
    QVERIFY(r.metrics.versionConflicts > 0);
    QVERIFY2(r.metrics.completionS < 1.0, qPrintable(QString::number(r.metrics.completionS)));
}

QTEST_GUILESS_MAIN(TestStoredResults)
#include "tst_storedresults.moc"
