// The HTTP front over raw sockets: one framing check before Qt's parser (a smuggled order never
// commits), answers in request order (RFC 9112 section 9.3.2), Connection: close and HTTP/1.0,
// HEAD, Host, Expect: 100-continue, TLS bytes, and the bounded memory of a client that never reads.
#include "connectionguard.h"
#include "livesupport.h"
#include "testpaths.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

const QByteArray kOrder = "{\"ref\":\"ORD-0001\",\"item\":\"book\"}";

int records(OrderServer &server)
{
    return server.metricsJson().value(QLatin1String("records")).toInt();
}

// The server runs in this thread: every wait below turns the event loop (QTest::qWait), never
// a blocking waitFor...() that would stop the server too.

// Reads raw bytes until `done` holds for them or the server closes (then returns what came).
QByteArray readUntil(QTcpSocket &socket, const std::function<bool(const QByteArray &)> &done, int timeoutMs = 5000)
{
    QByteArray got;
    QElapsedTimer timer;
    timer.start();
    while (!done(got) && timer.elapsed() < timeoutMs) {
        if (socket.bytesAvailable() == 0 && socket.state() != QAbstractSocket::ConnectedState)
            break;
        QTest::qWait(5);
        got += socket.readAll();
    }
    return got;
}

// The next whole answer (status 0 and closed: the server closed first; status 0: time is up).
RawResponse next(RawClient &client, int timeoutMs = 5000)
{
    RawResponse r;
    QElapsedTimer timer;
    timer.start();
    while (!client.tryParse(&r)) {
        if (client.socket().state() == QAbstractSocket::UnconnectedState && client.socket().bytesAvailable() == 0) {
            r = RawResponse();
            r.closed = true;
            return r;
        }
        if (timer.elapsed() > timeoutMs)
            return RawResponse();
        QTest::qWait(5);
    }
    return r;
}

bool closedWithin(RawClient &client, int timeoutMs = 5000)
{
    QElapsedTimer timer;
    timer.start();
    while (client.socket().state() != QAbstractSocket::UnconnectedState && timer.elapsed() < timeoutMs) {
        client.socket().readAll();
        QTest::qWait(5);
    }
    return client.socket().state() == QAbstractSocket::UnconnectedState;
}

// The status codes of every answer head in `bytes`, in order.
QList<int> statuses(const QByteArray &bytes)
{
    QList<int> out;
    for (qsizetype at = bytes.indexOf("HTTP/1.1 "); at >= 0; at = bytes.indexOf("HTTP/1.1 ", at + 1))
        out << bytes.mid(at + 9, 3).toInt();
    return out;
}

Scenario processing(int ms)
{
    Scenario s = ServeOptions::defaultScenario();
    s.server.processingMs = {ms, 0};
    return s;
}

} // namespace

class TestHttpFraming : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hiddenChunkedOrderNeverCommits();
    void pipelinedAnswersKeepRequestOrder();
    void refusalFollowsEarlierAnswers();
    void connectionCloseEndsTheConnection_data();
    void connectionCloseEndsTheConnection();
    void http10ClientReadsToEof();
    void headHasTheGetsHeadersAndNoContent();
    void headWhereverGet_data();
    void headWhereverGet();
    void expectContinueGets100();
    void tlsBytesAreRefusedAtOnce();
    void clientThatNeverReadsIsBounded();
    void clientThatNeverReadsIsCut();
    void pipelineLimitIsExact();
    void serveProcessStaysSmallUnderUnreadPipelines();
};

void TestHttpFraming::hiddenChunkedOrderNeverCommits()
{
    // Issue 21 item 3: Content-Length 0 for the guard, N for Qt's parser, and a chunked POST
    // /orders in the N bytes.
    auto server = startServer(ServeOptions::defaultScenario());
    const QByteArray hidden = postOrder("{\"ref\":\"ORD-0666\"}", "smuggled");
    const QByteArray chunk = QByteArray::number(hidden.size(), 16) + "\r\n" + hidden + "\r\n0\r\n\r\n";
    const QByteArray inner = "POST /orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk;
    const QByteArray outer = "POST /orders HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: "
                             + QByteArray::number(inner.size()) + "\r\n\r\n" + inner;
    RawClient client(server->port());
    client.send(outer);
    const RawResponse r = next(client);
    QCOMPARE(r.status, 400);
    QVERIFY(r.json().value(QLatin1String("detail")).toString().contains(QLatin1String("Content-Length")));
    QCOMPARE(r.header("Connection"), QByteArray("close"));
    QVERIFY(closedWithin(client));
    QCOMPARE(records(*server), 0);
}

