// Edges no test pinned before issue 20 ("Edges that no test pins yet"): each a behaviour a student
// relies on, each with hand-computed numbers. Times: quietScenario (20 ms each way, 50 ms of
// processing, 3000 ms timeout, constant waits: business 1000 ms, wrapper 100 ms).
#include "faults.h"
#include "orderservice.h"
#include "rng.h"
#include "series.h"
#include "server/serverpipeline.h"
#include "simulator.h"

#include "recordinghost.h"
#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

ScriptEntry getEntry(int op, const char *attempt, FaultKind fault)
{
    ScriptEntry e = scriptEntry(op, attempt, fault);
    e.method = ScriptMethod::Get;
    return e;
}

// A business loop that asks GET /orders?ref= before each retry, its first response lost (the
// order committed at 70 ms, the client times out at 3000 ms and queries at 4000 ms).
Scenario queryingAfterLostResponse()
{
    Scenario s = quietScenario();
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.client.queryBeforeRetry = true;
    s.network.script << scriptEntry(1, "b1/w1/t1", FaultKind::ResponseLost);
    return s;
}

} // namespace

class TestEdges : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadSeriesCountsLayerRetriesAsRetries();
    void closedLoopDoubleSubmitWaitsItsDelay();
    void failedQueryDoesNotResendASpentToken();
    void queryMeetsScripted5xxAfterCommit();
    void memoryStoreForgetsTokensOnRestart();
    void firstQueryDrawsFromItsOwnStream();
    void serverUpAtExactlyTheEndOfItsDowntime();
};

void TestEdges::loadSeriesCountsLayerRetriesAsRetries()
{
    // b1/w1/t1 and b1/w2/t1 get a 503 before commit; the business retry b2/w1/t1 commits. Only
    // the very first attempt is a first try: a business or wrapper retry starts at t1 but is a
    // retry all the same.
    Scenario s = quietScenario();
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 2;
    s.client.wrapper.enabled = true;
    s.client.wrapper.maxAttempts = 2;
    s.network.script << scriptEntry(1, "b1/w1/t1", FaultKind::Server5xxBeforeCommit)
                     << scriptEntry(1, "b1/w2/t1", FaultKind::Server5xxBeforeCommit);
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.httpAttempts, 3);
    const Series series = series::fromTrace(r.trace, 10 * 1000000);
    QCOMPARE(series.buckets.size(), qsizetype(1));
    QCOMPARE(series.buckets[0].attempts, 3);
    QCOMPARE(series.buckets[0].firstTries, 1);
    QCOMPARE(series.buckets[0].retries, 2);
}

void TestEdges::closedLoopDoubleSubmitWaitsItsDelay()
{
    // One closed-loop client, two orders, each submitted twice 37 ms apart, 100 ms of thought.
    // ORD-0001 at 0 and again at 37 ms; its first submission ends at 90 ms (20 + 50 + 20), so
    // ORD-0002 starts at 190 ms and again at 227 ms.
    Scenario s = quietScenario();
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = 1;
    s.workload.opsPerClient = 2;
    s.workload.thinkTimeMs = 100;
    s.workload.doubleSubmitRate = 1.0;
    s.workload.doubleSubmitDelayMs = 37;
    const RunResult r = simulateChecked(s);
    QList<QPair<int, qint64>> starts; // (op * 10 + submission, t)
    for (const TraceEvent &e : eventsOf(r, EventKind::OpStart))
        starts << qMakePair(e.op * 10 + e.sub, e.t);
    std::sort(starts.begin(), starts.end());
    QCOMPARE(starts, (QList<QPair<int, qint64>>{{11, 0}, {12, 37000}, {21, 190000}, {22, 227000}}));
}

void TestEdges::failedQueryDoesNotResendASpentToken()
{
    // Server tokens, single-use. b1's response is lost (committed, token spent). b2's status query
    // is refused (connect failure): unknown, resend, and the POST gets 409 "token already used".
    // b3's query is refused too: the token is known to be spent, so nothing is resent: two POSTs.
    Scenario s = queryingAfterLostResponse();
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.client.onUnknownQuery = UnknownQuery::Resend;
    s.server.idempotency.mode = IdempotencyMode::Token;
    s.network.script << getEntry(1, "b2/w1/t1", FaultKind::ConnectFailure)
                     << getEntry(1, "b3/w1/t1", FaultKind::ConnectFailure);
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.queries, 2);
    QCOMPARE(r.ops.first().attempts, 2);
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.conflicts409, 1);
    QCOMPARE(r.metrics.orphans, 1);
}

