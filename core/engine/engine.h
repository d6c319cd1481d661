#pragma once

#include "engine/arrivalsource.h"
#include "engine/eventqueue.h"
#include "engine/flow.h"
#include "engine/serverlink.h"
#include "engine/steppedrun.h"
#include "faults.h"
#include "latencyhistogram.h"
#include "rng.h"
#include "simulator.h"

#include <QHash>

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

namespace retrylab::engine {

class SimulatedNetwork;

// The engine: the event loop on the virtual clock and the client layers (business loop, @retry
// wrapper, urllib3 transport, budgets, breakers, status queries, closed workloads). What an
// attempt meets after it leaves the client is its ServerLink's: the simulated network and
// server, or a real order service (the live path). Same scenario + seed = the same trace.
// engine.cpp holds the loop, the workload, the trace and the results; clientlayers.cpp the layers.
class Engine
{
public:
    // transport: the live path's wire (a LiveLink is made for it); null: the simulated server.
    Engine(const Scenario &s, const RunOptions &o, WireTransport *transport = nullptr);
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    RunResult run();

    // --- the steppable loop (simulate() runs it to the end; the live path step by step) ---
    void prepare();
    // Processes the events due at or before `until`; false once the run stopped (cancelled, or
    // the guard against a stopped clock: stopError()).
    bool advance(qint64 until);
    qint64 nextDue() const;
    RunResult finishRun(const ServerCounts *server); // server: the live counts, else null
    qint64 now() const { return m_now; }
    bool clientDone() const { return m_flowsOpen == 0 && m_arrivals.empty(); }
    const QString &stopError() const { return m_stopError; }
    ServerLink &link() { return *m_link; }

    // --- what the network and server models use ------------------------------------------
    void at(qint64 t, Ev type, int a, quint32 serial = 0, quint8 phase = 0)
    {
        if (m_stream && namesFlow(type))
            flow(a).pending++;
        m_queue.push(Event{t, m_seq++, type, phase, a, serial});
    }
    // An event due now that the caller would schedule as its handler's last act: true when the
    // loop would take it next (nothing else is due at this instant, the instant's limit and the
    // cancel check are not at stake), counted as the loop counts it (countEvent), and the caller
    // then runs it at once; false: schedule it. The same handlers in the same order, one heap
    // entry fewer.
    bool runsNow()
    {
        if (m_queue.nextTime() <= m_now || m_otherDue <= m_now || !countEvent(m_now))
            return false;
        ++m_seq; // the number it would have had: later events keep theirs
        return true;
    }
    // A client layer's retry due now (a wait of 0), scheduled as the handler's last act: on the
    // simulated path run at once when runsNow() says the loop would take it next (the same
    // handlers in the same order, one heap entry fewer), else scheduled. Not from inside such a
    // run: a retry that fails at once (an open breaker) would otherwise recurse until the
    // instant's limit.
    void atLast(qint64 t, Ev type, Flow &f)
    {
        if (t == m_now && m_sim && !m_runningNow && runsNow()) {
            runNow(type, f.self);
            return;
        }
        atFlow(t, type, f);
    }
    // at() for an event that names the flow f (a client layer's), without looking it up again.
    void atFlow(qint64 t, Ev type, Flow &f, quint32 serial = 0)
    {
        if (m_stream)
            f.pending++;
        m_queue.push(Event{t, m_seq++, type, 0, f.self, serial});
    }
    const Scenario &scenario() const { return m_s; }
    const faults::Script &script() const { return m_script; }
    bool tracing() const { return m_tracing; }
    bool tables() const { return m_tables; }
    Metrics &metrics() { return m_m; }
    // Flows live in fixed chunks: a reference stays valid while later flows are made.
    Flow &flow(int fi) { return m_flowChunks[size_t(fi) >> FlowChunkBits][size_t(fi) & FlowChunkMask]; }
    const Flow &flow(int fi) const { return m_flowChunks[size_t(fi) >> FlowChunkBits][size_t(fi) & FlowChunkMask]; }
    Request &request(int ri) { return m_requests[size_t(ri)]; }
    int flowCount() const { return m_flowSlots; }
    size_t requestCount() const { return m_requests.size(); }
    void freeRequest(int ri)
    {
        // A live request keeps its slot: a late answer or an abandon may still name it.
        if (m_recycle)
            m_free.push_back(ri);
        if (m_stream) {
            const int fi = m_requests[size_t(ri)].flow;
            Flow &f = flow(fi);
            f.requests--;
            // Released after the event, never under a handler's feet; a flow not done yet is
            // checked when it ends (finish()), so only a done one needs the look.
            if (f.done)
                m_releaseCheck.push_back(fi);
        }
    }
    // The simulated server committed a record of the flow's operation.
    void committed(int fi)
    {
        if (m_stream) {
            m_opStates[size_t(flow(fi).opState)].records++;
            m_recordsCommitted++;
        }
    }
    // Operation state is freed as operations end (no trace tables kept, simulated server).
    bool streaming() const { return m_stream; }
    // Anything still scheduled (a reconciliation pass keeps going while something may commit).
    bool busy() const { return m_flowsOpen > 0 || !m_arrivals.empty() || !m_queue.empty() || !m_timeouts.empty(); }
    void setKeyText(quint64 key, const QString &text);
    void setTokenError(int fi, const QString &why) { m_tokenErrors.insert(fi, why); }
    // Resumes the layer that waited for its order token (phase 1: the token is there).
    void resume(int fi, Ev layer);
    // An answer (or a reset) reached the client.
    void onResponseArrive(int ri, bool reset);
    // A POST attempt leaves the client (after its row read, with server.model occ).
    void sendWrite(Flow &f);