void TestHttpFraming::pipelinedAnswersKeepRequestOrder()
{
    // Issue 21 item 5: the first order takes 300 ms, the health check none; RFC 9112 section
    // 9.3.2 still wants the order's answer first.
    auto server = startServer(processing(300));
    RawClient client(server->port());
    client.send(postOrder(kOrder, "k-1", "X-Request-ID: first\r\n") + request("GET", "/healthz")
                + postOrder("{\"ref\":\"ORD-0002\"}", "k-2", "X-Request-ID: third\r\n") + request("GET", "/nope"));
    const RawResponse a = next(client);
    const RawResponse b = next(client);
    const RawResponse c = next(client);
    const RawResponse d = next(client);
    QCOMPARE(a.status, 201);
    QCOMPARE(a.header("X-Request-ID"), QByteArray("first"));
    QCOMPARE(b.status, 200);
    QCOMPARE(b.body, QByteArray("{\"status\":\"ok\"}"));
    QCOMPARE(c.status, 201);
    QCOMPARE(c.header("X-Request-ID"), QByteArray("third"));
    QCOMPARE(d.status, 404);
    QCOMPARE(records(*server), 2);
}

void TestHttpFraming::refusalFollowsEarlierAnswers()
{
    // A smuggling attempt behind a slow order: the order is answered, then the 400, then the
    // connection closes.
    auto server = startServer(processing(200));
    RawClient client(server->port());
    client.send(postOrder(kOrder, "k-1") + "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
    const RawResponse a = next(client);
    const RawResponse b = next(client);
    QCOMPARE(a.status, 201);
    QCOMPARE(b.status, 400);
    QVERIFY(closedWithin(client));
    QCOMPARE(records(*server), 1);
}

void TestHttpFraming::connectionCloseEndsTheConnection_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("status");
    const QByteArray close = "Connection: close\r\n";
    QTest::addRow("get") << request("GET", "/healthz", QByteArray(), close) << 200;
    QTest::addRow("bad-json-400") << postOrder("{nope", QByteArray(), close) << 400;
    QTest::addRow("unknown-404") << request("GET", "/nope", QByteArray(), close) << 404;
    QTest::addRow("method-405") << request("DELETE", "/orders", QByteArray(), close) << 405;
    QTest::addRow("order-201") << postOrder(kOrder, "k-close", close) << 201;
    QTest::addRow("close-among-options") << request("GET", "/healthz", QByteArray(), "Connection: x-foo, Close\r\n") << 200;
}

void TestHttpFraming::connectionCloseEndsTheConnection()
{
    // Issue 21 item 6: the answer says close, the server closes, and a request pipelined after
    // it is not served (RFC 9112 section 9.6).
    QFETCH(QByteArray, bytes);
    QFETCH(int, status);
    auto server = startServer(ServeOptions::defaultScenario());
    RawClient client(server->port());
    client.send(bytes + request("GET", "/healthz"));
    const RawResponse r = next(client);
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("Connection"), QByteArray("close"));
    QVERIFY(closedWithin(client, 3000));
    QCOMPARE(next(client, 200).status, 0);
}

void TestHttpFraming::http10ClientReadsToEof()
{
    // An HTTP/1.0 client reads its answer to EOF: the server must close.
    auto server = startServer(ServeOptions::defaultScenario());
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), server->port());
    QVERIFY(socket.waitForConnected());
    socket.write("GET /healthz HTTP/1.0\r\n\r\n");
    // waitForDisconnected cannot run the server in this thread: poll through the event loop.
    QTRY_VERIFY_WITH_TIMEOUT(socket.state() == QAbstractSocket::UnconnectedState, 3000);
    const QByteArray all = socket.readAll();
    QVERIFY2(all.startsWith("HTTP/1.1 200 OK\r\n"), all.constData());
    QVERIFY(all.contains("\r\nConnection: close\r\n"));
    QVERIFY(all.endsWith("{\"status\":\"ok\"}"));
}

