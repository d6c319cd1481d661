// The order service's own reading of plain requests (ConnectionScanner::plain, the hot path past
// Qt HTTP Server's parser, which reads a byte per call): for the same bytes it must give the
// service exactly the fields Qt's parser gives (method, path, query, fields, body), and leave to
// Qt's parser every request it cannot read the same way (percent-encoding, dot segments, "//",
// other methods, upgrades). Two guards get each row's bytes: one with the handler, one without.
#include "connectionguard.h"
#include "httpconnection.h"
#include "httprequest.h"
#include "livesupport.h"

#include <QAbstractHttpServer>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

// Qt's side: records what Qt HTTP Server 6.4's parser read.
class QtSide : public QAbstractHttpServer
{
public:
    QList<HttpRequest> *seen = nullptr;

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        if (HttpConnection *connection = HttpConnection::of(socket))
            connection->begin();
        seen->append(HttpRequest::fromQt(request));
        return true;
    }
    void missingHandler(const QHttpServerRequest &, QTcpSocket *socket) override { socket->abort(); }
};

// A guard and its Qt server; with `plain`, the guard's handler records the plain requests too.
struct Front
{
    QtSide qt;
    ConnectionGuard *guard = new ConnectionGuard(ServeLimits());
    QList<HttpRequest> seen; // in arrival order, whichever parser read them
    explicit Front(bool plain)
    {
        qt.seen = &seen;
        if (plain) {
            guard->setRequestHandler([this](const HttpRequest &r, QTcpSocket *socket) {
                if (HttpConnection *connection = HttpConnection::of(socket))
                    connection->begin();
                seen.append(r);
            });
        }
        QVERIFY(guard->listen(QHostAddress::LocalHost));
        qt.bind(guard);
    }
};

QString describe(const HttpRequest &r)
{
    QStringList headers;
    for (const auto &h : r.headers)
        headers << QString::fromLatin1(h.first + ": [" + h.second + ']');
    return QStringLiteral("method %1, path [%2], query [%3], fields {%4}, body [%5]")
            .arg(int(r.method))
            .arg(r.path, r.query.toString(QUrl::FullyEncoded), headers.join(QStringLiteral("; ")),
                 QString::fromLatin1(r.body));
}

} // namespace

class TestPlainRequests : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameFieldsAsQt_data();
    void sameFieldsAsQt();
    void serverTakesOrdersPlain();
};

