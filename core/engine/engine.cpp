#include "engine/engine.h"

#include "engine/livelink.h"
#include "engine/simulatednetwork.h"
#include "engine/tracetext.h"
#include "work.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab::engine {

namespace {

double percentile(std::vector<qint64> &v, double p)
{
    if (v.empty())
        return 0;
    const size_t idx = std::min(v.size() - 1, size_t(std::ceil(p * double(v.size()))) - (p > 0 ? 1 : 0));
    std::nth_element(v.begin(), v.begin() + long(idx), v.end());
    return double(v[idx]) / kMs;
}

} // namespace

Engine::Engine(const Scenario &s, const RunOptions &o, WireTransport *transport)
    : m_s(s)
    , m_c(m_s.client)
    , m_opt(o)
    , m_tracing(o.trace || o.sink)
    , m_tables(o.trace)
{
    m_businessMax = m_c.business.enabled ? m_c.business.effectiveMaxAttempts() : 1;
    m_wrapperMax = m_c.wrapper.enabled ? m_c.wrapper.effectiveMaxAttempts() : 1;
    m_clients.resize(size_t(std::max(1, s.workload.clients)));
    for (ClientState &c : m_clients) {
        c.budget = RetryBudget(m_c.retryBudget);
        c.breaker = CircuitBreaker(m_c.circuitBreaker);
    }
    m_script = faults::Script(s.network.script);
    if (transport)
        m_link = std::make_unique<LiveLink>(*this, transport);
    else
        m_link = std::make_unique<SimulatedNetwork>(*this);
    m_recycle = m_link->recyclesRequests();
    m_occ = s.server.model == ServerModel::Occ && !transport;
    // Asked on every attempt: only a simulated server that restarts is ever down.
    m_mayBeDown = !transport && (!s.server.restartsAtS.isEmpty() || m_script.restarts());
    m_closed = s.workload.mode == WorkloadMode::Closed;
    m_tokenMode = s.server.idempotency.mode == IdempotencyMode::Token;
    m_post = QStringLiteral("POST");
    m_get = QStringLiteral("GET");
    m_instantLimit = maxEventsAtOneInstant(s);
    m_timeoutText = QStringLiteral("no response within %1 ms").arg(m_c.timeoutMs);
}

Engine::~Engine() = default;

// ------------------------------------------------------------------ tracing

QString Engine::path(const Flow &f, int b, int w, int t) const
{
    return attemptPath(f.op, f.sub, qMax(1, b), qMax(1, w), qMax(1, t));
}

QString Engine::requestId(const Flow &f, int b, int w, int t) const
{
    if (m_c.requestId)
        return QLatin1String("req-") + hex(RngStream(m_s.seed, RngStream::Identity, {quint64(f.op), quint64(f.sub)}).next(), 8);
    return QLatin1String("req-") + hex(RngStream(m_s.seed, RngStream::Identity,
                                                  {quint64(f.op), quint64(f.sub), quint64(b), quint64(w), quint64(t)}).next(), 8);
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
    return (m_tokenMode ? QStringLiteral("tok-") : QStringLiteral("key-")) + hex(key, 10);
}

void Engine::setKeyText(quint64 key, const QString &text)
{
    m_keyTexts.insert(key, text);
    m_cachedKey = 0; // 0 always stands for the empty text
    m_cachedKeyText.clear();
}

