#include "live/livemode.h"
#include "document/labdocument.h"
#include "shell/mainwindow.h"
#include "uitestsupport.h"
#include "timeline/timelinescene.h"
#include "timeline/timelinewidget.h"
#include "document/runcontroller.h"
#include "testsupport.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace retrylab;

namespace {

using test::labelNumber;
using test::labelText;

constexpr int LiveRunTimeoutMs = 30000;



// ghost-request with few orders, so a live run at 0.1x takes a second or two.
Scenario smallGhostRequest(int orders)
{
    Scenario s = test::presetScenario(QStringLiteral("ghost-request"));
    s.workload.orders = orders;
    return s;
}

bool loadScenario(MainWindow &w, const Scenario &s, const QTemporaryDir &dir)
{
    const QString file = dir.filePath(s.name + QStringLiteral(".json"));
    if (!scenario::save(s, file).isEmpty())
        return false;
    return w.loadFile(file);
}

void setScale(MainWindow &w, double scale)
{
    QComboBox *box = w.live()->liveScaleBox();
    box->setCurrentIndex(box->findData(scale));
}

} // namespace

class TestLiveMode : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
        QCoreApplication::setApplicationName(QStringLiteral("RetryLab"));
    }
    void init() { QSettings().clear(); }

    void scaleBoxOffersThreeScalesDefaultTenth()
    {
        MainWindow w(nullptr, false);
        QComboBox *box = w.live()->liveScaleBox();
        QCOMPARE(box->count(), 3);
        QCOMPARE(box->itemText(0), QStringLiteral("1\u00d7"));
        QCOMPARE(box->itemText(1), QStringLiteral("0.1\u00d7"));
        QCOMPARE(box->itemText(2), QStringLiteral("0.02\u00d7"));
        QCOMPARE(box->itemData(2, Qt::ToolTipRole).toString(), QStringLiteral("50 times faster than real time"));
        QCOMPARE(box->currentData().toDouble(), 0.1);
        QCOMPARE(w.live()->liveMode()->timeScale(), 0.1);
        setScale(w, 0.02);
        QCOMPARE(w.live()->liveMode()->timeScale(), 0.02);
    }

    // Live on runs the scenario over HTTP: the same records and duplicates as its simulation,
    // and the status bar says where it ran; Re-run runs it live again.
    void liveRunMatchesTheSimulation()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        const Scenario s = smallGhostRequest(4);
        QVERIFY(loadScenario(w, s, dir));
        QTRY_VERIFY(w.hasResult());
        QVERIFY(w.document()->source() != ResultSource::LiveRun);
        const Metrics simulated = simulate(s).metrics;
        QVERIFY(simulated.duplicates > 0); // the lesson of ghost-request, or the check proves nothing

        QSignalSpy started(w.live()->liveMode(), &LiveMode::started);
        QSignalSpy shown(&w, &MainWindow::resultShown);
        w.live()->liveAction()->setChecked(true);
        QVERIFY(w.live()->liveMode()->isEnabled());
        QCOMPARE(started.count(), 1);
        QVERIFY(w.live()->liveMode()->isRunning());
        QVERIFY(w.live()->stopLiveAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->source() == ResultSource::LiveRun, LiveRunTimeoutMs);
        QVERIFY(!w.live()->liveMode()->isRunning());
        QVERIFY(!w.live()->stopLiveAction()->isEnabled());
        QVERIFY(w.result().error.isEmpty());
        QCOMPARE(w.result().metrics.records, simulated.records);
        QCOMPARE(w.result().metrics.duplicates, simulated.duplicates);
        QVERIFY(!w.result().trace.isEmpty());
        QCOMPARE(labelNumber(w, "statusRecords"), simulated.records);
        QCOMPARE(labelNumber(w, "statusDuplicates"), simulated.duplicates);
        const QString live = labelText(w, "statusLiveRun");
        QVERIFY2(live.startsWith(QStringLiteral("Live run over http://127.0.0.1:")), qPrintable(live));
        QVERIFY2(live.endsWith(QStringLiteral(", time scale 0.1")), qPrintable(live));
        // The network lane says what carried the requests, not the scenario's latency model.
        auto *scene = qobject_cast<TimelineScene *>(w.findChild<TimelineWidget *>()->scene());
        QVERIFY(scene);
        QCOMPARE(scene->laneNotes().at(3), QStringLiteral("real HTTP, loopback"));

        // Re-run stays live.
        const int before = shown.count();
        w.rerun();
        QCOMPARE(started.count(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > before, LiveRunTimeoutMs);
        QVERIFY(w.document()->source() == ResultSource::LiveRun);
        QCOMPARE(w.result().metrics.duplicates, simulated.duplicates);
    }

    // Stop cancels at once; the result on show stays the previous one, and the GUI kept ticking.
    void stopCancelsAndKeepsThePreviousResult()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        const Scenario s = smallGhostRequest(20);
        QVERIFY(loadScenario(w, s, dir));
        QTRY_VERIFY(w.hasResult());
        const Metrics simulated = w.result().metrics;
        const qint64 events = w.result().trace.size();

        setScale(w, 1.0); // ten seconds of orders: long enough to stop
        QSignalSpy ticks(w.live()->liveMode(), &LiveMode::tick);
        QSignalSpy shown(&w, &MainWindow::resultShown);
        w.live()->liveAction()->setChecked(true);
        QVERIFY(w.live()->liveMode()->isRunning());
        // The event loop runs during the run: the elapsed time is shown as it goes.
        QTRY_VERIFY_WITH_TIMEOUT(ticks.count() >= 2, LiveRunTimeoutMs);
        QVERIFY(w.live()->liveMode()->isRunning());
        const QString progress = labelText(w, "statusLiveRun");
        QVERIFY2(progress.startsWith(QStringLiteral("Live run over http://127.0.0.1:")), qPrintable(progress));
        QVERIFY2(progress.endsWith(QStringLiteral(" s")), qPrintable(progress));
        const QUrl url = w.live()->liveMode()->url();
        QVERIFY(url.port() > 0);

        w.live()->stopLiveAction()->trigger();
        QTRY_VERIFY(!w.live()->liveMode()->isRunning());
        QVERIFY(!w.live()->stopLiveAction()->isEnabled());
        QCOMPARE(w.statusBar()->currentMessage(),
                 QStringLiteral("Live run stopped; result unchanged"));
        // Nothing of the stopped run arrives later.
        QVERIFY(!shown.wait(300));
        QCOMPARE(shown.count(), 0);
        QVERIFY(w.document()->source() != ResultSource::LiveRun);
        QCOMPARE(w.result().trace.size(), events);
        QCOMPARE(w.result().metrics.records, simulated.records);
        QVERIFY(w.live()->liveMode()->isEnabled()); // Stop ends the run, not Live
        QCOMPARE(labelText(w, "statusLiveRun"), QString()); // the simulated result is on show
        // The embedded server is gone with the run.
        QTcpSocket socket;
        socket.connectToHost(QStringLiteral("127.0.0.1"), quint16(url.port()));
        QVERIFY(!socket.waitForConnected(2000));
    }

    // Stop and Re-run at once: the stopped run's late end must not be taken for the new run's.
    void stopThenRerunShowsTheNewRun()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        const Scenario s = smallGhostRequest(3);
        QVERIFY(loadScenario(w, s, dir));
        QTRY_VERIFY(w.hasResult());
        const Metrics simulated = simulate(s).metrics;
        QSignalSpy shown(&w, &MainWindow::resultShown);
        w.live()->liveAction()->setChecked(true);
        QVERIFY(w.live()->liveMode()->isRunning());
        w.live()->stopLiveAction()->trigger();
        w.rerun();
        QVERIFY(w.live()->liveMode()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!w.live()->liveMode()->isRunning(), LiveRunTimeoutMs);
        QCOMPARE(shown.count(), 1);
        QVERIFY(w.document()->source() == ResultSource::LiveRun);
        QVERIFY(!w.result().trace.isEmpty());
        QCOMPARE(w.result().metrics.records, simulated.records);
        QCOMPARE(w.result().metrics.duplicates, simulated.duplicates);
    }

    // Switching Live off runs the simulation again, and the window no longer says "live".
    void liveOffReturnsToTheSimulation()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        const Scenario s = smallGhostRequest(3);
        QVERIFY(loadScenario(w, s, dir));
        QTRY_VERIFY(w.hasResult());
        const RunResult simulated = simulate(s);

        w.live()->liveAction()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->source() == ResultSource::LiveRun, LiveRunTimeoutMs);
        QVERIFY(!labelText(w, "statusLiveRun").isEmpty());

        w.live()->liveAction()->setChecked(false);
        QVERIFY(!w.live()->liveMode()->isEnabled());
        QTRY_VERIFY(w.document()->source() != ResultSource::LiveRun);
        QCOMPARE(labelText(w, "statusLiveRun"), QString());
        QCOMPARE(w.result().trace.size(), simulated.trace.size());
        QCOMPARE(w.result().metrics.records, simulated.metrics.records);
        QCOMPARE(w.result().metrics.httpAttempts, simulated.metrics.httpAttempts);
        auto *scene = qobject_cast<TimelineScene *>(w.findChild<TimelineWidget *>()->scene());
        QVERIFY(scene);
        QVERIFY2(scene->laneNotes().at(3).startsWith(QStringLiteral("latency ")), qPrintable(scene->laneNotes().at(3)));
        // Re-run simulates again.
        QSignalSpy started(w.live()->liveMode(), &LiveMode::started);
        w.rerun();
        QTRY_VERIFY(!w.runController()->isPending());
        QCOMPARE(started.count(), 0);
        QVERIFY(w.document()->source() != ResultSource::LiveRun);
    }

    // Loading a scenario while Live is on runs it live.
    void loadingRunsLiveWhenOn()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadScenario(w, smallGhostRequest(2), dir));
        QTRY_VERIFY(w.hasResult());
        w.live()->liveAction()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->source() == ResultSource::LiveRun, LiveRunTimeoutMs);

        QSignalSpy started(w.live()->liveMode(), &LiveMode::started);
        Scenario other = smallGhostRequest(3);
        other.name = QStringLiteral("other");
        QVERIFY(loadScenario(w, other, dir));
        QCOMPARE(started.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!w.live()->liveMode()->isRunning() && w.document()->source() == ResultSource::LiveRun, LiveRunTimeoutMs);
        QCOMPARE(w.result().scenario.name, QStringLiteral("other"));
        QCOMPARE(w.result().metrics.records, simulate(other).metrics.records);
    }

    // A new seed (an edit) while Live is on runs live once the edits settle, never the simulation.
    void newSeedRunsLiveWhenOn()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadScenario(w, smallGhostRequest(2), dir));
        QTRY_VERIFY(w.hasResult());
        w.live()->liveAction()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->source() == ResultSource::LiveRun, LiveRunTimeoutMs);

        QSignalSpy started(w.live()->liveMode(), &LiveMode::started);
        QSignalSpy simulated(w.runController(), &RunController::runStarted);
        w.setSeed(7);
        w.setSeed(8); // one run for the burst
        QTRY_COMPARE(started.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!w.live()->liveMode()->isRunning(), LiveRunTimeoutMs);
        QCOMPARE(started.count(), 1);
        QCOMPARE(simulated.count(), 0);
        QVERIFY(w.document()->source() == ResultSource::LiveRun);
        QCOMPARE(w.result().scenario.seed, quint64(8));
    }

    // A run that cannot be done says why in the banner; the result on show stays.
    void failedRunShowsTheBanner()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadScenario(w, smallGhostRequest(2), dir));
        QTRY_VERIFY(w.hasResult());
        const qint64 events = w.result().trace.size();
        w.live()->liveMode()->setTimeScale(0); // not offered by the box: the only failure an embedded server allows
        w.live()->liveAction()->setChecked(true);
        QTRY_VERIFY(!labelText(w, "statusRefused").isEmpty());
        QCOMPARE(labelText(w, "statusRefused"),
                 QStringLiteral("Live run failed: the time scale must be a number above 0"));
        QVERIFY(!w.live()->liveMode()->isRunning());
        QVERIFY(w.document()->source() != ResultSource::LiveRun);
        QCOMPARE(w.result().trace.size(), events);
    }

    void liveAndServeExcludeEachOther()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadScenario(w, smallGhostRequest(2), dir));
        QTRY_VERIFY(w.hasResult());

        WatchOptions options;
        options.port = 0;
        QVERIFY(w.live()->startServing(options));
        QVERIFY(w.live()->isServing());
        QVERIFY(!w.live()->liveAction()->isEnabled());
        QVERIFY(w.live()->liveAction()->toolTip().contains(QStringLiteral("stop serving first")));
        w.live()->setLive(true); // a programmatic attempt is refused too
        QVERIFY(!w.live()->liveMode()->isEnabled());
        QVERIFY(!w.live()->liveAction()->isChecked());
        w.live()->stopServing();
        QVERIFY(w.live()->liveAction()->isEnabled());

        w.live()->liveAction()->setChecked(true);
        QVERIFY(!w.live()->serveAction()->isEnabled());
        QVERIFY(!w.live()->watchAction()->isEnabled());
        QVERIFY(w.live()->serveAction()->toolTip().contains(QStringLiteral("switch Live off first")));
        QString error;
        QVERIFY(!w.live()->startServing(options, &error));
        QVERIFY(!w.live()->isServing());
        QVERIFY(error.contains(QStringLiteral("switch Live off first")));
        w.live()->liveAction()->setChecked(false);
        QVERIFY(w.live()->serveAction()->isEnabled());
        QVERIFY(w.live()->watchAction()->isEnabled());
        QVERIFY(w.live()->startServing(options));
        w.live()->stopServing();
    }
};

QTEST_MAIN(TestLiveMode)
#include "tst_livemode.moc"
