// `retrylab proxy` in-process over loopback sockets, in front of a scripted upstream (bytes
// checked one by one) and of `retrylab serve` (also in-process): pass-through where no fault
// strikes, the hop-by-hop fields, the limits, the upstream down or slow.
#include "proxysupport.h"

#include <QSignalSpy>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

QByteArray order(int ref)
{
    return "{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\",\"item\":\"book\"}";
}

// The bytes a client reads on a connection of its own until `n` came or the connection ended,
// in the event loop (the proxy and its upstream live in this thread).
QByteArray rawExchange(quint16 port, const QByteArray &request, qsizetype n, int timeoutMs = 5000)
{
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), port);
    s.write(request);
    QByteArray got;
    QElapsedTimer timer;
    timer.start();
    while (got.size() < n && timer.elapsed() < timeoutMs) {
        QTest::qWait(5);
        got += s.readAll();
        if (s.state() == QAbstractSocket::UnconnectedState)
            break;
    }
    return got + s.readAll();
}

const QByteArray kOk = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

} // namespace

class TestProxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void forwardsAnOrderToServe();
    void requestPassesByteForByte();
    void answerPassesByteForByte();
    void megabyteBodiesBothWays();
    void noContentRedirectAndHead();
    void chunkedAnswerIsReframed();
    void keepsUpstreamConnectionsAlive();
    void closedUpstreamConnectionsAreFreed();
    void upstreamDownIs502();
    void upstreamSlowIs504();
    void metricsOnTheProxy();
    void badUpstreamIsRefused();
};

void TestProxy::forwardsAnOrderToServe()
{
    auto server = startServer(ServeOptions::defaultScenario());
    auto proxy = startProxy(server->url());
    QSignalSpy finished(proxy.get(), &FaultProxy::exchangeFinished);
    const RawResponse r = exchange(proxy->port(), postOrder(order(1), "k-1"));
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json().value(QLatin1String("ref")).toString(), QStringLiteral("ORD-0001"));
    QCOMPARE(finished.size(), 1);
    const ProxyExchange e = proxy->exchanges().value(0);
    QCOMPARE(e.method, QByteArray("POST"));
    QCOMPARE(e.target, QByteArray("/orders"));
    QCOMPARE(e.key, QByteArray("k-1"));
    QCOMPARE(e.upstreamStatus, 201);
    QCOMPARE(e.clientStatus, 201);
    QCOMPARE(e.client, ProxyClientOutcome::Answered);
    QCOMPARE(e.bodyFingerprint, QCryptographicHash::hash(order(1), QCryptographicHash::Sha256).toHex());
    QCOMPARE(e.resourceId, QString::number(r.json().value(QLatin1String("id")).toInt()));
    QVERIFY(e.receivedUs >= 0 && e.forwardedUs >= e.receivedUs && e.upstreamUs >= e.forwardedUs && e.finishedUs >= e.upstreamUs);
    QCOMPARE(server->metricsJson().value(QLatin1String("records")).toInt(), 1);
    QCOMPARE(proxy->ledger().totals().created, 1);
}

void TestProxy::requestPassesByteForByte()
{
    ScriptedUpstream upstream([](const QByteArray &) { return kOk; });
    auto proxy = startProxy(upstream.url());
    // Odd but valid: a repeated field, mixed case, inner spaces, an odd target; hop-by-hop
    // fields (Connection and what it names, Keep-Alive, TE, Proxy-*) that must not pass.
    const QByteArray body = "a=1&b=%20two";
    const QByteArray in = "PATCH /a/b%2Fc?x=1&x=2;y HTTP/1.1\r\n"
                          "Host: shop.example:8443\r\n"
                          "X-ODD-case: Value  With  Spaces\r\n"
                          "Accept: text/plain\r\n"
                          "accept: application/json;q=0.5\r\n"
                          "Connection: keep-alive, X-Hop\r\n"
                          "X-Hop: secret\r\n"
                          "Keep-Alive: timeout=5\r\n"
                          "TE: trailers\r\n"
                          "Proxy-Authorization: Basic Zm9vOmJhcg==\r\n"
                          "Via: 1.0 edge\r\n"
                          "Content-Length: "
                          + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    QCOMPARE(rawExchange(proxy->port(), in, kOk.size()), kOk);
    QCOMPARE(upstream.requests().size(), 1);
    // Host names the upstream (as a gateway's is); Via gains the proxy (RFC 9110 section 7.6.3).
    const QByteArray expected = "PATCH /a/b%2Fc?x=1&x=2;y HTTP/1.1\r\n"
                                "Host: 127.0.0.1:" + QByteArray::number(upstream.url().port()) + "\r\n"
                                "X-ODD-case: Value  With  Spaces\r\n"
                                "Accept: text/plain\r\n"
                                "accept: application/json;q=0.5\r\n"
                                "Via: 1.0 edge, 1.1 retrylab\r\n"
                                "Content-Length: "
                                + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    QCOMPARE(upstream.requests().first(), expected);
}

