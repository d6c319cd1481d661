// The `retrylab` command line as scripts see it: exit codes, stderr lines, output formats.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct CliResult
{
    int exitCode = -1;
    bool crashed = true;
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList &arguments)
{
    QProcess process;
    process.setProgram(QStringLiteral(RETRYLAB_BIN));
    process.setArguments(arguments);
    process.start();
    CliResult result;
    if (!process.waitForStarted(30000)) {
        result.err = "could not start " RETRYLAB_BIN;
        return result;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        result.err = "timed out";
        return result;
    }
    result.exitCode = process.exitCode();
    result.crashed = process.exitStatus() != QProcess::NormalExit;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QJsonObject parseObject(const QByteArray &bytes)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return QJsonObject();
    return doc.object();
}

QJsonObject runJson(const QStringList &extra)
{
    QStringList args{QStringLiteral("run"), QStringLiteral("--format"), QStringLiteral("json")};
    const CliResult r = runCli(args + extra);
    if (r.exitCode != 0)
        qWarning("retrylab failed: %s", r.err.constData());
    return parseObject(r.out);
}

QByteArrayList lines(const QByteArray &bytes)
{
    QByteArrayList result;
    for (const QByteArray &line : bytes.split('\n')) {
        if (!line.trimmed().isEmpty())
            result << line;
    }
    return result;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void exitCodes_data();
    void exitCodes();
    void listPresets();
    void listJson();
    void helpForEveryCommand_data();
    void helpForEveryCommand();
    void runJsonHasContractKeys();
    void runTable();
    void runCsvHasHeaderAndOneRow();
    void traceWritesJsonl();
    void traceToUnwritablePathFails();
    void duplicatesDependOnTheFix_data();
    void duplicatesDependOnTheFix();
    void sameSeedSameOutput();
    void seedFlagChangesTheRun();
    void sweepJsonHasPoints();
    void sweepCsv();

private:
    QTemporaryDir m_dir;
};

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile malformed(m_dir.filePath(QStringLiteral("malformed.json")));
    QVERIFY(malformed.open(QIODevice::WriteOnly));
    malformed.write("{ \"schema\": 1, \"name\": ");
    malformed.close();
    QFile badField(m_dir.filePath(QStringLiteral("bad-field.json")));
    QVERIFY(badField.open(QIODevice::WriteOnly));
    badField.write(R"({"schema": 1, "name": "bad", "client": {"transport": {"total": "three"}}})");
    badField.close();
}

