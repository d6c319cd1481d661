// The live order service in-process over loopback sockets: every status of design section 1.4
// through HTTP, faults on the wire, the UNIQUE constraint deciding real races, key expiry,
// restarts, the admin API and the trace signal.
#include "livesupport.h"

#include "problemtypes.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

const QByteArray kJson = "Content-Type: application/json\r\n";

Scenario base()
{
    return ServeOptions::defaultScenario();
}

QByteArray order(int ref, const QByteArray &extra = QByteArray())
{
    return "{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\",\"item\":\"book\"" + extra + "}";
}

qint64 metric(OrderServer &server, const char *name)
{
    return server.metricsJson().value(QLatin1String(name)).toInteger();
}

QList<EventKind> kinds(const Trace &events)
{
    QList<EventKind> out;
    for (const TraceEvent &e : events)
        out << e.kind;
    return out;
}

} // namespace

class TestLiveServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void faultWindowsOnTheServerClock();
    void createdWithOrderJson();
    void missingKeyRejectedWhenRequired();
    void replayHasIdenticalBodyAndHeader();
    void mismatchedPayloadGets422();
    void concurrentSameKeyGets409();
    void usedTokenGets409();
    void unknownTokenGets400();
    void lostResponseIsATimeoutWhileTheRecordExists();
    void realRace_data();
    void realRace();
    void secondServerOnOneFileIsRefused();
    void keyExpiresAtTtl();
    void traceFollowsItsReceivers();
    void throttledWithRetryAfter();
    void serverErrorsBeforeAndAfterCommit();
    void resetAfterCommitClosesTheConnection();
    void capacityLimitAnswers503();
    void requestLostIsNeverProcessed();
    void restartForgetsMemoryKeys_data();
    void restartForgetsMemoryKeys();
    void restartResetsHeldConnections_data();
    void restartResetsHeldConnections();
    void traceSignalDescribesEachRequest();
    void malformedOrdersAreTracedToo();
    void latencySpikeDelaysTheRequest();
    void stopFromARequestHandledSlot();
    void timeScaleShortensDelaysAndTtl();
    void adminFaultsReadAndChange();
    void adminNeedsTokenWhenSet();
    void resetEmptiesTheStore();
    void queriesByRefAndId();
    void keyFieldOnTheWire();
    void problemDetailsHaveTypes();
    void everyProblemTypeIsDocumented();
    void draftConformanceTableNamesRealTests();
    void errorDetailsSayWhere();
    void queriesArePaged();
    void metricsByContentNegotiation();
    void failedBeforeCommitIsNotStored();
};

void TestLiveServer::createdWithOrderJson()
{
    auto server = startServer(base());
    const RawResponse r = exchange(server->port(), postOrder(order(7, ",\"qty\":2"), "k-1", "X-Request-ID: req-abc\r\n"));
    QCOMPARE(r.status, 201);
    QCOMPARE(r.header("X-Request-ID"), QByteArray("req-abc"));
    QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
    const QJsonObject o = r.json();
    QCOMPARE(o.value(QLatin1String("id")).toInt(), 1);
    QCOMPARE(o.value(QLatin1String("ref")).toString(), QStringLiteral("ORD-0007"));
    QCOMPARE(o.value(QLatin1String("payload")).toObject().value(QLatin1String("qty")).toInt(), 2);
    // Without X-Request-ID the server mints one.
    const RawResponse minted = exchange(server->port(), postOrder(order(8)));
    QCOMPARE(minted.status, 201);
    QVERIFY(minted.header("X-Request-ID").startsWith("srv-"));
    QCOMPARE(metric(*server, "records"), 2);
    // A reference with characters JSON must escape comes back intact (and parses).
    const RawResponse odd = exchange(server->port(), postOrder("{\"ref\":\"A\\\"B\\\\C\\tD\\u0001\"}"));
    QCOMPARE(odd.status, 201);
    QCOMPARE(odd.json().value(QLatin1String("ref")).toString(), QStringLiteral("A\"B\\C\tD\u0001"));
}

void TestLiveServer::missingKeyRejectedWhenRequired()
{
    Scenario s = base();
    s.server.idempotency.requireKey = true;
    auto server = startServer(s);
    const RawResponse r = exchange(server->port(), postOrder(order(1)));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
    QCOMPARE(r.json().value(QLatin1String("status")).toInt(), 400);
    QVERIFY(r.json().value(QLatin1String("detail")).toString().contains(QLatin1String("Idempotency-Key required")));
    QCOMPARE(metric(*server, "records"), 0);
    QCOMPARE(metric(*server, "rejected400"), 1);
    QCOMPARE(exchange(server->port(), postOrder(order(1), "k")).status, 201);
}

void TestLiveServer::replayHasIdenticalBodyAndHeader()
{
    auto server = startServer(base());
    const RawResponse first = exchange(server->port(), postOrder(order(3), "key-3"));
    const RawResponse again = exchange(server->port(), postOrder(order(3), "key-3"));
    QCOMPARE(first.status, 201);
    QCOMPARE(again.status, 201);
    QVERIFY(first.header("Idempotent-Replayed").isEmpty());
    QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
    QCOMPARE(again.body, first.body);
    QCOMPARE(metric(*server, "records"), 1);
    QCOMPARE(metric(*server, "replays"), 1);
}

void TestLiveServer::mismatchedPayloadGets422()
{
    auto server = startServer(base());
    QCOMPARE(exchange(server->port(), postOrder(order(4), "k4")).status, 201);
    // Key order in the JSON does not matter (the fingerprint is of the parsed object)...
    QCOMPARE(exchange(server->port(), postOrder("{\"item\":\"book\",\"ref\":\"ORD-0004\"}", "k4")).status, 201);
    // ...but any other field does.
    const RawResponse r = exchange(server->port(), postOrder(order(4, ",\"qty\":9"), "k4"));
    QCOMPARE(r.status, 422);
    QCOMPARE(metric(*server, "records"), 1);
    QCOMPARE(metric(*server, "mismatch422"), 1);
}