void TestProxy::answerPassesByteForByte()
{
    // A reason phrase of its own, repeated Set-Cookie, odd spacing kept; the hop-by-hop fields
    // of the answer (Connection and what it names, Keep-Alive, Proxy-*) removed.
    const QByteArray answer = "HTTP/1.1 201 Made It\r\n"
                              "X-A: 1\r\n"
                              "x-b:  two \r\n"
                              "Set-Cookie: a=1\r\n"
                              "Connection: X-Secret\r\n"
                              "X-Secret: no\r\n"
                              "Set-Cookie: b=2; Path=/\r\n"
                              "Keep-Alive: timeout=5\r\n"
                              "Proxy-Authenticate: Basic\r\n"
                              "Location: /things/42\r\n"
                              "Content-Length: 5\r\n\r\nhello";
    ScriptedUpstream upstream([&](const QByteArray &) { return answer; });
    auto proxy = startProxy(upstream.url());
    const QByteArray expected = "HTTP/1.1 201 Made It\r\n"
                                "X-A: 1\r\n"
                                "x-b:  two \r\n"
                                "Set-Cookie: a=1\r\n"
                                "Set-Cookie: b=2; Path=/\r\n"
                                "Location: /things/42\r\n"
                                "Content-Length: 5\r\n\r\nhello";
    QCOMPARE(rawExchange(proxy->port(), request("POST", "/things", "{}"), expected.size()), expected);
    QCOMPARE(proxy->exchanges().value(0).resourceId, QStringLiteral("42"));
    QCOMPARE(proxy->exchanges().value(0).location, QByteArray("/things/42"));
}

void TestProxy::megabyteBodiesBothWays()
{
    const QByteArray big(1024 * 1024, 'x'); // exactly the proxy's body limit
    ScriptedUpstream upstream([&](const QByteArray &request) {
        return "HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(request.size()) + "\r\n\r\n" + request;
    });
    auto proxy = startProxy(upstream.url());
    const RawResponse r = exchange(proxy->port(), request("PUT", "/blob", big), 20000);
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.endsWith("\r\n\r\n" + big)); // the upstream echoed what it got: the whole body
    QCOMPARE(upstream.requests().size(), 1);
    QVERIFY(upstream.requests().first().endsWith("\r\n\r\n" + big));
    // One byte more: the hardened front's 413, and the upstream never sees it.
    const RawResponse tooBig = exchange(proxy->port(), request("PUT", "/blob", big + 'x'), 20000);
    QCOMPARE(tooBig.status, 413);
    QCOMPARE(upstream.requests().size(), 1);
}

void TestProxy::noContentRedirectAndHead()
{
    ScriptedUpstream upstream([](const QByteArray &request) -> QByteArray {
        if (request.startsWith("DELETE"))
            return "HTTP/1.1 204 No Content\r\nX-Gone: yes\r\n\r\n";
        if (request.startsWith("GET /old"))
            return "HTTP/1.1 302 Found\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n";
        if (request.startsWith("HEAD /bare"))
            return "HTTP/1.1 200 OK\r\nX-H: 1\r\n\r\n";
        if (request.startsWith("HEAD"))
            return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1234\r\n\r\n";
        return kOk;
    });
    auto proxy = startProxy(upstream.url());
    const QByteArray noContent = "HTTP/1.1 204 No Content\r\nX-Gone: yes\r\n\r\n";
    QCOMPARE(rawExchange(proxy->port(), request("DELETE", "/x"), noContent.size()), noContent);
    // The redirect is passed on, not followed: the upstream saw one request for it.
    const QByteArray redirect = "HTTP/1.1 302 Found\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n";
    QCOMPARE(rawExchange(proxy->port(), request("GET", "/old"), redirect.size()), redirect);
    QCOMPARE(upstream.requests().size(), 2);
    // HEAD: the GET's length without a body, and the connection goes on with the next answer.
    const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1234\r\n\r\n";
    QCOMPARE(rawExchange(proxy->port(), request("HEAD", "/file") + request("GET", "/next"), head.size() + kOk.size()),
             head + kOk);
    QCOMPARE(upstream.requests().size(), 4);
    // A HEAD answer without a length gets none: the proxy cannot know the GET's.
    const QByteArray bare = "HTTP/1.1 200 OK\r\nX-H: 1\r\n\r\n";
    QCOMPARE(rawExchange(proxy->port(), request("HEAD", "/bare") + request("GET", "/next"), bare.size() + kOk.size()),
             bare + kOk);
}

void TestProxy::chunkedAnswerIsReframed()
{
    ScriptedUpstream upstream([](const QByteArray &) -> QByteArray {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n"
               "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Sum: 12\r\n\r\n";
    });
    auto proxy = startProxy(upstream.url());
    // Read whole (the faults need the whole answer), then sent with its length.
    const QByteArray expected = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nhello, world";
    QCOMPARE(rawExchange(proxy->port(), request("GET", "/stream"), expected.size()), expected);
}

void TestProxy::keepsUpstreamConnectionsAlive()
{
    ScriptedUpstream upstream([](const QByteArray &) { return kOk; });
    auto proxy = startProxy(upstream.url());
    for (int i = 0; i < 5; ++i)
        QCOMPARE(exchange(proxy->port(), request("GET", "/n")).status, 200);
    QCOMPARE(upstream.requests().size(), 5);
    QCOMPARE(upstream.connections(), 1); // one upstream connection, reused
}

