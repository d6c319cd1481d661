#include "engine/engine.h"

#include "engine/livelink.h"
#include "engine/simulatednetwork.h"
#include "engine/tracetext.h"
#include "work.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace retrylab::engine {

Engine::Engine(const Scenario &s, const RunOptions &o, WireTransport *transport)
    : m_s(s)
    , m_c(m_s.client)
    , m_opt(o)
    , m_tracing(o.trace || o.sink)
    , m_tables(o.trace)
    , m_netRoot(RngStream::root(s.seed, RngStream::Network))
    , m_serverRoot(RngStream::root(s.seed, RngStream::Server))
    , m_backoffRoot(RngStream::root(s.seed, RngStream::Backoff))
{
    m_businessMax = m_c.business.enabled ? m_c.business.effectiveMaxAttempts() : 1;
    m_wrapperMax = m_c.wrapper.enabled ? m_c.wrapper.effectiveMaxAttempts() : 1;
    // Per client only when a budget or a breaker needs it: each holds a deque (two allocations),
    // a hundred clients' worth per run of the AWS figure for nothing.
    const bool perClient = m_c.retryBudget.enabled || m_c.circuitBreaker.enabled;
    m_clients.resize(perClient ? size_t(std::max(1, s.workload.clients)) : 1);
    for (ClientState &c : m_clients) {
        c.budget = RetryBudget(m_c.retryBudget);
        c.breaker = CircuitBreaker(m_c.circuitBreaker);
    }
    m_script = faults::Script(s.network.script);
    // Without tables (records, operations) each operation's state is freed when it ends and its
    // metrics are counted then: memory follows what is in flight, not the number of orders. The
    // live path keeps its flows (a real server may still answer any of them).
    m_stream = !m_tables && !transport;
    if (transport) {
        m_link = std::make_unique<LiveLink>(*this, transport);
    } else {
        auto simulated = std::make_unique<SimulatedNetwork>(*this);
        m_sim = simulated.get();
        m_link = std::move(simulated);
    }
    m_recycle = m_link->recyclesRequests();
    m_stream = m_stream && m_recycle;
    m_occ = s.server.model == ServerModel::Occ && !transport;
    // Asked on every attempt: only a simulated server that restarts is ever down.
    m_mayBeDown = !transport && (!s.server.restartsAtS.isEmpty() || m_script.restarts());
    m_netDice = faults::postNetworkDiceMayHit(s);
    m_closed = s.workload.mode == WorkloadMode::Closed;
    m_tokenMode = s.server.idempotency.mode == IdempotencyMode::Token;
    m_postAllowed = policy::methodAllowed(m_c.transport, QStringLiteral("POST"));
    m_getAllowed = policy::methodAllowed(m_c.transport, QStringLiteral("GET"));
    m_instantLimit = maxEventsAtOneInstant(s);
}

Engine::~Engine() = default;

// ------------------------------------------------------------------ tracing

QString Engine::path(const Flow &f, int b, int w, int t) const
{
    return attemptPath(f.op, f.sub, qMax(1, b), qMax(1, w), qMax(1, t));
}

quint32 Engine::requestNumber(const Flow &f, int b, int w, int t) const
{
    if (m_c.requestId)
        return quint32(RngStream(m_s.seed, RngStream::Identity, {quint64(f.op), quint64(f.sub)}).next());
    return quint32(RngStream(m_s.seed, RngStream::Identity, {quint64(f.op), quint64(f.sub), quint64(b), quint64(w), quint64(t)}).next());
}

QString Engine::requestId(const Flow &f, int b, int w, int t) const
{
    return hex(QLatin1StringView("req-"), requestNumber(f, b, w, t), 8);
}

