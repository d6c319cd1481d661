// Engine and sweep throughput: simulated HTTP attempts per second, sweep runs per second.
#include "scenario.h"
#include "simulator.h"
#include "sweep.h"

#include <benchmark/benchmark.h>

using namespace retrylab;

namespace {

Scenario presetOr(const char *name, const Scenario &fallback)
{
    const ScenarioParse parsed = scenario::preset(QLatin1String(name));
    return parsed.ok() ? parsed.scenario : fallback;
}

// Many orders, a third of the responses lost: timeouts and retries in the business and wrapper layers.
Scenario largeGhost()
{
    Scenario s = presetOr("ghost-request", Scenario());
    s.workload.orders = 20000;
    s.workload.interArrivalMs = 50;
    s.network.responseLoss = 0.3;
    s.network.script.clear();
    return s;
}

// Every POST answered 503 and every layer retries it, transport included: attempts dominate.
Scenario persistent503()
{
    Scenario s;
    s.name = QStringLiteral("persistent-503");
    s.workload.orders = 2000;
    s.workload.interArrivalMs = 100;
    s.client.business = {true, 3, {BackoffKind::Exponential, 1000, 2.0, 8000, Jitter::Full}, 0};
    s.client.wrapper = {true, 3, {BackoffKind::Exponential, 100, 2.0, 1000, Jitter::None}, 0};
    s.client.transport.enabled = true;
    s.client.transport.total = 3;
    s.client.transport.allowedMethods << QStringLiteral("POST");
    s.server.error5xxBeforeCommit = 1.0;
    s.server.errorStatus = 503;
    s.server.retryAfterS = 0;
    return s;
}

void simulateScenario(benchmark::State &state, const Scenario &s)
{
    RunOptions options;
    options.trace = state.range(0) != 0;
    qint64 attempts = 0;
    qint64 events = 0;
    for (auto _ : state) {
        const RunResult r = simulate(s, options);
        attempts += r.metrics.httpAttempts;
        events += r.trace.size();
        benchmark::DoNotOptimize(r.metrics.records);
    }
    state.counters["attempts/s"] = benchmark::Counter(double(attempts), benchmark::Counter::kIsRate);
    state.counters["attempts/run"] = benchmark::Counter(double(attempts) / double(state.iterations()));
    if (options.trace)
        state.counters["events/s"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
}

void BM_SimulateGhostRequest20k(benchmark::State &state)
{
    static const Scenario s = largeGhost();
    simulateScenario(state, s);
}

void BM_SimulatePersistent503(benchmark::State &state)
{
    static const Scenario s = persistent503();
    simulateScenario(state, s);
}

// 8 values x 8 seeds of the ghost request on every core.
void BM_Sweep8x8(benchmark::State &state)
{
    const Scenario base = presetOr("ghost-request", Scenario());
    SweepSpec spec;
    spec.param = QStringLiteral("network.responseLoss");
    spec.from = 0;
    spec.to = 0.7;
    spec.steps = 8;
    spec.seeds = 8;
    qint64 runs = 0;
    for (auto _ : state) {
        const QList<SweepPoint> points = sweep::run(base, spec);
        benchmark::DoNotOptimize(points.size());
        runs += qint64(spec.steps) * spec.seeds;
    }
    state.counters["runs/s"] = benchmark::Counter(double(runs), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK(BM_SimulateGhostRequest20k)->ArgName("trace")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimulatePersistent503)->ArgName("trace")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
// Wall time: the work runs on the thread pool, not the benchmark thread.
BENCHMARK(BM_Sweep8x8)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
