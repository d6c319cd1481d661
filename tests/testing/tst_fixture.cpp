// OrderServiceFixture (core/testing/): starting from a preset, a file or code; scripted faults per
// POST; the counts a test reads (records, duplicates, orphans, attempts, keys); reset() between
// test functions; and the text of the timeline and reports the assertion macros print.
#include "orderservicefixture.h"

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;

namespace {

// What a POST /orders came back with (status 0: no answer within the timeout).
struct Answer
{
    int status = 0;
    QByteArray retryAfter;
    bool replayed = false;
};

// One POST /orders of `ref`; a lost answer ends at the transfer timeout.
Answer post(QNetworkAccessManager &nam, const QUrl &url, const QByteArray &ref, const QByteArray &key = QByteArray(),
            int timeoutMs = 1000)
{
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    if (!key.isEmpty())
        request.setRawHeader("Idempotency-Key", key);
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = nam.post(request, "{\"ref\":\"" + ref + "\",\"item\":\"book\"}");
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(timeoutMs + 10000);
    Answer a;
    a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    a.retryAfter = reply->rawHeader("Retry-After");
    a.replayed = reply->rawHeader("Idempotent-Replayed") == "true";
    reply->deleteLater();
    return a;
}

// A scenario in code: the quiet service, without keys deciding anything.
Scenario withoutIdempotency()
{
    Scenario s = OrderServiceFixture::serviceScenario();
    s.server.idempotency.mode = IdempotencyMode::Off;
    return s;
}

// The timeline with its times replaced by "+T", so the words can be compared exactly.
QString untimed(const QString &text)
{
    static const QRegularExpression time(QStringLiteral("\\+\\d+\\.\\d ms"));
    QString out = text;
    return out.replace(time, QStringLiteral("+T"));
}

} // namespace

class TestFixture : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsFromPresetFileAndCode();
    void badInputIsRefusedWithAMessage();
    void lostResponseAfterCommitMakesADuplicate();
    void stableKeyIsReplayed();
    void orphanWhenTheClientGivesUp();
    void throttledWithRetryAfterThenServed();
    void restartForgetsMemoryKeys();
    void resetForgetsEverythingAndRestoresFaults();
    void timelineNarratesTheFailingOrder();
    void reportsAreEmptyWhenTheCheckHolds();
    void macrosFailWithTheTimeline();

private:
    QNetworkAccessManager m_nam;
};

void TestFixture::startsFromPresetFileAndCode()
{
    OrderServiceFixture f;
    QVERIFY2(f.startPreset(QStringLiteral("stable-key")), qPrintable(f.errorString()));
    QVERIFY(f.isRunning());
    QVERIFY(f.port() > 0);
    QCOMPARE(f.url().host(), QStringLiteral("127.0.0.1"));
    QCOMPARE(f.ordersUrl().path(), QStringLiteral("/orders"));
    QCOMPARE(f.scenario().name, QStringLiteral("stable-key"));

    // A file: the same reader as `retrylab run --scenario FILE`.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("naive.json"));
    Scenario s = withoutIdempotency();
    s.name = QStringLiteral("from-file");
    s.server.idempotency.mode = IdempotencyMode::Naive;
    QVERIFY(scenario::save(s, file).isEmpty());
    QVERIFY2(f.startFile(file), qPrintable(f.errorString()));
    QCOMPARE(f.scenario().server.idempotency.mode, IdempotencyMode::Naive);
    QVERIFY(f.port() > 0);

    // Code: the service answers at once.
    QVERIFY2(f.start(withoutIdempotency()), qPrintable(f.errorString()));
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);
    QCOMPARE(f.recordCount(QStringLiteral("ORD-0001")), 1);
    f.stop();
    QVERIFY(!f.isRunning());
    QCOMPARE(f.port(), quint16(0));
}

