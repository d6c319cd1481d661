// Many clients: the AWS backoff-and-jitter study reproduced (OCC server, closed-loop clients,
// normal latency), and the engine's many-client machinery (arrivals, phases, windows, budget
// scope, failure-rate breaker, load-dependent service).
#include "simulator.h"
#include "testsupport.h"

#include <QTest>
#include <QtConcurrent/QtConcurrentMap>

#include <cmath>

using namespace retrylab;

namespace {

// The AWS simulator's setup (aws-samples/aws-arch-backoff-simulator, src/backoff_simulator.py):
// one row, every client at t = 0, each message |N(10, 2)| ms, base 5 ms, cap 2 s, retry until
// the write succeeds.
enum class Strategy { None, Exponential, Full, Equal, Decorrelated };

Scenario awsStudy(int clients, Strategy strategy, quint64 seed)
{
    Scenario s;
    s.seed = seed;
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = clients;
    s.workload.opsPerClient = 1;
    s.workload.startTogether = true;
    s.server.model = ServerModel::Occ;
    s.server.occRows = 1;
    s.server.processingMs = Distribution{0, 0};
    s.network.latencyMs.shape = DistributionShape::Normal;
    s.network.latencyMs.mean = 10;
    s.network.latencyMs.sd = 2;
    s.client.wrapper.enabled = false;
    s.client.transport.enabled = false;
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 0;
    s.client.business.deadlineMs = 180000;
    BackoffConfig &b = s.client.business.backoff;
    b = BackoffConfig{BackoffKind::AwsExponential, 5, 2.0, 2000, Jitter::None};
    switch (strategy) {
    case Strategy::None:
        b.kind = BackoffKind::Constant;
        b.initialMs = 0;
        break;
    case Strategy::Exponential:
        break;
    case Strategy::Full:
        b.jitter = Jitter::Full;
        break;
    case Strategy::Equal:
        b.jitter = Jitter::Equal;
        break;
    case Strategy::Decorrelated:
        b.jitter = Jitter::Decorrelated;
        break;
    }
    return s;
}

struct Mean
{
    double calls = 0;
    double completionS = 0;
    int failed = 0;
};

Mean meanOver(int clients, Strategy strategy, int seeds)
{
    QList<quint64> list;
    for (int i = 0; i < seeds; ++i)
        list << quint64(1000 + i);
    RunOptions quiet;
    quiet.trace = false;
    const QList<Metrics> runs = QtConcurrent::blockingMapped(list, [&](quint64 seed) {
        return simulate(awsStudy(clients, strategy, seed), quiet).metrics;
    });
    Mean m;
    for (const Metrics &r : runs) {
        m.calls += double(r.writeAttempts);
        m.completionS += r.completionS;
        m.failed += r.clientFailed;
    }
    m.calls /= seeds;
    m.completionS /= seeds;
    return m;
}

} // namespace

Q_DECLARE_METATYPE(Strategy)

class TestContention : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void awsStudyCalls_data();
    void awsStudyCalls();
};

void TestContention::awsStudyCalls_data()
{
    QTest::addColumn<int>("clients");
    QTest::addColumn<Strategy>("strategy");
    QTest::addColumn<double>("published");
    // Mean write calls of the AWS simulator's own code, 100 runs each (measured with it).
    const struct
    {
        const char *name;
        Strategy strategy;
        double calls[3];
    } rows[] = {
        {"none", Strategy::None, {690, 2421, 5140}},
        {"exponential", Strategy::Exponential, {623, 1856, 3550}},
        {"equal", Strategy::Equal, {348, 812, 1325}},
        {"full", Strategy::Full, {333, 796, 1318}},
        {"decorrelated", Strategy::Decorrelated, {375, 1001, 1760}},
    };
    const int clients[] = {50, 100, 150};
    for (const auto &row : rows)
        for (int i = 0; i < 3; ++i)
            QTest::addRow("%s-%d", row.name, clients[i]) << clients[i] << row.strategy << row.calls[i];
}

void TestContention::awsStudyCalls()
{
    QFETCH(int, clients);
    QFETCH(Strategy, strategy);
    QFETCH(double, published);
    const Mean m = meanOver(clients, strategy, 100);
    qInfo("%d clients: %.0f calls (AWS %.0f), completion %.2f s", clients, m.calls, published, m.completionS);
    QCOMPARE(m.failed, 0);
    QVERIFY2(std::fabs(m.calls - published) <= 0.10 * published,
             qPrintable(QStringLiteral("%1 calls, the AWS simulator %2").arg(m.calls).arg(published)));
}

QTEST_GUILESS_MAIN(TestContention)
#include "tst_contention.moc"
