#include "engine/engine.h"

#include "engine/simulatednetwork.h"
#include "engine/tracetext.h"

#include <algorithm>
#include <cmath>

// Engine's client layers: the business loop, the @retry wrapper and the urllib3 transport around
// each attempt, keys and tokens, status queries, retry budgets and circuit breakers, and what the
// client makes of an answer. The loop, the workload and the results are in engine.cpp.

namespace retrylab::engine {

using namespace faults::shortnames;
using Typed = TraceTyped;

bool Engine::mintKey(Flow &f, int phase, Ev resume, const char *where, TraceCause cause)
{
    if (phase == 1)
        return true; // token already fetched
    if (m_c.keyPlacement == KeyPlacement::None)
        return true;
    const quint64 key = RngStream::mix(m_s.seed ^ RngStream::mix(++m_keyCounter)) | 1;
    f.key = key;
    if (m_c.keyPlacement == KeyPlacement::PerOperation)
        m_opStates[size_t(f.opState)].key = key; // for the operation's double submit
    if (m_tokenMode) {
        // POST /order-tokens first: the order goes once the token is back (TokenReady).
        m_link->fetchToken(f.self, quint8(resume), where, m_keyCounter, cause);
        return false;
    }
    // The key belongs to the layer that mints it: inside the @retry wrapper for perWrapperAttempt.
    if (m_tracing)
        traceFlow(m_c.keyPlacement == KeyPlacement::PerWrapperAttempt ? Lane::Wrapper : Lane::Business,
                  EventKind::KeyMinted, f, 0, 0, QString(), {cause});
    return true;
}

void Engine::onOpStart(int fi, int phase)
{
    Flow &f = flow(fi);
    if (phase == 0) {
        f.start = m_now;
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::OpStart, f);
        if (m_c.keyPlacement == KeyPlacement::PerOperation) {
            // A double submit reuses the key minted for the form (same operation).
            if (f.sub > 1 && m_opStates[size_t(f.opState)].key != 0) {
                f.key = m_opStates[size_t(f.opState)].key;
            } else if (!mintKey(f, phase, Ev::OpStart, "per operation", TraceCause::PerOperation)) {
                return;
            }
        }
    }
    onBusinessStart(f, 0);
}

void Engine::onBusinessStart(Flow &f, int phase)
{
    if (f.done)
        return;
    if (phase == 0) {
        f.b++;
        f.w = 0;
        f.t = 0;
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::BusinessAttempt, f, 0, 0, QString(),
                      {TraceCause::MaxAttempts, m_c.business.maxAttempts == 0 ? 0 : m_businessMax, m_c.business.deadlineMs});
        if (m_c.keyPlacement == KeyPlacement::PerBusinessAttempt && !mintKey(f, 0, Ev::BusinessStart, "per business attempt", TraceCause::PerBusinessAttempt))
            return;
    }
    f.versionRead = false; // occ: the business loop's read-modify-write reads again (client.occRead)
    if (m_c.queryBeforeRetry && f.b > 1) {
        sendQuery(f, f.self);
        return;
    }
    f.wrapperFirstStart = -1;
    f.prevWrapperWait = 0; // a new run of the wrapper's loop: its jitter starts afresh
    onWrapperStart(f, 0);
}

void Engine::onWrapperStart(Flow &f, int phase)
{
    if (f.done)
        return;
    if (phase == 0) {
        f.w++;
        f.t = 0;
        f.transportDone = TransportCounts();
        if (f.wrapperFirstStart < 0)
            f.wrapperFirstStart = m_now;
        if (m_c.occRead == OccRead::Wrapper)
            f.versionRead = false; // the decorated function reads the row itself
        // The decorated method builds the request: payload (and a key minted here) are new each time.
        f.fingerprint = RngStream::mix(quint64(f.op) * 0x100000001B3ull
                                       ^ (m_c.mutatePayloadOnRetry ? quint64(f.b * 1000 + f.w) : 0ull));
        if (m_tracing && m_c.wrapper.enabled)
            traceFlow(Lane::Wrapper, EventKind::WrapperAttempt, f, 0, 0, QString(),
                      {TraceCause::MaxAttempts, m_c.wrapper.maxAttempts == 0 ? 0 : m_wrapperMax, m_c.wrapper.deadlineMs});
        if (m_c.keyPlacement == KeyPlacement::PerWrapperAttempt && !mintKey(f, 0, Ev::WrapperStart, "per wrapper attempt", TraceCause::PerWrapperAttempt))
            return;
    }
    onTransportSend(f);
}

