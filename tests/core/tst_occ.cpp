// server.model occ: which layer re-reads the row's version (client.occRead), and what the layers
// below it do with a write they resend.
//
// Where the rule comes from:
// - urllib3 connectionpool.py, HTTPConnectionPool.urlopen: every retry branch calls
//   self.urlopen(method, url, body, headers, retries, ...) again, the same method, body and
//   headers: a resent conditional write carries the version it was built with.
// - aws-samples/aws-arch-backoff-simulator src/backoff_simulator.py, OccClient: start() reads,
//   read_rsp() writes with the version read, write_rsp() on a failed write backs off and reads again:
//   the loop that does the read-modify-write re-reads on each of its attempts.
//
// Times by hand: quietScenario (20 ms each way), processing 0 ms, a 3000 ms timeout. A read is a
// round trip before the write: read at 0 reaches the row at 20 ms, its reply is back at 40 ms, the
// write reaches the server at 60 ms.
#include "simulator.h"

#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

Scenario occScenario()
{
    Scenario s = quietScenario();
    s.server.model = ServerModel::Occ;
    s.server.processingMs = {0, 0};
    return s;
}

// The first write commits and its response is lost: the client times out at 40 + 3000 ms.
Scenario lostFirstResponse()
{
    Scenario s = occScenario();
    s.network.script << scriptEntry(1, "b1/w1/t1", FaultKind::ResponseLost);
    return s;
}


} // namespace

class TestOcc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void transportResendsTheSameWrite();
    void businessLoopRereadsAndAppliesTwice();
    void wrapperResendsUnlessItReads();
    void wrapperThatReadsAppliesTwice();
    void severalRowsSequential();
    void simultaneousWritesAllArriveFirst();
    void fieldNamesTheLayer();
};

void TestOcc::transportResendsTheSameWrite()
{
    // urllib3 with POST allowed resends the write of version 0 at 3040 ms (its first retry waits
    // 0 s, Retry.get_backoff_time): it reaches the row, now at version 1, at 3060 ms and gets 409.
    // No second application; the client hears 409 at 3080 ms and, with no business loop, reports
    // a failure for a write that committed: an orphan.
    Scenario s = lostFirstResponse();
    s.client.transport.enabled = true;
    s.client.transport.allowedMethods << QStringLiteral("POST");
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.reads, 1);
    QCOMPARE(r.metrics.httpAttempts, 2);
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.duplicates, 0);
    QCOMPARE(r.metrics.versionConflicts, 1);
    QCOMPARE(r.metrics.orphans, 1);
    QCOMPARE(r.metrics.clientFailed, 1);
    const QList<TraceEvent> conflicts = eventsOf(r, EventKind::VersionConflict);
    QCOMPARE(conflicts.size(), 1);
    QCOMPARE(conflicts[0].t, 3060000);
    QCOMPARE(conflicts[0].arg, 1);  // row 1
    QCOMPARE(conflicts[0].arg2, 0); // the version the resent write carries
    QCOMPARE(conflicts[0].arg3, 1); // the row's version now
    QCOMPARE(r.ops.first().end, 3080000);
}

void TestOcc::businessLoopRereadsAndAppliesTwice()
{
    // The same, with the business loop on (constant 1000 ms): the 409 goes up to the loop that
    // does the read-modify-write; it waits until 4080 ms, reads version 1 (at 4100 ms) and writes
    // it: the row goes to version 2 at 4140 ms, the order applied twice. The layer that re-reads
    // makes OCC unsafe; the transport below it only made the conflict.
    Scenario s = lostFirstResponse();
    s.client.transport.enabled = true;
    s.client.transport.allowedMethods << QStringLiteral("POST");
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.reads, 2);
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.duplicates, 1);
    QCOMPARE(r.metrics.versionConflicts, 1);
    QCOMPARE(r.metrics.clientSucceeded, 1);
    const QList<TraceEvent> commits = eventsOf(r, EventKind::Committed);
    QCOMPARE(commits.size(), 2);
    QCOMPARE(commits[0].t, 60000);
    QCOMPARE(commits[1].t, 4140000);
    QCOMPARE(commits[1].arg3, 2); // row version 2
    const QList<TraceEvent> reads = eventsOf(r, EventKind::RowRead);
    QCOMPARE(reads.size(), 2);
    QCOMPARE(reads[1].t, 4100000);
    QCOMPARE(reads[1].arg2, 1);
}

void TestOcc::wrapperResendsUnlessItReads()
{
    // The business loop reads (the default): the @retry wrapper around a send that does not read
    // resends the write of version 0. Its retry at 3140 ms (100 ms wait) meets version 1 at
    // 3160 ms: 409 at 3180; it retries the 409 at 3280, 409 again at 3300, and gives up at 3320 ms
    // after 3 attempts: one record, two conflicts, an orphan.
    Scenario s = lostFirstResponse();
    s.client.wrapper.enabled = true;
    s.client.wrapper.maxAttempts = 3;
    QCOMPARE(s.client.occRead, OccRead::Business);
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.reads, 1);
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.versionConflicts, 2);
    QCOMPARE(r.metrics.orphans, 1);
    const QList<TraceEvent> conflicts = eventsOf(r, EventKind::VersionConflict);
    QCOMPARE(conflicts.size(), 2);
    QCOMPARE(conflicts[0].t, 3160000);
    QCOMPARE(conflicts[1].t, 3300000);
    QCOMPARE(r.ops.first().end, 3320000);
}

