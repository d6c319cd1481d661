#include "charts/chartspanel.h"
#include "lessons/predictionpanel.h"
#include "testsupport.h"
#include "tables/logview.h"
#include "tables/recordsview.h"
#include "recordsmodel.h"
#include "tracemodel.h"
#include "shell/mainwindow.h"
#include "document/preparedviews.h"
#include "release.h"
#include "timeline/timelineoverview.h"
#include "uitestsupport.h"
#include "document/runcontroller.h"
#include "document/windowbudget.h"
#include "editor/scenarioeditor.h"
#include "common/settings.h"
#include "story.h"
#include "timeline/timelinewidget.h"

#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QAction>
#include <QTableView>
#include <QProgressBar>
#include <QProcess>
#include <QPushButton>
#include <QToolBar>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>

using namespace retrylab;

namespace {

using test::labelNumber;
using test::labelText;

constexpr int RunTimeoutMs = 120000;


bool waitForIdle(MainWindow &w)
{
    RunController *run = w.runController();
    return QTest::qWaitFor([run] { return !run->isPending() && run->hasResult(); }, RunTimeoutMs);
}

int eventsOfOp(const RunResult &result, int op)
{
    int n = 0;
    for (const TraceEvent &e : result.trace) {
        if (e.op == op)
            ++n;
    }
    return n;
}

void chooseData(QComboBox *combo, const QString &data)
{
    combo->setCurrentIndex(combo->findData(data));
}

// Every page shown in turn shows w.result(): the same rows, points and counts as views that
// derive them from the result themselves. Fails on data prepared for another result.
bool viewsShowResult(MainWindow &w)
{
    const RunResult &result = w.result();
    bool ok = true;
    const auto check = [&ok](bool condition, const char *what) {
        if (!condition) {
            qWarning("views do not show the result: %s", what);
            ok = false;
        }
    };
    w.showPage(MainWindow::Page::Records);
    RecordsView reference;
    reference.setResult(result);
    check(w.recordsView()->model()->rowCount() == int(result.records.size()), "records rows");
    check(w.recordsView()->summary() == reference.summary(), "records summary");
    check(w.recordsView()->model()->duplicateCount() == result.metrics.duplicates, "records duplicates");
    w.showPage(MainWindow::Page::Charts);
    const ChartsPanel::Prepared charts = ChartsPanel::prepare(result);
    check(w.charts()->result().ops.size() == result.ops.size(), "charts result");
    check(w.charts()->attemptsHistogram() == charts.histogram, "attempts histogram");
    check(w.charts()->attemptBarOps() == charts.attemptOps, "attempt bars");
    check(w.charts()->duplicateSeries() == charts.duplicatePoints, "duplicates series");
    int histogramOps = 0;
    for (const auto &bar : w.charts()->attemptsHistogram())
        histogramOps += bar.second;
    check(histogramOps == int(result.ops.size()), "one bar entry per operation");
    w.showPage(MainWindow::Page::Log);
    check(w.logView()->model()->rowCount() == int(result.trace.size()), "log rows");
    w.showPage(MainWindow::Page::Timeline);
    check(!w.timeline()->overview()->isIndexing(), "overview ready");
    check(w.timeline()->overview()->rowCount() == int(result.ops.size()), "overview rows");
    check(w.runController()->interesting() == interestingOperations(result), "interesting operations");
    return ok;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void presetLoadsIntoEveryView_data();
    void presetLoadsIntoEveryView();
    void keyPlacementChangesDuplicates();
    void editsCoalesceIntoOneRun();
    void titleShowsModified();
    void opensMaximizedWhereItDoesNotFit_data();
    void opensMaximizedWhereItDoesNotFit();
    void opensLargeOnALargeScreen_data();
    void opensLargeOnALargeScreen();
    void saveOpenRoundTrip();
    void badFileLosesNothing();
    void settingsPersistAcrossWindows();
    void exportsWriteValidFiles_data();
    void exportsWriteValidFiles();
    void selectionFollowsAcrossViews();
    void guiStaysResponsiveDuringBackgroundRun();
    void worstCaseText();
    void loadLessonsOpenChartsOnLoad();
    void handoutOfALoadLesson();
    void predictionRoundHidesThenReveals();
    void predictionComparisonWords();
    void editKeepsOperationNewScenarioOpensOnStory();
    void nextPreviousInterestingOperation();
    void spaceInOperationBoxPlays();
    void pickedRecordMovesPlayhead();
    void statusBarShowsQueriesAndReconciliation();
    void hiddenPagesUpdateWhenShown();
    void newSeedKeepsTheLesson();
    void attemptsBarOpensOperation();
    void killedStartDoesNotReloadItsScenario();
    void tooMuchWorkIsRefusedNotRun();
    void resultFromElsewhereIsScanned();
    void backgroundResultsComePrepared();
    void preparedViewsFollowEveryResult();
    void cancelledRunKeepsViewsOfLastResult();
    void releasedValuesAreFreedOnAWorker();
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLab"));
}

void TestMainWindow::init()
{
    QSettings().clear();
}

void TestMainWindow::presetLoadsIntoEveryView_data()
{
    QTest::addColumn<QString>("preset");
    const QStringList presets = scenario::presetNames();
    for (const QString &name : presets)
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestMainWindow::presetLoadsIntoEveryView()
{
    QFETCH(QString, preset);
    MainWindow w;
    w.show();
    QString error;
    QVERIFY2(w.loadPreset(preset, &error), qPrintable(error));
    QVERIFY(waitForIdle(w));
    const RunResult &result = w.result();
    const Scenario expected = scenario::preset(preset).scenario;
    QCOMPARE(result.scenario, expected);
    QCOMPARE(w.editor()->scenario(), expected);
    QVERIFY(!w.isModified());
    QVERIFY(w.windowTitle().contains(expected.title.isEmpty() ? expected.name : expected.title));

    QCOMPARE(w.runController()->interesting(), retrylab::interestingOperations(result));
    // The window opens on the operation that tells the lesson, not on op 1.
    const int op = storyOperation(result);
    QCOMPARE(w.timeline()->operation(), op);
    QCOMPARE(w.findChild<QSpinBox *>(QStringLiteral("operationSpin"))->value(), op);
    const int events = eventsOfOp(result, op);
    QVERIFY(events > 0);
    QCOMPARE(w.timeline()->itemCount(), events);

    const auto *worst = w.findChild<QLabel *>(QStringLiteral("statusWorstCase"));
    const bool unlimited = expected.client.business.enabled && expected.client.business.maxAttempts == 0;
    QVERIFY2(worst->text().contains(unlimited ? QStringLiteral("retries until") : expected.worstCaseText()),
             qPrintable(worst->text()));
    QVERIFY2(!worst->text().contains(QLatin1String("(s)")), qPrintable(worst->text()));
    QCOMPARE(labelNumber(w, "statusRecords"), result.metrics.records);
    QCOMPARE(labelNumber(w, "statusDuplicates"), result.metrics.duplicates);
    QCOMPARE(labelNumber(w, "statusOrphans"), result.metrics.orphans);
    QCOMPARE(labelNumber(w, "statusLost"), 0);
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("statusDuplicates"))->property("warning").toBool(),
             result.metrics.duplicates > 0);
}