void TestEdges::queryMeetsScripted5xxAfterCommit()
{
    // A scripted server5xxAfterCommit on b2's status query: the query is answered 503 (nothing
    // to commit, the server just fails), the answer stays unknown and the loop goes on to b3,
    // whose query finds the order: two queries, one POST, the 503 on a GET.
    Scenario s = queryingAfterLostResponse();
    s.network.script << getEntry(1, "b2/w1/t1", FaultKind::Server5xxAfterCommit);
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.queries, 2);
    QCOMPARE(r.ops.first().attempts, 1);
    QCOMPARE(r.metrics.clientSucceeded, 1);
    const QList<TraceEvent> errors = eventsOf(r, EventKind::ServerError);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].status, 503);
    QCOMPARE(errors[0].method, TraceMethod::GetOrder);
    QCOMPARE(errors[0].business, qint16(2));
}

void TestEdges::memoryStoreForgetsTokensOnRestart()
{
    // design 1.4b: a memory key store forgets every key and token on a restart; a token issued
    // before it is unknown after it (400). A durable one keeps it: the order goes ahead.
    for (const KeyStore store : {KeyStore::Memory, KeyStore::Durable}) {
        Scenario s;
        s.server.idempotency.mode = IdempotencyMode::Token;
        s.server.idempotency.store = store;
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        service.issueToken(5);
        pipeline.restart();
        const ServerHost::Id id = host.add(post(1, 5));
        pipeline.arrive(id);
        if (store == KeyStore::Memory) {
            QCOMPARE(host.delivered, (std::vector<std::pair<ServerHost::Id, int>>{{id, 400}}));
            QVERIFY(host.scheduled.empty());
        } else {
            QVERIFY(host.delivered.empty());
            QCOMPARE(host.scheduled, std::vector<ServerHost::Id>{id});
        }
    }
}

void TestEdges::firstQueryDrawsFromItsOwnStream()
{
    // The first HTTP attempt of b2's status query draws its dice from the stream of (op 1,
    // submission 1, business attempt 2): request loss, response loss, then its latency (the
    // third draw). faults.cpp queryDice; pinned here by drawing that stream by hand.
    Scenario s = queryingAfterLostResponse();
    s.network.latencyMs = {20, 400};
    RngStream rng(s.seed, RngStream::Query, {1, 1, 2});
    rng.uniform();
    rng.uniform();
    const qint64 latency = faults::drawUs(s.network.latencyMs, rng);
    const RunResult r = simulateChecked(s);
    const QList<TraceEvent> sent = eventsOf(r, EventKind::QuerySent);
    QVERIFY(!sent.isEmpty());
    qint64 arrived = -1;
    for (const TraceEvent &e : eventsOf(r, EventKind::RequestArrived))
        if (e.method == TraceMethod::GetOrder && arrived < 0)
            arrived = e.t;
    QCOMPARE(arrived - sent.first().t, latency);
    QVERIFY(latency != 20000); // the jitter drew something: the stream is pinned, not the base
}

void TestEdges::serverUpAtExactlyTheEndOfItsDowntime()
{
    // A restart at 1 s keeps the server down for [1 s, 1.5 s): an order sent at exactly 1.5 s is
    // accepted (the server listens again at the end of its downtime); down 1 ms longer, it is
    // refused (connect failure, no retry layer): ORD-0002 fails.
    Scenario s = quietScenario();
    s.workload.orders = 2;
    s.workload.interArrivalMs = 1500;
    s.server.restartsAtS = {1};
    s.server.restartDownMs = 500;
    RunResult r = simulateChecked(s);
    QCOMPARE(r.ops.at(1).start, 1500000);
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.clientSucceeded, 2);
    s.server.restartDownMs = 501;
    r = simulateChecked(s);
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.clientFailed, 1);
    QCOMPARE(eventsOf(r, EventKind::ConnectFailed).size(), 1);
}

QTEST_GUILESS_MAIN(TestEdges)
#include "tst_edges.moc"
