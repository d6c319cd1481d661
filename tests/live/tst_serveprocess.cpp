// `retrylab serve` as a process: start-up banner, usage and runtime errors, SIGTERM, kill -9
// and a restart on the same --db file (durable keys replay, a memory key store duplicates), and a
// Python requests session with a urllib3 Retry against response loss.
#include "livesupport.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

// One `retrylab serve` child process.
class ServeProcess
{
public:
    ~ServeProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    // Starts and waits for the banner; returns the port (0 on failure).
    quint16 start(const QStringList &args)
    {
        m_process.start(retrylab::test::retrylabBin(), QStringList{QStringLiteral("serve")} + args);
        QSignalSpy output(&m_process, &QProcess::readyReadStandardOutput);
        const QRegularExpression url(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)"));
        while (true) {
            m_out += m_process.readAllStandardOutput();
            const QRegularExpressionMatch m = url.match(QString::fromUtf8(m_out));
            if (m.hasMatch())
                return quint16(m.captured(1).toUInt());
            if (m_process.state() == QProcess::NotRunning || !output.wait(10000))
                return 0;
        }
    }
    QProcess &process() { return m_process; }
    QByteArray output() { return m_out += m_process.readAllStandardOutput(); }

private:
    QProcess m_process;
    QByteArray m_out;
};

struct Finished
{
    int exitCode = -1;
    QByteArray out, err;
};

Finished runServe(const QStringList &args)
{
    QProcess p;
    p.start(retrylab::test::retrylabBin(), QStringList{QStringLiteral("serve")} + args);
    p.waitForFinished(10000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QByteArray post(int ref, const QByteArray &key)
{
    return postOrder("{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\",\"qty\":1}", key);
}

QJsonObject metrics(quint16 port)
{
    return exchange(port, request("GET", "/metrics", QByteArray(), "Accept: application/json\r\n")).json();
}

} // namespace

class TestServeProcess : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsPrintsUrlAndStopsOnSigterm();
    void usageErrors_data();
    void usageErrors();
    void portInUseIsARuntimeError();
    void beyondLoopbackPrintsAnAdminToken();
    void tokensSurviveAKill();
    void killAndRestartOnTheSameDb_data();
    void killAndRestartOnTheSameDb();
    void pythonRequestsWithUrllib3Retry_data();
    void pythonRequestsWithUrllib3Retry();
    void secondServeOnOneDbIsRefused();
    void killWhileProcessingThenResend();
    void adminTokenFromTheEnvironment();
    void bannerNamesFaultsAndModes_data();
    void bannerNamesFaultsAndModes();
    void prometheusParserReadsMetrics();
};

void TestServeProcess::startsPrintsUrlAndStopsOnSigterm()
{
    ServeProcess serve;
    const quint16 port = serve.start({QStringLiteral("--port"), QStringLiteral("0")});
    QVERIFY2(port != 0, serve.output().constData());
    QCOMPARE(exchange(port, request("GET", "/healthz")).status, 200);
    QCOMPARE(exchange(port, post(1, "k")).status, 201);
    serve.process().terminate(); // SIGTERM
    QVERIFY(serve.process().waitForFinished(10000));
    QCOMPARE(serve.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(serve.process().exitCode(), 0);
    QVERIFY(serve.output().contains("Stopped."));
}

void TestServeProcess::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::addRow("port-not-a-number") << QStringList{QStringLiteral("--port"), QStringLiteral("http")} << QStringLiteral("--port");
    QTest::addRow("port-too-large") << QStringList{QStringLiteral("--port"), QStringLiteral("70000")} << QStringLiteral("--port");
    // The bounds exactly (app/cli/options' wholeNumber()): 65535 is the last port, no sign.
    QTest::addRow("port-65536") << QStringList{QStringLiteral("--port"), QStringLiteral("65536")}
                                << QStringLiteral("--port: expected an integer from 0 to 65535, got '65536'");
    QTest::addRow("port-minus-one") << QStringList{QStringLiteral("--port"), QStringLiteral("-1")} << QStringLiteral("got '-1'");
    QTest::addRow("port-plus-sign") << QStringList{QStringLiteral("--port"), QStringLiteral("+80")} << QStringLiteral("got '+80'");
    QTest::addRow("listen-not-an-address") << QStringList{QStringLiteral("--listen"), QStringLiteral("my laptop")}
                                           << QStringLiteral("--listen");
    QTest::addRow("key-store-unknown") << QStringList{QStringLiteral("--key-store"), QStringLiteral("redis")}
                                       << QStringLiteral("--key-store");
    QTest::addRow("scenario-unknown") << QStringList{QStringLiteral("--scenario"), QStringLiteral("no-such-preset")}
                                      << QStringLiteral("--scenario");
    QTest::addRow("set-bad-value") << QStringList{QStringLiteral("--set"), QStringLiteral("network.responseLoss=2")}
                                   << QStringLiteral("network.responseLoss");
    QTest::addRow("unknown-option") << QStringList{QStringLiteral("--turbo")} << QStringLiteral("turbo");
    QTest::addRow("admin-token-15-chars") << QStringList{QStringLiteral("--admin-token"), QStringLiteral("abcdefghijklmno")}
                                          << QStringLiteral("--admin-token: expected 16 to 200 characters, got 15");
}

