// Retry budgets by their real names, each against a scripted sequence worked out from the peer's rule:
//   gRPC retry throttling: grpc/proposal A6-client-retries.md, "Throttling Retry Attempts and Hedged
//     RPCs": token_count starts at maxTokens, every failed RPC -1, every success +tokenRatio (three
//     decimal places), retries only while token_count > maxTokens / 2; a retry costs nothing.
//   Finagle: finagle-core/src/main/scala/com/twitter/finagle/service/RetryBudget.scala, apply():
//     each deposit() (a request) puts 1000, a retry withdraws 1000 / percentCanRetry, a reserve of
//     minRetriesPerSec x ttl x withdrawal; deposits and withdrawals expire after ttl.
//   tokenPerRetry: RetryLab's first budget, kept under its own name: a retry costs 1 token, a
//     success earns `ratio`, capped at maxTokens.
#include "policy.h"
#include "simulator.h"
#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using retrylab::test::quietScenario;

namespace {

RetryBudgetConfig budget(BudgetKind kind)
{
    RetryBudgetConfig c;
    c.enabled = true;
    c.kind = kind;
    return c;
}

constexpr qint64 kS = 1000000;

} // namespace

class TestBudget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void grpcThrottling();
    void grpcRetriesCostNothing();
    void tokenPerRetry();
    void finaglePercent();
    void finagleReserveAndTtl();
    void grpcInTheEngine();
    void kindField();
};

void TestBudget::grpcThrottling()
{
    // maxTokens 10, tokenRatio 0.1 (A6's example): the threshold is 5.
    RetryBudget b(budget(BudgetKind::GrpcThrottling));
    QCOMPARE(b.balance(0), 10.0);
    const double afterFailures[] = {9, 8, 7, 6, 5};
    const bool allowed[] = {true, true, true, true, false}; // 5 is not > 5
    for (int i = 0; i < 5; ++i) {
        b.onOutcome(false, true);
        QCOMPARE(b.balance(0), afterFailures[i]);
        QCOMPARE(b.tryRetry(0), allowed[i]);
    }
    b.onOutcome(true, false);
    QCOMPARE(b.balance(0), 5.1);
    QVERIFY(b.tryRetry(0)); // 5.1 > 5
    b.onOutcome(false, true);
    QCOMPARE(b.balance(0), 4.1);
    for (int i = 0; i < 9; ++i)
        b.onOutcome(true, false);
    QCOMPARE(b.balance(0), 5.0); // nine successes of 0.1, exactly (thousandths, no drift)
    QVERIFY(!b.tryRetry(0));
    b.onOutcome(true, false);
    QVERIFY(b.tryRetry(0));
    // Neither below 0 nor above maxTokens; a 4xx (neither success nor failure) changes nothing.
    for (int i = 0; i < 20; ++i)
        b.onOutcome(false, true);
    QCOMPARE(b.balance(0), 0.0);
    b.onOutcome(false, false);
    QCOMPARE(b.balance(0), 0.0);
    for (int i = 0; i < 200; ++i)
        b.onOutcome(true, false);
    QCOMPARE(b.balance(0), 10.0);
}

void TestBudget::grpcRetriesCostNothing()
{
    RetryBudget b(budget(BudgetKind::GrpcThrottling));
    for (int i = 0; i < 100; ++i)
        QVERIFY(b.tryRetry(0));
    QCOMPARE(b.balance(0), 10.0);
}

void TestBudget::tokenPerRetry()
{
    RetryBudgetConfig c = budget(BudgetKind::TokenPerRetry);
    c.maxTokens = 3;
    c.ratio = 0.5;
    RetryBudget b(c);
    QVERIFY(b.tryRetry(0));
    QVERIFY(b.tryRetry(0));
    QVERIFY(b.tryRetry(0));
    QVERIFY(!b.tryRetry(0));
    b.onOutcome(false, true); // failures cost nothing here
    QCOMPARE(b.balance(0), 0.0);
    b.onOutcome(true, false);
    QVERIFY(!b.tryRetry(0)); // 0.5 < 1
    b.onOutcome(true, false);
    QVERIFY(b.tryRetry(0)); // exactly 1
    QCOMPARE(b.balance(0), 0.0);
}