void TestMainWindow::keyPlacementChangesDuplicates()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const int before = labelNumber(w, "statusDuplicates");
    QVERIFY2(before > 0, "ghost-request must show duplicates");

    auto *mode = w.editor()->findChild<QComboBox *>(QStringLiteral("server.idempotency.mode"));
    auto *key = w.editor()->findChild<QComboBox *>(QStringLiteral("client.keyPlacement"));
    QVERIFY(mode && key);
    QCOMPARE(key->currentData().toString(), QStringLiteral("none"));
    QSignalSpy results(w.runController(), &RunController::resultReady);
    chooseData(mode, QStringLiteral("atomic"));
    QVERIFY(results.wait(RunTimeoutMs));
    // Without a key an atomic store has nothing to deduplicate on.
    QCOMPARE(labelNumber(w, "statusDuplicates"), before);

    chooseData(key, QStringLiteral("perOperation"));
    QVERIFY(results.wait(RunTimeoutMs));
    QCOMPARE(w.result().scenario.client.keyPlacement, KeyPlacement::PerOperation);
    QCOMPARE(labelNumber(w, "statusDuplicates"), w.result().metrics.duplicates);
    QCOMPARE(labelNumber(w, "statusDuplicates"), 0);
    QVERIFY(!w.findChild<QLabel *>(QStringLiteral("statusDuplicates"))->property("warning").toBool());

    chooseData(key, QStringLiteral("perWrapperAttempt"));
    QVERIFY(results.wait(RunTimeoutMs));
    QVERIFY2(labelNumber(w, "statusDuplicates") > 0, "a key minted inside the wrapper changes on every wrapper retry");
}

void TestMainWindow::editsCoalesceIntoOneRun()
{
    MainWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("stable-key")));
    QVERIFY(waitForIdle(w));
    QSignalSpy started(w.runController(), &RunController::runStarted);
    QSignalSpy results(w.runController(), &RunController::resultReady);
    auto *loss = w.editor()->findChild<QDoubleSpinBox *>(QStringLiteral("network.responseLoss"));
    auto *orders = w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    loss->setValue(20);
    orders->setValue(7);
    loss->setValue(40);
    QVERIFY(results.wait(RunTimeoutMs));
    QCOMPARE(started.count(), 1);
    QCOMPARE(results.count(), 1);
    QCOMPARE(w.result().scenario.workload.orders, 7);
    QCOMPARE(w.result().scenario.network.responseLoss, 0.4);
    QCOMPARE(int(w.result().ops.size()), 7);
    QCOMPARE(w.findChild<QSpinBox *>(QStringLiteral("operationSpin"))->maximum(), 7);
}

void TestMainWindow::opensMaximizedWhereItDoesNotFit_data()
{
    QTest::addColumn<QSize>("room");
    QTest::addColumn<bool>("restored");
    QTest::addColumn<bool>("maximized");
    // The default 1280x720 window plus a 16x48 frame: exactly 1296x768 of room still fits.
    QTest::newRow("1280x720 projector") << QSize(1280, 720) << false << true;
    QTest::newRow("1024x640 laptop") << QSize(1024, 640) << false << true;
    QTest::newRow("1920x1080 desktop") << QSize(1920, 1080) << false << false;
    QTest::newRow("exactly room for the frame") << QSize(1296, 768) << false << false;
    QTest::newRow("one pixel short in height") << QSize(1296, 767) << false << true;
    QTest::newRow("one pixel short in width") << QSize(1295, 768) << false << true;
    QTest::newRow("the user's saved geometry wins") << QSize(1280, 720) << true << false;
    QTest::newRow("no screen known") << QSize() << false << false;
}

void TestMainWindow::opensMaximizedWhereItDoesNotFit()
{
    QFETCH(QSize, room);
    QFETCH(bool, restored);
    QFETCH(bool, maximized);
    QCOMPARE(MainWindow::opensMaximized(QSize(1280, 720), room, restored), maximized);
}

void TestMainWindow::opensLargeOnALargeScreen_data()
{
    QTest::addColumn<QSize>("room");
    QTest::addColumn<bool>("restored");
    QTest::addColumn<QSize>("opening");
    // Five sixths of the room, never below the default 1280x720.
    QTest::newRow("1920x1080 desktop") << QSize(1920, 1080) << false << QSize(1600, 900);
    QTest::newRow("2560x1440 desktop") << QSize(2560, 1440) << false << QSize(2133, 1200);
    QTest::newRow("exactly five sixths is the default") << QSize(1536, 864) << false << QSize(1280, 720);
    QTest::newRow("one pixel more in width") << QSize(1537, 864) << false << QSize(1280, 720);
    QTest::newRow("six pixels more in width") << QSize(1542, 864) << false << QSize(1285, 720);
    QTest::newRow("room for the frame only") << QSize(1296, 768) << false << QSize(1280, 720);
    QTest::newRow("the user's saved geometry wins") << QSize(1920, 1080) << true << QSize(1280, 720);
    QTest::newRow("no screen known") << QSize() << false << QSize(1280, 720);
}

void TestMainWindow::opensLargeOnALargeScreen()
{
    QFETCH(QSize, room);
    QFETCH(bool, restored);
    QFETCH(QSize, opening);
    QCOMPARE(MainWindow::openingSize(QSize(1280, 720), room, restored), opening);
}

void TestMainWindow::titleShowsModified()
{
    MainWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.windowTitle().contains(QLatin1String("[*]")));
    w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"))->setValue(5);
    QVERIFY(w.isModified());
    QVERIFY(w.isWindowModified());
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(!w.isWindowModified());
}