QString Engine::keyText(quint64 key) const
{
    if (key == 0)
        return QString();
    if (!m_keyTexts.isEmpty()) {
        const auto it = m_keyTexts.constFind(key);
        if (it != m_keyTexts.constEnd())
            return it.value(); // a live server-issued token
    }
    return hex(m_tokenMode ? QLatin1StringView("tok-") : QLatin1StringView("key-"), key, 10);
}

void Engine::setKeyText(quint64 key, const QString &text)
{
    m_keyTexts.insert(key, text);
}

int Engine::trace(Lane lane, EventKind kind, const Flow &f, int b, int w, int t, quint64 key, int status, int record,
                  const QString &detail, const TraceTyped &typed)
{
    TraceEvent e;
    e.t = m_now;
    e.lane = lane;
    e.kind = kind;
    e.op = f.op;
    e.sub = qint16(f.sub);
    // The path, request ID and key are numbers, worded at the edge (TraceEvent::path() ...).
    // Most events of an attempt share its request ID: draw it once. A layer's start (b2/w0/t0
    // before its first send) has the ID of attempt 1 of the layers below, and with request IDs on
    // (one per submission) the same ID too.
    const int nb = qMax(1, b), nw = qMax(1, w), nt = qMax(1, t);
    const bool raw = !m_c.requestId; // an ID per attempt, drawn from the attempt numbers as given
    const quint64 attemptKey = (quint64(quint32(f.op)) << 32) ^ (quint64(f.sub) << 28)
        ^ (quint64(raw ? b : nb) << 20) ^ (quint64(raw ? w : nw) << 10) ^ quint64(raw ? t : nt);
    if (attemptKey != f.cachedAttempt) {
        f.cachedAttempt = attemptKey;
        f.cachedRequestNumber = requestNumber(f, b, w, t);
    }
    e.requestNumber = f.cachedRequestNumber;
    e.keyNumber = key;
    e.composed = ComposedPath | ComposedRequestId | ComposedKey | (m_tokenMode ? ComposedToken : 0);
    if (key != 0 && !m_keyTexts.isEmpty()) {
        const auto it = m_keyTexts.constFind(key);
        if (it != m_keyTexts.constEnd())
            e.setKey(it.value()); // a live server-issued token
    }
    e.status = status;
    e.record = record;
    if (detail.isNull())
        e.detailSource = DetailSource::Typed; // TraceEvent::detail() words it from the typed fields
    else
        e.setDetail(detail);
    e.business = qint16(nb);
    e.wrapper = qint16(nw);
    e.transport = qint16(nt);
    typed.applyTo(e);
    return put(std::move(e));
}

int Engine::put(TraceEvent &&e)
{
    e.id = ++m_lastEventId;
    if (m_opt.sink)
        m_opt.sink(e);
    else
        m_trace.append(std::move(e));
    return m_lastEventId;
}

int Engine::traceReq(Lane lane, EventKind kind, const Request &r, int status, int record, const QString &detail,
                     TraceTyped typed)
{
    const Flow &f = flow(r.flow);
    typed.method = r.query ? TraceMethod::GetOrder : TraceMethod::PostOrder;
    if (typed.answers == 0)
        typed.answers = r.arrivedId != 0 ? r.arrivedId : r.sentId;
    return trace(lane, kind, f, r.b, r.w, r.t, r.order.key, status, record, detail, typed);
}

TraceOutcome Engine::outcomeOf(const AttemptOutcome &o)
{
    switch (o.kind) {
    case OutcomeKind::Response:
        return o.raised ? TraceOutcome::Raised : (o.replayed ? TraceOutcome::Replayed : TraceOutcome::Response);
    case OutcomeKind::ConnectError:
        return TraceOutcome::ConnectError;
    case OutcomeKind::ReadTimeout:
        return TraceOutcome::ReadTimeout;
    case OutcomeKind::ConnectionReset:
        return TraceOutcome::ConnectionReset;
    case OutcomeKind::CircuitOpen:
        return TraceOutcome::CircuitOpen;
    }
    return TraceOutcome::None;
}

