// `retrylab serve` as a process: start-up banner, usage and runtime errors, SIGTERM, kill -9
// and a restart on the same --db file (durable keys replay, a memory key store duplicates), and a
// Python requests session with a urllib3 Retry against response loss.
#include "livesupport.h"

#include <QProcess>
#include <QRegularExpression>
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
        m_process.start(QStringLiteral(RETRYLAB_BIN), QStringList{QStringLiteral("serve")} + args);
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
    p.start(QStringLiteral(RETRYLAB_BIN), QStringList{QStringLiteral("serve")} + args);
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
    return exchange(port, request("GET", "/metrics")).json();
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
    QTest::addRow("listen-not-an-address") << QStringList{QStringLiteral("--listen"), QStringLiteral("my laptop")}
                                           << QStringLiteral("--listen");
    QTest::addRow("key-store-unknown") << QStringList{QStringLiteral("--key-store"), QStringLiteral("redis")}
                                       << QStringLiteral("--key-store");
    QTest::addRow("scenario-unknown") << QStringList{QStringLiteral("--scenario"), QStringLiteral("no-such-preset")}
                                      << QStringLiteral("--scenario");
    QTest::addRow("set-bad-value") << QStringList{QStringLiteral("--set"), QStringLiteral("network.responseLoss=2")}
                                   << QStringLiteral("network.responseLoss");
    QTest::addRow("unknown-option") << QStringList{QStringLiteral("--turbo")} << QStringLiteral("turbo");
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
    serve.process().start(QStringLiteral(RETRYLAB_BIN),
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
                  "metrics": session.get(url + "/metrics", timeout=2).json()}))
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

QTEST_GUILESS_MAIN(TestServeProcess)
#include "tst_serveprocess.moc"
