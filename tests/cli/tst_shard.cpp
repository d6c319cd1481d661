// `retrylab sweep --shard K/N` and `sweep --merge FILES` (issue 23 item 5): the slices of any N
// merged give the bytes one machine prints for the whole sweep; merging what is not one whole
// sweep is refused with a clear line.
#include "cli/clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace {

using clirun::CliResult;
using clirun::runCli;

// A 2-D sweep with lost responses (so seeds differ and every statistic is a real double), 5 x 3
// points: more points than some N, fewer than others' multiples.
QStringList sweepArgs()
{
    return {QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
            QStringLiteral("--param"), QStringLiteral("network.responseLoss"), QStringLiteral("--from"),
            QStringLiteral("0.05"), QStringLiteral("--to"), QStringLiteral("0.45"), QStringLiteral("--steps"),
            QStringLiteral("5"), QStringLiteral("--param2"), QStringLiteral("client.business.backoff.jitter"),
            QStringLiteral("--values2"), QStringLiteral("none,full,equal"), QStringLiteral("--seeds"), QStringLiteral("3")};
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return path;
}

// The shards of sweepArgs() (plus `extra`) in N slices, written to files; empty on a failure.
QStringList shardFiles(const QTemporaryDir &dir, int n, const QStringList &extra = {})
{
    QStringList files;
    for (int k = 1; k <= n; ++k) {
        const CliResult r = runCli(sweepArgs() + extra + QStringList{QStringLiteral("--shard"), QStringLiteral("%1/%2").arg(k).arg(n)});
        if (r.exitCode != 0) {
            qWarning("shard %d/%d: %s", k, n, r.err.constData());
            return {};
        }
        files << write(dir, QStringLiteral("shard-%1-%2%3.json").arg(n).arg(k).arg(extra.isEmpty() ? QString() : QStringLiteral("x")), r.out);
    }
    return files;
}

} // namespace

class TestShard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mergedShardsEqualTheWholeSweep_data();
    void mergedShardsEqualTheWholeSweep();
    void shardIsDeterministic();
    void badShardIsRefused_data();
    void badShardIsRefused();
    void mergeRefusesWhatIsNotOneSweep();
};

void TestShard::mergedShardsEqualTheWholeSweep_data()
{
    QTest::addColumn<int>("n");
    QTest::addRow("one") << 1;
    QTest::addRow("two") << 2;
    QTest::addRow("three") << 3;
    QTest::addRow("seven") << 7;
}

void TestShard::mergedShardsEqualTheWholeSweep()
{
    QFETCH(int, n);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList files = shardFiles(dir, n);
    QCOMPARE(files.size(), n);
    std::reverse(files.begin(), files.end()); // any order: a scheduler's, a shell glob's
    for (const QString &format : {QStringLiteral("json"), QStringLiteral("table"), QStringLiteral("csv")}) {
        const CliResult whole = runCli(sweepArgs() + QStringList{QStringLiteral("--format"), format});
        QCOMPARE(whole.exitCode, 0);
        const CliResult merged = runCli(QStringList{QStringLiteral("sweep"), QStringLiteral("--merge"), QStringLiteral("--format"), format} + files);
        QVERIFY2(merged.exitCode == 0, merged.err.constData());
        QVERIFY(merged.err.isEmpty());
        // Byte for byte what one machine prints.
        QCOMPARE(merged.out, whole.out);
    }
}

void TestShard::shardIsDeterministic()
{
    // A slice is a function of K, N and the sweep: the same bytes every time, and whole points
    // (point i in slice i mod N + 1), each with all its seeds.
    const QStringList args = sweepArgs() + QStringList{QStringLiteral("--shard"), QStringLiteral("2/4")};
    const CliResult a = runCli(args);
    const CliResult b = runCli(args);
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.out, b.out);
    const QJsonObject o = QJsonDocument::fromJson(a.out).object();
    const QJsonObject shard = o.value(QStringLiteral("shard")).toObject();
    QCOMPARE(shard.value(QStringLiteral("index")).toInt(), 2);
    QCOMPARE(shard.value(QStringLiteral("count")).toInt(), 4);
    QCOMPARE(shard.value(QStringLiteral("points")).toInt(), 15);
    QCOMPARE(o.value(QStringLiteral("points")).toArray().size(), 4); // points 1, 5, 9, 13
    const QJsonObject first = o.value(QStringLiteral("points")).toArray().at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("label2")).toString(), QStringLiteral("full")); // point 1: loss 0.05, full
}