static_assert(std::is_trivially_destructible_v<Request>, "newRequest() makes a request over the old one");

int Engine::newRequest()
{
    if (!m_free.empty()) {
        const int ri = m_free.back();
        m_free.pop_back();
        ::new (static_cast<void *>(&m_requests[size_t(ri)])) Request; // in place, not through a copy
        return ri;
    }
    m_requests.emplace_back();
    return int(m_requests.size()) - 1;
}

void Engine::prepare()
{
    // Operations are made as the run reaches them and forgotten once they end (streamed runs):
    // the workload is drawn one operation ahead (ArrivalSource), never held as a whole.
    m_source = std::make_unique<ArrivalSource>(m_s);
    const WorkloadConfig &w = m_s.workload;
    m_ops = m_closed ? std::max(1, w.clients) * std::max(1, w.opsPerClient) : 0;
    if (m_closed) {
        // Each client's first operation now, in client order; its next ones when the previous
        // ends (finish()).
        ArrivalSource::Arrival a;
        while (m_source->next(&a))
            createOp(a.op, a.client, a.t, true);
    } else {
        takeArrival(); // the first operation
    }
    m_link->start();
}

int Engine::allocFlow(int op, int sub, int client, int opState, int row)
{
    int fi;
    if (!m_freeFlows.empty()) {
        fi = m_freeFlows.back();
        m_freeFlows.pop_back();
    } else {
        if (size_t(m_flowSlots) >> FlowChunkBits >= m_flowChunks.size())
            m_flowChunks.emplace_back(new Flow[FlowChunkMask + 1]);
        fi = m_flowSlots++;
    }
    // Made in its slot: a flow built aside and copied in cost a tenth of a short operation.
    Flow &slot = flow(fi);
    slot = Flow();
    slot.op = op;
    slot.sub = sub;
    slot.client = client;
    slot.opState = opState;
    slot.row = row;
    slot.self = fi;
    slot.netPrefix = m_netRoot.extended(quint64(op)).extended(quint64(sub)).state();
    slot.serverPrefix = m_serverRoot.extended(quint64(op)).extended(quint64(sub)).state();
    m_flowsOpen++;
    return fi;
}

int Engine::createOp(int op, int client, qint64 start, bool arrival)
{
    const WorkloadConfig &w = m_s.workload;
    int os;
    if (!m_freeOps.empty()) {
        os = m_freeOps.back();
        m_freeOps.pop_back();
        m_opStates[size_t(os)] = OpState();
    } else {
        os = int(m_opStates.size());
        m_opStates.emplace_back();
    }
    int row = 0;
    if (m_occ && m_s.server.occRows > 1) {
        RngStream rng(m_s.seed, RngStream::Workload, {quint64(op), 23});
        row = std::min(m_s.server.occRows - 1, int(rng.uniform() * m_s.server.occRows));
    }
    bool twice = false;
    if (w.doubleSubmitRate > 0) {
        RngStream rng(m_s.seed, RngStream::Workload, {quint64(op)});
        twice = rng.uniform() < w.doubleSubmitRate;
    }
    const int first = allocFlow(op, 1, client, os, row);
    m_opStates[size_t(os)].flows = 1;
    ++m_opsCreated;
    if (arrival)
        pushArrival(start, op, 1, first);
    if (twice) {
        const int second = allocFlow(op, 2, client, os, row);
        flow(first).pairFlow = second;
        m_opStates[size_t(os)].flows = 2;
        if (arrival)
            pushArrival(start + qint64(w.doubleSubmitDelayMs) * kMs, op, 2, second);
    }
    return first;
}

namespace {

// The arrival heap's order: time, then operation, then submission (a stable sort of them all).
struct ArrivesLater
{
    template<class A>
    bool operator()(const A &x, const A &y) const
    {
        if (x.t != y.t)
            return x.t > y.t;
        return x.op != y.op ? x.op > y.op : x.sub > y.sub;
    }
};

} // namespace