void TestOcc::wrapperThatReadsAppliesTwice()
{
    // client.occRead wrapper: the decorated function reads the row itself, so its retry at 3140 ms
    // reads version 1 (3160 ms) and writes it at 3200 ms: the order applied twice.
    Scenario s = lostFirstResponse();
    s.client.wrapper.enabled = true;
    s.client.wrapper.maxAttempts = 3;
    s.client.occRead = OccRead::Wrapper;
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.reads, 2);
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.duplicates, 1);
    QCOMPARE(r.metrics.versionConflicts, 0);
    const QList<TraceEvent> commits = eventsOf(r, EventKind::Committed);
    QCOMPARE(commits.size(), 2);
    QCOMPARE(commits[1].t, 3200000);
    // An idempotency key stops it: the re-read write is a replay of the stored 201.
    s.client.keyPlacement = KeyPlacement::PerOperation;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    const RunResult keyed = simulateChecked(s);
    QCOMPARE(keyed.metrics.records, 1);
    QCOMPARE(keyed.metrics.replays, 1);
    QCOMPARE(keyed.metrics.clientSucceeded, 1);
}

void TestOcc::severalRowsSequential()
{
    // Issue 20 edge: one order a second on three rows, each done in 80 ms: nothing overlaps, so
    // nothing conflicts, and each read shows its own row's version, the number of earlier commits
    // to that row (not row 1's).
    Scenario s = occScenario();
    s.server.occRows = 3;
    s.workload.orders = 30;
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.versionConflicts, 0);
    QCOMPARE(r.metrics.records, 30);
    QList<int> commitsPerRow{0, 0, 0};
    QSet<qint64> rowsRead;
    bool laterRowWithVersion = false;
    for (const TraceEvent &e : r.trace) {
        if (e.kind == EventKind::RowRead) {
            QVERIFY(e.arg >= 1 && e.arg <= 3);
            QCOMPARE(e.arg2, qint64(commitsPerRow[int(e.arg - 1)]));
            rowsRead.insert(e.arg);
            laterRowWithVersion |= e.arg >= 2 && e.arg2 > 0;
        } else if (e.kind == EventKind::Committed) {
            ++commitsPerRow[int(e.arg2 - 1)];
            QCOMPARE(e.arg3, qint64(commitsPerRow[int(e.arg2 - 1)]));
        }
    }
    QCOMPARE(rowsRead.size(), 3);
    QVERIFY(laterRowWithVersion);
}

void TestOcc::simultaneousWritesAllArriveFirst()
{
    // Three clients start together: their reads and writes travel 20 ms each way, so the three
    // writes reach the row at the same microsecond (60 ms). Each arrival schedules the end of
    // its processing (0 ms) behind the arrivals already due at that instant, so all three arrive
    // before the first is processed: one commit, two conflicts, in that order. The engine runs an
    // end of processing at once only when nothing else is due at the instant (Engine::runsNow,
    // round six of docs/benchmarks.md); run at once here it would commit between the arrivals.
    Scenario s = occScenario();
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = 3;
    s.workload.opsPerClient = 1;
    s.workload.startTogether = true;
    const RunResult r = simulateChecked(s);
    QStringList at60;
    for (const TraceEvent &e : r.trace) {
        if (e.t != 60000)
            continue;
        if (e.kind == EventKind::RequestArrived)
            at60 << QStringLiteral("arrived %1").arg(e.op);
        else if (e.kind == EventKind::Committed)
            at60 << QStringLiteral("committed %1").arg(e.op);
        else if (e.kind == EventKind::VersionConflict)
            at60 << QStringLiteral("conflict %1").arg(e.op);
    }
    const QStringList expected{QStringLiteral("arrived 1"), QStringLiteral("arrived 2"), QStringLiteral("arrived 3"),
                               QStringLiteral("committed 1"), QStringLiteral("conflict 2"), QStringLiteral("conflict 3")};
    QCOMPARE(at60, expected);

    // The same run untraced: the same metrics and the same count of events handled, whether an
    // end of processing went through the queue or ran at once.
    RunOptions untraced;
    untraced.trace = false;
    const RunResult streamed = simulate(s, untraced);
    QCOMPARE(streamed.metrics, r.metrics);
    QCOMPARE(streamed.events, r.events);
}

void TestOcc::fieldNamesTheLayer()
{
    // The setting's names, and a clear refusal of another.
    QCOMPARE(scenario::toString(OccRead::Business), QStringLiteral("business"));
    QCOMPARE(scenario::toString(OccRead::Wrapper), QStringLiteral("wrapper"));
    const ScenarioParse wrapper = scenario::withValue(occScenario(), QStringLiteral("client.occRead"),
                                                      QStringLiteral("wrapper"));
    QVERIFY(wrapper.ok());
    QCOMPARE(wrapper.scenario.client.occRead, OccRead::Wrapper);
    const ScenarioParse bad = scenario::withValue(occScenario(), QStringLiteral("client.occRead"),
                                                  QStringLiteral("transport"));
    QVERIFY(!bad.ok());
    QVERIFY2(bad.errors.first().contains(QLatin1String("client.occRead")), qPrintable(bad.errors.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestOcc)
#include "tst_occ.moc"
