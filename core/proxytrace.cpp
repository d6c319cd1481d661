#include "proxytrace.h"

#include "exchangetrace.h"

#include "faults.h"
#include "series.h"

#include <algorithm>

namespace retrylab {

namespace {

using namespace faults::shortnames;

TraceMethod methodOf(const QByteArray &method)
{
    if (method == "POST")
        return TraceMethod::PostOrder;
    if (method == "GET" || method == "HEAD")
        return TraceMethod::GetOrder;
    return TraceMethod::None;
}

bool isSuccess(int status)
{
    return status >= 200 && status < 300;
}

// Builds the events of one exchange in order, numbering them.
class ExchangeEvents
{
public:
    ExchangeEvents(const ProxyExchange &e, int *nextId)
        : m_e(e)
        , m_nextId(nextId)
    {
    }

    int add(qint64 t, Lane lane, EventKind kind, int status, const QString &detail, TraceTyped typed, int record = 0)
    {
        TraceEvent ev;
        ev.t = std::max<qint64>(0, t);
        ev.lane = lane;
        ev.kind = kind;
        ev.op = m_e.op;
        ev.sub = 1;
        ev.setPath(QStringLiteral("op%1/b1/w1/t%2").arg(m_e.op).arg(std::max(1, m_e.arrival)));
        ev.setRequestId(QString::fromLatin1(m_e.requestId));
        ev.setKey(QString::fromLatin1(m_e.key));
        ev.status = status;
        ev.record = record;
        ev.setDetail(detail);
        if (kind == EventKind::Committed)
            ev.setRef(m_e.orderRef);
        ev.business = 1;
        ev.wrapper = 1;
        ev.transport = qint16(std::clamp(m_e.arrival, 1, 32767));
        typed.applyTo(ev);
        ev.method = methodOf(m_e.method); // the request's, whatever the event
        ev.id = (*m_nextId)++;
        m_out.append(ev);
        return ev.id;
    }
    Trace take() { return std::move(m_out); }

private:
    const ProxyExchange &m_e;
    int *m_nextId;
    Trace m_out;
};

TraceTyped typedOf(TraceCause cause, int answers, qint64 arg = 0, CommitPhase phase = CommitPhase::None)
{
    TraceTyped t;
    t.cause = cause;
    t.answers = answers;
    t.arg = arg;
    t.phase = phase;
    return t;
}

// The proxy's faults before the upstream: refused, lost, held; or answered by the proxy itself.
// Returns the id the upstream's arrival answers.
int addRequestSide(ExchangeEvents &out, const ProxyExchange &e, int attempt)
{
    const qint64 t = e.receivedUs;
    int sent = attempt;
    if (e.has(FConnect))
        out.add(t, Lane::Network, EventKind::ConnectFailed, 0, QStringLiteral("connection refused by the proxy"),
                typedOf(TraceCause::None, attempt));
    if (e.has(FRequestLost))
        out.add(t, Lane::Network, EventKind::RequestLost, 0, QStringLiteral("the proxy dropped the request"),
                typedOf(TraceCause::NeverReached, attempt));
    if (e.has(FSpike)) {
        const qint64 heldMs = e.forwardedUs >= 0 ? (e.forwardedUs - e.receivedUs) / 1000 : 0;
        sent = out.add(t, Lane::Network, EventKind::RequestDelayed, 0,
                       QStringLiteral("held by the proxy for %1 ms").arg(heldMs),
                       typedOf(TraceCause::LatencySpike, attempt, heldMs));
    }
    // Answered by the proxy without forwarding: a 429 or a 5xx before commit.
    if (e.forwardedUs < 0 && e.client == ProxyClientOutcome::Answered) {
        if (e.has(F429))
            out.add(t, Lane::Server, EventKind::Rejected, e.clientStatus, QStringLiteral("429 from the proxy"),
                    typedOf(TraceCause::RateLimited, attempt));
        else if (e.clientStatus >= 500)
            out.add(t, Lane::Server, EventKind::ServerError, e.clientStatus,
                    QStringLiteral("%1 from the proxy, before the upstream").arg(e.clientStatus),
                    typedOf(TraceCause::InjectedError, attempt, 0, CommitPhase::BeforeCommit));
    }
    return sent;
}

// The upstream's part and what the proxy did to its answer. Returns the id the client's view answers.
int addUpstreamSide(ExchangeEvents &out, const ProxyExchange &e, int sent, int record, int firstRecord)
{
    if (e.forwardedUs < 0)
        return sent;
    const int arrived = out.add(e.forwardedUs, Lane::Server, EventKind::RequestArrived, 0,
                                QStringLiteral("%1 %2 forwarded upstream")
                                    .arg(QString::fromLatin1(e.method), QString::fromLatin1(e.target)),
                                typedOf(TraceCause::None, sent));
    const qint64 t = e.upstreamUs >= 0 ? e.upstreamUs : std::max(e.forwardedUs, e.finishedUs);
    if (e.upstream != ProxyUpstreamOutcome::Answered) {
        const int status = e.upstream == ProxyUpstreamOutcome::TimedOut ? 504 : 502;
        return out.add(t, Lane::Server, EventKind::ServerError, status, QStringLiteral("no usable answer from the upstream"),
                       typedOf(TraceCause::None, arrived, 0, CommitPhase::BeforeCommit));
    }
    if (record > 0) {
        out.add(t, Lane::Database, EventKind::Committed, 0,
                firstRecord > 0 ? QStringLiteral("upstream created %1: a duplicate of record #%2").arg(e.resourceId).arg(firstRecord)
                                : QStringLiteral("upstream created %1").arg(e.resourceId),
                typedOf(firstRecord > 0 ? TraceCause::Duplicate : TraceCause::Insert, arrived, firstRecord), record);
    } else if (isSuccess(e.upstreamStatus) && !e.resourceId.isEmpty()) {
        // What the service sent, for the words: Replayed with its Idempotent-Replayed header, a
        // plain Response without it.
        TraceTyped replay = typedOf(TraceCause::None, arrived);
        replay.outcome = e.replayedHeader ? TraceOutcome::Replayed : TraceOutcome::Response;
        out.add(t, Lane::Server, EventKind::Replayed, e.upstreamStatus,
                QStringLiteral("upstream answered with %1 again%2")
                    .arg(e.resourceId, e.replayedHeader ? QStringLiteral(", Idempotent-Replayed: true") : QString()),
                replay);
    }
    int answer = out.add(t, Lane::Server, EventKind::ResponseSent, e.upstreamStatus,
                         QStringLiteral("upstream answered %1").arg(e.upstreamStatus), typedOf(TraceCause::None, arrived));
    if (e.has(F5xxAfter))
        answer = out.add(t, Lane::Server, EventKind::ServerError, e.clientStatus,
                         QStringLiteral("%1 from the proxy, after the upstream answered").arg(e.clientStatus),
                         typedOf(TraceCause::InjectedError, answer, 0, CommitPhase::AfterCommit));
    if (e.has(FResponseLost))
        answer = out.add(t, Lane::Network, EventKind::ResponseLost, 0, QStringLiteral("the proxy dropped the answer"),
                         typedOf(TraceCause::ResponseLost, answer));
    if (e.has(FReset))
        answer = out.add(t, Lane::Network, EventKind::ConnectionReset, 0,
                         QStringLiteral("the proxy reset the connection after the answer"),
                         typedOf(TraceCause::PeerReset, answer));
    return answer;
}

// What the client saw.
void addClientSide(ExchangeEvents &out, const ProxyExchange &e, int attempt, int answer)
{
    const qint64 t = e.finishedUs >= 0 ? e.finishedUs : e.receivedUs;
    TraceTyped typed = typedOf(TraceCause::None, answer);
    switch (e.client) {
    case ProxyClientOutcome::Answered:
        typed.outcome = TraceOutcome::Response;
        out.add(t, Lane::Transport, EventKind::ResponseReceived, e.clientStatus,
                QStringLiteral("the client got %1").arg(e.clientStatus), typed);
        break;
    case ProxyClientOutcome::NoAnswer:
        typed.answers = attempt;
        typed.outcome = TraceOutcome::ReadTimeout;
        out.add(t, Lane::Transport, EventKind::Timeout, 0, QStringLiteral("the client gave up waiting"), typed);
        break;
    case ProxyClientOutcome::Reset:
        typed.cause = TraceCause::PeerReset;
        typed.outcome = TraceOutcome::ConnectionReset;
        out.add(t, Lane::Transport, EventKind::ConnectionReset, 0, QStringLiteral("the client saw a reset"), typed);
        break;
    case ProxyClientOutcome::Refused:
    case ProxyClientOutcome::Pending:
        break;
    }
}

} // namespace

ProxyTrace::ProxyTrace(int maxExchanges)
    : m_maxExchanges(std::max(1, maxExchanges))
{
}

void ProxyTrace::reset(const Scenario &scenario)
{
    m_scenario = scenario;
    m_ledger = ProxyLedger();
    m_kept.clear();
    m_resourcesOfOp.clear();
    m_firstRecordOfOp.clear();
    m_records = 0;
    m_appended = 0;
    m_lastOp = 0;
}

void ProxyTrace::append(const ProxyExchange &exchange)
{
    m_ledger.add(exchange);
    ++m_appended;
    Kept k{exchange, 0, 0};
    // A resource is created once per logical request: the first 2xx answer that names it (as the
    // ledger counts it); a second one of the same request is a duplicate of the first.
    if (exchange.upstream == ProxyUpstreamOutcome::Answered && isSuccess(exchange.upstreamStatus)
        && !exchange.resourceId.isEmpty() && !ProxyLedger::isRead(exchange.method)) {
        QStringList &resources = m_resourcesOfOp[exchange.op];
        if (!resources.contains(exchange.resourceId)) {
            resources.append(exchange.resourceId);
            k.record = ++m_records;
            const int first = m_firstRecordOfOp.value(exchange.op, 0);
            if (first == 0)
                m_firstRecordOfOp.insert(exchange.op, k.record);
            else
                k.firstRecord = first;
        }
    }
    if (exchange.op > 0 && !ProxyLedger::isRead(exchange.method))
        m_lastOp = exchange.op;
    m_kept.append(k);
    if (m_kept.size() > m_maxExchanges)
        m_kept.remove(0, m_kept.size() - m_maxExchanges + m_maxExchanges / 10); // a tenth at a time
}

Trace ProxyTrace::events(const ProxyExchange &e, int record, int firstRecord, int *nextId)
{
    ExchangeEvents out(e, nextId);
    const int attempt = out.add(e.receivedUs, Lane::Transport, EventKind::TransportAttempt, 0,
                                QStringLiteral("%1 %2, attempt %3")
                                    .arg(QString::fromLatin1(e.method), QString::fromLatin1(e.target))
                                    .arg(e.arrival),
                                TraceTyped());
    const int toUpstream = addRequestSide(out, e, attempt);
    const int answer = addUpstreamSide(out, e, toUpstream, record, firstRecord);
    addClientSide(out, e, attempt, answer);
    return out.take();
}

RunResult ProxyTrace::result() const
{
    RunResult r;
    r.scenario = m_scenario;
    QHash<int, OpSummary> ops;
    int nextId = 1;
    for (const Kept &k : m_kept) {
        const ProxyExchange &e = k.exchange;
        const Trace exchangeEvents = events(e, k.record, k.firstRecord, &nextId);
        r.trace.append(exchangeEvents);
        if (e.op <= 0 || ProxyLedger::isRead(e.method))
            continue;
        auto it = ops.find(e.op);
        if (it == ops.end()) {
            OpSummary o;
            o.op = e.op;
            o.ref = e.orderRef.isEmpty() ? QString::fromLatin1(e.key) : e.orderRef;
            o.start = e.receivedUs;
            o.end = e.receivedUs;
            it = ops.insert(e.op, o);
        }
        it->attempts++;
        it->end = std::max({it->end, e.finishedUs, e.upstreamUs});
        it->succeeded = it->succeeded || (e.client == ProxyClientOutcome::Answered && isSuccess(e.clientStatus));
        for (const TraceEvent &ev : exchangeEvents) {
            if (ev.kind != EventKind::Committed)
                continue;
            it->records++;
            RecordRow row = exchangetrace::recordOf(ev, k.firstRecord > 0);
            row.ref = it->ref;
            r.records.append(row);
        }
    }
    // One clock for every exchange: the views read the trace in time order, and the links keep the
    // answers whatever the order the exchanges finished in.
    std::stable_sort(r.trace.begin(), r.trace.end(), [](const TraceEvent &a, const TraceEvent &b) { return a.t < b.t; });
    r.events = r.trace.size();
    r.ops = ops.values();
    std::sort(r.ops.begin(), r.ops.end(), [](const OpSummary &a, const OpSummary &b) { return a.op < b.op; });

    const ProxyLedger::Totals totals = m_ledger.totals();
    Metrics &m = r.metrics;
    m.logicalOperations = int(totals.logicalRequests);
    m.httpAttempts = totals.attempts;
    m.records = int(totals.created);
    m.duplicates = int(totals.duplicates);
    m.duplicatesOutstanding = m.duplicates;
    m.orphans = int(totals.orphans);
    for (const ProxyLedger::Row &row : m_ledger.rows()) {
        m.clientSucceeded += row.successes > 0 ? 1 : 0;
        m.clientFailed += row.successes == 0 && row.failures > 0 ? 1 : 0;
        m.maxAttemptsPerOp = std::max(m.maxAttemptsPerOp, row.attempts);
    }
    qint64 last = 0;
    for (const TraceEvent &e : std::as_const(r.trace)) {
        m.timeouts += e.kind == EventKind::Timeout ? 1 : 0;
        m.replays += e.kind == EventKind::Replayed ? 1 : 0;
        if (e.kind == EventKind::Committed)
            m.lastCommitS = double(e.t) / 1e6;
        last = std::max(last, e.t);
    }
    m.lateCommits = int(series::lateCommitEvents(r.trace).size());
    m.amplification = m.logicalOperations > 0 ? double(m.httpAttempts) / m.logicalOperations : 0;
    m.durationS = double(last) / 1e6;
    m.goodputPerS = m.durationS > 0 ? m.clientSucceeded / m.durationS : 0;
    return r;
}

} // namespace retrylab
