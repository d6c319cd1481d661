#include "document/runcontroller.h"

#include "release.h"
#include "work.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace retrylab {

RunController::RunController(QObject *parent)
    : QObject(parent)
    , m_maxAttempts(work::DefaultMaxTracedAttempts)
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

    const work::Estimate estimate = work::estimate(m_scenario);
    if (estimate.attempts > m_maxAttempts) {
        setBusy(false);
        m_refusal = tr("Not run: this scenario could make up to %1 HTTP attempts (%2), more than the %3 the "
                       "window keeps in memory. Lower those settings, or use the command line "
                       "(retrylab run --max-attempts N).")
                        .arg(work::formatCount(estimate.attempts), estimate.drivers, work::formatCount(m_maxAttempts));
        Q_EMIT runRefused(m_refusal);
        return;
    }
    m_refusal.clear();
    if (estimate.attempts < m_syncLimit) {
        Q_EMIT runStarted(false);
        setBusy(false);
        // Small: each view derives its part when it is shown, as for a result from elsewhere.
        Outcome outcome{simulate(m_scenario), {}};
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
    watcher->setFuture(QtConcurrent::run([scenario, cancelFlag] {
        RunOptions options;
        options.cancel = cancelFlag.get();
        Outcome outcome{simulate(scenario, options), {}};
        // What the views derive from every event (records table, chart points, overview rows,
        // interesting operations) is computed here, not on the GUI thread: for 40,000 orders
        // (565k events) it took the GUI thread about 100 ms.
        if (!outcome.result.cancelled && !cancelFlag->load())
            outcome.views = PreparedViews::prepare(outcome.result);
        return outcome;
    }));
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
    Outcome outcome{result, {}};
    outcome.views.interesting = interestingOperations(result);
    publish(std::move(outcome));
}

void RunController::setPreparedResult(const RunResult &result, PreparedViews prepared)
{
    cancel();
    publish(Outcome{result, std::move(prepared)});
}

void RunController::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

} // namespace retrylab