void TestCli::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // must appear on stderr

    const QString ghost = QStringLiteral("ghost-request");
    const QString malformed = m_dir.filePath(QStringLiteral("malformed.json"));
    const QString badField = m_dir.filePath(QStringLiteral("bad-field.json"));
    auto run = [&](QStringList extra) { return QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), ghost} + extra; };
    auto sweep = [&](QStringList extra) {
        return QStringList{QStringLiteral("sweep"), QStringLiteral("--scenario"), ghost} + extra;
    };

    QTest::addRow("unknown-command") << QStringList{QStringLiteral("frobnicate")} << 2 << QStringLiteral("frobnicate");
    QTest::addRow("unknown-flag") << run({QStringLiteral("--bogus")}) << 2 << QStringLiteral("bogus");
    QTest::addRow("unexpected-argument") << run({QStringLiteral("extra")}) << 2 << QStringLiteral("extra");
    QTest::addRow("missing-scenario") << QStringList{QStringLiteral("run")} << 2 << QStringLiteral("--scenario");
    QTest::addRow("unknown-preset") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"),
                                                   QStringLiteral("no-such-preset")}
                                    << 2 << QStringLiteral("no-such-preset");
    QTest::addRow("missing-file") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"),
                                                 m_dir.filePath(QStringLiteral("absent.json"))}
                                  << 2 << QStringLiteral("absent.json");
    QTest::addRow("malformed-file") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), malformed} << 2
                                    << malformed;
    QTest::addRow("bad-field-in-file") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), badField}
                                       << 2 << QStringLiteral("client.transport.total");
    const QString data = QStringLiteral(RETRYLAB_TEST_DATA "/scenarios/");
    QTest::addRow("file-wrong-type") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"),
                                                    data + QStringLiteral("wrong-type.json")}
                                     << 2 << QStringLiteral("client.transport.total: expected an integer");
    QTest::addRow("file-out-of-range") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"),
                                                      data + QStringLiteral("out-of-range.json")}
                                       << 2 << QStringLiteral("network.responseLoss");
    QTest::addRow("file-unknown-enum") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"),
                                                      data + QStringLiteral("unknown-enum.json")}
                                       << 2 << QStringLiteral("server.idempotency.mode");
    QTest::addRow("file-not-an-object") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"),
                                                       data + QStringLiteral("not-object.json")}
                                        << 2 << QStringLiteral("not-object.json");
    QTest::addRow("bad-set-path") << run({QStringLiteral("--set"), QStringLiteral("network.noSuchField=1")}) << 2
                                  << QStringLiteral("network.noSuchField");
    QTest::addRow("bad-set-value") << run({QStringLiteral("--set"), QStringLiteral("network.responseLoss=abc")}) << 2
                                   << QStringLiteral("network.responseLoss");
    QTest::addRow("set-out-of-range") << run({QStringLiteral("--set"), QStringLiteral("client.transport.total=99")})
                                      << 2 << QStringLiteral("client.transport.total");
    QTest::addRow("set-without-equals") << run({QStringLiteral("--set"), QStringLiteral("network.responseLoss")}) << 2
                                        << QStringLiteral("--set");
    QTest::addRow("format-bogus") << run({QStringLiteral("--format"), QStringLiteral("bogus")}) << 2
                                  << QStringLiteral("--format");
    QTest::addRow("seed-negative") << run({QStringLiteral("--seed"), QStringLiteral("-1")}) << 2
                                   << QStringLiteral("--seed");
    QTest::addRow("seed-not-a-number") << run({QStringLiteral("--seed"), QStringLiteral("abc")}) << 2
                                       << QStringLiteral("--seed");
    QTest::addRow("seed-missing-value") << run({QStringLiteral("--seed")}) << 2 << QStringLiteral("seed");
    QTest::addRow("list-format-csv") << QStringList{QStringLiteral("list"), QStringLiteral("--format"),
                                                    QStringLiteral("csv")}
                                     << 2 << QStringLiteral("--format");
    QTest::addRow("sweep-missing-param") << sweep({QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"),
                                                   QStringLiteral("1"), QStringLiteral("--steps"), QStringLiteral("3")})
                                         << 2 << QStringLiteral("--param");
    QTest::addRow("sweep-unknown-param") << sweep({QStringLiteral("--param"), QStringLiteral("network.nope"),
                                                   QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"),
                                                   QStringLiteral("1"), QStringLiteral("--steps"), QStringLiteral("3")})
                                         << 2 << QStringLiteral("network.nope");
    QTest::addRow("sweep-steps-zero") << sweep({QStringLiteral("--param"), QStringLiteral("network.responseLoss"),
                                                QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"),
                                                QStringLiteral("1"), QStringLiteral("--steps"), QStringLiteral("0")})
                                      << 2 << QStringLiteral("--steps");
    QTest::addRow("sweep-from-not-a-number") << sweep({QStringLiteral("--param"), QStringLiteral("network.responseLoss"),
                                                       QStringLiteral("--from"), QStringLiteral("x"),
                                                       QStringLiteral("--to"), QStringLiteral("1"),
                                                       QStringLiteral("--steps"), QStringLiteral("3")})
                                             << 2 << QStringLiteral("--from");
    QTest::addRow("sweep-value-out-of-range") << sweep({QStringLiteral("--param"), QStringLiteral("network.responseLoss"),
                                                        QStringLiteral("--from"), QStringLiteral("0"),
                                                        QStringLiteral("--to"), QStringLiteral("2"),
                                                        QStringLiteral("--steps"), QStringLiteral("3")})
                                              << 2 << QStringLiteral("network.responseLoss");
    QTest::addRow("serve-not-available") << QStringList{QStringLiteral("serve")} << 1 << QStringLiteral("serve");
}