void TestLiveServer::concurrentSameKeyGets409()
{
    Scenario s = base();
    s.server.processingMs = {300, 0};
    auto server = startServer(s);
    const QList<RawResponse> r = exchangeAll(server->port(), {postOrder(order(5), "same"), postOrder(order(5), "same")});
    QList<int> statuses{r[0].status, r[1].status};
    std::sort(statuses.begin(), statuses.end());
    QCOMPARE(statuses, (QList<int>{201, 409}));
    QCOMPARE(metric(*server, "records"), 1);
    QCOMPARE(metric(*server, "conflicts409"), 1);
    // Once committed, the key replays.
    const RawResponse later = exchange(server->port(), postOrder(order(5), "same"));
    QCOMPARE(later.status, 201);
    QCOMPARE(later.header("Idempotent-Replayed"), QByteArray("true"));
}

void TestLiveServer::usedTokenGets409()
{
    Scenario s = base();
    s.server.idempotency.mode = IdempotencyMode::Token;
    auto server = startServer(s);
    const RawResponse issued = exchange(server->port(), request("POST", "/order-tokens"));
    QCOMPARE(issued.status, 201);
    const QByteArray token = issued.json().value(QLatin1String("token")).toString().toLatin1();
    QVERIFY(token.startsWith("tok-"));
    QCOMPARE(exchange(server->port(), postOrder(order(6), token)).status, 201);
    const RawResponse reused = exchange(server->port(), postOrder(order(6), token));
    QCOMPARE(reused.status, 409);
    QVERIFY(reused.json().value(QLatin1String("detail")).toString().contains(QLatin1String("already used")));
    QCOMPARE(metric(*server, "records"), 1);
}

void TestLiveServer::unknownTokenGets400()
{
    Scenario s = base();
    s.server.idempotency.mode = IdempotencyMode::Token;
    auto server = startServer(s);
    QCOMPARE(exchange(server->port(), postOrder(order(6), "tok-made-up")).status, 400);
    QCOMPARE(exchange(server->port(), postOrder(order(6))).status, 400);
    QCOMPARE(metric(*server, "records"), 0);
}

void TestLiveServer::lostResponseIsATimeoutWhileTheRecordExists()
{
    Scenario s = base();
    s.network.script = {ScriptEntry{1, QStringLiteral("*/*/*"), FaultKind::ResponseLost}};
    auto server = startServer(s);
    QNetworkAccessManager nam;
    QNetworkRequest req(QUrl(server->url().toString() + QStringLiteral("/orders")));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    req.setRawHeader("Idempotency-Key", "lost-1");
    req.setTransferTimeout(300);
    QNetworkReply *reply = nam.post(req, order(1));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError); // QNAM's transfer timeout
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 0);
    reply->deleteLater();
    // The order was committed all the same: the client's failure is not the server's.
    const RawResponse byRef = exchange(server->port(), request("GET", "/orders?ref=ORD-0001"));
    QCOMPARE(byRef.status, 200);
    QCOMPARE(byRef.json().value(QLatin1String("count")).toInt(), 1);
    QCOMPARE(metric(*server, "records"), 1);
}

void TestLiveServer::realRace_data()
{
    QTest::addColumn<int>("mode");
    QTest::addRow("atomic-one-record") << int(IdempotencyMode::Atomic);
    QTest::addRow("naive-duplicates") << int(IdempotencyMode::Naive);
}

void TestLiveServer::realRace()
{
    QFETCH(int, mode);
    Scenario s = base();
    s.server.idempotency.mode = IdempotencyMode(mode);
    s.server.processingMs = {300, 0}; // the requests overlap: each is still processing when the next arrives
    QTemporaryDir dir;
    auto server = startServer(s, dir.filePath(QStringLiteral("race.db")));
    QList<QByteArray> requests;
    for (int i = 0; i < 20; ++i)
        requests << postOrder(order(9), "race-key");
    const QList<RawResponse> responses = exchangeAll(server->port(), requests);
    int created = 0, conflicts = 0, replayed = 0;
    for (const RawResponse &r : responses) {
        const bool replay = r.header("Idempotent-Replayed") == "true";
        created += r.status == 201 && !replay;
        replayed += r.status == 201 && replay;
        conflicts += r.status == 409;
    }
    const int records = int(metric(*server, "records"));
    QCOMPARE(created, records);
    QCOMPARE(created + replayed + conflicts, 20);
    QCOMPARE(metric(*server, "duplicates"), records - 1);
    if (IdempotencyMode(mode) == IdempotencyMode::Atomic) {
        // The reservation decides: exactly one order, every overlapping request 409.
        QCOMPARE(records, 1);
        QVERIFY(conflicts >= 1);
    } else {
        // Check at the start, insert at the end: overlapping requests all commit.
        QVERIFY2(records >= 2, qPrintable(QString::number(records)));
        QCOMPARE(conflicts, 0);
    }
}

void TestLiveServer::secondServerOnOneFileIsRefused()
{
    // Issue 21 item 4: two servers on one file counted ids each for itself, and the second
    // answered 500 to every new order. Now the file is locked at start-up. (That the UNIQUE
    // constraint decides between two connections on one file is tst_orderstore's.)
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("shared.db"));
    auto a = startServer(base(), file);
    QCOMPARE(exchange(a->port(), postOrder(order(11), "shared-key")).status, 201);
    OrderServer b;
    ServeOptions options;
    options.dbFile = file;
    const QString refused = b.start(options);
    QVERIFY2(refused.contains(QLatin1String("another retrylab serve")), qPrintable(refused));
    QVERIFY2(refused.contains(QStringLiteral("(process %1)").arg(QCoreApplication::applicationPid())), qPrintable(refused));
    QVERIFY2(refused.contains(QLatin1String("shared.db.lock")), qPrintable(refused));
    QVERIFY(!b.isRunning());
    // The first one is untouched, and once it stops the file is free again.
    QCOMPARE(exchange(a->port(), postOrder(order(12), "other-key")).status, 201);
    a->stop();
    QCOMPARE(b.start(options), QString());
    QCOMPARE(b.loaded().records, 2);
    QCOMPARE(b.loaded().keys, 2);
    QCOMPARE(exchange(b.port(), postOrder(order(13), "third-key")).json().value(QLatin1String("id")).toInt(), 3);
}

