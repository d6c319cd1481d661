#include "timeline/timelinelayout.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace retrylab {

// ------------------------------------------------------------------ TimeAxis

void TimeAxis::build(const QList<qint64> &times, qreal pxPerMs, qint64 breakAfterUs, qreal breakPx, qreal breakPxPerDoubling)
{
    m_t = times;
    m_x.clear();
    m_breaks.clear();
    m_brokenAfter = QList<bool>(m_t.size(), false);
    m_k = pxPerMs / 1000.0;
    if (m_t.isEmpty())
        return;
    m_x.reserve(m_t.size());
    m_x.append(0);
    for (int i = 1; i < m_t.size(); ++i) {
        const qint64 dt = m_t[i] - m_t[i - 1];
        qreal w = m_k * qreal(dt);
        if (dt > breakAfterUs) {
            // Grows with the logarithm of the gap: an 8 s wait looks longer than 100 ms, not 80 times longer.
            w = qMin(w, breakPx + breakPxPerDoubling * std::log2(double(dt) / double(breakAfterUs)));
            m_breaks.append(Break{m_t[i - 1], m_t[i], m_x.last(), m_x.last() + w});
            m_brokenAfter[i - 1] = true;
        }
        m_x.append(m_x.last() + w);
    }
}

qreal TimeAxis::x(qint64 t) const
{
    if (m_t.isEmpty())
        return 0;
    if (t <= m_t.first())
        return m_x.first() - qreal(m_t.first() - t) * m_k;
    if (t >= m_t.last())
        return m_x.last() + qreal(t - m_t.last()) * m_k;
    const int i = int(std::upper_bound(m_t.cbegin(), m_t.cend(), t) - m_t.cbegin()) - 1;
    const qreal f = qreal(t - m_t[i]) / qreal(m_t[i + 1] - m_t[i]);
    return m_x[i] + f * (m_x[i + 1] - m_x[i]);
}

qint64 TimeAxis::timeAt(qreal x) const
{
    if (m_t.isEmpty() || m_k <= 0)
        return 0;
    if (x <= m_x.first())
        return m_t.first() - qint64(std::llround((m_x.first() - x) / m_k));
    if (x >= m_x.last())
        return m_t.last() + qint64(std::llround((x - m_x.last()) / m_k));
    const int i = int(std::upper_bound(m_x.cbegin(), m_x.cend(), x) - m_x.cbegin()) - 1;
    const qreal span = m_x[i + 1] - m_x[i];
    const qreal f = span > 0 ? (x - m_x[i]) / span : 0;
    return m_t[i] + qint64(std::llround(f * qreal(m_t[i + 1] - m_t[i])));
}

QList<TimeAxis::Tick> TimeAxis::ticks(qreal minSpacingPx) const
{
    QList<Tick> all;
    if (m_t.isEmpty() || m_k <= 0)
        return all;
    const qint64 step = qMax<qint64>(100, timeline::niceStep(minSpacingPx / m_k));
    // The precision each tick needs: round ticks the step, burst starts the coarsest 1/2/5 step
    // (down to 1 ms) that divides their time.
    QList<qint64> precision;
    auto exactStep = [step](qint64 t) {
        // step, then the next smaller 1/2/5 values: 100 ms, 50, 20, 10, 5, 2, 1 ms.
        qint64 s = step;
        for (int i = 0; i < 40 && s > 1000; ++i) {
            if (t % s == 0)
                return s;
            s = timeline::niceStep(double(s) * 0.39);
        }
        return qMin<qint64>(step, 1000);
    };
    int a = 0;
    while (a < m_t.size()) {
        int b = a;
        while (b + 1 < m_t.size() && !m_brokenAfter.at(b))
            ++b;
        // The start of every burst is labelled exactly, then round values inside it.
        all.append(Tick{m_t[a], x(m_t[a]), QString()});
        precision.append(exactStep(m_t[a]));
        const qint64 end = (b + 1 == m_t.size()) ? m_t[b] + step : m_t[b];
        for (qint64 t = (m_t[a] / step + 1) * step; t <= end; t += step) {
            all.append(Tick{t, x(t), QString()});
            precision.append(step);
        }
        a = b + 1;
    }
    QList<int> order(all.size());
    for (int i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&all](int l, int r) { return all[l].x < all[r].x; });
    QList<Tick> kept;
    qint64 finest = step;
    for (const int i : std::as_const(order)) {
        if (!kept.isEmpty() && all[i].x - kept.last().x < minSpacingPx * 0.8)
            continue;
        kept.append(all[i]);
        finest = qMin(finest, precision[i]);
    }
    // One precision for the whole axis: "7.100 s" never stands next to "7.4 s".
    for (Tick &tick : kept)
        tick.label = timeline::formatAxisTime(tick.t, finest);
    return kept;
}

