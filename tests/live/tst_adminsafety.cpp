// Issue 21 item 1: /admin/* on a teacher's laptop. A page open in the browser could send
// POST /admin/reset as a CORS simple request (no preflight: no body or text/plain, with Origin)
// and empty a --db file. Now admin refuses Origin and bodies not declared JSON, a token can be
// set for every address (--admin-token, RETRYLAB_ADMIN_TOKEN), and a file store is reset only
// with {"confirm":"delete-records"}.
#include "livesupport.h"

#include "adminaccess.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

const QByteArray kJson = "Content-Type: application/json\r\n";

QByteArray order(int ref)
{
    return "{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\"}";
}

qint64 records(OrderServer &server)
{
    return server.metricsJson().value(QLatin1String("records")).toInteger();
}

// A server on loopback with two orders in it (in memory, or in `db`).
std::unique_ptr<OrderServer> withTwoOrders(const QString &db = QString(), const QByteArray &token = QByteArray())
{
    auto server = std::make_unique<OrderServer>();
    ServeOptions options;
    options.dbFile = db;
    options.adminToken = token;
    if (!server->start(options).isEmpty())
        return nullptr;
    for (int i = 1; i <= 2; ++i)
        exchange(server->port(), postOrder(order(i)));
    return server;
}

} // namespace

class TestAdminSafety : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void verdicts_data();
    void verdicts();
    void tokenRules_data();
    void tokenRules();
    void corsSimpleRequestsCannotReset_data();
    void corsSimpleRequestsCannotReset();
    void browserLikeRequestOverQNetwork();
    void fileStoreResetNeedsConfirmation();
    void tokenOnLoopbackWhenGiven();
};

void TestAdminSafety::verdicts_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("headers");
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<int>("status");
    const QByteArray none;
    const QByteArray tok = "0123456789abcdef";
    QTest::addRow("get-plain") << QByteArray("GET") << none << none << 0;
    QTest::addRow("get-with-origin") << QByteArray("GET") << QByteArray("Origin: https://evil.example\r\n") << none << 403;
    QTest::addRow("origin-null") << QByteArray("POST") << QByteArray("Origin: null\r\n" + kJson) << none << 403;
    QTest::addRow("origin-even-with-token") << QByteArray("GET")
                                            << QByteArray("Origin: http://127.0.0.1\r\nAuthorization: Bearer " + tok + "\r\n")
                                            << tok << 403;
    QTest::addRow("sec-fetch-cross-site") << QByteArray("GET") << QByteArray("Sec-Fetch-Site: cross-site\r\n") << none << 403;
    QTest::addRow("sec-fetch-none") << QByteArray("GET") << QByteArray("Sec-Fetch-Site: none\r\n") << none << 0;
    QTest::addRow("post-no-content-type") << QByteArray("POST") << none << none << 415;
    QTest::addRow("post-text-plain") << QByteArray("POST") << QByteArray("Content-Type: text/plain\r\n") << none << 415;
    QTest::addRow("post-form") << QByteArray("POST") << QByteArray("Content-Type: application/x-www-form-urlencoded\r\n")
                               << none << 415;
    QTest::addRow("post-multipart") << QByteArray("POST") << QByteArray("Content-Type: multipart/form-data; boundary=x\r\n")
                                    << none << 415;
    QTest::addRow("put-json-suffix-is-not-json") << QByteArray("PUT") << QByteArray("Content-Type: application/json-seq\r\n")
                                                 << none << 415;
    QTest::addRow("post-json") << QByteArray("POST") << kJson << none << 0;
    QTest::addRow("put-json-charset") << QByteArray("PUT") << QByteArray("Content-Type: Application/JSON; charset=utf-8\r\n")
                                      << none << 0;
    QTest::addRow("token-missing") << QByteArray("GET") << none << tok << 401;
    QTest::addRow("token-wrong") << QByteArray("GET") << QByteArray("Authorization: Bearer 0123456789abcdeF\r\n") << tok << 401;
    QTest::addRow("token-prefix") << QByteArray("GET") << QByteArray("Authorization: Bearer 0123456789abcde\r\n") << tok << 401;
    QTest::addRow("token-longer") << QByteArray("GET") << QByteArray("Authorization: Bearer 0123456789abcdef0\r\n") << tok << 401;
    QTest::addRow("token-basic-scheme") << QByteArray("GET") << QByteArray("Authorization: Basic " + tok + "\r\n") << tok << 401;
    QTest::addRow("token-right") << QByteArray("GET") << QByteArray("Authorization: Bearer " + tok + "\r\n") << tok << 0;
    QTest::addRow("token-scheme-any-case") << QByteArray("GET") << QByteArray("Authorization: bEARER " + tok + "\r\n") << tok << 0;
    QTest::addRow("token-right-but-text-plain") << QByteArray("POST")
                                                << QByteArray("Authorization: Bearer " + tok + "\r\nContent-Type: text/plain\r\n")
                                                << tok << 415;
}

