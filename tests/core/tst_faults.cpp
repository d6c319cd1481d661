// The fault decisions shared by the simulated engine and the live server (core/faults.h).
#include "faults.h"

#include <QtTest>

#include <random>

using namespace retrylab;

namespace {

ScriptEntry entry(int op, const char *attempt, FaultKind fault, ScriptMethod method = ScriptMethod::Post)
{
    ScriptEntry e;
    e.op = op;
    e.attempt = QLatin1String(attempt);
    e.fault = fault;
    e.method = method;
    return e;
}

} // namespace

class TestFaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyKindHasItsOwnBit();
    void scriptMatches_data();
    void scriptMatches();
    void longScriptMatchesLikeAShortOne();
    void diceAtTheirBounds();
    void diceAreKeyedByTheAttempt();
};

void TestFaults::everyKindHasItsOwnBit()
{
    quint32 all = 0;
    for (int k = 0; k <= int(FaultKind::ServerRestart); ++k) {
        const quint32 b = faults::bit(FaultKind(k));
        QVERIFY(b != 0);
        QCOMPARE(b & (b - 1), 0u); // one bit
        QCOMPARE(all & b, 0u);     // not shared
        all |= b;
    }
}

void TestFaults::scriptMatches_data()
{
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("b");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("t");
    QTest::addColumn<bool>("get");
    QTest::addColumn<quint32>("expected");
    // Script: op 3 b1/w1/t1 responseLost; any op */*/t2 requestLost; op 3 GET b2/w1/* reset;
    // op 5 b2/*/* 503 before commit.
    const quint32 lost = faults::ResponseLost, request = faults::RequestLost, reset = faults::Reset,
                  error = faults::Error5xxBefore;
    QTest::addRow("exact") << 3 << 1 << 1 << 1 << false << lost;
    QTest::addRow("exact-other-op") << 4 << 1 << 1 << 1 << false << 0u;
    QTest::addRow("any-op-t2") << 9 << 4 << 2 << 2 << false << request;
    QTest::addRow("t2-of-op-3-b1") << 3 << 1 << 1 << 2 << false << request;
    QTest::addRow("t3") << 9 << 1 << 1 << 3 << false << 0u;
    QTest::addRow("get-entry") << 3 << 2 << 1 << 7 << true << reset;
    QTest::addRow("get-entry-not-post") << 3 << 2 << 1 << 7 << false << 0u;
    QTest::addRow("post-entry-not-get") << 3 << 1 << 1 << 1 << true << 0u;
    QTest::addRow("wildcards") << 5 << 2 << 9 << 9 << false << error;
    QTest::addRow("wildcards-wrong-b") << 5 << 3 << 1 << 1 << false << 0u;
    QTest::addRow("two-entries") << 5 << 2 << 1 << 2 << false << (error | request);
}

void TestFaults::scriptMatches()
{
    QFETCH(int, op);
    QFETCH(int, b);
    QFETCH(int, w);
    QFETCH(int, t);
    QFETCH(bool, get);
    QFETCH(quint32, expected);
    const faults::Script script({entry(3, "b1/w1/t1", FaultKind::ResponseLost), entry(0, "*/*/t2", FaultKind::RequestLost),
                                 entry(3, "b2/w1/*", FaultKind::ResetAfterCommit, ScriptMethod::Get),
                                 entry(5, "b2/*/*", FaultKind::Server5xxBeforeCommit)});
    QVERIFY(script.addressesQueries());
    QVERIFY(!script.restarts());
    QCOMPARE(script.match({op, 1, b, w, t, get}), expected);
}

void TestFaults::longScriptMatchesLikeAShortOne()
{
    // A script past 16 entries is indexed; it must answer as the scan of the same entries does.
    std::mt19937 gen(7);
    std::uniform_int_distribution<int> small(0, 3), kind(0, int(FaultKind::ServerRestart));
    const auto segment = [&](char letter) {
        const int n = small(gen);
        return n == 0 ? QStringLiteral("*") : QStringLiteral("%1%2").arg(QLatin1Char(letter)).arg(n);
    };
    QList<ScriptEntry> entries;
    for (int i = 0; i < 40; ++i) {
        ScriptEntry e;
        e.op = small(gen);
        e.attempt = segment('b') + QLatin1Char('/') + segment('w') + QLatin1Char('/') + segment('t');
        e.fault = FaultKind(kind(gen));
        e.method = small(gen) == 0 ? ScriptMethod::Get : ScriptMethod::Post;
        entries << e;
    }
    const faults::Script indexed(entries);
    for (int op = 1; op <= 3; ++op)
        for (int b = 1; b <= 3; ++b)
            for (int w = 1; w <= 3; ++w)
                for (int t = 1; t <= 3; ++t)
                    for (bool get : {false, true}) {
                        quint32 scanned = 0;
                        // The scan, 16 entries at a time (each script of at most 16 is scanned).
                        for (qsizetype from = 0; from < entries.size(); from += 16)
                            scanned |= faults::Script(entries.mid(from, 16)).match({op, 1, b, w, t, get});
                        QCOMPARE(indexed.match({op, 1, b, w, t, get}), scanned);
                    }
}

void TestFaults::diceAtTheirBounds()
{
    Scenario s;
    const faults::Attempt a{1, 1, 1, 1, 1, false};
    QCOMPARE(faults::postNetworkDice(s, a), 0u);
    QCOMPARE(faults::serverDice(s, a), 0u);
    s.network.connectFailure = 1;
    s.network.requestLoss = 1;
    s.network.latencySpike = 1;
    s.network.responseLoss = 1;
    s.network.resetAfterCommit = 1;
    QCOMPARE(faults::postNetworkDice(s, a),
             quint32(faults::Connect | faults::RequestLost | faults::Spike | faults::ResponseLost | faults::Reset));
    s.server.throttle429 = 1;
    s.server.error5xxBeforeCommit = 1;
    s.server.error5xxAfterCommit = 1;
    QCOMPARE(faults::serverDice(s, a), quint32(faults::Throttle429 | faults::Error5xxBefore | faults::Error5xxAfter));
    s.server.processingMs = {50, 0};
    QCOMPARE(faults::processingUs(s, a), qint64(50000));
    s.server.processingMs = {50, 20};
    const qint64 p = faults::processingUs(s, a);
    QVERIFY(p >= 50000 && p < 70000);
}

void TestFaults::diceAreKeyedByTheAttempt()
{
    // Half of the responses lost: the same attempt always draws the same, and the draws differ
    // across attempts (the live server and the engine meet the same faults on the same path).
    Scenario s;
    s.seed = 42;
    s.network.responseLoss = 0.5;
    int lost = 0;
    for (int op = 1; op <= 200; ++op) {
        const faults::Attempt a{op, 1, 1, 1, 1, false};
        const quint32 first = faults::postNetworkDice(s, a);
        QCOMPARE(faults::postNetworkDice(s, a), first);
        lost += (first & faults::ResponseLost) != 0;
    }
    QVERIFY2(lost > 70 && lost < 130, qPrintable(QString::number(lost)));
    Scenario other = s;
    other.seed = 43;
    int differ = 0;
    for (int op = 1; op <= 200; ++op)
        differ += faults::postNetworkDice(s, {op, 1, 1, 1, 1, false}) != faults::postNetworkDice(other, {op, 1, 1, 1, 1, false});
    QVERIFY(differ > 50);
}

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