// ------------------------------------------------------------------ plans

namespace timeline {

namespace {

// The attempt numbers of an event (typed fields; 0 in files written before them).
struct PathKey
{
    int b = -1;
    int w = -1;
    int t = -1;
    bool ok = false;
};

PathKey attemptOf(const TraceEvent &e)
{
    PathKey k;
    k.b = e.business;
    k.w = e.wrapper;
    k.t = e.transport;
    k.ok = k.b > 0 && k.w > 0 && k.t > 0;
    return k;
}

bool sameAttempt(const PathKey &a, const PathKey &b, int layer)
{
    if (!a.ok || !b.ok)
        return true; // without attempt numbers the nearest closing event decides
    if (a.b != b.b)
        return false;
    if (layer >= 1 && a.w != b.w)
        return false;
    if (layer >= 2 && a.t != b.t)
        return false;
    return true;
}

// 0 business, 1 wrapper, 2 transport, -1 not an attempt start.
int attemptLayer(EventKind k)
{
    switch (k) {
    case EventKind::BusinessAttempt:
        return 0;
    case EventKind::WrapperAttempt:
        return 1;
    case EventKind::TransportAttempt:
        return 2;
    default:
        return -1;
    }
}

int laneLayer(Lane lane)
{
    switch (lane) {
    case Lane::Business:
        return 0;
    case Lane::Wrapper:
        return 1;
    case Lane::Transport:
        return 2;
    default:
        return -1;
    }
}

EventKind attemptKindOfLane(Lane lane)
{
    switch (lane) {
    case Lane::Wrapper:
        return EventKind::WrapperAttempt;
    case Lane::Transport:
        return EventKind::TransportAttempt;
    default:
        return EventKind::BusinessAttempt;
    }
}

Role laneRole(Lane lane)
{
    switch (lane) {
    case Lane::Business:
        return Role::Business;
    case Lane::Wrapper:
        return Role::Wrapper;
    case Lane::Transport:
        return Role::Transport;
    default:
        return Role::Server;
    }
}

// The words drawn on the timeline and its tooltips, in the translation context "TimelineLayout".
struct TimelineLayout
{
    Q_DECLARE_TR_FUNCTIONS(TimelineLayout)
};

QString statusText(int status)
{
    return status > 0 ? QString::number(status) : QString();
}

} // namespace

QSet<int> duplicateRecords(const RunResult &result)
{
    QSet<int> dups;
    if (!result.records.isEmpty()) {
        for (const RecordRow &r : result.records) {
            if (r.duplicate)
                dups.insert(r.id);
        }
        return dups;
    }
    // Without the records table, the first commit of an op is the original.
    QSet<int> seen;
    for (const TraceEvent &e : result.trace) {
        if (e.kind != EventKind::Committed)
            continue;
        if (seen.contains(e.op))
            dups.insert(e.record);
        seen.insert(e.op);
    }
    return dups;
}

namespace {

// One operation's events and the links between them, as plan indexes.
class PlanContext
{
public:
    PlanContext(const Trace &trace, int op, const QSet<int> &duplicates)
        : m_trace(trace), m_duplicates(duplicates)
    {
        for (int i = 0; i < trace.size(); ++i) {
            const TraceEvent &e = trace.at(i);
            if (!belongsTo(e, op))
                continue;
            if (e.id > 0)
                m_planOfId.insert(e.id, int(m_idx.size()));
            m_idx.append(i);
            m_twoSubmissions = m_twoSubmissions || e.sub > 1;
        }
        m_attemptOfPlan = QList<int>(size(), -1);
        for (int p = 0; p < size(); ++p) {
            const TraceEvent &e = ev(p);
            // A reset seen by the client is drawn from the reset on the wire, where it has one.
            if (e.kind == EventKind::ConnectionReset && e.lane == Lane::Network && e.answers > 0)
                m_resetOfAnswer.insert(e.answers, p);
            linkToAttempt(p);
        }
    }
    int size() const { return int(m_idx.size()); }
    int traceIndex(int p) const { return m_idx[p]; }
    const TraceEvent &ev(int p) const { return m_trace.at(m_idx[p]); }
    bool twoSubmissions() const { return m_twoSubmissions; }
    bool duplicate(int record) const { return m_duplicates.contains(record); }

