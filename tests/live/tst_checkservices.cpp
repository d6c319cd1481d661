// `retrylab check` against the Python test services of tests/data/services/ (Flask, Debian's
// python3-flask): orders_buggy.py checks then inserts without a lock and never compares bodies,
// so the check must catch its in-flight race and its mismatch; orders_fixed.py, its twin with a
// lock and a body fingerprint, must pass. The README's "Test your own service" quotes the card of
// orders_buggy.py: this test runs the quoted command and compares (RETRYLAB_DOCS_UPDATE=1 rewrites it).
#include "check/checkrunner.h"
#include "check/checkverdicts.h"
#include "check/proxyfaults.h"
#include "testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace retrylab;

namespace {

QString services()
{
    return retrylab::test::dataPath(QStringLiteral("services"));
}

// The checkout (a function: test paths are resolved once the application exists).
QString checkout()
{
    return retrylab::test::sourcePath();
}
const QString DocsStart = QStringLiteral("<!-- checked by tst_checkservices: retrylab ");
const QString DocsEnd = QStringLiteral("<!-- end of checked text -->");
// The port the README's commands use (flask run's default).
const QString DocsPort = QStringLiteral("5000");

// Debian's python3 (python3-flask) first, then whichever python3 is on PATH; empty: no python3 at all.
QString &python()
{
    static QString path;
    return path;
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    return probe.serverPort();
}

// One Flask service on a free loopback port, stopped with the test.
class PythonService
{
public:
    QString start(const QString &script)
    {
        m_port = freePort();
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(python(), {QStringLiteral("-m"), QStringLiteral("flask"), QStringLiteral("--app"),
                                                    services() + QLatin1Char('/') + script, QStringLiteral("run"),
                                                    QStringLiteral("--port"), QString::number(m_port)});
        if (!m_process.waitForStarted(5000))
            return QStringLiteral("python3 did not start");
        // Listening once a connection is accepted.
        for (int i = 0; i < 100; ++i) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, m_port);
            if (socket.waitForConnected(100))
                return QString();
            if (m_process.state() == QProcess::NotRunning)
                return QString::fromUtf8(m_process.readAll()).right(400);
            QTest::qWait(100);
        }
        return QStringLiteral("no answer on port %1: %2").arg(m_port).arg(QString::fromUtf8(m_process.readAll()).right(400));
    }
    ~PythonService()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(3000);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/orders").arg(m_port)); }
    quint16 port() const { return m_port; }

private:
    QProcess m_process;
    quint16 m_port = 0;
};

QString cardLine(const QList<ProbeVerdict> &card)
{
    QStringList parts;
    for (const ProbeVerdict &v : card)
        parts << check::probeName(v.probe) + QLatin1Char('=') + check::verdictName(v.verdict);
    return parts.join(QLatin1Char(' '));
}

} // namespace

class TestCheckServices : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void card_data();
    void card();
    void readmeQuotesTheCard();
};

void TestCheckServices::initTestCase()
{
    QStringList candidates{QStringLiteral("/usr/bin/python3"), QStandardPaths::findExecutable(QStringLiteral("python3"))};
    candidates.removeAll(QString());
    for (const QString &candidate : candidates) {
        if (!QFileInfo(candidate).isExecutable())
            continue;
        if (python().isEmpty())
            python() = candidate;
        QProcess flask;
        flask.start(candidate, {QStringLiteral("-c"), QStringLiteral("import flask")});
        if (flask.waitForFinished(10000) && flask.exitStatus() == QProcess::NormalExit && flask.exitCode() == 0) {
            python() = candidate;
            return;
        }
    }
    if (python().isEmpty())
        QSKIP("python3 is not installed: the Python test services cannot run (scripts/lab installs python3-flask)");
    QFAIL(qPrintable(python() + QStringLiteral(" has no flask module: install Debian's python3-flask (scripts/lab does)")));
}

void TestCheckServices::card_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("card");
    QTest::addColumn<int>("exitStatus");
    // Buggy: both concurrent requests pass the check; another body gets the first answer.
    QTest::addRow("buggy") << QStringLiteral("orders_buggy.py")
                           << QStringLiteral("replay=pass mismatch=fail in-flight=fail ghost=pass missing-key=not-applicable "
                                             "no-key-twice=warn retry-after-5xx=pass")
                           << 1;
    QTest::addRow("fixed") << QStringLiteral("orders_fixed.py")
                           << QStringLiteral("replay=pass mismatch=pass in-flight=pass ghost=pass missing-key=not-applicable "
                                             "no-key-twice=warn retry-after-5xx=pass")
                           << 0;
}

void TestCheckServices::card()
{
    QFETCH(QString, script);
    QFETCH(QString, card);
    QFETCH(int, exitStatus);
    PythonService service;
    const QString error = service.start(script);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    ProxyFaults proxy;
    QVERIFY(proxy.start(service.url()).isEmpty());
    CheckOptions options;
    options.url = service.url();
    options.timeoutMs = 1500;
    CheckRunner runner(options, &proxy);
    const CheckReport report = runner.run();
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(cardLine(report.card), card);
    QCOMPARE(check::exitStatus(report.card), exitStatus);
}

void TestCheckServices::readmeQuotesTheCard()
{
    QFile readme(checkout() + QStringLiteral("/README.md"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(readme.readAll());
    readme.close();
    const qsizetype from = text.indexOf(DocsStart);
    QVERIFY2(from >= 0, "README.md quotes no card (<!-- checked by tst_checkservices: retrylab check ... -->)");
    const qsizetype headEnd = text.indexOf(QStringLiteral("-->"), from);
    const qsizetype bodyStart = text.indexOf(QLatin1Char('\n'), headEnd) + 1;
    const qsizetype end = text.indexOf(DocsEnd, bodyStart);
    QVERIFY(headEnd > 0 && end > 0);
    const QStringList arguments = text.mid(from + DocsStart.size(), headEnd - from - DocsStart.size())
                                          .trimmed()
                                          .split(QLatin1Char(' '), Qt::SkipEmptyParts);
    PythonService service;
    const QString error = service.start(QStringLiteral("orders_buggy.py"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList run;
    for (const QString &a : arguments)
        run << QString(a).replace(QStringLiteral("127.0.0.1:") + DocsPort, QStringLiteral("127.0.0.1:%1").arg(service.port()));
    QProcess retrylab;
    retrylab.start(retrylab::test::retrylabBin(), run);
    QVERIFY(retrylab.waitForFinished(120000));
    QCOMPARE(retrylab.exitCode(), 1); // a probe failed
    QString output = QString::fromUtf8(retrylab.readAllStandardOutput());
    output.replace(QStringLiteral("127.0.0.1:%1").arg(service.port()), QStringLiteral("127.0.0.1:") + DocsPort);
    const QString expected = QStringLiteral("```text\n") + output + QStringLiteral("```\n");
    if (qEnvironmentVariableIntValue("RETRYLAB_DOCS_UPDATE") == 1) {
        text.replace(bodyStart, end - bodyStart, expected);
        QVERIFY(readme.open(QIODevice::WriteOnly));
        readme.write(text.toUtf8());
        return;
    }
    QCOMPARE(text.mid(bodyStart, end - bodyStart), expected);
}

QTEST_GUILESS_MAIN(TestCheckServices)
#include "tst_checkservices.moc"