void TestLiveServer::traceFollowsItsReceivers()
{
    // serve remembers whether requestHandled has a receiver (it asks per request): a receiver
    // connected after requests were served gets the next one's trace, and none after it left.
    auto server = startServer(base());
    QCOMPARE(exchange(server->port(), postOrder(order(21), "trace-1")).status, 201);
    int traces = 0;
    const auto receiver = connect(server.get(), &OrderServer::requestHandled, this, [&traces] { ++traces; });
    QCOMPARE(exchange(server->port(), postOrder(order(22), "trace-2")).status, 201);
    QTRY_COMPARE(traces, 1);
    disconnect(receiver);
    QCOMPARE(exchange(server->port(), postOrder(order(23), "trace-3")).status, 201);
    QCOMPARE(exchange(server->port(), postOrder(order(24), "trace-4")).status, 201);
    QCOMPARE(traces, 1);
    QSignalSpy again(server.get(), &OrderServer::requestHandled);
    QCOMPARE(exchange(server->port(), postOrder(order(25), "trace-5")).status, 201);
    QTRY_COMPARE(again.count(), 1);
}

void TestLiveServer::keyExpiresAtTtl()
{
    Scenario s = base();
    s.server.idempotency.ttlS = 60;
    auto server = startServer(s);
    QSignalSpy handled(server.get(), &OrderServer::requestHandled);
    QCOMPARE(exchange(server->port(), postOrder(order(12), "ttl-key")).status, 201);
    server->advanceServiceClock(59LL * 1000000);
    const RawResponse before = exchange(server->port(), postOrder(order(12), "ttl-key"));
    QCOMPARE(before.header("Idempotent-Replayed"), QByteArray("true"));
    server->advanceServiceClock(1LL * 1000000);
    const RawResponse after = exchange(server->port(), postOrder(order(12), "ttl-key"));
    QCOMPARE(after.status, 201);
    QVERIFY(after.header("Idempotent-Replayed").isEmpty());
    QCOMPARE(after.json().value(QLatin1String("id")).toInt(), 2);
    QCOMPARE(metric(*server, "duplicates"), 1);
    QTRY_COMPARE(handled.count(), 3);
    QVERIFY(kinds(handled.at(2).at(0).value<Trace>()).contains(EventKind::KeyExpired));
    // The expired key's row was replaced: the new response replays from now on.
    const RawResponse replay = exchange(server->port(), postOrder(order(12), "ttl-key"));
    QCOMPARE(replay.body, after.body);
}

void TestLiveServer::faultWindowsOnTheServerClock()
{
    // A window open from the start answers 503 before commit; one that opens in an hour does nothing.
    Scenario s = base();
    s.windows = {FaultWindow{0, 3600, FaultKind::Server5xxBeforeCommit, 1.0}};
    auto server = startServer(s);
    QCOMPARE(exchange(server->port(), postOrder(order(1), "w1")).status, 503);
    QCOMPARE(metric(*server, "records"), 0);
    s.windows = {FaultWindow{3600, 7200, FaultKind::Server5xxBeforeCommit, 1.0}};
    auto later = startServer(s);
    QCOMPARE(exchange(later->port(), postOrder(order(1), "w2")).status, 201);
}

void TestLiveServer::throttledWithRetryAfter()
{
    Scenario s = base();
    s.server.retryAfterS = 3;
    s.network.script = {ScriptEntry{1, QStringLiteral("b1/w1/t1"), FaultKind::Throttle429}};
    auto server = startServer(s);
    const RawResponse r = exchange(server->port(), postOrder(order(1), "k"));
    QCOMPARE(r.status, 429);
    QCOMPARE(r.header("Retry-After"), QByteArray("3"));
    QCOMPARE(metric(*server, "records"), 0);
    // The second arrival of ORD-0001 is attempt t2: not throttled.
    QCOMPARE(exchange(server->port(), postOrder(order(1), "k")).status, 201);
    QCOMPARE(metric(*server, "throttled429"), 1);
}

void TestLiveServer::serverErrorsBeforeAndAfterCommit()
{
    Scenario s = base();
    s.network.script = {ScriptEntry{1, QStringLiteral("*/*/*"), FaultKind::Server5xxBeforeCommit},
                        ScriptEntry{2, QStringLiteral("*/*/*"), FaultKind::Server5xxAfterCommit}};
    auto server = startServer(s);
    const RawResponse before = exchange(server->port(), postOrder(order(1), "e1"));
    QCOMPARE(before.status, 503);
    QCOMPARE(metric(*server, "records"), 0);
    const RawResponse after = exchange(server->port(), postOrder(order(2), "e2"));
    QCOMPARE(after.status, 503);
    QCOMPARE(metric(*server, "records"), 1);
    // storeErrors (the default): the stored error replays, identical.
    const RawResponse replay = exchange(server->port(), postOrder(order(2), "e2"));
    QCOMPARE(replay.status, 503);
    QCOMPARE(replay.header("Idempotent-Replayed"), QByteArray("true"));
    QCOMPARE(replay.body, after.body);
    QCOMPARE(metric(*server, "serverErrors"), 2);
}

void TestLiveServer::resetAfterCommitClosesTheConnection()
{
    Scenario s = base();
    s.network.script = {ScriptEntry{1, QStringLiteral("b1/w1/t1"), FaultKind::ResetAfterCommit}};
    auto server = startServer(s);
    const RawResponse r = exchange(server->port(), postOrder(order(1), "r1"));
    QCOMPARE(r.status, 0);
    QVERIFY(r.closed);
    QCOMPARE(metric(*server, "records"), 1);
    const RawResponse again = exchange(server->port(), postOrder(order(1), "r1"));
    QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
}