void TestMainWindow::saveOpenRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("lesson.json"));

    MainWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("rotating-key")));
    w.editor()->findChild<QDoubleSpinBox *>(QStringLiteral("network.responseLoss"))->setValue(55);
    chooseData(w.editor()->findChild<QComboBox *>(QStringLiteral("server.idempotency.mode")), QStringLiteral("naive"));
    QVERIFY(w.isModified());
    const Scenario edited = w.scenario();
    QCOMPARE(edited.server.idempotency.mode, IdempotencyMode::Naive);

    QString error;
    QVERIFY2(w.saveToFile(file, &error), qPrintable(error));
    QVERIFY(!w.isModified());
    QCOMPARE(w.currentFile(), QFileInfo(file).absoluteFilePath());
    QVERIFY(w.windowTitle().contains(QLatin1String("lesson.json")));

    MainWindow other;
    QVERIFY2(other.loadFile(file, &error), qPrintable(error));
    // The preset's text no longer describes these settings: the saved title says so.
    Scenario expected = edited;
    expected.title += QStringLiteral(" (modified)");
    QCOMPARE(other.scenario(), expected);
    QVERIFY(w.windowTitle().contains(QLatin1String("(modified)")));
    QCOMPARE(other.editor()->scenario(), expected);
    QCOMPARE(other.editor()->findChild<QComboBox *>(QStringLiteral("server.idempotency.mode"))->currentData().toString(),
             QStringLiteral("naive"));
}

void TestMainWindow::badFileLosesNothing()
{
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"schema": 1, "client": {"transport": {"total": "three"}}})");
    f.close();

    MainWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("stable-key")));
    w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"))->setValue(9);
    const Scenario before = w.scenario();
    QString error;
    QVERIFY(!w.loadFile(bad, &error));
    QVERIFY2(error.contains(QLatin1String("client.transport.total")), qPrintable(error));
    QCOMPARE(w.scenario(), before);
    QCOMPARE(w.editor()->scenario(), before);
    QVERIFY(w.isModified());
    QVERIFY(!w.loadFile(dir.filePath(QStringLiteral("missing.json")), &error));
    QCOMPARE(w.scenario(), before);
}

void TestMainWindow::settingsPersistAcrossWindows()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("kept.json"));
    QSize size(1040, 660);
    {
        MainWindow w;
        QVERIFY(w.loadPreset(QStringLiteral("key-expiry")));
        QVERIFY(w.saveToFile(file));
        w.show();
        w.resize(size);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scenarioDock()->hide();
        QTRY_COMPARE(w.size(), size);
        QVERIFY(w.close());
    }
    const Settings settings;
    QCOMPARE(settings.recentFiles().value(0), QFileInfo(file).absoluteFilePath());

    MainWindow again;
    QCOMPARE(again.size(), size);
    QCOMPARE(again.currentFile(), QFileInfo(file).absoluteFilePath());
    QCOMPARE(again.scenario().name, QStringLiteral("key-expiry"));
    QVERIFY(!again.scenarioDock()->isVisibleTo(&again));
    // --scenario: the remembered scenario is not loaded (nor run) just to be replaced.
    MainWindow told(nullptr, false);
    QVERIFY(told.scenario().name != QStringLiteral("key-expiry"));
    QVERIFY(told.currentFile().isEmpty());
    QVERIFY(!told.runController()->isPending());
    QCOMPARE(told.size(), size); // the window's geometry is still restored
    again.resetLayout();
    QVERIFY(again.scenarioDock()->isVisibleTo(&again));

    // Recent files stay unique, newest first, at most eight.
    Settings s;
    for (int i = 0; i < 12; ++i)
        s.addRecentFile(dir.filePath(QStringLiteral("f%1.json").arg(i)));
    s.addRecentFile(dir.filePath(QStringLiteral("f5.json")));
    const QStringList recent = s.recentFiles();
    QCOMPARE(recent.size(), Settings::maxRecentFiles);
    QCOMPARE(recent.first(), QFileInfo(dir.filePath(QStringLiteral("f5.json"))).absoluteFilePath());
    QCOMPARE(recent.count(recent.first()), 1);
}

void TestMainWindow::exportsWriteValidFiles_data()
{
    QTest::addColumn<Exporter::Kind>("kind");
    QTest::addRow("timeline-png") << Exporter::Kind::TimelinePng;
    QTest::addRow("timeline-svg") << Exporter::Kind::TimelineSvg;
    QTest::addRow("timeline-slide") << Exporter::Kind::TimelineSlide;
    QTest::addRow("charts-png") << Exporter::Kind::ChartsPng;
    QTest::addRow("charts-svg") << Exporter::Kind::ChartsSvg;
    QTest::addRow("records-csv") << Exporter::Kind::RecordsCsv;
    QTest::addRow("trace-jsonl") << Exporter::Kind::TraceJsonl;
    QTest::addRow("handout-pdf") << Exporter::Kind::HandoutPdf;
}

void TestMainWindow::exportsWriteValidFiles()
{
    QFETCH(Exporter::Kind, kind);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("out.") + Exporter::suffix(kind));
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    w.setOperation(storyOperation(w.result()));
    QString error;
    QVERIFY2(w.exporter()->exportTo(kind, file, &error), qPrintable(error));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(!bytes.isEmpty());
    const RunResult &result = w.result();

    switch (kind) {
    case Exporter::Kind::TimelineSlide: {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QCOMPARE(image.size(), Exporter::SlideSize); // exactly a 1080p slide, whatever the window
        break;
    }
    case Exporter::Kind::TimelinePng:
    case Exporter::Kind::ChartsPng: {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QVERIFY(image.width() > 100 && image.height() > 50);
        break;
    }
    case Exporter::Kind::TimelineSvg:
    case Exporter::Kind::ChartsSvg: {
        QSvgRenderer svg(bytes);
        QVERIFY(svg.isValid());
        QVERIFY(!svg.defaultSize().isEmpty());
        break;
    }
    case Exporter::Kind::RecordsCsv: {
        const QList<QByteArray> lines = bytes.trimmed().split('\n');
        QCOMPARE(lines.size(), result.metrics.records + 1); // header + one row per record
        QVERIFY(lines.first().contains(','));
        break;
    }
    case Exporter::Kind::HandoutPdf: {
        // A valid PDF for poppler (scripts/lab installs poppler-utils): the lesson and its numbers on
        // page 1, the story operation on page 2, then one chart per page.
        QVERIFY(bytes.startsWith("%PDF-"));
        const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
        QVERIFY2(!pdfinfo.isEmpty(), "pdfinfo is missing: scripts/lab installs poppler-utils");
        QProcess info;
        info.start(pdfinfo, {file});
        QVERIFY(info.waitForFinished(30000));
        QCOMPARE(info.exitCode(), 0);
        const QString infoText = QString::fromUtf8(info.readAllStandardOutput());
        QVERIFY2(infoText.contains(QRegularExpression(QStringLiteral("Pages:\\s+4\\b"))), qPrintable(infoText));
        QVERIFY2(infoText.contains(result.scenario.title.left(30)), qPrintable(infoText));
        QProcess text;
        text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), {QStringLiteral("-f"), QStringLiteral("1"),
                                                                              QStringLiteral("-l"), QStringLiteral("1"), file,
                                                                              QStringLiteral("-")});
        QVERIFY(text.waitForFinished(30000));
        const QString page1 = QString::fromUtf8(text.readAllStandardOutput()).simplified();
        QVERIFY2(page1.contains(QStringLiteral("Duplicates %1").arg(result.metrics.duplicates)), qPrintable(page1));
        QVERIFY2(page1.contains(QStringLiteral("Records %1").arg(result.metrics.records)), qPrintable(page1));
        QVERIFY2(page1.contains(QStringLiteral("Seed %1").arg(result.scenario.seed)), qPrintable(page1));
        break;
    }
    case Exporter::Kind::TraceJsonl: {
        const QList<QByteArray> lines = bytes.trimmed().split('\n');
        QCOMPARE(lines.size(), int(result.trace.size()));
        for (const QByteArray &line : lines) {
            QJsonParseError e;
            const QJsonObject o = QJsonDocument::fromJson(line, &e).object();
            QCOMPARE(e.error, QJsonParseError::NoError);
            QVERIFY(o.contains(QLatin1String("t")) && o.contains(QLatin1String("kind")));
        }
        break;
    }
    case Exporter::Kind::LessonHandoutPdf:
        QFAIL("a lesson's handout is tested in tst_handout");
    }

    // An unwritable target reports an error instead of pretending.
    QVERIFY(!w.exporter()->exportTo(kind, dir.filePath(QStringLiteral("no/such/dir/out.") + Exporter::suffix(kind)), &error));
    QVERIFY(!error.isEmpty());
}