void TestBudget::finaglePercent()
{
    // RetryBudget.apply's own example: percentCanRetry 0.1, "for every 10 calls to deposit(),
    // 1 retry will be allowed"; no reserve (minRetriesPerSec 0).
    RetryBudgetConfig c = budget(BudgetKind::Percent);
    c.percentCanRetry = 10;
    c.minRetriesPerSec = 0;
    RetryBudget b(c);
    QVERIFY(!b.tryRetry(0));
    for (int i = 0; i < 9; ++i)
        b.onRequest(0);
    QVERIFY(!b.tryRetry(0)); // 9000 < 10000
    b.onRequest(0);
    QCOMPARE(b.balance(0), 1.0);
    QVERIFY(b.tryRetry(0));
    QVERIFY(!b.tryRetry(0));
    // 20 %: every 5 requests one retry.
    c.percentCanRetry = 20;
    RetryBudget twenty(c);
    for (int i = 0; i < 10; ++i)
        twenty.onRequest(0);
    QVERIFY(twenty.tryRetry(0));
    QVERIFY(twenty.tryRetry(0));
    QVERIFY(!twenty.tryRetry(0));
}

void TestBudget::finagleReserveAndTtl()
{
    // Finagle's defaults: ttl 10 s, minRetriesPerSec 10, 20 %: a reserve of 10 x 10 = 100 retries
    // before any request; each withdrawal expires after the ttl, so at exactly 10 s the first
    // 100 are forgotten and 100 more may go.
    RetryBudget b(budget(BudgetKind::Percent));
    QCOMPARE(b.balance(0), 100.0);
    for (int i = 0; i < 100; ++i)
        QVERIFY(b.tryRetry(0));
    QVERIFY(!b.tryRetry(1 * kS));
    QVERIFY(!b.tryRetry(10 * kS - 1)); // 1 us before the ttl: still spent
    QCOMPARE(b.balance(10 * kS), 100.0);
    // Requests add to the reserve: five more requests, one more retry.
    for (int i = 0; i < 5; ++i)
        b.onRequest(10 * kS);
    QCOMPARE(b.balance(10 * kS), 101.0);
}

void TestBudget::grpcInTheEngine()
{
    // Five orders 10 s apart, every answer a 503, the business loop retries up to 3 attempts
    // (1 s apart). gRPC throttling, maxTokens 4 (threshold 2): order 1 fails (4 -> 3, 3 > 2: retry),
    // fails again (-> 2: no retry); orders 2-5 fail once each (-> 1, 0, 0, 0: no retry).
    // 2 + 4 = 6 attempts, 5 refusals. tokenPerRetry with 4 tokens: orders 1 and 2 retry twice
    // each (4 tokens), orders 3-5 not at all: 3 + 3 + 1 + 1 + 1 = 9 attempts, 3 refusals.
    Scenario s = quietScenario();
    s.workload.orders = 5;
    s.workload.interArrivalMs = 10000;
    s.server.error5xxBeforeCommit = 1.0;
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 3;
    s.client.retryBudget.enabled = true;
    s.client.retryBudget.maxTokens = 4;
    s.client.retryBudget.kind = BudgetKind::GrpcThrottling;
    Metrics m = simulate(s).metrics;
    QCOMPARE(m.httpAttempts, 6);
    QCOMPARE(m.budgetRefusals, 5);
    s.client.retryBudget.kind = BudgetKind::TokenPerRetry;
    m = simulate(s).metrics;
    QCOMPARE(m.httpAttempts, 9);
    QCOMPARE(m.budgetRefusals, 3);
}

void TestBudget::kindField()
{
    const Scenario s;
    QCOMPARE(s.client.retryBudget.kind, BudgetKind::TokenPerRetry);
    const ScenarioParse p = scenario::withSet(s, QStringLiteral("client.retryBudget.kind=grpcThrottling"));
    QVERIFY2(p.ok(), qPrintable(p.errors.join(QLatin1Char('\n'))));
    QCOMPARE(p.scenario.client.retryBudget.kind, BudgetKind::GrpcThrottling);
    const ScenarioParse bad = scenario::withSet(s, QStringLiteral("client.retryBudget.kind=grpc"));
    QVERIFY(!bad.ok());
    QVERIFY(bad.errors.first().contains(QLatin1String("client.retryBudget.kind")));
    QVERIFY(bad.errors.first().contains(QLatin1String("grpcThrottling")));
    const ScenarioParse ttl = scenario::withSet(s, QStringLiteral("client.retryBudget.ttlS=61"));
    QVERIFY(!ttl.ok()); // Finagle: ttl in [1 s, 60 s]
    QVERIFY(scenario::withSet(s, QStringLiteral("client.retryBudget.ttlS=60")).ok());
}

QTEST_GUILESS_MAIN(TestBudget)
#include "tst_budget.moc"
