#include "timeline/timelinescene.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab {

using timeline::Colors;
using timeline::Glyph;
using timeline::Role;

namespace {

constexpr qreal kPxPerMs = 1.5;         // linear scale at zoom 1
constexpr qint64 kBreakAfterUs = 100000; // quiet gaps longer than 100 ms become breaks
constexpr qreal kBreakPx = 70;
constexpr qreal kBreakPxPerDoubling = 14;
constexpr qreal kFaded = 0.2;

// Translated where drawn (TimelineScene::tr), so a language switch renames the lanes.
const char *const kLaneNames[] = {
    QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Business"),  QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Wrapper"),
    QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Transport"), QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Network"),
    QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Server"),    QT_TRANSLATE_NOOP("retrylab::TimelineScene", "Database")};

} // namespace

// ------------------------------------------------------------------ item

TimelineEventItem::TimelineEventItem(TimelineScene *scene, int plan)
    : m_scene(scene)
    , m_plan(plan)
{
    setFlag(ItemIsSelectable);
    setData(0, plan >= 0 ? scene->plans().at(plan).traceIndex : -1);
    switch (this->plan().form) {
    case EventPlan::Form::Bar:
        setZValue(1);
        break;
    case EventPlan::Form::Wait:
        setZValue(2);
        break;
    case EventPlan::Form::Arrow:
        setZValue(3);
        break;
    case EventPlan::Form::Marker:
        setZValue(4);
        break;
    }
}

const EventPlan &TimelineEventItem::plan() const
{
    return m_scene->plans().at(m_plan);
}

int TimelineEventItem::traceIndex() const
{
    return plan().traceIndex;
}

QRectF TimelineEventItem::labelRect() const
{
    // The scene places every label at once (priorities, collisions); the item only draws it.
    const QRectF r = m_scene->labelRect(m_plan);
    return r.isNull() ? QRectF() : r.translated(-m_scene->anchorOf(m_plan));
}

QRectF TimelineEventItem::sceneLabelRect() const
{
    return m_scene->labelRect(m_plan);
}

void TimelineEventItem::setGeometry(qreal length, const timeline::ArrowCurve &curve, qreal halfHeight, qreal labelOffset)
{
    prepareGeometryChange();
    m_length = qMax<qreal>(0, length);
    m_curve = curve;
    m_half = halfHeight;
    m_labelOffset = labelOffset;
    const qreal r = TimelineScene::kGlyphRadius + 7; // halo and selection ring
    QRectF b(-r, -r, 2 * r, 2 * r);
    const EventPlan &pl = plan();
    if (pl.form == EventPlan::Form::Bar || pl.form == EventPlan::Form::Wait)
        b |= QRectF(-3, -m_half - 3, m_length + 6, 2 * m_half + 6);
    if (pl.form == EventPlan::Form::Arrow) // a bowed line stays inside the box of its ends
        b |= QRectF(m_curve.from, QSizeF(1, 1)).adjusted(-6, -6, 6, 6);
    const QRectF lr = labelRect();
    if (!lr.isNull())
        b |= lr.adjusted(-2, -2, 2, 2);
    m_bounds = b;
}

QRectF TimelineEventItem::boundingRect() const
{
    return m_bounds;
}

QPainterPath TimelineEventItem::shape() const
{
    QPainterPath path;
    const EventPlan &pl = plan();
    // Not drawn before the reveal, so not there for a click or a tool tip either.
    if (m_scene->isFutureHidden() && pl.t > m_scene->playhead())
        return path;
    const qreal r = TimelineScene::kGlyphRadius + 4;
    switch (pl.form) {
    case EventPlan::Form::Bar:
        path.addRect(QRectF(0, -m_half, qMax<qreal>(m_length, 4), 2 * m_half));
        break;
    case EventPlan::Form::Wait:
        path.addRect(QRectF(0, -6, qMax<qreal>(m_length, 8), 12));
        if (!labelRect().isNull())
            path.addRect(labelRect());
        break;
    case EventPlan::Form::Arrow: {
        if (!m_curve.isNull()) {
            QPainterPathStroker stroker;
            stroker.setWidth(6);
            path = stroker.createStroke(m_curve.path());
        }
        path.addEllipse(QPointF(0, 0), r, r);
        break;
    }
    case EventPlan::Form::Marker:
        path.addEllipse(QPointF(0, 0), r, r);
        break;
    }
    path.setFillRule(Qt::WindingFill);
    return path;
}

void TimelineEventItem::paintLabel(QPainter *p, const Colors &c, const QRectF &r, bool strong)
{
    const EventPlan &pl = plan();
    if (r.isNull())
        return;
    p->setFont(pl.form == EventPlan::Form::Bar ? m_scene->labelFont() : m_scene->badgeFont());
    QColor color = c.text;
    if (!strong && (pl.role == Role::Duplicate || pl.role == Role::Fault || pl.role == Role::Rejection
                    || pl.role == Role::Ok))
        color = c.color(pl.role);
    p->setPen(color);
    p->drawText(r, Qt::AlignCenter, m_scene->labelText(m_plan));
}

void TimelineEventItem::paintBar(QPainter *p, const Colors &c, qreal solidUntil, bool started)
{
    const EventPlan &pl = plan();
    if (pl.passThrough) {
        // The layer is off: the call only passes through it. A thin faint line, no attempt name.
        auto draw = [&]() {
            QColor line = c.muted;
            line.setAlphaF(0.45f);
            p->setPen(QPen(line, 1.5 * m_scene->strokeScale()));
            p->drawLine(QPointF(0, 0), QPointF(qMax<qreal>(m_length, 3), 0));
        };
        paintUpTo(p, solidUntil, started, m_half + 30, draw);
        return;
    }
    const QRectF rect = m_scene->drawnBox(m_plan).translated(-pos());
    const QColor stroke = c.color(pl.role);
    const qreal amount = pl.role == Role::Business ? 0.42 : (pl.role == Role::Wrapper ? 0.24 : 0.26);
    const QColor fill = c.tint(pl.role, c.dark ? amount + 0.15 : amount);
    auto draw = [&]() {
        QPen pen(stroke, 1.6 * m_scene->strokeScale());
        if (pl.dashed)
            pen.setStyle(Qt::DashLine);
        p->setPen(pen);
        p->setBrush(pl.dashed ? c.tint(pl.role, 0.1) : fill);
        p->drawRoundedRect(rect, 4, 4);
        const QRectF lr = labelRect();
        if (!lr.isNull())
            paintLabel(p, c, lr, true);
    };
    paintUpTo(p, solidUntil, started, m_half + 30, draw);
}

void TimelineEventItem::paintUpTo(QPainter *p, qreal solidUntil, bool started, qreal halfExtent,
                                  const std::function<void()> &draw) const
{
    // Faded where the playhead has not reached yet, solid up to it.
    if (!started || solidUntil < m_length) {
        p->save();
        p->setOpacity(m_scene->futureOpacity());
        draw();
        p->restore();
    }
    if (started) {
        p->save();
        if (solidUntil < m_length)
            p->setClipRect(QRectF(-10, -halfExtent, solidUntil + 10, 2 * halfExtent));
        draw();
        p->restore();
    }
}

void TimelineEventItem::paintWait(QPainter *p, const Colors &c, qreal solidUntil, bool started)
{
    const QColor stroke = c.color(plan().role);
    auto draw = [&]() {
        QPen pen(stroke, 1.8 * m_scene->strokeScale(), Qt::DashLine);
        pen.setDashPattern({3, 3});
        p->setPen(pen);
        if (m_length > 0) {
            p->drawLine(QPointF(0, 0), QPointF(m_length, 0));
            QPen solid(stroke, 1.8 * m_scene->strokeScale());
            p->setPen(solid);
            p->drawLine(QPointF(0, -5), QPointF(0, 5));
            p->drawLine(QPointF(m_length, -5), QPointF(m_length, 5));
        } else {
            timeline::drawGlyph(p, Glyph::Dot, QPointF(0, 0), 6, stroke, c.base);
        }
    };
    paintUpTo(p, solidUntil, started, 40, draw);
    // Whole, not clipped at the playhead: a summary of several waits reaches past this one's end.
    p->save();
    if (!started)
        p->setOpacity(m_scene->futureOpacity());
    paintLabel(p, c, labelRect(), false);
    p->restore();
}

