// A run's memory does not grow with its number of orders when no trace is kept: a 1M-order run
// in a child process whose address space is capped (RLIMIT_AS) a little above what it had before
// the run. A streamed trace (`run --trace FILE`) keeps 4 bytes per order (each order's first
// record, which its commit events name) and 4 per record. Memory, not time: no wall-clock assert.
#include "scenario.h"
#include "simulator.h"
#include "testsupport.h"

#include <QFile>
#include <QTest>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <new>

using namespace retrylab;

namespace {

// Address space of this process now (VmSize), in bytes.
qint64 addressSpace()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmSize:"))
            return line.mid(7).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

enum ChildExit { Ran = 0, OutOfMemory = 3, WrongResult = 4, NoLimit = 5 };

// In the child: cap the address space at what it has now plus `budget`, run, report by exit code.
// `streamed`: every event goes to a sink that only counts it, as `run --trace FILE` streams them.
[[noreturn]] void runCapped(const Scenario &s, qint64 budget, qint64 expectOps, bool streamed)
{
    const qint64 now = addressSpace();
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = rlim_t(now + budget);
    if (now < 0 || setrlimit(RLIMIT_AS, &limit) != 0)
        _exit(NoLimit);
    try {
        RunOptions options;
        options.trace = false;
        qint64 events = 0;
        qint64 commits = 0;
        if (streamed) {
            options.sink = [&](const TraceEvent &e) {
                ++events;
                commits += e.kind == EventKind::Committed;
            };
        }
        const RunResult r = simulate(s, options);
        const bool traced = !streamed || (events > r.metrics.httpAttempts && commits == r.metrics.records);
        _exit(r.metrics.logicalOperations == expectOps && r.error.isEmpty() && r.metrics.httpAttempts > expectOps
                      && traced
                  ? Ran
                  : WrongResult);
    } catch (const std::bad_alloc &) {
        _exit(OutOfMemory);
    }
}

// Runs `s` in a forked child under the cap; returns its exit code (or -signal).
int capped(const Scenario &s, qint64 budget, qint64 expectOps, bool streamed = false)
{
    const pid_t pid = fork();
    if (pid == 0)
        runCapped(s, budget, expectOps, streamed);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1000;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// The measurement: the ghost request with a third of the responses lost.
Scenario ghost(int orders)
{
    Scenario s = test::presetScenario(QStringLiteral("ghost-request"));
    s.workload.orders = orders;
    s.workload.interArrivalMs = 1;
    s.network.responseLoss = 0.3;
    s.network.script.clear();
    return s;
}

} // namespace

class TestMemoryBound : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void millionOrdersIn64MB_data();
    void millionOrdersIn64MB();
    void streamedTraceOfMillionOrdersIn64MB();
};

void TestMemoryBound::initTestCase()
{
    if (!test::peakMemoryIsMeaningful())
        QSKIP("a sanitizer build reserves terabytes of address space: RLIMIT_AS means nothing there");
}

void TestMemoryBound::millionOrdersIn64MB_data()
{
    QTest::addColumn<Scenario>("scenario");
    QTest::addColumn<int>("orders");
    QTest::addRow("ghost-request-1e6") << ghost(1000000) << 1000000;
    // Atomic keys: the server keeps a key per order (a real store would too, for the key's TTL),
    // but no record per order and no operation state.
    Scenario closed = ghost(1);
    closed.workload.mode = WorkloadMode::Closed;
    closed.workload.clients = 100;
    closed.workload.opsPerClient = 10000;
    closed.workload.doubleSubmitRate = 0.1;
    QTest::addRow("closed-1e6") << closed << 1000000;
    // Every answer comes after its read timeout (5 ms against 20 + 20 ms on the wire): the second
    // and last attempt's when the operation has ended, so its flow can go only when that late
    // answer frees the request (Engine::freeRequest).
    Scenario late = ghost(1000000);
    late.network.responseLoss = 0;
    late.client.business.enabled = false;
    late.client.wrapper.maxAttempts = 2;
    late.client.timeoutMs = 5;
    QTest::addRow("late-answers-1e6") << late << 1000000;
}

// Before operation state was freed, the 1M-order run took about 360 bytes per order (389 MB of
// RSS, issue 23): 64 MB of address space above the process's own is far below that, and well
// above what the streamed run needs (what is in flight, two 65,536-sample percentile buffers).
void TestMemoryBound::millionOrdersIn64MB()
{
    QFETCH(Scenario, scenario);
    QFETCH(int, orders);
    const int code = capped(scenario, qint64(64) << 20, orders);
    QVERIFY2(code != NoLimit, "could not set RLIMIT_AS");
    QVERIFY2(code != OutOfMemory, "the run ran out of its 64 MB");
    QCOMPARE(code, int(Ran));
}

// `run --trace FILE` at 1e6 orders peaked at 149 MB against 28 MB untraced (round seven): the
// order service kept every record (40 bytes each, in a vector that doubles: 84 MB, 126 MB while it
// grows) and a map node per order (about 40 MB), where the trace reads only each order's first
// record. Now 4 bytes per order and 4 per record's commit event id, about 12 MB here.
void TestMemoryBound::streamedTraceOfMillionOrdersIn64MB()
{
    const int code = capped(ghost(1000000), qint64(64) << 20, 1000000, true);
    QVERIFY2(code != NoLimit, "could not set RLIMIT_AS");
    QVERIFY2(code != OutOfMemory, "the streamed trace ran out of its 64 MB");
    QCOMPARE(code, int(Ran));
}

QTEST_GUILESS_MAIN(TestMemoryBound)
#include "tst_memorybound.moc"
