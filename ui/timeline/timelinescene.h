#pragma once

#include <functional>

#include "timeline/timelinearrows.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinestyle.h"
#include "trace.h"

#include <QFont>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QHash>
#include <QLineF>
#include <QList>
#include <QPair>
#include <QSet>
#include <QStringList>

namespace retrylab {

class TimelineScene;

// One trace event on the timeline (a bar, an arrow, a glyph or a dashed wait), painted against the playhead.
class TimelineEventItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 71 };

    TimelineEventItem(TimelineScene *scene, int plan);
    int type() const override { return Type; }
    int planIndex() const { return m_plan; }
    int traceIndex() const;
    // Called by the scene's layout with item-local geometry (`curve`: an arrow's line, null for others).
    void setGeometry(qreal length, const timeline::ArrowCurve &curve, qreal halfHeight, qreal labelOffset);

    // Where its label is drawn, in scene coordinates; null when it has none (or it is left out).
    QRectF sceneLabelRect() const;
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;

private:
    const EventPlan &plan() const;
    QRectF labelRect() const;
    void paintBar(QPainter *p, const timeline::Colors &c, qreal solidUntil, bool started);
    void paintWait(QPainter *p, const timeline::Colors &c, qreal solidUntil, bool started);
    // Draws once faded and once clipped to the playhead: the part already played is solid.
    void paintUpTo(QPainter *p, qreal solidUntil, bool started, qreal halfExtent, const std::function<void()> &draw) const;
    void paintArrow(QPainter *p, const timeline::Colors &c, qreal solidUntil, bool arrived);
    void paintLabel(QPainter *p, const timeline::Colors &c, const QRectF &r, bool strong);

    TimelineScene *m_scene;
    int m_plan;
    qreal m_length = 0;
    timeline::ArrowCurve m_curve; // item coordinates: it ends at (0, 0)
    qreal m_half = 8;
    qreal m_labelOffset = 0;
    QRectF m_bounds;
};

// The swimlanes of one operation: one item per trace event, lanes, time axis and playhead.
class TimelineScene : public QGraphicsScene
{
    Q_OBJECT
public:
    static constexpr int kLaneCount = 6;
    static constexpr qreal kLabelWidth = 150;
    static constexpr qreal kAxisHeight = 44;
    static constexpr qreal kLeftPad = 56;
    static constexpr qreal kRightPad = 180;
    static constexpr qreal kGlyphRadius = 7;
    static constexpr qreal kDodge = 19;
    // A message's line keeps at least this far from any other message's arrowhead (bowed if it must).
    static constexpr qreal kArrowGap = 6;
    // The least gap between two tick labels on the axis.
    static constexpr qreal kTickGap = 10;
    static constexpr qreal kCompactLane = 0.55;
    // The smallest lane height (a used lane): its name, note and glyph labels still fit.
    static constexpr qreal kMinLaneHeight = 40;
    // The tallest: lanes fill the height they are given (a maximised window at a projector), up to this.
    static constexpr qreal kMaxLaneHeight = 180;
    // Bars grow with their lanes up to this half height (a 36 px bar holds a name in presentation mode).
    static constexpr qreal kMaxBarHalfHeight = 18;
    // Up to this many events, every event has its item; beyond, only those in or near the view do.
    static constexpr int kEagerLimit = 2000;
    static constexpr int kMaxLiveItems = 3000;
    // Big operations are not zoomed out beyond this many events per pixel of natural density
    // (the items would only pile up into a smear, and the window near the view would hold too many).
    static constexpr qreal kMaxEventsPerPx = 0.25;

    explicit TimelineScene(QObject *parent = nullptr);