void TimelineEventItem::paintArrow(QPainter *p, const Colors &c, qreal solidUntil, bool arrived)
{
    const EventPlan &pl = plan();
    const qreal r = TimelineScene::kGlyphRadius;
    QColor lineColor = pl.broken ? c.color(pl.role == Role::Muted ? Role::Muted : Role::Fault)
                                 : (pl.role == Role::Ok || pl.role == Role::Rejection ? c.color(pl.role) : c.muted);
    if (pl.query && !pl.broken && pl.role != Role::Ok)
        lineColor = c.business; // the status query stands out from the POST it is about
    const bool hasLine = !m_curve.isNull();
    const QPointF end(0, 0);
    // Messages that vanish stop short of their cross: the gap is the "broken" part.
    const qreal chord = QLineF(m_curve.from, m_curve.to).length();
    const qreal drawnUntil = hasLine && pl.glyph != Glyph::Arrow && chord > r * 3 ? 1 - r * 1.8 / chord : 1;
    const timeline::ArrowCurve drawn = m_curve.upTo(drawnUntil);
    auto drawLine = [&](const timeline::ArrowCurve &l) {
        QPen pen(lineColor, 1.7 * m_scene->strokeScale());
        if (pl.broken)
            pen.setDashPattern({4, 3});
        pen.setCapStyle(Qt::FlatCap);
        p->setPen(pen);
        if (l.isStraight()) {
            p->drawLine(QLineF(l.from, l.to));
        } else {
            p->setBrush(Qt::NoBrush);
            p->drawPath(l.path());
        }
    };
    auto drawEnd = [&]() {
        if (pl.glyph == Glyph::Arrow) {
            p->save();
            p->translate(end);
            if (hasLine)
                p->rotate(-m_curve.endAngle());
            else
                p->rotate(pl.lane == Lane::Server ? 90 : -90);
            timeline::drawGlyph(p, Glyph::Arrow, QPointF(0, 0), r * timeline::ArrowHeadScale, lineColor, c.base);
            p->restore();
        } else {
            timeline::drawGlyph(p, pl.glyph, end, r, c.color(pl.role), c.base);
        }
    };
    const bool current = arrived && plan().t == m_scene->currentInstant();
    if (current) {
        p->setPen(Qt::NoPen);
        QColor halo = c.highlight;
        halo.setAlphaF(0.3f);
        p->setBrush(halo);
        p->drawEllipse(end, r + 6, r + 6);
    }
    if (arrived) {
        if (hasLine)
            drawLine(drawn);
        drawEnd();
        paintLabel(p, c, labelRect(), false);
        return;
    }
    p->save();
    p->setOpacity(m_scene->futureOpacity());
    if (hasLine)
        drawLine(drawn);
    drawEnd();
    paintLabel(p, c, labelRect(), false);
    p->restore();
    // In flight: the solid part reaches exactly the playhead, with the message as a dot on it.
    if (hasLine && solidUntil > m_curve.from.x() && m_curve.from.x() < 0) {
        const qreal f = m_curve.parameterAtX(solidUntil);
        const QPointF head = m_curve.pointAt(f);
        drawLine(m_curve.upTo(qMin(f, drawnUntil)));
        p->setPen(Qt::NoPen);
        p->setBrush(lineColor);
        p->drawEllipse(head, 3.5, 3.5);
    }
}

void TimelineEventItem::paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *)
{
    const EventPlan &pl = plan();
    const Colors &c = m_scene->colors();
    const qint64 playhead = m_scene->playhead();
    const qreal solidUntil = m_scene->playheadX() - pos().x();
    const bool reached = pl.t <= playhead;
    p->setRenderHint(QPainter::Antialiasing);

    switch (pl.form) {
    case EventPlan::Form::Bar:
        paintBar(p, c, solidUntil, reached);
        break;
    case EventPlan::Form::Wait:
        paintWait(p, c, solidUntil, reached);
        break;
    case EventPlan::Form::Arrow:
        paintArrow(p, c, solidUntil, reached);
        break;
    case EventPlan::Form::Marker: {
        const qreal r = TimelineScene::kGlyphRadius;
        if (reached && pl.t == m_scene->currentInstant()) {
            p->setPen(Qt::NoPen);
            QColor halo = c.highlight;
            halo.setAlphaF(0.3f);
            p->setBrush(halo);
            p->drawEllipse(QPointF(0, 0), r + 6, r + 6);
        }
        p->save();
        if (!reached)
            p->setOpacity(m_scene->futureOpacity());
        const qreal size = pl.glyph == Glyph::Dot ? r * 0.9 : (pl.glyph == Glyph::Circle ? r + 1.5 : r);
        const QColor fill = pl.glyph == Glyph::Circle || pl.glyph == Glyph::Diamond ? c.tint(pl.role, 0.45) : c.base;
        timeline::drawGlyph(p, pl.glyph, QPointF(0, 0), size, c.color(pl.role), fill);
        paintLabel(p, c, labelRect(), false);
        p->restore();
        break;
    }
    }

    if (isSelected()) {
        QPen ring(c.highlight, 2.5 * m_scene->strokeScale());
        p->setPen(ring);
        p->setBrush(Qt::NoBrush);
        const qreal r = TimelineScene::kGlyphRadius + 5;
        if (pl.form == EventPlan::Form::Bar)
            p->drawRoundedRect(QRectF(-3, -m_half - 3, qMax<qreal>(m_length, 3) + 6, 2 * m_half + 6), 5, 5);
        else if (pl.form == EventPlan::Form::Wait)
            p->drawRoundedRect(QRectF(-4, -8, m_length + 8, 16), 4, 4);
        else
            p->drawEllipse(QPointF(0, 0), r, r);
    }
}

void TimelineEventItem::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    QGraphicsItem::mousePressEvent(event);
    if (m_scene->isFutureHidden() && plan().t > m_scene->playhead())
        return;
    if (event->button() == Qt::LeftButton)
        m_scene->notifyClicked(traceIndex());
}

// ------------------------------------------------------------------ scene

TimelineScene::TimelineScene(QObject *parent)
    : QGraphicsScene(parent)
{
    m_colors = Colors::fromPalette(QPalette());
    setBaseFont(QFont());
    for (int i = 0; i < kLaneCount; ++i) {
        m_laneNotes.append(QString());
        m_laneEnabled.append(true);
    }
    // Items never move during playback; the index only changes on zoom and is cheap to rebuild.
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    updateSceneRect();
}

void TimelineScene::setBaseFont(const QFont &font)
{
    m_labelFont = timeline::labelFont(font);
    m_badgeFont = timeline::badgeFont(font);
    m_laneFont = font;
    m_laneFont.setPointSizeF(qMax(10.0, font.pointSizeF() * 1.15));
    m_laneFont.setBold(true);
    m_noteFont = font;
    m_noteFont.setPointSizeF(qMax(8.0, font.pointSizeF() * 0.85));
    updateLabelWidth();
    updateDodges();
    relayout();
}

void TimelineScene::updateLabelWidth()
{
    // Every lane name fits its column: 20 pixels before the text (the swatch), a few after. So does
    // every note at no less than 85% of its size (a question may depend on "@retry \u00b7 3 attempts"):
    // under the name where the lane is tall enough for two lines, else beside it. Up to twice the
    // usual column; beyond, laneText() sets the note smaller still, never cuts it.
    const QFontMetricsF fm(m_laneFont);
    const QFontMetricsF nm(m_noteFont);
    qreal names = 0; // every name, whatever it costs
    qreal notes = 0; // the notes, up to twice the usual column
    for (int i = 0; i < kLaneCount; ++i) {
        const qreal name = fm.horizontalAdvance(TimelineScene::tr(kLaneNames[i])) + 6;
        names = qMax(names, name);
        const QString note = m_laneNotes.value(i);
        if (note.isEmpty())
            continue;
        const qreal noteW = nm.horizontalAdvance(note) * 0.85 + 1;
        const bool twoLines = laneHeight(i) >= fm.height() + nm.height() * 0.85 - 2;
        notes = qMax(notes, twoLines ? noteW : name + noteW);
    }
    const qreal width = qMax(kLabelWidth, std::ceil(qMax(names, qMin(notes, 2 * kLabelWidth - 24))) + 24);
    if (qFuzzyCompare(width, m_labelWidth))
        return;
    m_labelWidth = width;
    updateSceneRect();
}

void TimelineScene::setStrokeScale(qreal scale)
{
    scale = qBound<qreal>(0.5, scale, 4.0);
    if (qFuzzyCompare(scale, m_strokeScale))
        return;
    m_strokeScale = scale;
    update();
}

void TimelineScene::setColors(const Colors &colors)
{
    m_colors = colors;
    setBackgroundBrush(colors.base);
    update();
}

void TimelineScene::setEmptyText(const QString &text)
{
    m_emptyText = text;
    update();
}

void TimelineScene::setOperation(const Trace &trace, int op, const QSet<int> &duplicates,
                                 const QStringList &laneNotes, const QList<bool> &laneEnabled)
{
    clearSelection();
    for (const int plan : std::as_const(m_live)) {
        removeItem(m_items.at(plan));
        delete m_items.at(plan);
    }
    m_items.clear();
    m_live.clear();
    m_planOfTrace.clear();
    m_trace = trace;
    m_op = op;
    m_laneNotes = laneNotes;
    while (m_laneNotes.size() < kLaneCount)
        m_laneNotes.append(QString());
    m_laneEnabled = laneEnabled;
    while (m_laneEnabled.size() < kLaneCount)
        m_laneEnabled.append(true);
    m_plans = timeline::planOperation(m_trace, op, duplicates);
    // Attempts of a layer that is off are pass-throughs, not attempts to look at.
    for (EventPlan &pl : m_plans) {
        if (pl.form == EventPlan::Form::Bar && (pl.lane == Lane::Business || pl.lane == Lane::Wrapper)
            && !m_laneEnabled.value(int(pl.lane), true)) {
            pl.passThrough = true;
            pl.label.clear();
        }
    }
    m_laneUsed = QList<bool>(kLaneCount, m_plans.isEmpty());
    for (const EventPlan &pl : std::as_const(m_plans))
        m_laneUsed[int(pl.lane)] = true;
    updateLabelWidth(); // the notes, and which lanes are short
    m_times.clear();
    m_times.reserve(m_plans.size());
    for (const EventPlan &pl : std::as_const(m_plans))
        m_times.append(pl.t);
    std::sort(m_times.begin(), m_times.end());
    m_times.erase(std::unique(m_times.begin(), m_times.end()), m_times.end());
    m_natural.build(m_times, kPxPerMs, kBreakAfterUs, kBreakPx, kBreakPxPerDoubling);
    updateDodges();

    m_twoSlots = std::any_of(m_plans.cbegin(), m_plans.cend(), [](const EventPlan &p) { return p.slot != 0; });
    m_items = QList<TimelineEventItem *>(m_plans.size(), nullptr);
    m_planOfTrace.reserve(m_plans.size());
    for (int i = 0; i < m_plans.size(); ++i)
        m_planOfTrace.insert(m_plans.at(i).traceIndex, i);
    m_windowValid = false; // choose the live items again
    // The zoom may be below what this operation allows.
    m_zoom = qMax(m_zoom, minimumZoom());
    m_playhead = m_times.isEmpty() ? 0 : m_times.first();
    m_instant = instantAt(m_playhead);
    relayout();
}

