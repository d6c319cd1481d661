#include "engine/engine.h"

#include "engine/livelink.h"
#include "engine/simulatednetwork.h"
#include "engine/tracetext.h"
#include "work.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab::engine {

using namespace faults::shortnames;
using Typed = TraceTyped;

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
        c.tokens = m_c.retryBudget.startTokens();
        if (m_c.circuitBreaker.enabled && m_c.circuitBreaker.mode == BreakerMode::FailureRate)
            c.outcomes.assign(size_t(std::max(1, m_c.circuitBreaker.window)), 0);
    }
    m_script = faults::Script(s.network.script);
    if (transport)
        m_link = std::make_unique<LiveLink>(*this, transport);
    else
        m_link = std::make_unique<SimulatedNetwork>(*this);
    m_recycle = m_link->recyclesRequests();
    m_occ = s.server.model == ServerModel::Occ && !transport;
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

// ------------------------------------------------------------------ client

bool Engine::mintKey(Flow &f, int phase, Ev resume, const char *where, TraceCause cause)
{
    if (phase == 1)
        return true; // token already fetched
    if (m_c.keyPlacement == KeyPlacement::None)
        return true;
    const quint64 key = RngStream::mix(m_s.seed ^ RngStream::mix(++m_keyCounter)) | 1;
    f.key = key;
    if (m_tokenMode) {
        // POST /order-tokens first: the order goes once the token is back (TokenReady).
        m_link->fetchToken(int(&f - m_flows.data()), quint8(resume), where, m_keyCounter, cause);
        return false;
    }
    // The key belongs to the layer that mints it: inside the @retry wrapper for perWrapperAttempt.
    if (m_tracing)
        traceFlow(m_c.keyPlacement == KeyPlacement::PerWrapperAttempt ? Lane::Wrapper : Lane::Business,
                  EventKind::KeyMinted, f, 0, 0, QLatin1String(where), {cause});
    return true;
}

void Engine::onOpStart(int fi, int phase)
{
    Flow &f = m_flows[size_t(fi)];
    if (phase == 0) {
        f.start = m_now;
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::OpStart, f, 0, 0,
                      f.sub == 1 ? ascii("ORD-%04d", f.op)
                                 : ascii("ORD-%04d submitted again", f.op));
        if (m_c.keyPlacement == KeyPlacement::PerOperation) {
            // A double submit reuses the key minted for the form (same operation).
            if (f.sub > 1 && m_flows[size_t(fi - 1)].op == f.op && m_flows[size_t(fi - 1)].key != 0) {
                f.key = m_flows[size_t(fi - 1)].key;
            } else if (!mintKey(f, phase, Ev::OpStart, "per operation", TraceCause::PerOperation)) {
                return;
            }
        }
    }
    onBusinessStart(fi, 0);
}

void Engine::onBusinessStart(int fi, int phase)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.done)
        return;
    if (phase == 0) {
        f.b++;
        f.w = 0;
        f.t = 0;
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::BusinessAttempt, f, 0, 0,
                      m_c.business.maxAttempts == 0
                          ? ascii("business attempt %d (unlimited until the %d ms deadline)", f.b, m_c.business.deadlineMs)
                          : cached(m_businessTexts, f.b, [this](int b) { return ascii("business attempt %d of %d", b, m_businessMax); }),
                      {TraceCause::MaxAttempts, m_c.business.maxAttempts == 0 ? 0 : m_businessMax, m_c.business.deadlineMs});
        if (m_c.keyPlacement == KeyPlacement::PerBusinessAttempt && !mintKey(f, 0, Ev::BusinessStart, "per business attempt", TraceCause::PerBusinessAttempt))
            return;
    }
    if (m_c.queryBeforeRetry && f.b > 1) {
        sendQuery(f, fi);
        return;
    }
    f.wrapperFirstStart = -1;
    f.prevWrapperWait = 0; // a new run of the wrapper's loop: its jitter starts afresh
    onWrapperStart(fi, 0);
}

