// The server pipeline on a third clock: a host that only records what the pipeline asks of it, so
// the admission, queue, commit, answer and restart sequence is checked without the engine or
// sockets (the engine and serve both run it; tst_golden and tst_liveserver pin those).
#include "faults.h"
#include "orderservice.h"
#include "server/serverpipeline.h"

#include "recordinghost.h"

#include <QTest>

#include <algorithm>

#include <map>
#include <vector>

using namespace retrylab;
using namespace retrylab::test;

namespace {

Scenario serverScenario(int capacity, int queue)
{
    Scenario s;
    s.server.capacity = capacity;
    s.server.queue = queue;
    s.server.retryAfterS = 3;
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    return s;
}

} // namespace

class TestServerPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void throttledBeforeAnything()
    {
        const Scenario s = serverScenario(0, 0);
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        ServerRequest r = post(1);
        r.faults = faults::Throttle429;
        const ServerHost::Id id = host.add(r);
        pipeline.arrive(id);
        QCOMPARE(host.delivered.size(), size_t(1));
        QCOMPARE(host.delivered[0].second, 429);
        QCOMPARE(host.requests[id].retryAfterS, 3);
        QCOMPARE(pipeline.counters().throttled429, qint64(1));
        QVERIFY(host.scheduled.empty());
        QVERIFY(service.records().empty());
    }

    void fullServerQueuesThenRefuses()
    {
        // One slot, a queue of one: the second request waits, the third gets 503 with Retry-After.
        const Scenario s = serverScenario(1, 1);
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        const ServerHost::Id first = host.add(post(1));
        const ServerHost::Id second = host.add(post(2));
        const ServerHost::Id third = host.add(post(3));
        pipeline.arrive(first);
        pipeline.arrive(second);
        pipeline.arrive(third);
        QCOMPARE(host.scheduled, (std::vector<ServerHost::Id>{first}));
        QCOMPARE(pipeline.queued(), 1);
        QCOMPARE(host.delivered, (std::vector<std::pair<ServerHost::Id, int>>{{third, 503}}));
        QCOMPARE(host.requests[third].retryAfterS, 3);
        QCOMPARE(pipeline.counters().rejected503, qint64(1));

        // The first commits and answers 201; its slot goes to the queued one.
        pipeline.processingDone(first);
        QCOMPARE(host.delivered.back(), std::make_pair(first, 201));
        QCOMPARE(host.requests[first].record, 1);
        QCOMPARE(host.scheduled, (std::vector<ServerHost::Id>{first, second}));
        QCOMPARE(pipeline.queued(), 0);
        QCOMPARE(pipeline.busy(), 1);
    }

    void answerOrderFollowsTheOption()
    {
        // The simulated server hands the slot on before it answers; the live one answers first.
        for (const bool answerFirst : {false, true}) {
            const Scenario s = serverScenario(1, 1);
            OrderService service(s.server);
            RecordingHost host;
            ServerPipeline::Options options;
            options.answerBeforeRelease = answerFirst;
            ServerPipeline pipeline(s, service, host, options);
            host.pipeline = &pipeline;
            const ServerHost::Id first = host.add(post(1));
            pipeline.arrive(first);
            pipeline.arrive(host.add(post(2)));
            host.kinds.clear();
            pipeline.processingDone(first);
            const auto sent = std::find(host.kinds.begin(), host.kinds.end(), EventKind::ResponseSent);
            const auto started = std::find(host.kinds.begin(), host.kinds.end(), EventKind::ProcessingStarted);
            QVERIFY(sent != host.kinds.end() && started != host.kinds.end());
            QCOMPARE(sent < started, answerFirst);
        }
    }

    void sameKeyReplaysTheStoredAnswer()
    {
        const Scenario s = serverScenario(0, 0);
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        const ServerHost::Id first = host.add(post(1, 42));
        pipeline.arrive(first);
        pipeline.processingDone(first);
        const ServerHost::Id again = host.add(post(1, 42));
        pipeline.arrive(again);
        QCOMPARE(host.delivered.back(), std::make_pair(again, 201));
        QVERIFY(host.requests[again].replayed);
        QCOMPARE(host.requests[again].record, 1);
        QCOMPARE(pipeline.counters().replays, qint64(1));
        QCOMPARE(service.records().size(), size_t(1));
    }

    void restartDropsWhatTheServerHolds()
    {
        // A restart drops the queued and the processing requests without an answer; a
        // processingDone that comes later for a dropped one does nothing.
        const Scenario s = serverScenario(1, 1);
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        const ServerHost::Id first = host.add(post(1, 5));
        const ServerHost::Id second = host.add(post(2));
        pipeline.arrive(first);
        pipeline.arrive(second);
        pipeline.restart(QStringLiteral("test"));
        QCOMPARE(host.dropped, (std::vector<ServerHost::Id>{second, first}));
        QCOMPARE(pipeline.busy(), 0);
        QCOMPARE(pipeline.queued(), 0);
        QVERIFY(host.delivered.empty());
        const size_t droppedBefore = host.dropped.size();
        pipeline.processingDone(first);
        QVERIFY(host.delivered.empty());
        QVERIFY(service.records().empty());
        QCOMPARE(host.dropped.size(), droppedBefore + 1); // freed now, never answered
        // The key's reservation rolled back with the restart: the same key is new again.
        const ServerHost::Id again = host.add(post(1, 5));
        pipeline.arrive(again);
        QCOMPARE(host.scheduled.back(), again);
    }

    void restartFaultCommitsThenRestarts()
    {
        const Scenario s = serverScenario(0, 0);
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        ServerRequest r = post(1);
        r.faults = faults::Restart;
        const ServerHost::Id id = host.add(r);
        pipeline.arrive(id);
        pipeline.processingDone(id);
        QCOMPARE(service.records().size(), size_t(1));
        QCOMPARE(host.restarts, 1);
        QVERIFY(host.delivered.empty());
        QCOMPARE(pipeline.epoch(), quint32(1));
    }

    void statusQueryAnswersFromTheStore()
    {
        const Scenario s = serverScenario(1, 0);
        OrderService service(s.server);
        RecordingHost host;
        ServerPipeline pipeline(s, service, host, {});
        host.pipeline = &pipeline;
        ServerRequest q = post(7);
        q.query = true;
        const ServerHost::Id found = host.add(q);
        q.order.op = 8;
        const ServerHost::Id missing = host.add(q);
        pipeline.arrive(found);
        pipeline.arrive(missing);
        QCOMPARE(host.delivered, (std::vector<std::pair<ServerHost::Id, int>>{{found, 200}, {missing, 404}}));
        QVERIFY(host.scheduled.empty()); // no processing slot for a status query
    }
};

QTEST_GUILESS_MAIN(TestServerPipeline)
#include "tst_serverpipeline.moc"
