// Invariants over thousands of random scenarios: the things that must hold whatever the mix.
#include "simulator.h"

#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <random>

using namespace retrylab;

namespace {

class Generator
{
public:
    explicit Generator(quint64 seed) : m_rng(seed) {}
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
    double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(m_rng); }
    bool coin(double p = 0.5) { return real(0, 1) < p; }
    template<typename T> T pick(std::initializer_list<T> items)
    {
        return *(items.begin() + integer(0, int(items.size()) - 1));
    }

    BackoffConfig backoff()
    {
        BackoffConfig b;
        b.kind = pick({BackoffKind::Constant, BackoffKind::Linear, BackoffKind::Exponential});
        b.initialMs = integer(0, 2000);
        b.multiplier = real(1.0, 3.0);
        b.maxMs = b.initialMs + integer(0, 8000);
        b.jitter = pick({Jitter::None, Jitter::Full, Jitter::Equal, Jitter::AwsDecorrelated});
        return b;
    }

    double fault() { return coin(0.4) ? 0.0 : real(0, 0.6); }

    Scenario scenario()
    {
        Scenario s;
        s.seed = m_rng();
        s.workload.orders = integer(1, 8);
        s.workload.interArrivalMs = integer(0, 2000);
        s.workload.clients = integer(1, 4);
        s.workload.doubleSubmitRate = coin(0.2) ? real(0, 1) : 0;
        s.workload.doubleSubmitDelayMs = integer(0, 200);
        ClientConfig &c = s.client;
        c.keyPlacement = pick({KeyPlacement::None, KeyPlacement::PerOperation, KeyPlacement::PerBusinessAttempt,
                               KeyPlacement::PerWrapperAttempt});
        c.requestId = coin();
        c.queryBeforeRetry = coin(0.2);
        c.mutatePayloadOnRetry = coin(0.2);
        c.businessRespectRetryAfter = coin();
        c.wrapperRetryOn = pick({WrapperRetryOn::Any, WrapperRetryOn::Transient});
        for (LayerConfig *l : {&c.business, &c.wrapper}) {
            l->enabled = coin(0.7);
            l->maxAttempts = integer(1, 5);
            l->backoff = backoff();
            l->deadlineMs = coin(0.2) ? integer(1, 20000) : 0;
        }
        c.transport.enabled = coin(0.6);
        c.transport.total = integer(0, 5);
        c.transport.backoffFactor = real(0, 1);
        c.transport.respectRetryAfter = coin();
        if (coin(0.4))
            c.transport.allowedMethods.append(QStringLiteral("POST"));
        c.transport.statusForcelist = coin() ? QList<int>{500, 502, 503, 504} : QList<int>{429, 503};
        c.timeoutMs = integer(50, 5000);
        c.connectFailMs = integer(1, 50);
        c.retryBudget.enabled = coin(0.2);
        c.retryBudget.maxTokens = integer(1, 10);
        c.retryBudget.ratio = real(0, 1);
        c.circuitBreaker.enabled = coin(0.2);
        c.circuitBreaker.failureThreshold = integer(1, 5);
        c.circuitBreaker.openMs = integer(100, 5000);
        NetworkConfig &n = s.network;
        n.latencyMs = {integer(0, 200), integer(0, 200)};
        n.connectFailure = fault();
        n.requestLoss = fault();
        n.responseLoss = fault();
        n.resetAfterCommit = fault();
        n.latencySpike = fault();
        n.spikeMs = integer(0, 10000);
        const int scripted = integer(0, 3);
        for (int i = 0; i < scripted; ++i) {
            ScriptEntry e;
            e.op = integer(0, 3);
            e.attempt = QStringLiteral("%1/%2/%3")
                            .arg(coin() ? QStringLiteral("*") : QStringLiteral("b%1").arg(integer(1, 3)),
                                 coin() ? QStringLiteral("*") : QStringLiteral("w%1").arg(integer(1, 3)),
                                 coin() ? QStringLiteral("*") : QStringLiteral("t%1").arg(integer(1, 3)));
            e.fault = FaultKind(integer(0, int(FaultKind::Throttle429)));
            n.script.append(e);
        }
        ServerConfig &sv = s.server;
        sv.processingMs = {integer(0, 300), integer(0, 300)};
        sv.capacity = coin(0.3) ? integer(1, 4) : 0;
        sv.queue = integer(0, 4);
        sv.errorStatus = pick({500, 502, 503, 504});
        sv.error5xxBeforeCommit = fault();
        sv.error5xxAfterCommit = fault();
        sv.throttle429 = fault();
        sv.retryAfterS = integer(0, 3);
        sv.idempotency.mode = pick({IdempotencyMode::Off, IdempotencyMode::Naive, IdempotencyMode::Atomic,
                                    IdempotencyMode::Token});
        sv.idempotency.requireKey = coin(0.3);
        sv.idempotency.ttlS = coin(0.3) ? integer(1, 30) : 86400;
        sv.idempotency.fingerprint = coin();
        sv.idempotency.storeErrors = coin();
        s.reconciliation.enabled = coin(0.2);
        s.reconciliation.intervalS = integer(1, 60);
        s.reconciliation.action = pick({ReconcileAction::Flag, ReconcileAction::Void});
        return s;
    }

private:
    std::mt19937_64 m_rng;
};