void TestLiveServer::capacityLimitAnswers503()
{
    Scenario s = base();
    s.server.capacity = 1;
    s.server.queue = 1;
    s.server.processingMs = {400, 0};
    auto server = startServer(s);
    const QList<RawResponse> r = exchangeAll(server->port(), {postOrder(order(1)), postOrder(order(2)), postOrder(order(3))});
    QList<int> statuses{r[0].status, r[1].status, r[2].status};
    std::sort(statuses.begin(), statuses.end());
    QCOMPARE(statuses, (QList<int>{201, 201, 503}));
    QCOMPARE(metric(*server, "rejected503"), 1);
    QCOMPARE(metric(*server, "records"), 2);
}

void TestLiveServer::requestLostIsNeverProcessed()
{
    Scenario s = base();
    s.network.script = {ScriptEntry{1, QStringLiteral("b1/w1/t1"), FaultKind::RequestLost}};
    auto server = startServer(s);
    const RawResponse r = exchange(server->port(), postOrder(order(1), "q1"), 400);
    QCOMPARE(r.status, 0);
    QVERIFY(!r.closed); // silent: the client only sees its own timeout
    QCOMPARE(metric(*server, "records"), 0);
    QCOMPARE(exchange(server->port(), postOrder(order(1), "q1")).status, 201);
}

void TestLiveServer::restartForgetsMemoryKeys_data()
{
    QTest::addColumn<int>("store");
    QTest::addColumn<int>("records");
    QTest::addRow("durable-keys-replay") << int(KeyStore::Durable) << 1;
    QTest::addRow("memory-keys-duplicate") << int(KeyStore::Memory) << 2;
}

void TestLiveServer::restartForgetsMemoryKeys()
{
    QFETCH(int, store);
    QFETCH(int, records);
    Scenario s = base();
    s.server.idempotency.store = KeyStore(store);
    s.server.restartDownMs = 50;
    s.network.script = {ScriptEntry{1, QStringLiteral("b1/w1/t1"), FaultKind::ServerRestart}};
    auto server = startServer(s);
    QSignalSpy restarted(server.get(), &OrderServer::restarted);
    // Committed, then the server restarted: no answer ever comes (its connection is reset), and
    // the record stays.
    const RawResponse r = exchange(server->port(), postOrder(order(1), "restart-key"), 300);
    QCOMPARE(r.status, 0);
    QTRY_COMPARE(restarted.count(), 2); // down, then up again
    QCOMPARE(exchange(server->port(), postOrder(order(1), "restart-key")).status, 201);
    QCOMPARE(metric(*server, "records"), records);
}

void TestLiveServer::restartResetsHeldConnections_data()
{
    QTest::addColumn<int>("inFlight");
    QTest::addColumn<bool>("closed");
    QTest::addRow("reset-closes-at-once") << int(RestartInFlight::Reset) << true;
    QTest::addRow("hang-stays-silent") << int(RestartInFlight::Hang) << false;
}

void TestLiveServer::restartResetsHeldConnections()
{
    // A request held in processing when the server restarts: a crash (reset, the default) closes
    // its connection at once; a hang leaves it open and silent until the client's own timeout
    // (2 s here) ends the wait. Neither answers.
    QFETCH(int, inFlight);
    QFETCH(bool, closed);
    Scenario s = base();
    s.server.processingMs = {3000, 0};
    s.server.restartDownMs = 50;
    s.server.restartInFlight = RestartInFlight(inFlight);
    auto server = startServer(s);
    QTimer::singleShot(200, server.get(), [&server] { server->restart(); });
    const RawResponse r = exchange(server->port(), postOrder(order(1), "held-key"), 2000);
    QCOMPARE(r.status, 0);
    QCOMPARE(r.closed, closed);
    QCOMPARE(metric(*server, "records"), 0);
}

void TestLiveServer::traceSignalDescribesEachRequest()
{
    Scenario s = base();
    s.server.processingMs = {20, 0};
    auto server = startServer(s);
    QSignalSpy handled(server.get(), &OrderServer::requestHandled);
    QCOMPARE(exchange(server->port(), postOrder(order(7), "trace-key", "X-Request-ID: req-7\r\nX-RetryLab-Attempt: op7/b2/w1/t3\r\n")).status,
             201);
    QTRY_COMPARE(handled.count(), 1);
    const Trace events = handled.at(0).at(0).value<Trace>();
    QCOMPARE(kinds(events), (QList<EventKind>{EventKind::RequestArrived, EventKind::KeyReserved,
                                              EventKind::ProcessingStarted, EventKind::Committed,
                                              EventKind::ResponseSent}));
    qint64 previous = 0;
    for (const TraceEvent &e : events) {
        QCOMPARE(e.op, 7);
        QCOMPARE(e.path(), QStringLiteral("op7/b2/w1/t3"));
        QCOMPARE(e.requestId(), QStringLiteral("req-7"));
        QCOMPARE(e.key(), QStringLiteral("trace-key"));
        QVERIFY(e.t >= previous);
        previous = e.t;
    }
    QCOMPARE(events.last().status, 201);
    QCOMPARE(events.at(3).record, 1);
    QCOMPARE(events.at(3).lane, Lane::Database);
    // The processing time is real: commit at least 20 ms after processing started.
    QVERIFY(events.at(3).t - events.at(2).t >= 19000);
    // Without the attempt header, the n-th arrival of a reference is op7/b1/w1/tN.
    QCOMPARE(exchange(server->port(), postOrder(order(7), "trace-key")).status, 201);
    QTRY_COMPARE(handled.count(), 2);
    QCOMPARE(handled.at(1).at(0).value<Trace>().first().path(), QStringLiteral("op7/b1/w1/t2"));
    QVERIFY(kinds(handled.at(1).at(0).value<Trace>()).contains(EventKind::Replayed));
}