void Engine::pushArrival(qint64 t, int op, int sub, int fi)
{
    if (m_stream)
        flow(fi).pending++; // its OpStart
    m_arrivals.push_back(Arrival{t, op, sub, fi});
    std::push_heap(m_arrivals.begin(), m_arrivals.end(), ArrivesLater());
    arrivalsChanged();
}

void Engine::takeArrival()
{
    // Taking an open workload's first submission draws the next operation, so the heap always
    // holds it before anything that must come after it.
    bool drawNext = m_arrivals.empty();
    if (!m_arrivals.empty()) {
        std::pop_heap(m_arrivals.begin(), m_arrivals.end(), ArrivesLater());
        drawNext = m_arrivals.back().sub == 1 && !m_closed;
        m_arrivals.pop_back();
        arrivalsChanged();
    }
    ArrivalSource::Arrival a;
    if (drawNext && !m_closed && m_source->next(&a))
        createOp(a.op, a.client, a.t, true);
}

bool Engine::popDueSlow(qint64 until, Event *out)
{
    for (;;) {
        const bool fromTimeouts = !m_timeouts.empty() && (m_queue.empty() || Later()(m_queue.top(), m_timeouts.front()));
        const Event *next = fromTimeouts ? &m_timeouts.front() : (m_queue.empty() ? nullptr : &m_queue.top());
        if (!m_arrivals.empty() && (!next || m_arrivals.front().t <= next->t)) {
            // At equal times an arrival comes before anything scheduled, as if scheduled first.
            if (m_arrivals.front().t > until)
                return false;
            *out = Event{m_arrivals.front().t, 0, Ev::OpStart, 0, m_arrivals.front().flow, 0};
            takeArrival();
            return true;
        }
        if (!next || next->t > until)
            return false;
        if (!fromTimeouts) {
            *out = *next;
            m_queue.popLater();
            return true;
        }
        *out = *next;
        popTimeout();
        if (out->type() != Ev::Cancelled)
            return true;
        // A read timeout its answer made stale names nothing: it leaves the FIFO in its turn (the
        // clock moves to it, as before) without being handled or counted as an event.
        if (out->t != m_now) {
            m_now = out->t;
            m_eventsNow = 0;
        }
    }
}

qint64 Engine::nextDue() const
{
    qint64 t = -1;
    if (!m_queue.empty())
        t = m_queue.top().t;
    if (!m_timeouts.empty() && (t < 0 || m_timeouts.front().t < t))
        t = m_timeouts.front().t;
    if (!m_arrivals.empty() && (t < 0 || m_arrivals.front().t < t))
        t = m_arrivals.front().t;
    return t;
}

bool Engine::advance(qint64 until)
{
    if (m_cancelled || !m_stopError.isEmpty())
        return false;
    Event e;
    while (popDue(until, &e)) {
        if (!countEvent(e.t) && !countEventChecked(e.t))
            return false;
        dispatch(e);
        if (m_stream)
            afterEvent(e);
    }
    return true;
}

bool Engine::countEventChecked(qint64 t)
{
    if (t != m_now)
        m_eventsNow = 0;
    // The clock must move: a zero wait retried without end, or a periodic job of interval 0,
    // would otherwise spin here for ever.
    if (++m_eventsNow > m_instantLimit) {
        m_stopError = QStringLiteral("the run was stopped at %1 s of virtual time: more than %2 events happened "
                                     "at that one instant, more than the whole run could need, so a retry or a "
                                     "periodic job is looping without waiting")
                          .arg(double(t) / kS, 0, 'f', 3)
                          .arg(work::formatCount(m_instantLimit));
        return false;
    }
    m_now = t;
    ++m_processed;
    if (m_opt.cancel && (m_processed & CancelCheckMask) == 0 && m_opt.cancel->load(std::memory_order_relaxed)) {
        m_cancelled = true;
        return false;
    }
    return true;
}

