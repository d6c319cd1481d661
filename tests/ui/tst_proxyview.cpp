// File > Proxy… in the window: a FaultProxy in front of an in-process order server (serve, keys
// ignored), real requests through it, and what the window shows of them: the timeline, the
// records, the log and the duplicates chart, with the proxy ledger's counts.
#include "charts/chartspanel.h"
#include "document/labdocument.h"
#include "live/livecontroller.h"
#include "live/proxydialog.h"
#include "live/proxysession.h"
#include "live/subjectpanel.h"
#include "orderserver.h"
#include "faultproxy.h"
#include "faults.h"
#include "proxytrace.h"
#include "recordsmodel.h"
#include "shell/mainwindow.h"
#include "tables/logview.h"
#include "tables/recordsview.h"
#include "timeline/timelinewidget.h"
#include "tracemodel.h"

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace retrylab;

namespace {

constexpr int WaitMs = 15000;

// What one client request through the proxy ended with: an HTTP status, or 0 when it gave up.
int send(QNetworkAccessManager &net, const QUrl &proxy, const QString &ref, const QByteArray &key, int timeoutMs = 1500)
{
    QNetworkRequest request(proxy.resolved(QUrl(QStringLiteral("/orders"))));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Idempotency-Key", key);
    request.setTransferTimeout(timeoutMs); // the client's read timeout: a lost answer ends here
    QNetworkReply *reply = net.post(request, QStringLiteral("{\"ref\":\"%1\",\"qty\":1}").arg(ref).toUtf8());
    QSignalSpy finished(reply, &QNetworkReply::finished);
    const bool done = finished.wait(WaitMs);
    const int status = done ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : -1;
    reply->deleteLater();
    return status;
}

} // namespace

class TestProxyView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void proxiedDuplicatesShowInTheWindow();
    void viewNamesTheServiceNotThePreset();
    void faultSummaryNamesEachFaultThatStrikes();
    void proxyTraceLinksEachExchange();
    void dialogReadsTheFieldTable();
    void badUpstreamIsRefusedWithAReason();
};

void TestProxyView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLabProxyView"));
    QSettings().clear();
}

// A ghost on someone else's service: the proxy loses the answer of a committed POST, the client
// times out and retries with the same key, and the service (keys ignored) creates the order twice.
void TestProxyView::proxiedDuplicatesShowInTheWindow()
{
    OrderServer upstream;
    ServeOptions serve;
    serve.scenario = ServeOptions::defaultScenario();
    serve.scenario.server.idempotency.mode = IdempotencyMode::Off;
    serve.port = 0;
    QVERIFY2(upstream.start(serve).isEmpty(), "serve did not start");

    MainWindow w;
    w.show();
    ProxyOptions options;
    options.upstream = upstream.url();
    options.port = 0;
    options.orderField = QStringLiteral("ref");
    Scenario faults = ServeOptions::defaultScenario(); // no faults by dice: the test forces them
    QString error;
    QVERIFY2(w.live()->startProxy(options, faults, &error), qPrintable(error));
    QVERIFY(w.live()->isProxying());
    ProxySession *session = w.live()->proxySession();
    QVERIFY(session->url().port() > 0);

    QNetworkAccessManager net;
    session->proxy()->forceNext(FaultKind::ResponseLost);
    QCOMPARE(send(net, session->url(), QStringLiteral("ORD-0001"), "k-1"), 0); // timed out: the ghost
    QCOMPARE(send(net, session->url(), QStringLiteral("ORD-0001"), "k-1"), 201); // the retry: created again
    QCOMPARE(send(net, session->url(), QStringLiteral("ORD-0002"), "k-2"), 201);

    LabDocument *doc = w.document();
    QVERIFY(QTest::qWaitFor([&] { return doc->source() == ResultSource::Proxy && doc->result().metrics.httpAttempts == 3; }, WaitMs));
    const ProxyLedger::Totals ledger = session->proxy()->ledger().totals();
    const Metrics &m = doc->result().metrics;
    QCOMPARE(ledger.duplicates, 1);
    QCOMPARE(qint64(m.duplicates), ledger.duplicates);
    QCOMPARE(qint64(m.records), ledger.created);
    QCOMPARE(m.records, 3);
    QCOMPARE(m.logicalOperations, 2);
    QCOMPARE(m.lateCommits, 0); // the answer was lost after the commit: in time, then dropped
    // The records table: three orders, one of them the duplicate.
    w.showPage(LabFrame::Page::Records);
    QTRY_COMPARE(w.recordsView()->model()->rowCount(), 3);
    int duplicates = 0;
    for (const RecordRow &r : doc->result().records)
        duplicates += r.duplicate ? 1 : 0;
    QCOMPARE(duplicates, 1);
    // The duplicates chart ends at the ledger's count.
    w.showPage(LabFrame::Page::Charts);
    w.charts()->setCurrentTab(ChartsPanel::DuplicatesTab);
    QTRY_VERIFY(!w.charts()->duplicateSeries().isEmpty());
    QCOMPARE(w.charts()->duplicateSeries().constLast().y(), double(ledger.duplicates));
    // The timeline shows ORD-0001's two attempts; the log lists the lost answer.
    w.setOperation(doc->result().records.constFirst().op);
    QCOMPARE(w.timeline()->operation(), doc->result().records.constFirst().op);
    bool lost = false;
    for (const TraceEvent &e : doc->result().trace)
        lost = lost || e.kind == EventKind::ResponseLost;
    QVERIFY(lost);
    w.showPage(LabFrame::Page::Log);
    QTRY_VERIFY(w.logView()->model()->rowCount() >= 3 * 4);
    w.showPage(LabFrame::Page::Timeline);
    QTRY_VERIFY(w.timeline()->itemCount() > 0);

    // Stopped: the last picture stays, the scenario can be edited again.
    w.live()->stopProxy();
    QVERIFY(!w.live()->isProxying());
    QCOMPARE(doc->result().metrics.duplicates, 1);
    upstream.stop();
}