    // Shows operation `op` of `trace`; `laneNotes` (one per lane) is the small print under each lane name.
    void setOperation(const Trace &trace, int op, const QSet<int> &duplicates, const QStringList &laneNotes,
                      const QList<bool> &laneEnabled);
    int operation() const { return m_op; }
    const QStringList &laneNotes() const { return m_laneNotes; }
    const Trace &trace() const { return m_trace; }
    const QList<EventPlan> &plans() const { return m_plans; }
    const TraceEvent &eventOf(int plan) const { return m_trace.at(m_plans.at(plan).traceIndex); }
    // Events of the operation (each drawn by one item while it is in or near the view).
    int eventItemCount() const { return int(m_plans.size()); }
    // Items that exist now: every event of an operation of up to kEagerLimit events, else only the events
    // drawn in or near the exposed range, at most kMaxLiveItems.
    int liveItemCount() const { return int(m_live.size()); }
    // Item geometry updates (setPos, setGeometry) since construction: a resize or zoom costs O(live items).
    qint64 geometryUpdates() const { return m_geometryUpdates; }
    // Labels and marks looked at to move labels off the playhead's line and inside the view's edges since
    // construction: a scroll or a playhead step costs O(labels near it), not O(events).
    qint64 labelLooks() const { return m_labelLooks; }
    // The item of a trace event of this operation, created if it is not live; null for other events.
    TimelineEventItem *itemForTrace(int traceIndex);
    // Scene rect an event's drawing occupies at the current layout (glyph or bar, without its label).
    QRectF anchorRect(int plan) const;
    // What an event's drawing covers that a label must not share: a bar's box or a glyph's disc, in scene
    // coordinates. Null for waits, pass-through layers and messages that end without a glyph.
    QRectF inkRect(int plan) const;
    // Where a bar's box is drawn, in scene coordinates: its ink, drawn a little short of each end when it
    // is long enough, so that two boxes one after the other in a lane (a queued request, then the next
    // request's processing: metastable at 13-14 s) do not touch. Null for other forms.
    QRectF drawnBox(int plan) const;
    static constexpr qreal kBarGap = 3;
    // An arrow's line in scene coordinates: from its origin's moment (the origin's time, not its
    // dodged glyph, so a message never runs leftwards) to its own anchor. Null for other forms.
    QLineF arrowLine(int plan) const;
    // The line an arrow is drawn along, in scene coordinates: arrowLine(), bowed when straight it would
    // run over another message's arrowhead (timeline::routeArrows). Null for other forms.
    timeline::ArrowCurve arrowCurve(int plan) const { return m_arrowCurves.value(plan); }
    // Where an event's drawing is anchored (its item's position), in scene coordinates.
    QPointF anchorOf(int plan) const;
    int planOfTrace(int traceIndex) const { return m_planOfTrace.value(traceIndex, -1); }
    // Distinct event times of the operation, ascending.
    const QList<qint64> &times() const { return m_times; }

    void setZoom(qreal zoom);
    qreal zoom() const { return m_zoom; }
    // The smallest zoom: 0.02, or more for operations with many events (see kMaxEventsPerPx).
    qreal minimumZoom() const;
    // The scene x range the view shows; items are kept for it and half its width on either side.
    // `shown`: a view on screen shows that range, and labels its edges would cut are moved or left out.
    void setExposedRange(qreal left, qreal right, bool shown = false);
    // Every event gets its item (export); the next setExposedRange() goes back to the window.
    void materializeAll();
    // Zoom at which the whole operation fits `width` scene pixels (the lane-name column excluded).
    // A pure function of the operation and `width`: it does not depend on the current zoom.
    qreal fitZoom(qreal width) const;
    // Width of the scene rect (lane-name column included) at `zoom`, and its height at lane height `laneH`.
    qreal sceneWidthAt(qreal zoom) const;
    qreal contentHeightAt(qreal laneH) const { return kAxisHeight + laneH * laneWeightSum() + 8; }
    void setLaneHeight(qreal h);
    // Lanes without events in this operation are drawn at reduced height.
    qreal laneHeight() const { return m_laneH; }
    qreal laneHeight(int lane) const { return m_laneH * laneWeight(lane); }
    qreal laneWeight(int lane) const { return m_laneUsed.value(lane, true) ? 1.0 : kCompactLane; }
    qreal laneWeightSum() const;
    qreal laneTop(int lane) const;
    qreal lanesBottom() const { return laneTop(kLaneCount); }
    qreal laneCenter(Lane lane, int slot) const;
    qreal barHalfHeight() const;
    // Whether a glyph's label goes below it (else above).
    bool labelBelow(int plan) const { return m_labelBelow.value(plan, false); }
    // A label that would overlap a more important one nearby at this zoom is left out (its details
    // stay one click away).
    bool labelHidden(int plan) const { return m_labelHidden.value(plan, false); }
    // Where a plan's label is drawn (scene coordinates) and what it says; null / empty when it shows
    // none. Repeated equal waits in a lane share one summary ("7 waits of 2.00 s") on the first.
    QRectF labelRect(int plan) const;
    QString labelText(int plan) const { return m_labelText.value(plan); }
    // Every text drawn in the lanes and on the axis with its rectangle: event labels, tick labels,
    // break lengths and the playhead's bubble. No two of them overlap (tst_timeline checks it).
    QList<QPair<QRectF, QString>> shownTexts() const;
    qreal xOf(qint64 t) const { return m_leftPad + m_axis.x(t); }
    qint64 timeAtX(qreal x) const { return m_axis.timeAt(x - m_leftPad); }
    qreal contentHeight() const { return lanesBottom() + 8; }