void TestCli::exitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);

    const CliResult r = runCli(args);
    QVERIFY2(!r.crashed, r.err.constData());
    QCOMPARE(r.exitCode, exitCode);
    const QByteArrayList errLines = lines(r.err);
    QVERIFY2(!errLines.isEmpty(), "an error must say what was wrong");
    for (const QByteArray &line : errLines)
        QVERIFY2(line.startsWith("retrylab: "), line.constData());
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    // Errors are not results: nothing on stdout.
    QVERIFY2(r.out.isEmpty(), r.out.constData());
}

void TestCli::listPresets()
{
    const CliResult r = runCli({QStringLiteral("list")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    const QByteArrayList rows = lines(r.out);
    QVERIFY(rows.size() >= 2);
    for (const char *preset : {"ghost-request", "layered-fix"}) {
        bool found = false;
        for (const QByteArray &row : rows)
            found = found || (row.startsWith(preset) && row.mid(int(qstrlen(preset))).trimmed().size() > 0);
        QVERIFY2(found, preset); // named and followed by a title
    }
}

void TestCli::listJson()
{
    const CliResult r = runCli({QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonArray presets = QJsonDocument::fromJson(r.out).array();
    QVERIFY(presets.size() >= 2);
    QStringList names;
    for (const QJsonValue &v : presets) {
        names << v[QLatin1String("name")].toString();
        QVERIFY2(!v[QLatin1String("title")].toString().isEmpty(), qPrintable(names.last()));
    }
    QVERIFY(names.contains(QStringLiteral("ghost-request")));
    QVERIFY(names.contains(QStringLiteral("layered-fix")));
}

void TestCli::helpForEveryCommand_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::addRow("top-level") << QStringList{QStringLiteral("--help")} << QStringLiteral("sweep");
    QTest::addRow("help-word") << QStringList{QStringLiteral("help")} << QStringLiteral("run");
    QTest::addRow("run") << QStringList{QStringLiteral("run"), QStringLiteral("--help")} << QStringLiteral("--trace");
    QTest::addRow("help-run") << QStringList{QStringLiteral("help"), QStringLiteral("run")} << QStringLiteral("--trace");
    QTest::addRow("sweep") << QStringList{QStringLiteral("sweep"), QStringLiteral("--help")}
                           << QStringLiteral("--param");
    QTest::addRow("list") << QStringList{QStringLiteral("list"), QStringLiteral("-h")} << QStringLiteral("--format");
    QTest::addRow("serve") << QStringList{QStringLiteral("serve"), QStringLiteral("--help")}
                           << QStringLiteral("--port");
    QTest::addRow("version") << QStringList{QStringLiteral("--version")} << QStringLiteral("retrylab");
}

void TestCli::helpForEveryCommand()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const CliResult r = runCli(args);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(QString::fromUtf8(r.out).contains(mentions), r.out.constData());
}

void TestCli::runJsonHasContractKeys()
{
    const QJsonObject o = runJson({QStringLiteral("--scenario"), QStringLiteral("ghost-request")});
    QCOMPARE(o.value(QLatin1String("scenario")).toString(), QStringLiteral("ghost-request"));
    QVERIFY(o.value(QLatin1String("seed")).isDouble());
    QVERIFY(o.value(QLatin1String("worstCase")).toString().contains(QLatin1Char('=')));
    const QJsonObject m = o.value(QLatin1String("metrics")).toObject();
    const char *const keys[] = {"logicalOperations", "httpAttempts", "records", "duplicates", "duplicatesOutstanding",
                                "orphans", "lost", "replays", "conflicts409", "mismatch422", "rejected400",
                                "throttled429", "clientSucceeded", "clientFailed", "amplification",
                                "maxAttemptsPerOp", "worstCaseAttemptsPerOp"};
    for (const char *key : keys)
        QVERIFY2(m.value(QLatin1String(key)).isDouble(), key);
    const QJsonObject latency = m.value(QLatin1String("latencyMs")).toObject();
    for (const char *key : {"p50", "p95", "p99"})
        QVERIFY2(latency.value(QLatin1String(key)).isDouble(), key);
    QVERIFY(m.value(QLatin1String("logicalOperations")).toInt() > 0);
    QCOMPARE(m.value(QLatin1String("lost")).toInt(), 0);
    // The formula's product is the metric.
    QVERIFY(o.value(QLatin1String("worstCase"))
                    .toString()
                    .endsWith(QString::number(m.value(QLatin1String("worstCaseAttemptsPerOp")).toInt())));
}

void TestCli::runTable()
{
    const CliResult r = runCli({QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request")});
    QCOMPARE(r.exitCode, 0);
    const QString text = QString::fromUtf8(r.out);
    QVERIFY(text.startsWith(QStringLiteral("ghost-request")));
    QVERIFY(text.contains(QStringLiteral("seed 42")) || text.contains(QStringLiteral("seed ")));
    for (const char *metric : {"duplicates", "httpAttempts", "amplification", "orphans"}) {
        bool row = false;
        for (const QByteArray &line : lines(r.out))
            row = row || line.startsWith(metric);
        QVERIFY2(row, metric);
    }
}

void TestCli::runCsvHasHeaderAndOneRow()
{
    const CliResult r = runCli({QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 0);
    const QByteArrayList rows = lines(r.out);
    QCOMPARE(rows.size(), 2);
    const QByteArrayList header = rows[0].split(',');
    const QByteArrayList values = rows[1].split(',');
    QCOMPARE(values.size(), header.size());
    QVERIFY(header.contains("duplicates"));
    QVERIFY(header.contains("httpAttempts"));
    QCOMPARE(values[header.indexOf("scenario")], QByteArray("ghost-request"));
    bool ok = false;
    values[header.indexOf("httpAttempts")].toInt(&ok);
    QVERIFY(ok);
}

void TestCli::traceWritesJsonl()
{
    const QString file = m_dir.filePath(QStringLiteral("trace.jsonl"));
    const CliResult r = runCli({QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                QStringLiteral("--trace"), file});
    QCOMPARE(r.exitCode, 0);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArrayList events = lines(f.readAll());
    QVERIFY(!events.isEmpty());
    for (const QByteArray &line : events) {
        const QJsonObject e = parseObject(line);
        QVERIFY2(!e.isEmpty(), line.constData());
        QVERIFY2(e.contains(QLatin1String("t")) && e.contains(QLatin1String("kind")), line.constData());
    }
}

void TestCli::traceToUnwritablePathFails()
{
    const QString file = m_dir.filePath(QStringLiteral("no/such/dir/trace.jsonl"));
    const CliResult r = runCli({QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                QStringLiteral("--trace"), file});
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, 1);
    const QByteArrayList errLines = lines(r.err);
    QCOMPARE(errLines.size(), 1);
    QVERIFY(errLines[0].startsWith("retrylab: "));
    QVERIFY2(QString::fromUtf8(errLines[0]).contains(file), errLines[0].constData());
}

void TestCli::duplicatesDependOnTheFix_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("duplicates");
    QTest::addRow("ghost-request-duplicates") << QStringLiteral("ghost-request") << true;
    QTest::addRow("layered-fix-no-duplicates") << QStringLiteral("layered-fix") << false;
}

void TestCli::duplicatesDependOnTheFix()
{
    QFETCH(QString, preset);
    QFETCH(bool, duplicates);
    const QJsonObject o = runJson({QStringLiteral("--scenario"), preset, QStringLiteral("--set"),
                                   QStringLiteral("network.responseLoss=0.3")});
    const QJsonObject m = o.value(QLatin1String("metrics")).toObject();
    QVERIFY(m.value(QLatin1String("records")).toInt() > 0);
    const int found = m.value(QLatin1String("duplicates")).toInt(-1);
    QVERIFY(found >= 0);
    if (duplicates)
        QVERIFY2(found > 0, qPrintable(QString::number(found)));
    else
        QCOMPARE(found, 0);
}

void TestCli::sameSeedSameOutput()
{
    const QStringList args{QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                           QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--format"),
                           QStringLiteral("json")};
    const CliResult a = runCli(args);
    const CliResult b = runCli(args);
    QCOMPARE(a.exitCode, 0);
    QVERIFY(!a.out.isEmpty());
    QCOMPARE(a.out, b.out);
    QCOMPARE(parseObject(a.out).value(QLatin1String("seed")).toInt(), 7);
}

void TestCli::seedFlagChangesTheRun()
{
    // Over several seeds, a lossy scenario must not give one identical result: --seed is applied.
    QSet<QByteArray> outputs;
    for (const char *seed : {"1", "2", "3", "4"}) {
        const QJsonObject o = runJson({QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                       QStringLiteral("--seed"), QLatin1String(seed)});
        outputs << QJsonDocument(o.value(QLatin1String("metrics")).toObject()).toJson(QJsonDocument::Compact);
    }
    QVERIFY(outputs.size() > 1);
}

void TestCli::sweepJsonHasPoints()
{
    const CliResult r = runCli({QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                QStringLiteral("--param"), QStringLiteral("network.responseLoss"),
                                QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"),
                                QStringLiteral("0.5"), QStringLiteral("--steps"), QStringLiteral("3"),
                                QStringLiteral("--seeds"), QStringLiteral("4"), QStringLiteral("--format"),
                                QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = parseObject(r.out);
    QCOMPARE(o.value(QLatin1String("param")).toString(), QStringLiteral("network.responseLoss"));
    const QJsonArray points = o.value(QLatin1String("points")).toArray();
    QCOMPARE(points.size(), 3);
    const double expected[] = {0.0, 0.25, 0.5};
    for (int i = 0; i < points.size(); ++i) {
        const QJsonObject p = points[i].toObject();
        QCOMPARE(p.value(QLatin1String("value")).toDouble(), expected[i]);
        const QJsonObject metrics = p.value(QLatin1String("metrics")).toObject();
        for (const char *key : {"duplicates", "records", "amplification", "httpAttempts", "clientFailed", "orphans"}) {
            const QJsonObject stat = metrics.value(QLatin1String(key)).toObject();
            QVERIFY2(stat.contains(QLatin1String("mean")) && stat.contains(QLatin1String("min"))
                             && stat.contains(QLatin1String("max")),
                     key);
            const double mean = stat.value(QLatin1String("mean")).toDouble();
            QVERIFY(stat.value(QLatin1String("min")).toDouble() <= mean);
            QVERIFY(mean <= stat.value(QLatin1String("max")).toDouble());
        }
    }
    // No loss, no duplicates; half the responses lost, some.
    QCOMPARE(points[0][QLatin1String("metrics")][QLatin1String("duplicates")][QLatin1String("max")].toDouble(), 0.0);
    QVERIFY(points[2][QLatin1String("metrics")][QLatin1String("duplicates")][QLatin1String("mean")].toDouble() > 0);
}

void TestCli::sweepCsv()
{
    const CliResult r = runCli({QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                QStringLiteral("--param"), QStringLiteral("client.wrapper.maxAttempts"),
                                QStringLiteral("--from"), QStringLiteral("1"), QStringLiteral("--to"),
                                QStringLiteral("3"), QStringLiteral("--steps"), QStringLiteral("3"),
                                QStringLiteral("--seeds"), QStringLiteral("2"), QStringLiteral("--format"),
                                QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 0);
    const QByteArrayList rows = lines(r.out);
    QCOMPARE(rows.size(), 4);
    const QByteArrayList header = rows[0].split(',');
    QCOMPARE(header.first(), QByteArray("value"));
    QVERIFY(header.contains("duplicates_mean"));
    QVERIFY(header.contains("duplicates_min"));
    QVERIFY(header.contains("duplicates_max"));
    for (int i = 1; i < rows.size(); ++i) {
        const QByteArrayList cells = rows[i].split(',');
        QCOMPARE(cells.size(), header.size());
        QCOMPARE(cells.first().toInt(), i); // integer parameter: 1, 2, 3
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
