// The engine's event queue gives events back in exactly (t, seq) order, the order the binary heap
// before it gave, whatever the pattern of times, with pop() or popLater() (the top replaced by the
// next push): every golden trace rests on it (tst_golden), and this names the broken piece. The
// reference is std::priority_queue with the engine's own Later comparison.
#include "engine/eventqueue.h"

#include <QTest>

#include <limits>
#include <queue>
#include <random>
#include <vector>

using namespace retrylab;
using namespace retrylab::engine;

class TestEventQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void popsInTimeThenSeqOrder_data();
    void popsInTimeThenSeqOrder();
    void equalTimesLeaveInSeqOrder();
    void topSeesAPushBelowIt();
    void pushBeforeTheLastTimeIsStillOrdered();
    void popLaterThenPushReplacesTheTop();
    void extremeTimes();
    void packedFieldsKeepSeqOrder();
    void nextTimeSeesPastAPendingPop();
    void fifoKeepsOrderAndPositionsAcrossGrowth();
};

namespace {

// One step of a scripted run: push `pushes` events at now + a delay drawn from `delays`, then take
// the top, with pop() or (mostly, as the engine does) popLater(); its time becomes now.
struct Pattern
{
    int steps;
    int pushesPerStep;
    std::vector<qint64> delays; // chosen at random per push
    bool randomDelay;           // else: a uniform draw in [0, delays[0]]
};

using Reference = std::priority_queue<Event, std::vector<Event>, Later>;

// Pops both queues to the end: the same events, in the same (t, seq) order, and nothing left over.
void drainEqual(EventQueue &queue, Reference &reference)
{
    while (!reference.empty()) {
        QVERIFY(!queue.empty());
        QCOMPARE(queue.top().t, reference.top().t);
        QCOMPARE(queue.top().seq(), reference.top().seq());
        queue.pop();
        reference.pop();
    }
    QVERIFY(queue.empty());
}

void runPattern(const Pattern &p, quint32 seed)
{
    std::mt19937_64 rng(seed);
    EventQueue queue;
    Reference reference;
    quint64 seq = 0;
    qint64 now = 0;
    int popped = 0;
    for (int step = 0; step < p.steps; ++step) {
        const int pushes = int(rng() % quint64(p.pushesPerStep + 1));
        for (int i = 0; i < pushes; ++i) {
            const qint64 delay = p.randomDelay ? p.delays[rng() % p.delays.size()]
                                               : qint64(rng() % quint64(p.delays[0] + 1));
            ++seq;
            const Event e{now + delay, seq - 1, Ev::OpStart, 0, int(seq), 0};
            queue.push(e);
            reference.push(e);
        }
        QCOMPARE(queue.size(), reference.size());
        if (reference.empty())
            continue;
        QCOMPARE(queue.top().t, reference.top().t);
        QCOMPARE(queue.top().seq(), reference.top().seq());
        now = queue.top().t;
        if (rng() % 4 == 0)
            queue.pop();
        else
            queue.popLater();
        reference.pop();
        ++popped;
    }
    drainEqual(queue, reference);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(popped > 0);
}

} // namespace

void TestEventQueue::popsInTimeThenSeqOrder_data()
{
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("pushes");
    QTest::addColumn<QList<qint64>>("delays");
    QTest::addColumn<bool>("pick");
    // The engine's own shapes: latencies of milliseconds beside read timeouts of seconds, zero
    // processing times (an event at the same instant), backoffs from 0 to hours.
    QTest::addRow("latencies-and-timeouts") << 20000 << 3 << QList<qint64>{5000, 10000, 20000, 3000000, 0} << true;
    QTest::addRow("many-at-one-instant") << 5000 << 4 << QList<qint64>{0, 0, 0, 1} << true;
    QTest::addRow("uniform-small") << 20000 << 2 << QList<qint64>{100} << false;
    QTest::addRow("uniform-wide") << 20000 << 2 << QList<qint64>{qint64(1) << 40} << false;
    QTest::addRow("hours-apart") << 5000 << 2 << QList<qint64>{1, 3600LL * 1000000, 86400LL * 1000000} << true;
    QTest::addRow("powers-of-two") << 10000 << 3 << QList<qint64>{1, 2, 4, 1024, 1LL << 20, 1LL << 33} << true;
}