    // The attempt's own stream (faults::attemptStream) from the flow's prefix of (op, sub).
    static RngStream attemptStream(quint64 prefix, int b, int w, int t)
    {
        return RngStream::resumed(prefix).extended(quint64(b)).extended(quint64(w)).extended(quint64(t));
    }

    // The flow's backoff stream keyed by (op, sub): the same as RngStream(seed, Backoff, {op,
    // sub, ...}) once extended by the rest of the ids, for two mixes fewer per draw.
    RngStream backoffStream(Flow &f) const
    {
        if (!f.backoffReady) {
            f.backoffPrefix = m_backoffRoot.extended(quint64(f.op)).extended(quint64(f.sub)).state();
            f.backoffReady = true;
        }
        return RngStream::resumed(f.backoffPrefix);
    }

    // --- tracing ----------------------------------------------------------
    QString path(const Flow &f, int b, int w, int t) const;
    QString requestId(const Flow &f, int b, int w, int t) const;
    quint32 requestNumber(const Flow &f, int b, int w, int t) const; // the number of its text
    QString keyText(quint64 key) const;
    // Each returns the event's id (trace.h): its index in the run's trace + 1.
    int trace(Lane lane, EventKind kind, const Flow &f, int b, int w, int t, quint64 key, int status = 0,
              int record = 0, const QString &detail = QString(), const TraceTyped &typed = TraceTyped());
    int put(TraceEvent &&e);
    int traceFlow(Lane lane, EventKind kind, const Flow &f, int status = 0, int record = 0,
                  const QString &detail = QString(), const TraceTyped &typed = TraceTyped())
    {
        return trace(lane, kind, f, f.b, f.w, f.t, f.key, status, record, detail, typed);
    }
    // A request's event: its method, and by default the link to its arrival (or, before it, its send).
    int traceReq(Lane lane, EventKind kind, const Request &r, int status = 0, int record = 0,
                 const QString &detail = QString(), TraceTyped typed = TraceTyped());
    static TraceOutcome outcomeOf(const AttemptOutcome &o);
    static TraceMethod flowMethod(const Flow &f) { return f.querying ? TraceMethod::GetOrder : TraceMethod::PostOrder; }

private:
    // The next event due at or before `until` into *out, taken from its queue.
    bool popDue(qint64 until, Event *out)
    {
        // Most events come from the heap, strictly before the first timeout and arrival (a tie
        // needs their order: popDueSlow).
        const Event *top = m_queue.peek();
        if (top && top->t < m_otherDue && top->t <= until) {
            *out = *top;
            m_queue.popLater();
            return true;
        }
        return popDueSlow(until, out);
    }
    bool popDueSlow(qint64 until, Event *out);
    // The loop's accounting of one event due at t, for the loop and runsNow() alike: the clock,
    // the events at this instant, the events of the run. False, and nothing counted, when the
    // instant's limit or the cancel check is at stake: the loop then asks countEventChecked().
    bool countEvent(qint64 t)
    {
        const qint64 atInstant = t == m_now ? m_eventsNow + 1 : 1;
        if (atInstant > m_instantLimit || ((m_processed + 1) & CancelCheckMask) == 0)
            return false;
        m_eventsNow = atInstant;
        m_now = t;
        ++m_processed;
        return true;
    }
    // countEvent's rare case: false when the run stops here (stopError(), or cancelled).
    bool countEventChecked(qint64 t);
    void popTimeout()
    {
        m_timeouts.pop();
        m_timeoutDue = m_timeouts.empty() ? Never : m_timeouts.front().t;
        m_otherDue = std::min(m_timeoutDue, m_arrivalDue);
    }
    void arrivalsChanged()
    {
        m_arrivalDue = m_arrivals.empty() ? Never : m_arrivals.front().t;
        m_otherDue = std::min(m_timeoutDue, m_arrivalDue);
    }
    void dispatch(const Event &e);
    void runNow(Ev type, int fi);
    int newRequest();
    // Every read timeout has the same length, so they fall due in the order they are
    // set: a FIFO keeps the many stale ones out of the heap.
    void timeoutAt(qint64 t, Flow &f, quint32 serial)
    {
        const int fi = f.self;
        cancelTimeout(f);
        if (m_stream)
            f.pending++;
        if (m_timeouts.empty()) {
            m_timeoutDue = t;
            m_otherDue = std::min(m_timeoutDue, m_arrivalDue);
        }
        f.timeoutSlot = qint64(m_timeouts.push(Event{t, m_seq++, Ev::ClientTimeout, 0, fi, serial}));
    }
    // The flow's attempt ended before its read timeout: the timeout stays in the FIFO, in its
    // turn (the same events, counts and order), but no longer names the flow. A stale timeout
    // used to reach the flow seconds later, when it had left the cache: a tenth of a big run.
    void cancelTimeout(Flow &f)
    {
        if (f.timeoutSlot < 0)
            return;
        Event &e = m_timeouts.at(quint64(f.timeoutSlot));
        e.setType(Ev::Cancelled);
        f.timeoutSlot = -1;
        // A flow is cancelled while it waits, or as it ends (finish() asks for its release).
        if (m_stream)
            f.pending--;
    }
    // Events whose `a` is a flow (the others name a request, or nothing).
    static bool namesFlow(Ev type)
    {
        switch (type) {
        case Ev::RequestArrive:
        case Ev::ProcessingDone:
        case Ev::ResponseArrive:
        case Ev::ResetArrive:
        case Ev::Reconcile:
        case Ev::ServerRestart:
        case Ev::Cancelled:
            return false;
        default:
            return true;
        }
    }
    // --- the workload and the operations' state ---------------------------------------------
    // An operation and its double submit (drawn per operation); returns its first flow. With
    // `arrival`, both are queued as arrivals at `start` (and start + the double submit delay).
    int createOp(int op, int client, qint64 start, bool arrival);
    int allocFlow(int op, int sub, int client, int opState, int row);
    void pushArrival(qint64 t, int op, int sub, int fi);
    void takeArrival();
    // Frees the flow's slot once it finished and nothing names it; its operation is counted and
    // freed with its last flow.
    void maybeRelease(int fi);
    void release(int fi);
    // A streamed run's bookkeeping after each event: flows nothing names any more are released.
    void afterEvent(const Event &e)
    {
        if (namesFlow(e.type())) {
            const Flow &f = flow(e.a);
            if (--flow(e.a).pending == 0 && f.done)
                maybeRelease(e.a);
        }
        if (!m_releaseCheck.empty())
            releaseChecked();
    }
    void releaseChecked();
    // One operation's outcome into the metrics (both the streamed and the tables path).
    void countOp(bool ok, int records, int liveRecords, qint64 start, qint64 end, int attempts);
    void finishMetrics(int recordCount);
    int totalOps();
    // --- client -----------------------------------------------------------
    bool mintKey(Flow &f, int phase, Ev resume, const char *where, TraceCause cause);
    void onOpStart(int fi, int phase);
    // The client layers take the flow itself, not its index: one lookup per event, not one per layer.
    void onBusinessStart(Flow &f, int phase);
    void onWrapperStart(Flow &f, int phase);
    void onTransportSend(Flow &f);
    void sendQuery(Flow &f, int fi);
    void sendQueryAttempt(int fi);
    void queryFailed(Flow &f, const AttemptOutcome &o);
    void onConnectFail(int fi, quint32 serial);
    void onTimeout(int fi, quint32 serial);
    void deliver(Flow &f, const AttemptOutcome &o);
    // The shape the business loop and the @retry wrapper share: wait and go again, or give up.
    struct LayerRetry
    {
        Lane lane;
        const LayerConfig &config;
        int max;
        int attempt;
        bool retryable;
        qint64 *prevWait;
        qint64 since;     // start of the layer's deadline
        qint64 minWaitUs; // e.g. a Retry-After the layer honours
        double u;         // the jitter draw
        Ev resume;
    };
    bool retryLayer(Flow &f, const AttemptOutcome &o, const LayerRetry &layer);
    void afterWrapper(Flow &f, const AttemptOutcome &o);
    void afterBusiness(Flow &f, const AttemptOutcome &o);
    // `typed`: the cause (Final with the outcome, or why else), arg the last status.
    void finish(Flow &f, bool ok, const QString &why, const TraceTyped &typed);
    bool spendBudget(Flow &f, Lane lane);
    // The transport's verdict on a failed attempt (POST or status query), carried out: schedules
    // `resume` after the wait and returns true, or traces why it gives up and returns false.
    bool transportRetries(Flow &f, const AttemptOutcome &o, const TransportVerdict &v, Ev resume,
                          const QString &what);
    quint32 faultsFor(const Flow &f);
    // The breaker's answer to an outcome or a call, and its change of state on the trace.
    void traceBreaker(const Flow &f, const BreakerChange &change);
    ClientState &budgetOf(const Flow &f)
    {
        return m_clients[m_c.retryBudget.scope == BudgetScope::Global ? 0 : size_t(f.client)];
    }