void Engine::onWrapperStart(int fi, int phase)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.done)
        return;
    if (phase == 0) {
        f.w++;
        f.t = 0;
        f.transportDone = TransportCounts();
        if (f.wrapperFirstStart < 0)
            f.wrapperFirstStart = m_now;
        // The decorated method builds the request: payload (and a key minted here) are new each time.
        f.fingerprint = RngStream::mix(quint64(f.op) * 0x100000001B3ull
                                       ^ (m_c.mutatePayloadOnRetry ? quint64(f.b * 1000 + f.w) : 0ull));
        if (m_tracing && m_c.wrapper.enabled)
            traceFlow(Lane::Wrapper, EventKind::WrapperAttempt, f, 0, 0,
                      m_c.wrapper.maxAttempts == 0
                          ? ascii("wrapper attempt %d (unlimited until the %d ms deadline)", f.w, m_c.wrapper.deadlineMs)
                          : cached(m_wrapperTexts, f.w, [this](int w) { return ascii("wrapper attempt %d of %d", w, m_wrapperMax); }),
                      {TraceCause::MaxAttempts, m_c.wrapper.maxAttempts == 0 ? 0 : m_wrapperMax, m_c.wrapper.deadlineMs});
        if (m_c.keyPlacement == KeyPlacement::PerWrapperAttempt && !mintKey(f, 0, Ev::WrapperStart, "per wrapper attempt", TraceCause::PerWrapperAttempt))
            return;
    }
    onTransportSend(fi);
}

quint32 Engine::faultsFor(const Flow &f)
{
    const faults::Attempt attempt{f.op, f.sub, f.b, f.w, f.t, false};
    return (m_script.empty() ? 0u : m_script.match(attempt)) | faults::postNetworkDice(m_s, attempt, m_now);
}

void Engine::onTransportSend(int fi)
{
    Flow &f = m_flows[size_t(fi)];
    f.t++;
    f.serial++;
    f.waiting = true;
    f.querying = false;
    if (m_tracing)
        f.sentId = traceFlow(Lane::Transport, EventKind::TransportAttempt, f, 0, 0,
                             cached(m_attemptTexts, f.t, [](int t) { return ascii("POST /orders, attempt %d", t); }),
                             {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostOrder});

    ClientState &cs = m_clients[size_t(f.client)];
    const bool firstTry = f.b <= 1 && f.w <= 1 && f.t == 1;
    if (m_c.circuitBreaker.enabled && cs.openUntil >= 0 && m_now < cs.openUntil
        && !(m_c.circuitBreaker.retriesOnly && firstTry)) {
        m_m.circuitRejections++;
        if (m_tracing)
            traceFlow(Lane::Transport, EventKind::CircuitOpen, f, 0, 0, QStringLiteral("circuit breaker open"),
                      {TraceCause::BreakerOpen, 0, 0, 0, f.sentId, TraceOutcome::None, CommitPhase::None, TraceMethod::PostOrder});
        f.waiting = false;
        AttemptOutcome o;
        o.kind = OutcomeKind::CircuitOpen;
        deliver(fi, o);
        return;
    }
    if (m_link->readRow(fi))
        return; // server.model occ: the write goes once the row's version is back
    sendWrite(fi);
}

void Engine::sendWrite(int fi)
{
    Flow &f = m_flows[size_t(fi)];
    m_m.httpAttempts++;
    f.postAttempts++;
    quint32 faults = faultsFor(f);
    if (m_link->down())
        faults |= FConnect; // nothing listens while the server restarts
    const quint32 serial = f.serial;
    if (faults & FConnect) {
        at(m_now + qint64(m_c.connectFailMs) * kMs, Ev::ConnectFail, fi, serial);
        return;
    }
    timeoutAt(m_now + qint64(m_c.timeoutMs) * kMs, fi, serial);
    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    r.serial = serial;
    r.query = false;
    r.faults = faults;
    r.sub = f.sub;
    r.b = f.b;
    r.w = f.w;
    r.t = f.t;
    r.order.op = f.op;
    r.order.key = f.key;
    r.order.fingerprint = f.fingerprint;
    r.row = f.row;
    r.version = f.readVersion;
    r.sentId = f.sentId;
    m_link->send(ri);
}

void Engine::sendQuery(Flow &f, int fi)
{
    m_m.queries++;
    f.qt = 0;
    if (m_tracing)
        f.sentId = traceFlow(Lane::Business, EventKind::QuerySent, f, 0, 0, ascii("GET /orders?ref=ORD-%04d", f.op),
                             {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::GetOrder});
    sendQueryAttempt(fi);
}