void TestMainWindow::selectionFollowsAcrossViews()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const RunResult &result = w.result();
    const int target = storyOperation(result) == 1 ? 2 : 1;
    int index = -1;
    for (int i = 0; i < result.trace.size(); ++i) {
        if (result.trace.at(i).op == target) {
            index = i;
            break;
        }
    }
    QVERIFY(index >= 0);
    w.setOperation(storyOperation(result));
    // A row picked in the log brings its operation onto the timeline.
    Q_EMIT w.logView()->eventSelected(index);
    QCOMPARE(w.timeline()->operation(), target);
    QCOMPARE(w.findChild<QSpinBox *>(QStringLiteral("operationSpin"))->value(), target);
}

void TestMainWindow::guiStaysResponsiveDuringBackgroundRun()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));

    RunController *run = w.runController();
    auto *orders = w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    // As large as the window keeps (about 276,000 events of the 724,822 it may: 60,000 orders
    // would be refused by its memory budget), and far past the inline limit.
    const int large = 20000;
    Scenario big = w.scenario();
    big.workload.orders = large;
    QVERIFY(RunController::estimatedAttempts(big) > run->syncLimit());
    QVERIFY(windowbudget::memoryRefusal(big, run->maxEvents()).isEmpty());

    // Event-loop watchdog: the longest gap between 10 ms ticks from the edit until the result is on
    // screen, the handoff of the 20,000-order result to the views included.
    QElapsedTimer clock;
    qint64 last = 0;
    qint64 maxGap = 0;
    int ticks = 0;
    int ticksAfterShown = 0;
    bool sawBusy = false;
    bool shown = false;
    QTimer watchdog;
    watchdog.setInterval(10);
    connect(&watchdog, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        sawBusy |= run->isBusy();
        maxGap = qMax(maxGap, now - last);
        ++ticks;
        if (shown)
            ++ticksAfterShown;
        last = now;
    });
    connect(&w, &MainWindow::resultShown, this, [&] { shown = true; });
    QSignalSpy started(run, &RunController::runStarted);
    QSignalSpy results(run, &RunController::resultReady);
    clock.start();
    watchdog.start();
    orders->setValue(large);
    QVERIFY(results.wait(RunTimeoutMs));
    QTRY_VERIFY(ticksAfterShown >= 2); // the ticks right after the handoff count too
    watchdog.stop();

    QCOMPARE(started.count(), 1);
    QCOMPARE(started.first().first().toBool(), true); // it ran in the background
    QVERIFY(sawBusy);
    QVERIFY(ticks > 0);
    if (test::latencyIsMeaningful())
        QVERIFY2(maxGap < 100, qPrintable(QStringLiteral("GUI thread blocked for %1 ms").arg(maxGap)));
    QCOMPARE(int(w.result().ops.size()), large);
    // What the views derive from the run was computed in the background with it.
    QCOMPARE(run->interesting(), retrylab::interestingOperations(w.result()));
    QVERIFY(!run->interesting().isEmpty());
    QCOMPARE(w.interestingOperations(), run->interesting());
    QVERIFY(!w.findChild<QProgressBar *>(QStringLiteral("statusBusy"))->isVisible());
    qInfo("background run and handoff: %d watchdog ticks, longest gap %lld ms", ticks, maxGap);
}

