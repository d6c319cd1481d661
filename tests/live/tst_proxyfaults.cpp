// The proxy's faults against `retrylab serve` (in-process), each with its effect on both sides:
// what the client's socket saw (an answer, a close, a reset, silence), what the server
// committed, and what the ledger concluded; the dice and the script of core/faults; and the
// proxy's duplicate count against the server's own over a ghost-request-like fault mix.
#include "proxysupport.h"

#include "faults.h"

#include <QtTest>

#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace retrylab;
using namespace retrylab::test;

namespace {

QByteArray order(int ref)
{
    return "{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\",\"item\":\"book\"}";
}

Scenario serviceOff()
{
    Scenario s = ServeOptions::defaultScenario();
    s.server.idempotency.mode = IdempotencyMode::Off;
    return s;
}

int recordCount(OrderServer &server)
{
    return server.metricsJson().value(QLatin1String("records")).toInt();
}

qint64 proxyCount(const FaultProxy &proxy, const char *name)
{
    return proxy.metricsJson().value(QLatin1String("proxy")).toObject().value(QLatin1String(name)).toInteger();
}

// A POSIX socket, so that a reset (ECONNRESET) and a close (end of stream) are told apart.
class WireClient
{
public:
    explicit WireClient(quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a = {};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
            qFatal("connect failed");
        ::fcntl(m_fd, F_SETFL, O_NONBLOCK);
    }
    ~WireClient() { close(); }
    void send(const QByteArray &bytes) { QVERIFY(::send(m_fd, bytes.constData(), size_t(bytes.size()), 0) == bytes.size()); }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    // "silent" (nothing yet), "closed", "reset", or the bytes of an answer (status line first).
    QByteArray poll()
    {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (n > 0) {
                m_got.append(buffer, n);
                continue;
            }
            if (n == 0)
                return m_got.isEmpty() ? QByteArray("closed") : m_got;
            if (errno == ECONNRESET)
                return m_got.isEmpty() ? QByteArray("reset") : m_got;
            return m_got.isEmpty() ? QByteArray("silent") : m_got;
        }
    }
    // Polls in the event loop (the proxy and the server live in this thread) until something
    // other than silence, a whole answer head, or the time is up.
    QByteArray wait(int timeoutMs = 5000)
    {
        QElapsedTimer timer;
        timer.start();
        QByteArray r = poll();
        while ((r == "silent" || (!r.contains("\r\n\r\n") && r != "closed" && r != "reset")) && timer.elapsed() < timeoutMs) {
            QTest::qWait(5);
            r = poll();
        }
        return r;
    }

private:
    int m_fd = -1;
    QByteArray m_got;
};

} // namespace

class TestProxyFaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachFaultOnBothSides_data();
    void eachFaultOnBothSides();
    void latencySpikeHoldsBeforeForwarding();
    void spikeOfAnEarlierRunForwardsNothing();
    void diceAreTheSimulationsDice();
    void scriptAddressesLogicalRequestsAndAttempts();
    void faultsStrikeOnlyTheirMethods();
    void ghostDuplicatesEqualTheServersOwnCount();
};

void TestProxyFaults::eachFaultOnBothSides_data()
{
    QTest::addColumn<FaultKind>("fault");
    QTest::addColumn<QByteArray>("wire");  // what the client's socket saw
    QTest::addColumn<int>("records");      // what the server committed
    QTest::addColumn<int>("upstreamAnswers");
    QTest::addColumn<ProxyClientOutcome>("outcome");
    QTest::addColumn<int>("orphans");
    // Expectations from design.md section 1.3 and the list of faults.
    QTest::addRow("connect-failure") << FaultKind::ConnectFailure << QByteArray("closed") << 0 << 0 << ProxyClientOutcome::Refused << 0;
    QTest::addRow("request-lost") << FaultKind::RequestLost << QByteArray("silent") << 0 << 0 << ProxyClientOutcome::NoAnswer << 0;
    QTest::addRow("response-lost") << FaultKind::ResponseLost << QByteArray("silent") << 1 << 1 << ProxyClientOutcome::NoAnswer << 1;
    QTest::addRow("reset-after-commit") << FaultKind::ResetAfterCommit << QByteArray("reset") << 1 << 1 << ProxyClientOutcome::Reset << 1;
    QTest::addRow("5xx-before-commit") << FaultKind::Server5xxBeforeCommit << QByteArray("HTTP/1.1 503") << 0 << 0
                                       << ProxyClientOutcome::Answered << 0;
    QTest::addRow("5xx-after-commit") << FaultKind::Server5xxAfterCommit << QByteArray("HTTP/1.1 503") << 1 << 1
                                      << ProxyClientOutcome::Answered << 1;
    QTest::addRow("throttle-429") << FaultKind::Throttle429 << QByteArray("HTTP/1.1 429") << 0 << 0 << ProxyClientOutcome::Answered << 0;
}