void TestHttpFraming::headHasTheGetsHeadersAndNoContent()
{
    // Issue 21 item 7: HEAD answers as GET would, without content; a keep-alive client reads the
    // next answer in step.
    auto server = startServer(ServeOptions::defaultScenario());
    QCOMPARE(exchange(server->port(), postOrder(kOrder, "k-head")).status, 201);
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), server->port());
    QVERIFY(socket.waitForConnected());
    socket.write(request("HEAD", "/orders/1") + request("HEAD", "/nope") + request("HEAD", "/order-tokens")
                 + request("GET", "/orders/1"));
    const QByteArray all = readUntil(socket, [](const QByteArray &got) { return statuses(got).size() == 4 && got.endsWith("}"); });
    QCOMPARE(statuses(all), (QList<int>{200, 404, 405, 200}));
    // The GET's own answer carries the body; the HEAD answers end at their empty line.
    const qsizetype getAt = all.lastIndexOf("HTTP/1.1 200");
    const QByteArray get = all.mid(getAt);
    const QByteArray getBody = get.mid(get.indexOf("\r\n\r\n") + 4);
    const QByteArray heads = all.left(getAt);
    QCOMPARE(heads.count("\r\n\r\n"), 3);
    QVERIFY2(heads.endsWith("\r\n\r\n"), heads.constData()); // no content after the third head
    QVERIFY(heads.startsWith("HTTP/1.1 200 OK\r\n"));
    QVERIFY(heads.contains("Content-Length: " + QByteArray::number(getBody.size()) + "\r\n"));
    QVERIFY(!heads.contains("{"));
}

void TestHttpFraming::headWhereverGet_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addRow("admin faults") << QByteArray("/admin/faults");
    QTest::addRow("metrics") << QByteArray("/metrics");
    QTest::addRow("healthz") << QByteArray("/healthz");
    QTest::addRow("order") << QByteArray("/orders/1");
    QTest::addRow("orders of a ref") << QByteArray("/orders?ref=ORD-0001");
    QTest::addRow("problem type") << QByteArray("/problems/invalid-key");
}

void TestHttpFraming::headWhereverGet()
{
    // Issue 21 item 7 (RFC 9110 section 9.3.2): every target that answers GET answers HEAD with
    // the same status and headers and no content; /admin/faults answered 405 before.
    QFETCH(QByteArray, target);
    auto server = startServer(ServeOptions::defaultScenario());
    QCOMPARE(exchange(server->port(), postOrder(kOrder, "k-head-all")).status, 201);
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), server->port());
    QVERIFY(socket.waitForConnected());
    socket.write(request("GET", target) + request("HEAD", target) + request("GET", "/healthz"));
    const QByteArray all =
            readUntil(socket, [](const QByteArray &got) { return statuses(got).size() == 3 && got.endsWith("{\"status\":\"ok\"}"); });
    const QList<int> got = statuses(all);
    QCOMPARE(got.size(), 3);
    QCOMPARE(got.at(0), 200);
    QCOMPARE(got.at(1), got.at(0));
    const qsizetype headAt = all.indexOf("HTTP/1.1 ", 1);
    const qsizetype lastAt = all.lastIndexOf("HTTP/1.1 ");
    const QByteArray get = all.left(headAt);
    const QByteArray head = all.mid(headAt, lastAt - headAt);
    const QByteArray getBody = get.mid(get.indexOf("\r\n\r\n") + 4);
    QVERIFY(!getBody.isEmpty());
    // The head ends at its empty line and names the GET's content length.
    QVERIFY2(head.endsWith("\r\n\r\n") && head.count("\r\n\r\n") == 1, head.constData());
    QVERIFY2(head.contains("Content-Length: " + QByteArray::number(getBody.size()) + "\r\n"), head.constData());
}

