#pragma once

#include "scenario.h"
#include "trace.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace retrylab {

// Design section 5: the metric names are a contract.
// Counters that grow with the attempts are 64-bit: a run allowed by a raised --max-attempts
// may pass 2^31. Records stay int: each one is held in memory, so 2^31 of them cannot fit.
struct Metrics
{
    int logicalOperations = 0;
    qint64 httpAttempts = 0; // POST /orders attempts, connect failures included
    int records = 0;
    int duplicates = 0;
    int duplicatesOutstanding = 0;
    int orphans = 0;
    int lost = 0;
    qint64 replays = 0;
    qint64 conflicts409 = 0;
    qint64 mismatch422 = 0;
    qint64 rejected400 = 0;
    qint64 throttled429 = 0;
    qint64 rejected503 = 0;   // capacity full
    int serverErrors = 0;  // injected 5xx
    int clientSucceeded = 0;
    int clientFailed = 0;
    qint64 timeouts = 0;
    qint64 queries = 0;       // logical status queries (GET /orders?ref=)
    qint64 queryAttempts = 0; // their HTTP attempts, transport retries included
    qint64 budgetRefusals = 0;
    qint64 circuitRejections = 0;
    int voided = 0;
    double amplification = 0;
    int maxAttemptsPerOp = 0; // per submission
    int worstCaseAttemptsPerOp = 0;
    double latencyP50Ms = 0;
    double latencyP95Ms = 0;
    double latencyP99Ms = 0;
    // Simulated time until the last logical operation finished (success or final failure);
    // ghost requests and reconciliation passes after it do not count.
    double durationS = 0;
    double goodputPerS = 0; // succeeded ops / durationS
    double lastCommitS = 0; // when the last record was written, ghosts included (0: none)
    // False when the run cannot see the server's commits (a live run against --url: the server
    // keeps no commit times a client can read); lastCommitS then means nothing and is written as
    // null in JSON and "unknown" for people.
    bool lastCommitKnown = true;
    // Records committed after their client had stopped waiting for that HTTP attempt
    // (timed out, moved on, or finished): the server worked for nobody.
    int lateCommits = 0;
    // server.model occ: row reads, writes (the POST attempts: httpAttempts) and the writes refused
    // with 409 because their version was stale.
    qint64 reads = 0;
    qint64 writeAttempts = 0;
    qint64 versionConflicts = 0;
    // From the first operation's start to the last one's end, in seconds (the AWS study's
    // "completion time"; durationS counts from t = 0).
    double completionS = 0;
    // POST attempts per logical operation (all its submissions), percentiles over the operations.
    double attemptsPerOpP50 = 0;
    double attemptsPerOpP99 = 0;
    bool operator==(const Metrics &o) const;
    QJsonObject toJson() const;
    // Flat name -> value, in a stable order (CSV columns, sweeps, tables).
    QList<QPair<QString, double>> flat() const;
};

// A committed row of the order service.
struct RecordRow
{
    int id = 0;
    int op = 0;
    QString ref; // "ORD-0007"
    QString key;
    QString path;
    QString requestId;
    qint64 t = 0;
    bool duplicate = false; // not the first record of its ref (voided ones stay duplicates)
    bool flagged = false;
    bool voided = false;
    qint64 voidedAt = 0;
};

// Per-op summary for the overview lane and the attempts histogram.
struct OpSummary
{
    int op = 0;
    QString ref;
    int submissions = 1;
    int attempts = 0;   // POST attempts over all submissions
    int records = 0;
    bool succeeded = false;
    qint64 start = 0;
    qint64 end = 0;
};

} // namespace retrylab

Q_DECLARE_TYPEINFO(retrylab::RecordRow, Q_RELOCATABLE_TYPE);
Q_DECLARE_TYPEINFO(retrylab::OpSummary, Q_RELOCATABLE_TYPE);

namespace retrylab {

struct RunResult
{
    Scenario scenario;
    Metrics metrics;
    Trace trace; // empty when tracing was off
    QList<RecordRow> records;
    QList<OpSummary> ops;
    bool cancelled = false;
    qint64 events = 0; // scheduled events the engine handled (a stale read timeout is not one): its work, without a clock
    // Why the engine stopped the run before its end, for people; empty when it ran to the end.
    // The metrics then describe the run up to that point.
    QString error;
};

// Receives each trace event as the engine produces it, in trace order.
using TraceSink = std::function<void(const TraceEvent &)>;

struct RunOptions
{
    bool trace = true; // also fills RunResult::records and ::ops; off = metrics only
    const std::atomic_bool *cancel = nullptr;
    // When set, every event goes to the sink as it happens and RunResult::trace stays empty,
    // so a big run's trace can be written in bounded memory. Independent of `trace`, which
    // then only decides whether the records and ops tables are filled.
    TraceSink sink;
};

// Runs a scenario on a virtual clock. Same scenario + seed = same result, bit for bit.
RunResult simulate(const Scenario &scenario, const RunOptions &options = {});

// The most events a run of this scenario may process at one instant of virtual time before the
// engine stops it with RunResult::error. Zero latencies, zero waits and orders 0 ms apart are
// valid, so one instant may legitimately hold the whole run: the limit is the run's worst case
// (work::estimate, every status query retried by the transport) times the events one request can
// cause, with room to spare. Beyond it, something loops without letting the clock move.
qint64 maxEventsAtOneInstant(const Scenario &scenario);

} // namespace retrylab