void TestLiveServer::malformedOrdersAreTracedToo()
{
    auto server = startServer(base());
    QSignalSpy handled(server.get(), &OrderServer::requestHandled);
    QCOMPARE(exchange(server->port(), postOrder("{\"item\":\"book\"}", "k-bad", "X-Request-ID: req-bad\r\n")).status, 400);
    QTRY_COMPARE(handled.count(), 1);
    const Trace events = handled.at(0).at(0).value<Trace>();
    QCOMPARE(kinds(events), (QList<EventKind>{EventKind::RequestArrived, EventKind::Rejected, EventKind::ResponseSent}));
    QCOMPARE(events.at(1).status, 400);
    QCOMPARE(events.at(1).requestId(), QStringLiteral("req-bad"));
    QCOMPARE(events.at(1).key(), QStringLiteral("k-bad"));
    QVERIFY(events.at(1).detail().contains(QLatin1String("ref")));
    // An invalid key is not echoed into the trace.
    QCOMPARE(exchange(server->port(), postOrder(order(1), "bad key")).status, 400);
    QTRY_COMPARE(handled.count(), 2);
    QVERIFY(handled.at(1).at(0).value<Trace>().at(1).key().isEmpty());
    QCOMPARE(metric(*server, "records"), 0);
    // Both are counted as the simulation counts a 400: HTTP attempts refused.
    QCOMPARE(metric(*server, "rejected400"), 2);
    QCOMPARE(metric(*server, "httpAttempts"), 2);
}

void TestLiveServer::latencySpikeDelaysTheRequest()
{
    Scenario s = base();
    s.network.spikeMs = 300;
    s.network.script = {ScriptEntry{1, QStringLiteral("b1/w1/t1"), FaultKind::LatencySpike}};
    auto server = startServer(s);
    QSignalSpy handled(server.get(), &OrderServer::requestHandled);
    // The request reaches the service 300 ms late (design 1.3): a client that waits 100 ms gives
    // up before anything is committed...
    QCOMPARE(exchange(server->port(), postOrder(order(1), "spike"), 100).status, 0);
    QCOMPARE(metric(*server, "records"), 0);
    QCOMPARE(server->metricsJson().value(QLatin1String("server")).toObject().value(QLatin1String("delayed")).toInt(), 1);
    // ...and the order is committed after it left: the ghost.
    QTRY_COMPARE(metric(*server, "records"), 1);
    QTRY_COMPARE(handled.count(), 1);
    const QList<EventKind> seen = kinds(handled.at(0).at(0).value<Trace>());
    QVERIFY(seen.indexOf(EventKind::RequestDelayed) < seen.indexOf(EventKind::RequestArrived));
    QVERIFY(seen.contains(EventKind::Committed));
    // An order the script does not delay is answered at once.
    QCOMPARE(exchange(server->port(), postOrder(order(2), "spike-2")).status, 201);
}

void TestLiveServer::stopFromARequestHandledSlot()
{
    // The window's Stop may run inside a slot of requestHandled, i.e. inside the HTTP server's
    // own request handling: the server must stop without pulling the ground from under it.
    auto server = startServer(base());
    QSignalSpy stopped(server.get(), &OrderServer::stopped);
    connect(server.get(), &OrderServer::requestHandled, server.get(), [&] { server->stop(); });
    const RawResponse r = exchange(server->port(), postOrder(order(1), "stop"));
    QVERIFY(r.status == 201 || r.closed);
    QCOMPARE(stopped.count(), 1);
    QVERIFY(!server->isRunning());
    // And it starts again on a fresh port.
    QVERIFY(server->start(ServeOptions()).isEmpty());
    QCOMPARE(exchange(server->port(), postOrder(order(2))).status, 201);
}

void TestLiveServer::timeScaleShortensDelaysAndTtl()
{
    ServeOptions options;
    options.scenario.server.processingMs = {1000, 0};
    options.scenario.server.idempotency.ttlS = 60;
    options.timeScale = 0.001; // a simulated second takes a real millisecond
    OrderServer server;
    QVERIFY(server.start(options).isEmpty());
    QSignalSpy handled(&server, &OrderServer::requestHandled);
    QCOMPARE(exchange(server.port(), postOrder(order(1), "scaled")).status, 201);
    QTRY_COMPARE(handled.count(), 1);
    const Trace events = handled.at(0).at(0).value<Trace>();
    QCOMPARE(events.at(2).kind, EventKind::ProcessingStarted);
    QCOMPARE(events.at(2).detail(), QStringLiteral("processing 1000 ms (1 ms real)"));
    // The 60 s TTL passes in about 60 real milliseconds: the key is then forgotten.
    // (QTRY evaluates its condition once more after the loop: post only until one is new.)
    bool fresh = false;
    QTRY_VERIFY_WITH_TIMEOUT(fresh || (fresh = exchange(server.port(), postOrder(order(1), "scaled"))
                                                       .header("Idempotent-Replayed")
                                                       .isEmpty()),
                             5000);
    QCOMPARE(metric(server, "duplicates"), 1);
    ServeOptions bad;
    bad.timeScale = 0;
    QVERIFY(OrderServer().start(bad).contains(QLatin1String("time scale")));
}

void TestLiveServer::adminFaultsReadAndChange()
{
    auto server = startServer(base());
    const RawResponse got = exchange(server->port(), request("GET", "/admin/faults"));
    QCOMPARE(got.status, 200);
    QCOMPARE(got.json().value(QLatin1String("network")).toObject().value(QLatin1String("responseLoss")).toDouble(), 0.0);
    const RawResponse put = exchange(server->port(), request("PUT", "/admin/faults",
                                                             "{\"network\":{\"responseLoss\":1},\"server.retryAfterS\":7}", kJson));
    QCOMPARE(put.status, 200);
    QCOMPARE(put.json().value(QLatin1String("network")).toObject().value(QLatin1String("responseLoss")).toDouble(), 1.0);
    QCOMPARE(put.json().value(QLatin1String("server")).toObject().value(QLatin1String("retryAfterS")).toInt(), 7);
    // Every response is now lost (held), though the order commits.
    QCOMPARE(exchange(server->port(), postOrder(order(1)), 300).status, 0);
    QCOMPARE(metric(*server, "records"), 1);
    const RawResponse bad = exchange(server->port(), request("PUT", "/admin/faults", "{\"network\":{\"responseLoss\":2}}", kJson));
    QCOMPARE(bad.status, 400);
    QVERIFY2(bad.json().value(QLatin1String("detail")).toString().contains(QLatin1String("network.responseLoss")),
             bad.body.constData());
    QCOMPARE(exchange(server->port(), request("PUT", "/admin/faults", "{\"client\":{\"timeoutMs\":5}}", kJson)).status, 400);
    QCOMPARE(exchange(server->port(), request("DELETE", "/admin/faults")).status, 405);
}