void TestServeProcess::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Finished f = runServe(args);
    QCOMPARE(f.exitCode, 2);
    QVERIFY2(f.err.startsWith("retrylab: serve"), f.err.constData());
    QVERIFY2(QString::fromUtf8(f.err).contains(mentions), f.err.constData());
    QVERIFY(f.out.isEmpty());
}

void TestServeProcess::portInUseIsARuntimeError()
{
    QTcpServer taken;
    QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
    const Finished f = runServe({QStringLiteral("--port"), QString::number(taken.serverPort())});
    QCOMPARE(f.exitCode, 1);
    QVERIFY2(f.err.contains("cannot listen on 127.0.0.1:"), f.err.constData());
    QVERIFY(f.out.isEmpty());
}

void TestServeProcess::beyondLoopbackPrintsAnAdminToken()
{
    ServeProcess serve;
    serve.process().start(retrylab::test::retrylabBin(),
                          {QStringLiteral("serve"), QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--listen"),
                           QStringLiteral("0.0.0.0")});
    QSignalSpy output(&serve.process(), &QProcess::readyReadStandardOutput);
    const QRegularExpression tokenLine(QStringLiteral("admin token \\(Authorization: Bearer \\.\\.\\.\\): ([0-9a-f]{32})"));
    const QRegularExpression urlLine(QStringLiteral("listening on http://[^:]+:(\\d+)"));
    QRegularExpressionMatch token, url;
    QTRY_VERIFY_WITH_TIMEOUT((token = tokenLine.match(QString::fromUtf8(serve.output()))).hasMatch(), 10000);
    url = urlLine.match(QString::fromUtf8(serve.output()));
    QVERIFY(url.hasMatch());
    const quint16 port = quint16(url.captured(1).toUInt());
    QCOMPARE(exchange(port, request("GET", "/admin/faults")).status, 401);
    QCOMPARE(exchange(port, request("GET", "/admin/faults", QByteArray(),
                                    "Authorization: Bearer " + token.captured(1).toLatin1() + "\r\n")).status,
             200);
}

void TestServeProcess::tokensSurviveAKill()
{
    QTemporaryDir dir;
    const QStringList args{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--db"),
                           dir.filePath(QStringLiteral("tokens.db")), QStringLiteral("--set"),
                           QStringLiteral("server.idempotency.mode=token")};
    QByteArray used, fresh;
    {
        ServeProcess serve;
        const quint16 port = serve.start(args);
        QVERIFY(port);
        used = exchange(port, request("POST", "/order-tokens")).json().value(QLatin1String("token")).toString().toLatin1();
        fresh = exchange(port, request("POST", "/order-tokens")).json().value(QLatin1String("token")).toString().toLatin1();
        QCOMPARE(exchange(port, post(1, used)).status, 201);
        serve.process().kill();
        QVERIFY(serve.process().waitForFinished(5000));
    }
    ServeProcess again;
    const quint16 port = again.start(args);
    QVERIFY(port);
    QCOMPARE(exchange(port, post(1, used)).status, 409);  // still used
    QCOMPARE(exchange(port, post(2, fresh)).status, 201); // still known
    QCOMPARE(exchange(port, post(3, "tok-never-issued")).status, 400);
}