void TestEventQueue::popsInTimeThenSeqOrder()
{
    QFETCH(int, steps);
    QFETCH(int, pushes);
    QFETCH(QList<qint64>, delays);
    QFETCH(bool, pick);
    for (quint32 seed = 1; seed <= 5; ++seed) {
        runPattern(Pattern{steps, pushes, std::vector<qint64>(delays.begin(), delays.end()), pick}, seed);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestEventQueue::equalTimesLeaveInSeqOrder()
{
    // Events at one time reach bucket 0 from different buckets and from direct pushes: they still
    // leave by seq. 100 at t = 1000 pushed from far away (t = 0), then one at the same time.
    EventQueue queue;
    quint64 seq = 0;
    queue.push(Event{0, seq++, Ev::OpStart, 0, 0, 0});
    for (int i = 0; i < 50; ++i)
        queue.push(Event{1000, seq++, Ev::OpStart, 0, i, 0});
    queue.push(Event{999, seq++, Ev::OpStart, 0, -1, 0});
    for (int i = 50; i < 100; ++i)
        queue.push(Event{1000, seq++, Ev::OpStart, 0, i, 0});
    QCOMPARE(queue.top().t, qint64(0));
    queue.pop();
    QCOMPARE(queue.top().t, qint64(999));
    queue.pop();
    queue.push(Event{1000, seq++, Ev::OpStart, 0, 100, 0}); // at the instant the others wait for
    for (int i = 0; i <= 100; ++i) {
        QCOMPARE(queue.top().t, qint64(1000));
        QCOMPARE(queue.top().a, i);
        queue.pop();
    }
    QVERIFY(queue.empty());
}

void TestEventQueue::topSeesAPushBelowIt()
{
    // The engine looks at top() (to compare it with its timeouts and arrivals), then handles an
    // earlier event that schedules one before that top: the next top is the new one.
    EventQueue queue;
    queue.push(Event{5000, 0, Ev::OpStart, 0, 0, 0});
    queue.push(Event{9000, 1, Ev::OpStart, 0, 1, 0});
    QCOMPARE(queue.top().t, qint64(5000));
    queue.push(Event{4000, 2, Ev::OpStart, 0, 2, 0});
    QCOMPARE(queue.top().t, qint64(4000));
    queue.push(Event{4000, 3, Ev::OpStart, 0, 3, 0});
    QCOMPARE(queue.top().seq(), quint64(2));
    queue.pop();
    QCOMPARE(queue.top().seq(), quint64(3));
    queue.pop();
    QCOMPARE(queue.top().t, qint64(5000));
}

void TestEventQueue::pushBeforeTheLastTimeIsStillOrdered()
{
    // Never done by the engine (it schedules at now or later), but the queue must keep its order
    // if it happens.
    EventQueue queue;
    Reference reference;
    quint64 seq = 0;
    for (const qint64 t : {100, 200, 200, 300, 5000}) {
        const Event e{t, seq++, Ev::OpStart, 0, 0, 0};
        queue.push(e);
        reference.push(e);
    }
    queue.pop();
    reference.pop(); // the last time is now 100
    queue.pop();
    reference.pop(); // 200
    for (const qint64 t : {50, 200, -7, 250}) {
        const Event e{t, seq++, Ev::OpStart, 0, 0, 0};
        queue.push(e);
        reference.push(e);
    }
    drainEqual(queue, reference);
}

void TestEventQueue::extremeTimes()
{
    // Times at both ends of the range.
    EventQueue queue;
    Reference reference;
    quint64 seq = 0;
    const qint64 big = std::numeric_limits<qint64>::max();
    for (const qint64 t : {big, qint64(0), big - 1, qint64(1), big, qint64(0)}) {
        const Event e{t, seq++, Ev::OpStart, 0, 0, 0};
        queue.push(e);
        reference.push(e);
    }
    drainEqual(queue, reference);
}

void TestEventQueue::popLaterThenPushReplacesTheTop()
{
    // The engine's usual step: take the top, and the event it handles schedules one more. The new
    // one may belong before everything (an event at the same instant), in the middle, or last;
    // with no push, the top still leaves before the queue is next looked at.
    EventQueue queue;
    quint64 seq = 0;
    for (const qint64 t : {10, 20, 30, 40, 50, 60})
        queue.push(Event{t, seq++, Ev::OpStart, 0, int(t), 0});
    queue.popLater(); // 10 leaves
    queue.push(Event{10, seq++, Ev::OpStart, 0, 11, 0}); // same instant: next
    QCOMPARE(queue.top().a, 11);
    queue.popLater();
    queue.push(Event{35, seq++, Ev::OpStart, 0, 35, 0});
    QCOMPARE(queue.top().a, 20);
    queue.popLater();
    queue.push(Event{99, seq++, Ev::OpStart, 0, 99, 0});
    QCOMPARE(queue.size(), size_t(6));
    QList<int> order;
    while (!queue.empty()) {
        order << queue.top().a;
        queue.popLater(); // no push: each leaves when the queue is looked at again
    }
    QCOMPARE(order, (QList<int>{30, 35, 40, 50, 60, 99}));
    queue.push(Event{100, seq++, Ev::OpStart, 0, 100, 0}); // into an empty queue
    QCOMPARE(queue.top().a, 100);
}

void TestEventQueue::packedFieldsKeepSeqOrder()
{
    // The sequence number, the kind and the phase share one word (eventqueue.h): at one time, a
    // later seq with a smaller kind and phase still leaves after an earlier one with the largest,
    // every field reads back as given, and so does the largest seq the 48 bits hold.
    const quint64 maxSeq = (quint64(1) << 48) - 1;
    const Event big{7, maxSeq, Ev::Cancelled, 255, -3, 0xFFFFFFFFu};
    QCOMPARE(big.seq(), maxSeq);
    QCOMPARE(big.type(), Ev::Cancelled);
    QCOMPARE(big.phase(), quint8(255));
    QCOMPARE(big.a, -3);
    QCOMPARE(big.serial, 0xFFFFFFFFu);
    Event changed = big;
    changed.setType(Ev::ClientTimeout); // what a cancelled timeout does
    QCOMPARE(changed.type(), Ev::ClientTimeout);
    QCOMPARE(changed.seq(), maxSeq);
    QCOMPARE(changed.phase(), quint8(255));

    const Event events[] = {Event{5, 2, Ev::OpStart, 0, 2, 0}, Event{5, 1, Ev::Cancelled, 255, 1, 0},
                            Event{5, maxSeq, Ev::OpStart, 0, 4, 0}, Event{5, maxSeq - 1, Ev::ReadReply, 1, 3, 0},
                            Event{4, maxSeq, Ev::Cancelled, 255, 0, 0}};
    EventQueue queue;
    for (const Event &e : events)
        queue.push(e);
    QList<int> order;
    while (!queue.empty()) {
        order << queue.top().a;
        queue.pop();
    }
    QCOMPARE(order, (QList<int>{0, 1, 2, 3, 4}));
    Reference reference;
    for (const Event &e : events) {
        queue.push(e);
        reference.push(e);
    }
    drainEqual(queue, reference);
}

void TestEventQueue::nextTimeSeesPastAPendingPop()
{
    // Engine::runsNow asks for the earliest time still due while the event being handled is
    // only marked to leave (popLater): its successor's time, found among the root's children.
    EventQueue queue;
    QCOMPARE(queue.nextTime(), std::numeric_limits<qint64>::max());
    quint64 seq = 0;
    for (const qint64 t : {50, 10, 40, 30, 20, 60})
        queue.push(Event{t, seq++, Ev::OpStart, 0, 0, 0});
    QCOMPARE(queue.nextTime(), qint64(10));
    queue.popLater(); // 10 leaves at the next push or look
    QCOMPARE(queue.nextTime(), qint64(20));
    queue.popLater(); // carries out the pop of 10, marks 20
    QCOMPARE(queue.nextTime(), qint64(30));
    queue.popLater();
    queue.popLater();
    queue.popLater(); // 50 marked: only 60 remains after it
    QCOMPARE(queue.nextTime(), qint64(60));
    queue.popLater(); // 60 marked: nothing remains
    QCOMPARE(queue.nextTime(), std::numeric_limits<qint64>::max());
}

void TestEventQueue::fifoKeepsOrderAndPositionsAcrossGrowth()
{
    // The read timeouts' FIFO: entries leave in the order they came and each keeps its absolute
    // position (a flow cancels its timeout by it), across wrap-arounds of the ring and its growth
    // while the front is not at the ring's start.
    EventFifo fifo;
    std::vector<quint64> positions;
    quint64 pushed = 0;
    quint64 popped = 0;
    const auto push = [&](int n) {
        for (int i = 0; i < n; ++i) {
            positions.push_back(fifo.push(Event{qint64(pushed) * 10, pushed, Ev::ClientTimeout, 0, int(pushed), 0}));
            ++pushed;
        }
    };
    const auto pop = [&](int n) {
        for (int i = 0; i < n; ++i) {
            QCOMPARE(fifo.front().a, int(popped));
            fifo.pop();
            ++popped;
        }
    };
    push(50);
    pop(40);  // the front is now deep inside the ring of 64
    push(40); // wraps around the ring's end
    push(100); // grows while wrapped
    QCOMPARE(fifo.size(), size_t(pushed - popped));
    for (quint64 k = popped; k < pushed; ++k) {
        QCOMPARE(positions[size_t(k)], k);
        QCOMPARE(fifo.at(positions[size_t(k)]).a, int(k));
    }
    fifo.at(positions[size_t(popped + 3)]).setType(Ev::Cancelled);
    pop(3);
    QCOMPARE(fifo.front().type(), Ev::Cancelled);
    pop(int(pushed - popped));
    QVERIFY(fifo.empty());
}

QTEST_GUILESS_MAIN(TestEventQueue)
#include "tst_eventqueue.moc"
