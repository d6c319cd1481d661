// `retrylab proxy` as a process in front of `retrylab serve` (in-process): the banner, the
// report at exit after --requests N and after SIGTERM, --format json, usage and runtime errors.
#include "livesupport.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

#include <csignal>

using namespace retrylab;
using namespace retrylab::test;

namespace {

QByteArray order(int ref)
{
    return "{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\",\"item\":\"book\"}";
}

// One `retrylab proxy` child process.
class ProxyProcess
{
public:
    ~ProxyProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    // Starts and waits (in the event loop: the upstream lives in this thread) for the banner;
    // returns the port (0 on failure).
    quint16 start(const QStringList &args)
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels); // with --format json the banner is on stderr
        m_process.start(retrylab::test::retrylabBin(), QStringList{QStringLiteral("proxy")} + args);
        QSignalSpy output(&m_process, &QProcess::readyReadStandardOutput);
        const QRegularExpression url(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+), in front of"));
        for (;;) {
            m_out += m_process.readAllStandardOutput();
            const QRegularExpressionMatch m = url.match(QString::fromUtf8(m_out));
            if (m.hasMatch())
                return quint16(m.captured(1).toUInt());
            if (m_process.state() == QProcess::NotRunning || !output.wait(10000))
                return 0;
        }
    }
    // Waits for the exit in the event loop; the exit code (-1: still running).
    int finish(int timeoutMs = 20000)
    {
        QSignalSpy done(&m_process, &QProcess::finished);
        if (m_process.state() != QProcess::NotRunning && !done.wait(timeoutMs))
            return -1;
        m_out += m_process.readAllStandardOutput();
        return m_process.exitCode();
    }
    QProcess &process() { return m_process; }
    QByteArray output() const { return m_out; }

private:
    QProcess m_process;
    QByteArray m_out;
};

Scenario serviceOff()
{
    Scenario s = ServeOptions::defaultScenario();
    s.server.idempotency.mode = IdempotencyMode::Off;
    return s;
}

struct Run
{
    int code = 0;
    QByteArray out;
    QByteArray err;
};

Run runProxy(const QStringList &args)
{
    QProcess p;
    p.start(retrylab::test::retrylabBin(), QStringList{QStringLiteral("proxy")} + args);
    p.waitForFinished(20000);
    return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestProxyProcess : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void reportAfterRequests();
    void jsonAtExit();
    void sigtermPrintsTheReport();
    void usageErrors_data();
    void usageErrors();
    void portInUseIsARuntimeError();
};

void TestProxyProcess::reportAfterRequests()
{
    auto server = startServer(serviceOff());
    ProxyProcess proxy;
    const quint16 port = proxy.start({QStringLiteral("--upstream"), server->url().toString(), QStringLiteral("--port"),
                                      QStringLiteral("0"), QStringLiteral("--order-field"), QStringLiteral("ref"),
                                      QStringLiteral("--requests"), QStringLiteral("3"), QStringLiteral("--report")});
    QVERIFY2(port != 0, proxy.output().constData());
    QVERIFY(proxy.output().contains("faults: none"));
    QCOMPARE(exchange(port, postOrder(order(1))).status, 201);
    QCOMPARE(exchange(port, postOrder(order(1))).status, 201); // no key, idempotency off: a duplicate
    QCOMPARE(exchange(port, postOrder(order(2))).status, 201);
    QCOMPARE(proxy.finish(), 0); // exactly the third request ends it
    const QString out = QString::fromUtf8(proxy.output());
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral("\\n1\\s+ORD-0001\\s+2\\s+201 201\\s+2\\s+1\\s*\\n"))), qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral("\\n2\\s+ORD-0002\\s+1\\s+201\\s+1\\s+0\\s*\\n"))), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("2 logical requests, 3 attempts, 3 resources created, 1 duplicates, 0 orphans")), qPrintable(out));
    QCOMPARE(server->metricsJson().value(QLatin1String("duplicates")).toInt(), 1);
}

