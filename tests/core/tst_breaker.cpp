// The circuit breaker as Polly and resilience4j run it: only time moves Open -> HalfOpen, late
// outcomes of calls sent before it opened neither close nor extend it, half-open admits a
// permitted number of calls whose outcomes close it or open it again.
//
// The peers' rules, read from their source:
//   Polly    src/Polly.Core/CircuitBreaker/Controller/CircuitStateController.cs
//            OnUnhandledOutcomeAsync / OnHandledOutcomeAsync ("only time passing governs
//            transitioning from Open to HalfOpen", "we do not want to extend time for which the
//            circuit is broken"), PermitHalfOpenCircuitTest_NeedsLock (`now >= _blockedUntil`, one
//            probe), TryExecuteThroughCircuitAsync (HalfOpen refuses every other call).
//   resilience4j  resilience4j-circuitbreaker/.../CircuitBreakerStateMachine.java: OpenState
//            (outcomes kept out of any decision), HalfOpenState (permittedNumberOfCalls, default 10;
//            checkIfThresholdsExceeded once they are all recorded), ClosedState (new metrics: an
//            empty window after each open).
#include "policy.h"
#include "simulator.h"
#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using retrylab::test::quietScenario;
using retrylab::test::scriptEntry;

namespace {

constexpr qint64 kMs = 1000;

CircuitBreakerConfig consecutive(int threshold, int openMs)
{
    CircuitBreakerConfig c;
    c.enabled = true;
    c.mode = BreakerMode::Consecutive;
    c.failureThreshold = threshold;
    c.openMs = openMs;
    return c;
}

int countCause(const Trace &t, TraceCause cause)
{
    int n = 0;
    for (const TraceEvent &e : t)
        n += e.kind == EventKind::BreakerChanged && e.cause == cause ? 1 : 0;
    return n;
}

// The times (ms) of the breaker's changes to `cause`.
QList<qint64> changesMs(const Trace &t, TraceCause cause)
{
    QList<qint64> out;
    for (const TraceEvent &e : t) {
        if (e.kind == EventKind::BreakerChanged && e.cause == cause)
            out << e.t / kMs;
    }
    return out;
}

// One client, every round trip 95 ms (20 ms each way, 55 ms of processing), no retry layer.
Scenario oneClient(int orders, int everyMs)
{
    Scenario s = quietScenario();
    s.workload.orders = orders;
    s.workload.interArrivalMs = everyMs;
    s.server.processingMs = {55, 0};
    s.client.circuitBreaker.enabled = true;
    return s;
}

} // namespace

class TestBreaker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void consecutiveTransitions();
    void failureRateTransitions();
    void failureRateWindowMustBeFull();
    void resilience4jHalfOpenDecidesOnAllPermitted();
    void lateSuccessDoesNotClose();
    void lateFailureDoesNotExtend();
    void deadServerPolly();
    void deadServerResilience4j();
    void halfOpenCallsField();
};

