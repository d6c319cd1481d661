// What a sweep says about its cost (issue 23 item 4): the whole sweep's expected requests against
// --max-attempts, exactly at the limit accepted and one over refused with the time it would take;
// progress with an ETA on stderr only on a terminal; Ctrl+C prints the points finished so far.
#include "cli/clirun.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <csignal>

namespace {

using clirun::CliResult;
using clirun::runCli;

// CPU time (user + system) of a process so far, in clock ticks, from /proc.
long cpuTicks(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 12 ? fields.at(11).toLong() + fields.at(12).toLong() : -1;
}

// Whether the process catches SIGINT yet (/proc's SigCgt mask): the sweep installs its handler once
// the pilot is done; a Ctrl+C before that ends the process the default way, with nothing to print.
bool catchesSigint(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("SigCgt:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGINT - 1)) & 1;
    }
    return false;
}

// Eight cells of at most 1,000 orders and one seed: the pilot is each whole run, so the estimate
// is exactly what the sweep makes. Worst case per run: 100 orders x 3 x 3 = 900.
QStringList exactSweep()
{
    return {QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"), QStringLiteral("--set"),
            QStringLiteral("workload.orders=100"), QStringLiteral("--param"), QStringLiteral("network.responseLoss"),
            QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"), QStringLiteral("0.35"),
            QStringLiteral("--steps"), QStringLiteral("8"), QStringLiteral("--seeds"), QStringLiteral("1")};
}

} // namespace

class TestSweepCost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void limitIsExactlyTheExpectedRequests();
    void theIssueSweepIsRefusedWithItsTime();
    void progressOnlyOnATerminal();
    void interruptPrintsThePointsFinished();
};

void TestSweepCost::limitIsExactlyTheExpectedRequests()
{
    const CliResult run = runCli(exactSweep() + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    qint64 total = 0;
    const QJsonArray points = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("points")).toArray();
    QCOMPARE(points.size(), 8);
    for (const QJsonValue &p : points) {
        const QJsonObject m = p.toObject().value(QStringLiteral("metrics")).toObject();
        total += qint64(m.value(QStringLiteral("httpAttempts")).toObject().value(QStringLiteral("mean")).toDouble())
            + qint64(m.value(QStringLiteral("queryAttempts")).toObject().value(QStringLiteral("mean")).toDouble());
    }
    QVERIFY2(total > 900, qPrintable(QString::number(total))); // past one run's worst case: the sum decides
    // Exactly at the limit: runs.
    const CliResult at = runCli(exactSweep() + QStringList{QStringLiteral("--max-attempts"), QString::number(total)});
    QVERIFY2(at.exitCode == 0, at.err.constData());
    // One under: refused, with the estimate, the time and the flag that allows it.
    const CliResult over = runCli(exactSweep() + QStringList{QStringLiteral("--max-attempts"), QString::number(total - 1)});
    QCOMPARE(over.exitCode, 2);
    QVERIFY(over.out.isEmpty());
    const QString line = QString::fromUtf8(over.err);
    QCOMPARE(line.count(QLatin1Char('\n')), 1);
    QVERIFY2(line.startsWith(QStringLiteral("retrylab: sweep: this sweep is expected to make about %1 HTTP requests (8 runs, about %2 each), ")
                                     .arg(total)
                                     .arg(total / 8)),
             qPrintable(line));
    QVERIFY2(line.contains(QRegularExpression(QStringLiteral("(under a second|about \\d+ (s|min|h|days)) at this machine's measured rate"))),
             qPrintable(line));
    QVERIFY2(line.endsWith(QStringLiteral("over the limit of %1: --max-attempts %2 to allow\n").arg(total - 1).arg(total)), qPrintable(line));
}

void TestSweepCost::theIssueSweepIsRefusedWithItsTime()
{
    // The sweep of the issue: each run within the per-run limit, 200,000 of them far past the whole
    // sweep's default limit: refused at once, in hours.
    const CliResult r = runCli({QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                QStringLiteral("--set"), QStringLiteral("network.responseLoss=0.3"), QStringLiteral("--param"),
                                QStringLiteral("workload.orders"), QStringLiteral("--from"), QStringLiteral("1000000"),
                                QStringLiteral("--to"), QStringLiteral("1000000"), QStringLiteral("--steps"), QStringLiteral("1000"),
                                QStringLiteral("--seeds"), QStringLiteral("200")});
    QCOMPARE(r.exitCode, 2);
    const QString line = QString::fromUtf8(r.err);
    QVERIFY2(line.contains(QRegularExpression(QStringLiteral("^retrylab: sweep: this sweep is expected to make about 2\\.\\de11 HTTP requests "
                                                             "\\(200000 runs, about 1\\.\\de6 each\\), about \\d+ (h|days) at this machine's "
                                                             "measured rate \\([0-9.e]+ requests/s\\); over the limit of 1e9: "
                                                             "--max-attempts 2\\.\\de11 to allow\\n$"))),
             qPrintable(line));
}

