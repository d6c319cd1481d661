// Malformed and hostile HTTP over raw sockets: each gets its 4xx (or a closed connection), no
// record is written, and the server still takes a valid order afterwards.
#include "livesupport.h"

#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

ServeLimits tightLimits()
{
    ServeLimits l;
    l.maxBodyBytes = 4096;
    l.maxHeaderBytes = 2048;
    l.maxRequestLineBytes = 1024;
    l.maxConnections = 30;
    l.requestTimeoutMs = 300;
    l.idleTimeoutMs = 800;
    return l;
}

QByteArray head(const QByteArray &firstLine, const QByteArray &headers = QByteArray())
{
    return firstLine + "\r\nHost: 127.0.0.1\r\n" + headers + "\r\n";
}

QByteArray post(const QByteArray &body, const QByteArray &headers = QByteArray())
{
    return "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + headers
            + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

const QByteArray kValid = "{\"ref\":\"ORD-0001\",\"item\":\"book\"}";

struct Case
{
    const char *tag;
    QByteArray bytes;
    int status; // 0: the connection closes without an answer
};

QList<Case> cases()
{
    QList<Case> c;
    // Broken request lines.
    c << Case{"garbage-line", "GARBAGE\r\n\r\n", 400};
    c << Case{"method-only", "GET\r\n\r\n", 400};
    c << Case{"http-0.9", "GET /orders\r\n\r\n", 400};
    c << Case{"http-2-version", head("GET /orders HTTP/2.0"), 400};
    c << Case{"double-space", head("POST  /orders HTTP/1.1"), 400};
    c << Case{"binary-line", QByteArray("\x01\x02\x03 \xff\xfe HTTP/1.1\r\n\r\n", 20), 400};
    c << Case{"bad-method-char", head("G@T /orders HTTP/1.1"), 400};
    c << Case{"target-without-slash", head("GET orders HTTP/1.1"), 400};
    c << Case{"extra-token", head("GET /orders HTTP/1.1 extra"), 400};
    c << Case{"space-in-target", head("GET /ord ers HTTP/1.1"), 400};
    c << Case{"overlong-request-line", head("GET /" + QByteArray(2000, 'a') + " HTTP/1.1"), 414};
    // Broken or oversized headers.
    c << Case{"header-without-colon", head("GET /healthz HTTP/1.1", "Foo bar\r\n"), 400};
    c << Case{"space-in-header-name", head("GET /healthz HTTP/1.1", "Bad Name: x\r\n"), 400};
    c << Case{"one-huge-header", head("GET /healthz HTTP/1.1", "X-Big: " + QByteArray(3000, 'x') + "\r\n"), 431};
    QByteArray many;
    for (int i = 0; i < 200; ++i)
        many += "X-H" + QByteArray::number(i) + ": 0123456789\r\n";
    c << Case{"many-headers", head("GET /healthz HTTP/1.1", many), 431};
    c << Case{"content-length-text", head("POST /orders HTTP/1.1", "Content-Length: abc\r\n"), 400};
    c << Case{"content-length-negative", head("POST /orders HTTP/1.1", "Content-Length: -5\r\n"), 400};
    c << Case{"content-length-huge", head("POST /orders HTTP/1.1", "Content-Length: 999999999\r\n"), 413};
    c << Case{"chunked-body", head("POST /orders HTTP/1.1", "Transfer-Encoding: chunked\r\n") + "5\r\nhello\r\n0\r\n\r\n", 411};
    // Bodies.
    c << Case{"body-too-large", post("{\"ref\":\"ORD-0001\",\"pad\":\"" + QByteArray(5000, 'p') + "\"}"), 413};
    c << Case{"bad-json", post("{not json"), 400};
    c << Case{"json-array", post("[1,2]"), 400};
    c << Case{"json-null", post("null"), 400};
    c << Case{"missing-ref", post("{\"item\":\"book\"}"), 400};
    c << Case{"ref-not-string", post("{\"ref\":7}"), 400};
    c << Case{"ref-empty", post("{\"ref\":\"\"}"), 400};
    c << Case{"ref-too-long", post("{\"ref\":\"" + QByteArray(100, 'R') + "\"}"), 400};
    c << Case{"empty-body", post(QByteArray()), 400};
    c << Case{"truncated-utf8-json", post("{\"ref\":\"ORD-\xc3\"}"), 400};
    // Wrong methods and endpoints.
    c << Case{"delete-orders", head("DELETE /orders HTTP/1.1"), 405};
    c << Case{"put-orders", head("PUT /orders HTTP/1.1", "Content-Length: 0\r\n"), 405};
    c << Case{"patch-order", head("PATCH /orders/1 HTTP/1.1", "Content-Length: 0\r\n"), 405};
    c << Case{"post-metrics", head("POST /metrics HTTP/1.1", "Content-Length: 0\r\n"), 405};
    c << Case{"get-order-tokens", head("GET /order-tokens HTTP/1.1"), 405};
    c << Case{"unknown-method", head("BREW /orders HTTP/1.1"), 405};
    c << Case{"unknown-path", head("GET /nope HTTP/1.1"), 404};
    c << Case{"order-id-not-a-number", head("GET /orders/abc HTTP/1.1"), 404};
    c << Case{"query-without-ref", head("GET /orders?ref= HTTP/1.1"), 400};
    // Keys and request IDs.
    c << Case{"key-256-chars", post(kValid, "Idempotency-Key: " + QByteArray(256, 'k') + "\r\n"), 400};
    c << Case{"key-1000-chars", post(kValid, "Idempotency-Key: " + QByteArray(1000, 'k') + "\r\n"), 400};
    c << Case{"key-control-char", post(kValid, "Idempotency-Key: ab\x01" "cd\r\n"), 400};
    c << Case{"key-inner-space", post(kValid, "Idempotency-Key: a b\r\n"), 400};
    c << Case{"key-non-ascii", post(kValid, "Idempotency-Key: \xd0\xba\xd0\xbb\r\n"), 400};
    c << Case{"request-id-overlong", post(kValid, "X-Request-ID: " + QByteArray(300, 'r') + "\r\n"), 400};
    // Slow senders: the head or the body never completes.
    c << Case{"slow-head", "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\n", 408};
    c << Case{"slow-body", head("POST /orders HTTP/1.1", "Content-Length: 10\r\n") + "{\"r", 408};
    c << Case{"silent-connection", QByteArray(), 0};
    return c;
}

} // namespace

class TestHostileInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachGetsItsErrorAndNothingIsWritten();
    void connectionFloodBeyondTheLimitIsRefused();
    void keyAtTheLimitIsAccepted();
};

void TestHostileInput::eachGetsItsErrorAndNothingIsWritten()
{
    auto server = startServer(ServeOptions::defaultScenario(), QString(), tightLimits());
    const QList<Case> all = cases();
    QVERIFY(all.size() >= 40);
    // In batches that stay under the connection limit.
    for (int from = 0; from < all.size(); from += 20) {
        QList<QByteArray> requests;
        const QList<Case> batch = all.mid(from, 20);
        for (const Case &c : batch)
            requests << c.bytes;
        const QList<RawResponse> responses = exchangeAll(server->port(), requests, 5000);
        for (int i = 0; i < batch.size(); ++i) {
            const Case &c = batch[i];
            const RawResponse &r = responses[i];
            const QByteArray what = QByteArray(c.tag) + ": got " + QByteArray::number(r.status) + ' ' + r.body;
            QVERIFY2(r.status == c.status, what.constData());
            if (c.status == 0) {
                QVERIFY2(r.closed, what.constData());
                continue;
            }
            QVERIFY2(r.header("Content-Type") == "application/problem+json", what.constData());
            QVERIFY2(r.json().value(QLatin1String("status")).toInt() == c.status, what.constData());
            QVERIFY2(!r.json().value(QLatin1String("detail")).toString().isEmpty(), what.constData());
        }
    }
    QCOMPARE(server->metricsJson().value(QLatin1String("records")).toInt(), 0);
    // The server still works.
    const RawResponse ok = exchange(server->port(), post(kValid, "Idempotency-Key: after-the-storm\r\n"));
    QCOMPARE(ok.status, 201);
    QCOMPARE(server->metricsJson().value(QLatin1String("records")).toInt(), 1);
}

void TestHostileInput::connectionFloodBeyondTheLimitIsRefused()
{
    ServeLimits limits = tightLimits();
    limits.idleTimeoutMs = 60000;
    auto server = startServer(ServeOptions::defaultScenario(), QString(), limits);
    // A flood within the limit: every connection is served.
    QList<QByteArray> flood;
    for (int i = 0; i < limits.maxConnections; ++i)
        flood << head("GET /healthz HTTP/1.1", "Connection: keep-alive\r\n");
    std::vector<std::unique_ptr<RawClient>> open;
    for (int i = 0; i < limits.maxConnections; ++i) {
        open.push_back(std::make_unique<RawClient>(server->port()));
        open.back()->send(flood[i]);
    }
    for (size_t i = 0; i < open.size(); ++i) {
        RawResponse r;
        // QTRY evaluates its condition once more after the loop: parse only once.
        QTRY_VERIFY_WITH_TIMEOUT(r.status != 0 || open[i]->tryParse(&r), 5000);
        QCOMPARE(r.status, 200);
    }
    QTRY_COMPARE(server->metricsJson().value(QLatin1String("server")).toObject().value(QLatin1String("connections")).toInt(),
                 limits.maxConnections);
    // One more: 503 and closed.
    const RawResponse refused = exchange(server->port(), head("GET /healthz HTTP/1.1"));
    QCOMPARE(refused.status, 503);
    QVERIFY(refused.json().value(QLatin1String("detail")).toString().contains(QLatin1String("too many connections")));
    open.clear();
    QTRY_COMPARE(server->metricsJson().value(QLatin1String("server")).toObject().value(QLatin1String("connections")).toInt(), 0);
    QCOMPARE(exchange(server->port(), post(kValid)).status, 201);
}

void TestHostileInput::keyAtTheLimitIsAccepted()
{
    auto server = startServer(ServeOptions::defaultScenario(), QString(), tightLimits());
    QCOMPARE(exchange(server->port(), post(kValid, "Idempotency-Key: " + QByteArray(255, 'k') + "\r\n")).status, 201);
    QCOMPARE(exchange(server->port(), post(kValid, "Idempotency-Key: " + QByteArray(256, 'k') + "\r\n")).status, 400);
}

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