void TestProxyFaults::eachFaultOnBothSides()
{
    QFETCH(FaultKind, fault);
    QFETCH(QByteArray, wire);
    QFETCH(int, records);
    QFETCH(int, upstreamAnswers);
    QFETCH(ProxyClientOutcome, outcome);
    QFETCH(int, orphans);
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.scenario.server.retryAfterS = 3;
    auto proxy = startProxy(server->url(), options);
    proxy->forceNext(fault);
    WireClient client(proxy->port());
    client.send(postOrder(order(1)));
    QByteArray seen;
    if (wire == "silent") {
        // Held: once the proxy has decided (and read the upstream's answer, if forwarded),
        // nothing reaches the client, and the connection stays open.
        QTRY_COMPARE(proxyCount(*proxy, "upstreamAnswers"), qint64(upstreamAnswers));
        QTRY_COMPARE(proxy->pending(), 1);
        QCOMPARE(recordCount(*server), records);
        QCoreApplication::processEvents();
        seen = client.poll();
        client.close(); // the client's own timeout
    } else {
        seen = client.wait();
    }
    QVERIFY2(seen.startsWith(wire), seen.constData());
    if (wire.startsWith("HTTP/1.1 ")) {
        QVERIFY2(seen.contains("\r\nRetry-After: 3\r\n"), seen.constData()); // server.retryAfterS
        QVERIFY(seen.contains("application/problem+json"));
    }
    QTRY_COMPARE(proxy->pending(), 0);
    QCOMPARE(recordCount(*server), records);
    const ProxyExchange e = proxy->exchanges().constLast();
    QCOMPARE(e.faults, faults::bit(fault));
    QCOMPARE(e.client, outcome);
    QCOMPARE(e.upstream, upstreamAnswers ? ProxyUpstreamOutcome::Answered : ProxyUpstreamOutcome::NotForwarded);
    QCOMPARE(e.upstreamStatus, upstreamAnswers ? 201 : 0);
    QCOMPARE(proxy->ledger().totals().orphans, qint64(orphans));
    QCOMPARE(proxy->ledger().totals().created, qint64(records));
    // One forced fault: the next request passes.
    QCOMPARE(exchange(proxy->port(), postOrder(order(2))).status, 201);
}

void TestProxyFaults::latencySpikeHoldsBeforeForwarding()
{
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.scenario.network.spikeMs = 300;
    auto proxy = startProxy(server->url(), options);
    proxy->forceNext(FaultKind::LatencySpike);
    QCOMPARE(exchange(proxy->port(), postOrder(order(1))).status, 201);
    const ProxyExchange e = proxy->exchanges().constLast();
    // Measured by the proxy at its edge: held network.spikeMs before the upstream saw it.
    QVERIFY2(e.forwardedUs - e.receivedUs >= 300000, qPrintable(QString::number(e.forwardedUs - e.receivedUs)));
    QCOMPARE(e.faults, quint32(faults::Spike));
    QCOMPARE(recordCount(*server), 1);
}