quint32 Engine::faultsFor(const Flow &f)
{
    if (!m_netDice && m_script.empty())
        return 0; // nothing can strike (the AWS study): the attempt is not even addressed
    const faults::Attempt attempt{f.op, f.sub, f.b, f.w, f.t, false};
    return (m_script.empty() ? 0u : m_script.match(attempt))
        | (m_netDice ? faults::postNetworkDice(m_s, RngStream::resumed(f.netStream), m_now) : 0u);
}

void Engine::onTransportSend(Flow &f)
{
    f.t++;
    f.serial++;
    f.waiting = true;
    f.querying = false;
    f.netStream = attemptStream(f.netPrefix, f.b, f.w, f.t).state();
    if (m_tracing)
        f.sentId = traceFlow(Lane::Transport, EventKind::TransportAttempt, f, 0, 0, QString(),
                             {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostOrder});

    const bool firstTry = f.b <= 1 && f.w <= 1 && f.t == 1;
    if (firstTry && m_c.retryBudget.enabled)
        budgetOf(f).budget.onRequest(m_now); // Finagle's deposit(): one per request, not per retry
    BreakerChange change;
    const bool admitted = !m_c.circuitBreaker.enabled || (m_c.circuitBreaker.retriesOnly && firstTry)
        || m_clients[size_t(f.client)].breaker.admit(m_now, &change);
    traceBreaker(f, change);
    if (!admitted) {
        m_m.circuitRejections++;
        if (m_tracing)
            traceFlow(Lane::Transport, EventKind::CircuitOpen, f, 0, 0, QString(),
                      {TraceCause::BreakerOpen, 0, 0, 0, f.sentId, TraceOutcome::None, CommitPhase::None, TraceMethod::PostOrder});
        f.waiting = false;
        AttemptOutcome o;
        o.kind = OutcomeKind::CircuitOpen;
        deliver(f, o);
        return;
    }
    // server.model occ: the reading layer's attempt reads first, the write goes once the version is
    // back; a transport retry (and a wrapper retry when the business loop reads) resends the same
    // conditional write with the version already read.
    if (m_occ && !f.versionRead && m_sim->readRow(f.self)) // m_occ: simulated
        return;
    sendWrite(f);
}

void Engine::sendWrite(Flow &f)
{
    const int fi = f.self;
    m_m.httpAttempts++;
    f.postAttempts++;
    quint32 faults = faultsFor(f);
    if (m_mayBeDown && m_link->down())
        faults |= FConnect; // nothing listens while the server restarts
    const quint32 serial = f.serial;
    if (faults & FConnect) {
        atFlow(m_now + qint64(m_c.connectFailMs) * kMs, Ev::ConnectFail, f, serial);
        return;
    }
    timeoutAt(m_now + qint64(m_c.timeoutMs) * kMs, f, serial);
    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    if (m_stream)
        f.requests++;
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
    r.netStream = f.netStream;
    if (m_sim)
        m_sim->send(ri); // a direct call: the class is final
    else
        m_link->send(ri);
}

void Engine::sendQuery(Flow &f, int fi)
{
    m_m.queries++;
    f.qt = 0;
    f.queryDone = TransportCounts();
    if (m_tracing)
        f.sentId = traceFlow(Lane::Business, EventKind::QuerySent, f, 0, 0, QString(),
                             {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::GetOrder});
    sendQueryAttempt(fi);
}