void Engine::sendQueryAttempt(int fi)
{
    // GET /orders?ref= goes through the same session as the POST: every network fault, a restarting
    // server and the script entries with "method": "GET" apply, and the transport retries it (GET
    // is in urllib3's default allowed_methods). Its path is bN/w1/tQ, Q counting its HTTP attempts.
    Flow &f = m_flows[size_t(fi)];
    if (f.done)
        return;
    f.qt++;
    f.serial++;
    f.waiting = true;
    f.querying = true;
    m_m.queryAttempts++;
    if (m_tracing && f.qt > 1)
        f.sentId = traceFlow(Lane::Transport, EventKind::QuerySent, f, 0, 0,
                             ascii("GET /orders?ref=ORD-%04d, attempt %d", f.op, f.qt),
                             {TraceCause::None, f.qt, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::GetOrder});
    const faults::Attempt query{f.op, f.sub, f.b, 1, f.qt, true};
    qint64 delay = 0;
    quint32 faults = faults::queryDice(m_s, query, &delay, m_now);
    if (m_script.addressesQueries())
        faults |= m_script.match(query);
    if (m_link->down())
        faults |= FConnect; // nothing listens while the server restarts
    if (faults & FConnect) {
        at(m_now + qint64(m_c.connectFailMs) * kMs, Ev::ConnectFail, fi, f.serial);
        return;
    }
    timeoutAt(m_now + qint64(m_c.timeoutMs) * kMs, fi, f.serial);
    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    r.serial = f.serial;
    r.query = true;
    r.faults = faults;
    r.delayUs = delay;
    r.sub = f.sub;
    r.b = f.b;
    r.w = qMax(1, f.w);
    r.t = qMax(1, f.t);
    r.order.op = f.op;
    r.sentId = f.sentId;
    m_link->send(ri);
}

void Engine::queryFailed(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    f.querying = false;
    if (m_c.transport.enabled) {
        if (transportRetries(f, fi, o, policy::transport(m_c.transport, m_get, o, f.qt - 1), Ev::QuerySend,
                             QStringLiteral("GET ")))
            return;
    }
    // No answer: the order may or may not exist.
    if (m_c.onUnknownQuery == UnknownQuery::Resend && !f.tokenUsed) {
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::QueryResult, f, 0, 0,
                      QStringLiteral("status unknown (%1): send again").arg(o.describe()),
                      {TraceCause::StatusUnknown, o.status, 0, 0, f.sentId, outcomeOf(o), CommitPhase::None,
                       TraceMethod::GetOrder});
        f.wrapperFirstStart = -1;
        onWrapperStart(fi, 0);
        return;
    }
    // An unanswered status query cannot prove the order is absent: do not resend.
    afterBusiness(fi, o);
}

bool Engine::transportRetries(Flow &f, int fi, const AttemptOutcome &o, const TransportVerdict &v, Ev resume,
                              const QString &what)
{
    if (v.retry && spendBudget(f, Lane::Transport)) {
        if (m_tracing)
            traceFlow(Lane::Transport, EventKind::RetryScheduled, f, o.status, 0,
                      QStringLiteral("%1%2 after %3").arg(what, waitText(v.delayUs), o.describe()),
                      {v.retryAfter ? TraceCause::RetryAfter : TraceCause::Backoff, v.delayUs,
                       v.retryAfter && o.retryAfterS * kS > v.delayUs ? o.retryAfterS : 0, 0, 0, outcomeOf(o),
                       CommitPhase::None, what.isEmpty() ? TraceMethod::PostOrder : TraceMethod::GetOrder});
        at(m_now + v.delayUs, resume, fi);
        return true;
    }
    if (m_tracing && !v.retry)
        traceFlow(Lane::Transport, EventKind::GaveUp, f, o.status, 0, v.reason,
                  {v.why, v.limit, v.counter, 0, 0, outcomeOf(o), CommitPhase::None,
                   what.isEmpty() ? TraceMethod::PostOrder : TraceMethod::GetOrder});
    return false;
}

bool Engine::spendBudget(Flow &f, Lane lane)
{
    if (!m_c.retryBudget.enabled)
        return true;
    ClientState &cs = budgetOf(f);
    if (cs.tokens >= 1.0) {
        cs.tokens -= 1.0;
        return true;
    }
    m_m.budgetRefusals++;
    if (m_tracing)
        traceFlow(lane, EventKind::BudgetExhausted, f, 0, 0,
                  QStringLiteral("retry budget empty (%1 tokens)").arg(cs.tokens, 0, 'f', 2),
                  {TraceCause::BudgetEmpty, qint64(std::llround(cs.tokens * 100))});
    return false;
}