    // --- results ----------------------------------------------------------
    struct OpTotals;
    void countRecords(OpTotals &t, const ServerCounts *server);
    void countOps(OpTotals &t);
    void countStreamed();
    void fillTables(RunResult &result, const OpTotals &t, const ServerCounts *server);

    Scenario m_s;
    const ClientConfig &m_c;
    RunOptions m_opt;
    bool m_tracing; // events are made (for RunResult::trace or the sink)
    bool m_tables;  // RunResult::records and ::ops are filled
    faults::Script m_script;
    std::unique_ptr<ServerLink> m_link;
    SimulatedNetwork *m_sim = nullptr; // m_link when simulated: its events are dispatched without a virtual call
    bool m_recycle = true; // m_link->recyclesRequests()
    bool m_occ = false;    // server.model occ on the simulated server: read the row, then write
    bool m_mayBeDown = false; // the simulated server restarts (scheduled or scripted): ask m_link->down()
    bool m_runningNow = false; // inside atLast()'s run of an event
    bool m_netDice = true; // faults::postNetworkDiceMayHit, asked once per run
    EventQueue m_queue;
    EventFifo m_timeouts;
    static constexpr qint64 Never = std::numeric_limits<qint64>::max();
    qint64 m_timeoutDue = Never; // m_timeouts.front().t, or Never
    qint64 m_arrivalDue = Never; // m_arrivals.front().t, or Never
    qint64 m_otherDue = Never;   // the earlier of the two
    quint64 m_seq = 0;
    // The run's streams keyed by (seed, stream) alone: a flow's are these extended by (op, sub).
    RngStream m_netRoot;
    RngStream m_serverRoot;
    RngStream m_backoffRoot;
    qint64 m_now = 0;
    static constexpr int FlowChunkBits = 10;
    static constexpr size_t FlowChunkMask = (size_t(1) << FlowChunkBits) - 1;
    std::vector<std::unique_ptr<Flow[]>> m_flowChunks;
    int m_flowSlots = 0;
    std::vector<int> m_freeFlows;
    // Flows that ended, or lost a request once done, during the current event: a flow is released
    // only once done, so these are the only ones whose release the event can allow.
    std::vector<int> m_releaseCheck;
    std::vector<OpState> m_opStates;
    std::vector<int> m_freeOps;
    bool m_stream = false;
    int m_opsCreated = 0;
    qint64 m_recordsCommitted = 0;
    // The operations' outcomes, counted as they end (countOp).
    struct OpTally
    {
        int distinct = 0, distinctLive = 0, live = 0;
        qint64 firstStart = -1;
        qint64 lastEnd = 0;
        LatencyHistogram latency;  // microseconds
        LatencyHistogram attempts; // POST attempts per operation
    };
    OpTally m_tally;
    std::vector<Request> m_requests;
    std::vector<int> m_free;
    std::vector<ClientState> m_clients; // per client with a budget or a breaker, else one
    int m_businessMax = 1;
    int m_wrapperMax = 1;
    bool m_tokenMode = false;
    int m_flowsOpen = 0;
    quint64 m_keyCounter = 0;
    bool m_postAllowed = false; // policy::methodAllowed for the transport, asked once
    bool m_getAllowed = false;
    Trace m_trace;
    int m_lastEventId = 0; // ids of the trace's events (trace.h): the last one given
    Metrics m_m;
    // Submissions due to arrive: a min-heap by (t, op, sub), the order a stable sort of every
    // arrival by time gave. It holds the next operation's first submission and the double
    // submits still to come, never the whole workload.
    struct Arrival
    {
        qint64 t;
        int op;
        int sub;
        int flow;
    };
    std::vector<Arrival> m_arrivals;
    std::unique_ptr<ArrivalSource> m_source;
    int m_ops = 0;        // logical operations of the run
    bool m_closed = false; // workload.mode closed
    // The loop looks at the cancel flag once every 4,096 events (countEventChecked).
    static constexpr quint64 CancelCheckMask = 0xFFF;
    quint64 m_processed = 0;
    qint64 m_instantLimit = 0; // maxEventsAtOneInstant
    qint64 m_eventsNow = 0;    // processed at m_now so far
    bool m_cancelled = false;
    QString m_stopError;
    QHash<quint64, QString> m_keyTexts; // live order tokens, as the server issued them
    QHash<int, QString> m_tokenErrors;  // live: why a flow got no order token
};

} // namespace retrylab::engine