void TestLiveServer::adminNeedsTokenWhenSet()
{
    auto server = std::make_unique<OrderServer>();
    ServeOptions options;
    options.adminToken = "secret-token-0123";
    QVERIFY(server->start(options).isEmpty());
    const RawResponse denied = exchange(server->port(), request("GET", "/admin/faults"));
    QCOMPARE(denied.status, 401);
    QCOMPARE(denied.header("WWW-Authenticate"), QByteArray("Bearer"));
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", QByteArray(), "Authorization: Bearer wrong\r\n" + kJson)).status, 401);
    QCOMPARE(exchange(server->port(), request("GET", "/admin/faults", QByteArray(), "Authorization: Bearer secret-token-0123\r\n")).status,
             200);
    // The order endpoints stay open.
    QCOMPARE(exchange(server->port(), postOrder(order(1))).status, 201);
}

void TestLiveServer::resetEmptiesTheStore()
{
    auto server = startServer(base());
    QCOMPARE(exchange(server->port(), postOrder(order(1), "k")).status, 201);
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", QByteArray(), kJson)).status, 200);
    QCOMPARE(metric(*server, "records"), 0);
    QCOMPARE(metric(*server, "httpAttempts"), 0);
    const RawResponse again = exchange(server->port(), postOrder(order(1), "k"));
    QCOMPARE(again.status, 201);
    QVERIFY(again.header("Idempotent-Replayed").isEmpty());
    QCOMPARE(again.json().value(QLatin1String("id")).toInt(), 1);

    // Stopped and started again (the window's Serve does this), an in-memory server begins empty,
    // its counters too.
    QCOMPARE(exchange(server->port(), postOrder(order(1), "k")).status, 201); // a replay: counted
    QCOMPARE(metric(*server, "replays"), 1);
    server->stop();
    QVERIFY(server->start([] {
                ServeOptions o;
                o.scenario = base();
                return o;
            }())
                .isEmpty());
    QCOMPARE(metric(*server, "httpAttempts"), 0);
    QCOMPARE(metric(*server, "replays"), 0);
    QCOMPARE(metric(*server, "records"), 0);
    QCOMPARE(exchange(server->port(), postOrder(order(1), "k")).status, 201);
    QCOMPARE(metric(*server, "replays"), 0);
}

void TestLiveServer::queriesByRefAndId()
{
    auto server = startServer(base());
    QCOMPARE(exchange(server->port(), request("GET", "/orders?ref=ORD-0001")).status, 404);
    QCOMPARE(exchange(server->port(), postOrder(order(1))).status, 201);
    QCOMPARE(exchange(server->port(), postOrder(order(1))).status, 201); // no key: a duplicate
    const RawResponse byRef = exchange(server->port(), request("GET", "/orders?ref=ORD-0001"));
    QCOMPARE(byRef.status, 200);
    QCOMPARE(byRef.json().value(QLatin1String("count")).toInt(), 2);
    QCOMPARE(exchange(server->port(), request("GET", "/orders/2")).json().value(QLatin1String("id")).toInt(), 2);
    QCOMPARE(exchange(server->port(), request("GET", "/orders/3")).status, 404);
    QCOMPARE(exchange(server->port(), request("GET", "/healthz")).status, 200);
    const QJsonObject m = exchange(server->port(), request("GET", "/metrics", QByteArray(), "Accept: application/json\r\n")).json();
    QCOMPARE(m.value(QLatin1String("records")).toInt(), 2);
    QCOMPARE(m.value(QLatin1String("duplicates")).toInt(), 1);
}

void TestLiveServer::keyFieldOnTheWire()
{
    // Issue 21 item 10: "q-1" and q-1 were two keys, an empty key was no key (201, unprotected),
    // two key fields got a misleading "visible ASCII" message.
    auto server = startServer(base());
    QCOMPARE(exchange(server->port(), postOrder(order(1), "q-1")).status, 201);
    const RawResponse quoted = exchange(server->port(), postOrder(order(1), "\"q-1\""));
    QCOMPARE(quoted.status, 201);
    QCOMPARE(quoted.header("Idempotent-Replayed"), QByteArray("true"));
    QCOMPARE(quoted.json().value(QLatin1String("id")).toInt(), 1);
    const RawResponse empty = exchange(server->port(), postOrder(order(2), "\"\""));
    QCOMPARE(empty.status, 400);
    QCOMPARE(empty.json().value(QLatin1String("type")).toString(), QStringLiteral("/problems/invalid-key"));
    QVERIFY2(empty.json().value(QLatin1String("detail")).toString().contains(QLatin1String("is empty")), empty.body.constData());
    const RawResponse two = exchange(server->port(), postOrder(order(3), "a", "Idempotency-Key: b\r\n"));
    QCOMPARE(two.status, 400);
    QVERIFY2(two.json().value(QLatin1String("detail")).toString().contains(QLatin1String("sent 2 times")), two.body.constData());
    QCOMPARE(metric(*server, "records"), 1);
    QCOMPARE(metric(*server, "rejected400"), 2);
}

