#include "shell/mainwindow.h"
#include "uitestsupport.h"
#include "orderserver.h"
#include "recordsmodel.h"
#include "tables/recordsview.h"
#include "charts/chartspanel.h"
#include "tables/logview.h"
#include "editor/scenarioeditor.h"
#include "timeline/timelinewidget.h"
#include "tracemodel.h"
#include "live/watchpanel.h"
#include "live/watchservedialog.h"
#include "live/watchsession.h"
#include "shell/statusoutcome.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QJsonObject>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTcpServer>
#include <QCheckBox>
#include <QSpinBox>
#include <QTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QChartView>
#include <QAbstractAxis>

using namespace retrylab;

namespace {

using test::labelNumber;
using test::labelText;

constexpr int ReplyTimeoutMs = 10000;


struct Answer
{
    int status = 0;
    bool replayed = false;
};

// One POST /orders from an outside client, over a real socket.
Answer post(QNetworkAccessManager &net, const QUrl &base, const QString &ref, const QByteArray &key,
            const QByteArray &requestId)
{
    QNetworkRequest request(QUrl(base.toString() + QStringLiteral("/orders")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (!key.isEmpty())
        request.setRawHeader("Idempotency-Key", key);
    if (!requestId.isEmpty())
        request.setRawHeader("X-Request-ID", requestId);
    QNetworkReply *reply = net.post(request, QStringLiteral("{\"ref\":\"%1\",\"item\":\"book\"}").arg(ref).toUtf8());
    QSignalSpy done(reply, &QNetworkReply::finished);
    Answer a;
    if (done.wait(ReplyTimeoutMs)) {
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.replayed = reply->rawHeader("Idempotent-Replayed") == "true";
    }
    reply->deleteLater();
    return a;
}

// A window on a scenario with no faults, so every answer arrives.
bool loadQuietScenario(MainWindow &w, const QTemporaryDir &dir)
{
    const QString file = dir.filePath(QStringLiteral("quiet.json"));
    Scenario s = ServeOptions::defaultScenario();
    s.name = QStringLiteral("quiet");
    if (!scenario::save(s, file).isEmpty())
        return false;
    return w.loadFile(file);
}

WatchOptions anyFreePort()
{
    WatchOptions o;
    o.port = 0;
    return o;
}

// The window shown on the quiet scenario, serving it on a free port.
bool serveQuietScenario(MainWindow &w, const QTemporaryDir &dir)
{
    w.show();
    return loadQuietScenario(w, dir) && w.live()->startServing(anyFreePort());
}

} // namespace

class TestWatch : public QObject
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

    void postWithoutKeyTwiceMakesTwoRecords()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadQuietScenario(w, dir));
        QString error;
        QVERIFY2(w.live()->startServing(anyFreePort(), &error), qPrintable(error));
        QVERIFY(w.live()->isServing());
        QVERIFY(w.live()->watchDock()->isVisible());
        const QUrl url = w.live()->watchSession()->url();

        QNetworkAccessManager net;
        QCOMPARE(post(net, url, QStringLiteral("ORD-0004"), QByteArray(), "req-a").status, 201);
        QCOMPARE(post(net, url, QStringLiteral("ORD-0004"), QByteArray(), "req-b").status, 201);