void TestMainWindow::predictionRoundHidesThenReveals()
{
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const Metrics m = w.result().metrics;
    QVERIFY(m.duplicates > 0);
    w.showPage(MainWindow::Page::Charts);
    auto *predict = w.findChild<QAction *>(QStringLiteral("predictAction"));
    auto *panel = w.findChild<PredictionPanel *>(QStringLiteral("prediction"));
    QVERIFY(predict && panel);
    predict->setChecked(true);
    // Hidden: the numbers, the charts, the records and the log; the timeline stays.
    QVERIFY(w.findChild<PredictionPanel *>(QStringLiteral("prediction"))->isVisible());
    QCOMPARE(labelText(w, "statusRecords"), QStringLiteral("Records: ?"));
    QCOMPARE(labelText(w, "statusDuplicates"), QStringLiteral("Duplicates: ?"));
    QCOMPARE(labelText(w, "statusAttempts"), QStringLiteral("Attempts: ?"));
    // The worst case too: a lesson may ask for exactly that number.
    QCOMPARE(labelText(w, "statusWorstCase"), QStringLiteral("Worst case: ?"));
    // Not red and bold either: that would tell the class there are duplicates.
    const auto *duplicates = w.findChild<QLabel *>(QStringLiteral("statusDuplicates"));
    QVERIFY(!duplicates->font().bold());
    QCOMPARE(w.pages()->currentIndex(), int(MainWindow::Page::Timeline));
    for (const MainWindow::Page page : {MainWindow::Page::Charts, MainWindow::Page::Records, MainWindow::Page::Log})
        QVERIFY(!w.pages()->isTabEnabled(int(page)));
    // A new seed is a new round: still hidden.
    w.findChild<QLineEdit *>(QStringLiteral("seedEdit"))->setText(QStringLiteral("7"));
    QTest::keyClick(w.findChild<QLineEdit *>(QStringLiteral("seedEdit")), Qt::Key_Return);
    QVERIFY(waitForIdle(w));
    const Metrics seven = w.result().metrics;
    QCOMPARE(labelText(w, "statusRecords"), QStringLiteral("Records: ?"));
    // The class says 20 records, 0 duplicates, 20 attempts; Reveal shows the run's and compares.
    panel->setPrediction(Prediction{20, 0, 20});
    QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("predictReveal")), Qt::LeftButton);
    QCOMPARE(labelNumber(w, "statusRecords"), seven.records);
    QCOMPARE(labelNumber(w, "statusDuplicates"), seven.duplicates);
    QCOMPARE(duplicates->font().bold(), seven.duplicates > 0); // the warning is back with the number
    QVERIFY(w.pages()->isTabEnabled(int(MainWindow::Page::Charts)));
    QCOMPARE(labelText(w, "statusWorstCase"), QStringLiteral("Worst case: 3 x 3 = 9 attempts per op"));
    const QString said = w.findChild<QLabel *>(QStringLiteral("predictResult"))->text();
    QVERIFY2(said.contains(QStringLiteral("You said 20 records: the server holds %1.").arg(seven.records)), qPrintable(said));
    // Leaving prediction mode shows everything again.
    predict->setChecked(false);
    QVERIFY(!w.findChild<PredictionPanel *>(QStringLiteral("prediction"))->isVisible());
    QVERIFY2(labelText(w, "statusAttempts").startsWith(QStringLiteral("Attempts: %1 (").arg(seven.httpAttempts)),
             qPrintable(labelText(w, "statusAttempts")));
}

void TestMainWindow::predictionComparisonWords()
{
    Metrics m;
    m.records = 32;
    m.duplicates = 12;
    m.httpAttempts = 32;
    QCOMPARE(comparePrediction(Prediction{20, 0, 32}, m),
             QStringLiteral("You said 20 records: the server holds 32. You said 0 duplicates: there are 12. "
                            "You said 32 attempts: right."));
    m.records = 1;
    m.duplicates = 0;
    m.httpAttempts = 1;
    QCOMPARE(comparePrediction(Prediction{1, 1, 2}, m),
             QStringLiteral("You said 1 record: right. You said 1 duplicate: there are none. "
                            "You said 2 attempts: the client made 1."));
}

void TestMainWindow::handoutOfALoadLesson()
{
    // metastable's trace is big enough to be counted in the background: the handout waits for it
    // and its last page is the load over time, drawn.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("metastable.pdf"));
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("metastable")));
    QVERIFY(waitForIdle(w));
    QString error;
    QVERIFY2(w.exporter()->exportTo(Exporter::Kind::HandoutPdf, file, &error), qPrintable(error));
    QProcess info;
    info.start(QStandardPaths::findExecutable(QStringLiteral("pdfinfo")), {file});
    QVERIFY(info.waitForFinished(30000));
    QVERIFY(QString::fromUtf8(info.readAllStandardOutput()).contains(QRegularExpression(QStringLiteral("Pages:\\s+5\\b"))));
    QProcess text;
    text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")),
               {QStringLiteral("-f"), QStringLiteral("5"), QStringLiteral("-l"), QStringLiteral("5"), file, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(30000));
    const QString last = QString::fromUtf8(text.readAllStandardOutput()).simplified();
    QVERIFY2(last.contains(QLatin1String("Load over time")) && last.contains(QLatin1String("counted in")), qPrintable(last));
    QVERIFY2(!last.contains(QLatin1String("run a scenario")), qPrintable(last));
    // A wrong suffix is refused, naming the file.
    QVERIFY(!w.exporter()->exportTo(Exporter::Kind::HandoutPdf, dir.filePath(QStringLiteral("x.png")), &error));
    QVERIFY2(error.contains(QLatin1String("ending in .pdf")), qPrintable(error));
}

void TestMainWindow::loadLessonsOpenChartsOnLoad()
{
    MainWindow w;
    auto *charts = w.findChild<ChartsPanel *>();
    QVERIFY(charts);
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QCOMPARE(charts->currentTab(), int(ChartsPanel::DuplicatesTab));
    for (const char *name : {"metastable", "retry-storm", "jitter-contention"}) {
        QVERIFY(w.loadPreset(QLatin1String(name)));
        QCOMPARE(charts->currentTab(), int(ChartsPanel::LoadTab));
    }
    // Back to a one-client lesson: its duplicates, not an empty load chart.
    QVERIFY(w.loadPreset(QStringLiteral("stable-key")));
    QCOMPARE(charts->currentTab(), int(ChartsPanel::DuplicatesTab));
    // A tab the user chose stays for another one-client lesson.
    charts->setCurrentTab(ChartsPanel::AttemptsTab);
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QCOMPARE(charts->currentTab(), int(ChartsPanel::AttemptsTab));
}

void TestMainWindow::worstCaseText()
{
    Scenario s;
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.client.wrapper.enabled = true;
    s.client.wrapper.maxAttempts = 3;
    s.client.transport.enabled = false;
    QCOMPARE(s.worstCaseText(), QStringLiteral("3 x 3 = 9"));
    s.client.wrapper.enabled = false;
    QCOMPARE(s.worstCaseText(), QStringLiteral("3")); // not "3 = 3"
    s.client.business.enabled = false;
    QCOMPARE(s.worstCaseText(), QStringLiteral("1"));

    MainWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("stable-key")));
    s = w.scenario();
    const auto *label = w.findChild<QLabel *>(QStringLiteral("statusWorstCase"));
    QVERIFY(!label->text().contains(QLatin1String(" = ")) || s.worstCaseText().contains(QLatin1String(" x ")));
    // Retry until success: the bound is the deadline, not deadline / 1 ms attempts.
    QVERIFY(w.loadPreset(QStringLiteral("jitter-contention")));
    QCOMPARE(label->text(), QStringLiteral("Worst case: retries until 3 min 00 s"));
}