void TestLiveServer::problemDetailsHaveTypes()
{
    Scenario s = base();
    s.server.idempotency.mode = IdempotencyMode::Token;
    auto server = startServer(s);
    const auto type = [](const RawResponse &r) { return r.json().value(QLatin1String("type")).toString(); };
    QCOMPARE(type(exchange(server->port(), postOrder("{\"item\":1}"))), QStringLiteral("/problems/bad-request"));
    QCOMPARE(type(exchange(server->port(), postOrder(order(1)))), QStringLiteral("/problems/token-required"));
    QCOMPARE(type(exchange(server->port(), postOrder(order(1), "tok-never"))), QStringLiteral("/problems/unknown-token"));
    QCOMPARE(type(exchange(server->port(), request("GET", "/nowhere"))), QStringLiteral("/problems/not-found"));
    QCOMPARE(type(exchange(server->port(), request("DELETE", "/orders"))), QStringLiteral("/problems/method-not-allowed"));
    // A used token keeps the lesson's 409; its type and detail say what it means and what to do.
    const QByteArray token = exchange(server->port(), request("POST", "/order-tokens")).json().value(QLatin1String("token")).toString().toLatin1();
    QCOMPARE(exchange(server->port(), postOrder(order(1), token)).status, 201);
    const RawResponse used = exchange(server->port(), postOrder(order(1), token));
    QCOMPARE(used.status, 409);
    QCOMPARE(type(used), QStringLiteral("/problems/token-used"));
    QVERIFY2(used.json().value(QLatin1String("detail")).toString().contains(QLatin1String("GET /orders?ref=")), used.body.constData());
    // The type dereferences on the service itself.
    const RawResponse doc = exchange(server->port(), request("GET", "/problems/token-used"));
    QCOMPARE(doc.status, 200);
    QVERIFY(doc.header("Content-Type").startsWith("text/plain"));
    QVERIFY2(doc.body.contains("tokenReuse"), doc.body.constData());
    QCOMPARE(exchange(server->port(), request("GET", "/problems/no-such-type")).status, 404);
    QCOMPARE(exchange(server->port(), request("POST", "/problems/token-used")).status, 405);
    // 422 and a key in use, on an atomic service with processing time.
    Scenario a = base();
    a.server.processingMs = {300, 0};
    auto atomic = startServer(a);
    const QList<RawResponse> race = exchangeAll(atomic->port(), {postOrder(order(2), "k"), postOrder(order(2), "k")});
    QStringList types{type(race[0]), type(race[1])};
    QVERIFY2(types.contains(QStringLiteral("/problems/key-in-use")), qPrintable(types.join(QLatin1Char(' '))));
    QCOMPARE(type(exchange(atomic->port(), postOrder(order(2, ",\"qty\":9"), "k"))), QStringLiteral("/problems/payload-mismatch"));
}

void TestLiveServer::everyProblemTypeIsDocumented()
{
    QFile doc(retrylab::test::sourcePath(QStringLiteral("docs/http-service.md")));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QByteArray text = doc.readAll();
    QVERIFY(text.contains("## Problem types"));
    for (const ProblemType &t : ProblemType::all())
        QVERIFY2(text.contains("| `" + QByteArray(t.slug) + "` | " + QByteArray::number(t.status)), t.slug);
}

void TestLiveServer::draftConformanceTableNamesRealTests()
{
    // The README's Idempotency-Key draft table: every row names a test, and every test it names
    // is a test function of that file (a renamed test cannot leave a row without its check).
    QFile readme(retrylab::test::sourcePath(QStringLiteral("README.md")));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(readme.readAll());
    const qsizetype from = text.indexOf(QLatin1String("| draft | `serve` | test |"));
    QVERIFY2(from >= 0, "README.md has no draft conformance table");
    const QString table = text.mid(from, text.indexOf(QLatin1String("\n\n"), from) - from);
    const QStringList rows = table.split(QLatin1Char('\n')).mid(2);
    QVERIFY(rows.size() >= 9);
    static const QRegularExpression named(QStringLiteral("`(tst_[a-z]+)::([A-Za-z0-9]+)`"));
    for (const QString &row : rows) {
        auto it = named.globalMatch(row.section(QLatin1Char('|'), 3, 3));
        QVERIFY2(it.hasNext(), qPrintable(row));
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            QFile source(retrylab::test::sourcePath(QStringLiteral("tests/live/%1.cpp")).arg(m.captured(1)));
            QVERIFY2(source.open(QIODevice::ReadOnly), qPrintable(m.captured(1)));
            const QString code = QString::fromUtf8(source.readAll());
            QVERIFY2(code.contains(QRegularExpression(QStringLiteral("void Test\\w+::%1\\(\\)").arg(m.captured(2)))),
                     qPrintable(m.captured(0)));
        }
    }
}

