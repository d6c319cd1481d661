// The window's command-line flags, driven through the built binary: what the user typed wrong
// exits 2, what went wrong while running exits 1 (as on the command line), nothing is ignored.
#include "testpaths.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct GuiResult
{
    int exitCode = -1;
    QByteArray err;
    bool crashed = false;
};

GuiResult runGui(const QStringList &arguments, const QString &home, bool withoutRuntimeDir = false)
{
    QProcess process;
    process.setProgram(retrylab::test::retrylabBin());
    process.setArguments(arguments);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // A home of its own: the user's remembered scenario and layout stay out of the test.
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    if (withoutRuntimeDir)
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    process.setProcessEnvironment(env);
    process.start();
    GuiResult r;
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = process.exitCode();
    r.err = process.readAllStandardError();
    r.crashed = process.exitStatus() != QProcess::NormalExit;
    return r;
}

QString writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return path;
}

// No C0 control but the line ends, no DEL, no bidi override.
bool raw(const QByteArray &bytes)
{
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && u != '\n') || u == 0x7f)
            return true;
    }
    return bytes.contains("\xe2\x80\xae");
}

} // namespace

class TestGuiFlags : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void screenshotWritesTheStoryOperation();
    void unwritableScreenshotIsARuntimeError();
    void operationBeyondTheScenarioIsRefused();
    void badPageIsRefused();
    // Issue 23 item 7: the window at its own limits.
    void overBudgetScenarioIsRefusedAtOnce();
    void overBudgetLessonStepIsRefusedAtLoad();
    void fifosAreRefusedNotOpened();
    void flagsAreEchoedEscapedAndCut_data();
    void flagsAreEchoedEscapedAndCut();
    void aCleanRunPrintsNothingOnStderr();
};

void TestGuiFlags::screenshotWritesTheStoryOperation()
{
    QTemporaryDir home;
    const QString out = home.filePath(QStringLiteral("shot.png"));
    const GuiResult r = runGui({QStringLiteral("--scenario"), QStringLiteral("ghost-request"), QStringLiteral("--page"),
                                QStringLiteral("charts"), QStringLiteral("--screenshot"), out},
                               home.path());
    QVERIFY2(r.exitCode == 0 && !r.crashed, r.err.constData());
    QImage image(out);
    QCOMPARE(image.size(), QSize(1280, 720));
}

void TestGuiFlags::unwritableScreenshotIsARuntimeError()
{
    QTemporaryDir home;
    const GuiResult r = runGui({QStringLiteral("--scenario"), QStringLiteral("stable-key"), QStringLiteral("--screenshot"),
                                home.filePath(QStringLiteral("no/such/dir/shot.png"))},
                               home.path());
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, 1); // the flags were right; writing failed
    QVERIFY2(r.err.contains("cannot write"), r.err.constData());
    QCOMPARE(r.err.count("retrylab:"), 1); // one line of ours (Qt may add its own warnings)
}

void TestGuiFlags::operationBeyondTheScenarioIsRefused()
{
    QTemporaryDir home;
    const QString out = home.filePath(QStringLiteral("shot.png"));
    GuiResult r = runGui({QStringLiteral("--scenario"), QStringLiteral("ghost-request"), QStringLiteral("--operation"),
                          QStringLiteral("999999999"), QStringLiteral("--screenshot"), out},
                         home.path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--operation") && r.err.contains("20 operations"), r.err.constData());
    QVERIFY(!QFile::exists(out));
    // Exactly the last operation is fine; one beyond it is not.
    r = runGui({QStringLiteral("--scenario"), QStringLiteral("ghost-request"), QStringLiteral("--operation"),
                QStringLiteral("20"), QStringLiteral("--screenshot"), out},
               home.path());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runGui({QStringLiteral("--scenario"), QStringLiteral("ghost-request"), QStringLiteral("--operation"),
                QStringLiteral("21"), QStringLiteral("--screenshot"), out},
               home.path());
    QCOMPARE(r.exitCode, 2);
}

void TestGuiFlags::badPageIsRefused()
{
    QTemporaryDir home;
    const GuiResult r = runGui({QStringLiteral("--page"), QStringLiteral("chart"), QStringLiteral("--screenshot"),
                                home.filePath(QStringLiteral("x.png"))},
                               home.path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--page") && r.err.contains("\"chart\""), r.err.constData());
}

void TestGuiFlags::overBudgetScenarioIsRefusedAtOnce()
{
    // 1e6 orders x 20 x 3 = 6e7 attempts at worst, past the window's 1e7: refused before any run
    // with exit 2 naming the fields (it used to wait 120 s and say "did not finish", exit 1).
    QTemporaryDir home;
    const QString file = writeFile(home.filePath(QStringLiteral("big.json")),
                                   "{\"schema\": 1, \"name\": \"big\", \"workload\": {\"orders\": 1000000},"
                                   " \"client\": {\"business\": {\"maxAttempts\": 20}}}");
    const QString out = home.filePath(QStringLiteral("shot.png"));
    const GuiResult r = runGui({QStringLiteral("--scenario"), file, QStringLiteral("--screenshot"), out}, home.path());
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith("retrylab: --scenario: this scenario could make up to 6e7 HTTP attempts (workload.orders 1000000 x "
                              "client.business.maxAttempts 20 x client.wrapper.maxAttempts 3)"),
             r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(!QFile::exists(out));
}

