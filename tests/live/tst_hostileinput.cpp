// Malformed and hostile HTTP over raw sockets: each gets its 4xx (or a closed connection), no
// record is written, and the server still takes a valid order afterwards.
#include "connectionguard.h"
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

// A literal with NUL bytes, whole.
template<size_t N>
QByteArray raw(const char (&text)[N])
{
    return QByteArray(text, qsizetype(N - 1));
}

const QByteArray kValid = "{\"ref\":\"ORD-0001\",\"item\":\"book\"}";

struct Case
{
    const char *tag;
    QByteArray bytes;
    int status; // 0: the connection closes without an answer
};

// A valid order hidden where a front end and a back end could disagree on the framing: if any
// case let it through, the store would hold a record.
const QByteArray kHidden = post("{\"ref\":\"ORD-0666\",\"item\":\"smuggled\"}", "Idempotency-Key: smuggled\r\n");
const QByteArray kHiddenChunk = QByteArray::number(kHidden.size(), 16) + "\r\n" + kHidden + "\r\n0\r\n\r\n";

QByteArray smuggle(const QByteArray &headers, const QByteArray &body)
{
    return "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + headers + "\r\n" + body;
}

// Request smuggling from the literature (Linhart et al. 2005; Kettle, "HTTP Desync Attacks",
// 2019; RFC 9112 sections 6.1 and 6.3): CL.CL, CL.TE, TE.CL and TE.TE with obfuscated codings.
void smuggling(QList<Case> &c)
{
    const QByteArray n = QByteArray::number(kHidden.size());
    c << Case{"cl-cl-different", smuggle("Content-Length: 0\r\nContent-Length: " + n + "\r\n", kHidden), 400};
    c << Case{"cl-cl-different-reversed", smuggle("Content-Length: " + n + "\r\nContent-Length: 0\r\n", kHidden), 400};
    c << Case{"cl-cl-equal", smuggle("Content-Length: " + n + "\r\nContent-Length: " + n + "\r\n", kHidden), 400};
    c << Case{"cl-list-equal", smuggle("Content-Length: " + n + ", " + n + "\r\n", kHidden), 400};
    c << Case{"cl-zero-hides-chunked-post",
              smuggle("Content-Length: 0\r\nContent-Length: " + QByteArray::number(kHiddenChunk.size() + 40)
                              + "\r\n",
                      "Transfer-Encoding: chunked\r\n\r\n" + kHiddenChunk),
              400};
    c << Case{"cl-te", smuggle("Content-Length: " + QByteArray::number(kHiddenChunk.size()) + "\r\nTransfer-Encoding: chunked\r\n", kHiddenChunk), 400};
    c << Case{"te-cl", smuggle("Transfer-Encoding: chunked\r\nContent-Length: 4\r\n", kHiddenChunk), 400};
    c << Case{"te-cl-zero", smuggle("Transfer-Encoding: chunked\r\nContent-Length: 0\r\n", kHiddenChunk), 400};
    c << Case{"te-te-chunked-identity", smuggle("Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n", kHiddenChunk), 501};
    c << Case{"te-te-chunked-twice", smuggle("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", kHiddenChunk), 501};
    c << Case{"te-xchunked", smuggle("Transfer-Encoding: xchunked\r\n", kHiddenChunk), 501};
    c << Case{"te-chunked-x", smuggle("Transfer-Encoding: chunked-x\r\n", kHiddenChunk), 501};
    c << Case{"te-quoted", smuggle("Transfer-Encoding: \"chunked\"\r\n", kHiddenChunk), 501};
    c << Case{"te-identity", smuggle("Transfer-Encoding: identity\r\n", kHiddenChunk), 501};
    c << Case{"te-gzip-chunked", smuggle("Transfer-Encoding: gzip, chunked\r\n", kHiddenChunk), 501};
    c << Case{"te-chunked-trailing-comma", smuggle("Transfer-Encoding: chunked,\r\n", kHiddenChunk), 501};
    c << Case{"te-uppercase", smuggle("Transfer-Encoding: CHUNKED\r\n", kHiddenChunk), 411};
    c << Case{"te-tab-before-value", smuggle("Transfer-Encoding:\tchunked\r\n", kHiddenChunk), 411};
    c << Case{"te-space-before-colon", smuggle("Transfer-Encoding : chunked\r\n", kHiddenChunk), 400};
    c << Case{"te-name-then-newline", smuggle("Transfer-Encoding\r\n: chunked\r\n", kHiddenChunk), 400};
    c << Case{"te-obs-fold-value", smuggle("Transfer-Encoding:\r\n chunked\r\n", kHiddenChunk), 400};
    c << Case{"te-obs-fold-after-x", smuggle("X-Padding: x\r\n Transfer-Encoding: chunked\r\n", kHiddenChunk), 400};
    c << Case{"te-vertical-tab", smuggle("Transfer-Encoding:\x0b" "chunked\r\n", kHiddenChunk), 400};
    c << Case{"te-form-feed", smuggle("Transfer-Encoding: chunked\x0c\r\n", kHiddenChunk), 400};
    c << Case{"te-nul-after-value", smuggle(raw("Transfer-Encoding: chunked\0\r\n"), kHiddenChunk), 400};
    c << Case{"te-bare-cr", smuggle("Transfer-Encoding: chunked\r\rX: y\r\n", kHiddenChunk), 400};
    c << Case{"te-in-http-1.0", "POST /orders HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + kHiddenChunk, 400};
    c << Case{"te-on-get", head("GET /healthz HTTP/1.1", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n", 411};
    c << Case{"cl-plus-sign", smuggle("Content-Length: +" + n + "\r\n", kHidden), 400};
    c << Case{"cl-hex", smuggle("Content-Length: 0x10\r\n", kHidden), 400};
    c << Case{"cl-inner-space", smuggle("Content-Length: 1 0\r\n", kHidden), 400};
    c << Case{"cl-empty", smuggle("Content-Length:\r\n", kHidden), 400};
    c << Case{"cl-minus-zero", smuggle("Content-Length: -0\r\n", kHidden), 400};
    c << Case{"cl-20-digits", smuggle("Content-Length: 00000000000000000042\r\n", kHidden), 400};
    c << Case{"cl-space-before-colon", smuggle("Content-Length : 0\r\n", kHidden), 400};
    c << Case{"cl-obs-fold", smuggle("Content-Length:\r\n 0\r\n", kHidden), 400};
}

// Bytes RFC 9110 section 5.5 and RFC 9112 sections 2.2, 3.2 and 5 do not allow in a head.
void headerBytes(QList<Case> &c)
{
    const QByteArray get = "GET /healthz HTTP/1.1\r\n";
    c << Case{"missing-host", get + "\r\n", 400};
    c << Case{"two-hosts", get + "Host: a\r\nHost: b\r\n\r\n", 400};
    c << Case{"nul-in-value", raw("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\0b\r\n\r\n"), 400};
    c << Case{"nul-in-key", post(kValid, raw("Idempotency-Key: ab\0cd\r\n")), 400};
    c << Case{"bare-cr-in-value", head("GET /healthz HTTP/1.1", "X-A: a\rb\r\n"), 400};
    c << Case{"bare-cr-line-end", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\r\n\r\n", 400};
    c << Case{"del-in-value", head("GET /healthz HTTP/1.1", "X-A: a\x7f" "b\r\n"), 400};
    c << Case{"escape-in-value", head("GET /healthz HTTP/1.1", "X-A: \x1b[31mred\r\n"), 400};
    c << Case{"obs-fold", head("GET /healthz HTTP/1.1", "X-A: a\r\n b\r\n"), 400};
    c << Case{"obs-fold-tab", head("GET /healthz HTTP/1.1", "X-A: a\r\n\tb\r\n"), 400};
    c << Case{"empty-header-name", head("GET /healthz HTTP/1.1", ": x\r\n"), 400};
    c << Case{"paren-in-header-name", head("GET /healthz HTTP/1.1", "X(A): 1\r\n"), 400};
    c << Case{"expect-unknown", head("GET /healthz HTTP/1.1", "Expect: 200-ok\r\n"), 417};
    c << Case{"tls-client-hello", raw("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"), 400};
    c << Case{"ssh-banner", "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", 400};
    c << Case{"too-many-blank-lines", QByteArray(2000, '\n') + head("GET /healthz HTTP/1.1"), 400};
    // Accepted: the check refuses ambiguity, not what both parsers read alike.
    c << Case{"tab-inside-value", head("GET /healthz HTTP/1.1", "X-A: a\tb\r\n"), 200};
    c << Case{"x-transfer-encoding", head("GET /healthz HTTP/1.1", "X-Transfer-Encoding: chunked\r\n"), 200};
    c << Case{"lf-only-line-ends", "GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n", 200};
    c << Case{"blank-lines-before", "\r\n\r\n" + head("GET /healthz HTTP/1.1"), 200};
    c << Case{"http-1.0-without-host", "GET /healthz HTTP/1.0\r\n\r\n", 200};
}

void requestLines(QList<Case> &c)
{
    c << Case{"tab-separator", head("GET\t/healthz HTTP/1.1"), 400};
    c << Case{"method-17-chars", head("ABCDEFGHIJKLMNOPQ /healthz HTTP/1.1"), 400};
    c << Case{"http-1.2", head("GET /healthz HTTP/1.2"), 400};
    c << Case{"lowercase-version", head("GET /healthz http/1.1"), 400};
    c << Case{"trailing-space", head("GET /healthz HTTP/1.1 "), 400};
    c << Case{"nul-in-target", raw("GET /heal\0thz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), 400};
    c << Case{"bare-cr-in-line", head("GET /healthz\rHTTP/1.1"), 400};
    c << Case{"lowercase-method", head("get /healthz HTTP/1.1"), 405};
}

void routesAndBodies(QList<Case> &c)
{
    c << Case{"post-healthz", head("POST /healthz HTTP/1.1", "Content-Length: 0\r\n"), 405};
    c << Case{"delete-metrics", head("DELETE /metrics HTTP/1.1"), 405};
    c << Case{"put-order-tokens", head("PUT /order-tokens HTTP/1.1", "Content-Length: 0\r\n"), 405};
    c << Case{"uppercase-path", head("GET /ORDERS HTTP/1.1"), 404};
    c << Case{"order-id-zero", head("GET /orders/0 HTTP/1.1"), 404};
    c << Case{"order-id-negative", head("GET /orders/-1 HTTP/1.1"), 404};
    c << Case{"order-id-overflow", head("GET /orders/99999999999 HTTP/1.1"), 404};
    c << Case{"query-ref-65-chars", head("GET /orders?ref=" + QByteArray(65, 'R') + " HTTP/1.1"), 400};
    c << Case{"connection-close-404", head("GET /nope HTTP/1.1", "Connection: close\r\n"), 404};
    c << Case{"ref-null", post("{\"ref\":null}"), 400};
    c << Case{"ref-array", post("{\"ref\":[\"ORD-0001\"]}"), 400};
    c << Case{"json-string", post("\"ORD-0001\""), 400};
    c << Case{"json-number", post("123"), 400};
    c << Case{"json-empty-object", post("{}"), 400};
    c << Case{"json-truncated", post("{\"ref\":\"ORD-0001\""), 400};
    c << Case{"json-garbage-after", post("{\"ref\":\"ORD-0001\"} x"), 400};
}

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
    smuggling(c);
    headerBytes(c);
    requestLines(c);
    routesAndBodies(c);
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
    QVERIFY(all.size() >= 100);
    // In batches that stay under the connection limit.
    for (int from = 0; from < all.size(); from += 20) {
        // The clients of the last batch closed their ends: the server sees it before the next.
        QTRY_COMPARE(server->connectionGuard()->openConnections(), 0);
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
            if (c.status < 400)
                continue; // accepted on purpose: both parsers read it alike
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