void TestHttpFraming::expectContinueGets100()
{
    // Issue 21 item 8: curl sends the head with Expect: 100-continue and waits for 100 before
    // the body.
    auto server = startServer(ServeOptions::defaultScenario());
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), server->port());
    QVERIFY(socket.waitForConnected());
    socket.write("POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                 "Idempotency-Key: k-expect\r\nContent-Length: "
                 + QByteArray::number(kOrder.size()) + "\r\n\r\n");
    QByteArray got;
    QTRY_VERIFY_WITH_TIMEOUT((got += socket.readAll()) == "HTTP/1.1 100 Continue\r\n\r\n", 3000);
    socket.write(kOrder);
    got.clear();
    QTRY_VERIFY_WITH_TIMEOUT((got += socket.readAll()).contains("\r\n\r\n{"), 3000);
    QVERIFY2(got.startsWith("HTTP/1.1 201 Created\r\n"), got.constData());
    QCOMPARE(records(*server), 1);
}

void TestHttpFraming::tlsBytesAreRefusedAtOnce()
{
    // A TLS ClientHello has no line end for hundreds of bytes: with a 60 s request timeout, a
    // 400 (not a 408) shows it was refused at the first byte.
    ServeLimits limits;
    limits.requestTimeoutMs = 60000;
    auto server = startServer(ServeOptions::defaultScenario(), QString(), limits);
    const RawResponse r = exchange(server->port(), QByteArray("\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03", 11), 5000);
    QCOMPARE(r.status, 400);
    QVERIFY(r.json().value(QLatin1String("detail")).toString().contains(QLatin1String("0x16")));
}

void TestHttpFraming::clientThatNeverReadsIsBounded()
{
    // Issue 21 item 2: 230 KB of pipelined requests that are never read grew the server by
    // ~97 MB. Here 100,000 health checks (4.4 MB in, 13 MB of answers: more than the loopback
    // buffers of both kernels hold) are sent without reading: what the server holds for the
    // connection stays under its limits.
    ServeLimits limits;
    limits.maxUnsentBytes = 16 * 1024;
    limits.requestTimeoutMs = 60000;
    auto server = startServer(ServeOptions::defaultScenario(), QString(), limits);
    const QByteArray one = request("GET", "/healthz");
    const int count = 100000;
    QTcpSocket socket;
    socket.setReadBufferSize(1); // the client takes nothing off its kernel buffer until it reads
    socket.connectToHost(QStringLiteral("127.0.0.1"), server->port());
    QVERIFY(socket.waitForConnected());
    socket.write(one.repeated(count));
    QTRY_VERIFY_WITH_TIMEOUT(server->connectionGuard()->peakBacklog() > 0, 10000);
    // Give an unbounded server time to grow: the bound below must hold however long this is.
    QTest::qWait(500);
    const qint64 readBuffer = qint64(limits.maxHeaderBytes) + limits.maxBodyBytes + 4096;
    const qint64 oneAnswer = 200;
    QVERIFY2(server->connectionGuard()->peakBacklog() <= limits.maxUnsentBytes + oneAnswer + readBuffer,
             QByteArray::number(server->connectionGuard()->peakBacklog()).constData());
    // Reading again, the client gets every answer, in order.
    socket.setReadBufferSize(0);
    int answers = 0;
    QByteArray buffer;
    const auto drain = [&] {
        buffer += socket.readAll();
        qsizetype at = 0;
        for (qsizetype found = buffer.indexOf("HTTP/1.1 200 OK", at); found >= 0; found = buffer.indexOf("HTTP/1.1 200 OK", at)) {
            ++answers;
            at = found + 15;
        }
        buffer.remove(0, at);
        return answers == count;
    };
    QTRY_VERIFY_WITH_TIMEOUT(drain(), 60000);
}

