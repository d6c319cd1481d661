#pragma once

#include "document/preparedviews.h"
#include "scenario.h"
#include "simulator.h"
#include "story.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

namespace retrylab {

// Owns the scenario being edited and keeps a fresh RunResult for it: one run per
// burst of edits, on the GUI thread when small, in the background when large.
class RunController : public QObject
{
    Q_OBJECT
public:
    // Runs estimated below this many HTTP attempts are cheap enough to do inline.
    static constexpr qint64 defaultSyncLimit = 20000;

    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    const Scenario &scenario() const { return m_scenario; }
    const RunResult &result() const { return m_result; }
    // interestingOperations(result()), computed with the run (in the background for big runs).
    const QList<InterestingOp> &interesting() const { return m_prepared.interesting; }
    // What the views derive from result(): ready (prepared.ready) when the run went to the
    // background, where it was computed next to the run; else the views compute their part.
    const PreparedViews &prepared() const { return m_prepared; }
    bool hasResult() const { return m_hasResult; }
    bool isBusy() const { return m_busy; }
    // True from an edit until its result is out (or dropped).
    bool isPending() const { return m_busy || m_coalesce.isActive(); }

    // Upper bound of attempts a run may make (work::estimate): decides inline vs background,
    // and refuses a run past maxAttempts().
    static qint64 estimatedAttempts(const Scenario &scenario);
    qint64 syncLimit() const { return m_syncLimit; }
    void setSyncLimit(qint64 attempts) { m_syncLimit = attempts; }
    // The window's work budget (time): the traced budget of the command line.
    qint64 maxAttempts() const { return m_maxAttempts; }
    void setMaxAttempts(qint64 attempts) { m_maxAttempts = attempts; }
    // The trace events a run may keep (memory, windowbudget::MaxEvents): a scenario expected past
    // them is refused (at once, or after its pilot off the GUI thread); a run passing them stops.
    qint64 maxEvents() const { return m_maxEvents; }
    void setMaxEvents(qint64 events) { m_maxEvents = events; }
    // Why the current scenario was not run (empty when it was).
    QString refusal() const { return m_refusal; }

public Q_SLOTS:
    // Stores the scenario and schedules a run; several calls in one event-loop turn run once.
    void setScenario(const retrylab::Scenario &scenario);
    // Runs the current scenario again (same seed, so the same result).
    void rerun();
    // Drops the run in flight, if any.
    void cancel();
    // Publishes a result computed elsewhere (a benchmark, later a live run or a loaded trace) as
    // if this controller had run it: its interesting operations are computed here, on this thread;
    // each view derives its own part when it is shown (prepared() is not ready).
    void setResult(const retrylab::RunResult &result);
    // The same with PreparedViews::prepare(result) computed elsewhere (off the GUI thread).
    void setPreparedResult(const retrylab::RunResult &result, retrylab::PreparedViews prepared);

Q_SIGNALS:
    void runStarted(bool background);
    // The scenario asks for more work than maxAttempts(): nothing ran, the last result stays.
    void runRefused(const QString &message);
    void resultReady(const retrylab::RunResult &result);
    void busyChanged(bool busy);

private:
    void startRun();
    // A run's result with what the views derive from it off the GUI thread.
    struct Outcome
    {
        RunResult result;
        PreparedViews views;
        QString refusal; // not run, or stopped at maxEvents(): why
    };
    void finishBackground(quint64 generation, QFutureWatcher<Outcome> *watcher);
    void setBusy(bool busy);
    void publish(Outcome outcome);
    void refuse(const QString &message);

    Scenario m_scenario;
    RunResult m_result;
    PreparedViews m_prepared;
    bool m_hasResult = false;
    bool m_busy = false;
    qint64 m_syncLimit = defaultSyncLimit;
    qint64 m_maxAttempts;
    qint64 m_maxEvents;
    QString m_refusal;
    QTimer m_coalesce;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace retrylab
