#include "document/windowbudget.h"

#include "simulator.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace retrylab {

namespace windowbudget {

namespace {

// The scenario cut to at most PilotOperations operations, as a sweep's pilot cuts a cell; false
// when it cannot be cut (load phases bring their own arrivals; more closed clients than that).
bool pilotOf(const Scenario &scenario, Scenario *out)
{
    Scenario s = scenario;
    if (s.workload.operations() > PilotOperations) {
        if (s.workload.mode == WorkloadMode::Closed && s.workload.clients <= PilotOperations)
            s.workload.opsPerClient = qMax(1, PilotOperations / qMax(1, s.workload.clients));
        else if (s.workload.mode != WorkloadMode::Closed && s.workload.phases.isEmpty())
            s.workload.orders = PilotOperations;
        else
            return false;
    }
    *out = s;
    return true;
}

} // namespace

Expectation expect(const Scenario &scenario, const std::atomic_bool *cancel)
{
    Expectation e;
    e.operations = qMax(0, scenario.workload.operations());
    Scenario pilot;
    if (!pilotOf(scenario, &pilot)) {
        e.events = work::saturatedProduct(work::estimate(scenario).attempts, EventsPerAttempt);
        return e;
    }
    RunOptions options;
    options.trace = false; // no records or operations tables: the pilot keeps nothing
    options.cancel = cancel;
    qint64 events = 0;
    options.sink = [&events](const TraceEvent &) { ++events; };
    simulate(pilot, options);
    e.pilotOperations = qMax(0, pilot.workload.operations());
    e.pilotEvents = events;
    if (e.exact() || e.pilotOperations == 0)
        e.events = events;
    else
        e.events = qint64(std::ceil(double(events) * double(e.operations) / double(e.pilotOperations)));
    return e;
}

QString boundText()
{
    return QCoreApplication::translate("retrylab::WindowBudget", "%1 MB").arg(MemoryBoundBytes >> 20);
}

QString workRefusal(const Scenario &scenario, qint64 maxAttempts)
{
    const work::Estimate estimate = work::estimate(scenario);
    if (estimate.attempts <= maxAttempts)
        return QString();
    return QCoreApplication::translate("retrylab::WindowBudget",
                                       "this scenario could make up to %1 HTTP attempts (%2), more than the %3 the "
                                       "window runs; lower those settings, or use the command line (retrylab run "
                                       "--max-attempts N)")
            .arg(work::formatCount(estimate.attempts), estimate.drivers, work::formatCount(maxAttempts));
}

QString memoryRefusal(const Scenario &scenario, qint64 maxEvents, const std::atomic_bool *cancel)
{
    const work::Estimate estimate = work::estimate(scenario);
    // Even its worst case fits: no pilot needed.
    if (work::saturatedProduct(qMax<qint64>(1, estimate.attempts), EventsPerAttempt) <= maxEvents)
        return QString();
    const Expectation e = expect(scenario, cancel);
    if (e.events <= maxEvents)
        return QString();
    const QString basis = e.pilotOperations == 0
            ? QCoreApplication::translate("retrylab::WindowBudget", "up to %1 per HTTP attempt").arg(EventsPerAttempt)
            : e.exact() ? QCoreApplication::translate("retrylab::WindowBudget", "counted in a run of it")
                        : QCoreApplication::translate("retrylab::WindowBudget", "%1 per operation in a pilot of %2 operations")
                                  .arg(double(e.pilotEvents) / double(e.pilotOperations), 0, 'f', 1)
                                  .arg(e.pilotOperations);
    return QCoreApplication::translate("retrylab::WindowBudget",
                                       "this scenario would keep about %1 trace events in the window (%2; %3), more "
                                       "than the %4 it keeps within %5; lower those settings, or use the command "
                                       "line (retrylab run --trace FILE)")
            .arg(work::formatCount(e.events), basis, estimate.drivers, work::formatCount(maxEvents), boundText());
}

QString refusal(const Scenario &scenario, qint64 maxAttempts, qint64 maxEvents)
{
    const QString work = workRefusal(scenario, maxAttempts);
    return work.isEmpty() ? memoryRefusal(scenario, maxEvents) : work;
}

RunResult runKept(const Scenario &scenario, qint64 maxEvents, std::atomic_bool *cancel, bool *overflow)
{
    std::atomic_bool stop(false);
    std::atomic_bool *flag = cancel ? cancel : &stop;
    *overflow = false;
    Trace kept;
    RunOptions options;
    options.cancel = flag;
    // The events arrive one by one and stop at the budget: the engine's own list would grow
    // past it before the run could be told.
    options.sink = [&kept, maxEvents, flag, overflow](const TraceEvent &e) {
        if (kept.size() < maxEvents) {
            kept.append(e);
        } else if (!*overflow) {
            *overflow = true;
            flag->store(true);
        }
    };
    RunResult result = simulate(scenario, options);
    if (*overflow) {
        result = RunResult();
        result.scenario = scenario;
        result.cancelled = true;
        return result;
    }
    // Not squeezed: the room a grown list has past its last event was never touched, so it is
    // address space, not memory, and squeezing it copies the whole trace (+55 MB at 400k events).
    result.trace = std::move(kept);
    return result;
}

QString lessonRefusal(const Lesson &lesson, bool allSteps)
{
    qint64 total = 0;
    for (qsizetype i = 0; i < lesson.steps.size(); ++i) {
        const Scenario &scenario = lesson.steps.at(i).scenario;
        if (const QString refused = refusal(scenario); !refused.isEmpty())
            return QCoreApplication::translate("retrylab::WindowBudget", "step %1: %2").arg(i + 1).arg(refused);
        if (allSteps)
            total = qMin(total + expect(scenario).events, std::numeric_limits<qint64>::max() / 2);
    }
    if (total <= 2 * MaxEvents)
        return QString();
    return QCoreApplication::translate("retrylab::WindowBudget",
                                       "its %1 steps together would keep about %2 trace events, more than the %3 a "
                                       "handout keeps within %4; lower the steps' workload.orders or retry layers' "
                                       "attempts")
            .arg(lesson.steps.size())
            .arg(work::formatCount(total), work::formatCount(2 * MaxEvents), boundText());
}

QString stoppedAt(const Scenario &scenario, qint64 maxEvents)
{
    return QCoreApplication::translate("retrylab::WindowBudget", "the run passed the %1 trace events the window keeps within %2 (%3); lower those settings, or use "
              "the command line (retrylab run --trace FILE)")
            .arg(work::formatCount(maxEvents), boundText(), work::estimate(scenario).drivers);
}

} // namespace windowbudget

} // namespace retrylab
