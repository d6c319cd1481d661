// What the command line repeats of its input (a flag's value, a path, a command word, a scenario's
// name) reaches the terminal escaped and cut: no input can clear the screen, reorder the line or
// flood it.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList &arguments)
{
    QProcess process;
    process.setProgram(QStringLiteral(RETRYLAB_BIN));
    process.setArguments(QStringList{QStringLiteral("--lang"), QStringLiteral("en")} + arguments);
    process.start();
    CliResult result;
    if (!process.waitForStarted(30000) || !process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// No C0 control but the line ends, no DEL, no C1 control, no bidi override (U+202E in UTF-8).
bool raw(const QByteArray &bytes)
{
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && u != '\n') || u == 0x7f)
            return true;
    }
    return bytes.contains("\xe2\x80\xae") || QString::fromUtf8(bytes).contains(QRegularExpression(QStringLiteral("[\\x{80}-\\x{9f}]")));
}

} // namespace

class TestEcho : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void errorsEscapeWhatTheyRepeat_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected"); // the whole stderr line

        const QString esc = QStringLiteral("\x1b[2J");
        QTest::addRow("format") << QStringList{QStringLiteral("run"), QStringLiteral("--format"), esc}
                                << QStringLiteral("retrylab: run: --format: expected table, json or csv, got '\\u001b[2J'");
        QTest::addRow("command") << QStringList{QStringLiteral("bogus\a")}
                                 << QStringLiteral("retrylab: unknown command 'bogus\\u0007' (expected run, sweep, compare, "
                                                   "list, lessons, fields, serve, proxy or help)");
        QTest::addRow("unknown-flag") << QStringList{QStringLiteral("list"), QStringLiteral("--x\x1b")}
                                      << QStringLiteral("retrylab: list: unknown option 'x\\u001b' (see 'retrylab list --help')");
        QTest::addRow("stray-argument") << QStringList{QStringLiteral("fields"), QStringLiteral("a\u202eb")}
                                        << QStringLiteral("retrylab: fields: unexpected argument 'a\\u202eb' (see 'retrylab fields --help')");
        QTest::addRow("scenario-path") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("no/\x1b[31mred.json")}
                                       << QStringLiteral("retrylab: run: --scenario: no such scenario file \"no/\\u001b[31mred.json\"");
        QTest::addRow("seed") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                             QStringLiteral("--seed"), QStringLiteral("1\x7f")}
                              << QStringLiteral("retrylab: run: --seed: expected a non-negative integer, got '1\\u007f'");
        QTest::addRow("set") << QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                            QStringLiteral("--set"), QStringLiteral("\x1b")}
                             << QStringLiteral("retrylab: run: --set '\\u001b': expected path=value, e.g. network.responseLoss=0.3");
        QTest::addRow("listen") << QStringList{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("\u202e1.0.0.127")}
                                << QStringLiteral("retrylab: serve: --listen: expected an IP address such as 127.0.0.1, 0.0.0.0 "
                                                  "or ::1, got '\\u202e1.0.0.127'");
        // Cut after 200 characters, with an ellipsis.
        QTest::addRow("long-value") << QStringList{QStringLiteral("lessons"), QStringLiteral("--format"), QString(5000, QLatin1Char('x'))}
                                    << QStringLiteral("retrylab: lessons: --format: expected table or json, got '%1\u2026'")
                                               .arg(QString(200, QLatin1Char('x')));
        QTest::addRow("long-path") << QStringList{QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("ghost-request"),
                                                  QStringLiteral("--param"), QStringLiteral("network.") + QString(300, QLatin1Char('y')),
                                                  QStringLiteral("--values"), QStringLiteral("1")}
                                   << QStringLiteral("retrylab: sweep: --param: unknown field network.%1\u2026 (see 'retrylab "
                                                     "fields' for every path)")
                                              .arg(QString(192, QLatin1Char('y')));
    }

    void errorsEscapeWhatTheyRepeat()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(!raw(r.err), r.err.toPercentEncoding(" '\"/:.,=()-").constData());
        QCOMPARE(QString::fromUtf8(r.err), expected + QLatin1Char('\n'));
    }

    // A scenario file's name may hold any character; the table shows it escaped, JSON encodes it.
    void tablesEscapeTheScenarioName()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("evil.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{\"schema\": 1, \"name\": \"\\u001b[2Jevil\\u202e\", \"workload\": {\"orders\": 2}}");
        out.close();
        const CliResult table = runCli({QStringLiteral("run"), QStringLiteral("--scenario"), file});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(!raw(table.out), table.out.left(200).toPercentEncoding(" '\"/:.,=()-\n").constData());
        QVERIFY2(table.out.startsWith("\\u001b[2Jevil\\u202e (seed "), table.out.left(200).constData());
        const CliResult json = runCli({QStringLiteral("run"), QStringLiteral("--scenario"), file, QStringLiteral("--format"),
                                       QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        QVERIFY2(json.out.contains("\"scenario\": \"\\u001b[2Jevil"), json.out.left(300).constData());
    }
};

QTEST_GUILESS_MAIN(TestEcho)
#include "tst_echo.moc"