void TestAdminSafety::verdicts()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, headers);
    QFETCH(QByteArray, token);
    QFETCH(int, status);
    QList<QPair<QByteArray, QByteArray>> fields;
    for (const QByteArray &line : headers.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            fields.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    const AdminAccess::Verdict v = AdminAccess(token).check(AdminAccess::fromHeaders(method, fields));
    QCOMPARE(v.status, status);
    QCOMPARE(v.detail.isEmpty(), status == 0);
    QCOMPARE(v.header == "WWW-Authenticate: Bearer", status == 401);
}

void TestAdminSafety::tokenRules_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<bool>("accepted");
    QTest::addRow("15-chars") << QByteArray(15, 'a') << false;
    QTest::addRow("16-chars") << QByteArray(16, 'a') << true;
    QTest::addRow("200-chars") << QByteArray(200, 'a') << true;
    QTest::addRow("201-chars") << QByteArray(201, 'a') << false;
    QTest::addRow("token68-marks") << QByteArray("abc-._~+/ABC0123") << true;
    QTest::addRow("space") << QByteArray("abcdefgh ijklmnop") << false;
    QTest::addRow("quote") << QByteArray("abcdefgh\"ijklmnop") << false;
    QTest::addRow("minted") << AdminAccess::mintToken() << true;
}

void TestAdminSafety::tokenRules()
{
    QFETCH(QByteArray, token);
    QFETCH(bool, accepted);
    QCOMPARE(AdminAccess::tokenProblem(token).isEmpty(), accepted);
    ServeOptions options;
    options.adminToken = token;
    OrderServer server;
    const QString error = server.start(options);
    QCOMPARE(error.isEmpty(), accepted);
    if (!accepted)
        QVERIFY2(error.startsWith(QLatin1String("admin token: ")), qPrintable(error));
}

void TestAdminSafety::corsSimpleRequestsCannotReset_data()
{
    // What a page can send with fetch(..., {method: "POST", mode: "no-cors"}) or a <form>.
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("status");
    QTest::addRow("no-body-with-origin") << request("POST", "/admin/reset", QByteArray(), "Origin: http://evil.example\r\n") << 403;
    QTest::addRow("text-plain-with-origin")
            << request("POST", "/admin/reset", "{\"confirm\":\"delete-records\"}",
                       "Origin: http://evil.example\r\nContent-Type: text/plain;charset=UTF-8\r\n")
            << 403;
    QTest::addRow("form-with-origin") << request("POST", "/admin/reset", "a=b",
                                                 "Origin: null\r\nContent-Type: application/x-www-form-urlencoded\r\n")
                                      << 403;
    QTest::addRow("no-body-no-origin") << request("POST", "/admin/reset") << 415;
    QTest::addRow("text-plain-no-origin") << request("POST", "/admin/reset", "{}", "Content-Type: text/plain\r\n") << 415;
    QTest::addRow("put-faults-text-plain") << request("PUT", "/admin/faults", "{\"network\":{\"responseLoss\":1}}",
                                                      "Content-Type: text/plain\r\n")
                                           << 415;
}