void TestBreaker::consecutiveTransitions()
{
    // Polly's consecutive breaker: threshold 3, open 1 s, one probe.
    CircuitBreaker b(consecutive(3, 1000));
    QCOMPARE(b.record(0, true).changed, false);
    QCOMPARE(b.record(10 * kMs, true).changed, false);
    const BreakerChange opened = b.record(20 * kMs, true);
    QVERIFY(opened.changed);
    QCOMPARE(opened.to, BreakerState::Open);
    QCOMPARE(opened.untilUs, 1020 * kMs);
    BreakerChange change;
    QVERIFY(!b.admit(1020 * kMs - 1, &change)); // 1 us before the end: still open
    QVERIFY(!change.changed);
    // A success and a failure of calls sent before it opened: nothing changes (items 3 and 4).
    QVERIFY(!b.record(500 * kMs, false).changed);
    QVERIFY(!b.record(600 * kMs, true).changed);
    QCOMPARE(b.state(), BreakerState::Open);
    QCOMPARE(b.openUntil(), 1020 * kMs);
    // Exactly at the end: time alone moves it to half-open, and this call is the probe.
    QVERIFY(b.admit(1020 * kMs, &change));
    QVERIFY(change.changed);
    QCOMPARE(change.to, BreakerState::HalfOpen);
    QCOMPARE(b.state(), BreakerState::HalfOpen);
    change = BreakerChange();
    QVERIFY(!b.admit(1020 * kMs + 1, &change)); // Polly: one probe; the rest fail fast
    QVERIFY(!change.changed);
    // The probe fails: open again for a whole openMs from the failure.
    const BreakerChange reopened = b.record(1100 * kMs, true);
    QCOMPARE(reopened.to, BreakerState::Open);
    QCOMPARE(reopened.untilUs, 2100 * kMs);
    QVERIFY(b.admit(2100 * kMs, &change));
    const BreakerChange closed = b.record(2200 * kMs, false);
    QVERIFY(closed.changed);
    QCOMPARE(closed.to, BreakerState::Closed);
    QVERIFY(b.admit(2200 * kMs, nullptr));
    // Closed again, the count starts from zero: two failures do not open it, a third does.
    QVERIFY(!b.record(2300 * kMs, true).changed);
    QVERIFY(!b.record(2310 * kMs, true).changed);
    QCOMPARE(b.record(2320 * kMs, true).to, BreakerState::Open);
}

void TestBreaker::failureRateTransitions()
{
    // Window 4, 50 %, two half-open calls.
    CircuitBreakerConfig c = consecutive(1, 1000);
    c.mode = BreakerMode::FailureRate;
    c.window = 4;
    c.failureRatePercent = 50;
    c.halfOpenCalls = 2;
    CircuitBreaker b(c);
    QVERIFY(!b.record(0, false).changed);
    QVERIFY(!b.record(1 * kMs, true).changed);
    QVERIFY(!b.record(2 * kMs, false).changed);
    const BreakerChange opened = b.record(3 * kMs, true); // 2 of 4 = 50 %: exactly at the rate
    QCOMPARE(opened.to, BreakerState::Open);
    QCOMPARE(opened.untilUs, 1003 * kMs);
    QCOMPARE(b.windowFilled(), 0); // the window is emptied when it opens
    BreakerChange change;
    QVERIFY(b.admit(1003 * kMs, &change));
    QCOMPARE(change.to, BreakerState::HalfOpen);
    QVERIFY(b.admit(1004 * kMs, nullptr));
    QVERIFY(!b.admit(1005 * kMs, nullptr)); // both permitted calls are out
    QVERIFY(!b.record(1100 * kMs, false).changed); // 1 of 2 in: no decision yet
    QCOMPARE(b.record(1101 * kMs, true).to, BreakerState::Open); // 1 of 2 failed = 50 %: open again
    QVERIFY(b.admit(2101 * kMs, nullptr));
    QVERIFY(b.admit(2101 * kMs, nullptr));
    QVERIFY(!b.record(2200 * kMs, false).changed);
    QCOMPARE(b.record(2201 * kMs, false).to, BreakerState::Closed);
}

void TestBreaker::failureRateWindowMustBeFull()
{
    // Three failures of a window of 4 are 100 %, but the window is not full: closed. The fourth
    // outcome, a success, fills it at 75 %: open. After the open time a probe closes it, and a
    // new window starts empty: three more failures do not open it (the old ones are gone).
    CircuitBreakerConfig c = consecutive(1, 1000);
    c.mode = BreakerMode::FailureRate;
    c.window = 4;
    c.failureRatePercent = 50;
    c.halfOpenCalls = 1;
    CircuitBreaker b(c);
    for (int i = 0; i < 3; ++i)
        QVERIFY(!b.record(i, true).changed);
    QCOMPARE(b.state(), BreakerState::Closed);
    QCOMPARE(b.windowFilled(), 3);
    QCOMPARE(b.record(3, false).to, BreakerState::Open);
    QCOMPARE(b.windowFilled(), 0);
    QVERIFY(b.admit(1000 * kMs + 3, nullptr));
    QCOMPARE(b.record(1100 * kMs, false).to, BreakerState::Closed);
    for (int i = 0; i < 3; ++i)
        QVERIFY(!b.record(1200 * kMs + i, true).changed);
    QCOMPARE(b.state(), BreakerState::Closed);
}