qreal TimelineScene::laneCenter(Lane lane, int slot) const
{
    const qreal c = laneTop(int(lane)) + laneHeight(int(lane)) / 2;
    return c + slot * m_laneH * 0.2;
}

qreal TimelineScene::laneWeightSum() const
{
    qreal sum = 0;
    for (int i = 0; i < kLaneCount; ++i)
        sum += laneWeight(i);
    return sum;
}

qreal TimelineScene::laneTop(int lane) const
{
    qreal y = kAxisHeight;
    for (int i = 0; i < lane && i < kLaneCount; ++i)
        y += laneHeight(i);
    return y;
}

qreal TimelineScene::barHalfHeight() const
{
    return qBound<qreal>(5, m_laneH * (m_twoSlots ? 0.085 : 0.14), kMaxBarHalfHeight);
}

qreal TimelineScene::minimumZoom() const
{
    const qreal natural = m_natural.width();
    if (m_plans.size() <= kEagerLimit || natural <= 0)
        return 0.02;
    return qBound<qreal>(0.02, m_plans.size() / (kMaxEventsPerPx * natural), 1.0);
}

void TimelineScene::setZoom(qreal zoom)
{
    zoom = qBound<qreal>(minimumZoom(), zoom, 40);
    if (qFuzzyCompare(zoom, m_zoom))
        return;
    m_zoom = zoom;
    relayout();
}

qreal TimelineScene::fitZoom(qreal width) const
{
    const qreal natural = m_natural.width();
    if (natural <= 0)
        return 1.0;
    // The left pad shrinks as the zoom grows (glyphs dodged left of the first instant); a few
    // fixed-point steps from the widest pad settle it. Always the same steps: a pure function of width.
    const qreal least = minimumZoom();
    qreal zoom = qBound<qreal>(least, (width - leftPadAt(least) - kRightPad) / natural, 40);
    for (int i = 0; i < 4; ++i)
        zoom = qBound<qreal>(least, (width - leftPadAt(zoom) - kRightPad) / natural, 40);
    return zoom;
}

void TimelineScene::setLaneHeight(qreal h)
{
    h = qBound<qreal>(kMinLaneHeight, h, kMaxLaneHeight);
    if (qFuzzyCompare(h, m_laneH))
        return;
    m_laneH = h;
    updateLabelWidth(); // short lanes put notes beside the names
    relayout();
}

void TimelineScene::updateDodges()
{
    // Glyphs sharing an instant are spread sideways. One glyph beside a bar or an arrowhead only has
    // to clear that anchor, its label alternating above or below; two or more labelled glyphs are
    // spaced by a whole label, all labels on one side, so no two labels ever overlap.
    QHash<QString, int> maxDodge;
    QHash<QString, int> labelled;
    QHash<QString, qreal> widest;
    auto slotKey = [](const EventPlan &pl) {
        return QStringLiteral("%1/%2/%3").arg(int(pl.lane)).arg(pl.slot).arg(pl.instant);
    };
    // A long operation repeats a few texts thousands of times ("refused", "w3"): each is shaped once
    // (shaping was 44% of setResult for 10,102 events).
    QHash<QString, qreal> badgeWidths;
    QHash<QString, qreal> nameWidths;
    const QFontMetricsF badge(m_badgeFont);
    const QFontMetricsF names(m_labelFont);
    auto widthOf = [](QHash<QString, qreal> &cache, const QFontMetricsF &metrics, const QString &text) {
        auto it = cache.find(text);
        if (it == cache.end())
            it = cache.insert(text, metrics.horizontalAdvance(text));
        return *it;
    };
    for (const EventPlan &pl : std::as_const(m_plans)) {
        const bool movable = pl.form == EventPlan::Form::Marker
                             || (pl.form == EventPlan::Form::Arrow && pl.glyph != Glyph::Arrow);
        if (!movable)
            continue;
        const QString key = slotKey(pl);
        if (pl.dodge != 0) {
            int &m = maxDodge[key];
            m = qMax(m, pl.dodge);
        }
        if (!pl.label.isEmpty()) {
            ++labelled[key];
            qreal &w = widest[key];
            w = qMax(w, widthOf(badgeWidths, badge, pl.label) + 4);
        }
    }
    m_labelW.clear();
    m_labelW.reserve(m_plans.size());
    for (const EventPlan &pl : std::as_const(m_plans)) {
        const bool bar = pl.form == EventPlan::Form::Bar;
        m_labelW.append(pl.label.isEmpty() ? 0 : widthOf(bar ? nameWidths : badgeWidths, bar ? names : badge, pl.label) + 4);
    }
    m_dodgeDx.clear();
    m_labelOffset.clear();
    m_labelBelow.clear();
    m_dodgeDx.reserve(m_plans.size());
    m_labelOffset.reserve(m_plans.size());
    m_labelBelow.reserve(m_plans.size());
    for (const EventPlan &pl : std::as_const(m_plans)) {
        const QString key = slotKey(pl);
        const bool crowded = labelled.value(key) >= 2;
        const qreal spacing = crowded ? qMax<qreal>(kDodge, widest.value(key) + 8)
                                      : qMax<qreal>(kDodge, widest.value(key) / 2 + 6);
        m_dodgeDx.append(pl.dodge == 0 ? 0 : pl.dodge * spacing);
        const int shift = pl.form == EventPlan::Form::Bar ? maxDodge.value(key) : 0;
        m_labelOffset.append(shift > 0 ? shift * spacing + (crowded ? spacing / 2 : kGlyphRadius) : 0);
        // A second submission runs in the lower half of the lane: its labels go below.
        m_labelBelow.append(pl.slot > 0 || (pl.slot == 0 && !crowded && pl.dodge % 2 != 0));
    }
    m_labelBelowBase = m_labelBelow;
}

namespace {

// Label ranks: what the lesson asks about (answers, statuses, record ids) before what explains how.
enum LabelRank { SingleWait = 0, AttemptOutside = 1, AttemptInside = 2, WaitSummary = 3, Note = 4, Telling = 5 };

// Scene rectangles already taken, bucketed by x so that long operations stay linear.
class LabelGrid
{
public:
    LabelGrid(qreal top, qreal bottom)
        : m_top(top)
        , m_bottom(bottom)
    {
    }
    // Clear of the labels already placed and of every bar and glyph but `plan`'s own.
    bool fits(const QRectF &r, int plan) const
    {
        if (r.isNull() || r.top() < m_top - 0.5 || r.bottom() > m_bottom + 0.5)
            return false;
        const QRectF padded = r.adjusted(-2, 0, 2, 0);
        for (int c = cell(padded.left()); c <= cell(padded.right()); ++c) {
            const auto it = m_cells.constFind(c);
            if (it != m_cells.cend()) {
                for (const QRectF &o : *it) {
                    if (overlaps(padded, o))
                        return false;
                }
            }
            const auto ink = m_ink.constFind(c);
            if (ink == m_ink.cend())
                continue;
            for (const auto &[owner, o] : *ink) {
                if (owner != plan && overlaps(r, o))
                    return false;
            }
        }
        return true;
    }
    // The leftmost place for `r` at or right of where it is, its left at most `maxLeft`, where it fits:
    // right of whatever stands in its way. Null when there is none.
    QRectF slide(const QRectF &r, qreal maxLeft, int plan) const
    {
        QList<qreal> lefts{r.left()};
        for (int c = cell(r.left() - 2); c <= cell(maxLeft + r.width() + 2); ++c) {
            for (const QRectF &o : m_cells.value(c)) {
                if (o.bottom() > r.top() && o.top() < r.bottom())
                    lefts.append(o.right() + 2.01);
            }
            for (const auto &[owner, o] : m_ink.value(c)) {
                if (owner != plan && o.bottom() > r.top() && o.top() < r.bottom())
                    lefts.append(o.right() + 0.01);
            }
        }
        std::sort(lefts.begin(), lefts.end());
        for (const qreal left : std::as_const(lefts)) {
            if (left < r.left() || left > maxLeft)
                continue;
            const QRectF moved(left, r.top(), r.width(), r.height());
            if (fits(moved, plan))
                return moved;
        }
        return QRectF();
    }
    void take(const QRectF &r)
    {
        for (int c = cell(r.left()); c <= cell(r.right()); ++c)
            m_cells[c].append(r);
    }
    // A bar's box or a glyph's disc: no label but its own may share it.
    void addInk(int plan, const QRectF &r)
    {
        for (int c = cell(r.left()); c <= cell(r.right()); ++c)
            m_ink[c].append({plan, r});
    }
    // A message's line, which labels other than its own avoid when they have a choice.
    void addMessage(int plan, const timeline::ArrowCurve &curve)
    {
        constexpr int pieces = 8;
        QPointF previous = curve.from;
        for (int k = 1; k <= pieces; ++k) {
            const QPointF next = curve.pointAt(qreal(k) / pieces);
            const QLineF piece(previous, next);
            for (int c = cell(qMin(previous.x(), next.x())); c <= cell(qMax(previous.x(), next.x())); ++c)
                m_messages[c].append({plan, piece});
            previous = next;
        }
    }
    bool crossesMessage(const QRectF &r, int plan) const
    {
        for (int c = cell(r.left()); c <= cell(r.right()); ++c) {
            const auto it = m_messages.constFind(c);
            if (it == m_messages.cend())
                continue;
            for (const auto &[owner, piece] : *it) {
                if (owner != plan && crosses(r, piece))
                    return true;
            }
        }
        return false;
    }

private:
    static bool crosses(const QRectF &r, const QLineF &l)
    {
        if (r.contains(l.p1()) || r.contains(l.p2()))
            return true;
        const QLineF edges[] = {QLineF(r.topLeft(), r.topRight()), QLineF(r.topRight(), r.bottomRight()),
                                QLineF(r.bottomRight(), r.bottomLeft()), QLineF(r.bottomLeft(), r.topLeft())};
        for (const QLineF &edge : edges) {
            if (edge.intersects(l, nullptr) == QLineF::BoundedIntersection)
                return true;
        }
        return false;
    }
    static bool overlaps(const QRectF &a, const QRectF &b)
    {
        const QRectF x = a.intersected(b);
        return x.width() > 0.01 && x.height() > 0.01;
    }
    static int cell(qreal x) { return int(std::floor(x / 160)); }
    qreal m_top;
    qreal m_bottom;
    QHash<int, QList<QRectF>> m_cells;
    QHash<int, QList<std::pair<int, QRectF>>> m_ink;
    QHash<int, QList<std::pair<int, QLineF>>> m_messages;
};

} // namespace