void TestHttpFraming::clientThatNeverReadsIsCut()
{
    ServeLimits limits;
    limits.maxUnsentBytes = 4096;
    limits.requestTimeoutMs = 300;
    auto server = startServer(ServeOptions::defaultScenario(), QString(), limits);
    QTcpSocket socket;
    socket.setReadBufferSize(1);
    socket.connectToHost(QStringLiteral("127.0.0.1"), server->port());
    QVERIFY(socket.waitForConnected());
    socket.write(request("GET", "/healthz").repeated(100000));
    QTRY_COMPARE(server->connectionGuard()->openConnections(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(server->connectionGuard()->peakBacklog() > 0, 10000);
    // The client, reading nothing, would not even notice the close: the server's count shows it.
    QTRY_COMPARE_WITH_TIMEOUT(server->connectionGuard()->openConnections(), 0, 10000);
}

void TestHttpFraming::pipelineLimitIsExact()
{
    // maxPipelined requests may wait for their answers and the connection is still read; one
    // more and it is held (then released as answers leave): every answer still comes, in order.
    ServeLimits limits;
    limits.maxPipelined = 4;
    for (const int sent : {4, 5}) {
        auto server = startServer(processing(150), QString(), limits);
        RawClient client(server->port());
        QByteArray bytes;
        for (int i = 1; i <= sent; ++i)
            bytes += postOrder("{\"ref\":\"ORD-000" + QByteArray::number(i) + "\"}", "k-" + QByteArray::number(i),
                               "X-Request-ID: r" + QByteArray::number(i) + "\r\n");
        client.send(bytes);
        for (int i = 1; i <= sent; ++i) {
            const RawResponse r = next(client);
            QCOMPARE(r.status, 201);
            QCOMPARE(r.header("X-Request-ID"), "r" + QByteArray::number(i));
        }
        QCOMPARE(server->connectionGuard()->peakBacklog() > 0, sent > limits.maxPipelined);
    }
}

// Resident memory of a process in KiB (/proc/PID/status VmRSS), 0 when unknown.
qint64 residentKb(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

void TestHttpFraming::serveProcessStaysSmallUnderUnreadPipelines()
{
    // Issue 21 item 2 as it was measured: four connections that pipeline without reading took a
    // `serve` process to 433 MB. Here four connections send 16 MB each (more than the loopback
    // buffers of both kernels hold) and read nothing; the server stops reading them, and its
    // resident memory grows by a few MB, not hundreds.
    QProcess serve;
    serve.start(retrylab::test::retrylabBin(), {QStringLiteral("serve"), QStringLiteral("--port"), QStringLiteral("0")});
    QVERIFY(serve.waitForStarted());
    QByteArray banner;
    const QRegularExpression url(QStringLiteral("http://[0-9.]+:(\\d+)"));
    QRegularExpressionMatch match;
    QTRY_VERIFY_WITH_TIMEOUT((banner += serve.readAllStandardOutput(), match = url.match(QString::fromUtf8(banner)),
                              match.hasMatch()),
                             10000);
    const quint16 port = quint16(match.captured(1).toUInt());
    QCOMPARE(exchange(port, request("GET", "/healthz")).status, 200);
    const qint64 before = residentKb(serve.processId());
    QVERIFY(before > 0);
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    const QByteArray pipeline = request("GET", "/healthz").repeated(16 * 1024 * 1024 / 40);
    for (int i = 0; i < 4; ++i) {
        clients.push_back(std::make_unique<QTcpSocket>());
        clients.back()->setReadBufferSize(1);
        clients.back()->connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY(clients.back()->waitForConnected());
        clients.back()->write(pipeline);
    }
    // The server is another process: blocking waits are fine here. It has stopped reading when
    // no client's unsent bytes go down for half a second.
    qint64 last = -1;
    int still = 0;
    for (int round = 0; round < 1200 && still < 10; ++round) {
        qint64 unsent = 0;
        for (auto &client : clients) {
            client->waitForBytesWritten(50);
            unsent += client->bytesToWrite();
        }
        still = unsent == last ? still + 1 : 0;
        last = unsent;
    }
    QVERIFY2(last > 0, "the server read every byte: nothing was held back");
    const qint64 after = residentKb(serve.processId());
    qInfo("serve's resident memory: %lld KiB before, %lld KiB with four unread pipelines", before, after);
    QVERIFY2(after - before < 32 * 1024,
             qPrintable(QStringLiteral("resident memory grew from %1 KiB to %2 KiB").arg(before).arg(after)));
    serve.kill();
    serve.waitForFinished(5000);
}

QTEST_GUILESS_MAIN(TestHttpFraming)
#include "tst_httpframing.moc"