void TestProxyFaults::spikeOfAnEarlierRunForwardsNothing()
{
    // Exchange ids start at 1 again after stop() and start(): a spike timer of the first run must
    // not forward the held request of the second that has its id.
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.scenario.network.spikeMs = 200;
    auto proxy = startProxy(server->url(), options);
    proxy->forceNext(FaultKind::LatencySpike);
    WireClient first(proxy->port());
    first.send(postOrder(order(1)));
    QTRY_COMPARE(proxy->pending(), 1);
    proxy->stop();
    options.upstream = server->url();
    QCOMPARE(proxy->start(options), QString());
    proxy->forceNext(FaultKind::RequestLost);
    WireClient second(proxy->port());
    second.send(postOrder(order(2)));
    QTRY_COMPARE(proxy->pending(), 1);
    QTest::qWait(400); // past the first run's spike: nothing may reach the server
    QCOMPARE(recordCount(*server), 0);
    QCOMPARE(second.poll(), QByteArray("silent"));
}

void TestProxyFaults::diceAreTheSimulationsDice()
{
    // The same draws as core/faults.cpp postNetworkDice/serverDice for (op, attempt): the
    // expected bits are computed by those functions for each exchange's own address.
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.orderField = QStringLiteral("ref");
    options.scenario.seed = 2026;
    options.scenario.network.responseLoss = 0.3;
    options.scenario.network.resetAfterCommit = 0.2;
    options.scenario.server.error5xxBeforeCommit = 0.2;
    auto proxy = startProxy(server->url(), options);
    QList<QByteArray> requests;
    for (int i = 1; i <= 40; ++i)
        requests << postOrder(order(i));
    exchangeAll(proxy->port(), requests, 400); // at once: the logical requests are numbered as they arrive
    QTRY_COMPARE(proxy->pending(), 0);
    QCOMPARE(proxy->exchanges().size(), 40);
    int struck = 0;
    for (const ProxyExchange &e : proxy->exchanges()) {
        const faults::Attempt a{e.op, 1, 1, 1, e.arrival, false};
        const quint32 expected = (faults::postNetworkDice(options.scenario, a) | faults::serverDice(options.scenario, a));
        QCOMPARE(e.faults, expected);
        struck += e.faults ? 1 : 0;
    }
    QVERIFY(struck > 5 && struck < 35); // the dice did roll both ways
    // The same seed again: the same faults for the same logical request.
    QHash<QString, quint32> first;
    for (const ProxyExchange &e : proxy->exchanges())
        first.insert(e.orderRef, e.faults);
    proxy->stop();
    QCOMPARE(proxy->start([&] { FaultProxy::Options o = options; o.upstream = server->url(); return o; }()), QString());
    for (int i = 1; i <= 40; ++i)
        exchangeAll(proxy->port(), {requests[i - 1]}, 400); // one by one: ORD-000i is logical request i
    QTRY_COMPARE(proxy->pending(), 0);
    for (const ProxyExchange &e : proxy->exchanges()) {
        QCOMPARE(e.op, QStringView(e.orderRef).mid(4).toInt());
        const faults::Attempt a{e.op, 1, 1, 1, 1, false};
        QCOMPARE(e.faults, faults::postNetworkDice(options.scenario, a) | faults::serverDice(options.scenario, a));
    }
}

void TestProxyFaults::scriptAddressesLogicalRequestsAndAttempts()
{
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.orderField = QStringLiteral("ref");
    ScriptEntry second;
    second.op = 2;
    second.attempt = QStringLiteral("b1/w1/t1");
    second.fault = FaultKind::Server5xxBeforeCommit;
    ScriptEntry retry;
    retry.op = 1;
    retry.attempt = QStringLiteral("b1/w1/t2");
    retry.fault = FaultKind::Throttle429;
    options.scenario.network.script = {second, retry};
    auto proxy = startProxy(server->url(), options);
    QCOMPARE(exchange(proxy->port(), postOrder(order(7))).status, 201);   // logical request 1, attempt t1
    QCOMPARE(exchange(proxy->port(), postOrder(order(8))).status, 503);   // logical request 2, attempt t1
    QCOMPARE(exchange(proxy->port(), postOrder(order(8))).status, 201);   // logical request 2, t2
    QCOMPARE(exchange(proxy->port(), postOrder(order(7))).status, 429);   // logical request 1, t2
    // The lab's own client names its attempts: X-RetryLab-Attempt addresses the script directly.
    QCOMPARE(exchange(proxy->port(), postOrder(order(9), QByteArray(), "X-RetryLab-Attempt: op2/b1/w1/t1\r\n")).status, 503);
    QCOMPARE(exchange(proxy->port(), postOrder(order(9), QByteArray(), "X-RetryLab-Attempt: op2/b1/w2/t1\r\n")).status, 201);
}

