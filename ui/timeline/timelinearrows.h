#pragma once

#include <QList>
#include <QPainterPath>
#include <QPointF>
#include <QPolygonF>

namespace retrylab::timeline {

// A message's line on the timeline: a quadratic curve from the moment it left to the moment it
// arrived, straight unless routeArrows() bows it around another message's end. The control point
// stays inside the box of the two ends, so x grows along the curve: a message never runs leftwards.
struct ArrowCurve
{
    QPointF from;
    QPointF control;
    QPointF to;

    static ArrowCurve straight(const QPointF &from, const QPointF &to);
    bool isNull() const { return from == to; }
    bool isStraight() const;
    QPointF pointAt(qreal t) const;
    // Direction of travel where it arrives, in degrees as QLineF::angle() counts them.
    qreal endAngle() const;
    // The part from `from` to parameter t (0..1).
    ArrowCurve upTo(qreal t) const;
    // The parameter where the curve reaches scene x (clamped to 0..1).
    qreal parameterAtX(qreal x) const;
    // Shortest distance from `p` to the curve.
    qreal distanceTo(const QPointF &p) const;
    QPainterPath path() const;
    ArrowCurve translated(const QPointF &offset) const;
};

// Size of an arrowhead for glyph radius r (drawGlyph(Glyph::Arrow) is given r * this).
inline constexpr qreal ArrowHeadScale = 1.3;

// The arrowhead drawn at the curve's end, in the curve's coordinates.
QPolygonF arrowHead(const ArrowCurve &curve, qreal glyphRadius);

// One message to route: its straight ends, and whether it ends in an arrowhead (else in a round glyph
// of radius glyphRadius, such as the cross of a lost message).
struct ArrowSpec
{
    QPointF from;
    QPointF to;
    bool head = true;
};

// Messages arriving a few milliseconds apart on two rows of a lane (a double submit's two 201s)
// would run their straight lines over each other's arrowheads. Each message whose line passes within
// `gap` pixels of another message's end is bowed, as little as it takes, to keep that gap; the others
// stay straight. One curve per spec, in order. A pure function of its arguments. `endsMeasured`, when
// given, counts the clearances measured (clearanceFromEnd): at most a constant per message.
QList<ArrowCurve> routeArrows(const QList<ArrowSpec> &arrows, qreal glyphRadius, qreal gap,
                              qint64 *endsMeasured = nullptr);

// Distance by which the curve keeps clear of the end of another message `end` (negative: it runs
// over it). The end is its arrowhead when `head`, else its round glyph.
qreal clearanceFromEnd(const ArrowCurve &curve, const ArrowCurve &end, bool head, qreal glyphRadius);

} // namespace retrylab::timeline