QHash<int, TimelineScene::WaitRun> TimelineScene::waitRuns() const
{
    // Per lane and slot, the waits in time order; equal neighbours ("wait 2.00 s" seven times) form a run.
    QHash<int, WaitRun> runs;
    QHash<int, QList<int>> waits;
    for (int i = 0; i < m_plans.size(); ++i) {
        const EventPlan &pl = m_plans.at(i);
        if (pl.form == EventPlan::Form::Wait && pl.to > pl.t && !pl.label.isEmpty())
            waits[int(pl.lane) * 4 + pl.slot + 1].append(i);
    }
    for (const QList<int> &list : std::as_const(waits)) {
        for (int a = 0; a < list.size();) {
            int b = a;
            while (b + 1 < list.size() && m_plans.at(list.at(b + 1)).label == m_plans.at(list.at(a)).label)
                ++b;
            if (b - a + 1 >= 3) {
                for (int k = a; k <= b; ++k)
                    runs.insert(list.at(k), WaitRun{list.at(a), list.at(b), b - a + 1});
            }
            a = b + 1;
        }
    }
    return runs;
}

QList<TimelineScene::LabelCandidate> TimelineScene::labelCandidates(bool farOut) const
{
    const qreal badgeH = QFontMetricsF(m_badgeFont).height();
    const qreal barH = QFontMetricsF(m_labelFont).height();
    const qreal half = barHalfHeight();
    const qreal r = kGlyphRadius;
    // Before the answer is revealed a summary would count waits the playhead has not reached.
    const QHash<int, WaitRun> runs = m_futureHidden ? QHash<int, WaitRun>() : waitRuns();
    QList<LabelCandidate> out;
    out.reserve(m_plans.size());
    for (int i = 0; i < m_plans.size(); ++i) {
        const EventPlan &pl = m_plans.at(i);
        const auto run = runs.constFind(i);
        const bool inRun = run != runs.cend();
        if (pl.label.isEmpty() || (inRun && run->first != i) || (farOut && pl.form != EventPlan::Form::Bar))
            continue;
        const QPointF at = anchorOf(i);
        const qreal w = m_labelW.value(i);
        LabelCandidate c;
        c.plan = i;
        c.text = pl.label;
        switch (pl.form) {
        case EventPlan::Form::Bar: {
            const qreal length = xOf(pl.to) - xOf(pl.t);
            const qreal offset = m_labelOffset.value(i);
            // Room for the label and for a glyph that may sit on the bar's end.
            const bool inside = length >= w + offset + 6 + 2 * r;
            const bool named = pl.lane != Lane::Server && pl.lane != Lane::Database;
            if (!inside && !named)
                continue; // "processing" is obvious from the lane; only attempt names move outside
            const QRectF above(at.x() + offset, at.y() - half - barH - 1, w, barH);
            const QRectF below(at.x() + offset, at.y() + half + 1, w, barH);
            if (inside) {
                c.rank = AttemptInside;
                c.first = QRectF(at.x() + offset + 4, at.y() - barH / 2, w, barH);
                c.along = QRectF(c.first.left(), c.first.top(), at.x() + length - 2 - r - c.first.left(), barH);
                // Nowhere free inside: an attempt's name goes out of its bar, a server step's is left out.
                if (named) {
                    c.second = above;
                    c.beside = below;
                }
            } else {
                c.rank = AttemptOutside;
                c.first = above;
                c.second = below;
            }
            break;
        }
        case EventPlan::Form::Wait: {
            qreal x0 = at.x();
            qreal x1 = xOf(pl.to);
            qreal width = w;
            c.rank = SingleWait;
            if (inRun) {
                const EventPlan &last = m_plans.at(run->last);
                c.rank = WaitSummary;
                c.text = tr("%n waits of %1", nullptr, run->count).arg(timeline::formatDuration(pl.to - pl.t));
                width = QFontMetricsF(m_badgeFont).horizontalAdvance(c.text) + 4;
                x1 = xOf(last.to);
            }
            const qreal left = (x0 + x1) / 2 - width / 2;
            c.first = QRectF(left, at.y() - half - badgeH - 1, width, badgeH);
            c.second = QRectF(left, at.y() + half + 1, width, badgeH);
            break;
        }
        case EventPlan::Form::Arrow:
        case EventPlan::Form::Marker: {
            // A status query's answer reads from its arrowhead to the right, clear of the attempt's name.
            const qreal left = pl.query && pl.form == EventPlan::Form::Arrow ? at.x() - r : at.x() - w / 2;
            // Clear of its glyph and of a bar it sits on.
            const qreal clearance = qMax(r, half) + 2;
            const QRectF above(left, at.y() - clearance - badgeH, w, badgeH);
            const QRectF below(left, at.y() + clearance, w, badgeH);
            const bool telling = pl.role == Role::Duplicate || pl.role == Role::Fault || pl.role == Role::Rejection
                                 || pl.role == Role::Ok;
            c.rank = telling ? Telling : Note;
            c.first = m_labelBelowBase.value(i) ? below : above;
            c.second = m_labelBelowBase.value(i) ? above : below;
            // Else right of its glyph: a message's end when both sides are crossed by other messages, a
            // record's mark when a neighbouring glyph stands on both sides.
            if (!pl.query)
                c.beside = QRectF(at.x() + r + 2, at.y() - badgeH / 2, w, badgeH);
            break;
        }
        }
        out.append(c);
    }
    std::stable_sort(out.begin(), out.end(), [](const LabelCandidate &a, const LabelCandidate &b) {
        return a.rank != b.rank ? a.rank > b.rank : a.first.left() < b.first.left();
    });
    return out;
}

void TimelineScene::layoutLabels()
{
    // Glyphs a few pixels apart, short attempts with their names outside, waits between them: at this
    // zoom each label takes its side, else the other side, else it is left out (its details stay a
    // click away). The order of labelCandidates() decides who gives way.
    const int n = int(m_plans.size());
    m_labelBelow = m_labelBelowBase;
    m_labelHidden = QList<bool>(n, false);
    m_labelRect = QList<QRectF>(n);
    m_labelText = QStringList(n, QString());
    const QList<LabelCandidate> candidates = labelCandidates(m_zoom < 0.3);
    LabelGrid grid(kAxisHeight, lanesBottom() + 8);
    for (int i = 0; i < n; ++i) {
        if (!m_arrowCurves.value(i).isNull())
            grid.addMessage(i, m_arrowCurves.at(i));
    }
    for (int i = 0; i < n; ++i) {
        const QRectF ink = inkRect(i);
        if (!ink.isNull())
            grid.addInk(i, ink);
    }
    for (LabelCandidate c : candidates) {
        // A side clear of other messages' lines first (a "201" crossed by the next answer is hard to
        // read from the back of a room), else any side clear of other labels, bars and glyphs.
        auto clear = [&](const QRectF &r) { return grid.fits(r, c.plan) && !grid.crossesMessage(r, c.plan); };
        // A name inside its bar moves along it past what stands on it (the next request's box, a
        // timeout's triangle), else out of it.
        if (!c.along.isNull() && !grid.fits(c.first, c.plan))
            c.first = grid.slide(c.first, c.along.right() - c.first.width(), c.plan);
        // A name that fits inside its bar stays there, lines across it or not: it is the bar's own.
        const bool inside = !c.along.isNull() && grid.fits(c.first, c.plan);
        if (!inside && !clear(c.first) && !clear(c.second) && clear(c.beside)) {
            grid.take(c.beside);
            m_labelRect[c.plan] = c.beside;
            m_labelText[c.plan] = c.text;
            continue;
        }
        const bool first = inside || (grid.fits(c.first, c.plan) && (clear(c.first) || !clear(c.second)));
        if (!first && !grid.fits(c.second, c.plan)) {
            m_labelHidden[c.plan] = true;
            continue;
        }
        const QRectF rect = first ? c.first : c.second;
        grid.take(rect);
        m_labelRect[c.plan] = rect;
        m_labelText[c.plan] = c.text;
        if (!first)
            m_labelBelow[c.plan] = !m_labelBelow.at(c.plan);
    }
    m_playheadDodge.clear();
    m_edgeShift.clear();
    m_edgeHidden.clear();
    indexLabels();
    dodgePlayhead();
    keepLabelsInView();
}

