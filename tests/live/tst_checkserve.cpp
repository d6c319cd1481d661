// `retrylab check` against `retrylab serve` in-process, in every idempotency mode: each mode gets
// the card it deserves (design 1.4: off inserts every POST, naive races, atomic reserves the key
// and answers 409 / replays, token refuses client-made keys). The expected statuses are the
// service's own (core/orderservice.cpp, OrderService::begin and storedStatus).
#include "livesupport.h"

#include "check/checkrunner.h"
#include "check/checkverdicts.h"
#include "check/proxyfaults.h"

#include <QTcpServer>
#include <QTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

struct Mode
{
    IdempotencyMode mode = IdempotencyMode::Atomic;
    bool requireKey = false;
    bool fingerprint = true;
    bool storeErrors = true;
};

Scenario serveScenario(const Mode &m)
{
    Scenario s = ServeOptions::defaultScenario();
    s.server.idempotency.mode = m.mode;
    s.server.idempotency.requireKey = m.requireKey;
    s.server.idempotency.fingerprint = m.fingerprint;
    s.server.idempotency.storeErrors = m.storeErrors;
    // Processing long enough that requests sent together are processed together (the naive race),
    // even on a loaded machine.
    s.server.processingMs = {300, 0};
    return s;
}

// "replay=pass mismatch=fail ...": the card in one line, probes in their order.
QString cardLine(const QList<ProbeVerdict> &card)
{
    QStringList parts;
    for (const ProbeVerdict &v : card)
        parts << check::probeName(v.probe) + QLatin1Char('=') + check::verdictName(v.verdict);
    return parts.join(QLatin1Char(' '));
}

QString findings(const QList<ProbeVerdict> &card)
{
    QStringList parts;
    for (const ProbeVerdict &v : card)
        parts << check::probeName(v.probe) + QLatin1Char('=') + check::findingName(v.finding);
    return parts.join(QLatin1Char(' '));
}

} // namespace

Q_DECLARE_METATYPE(Mode)

class TestCheckServe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cardPerMode_data();
    void cardPerMode();
    void listCountsWithoutIds();
    void unreachableEndpoint();
};

void TestCheckServe::cardPerMode_data()
{
    QTest::addColumn<Mode>("mode");
    QTest::addColumn<QString>("card");
    const auto m = [](IdempotencyMode mode, bool requireKey = false, bool fingerprint = true, bool storeErrors = true) {
        return Mode{mode, requireKey, fingerprint, storeErrors};
    };
    const QString atomic = QStringLiteral("replay=pass mismatch=pass in-flight=pass ghost=pass missing-key=not-applicable "
                                          "no-key-twice=warn retry-after-5xx=pass");
    QTest::addRow("atomic") << m(IdempotencyMode::Atomic) << atomic;
    // Stored errors change nothing the check can see: the proxy's 5xx never reaches the service,
    // and the service stores no failure before commit (OrderService::storedStatus).
    QTest::addRow("atomic-no-store-errors") << m(IdempotencyMode::Atomic, false, true, false) << atomic;
    QTest::addRow("atomic-require-key")
            << m(IdempotencyMode::Atomic, true)
            << QStringLiteral("replay=pass mismatch=pass in-flight=pass ghost=pass missing-key=pass no-key-twice=not-applicable "
                              "retry-after-5xx=pass");
    QTest::addRow("atomic-no-fingerprint")
            << m(IdempotencyMode::Atomic, false, false)
            << QStringLiteral("replay=pass mismatch=fail in-flight=pass ghost=pass missing-key=not-applicable no-key-twice=warn "
                              "retry-after-5xx=pass");
    QTest::addRow("naive") << m(IdempotencyMode::Naive)
                           << QStringLiteral("replay=pass mismatch=pass in-flight=fail ghost=pass missing-key=not-applicable "
                                             "no-key-twice=warn retry-after-5xx=pass");
    QTest::addRow("naive-require-key")
            << m(IdempotencyMode::Naive, true)
            << QStringLiteral("replay=pass mismatch=pass in-flight=fail ghost=pass missing-key=pass no-key-twice=not-applicable "
                              "retry-after-5xx=pass");
    QTest::addRow("off") << m(IdempotencyMode::Off)
                         << QStringLiteral("replay=fail mismatch=fail in-flight=fail ghost=fail missing-key=not-applicable "
                                           "no-key-twice=warn retry-after-5xx=pass");
    QTest::addRow("off-require-key") << m(IdempotencyMode::Off, true)
                                     << QStringLiteral("replay=fail mismatch=fail in-flight=fail ghost=fail missing-key=pass "
                                                       "no-key-twice=not-applicable retry-after-5xx=pass");
    // Token mode takes only keys it issued (POST /order-tokens): every key the check makes up is
    // refused with 400 unknown-token, so the keyed probes cannot tell, and a keyless POST is 400.
    QTest::addRow("token") << m(IdempotencyMode::Token)
                           << QStringLiteral("replay=cannot-tell mismatch=cannot-tell in-flight=cannot-tell ghost=cannot-tell "
                                             "missing-key=pass no-key-twice=not-applicable retry-after-5xx=cannot-tell");
}