void TestLiveServer::errorDetailsSayWhere()
{
    // Issue 21 item 14: "the body is not JSON: illegal value" said neither where nor why, and a
    // POST without a length got the same sentence.
    auto server = startServer(base());
    const QByteArray bad = "{\"ref\": oops}";
    QJsonParseError expected;
    QJsonDocument::fromJson(bad, &expected);
    const RawResponse notJson = exchange(server->port(), postOrder(bad));
    QCOMPARE(notJson.status, 400);
    QVERIFY2(notJson.json().value(QLatin1String("detail")).toString().endsWith(
                     QStringLiteral("at byte %1 of %2").arg(expected.offset).arg(bad.size())),
             notJson.body.constData());
    const RawResponse noLength = exchange(server->port(), "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                          "Content-Type: application/json\r\n\r\n");
    QCOMPARE(noLength.status, 411);
    QVERIFY2(noLength.json().value(QLatin1String("detail")).toString().contains(QLatin1String("Content-Length")),
             noLength.body.constData());
    const RawResponse zero = exchange(server->port(), postOrder(QByteArray()));
    QCOMPARE(zero.status, 400);
    QVERIFY2(zero.json().value(QLatin1String("detail")).toString().contains(QLatin1String("the body is empty")), zero.body.constData());
    QCOMPARE(metric(*server, "records"), 0);
}

void TestLiveServer::queriesArePaged()
{
    // Issue 21 item 11: GET /orders?ref= stopped at 100 rows with "count":100.
    auto server = startServer(base());
    for (int i = 0; i < 101; ++i)
        QCOMPARE(exchange(server->port(), postOrder(order(1))).status, 201);
    QCOMPARE(exchange(server->port(), postOrder("{\"ref\":\"A B&C\"}")).status, 201);
    const RawResponse first = exchange(server->port(), request("GET", "/orders?ref=ORD-0001"));
    QCOMPARE(first.status, 200);
    QCOMPARE(first.json().value(QLatin1String("count")).toInt(), 101);
    QCOMPARE(first.json().value(QLatin1String("orders")).toArray().size(), 100);
    const QString next = first.json().value(QLatin1String("next")).toString();
    QCOMPARE(next, QStringLiteral("/orders?ref=ORD-0001&after=100&limit=100"));
    const RawResponse second = exchange(server->port(), request("GET", next.toLatin1()));
    QCOMPARE(second.json().value(QLatin1String("orders")).toArray().size(), 1);
    QCOMPARE(second.json().value(QLatin1String("orders")).toArray().at(0).toObject().value(QLatin1String("id")).toInt(), 101);
    QVERIFY(!second.json().contains(QLatin1String("next")));
    // A page that ends exactly at the last order has no next.
    const RawResponse exact = exchange(server->port(), request("GET", "/orders?ref=ORD-0001&after=1&limit=100"));
    QCOMPARE(exact.json().value(QLatin1String("orders")).toArray().size(), 100);
    QVERIFY(!exact.json().contains(QLatin1String("next")));
    // Past the end: still the reference's count, no orders.
    const RawResponse past = exchange(server->port(), request("GET", "/orders?ref=ORD-0001&after=500"));
    QCOMPARE(past.status, 200);
    QCOMPARE(past.json().value(QLatin1String("count")).toInt(), 101);
    QCOMPARE(past.json().value(QLatin1String("orders")).toArray().size(), 0);
    // A reference that needs encoding comes back encoded in the link.
    const RawResponse odd = exchange(server->port(), request("GET", "/orders?ref=A%20B%26C&limit=1"));
    QCOMPARE(odd.json().value(QLatin1String("count")).toInt(), 1);
    QVERIFY(!odd.json().contains(QLatin1String("next")));
    QCOMPARE(exchange(server->port(), request("GET", "/orders?ref=ORD-0001&limit=1000")).json().value(QLatin1String("orders")).toArray().size(),
             101);
    for (const char *bad : {"limit=0", "limit=1001", "after=-1", "limit=ten", "after=1.5"}) {
        const RawResponse r = exchange(server->port(), request("GET", QByteArray("/orders?ref=ORD-0001&") + bad));
        QCOMPARE(r.status, 400);
        QVERIFY2(r.json().value(QLatin1String("detail")).toString().contains(QLatin1String(QByteArray(bad).split('=').at(0))), bad);
    }
}

void TestLiveServer::metricsByContentNegotiation()
{
    auto server = startServer(base());
    QCOMPARE(exchange(server->port(), postOrder(order(1), "k")).status, 201);
    const RawResponse text = exchange(server->port(), request("GET", "/metrics", QByteArray(), "Accept: */*\r\n"));
    QCOMPARE(text.status, 200);
    QCOMPARE(text.header("Content-Type"), QByteArray("text/plain; version=0.0.4; charset=utf-8"));
    QCOMPARE(text.header("Vary"), QByteArray("Accept"));
    QVERIFY2(text.body.contains("\nretrylab_http_attempts_total 1\n"), text.body.constData());
    QVERIFY2(text.body.contains("retrylab_request_duration_seconds_count 1\n"), text.body.constData());
    const RawResponse json = exchange(server->port(), request("GET", "/metrics", QByteArray(), "Accept: application/json\r\n"));
    QCOMPARE(json.header("Content-Type"), QByteArray("application/json"));
    QCOMPARE(json.json().value(QLatin1String("httpAttempts")).toInt(), 1);
}

void TestLiveServer::failedBeforeCommitIsNotStored()
{
    // Issue 21 item 9: a 503 "failed before commit" was stored and replayed for 24 h, with no
    // Retry-After. Nothing was committed, so the key must succeed once the fault is gone (the
    // draft's "Error Handling": other 5xx are the resource's to document; Stripe stores only
    // results of requests that began executing).
    Scenario s = base();
    s.server.retryAfterS = 2;
    s.network.script = {ScriptEntry{1, QStringLiteral("b1/w1/t1"), FaultKind::Server5xxBeforeCommit},
                        ScriptEntry{2, QStringLiteral("b1/w1/t1"), FaultKind::Server5xxAfterCommit}};
    auto server = startServer(s);
    const RawResponse fresh = exchange(server->port(), postOrder(order(1), "before-1"));
    QCOMPARE(fresh.status, 503);
    QCOMPARE(fresh.header("Retry-After"), QByteArray("2"));
    QCOMPARE(fresh.json().value(QLatin1String("type")).toString(), QStringLiteral("/problems/failed-before-commit"));
    // A 503 after commit is stored (storeErrors): its replay carries Retry-After too.
    QCOMPARE(exchange(server->port(), postOrder(order(2), "after-2")).header("Retry-After"), QByteArray("2"));
    const RawResponse replayed = exchange(server->port(), postOrder(order(2), "after-2"));
    QCOMPARE(replayed.status, 503);
    QCOMPARE(replayed.header("Idempotent-Replayed"), QByteArray("true"));
    QCOMPARE(replayed.header("Retry-After"), QByteArray("2"));
    // The fault is gone for the second attempt (t2): the same key creates the order.
    const RawResponse resend = exchange(server->port(), postOrder(order(1), "before-1"));
    QCOMPARE(resend.status, 201);
    QVERIFY(resend.header("Idempotent-Replayed").isEmpty());
}

QTEST_GUILESS_MAIN(TestLiveServer)
#include "tst_liveserver.moc"