int Engine::trace(Lane lane, EventKind kind, const Flow &f, int b, int w, int t, quint64 key, int status, int record,
                  const QString &detail, const TraceTyped &typed)
{
    TraceEvent e;
    e.t = m_now;
    e.lane = lane;
    e.kind = kind;
    e.op = f.op;
    e.sub = f.sub;
    // Most events of an attempt share its path and ID: format them once.
    const quint64 attemptKey = (quint64(quint32(f.op)) << 32) ^ (quint64(f.sub) << 28) ^ (quint64(b) << 20)
        ^ (quint64(w) << 10) ^ quint64(t);
    if (attemptKey != f.cachedAttempt) {
        f.cachedAttempt = attemptKey;
        f.cachedPath = path(f, b, w, t);
        f.cachedRequestId = requestId(f, b, w, t);
    }
    if (key != m_cachedKey) {
        m_cachedKey = key;
        m_cachedKeyText = keyText(key);
    }
    e.path = f.cachedPath;
    e.requestId = f.cachedRequestId;
    e.key = m_cachedKeyText;
    e.status = status;
    e.record = record;
    e.detail = detail;
    e.business = qint16(qMax(1, b));
    e.wrapper = qint16(qMax(1, w));
    e.transport = qint16(qMax(1, t));
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
    const Flow &f = m_flows[size_t(r.flow)];
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

int Engine::newRequest()
{
    if (!m_free.empty()) {
        const int ri = m_free.back();
        m_free.pop_back();
        m_requests[size_t(ri)] = Request();
        return ri;
    }
    m_requests.emplace_back();
    return int(m_requests.size()) - 1;
}

void Engine::prepare()
{
    const WorkloadConfig &w = m_s.workload;
    const int clients = std::max(1, w.clients);
    // Arrivals stay out of the heap (it then holds only what is in flight); at equal
    // times they come before anything scheduled later, as if scheduled first.
    std::vector<std::pair<qint64, int>> &arrivals = m_arrivals;
    // One operation (and its double submit, drawn per operation); returns its first flow.
    const auto addOp = [&](int op, int client, qint64 start, bool scheduled) {
        Flow f;
        f.op = op;
        f.client = client;
        if (m_occ && m_s.server.occRows > 1) {
            RngStream rng(m_s.seed, RngStream::Workload, {quint64(op), 23});
            f.row = std::min(m_s.server.occRows - 1, int(rng.uniform() * m_s.server.occRows));
        }
        m_flows.push_back(f);
        const int first = int(m_flows.size()) - 1;
        if (scheduled)
            arrivals.emplace_back(start, first);
        if (w.doubleSubmitRate > 0) {
            RngStream rng(m_s.seed, RngStream::Workload, {quint64(op)});
            if (rng.uniform() < w.doubleSubmitRate) {
                Flow again = f;
                again.sub = 2;
                m_flows.push_back(again);
                m_flows[size_t(first)].pairFlow = int(m_flows.size()) - 1;
                if (scheduled)
                    arrivals.emplace_back(start + qint64(w.doubleSubmitDelayMs) * kMs, int(m_flows.size()) - 1);
            }
        }
        return first;
    };
    if (m_closed) {
        // Each client's operations one after another: only its first is scheduled now, the next
        // one when the previous ends (finish()).
        const int perClient = std::max(1, w.opsPerClient);
        m_flows.reserve(size_t(clients) * size_t(perClient) * (w.doubleSubmitRate > 0 ? 2 : 1));
        for (int c = 0; c < clients; ++c) {
            const qint64 start = w.startTogether ? 0 : qint64(c) * w.interArrivalMs * kMs / clients;
            int previous = -1;
            for (int k = 0; k < perClient; ++k) {
                const int fi = addOp(c * perClient + k + 1, c, start, k == 0);
                if (previous >= 0)
                    m_flows[size_t(previous)].nextFlow = fi;
                previous = fi;
            }
        }
        m_ops = clients * perClient;
    } else {
        // Start times: evenly spaced or a Poisson process, at one rate or phase by phase.
        std::vector<qint64> starts;
        RngStream rng(m_s.seed, RngStream::Workload, {0x5eed});
        const auto gap = [&](double meanUs) {
            return w.arrivals == Arrivals::Poisson ? -std::log(1.0 - rng.uniform()) * meanUs : meanUs;
        };
        if (w.phases.isEmpty()) {
            starts.reserve(size_t(w.orders));
            double t = 0;
            const double meanUs = double(w.interArrivalMs) * kMs / clients;
            for (int i = 0; i < w.orders; ++i) {
                // Fixed spacing keeps the integer arithmetic it always had.
                starts.push_back(w.arrivals == Arrivals::Fixed ? qint64(i) * w.interArrivalMs * kMs / clients
                                                               : qint64(std::llround(t)));
                if (w.arrivals == Arrivals::Poisson)
                    t += gap(meanUs);
            }
        } else {
            QList<LoadPhase> phases = w.phases;
            std::stable_sort(phases.begin(), phases.end(),
                             [](const LoadPhase &a, const LoadPhase &b) { return a.fromS < b.fromS; });
            // The phases define the arrivals (workload.orders counts only without them), up to
            // WorkloadConfig::operations(), a bound no Poisson count reaches in practice. A
            // Poisson process has no arrival at the phase's start: its first comes after an
            // exponential gap, as every later one (fixed spacing starts at fromS).
            const size_t bound = size_t(w.operations());
            for (const LoadPhase &ph : phases) {
                if (ph.ratePerS <= 0)
                    continue;
                const double meanUs = double(kS) / ph.ratePerS;
                const double end = ph.toS * kS;
                double t = ph.fromS * kS + (w.arrivals == Arrivals::Poisson ? gap(meanUs) : 0.0);
                for (; t < end && starts.size() < bound; t += gap(meanUs))
                    starts.push_back(qint64(std::llround(t)));
            }
        }
        m_flows.reserve(starts.size() * (w.doubleSubmitRate > 0 ? 2 : 1));
        arrivals.reserve(m_flows.capacity());
        for (size_t i = 0; i < starts.size(); ++i)
            addOp(int(i) + 1, int(i % size_t(clients)), starts[i], true);
        m_ops = int(starts.size());
    }
    std::stable_sort(arrivals.begin(), arrivals.end(),
                     [](const std::pair<qint64, int> &a, const std::pair<qint64, int> &b) { return a.first < b.first; });
    m_flowsOpen = int(m_flows.size());
    m_link->start();
}

bool Engine::popDue(qint64 until, Event *out)
{
    const bool fromTimeouts = !m_timeouts.empty() && (m_queue.empty() || Later()(m_queue.top(), m_timeouts.front()));
    const Event *next = fromTimeouts ? &m_timeouts.front() : (m_queue.empty() ? nullptr : &m_queue.top());
    if (m_nextArrival < m_arrivals.size() && (!next || m_arrivals[m_nextArrival].first <= next->t)) {
        if (m_arrivals[m_nextArrival].first > until)
            return false;
        *out = Event{m_arrivals[m_nextArrival].first, 0, Ev::OpStart, 0, m_arrivals[m_nextArrival].second, 0};
        ++m_nextArrival;
        return true;
    }
    if (!next || next->t > until)
        return false;
    *out = *next;
    if (fromTimeouts)
        m_timeouts.pop_front();
    else
        m_queue.pop();
    return true;
}

qint64 Engine::nextDue() const
{
    qint64 t = -1;
    if (!m_queue.empty())
        t = m_queue.top().t;
    if (!m_timeouts.empty() && (t < 0 || m_timeouts.front().t < t))
        t = m_timeouts.front().t;
    if (m_nextArrival < m_arrivals.size() && (t < 0 || m_arrivals[m_nextArrival].first < t))
        t = m_arrivals[m_nextArrival].first;
    return t;
}

bool Engine::advance(qint64 until)
{
    if (m_cancelled || !m_stopError.isEmpty())
        return false;
    Event e;
    while (popDue(until, &e)) {
        // The clock must move: a zero wait retried without end, or a periodic job of interval 0,
        // would otherwise spin here for ever.
        if (e.t != m_now)
            m_eventsNow = 0;
        if (++m_eventsNow > m_instantLimit) {
            m_stopError = QStringLiteral("the run was stopped at %1 s of virtual time: more than %2 events happened "
                                         "at that one instant, more than the whole run could need, so a retry or a "
                                         "periodic job is looping without waiting")
                              .arg(double(e.t) / kS, 0, 'f', 3)
                              .arg(work::formatCount(m_instantLimit));
            return false;
        }
        m_now = e.t;
        ++m_processed;
        if (m_opt.cancel && (m_processed & 0xFFF) == 0 && m_opt.cancel->load(std::memory_order_relaxed)) {
            m_cancelled = true;
            return false;
        }
        dispatch(e);
    }
    return true;
}

void Engine::dispatch(const Event &e)
{
    switch (e.type) {
    case Ev::OpStart:
        onOpStart(e.a, e.phase);
        break;
    case Ev::BusinessStart:
        onBusinessStart(e.a, e.phase);
        break;
    case Ev::WrapperStart:
        onWrapperStart(e.a, e.phase);
        break;
    case Ev::TransportSend:
        onTransportSend(e.a);
        break;
    case Ev::QuerySend:
        sendQueryAttempt(e.a);
        break;
    case Ev::TokenReady:
        m_link->tokenReady(e.a);
        resume(e.a, Ev(e.serial));
        break;
    case Ev::TokenFailed: {
        Flow &f = m_flows[size_t(e.a)];
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
    default: // the way to the server and the server's own events
        m_link->dispatch(e);
        break;
    }
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
    OpTotals totals(m_ops);
    countRecords(totals, server);
    countOps(totals);
    result.metrics = m_m;
    result.events = qint64(m_processed);
    result.trace = std::move(m_trace);
    if (!m_tables)
        return result; // metrics-only and streamed runs (sweeps, benchmarks, the CLI) skip the tables
    fillTables(result, totals, server);
    return result;
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
    const int ops = m_ops;
    for (const Flow &f : m_flows) {
        const size_t o = size_t(f.op);
        t.ok[o] = t.ok[o] || f.succeeded;
        t.end[o] = std::max(t.end[o], f.end);
        if (t.start[o] < 0 || f.start < t.start[o])
            t.start[o] = f.start;
        t.attempts[o] += f.postAttempts;
        t.submissions[o]++;
        m_m.maxAttemptsPerOp = std::max(m_m.maxAttemptsPerOp, f.postAttempts);
    }
    int distinct = 0, distinctLive = 0, live = 0;
    std::vector<qint64> latencies, attemptsPerOp;
    latencies.reserve(size_t(ops));
    attemptsPerOp.reserve(size_t(ops));
    qint64 firstStart = -1;
    for (int o = 1; o <= ops; ++o) {
        distinct += t.records[size_t(o)] > 0;
        distinctLive += t.liveRecords[size_t(o)] > 0;
        live += t.liveRecords[size_t(o)];
        if (t.ok[size_t(o)]) {
            m_m.clientSucceeded++;
            if (t.records[size_t(o)] == 0)
                m_m.lost++;
        } else {
            m_m.clientFailed++;
            if (t.records[size_t(o)] > 0)
                m_m.orphans++;
        }
        latencies.push_back(t.end[size_t(o)] - std::max<qint64>(0, t.start[size_t(o)]));
        attemptsPerOp.push_back(qint64(t.attempts[size_t(o)]) * kMs); // percentile() reads milliseconds
        if (t.start[size_t(o)] >= 0 && (firstStart < 0 || t.start[size_t(o)] < firstStart))
            firstStart = t.start[size_t(o)];
    }
    m_m.logicalOperations = ops;
    m_m.records = t.recordCount;
    m_m.duplicates = m_m.records - distinct;
    m_m.duplicatesOutstanding = live - distinctLive;
    m_m.amplification = ops > 0 ? double(m_m.httpAttempts) / ops : 0;
    m_m.worstCaseAttemptsPerOp = m_s.worstCaseAttemptsPerOp();
    m_m.latencyP50Ms = percentile(latencies, 0.50);
    m_m.latencyP95Ms = percentile(latencies, 0.95);
    m_m.latencyP99Ms = percentile(latencies, 0.99);
    m_m.attemptsPerOpP50 = percentile(attemptsPerOp, 0.50);
    m_m.attemptsPerOpP99 = percentile(attemptsPerOp, 0.99);
    if (m_occ)
        m_m.writeAttempts = m_m.httpAttempts;
    // The run ends when the last operation does, not at the last pending timer or ghost.
    qint64 lastEnd = 0;
    for (const Flow &f : m_flows)
        lastEnd = std::max(lastEnd, f.done ? f.end : m_now);
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
        row.ref = ascii("ORD-%04d", r.op);
        row.key = keyText(r.key);
        const int origin = m_link->recordOrigin(r.id, &row.path);
        if (origin >= 0) {
            const Flow &f = m_flows[size_t(origin)];
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
        s.ref = ascii("ORD-%04d", o);
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