void TestServeProcess::killAndRestartOnTheSameDb_data()
{
    QTest::addColumn<QString>("keyStore");
    QTest::addColumn<int>("records");
    QTest::addColumn<bool>("replayed");
    QTest::addRow("durable-keys-replay-after-kill") << QStringLiteral("durable") << 3 << true;
    QTest::addRow("memory-keys-duplicate-after-kill") << QStringLiteral("memory") << 4 << false;
}

void TestServeProcess::killAndRestartOnTheSameDb()
{
    QFETCH(QString, keyStore);
    QFETCH(int, records);
    QFETCH(bool, replayed);
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("orders.db"));
    const QStringList args{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--db"), db,
                           QStringLiteral("--key-store"), keyStore};
    {
        ServeProcess serve;
        const quint16 port = serve.start(args);
        QVERIFY(port);
        for (int i = 1; i <= 3; ++i)
            QCOMPARE(exchange(port, post(i, "key-" + QByteArray::number(i))).status, 201);
        serve.process().kill(); // SIGKILL: no clean shutdown
        QVERIFY(serve.process().waitForFinished(5000));
    }
    ServeProcess again;
    const quint16 port = again.start(args);
    QVERIFY(port);
    QCOMPARE(metrics(port).value(QLatin1String("records")).toInt(), 3);
    const RawResponse retry = exchange(port, post(2, "key-2"));
    QCOMPARE(retry.status, 201);
    QCOMPARE(retry.header("Idempotent-Replayed") == "true", replayed);
    const QJsonObject m = metrics(port);
    QCOMPARE(m.value(QLatin1String("records")).toInt(), records);
    QCOMPARE(m.value(QLatin1String("duplicates")).toInt(), records - 3);
    // New orders number on from the stored ones.
    QCOMPARE(exchange(port, post(9, "key-9")).json().value(QLatin1String("id")).toInt(), records + 1);
}

void TestServeProcess::pythonRequestsWithUrllib3Retry_data()
{
    QTest::addColumn<bool>("withKey");
    QTest::addColumn<int>("records");
    QTest::addRow("with-idempotency-key") << true << 1;
    QTest::addRow("without-key-duplicates") << false << 2;
}