void Engine::deliver(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    ClientState &cs = m_clients[size_t(f.client)];
    if (m_c.circuitBreaker.enabled && policy::breakerRecords(o))
        recordBreaker(cs, policy::breakerFailure(o));
    if (o.ok() && m_c.retryBudget.enabled) {
        ClientState &bucket = budgetOf(f);
        bucket.tokens = std::min(m_c.retryBudget.maxTokens, bucket.tokens + m_c.retryBudget.ratio);
    }

    if (m_c.transport.enabled && !o.ok()) {
        double jitterU = 0;
        if (m_c.transport.backoffJitterS > 0) {
            RngStream rng(m_s.seed, RngStream::Backoff,
                          {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), quint64(f.t), 3});
            jitterU = rng.uniform();
        }
        const TransportVerdict v = policy::transport(m_c.transport, m_post, o, f.transportDone, jitterU);
        if (transportRetries(f, fi, o, v, Ev::TransportSend, QString())) {
            f.transportDone.add(v.cause);
            return;
        }
        if (!v.retry && v.statusExhausted && m_c.transport.raiseOnStatus) {
            // raise_on_status: MaxRetryError reaches the layer above, the response (and its
            // Retry-After) does not.
            AttemptOutcome raised = o;
            raised.raised = true;
            raised.retryAfterS = -1;
            afterWrapper(fi, raised);
            return;
        }
    }
    afterWrapper(fi, o);
}

void Engine::recordBreaker(ClientState &cs, bool failure)
{
    const CircuitBreakerConfig &cb = m_c.circuitBreaker;
    if (cb.mode == BreakerMode::Consecutive) {
        if (failure) {
            if (++cs.consecutiveFailures >= cb.failureThreshold) {
                cs.openUntil = m_now + qint64(cb.openMs) * kMs;
                cs.consecutiveFailures = 0;
            }
        } else {
            cs.consecutiveFailures = 0;
            cs.openUntil = -1;
        }
        return;
    }
    // Failure rate over the last `window` outcomes, once the window is full; opening starts a new window.
    const int size = int(cs.outcomes.size());
    if (cs.filled == size)
        cs.failures -= cs.outcomes[size_t(cs.next)];
    else
        cs.filled++;
    cs.outcomes[size_t(cs.next)] = failure ? 1 : 0;
    cs.failures += failure ? 1 : 0;
    cs.next = (cs.next + 1) % size;
    if (!failure && cs.openUntil >= 0 && m_now >= cs.openUntil)
        cs.openUntil = -1; // a probe succeeded
    if (cs.filled == size && qint64(cs.failures) * 100 >= qint64(cb.failureRatePercent) * size) {
        cs.openUntil = m_now + qint64(cb.openMs) * kMs;
        std::fill(cs.outcomes.begin(), cs.outcomes.end(), 0);
        cs.filled = 0;
        cs.next = 0;
        cs.failures = 0;
    }
}

bool Engine::retryLayer(int fi, const AttemptOutcome &o, const LayerRetry &layer)
{
    Flow &f = m_flows[size_t(fi)];
    if (layer.attempt < layer.max && layer.retryable) {
        const qint64 backoff = policy::backoffUs(layer.config.backoff, layer.attempt, *layer.prevWait, layer.u);
        const qint64 wait = std::max(layer.minWaitUs, backoff);
        // tenacity stop_before_delay: stop when elapsed + the next wait reaches the deadline.
        const bool deadlineOk = layer.config.deadlineMs <= 0
            || m_now + wait - layer.since < qint64(layer.config.deadlineMs) * kMs;
        if (deadlineOk && spendBudget(f, layer.lane)) {
            // Decorrelated jitter grows from its own previous wait; a Retry-After does not feed it.
            *layer.prevWait = backoff;
            if (m_tracing)
                traceFlow(layer.lane, EventKind::RetryScheduled, f, o.status, 0,
                          QStringLiteral("%1 after %2").arg(waitText(wait), o.describe()),
                          {backoff < layer.minWaitUs ? TraceCause::RetryAfter : TraceCause::Backoff, wait, 0, 0, 0,
                           outcomeOf(o)});
            at(m_now + wait, layer.resume, fi);
            return true;
        }
        if (m_tracing && !deadlineOk)
            traceFlow(layer.lane, EventKind::GaveUp, f, o.status, 0, QStringLiteral("deadline reached"),
                      {TraceCause::Deadline, layer.config.deadlineMs, 0, 0, 0, outcomeOf(o)});
    } else if (m_tracing) {
        traceFlow(layer.lane, EventKind::GaveUp, f, o.status, 0,
                  layer.attempt >= layer.max ? QStringLiteral("stop after %1 attempts").arg(layer.max)
                                             : QStringLiteral("%1 is not retried").arg(o.describe()),
                  {layer.attempt >= layer.max ? TraceCause::MaxAttempts : TraceCause::NotRetried, layer.max, 0, 0, 0,
                   outcomeOf(o)});
    }
    return false;
}

