// `retrylab check` as a program: its usage errors (exit 2, one line naming the flag and the value),
// an unreachable endpoint (exit 2), and the JSON card with every probe's exchanges and exit 1
// when a probe fails, against `retrylab serve` run in-process.
#include "livesupport.h"

#include "check/checkreport.h"
#include "check/checktrace.h"
#include "checkreportsample.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

struct Outcome
{
    int exitCode = -1;
    QString out, err;
};

// Runs the binary while this thread's event loop keeps an in-process server answering.
Outcome runCheck(const QStringList &arguments)
{
    QProcess process;
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(retrylab::test::retrylabBin(), arguments);
    if (!finished.wait(120000))
        return Outcome();
    return Outcome{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                   QString::fromUtf8(process.readAllStandardError())};
}

} // namespace

class TestCheckCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usageErrors_data();
    void usageErrors();
    void unreachable();
    void jsonCardOfANaiveServer();
    void savedReportOpensOnTheTimeline();
    void saveToABadPathIsRefusedBeforeAnyProbe();
    void windowRefusesACorruptReport();
};

void TestCheckCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString url = QStringLiteral("http://127.0.0.1:9/orders");
    QTest::addRow("no-url") << QStringList{QStringLiteral("check")}
                            << QStringLiteral("retrylab: check: expected the endpoint's URL first: retrylab check "
                                              "http://127.0.0.1:8080/orders [options]\n");
    QTest::addRow("https") << QStringList{QStringLiteral("check"), QStringLiteral("https://example.org/orders")}
                           << QStringLiteral("retrylab: check: URL: expected an http:// URL such as "
                                             "http://127.0.0.1:8080/orders, got 'https://example.org/orders'\n");
    QTest::addRow("rounds-zero") << QStringList{QStringLiteral("check"), url, QStringLiteral("--rounds"), QStringLiteral("0")}
                                 << QStringLiteral("retrylab: check: --rounds: expected an integer from 1 to 100, got '0'\n");
    QTest::addRow("rounds-101") << QStringList{QStringLiteral("check"), url, QStringLiteral("--rounds"), QStringLiteral("101")}
                                << QStringLiteral("retrylab: check: --rounds: expected an integer from 1 to 100, got '101'\n");
    QTest::addRow("concurrency-one") << QStringList{QStringLiteral("check"), url, QStringLiteral("--concurrency"), QStringLiteral("1")}
                                     << QStringLiteral("retrylab: check: --concurrency: expected an integer from 2 to 64, got '1'\n");
    QTest::addRow("concurrency-65") << QStringList{QStringLiteral("check"), url, QStringLiteral("--concurrency"), QStringLiteral("65")}
                                    << QStringLiteral("retrylab: check: --concurrency: expected an integer from 2 to 64, got '65'\n");
    QTest::addRow("timeout-99") << QStringList{QStringLiteral("check"), url, QStringLiteral("--timeout"), QStringLiteral("99")}
                                << QStringLiteral("retrylab: check: --timeout: expected an integer from 100 to 600000, got '99'\n");
    QTest::addRow("header-no-colon") << QStringList{QStringLiteral("check"), url, QStringLiteral("-H"), QStringLiteral("Authorization")}
                                     << QStringLiteral("retrylab: check: -H: expected 'Name: value' in visible ASCII, got "
                                                       "'Authorization'\n");
    QTest::addRow("header-escape") << QStringList{QStringLiteral("check"), url, QStringLiteral("-H"), QStringLiteral("X: a\x1b[2J")}
                                   << QStringLiteral("retrylab: check: -H: expected 'Name: value' in visible ASCII, got "
                                                     "'X: a\\u001b[2J'\n");
    QTest::addRow("key-header") << QStringList{QStringLiteral("check"), url, QStringLiteral("--key-header"), QStringLiteral("a b")}
                                << QStringLiteral("retrylab: check: --key-header: expected a header name such as "
                                                  "Idempotency-Key, got 'a b'\n");
    QTest::addRow("list-not-http") << QStringList{QStringLiteral("check"), url, QStringLiteral("--list"), QStringLiteral("ftp://x/y")}
                                   << QStringLiteral("retrylab: check: --list: expected an http:// URL such as "
                                                     "http://127.0.0.1:8080/orders, got 'ftp://x/y'\n");
    QTest::addRow("format") << QStringList{QStringLiteral("check"), url, QStringLiteral("--format"), QStringLiteral("csv")}
                            << QStringLiteral("retrylab: check: --format: expected table or json, got 'csv'\n");
}

void TestCheckCli::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Outcome o = runCheck(arguments);
    QCOMPARE(o.exitCode, 2);
    QCOMPARE(o.err, message);
    QVERIFY(o.out.isEmpty());
}

void TestCheckCli::unreachable()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    const Outcome o = runCheck({QStringLiteral("check"), QStringLiteral("http://127.0.0.1:%1/orders").arg(port)});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.startsWith(QStringLiteral("retrylab: check: cannot reach http://127.0.0.1:%1/orders: ").arg(port)), qPrintable(o.err));
}