void TestMainWindow::editKeepsOperationNewScenarioOpensOnStory()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const int story = storyOperation(w.result());
    QVERIFY(story > 1); // ghost-request's lesson is not in op 1: the test would prove nothing otherwise
    QCOMPARE(w.currentOperation(), story);

    // An edit keeps the operation the class is looking at.
    w.setOperation(2);
    QSignalSpy results(w.runController(), &RunController::resultReady);
    w.editor()->findChild<QDoubleSpinBox *>(QStringLiteral("network.responseLoss"))->setValue(31);
    QVERIFY(results.wait(RunTimeoutMs));
    QCOMPARE(w.currentOperation(), 2);

    // Another preset opens on its own story, even after the user moved away.
    QVERIFY(w.loadPreset(QStringLiteral("query-before-retry")));
    QVERIFY(waitForIdle(w));
    const int queryStory = storyOperation(w.result());
    QCOMPARE(w.currentOperation(), queryStory);
    bool query = false;
    for (const TraceEvent &e : w.result().trace)
        query |= e.op == queryStory && e.kind == EventKind::QuerySent;
    QVERIFY2(query, "query-before-retry must open on an operation that sends a status query");
}

void TestMainWindow::nextPreviousInterestingOperation()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const QList<InterestingOp> &ops = w.interestingOperations();
    QCOMPARE(ops, retrylab::interestingOperations(w.result()));
    QVERIFY(ops.size() >= 2);
    auto *next = w.findChild<QAction *>(QStringLiteral("nextInteresting"));
    auto *previous = w.findChild<QAction *>(QStringLiteral("previousInteresting"));
    auto *why = w.findChild<QLabel *>(QStringLiteral("operationWhy"));
    QVERIFY(next && previous && why);

    // Before the first interesting op: only "next" works, and it lands exactly on it.
    w.setOperation(qMax(1, ops.first().op - 1));
    if (ops.first().op == 1)
        w.setOperation(1);
    const int start = w.currentOperation();
    next->trigger();
    const int firstAfter = [&] {
        for (const InterestingOp &i : ops)
            if (i.op > start)
                return i.op;
        return -1;
    }();
    QCOMPARE(w.currentOperation(), firstAfter);
    QCOMPARE(why->text(), story::describe(*std::find_if(ops.cbegin(), ops.cend(),
                                                        [&](const InterestingOp &i) { return i.op == firstAfter; })));
    // Walk to the last one; "next" is then disabled and does nothing.
    for (int guard = 0; guard < ops.size() + 2 && next->isEnabled(); ++guard)
        next->trigger();
    QCOMPARE(w.currentOperation(), ops.last().op);
    QVERIFY(!next->isEnabled());
    QVERIFY(previous->isEnabled());
    next->trigger();
    QCOMPARE(w.currentOperation(), ops.last().op);
    // The keyboard: Ctrl+Shift+Left anywhere, Page Up/Down on the timeline (a presentation clicker).
    QTest::keyClick(&w, Qt::Key_Left, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(w.currentOperation(), ops.at(ops.size() - 2).op);
    w.timeline()->setFocus();
    QTest::keyClick(w.timeline(), Qt::Key_PageDown);
    QCOMPARE(w.currentOperation(), ops.last().op);
    QTest::keyClick(w.timeline(), Qt::Key_PageUp);
    QCOMPARE(w.currentOperation(), ops.at(ops.size() - 2).op);
    // An op that is not interesting shows no reason.
    int plain = 1;
    while (std::any_of(ops.cbegin(), ops.cend(), [plain](const InterestingOp &i) { return i.op == plain; }))
        ++plain;
    w.setOperation(plain);
    QVERIFY(why->text().isEmpty());
}

void TestMainWindow::spaceInOperationBoxPlays()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    auto *spin = w.findChild<QSpinBox *>(QStringLiteral("operationSpin"));
    const int op = spin->value();
    spin->setFocus();
    QVERIFY(!w.timeline()->isPlaying());
    QTest::keyClick(spin, Qt::Key_Space);
    QVERIFY(w.timeline()->isPlaying());
    QCOMPARE(spin->value(), op);
    QVERIFY(!spin->text().contains(QLatin1String("  ")));
    QTest::keyClick(spin, Qt::Key_Space);
    QVERIFY(!w.timeline()->isPlaying());
}

void TestMainWindow::pickedRecordMovesPlayhead()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    const RunResult &result = w.result();
    // A committed record of another op than the one shown, late in its operation.
    int index = -1;
    for (int i = result.trace.size() - 1; i >= 0; --i) {
        const TraceEvent &e = result.trace.at(i);
        if (e.kind == EventKind::Committed && e.op != w.currentOperation()) {
            index = i;
            break;
        }
    }
    QVERIFY(index >= 0);
    const TraceEvent picked = result.trace.at(index);
    w.showPage(MainWindow::Page::Records);
    Q_EMIT w.recordsView()->eventSelected(index);
    QCOMPARE(w.currentOperation(), picked.op);
    QCOMPARE(w.timeline()->playhead(), picked.t);
    // The same from the log.
    int other = -1;
    for (int i = 0; i < result.trace.size(); ++i) {
        if (result.trace.at(i).op == picked.op && result.trace.at(i).t < picked.t) {
            other = i;
            break;
        }
    }
    QVERIFY(other >= 0);
    Q_EMIT w.logView()->eventSelected(other);
    QCOMPARE(w.timeline()->playhead(), result.trace.at(other).t);
}

void TestMainWindow::statusBarShowsQueriesAndReconciliation()
{
    MainWindow w;
    w.show();
    auto *queries = w.findChild<QLabel *>(QStringLiteral("statusQueries"));
    auto *outstanding = w.findChild<QLabel *>(QStringLiteral("statusOutstanding"));
    QVERIFY(queries && outstanding);

    QVERIFY(w.loadPreset(QStringLiteral("query-before-retry")));
    QVERIFY(waitForIdle(w));
    QVERIFY(w.result().metrics.queries > 0);
    QVERIFY(queries->isVisible());
    QCOMPARE(labelNumber(w, "statusQueries"), w.result().metrics.queries);
    QVERIFY(!outstanding->isVisible());

    QVERIFY(w.loadPreset(QStringLiteral("reconciliation")));
    QVERIFY(waitForIdle(w));
    const Metrics &m = w.result().metrics;
    QVERIFY(m.voided > 0);
    QVERIFY(outstanding->isVisible());
    QVERIFY(!queries->isVisible());
    QCOMPARE(labelNumber(w, "statusOutstanding"), m.duplicatesOutstanding);
    QVERIFY2(outstanding->text().startsWith(QStringLiteral("%1 voided").arg(m.voided)), qPrintable(outstanding->text()));
    QCOMPARE(labelNumber(w, "statusDuplicates"), m.duplicates);

    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    QVERIFY(!outstanding->isVisible());
    QVERIFY(!queries->isVisible());
}