void TestSweepCost::progressOnlyOnATerminal()
{
    // ~100 runs of 20,000 orders: a few seconds, many progress lines.
    const QStringList args{QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                           QStringLiteral("--set"), QStringLiteral("workload.orders=20000"), QStringLiteral("--param"),
                           QStringLiteral("network.responseLoss"), QStringLiteral("--from"), QStringLiteral("0"),
                           QStringLiteral("--to"), QStringLiteral("0.5"), QStringLiteral("--steps"), QStringLiteral("20"),
                           QStringLiteral("--seeds"), QStringLiteral("5")};
    const CliResult piped = runCli(args);
    QCOMPARE(piped.exitCode, 0);
    QVERIFY2(piped.err.isEmpty(), piped.err.constData()); // not a terminal: nothing on stderr
    const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
    if (script.isEmpty())
        QSKIP("script(1) is not installed: no terminal to run under");
    QStringList quoted;
    for (const QString &a : QStringList{retrylab::test::retrylabBin(), QStringLiteral("--lang"), QStringLiteral("en")} + args)
        quoted << QLatin1Char('\'') + a + QLatin1Char('\'');
    QProcess process;
    // stdout to /dev/null: what script records is the terminal's stderr.
    process.start(script, {QStringLiteral("-qec"), quoted.join(QLatin1Char(' ')) + QStringLiteral(" >/dev/null"), QStringLiteral("/dev/null")});
    QVERIFY(process.waitForFinished(240000));
    const QString tty = QString::fromUtf8(process.readAllStandardOutput());
    QVERIFY2(tty.contains(QRegularExpression(QStringLiteral("\\rsweep: \\d+/100 runs \\(\\d+%\\), (under a second|about \\d+ (s|min)) left"))),
             qPrintable(tty.left(400)));
}

void TestSweepCost::interruptPrintsThePointsFinished()
{
    // Four quick values, then six heavy ones: Ctrl+C once the process has spent some CPU finds
    // the quick points done and the heavy ones not.
    const QStringList quick{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4")};
    QStringList values = quick;
    for (int i = 0; i < 6; ++i)
        values << QStringLiteral("300000");
    const QStringList head{QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("sweep"), QStringLiteral("--scenario"),
                           QStringLiteral("ghost-request"), QStringLiteral("--param"), QStringLiteral("workload.orders"),
                           QStringLiteral("--seeds"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("json"),
                           QStringLiteral("--values")};
    QProcess process;
    process.start(retrylab::test::retrylabBin(), head + QStringList{values.join(QLatin1Char(','))});
    QVERIFY(process.waitForStarted(30000));
    // Past start-up and the pilot (the handler is in: a sanitizer build spends seconds of CPU before
    // it), then half a second of CPU more: inside the heavy runs.
    QTRY_VERIFY_WITH_TIMEOUT(catchesSigint(process.processId()) || process.state() != QProcess::Running, 120000);
    const long caught = cpuTicks(process.processId());
    QTRY_VERIFY_WITH_TIMEOUT(cpuTicks(process.processId()) >= caught + 50 || process.state() != QProcess::Running, 120000);
    QVERIFY2(process.state() == QProcess::Running, "the sweep ended before it could be interrupted");
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);
    const QByteArray err = process.readAllStandardError();
    QVERIFY2(err.startsWith("retrylab: sweep: interrupted: the output is partial, the "), err.constData());
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(process.readAllStandardOutput(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError); // valid JSON
    const QJsonObject partial = o.value(QStringLiteral("partial")).toObject();
    const QJsonArray points = o.value(QStringLiteral("points")).toArray();
    QCOMPARE(partial.value(QStringLiteral("pointsPlanned")).toInt(), 10);
    QCOMPARE(partial.value(QStringLiteral("pointsFinished")).toInt(), points.size());
    QVERIFY2(points.size() >= 4 && points.size() < 10, qPrintable(QString::number(points.size())));
    // The points printed are the whole sweep's first points, number for number.
    const CliResult first = runCli(head.mid(2) + QStringList{quick.join(QLatin1Char(','))});
    QCOMPARE(first.exitCode, 0);
    const QJsonArray expected = QJsonDocument::fromJson(first.out).object().value(QStringLiteral("points")).toArray();
    for (int i = 0; i < 4; ++i)
        QCOMPARE(points.at(i), expected.at(i));
}

QTEST_GUILESS_MAIN(TestSweepCost)
#include "tst_sweepcost.moc"