void TestServeProcess::pythonRequestsWithUrllib3Retry()
{
    QFETCH(bool, withKey);
    QFETCH(int, records);
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        QSKIP("python3 is not installed (scripts/lab installs python3-requests)");
    QProcess probe;
    probe.start(python, {QStringLiteral("-c"), QStringLiteral("import requests, urllib3")});
    probe.waitForFinished(20000);
    if (probe.exitCode() != 0)
        QSKIP("python3 cannot import requests and urllib3: install python3-requests (scripts/lab does)");

    // The first response of ORD-0001 is lost; urllib3 resends the POST after its read timeout.
    ServeProcess serve;
    const quint16 port = serve.start({QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--set"),
                                      QStringLiteral("network.script=[{\"op\":1,\"attempt\":\"b1/w1/t1\",\"fault\":\"responseLost\"}]")});
    QVERIFY2(port, serve.output().constData());
    const QString script = QStringLiteral(R"(
import json, sys, requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry
url, key = sys.argv[1], sys.argv[2]
session = requests.Session()
# allowed_methods=None retries every method, POST included (urllib3 leaves POST out by default).
session.mount("http://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0, allowed_methods=None)))
headers = {"Idempotency-Key": key} if key else {}
r = session.post(url + "/orders", json={"ref": "ORD-0001", "item": "book", "qty": 1}, headers=headers, timeout=(2, 0.4))
print(json.dumps({"status": r.status_code, "replayed": r.headers.get("Idempotent-Replayed"),
                  "metrics": session.get(url + "/metrics", timeout=2, headers={"Accept": "application/json"}).json()}))
)");
    QProcess py;
    py.start(python, {QStringLiteral("-c"), script, QStringLiteral("http://127.0.0.1:%1").arg(port),
                      withKey ? QStringLiteral("py-key-1") : QString()});
    QVERIFY(py.waitForFinished(30000));
    const QByteArray out = py.readAllStandardOutput();
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    QCOMPARE(result.value(QLatin1String("status")).toInt(), 201);
    QCOMPARE(result.value(QLatin1String("replayed")).toString() == QLatin1String("true"), withKey);
    const QJsonObject m = result.value(QLatin1String("metrics")).toObject();
    QCOMPARE(m.value(QLatin1String("httpAttempts")).toInt(), 2);
    QCOMPARE(m.value(QLatin1String("records")).toInt(), records);
    QCOMPARE(m.value(QLatin1String("duplicates")).toInt(), records - 1);
}

void TestServeProcess::secondServeOnOneDbIsRefused()
{
    // Issue 21 item 4: the second process started silently and answered 500 to every order.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("one.db"));
    const QStringList args{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--db"), db};
    ServeProcess first;
    const quint16 port = first.start(args);
    QVERIFY2(port, first.output().constData());
    QCOMPARE(exchange(port, post(1, "k-1")).status, 201);
    const Finished second = runServe(args);
    QCOMPARE(second.exitCode, 1);
    QVERIFY2(second.err.contains("another retrylab serve (process " + QByteArray::number(first.process().processId()) + ")"),
             second.err.constData());
    QVERIFY2(second.err.contains("one.db.lock"), second.err.constData());
    QVERIFY(second.out.isEmpty());
    QCOMPARE(exchange(port, post(2, "k-2")).status, 201); // the first one goes on
    // kill -9 frees the file (the kernel drops the flock): the next start loads both records.
    first.process().kill();
    QVERIFY(first.process().waitForFinished(5000));
    ServeProcess third;
    QVERIFY(third.start(args));
    QVERIFY2(third.output().contains("loaded from the file: 2 records, 2 keys, 0 order tokens"), third.output().constData());
}

void TestServeProcess::killWhileProcessingThenResend()
{
    // kill -9 while a keyed order is processing leaves its key row in flight; its order never
    // committed, so after the restart the resend must create it (201), not meet a 409.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("inflight.db"));
    const QStringList args{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--db"), db};
    {
        ServeProcess serve;
        const quint16 port = serve.start(args + QStringList{QStringLiteral("--set"), QStringLiteral("server.processingMs.base=20000")});
        QVERIFY2(port, serve.output().constData());
        RawClient client(port);
        client.send(post(5, "held-key"));
        // Wait, at the SQLite level, until the reservation is in the file.
        qint64 inFlight = 0;
        QTRY_VERIFY_WITH_TIMEOUT([&] {
            {
                QSqlDatabase peek = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
                peek.setDatabaseName(db);
                if (peek.open()) {
                    QSqlQuery q(peek);
                    if (q.exec(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE in_flight = 1")) && q.next())
                        inFlight = q.value(0).toLongLong();
                }
            }
            QSqlDatabase::removeDatabase(QStringLiteral("peek"));
            return inFlight == 1;
        }(), 10000);
        serve.process().kill();
        QVERIFY(serve.process().waitForFinished(5000));
    }
    ServeProcess again;
    const quint16 port = again.start(args);
    QVERIFY2(port, again.output().constData());
    const RawResponse resend = exchange(port, post(5, "held-key"));
    QCOMPARE(resend.status, 201);
    QVERIFY(resend.header("Idempotent-Replayed").isEmpty());
    QCOMPARE(metrics(port).value(QLatin1String("records")).toInt(), 1);
    QCOMPARE(exchange(port, post(5, "held-key")).header("Idempotent-Replayed"), QByteArray("true"));
}

void TestServeProcess::adminTokenFromTheEnvironment()
{
    const QByteArray token = "env-token-for-scripts-01";
    ServeProcess serve;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RETRYLAB_ADMIN_TOKEN"), QString::fromLatin1(token));
    serve.process().setProcessEnvironment(env);
    const quint16 port = serve.start({QStringLiteral("--port"), QStringLiteral("0")});
    QVERIFY2(port, serve.output().constData());
    // On loopback too, and the banner does not repeat the secret.
    QVERIFY2(serve.output().contains("admin: needs the token given by --admin-token or RETRYLAB_ADMIN_TOKEN"),
             serve.output().constData());
    QVERIFY(!serve.output().contains(token));
    QCOMPARE(exchange(port, request("GET", "/admin/faults")).status, 401);
    QCOMPARE(exchange(port, request("GET", "/admin/faults", QByteArray(), "Authorization: Bearer " + token + "\r\n")).status, 200);
    // --admin-token wins over the environment.
    ServeProcess flagged;
    flagged.process().setProcessEnvironment(env);
    const quint16 other = flagged.start({QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--admin-token"),
                                         QStringLiteral("flag-token-0123456")});
    QVERIFY(other);
    QCOMPARE(exchange(other, request("GET", "/admin/faults", QByteArray(), "Authorization: Bearer " + token + "\r\n")).status, 401);
    QCOMPARE(exchange(other, request("GET", "/admin/faults", QByteArray(), "Authorization: Bearer flag-token-0123456\r\n")).status,
             200);
}

void TestServeProcess::bannerNamesFaultsAndModes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("says");
    QTest::addRow("default") << QStringList()
                             << QStringList{QStringLiteral("faults: none"), QStringLiteral("try: curl -i --max-time 5 -X POST")};
    // stable-key loses exactly the answer of the banner's own request: --max-time ends the wait.
    QTest::addRow("stable-key") << QStringList{QStringLiteral("--scenario"), QStringLiteral("stable-key")}
                                << QStringList{QStringLiteral("faults: "), QStringLiteral("script entry"),
                                               QStringLiteral("an answer may never come"), QStringLiteral("--max-time 5")};
    QTest::addRow("idempotency-off") << QStringList{QStringLiteral("--set"), QStringLiteral("server.idempotency.mode=off")}
                                     << QStringList{QStringLiteral("the server ignores Idempotency-Key")};
    QTest::addRow("token-mode") << QStringList{QStringLiteral("--set"), QStringLiteral("server.idempotency.mode=token")}
                                << QStringList{QStringLiteral("/order-tokens"), QStringLiteral("Idempotency-Key: <token>")};
    QTest::addRow("every-address") << QStringList{QStringLiteral("--listen"), QStringLiteral("0.0.0.0")}
                                   << QStringList{QStringLiteral("listening on http://0.0.0.0:"), QStringLiteral("every address")};
}

void TestServeProcess::bannerNamesFaultsAndModes()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, says);
    ServeProcess serve;
    serve.process().start(retrylab::test::retrylabBin(), QStringList{QStringLiteral("serve"), QStringLiteral("--port"),
                                                                    QStringLiteral("0")} + args);
    QTRY_VERIFY_WITH_TIMEOUT(serve.output().contains("Press Ctrl+C to stop."), 10000);
    const QString banner = QString::fromUtf8(serve.output());
    for (const QString &words : says)
        QVERIFY2(banner.contains(words), qPrintable(banner));
}

void TestServeProcess::prometheusParserReadsMetrics()
{
    // Issue 21 item 12: the text exposition format, read by the Prometheus project's own Python
    // parser (prometheus_client.parser, Debian's python3-prometheus-client; scripts/lab installs it).
    QString python;
    for (const QString &candidate : {QStringLiteral("/usr/bin/python3"), QStandardPaths::findExecutable(QStringLiteral("python3"))}) {
        QProcess probe;
        probe.start(candidate, {QStringLiteral("-c"), QStringLiteral("import prometheus_client.parser")});
        if (probe.waitForFinished(20000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0) {
            python = candidate;
            break;
        }
    }
    if (python.isEmpty())
        QSKIP("python3 cannot import prometheus_client: install python3-prometheus-client (scripts/lab does)");
    ServeProcess serve;
    const quint16 port = serve.start({QStringLiteral("--port"), QStringLiteral("0")});
    QVERIFY(port);
    QCOMPARE(exchange(port, post(1, "k-1")).status, 201);
    QCOMPARE(exchange(port, post(1, "k-1")).status, 201); // a replay
    QCOMPARE(exchange(port, post(1, QByteArray())).status, 201); // a duplicate
    const QString script = QStringLiteral(
            "import json, sys, urllib.request\n"
            "from prometheus_client.parser import text_string_to_metric_families\n"
            "req = urllib.request.Request(sys.argv[1] + '/metrics', headers={'Accept': 'text/plain;version=0.0.4;q=0.3,*/*;q=0.2'})\n"
            "r = urllib.request.urlopen(req, timeout=5)\n"
            "out = {'contentType': r.headers['Content-Type'], 'families': {}}\n"
            "for f in text_string_to_metric_families(r.read().decode('utf-8')):\n"
            "    out['families'][f.name] = {'type': f.type, 'samples': [[s.name, s.labels, s.value] for s in f.samples]}\n"
            "print(json.dumps(out))\n");
    QProcess py;
    py.start(python, {QStringLiteral("-c"), script, QStringLiteral("http://127.0.0.1:%1").arg(port)});
    QVERIFY(py.waitForFinished(30000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    const QJsonObject out = QJsonDocument::fromJson(py.readAllStandardOutput()).object();
    QCOMPARE(out.value(QLatin1String("contentType")).toString(), QStringLiteral("text/plain; version=0.0.4; charset=utf-8"));
    const QJsonObject families = out.value(QLatin1String("families")).toObject();
    const auto only = [&](const char *family) {
        return families.value(QLatin1String(family)).toObject().value(QLatin1String("samples")).toArray().at(0).toArray().at(2).toDouble();
    };
    // The parser names a counter family without _total; its sample keeps it.
    QCOMPARE(families.value(QLatin1String("retrylab_replays")).toObject().value(QLatin1String("type")).toString(), QStringLiteral("counter"));
    QCOMPARE(families.value(QLatin1String("retrylab_replays")).toObject().value(QLatin1String("samples")).toArray().at(0).toArray().at(0).toString(),
             QStringLiteral("retrylab_replays_total"));
    QCOMPARE(only("retrylab_replays"), 1.0);
    QCOMPARE(only("retrylab_http_attempts"), 3.0);
    QCOMPARE(only("retrylab_records"), 2.0);
    QCOMPARE(only("retrylab_duplicates"), 1.0);
    const QJsonObject histogram = families.value(QLatin1String("retrylab_request_duration_seconds")).toObject();
    QCOMPARE(histogram.value(QLatin1String("type")).toString(), QStringLiteral("histogram"));
    double count = -1, inf = -1;
    int buckets = 0;
    for (const QJsonValue &v : histogram.value(QLatin1String("samples")).toArray()) {
        const QJsonArray sample = v.toArray();
        if (sample.at(0).toString() == QLatin1String("retrylab_request_duration_seconds_count"))
            count = sample.at(2).toDouble();
        if (sample.at(0).toString() == QLatin1String("retrylab_request_duration_seconds_bucket")) {
            ++buckets;
            if (sample.at(1).toObject().value(QLatin1String("le")).toString() == QLatin1String("+Inf"))
                inf = sample.at(2).toDouble();
        }
    }
    QCOMPARE(buckets, 15);
    QCOMPARE(count, 3.0);
    QCOMPARE(inf, 3.0);
}

QTEST_GUILESS_MAIN(TestServeProcess)
#include "tst_serveprocess.moc"