void Engine::releaseChecked()
{
    for (const int fi : m_releaseCheck)
        maybeRelease(fi);
    m_releaseCheck.clear();
}

void Engine::maybeRelease(int fi)
{
    const Flow &f = flow(fi);
    if (f.done && f.pending == 0 && f.requests == 0 && f.self >= 0)
        release(fi);
}

void Engine::release(int fi)
{
    Flow &f = flow(fi);
    const int os = f.opState;
    OpState &op = m_opStates[size_t(os)];
    op.ok = op.ok || f.succeeded;
    op.end = std::max(op.end, f.end);
    if (op.start < 0 || f.start < op.start)
        op.start = f.start;
    op.attempts += f.postAttempts;
    m_m.maxAttemptsPerOp = std::max(m_m.maxAttemptsPerOp, f.postAttempts);
    m_tally.lastEnd = std::max(m_tally.lastEnd, f.done ? f.end : m_now);
    f.self = -1; // free (allocFlow overwrites the rest)
    m_freeFlows.push_back(fi);
    if (--op.flows == 0) {
        // Nothing of it can commit any more: its records are all counted.
        countOp(op.ok, op.records, op.records, op.start, op.end, op.attempts);
        m_freeOps.push_back(os);
    }
}

void Engine::dispatch(const Event &e)
{
    switch (e.type()) {
    case Ev::OpStart:
        onOpStart(e.a, e.phase());
        break;
    case Ev::BusinessStart:
        onBusinessStart(flow(e.a), e.phase());
        break;
    case Ev::WrapperStart:
        onWrapperStart(flow(e.a), e.phase());
        break;
    case Ev::TransportSend:
        onTransportSend(flow(e.a));
        break;
    case Ev::QuerySend:
        sendQueryAttempt(e.a);
        break;
    case Ev::TokenReady:
        m_link->tokenReady(e.a);
        resume(e.a, Ev(e.serial));
        break;
    case Ev::TokenFailed: {
        Flow &f = flow(e.a);
        if (!f.done)
            finish(f, false, m_tokenErrors.value(e.a), {TraceCause::TokenFailed});
        break;
    }
    case Ev::ResponseArrive:
        onResponseArrive(e.a, false);
        break;
    case Ev::ResetArrive:
        onResponseArrive(e.a, true);
        break;
    case Ev::ConnectFail:
        onConnectFail(e.a, e.serial);
        break;
    case Ev::ClientTimeout:
        onTimeout(e.a, e.serial);
        break;
    case Ev::Cancelled:
        break;
    default: // the way to the server and the server's own events
        if (m_sim)
            m_sim->dispatch(e);
        else
            m_link->dispatch(e);
        break;
    }
}

void Engine::runNow(Ev type, int fi)
{
    m_runningNow = true;
    dispatch(Event{m_now, 0, type, 0, fi, 0});
    m_runningNow = false;
}

RunResult Engine::run()
{
    prepare();
    advance(std::numeric_limits<qint64>::max());
    return finishRun(nullptr);
}

// Per logical operation (index = op, [0] unused), over its submissions: what the metrics and the
// tables of a finished run are made of.
struct Engine::OpTotals
{
    explicit OpTotals(int ops)
        : records(size_t(ops) + 1, 0)
        , liveRecords(size_t(ops) + 1, 0)
        , ok(size_t(ops) + 1, 0)
        , end(size_t(ops) + 1, 0)
        , start(size_t(ops) + 1, -1)
        , attempts(size_t(ops) + 1, 0)
        , submissions(size_t(ops) + 1, 0)
    {
    }
    std::vector<int> records, liveRecords; // committed, and not voided
    std::vector<char> ok;
    std::vector<qint64> end, start;
    std::vector<int> attempts, submissions;
    int recordCount = 0;
};