    // The playhead, and the time of the latest event at or before it (the "current" instant).
    void setPlayhead(qint64 t);
    qint64 playhead() const { return m_playhead; }
    qint64 currentInstant() const { return m_instant; }
    qreal playheadX() const { return xOf(m_playhead); }
    // Where the playhead's line is not drawn (y from, to; in order): a reached label stands there that
    // could not move off it.
    const QList<QPair<qreal, qreal>> &playheadGaps() const { return m_playheadGaps; }
    qint64 instantAt(qint64 t) const;
    // The playhead's time bubble on the axis (null when nothing is shown), and the tick labels drawn
    // beside it: those it would cover are left out.
    QRectF playheadBubble() const;
    const QList<TimeAxis::Tick> &ticks() const { return m_ticks; }
    QList<QRectF> shownTickLabels() const;

    void setColors(const timeline::Colors &colors);
    const timeline::Colors &colors() const { return m_colors; }
    void setBaseFont(const QFont &font);
    // Widths of bars, messages, waits and the playhead, times this (1 normally; thicker in presentation mode).
    void setStrokeScale(qreal scale);
    // The lane name column: kLabelWidth, wider when the lane font is large (zoom, presentation mode).
    qreal labelWidth() const { return m_labelWidth; }
    qreal strokeScale() const { return m_strokeScale; }
    const QFont &labelFont() const { return m_labelFont; }
    const QFont &badgeFont() const { return m_badgeFont; }
    const QFont &laneFont() const { return m_laneFont; }

    // Lane names in a column of kLabelWidth starting at scene x `left` (the view pins it; export draws it at the edge).
    void paintLaneLabels(QPainter *painter, qreal left, qreal top, qreal bottom) const;
    // Where a lane's name and its note ("@retry \u00b7 3 attempts") are drawn in that column (left = 0),
    // and in which fonts. The note is always drawn whole: beside the name, under it, or both set smaller
    // to fit a short lane; never elided or left out.
    struct LaneText
    {
        QString nameText; // the lane's name in the window's language
        QRectF name;
        QFont nameFont;
        QRectF note; // null when the lane has no note
        QFont noteFont;
    };
    LaneText laneText(int lane) const;
    // Message shown when there is nothing to draw.
    void setEmptyText(const QString &text);
    const QString &emptyText() const { return m_emptyText; }
    // Where that message is drawn (word-wrapped, centred), in scene coordinates: inside the view.
    QRectF emptyTextRect() const;

    void notifyClicked(int traceIndex);

    // Lesson highlight: one lane drawn tinted and outlined (its index, Lane order), or -1 for none.
    void setEmphasisedLane(int lane);
    int emphasisedLane() const { return m_emphasisedLane; }
    // A lesson question: what the playhead has not reached yet is not drawn at all (normally faded),
    // so the end of the operation does not give the answer away before the reveal.
    void setFutureHidden(bool hidden);
    bool isFutureHidden() const { return m_futureHidden; }
    qreal futureOpacity() const;

Q_SIGNALS:
    void eventClicked(int traceIndex);

protected:
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    void relayout();
    // Places every label (bars, waits, glyphs) by priority: each takes its side, else the other,
    // else it is left out.
    void layoutLabels();
    // A reached glyph's label the playhead's line would cross moves off the line (left of it, else
    // right; on its side of the glyph, else the other), when it stays by its glyph and clear of every
    // other label and mark (a "#19 duplicate" touched the line at the run's end); else the line gives
    // way to it (playheadGaps). The others stay where layoutLabels() put them. Items whose label moved are placed again.
    void dodgePlayhead();
    // A label the view's edge would cut (the lane names pinned on the left, the viewport's right) moves
    // just inside while its mark is in view and it stays clear of other labels and marks (and in its
    // bar); else it is not drawn (m_edgeShift, m_edgeHidden). retry-storms step 1 at its end showed "ut" and "eue".
    void keepLabelsInView();
    // Where layoutLabels() and dodgePlayhead() put a label, before the view's edges.
    QRectF placedLabelRect(int plan) const;
    // Indexes, by scene x, each plan's label as layoutLabels() placed it and its ink (m_inkRects), so that
    // moving one label near the playhead or a view's edge looks only at its neighbours (an operation of
    // 40,000 events spent most of a second per scroll looking at every label and mark).
    void indexLabels();
    // The plans whose placed label (before the playhead's and the edges' moves) or ink reaches into the
    // x range [left, right], in ascending order.
    QList<int> plansNear(qreal left, qreal right) const;
    // A label and where it may go: `first`, else `second` (null: nowhere else); higher ranks go first.
    struct LabelCandidate
    {
        int plan = -1;
        int rank = 0;
        QString text;
        QRectF first;
        QRectF second;
        QRectF beside; // a message's end: right of it, when both sides are crossed by other messages
        QRectF along;  // a name inside its bar: how far along it `first` may move (its left edge, width)
    };
    QList<LabelCandidate> labelCandidates(bool farOut) const;
    // Runs of three or more equal waits in a lane and slot; each wait of a run maps to it.
    struct WaitRun
    {
        int first = -1;
        int last = -1;
        int count = 0;
    };
    QHash<int, WaitRun> waitRuns() const;
    void updateLabelWidth();
    QRectF breakLabelRect(const TimeAxis::Break &b, QString *text) const;
    // Creates the items of the wanted plans and removes the others (the selected one stays).
    void syncItems(bool all = false);
    void placeItem(int plan);
    void updateSceneRect();
    // Routes every arrow of the layout (m_arrowCurves): straight, or bowed around another's head.
    void routeMessages();
    // Sideways offsets of glyphs sharing an instant; depend on the plans and the badge font only.
    void updateDodges();
    qreal leftPadAt(qreal zoom) const;
    QRectF tickLabelRect(const TimeAxis::Tick &tick) const;
    bool tickLabelHidden(const TimeAxis::Tick &tick) const;
    // Whether the view's edges (the pinned lane names, the viewport's right) would cut `r`.
    bool cutByView(const QRectF &r) const;
    // Before the reveal the axis ends at the playhead: a tick at 11 s or a 10 s break tells the answer.
    bool axisHidden(qint64 t) const { return m_futureHidden && t > m_playhead; }