QString describe(const Scenario &s)
{
    return QString::fromUtf8(QJsonDocument(s.toJson()).toJson(QJsonDocument::Compact));
}

void checkCommonInvariants(const Scenario &s, const RunResult &r)
{
    const Metrics &m = r.metrics;
    QVERIFY2(m.lost == 0, qPrintable(describe(s)));
    QVERIFY2(m.maxAttemptsPerOp <= m.worstCaseAttemptsPerOp, qPrintable(describe(s)));
    QCOMPARE(m.worstCaseAttemptsPerOp, s.worstCaseAttemptsPerOp());
    QCOMPARE(m.clientSucceeded + m.clientFailed, s.workload.orders);
    QCOMPARE(m.records, int(r.records.size()));
    QSet<int> refs;
    qint64 attempts = 0;
    for (const RecordRow &row : r.records)
        refs.insert(row.op);
    for (const OpSummary &op : r.ops) {
        attempts += op.attempts;
        QVERIFY(op.attempts <= m.worstCaseAttemptsPerOp * op.submissions);
    }
    QCOMPARE(m.duplicates, m.records - int(refs.size()));
    QHash<int, int> firstOfRef;
    int flaggedDuplicates = 0;
    for (const RecordRow &row : r.records) {
        if (!firstOfRef.contains(row.op))
            firstOfRef.insert(row.op, row.id); // records come in commit (id) order
        QCOMPARE(row.duplicate, firstOfRef.value(row.op) != row.id);
        flaggedDuplicates += row.duplicate;
    }
    QCOMPARE(flaggedDuplicates, m.duplicates);
    QVERIFY(m.duplicatesOutstanding <= m.duplicates);
    QCOMPARE(attempts, m.httpAttempts);
    QVERIFY(m.orphans <= m.clientFailed);
    int sent = 0, circuit = 0;
    for (const TraceEvent &e : r.trace) {
        sent += e.kind == EventKind::TransportAttempt;
        circuit += e.kind == EventKind::CircuitOpen;
    }
    QCOMPARE(qint64(sent - circuit), m.httpAttempts);
    for (int i = 1; i < r.trace.size(); ++i)
        QVERIFY(r.trace[i - 1].t <= r.trace[i].t);
}

} // namespace

class TestProperties : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void randomScenarios();
    void stableKeyAtomicNeverDuplicates();
    void noFaultsNoDuplicates();
};

void TestProperties::randomScenarios()
{
    Generator g(20261130);
    for (int i = 0; i < 2000; ++i) {
        const Scenario s = g.scenario();
        const RunResult r = simulate(s);
        checkCommonInvariants(s, r);
        if (QTest::currentTestFailed())
            return;
    }
}

// The design's promise: a key minted once per operation, an atomic store and a TTL longer
// than the retry horizon leave no duplicate, whatever the faults.
void TestProperties::stableKeyAtomicNeverDuplicates()
{
    Generator g(7);
    int withFaults = 0;
    for (int i = 0; i < 2000; ++i) {
        Scenario s = g.scenario();
        s.client.keyPlacement = KeyPlacement::PerOperation;
        s.server.idempotency.mode = IdempotencyMode::Atomic;
        s.server.idempotency.ttlS = 86400;
        s.reconciliation.enabled = false;
        const RunResult r = simulate(s);
        checkCommonInvariants(s, r);
        QVERIFY2(r.metrics.duplicates == 0, qPrintable(describe(s)));
        if (QTest::currentTestFailed())
            return;
        withFaults += r.metrics.timeouts > 0;
    }
    QVERIFY(withFaults > 500); // the mix really did lose responses
}

void TestProperties::noFaultsNoDuplicates()
{
    Generator g(99);
    for (int i = 0; i < 500; ++i) {
        Scenario s = g.scenario();
        s.network = NetworkConfig();
        s.server.error5xxBeforeCommit = s.server.error5xxAfterCommit = s.server.throttle429 = 0;
        s.server.capacity = 0;
        s.server.idempotency.requireKey = false;
        s.server.idempotency.mode = IdempotencyMode::Off;
        s.workload.doubleSubmitRate = 0;
        s.client.timeoutMs = 5000;
        const RunResult r = simulate(s);
        checkCommonInvariants(s, r);
        QCOMPARE(r.metrics.duplicates, 0);
        QCOMPARE(r.metrics.records, s.workload.orders);
        QCOMPARE(r.metrics.clientSucceeded, s.workload.orders);
        QCOMPARE(r.metrics.httpAttempts, qint64(s.workload.orders));
    }
}

QTEST_GUILESS_MAIN(TestProperties)
#include "tst_properties.moc"