    // The plan of the event `p` answers (trace.h), or for a file without links the latest earlier
    // event of the same submission and attempt path whose kind is in `kinds`.
    int origin(int p, std::initializer_list<EventKind> kinds) const
    {
        const TraceEvent &e = ev(p);
        if (e.answers > 0) {
            if (e.lane != Lane::Network && (e.kind == EventKind::ConnectionReset || e.kind == EventKind::LateResponse)) {
                const int reset = m_resetOfAnswer.value(e.answers, -1);
                if (reset >= 0 && reset < p)
                    return reset;
            }
            return m_planOfId.value(e.answers, -1);
        }
        for (int q = p - 1; q >= 0; --q) {
            const TraceEvent &o = ev(q);
            if (o.sub == e.sub && trace::samePath(o, e) && std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end())
                return q;
        }
        return -1;
    }
    // The next event of the same submission (and attempt path) whose kind is in `kinds`.
    int forward(int p, std::initializer_list<EventKind> kinds, bool samePath) const
    {
        const TraceEvent &e = ev(p);
        for (int q = p + 1; q < size(); ++q) {
            const TraceEvent &o = ev(q);
            if (o.sub != e.sub || (samePath && !trace::samePath(o, e)))
                continue;
            if (std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end())
                return q;
            if (!samePath && (o.kind == EventKind::OpSucceeded || o.kind == EventKind::OpFailed))
                return -1;
        }
        return -1;
    }
    // The plan of the attempt whose answers chain leads to `p` (its send, arrival, commit, answer),
    // -1 when none does.
    int attemptPlanOf(int p) const { return m_attemptOfPlan.value(p, -1); }
    // Where an attempt's bar ends: its last event before the next attempt of its layer or above;
    // and at least where its client got its answer or gave up, even after that next attempt started
    // (a check's retry sent before the first request's --timeout ran out; the in-flight probe's two
    // requests sent at once).
    qint64 attemptEnd(int p, int layer) const
    {
        return qMax(attemptEndInOrder(p, layer), m_linkedEnd.value(p, ev(p).t));
    }
    qint64 attemptEndInOrder(int p, int layer) const
    {
        const TraceEvent &e = ev(p);
        const PathKey k = attemptOf(e);
        qint64 end = e.t;
        for (int q = p + 1; q < size(); ++q) {
            const TraceEvent &f = ev(q);
            if (f.sub != e.sub)
                continue;
            const int startLayer = attemptLayer(f.kind);
            if (startLayer >= 0 && startLayer <= layer)
                break;
            if (f.kind == EventKind::OpSucceeded || f.kind == EventKind::OpFailed)
                return qMax(end, f.t);
            if (laneLayer(f.lane) < 0 || f.kind == EventKind::LateResponse || !sameAttempt(k, attemptOf(f), layer))
                continue;
            end = qMax(end, f.t);
            const bool closes = f.kind == EventKind::RetryScheduled || f.kind == EventKind::GaveUp
                                || f.kind == EventKind::BudgetExhausted;
            if (closes && laneLayer(f.lane) == layer)
                break;
        }
        return end;
    }
    // The layer that minted a key: typed, or for an old file the attempt that starts right before it.
    Lane keyLane(int p) const
    {
        const TraceEvent &e = ev(p);
        if (e.cause != TraceCause::None)
            return e.cause == TraceCause::PerWrapperAttempt ? Lane::Wrapper : Lane::Business;
        for (int q = p - 1; q >= 0; --q) {
            const TraceEvent &o = ev(q);
            if (o.sub != e.sub)
                continue;
            if (o.kind == EventKind::WrapperAttempt)
                return Lane::Wrapper;
            if (o.kind == EventKind::BusinessAttempt || o.kind == EventKind::OpStart || o.kind == EventKind::TransportAttempt)
                break;
        }
        return Lane::Business;
    }

private:
    // The attempt whose answers chain leads to `p` (its send, arrival, answer...). Its client's answer
    // or giving up (on the attempt's own lane) ends its bar no earlier than there.
    void linkToAttempt(int p)
    {
        const TraceEvent &e = ev(p);
        if (attemptLayer(e.kind) >= 0) {
            m_attemptOfPlan[p] = p;
            return;
        }
        const int from = e.answers > 0 ? m_planOfId.value(e.answers, -1) : -1;
        if (from < 0 || from >= p || m_attemptOfPlan[from] < 0)
            return;
        const int attempt = m_attemptOfPlan[from];
        m_attemptOfPlan[p] = attempt;
        const bool ends = e.kind == EventKind::Timeout || e.kind == EventKind::ResponseReceived
                          || e.kind == EventKind::ConnectionReset;
        if (ends && e.lane == ev(attempt).lane)
            m_linkedEnd[attempt] = qMax(m_linkedEnd.value(attempt, e.t), e.t);
    }

