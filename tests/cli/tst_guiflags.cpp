// The window's command-line flags, driven through the built binary: what the user typed wrong
// exits 2, what went wrong while running exits 1 (as on the command line), nothing is ignored.
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

GuiResult runGui(const QStringList &arguments, const QString &home)
{
    QProcess process;
    process.setProgram(QStringLiteral(RETRYLAB_BIN));
    process.setArguments(arguments);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // A home of its own: the user's remembered scenario and layout stay out of the test.
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
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

} // namespace

class TestGuiFlags : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void screenshotWritesTheStoryOperation();
    void unwritableScreenshotIsARuntimeError();
    void operationBeyondTheScenarioIsRefused();
    void badPageIsRefused();
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

QTEST_GUILESS_MAIN(TestGuiFlags)
#include "tst_guiflags.moc"