void TestFixture::badInputIsRefusedWithAMessage()
{
    OrderServiceFixture f;
    QVERIFY(!f.startPreset(QStringLiteral("no-such-preset")));
    QVERIFY2(f.errorString().contains(QLatin1String("no-such-preset")), qPrintable(f.errorString()));
    QVERIFY2(f.errorString().contains(QLatin1String("stable-key")), qPrintable(f.errorString())); // the choices
    QVERIFY(!f.isRunning());

    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("bad.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("{\"schema\": 1, \"server\": {\"idempotency\": {\"mode\": \"sometimes\"}}}");
    out.close();
    QVERIFY(!f.startFile(file));
    QVERIFY2(f.errorString().contains(QLatin1String("server.idempotency.mode")), qPrintable(f.errorString()));

    // Faults before start, and faults that make no sense, are refused, not applied.
    QVERIFY(f.scriptFault(FaultKind::ResponseLost, 1, 1).contains(QLatin1String("not running")));
    QVERIFY(f.start(withoutIdempotency()));
    QVERIFY(f.scriptFault(FaultKind::ResponseLost, -1, 1).contains(QLatin1String("(-1)")));
    // The 21st POST of an order is the last the script reaches; the 22nd is refused, not ignored.
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 1, 21), QString());
    QVERIFY(f.scriptFault(FaultKind::ResponseLost, 1, 22).contains(QLatin1String("(22)")));
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 1000000, 1), QString());
    const QString tooFar = f.scriptFault(FaultKind::ResponseLost, 1000001, 1);
    QVERIFY2(tooFar.contains(QLatin1String("(1000001)")), qPrintable(tooFar));
    QCOMPARE(f.scenario().network.script.size(), 2);
    const QString error = f.setFaults(QJsonObject{{QStringLiteral("server.errorStatus"), QStringLiteral("five hundred")}});
    QVERIFY2(error.contains(QLatin1String("server.errorStatus")), qPrintable(error));
    QVERIFY(f.setFaults(QJsonObject{{QStringLiteral("client.timeoutMs"), 5}}).contains(QLatin1String("client.timeoutMs")));
    QCOMPARE(f.scenario().network.script.size(), 2);
    QCOMPARE(f.scenario().server.errorStatus, 503);
}

// Design 1.3 responseLost: the 1st POST of ORD-0001 commits and its answer vanishes; the client
// resends without a key and the service, which has nothing to tell them apart, commits again.
void TestFixture::lostResponseAfterCommitMakesADuplicate()
{
    OrderServiceFixture f;
    QVERIFY(f.start(withoutIdempotency()));
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 1, 1), QString());
    QCOMPARE(f.scenario().network.script.size(), 1);
    QCOMPARE(f.scenario().network.script.constFirst().attempt, QStringLiteral("*/*/t1"));

    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 0); // timed out
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0002").status, 201); // another order: its 1st POST is not scripted

    QCOMPARE(f.recordCount(QStringLiteral("ORD-0001")), 2);
    QCOMPARE(f.recordCount(QStringLiteral("ORD-0002")), 1);
    QCOMPARE(f.records().size(), 3);
    QCOMPARE(f.duplicates(), 1);
    QCOMPARE(f.duplicatedRefs(), QStringList{QStringLiteral("ORD-0001")});
    const QList<FixtureRecord> records = f.records(QStringLiteral("ORD-0001"));
    QVERIFY(!records.at(0).duplicate);
    QVERIFY(records.at(1).duplicate);
    QCOMPARE(records.at(1).path, QStringLiteral("op1/b1/w1/t2"));
    QVERIFY(records.at(0).id != records.at(1).id);

    const QList<FixtureAttempt> attempts = f.attempts(QStringLiteral("ORD-0001"));
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).method, TraceMethod::PostOrder);
    QCOMPARE(attempts.at(0).path, QStringLiteral("op1/b1/w1/t1"));
    QVERIFY(attempts.at(0).committed);
    QVERIFY(attempts.at(0).answerLost);
    QCOMPARE(attempts.at(1).path, QStringLiteral("op1/b1/w1/t2"));
    QCOMPARE(attempts.at(1).status, 201);
    QVERIFY(!attempts.at(1).answerLost);
    QCOMPARE(f.attempts().size(), 3);
    QCOMPARE(f.keysSeen(QStringLiteral("ORD-0001")), QStringList{QString()});
    QVERIFY(f.orphans().isEmpty()); // the second answer reached the client
    QVERIFY(!f.trace().isEmpty());
}