    const Trace &m_trace;
    const QSet<int> &m_duplicates;
    QList<int> m_idx;
    QHash<int, int> m_planOfId;
    QHash<int, int> m_resetOfAnswer; // ResponseSent id -> plan of the reset on the wire
    QHash<int, qint64> m_linkedEnd; // attempt plan -> when its client got its answer or gave up
    QList<int> m_attemptOfPlan;     // plan -> the attempt plan its answers chain leads to, or -1
    bool m_twoSubmissions = false;
};

void arrowFrom(const PlanContext &c, EventPlan &pl, int origin)
{
    pl.form = EventPlan::Form::Arrow;
    pl.originPlan = origin;
    if (origin >= 0) {
        pl.from = c.ev(origin).t;
        pl.originLane = c.ev(origin).lane;
    }
}

void setGlyph(EventPlan &pl, Glyph glyph, Role role, const QString &label = QString())
{
    pl.glyph = glyph;
    pl.role = role;
    pl.label = label;
}

// Client-side events: flags, keys, attempts, queries, waits and outcomes. False: not one of them.
bool planClient(const PlanContext &c, int p, EventPlan &pl)
{
    const TraceEvent &e = c.ev(p);
    switch (e.kind) {
    case EventKind::OpStart:
        // The first submission's flag needs no words (the caption names the order); a second one does.
        setGlyph(pl, Glyph::Flag, Role::Text, e.sub > 1 ? TimelineLayout::tr("2nd submit") : QString());
        return true;
    case EventKind::KeyMinted:
        // A key belongs to the layer that mints it: the business code, or the @retry wrapper.
        pl.lane = c.keyLane(p);
        setGlyph(pl, Glyph::Key, laneRole(pl.lane), e.key().left(10));
        return true;
    case EventKind::BusinessAttempt:
    case EventKind::WrapperAttempt:
    case EventKind::TransportAttempt: {
        const int layer = attemptLayer(e.kind);
        const int number = layer == 0 ? e.business : (layer == 1 ? e.wrapper : e.transport);
        pl.form = EventPlan::Form::Bar;
        pl.role = laneRole(e.lane);
        pl.label = QStringLiteral("%1%2").arg(QLatin1Char("bwt"[layer])).arg(number > 0 ? number : 1);
        pl.to = c.attemptEnd(p, layer);
        return true;
    }
    case EventKind::QuerySent:
        setGlyph(pl, Glyph::Query, Role::Business);
        pl.query = true; // the "?" glyph, the caption and the server's "GET ?ref=" label say it
        return true;
    case EventKind::ConnectFailed:
        setGlyph(pl, Glyph::Cross, Role::Fault, TimelineLayout::tr("refused"));
        return true;
    case EventKind::CircuitOpen:
        setGlyph(pl, Glyph::Square, Role::Rejection, TimelineLayout::tr("circuit open"));
        return true;
    case EventKind::Timeout:
        setGlyph(pl, Glyph::Triangle, Role::Fault, TimelineLayout::tr("timeout"));
        return true;
    case EventKind::RetryScheduled: {
        pl.form = EventPlan::Form::Wait;
        pl.role = laneRole(e.lane);
        const int q = c.forward(p, {attemptKindOfLane(e.lane)}, false);
        if (q >= 0)
            pl.to = c.ev(q).t;
        pl.label = pl.to > pl.t ? TimelineLayout::tr("wait %1").arg(formatDuration(pl.to - pl.t)) : TimelineLayout::tr("retry");
        return true;
    }
    case EventKind::GaveUp:
        setGlyph(pl, Glyph::Stop, Role::Fault, TimelineLayout::tr("gave up"));
        return true;
    case EventKind::BudgetExhausted:
        setGlyph(pl, Glyph::Square, Role::Rejection, TimelineLayout::tr("no budget"));
        return true;
    case EventKind::BreakerChanged: // opened: the rejection colour; half-open: accent; closed: ok
        setGlyph(pl, Glyph::Dot, e.cause == TraceCause::BreakerOpened ? Role::Rejection
                     : e.cause == TraceCause::BreakerHalfOpen ? Role::Accent : Role::Ok);
        return true;
    case EventKind::OpSucceeded:
        setGlyph(pl, Glyph::Check, Role::Ok, TimelineLayout::tr("success"));
        return true;
    case EventKind::OpFailed:
        setGlyph(pl, Glyph::Stop, Role::Duplicate, TimelineLayout::tr("failed"));
        return true;
    default:
        return false;
    }
}

// Messages on the wire: each drawn from the event it answers. False: not one of them.
bool planMessage(const PlanContext &c, int p, EventPlan &pl)
{
    const TraceEvent &e = c.ev(p);
    switch (e.kind) {
    case EventKind::QueryResult:
        arrowFrom(c, pl, c.origin(p, {EventKind::ResponseSent}));
        pl.query = true;
        // What the client concludes, not only what it heard.
        if (e.status == 200)
            setGlyph(pl, Glyph::Arrow, Role::Ok, TimelineLayout::tr("200 found \u2192 no resend"));
        else if (e.status == 404)
            setGlyph(pl, Glyph::Arrow, Role::Business, TimelineLayout::tr("404 not found \u2192 resend"));
        else
            setGlyph(pl, Glyph::Arrow, Role::Business, TimelineLayout::tr("%1: still unknown").arg(statusText(e.status)));
        return true;
    case EventKind::RequestLost:
    case EventKind::RequestDelayed:
        arrowFrom(c, pl, c.origin(p, {EventKind::TransportAttempt, EventKind::QuerySent}));
        pl.broken = true;
        if (e.kind == EventKind::RequestLost)
            setGlyph(pl, Glyph::Cross, Role::Fault, TimelineLayout::tr("lost"));
        else
            setGlyph(pl, Glyph::Triangle, Role::Fault, TimelineLayout::tr("delayed"));
        return true;
    case EventKind::RequestArrived:
        arrowFrom(c, pl, c.origin(p, {EventKind::RequestDelayed, EventKind::TransportAttempt, EventKind::QuerySent}));
        setGlyph(pl, Glyph::Arrow, Role::Text);
        if (e.method == TraceMethod::GetOrder) {
            pl.query = true;
            pl.role = Role::Business;
            const QString ref = e.ref().isEmpty() ? QStringLiteral("ORD-%1").arg(e.op, 4, 10, QLatin1Char('0')) : e.ref();
            pl.label = QStringLiteral("GET ?ref=%1").arg(ref);
        }
        return true;
    case EventKind::ResponseLost:
    case EventKind::ConnectionReset:
        arrowFrom(c, pl, c.origin(p, {EventKind::ConnectionReset, EventKind::ResponseSent}));
        pl.broken = true;
        setGlyph(pl, Glyph::Cross, Role::Fault,
                 e.kind == EventKind::ResponseLost ? TimelineLayout::tr("lost") : TimelineLayout::tr("reset"));
        return true;
    case EventKind::ResponseReceived:
        arrowFrom(c, pl, c.origin(p, {EventKind::ResponseSent}));
        setGlyph(pl, Glyph::Arrow, (e.status >= 200 && e.status < 300) ? Role::Ok : Role::Rejection, statusText(e.status));
        return true;
    case EventKind::LateResponse:
        arrowFrom(c, pl, c.origin(p, {EventKind::ConnectionReset, EventKind::ResponseSent}));
        pl.broken = true;
        setGlyph(pl, Glyph::Arrow, Role::Muted, TimelineLayout::tr("late %1").arg(statusText(e.status)).trimmed());
        return true;
    default:
        return false;
    }
}

// The server's and the database's events.
void planServer(const PlanContext &c, int p, EventPlan &pl)
{
    const TraceEvent &e = c.ev(p);
    switch (e.kind) {
    case EventKind::TokenIssued:
        return setGlyph(pl, Glyph::Key, Role::Server, TimelineLayout::tr("token"));
    case EventKind::Queued: {
        pl.form = EventPlan::Form::Bar;
        pl.dashed = true;
        setGlyph(pl, Glyph::None, Role::Server, TimelineLayout::tr("queued"));
        const int q = c.forward(p, {EventKind::ProcessingStarted, EventKind::Rejected}, true);
        if (q >= 0)
            pl.to = c.ev(q).t;
        return;
    }
    case EventKind::Rejected:
    case EventKind::ServerError:
        return setGlyph(pl, Glyph::Square, Role::Rejection, statusText(e.status));
    case EventKind::ProcessingStarted: {
        pl.form = EventPlan::Form::Bar;
        setGlyph(pl, Glyph::None, Role::Server, TimelineLayout::tr("processing"));
        const int q = c.forward(p, {EventKind::ResponseSent, EventKind::ResponseLost, EventKind::ConnectionReset,
                                    EventKind::ServerRestarted}, true);
        if (q >= 0)
            pl.to = c.ev(q).t;
        return;
    }
    case EventKind::ServerRestarted:
        return setGlyph(pl, Glyph::Cross, Role::Fault,
                        e.record > 0 ? TimelineLayout::tr("#%1, then restart").arg(e.record) : TimelineLayout::tr("restart: dropped"));
    case EventKind::KeyReserved:
        return setGlyph(pl, Glyph::Key, Role::Server, TimelineLayout::tr("reserved"));
    case EventKind::RowRead:
        return setGlyph(pl, Glyph::Query, Role::Server,
                        TimelineLayout::tr("read v%1").arg(e.cause == TraceCause::RowVersion ? QString::number(e.arg2) : QString()));
    case EventKind::VersionConflict:
        return setGlyph(pl, Glyph::Square, Role::Rejection, TimelineLayout::tr("409 stale"));
    case EventKind::KeyExpired:
        return setGlyph(pl, Glyph::Key, Role::Fault, TimelineLayout::tr("expired"));
    case EventKind::Committed: {
        const bool dup = c.duplicate(e.record);
        return setGlyph(pl, Glyph::Circle, dup ? Role::Duplicate : Role::Ok,
                        dup ? TimelineLayout::tr("#%1 duplicate").arg(e.record) : QStringLiteral("#%1").arg(e.record));
    }
    case EventKind::Replayed:
        return setGlyph(pl, Glyph::Diamond, Role::Ok, TimelineLayout::tr("replay"));
    case EventKind::ResponseSent:
        return setGlyph(pl, Glyph::Dot, Role::Text);
    case EventKind::ReconcileFlagged:
        return setGlyph(pl, Glyph::Flag, Role::Fault, TimelineLayout::tr("flag #%1").arg(e.record));
    case EventKind::ReconcileVoided:
        return setGlyph(pl, Glyph::Cross, Role::Muted, TimelineLayout::tr("void #%1").arg(e.record));
    default:
        return;
    }
}

bool movable(const EventPlan &pl)
{
    return pl.form == EventPlan::Form::Marker || (pl.form == EventPlan::Form::Arrow && pl.glyph != Glyph::Arrow);
}

// A glyph's instant: the first time of the glyphs of its lane and slot less than OneInstantUs
// before it (counted from that first one, so an instant never drifts). Bars and arrowheads keep t.
void assignInstants(QList<EventPlan> &plans)
{
    QMap<std::pair<int, int>, QList<int>> glyphs;
    for (int p = 0; p < plans.size(); ++p) {
        plans[p].instant = plans[p].t;
        if (movable(plans[p]))
            glyphs[std::make_pair(int(plans[p].lane), plans[p].slot)].append(p);
    }
    for (QList<int> &g : glyphs) {
        std::stable_sort(g.begin(), g.end(), [&](int a, int b) { return plans[a].t < plans[b].t; });
        qint64 first = std::numeric_limits<qint64>::min();
        for (const int p : std::as_const(g)) {
            if (first == std::numeric_limits<qint64>::min() || plans[p].t - first >= OneInstantUs)
                first = plans[p].t;
            plans[p].instant = first;
        }
    }
}

// Glyphs that share lane, slot and instant are spread sideways; arrowheads and bars keep the exact time.
void dodge(QList<EventPlan> &plans)
{
    const int n = int(plans.size());
    assignInstants(plans);
    QMap<std::tuple<int, int, qint64>, QList<int>> groups;
    for (int p = 0; p < n; ++p)
        groups[std::make_tuple(int(plans[p].lane), plans[p].slot, plans[p].instant)].append(p);
    for (const QList<int> &g : std::as_const(groups)) {
        if (g.size() < 2)
            continue;
        int bar = -1;
        bool fixedHead = false;
        for (const int p : g) {
            const EventPlan &pl = plans[p];
            if (pl.form == EventPlan::Form::Bar && bar < 0)
                bar = p;
            if (pl.form == EventPlan::Form::Arrow && pl.glyph == Glyph::Arrow)
                fixedHead = true;
        }
        QList<int> before, after;
        for (const int p : g) {
            if (!movable(plans[p]))
                continue;
            if (bar >= 0 && p < bar)
                before.append(p);
            else
                after.append(p);
        }
        for (int i = 0; i < before.size(); ++i)
            plans[before[i]].dodge = -(before.size() - i);
        const int first = (bar >= 0 || fixedHead) ? 1 : 0;
        for (int i = 0; i < after.size(); ++i)
            plans[after[i]].dodge = first + i;
    }
}

// Attempts of one lane in flight at once (the in-flight probe's requests sent together, a retry sent
// before the first request's timeout) are drawn in the lane's two halves, each with its messages,
// server work and records, as a double submit's two submissions are: in one row the later bar hid
// the earlier one.
void separateConcurrentAttempts(const PlanContext &c, QList<EventPlan> &plans)
{
    if (c.twoSubmissions())
        return;
    QHash<int, int> slotOfAttempt;
    QHash<int, int> lastBarOfLane;
    for (int p = 0; p < plans.size(); ++p) {
        const EventPlan &pl = plans.at(p);
        if (pl.form != EventPlan::Form::Bar || attemptLayer(c.ev(p).kind) < 0)
            continue;
        const int previous = lastBarOfLane.value(int(pl.lane), -1);
        lastBarOfLane.insert(int(pl.lane), p);
        if (previous < 0 || plans.at(previous).to <= pl.t)
            continue;
        const int before = slotOfAttempt.value(previous, -1);
        slotOfAttempt.insert(previous, before);
        slotOfAttempt.insert(p, -before);
    }
    if (slotOfAttempt.isEmpty())
        return;
    for (int p = 0; p < plans.size(); ++p) {
        const int attempt = c.attemptPlanOf(p);
        if (attempt >= 0)
            plans[p].slot = slotOfAttempt.value(attempt, 0);
    }
}

} // namespace

QList<EventPlan> planOperation(const Trace &trace, int op, const QSet<int> &duplicates)
{
    const PlanContext c(trace, op, duplicates);
    QList<EventPlan> plans(c.size());
    for (int p = 0; p < c.size(); ++p) {
        const TraceEvent &e = c.ev(p);
        EventPlan &pl = plans[p];
        pl.traceIndex = c.traceIndex(p);
        pl.lane = e.lane;
        pl.slot = c.twoSubmissions() ? (e.sub > 1 ? 1 : -1) : 0;
        pl.t = pl.from = pl.to = e.t;
        pl.role = Role::Text;
        if (!planClient(c, p, pl) && !planMessage(c, p, pl))
            planServer(c, p, pl);
    }
    separateConcurrentAttempts(c, plans);
    dodge(plans);
    return plans;
}

void StoryClock::setTimes(const QList<qint64> &times)
{
    m_times = times;
    m_story.clear();
    m_story.reserve(times.size());
    double u = 0;
    for (int i = 0; i < times.size(); ++i) {
        if (i > 0)
            u += qBound(MinStepMs, (times[i] - times[i - 1]) / 1000.0, MaxStepMs);
        m_story.append(u);
    }
}

double StoryClock::storyAt(qint64 t) const
{
    if (m_times.isEmpty() || t <= m_times.first())
        return 0;
    if (t >= m_times.last())
        return length();
    const int i = int(std::upper_bound(m_times.cbegin(), m_times.cend(), t) - m_times.cbegin()) - 1;
    const double f = double(t - m_times[i]) / double(m_times[i + 1] - m_times[i]);
    return m_story[i] + f * (m_story[i + 1] - m_story[i]);
}

qint64 StoryClock::timeAt(double u) const
{
    if (m_times.isEmpty())
        return 0;
    if (u <= 0)
        return m_times.first();
    if (u >= length())
        return m_times.last();
    const int i = int(std::upper_bound(m_story.cbegin(), m_story.cend(), u) - m_story.cbegin()) - 1;
    const double span = m_story[i + 1] - m_story[i];
    const double f = span > 0 ? (u - m_story[i]) / span : 0;
    return m_times[i] + qint64(std::llround(f * double(m_times[i + 1] - m_times[i])));
}

QString joinSentences(const QString &first, const QString &second)
{
    if (first.isEmpty() || second.isEmpty())
        return first + second;
    const QChar last = first.back();
    const bool fullWidth = last.unicode() >= 0x3000 && last.unicode() <= 0x303F; // CJK punctuation
    return fullWidth || last.unicode() >= 0xFF00 ? first + second : first + QLatin1Char(' ') + second;
}

QString narration(const TraceEvent &e)
{
    const QString s = trace::narrate(e);
    if (!s.isEmpty())
        return s;
    const QString kind = trace::kindName(e.kind);
    const QString detail = e.detail();
    return detail.isEmpty() ? kind : QStringLiteral("%1: %2").arg(kind, detail);
}

QString details(const TraceEvent &e)
{
    QStringList lines;
    // Words from the typed fields only: the kind's and lane's export names and the English detail
    // would put English fragments into a Chinese window.
    static const char *const laneNames[] = {
        QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Business"), QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Wrapper"),
        QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Transport"), QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Network"),
        QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Server"), QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Database")};
    lines << narration(e);
    lines << TimelineLayout::tr("Time %1, %2 lane")
                 .arg(formatAxisTime(e.t, 1),
                      QCoreApplication::translate("retrylab::TimelineScene", laneNames[int(e.lane)]));
    const QString path = e.path();
    const QString requestId = e.requestId();
    const QString key = e.key();
    if (!path.isEmpty())
        lines << TimelineLayout::tr("Attempt path: %1").arg(path);
    if (!requestId.isEmpty())
        lines << TimelineLayout::tr("Request ID: %1").arg(requestId);
    lines << TimelineLayout::tr("Idempotency key: %1").arg(key.isEmpty() ? TimelineLayout::tr("none") : key);
    if (e.status > 0)
        lines << TimelineLayout::tr("Status: %1").arg(e.status);
    if (e.record > 0)
        lines << TimelineLayout::tr("Record: #%1").arg(e.record);
    return lines.join(QLatin1Char('\n'));
}

