#pragma once

#include "simulator.h"

#include <QString>

#include <memory>
#include <vector>

namespace retrylab {

// One HTTP request that the client side of a run sends to a real order service (the live path;
// the simulated network and server stay inside the engine).
struct WireAttempt
{
    int id = 0;         // the engine's handle: pass it back with the reply
    bool query = false; // GET /orders?ref= (a status query), else POST /orders
    int op = 0;
    int client = 0;    // the scenario's client (workload.clients) that sends it
    QString ref;       // "ORD-0007"
    QString path;      // "op7/b2/w1/t3": X-RetryLab-Attempt, so the server meets the scripted faults
    QString requestId; // X-Request-ID
    QString key;       // Idempotency-Key; empty: none
    // 0: the order as first built; else the rebuilt payload of a retry (mutatePayloadOnRetry),
    // business attempt * 1000 + wrapper attempt, as the simulated fingerprint counts it.
    int payloadRevision = 0;
};

// What came back for a WireAttempt.
struct WireReply
{
    enum Kind { Response, Reset, Refused };
    Kind kind = Response;
    int status = 0;
    int retryAfterS = -1;
    bool replayed = false;  // Idempotent-Replayed: true
    bool tokenUsed = false; // 409 because the single-use order token was already used
    int record = 0;         // the order's id in the answer, 0 when none
};

// Where the live client side sends its requests. Every call is made from inside
// SteppedRun::advanceTo; answers go back through SteppedRun::reply / tokenIssued / tokenFailed,
// never from inside these calls.
class WireTransport
{
public:
    virtual ~WireTransport() = default;
    virtual void send(const WireAttempt &attempt) = 0;
    // The client stopped waiting for this attempt (its read timeout): drop the request.
    virtual void abandon(int id) = 0;
    // POST /order-tokens (server-issued token mode).
    virtual void fetchToken(int id, const QString &requestId) = 0;
};

// What the server says at the end of a live run: the metrics that only the server can count.
struct ServerCounts
{
    std::vector<int> recordsPerOp; // index = op (1-based; [0] unused)
    qint64 replays = 0;
    qint64 conflicts409 = 0;
    qint64 mismatch422 = 0;
    qint64 rejected400 = 0;
    qint64 throttled429 = 0;
    qint64 rejected503 = 0;
    int serverErrors = 0;
    QList<RecordRow> records; // for RunResult::records (may be empty)
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
