#include "document/runcontroller.h"

#include "document/windowbudget.h"
#include "release.h"
#include "work.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace retrylab {

RunController::RunController(QObject *parent)
    : QObject(parent)
    , m_maxAttempts(work::DefaultMaxTracedAttempts)
    , m_maxEvents(windowbudget::MaxEvents)
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(0);
    connect(&m_coalesce, &QTimer::timeout, this, &RunController::startRun);
}

RunController::~RunController()
{
    // A background run still holds its own copy of the flag; telling it to stop
    // saves the CPU, its result goes nowhere because the watcher dies with us.
    if (m_cancel)
        m_cancel->store(true);
}

qint64 RunController::estimatedAttempts(const Scenario &scenario)
{
    return work::estimate(scenario).attempts;
}

void RunController::setScenario(const Scenario &scenario)
{
    m_scenario = scenario;
    m_coalesce.start();
}

void RunController::rerun()
{
    m_coalesce.start();
}

void RunController::cancel()
{
    m_coalesce.stop();
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    setBusy(false);
}

void RunController::startRun()
{
    // Latest request wins: whatever is in flight is now stale.
    const quint64 generation = ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();

    if (const QString work = windowbudget::workRefusal(m_scenario, m_maxAttempts); !work.isEmpty()) {
        setBusy(false);
        refuse(tr("Not run: %1").arg(work));
        return;
    }
    m_refusal.clear();
    const qint64 maxEvents = m_maxEvents;
    const work::Estimate estimate = work::estimate(m_scenario);
    // Worst case under the sync limit: at most 16 x 20,000 events, inside any sensible budget.
    if (estimate.attempts < m_syncLimit) {
        Q_EMIT runStarted(false);
        setBusy(false);
        // Small: each view derives its part when it is shown, as for a result from elsewhere.
        bool overflow = false;
        Outcome outcome{windowbudget::runKept(m_scenario, maxEvents, nullptr, &overflow), {}, {}};
        if (overflow) {
            refuse(tr("Stopped: %1").arg(windowbudget::stoppedAt(m_scenario, maxEvents)));
            return;
        }
        outcome.views.interesting = interestingOperations(outcome.result);
        publish(std::move(outcome));
        return;
    }

    Q_EMIT runStarted(true);
    setBusy(true);
    auto cancelFlag = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancelFlag;
    const Scenario scenario = m_scenario;
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this,
            [this, generation, watcher] { finishBackground(generation, watcher); });
    watcher->setFuture(QtConcurrent::run([scenario, cancelFlag, maxEvents] {
        Outcome outcome;
        // Expected past the memory budget: refused after the pilot, before the run.
        outcome.refusal = windowbudget::memoryRefusal(scenario, maxEvents, cancelFlag.get());
        if (!outcome.refusal.isEmpty()) {
            outcome.refusal = tr("Not run: %1").arg(outcome.refusal);
            return outcome;
        }
        bool overflow = false;
        outcome.result = windowbudget::runKept(scenario, maxEvents, cancelFlag.get(), &overflow);
        if (overflow) {
            outcome.refusal = tr("Stopped: %1").arg(windowbudget::stoppedAt(scenario, maxEvents));
            return outcome;
        }
        // What the views derive from every event (records table, chart points, overview rows,
        // interesting operations) is computed here, not on the GUI thread: for 40,000 orders
        // (565k events) it took the GUI thread about 100 ms.
        if (!outcome.result.cancelled && !cancelFlag->load())
            outcome.views = PreparedViews::prepare(outcome.result);
        return outcome;
    }));
}

void RunController::refuse(const QString &message)
{
    m_refusal = message;
    Q_EMIT runRefused(m_refusal);
}

void RunController::finishBackground(quint64 generation, QFutureWatcher<Outcome> *watcher)
{
    watcher->deleteLater();
    if (generation != m_generation)
        return; // a newer edit superseded this run
    m_cancel.reset();
    setBusy(false);
    if (watcher->future().isCanceled() || watcher->future().resultCount() == 0)
        return;
    Outcome outcome = watcher->result();
    if (!outcome.refusal.isEmpty()) {
        refuse(outcome.refusal);
        return;
    }
    if (outcome.result.cancelled || !outcome.views.ready)
        return;
    publish(std::move(outcome));
}

void RunController::publish(Outcome outcome)
{
    RunResult previous = std::exchange(m_result, std::move(outcome.result));
    PreparedViews previousViews = std::exchange(m_prepared, std::move(outcome.views));
    m_hasResult = true;
    Q_EMIT resultReady(m_result);
    // The views have let go of the replaced run (those hidden drop theirs on a worker too):
    // this copy is likely the last, and freeing a big run takes the GUI thread about 100 ms.
    releaseInBackground(std::move(previous), std::move(previousViews));
    if (!m_result.error.isEmpty()) {
        // The engine's guard stopped the run: say so where refusals are shown.
        m_refusal = tr("Stopped: %1").arg(m_result.error);
        Q_EMIT runRefused(m_refusal);
    }
}

void RunController::setResult(const RunResult &result)
{
    cancel();
    Outcome outcome{result, {}, {}};
    outcome.views.interesting = interestingOperations(result);
    publish(std::move(outcome));
}

void RunController::setPreparedResult(const RunResult &result, PreparedViews prepared)
{
    cancel();
    publish(Outcome{result, std::move(prepared), {}});
}

void RunController::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

} // namespace retrylab