void Engine::afterWrapper(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.tokenUsed) {
        // A used single-use token is a final answer for every client layer: resending it can
        // only get 409 again.
        if (m_tracing && m_c.wrapper.enabled)
            traceFlow(Lane::Wrapper, EventKind::GaveUp, f, o.status, 0, QStringLiteral("order token already used: final"),
                      {TraceCause::TokenSpent, 0, 0, 0, 0, outcomeOf(o)});
        afterBusiness(fi, o);
        return;
    }
    if (!o.ok() && m_c.wrapper.enabled) {
        RngStream rng(m_s.seed, RngStream::Backoff, {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), 2});
        const LayerRetry layer{Lane::Wrapper, m_c.wrapper, m_wrapperMax, f.w,
                               policy::wrapperRetries(m_c.wrapperRetryOn, o), &f.prevWrapperWait,
                               f.wrapperFirstStart, 0, rng.uniform(), Ev::WrapperStart};
        if (retryLayer(fi, o, layer))
            return;
    }
    afterBusiness(fi, o);
}

void Engine::afterBusiness(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    if (o.ok()) {
        finish(f, true, o.replayed ? QStringLiteral("replayed %1").arg(o.status) : QString::number(o.status),
               {TraceCause::Final, o.status, 0, 0, 0, outcomeOf(o)});
        return;
    }
    if (f.tokenUsed && o.kind == OutcomeKind::Response && o.status == 409 && !m_c.queryBeforeRetry) {
        // Final: resending the spent token can only get 409 again. The order may exist (its first
        // response was lost); only a client that queries before its next attempt finds out: the
        // business loop then goes on, and its next attempt starts with GET /orders?ref=.
        finish(f, false, QStringLiteral("409: order token already used"),
               {TraceCause::TokenSpent, o.status, 0, 0, 0, outcomeOf(o)});
        return;
    }
    if (m_c.business.enabled) {
        RngStream rng(m_s.seed, RngStream::Backoff, {quint64(f.op), quint64(f.sub), quint64(f.b), 1});
        const qint64 retryAfter = m_c.businessRespectRetryAfter && o.retryAfterS >= 0 ? qint64(o.retryAfterS) * kS : 0;
        const LayerRetry layer{Lane::Business, m_c.business, m_businessMax, f.b, policy::businessRetries(o),
                               &f.prevBusinessWait, f.start, retryAfter, rng.uniform(), Ev::BusinessStart};
        if (retryLayer(fi, o, layer))
            return;
    }
    finish(f, false, o.describe(), {TraceCause::Final, o.status, 0, 0, 0, outcomeOf(o)});
}