void TestProxyFaults::faultsStrikeOnlyTheirMethods()
{
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.scenario.server.error5xxBeforeCommit = 1.0; // every attempt of a POST
    auto proxy = startProxy(server->url(), options);
    QCOMPARE(exchange(proxy->port(), postOrder(order(1))).status, 503);
    QCOMPARE(exchange(proxy->port(), request("GET", "/healthz")).status, 200);
    options.faultMethods = {QByteArrayLiteral("POST"), QByteArrayLiteral("GET")};
    proxy->stop();
    QCOMPARE(proxy->start([&] { FaultProxy::Options o = options; o.upstream = server->url(); return o; }()), QString());
    QCOMPARE(exchange(proxy->port(), request("GET", "/healthz")).status, 503);
}

void TestProxyFaults::ghostDuplicatesEqualTheServersOwnCount()
{
    // The ghost-request lesson on a service the proxy does not touch: a client without keys
    // retries what it did not see succeed; lost and reset answers after commit create duplicates.
    // The server's own /metrics (records - distinct refs) is the truth the ledger must match.
    auto server = startServer(serviceOff());
    FaultProxy::Options options;
    options.orderField = QStringLiteral("ref");
    options.scenario.seed = 42;
    options.scenario.network.requestLoss = 0.1;
    options.scenario.network.responseLoss = 0.25;
    options.scenario.network.resetAfterCommit = 0.1;
    options.scenario.server.error5xxAfterCommit = 0.05;
    options.scenario.server.error5xxBeforeCommit = 0.05;
    auto proxy = startProxy(server->url(), options);
    // Batches of 30 at once (the proxy and the server share this thread), up to four attempts.
    int gaveUp = 0;
    for (int batch = 0; batch < 5; ++batch) {
        QList<int> open;
        for (int i = 1; i <= 30; ++i)
            open << batch * 30 + i;
        for (int round = 0; round < 4 && !open.isEmpty(); ++round) {
            QList<QByteArray> requests;
            for (const int ref : open)
                requests << postOrder(order(ref));
            const QList<RawResponse> answers = exchangeAll(proxy->port(), requests, 800);
            QList<int> again;
            for (int i = 0; i < open.size(); ++i) {
                if (answers[i].status != 201)
                    again << open[i];
            }
            open = again;
        }
        gaveUp += int(open.size());
    }
    QTRY_COMPARE(proxy->pending(), 0);
    const ProxyLedger::Totals t = proxy->ledger().totals();
    const QJsonObject served = server->metricsJson();
    QVERIFY2(t.attempts >= 200, qPrintable(QString::number(t.attempts)));
    QVERIFY(served.value(QLatin1String("duplicates")).toInt() > 10); // the faults did their work
    QCOMPARE(t.duplicates, served.value(QLatin1String("duplicates")).toInteger());
    QCOMPARE(t.created, served.value(QLatin1String("records")).toInteger());
    QCOMPARE(t.logicalRequests, qint64(150));
    // Orphans: committed, and every attempt the client made failed (it gave up after four).
    qint64 orphans = 0;
    for (const ProxyLedger::Row &r : proxy->ledger().rows())
        orphans += (r.created() > 0 && r.successes == 0) ? 1 : 0;
    QCOMPARE(t.orphans, orphans);
    QVERIFY(t.orphans <= gaveUp); // only a client that gave up can hold an orphan
}

QTEST_GUILESS_MAIN(TestProxyFaults)
#include "tst_proxyfaults.moc"
