#pragma once

#include "orderservice.h"
#include "server/commitdecision.h"
#include "scenario.h"
#include "trace.h"

#include <QString>

#include <deque>
#include <vector>

namespace retrylab {

// One request inside the server, whichever clock and transport brought it there.
struct ServerRequest
{
    OrderRequest order;
    int sub = 1;      // the attempt path the fault dice and processing time are drawn for
    int b = 1, w = 1, t = 1;
    quint32 faults = 0; // faults::Bit: what the script and the dice hold for this attempt
    quint32 epoch = 0;  // the server lifetime it reached; a restart drops the older ones
    bool query = false; // GET /orders?ref= (a status query), else POST /orders
    bool committed = false;
    bool replayed = false;
    bool tokenUsed = false; // 409 because the single-use order token was already used
    int status = 0;
    int retryAfterS = -1;
    int record = 0;
    int row = 0;          // server.model occ: the row the write updates
    qint64 version = -1;  // occ: the row version the write carries
    // Trace links (event ids, trace.h; 0 = none): the client's send (or the delay), the arrival,
    // the answer. A request's server events answer its arrival (before it, its send).
    int sentId = 0;
    int arrivedId = 0;
    int respondedId = 0;
};

// What the server counted: the server-side metrics of a run, and GET /metrics of the live service.
struct ServerCounters
{
    qint64 replays = 0;
    qint64 conflicts409 = 0;
    qint64 mismatch422 = 0;
    qint64 rejected400 = 0;
    qint64 throttled429 = 0;
    qint64 rejected503 = 0;
    qint64 serverErrors = 0;
    qint64 versionConflicts = 0;
};

// Why the pipeline answers: the live server writes a body for each, the simulated one none.
enum class ServerAnswer : quint8 {
    Throttled,          // 429, Retry-After
    Full,               // 503, Retry-After: no processing slot and the queue is full
    Refused,            // the service's 400 / 409 / 422 (the reason says which)
    Replayed,           // a stored response, Idempotent-Replayed: true
    FailedBeforeCommit, // injected 5xx before the commit
    FailedAfterCommit,  // injected 5xx after the commit
    VersionConflict,    // occ: 409, the row changed since the attempt read it
    Created,            // 201
    Query,              // GET /orders?ref=: 200 or 404, or 429 / 5xx from the query's faults
};

// What the pipeline needs from the server around it: the clock and timers, the wire, the store
// and the trace. The engine implements it on its virtual clock, `serve` on real time with QTimers,
// a socket per request and SQLite; the sequence itself is ServerPipeline's.
class ServerHost
{
public:
    using Id = qintptr; // the host's handle of one request

    virtual ServerRequest &request(Id id) = 0;
    // The service clock (key TTLs), in microseconds.
    virtual qint64 serviceNowUs() const = 0;
    // Nothing listens while the server restarts: arrivals are dropped.
    virtual bool down() const = 0;
    virtual bool tracing() const = 0;
    // One trace event of the request (its method and links filled in by the host); returns its id.
    // A null `detail` leaves the words to the typed fields (TraceEvent::detailSource, TraceEvent::detail()).
    virtual int trace(Id id, Lane lane, EventKind kind, int status, int record, const QString &detail,
                      const TraceTyped &typed) = 0;
    // How long this request is processed, in model microseconds.
    virtual qint64 processingUs(Id id) = 0;
    // ServerPipeline::processingDone(id) after `us` model microseconds (at once, or as a later event).
    virtual void schedule(Id id, qint64 us) = 0;
    // The answer leaves the server: over the network (its latency, then the client hears it).
    virtual void deliver(Id id) = 0;
    // The answer is reset on the way (resetAfterCommit): the client sees a broken connection.
    virtual void resetConnection(Id id) = 0;
    // The request ends here without an answer (lost, or dropped by a restart); `processing`: its
    // processing slot was taken and a pending processingDone may still name it.
    virtual void drop(Id id, bool processing) = 0;
    // A restart (server.restartInFlight reset) ends a request the server held: its connection is
    // reset at once. `processing` as for drop().
    virtual void crashReset(Id id, bool processing)
    {
        Q_UNUSED(processing);
        resetConnection(id);
    }
    // A 429 / 503 or the service's decision is about to be answered (the live server writes its
    // body, with `cause` as its problem member).
    virtual void prepareAnswer(Id, ServerAnswer, const QString &reason, TraceCause cause)
    {
        Q_UNUSED(reason);
        Q_UNUSED(cause);
    }
    // Whether a status query's order exists; sets request(id).record where the host knows it.
    virtual bool orderExists(Id id) = 0;
    // The service forgot an expired key: the store forgets it too.
    virtual void keyExpired(Id) {}
    // The service reserved the key (atomic / token): the store may refuse it. Returns why, or empty.
    virtual QString reserveKey(Id, qint64 processingUs)
    {
        Q_UNUSED(processingUs);
        return QString();
    }
    // A failure before commit at `now` (the service clock): the service released the key
    // (OrderService::storedStatus stores nothing), so the store releases its row too.
    virtual void failedBeforeCommit(Id, qint64 now) { Q_UNUSED(now); }
    // Writes the record (and its key, as `decision` says) to the store before the service commits
    // it. Returns empty, or why the store refused (then 409 when `keyTaken`, else 500).
    virtual QString persist(Id, const CommitDecision &decision, qint64 now, bool *keyTaken)
    {
        Q_UNUSED(decision);
        Q_UNUSED(now);
        *keyTaken = false;
        return QString();
    }
    // The service committed the record: the host's bookkeeping (late commits, record tables).
    virtual void committed(Id, int record) = 0;
    // The serverRestart fault struck after a commit: the host restarts the process (it calls
    // ServerPipeline::restart, then stops listening for the down time).
    virtual void restartNow() = 0;
    // The order's reference as the trace names it ("ORD-0007").
    virtual QString orderRef(Id id) = 0;
    // The ProcessingStarted detail and typed fields for a processing time of `us` model microseconds.
    virtual void describeProcessing(qint64 us, QString *detail, TraceTyped *typed) = 0;

protected:
    ~ServerHost() = default;
};

// Where the two servers have always differed; kept as they were, since tests pin both.
struct ServerPipelineOptions
{
    // The live server answers a finished request before it hands the slot on; the simulated
    // one hands it on first (the next request's start comes first in the trace).
    bool answerBeforeRelease = false;
    // The live server fills every free slot from the queue; the simulated one starts one
    // queued request per freed slot.
    bool fillFreeSlots = false;
    // Keep the list of requests processing, for a restart to drop (the simulated server keeps
    // it only when its scenario restarts).
    bool trackProcessing = true;
    // server.model occ: each write carries the version its attempt read (simulated only).
    bool occ = false;
};

// The order service's request handling, once for the simulated and the live server, as ns-3 runs
// one model on its default and its real-time simulator: admission (429, then a processing slot, a
// queue, or 503 when full) -> processing (OrderService's idempotency decisions, occ rows) -> commit
// -> answer, and restarts (every held request dropped, a memory key store forgetting). Time,
// transport and storage are the host's. `Host` is ServerHost (its calls virtual: the live server,
// the tests) or a final class implementing it, whose calls the compiler sees through and inlines
// (the simulated network, core/engine/simulatednetwork.cpp); the code is the same, in
// server/serverpipelineimpl.h.
template <class Host>
class BasicServerPipeline
{
public:
    using Options = ServerPipelineOptions;

