#pragma once

// Helpers shared by the test executables: presets that must load, or the test stops.
#include "scenario.h"
#include "simulator.h"

#include <QJsonObject>
#include <QStringList>
#include <QtGlobal>

namespace retrylab::test {

inline Scenario presetScenario(const QString &name)
{
    const ScenarioParse parsed = scenario::preset(name);
    if (!parsed.ok())
        qFatal("preset %s: %s", qPrintable(name), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    return parsed.scenario;
}

// Latency checks (a GUI-thread watchdog under 100 ms) mean nothing in a sanitizer build, which runs
// several times slower: scripts/lab sanitize sets RETRYLAB_SANITIZE and those tests report the
// figure instead of asserting it. Everything else they check still holds.
inline bool latencyIsMeaningful()
{
    return !qEnvironmentVariableIsSet("RETRYLAB_SANITIZE");
}

// The same for peak memory: ASan's shadow memory and quarantine multiply a process's RSS.
inline bool peakMemoryIsMeaningful()
{
    return !qEnvironmentVariableIsSet("RETRYLAB_SANITIZE");
}

// Every leaf path of a JSON object ("client.transport.total"); arrays count as one value.
inline void collectLeaves(const QJsonObject &object, const QString &prefix, QStringList *out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            collectLeaves(it.value().toObject(), path, out);
        else
            out->append(path);
    }
}

inline RunResult runPreset(const QString &name)
{
    return simulate(presetScenario(name));
}

// One order, fixed latencies (20 ms each way, 50 ms of processing), every retry layer off, constant
// waits without jitter (business 1000 ms, wrapper 100 ms): each test switches on what it needs, and
// the times of its events can be worked out by hand.
inline Scenario quietScenario()
{
    Scenario s;
    s.name = QStringLiteral("test");
    s.workload.orders = 1;
    s.workload.interArrivalMs = 1000;
    s.client.business.enabled = false;
    s.client.wrapper.enabled = false;
    s.client.transport.enabled = false;
    s.client.business.backoff = {BackoffKind::Constant, 1000, 2.0, 8000, Jitter::None};
    s.client.wrapper.backoff = {BackoffKind::Constant, 100, 2.0, 1000, Jitter::None};
    s.client.timeoutMs = 3000;
    s.network.latencyMs = {20, 0};
    s.server.processingMs = {50, 0};
    return s;
}

// A network.script entry: op 0 is "*", attempt a path such as "b1/*/t2".
inline ScriptEntry scriptEntry(int op, const char *attempt, FaultKind fault)
{
    ScriptEntry e;
    e.op = op;
    e.attempt = QLatin1String(attempt);
    e.fault = fault;
    return e;
}

// The trace events of one kind, in order; of one op only when op is not 0.
inline QList<TraceEvent> eventsOf(const Trace &trace, EventKind kind, int op = 0)
{
    QList<TraceEvent> out;
    for (const TraceEvent &e : trace)
        if (e.kind == kind && (op == 0 || e.op == op))
            out << e;
    return out;
}

inline QList<TraceEvent> eventsOf(const RunResult &r, EventKind kind, int op = 0)
{
    return eventsOf(r.trace, kind, op);
}

// A run that keeps the one invariant that never bends: no op reported succeeded without a record.
inline RunResult simulateChecked(const Scenario &s)
{
    RunResult r = simulate(s);
    if (r.metrics.lost != 0)
        qFatal("lost must be 0, got %d", r.metrics.lost);
    return r;
}

} // namespace retrylab::test