void TestCheckCli::jsonCardOfANaiveServer()
{
    Scenario s = ServeOptions::defaultScenario();
    s.server.idempotency.mode = IdempotencyMode::Naive;
    s.server.processingMs = {150, 0};
    auto server = startServer(s);
    const Outcome o = runCheck({QStringLiteral("check"), server->url().toString() + QStringLiteral("/orders"),
                                QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--timeout"),
                                QStringLiteral("1000"), QStringLiteral("--concurrency"), QStringLiteral("3")});
    QCOMPARE(o.exitCode, 1); // the in-flight race fails
    const QJsonObject card = QJsonDocument::fromJson(o.out.toUtf8()).object();
    QCOMPARE(card.value(QLatin1String("exitStatus")).toInt(), 1);
    QCOMPARE(card.value(QLatin1String("concurrency")).toInt(), 3);
    const QJsonArray probes = card.value(QLatin1String("probes")).toArray();
    QCOMPARE(probes.size(), 7);
    const QJsonObject inFlight = probes.at(2).toObject();
    QCOMPARE(inFlight.value(QLatin1String("probe")).toString(), QStringLiteral("in-flight"));
    QCOMPARE(inFlight.value(QLatin1String("verdict")).toString(), QStringLiteral("fail"));
    QCOMPARE(inFlight.value(QLatin1String("finding")).toString(), QStringLiteral("in-flight-created-many"));
    QCOMPARE(inFlight.value(QLatin1String("creations")).toInt(), 3);
    const QJsonArray exchanges = inFlight.value(QLatin1String("rounds")).toArray().at(0).toObject().value(QLatin1String("exchanges")).toArray();
    QCOMPARE(exchanges.size(), 3);
    const QString key = exchanges.at(0).toObject().value(QLatin1String("key")).toString();
    QVERIFY(key.startsWith(QStringLiteral("check-")));
    for (const QJsonValue &e : exchanges)
        QCOMPARE(e.toObject().value(QLatin1String("key")).toString(), key);
    const QJsonObject ghost = probes.at(3).toObject();
    const QJsonObject lost = ghost.value(QLatin1String("rounds")).toArray().at(0).toObject().value(QLatin1String("exchanges")).toArray().at(0).toObject();
    QCOMPARE(lost.value(QLatin1String("fault")).toString(), QStringLiteral("responseLost"));
    QCOMPARE(lost.value(QLatin1String("status")).toInt(), 0);
    QCOMPARE(lost.value(QLatin1String("upstreamStatus")).toInt(), 201);
}

// Issue 22 item 4: `check --save FILE` writes what the window opens; each probe's exchanges and
// verdict are on the timeline's run (the same JSON as --format json prints).
void TestCheckCli::savedReportOpensOnTheTimeline()
{
    Scenario s = ServeOptions::defaultScenario();
    s.server.idempotency.mode = IdempotencyMode::Naive;
    s.server.processingMs = {150, 0};
    auto server = startServer(s);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("card.json"));
    const Outcome o = runCheck({QStringLiteral("check"), server->url().toString() + QStringLiteral("/orders"),
                                QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--timeout"),
                                QStringLiteral("1000"), QStringLiteral("--concurrency"), QStringLiteral("3"),
                                QStringLiteral("--save"), file});
    QCOMPARE(o.exitCode, 1);
    QFile saved(file);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(saved.readAll()), o.out);
    CheckReport report;
    const QStringList errors = check::loadReport(file, &report);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(report.card.size(), ProbeCount);
    QCOMPARE(report.concurrency, 3);
    QCOMPARE(report.timeoutMs, 1000);
    const CheckTrace t = CheckTrace::of(report);
    QCOMPARE(t.operations.size(), ProbeCount);
    for (const CheckOperation &op : t.operations) {
        const int p = int(op.probe);
        QCOMPARE(op.verdict.verdict, report.card.at(p).verdict);
        int attempts = 0;
        for (const TraceEvent &e : t.result.trace)
            attempts += e.op == op.op && e.kind == EventKind::TransportAttempt ? 1 : 0;
        QCOMPARE(attempts, int(report.rounds.at(p).at(0).exchanges.size()));
    }
    // The in-flight race: three resources for one key, two of them duplicates on the timeline.
    QCOMPARE(t.operations.at(2).verdict.verdict, Verdict::Fail);
    int inFlightDuplicates = 0;
    for (const RecordRow &r : t.result.records)
        inFlightDuplicates += r.op == 3 && r.duplicate ? 1 : 0;
    QCOMPARE(inFlightDuplicates, 2);
    // The ghost: its answer lost by the check's proxy after the service created the order.
    bool lost = false;
    for (const TraceEvent &e : t.result.trace)
        lost = lost || (e.op == 4 && e.kind == EventKind::ResponseLost);
    QVERIFY(lost);
}

void TestCheckCli::saveToABadPathIsRefusedBeforeAnyProbe()
{
    auto server = startServer(ServeOptions::defaultScenario());
    const QString file = QStringLiteral("/nonexistent-retrylab-dir/card.json");
    const Outcome o = runCheck({QStringLiteral("check"), server->url().toString() + QStringLiteral("/orders"),
                                QStringLiteral("--save"), file});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.startsWith(QStringLiteral("retrylab: check: --save: cannot write '%1': ").arg(file)), qPrintable(o.err));
    QVERIFY(o.out.isEmpty());
    QCOMPARE(server->metricsJson().value(QLatin1String("httpAttempts")).toInt(), 0);
}

// The window's --check-report: a corrupt file is a usage error naming the field, before any window.
void TestCheckCli::windowRefusesACorruptReport()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("bad.json"));
    QFile bad(file);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QJsonDocument(checksample::report().toJson()).toJson().replace("\"probe\": \"replay\"", "\"probe\": \"replays\""));
    bad.close();
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(env);
    process.start(retrylab::test::retrylabBin(), {QStringLiteral("--check-report"), file});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    QCOMPARE(QString::fromUtf8(process.readAllStandardError()),
             QStringLiteral("retrylab: --check-report: %1: probes[0].probe: expected one of replay|mismatch|in-flight|ghost|"
                            "missing-key|no-key-twice|retry-after-5xx, got \"replays\"\n").arg(file));
}

QTEST_GUILESS_MAIN(TestCheckCli)
#include "tst_checkcli.moc"
