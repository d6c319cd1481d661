#include "watchtrace.h"
#include "recordsmodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace retrylab;

namespace {

TraceEvent ev(qint64 t, Lane lane, EventKind kind, int op, const QString &detail, int status = 0, int record = 0,
              const QString &key = QString(), const QString &requestId = QString())
{
    TraceEvent e;
    e.t = t;
    e.lane = lane;
    e.kind = kind;
    e.op = op;
    e.setPath(op > 0 ? QStringLiteral("op%1/b1/w1/t1").arg(op) : QString());
    e.setKey(key);
    e.setRequestId(requestId);
    e.status = status;
    e.record = record;
    e.setDetail(detail);
    // The typed fields the live server fills beside its text: the method, and the reference.
    if (kind == EventKind::RequestArrived) {
        const qsizetype ref = detail.indexOf(QLatin1String("?ref="));
        e.method = ref >= 0 ? TraceMethod::GetOrder : TraceMethod::PostOrder;
        if (ref >= 0)
            e.setRef(detail.mid(ref + 5));
    }
    return e;
}

// What OrderServer reports for a POST /orders that commits (as its requestHandled emits it).
Trace committedPost(qint64 t, int op, const QString &ref, int record, int firstRecord, const QString &key = QString(),
                    const QString &requestId = QStringLiteral("req"), bool responseLost = false)
{
    Trace r{ev(t, Lane::Server, EventKind::RequestArrived, op, QStringLiteral("POST /orders"), 0, 0, key, requestId),
            ev(t + 5, Lane::Server, EventKind::ProcessingStarted, op, QStringLiteral("processing 0 ms"), 0, 0, key,
               requestId),
            ev(t + 10, Lane::Database, EventKind::Committed, op,
               firstRecord == record ? QStringLiteral("INSERT order %1").arg(ref)
                                     : QStringLiteral("INSERT order %1: duplicate of record #%2").arg(ref).arg(firstRecord),
               0, record, key, requestId),
            ev(t + 12, Lane::Server, EventKind::ResponseSent, op, QStringLiteral("201"), 201, 0, key, requestId)};
    for (TraceEvent &e : r)
        e.setRef(ref);
    if (responseLost)
        r.append(ev(t + 13, Lane::Network, EventKind::ResponseLost, op, QStringLiteral("committed, but the response was lost"),
                    201, 0, key, requestId));
    return r;
}

Trace replayedPost(qint64 t, int op, int record, const QString &key)
{
    return {ev(t, Lane::Server, EventKind::RequestArrived, op, QStringLiteral("POST /orders"), 0, 0, key),
            ev(t + 4, Lane::Server, EventKind::Replayed, op, QStringLiteral("Idempotent-Replayed: true"), 201, record, key),
            ev(t + 6, Lane::Server, EventKind::ResponseSent, op, QStringLiteral("201, Idempotent-Replayed: true"), 201, 0,
               key)};
}

} // namespace