    Trace m_trace;
    int m_op = 0;
    QList<EventPlan> m_plans;
    QList<TimelineEventItem *> m_items; // per plan: its item, or null while it is not live
    QList<int> m_live;                  // plans that have an item
    QHash<int, int> m_planOfTrace;
    qreal m_exposedLeft = -kLabelWidth;
    qreal m_exposedRight = 1280;
    qreal m_liveLeft = 0;  // the scene x range the live items were chosen for
    qreal m_liveRight = 0;
    bool m_windowValid = false; // false: choose the live items again on the next exposed range
    qreal m_maxDodge = 0;
    bool m_twoSlots = false; // a double submit: two slots per lane
    qint64 m_geometryUpdates = 0;
    qint64 m_labelLooks = 0;
    QList<qint64> m_times;
    QStringList m_laneNotes;
    QList<bool> m_laneEnabled;
    QList<bool> m_laneUsed;
    QString m_emptyText;
    int m_emphasisedLane = -1;
    bool m_futureHidden = false;
    TimeAxis m_axis;
    TimeAxis m_natural;          // the axis at zoom 1: every x of m_axis is this one times the zoom
    QList<qreal> m_dodgeDx;      // per plan: sideways offset of its glyph
    QList<qreal> m_labelOffset;  // per plan: bars start their label after the glyphs on their start
    QList<bool> m_labelBelow;    // per plan: glyph label below the glyph (after collisions)
    QList<bool> m_labelBelowBase; // per plan: the side updateDodges() chose
    QList<bool> m_labelHidden;   // per plan: label left out at this zoom
    QList<QRectF> m_labelRect;   // per plan: its label in scene coordinates, null when not shown
    QList<QRectF> m_inkRects;    // per plan: inkRect() at the last layoutLabels()
    QHash<int, QList<int>> m_nearCells; // x cell -> plans whose label or ink reaches into it (indexLabels)
    QStringList m_labelText;     // per plan: the text of that label
    QHash<int, QPointF> m_playheadDodge; // plan -> how far its label moved off the playhead's line
    QList<QPair<qreal, qreal>> m_playheadGaps; // y ranges, in order, where the line gives way to a label
    QHash<int, qreal> m_edgeShift;   // plan -> how far its label moved to stay inside the view
    QSet<int> m_edgeHidden;          // plans whose label the view's edge would cut and that could not move
    bool m_viewKnown = false;        // a view has told its exposed range (an export shows everything)
    QList<qreal> m_labelW;       // per plan: width of pl.label in its font (+4)
    QList<timeline::ArrowCurve> m_arrowCurves; // per plan: an arrow's line at this layout, null for others
    QList<TimeAxis::Tick> m_ticks; // cached per layout: painting only looks up the visible ones
    qreal m_zoom = 1.0;
    qreal m_strokeScale = 1.0;
    qreal m_labelWidth = kLabelWidth;
    qreal m_leftPad = kLeftPad;
    qreal m_laneH = 64;
    qint64 m_playhead = 0;
    qint64 m_instant = 0;
    timeline::Colors m_colors;
    QFont m_labelFont;
    QFont m_badgeFont;
    QFont m_laneFont;
    QFont m_noteFont;
};

} // namespace retrylab