void TestMainWindow::hiddenPagesUpdateWhenShown()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    QCOMPARE(w.currentPage(), MainWindow::Page::Timeline);
    const int before = w.recordsView()->model()->rowCount();

    QSignalSpy results(w.runController(), &RunController::resultReady);
    w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"))->setValue(7);
    QVERIFY(results.wait(RunTimeoutMs));
    const RunResult &result = w.result();
    QCOMPARE(int(result.ops.size()), 7);
    // Hidden: still the old rows (nothing spent on it) until the page is shown.
    QCOMPARE(w.recordsView()->model()->rowCount(), before);
    w.showPage(MainWindow::Page::Records);
    QVERIFY(w.recordsView()->model()->rowCount() != before);
    QVERIFY(w.charts()->result().ops.size() != 7); // charts not shown yet: nothing spent on them
    QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(w.currentPage(), MainWindow::Page::Charts);
    QCOMPARE(w.charts()->result().ops.size(), 7);
    QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier);
    QCOMPARE(w.currentPage(), MainWindow::Page::Log);
    QCOMPARE(w.logView()->model()->rowCount(), int(result.trace.size()));
}

void TestMainWindow::newSeedKeepsTheLesson()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    auto *seedEdit = w.findChild<QLineEdit *>(QStringLiteral("seedEdit"));
    auto *newSeed = w.findChild<QAction *>(QStringLiteral("newSeed"));
    QVERIFY(seedEdit && newSeed);
    QCOMPARE(seedEdit->text(), QString::number(w.scenario().seed));
    const quint64 old = w.scenario().seed;

    QSignalSpy results(w.runController(), &RunController::resultReady);
    w.setOperation(1);
    newSeed->trigger();
    QVERIFY(results.wait(RunTimeoutMs));
    QVERIFY(w.scenario().seed != old);
    QCOMPARE(w.result().scenario.seed, w.scenario().seed);
    QCOMPARE(seedEdit->text(), QString::number(w.scenario().seed));
    QCOMPARE(w.currentOperation(), storyOperation(w.result())); // the new run's story
    QVERIFY(w.isModified());

    // Typing a seed and pressing Enter runs it.
    seedEdit->setFocus();
    seedEdit->selectAll();
    QTest::keyClicks(seedEdit, QStringLiteral("12345"));
    QTest::keyClick(seedEdit, Qt::Key_Return);
    QVERIFY(results.wait(RunTimeoutMs));
    QCOMPARE(w.result().scenario.seed, quint64(12345));
    // Not a number: the field goes back to the seed in use.
    seedEdit->setText(QString());
    Q_EMIT seedEdit->editingFinished();
    QCOMPARE(seedEdit->text(), QStringLiteral("12345"));
}

void TestMainWindow::attemptsBarOpensOperation()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    w.showPage(MainWindow::Page::Charts);
    w.setOperation(1);
    Q_EMIT w.charts()->operationActivated(5);
    QCOMPARE(w.currentOperation(), 5);
    QCOMPARE(w.currentPage(), MainWindow::Page::Timeline);
    QCOMPARE(w.findChild<QSpinBox *>(QStringLiteral("operationSpin"))->value(), 5);
}

void TestMainWindow::killedStartDoesNotReloadItsScenario()
{
    {
        Settings s;
        s.setLastScenario(QStringLiteral("key-expiry"));
    }
    {
        // A normal start: pending while the remembered scenario loads, cleared once it is shown.
        MainWindow w;
        QCOMPARE(w.scenario().name, QStringLiteral("key-expiry"));
        QVERIFY(Settings().lastScenarioPending());
        QVERIFY(waitForIdle(w));
        QTRY_VERIFY(!Settings().lastScenarioPending());
    }
    // The last start never got as far as a result (hung, killed): this one does not try again.
    Settings().setLastScenarioPending(true);
    MainWindow w;
    QVERIFY(w.scenario().name != QStringLiteral("key-expiry"));
    QVERIFY(!Settings().lastScenarioPending());
    QVERIFY(w.statusBar()->currentMessage().contains(QLatin1String("key-expiry")));
    QVERIFY(waitForIdle(w));
}

void TestMainWindow::tooMuchWorkIsRefusedNotRun()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    RunController *run = w.runController();
    auto *refused = w.findChild<QLabel *>(QStringLiteral("statusRefused"));
    QVERIFY(refused && !refused->isVisible());
    const int opsBefore = int(w.result().ops.size());

    // ghost-request makes at most 3 x 3 = 9 attempts per order: pin the boundary exactly.
    run->setMaxAttempts(9 * 1000);
    QSignalSpy refusals(run, &RunController::runRefused);
    QSignalSpy started(run, &RunController::runStarted);
    auto *orders = w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    orders->setValue(1001);
    QTRY_COMPARE(refusals.count(), 1);
    QCOMPARE(started.count(), 0); // nothing ran
    QVERIFY(!run->isBusy());
    QVERIFY(refused->isVisible());
    QVERIFY2(run->refusal().contains(QLatin1String("workload.orders 1001")), qPrintable(run->refusal()));
    QVERIFY(refused->toolTip() == run->refusal());
    QCOMPARE(int(w.result().ops.size()), opsBefore); // the last result stays

    QSignalSpy results(run, &RunController::resultReady);
    orders->setValue(1000); // exactly at the limit: runs
    QVERIFY(results.wait(RunTimeoutMs));
    QCOMPARE(refusals.count(), 1);
    QCOMPARE(int(w.result().ops.size()), 1000);
    QVERIFY(!refused->isVisible());
    QVERIFY(run->refusal().isEmpty());
}

void TestMainWindow::resultFromElsewhereIsScanned()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("stable-key")));
    QVERIFY(waitForIdle(w));
    // A result the controller did not run itself still comes with its interesting operations.
    const RunResult other = simulate(scenario::preset(QStringLiteral("ghost-request")).scenario);
    QSignalSpy shown(&w, &MainWindow::resultShown);
    w.runController()->setResult(other);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(w.result().ops.size(), other.ops.size());
    QCOMPARE(w.runController()->interesting(), retrylab::interestingOperations(other));
    QCOMPARE(w.interestingOperations(), w.runController()->interesting());
    QVERIFY(!w.interestingOperations().isEmpty());
}

