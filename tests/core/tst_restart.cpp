// A server restart and the connections it held (issue 20 item 12, server.restartInFlight): a crashed
// process's sockets are closed by the kernel, so each client sees a reset at once; urllib3 counts a
// reset as a read error (urllib3 util/retry.py Retry.increment: ProtocolError is a read error,
// `_is_read_error`), which a POST outside allowed_methods does not retry. `hang`, the behaviour
// before, keeps them silent until each client's timeout.
//
// Times by hand: quietScenario (20 ms each way, 3000 ms timeout, business waits 1000 ms).
#include "simulator.h"

#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

// One order processed for 2 s (20 ms to 2020 ms) and a restart at 1 s, down 500 ms.
Scenario restartWhileProcessing(RestartInFlight inFlight)
{
    Scenario s = quietScenario();
    s.server.processingMs = {2000, 0};
    s.server.restartsAtS = {1};
    s.server.restartDownMs = 500;
    s.server.restartInFlight = inFlight;
    return s;
}

int count(const RunResult &r, EventKind kind)
{
    return int(eventsOf(r, kind).size());
}

} // namespace

class TestRestart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void processingRequestIsResetAtOnce();
    void hangKeepsItSilentUntilTheTimeout();
    void businessRetryAfterTheReset();
    void transportCountsTheResetAsARead();
    void committedThenRestartedIsReset();
    void queuedRequestsAreResetToo();
};

void TestRestart::processingRequestIsResetAtOnce()
{
    // The restart at 1000 ms resets the connection; the reset reaches the client at 1020 ms.
    const RunResult r = simulateChecked(restartWhileProcessing(RestartInFlight::Reset));
    QCOMPARE(r.metrics.records, 0);
    QCOMPARE(r.metrics.clientFailed, 1);
    QCOMPARE(r.ops.first().end, 1020000);
    QCOMPARE(count(r, EventKind::ServerRestarted), 1);
    QCOMPARE(count(r, EventKind::Timeout), 0);
}

void TestRestart::hangKeepsItSilentUntilTheTimeout()
{
    // The same restart with `hang`: nothing comes back; the client times out at 3000 ms.
    const RunResult r = simulateChecked(restartWhileProcessing(RestartInFlight::Hang));
    QCOMPARE(r.metrics.records, 0);
    QCOMPARE(r.ops.first().end, 3000000);
    QCOMPARE(count(r, EventKind::Timeout), 1);
}

void TestRestart::businessRetryAfterTheReset()
{
    // Reset at 1020 ms, the business loop waits 1000 ms: its retry at 2020 ms finds the server back
    // (down until 1500 ms), is processed from 2040 to 4040 ms and answered at 4060 ms. With `hang`
    // the retry waits for the timeout: sent at 4000 ms, answered at 6040 ms.
    for (const auto &[inFlight, end] : {std::pair{RestartInFlight::Reset, 4060000}, std::pair{RestartInFlight::Hang, 6040000}}) {
        Scenario s = restartWhileProcessing(inFlight);
        s.client.business.enabled = true;
        s.client.business.maxAttempts = 3;
        const RunResult r = simulateChecked(s);
        QCOMPARE(r.metrics.records, 1);
        QCOMPARE(r.metrics.clientSucceeded, 1);
        QCOMPARE(r.ops.first().end, qint64(end));
    }
}

void TestRestart::transportCountsTheResetAsARead()
{
    // urllib3 with POST allowed but read=0: the reset spends the read counter, so the transport
    // gives up at 1020 ms after one attempt (a connect error would have been retried: connect is
    // unlimited, total 3).
    Scenario s = restartWhileProcessing(RestartInFlight::Reset);
    s.client.transport.enabled = true;
    s.client.transport.allowedMethods << QStringLiteral("POST");
    s.client.transport.read = 0;
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.metrics.httpAttempts, 1);
    QCOMPARE(r.ops.first().end, 1020000);
    // POST outside allowed_methods (urllib3's default): a read error on POST is not retried.
    Scenario byDefault = restartWhileProcessing(RestartInFlight::Reset);
    byDefault.client.transport.enabled = true;
    const RunResult d = simulateChecked(byDefault);
    QCOMPARE(d.metrics.httpAttempts, 1);
    QCOMPARE(d.ops.first().end, 1020000);
}

void TestRestart::committedThenRestartedIsReset()
{
    // Script serverRestart: ORD-0001 commits at 70 ms and the process dies before it answers: the
    // client sees the reset at 90 ms (hang: its timeout at 3000 ms). Either way the order exists:
    // an orphan.
    for (const auto &[inFlight, end] : {std::pair{RestartInFlight::Reset, 90000}, std::pair{RestartInFlight::Hang, 3000000}}) {
        Scenario s = quietScenario();
        s.server.restartInFlight = inFlight;
        s.network.script << scriptEntry(1, "b1/w1/t1", FaultKind::ServerRestart);
        const RunResult r = simulateChecked(s);
        QCOMPARE(r.metrics.records, 1);
        QCOMPARE(r.metrics.orphans, 1);
        QCOMPARE(r.ops.first().end, qint64(end));
    }
}

void TestRestart::queuedRequestsAreResetToo()
{
    // One processing slot, a queue of 5: ORD-0001 (sent at 0) processes from 20 to 2020 ms, ORD-0002
    // (sent at 500 ms) waits in the queue from 520 ms. The restart at 1 s resets both: 1020 ms.
    Scenario s = restartWhileProcessing(RestartInFlight::Reset);
    s.workload.orders = 2;
    s.workload.interArrivalMs = 500;
    s.server.capacity = 1;
    s.server.queue = 5;
    const RunResult r = simulateChecked(s);
    QCOMPARE(r.ops.size(), 2);
    QCOMPARE(r.ops.at(0).end, 1020000);
    QCOMPARE(r.ops.at(1).end, 1020000);
    QCOMPARE(count(r, EventKind::ServerRestarted), 2);
}

QTEST_GUILESS_MAIN(TestRestart)
#include "tst_restart.moc"