void Engine::finish(Flow &f, bool ok, const QString &why, const Typed &typed)
{
    f.done = true;
    f.succeeded = ok;
    f.end = m_now;
    f.waiting = false;
    m_flowsOpen--;
    if (m_closed && f.nextFlow >= 0) {
        // The client thinks, then starts its next operation (and that one's double submit).
        const qint64 next = m_now + qint64(m_s.workload.thinkTimeMs) * kMs;
        const Flow &n = m_flows[size_t(f.nextFlow)];
        at(next, Ev::OpStart, f.nextFlow);
        if (n.pairFlow >= 0)
            at(next + qint64(m_s.workload.doubleSubmitDelayMs) * kMs, Ev::OpStart, n.pairFlow);
    }
    if (m_tracing) {
        traceFlow(Lane::Business, ok ? EventKind::OpSucceeded : EventKind::OpFailed, f, 0, 0, why, typed);
        // A streamed run of a million orders must not keep a million formatted paths: a late
        // response formats its own again.
        f.cachedAttempt = ~0ull;
        f.cachedPath = QString();
        f.cachedRequestId = QString();
    }
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

void Engine::onResponseArrive(int ri, bool reset)
{
    const Request r = m_requests[size_t(ri)];
    freeRequest(ri);
    Flow &f = m_flows[size_t(r.flow)];
    if (!f.waiting || f.serial != r.serial) {
        if (m_tracing)
            traceReq(Lane::Transport, EventKind::LateResponse, r, reset ? 0 : r.status, r.record,
                     QStringLiteral("arrived after the client gave up: ignored"),
                     {reset ? TraceCause::PeerReset : TraceCause::None, 0, 0, 0, r.respondedId});
        return;
    }
    f.waiting = false;
    AttemptOutcome o;
    if (reset) {
        o.kind = OutcomeKind::ConnectionReset;
    } else {
        o.status = r.status;
        o.retryAfterS = r.retryAfterS;
        o.replayed = r.replayed;
    }
    if (r.query) {
        if (reset || (r.status != 200 && r.status != 404)) {
            // A reset, a 5xx or a 429 says nothing about the order: the transport may retry the
            // GET, else the answer stays unknown.
            if (m_tracing)
                traceReq(Lane::Transport, reset ? EventKind::ConnectionReset : EventKind::ResponseReceived, r,
                         reset ? 0 : r.status, 0, describe(o),
                         {reset ? TraceCause::PeerReset : TraceCause::None, o.retryAfterS, 0, 0, r.respondedId, outcomeOf(o)});
            queryFailed(r.flow, o);
            return;
        }
        if (m_tracing)
            traceReq(Lane::Business, EventKind::QueryResult, r, r.status, r.record,
                     r.status == 200 ? QStringLiteral("order exists: do not resend") : QStringLiteral("no order yet: send again"),
                     {TraceCause::None, 0, 0, 0, r.respondedId, outcomeOf(o)});
        f.querying = false;
        if (r.status == 200) {
            finish(f, true, QStringLiteral("found by status query"), {TraceCause::FoundByQuery, r.status});
            return;
        }
        if (f.tokenUsed) {
            // The token is spent: sending it again would only get another 409.
            finish(f, false, QStringLiteral("order token already used, and no order found"),
                   {TraceCause::TokenSpentNotFound, r.status});
            return;
        }
        f.wrapperFirstStart = -1;
        onWrapperStart(r.flow, 0);
        return;
    }
    if (m_tracing)
        traceReq(Lane::Transport, reset ? EventKind::ConnectionReset : EventKind::ResponseReceived, r,
                 reset ? 0 : r.status, r.record, describe(o),
                 {reset ? TraceCause::PeerReset : TraceCause::None, o.retryAfterS, 0, 0, r.respondedId, outcomeOf(o)});
    f.tokenUsed = r.tokenUsed;
    deliver(r.flow, o);
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
            for (const LoadPhase &ph : phases) {
                if (ph.ratePerS <= 0)
                    continue;
                const double meanUs = double(kS) / ph.ratePerS;
                const double end = ph.toS * kS;
                for (double t = ph.fromS * kS; t < end && int(starts.size()) < w.orders; t += gap(meanUs))
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

void Engine::resume(int fi, Ev layer)
{
    switch (layer) {
    case Ev::OpStart: onOpStart(fi, 1); break;
    case Ev::BusinessStart: onBusinessStart(fi, 1); break;
    default: onWrapperStart(fi, 1); break;
    }
}

void Engine::onConnectFail(int fi, quint32 serial)
{
    Flow &f = m_flows[size_t(fi)];
    if (!f.waiting || f.serial != serial)
        return;
    f.waiting = false;
    if (m_tracing)
        traceFlow(Lane::Network, EventKind::ConnectFailed, f, 0, 0, QStringLiteral("connection refused"),
                  {TraceCause::None, 0, 0, 0, f.sentId, TraceOutcome::ConnectError, CommitPhase::None, flowMethod(f)});
    AttemptOutcome o;
    o.kind = OutcomeKind::ConnectError;
    if (f.querying)
        queryFailed(fi, o);
    else
        deliver(fi, o);
}

void Engine::onTimeout(int fi, quint32 serial)
{
    Flow &f = m_flows[size_t(fi)];
    if (!f.waiting || f.serial != serial)
        return;
    f.waiting = false;
    m_link->abandon(f);
    m_m.timeouts++;
    if (m_tracing)
        traceFlow(f.querying ? Lane::Business : Lane::Transport, EventKind::Timeout, f, 0, 0, m_timeoutText,
                  {TraceCause::None, m_c.timeoutMs, 0, 0, f.sentId, TraceOutcome::ReadTimeout, CommitPhase::None,
                   flowMethod(f)});
    AttemptOutcome o;
    o.kind = OutcomeKind::ReadTimeout;
    if (f.querying)
        queryFailed(fi, o);
    else
        deliver(fi, o);
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