void Engine::sendQueryAttempt(int fi)
{
    // GET /orders?ref= goes through the same session as the POST: every network fault, a restarting
    // server and the script entries with "method": "GET" apply, and the transport retries it (GET
    // is in urllib3's default allowed_methods). Its path is bN/w1/tQ, Q counting its HTTP attempts.
    Flow &f = flow(fi);
    if (f.done)
        return;
    f.qt++;
    f.serial++;
    f.waiting = true;
    f.querying = true;
    m_m.queryAttempts++;
    if (m_tracing && f.qt > 1)
        f.sentId = traceFlow(Lane::Transport, EventKind::QuerySent, f, 0, 0, QString(),
                             {TraceCause::None, f.qt, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::GetOrder});
    const faults::Attempt query{f.op, f.sub, f.b, 1, f.qt, true};
    qint64 delay = 0;
    quint32 faults = faults::queryDice(m_s, query, &delay, m_now);
    if (m_script.addressesQueries())
        faults |= m_script.match(query);
    if (m_mayBeDown && m_link->down())
        faults |= FConnect; // nothing listens while the server restarts
    if (faults & FConnect) {
        at(m_now + qint64(m_c.connectFailMs) * kMs, Ev::ConnectFail, fi, f.serial);
        return;
    }
    timeoutAt(m_now + qint64(m_c.timeoutMs) * kMs, f, f.serial);
    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    if (m_stream)
        f.requests++;
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
    // Its answer's latency is keyed by the request's own path, not the last POST's.
    r.netStream = attemptStream(f.netPrefix, r.b, r.w, r.t).state();
    m_link->send(ri);
}

void Engine::queryFailed(Flow &f, const AttemptOutcome &o)
{
    f.querying = false;
    if (m_c.transport.enabled) {
        // urllib3 keeps one Retry per request: each GET error is charged to its own counter
        // (Retry.increment), and backoff_jitter draws for each retry.
        double jitterU = 0;
        if (m_c.transport.backoffJitterS > 0) {
            RngStream rng = backoffStream(f).extended(quint64(f.b)).extended(0).extended(quint64(f.qt)).extended(5);
            jitterU = rng.uniform();
        }
        const TransportVerdict v = policy::transportVerdict(m_c.transport, m_getAllowed, o, f.queryDone, jitterU);
        if (transportRetries(f, o, v, Ev::QuerySend, QStringLiteral("GET "))) {
            f.queryDone.add(v.cause);
            return;
        }
    }
    // No answer: the order may or may not exist.
    if (m_c.onUnknownQuery == UnknownQuery::Resend && !f.tokenUsed) {
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::QueryResult, f, 0, 0, QString(),
                      {TraceCause::StatusUnknown, o.status, 0, 0, f.sentId, outcomeOf(o), CommitPhase::None,
                       TraceMethod::GetOrder});
        f.wrapperFirstStart = -1;
        onWrapperStart(f, 0);
        return;
    }
    // An unanswered status query cannot prove the order is absent: do not resend.
    afterBusiness(f, o);
}

bool Engine::transportRetries(Flow &f, const AttemptOutcome &o, const TransportVerdict &v, Ev resume,
                              const QString &what)
{
    if (v.retry && spendBudget(f, Lane::Transport)) {
        if (m_tracing)
            traceFlow(Lane::Transport, EventKind::RetryScheduled, f, o.status, 0, QString(),
                      {v.retryAfter ? TraceCause::RetryAfter : TraceCause::Backoff, v.delayUs,
                       v.retryAfter && o.retryAfterS * kS > v.delayUs ? o.retryAfterS : 0, 0, 0, outcomeOf(o),
                       CommitPhase::None, what.isEmpty() ? TraceMethod::PostOrder : TraceMethod::GetOrder});
        atFlow(m_now + v.delayUs, resume, f);
        return true;
    }
    if (m_tracing && !v.retry)
        traceFlow(Lane::Transport, EventKind::GaveUp, f, o.status, 0, QString(),
                  {v.why, v.limit, v.counter, 0, 0, outcomeOf(o), CommitPhase::None,
                   what.isEmpty() ? TraceMethod::PostOrder : TraceMethod::GetOrder});
    return false;
}