void TestMainWindow::backgroundResultsComePrepared()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    RunController *run = w.runController();
    // Small runs stay inline and unprepared: each view derives its part when shown.
    QVERIFY(!run->prepared().ready);

    // 3,000 orders make more events than the overview indexes on the GUI thread: without
    // preparation its rows would still be indexing when the result is shown.
    auto *orders = w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    run->setSyncLimit(0); // every run in the background
    QSignalSpy started(run, &RunController::runStarted);
    QSignalSpy shown(&w, &MainWindow::resultShown);
    orders->setValue(3000);
    QVERIFY(shown.wait(RunTimeoutMs));
    QCOMPARE(started.count(), 1);
    QVERIFY(started.first().first().toBool());
    const RunResult &result = w.result();
    QCOMPARE(int(result.ops.size()), 3000);
    QVERIFY(result.trace.size() > TimelineOverview::kAsyncEvents);
    const PreparedViews &prepared = run->prepared();
    QVERIFY(prepared.ready);
    // Prepared for this result, and in view at once.
    QCOMPARE(int(prepared.records.rows.size()), int(result.records.size()));
    QCOMPARE(int(prepared.timeline.overview.rows.size()), 3000);
    QCOMPARE(prepared.charts.duplicates, result.metrics.duplicates);
    QVERIFY(!w.timeline()->overview()->isIndexing());
    QCOMPARE(w.timeline()->overview()->rowCount(), 3000);
    QVERIFY(viewsShowResult(w));
}

void TestMainWindow::preparedViewsFollowEveryResult()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    RunController *run = w.runController();
    run->setSyncLimit(0);
    auto *orders = w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    QSignalSpy shown(&w, &MainWindow::resultShown);

    // Two background results in a row, each page visited after each: every view follows.
    orders->setValue(40);
    QVERIFY(shown.wait(RunTimeoutMs));
    QCOMPARE(int(w.result().ops.size()), 40);
    QVERIFY(run->prepared().ready);
    QVERIFY(viewsShowResult(w));
    // The second lands while the records page is in view (it takes the result at once) and
    // the others are hidden (they take it when shown).
    w.showPage(MainWindow::Page::Records);
    const int before = w.recordsView()->model()->rowCount();
    orders->setValue(65);
    QVERIFY(shown.wait(RunTimeoutMs));
    QCOMPARE(int(w.result().ops.size()), 65);
    QVERIFY(w.recordsView()->model()->rowCount() != before);
    QCOMPARE(w.recordsView()->model()->rowCount(), int(w.result().records.size()));
    QVERIFY(viewsShowResult(w));

    // Back inline (unprepared) after prepared results: no prepared data of an older run shows.
    run->setSyncLimit(RunController::defaultSyncLimit);
    orders->setValue(12);
    QVERIFY(waitForIdle(w));
    QCOMPARE(int(w.result().ops.size()), 12);
    QVERIFY(!run->prepared().ready);
    QVERIFY(viewsShowResult(w));

    // A result from elsewhere after a prepared one: the same.
    run->setSyncLimit(0);
    orders->setValue(30);
    QVERIFY(shown.wait(RunTimeoutMs));
    QVERIFY(run->prepared().ready);
    const RunResult other = simulate(scenario::preset(QStringLiteral("ghost-request")).scenario);
    run->setResult(other);
    QVERIFY(!run->prepared().ready);
    QCOMPARE(w.result().ops.size(), other.ops.size());
    QVERIFY(viewsShowResult(w));
    // And one prepared elsewhere.
    Scenario third = scenario::preset(QStringLiteral("ghost-request")).scenario;
    third.workload.orders = 21;
    const RunResult thirdResult = simulate(third);
    run->setPreparedResult(thirdResult, PreparedViews::prepare(thirdResult));
    QCOMPARE(int(w.result().ops.size()), 21);
    QVERIFY(viewsShowResult(w));
}

void TestMainWindow::cancelledRunKeepsViewsOfLastResult()
{
    MainWindow w;
    w.show();
    QVERIFY(w.loadPreset(QStringLiteral("ghost-request")));
    QVERIFY(waitForIdle(w));
    RunController *run = w.runController();
    run->setSyncLimit(0);
    auto *orders = w.editor()->findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    QSignalSpy shown(&w, &MainWindow::resultShown);
    orders->setValue(25);
    QVERIFY(shown.wait(RunTimeoutMs));
    QVERIFY(viewsShowResult(w));

    // A big run dropped while it runs: no result, and the views keep showing the last one.
    orders->setValue(20000); // accepted by the memory budget, run in the background
    QTRY_VERIFY(run->isBusy());
    run->cancel();
    QVERIFY(!run->isBusy());
    // Let the dropped run finish on its worker: nothing of it may arrive.
    QTRY_COMPARE_WITH_TIMEOUT(QThreadPool::globalInstance()->activeThreadCount(), 0, RunTimeoutMs);
    QCoreApplication::processEvents();
    QCOMPARE(shown.count(), 1);
    QCOMPARE(int(w.result().ops.size()), 25);
    QVERIFY(run->prepared().ready);
    QCOMPARE(int(run->prepared().records.rows.size()), int(w.result().records.size()));
    QVERIFY(viewsShowResult(w));

    // The next run after the cancelled one shows its own data everywhere.
    orders->setValue(33);
    QVERIFY(shown.wait(RunTimeoutMs));
    QCOMPARE(int(w.result().ops.size()), 33);
    QVERIFY(viewsShowResult(w));
}

void TestMainWindow::releasedValuesAreFreedOnAWorker()
{
    // Says on which thread its value was destroyed; moved-from probes say nothing.
    struct Probe
    {
        std::shared_ptr<std::atomic<Qt::HANDLE>> freedOn = std::make_shared<std::atomic<Qt::HANDLE>>(nullptr);
        bool owner = true;
        Probe() = default;
        Probe(Probe &&other) noexcept
            : freedOn(other.freedOn)
            , owner(std::exchange(other.owner, false))
        {
        }
        Probe &operator=(Probe &&other) noexcept
        {
            drop();
            freedOn = other.freedOn;
            owner = std::exchange(other.owner, false);
            return *this;
        }
        ~Probe() { drop(); }
        void drop()
        {
            if (owner)
                freedOn->store(QThread::currentThreadId());
            owner = false;
        }
    };
    Probe a;
    Probe b;
    const auto freedA = a.freedOn;
    const auto freedB = b.freedOn;
    releaseInBackground(std::move(a), std::move(b));
    QTRY_VERIFY(freedA->load() != nullptr && freedB->load() != nullptr);
    QVERIFY(freedA->load() != QThread::currentThreadId());
    QVERIFY(freedB->load() != QThread::currentThreadId());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