RunResult Engine::finishRun(const ServerCounts *server)
{
    RunResult result;
    result.scenario = m_s;
    result.cancelled = m_cancelled;
    result.error = m_stopError;
    m_ops = totalOps();
    if (m_stream) {
        countStreamed();
        result.metrics = m_m;
        result.events = qint64(m_processed);
        result.trace = std::move(m_trace);
        return result;
    }
    OpTotals totals(m_ops);
    countRecords(totals, server);
    countOps(totals);
    result.metrics = m_m;
    result.events = qint64(m_processed);
    result.trace = std::move(m_trace);
    if (!m_tables)
        return result; // metrics-only live runs skip the tables
    fillTables(result, totals, server);
    return result;
}

int Engine::totalOps()
{
    if (m_closed)
        return m_ops;
    // An open workload's operations not reached (a run stopped early) still count: drawn, not made.
    ArrivalSource::Arrival a;
    while (m_source->next(&a)) {
    }
    return m_source->count();
}

void Engine::countStreamed()
{
    m_link->addCounts(m_m);
    // What is still alive (a run stopped early, or flows named by events never reached) ends now.
    for (int fi = 0; fi < m_flowSlots; ++fi) {
        if (flow(fi).self >= 0)
            release(fi);
    }
    // Operations never reached (a stopped run): failed, without attempts, as if started at 0.
    if (m_opsCreated < m_ops) {
        m_tally.lastEnd = std::max(m_tally.lastEnd, m_now);
        for (int o = m_opsCreated; o < m_ops; ++o)
            countOp(false, 0, 0, 0, 0, 0);
    }
    // Reconciliation keeps each reference's first live record, so it voids only duplicates:
    // references with a live record are those with a record.
    m_tally.live -= m_m.voided;
    finishMetrics(int(m_recordsCommitted));
}

void Engine::countRecords(OpTotals &t, const ServerCounts *server)
{
    const std::vector<StoredRecord> &records = m_link->records();
    const int ops = m_ops;
    t.recordCount = int(records.size());
    if (server) {
        // The real server counted them; a reference it holds beyond the run's orders is not ours.
        t.recordCount = 0;
        for (int o = 1; o <= ops && size_t(o) < server->recordsPerOp.size(); ++o) {
            t.records[size_t(o)] = t.liveRecords[size_t(o)] = server->recordsPerOp[size_t(o)];
            t.recordCount += server->recordsPerOp[size_t(o)];
        }
        applyServerCounts(m_m, server->counters);
    } else {
        m_link->addCounts(m_m);
    }
    for (const StoredRecord &r : records) {
        t.records[size_t(r.op)]++;
        if (!r.voided)
            t.liveRecords[size_t(r.op)]++;
    }
}

void Engine::countOps(OpTotals &t)
{
    for (int fi = 0; fi < m_flowSlots; ++fi) {
        const Flow &f = flow(fi);
        const size_t o = size_t(f.op);
        t.ok[o] = t.ok[o] || f.succeeded;
        t.end[o] = std::max(t.end[o], f.end);
        if (t.start[o] < 0 || f.start < t.start[o])
            t.start[o] = f.start;
        t.attempts[o] += f.postAttempts;
        t.submissions[o]++;
        m_m.maxAttemptsPerOp = std::max(m_m.maxAttemptsPerOp, f.postAttempts);
        m_tally.lastEnd = std::max(m_tally.lastEnd, f.done ? f.end : m_now);
    }
    if (m_opsCreated < m_ops)
        m_tally.lastEnd = std::max(m_tally.lastEnd, m_now); // operations never reached
    for (int o = 1; o <= m_ops; ++o) {
        if (t.submissions[size_t(o)] == 0) {
            t.start[size_t(o)] = 0; // never reached: as if started at 0, as an unstarted flow
            t.submissions[size_t(o)] = 1;
        }
        countOp(t.ok[size_t(o)], t.records[size_t(o)], t.liveRecords[size_t(o)], t.start[size_t(o)],
                t.end[size_t(o)], t.attempts[size_t(o)]);
    }
    finishMetrics(t.recordCount);
}