bool Engine::spendBudget(Flow &f, Lane lane)
{
    if (!m_c.retryBudget.enabled)
        return true;
    RetryBudget &budget = budgetOf(f).budget;
    if (budget.tryRetry(m_now))
        return true;
    m_m.budgetRefusals++;
    if (m_tracing) {
        const double left = budget.balance(m_now);
        traceFlow(lane, EventKind::BudgetExhausted, f, 0, 0,
                  QStringLiteral("retry budget empty (%1 tokens)").arg(left, 0, 'f', 2),
                  {TraceCause::BudgetEmpty, qint64(std::llround(left * 100))});
    }
    return false;
}

void Engine::deliver(Flow &f, const AttemptOutcome &o)
{
    if (m_c.circuitBreaker.enabled && policy::breakerRecords(o))
        traceBreaker(f, m_clients[size_t(f.client)].breaker.record(m_now, policy::breakerFailure(o)));
    if (m_c.retryBudget.enabled && policy::breakerRecords(o))
        budgetOf(f).budget.onOutcome(o.ok(), policy::breakerFailure(o));

    if (m_c.transport.enabled && !o.ok()) {
        double jitterU = 0;
        if (m_c.transport.backoffJitterS > 0) {
            RngStream rng =
                backoffStream(f).extended(quint64(f.b)).extended(quint64(f.w)).extended(quint64(f.t)).extended(3);
            jitterU = rng.uniform();
        }
        const TransportVerdict v = policy::transportVerdict(m_c.transport, m_postAllowed, o, f.transportDone, jitterU);
        if (transportRetries(f, o, v, Ev::TransportSend, QString())) {
            f.transportDone.add(v.cause);
            return;
        }
        if (!v.retry && v.statusExhausted && m_c.transport.raiseOnStatus) {
            // raise_on_status: MaxRetryError reaches the layer above, the response (and its
            // Retry-After) does not.
            AttemptOutcome raised = o;
            raised.raised = true;
            raised.retryAfterS = -1;
            afterWrapper(f, raised);
            return;
        }
    }
    afterWrapper(f, o);
}

void Engine::traceBreaker(const Flow &f, const BreakerChange &change)
{
    if (!change.changed || !m_tracing)
        return;
    const TraceCause cause = change.to == BreakerState::Open ? TraceCause::BreakerOpened
        : change.to == BreakerState::HalfOpen               ? TraceCause::BreakerHalfOpen
                                                             : TraceCause::BreakerClosed;
    traceFlow(Lane::Transport, EventKind::BreakerChanged, f, 0, 0, QString(),
              {cause, change.untilUs, change.to == BreakerState::HalfOpen ? m_c.circuitBreaker.permittedHalfOpenCalls() : 0});
}

bool Engine::retryLayer(Flow &f, const AttemptOutcome &o, const LayerRetry &layer)
{
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
                traceFlow(layer.lane, EventKind::RetryScheduled, f, o.status, 0, QString(),
                          {backoff < layer.minWaitUs ? TraceCause::RetryAfter : TraceCause::Backoff, wait, 0, 0, 0,
                           outcomeOf(o)});
            atLast(m_now + wait, layer.resume, f);
            return true;
        }
        if (m_tracing && !deadlineOk)
            traceFlow(layer.lane, EventKind::GaveUp, f, o.status, 0, QString(),
                      {TraceCause::Deadline, layer.config.deadlineMs, 0, 0, 0, outcomeOf(o)});
    } else if (m_tracing) {
        traceFlow(layer.lane, EventKind::GaveUp, f, o.status, 0, QString(),
                  {layer.attempt >= layer.max ? TraceCause::MaxAttempts : TraceCause::NotRetried, layer.max, 0, 0, 0,
                   outcomeOf(o)});
    }
    return false;
}