    BasicServerPipeline(const Scenario &scenario, OrderService &service, Host &host, const Options &options);

    // A new process state (the live server's reset): another service, counters from zero. The
    // ids of Committed events are kept, as the trace's numbering goes on.
    void setService(OrderService &service);

    // A request reaches the server (POST, or a status query).
    void arrive(ServerHost::Id id);
    // A status query that the host admitted: its faults (429, 5xx), else the lookup.
    void answerQuery(ServerHost::Id id);
    // The processing time scheduled by ServerHost::schedule has passed.
    void processingDone(ServerHost::Id id);
    // The server process restarts: every queued and processing request is dropped; `why` is
    // appended to their trace (empty: nothing).
    void restart(const QString &why = QString());

    // Empties the queue and the processing list without a word (the server stops or is reset):
    // returns what they held, for the host to end.
    std::vector<ServerHost::Id> takeAll();
    // Still processing (not dropped by a restart, not finished).
    bool isProcessing(ServerHost::Id id) const;
    quint32 epoch() const { return m_epoch; }
    int busy() const { return m_busy; }
    int queued() const { return int(m_waiting.size()); }
    const std::deque<ServerHost::Id> &waiting() const { return m_waiting; }
    const std::vector<ServerHost::Id> &processing() const { return m_processing; }
    const ServerCounters &counters() const { return m_counters; }
    // The id of record's Committed event (replays and reconciliation link to it); 0 when unknown.
    int commitId(int record) const
    {
        return record > 0 && size_t(record) <= m_commitIds.size() ? m_commitIds[size_t(record - 1)] : 0;
    }
    // occ: the row's current version (what an attempt reads).
    qint64 rowVersion(int row) const { return m_rowVersion[size_t(row)]; }
    void setRows(int rows) { m_rowVersion.assign(size_t(std::max(1, rows)), 0); }

private:
    void startProcessing(ServerHost::Id id);
    void commit(ServerHost::Id id, qint64 now);
    void finished(ServerHost::Id id, int status, ServerAnswer why, const QString &reason = QString());
    void answer(ServerHost::Id id, int status, int retryAfterS, ServerAnswer why, const QString &reason = QString(),
                TraceCause cause = TraceCause::None);
    void reject(ServerHost::Id id, int status, const QString &reason, const TraceTyped &typed, TraceCause bodyCause);
    int trace(ServerHost::Id id, Lane lane, EventKind kind, int status, int record, const QString &detail,
              const TraceTyped &typed = TraceTyped())
    {
        return m_host.trace(id, lane, kind, status, record, detail, typed);
    }
    void releaseSlot();
    void untrack(ServerHost::Id id);

    const Scenario &m_s;
    OrderService *m_service;
    Host &m_host;
    Options m_options;
    ServerCounters m_counters;
    std::deque<ServerHost::Id> m_waiting;   // requests queued for a processing slot
    std::vector<ServerHost::Id> m_processing; // with trackProcessing
    std::vector<qint64> m_rowVersion;        // occ
    std::vector<int> m_commitIds;            // record - 1 -> the id of its Committed event
    int m_busy = 0;
    quint32 m_epoch = 0;
};

using ServerPipeline = BasicServerPipeline<ServerHost>;
extern template class BasicServerPipeline<ServerHost>;

} // namespace retrylab