// Design 4 stable-key: the same key on the resend; the atomic service replays the stored 201.
void TestFixture::stableKeyIsReplayed()
{
    OrderServiceFixture f;
    QVERIFY(f.start(OrderServiceFixture::serviceScenario()));
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 1, 1), QString());
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001", "k-1").status, 0);
    const Answer again = post(m_nam, f.ordersUrl(), "ORD-0001", "k-1");
    QCOMPARE(again.status, 201);
    QVERIFY(again.replayed);
    QCOMPARE(f.recordCount(QStringLiteral("ORD-0001")), 1);
    QCOMPARE(f.duplicates(), 0);
    QCOMPARE(f.keysSeen(QStringLiteral("ORD-0001")), QStringList{QStringLiteral("k-1")});
    const QList<FixtureAttempt> attempts = f.attempts(QStringLiteral("ORD-0001"));
    QCOMPARE(attempts.size(), 2);
    QVERIFY(!attempts.at(0).replayed);
    QVERIFY(attempts.at(1).replayed);
    QVERIFY(!attempts.at(1).committed);
    RETRYLAB_VERIFY_NO_DUPLICATES(f);
    RETRYLAB_VERIFY_SAME_KEY(f, QStringLiteral("ORD-0001"));
    RETRYLAB_COMPARE_RECORDS(f, QStringLiteral("ORD-0001"), 1);
}

// Design 1.5: an orphan is an order that exists although its client never heard so.
void TestFixture::orphanWhenTheClientGivesUp()
{
    OrderServiceFixture f;
    QVERIFY(f.start(OrderServiceFixture::serviceScenario()));
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 0, 0), QString()); // every answer is lost
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0003", "k-3").status, 0);
    QCOMPARE(f.orphans(), QStringList{QStringLiteral("ORD-0003")});
    QCOMPARE(f.duplicates(), 0);
    // Its replayed answer reaches the client: no longer an orphan.
    QCOMPARE(f.setFaults(QJsonObject{{QStringLiteral("network.script"), QJsonArray()}}), QString());
    QVERIFY(f.scenario().network.script.isEmpty());
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0003", "k-3").status, 201);
    QVERIFY(f.orphans().isEmpty());
}

// Design 1.3 throttle429 on the 1st POST of every order, then an injected 503 before the commit,
// which writes nothing; both carry Retry-After: server.retryAfterS (as tst_liveserver's
// throttledWithRetryAfter and failedBeforeCommitIsNotStored pin it for the server itself).
void TestFixture::throttledWithRetryAfterThenServed()
{
    OrderServiceFixture f;
    QVERIFY(f.start(OrderServiceFixture::serviceScenario()));
    QCOMPARE(f.setFaults(QJsonObject{{QStringLiteral("server"), QJsonObject{{QStringLiteral("retryAfterS"), 7}}}}), QString());
    QCOMPARE(f.scenario().server.retryAfterS, 7);
    QCOMPARE(f.scriptFault(FaultKind::Throttle429, 0, 1), QString());
    QCOMPARE(f.scriptFault(FaultKind::Server5xxBeforeCommit, 0, 2), QString());
    const Answer first = post(m_nam, f.ordersUrl(), "ORD-0004", "k-4");
    QCOMPARE(first.status, 429);
    QCOMPARE(first.retryAfter, QByteArray("7"));
    const Answer second = post(m_nam, f.ordersUrl(), "ORD-0004", "k-4");
    QCOMPARE(second.status, 503);
    QCOMPARE(second.retryAfter, QByteArray("7"));
    QCOMPARE(f.recordCount(QStringLiteral("ORD-0004")), 0);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0004", "k-4").status, 201);
    QCOMPARE(f.recordCount(QStringLiteral("ORD-0004")), 1);
    const QList<FixtureAttempt> attempts = f.attempts(QStringLiteral("ORD-0004"));
    QCOMPARE(attempts.size(), 3);
    QCOMPARE(attempts.at(0).status, 429);
    QCOMPARE(attempts.at(1).status, 503);
    QVERIFY(!attempts.at(1).committed);
    QCOMPARE(attempts.at(2).status, 201);
}