void Engine::afterWrapper(Flow &f, const AttemptOutcome &o)
{
    if (f.tokenUsed) {
        // A used single-use token is a final answer for every client layer: resending it can
        // only get 409 again.
        if (m_tracing && m_c.wrapper.enabled)
            traceFlow(Lane::Wrapper, EventKind::GaveUp, f, o.status, 0, QString(),
                      {TraceCause::TokenSpent, 0, 0, 0, 0, outcomeOf(o)});
        afterBusiness(f, o);
        return;
    }
    if (!o.ok() && m_c.wrapper.enabled) {
        RngStream rng = backoffStream(f).extended(quint64(f.b)).extended(quint64(f.w)).extended(2);
        const LayerRetry layer{Lane::Wrapper, m_c.wrapper, m_wrapperMax, f.w,
                               policy::wrapperRetries(m_c.wrapperRetryOn, o), &f.prevWrapperWait,
                               f.wrapperFirstStart, 0, rng.uniform(), Ev::WrapperStart};
        if (retryLayer(f, o, layer))
            return;
    }
    afterBusiness(f, o);
}

void Engine::afterBusiness(Flow &f, const AttemptOutcome &o)
{
    if (o.ok()) {
        finish(f, true, QString(),
               {TraceCause::Final, o.status, 0, 0, 0, outcomeOf(o)});
        return;
    }
    if (f.tokenUsed && o.kind == OutcomeKind::Response && o.status == 409 && !m_c.queryBeforeRetry) {
        // Final: resending the spent token can only get 409 again. The order may exist (its first
        // response was lost); only a client that queries before its next attempt finds out: the
        // business loop then goes on, and its next attempt starts with GET /orders?ref=.
        finish(f, false, QString(),
               {TraceCause::TokenSpent, o.status, 0, 0, 0, outcomeOf(o)});
        return;
    }
    if (m_c.business.enabled) {
        RngStream rng = backoffStream(f).extended(quint64(f.b)).extended(1);
        const qint64 retryAfter = m_c.businessRespectRetryAfter && o.retryAfterS >= 0 ? qint64(o.retryAfterS) * kS : 0;
        const LayerRetry layer{Lane::Business, m_c.business, m_businessMax, f.b, policy::businessRetries(o),
                               &f.prevBusinessWait, f.start, retryAfter, rng.uniform(), Ev::BusinessStart};
        if (retryLayer(f, o, layer))
            return;
    }
    finish(f, false, QString(), {TraceCause::Final, o.status, 0, 0, 0, outcomeOf(o)});
}

void Engine::finish(Flow &f, bool ok, const QString &why, const Typed &typed)
{
    f.done = true;
    f.succeeded = ok;
    f.end = m_now;
    f.waiting = false;
    cancelTimeout(f);
    if (m_stream)
        m_releaseCheck.push_back(f.self); // released after the event if nothing names it any more
    m_flowsOpen--;
    const int perClient = std::max(1, m_s.workload.opsPerClient);
    if (m_closed && f.sub == 1 && (f.op - 1) % perClient + 1 < perClient) {
        // The client thinks, then starts its next operation (and that one's double submit).
        const qint64 next = m_now + qint64(m_s.workload.thinkTimeMs) * kMs;
        const int n = createOp(f.op + 1, f.client, next, false);
        at(next, Ev::OpStart, n);
        if (flow(n).pairFlow >= 0)
            at(next + qint64(m_s.workload.doubleSubmitDelayMs) * kMs, Ev::OpStart, flow(n).pairFlow);
    }
    if (m_tracing) {
        traceFlow(Lane::Business, ok ? EventKind::OpSucceeded : EventKind::OpFailed, f, 0, 0, why, typed);
    }
}