void TestBreaker::resilience4jHalfOpenDecidesOnAllPermitted()
{
    // resilience4j's default: 10 calls while half-open; 4 failures of 10 (40 %) under a 50 %
    // threshold close it; the decision waits for the tenth outcome.
    CircuitBreakerConfig c = consecutive(1, 1000);
    c.mode = BreakerMode::FailureRate;
    c.window = 2;
    CircuitBreaker b(c);
    QCOMPARE(c.permittedHalfOpenCalls(), 10);
    b.record(0, true);
    QCOMPARE(b.record(0, true).to, BreakerState::Open);
    for (int i = 0; i < 10; ++i)
        QVERIFY(b.admit(1000 * kMs, nullptr));
    QVERIFY(!b.admit(1000 * kMs, nullptr)); // the 11th is refused
    for (int i = 0; i < 9; ++i)
        QVERIFY(!b.record(1001 * kMs, i < 4).changed);
    QCOMPARE(b.record(1001 * kMs, false).to, BreakerState::Closed);
}

void TestBreaker::lateSuccessDoesNotClose()
{
    // Item 3. Sixty orders every 10 ms; orders 1 to 5 get a 503; threshold 5, open 5 s.
    // Order k goes at (k-1) x 10 ms and is answered 95 ms later: the fifth 503 arrives at 135 ms
    // and opens the breaker until 5,135 ms. Orders 6 to 14 (sent 50..130 ms) are in flight and
    // succeed at 145..225 ms, late: Polly and resilience4j ignore them, so orders 15 to 60
    // (140..590 ms) are all refused: 46 rejections, 9 successes, 5 failures.
    // (RetryLab before: order 6's success closed it at 145 ms, and nothing was refused.)
    Scenario s = oneClient(60, 10);
    for (int op = 1; op <= 5; ++op)
        s.network.script << scriptEntry(op, "*/*/*", FaultKind::Server5xxBeforeCommit);
    s.client.circuitBreaker.failureThreshold = 5;
    s.client.circuitBreaker.openMs = 5000;
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.circuitRejections, 46);
    QCOMPARE(r.metrics.clientSucceeded, 9);
    QCOMPARE(r.metrics.httpAttempts, 14);
    QCOMPARE(changesMs(r.trace, TraceCause::BreakerOpened), QList<qint64>{135});
    QCOMPARE(countCause(r.trace, TraceCause::BreakerClosed), 0);
}

void TestBreaker::lateFailureDoesNotExtend()
{
    // Item 4. Orders every 10 ms, orders 1 to 4 get a 503, threshold 2, open 5 s. The second 503
    // (order 2, at 105 ms) opens it until 5,105 ms. Orders 3 and 4 fail late (115, 125 ms): Polly
    // neither re-opens nor extends. Orders 12 (110 ms) to 511 (5,100 ms) are refused: 500. Order
    // 512 at 5,110 ms is the one probe (half-open at that instant); orders 513 to 521 are
    // refused while it is out (9 more); it succeeds at 5,205 ms and closes the breaker; orders
    // 522 to 530 go through. (RetryLab before: order 4 re-opened it until 5,125 ms.)
    Scenario s = oneClient(530, 10);
    for (int op = 1; op <= 4; ++op)
        s.network.script << scriptEntry(op, "*/*/*", FaultKind::Server5xxBeforeCommit);
    s.client.circuitBreaker.failureThreshold = 2;
    s.client.circuitBreaker.openMs = 5000;
    const RunResult r = simulate(s);
    QCOMPARE(changesMs(r.trace, TraceCause::BreakerOpened), QList<qint64>{105});
    QCOMPARE(changesMs(r.trace, TraceCause::BreakerHalfOpen), QList<qint64>{5110});
    QCOMPARE(changesMs(r.trace, TraceCause::BreakerClosed), QList<qint64>{5205});
    QCOMPARE(r.metrics.circuitRejections, 509);
    QCOMPARE(r.metrics.httpAttempts, 21);
    // The typed event carries the end of the open time and the probes admitted.
    for (const TraceEvent &e : r.trace) {
        if (e.kind == EventKind::BreakerChanged && e.cause == TraceCause::BreakerOpened)
            QCOMPARE(e.arg, 5105 * kMs);
        if (e.kind == EventKind::BreakerChanged && e.cause == TraceCause::BreakerHalfOpen)
            QCOMPARE(e.arg2, 1);
    }
}