int captionPriority(EventKind kind)
{
    switch (kind) {
    case EventKind::ResponseLost:
    case EventKind::ConnectionReset:
    case EventKind::ServerRestarted:
        return 11; // says "committed, but..." which is the whole lesson
    case EventKind::Committed:
    case EventKind::Replayed:
    case EventKind::ReconcileFlagged:
    case EventKind::ReconcileVoided:
        return 10;
    case EventKind::RequestLost:
    case EventKind::Rejected:
    case EventKind::ServerError:
    case EventKind::KeyExpired:
    case EventKind::VersionConflict:
        return 9;
    case EventKind::Timeout:
    case EventKind::LateResponse:
    case EventKind::ConnectFailed:
    case EventKind::CircuitOpen:
    case EventKind::RequestDelayed:
    case EventKind::BudgetExhausted:
    case EventKind::BreakerChanged:
        return 8;
    case EventKind::OpFailed:
    case EventKind::OpSucceeded:
    case EventKind::QueryResult:
        return 7;
    case EventKind::OpStart:
        return 6;
    case EventKind::ResponseReceived:
    case EventKind::RetryScheduled:
    case EventKind::GaveUp:
        return 5;
    case EventKind::QuerySent:
    case EventKind::KeyMinted:
    case EventKind::TokenIssued:
    case EventKind::KeyReserved:
    case EventKind::RowRead:
        return 4;
    case EventKind::RequestArrived:
    case EventKind::Queued:
        return 3;
    case EventKind::BusinessAttempt:
    case EventKind::WrapperAttempt:
        return 2;
    case EventKind::TransportAttempt:
        return 3;
    case EventKind::ProcessingStarted:
    case EventKind::ResponseSent:
        return 1;
    }
    return 0;
}

} // namespace timeline
} // namespace retrylab