// The window shows the proxied service, not the preset that was open before: its title and the
// Scenario dock's place name the upstream, the faults and the ledger's counts.
void TestProxyView::viewNamesTheServiceNotThePreset()
{
    OrderServer upstream;
    ServeOptions serve;
    serve.scenario = ServeOptions::defaultScenario();
    serve.port = 0;
    QVERIFY2(upstream.start(serve).isEmpty(), "serve did not start");
    MainWindow w;
    w.show();
    QVERIFY(w.loadScenario(QStringLiteral("ghost-request")));
    const QString presetTitle = w.windowTitle().section(QStringLiteral("[*]"), 0, 0);
    QVERIFY(!presetTitle.isEmpty());
    ProxyOptions options;
    options.upstream = upstream.url();
    options.port = 0;
    Scenario faults = ServeOptions::defaultScenario();
    faults.network.responseLoss = 1.0; // every answer lost: one request, one orphan, whatever the dice
    QString error;
    QVERIFY2(w.live()->startProxy(options, faults, &error), qPrintable(error));
    ProxySession *session = w.live()->proxySession();
    SubjectPanel *panel = w.live()->subjectPanel();
    const QString service = upstream.url().toString();
    QTRY_COMPARE(panel->heading(), QStringLiteral("Proxy in front of your service"));
    QVERIFY(w.live()->subjectDock()->isVisible());
    QCOMPARE(w.windowTitle(), QStringLiteral("Proxy in front of %1[*] \u2014 RetryLab").arg(service));
    QCOMPARE(panel->details(), QStringLiteral("Your service:\n  %1\nPoint your client at:\n  %2\nFaults:\n"
                                              "  \u2022 Lose the answer (after the commit): 100 %")
                                   .arg(service, session->url().toString()));
    QCOMPARE(panel->counts(), QStringLiteral("Requests: 0\nOrders: 0\nCreated: 0\nDuplicates: 0\nOrphans: 0"));

    QNetworkAccessManager net;
    QCOMPARE(send(net, session->url(), QStringLiteral("ORD-0001"), "k-1", 800), 0); // the answer was lost
    QTRY_COMPARE_WITH_TIMEOUT(panel->counts(), QStringLiteral("Requests: 1\nOrders: 1\nCreated: 1\nDuplicates: 0\nOrphans: 1"), WaitMs);
    w.live()->stopProxy();
    QCOMPARE(panel->heading(), QStringLiteral("The proxy has stopped"));
    QVERIFY(panel->details().startsWith(QStringLiteral("Your service:\n  %1\nFaults:").arg(service)));
    // The proxy's last picture is still on show, and named so.
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("Proxy in front of %1").arg(service)));
    upstream.stop();
}