void TestAdminSafety::corsSimpleRequestsCannotReset()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, status);
    auto server = withTwoOrders();
    QVERIFY(server);
    QCOMPARE(records(*server), 2);
    const RawResponse r = exchange(server->port(), bytes);
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
    QVERIFY2(!r.json().value(QLatin1String("detail")).toString().isEmpty(), r.body.constData());
    // The rows survive, and the faults did not change.
    QCOMPARE(records(*server), 2);
    QCOMPARE(server->faultsJson().value(QLatin1String("network")).toObject().value(QLatin1String("responseLoss")).toDouble(), 0.0);
    // The lab's own way still works.
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", QByteArray(), kJson)).status, 200);
    QCOMPARE(records(*server), 0);
}

void TestAdminSafety::browserLikeRequestOverQNetwork()
{
    auto server = withTwoOrders();
    QVERIFY(server);
    QNetworkAccessManager nam;
    QNetworkRequest r(QUrl(server->url().toString() + QStringLiteral("/admin/reset")));
    r.setRawHeader("Origin", "https://some-page.example");
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("text/plain;charset=UTF-8"));
    QNetworkReply *reply = nam.post(r, QByteArray());
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 403);
    const QJsonObject problem = QJsonDocument::fromJson(reply->readAll()).object();
    QCOMPARE(problem.value(QLatin1String("type")).toString(), QStringLiteral("/problems/admin-from-page"));
    QVERIFY(problem.value(QLatin1String("detail")).toString().contains(QLatin1String("Origin")));
    reply->deleteLater();
    QCOMPARE(records(*server), 2);
}

void TestAdminSafety::fileStoreResetNeedsConfirmation()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("class.db"));
    auto server = withTwoOrders(db);
    QVERIFY(server);
    const RawResponse bare = exchange(server->port(), request("POST", "/admin/reset", QByteArray(), kJson));
    QCOMPARE(bare.status, 400);
    QVERIFY2(bare.json().value(QLatin1String("detail")).toString().contains(QLatin1String("{\"confirm\":\"delete-records\"}")),
             bare.body.constData());
    QCOMPARE(records(*server), 2);
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", "{\"confirm\":\"yes\"}", kJson)).status, 400);
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", "[\"delete-records\"]", kJson)).status, 400);
    QCOMPARE(records(*server), 2);
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", "{\"confirm\":\"delete-records\"}", kJson)).status, 200);
    QCOMPARE(records(*server), 0);
    // In memory, nothing needs confirming, but a wrong confirmation is still an error.
    auto memory = withTwoOrders();
    QCOMPARE(exchange(memory->port(), request("POST", "/admin/reset", "{\"confirm\":\"no\"}", kJson)).status, 400);
    QCOMPARE(records(*memory), 2);
    QCOMPARE(exchange(memory->port(), request("POST", "/admin/reset", "{}", kJson)).status, 200);
    QCOMPARE(records(*memory), 0);
}

void TestAdminSafety::tokenOnLoopbackWhenGiven()
{
    const QByteArray token = "class-7b-token-2026";
    auto server = withTwoOrders(QString(), token);
    QVERIFY(server);
    QCOMPARE(server->adminToken(), token);
    const RawResponse denied = exchange(server->port(), request("POST", "/admin/reset", QByteArray(), kJson));
    QCOMPARE(denied.status, 401);
    QCOMPARE(denied.header("WWW-Authenticate"), QByteArray("Bearer"));
    QCOMPARE(records(*server), 2);
    QCOMPARE(exchange(server->port(), request("POST", "/admin/reset", QByteArray(), kJson + "Authorization: Bearer " + token + "\r\n"))
                     .status,
             200);
    QCOMPARE(records(*server), 0);
    // The order endpoints stay open.
    QCOMPARE(exchange(server->port(), postOrder(order(3))).status, 201);
}

QTEST_GUILESS_MAIN(TestAdminSafety)
#include "tst_adminsafety.moc"