void Engine::countOp(bool ok, int records, int liveRecords, qint64 start, qint64 end, int attempts)
{
    m_tally.distinct += records > 0;
    m_tally.distinctLive += liveRecords > 0;
    m_tally.live += liveRecords;
    if (ok) {
        m_m.clientSucceeded++;
        if (records == 0)
            m_m.lost++;
    } else {
        m_m.clientFailed++;
        if (records > 0)
            m_m.orphans++;
    }
    m_tally.latency.add(end - std::max<qint64>(0, start));
    m_tally.attempts.add(attempts);
    if (start >= 0 && (m_tally.firstStart < 0 || start < m_tally.firstStart))
        m_tally.firstStart = start;
}

void Engine::finishMetrics(int recordCount)
{
    const int ops = m_ops;
    m_m.logicalOperations = ops;
    m_m.records = recordCount;
    m_m.duplicates = m_m.records - m_tally.distinct;
    m_m.duplicatesOutstanding = m_tally.live - m_tally.distinctLive;
    m_m.amplification = ops > 0 ? double(m_m.httpAttempts) / ops : 0;
    m_m.worstCaseAttemptsPerOp = m_s.worstCaseAttemptsPerOp();
    m_m.latencyP50Ms = m_tally.latency.percentile(0.50) / kMs;
    m_m.latencyP95Ms = m_tally.latency.percentile(0.95) / kMs;
    m_m.latencyP99Ms = m_tally.latency.percentile(0.99) / kMs;
    m_m.attemptsPerOpP50 = m_tally.attempts.percentile(0.50);
    m_m.attemptsPerOpP99 = m_tally.attempts.percentile(0.99);
    if (m_occ)
        m_m.writeAttempts = m_m.httpAttempts;
    // The run ends when the last operation does, not at the last pending timer or ghost.
    const qint64 lastEnd = m_tally.lastEnd;
    const qint64 firstStart = m_tally.firstStart;
    m_m.durationS = double(lastEnd) / kS;
    m_m.completionS = double(lastEnd - std::max<qint64>(0, std::min(firstStart, lastEnd))) / kS;
    m_m.goodputPerS = lastEnd > 0 ? m_m.clientSucceeded / m_m.durationS : 0;
}

void Engine::fillTables(RunResult &result, const OpTotals &t, const ServerCounts *server)
{
    const std::vector<StoredRecord> &records = m_link->records();
    if (server)
        result.records = server->records;
    result.records.reserve(int(records.size()));
    for (const StoredRecord &r : records) {
        RecordRow row;
        row.id = r.id;
        row.op = r.op;
        row.ref = orderText(r.op);
        row.key = keyText(r.key);
        const int origin = m_link->recordOrigin(r.id, &row.path);
        if (origin >= 0) {
            const Flow &f = flow(origin);
            row.requestId = requestId(f, f.b, f.w, f.t);
        }
        row.t = r.t;
        row.duplicate = m_link->firstRecord(r.op) != r.id;
        row.flagged = r.flagged;
        row.voided = r.voided;
        row.voidedAt = r.voidedAt;
        result.records.append(std::move(row));
    }
    result.ops.reserve(m_ops);
    for (int o = 1; o <= m_ops; ++o) {
        OpSummary s;
        s.op = o;
        s.ref = orderText(o);
        s.submissions = t.submissions[size_t(o)];
        s.attempts = t.attempts[size_t(o)];
        s.records = t.records[size_t(o)];
        s.succeeded = t.ok[size_t(o)];
        s.start = std::max<qint64>(0, t.start[size_t(o)]);
        s.end = t.end[size_t(o)];
        result.ops.append(s);
    }
}

} // namespace retrylab::engine