void TestCheckServe::cardPerMode()
{
    QFETCH(Mode, mode);
    QFETCH(QString, card);
    auto server = startServer(serveScenario(mode));
    ProxyFaults proxy;
    QVERIFY2(proxy.start(server->url()).isEmpty(), "the proxy did not start");
    CheckOptions options;
    options.url = QUrl(server->url().toString() + QStringLiteral("/orders"));
    options.timeoutMs = 2000;
    options.concurrency = 2;
    CheckRunner runner(options, &proxy);
    const CheckReport report = runner.run();
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(cardLine(report.card), card);
    // The evidence behind the lesson of each mode.
    const auto find = [&](Probe p) {
        for (const ProbeVerdict &v : report.card) {
            if (v.probe == p)
                return v;
        }
        return ProbeVerdict();
    };
    const ProbeVerdict inFlight = find(Probe::InFlight);
    if (mode.mode == IdempotencyMode::Atomic) {
        QCOMPARE(inFlight.finding, Finding::InFlightConflict);
        QVERIFY2(inFlight.statuses.contains(409), qPrintable(findings(report.card)));
        QCOMPARE(find(Probe::Ghost).creations, 1);
    }
    if (mode.mode == IdempotencyMode::Naive)
        QCOMPARE(inFlight.creations, 2);
    if (mode.mode == IdempotencyMode::Off) {
        QCOMPARE(find(Probe::Ghost).finding, Finding::GhostDuplicated);
        QCOMPARE(find(Probe::Ghost).creations, 2);
    }
    if (mode.mode == IdempotencyMode::Token)
        QCOMPARE(find(Probe::Replay).problemType, QStringLiteral("unknown-token"));
    // The ghost's dropped answer: when the proxy had read it whole, after the send and before the
    // check gave up (the timeline draws the loss there); the replay header as the service sent it.
    for (int i = 0; i < report.card.size(); ++i) {
        if (report.card.at(i).probe != Probe::Ghost)
            continue;
        const CheckExchange &lost = report.rounds.at(i).at(0).exchanges.at(0);
        QCOMPARE(lost.fault, CheckFault::ResponseLost);
        if (lost.upstreamStatus > 0) {
            QVERIFY2(lost.upstreamAnsweredUs >= lost.sentUs && lost.upstreamAnsweredUs <= lost.sentUs + options.timeoutMs * 1000LL,
                     qPrintable(QStringLiteral("sent at %1 us, answered upstream at %2 us").arg(lost.sentUs).arg(lost.upstreamAnsweredUs)));
        }
        const CheckExchange &retry = report.rounds.at(i).at(0).exchanges.at(1);
        if (mode.mode == IdempotencyMode::Atomic)
            QVERIFY(retry.replayedHeader); // serve replays with Idempotent-Replayed: true
        if (mode.mode == IdempotencyMode::Off)
            QVERIFY(!retry.replayedHeader);
    }
    // The service's own count agrees with the creations the check saw.
    int seen = 0;
    for (const ProbeVerdict &v : report.card)
        seen += qMax(0, v.creations);
    QCOMPARE(server->metricsJson().value(QLatin1String("records")).toInt(), seen);
}

void TestCheckServe::listCountsWithoutIds()
{
    // An answer's id unread (--id-field names nothing): the list's per-reference count decides.
    auto server = startServer(serveScenario(Mode{IdempotencyMode::Off}));
    CheckOptions options;
    options.url = QUrl(server->url().toString() + QStringLiteral("/orders"));
    options.idField = QStringLiteral("no.such.field");
    options.listUrl = QUrl(server->url().toString() + QStringLiteral("/orders?ref=CHK-{n}"));
    options.countField = QStringLiteral("count");
    options.timeoutMs = 2000;
    CheckRunner runner(options, nullptr);
    const CheckReport report = runner.run();
    QVERIFY2(report.error.isEmpty() && report.listError.isEmpty(), qPrintable(report.error + report.listError));
    QCOMPARE(report.card.size(), ProbeCount - 2); // no proxy: no ghost, no 5xx
    QCOMPARE(report.card.at(0).finding, Finding::CreatedTwice);
    QCOMPARE(report.card.at(0).creations, 2);
    QVERIFY(report.card.at(0).resources.isEmpty());
    QCOMPARE(report.rounds.at(0).at(0).countBefore, 0);
    QCOMPARE(report.rounds.at(0).at(0).countAfter, 2);
    // Without the list the same answers cannot tell.
    options.listUrl = QUrl();
    // Without the list the creations are unknown, but the second answer is not the first.
    CheckRunner blind(options, nullptr);
    const ProbeVerdict replay = blind.run().card.at(0);
    QCOMPARE(replay.finding, Finding::ReplayDiffers);
    QCOMPARE(replay.creations, -1);
}

void TestCheckServe::unreachableEndpoint()
{
    // A port nobody listens on: the check stops at once with the reason.
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    CheckOptions options;
    options.url = QUrl(QStringLiteral("http://127.0.0.1:%1/orders").arg(port));
    CheckRunner runner(options, nullptr);
    const CheckReport report = runner.run();
    QVERIFY2(report.error.startsWith(QStringLiteral("cannot reach http://127.0.0.1:")), qPrintable(report.error));
    QVERIFY(report.card.isEmpty());
}

QTEST_GUILESS_MAIN(TestCheckServe)
#include "tst_checkserve.moc"