// Design 1.4b: a restart with a memory key store forgets every key, so the same key commits again.
void TestFixture::restartForgetsMemoryKeys()
{
    OrderServiceFixture f;
    Scenario s = OrderServiceFixture::serviceScenario();
    s.server.idempotency.store = KeyStore::Memory;
    s.server.restartDownMs = 50;
    QVERIFY(f.start(s));
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0005", "k-5").status, 201);
    f.restartServer();
    // Down for restartDownMs, then listening again on the same port.
    QTRY_COMPARE_WITH_TIMEOUT(post(m_nam, f.ordersUrl(), "ORD-0005", "k-5", 2000).status, 201, 10000);
    QCOMPARE(f.recordCount(QStringLiteral("ORD-0005")), 2);
    QCOMPARE(f.duplicates(), 1);
    QCOMPARE(f.keysSeen(QStringLiteral("ORD-0005")), QStringList{QStringLiteral("k-5")});
}

void TestFixture::resetForgetsEverythingAndRestoresFaults()
{
    OrderServiceFixture f;
    Scenario s = withoutIdempotency();
    // The scenario's own script: ORD-0002's 1st answer is lost, before and after reset().
    ScriptEntry own;
    own.op = 2;
    own.attempt = QStringLiteral("b1/w1/t1");
    own.fault = FaultKind::ResponseLost;
    s.network.script = {own};
    QVERIFY(f.start(s));
    const quint16 port = f.port();
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 1, 1), QString());
    QCOMPARE(f.setFaults(QJsonObject{{QStringLiteral("server.retryAfterS"), 9}}), QString());
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 0);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);
    QCOMPARE(f.duplicates(), 1);

    f.reset();
    QVERIFY(f.isRunning());
    QCOMPARE(f.port(), port);
    QVERIFY(f.records().isEmpty());
    QVERIFY(f.attempts().isEmpty());
    QVERIFY(f.trace().isEmpty());
    QCOMPARE(f.duplicates(), 0);
    QCOMPARE(f.scenario().network.script, QList<ScriptEntry>{own});
    QCOMPARE(f.scenario().server.retryAfterS, s.server.retryAfterS);
    // The test's fault is gone, the scenario's is back, and the store starts from record 1.
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0002").status, 0);
    QCOMPARE(f.records().size(), 2);
    QCOMPARE(f.records().constFirst().id, 1);
    QCOMPARE(f.orphans(), QStringList{QStringLiteral("ORD-0002")});
}