        QTRY_COMPARE(w.result().records.size(), 2);
        QTRY_COMPARE(labelNumber(w, "statusRecords"), 2);
        QCOMPARE(labelNumber(w, "statusDuplicates"), 1);
        // The timeline shows the order of the latest request, with every event of both requests.
        QCOMPARE(w.currentOperation(), 4);
        QVERIFY(w.timeline()->source() == ResultSource::Watch);
        int events = 0;
        for (const TraceEvent &e : w.result().trace)
            events += e.op == 4 ? 1 : 0;
        QVERIFY(events >= 8);
        QCOMPARE(w.timeline()->itemCount(), events);
        // The records table groups them under the reference, with each request's ID.
        w.showPage(MainWindow::Page::Records);
        const RecordsModel *records = w.recordsView()->model();
        QCOMPARE(records->rowCount(), 2);
        QCOMPARE(records->record(0).ref, QStringLiteral("ORD-0004"));
        QCOMPARE(records->record(0).requestId, QStringLiteral("req-a"));
        QCOMPARE(records->record(1).requestId, QStringLiteral("req-b"));
        QCOMPARE(records->state(1), RecordsModel::State::Duplicate);
        // The log lists the same events.
        w.showPage(MainWindow::Page::Log);
        QCOMPARE(w.logView()->model()->rowCount(), int(w.result().trace.size()));
        // The duplicates chart runs on the server's real clock.
        w.showPage(MainWindow::Page::Charts);
        bool realTimeAxis = false;
        const QList<QChartView *> views = w.charts()->findChildren<QChartView *>();
        for (const QChartView *view : views) {
            const QList<QAbstractAxis *> axes = view->chart()->axes();
            for (const QAbstractAxis *axis : axes)
                realTimeAxis |= axis->titleText() == QLatin1String("time since the server started (s)");
        }
        QVERIFY(realTimeAxis);
        // What only the client can know is not claimed.
        QCOMPARE(labelNumber(w, "statusOrphans"), -1);
        QCOMPARE(labelNumber(w, "statusLost"), -1);
        const auto *counts = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchCounts"));
        QVERIFY(counts->text().contains(QStringLiteral("2 requests arrived")));
        QVERIFY(counts->text().contains(QStringLiteral("1 duplicate")));
    }

    // The status bar said "Serving at http://127.0.0.1:…" twice: the serving label and a passing
    // message beside it. Once is enough, and it stays.
    void servingIsSaidOnce()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        QStatusBar *bar = w.statusBar();
        auto times = [bar] {
            QStringList texts{bar->currentMessage()};
            const QList<QLabel *> labels = bar->findChildren<QLabel *>();
            for (const QLabel *label : labels) {
                if (label->isVisible())
                    texts << label->text();
            }
            return int(texts.join(QLatin1Char('\n')).count(QStringLiteral("Serving at")));
        };
        QTRY_VERIFY(times() >= 1);
        QCOMPARE(times(), 1);
        QVERIFY(w.statusOutcome()->watchLabel()->text().startsWith(QStringLiteral("Serving at http://")));
    }

    void sameKeyTwiceIsOneRecordAndAReplay()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        const QUrl url = w.live()->watchSession()->url();

        QNetworkAccessManager net;
        const Answer first = post(net, url, QStringLiteral("ORD-0009"), "key-nine", "req-1");
        const Answer second = post(net, url, QStringLiteral("ORD-0009"), "key-nine", "req-2");
        QCOMPARE(first.status, 201);
        QVERIFY(!first.replayed);
        QCOMPARE(second.status, 201);
        QVERIFY(second.replayed);

        QTRY_COMPARE(w.result().metrics.replays, 1);
        QCOMPARE(w.result().records.size(), 1);
        QCOMPARE(w.result().records.at(0).key, QStringLiteral("key-nine"));
        QTRY_COMPARE(labelNumber(w, "statusRecords"), 1);
        QCOMPARE(labelNumber(w, "statusDuplicates"), 0);
        QCOMPARE(w.currentOperation(), 9);
        QCOMPARE(w.findChild<QLabel *>(QStringLiteral("operationWhy"))->text(),
                 QStringLiteral("ORD-0009 \u00b7 replay"));
        bool replayOnTimeline = false;
        for (const TraceEvent &e : w.result().trace)
            replayOnTimeline |= e.kind == EventKind::Replayed && e.op == 9 && e.requestId() == QLatin1String("req-2");
        QVERIFY(replayOnTimeline);
        w.showPage(MainWindow::Page::Records);
        QCOMPARE(w.recordsView()->model()->rowCount(), 1);
        QCOMPARE(w.recordsView()->model()->data(w.recordsView()->model()->index(0, RecordsModel::KeyColumn)).toString(),
                 QStringLiteral("key-nine"));
        const auto *counts = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchCounts"));
        QVERIFY(counts->text().contains(QStringLiteral("1 replay")));
    }

    void notFollowingKeepsTheOperationInView()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        QNetworkAccessManager net;
        const QUrl url = w.live()->watchSession()->url();
        QCOMPARE(post(net, url, QStringLiteral("ORD-0005"), QByteArray(), "a").status, 201);
        QCOMPARE(post(net, url, QStringLiteral("ORD-0005"), QByteArray(), "b").status, 201);
        QTRY_COMPARE(w.currentOperation(), 5);
        QTRY_COMPARE(w.result().records.size(), 2);
        w.live()->watchPanel()->setFollowsLatest(false);
        const RunResult before = w.result();
        qint64 middle = 0;
        for (const TraceEvent &e : before.trace) {
            if (e.op == 5 && e.kind == EventKind::Committed) {
                middle = e.t; // the first commit: well before the end
                break;
            }
        }
        QVERIFY(middle > 0);
        w.timeline()->setPlayhead(middle);
        QCOMPARE(post(net, url, QStringLiteral("ORD-0006"), QByteArray(), "c").status, 201);
        QTRY_COMPARE(w.result().records.size(), 3);
        QCOMPARE(w.currentOperation(), 5);
        QCOMPARE(w.timeline()->playhead(), middle);
        // Following again moves to the newest order.
        w.live()->watchPanel()->setFollowsLatest(true);
        QCOMPARE(post(net, url, QStringLiteral("ORD-0007"), QByteArray(), "d").status, 201);
        QTRY_COMPARE(w.currentOperation(), 7);
    }

    void freeFormReferenceIsNamed()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        QNetworkAccessManager net;
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("tea for two"), QByteArray(), "t").status, 201);
        QTRY_COMPARE(w.result().records.size(), 1);
        QCOMPARE(w.result().records.at(0).ref, QStringLiteral("tea for two"));
        QVERIFY(w.currentOperation() > 9999); // the server numbers free-form references above ORD-NNNN
        QCOMPARE(w.findChild<QLabel *>(QStringLiteral("operationWhy"))->text(), QStringLiteral("tea for two"));
    }

    void restartIsShownWhileDown()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        QVERIFY(w.live()->watchSession()->server()->setFaults(QJsonObject{{QStringLiteral("server.restartDownMs"), 300}}).isEmpty());
        const auto *restarting = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchRestarting"));
        QVERIFY(!restarting->isVisibleTo(w.live()->watchPanel()));
        w.live()->watchSession()->server()->restart();
        QTRY_VERIFY(restarting->isVisibleTo(w.live()->watchPanel()));
        QTRY_VERIFY(!restarting->isVisibleTo(w.live()->watchPanel()));
        QVERIFY(w.live()->isServing());
    }

    void stopServingClosesThePort()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        const quint16 port = w.live()->watchSession()->server()->port();
        QVERIFY(port > 0);
        QVERIFY(!w.editor()->isEnabled()); // the server runs this scenario: no edits meanwhile
        QVERIFY(!w.findChild<QAction *>(QStringLiteral("newSeed"))->isEnabled());
        QVERIFY(w.live()->watchAction()->isChecked());
        w.resetLayout(); // the address stays in view while serving
        QVERIFY(w.live()->watchDock()->isVisible());
        {
            QTcpServer other;
            QVERIFY(!other.listen(QHostAddress::LocalHost, port));
        }
        QNetworkAccessManager net;
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0001"), QByteArray(), "r").status, 201);
        QTRY_COMPARE(w.result().records.size(), 1);

        w.live()->serveAction()->trigger(); // File > Stop serving
        QVERIFY(!w.live()->isServing());
        QTcpServer other;
        QVERIFY2(other.listen(QHostAddress::LocalHost, port), qPrintable(other.errorString()));
        other.close();
        QVERIFY(w.editor()->isEnabled());
        QVERIFY(!w.live()->watchAction()->isChecked());
        QVERIFY(w.live()->serveAction()->text().contains(QStringLiteral("Ser&ve")));
        // What arrived stays on show after the server stopped.
        QCOMPARE(w.result().records.size(), 1);
        QCOMPARE(labelNumber(w, "statusRecords"), 1);
        QVERIFY(w.timeline()->source() == ResultSource::Watch);
        // Re-run brings the simulation back, with the client's side of the story.
        QSignalSpy shown(&w, &MainWindow::resultShown);
        w.rerun();
        QTRY_VERIFY(!shown.isEmpty());
        QVERIFY(w.timeline()->source() != ResultSource::Watch);
        QVERIFY(labelNumber(w, "statusOrphans") >= 0);
        QVERIFY(!w.findChild<QLabel *>(QStringLiteral("statusLive"))->isVisibleTo(&w));
    }

    void servingAgainStartsEmpty()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        QNetworkAccessManager net;
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0001"), "k", "a").status, 201);
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0001"), "k", "b").status, 201);
        QTRY_COMPARE(w.result().metrics.replays, 1);
        w.live()->stopServing();
        QVERIFY(w.live()->startServing(anyFreePort()));
        QCOMPARE(w.result().metrics.httpAttempts, 0);
        QCOMPARE(w.result().metrics.replays, 0);
        QVERIFY(w.result().trace.isEmpty());
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0001"), "k", "c").status, 201);
        QTRY_COMPARE(w.result().metrics.records, 1);
        QCOMPARE(w.result().metrics.httpAttempts, 1);
        QCOMPARE(w.result().metrics.replays, 0); // a new store: the key is new too
    }

    void malformedOrderIsCountedAndExplained()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        QNetworkAccessManager net;
        QNetworkRequest request(QUrl(w.live()->watchSession()->url().toString() + QStringLiteral("/orders")));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = net.post(request, QByteArray("{\"ref\": \"ORD-0001\", oops}"));
        QSignalSpy done(reply, &QNetworkReply::finished);
        QVERIFY(done.wait(ReplyTimeoutMs));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 400);
        reply->deleteLater();
        const auto *last = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchLastRefusal"));
        QTRY_VERIFY(last->isVisibleTo(w.live()->watchPanel()));
        QVERIFY2(last->text().startsWith(QStringLiteral("Last refused: 400, the body is not JSON")), qPrintable(last->text()));
        const auto *counts = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchCounts"));
        QVERIFY2(counts->text().contains(QStringLiteral("1 refused")), qPrintable(counts->text()));
        QCOMPARE(w.result().records.size(), 0);
    }

    void busyPortFallsBackOrSaysSo()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(loadQuietScenario(w, dir));
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        WatchOptions o;
        o.port = squatter.serverPort();
        o.anyPortIfBusy = false;
        QString error;
        QVERIFY(!w.live()->startServing(o, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot listen")), qPrintable(error));
        QVERIFY(!w.live()->isServing());
        QVERIFY(!w.live()->watchAction()->isChecked());

        o.anyPortIfBusy = true;
        QVERIFY2(w.live()->startServing(o, &error), qPrintable(error));
        QVERIFY(w.live()->watchSession()->server()->port() != squatter.serverPort());
        QVERIFY(w.live()->watchSession()->portNote().contains(QString::number(squatter.serverPort())));
        const auto *note = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchPortNote"));
        QVERIFY(note->isVisibleTo(w.live()->watchPanel()));
        QCOMPARE(note->text(), w.live()->watchSession()->portNote());
    }

    void serveDialogSaysWhyAndStaysOpen()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadQuietScenario(w, dir));
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        QString shownError;
        bool reopened = false;
        // File > Serve… is modal: the answers come from timers running inside its event loop.
        QTimer::singleShot(0, &w, [&] {
            auto *dialog = w.findChild<WatchServeDialog *>();
            QVERIFY(dialog);
            dialog->findChild<QSpinBox *>(QStringLiteral("servePort"))->setValue(squatter.serverPort());
            dialog->findChild<QCheckBox *>(QStringLiteral("serveAnyPort"))->setChecked(false);
            QTimer::singleShot(0, &w, [&] {
                auto *again = w.findChild<WatchServeDialog *>();
                reopened = again && again->isVisible();
                if (again) {
                    shownError = again->findChild<QLabel *>(QStringLiteral("serveError"))->text();
                    again->reject();
                }
            });
            dialog->accept();
        });
        w.live()->serveAction()->trigger();
        QVERIFY(reopened);
        QVERIFY2(shownError.startsWith(QStringLiteral("cannot listen on 127.0.0.1:%1").arg(squatter.serverPort())),
                 qPrintable(shownError));
        QVERIFY(shownError.contains(QStringLiteral("pick a free one")));
        QVERIFY(!w.live()->isServing());
    }

    void watchActionServesAndStops()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.show();
        QVERIFY(loadQuietScenario(w, dir));
        w.live()->watchAction()->trigger();
        QVERIFY(w.live()->isServing()); // 8080, or a free port when 8080 is taken
        QVERIFY(w.live()->serveAction()->text().contains(QStringLiteral("Stop")));
        QVERIFY(w.live()->watchDock()->isVisible());
        const QString url = w.live()->watchSession()->commandUrl().toString();
        QVERIFY(w.live()->watchPanel()->curlCommand().contains(url + QStringLiteral("/orders")));
        QVERIFY(!w.live()->watchPanel()->curlCommand().contains(QStringLiteral("Idempotency-Key")));
        QVERIFY(w.live()->watchPanel()->curlWithKeyCommand().contains(QStringLiteral("Idempotency-Key: order-")));
        QVERIFY(w.live()->watchPanel()->pythonSnippet().contains(QStringLiteral("Retry(")));
        QVERIFY(w.live()->watchPanel()->pythonSnippet().contains(url + QStringLiteral("/orders")));
        auto *copy = w.live()->watchPanel()->findChild<QPushButton *>(QStringLiteral("curlKeyCopy"));
        QVERIFY(copy);
        copy->click();
        QCOMPARE(QApplication::clipboard()->text(), w.live()->watchPanel()->curlWithKeyCommand());
        w.live()->watchAction()->trigger();
        QVERIFY(!w.live()->isServing());
    }

    void localNetworkShowsTheAdminToken()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(loadQuietScenario(w, dir));
        WatchOptions o = anyFreePort();
        o.localNetwork = true;
        QVERIFY(w.live()->startServing(o));
        QCOMPARE(w.live()->watchSession()->server()->options().address, QHostAddress(QHostAddress::AnyIPv4));
        const QByteArray token = w.live()->watchSession()->adminToken();
        QVERIFY(!token.isEmpty());
        const auto *network = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchNetwork"));
        QVERIFY(network->text().contains(QString::fromLatin1(token)));
    }

    void requestsAreBatchedIntoOneUpdate()
    {
        WatchSession session;
        QVERIFY(session.start(ServeOptions::defaultScenario(), anyFreePort()).isEmpty());
        QSignalSpy results(&session, &WatchSession::resultReady);
        // A burst of 50 handled requests within one turn of the event loop.
        for (int i = 1; i <= 50; ++i) {
            TraceEvent e;
            e.t = i;
            e.kind = EventKind::RequestArrived;
            e.lane = Lane::Server;
            e.op = i;
            e.setDetail(QStringLiteral("POST /orders"));
            Q_EMIT session.server()->requestHandled(Trace{e});
        }
        QCOMPARE(results.size(), 0);
        QVERIFY(results.wait());
        QCOMPARE(results.size(), 1);
        const RunResult r = results.at(0).at(0).value<RunResult>();
        QCOMPARE(r.ops.size(), 50);
        QCOMPARE(results.at(0).at(1).toInt(), 50);
        QVERIFY(!results.wait(3 * WatchSession::BatchIntervalMs)); // nothing new, nothing published
    }

    void oldEventsAreDroppedWithANote()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        QVERIFY(serveQuietScenario(w, dir));
        w.live()->watchSession()->setMaxEvents(6);
        const auto *dropped = w.live()->watchPanel()->findChild<QLabel *>(QStringLiteral("watchDropped"));
        QNetworkAccessManager net;
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0001"), QByteArray(), "a").status, 201);
        QTRY_COMPARE(w.result().records.size(), 1);
        QVERIFY(!dropped->isVisibleTo(w.live()->watchPanel()));
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0002"), QByteArray(), "b").status, 201);
        QCOMPARE(post(net, w.live()->watchSession()->url(), QStringLiteral("ORD-0003"), QByteArray(), "c").status, 201);
        QTRY_VERIFY(dropped->isVisibleTo(w.live()->watchPanel()));
        QVERIFY(dropped->text().contains(QStringLiteral("newest 6 events")));
        QVERIFY(w.result().trace.size() <= 6);
        // The status bar counts every record the server holds, dropped ones included.
        QTRY_COMPARE(labelNumber(w, "statusRecords"), 3);
        const auto *live = w.findChild<QLabel *>(QStringLiteral("statusLive"));
        QVERIFY(live->text().contains(QStringLiteral("older events dropped")));
    }
};

QTEST_MAIN(TestWatch)
#include "tst_watch.moc"