void TestProxyView::faultSummaryNamesEachFaultThatStrikes()
{
    Scenario s = ServeOptions::defaultScenario();
    QCOMPARE(ProxyDialog::faultSummary(s), QStringList());
    s.network.requestLoss = 0.05;
    s.network.latencySpike = 0.2;
    s.network.spikeMs = 1500;
    s.server.throttle429 = 0.1;
    s.server.retryAfterS = 2;
    QCOMPARE(ProxyDialog::faultSummary(s),
             (QStringList{QStringLiteral("Lose the request: 5 %"), QStringLiteral("Hold the request: 20 % \u00b7 Held for: 1,500 ms"),
                          QStringLiteral("429 instead of forwarding: 10 % \u00b7 Retry-After of a 429: 2 s")}));
}

void TestProxyView::proxyTraceLinksEachExchange()
{
    // A held request the client gave up on, committed afterwards: late (its Timeout came first).
    ProxyExchange e;
    e.id = 1;
    e.method = "POST";
    e.target = "/orders";
    e.key = "k";
    e.op = 1;
    e.arrival = 1;
    e.faults = faults::Spike;
    e.receivedUs = 1000;
    e.forwardedUs = 900000;
    e.upstream = ProxyUpstreamOutcome::Answered;
    e.upstreamStatus = 201;
    e.resourceId = QStringLiteral("17");
    e.upstreamUs = 950000;
    e.client = ProxyClientOutcome::NoAnswer;
    e.finishedUs = 500000;
    ProxyTrace trace;
    trace.reset(ServeOptions::defaultScenario());
    trace.append(e);
    const RunResult r = trace.result();
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.lateCommits, 1);
    QCOMPARE(r.records.size(), 1);
    QCOMPARE(r.records.constFirst().t, 950000);
    // Time order, and each event answers an earlier one.
    QList<EventKind> kinds;
    for (int i = 0; i < r.trace.size(); ++i) {
        kinds << r.trace.at(i).kind;
        if (i > 0)
            QVERIFY(r.trace.at(i).t >= r.trace.at(i - 1).t);
    }
    QCOMPARE(kinds, (QList<EventKind>{EventKind::TransportAttempt, EventKind::RequestDelayed, EventKind::Timeout,
                                      EventKind::RequestArrived, EventKind::Committed, EventKind::ResponseSent}));
}

void TestProxyView::dialogReadsTheFieldTable()
{
    Scenario s = ServeOptions::defaultScenario();
    s.network.responseLoss = 0.3;
    ProxyOptions o;
    ProxyDialog dialog(o, s);
    QDoubleSpinBox *loss = dialog.faultField(QStringLiteral("network.responseLoss"));
    QVERIFY(loss);
    QCOMPARE(loss->value(), 30.0); // a probability as a percentage, as the editor shows it
    loss->setValue(55);
    dialog.faultField(QStringLiteral("network.spikeMs"))->setValue(1500);
    QStringList errors;
    const Scenario f = dialog.faults(&errors);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(f.network.responseLoss, 0.55);
    QCOMPARE(f.network.spikeMs, 1500);
    // Past the field's bound (100 %): the validator names the field.
    loss->setValue(loss->maximum());
    dialog.faults(&errors);
    QVERIFY(!errors.isEmpty());
    QVERIFY2(errors.constFirst().contains(QLatin1String("network.responseLoss")), qPrintable(errors.constFirst()));
}

void TestProxyView::badUpstreamIsRefusedWithAReason()
{
    ProxySession session;
    ProxyOptions o;
    o.upstream = QUrl(QStringLiteral("ftp://example.org"));
    o.port = 0;
    const QString error = session.start(ServeOptions::defaultScenario(), o);
    QVERIFY(!error.isEmpty());
    QVERIFY(!session.isRunning());
    QVERIFY2(error.contains(QLatin1String("upstream")), qPrintable(error));
}

QTEST_MAIN(TestProxyView)
#include "tst_proxyview.moc"