void TestBreaker::deadServerPolly()
{
    // Item 5. Every answer a 503; an order every 100 ms for 30 s (300 orders), each answered
    // 95 ms after it goes, before the next. Consecutive, threshold 5, open 5 s, Polly's one probe:
    // orders 1-5 fail, the fifth at 495 ms opens it until 5,495 ms; then one probe per cycle,
    // each failing 95 ms later and opening it for another 5 s: orders 56 (5.5 s), 107 (10.6 s),
    // 158 (15.7 s), 209 (20.8 s), 260 (25.9 s; open until 30.995 s). 5 + 5 = 10 requests.
    // (RetryLab before: after each open time a full threshold of 5 went out: 30 requests.)
    Scenario s = oneClient(300, 100);
    s.server.error5xxBeforeCommit = 1.0;
    s.client.circuitBreaker.failureThreshold = 5;
    s.client.circuitBreaker.openMs = 5000;
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.httpAttempts, 10);
    QCOMPARE(r.metrics.circuitRejections, 290);
    QCOMPARE(changesMs(r.trace, TraceCause::BreakerHalfOpen), (QList<qint64>{5500, 10600, 15700, 20800, 25900}));
    QCOMPARE(countCause(r.trace, TraceCause::BreakerOpened), 6);
}

void TestBreaker::deadServerResilience4j()
{
    // The same dead server, a failure-rate breaker: window 20, 50 %, open 5 s, resilience4j's 10
    // half-open calls. Orders 1-20 fail; the 20th outcome (1,995 ms) opens it until 6,995 ms.
    // Orders 71-80 (7.0-7.9 s) are the ten permitted calls; the tenth outcome (7,995 ms) re-opens
    // it until 12,995 ms; then orders 131-140, 191-200 and 251-260 the same way (the last opens
    // it until 30,995 ms). 20 + 4 x 10 = 60 requests.
    // (RetryLab before: a whole new window of 20 after each open time: 100 requests.)
    Scenario s = oneClient(300, 100);
    s.server.error5xxBeforeCommit = 1.0;
    s.client.circuitBreaker.mode = BreakerMode::FailureRate;
    s.client.circuitBreaker.window = 20;
    s.client.circuitBreaker.failureRatePercent = 50;
    s.client.circuitBreaker.openMs = 5000;
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.httpAttempts, 60);
    QCOMPARE(changesMs(r.trace, TraceCause::BreakerOpened), (QList<qint64>{1995, 7995, 13995, 19995, 25995}));
}

void TestBreaker::halfOpenCallsField()
{
    // The field reads and writes; 0 means the mode's peer default.
    Scenario s;
    QCOMPARE(s.client.circuitBreaker.halfOpenCalls, 0);
    QCOMPARE(s.client.circuitBreaker.permittedHalfOpenCalls(), 1);
    s.client.circuitBreaker.mode = BreakerMode::FailureRate;
    QCOMPARE(s.client.circuitBreaker.permittedHalfOpenCalls(), 10);
    const ScenarioParse edited = scenario::withSet(s, QStringLiteral("client.circuitBreaker.halfOpenCalls=3"));
    QVERIFY2(edited.ok(), qPrintable(edited.errors.join(QLatin1Char('\n'))));
    QCOMPARE(edited.scenario.client.circuitBreaker.permittedHalfOpenCalls(), 3);
    const ScenarioParse refused = scenario::withSet(s, QStringLiteral("client.circuitBreaker.halfOpenCalls=-1"));
    QVERIFY(!refused.ok());
    QVERIFY(refused.errors.first().contains(QLatin1String("client.circuitBreaker.halfOpenCalls")));
}

QTEST_GUILESS_MAIN(TestBreaker)
#include "tst_breaker.moc"
