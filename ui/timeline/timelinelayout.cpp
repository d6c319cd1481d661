#include "timeline/timelinelayout.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QStringList>

#include <algorithm>
#include <cmath>

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

struct PathKey
{
    int b = -1;
    int w = -1;
    int t = -1;
    bool ok = false;
};

int segmentNumber(const QString &segment, QChar prefix)
{
    if (segment.size() < 2 || segment.at(0) != prefix)
        return -1;
    bool ok = false;
    const int n = QStringView(segment).mid(1).toInt(&ok);
    return ok ? n : -1;
}

PathKey parsePath(const QString &path)
{
    PathKey k;
    const QStringList parts = path.split(QLatin1Char('/'));
    if (parts.size() < 4)
        return k;
    k.b = segmentNumber(parts.at(1), QLatin1Char('b'));
    k.w = segmentNumber(parts.at(2), QLatin1Char('w'));
    k.t = segmentNumber(parts.at(3), QLatin1Char('t'));
    k.ok = k.b >= 0 && k.w >= 0 && k.t >= 0;
    return k;
}

bool sameAttempt(const PathKey &a, const PathKey &b, int layer)
{
    if (!a.ok || !b.ok)
        return true; // without parseable paths the nearest closing event decides
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

QList<EventPlan> planOperation(const Trace &trace, int op, const QSet<int> &duplicates)
{
    QList<int> idx;
    bool twoSubmissions = false;
    for (int i = 0; i < trace.size(); ++i) {
        if (belongsTo(trace.at(i), op)) {
            idx.append(i);
            twoSubmissions = twoSubmissions || trace.at(i).sub > 1;
        }
    }
    const int n = idx.size();
    QList<PathKey> keys;
    keys.reserve(n);
    for (int p = 0; p < n; ++p)
        keys.append(parsePath(trace.at(idx[p]).path));

    auto ev = [&](int p) -> const TraceEvent & { return trace.at(idx[p]); };
    // The latest earlier event of the same submission and attempt path whose kind is in `kinds`.
    auto findOrigin = [&](int p, std::initializer_list<EventKind> kinds) {
        const TraceEvent &e = ev(p);
        for (int q = p - 1; q >= 0; --q) {
            const TraceEvent &o = ev(q);
            if (o.sub != e.sub || o.path != e.path)
                continue;
            if (std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end())
                return q;
        }
        return -1;
    };
    auto findForward = [&](int p, std::initializer_list<EventKind> kinds, bool samePath) {
        const TraceEvent &e = ev(p);
        for (int q = p + 1; q < n; ++q) {
            const TraceEvent &o = ev(q);
            if (o.sub != e.sub || (samePath && o.path != e.path))
                continue;
            if (std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end())
                return q;
            if (!samePath && (o.kind == EventKind::OpSucceeded || o.kind == EventKind::OpFailed))
                return -1;
        }
        return -1;
    };

    QList<EventPlan> plans(n);
    for (int p = 0; p < n; ++p) {
        const TraceEvent &e = ev(p);
        EventPlan &pl = plans[p];
        pl.traceIndex = idx[p];
        pl.lane = e.lane;
        pl.slot = twoSubmissions ? (e.sub > 1 ? 1 : -1) : 0;
        pl.t = pl.from = pl.to = e.t;
        pl.role = Role::Text;
        auto arrowFrom = [&](int origin) {
            pl.form = EventPlan::Form::Arrow;
            pl.originPlan = origin;
            if (origin >= 0) {
                pl.from = ev(origin).t;
                pl.originLane = ev(origin).lane;
            }
        };
        switch (e.kind) {
        case EventKind::OpStart:
            pl.glyph = Glyph::Flag;
            // The first submission's flag needs no words (the caption names the order); a second one does.
            if (e.sub > 1)
                pl.label = TimelineLayout::tr("2nd submit");
            break;
        case EventKind::KeyMinted: {
            // A key belongs to the layer that mints it: per operation and per business attempt the
            // business code, per wrapper attempt the @retry wrapper. The trace says which by the
            // attempt (or operation) that starts right before the key.
            pl.lane = Lane::Business;
            for (int q = p - 1; q >= 0; --q) {
                const TraceEvent &o = ev(q);
                if (o.sub != e.sub)
                    continue;
                if (o.kind == EventKind::WrapperAttempt) {
                    pl.lane = Lane::Wrapper;
                    break;
                }
                if (o.kind == EventKind::BusinessAttempt || o.kind == EventKind::OpStart
                    || o.kind == EventKind::TransportAttempt)
                    break;
            }
            pl.glyph = Glyph::Key;
            pl.role = laneRole(pl.lane);
            pl.label = e.key.left(10);
            break;
        }
        case EventKind::TokenIssued:
            pl.glyph = Glyph::Key;
            pl.role = Role::Server;
            pl.label = TimelineLayout::tr("token");
            break;
        case EventKind::BusinessAttempt:
        case EventKind::WrapperAttempt:
        case EventKind::TransportAttempt: {
            const int layer = attemptLayer(e.kind);
            pl.form = EventPlan::Form::Bar;
            pl.role = laneRole(e.lane);
            const PathKey &k = keys[p];
            const int number = layer == 0 ? k.b : (layer == 1 ? k.w : k.t);
            pl.label = QStringLiteral("%1%2").arg(QLatin1Char("bwt"[layer])).arg(number > 0 ? number : 1);
            qint64 end = e.t;
            for (int q = p + 1; q < n; ++q) {
                const TraceEvent &f = ev(q);
                if (f.sub != e.sub)
                    continue;
                const int startLayer = attemptLayer(f.kind);
                if (startLayer >= 0 && startLayer <= layer)
                    break;
                if (f.kind == EventKind::OpSucceeded || f.kind == EventKind::OpFailed) {
                    end = qMax(end, f.t);
                    break;
                }
                if (laneLayer(f.lane) < 0 || f.kind == EventKind::LateResponse || !sameAttempt(k, keys[q], layer))
                    continue;
                end = qMax(end, f.t);
                const bool closes = f.kind == EventKind::RetryScheduled || f.kind == EventKind::GaveUp
                                    || f.kind == EventKind::BudgetExhausted;
                if (closes && laneLayer(f.lane) == layer)
                    break;
            }
            pl.to = end;
            break;
        }
        case EventKind::QuerySent:
            pl.glyph = Glyph::Query;
            pl.role = Role::Business;
            pl.query = true; // the "?" glyph, the caption and the server's "GET ?ref=" label say it
            break;
        case EventKind::QueryResult:
            arrowFrom(findOrigin(p, {EventKind::ResponseSent}));
            pl.glyph = Glyph::Arrow;
            pl.query = true;
            pl.role = e.status == 200 ? Role::Ok : Role::Business;
            // What the client concludes, not only what it heard.
            if (e.status == 200)
                pl.label = TimelineLayout::tr("200 found \u2192 no resend");
            else if (e.status == 404)
                pl.label = TimelineLayout::tr("404 not found \u2192 resend");
            else
                pl.label = TimelineLayout::tr("%1: still unknown").arg(statusText(e.status));
            break;
        case EventKind::ConnectFailed:
            pl.glyph = Glyph::Cross;
            pl.role = Role::Fault;
            pl.label = TimelineLayout::tr("refused");
            break;
        case EventKind::CircuitOpen:
            pl.glyph = Glyph::Square;
            pl.role = Role::Rejection;
            pl.label = TimelineLayout::tr("circuit open");
            break;
        case EventKind::RequestLost:
            arrowFrom(findOrigin(p, {EventKind::TransportAttempt, EventKind::QuerySent}));
            pl.glyph = Glyph::Cross;
            pl.role = Role::Fault;
            pl.broken = true;
            pl.label = TimelineLayout::tr("lost");
            break;
        case EventKind::RequestDelayed:
            arrowFrom(findOrigin(p, {EventKind::TransportAttempt, EventKind::QuerySent}));
            pl.glyph = Glyph::Triangle;
            pl.role = Role::Fault;
            pl.broken = true;
            pl.label = TimelineLayout::tr("delayed");
            break;
        case EventKind::RequestArrived:
            arrowFrom(findOrigin(p, {EventKind::RequestDelayed, EventKind::TransportAttempt, EventKind::QuerySent}));
            pl.glyph = Glyph::Arrow;
            pl.role = Role::Text;
            if (e.detail.startsWith(QLatin1String("GET"))) {
                pl.query = true;
                pl.role = Role::Business;
                const int ref = e.detail.indexOf(QLatin1String("ref="));
                pl.label = ref >= 0 ? QStringLiteral("GET ?%1").arg(e.detail.mid(ref)) : QStringLiteral("GET");
            }
            break;
        case EventKind::Queued: {
            pl.form = EventPlan::Form::Bar;
            pl.dashed = true;
            pl.role = Role::Server;
            pl.label = TimelineLayout::tr("queued");
            const int q = findForward(p, {EventKind::ProcessingStarted, EventKind::Rejected}, true);
            if (q >= 0)
                pl.to = ev(q).t;
            break;
        }
        case EventKind::Rejected:
        case EventKind::ServerError:
            pl.glyph = Glyph::Square;
            pl.role = Role::Rejection;
            pl.label = statusText(e.status);
            break;
        case EventKind::ProcessingStarted: {
            pl.form = EventPlan::Form::Bar;
            pl.role = Role::Server;
            pl.label = TimelineLayout::tr("processing");
            const int q = findForward(p, {EventKind::ResponseSent, EventKind::ResponseLost, EventKind::ConnectionReset,
                                          EventKind::ServerRestarted},
                                      true);
            if (q >= 0)
                pl.to = ev(q).t;
            break;
        }
        case EventKind::ServerRestarted:
            pl.glyph = Glyph::Cross;
            pl.role = Role::Fault;
            pl.label = e.record > 0 ? TimelineLayout::tr("#%1, then restart").arg(e.record) : TimelineLayout::tr("restart: dropped");
            break;
        case EventKind::KeyReserved:
            pl.glyph = Glyph::Key;
            pl.role = Role::Server;
            pl.label = TimelineLayout::tr("reserved");
            break;
        case EventKind::RowRead: {
            // "row 1: version 17" -> "read v17"
            pl.glyph = Glyph::Query;
            pl.role = Role::Server;
            const int v = e.detail.lastIndexOf(QLatin1Char(' '));
            pl.label = TimelineLayout::tr("read v%1").arg(v >= 0 ? e.detail.mid(v + 1) : QString());
            break;
        }
        case EventKind::VersionConflict:
            pl.glyph = Glyph::Square;
            pl.role = Role::Rejection;
            pl.label = TimelineLayout::tr("409 stale");
            break;
        case EventKind::KeyExpired:
            pl.glyph = Glyph::Key;
            pl.role = Role::Fault;
            pl.label = TimelineLayout::tr("expired");
            break;
        case EventKind::Committed: {
            const bool dup = duplicates.contains(e.record);
            pl.glyph = Glyph::Circle;
            pl.role = dup ? Role::Duplicate : Role::Ok;
            pl.label = dup ? TimelineLayout::tr("#%1 duplicate").arg(e.record) : QStringLiteral("#%1").arg(e.record);
            break;
        }
        case EventKind::Replayed:
            pl.glyph = Glyph::Diamond;
            pl.role = Role::Ok;
            pl.label = TimelineLayout::tr("replay");
            break;
        case EventKind::ResponseSent:
            pl.glyph = Glyph::Dot;
            pl.role = Role::Text;
            break;
        case EventKind::ResponseLost:
            arrowFrom(findOrigin(p, {EventKind::ResponseSent}));
            pl.glyph = Glyph::Cross;
            pl.role = Role::Fault;
            pl.broken = true;
            pl.label = TimelineLayout::tr("lost");
            break;
        case EventKind::ConnectionReset:
            arrowFrom(findOrigin(p, {EventKind::ConnectionReset, EventKind::ResponseSent}));
            pl.glyph = Glyph::Cross;
            pl.role = Role::Fault;
            pl.broken = true;
            pl.label = TimelineLayout::tr("reset");
            break;
        case EventKind::ResponseReceived:
            arrowFrom(findOrigin(p, {EventKind::ResponseSent}));
            pl.glyph = Glyph::Arrow;
            pl.role = (e.status >= 200 && e.status < 300) ? Role::Ok : Role::Rejection;
            pl.label = statusText(e.status);
            break;
        case EventKind::LateResponse:
            arrowFrom(findOrigin(p, {EventKind::ConnectionReset, EventKind::ResponseSent}));
            pl.glyph = Glyph::Arrow;
            pl.role = Role::Muted;
            pl.broken = true;
            pl.label = TimelineLayout::tr("late %1").arg(statusText(e.status)).trimmed();
            break;
        case EventKind::Timeout:
            pl.glyph = Glyph::Triangle;
            pl.role = Role::Fault;
            pl.label = TimelineLayout::tr("timeout");
            break;
        case EventKind::RetryScheduled: {
            pl.form = EventPlan::Form::Wait;
            pl.role = laneRole(e.lane);
            const int q = findForward(p, {attemptKindOfLane(e.lane)}, false);
            if (q >= 0)
                pl.to = ev(q).t;
            pl.label = pl.to > pl.t ? TimelineLayout::tr("wait %1").arg(formatDuration(pl.to - pl.t)) : TimelineLayout::tr("retry");
            break;
        }
        case EventKind::GaveUp:
            pl.glyph = Glyph::Stop;
            pl.role = Role::Fault;
            pl.label = TimelineLayout::tr("gave up");
            break;
        case EventKind::BudgetExhausted:
            pl.glyph = Glyph::Square;
            pl.role = Role::Rejection;
            pl.label = TimelineLayout::tr("no budget");
            break;
        case EventKind::OpSucceeded:
            pl.glyph = Glyph::Check;
            pl.role = Role::Ok;
            pl.label = TimelineLayout::tr("success");
            break;
        case EventKind::OpFailed:
            pl.glyph = Glyph::Stop;
            pl.role = Role::Duplicate;
            pl.label = TimelineLayout::tr("failed");
            break;
        case EventKind::ReconcileFlagged:
            pl.glyph = Glyph::Flag;
            pl.role = Role::Fault;
            pl.label = TimelineLayout::tr("flag #%1").arg(e.record);
            break;
        case EventKind::ReconcileVoided:
            pl.glyph = Glyph::Cross;
            pl.role = Role::Muted;
            pl.label = TimelineLayout::tr("void #%1").arg(e.record);
            break;
        }
    }

    // Glyphs that share lane, slot and instant are spread sideways; arrowheads and bars keep the exact time.
    QMap<std::tuple<int, int, qint64>, QList<int>> groups;
    for (int p = 0; p < n; ++p)
        groups[std::make_tuple(int(plans[p].lane), plans[p].slot, plans[p].t)].append(p);
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
            const EventPlan &pl = plans[p];
            const bool movable = pl.form == EventPlan::Form::Marker
                                 || (pl.form == EventPlan::Form::Arrow && pl.glyph != Glyph::Arrow);
            if (!movable)
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
    return e.detail.isEmpty() ? kind : QStringLiteral("%1: %2").arg(kind, e.detail);
}

QString details(const TraceEvent &e)
{
    QStringList lines;
    lines << TimelineLayout::tr("%1 at %2 (%3 lane)")
                 .arg(trace::kindName(e.kind), formatAxisTime(e.t, 1), trace::laneName(e.lane));
    if (!e.path.isEmpty())
        lines << TimelineLayout::tr("Attempt path: %1").arg(e.path);
    if (!e.requestId.isEmpty())
        lines << TimelineLayout::tr("Request ID: %1").arg(e.requestId);
    lines << TimelineLayout::tr("Idempotency key: %1").arg(e.key.isEmpty() ? TimelineLayout::tr("none") : e.key);
    if (e.status > 0)
        lines << TimelineLayout::tr("Status: %1").arg(e.status);
    if (e.record > 0)
        lines << TimelineLayout::tr("Record: #%1").arg(e.record);
    if (!e.detail.isEmpty())
        lines << TimelineLayout::tr("Detail: %1").arg(e.detail);
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