void TestPlainRequests::sameFieldsAsQt_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("plain"); // how many of them the scanner reads itself
    const QByteArray order = "{\"ref\":\"ORD-0001\"}";
    const QByteArray post = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
                            "Idempotency-Key: k-1\r\nContent-Length: "
            + QByteArray::number(order.size()) + "\r\n\r\n" + order;
    QTest::addRow("post-order") << post << 1 << 1;
    QTest::addRow("get-with-query") << QByteArray("GET /orders?ref=ORD-0007&limit=5&after=2 HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 1;
    QTest::addRow("get-empty-query") << QByteArray("GET /orders? HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 1;
    QTest::addRow("get-order-id") << QByteArray("GET /orders/12 HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 1;
    QTest::addRow("head") << QByteArray("HEAD /metrics HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n") << 1 << 1;
    QTest::addRow("put-admin") << QByteArray("PUT /admin/faults HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                                             "Content-Length: 2\r\n\r\n{}") << 1 << 1;
    QTest::addRow("lf-line-ends") << QByteArray("GET /healthz HTTP/1.1\nHost: h\nX-A: 1\n\n") << 1 << 1;
    QTest::addRow("blank-lines-before") << QByteArray("\r\n\r\nGET /healthz HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 1;
    QTest::addRow("value-white-space") << QByteArray("GET /healthz HTTP/1.1\r\nHost: h\r\nX-Request-ID:   abc d \t\r\n"
                                                     "X-Empty:\r\n\r\n") << 1 << 1;
    QTest::addRow("repeated-field") << QByteArray("GET /healthz HTTP/1.1\r\nHost: h\r\nAccept: a/b\r\naccept: c/d\r\n\r\n")
                                    << 1 << 1;
    // The common names and values are shared static texts (no copy) only when they match byte for
    // byte: other cases, longer or shorter names keep what was sent. Planted: a case-insensitive
    // match, or one on the common text's length alone (a prefix), fails here.
    QTest::addRow("common-fields-other-spellings")
            << QByteArray("POST /orders HTTP/1.1\r\nHOST: h\r\nContent-type: Application/JSON\r\nHosts: a\r\n"
                          "Idempotency-Key-2: x\r\nidempotency-key: k-1\r\nAccep: close\r\nAccept: */*x\r\n"
                          "Connection: keep-alive\r\nX-Request-Id: keep-alive\r\ncontent-length: 2\r\n\r\n{}")
            << 1 << 1;
    QTest::addRow("http10-no-host") << QByteArray("GET /healthz HTTP/1.0\r\n\r\n") << 1 << 1;
    QTest::addRow("ipv6-host") << QByteArray("GET /healthz HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n") << 1 << 1;
    QTest::addRow("expect-continue-body-sent") << QByteArray("POST /orders HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
                                                             "Content-Length: 2\r\n\r\n{}") << 1 << 1;
    QTest::addRow("pipelined-three") << post + QByteArray("GET /orders?ref=ORD-0001 HTTP/1.1\r\nHost: h\r\n\r\n") + post
                                     << 3 << 3;
    QTest::addRow("plain-then-encoded-then-plain")
            << QByteArray("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\nGET /orders?ref=ORD%2D1 HTTP/1.1\r\nHost: h\r\n\r\n") + post
            << 3 << 2;
    // Read by Qt's parser, as before: the scanner could read these differently.
    QTest::addRow("percent-encoded-path") << QByteArray("GET /ord%65rs?ref=x HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("plus-in-query") << QByteArray("GET /orders?ref=a+b HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("dot-segments") << QByteArray("GET /orders/../admin/faults HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("double-slash") << QByteArray("GET //orders HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("absolute-form") << QByteArray("GET http://h/orders HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("delete-method") << QByteArray("DELETE /orders HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("unknown-method") << QByteArray("BREW /orders HTTP/1.1\r\nHost: h\r\n\r\n") << 1 << 0;
    QTest::addRow("upgrade-field") << QByteArray("GET /healthz HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\n\r\n") << 1 << 0;
    QTest::addRow("host-with-space") << QByteArray("GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n") << 1 << 0;
    QByteArray many = "GET /healthz HTTP/1.1\r\nHost: h\r\n";
    for (int i = 0; i < 51; ++i)
        many += "X-F" + QByteArray::number(i) + ": v\r\n";
    QTest::addRow("fifty-one-fields") << many + "\r\n" << 1 << 0;
}

void TestPlainRequests::sameFieldsAsQt()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, requests);
    QFETCH(int, plain);
    Front withPlain(true);
    Front qtOnly(false);
    RawClient a(withPlain.guard->serverPort());
    RawClient b(qtOnly.guard->serverPort());
    QVERIFY(a.connected());
    QVERIFY(b.connected());
    // One write: the whole input arrives in one read, as a plain request must.
    a.socket().write(bytes);
    b.socket().write(bytes);
    QTRY_COMPARE(withPlain.seen.size(), requests);
    QTRY_COMPARE(qtOnly.seen.size(), requests);
    QCOMPARE(withPlain.guard->plainRequests(), qint64(plain));
    QCOMPARE(qtOnly.guard->plainRequests(), 0);
    for (int i = 0; i < requests; ++i)
        QCOMPARE(describe(withPlain.seen.at(i)), describe(qtOnly.seen.at(i)));
}

void TestPlainRequests::serverTakesOrdersPlain()
{
    // The order service sets the handler: an ordinary client's orders skip Qt's parser.
    auto server = startServer(ServeOptions::defaultScenario());
    const RawResponse r = exchange(server->port(), postOrder("{\"ref\":\"ORD-0001\"}", "plain-key"));
    QCOMPARE(r.status, 201);
    QCOMPARE(server->connectionGuard()->plainRequests(), 1);
    // An encoded target still works, through Qt's parser.
    const RawResponse q = exchange(server->port(), request("GET", "/orders?ref=ORD%2D0001"));
    QCOMPARE(q.status, 200);
    QCOMPARE(q.json().value(QLatin1String("count")).toInt(), 1);
    QCOMPARE(server->connectionGuard()->plainRequests(), 1);
}

QTEST_GUILESS_MAIN(TestPlainRequests)
#include "tst_plainrequests.moc"
