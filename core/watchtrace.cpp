#include "watchtrace.h"

#include "exchangetrace.h"

#include <algorithm>

namespace retrylab {

namespace {
// The live server numbers "ORD-NNNN" as op NNNN and every other reference from here up.
constexpr int FirstFreeFormOp = 100000000;

bool isPost(const TraceEvent &e)
{
    return e.kind == EventKind::RequestArrived && e.method == TraceMethod::PostOrder;
}

bool isQuery(const TraceEvent &e)
{
    return e.kind == EventKind::RequestArrived && e.method == TraceMethod::GetOrder;
}
} // namespace

namespace live {

QString refFromEvent(const TraceEvent &e)
{
    const bool names = e.kind == EventKind::Committed || (e.kind == EventKind::RequestArrived && e.method == TraceMethod::GetOrder);
    return names ? e.ref() : QString();
}

void applyMetricsJson(Metrics *m, const QJsonObject &json)
{
    const auto set = [&json](const char *name, auto *field) {
        const QJsonValue v = json.value(QLatin1String(name));
        if (v.isDouble())
            *field = decltype(+*field)(v.toDouble());
    };
    set("httpAttempts", &m->httpAttempts);
    set("records", &m->records);
    set("duplicates", &m->duplicates);
    set("duplicatesOutstanding", &m->duplicatesOutstanding);
    set("replays", &m->replays);
    set("conflicts409", &m->conflicts409);
    set("mismatch422", &m->mismatch422);
    set("rejected400", &m->rejected400);
    set("throttled429", &m->throttled429);
    set("rejected503", &m->rejected503);
    set("serverErrors", &m->serverErrors);
    set("lateCommits", &m->lateCommits);
}

} // namespace live

WatchTrace::WatchTrace(qsizetype maxEvents)
    : m_maxEvents(std::max<qsizetype>(1, maxEvents))
{
}

void WatchTrace::reset(const Scenario &scenario)
{
    m_scenario = scenario;
    m_trace.clear();
    m_requestStarts.clear();
    m_records.clear();
    m_ops.clear();
    m_firstRecordOfOp.clear();
    m_refs.clear();
    m_counts = Metrics();
    m_dropped = 0;
    m_requests = 0;
    m_lastOp = 0;
}

void WatchTrace::append(const Trace &events)
{
    ++m_requests;
    if (events.isEmpty())
        return;
    count(events);
    const qsizetype start = m_trace.size();
    m_requestStarts.append(start);
    m_trace.append(events);
    addRequest(start, m_trace.size());
    if (events.constFirst().op > 0)
        m_lastOp = events.constFirst().op;
    if (m_trace.size() > m_maxEvents)
        dropOldest();
}

void WatchTrace::count(const Trace &events)
{
    Metrics &m = m_counts;
    for (const TraceEvent &e : events) {
        if (isPost(e)) {
            ++m.httpAttempts;
        } else if (isQuery(e)) {
            ++m.queries;
            ++m.queryAttempts;
        } else if (e.kind == EventKind::Replayed) {
            ++m.replays;
        } else if (e.kind == EventKind::Rejected) {
            switch (e.status) {
            case 400: ++m.rejected400; break;
            case 409: ++m.conflicts409; break;
            case 422: ++m.mismatch422; break;
            case 429: ++m.throttled429; break;
            case 503: ++m.rejected503; break;
            default: break;
            }
        } else if (e.kind == EventKind::ServerError && e.status >= 500) {
            ++m.serverErrors;
        }
    }
}

QString WatchTrace::refOf(int op) const
{
    const auto it = m_refs.constFind(op);
    if (it != m_refs.constEnd())
        return it.value();
    if (op < FirstFreeFormOp)
        return QStringLiteral("ORD-%1").arg(op, 4, 10, QLatin1Char('0'));
    return QString();
}

void WatchTrace::addRequest(qsizetype begin, qsizetype end)
{
    // An answer in 2xx that left the server: as far as the server can tell, the client has its order.
    bool answered = false, lostAnswer = false;
    int op = 0;
    for (qsizetype i = begin; i < end; ++i) {
        const TraceEvent &e = m_trace.at(i);
        if (e.kind == EventKind::ResponseSent && e.status >= 200 && e.status < 300)
            answered = true;
        if (e.kind == EventKind::ResponseLost || e.kind == EventKind::ConnectionReset)
            lostAnswer = true;
        if (e.op <= 0)
            continue;
        op = e.op;
        const QString ref = live::refFromEvent(e);
        if (!ref.isEmpty())
            m_refs.insert(e.op, ref);
        auto it = m_ops.find(e.op);
        if (it == m_ops.end()) {
            OpSummary o;
            o.op = e.op;
            o.start = e.t;
            o.end = e.t;
            o.submissions = e.sub;
            it = m_ops.insert(e.op, o);
        }
        OpSummary &s = it.value();
        s.end = std::max(s.end, e.t);
        s.submissions = std::max(s.submissions, int(e.sub));
        if (isPost(e))
            ++s.attempts;
        if (e.kind == EventKind::Committed && e.record > 0) {
            ++s.records;
            const int first = m_firstRecordOfOp.value(e.op, 0);
            if (first == 0)
                m_firstRecordOfOp.insert(e.op, e.record);
            m_records.append(exchangetrace::recordOf(e, first != 0 && first != e.record));
        }
    }
    if (op > 0 && answered && !lostAnswer)
        m_ops[op].succeeded = true;
}

void WatchTrace::dropOldest()
{
    // Down to nine tenths, a whole request at a time, so the next drop is many requests away.
    const qsizetype target = m_maxEvents - m_maxEvents / 10;
    qsizetype k = 0;
    while (k < m_requestStarts.size() - 1 && m_trace.size() - m_requestStarts.at(k) > target)
        ++k;
    const qsizetype cut = m_requestStarts.at(k);
    if (cut <= 0)
        return;
    m_trace.remove(0, cut);
    m_requestStarts.remove(0, k);
    for (qsizetype &s : m_requestStarts)
        s -= cut;
    m_dropped += cut;
    m_records.clear();
    m_ops.clear();
    for (qsizetype i = 0; i < m_requestStarts.size(); ++i)
        addRequest(m_requestStarts.at(i), i + 1 < m_requestStarts.size() ? m_requestStarts.at(i + 1) : m_trace.size());
}

RunResult WatchTrace::result() const
{
    RunResult r;
    r.scenario = m_scenario;
    r.trace = m_trace;
    r.events = m_trace.size();
    r.records.reserve(m_records.size());
    for (RecordRow row : m_records) {
        row.ref = refOf(row.op);
        r.records.append(row);
    }
    r.ops.reserve(m_ops.size());
    for (const OpSummary &o : m_ops) {
        OpSummary s = o;
        s.ref = refOf(s.op);
        r.ops.append(s);
    }
    std::sort(r.ops.begin(), r.ops.end(), [](const OpSummary &a, const OpSummary &b) { return a.op < b.op; });

    Metrics m = m_counts;
    m.logicalOperations = int(r.ops.size());
    m.records = int(r.records.size());
    m.duplicates = int(std::count_if(r.records.cbegin(), r.records.cend(), [](const RecordRow &x) { return x.duplicate; }));
    m.duplicatesOutstanding = m.duplicates;
    qint64 last = 0;
    for (const OpSummary &s : std::as_const(r.ops)) {
        m.clientSucceeded += s.succeeded ? 1 : 0;
        m.maxAttemptsPerOp = std::max(m.maxAttemptsPerOp, s.attempts);
        last = std::max(last, s.end);
    }
    m.amplification = m.logicalOperations > 0 ? double(m.httpAttempts) / m.logicalOperations : 0;
    m.durationS = double(last) / 1e6;
    m.goodputPerS = m.durationS > 0 ? m.clientSucceeded / m.durationS : 0;
    r.metrics = m;
    return r;
}

} // namespace retrylab