void TestGuiFlags::overBudgetLessonStepIsRefusedAtLoad()
{
    QTemporaryDir home;
    const QString lesson = writeFile(
        home.filePath(QStringLiteral("big-lesson.json")),
        "{\"schema\": 1, \"name\": \"big-lesson\", \"title\": \"Big\", \"summary\": \"s\", \"steps\": ["
        "{\"title\": \"small\", \"scenario\": \"ghost-request\", \"watch\": \"w\"},"
        "{\"title\": \"big\", \"set\": {\"workload.orders\": 1000000, \"client.business.maxAttempts\": 20}, \"watch\": \"w\"}]}");
    // Step 1 is fine; step 2 is refused when the lesson loads, not when the class reaches it.
    const GuiResult r = runGui({QStringLiteral("--lesson"), lesson, QStringLiteral("--screenshot"),
                                home.filePath(QStringLiteral("shot.png"))},
                               home.path());
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith("retrylab: --lesson: step 2: this scenario could make up to 6e7 HTTP attempts"), r.err.constData());
}

void TestGuiFlags::fifosAreRefusedNotOpened()
{
    // Opening a FIFO blocks until someone writes: the window must refuse it, never wait.
    QTemporaryDir home;
    const QString fifo = home.filePath(QStringLiteral("pipe.json"));
    QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {fifo}), 0);
    GuiResult r = runGui({QStringLiteral("--lesson"), fifo, QStringLiteral("--screenshot"), home.filePath(QStringLiteral("a.png"))},
                         home.path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is not a regular file"), r.err.constData());
    r = runGui({QStringLiteral("--scenario"), fifo, QStringLiteral("--screenshot"), home.filePath(QStringLiteral("a.png"))}, home.path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is not a regular file"), r.err.constData());
    r = runGui({QStringLiteral("--scenario"), home.path(), QStringLiteral("--screenshot"), home.filePath(QStringLiteral("a.png"))},
               home.path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is a directory"), r.err.constData());
}

void TestGuiFlags::flagsAreEchoedEscapedAndCut_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("expected"); // part of the line, escaped
    const QString title = QStringLiteral("\x1b]0;pwned\x07");
    const QString out = QStringLiteral("/nonexistent/x.png");
    QTest::addRow("page") << QStringList{QStringLiteral("--page"), title} << QByteArray("got \"\\u001b]0;pwned\\u0007\"");
    QTest::addRow("seed") << QStringList{QStringLiteral("--seed"), title} << QByteArray("\\u001b]0;pwned\\u0007");
    QTest::addRow("operation") << QStringList{QStringLiteral("--operation"), title} << QByteArray("\\u001b]0;pwned");
    QTest::addRow("step") << QStringList{QStringLiteral("--lesson"), QStringLiteral("x"), QStringLiteral("--step"), title}
                          << QByteArray("\\u001b]0;pwned");
    QTest::addRow("screenshot") << QStringList{QStringLiteral("--screenshot"), QStringLiteral("x.\u202epng")} << QByteArray("\\u202epng");
    QTest::addRow("unknown-option") << QStringList{QStringLiteral("--x\x1b[2J")} << QByteArray("\\u001b[2J");
    QTest::addRow("argument") << QStringList{QStringLiteral("a\u202eb")} << QByteArray("a\\u202eb");
    QTest::addRow("lesson") << QStringList{QStringLiteral("--lesson"), QStringLiteral("no/\x1b[31mred.json")} << QByteArray("\\u001b[31mred");
    QTest::addRow("scenario") << QStringList{QStringLiteral("--scenario"), QStringLiteral("\x1b[31mred"), QStringLiteral("--screenshot"), out}
                              << QByteArray("\\u001b[31mred");
    QTest::addRow("lang") << QStringList{QStringLiteral("--lang"), title} << QByteArray("\\u001b]0;pwned\\u0007");
    // A 5,000-character value is cut at 200 with an ellipsis.
    QTest::addRow("long-page") << QStringList{QStringLiteral("--page"), QString(5000, QLatin1Char('p'))}
                               << (QByteArray(200, 'p') + "\xe2\x80\xa6\"");
}

void TestGuiFlags::flagsAreEchoedEscapedAndCut()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, expected);
    QTemporaryDir home;
    const GuiResult r = runGui(args, home.path());
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(!raw(r.err), r.err.toPercentEncoding(" '\"/:.,=()-").constData());
    QVERIFY2(r.err.contains(expected), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.size() < 600, r.err.left(600).constData());
}

void TestGuiFlags::aCleanRunPrintsNothingOnStderr()
{
    // Offscreen, without XDG_RUNTIME_DIR: Qt's propagateSizeHints and QStandardPaths warnings are
    // filtered (exactly those two), so a clean run's stderr is empty.
    QTemporaryDir home;
    const GuiResult r = runGui({QStringLiteral("--scenario"), QStringLiteral("stable-key"), QStringLiteral("--screenshot"),
                                home.filePath(QStringLiteral("shot.png"))},
                               home.path(), true);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.err, QByteArray());
}

QTEST_GUILESS_MAIN(TestGuiFlags)
#include "tst_guiflags.moc"