void TestProxy::closedUpstreamConnectionsAreFreed()
{
    // Every answer says Connection: close, so each request opens an upstream connection and the
    // proxy closes it after the answer. The client keeps at most 256 open (UpstreamClient's
    // maxConnections) and counts each closed one free again: request 257, one past the limit, is
    // the first that would wait forever (504 here) if a closed connection were never counted off.
    // Planted: counting off only from QObject::destroyed after disconnect(this) (the connection
    // that would count it is cut with the others) fails at request 257.
    ScriptedUpstream upstream(
            [](const QByteArray &) { return QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"); });
    FaultProxy::Options options;
    options.upstreamTimeoutMs = 2000;
    auto proxy = startProxy(upstream.url(), options);
    for (int i = 1; i <= 260; ++i) {
        const RawResponse r = exchange(proxy->port(), request("GET", "/n"));
        QVERIFY2(r.status == 200, qPrintable(QStringLiteral("request %1: status %2").arg(i).arg(r.status)));
    }
    QCOMPARE(upstream.connections(), 260);
}

void TestProxy::upstreamDownIs502()
{
    quint16 closedPort = 0;
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        closedPort = probe.serverPort();
    }
    auto proxy = startProxy(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(closedPort)));
    const RawResponse r = exchange(proxy->port(), postOrder(order(1)));
    QCOMPARE(r.status, 502);
    QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
    QVERIFY2(r.json().value(QLatin1String("detail")).toString().contains(QStringLiteral("cannot reach the upstream 127.0.0.1:%1").arg(closedPort)),
             r.body.constData());
    QCOMPARE(proxy->exchanges().value(0).upstream, ProxyUpstreamOutcome::Unreachable);
    QCOMPARE(proxy->metricsJson().value(QLatin1String("proxy")).toObject().value(QLatin1String("upstreamErrors")).toObject()
                     .value(QLatin1String("unreachable")).toInt(), 1);
}

void TestProxy::upstreamSlowIs504()
{
    ScriptedUpstream upstream([](const QByteArray &) { return QByteArray(); }); // never answers
    FaultProxy::Options options;
    options.upstreamTimeoutMs = 200;
    auto proxy = startProxy(upstream.url(), options);
    const RawResponse r = exchange(proxy->port(), request("GET", "/slow"));
    QCOMPARE(r.status, 504);
    QVERIFY2(r.json().value(QLatin1String("detail")).toString().contains(QLatin1String("within 200 ms")), r.body.constData());
    QCOMPARE(proxy->exchanges().value(0).upstream, ProxyUpstreamOutcome::TimedOut);
}

void TestProxy::metricsOnTheProxy()
{
    auto server = startServer(ServeOptions::defaultScenario());
    FaultProxy::Options options;
    options.orderField = QStringLiteral("ref");
    auto proxy = startProxy(server->url(), options);
    QCOMPARE(exchange(proxy->port(), postOrder(order(1))).status, 201);
    QCOMPARE(exchange(proxy->port(), postOrder(order(1))).status, 201); // no key: a duplicate (serve is atomic, keys only)
    const RawResponse json = exchange(proxy->port(), request("GET", "/metrics", QByteArray(), "Accept: application/json\r\n"));
    QCOMPARE(json.status, 200);
    const QJsonObject ledger = json.json().value(QLatin1String("ledger")).toObject();
    QCOMPARE(ledger.value(QLatin1String("duplicates")).toInt(), 1);
    QCOMPARE(ledger.value(QLatin1String("created")).toInt(), 2);
    QCOMPARE(ledger.value(QLatin1String("logicalRequests")).toInt(), 1);
    const RawResponse text = exchange(proxy->port(), request("GET", "/metrics"));
    QVERIFY(text.body.contains("\nretrylab_proxy_duplicates 1\n"));
    QVERIFY(text.body.contains("retrylab_proxy_exchanges_total 2\n"));
    QVERIFY(text.body.contains("retrylab_proxy_upstream_duration_seconds_count 2\n"));
    // The proxy's own metrics are not exchanges, and serve's /metrics is reached directly.
    QCOMPARE(proxy->ledger().totals().exchanges, 2);
    QCOMPARE(server->metricsJson().value(QLatin1String("duplicates")).toInt(), 1);
}

void TestProxy::badUpstreamIsRefused()
{
    FaultProxy proxy;
    FaultProxy::Options options;
    for (const QString &bad : {QStringLiteral("ftp://127.0.0.1:21"), QStringLiteral("http://127.0.0.1:80/api"),
                               QStringLiteral("127.0.0.1:80"), QString()}) {
        options.upstream = QUrl(bad);
        const QString error = proxy.start(options);
        QVERIFY2(error.startsWith(QLatin1String("upstream: expected http://host:port")), qPrintable(error));
        QVERIFY(!proxy.isRunning());
    }
}

QTEST_GUILESS_MAIN(TestProxy)
#include "tst_proxy.moc"