// The text a failing check prints: the narration of core/trace.cpp (trace::narrate), one line per event.
void TestFixture::timelineNarratesTheFailingOrder()
{
    OrderServiceFixture f;
    QVERIFY(f.start(withoutIdempotency()));
    QCOMPARE(f.scriptFault(FaultKind::ResponseLost, 1, 1), QString());
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 0);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);

    const QString timeline = f.timeline(QStringLiteral("ORD-0001"));
    QVERIFY2(timeline.startsWith(QLatin1String("  +0.0 ms  op1/b1/w1/t1  ")), qPrintable(timeline));
    const QStringList expected = {
        QStringLiteral("  +T  op1/b1/w1/t1  The server received the request, without an idempotency key."),
        QStringLiteral("  +T  op1/b1/w1/t1  The server starts processing the order."),
        QStringLiteral("  +T  op1/b1/w1/t1  The server committed record #1 for ORD-0001."),
        QStringLiteral("  +T  op1/b1/w1/t1  The server sends its answer: 201."),
        QStringLiteral("  +T  op1/b1/w1/t1  The server committed, but the response was lost: the client will only see a timeout."),
        QStringLiteral("  +T  op1/b1/w1/t2  The server received the request, without an idempotency key."),
        QStringLiteral("  +T  op1/b1/w1/t2  The server starts processing the order."),
        QStringLiteral("  +T  op1/b1/w1/t2  The server committed record #2 for ORD-0001."),
        QStringLiteral("  +T  op1/b1/w1/t2  The server sends its answer: 201."),
    };
    QCOMPARE(untimed(timeline).split(QLatin1Char('\n'), Qt::SkipEmptyParts), expected);

    const QString report = f.duplicatesReport();
    QCOMPARE(report.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("ORD-0001 was created 2 times: 2 POST /orders received, Idempotency-Key values sent: none"));
    QCOMPARE(report.section(QLatin1Char('\n'), 1), timeline);
    const QString keys = f.keysReport(QStringLiteral("ORD-0001"));
    QCOMPARE(keys.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("ORD-0001: its POST /orders carried no Idempotency-Key"));
    QCOMPARE(f.recordsReport(QStringLiteral("ORD-0001"), 1).section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("ORD-0001 has 2 record(s), expected 1"));
    QCOMPARE(f.timeline(QStringLiteral("ORD-0009")), QStringLiteral("ORD-0009: the order service received no request for it.\n"));
}

void TestFixture::reportsAreEmptyWhenTheCheckHolds()
{
    OrderServiceFixture f;
    QVERIFY(f.start(OrderServiceFixture::serviceScenario()));
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001", "k-1").status, 201);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001", "k-1").status, 201);
    QCOMPARE(f.duplicatesReport(), QString());
    QCOMPARE(f.keysReport(QStringLiteral("ORD-0001")), QString());
    QCOMPARE(f.recordsReport(QStringLiteral("ORD-0001"), 1), QString());
    // Exactly at the edge: one record expected 0, a second key.
    QVERIFY(!f.recordsReport(QStringLiteral("ORD-0001"), 0).isEmpty());
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001", "k-2").status, 201); // a new key is a new order
    QVERIFY(f.keysReport(QStringLiteral("ORD-0001")).startsWith(QLatin1String("ORD-0001: its POST /orders carried 2 different Idempotency-Key values: k-1, k-2\n")));
    QVERIFY(f.keysReport(QStringLiteral("ORD-0002")).startsWith(QLatin1String("ORD-0002: the order service received no POST")));
}

// The macros fail (expected here) when the check does not hold; their message is the report above.
void TestFixture::macrosFailWithTheTimeline()
{
    OrderServiceFixture f;
    QVERIFY(f.start(withoutIdempotency()));
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);
    QCOMPARE(post(m_nam, f.ordersUrl(), "ORD-0001").status, 201);
    QEXPECT_FAIL("", "two records of ORD-0001: the macro must fail", Continue);
    RETRYLAB_VERIFY_NO_DUPLICATES(f);
    QEXPECT_FAIL("", "no key at all: the macro must fail", Continue);
    RETRYLAB_VERIFY_SAME_KEY(f, QStringLiteral("ORD-0001"));
    QEXPECT_FAIL("", "two records, not one: the macro must fail", Continue);
    RETRYLAB_COMPARE_RECORDS(f, QStringLiteral("ORD-0001"), 1);
}

QTEST_GUILESS_MAIN(TestFixture)
#include "tst_fixture.moc"