namespace {

constexpr qreal kNearCell = 160;

int nearCell(qreal x)
{
    return int(std::floor(x / kNearCell));
}

} // namespace

void TimelineScene::indexLabels()
{
    const int n = int(m_plans.size());
    m_inkRects = QList<QRectF>(n);
    m_nearCells.clear();
    auto add = [this](int plan, const QRectF &r) {
        for (int c = nearCell(r.left()); c <= nearCell(r.right()); ++c) {
            QList<int> &cell = m_nearCells[c];
            if (cell.isEmpty() || cell.last() != plan)
                cell.append(plan);
        }
    };
    for (int i = 0; i < n; ++i) {
        m_inkRects[i] = inkRect(i);
        if (!m_inkRects.at(i).isNull())
            add(i, m_inkRects.at(i));
        if (!m_labelRect.value(i).isNull())
            add(i, m_labelRect.at(i));
    }
}

QList<int> TimelineScene::plansNear(qreal left, qreal right) const
{
    QList<int> out;
    for (int c = nearCell(left); c <= nearCell(right); ++c) {
        const auto it = m_nearCells.constFind(c);
        if (it != m_nearCells.cend())
            out.append(*it);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QRectF TimelineScene::labelRect(int plan) const
{
    const QRectF r = placedLabelRect(plan);
    if (r.isNull() || m_edgeHidden.contains(plan))
        return QRectF();
    return r.translated(m_edgeShift.value(plan), 0);
}

QRectF TimelineScene::placedLabelRect(int plan) const
{
    const QRectF r = m_labelRect.value(plan);
    const auto it = m_playheadDodge.constFind(plan);
    return r.isNull() || it == m_playheadDodge.cend() ? r : r.translated(*it);
}

void TimelineScene::keepLabelsInView()
{
    QHash<int, qreal> shift;
    QSet<int> hidden;
    if (m_viewKnown) {
        const qreal left = m_exposedLeft + m_labelWidth;
        const qreal right = m_exposedRight;
        // Only a label reaching across an edge can be cut: those placed there, and those the playhead moved.
        QList<int> cut;
        QList<int> near = plansNear(left - 0.5, left) + plansNear(right, right + 0.5);
        for (auto it = m_playheadDodge.cbegin(); it != m_playheadDodge.cend(); ++it)
            near.append(it.key());
        std::sort(near.begin(), near.end());
        near.erase(std::unique(near.begin(), near.end()), near.end());
        m_labelLooks += near.size();
        for (const int i : std::as_const(near)) {
            if (cutByView(placedLabelRect(i)))
                cut.append(i);
        }
        for (const int i : std::as_const(cut)) {
            const QRectF r = placedLabelRect(i);
            const EventPlan &pl = m_plans.at(i);
            // Its mark: a glyph's centre, a bar's or a wait's visible stretch.
            const qreal from = anchorOf(i).x();
            const qreal to = pl.form == EventPlan::Form::Bar || pl.form == EventPlan::Form::Wait ? xOf(pl.to) : from;
            if (to >= left && from <= right && r.width() <= right - left) {
                const QRectF moved = r.translated(r.left() < left ? left - r.left() : right - r.right(), 0);
                bool clear = true;
                // A name inside its bar stays inside it; every label stays clear of the others and of marks.
                const QRectF own = inkRect(i);
                if (pl.form == EventPlan::Form::Bar && own.intersects(r)
                    && (moved.left() < own.left() || moved.right() > own.right()))
                    clear = false;
                // What may stand there: the labels and marks placed near it, and the labels moved since.
                QList<int> others = plansNear(moved.left(), moved.right());
                for (auto it = m_playheadDodge.cbegin(); it != m_playheadDodge.cend(); ++it)
                    others.append(it.key());
                for (auto it = shift.cbegin(); it != shift.cend(); ++it)
                    others.append(it.key());
                m_labelLooks += others.size();
                for (const int j : std::as_const(others)) {
                    if (j == i || !clear)
                        continue;
                    const QRectF other = m_labelRect.at(j).isNull() ? QRectF() : placedLabelRect(j).translated(shift.value(j), 0);
                    const QRectF ink = m_inkRects.at(j);
                    for (const QRectF &o : {other, ink}) {
                        const QRectF overlap = o.isNull() ? QRectF() : moved.intersected(o);
                        if (overlap.width() > 0.01 && overlap.height() > 0.01)
                            clear = false;
                    }
                }
                if (clear) {
                    shift.insert(i, moved.left() - r.left());
                    continue;
                }
            }
            hidden.insert(i); // its mark is out of view, or there is no room
        }
    }
    if (shift == m_edgeShift && hidden == m_edgeHidden)
        return;
    QSet<int> changed = hidden + m_edgeHidden;
    for (auto it = shift.cbegin(); it != shift.cend(); ++it)
        changed.insert(it.key());
    for (auto it = m_edgeShift.cbegin(); it != m_edgeShift.cend(); ++it)
        changed.insert(it.key());
    m_edgeShift = shift;
    m_edgeHidden = hidden;
    for (const int i : std::as_const(changed)) {
        if (i < m_items.size() && m_items.at(i)) {
            placeItem(i); // its bounds follow its label
            m_items.at(i)->update();
        }
    }
}

void TimelineScene::dodgePlayhead()
{
    QHash<int, QPointF> dodge;
    QList<QPair<qreal, qreal>> gaps;
    if (!m_plans.isEmpty()) {
        const qreal x = playheadX();
        const qreal gap = m_strokeScale + 3; // half the line's width and a little air
        // Only labels placed across the line can need to move (in plan order, as each takes its place).
        const QList<int> crossed = plansNear(x - gap, x + gap);
        m_labelLooks += crossed.size();
        for (const int i : crossed) {
            const QRectF r = m_labelRect.at(i);
            const EventPlan &pl = m_plans.at(i);
            const bool glyph = pl.form == EventPlan::Form::Marker || pl.form == EventPlan::Form::Arrow;
            if (r.isNull() || !glyph || pl.t > m_playhead || r.left() - gap >= x || r.right() + gap <= x)
                continue;
            // Left of the line, else right of it; on its side of the glyph, else on the other side.
            const QPointF at = anchorOf(i);
            const qreal reach = kGlyphRadius + 2 * gap; // from the glyph's edge to the label's
            QList<QPointF> moves;
            const qreal otherSide = r.center().y() < at.y() ? at.y() + kGlyphRadius + 2 - r.top()
                                                            : at.y() - kGlyphRadius - 2 - r.bottom();
            for (const qreal dy : {qreal(0), otherSide}) {
                const qreal left = (x - gap) - r.right();
                if (r.right() + left >= at.x() - reach)
                    moves << QPointF(left, dy);
                const qreal right = (x + gap) - r.left();
                if (r.left() + right <= at.x() + reach)
                    moves << QPointF(right, dy);
            }
            for (const QPointF &move : std::as_const(moves)) {
                const QRectF moved = r.translated(move);
                if (moved.left() < 0 || moved.top() < kAxisHeight - 0.5 || moved.bottom() > lanesBottom() + 8.5)
                    continue;
                // Clear of every other label and of every mark (a record's circle, a status's dot).
                const auto hits = [&moved](const QRectF &other) {
                    const QRectF overlap = moved.intersected(other);
                    return overlap.width() > 0 && overlap.height() > 0;
                };
                bool clear = true;
                // What may stand there: the labels and marks placed near it, and the labels moved since.
                QList<int> others = plansNear(moved.left(), moved.right());
                for (auto it = dodge.cbegin(); it != dodge.cend(); ++it)
                    others.append(it.key());
                m_labelLooks += others.size();
                for (const int j : std::as_const(others)) {
                    if (j == i || !clear)
                        continue;
                    const QRectF other = m_labelRect.at(j);
                    if (!other.isNull() && hits(other.translated(dodge.value(j))))
                        clear = false;
                    const EventPlan &o = m_plans.at(j);
                    const bool mark = (o.form == EventPlan::Form::Marker || o.form == EventPlan::Form::Arrow)
                                      && o.glyph != timeline::Glyph::None;
                    // A mark is its glyph's disc: its ink.
                    if (mark && hits(m_inkRects.at(j)))
                        clear = false;
                }
                if (clear && !hits(QRectF(at - QPointF(kGlyphRadius, kGlyphRadius), QSizeF(2, 2) * kGlyphRadius))) {
                    dodge.insert(i, move);
                    break;
                }
            }
            if (!dodge.contains(i))
                gaps.append({r.top() - 2, r.bottom() + 2});
        }
    }
    std::sort(gaps.begin(), gaps.end());
    m_playheadGaps = gaps;
    if (dodge == m_playheadDodge)
        return;
    QSet<int> changed;
    for (auto it = dodge.cbegin(); it != dodge.cend(); ++it) {
        if (m_playheadDodge.value(it.key()) != it.value())
            changed.insert(it.key());
    }
    for (auto it = m_playheadDodge.cbegin(); it != m_playheadDodge.cend(); ++it) {
        if (!dodge.contains(it.key()))
            changed.insert(it.key());
    }
    m_playheadDodge = dodge;
    for (const int i : std::as_const(changed)) {
        if (i < m_items.size() && m_items.at(i))
            placeItem(i); // its bounds follow its label
    }
}

qreal TimelineScene::leftPadAt(qreal zoom) const
{
    // Glyphs spread to the left of the first instant must not slide under the lane names.
    qreal leftmost = 0;
    for (int i = 0; i < m_plans.size(); ++i) {
        if (m_plans.at(i).dodge < 0)
            leftmost = qMin(leftmost, m_natural.x(m_plans.at(i).instant) * zoom + m_dodgeDx.value(i));
    }
    return qMax<qreal>(kLeftPad, 30 - leftmost + kGlyphRadius);
}

qreal TimelineScene::sceneWidthAt(qreal zoom) const
{
    const qreal width = leftPadAt(zoom) + m_natural.width() * zoom + kRightPad;
    return m_labelWidth + qMax<qreal>(width, 400);
}

QPointF TimelineScene::anchorOf(int plan) const
{
    const EventPlan &pl = m_plans.at(plan);
    return QPointF(xOf(pl.instant) + m_dodgeDx.value(plan), laneCenter(pl.lane, pl.slot));
}

QLineF TimelineScene::arrowLine(int plan) const
{
    const EventPlan &pl = m_plans.at(plan);
    if (pl.form != EventPlan::Form::Arrow || pl.originPlan < 0)
        return QLineF();
    const EventPlan &origin = m_plans.at(pl.originPlan);
    return QLineF(QPointF(xOf(origin.t), laneCenter(origin.lane, origin.slot)), anchorOf(plan));
}

QRectF TimelineScene::anchorRect(int plan) const
{
    const EventPlan &pl = m_plans.at(plan);
    const QPointF at = anchorOf(plan);
    const qreal r = kGlyphRadius + 4;
    QRectF rect(at.x() - r, at.y() - r, 2 * r, 2 * r);
    if (pl.form == EventPlan::Form::Bar || pl.form == EventPlan::Form::Wait)
        rect |= QRectF(at.x(), at.y() - barHalfHeight(), xOf(pl.to) - xOf(pl.t), 2 * barHalfHeight());
    return rect;
}

QRectF TimelineScene::drawnBox(int plan) const
{
    const EventPlan &pl = m_plans.at(plan);
    if (pl.form != EventPlan::Form::Bar)
        return QRectF();
    const QPointF at = anchorOf(plan);
    const qreal length = qMax<qreal>(xOf(pl.to) - xOf(pl.t), 3);
    // Half the gap off each end, and the stroke's half width inside it.
    const qreal inset = length > 4 * kBarGap ? kBarGap / 2 + 0.8 * m_strokeScale : 0;
    return QRectF(at.x() + inset, at.y() - barHalfHeight(), length - 2 * inset, 2 * barHalfHeight());
}

QRectF TimelineScene::inkRect(int plan) const
{
    const EventPlan &pl = m_plans.at(plan);
    const QPointF at = anchorOf(plan);
    switch (pl.form) {
    case EventPlan::Form::Bar:
        if (pl.passThrough)
            return QRectF();
        return QRectF(at.x(), at.y() - barHalfHeight(), qMax<qreal>(xOf(pl.to) - xOf(pl.t), 3), 2 * barHalfHeight());
    case EventPlan::Form::Arrow:
    case EventPlan::Form::Marker:
        if (pl.glyph == timeline::Glyph::None)
            return QRectF();
        return QRectF(at - QPointF(kGlyphRadius, kGlyphRadius), QSizeF(2, 2) * kGlyphRadius);
    case EventPlan::Form::Wait:
        break;
    }
    return QRectF();
}

void TimelineScene::placeItem(int i)
{
    const EventPlan &pl = m_plans.at(i);
    TimelineEventItem *item = m_items.at(i);
    const QPointF at = anchorOf(i);
    item->setPos(at);
    qreal length = 0;
    timeline::ArrowCurve curve;
    qreal offset = 0;
    switch (pl.form) {
    case EventPlan::Form::Bar:
        length = xOf(pl.to) - xOf(pl.t);
        offset = m_labelOffset.value(i);
        break;
    case EventPlan::Form::Wait:
        length = xOf(pl.to) - xOf(pl.t);
        break;
    case EventPlan::Form::Arrow:
        // Arrows start at their origin's moment, whether or not the origin has an item.
        if (pl.originPlan >= 0)
            curve = arrowCurve(i).translated(-at);
        break;
    case EventPlan::Form::Marker:
        break;
    }
    item->setGeometry(length, curve, barHalfHeight(), offset);
    ++m_geometryUpdates;
}

void TimelineScene::setExposedRange(qreal left, qreal right, bool shown)
{
    m_exposedLeft = left;
    m_exposedRight = qMax(left, right);
    m_viewKnown = shown;
    keepLabelsInView();
    if (m_plans.size() <= kEagerLimit)
        return;
    // Items are chosen for the exposed range and half its width on either side: scrolling by less
    // than that, or playback moving the view along, creates and removes nothing.
    if (m_windowValid && m_liveLeft <= left && right <= m_liveRight)
        return;
    syncItems();
}

void TimelineScene::materializeAll()
{
    // An export shows the whole operation: no label is cut at a view's edge there.
    m_viewKnown = false;
    keepLabelsInView();
    syncItems(true);
    m_windowValid = false; // the next exposed range removes what it does not need
}

TimelineEventItem *TimelineScene::itemForTrace(int traceIndex)
{
    const int plan = planOfTrace(traceIndex);
    if (plan < 0)
        return nullptr;
    if (!m_items.at(plan)) {
        auto *item = new TimelineEventItem(this, plan);
        item->setToolTip(timeline::details(eventOf(plan)));
        m_items[plan] = item;
        m_live.append(plan);
        addItem(item);
        placeItem(plan);
    }
    return m_items.at(plan);
}

void TimelineScene::syncItems(bool all)
{
    const int n = int(m_plans.size());
    QList<bool> wanted(n, false);
    m_windowValid = true;
    if (all || n <= kEagerLimit) {
        wanted.fill(true);
        m_liveLeft = -std::numeric_limits<qreal>::max();
        m_liveRight = std::numeric_limits<qreal>::max();
    } else {
        const qreal extra = (m_exposedRight - m_exposedLeft) / 2;
        m_liveLeft = m_exposedLeft - extra;
        m_liveRight = m_exposedRight + extra;
        // Labels and dodged glyphs reach beyond an event's times: a generous margin in time.
        const qreal reach = 220 + m_maxDodge;
        const qint64 t0 = timeAtX(m_liveLeft - reach);
        const qint64 t1 = timeAtX(m_liveRight + reach);
        const qint64 c0 = timeAtX(m_exposedLeft - reach);
        const qint64 c1 = timeAtX(m_exposedRight + reach);
        // What the view shows first, then its surroundings; never more than kMaxLiveItems.
        int count = 0;
        for (int pass = 0; pass < 2 && count < kMaxLiveItems; ++pass) {
            const qint64 lo = pass == 0 ? c0 : t0;
            const qint64 hi = pass == 0 ? c1 : t1;
            for (int i = 0; i < n && count < kMaxLiveItems; ++i) {
                const EventPlan &pl = m_plans.at(i);
                if (!wanted.at(i) && pl.spanEnd() >= lo && pl.spanStart() <= hi) {
                    wanted[i] = true;
                    ++count;
                }
            }
        }
    }
    int selected = -1;
    const QList<QGraphicsItem *> selection = selectedItems();
    if (!selection.isEmpty() && selection.first()->type() == TimelineEventItem::Type)
        selected = static_cast<TimelineEventItem *>(selection.first())->planIndex();
    QList<int> live;
    live.reserve(m_live.size());
    for (const int plan : std::as_const(m_live)) {
        if (wanted.at(plan) || plan == selected) {
            live.append(plan);
            continue;
        }
        removeItem(m_items.at(plan));
        delete m_items.at(plan);
        m_items[plan] = nullptr;
    }
    for (int i = 0; i < n; ++i) {
        if (!wanted.at(i) || m_items.at(i))
            continue;
        auto *item = new TimelineEventItem(this, i);
        item->setToolTip(timeline::details(eventOf(i)));
        m_items[i] = item;
        live.append(i);
        addItem(item);
        placeItem(i);
    }
    m_live = live;
}

void TimelineScene::relayout()
{
    m_axis.build(m_times, kPxPerMs * m_zoom, kBreakAfterUs, kBreakPx * m_zoom, kBreakPxPerDoubling * m_zoom);
    m_leftPad = leftPadAt(m_zoom);
    // Tick labels keep a gap between them: the start of each burst can fall closer to a round tick
    // than the spacing asked for ("48.823 s49.875 s" in presentation mode's font).
    m_ticks.clear();
    qreal lastRight = -std::numeric_limits<qreal>::max();
    for (const TimeAxis::Tick &tick : m_axis.ticks(96)) {
        const QRectF r = tickLabelRect(tick);
        if (r.left() < lastRight + kTickGap)
            continue;
        m_ticks.append(tick);
        lastRight = r.right();
    }
    m_maxDodge = 0;
    for (const qreal dx : std::as_const(m_dodgeDx))
        m_maxDodge = qMax(m_maxDodge, qAbs(dx));
    routeMessages();
    // Positions changed: the live items are chosen again (the widget then reports the range it exposes),
    // and only live items move: O(live items), however long the operation.
    layoutLabels();
    m_windowValid = false;
    if (m_plans.size() > kEagerLimit || m_live.size() < m_plans.size())
        syncItems();
    for (const int plan : std::as_const(m_live))
        placeItem(plan);
    updateSceneRect();
    update();
}

void TimelineScene::routeMessages()
{
    QList<timeline::ArrowSpec> specs;
    QList<int> owners;
    for (int i = 0; i < m_plans.size(); ++i) {
        const EventPlan &pl = m_plans.at(i);
        if (pl.form != EventPlan::Form::Arrow || pl.originPlan < 0)
            continue;
        const QLineF line = arrowLine(i);
        specs.append(timeline::ArrowSpec{line.p1(), line.p2(), pl.glyph == Glyph::Arrow});
        owners.append(i);
    }
    const QList<timeline::ArrowCurve> curves = timeline::routeArrows(specs, kGlyphRadius, kArrowGap);
    m_arrowCurves = QList<timeline::ArrowCurve>(m_plans.size());
    for (int k = 0; k < owners.size(); ++k)
        m_arrowCurves[owners.at(k)] = curves.at(k);
}

void TimelineScene::updateSceneRect()
{
    setSceneRect(QRectF(-m_labelWidth, 0, sceneWidthAt(m_zoom), contentHeight()));
}

qint64 TimelineScene::instantAt(qint64 t) const
{
    auto it = std::upper_bound(m_times.cbegin(), m_times.cend(), t);
    if (it == m_times.cbegin())
        return std::numeric_limits<qint64>::min();
    return *(it - 1);
}

void TimelineScene::setPlayhead(qint64 t)
{
    if (t == m_playhead)
        return;
    const qint64 old = m_playhead;
    const qint64 oldInstant = m_instant;
    const qreal oldX = playheadX();
    m_playhead = t;
    m_instant = instantAt(t);
    dodgePlayhead();
    keepLabelsInView();
    const qint64 lo = qMin(old, t);
    const qint64 hi = qMax(old, t);
    // Only items whose drawing depends on the crossed interval are repainted; the scene batches them.
    for (const int i : std::as_const(m_live)) {
        const EventPlan &pl = m_plans.at(i);
        if ((pl.spanEnd() >= lo && pl.spanStart() <= hi) || pl.t == oldInstant || pl.t == m_instant)
            m_items[i]->update();
    }
    const qreal h = contentHeight();
    if (m_futureHidden) {
        update(); // ticks, breaks and glyphs appear as the playhead reaches them
        return;
    }
    update(QRectF(oldX - 60, 0, 120, h));
    update(QRectF(playheadX() - 60, 0, 120, h));
    // Tick labels the bubble hid or uncovers, on the axis.
    update(QRectF(oldX - 160, 0, 320, kAxisHeight));
    update(QRectF(playheadX() - 160, 0, 320, kAxisHeight));
}

QRectF TimelineScene::playheadBubble() const
{
    if (m_plans.isEmpty())
        return QRectF();
    const QString text = timeline::formatAxisTime(m_playhead, 1000);
    const qreal w = QFontMetricsF(m_badgeFont).horizontalAdvance(text) + 14;
    const qreal x = playheadX();
    if (!m_viewKnown)
        return QRectF(x - w / 2, 2, w, 20);
    // Whole inside the lanes' visible part while the line is in view (it slides along the edge), else none.
    const qreal left = m_exposedLeft + m_labelWidth;
    const qreal right = m_exposedRight;
    if (x < left || x > right || w > right - left)
        return QRectF();
    return QRectF(qBound(left, x - w / 2, right - w), 2, w, 20);
}

QRectF TimelineScene::tickLabelRect(const TimeAxis::Tick &tick) const
{
    const qreal w = QFontMetricsF(m_badgeFont).horizontalAdvance(tick.label) + 4;
    return QRectF(m_leftPad + tick.x - w / 2, 2, w, 20);
}

bool TimelineScene::tickLabelHidden(const TimeAxis::Tick &tick) const
{
    // The playhead's time bubble covers the axis: a tick label under it would only show as a smudge.
    const QRectF bubble = playheadBubble();
    const QRectF r = tickLabelRect(tick);
    return (!bubble.isNull() && r.intersects(bubble.adjusted(-4, 0, 4, 0))) || cutByView(r);
}

bool TimelineScene::cutByView(const QRectF &r) const
{
    if (!m_viewKnown || r.isNull())
        return false;
    const qreal left = m_exposedLeft + m_labelWidth; // the lane names are pinned over the lanes' left
    const qreal right = m_exposedRight;
    return (r.left() < left - 0.5 && r.right() > left) || (r.left() < right && r.right() > right + 0.5);
}

QRectF TimelineScene::breakLabelRect(const TimeAxis::Break &b, QString *text) const
{
    QFont f = m_badgeFont;
    f.setItalic(true);
    const qreal x0 = m_leftPad + b.x0;
    const qreal x1 = m_leftPad + b.x1;
    *text = timeline::formatDuration(b.t1 - b.t0);
    const qreal tw = QFontMetricsF(f).horizontalAdvance(*text);
    if (x1 - x0 <= tw + 26)
        return QRectF();
    const qreal zx = (x0 + x1) / 2 - tw / 2 - 8;
    return QRectF(zx + 8, kAxisHeight - 19, tw + 4, 18);
}

QList<QPair<QRectF, QString>> TimelineScene::shownTexts() const
{
    QList<QPair<QRectF, QString>> texts;
    for (int i = 0; i < m_labelRect.size(); ++i) {
        // Drawn at opacity 0 before the reveal: not shown.
        const QRectF r = labelRect(i);
        if (!r.isNull() && !(m_futureHidden && m_plans.at(i).t > m_playhead))
            texts.append({r, m_labelText.at(i)});
    }
    for (const TimeAxis::Tick &tick : m_ticks) {
        if (!tickLabelHidden(tick) && !axisHidden(tick.t))
            texts.append({tickLabelRect(tick), tick.label});
    }
    for (const TimeAxis::Break &b : m_axis.breaks()) {
        if (axisHidden(b.t0))
            continue;
        QString text;
        const QRectF r = breakLabelRect(b, &text);
        if (!r.isNull() && !cutByView(r))
            texts.append({r, text});
    }
    const QRectF bubble = playheadBubble();
    if (!bubble.isNull())
        texts.append({bubble, timeline::formatAxisTime(m_playhead, 1000)});
    return texts;
}

QList<QRectF> TimelineScene::shownTickLabels() const
{
    QList<QRectF> rects;
    for (const TimeAxis::Tick &tick : m_ticks) {
        if (!tickLabelHidden(tick))
            rects.append(tickLabelRect(tick));
    }
    return rects;
}

void TimelineScene::notifyClicked(int traceIndex)
{
    Q_EMIT eventClicked(traceIndex);
}

void TimelineScene::setFutureHidden(bool hidden)
{
    if (hidden == m_futureHidden)
        return;
    m_futureHidden = hidden;
    relayout(); // summaries of waits count only what has been revealed
}

qreal TimelineScene::futureOpacity() const
{
    return m_futureHidden ? 0.0 : kFaded;
}

void TimelineScene::setEmphasisedLane(int lane)
{
    const int next = lane >= 0 && lane < kLaneCount ? lane : -1;
    if (next == m_emphasisedLane)
        return;
    m_emphasisedLane = next;
    invalidate(sceneRect(), QGraphicsScene::BackgroundLayer);
    update();
}

namespace {

// Sets `a` (and `b`, beside it) a little smaller at a time until `ta` (and `tb`) fit `width` pixels,
// and the taller font `height` pixels when height > 0. Font sizes do not scale text widths exactly:
// measured, not computed.
void shrinkToFit(QFont *a, QFont *b, const QString &ta, const QString &tb, qreal width, qreal height)
{
    auto fits = [&]() {
        const QFontMetricsF ma(*a);
        qreal w = ma.horizontalAdvance(ta);
        qreal h = ma.height();
        if (b) {
            const QFontMetricsF mb(*b);
            w += mb.horizontalAdvance(tb);
            h = qMax(h, mb.height());
        }
        return w <= width && (height <= 0 || h <= height);
    };
    for (int i = 0; i < 40 && !fits(); ++i) {
        a->setPointSizeF(a->pointSizeF() * 0.96);
        if (b)
            b->setPointSizeF(b->pointSizeF() * 0.96);
    }
}

} // namespace

TimelineScene::LaneText TimelineScene::laneText(int i) const
{
    LaneText out;
    out.nameFont = m_laneFont;
    out.noteFont = m_noteFont;
    const QRectF lane(0, laneTop(i), m_labelWidth, laneHeight(i));
    out.nameText = TimelineScene::tr(kLaneNames[i]);
    const QString note = m_laneNotes.value(i);
    const qreal textW = m_labelWidth - 24;
    if (note.isEmpty()) {
        out.name = QRectF(20, lane.top(), textW, lane.height());
        return out;
    }
    // The note is set smaller when it is too wide for the column (updateLabelWidth() keeps that small).
    shrinkToFit(&out.noteFont, nullptr, note, QString(), textW, 0);
    const qreal nameH = QFontMetricsF(out.nameFont).height();
    const qreal noteH = QFontMetricsF(out.noteFont).height();
    if (lane.height() >= nameH + noteH - 2) {
        // Tall enough: the note on a line of its own under the name.
        const qreal gap = qBound<qreal>(-2, (lane.height() - nameH - noteH) / 2, 1);
        const qreal top = lane.center().y() - (nameH + noteH + gap) / 2;
        out.name = QRectF(20, top, textW, nameH);
        out.note = QRectF(20, top + nameH + gap, QFontMetricsF(out.noteFont).horizontalAdvance(note) + 1, noteH);
        return out;
    }
    // A short lane: the note beside the name, both set smaller if the column or the lane needs it.
    shrinkToFit(&out.nameFont, &out.noteFont, out.nameText, note, textW - 7, lane.height() + 2);
    const qreal nameW2 = QFontMetricsF(out.nameFont).horizontalAdvance(out.nameText) + 6;
    out.name = QRectF(20, lane.top(), nameW2, lane.height());
    out.note = QRectF(20 + nameW2, lane.top(), QFontMetricsF(out.noteFont).horizontalAdvance(note) + 1, lane.height());
    return out;
}

void TimelineScene::paintLaneLabels(QPainter *p, qreal left, qreal top, qreal bottom) const
{
    const Colors &c = m_colors;
    p->save();
    const QRectF column(left, top, m_labelWidth, bottom - top);
    p->fillRect(column, c.base);
    for (int i = 0; i < kLaneCount; ++i) {
        const QRectF lane(left, laneTop(i), m_labelWidth, laneHeight(i));
        if (i % 2 == 1)
            p->fillRect(lane, c.alternate);
        if (i == m_emphasisedLane) {
            QColor tint = c.highlight;
            tint.setAlpha(70);
            p->fillRect(lane, tint);
        }
        const bool enabled = m_laneEnabled.value(i, true);
        const QColor swatch = i < 3 ? c.color(Role(int(Role::Business) + i)) : c.server;
        p->setPen(Qt::NoPen);
        p->setBrush(enabled ? swatch : c.grid);
        p->drawRoundedRect(QRectF(left + 8, lane.top() + lane.height() * 0.22, 5, lane.height() * 0.56), 2, 2);
        const LaneText text = laneText(i);
        p->setFont(text.nameFont);
        p->setPen(enabled ? c.text : c.muted);
        p->drawText(text.name.translated(left, 0), Qt::AlignLeft | Qt::AlignVCenter, TimelineScene::tr(kLaneNames[i]));
        if (!text.note.isNull()) {
            p->setFont(text.noteFont);
            p->setPen(c.muted);
            p->drawText(text.note.translated(left, 0), Qt::AlignLeft | Qt::AlignVCenter, m_laneNotes.value(i));
        }
    }
    p->setPen(QPen(c.grid, 1));
    p->drawLine(QPointF(left + m_labelWidth - 0.5, top), QPointF(left + m_labelWidth - 0.5, bottom));
    p->restore();
}

void TimelineScene::drawBackground(QPainter *p, const QRectF &rect)
{
    const Colors &c = m_colors;
    p->fillRect(rect, c.base);
    const qreal left = rect.left();
    const qreal right = rect.right();
    for (int i = 0; i < kLaneCount; ++i) {
        if (i % 2 == 1)
            p->fillRect(QRectF(left, laneTop(i), rect.width(), laneHeight(i)), c.alternate);
    }
    // A lesson's highlighted lane: tinted, with an outline the class sees from the back of the room.
    if (m_emphasisedLane >= 0) {
        const QRectF band(left, laneTop(m_emphasisedLane), rect.width(), laneHeight(m_emphasisedLane));
        QColor tint = c.highlight;
        tint.setAlpha(45);
        p->fillRect(band, tint);
        p->setPen(QPen(c.highlight, 2.5 * m_strokeScale));
        p->drawLine(QPointF(left, band.top() + 1), QPointF(right, band.top() + 1));
        p->drawLine(QPointF(left, band.bottom() - 1), QPointF(right, band.bottom() - 1));
    }
    // Client | network | server: the boundaries a message has to cross are drawn stronger.
    for (int i = 0; i <= kLaneCount; ++i) {
        const bool strong = i == 3 || i == 4;
        p->setPen(QPen(strong ? c.muted : c.grid, strong ? 1.2 : 1));
        const qreal y = laneTop(i) + 0.5;
        p->drawLine(QPointF(left, y), QPointF(right, y));
    }

    if (!m_axis.isEmpty()) {
        // Breaks: compressed quiet time, hatched and labelled with its real length.
        QFont f = m_badgeFont;
        f.setItalic(true);
        p->setFont(f);
        const QList<TimeAxis::Break> &breaks = m_axis.breaks();
        auto firstBreak = std::lower_bound(breaks.cbegin(), breaks.cend(), left - m_leftPad,
                                           [](const TimeAxis::Break &b, qreal x) { return b.x1 < x; });
        for (auto it = firstBreak; it != breaks.cend() && m_leftPad + it->x0 <= right; ++it) {
            const TimeAxis::Break &b = *it;
            if (axisHidden(b.t0))
                continue;
            const qreal x0 = m_leftPad + b.x0;
            const qreal x1 = m_leftPad + b.x1;
            // Hatching drawn as lines: pattern brushes do not survive the SVG export.
            QColor band = c.grid;
            band.setAlphaF(0.6f);
            const QRectF area(x0 + 6, kAxisHeight, qMax<qreal>(0, x1 - x0 - 12), (lanesBottom() - kAxisHeight));
            p->save();
            p->setClipRect(area.intersected(rect.adjusted(-2, -2, 2, 2)));
            p->setPen(QPen(band, 1));
            const qreal h = area.height();
            for (qreal x = area.left() - h; x < area.right(); x += 9)
                p->drawLine(QPointF(x, area.bottom()), QPointF(x + h, area.top()));
            p->restore();
            p->setPen(QPen(c.muted, 1.2));
            QString text;
            const QRectF label = breakLabelRect(b, &text);
            // A broken axis: two slashes, and the real length of the skipped time beside them.
            const qreal zx = label.isNull() ? (x0 + x1) / 2 : label.left() - 8;
            for (const qreal dx : {-3.0, 3.0})
                p->drawLine(QPointF(zx + dx - 3, kAxisHeight - 3), QPointF(zx + dx + 3, kAxisHeight - 15));
            if (!label.isNull() && !cutByView(label)) {
                p->setPen(c.muted);
                p->drawText(label, Qt::AlignLeft | Qt::AlignVCenter, text);
            }
        }
        // Ticks and a faint grid through the lanes.
        p->setFont(m_badgeFont);
        auto firstTick = std::lower_bound(m_ticks.cbegin(), m_ticks.cend(), left - m_leftPad - 100,
                                          [](const TimeAxis::Tick &t, qreal x) { return t.x < x; });
        for (auto it = firstTick; it != m_ticks.cend() && m_leftPad + it->x <= right + 100; ++it) {
            const TimeAxis::Tick &tick = *it;
            if (axisHidden(tick.t))
                continue;
            const qreal x = m_leftPad + tick.x;
            p->setPen(QPen(c.grid, 1));
            p->drawLine(QPointF(x, kAxisHeight), QPointF(x, kAxisHeight + (lanesBottom() - kAxisHeight)));
            p->setPen(QPen(c.muted, 1));
            p->drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, kAxisHeight));
            if (!tickLabelHidden(tick)) {
                p->setPen(c.text);
                p->drawText(QRectF(x - 48, 2, 96, 20), Qt::AlignCenter, tick.label);
            }
        }
    }
    p->setPen(QPen(c.muted, 1));
    p->drawLine(QPointF(left, kAxisHeight - 0.5), QPointF(right, kAxisHeight - 0.5));

    if (m_plans.isEmpty() && !m_emptyText.isEmpty()) {
        p->setFont(m_laneFont);
        p->setPen(c.muted);
        p->drawText(emptyTextRect(), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    }
    if (rect.left() < 0)
        paintLaneLabels(p, -m_labelWidth, 0, contentHeight());
}

QRectF TimelineScene::emptyTextRect() const
{
    // In the lanes' visible part (Watch at 1024x640 showed "Waiting for requests: send an order to"
    // and the rest cut at the viewport's right), at most 600 pixels wide.
    qreal left = 0;
    qreal width = 600;
    if (m_viewKnown) {
        left = qMax<qreal>(0, m_exposedLeft + m_labelWidth) + 12;
        width = qBound<qreal>(40, m_exposedRight - 12 - left, 600);
    }
    return QRectF(left, kAxisHeight, width, lanesBottom() - kAxisHeight);
}

void TimelineScene::drawForeground(QPainter *p, const QRectF &rect)
{
    if (m_plans.isEmpty())
        return;
    const qreal x = playheadX();
    if (x < rect.left() - 60 || x > rect.right() + 60)
        return;
    const Colors &c = m_colors;
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(c.playhead, 2 * m_strokeScale, Qt::SolidLine, Qt::FlatCap));
    // Broken where a label it could not move off stands on it.
    qreal top = 20;
    for (const QPair<qreal, qreal> &gap : std::as_const(m_playheadGaps)) {
        if (gap.first > top)
            p->drawLine(QPointF(x, top), QPointF(x, gap.first));
        top = qMax(top, gap.second);
    }
    if (lanesBottom() > top)
        p->drawLine(QPointF(x, top), QPointF(x, lanesBottom()));
    // The current time in a pill on the axis.
    p->setFont(m_badgeFont);
    const QString text = timeline::formatAxisTime(m_playhead, 1000);
    const QRectF pill = playheadBubble();
    p->setPen(Qt::NoPen);
    p->setBrush(c.playhead);
    p->drawRoundedRect(pill, pill.height() / 2, pill.height() / 2);
    p->setPen(c.base);
    p->drawText(pill, Qt::AlignCenter, text);
    p->restore();
}

} // namespace retrylab
