#pragma once

#include "engine/wiretransport.h"
#include "server/serverpipeline.h"
#include "simulator.h"

#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace retrylab {

// What the server says at the end of a live run: the metrics that only the server can count.
struct ServerCounts
{
    std::vector<int> recordsPerOp; // index = op (1-based; [0] unused)
    ServerCounters counters;       // the run's share of GET /metrics
    QList<RecordRow> records;      // for RunResult::records (may be empty)
};

// The engine's client layers on a clock that someone else drives (the live path): the same
// decisions as simulate(), with requests going to a WireTransport instead of the simulated
// network and server. Times are virtual microseconds; the driver maps them to real time.
class SteppedRun
{
public:
    SteppedRun(const Scenario &scenario, const RunOptions &options, WireTransport *transport);
    ~SteppedRun();
    SteppedRun(const SteppedRun &) = delete;
    SteppedRun &operator=(const SteppedRun &) = delete;

    // Processes every event due at or before t. False once the run stopped early (error()).
    bool advanceTo(qint64 t);
    // When the next event is due; -1 when nothing is scheduled.
    qint64 nextDue() const;
    qint64 now() const;
    // Every logical operation has finished.
    bool clientDone() const;
    QString error() const;

    // Answers of the transport, as events at virtual time t (never before now()).
    void reply(int id, const WireReply &reply, qint64 t);
    void tokenIssued(int id, const QString &token, qint64 t);
    void tokenFailed(int id, const QString &why, qint64 t);

    // The metrics: the client's own counts, records and server counters from the server.
    RunResult result(const ServerCounts &server);

    struct Private;

private:
    std::unique_ptr<Private> d;
};

} // namespace retrylab