void TestProxyProcess::jsonAtExit()
{
    auto server = startServer(serviceOff());
    ProxyProcess proxy;
    // responseLoss 1: the first attempt's answer is lost after the commit (an orphan).
    const quint16 port = proxy.start({QStringLiteral("--upstream"), server->url().toString(), QStringLiteral("--port"),
                                      QStringLiteral("0"), QStringLiteral("--set"), QStringLiteral("network.responseLoss=1"),
                                      QStringLiteral("--requests"), QStringLiteral("1"), QStringLiteral("--format"),
                                      QStringLiteral("json")});
    QVERIFY2(port != 0, proxy.output().constData());
    QCOMPARE(exchange(port, postOrder(order(1), "k-1"), 300).status, 0); // the client's timeout
    QCOMPARE(proxy.finish(), 0);
    const QJsonObject o = QJsonDocument::fromJson(proxy.output().mid(proxy.output().indexOf("{\n"))).object();
    const QJsonObject totals = o.value(QLatin1String("totals")).toObject();
    QCOMPARE(totals.value(QLatin1String("orphans")).toInt(), 1);
    QCOMPARE(totals.value(QLatin1String("created")).toInt(), 1);
    const QJsonObject row = o.value(QLatin1String("requests")).toArray().at(0).toObject();
    QCOMPARE(row.value(QLatin1String("group")).toString(), QStringLiteral("k-1"));
    QCOMPARE(row.value(QLatin1String("groupBy")).toString(), QStringLiteral("key"));
    QCOMPARE(o.value(QLatin1String("proxy")).toObject().value(QLatin1String("faults")).toObject().value(QLatin1String("responseLost")).toInt(), 1);
}

void TestProxyProcess::sigtermPrintsTheReport()
{
    auto server = startServer(serviceOff());
    ProxyProcess proxy;
    const quint16 port = proxy.start({QStringLiteral("--upstream"), server->url().toString(), QStringLiteral("--port"),
                                      QStringLiteral("0"), QStringLiteral("--report")});
    QVERIFY(port != 0);
    QCOMPARE(exchange(port, postOrder(order(5), "k-5")).status, 201);
    ::kill(pid_t(proxy.process().processId()), SIGTERM);
    QCOMPARE(proxy.finish(), 0);
    QCOMPARE(proxy.process().exitStatus(), QProcess::NormalExit);
    QVERIFY2(proxy.output().contains("1 logical requests, 1 attempts, 1 resources created, 0 duplicates, 0 orphans"),
             proxy.output().constData());
}

void TestProxyProcess::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::addRow("no-upstream") << QStringList{} << QStringLiteral("proxy: missing --upstream URL");
    QTest::addRow("upstream-with-path") << QStringList{QStringLiteral("--upstream"), QStringLiteral("http://127.0.0.1:9/api")}
                                        << QStringLiteral("proxy: upstream: expected http://host:port without a path, got 'http://127.0.0.1:9/api'");
    QTest::addRow("port-past-65535") << QStringList{QStringLiteral("--upstream"), QStringLiteral("http://127.0.0.1:9"),
                                                    QStringLiteral("--port"), QStringLiteral("65536")}
                                     << QStringLiteral("proxy: --port: expected an integer from 0 to 65535, got '65536'");
    QTest::addRow("zero-requests") << QStringList{QStringLiteral("--upstream"), QStringLiteral("http://127.0.0.1:9"),
                                                  QStringLiteral("--requests"), QStringLiteral("0")}
                                   << QStringLiteral("proxy: --requests: expected an integer from 1 to 1000000000, got '0'");
    QTest::addRow("unknown-field") << QStringList{QStringLiteral("--upstream"), QStringLiteral("http://127.0.0.1:9"),
                                                  QStringLiteral("--set"), QStringLiteral("network.responseLos=1")}
                                   << QStringLiteral("did you mean network.responseLoss?");
    QTest::addRow("bad-listen") << QStringList{QStringLiteral("--upstream"), QStringLiteral("http://127.0.0.1:9"),
                                               QStringLiteral("--listen"), QStringLiteral("nowhere")}
                                << QStringLiteral("proxy: --listen: expected an IP address such as 127.0.0.1, got 'nowhere'");
}

void TestProxyProcess::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    const Run r = runProxy(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(error), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestProxyProcess::portInUseIsARuntimeError()
{
    QTcpServer taken;
    QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
    const Run r = runProxy({QStringLiteral("--upstream"), QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--port"),
                            QString::number(taken.serverPort())});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("proxy: cannot listen on 127.0.0.1:" + QByteArray::number(taken.serverPort())), r.err.constData());
}

QTEST_GUILESS_MAIN(TestProxyProcess)
#include "tst_proxyprocess.moc"