void TestShard::badShardIsRefused_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("expected");
    QTest::addRow("k-past-n") << QStringList{QStringLiteral("--shard"), QStringLiteral("4/3")}
                              << QStringLiteral("retrylab: sweep: --shard: expected K/N, the K-th of N slices, with 1 <= K <= N "
                                                "<= 10000 (e.g. 3/8), got '4/3'\n");
    QTest::addRow("zero") << QStringList{QStringLiteral("--shard"), QStringLiteral("0/0")}
                          << QStringLiteral("retrylab: sweep: --shard: expected K/N, the K-th of N slices, with 1 <= K <= N "
                                            "<= 10000 (e.g. 3/8), got '0/0'\n");
    QTest::addRow("escaped") << QStringList{QStringLiteral("--shard"), QStringLiteral("1/\x1b]0;x\x07")}
                             << QStringLiteral("retrylab: sweep: --shard: expected K/N, the K-th of N slices, with 1 <= K <= N "
                                               "<= 10000 (e.g. 3/8), got '1/\\u001b]0;x\\u0007'\n");
    QTest::addRow("table") << QStringList{QStringLiteral("--shard"), QStringLiteral("1/2"), QStringLiteral("--format"), QStringLiteral("table")}
                           << QStringLiteral("retrylab: sweep: --shard prints JSON for --merge; leave out --format or give "
                                             "--format json\n");
}

void TestShard::badShardIsRefused()
{
    QFETCH(QStringList, extra);
    QFETCH(QString, expected);
    const CliResult r = runCli(sweepArgs() + extra);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QString::fromUtf8(r.err), expected);
}

void TestShard::mergeRefusesWhatIsNotOneSweep()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList three = shardFiles(dir, 3);
    QCOMPARE(three.size(), 3);
    const QStringList merge{QStringLiteral("sweep"), QStringLiteral("--merge")};
    const auto refused = [&](const QStringList &files, const QString &part) {
        const CliResult r = runCli(merge + files);
        if (r.exitCode != 2 || !r.out.isEmpty() || !QString::fromUtf8(r.err).contains(part) || r.err.count('\n') != 1) {
            qWarning("exit %d, stderr: %s", r.exitCode, r.err.constData());
            return false;
        }
        return true;
    };
    // Missing, duplicate, partial, another sweep, not a shard, not a file.
    QVERIFY(refused({three.at(0), three.at(2)}, QStringLiteral("missing shard(s) 2/3 of sweep ")));
    QVERIFY(refused({three.at(0), three.at(1), three.at(2), three.at(1)},
                    QStringLiteral("shard 2/3 is given twice: \"%1\" and \"%1\"").arg(three.at(1))));
    const QStringList other = shardFiles(dir, 3, {QStringLiteral("--seed"), QStringLiteral("7")});
    QCOMPARE(other.size(), 3);
    QVERIFY(refused({three.at(0), other.at(1), three.at(2)}, QStringLiteral("are slices of different sweeps")));
    const QStringList two = shardFiles(dir, 2);
    QVERIFY(refused({three.at(0), two.at(1), three.at(2)}, QStringLiteral("are slices of different sweeps")));
    QJsonObject partial = QJsonDocument::fromJson([&] {
                              QFile f(three.at(1));
                              return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                          }())
                                  .object();
    partial.insert(QStringLiteral("partial"), QJsonObject{{QStringLiteral("pointsFinished"), 1}});
    const QString partialFile = write(dir, QStringLiteral("partial.json"), QJsonDocument(partial).toJson());
    QVERIFY(refused({three.at(0), partialFile, three.at(2)}, QStringLiteral("(shard 2/3) is partial")));
    const CliResult whole = runCli(sweepArgs() + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
    const QString plain = write(dir, QStringLiteral("whole.json"), whole.out);
    QVERIFY(refused({plain}, QStringLiteral("is not the output of 'retrylab sweep ... --shard K/N'")));
    QVERIFY(refused({write(dir, QStringLiteral("junk.json"), "{\"points\": [")}, QStringLiteral("is not JSON (at byte")));
    QVERIFY(refused({dir.path()}, QStringLiteral("is not a regular file")));
    QVERIFY(refused({dir.filePath(QStringLiteral("nope.json"))}, QStringLiteral("no such file")));
    QVERIFY(refused({}, QStringLiteral("name the shards' JSON files")));
}

QTEST_GUILESS_MAIN(TestShard)
#include "tst_shard.moc"
