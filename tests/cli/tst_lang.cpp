// `retrylab --lang`: human-readable output in Chinese, machine formats byte for byte English.
#include "testpaths.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the binary in a C locale unless `locale` names another (LANG and LC_ALL).
CliResult runCli(const QStringList &arguments, const QString &locale = QStringLiteral("C.UTF-8"))
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LANG"), locale);
    env.insert(QStringLiteral("LC_ALL"), locale);
    env.remove(QStringLiteral("LANGUAGE"));
    if (!env.contains(QStringLiteral("QT_QPA_PLATFORM")))
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(env);
    process.setProgram(retrylab::test::retrylabBin());
    process.setArguments(arguments);
    process.start();
    CliResult result;
    if (!process.waitForStarted(30000) || !process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        result.err = "did not run";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QString text(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}

} // namespace

class TestLang : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The general help is Chinese: --lang is taken before the command dispatcher looks at argv.
    void generalHelpInChinese()
    {
        const CliResult zh = runCli({QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--help")});
        QCOMPARE(zh.exitCode, 0);
        QVERIFY2(text(zh.out).startsWith(QStringLiteral("RetryLab：关于重试与幂等性的实验室。超时不等于失败。")),
                 zh.out.constData());
        QVERIFY(text(zh.out).contains(QStringLiteral("退出码：0 成功，1 运行时错误，2 用法错误。")));
        const CliResult en = runCli({QStringLiteral("--lang=en"), QStringLiteral("--help")});
        QCOMPARE(en.exitCode, 0);
        QVERIFY(text(en.out).startsWith(QStringLiteral("RetryLab: a lab for retries and idempotency.")));
        QCOMPARE(en.out, runCli({QStringLiteral("--help")}).out);
    }

    // A command's help: our synopsis and options, and Qt's own words ("Options:") in Chinese.
    void commandHelpInChinese()
    {
        const CliResult r = runCli({QStringLiteral("run"), QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh_CN")});
        QCOMPARE(r.exitCode, 0);
        const QString out = text(r.out);
        QVERIFY2(out.startsWith(QStringLiteral("用法：retrylab run --scenario")), r.out.constData());
        QVERIFY(out.contains(QStringLiteral("随机种子（覆盖场景中的设置）。")));
        QVERIFY(out.contains(QStringLiteral("选项：")));
        QVERIFY(!out.contains(QStringLiteral("Random seed")));
    }

    // Without --lang the system locale decides; --lang wins over it.
    void systemLocaleDecides()
    {
        const CliResult zh = runCli({QStringLiteral("--help")}, QStringLiteral("zh_CN.UTF-8"));
        QVERIFY2(text(zh.out).contains(QStringLiteral("超时不等于失败")), zh.out.constData());
        const CliResult en = runCli({QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--help")},
                                    QStringLiteral("zh_CN.UTF-8"));
        QVERIFY(text(en.out).contains(QStringLiteral("A timeout is not a failure.")));
    }

    void badLanguageIsAUsageError_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << QStringList{QStringLiteral("--lang"), QStringLiteral("xx"), QStringLiteral("--help")}
                                 << QStringLiteral("retrylab: --lang: expected en or zh_CN, got 'xx'\n");
        QTest::newRow("in a command") << QStringList{QStringLiteral("run"), QStringLiteral("--lang=fr")}
                                      << QStringLiteral("retrylab: --lang: expected en or zh_CN, got 'fr'\n");
        QTest::newRow("no value") << QStringList{QStringLiteral("list"), QStringLiteral("--lang")}
                                  << QStringLiteral("retrylab: --lang: expected a language (en or zh_CN)\n");
    }

    void badLanguageIsAUsageError()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(text(r.err), message);
        QVERIFY(r.out.isEmpty());
    }

    void machineFormatsStayEnglish_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString scenario = QStringLiteral("--scenario");
        QTest::newRow("run json") << QStringList{QStringLiteral("run"), scenario, QStringLiteral("ghost-request"),
                                                 QStringLiteral("--format"), QStringLiteral("json")};
        QTest::newRow("run csv") << QStringList{QStringLiteral("run"), scenario, QStringLiteral("server-token"),
                                                QStringLiteral("--format"), QStringLiteral("csv")};
        QTest::newRow("run trace") << QStringList{QStringLiteral("run"), scenario, QStringLiteral("key-store-restart"),
                                                  QStringLiteral("--trace"), QStringLiteral("-")};
        QTest::newRow("run series") << QStringList{QStringLiteral("run"), scenario, QStringLiteral("ghost-request"),
                                                   QStringLiteral("--series"), QStringLiteral("1s"), QStringLiteral("--format"),
                                                   QStringLiteral("json")};
        QTest::newRow("sweep json") << QStringList{QStringLiteral("sweep"), scenario, QStringLiteral("stable-key"),
                                                   QStringLiteral("--param"), QStringLiteral("network.responseLoss"),
                                                   QStringLiteral("--values"), QStringLiteral("0,0.5"), QStringLiteral("--seeds"),
                                                   QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("json")};
        QTest::newRow("list json") << QStringList{QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("json")};
        QTest::newRow("fields json") << QStringList{QStringLiteral("fields"), QStringLiteral("--format"), QStringLiteral("json")};
    }

    // JSON, CSV and traces are read by programs: --lang zh_CN leaves every byte as in English.
    void machineFormatsStayEnglish()
    {
        QFETCH(QStringList, args);
        const CliResult en = runCli(args);
        QCOMPARE(en.exitCode, 0);
        QVERIFY(!en.out.isEmpty());
        const CliResult zh = runCli(QStringList{QStringLiteral("--lang"), QStringLiteral("zh_CN")} + args);
        QCOMPARE(zh.exitCode, 0);
        QCOMPARE(zh.out, en.out);
    }

    // The human table is Chinese, the metric names (which --metrics takes) stay as they are.
    void tableInChinese()
    {
        const CliResult r = runCli({QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("run"),
                                    QStringLiteral("--scenario"), QStringLiteral("ghost-request")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = text(r.out).split(QLatin1Char('\n'));
        QCOMPARE(lines.value(0), QStringLiteral("ghost-request - 幽灵请求：业务重试循环里的 @retry 重试装饰器（随机种子 42）"));
        // Two terminal columns per Chinese character: "指标" is as wide as "metric" and two more.
        QVERIFY2(lines.value(2).startsWith(QStringLiteral("指标                    值")), r.out.constData());
        QVERIFY(text(r.out).contains(QStringLiteral("\nduplicates ")));
    }

    void listInChinese()
    {
        const CliResult r = runCli({QStringLiteral("list"), QStringLiteral("--lang"), QStringLiteral("zh_CN")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(text(r.out).contains(QStringLiteral("stable-key          固定的幂等键：重试被重放，而不是重复执行\n")),
                 r.out.constData());
    }

    // The desktop lab's own flags: its --help and usage errors follow --lang too.
    void desktopFlagsInChinese()
    {
        CliResult r = runCli({QStringLiteral("--page"), QStringLiteral("timeline"), QStringLiteral("--help"),
                              QStringLiteral("--lang"), QStringLiteral("zh_CN")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(text(r.out).contains(QStringLiteral("RetryLab 桌面实验室：重试、超时与幂等性。")), r.out.constData());
        QVERIFY(text(r.out).contains(QStringLiteral("要打开的页面：timeline（默认）、charts、records 或 log。")));
        r = runCli({QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--page"), QStringLiteral("chart")});
        QCOMPARE(r.exitCode, 2);
        // The last line: Qt may warn about the platform first.
        QCOMPARE(text(r.err).trimmed().section(QLatin1Char('\n'), -1), QStringLiteral("retrylab: --page：应为 timeline、charts、records 或 log，实际为“chart”"));
        r = runCli({QStringLiteral("--page"), QStringLiteral("chart")});
        QCOMPARE(text(r.err).trimmed().section(QLatin1Char('\n'), -1),
                 QStringLiteral("retrylab: --page: expected timeline, charts, records or log, got \"chart\""));
    }

    // Errors in Chinese keep the "retrylab: " prefix and the flag they name.
    void errorsInChinese()
    {
        const CliResult r = runCli({QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("run"),
                                    QStringLiteral("--scenario"), QStringLiteral("ghost-request"), QStringLiteral("--seed"),
                                    QStringLiteral("x")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(text(r.err), QStringLiteral("retrylab: run：--seed：应为非负整数，实际为“x”\n"));
    }
};

QTEST_GUILESS_MAIN(TestLang)
#include "tst_lang.moc"
