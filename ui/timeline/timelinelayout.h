#pragma once

#include "simulator.h"
#include "timeline/timelinestyle.h"

#include <QList>
#include <QSet>
#include <QString>

namespace retrylab {

// Maps virtual time to scene x: linear inside bursts of activity, while long quiet
// gaps (timeouts, backoff waits) become labelled breaks of bounded width, so a
// 20 ms round trip and an 8 s wait both stay readable on one screen.
class TimeAxis
{
public:
    struct Tick
    {
        qint64 t = 0;
        qreal x = 0;
        QString label;
    };
    struct Break
    {
        qint64 t0 = 0;
        qint64 t1 = 0;
        qreal x0 = 0;
        qreal x1 = 0;
    };

    // `times` sorted and distinct; `pxPerMs` is the linear scale; gaps longer than `breakAfterUs`
    // become breaks of breakPx + breakPxPerDoubling * log2(gap / breakAfterUs) pixels.
    void build(const QList<qint64> &times, qreal pxPerMs, qint64 breakAfterUs, qreal breakPx, qreal breakPxPerDoubling);
    bool isEmpty() const { return m_t.isEmpty(); }
    qreal x(qint64 t) const;
    qint64 timeAt(qreal x) const;
    qreal width() const { return m_x.isEmpty() ? 0 : m_x.last(); }
    qint64 first() const { return m_t.isEmpty() ? 0 : m_t.first(); }
    qint64 last() const { return m_t.isEmpty() ? 0 : m_t.last(); }
    const QList<Break> &breaks() const { return m_breaks; }
    // Round-valued ticks inside the linear stretches, plus the start time of each burst.
    QList<Tick> ticks(qreal minSpacingPx) const;

private:
    QList<qint64> m_t;
    QList<qreal> m_x;
    QList<Break> m_breaks;
    QList<bool> m_brokenAfter; // gap after time i is a break
    qreal m_k = 0; // px per microsecond
};

// How one trace event is drawn; derived from the trace only (no domain rules).
struct EventPlan
{
    enum class Form { Bar, Arrow, Marker, Wait };

    int traceIndex = -1;
    Form form = Form::Marker;
    Lane lane = Lane::Business;
    int slot = 0;       // 0, or -1/+1 for the first/second submission of a double submit
    qint64 t = 0;       // the event time (anchor)
    qint64 from = 0;    // arrows: when the message left; else t
    qint64 to = 0;      // bars and waits: where they end; else t
    int originPlan = -1; // arrows: plan index of the origin event, -1 = none
    Lane originLane = Lane::Business;
    int dodge = 0;      // order among glyphs sharing lane, slot and instant
    qint64 instant = 0; // where the glyph is drawn: t, or the first time of the glyphs it shares an instant with
    bool broken = false; // arrows: lost/reset/late messages are dashed
    bool dashed = false; // bars: queued
    bool query = false;  // part of a status query (GET /orders?ref=): drawn in the business colour
    bool passThrough = false; // bars: an attempt of a layer that is off; drawn faint, without a name
    timeline::Glyph glyph = timeline::Glyph::None;
    timeline::Role role = timeline::Role::Text;
    QString label;

    // Inclusive time span during which the drawing changes with the playhead.
    qint64 spanStart() const { return qMin(from, t); }
    qint64 spanEnd() const { return qMax(to, t); }
};

namespace timeline {

// Glyphs closer in time than this share one instant and are spread sideways: at the timeline's
// greatest zoom (1.5 px per ms x 40, TimelineScene) two glyphs 14 px wide would still overlap.
// A check's requests sent at once are microseconds apart.
inline constexpr qint64 OneInstantUs = 250;

// Records that are not the first record of their business reference.
QSet<int> duplicateRecords(const RunResult &result);
// Plans for every trace event of operation `op`, in trace order.
QList<EventPlan> planOperation(const Trace &trace, int op, const QSet<int> &duplicates);
// True when the event belongs to the operation (what itemCount() counts).
inline bool belongsTo(const TraceEvent &e, int op) { return e.op == op; }
// The playback clock of a timeline: every distinct event time gets its moment, and the gap to the
// next plays for at least MinStepMs (a burst stays followable) and at most MaxStepMs (a quiet
// stretch passes), at 1x. Shared by a timeline and by compare mode's two timelines played as one.
class StoryClock
{
public:
    static constexpr double MinStepMs = 350;
    static constexpr double MaxStepMs = 1500;
    // `times` ascending and distinct.
    void setTimes(const QList<qint64> &times);
    const QList<qint64> &times() const { return m_times; }
    // Playback milliseconds of the whole run of times.
    double length() const { return m_story.isEmpty() ? 0 : m_story.last(); }
    // Playback milliseconds at virtual time t (clamped), and the other way round.
    double storyAt(qint64 t) const;
    qint64 timeAt(double u) const;

private:
    QList<qint64> m_times;
    QList<double> m_story; // playback milliseconds of each time
};

// Sentence for the caption: trace::narrate, or kind + detail when narration is empty.
QString narration(const TraceEvent &e);
// Two caption sentences as one text: a space after a Latin full stop, none after a Chinese one ("。").
QString joinSentences(const QString &first, const QString &second);
// Multi-line details for tooltips and the details label.
QString details(const TraceEvent &e);
// How telling an event is, to pick the caption among events at the same instant.
int captionPriority(EventKind kind);

} // namespace timeline

} // namespace retrylab