class TestWatchTrace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void twoPostsWithoutKeyMakeADuplicate()
    {
        WatchTrace live;
        live.reset(Scenario());
        live.append(committedPost(1000, 7, QStringLiteral("ORD-0007"), 1, 1, QString(), QStringLiteral("req-a")));
        live.append(committedPost(9000, 7, QStringLiteral("ORD-0007"), 2, 1, QString(), QStringLiteral("req-b")));
        const RunResult r = live.result();
        QCOMPARE(r.trace.size(), 8);
        QCOMPARE(r.records.size(), 2);
        QCOMPARE(r.records.at(0).id, 1);
        QCOMPARE(r.records.at(0).ref, QStringLiteral("ORD-0007"));
        QCOMPARE(r.records.at(0).requestId, QStringLiteral("req-a"));
        QVERIFY(!r.records.at(0).duplicate);
        QCOMPARE(r.records.at(1).requestId, QStringLiteral("req-b"));
        QVERIFY(r.records.at(1).duplicate);
        QCOMPARE(r.ops.size(), 1);
        QCOMPARE(r.ops.at(0).op, 7);
        QCOMPARE(r.ops.at(0).ref, QStringLiteral("ORD-0007"));
        QCOMPARE(r.ops.at(0).attempts, 2);
        QCOMPARE(r.ops.at(0).records, 2);
        QCOMPARE(r.ops.at(0).start, 1000);
        QCOMPARE(r.ops.at(0).end, 9012);
        QVERIFY(r.ops.at(0).succeeded);
        QCOMPARE(r.metrics.httpAttempts, 2);
        QCOMPARE(r.metrics.records, 2);
        QCOMPARE(r.metrics.duplicates, 1);
        QCOMPARE(r.metrics.logicalOperations, 1);
        QCOMPARE(r.metrics.amplification, 2.0);
        QCOMPARE(live.lastOperation(), 7);
        QCOMPARE(live.requests(), 2);

        // The records table groups them as it does a simulated run's.
        RecordsModel model;
        QAbstractItemModelTester tester(&model);
        model.setResult(r);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.duplicateCount(), 1);
        QCOMPARE(model.state(1), RecordsModel::State::Duplicate);
        QCOMPARE(model.traceIndex(1), 6);
        QCOMPARE(model.data(model.index(1, RecordsModel::RequestIdColumn)).toString(), QStringLiteral("req-b"));
    }

    void sameKeyTwiceIsOneRecordAndAReplay()
    {
        WatchTrace live;
        live.reset(Scenario());
        const QString key = QStringLiteral("k-1");
        live.append(committedPost(1000, 3, QStringLiteral("ORD-0003"), 1, 1, key));
        live.append(replayedPost(5000, 3, 1, key));
        const RunResult r = live.result();
        QCOMPARE(r.records.size(), 1);
        QCOMPARE(r.records.at(0).key, key);
        QCOMPARE(r.metrics.records, 1);
        QCOMPARE(r.metrics.duplicates, 0);
        QCOMPARE(r.metrics.replays, 1);
        QCOMPARE(r.metrics.httpAttempts, 2);
        QCOMPARE(r.ops.at(0).attempts, 2);
        QCOMPARE(r.ops.at(0).records, 1);
    }

    void rejectionsAndQueriesAreCounted()
    {
        WatchTrace live;
        live.reset(Scenario());
        live.append({ev(1, Lane::Server, EventKind::RequestArrived, 2, QStringLiteral("POST /orders")),
                     ev(2, Lane::Server, EventKind::Rejected, 2, QStringLiteral("payload differs"), 422)});
        live.append({ev(3, Lane::Server, EventKind::RequestArrived, 2, QStringLiteral("POST /orders")),
                     ev(4, Lane::Server, EventKind::Rejected, 2, QStringLiteral("in flight"), 409)});
        live.append({ev(5, Lane::Server, EventKind::RequestArrived, 2, QStringLiteral("POST /orders")),
                     ev(6, Lane::Server, EventKind::Rejected, 2, QStringLiteral("rate limited"), 429)});
        live.append({ev(7, Lane::Server, EventKind::RequestArrived, 2, QStringLiteral("POST /orders")),
                     ev(8, Lane::Server, EventKind::ServerError, 2, QStringLiteral("failed before commit"), 500)});
        live.append({ev(9, Lane::Server, EventKind::RequestArrived, 2, QStringLiteral("GET /orders?ref=ORD-0002")),
                     ev(10, Lane::Server, EventKind::ResponseSent, 2, QStringLiteral("404"), 404)});
        const RunResult r = live.result();
        QCOMPARE(r.metrics.mismatch422, 1);
        QCOMPARE(r.metrics.conflicts409, 1);
        QCOMPARE(r.metrics.throttled429, 1);
        QCOMPARE(r.metrics.serverErrors, 1);
        QCOMPARE(r.metrics.queries, 1);
        QCOMPARE(r.metrics.httpAttempts, 4);
        QCOMPARE(r.ops.size(), 1);
        QCOMPARE(r.ops.at(0).attempts, 4);
        QVERIFY(!r.ops.at(0).succeeded); // no 2xx left the server
    }

    void lostResponseIsNotASuccess()
    {
        WatchTrace live;
        live.reset(Scenario());
        live.append(committedPost(10, 1, QStringLiteral("ORD-0001"), 1, 1, QString(), QStringLiteral("r"), true));
        RunResult r = live.result();
        QCOMPARE(r.records.size(), 1);
        QVERIFY(!r.ops.at(0).succeeded);
        QCOMPARE(r.metrics.clientSucceeded, 0);
        live.append(committedPost(20, 1, QStringLiteral("ORD-0001"), 2, 1));
        r = live.result();
        QVERIFY(r.ops.at(0).succeeded);
        QCOMPARE(r.metrics.duplicates, 1);
    }

    void freeFormReferenceKeepsItsText()
    {
        WatchTrace live;
        live.reset(Scenario());
        live.append(committedPost(10, 100000000, QStringLiteral("coffee: large"), 1, 1));
        live.append(committedPost(20, 100000000, QStringLiteral("coffee: large"), 2, 1));
        const RunResult r = live.result();
        QCOMPARE(r.ops.at(0).ref, QStringLiteral("coffee: large"));
        QCOMPARE(r.records.at(0).ref, QStringLiteral("coffee: large"));
        QCOMPARE(r.records.at(1).ref, QStringLiteral("coffee: large"));
        QVERIFY(r.records.at(1).duplicate);
    }

    void refFromEvent_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("method");
        QTest::addColumn<QString>("ref");
        QTest::addColumn<QString>("expected");
        const int none = int(TraceMethod::None);
        QTest::addRow("committed") << int(EventKind::Committed) << none << QStringLiteral("ORD-0007")
                                   << QStringLiteral("ORD-0007");
        QTest::addRow("query") << int(EventKind::RequestArrived) << int(TraceMethod::GetOrder) << QStringLiteral("tea")
                               << QStringLiteral("tea");
        QTest::addRow("post-says-nothing") << int(EventKind::RequestArrived) << int(TraceMethod::PostOrder)
                                           << QStringLiteral("tea") << QString();
        QTest::addRow("other-kind") << int(EventKind::Replayed) << none << QStringLiteral("X") << QString();
    }
    void refFromEvent()
    {
        QFETCH(int, kind);
        QFETCH(int, method);
        QFETCH(QString, ref);
        QFETCH(QString, expected);
        TraceEvent e;
        e.kind = EventKind(kind);
        e.method = TraceMethod(method);
        e.setRef(ref);
        QCOMPARE(live::refFromEvent(e), expected);
    }

    void oldestRequestsAreDroppedWhole()
    {
        // 4 events a request, at most 10 kept: each drop goes down to 9 events, whole requests only.
        WatchTrace live(10);
        live.reset(Scenario());
        for (int i = 1; i <= 5; ++i)
            live.append(committedPost(i * 100, 1, QStringLiteral("ORD-0001"), i, 1));
        const RunResult r = live.result();
        QVERIFY(r.trace.size() <= 10);
        QCOMPARE(r.trace.size() % 4, 0);
        QCOMPARE(r.trace.first().kind, EventKind::RequestArrived);
        QCOMPARE(live.droppedEvents() + r.trace.size(), 20);
        QCOMPARE(live.requests(), 5);
        QCOMPARE(r.trace.last().t, 512);
        // The records kept are the newest, still duplicates of record 1 that was dropped.
        QCOMPARE(r.records.size(), int(r.trace.size() / 4));
        QCOMPARE(r.records.last().id, 5);
        for (const RecordRow &row : r.records)
            QVERIFY(row.duplicate);
        QCOMPARE(r.ops.at(0).attempts, r.records.size());
        // The counters remember every request.
        QCOMPARE(r.metrics.httpAttempts, 5);
    }

    void boundaryKeepsExactlyMaxEvents()
    {
        WatchTrace live(8);
        live.reset(Scenario());
        live.append(committedPost(1, 1, QStringLiteral("ORD-0001"), 1, 1));
        live.append(committedPost(2, 2, QStringLiteral("ORD-0002"), 2, 2));
        QCOMPARE(live.result().trace.size(), 8); // at the limit: nothing dropped
        QCOMPARE(live.droppedEvents(), 0);
        live.append(committedPost(3, 3, QStringLiteral("ORD-0003"), 3, 3));
        QCOMPARE(live.droppedEvents(), 4); // down to 8 - 8/10 = 8 events: the oldest request goes
        QCOMPARE(live.result().trace.size(), 8);
        QCOMPARE(live.result().ops.size(), 2);
        QCOMPARE(live.result().ops.at(0).op, 2);
    }

    void resetForgetsEverything()
    {
        WatchTrace live;
        Scenario s;
        s.name = QStringLiteral("served");
        live.reset(s);
        live.append(committedPost(1, 1, QStringLiteral("ORD-0001"), 1, 1));
        live.reset(s);
        const RunResult r = live.result();
        QVERIFY(r.trace.isEmpty());
        QVERIFY(r.records.isEmpty());
        QVERIFY(r.ops.isEmpty());
        QCOMPARE(r.metrics.httpAttempts, 0);
        QCOMPARE(r.scenario.name, QStringLiteral("served"));
        QCOMPARE(live.requests(), 0);
    }

    void metricsJsonFillsTheNamedCounters()
    {
        Metrics m;
        m.clientSucceeded = 4;
        live::applyMetricsJson(&m, QJsonObject{{QStringLiteral("records"), 7},
                                               {QStringLiteral("duplicates"), 2},
                                               {QStringLiteral("replays"), 3},
                                               {QStringLiteral("httpAttempts"), 12},
                                               {QStringLiteral("server"), QJsonObject{}},
                                               {QStringLiteral("unknown"), 5}});
        QCOMPARE(m.records, 7);
        QCOMPARE(m.duplicates, 2);
        QCOMPARE(m.replays, 3);
        QCOMPARE(m.httpAttempts, 12);
        QCOMPARE(m.clientSucceeded, 4); // not in the object: untouched
    }
};

QTEST_GUILESS_MAIN(TestWatchTrace)
#include "tst_watchtrace.moc"