void Engine::onResponseArrive(int ri, bool reset)
{
    // Read in place: the slot is freed here, but only an attempt made further down (newRequest)
    // can reuse it, after the last look at r.
    const Request &r = m_requests[size_t(ri)];
    if (r.sharedByReset)
        m_requests[size_t(ri)].sharedByReset = false; // its ProcessingDone, still due, frees it
    else
        freeRequest(ri);
    Flow &f = flow(r.flow);
    if (!f.waiting || f.serial != r.serial) {
        if (m_tracing)
            traceReq(Lane::Transport, EventKind::LateResponse, r, reset ? 0 : r.status, r.record,
                     QString(),
                     {reset ? TraceCause::PeerReset : TraceCause::None, 0, 0, 0, r.respondedId});
        return;
    }
    f.waiting = false;
    cancelTimeout(f);
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
                         reset ? 0 : r.status, 0, QString(),
                         {reset ? TraceCause::PeerReset : TraceCause::None, o.retryAfterS, 0, 0, r.respondedId, outcomeOf(o)});
            queryFailed(f, o);
            return;
        }
        if (m_tracing)
            traceReq(Lane::Business, EventKind::QueryResult, r, r.status, r.record,
                     QString(),
                     {TraceCause::None, 0, 0, 0, r.respondedId, outcomeOf(o)});
        f.querying = false;
        if (r.status == 200) {
            finish(f, true, QString(), {TraceCause::FoundByQuery, r.status});
            return;
        }
        if (f.tokenUsed) {
            // The token is spent: sending it again would only get another 409.
            finish(f, false, QString(),
                   {TraceCause::TokenSpentNotFound, r.status});
            return;
        }
        f.wrapperFirstStart = -1;
        onWrapperStart(f, 0);
        return;
    }
    if (m_tracing)
        traceReq(Lane::Transport, reset ? EventKind::ConnectionReset : EventKind::ResponseReceived, r,
                 reset ? 0 : r.status, r.record, QString(),
                 {reset ? TraceCause::PeerReset : TraceCause::None, o.retryAfterS, 0, 0, r.respondedId, outcomeOf(o)});
    f.tokenUsed = r.tokenUsed;
    deliver(f, o);
}

void Engine::resume(int fi, Ev layer)
{
    switch (layer) {
    case Ev::OpStart: onOpStart(fi, 1); break;
    case Ev::BusinessStart: onBusinessStart(flow(fi), 1); break;
    default: onWrapperStart(flow(fi), 1); break;
    }
}

void Engine::onConnectFail(int fi, quint32 serial)
{
    Flow &f = flow(fi);
    if (!f.waiting || f.serial != serial)
        return;
    f.waiting = false;
    cancelTimeout(f); // the live wire reports a refused connection after the send
    if (m_tracing)
        traceFlow(Lane::Network, EventKind::ConnectFailed, f, 0, 0, QString(),
                  {TraceCause::None, 0, 0, 0, f.sentId, TraceOutcome::ConnectError, CommitPhase::None, flowMethod(f)});
    AttemptOutcome o;
    o.kind = OutcomeKind::ConnectError;
    if (f.querying)
        queryFailed(f, o);
    else
        deliver(f, o);
}

void Engine::onTimeout(int fi, quint32 serial)
{
    Flow &f = flow(fi);
    if (!f.waiting || f.serial != serial)
        return;
    f.waiting = false;
    f.timeoutSlot = -1; // this one: it fell due
    m_link->abandon(f);
    m_m.timeouts++;
    if (m_tracing)
        traceFlow(f.querying ? Lane::Business : Lane::Transport, EventKind::Timeout, f, 0, 0, QString(),
                  {TraceCause::None, m_c.timeoutMs, 0, 0, f.sentId, TraceOutcome::ReadTimeout, CommitPhase::None,
                   flowMethod(f)});
    AttemptOutcome o;
    o.kind = OutcomeKind::ReadTimeout;
    if (f.querying)
        queryFailed(f, o);
    else
        deliver(f, o);
}

} // namespace retrylab::engine
