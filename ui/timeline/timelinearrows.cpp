#include "timeline/timelinearrows.h"

#include <QLineF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab::timeline {

namespace {

constexpr int kSamples = 32;
// Past this many ends in its way a message is in a smear of messages (a long run zoomed out):
// no bow would clear them all, so it stays straight.
constexpr int kMostEndsToAvoid = 4;

qreal length(const QPointF &v)
{
    return std::hypot(v.x(), v.y());
}

qreal pointToSegment(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const qreal len2 = QPointF::dotProduct(ab, ab);
    const qreal t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    return length(p - (a + t * ab));
}

qreal cross(const QPointF &a, const QPointF &b)
{
    return a.x() * b.y() - a.y() * b.x();
}

bool segmentsCross(const QPointF &a, const QPointF &b, const QPointF &c, const QPointF &d)
{
    const qreal d1 = cross(b - a, c - a);
    const qreal d2 = cross(b - a, d - a);
    const qreal d3 = cross(d - c, a - c);
    const qreal d4 = cross(d - c, b - c);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

qreal segmentToSegment(const QPointF &a, const QPointF &b, const QPointF &c, const QPointF &d)
{
    if (segmentsCross(a, b, c, d))
        return 0;
    return std::min({pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b), pointToSegment(d, a, b)});
}

// Signed: negative when the point lies inside the (convex) polygon.
qreal polygonDistance(const QPolygonF &polygon, const QPointF &a, const QPointF &b)
{
    qreal best = std::numeric_limits<qreal>::max();
    for (int i = 0; i < polygon.size(); ++i)
        best = std::min(best, segmentToSegment(a, b, polygon.at(i), polygon.at((i + 1) % polygon.size())));
    if (polygon.containsPoint(a, Qt::OddEvenFill) || polygon.containsPoint(b, Qt::OddEvenFill))
        return -best;
    return best;
}

// How far the message's end reaches around its tip: the arrowhead's length, or the glyph's radius.
qreal endReach(bool head, qreal glyphRadius)
{
    return head ? glyphRadius * ArrowHeadScale : glyphRadius;
}

} // namespace

ArrowCurve ArrowCurve::straight(const QPointF &from, const QPointF &to)
{
    return ArrowCurve{from, (from + to) / 2, to};
}

bool ArrowCurve::isStraight() const
{
    const QPointF chord = to - from;
    const qreal len = length(chord);
    return len <= 0 || std::abs(cross(chord, control - from)) / len < 1e-6;
}

QPointF ArrowCurve::pointAt(qreal t) const
{
    const qreal u = 1 - t;
    return u * u * from + 2 * t * u * control + t * t * to;
}

qreal ArrowCurve::endAngle() const
{
    const QLineF tangent = control != to ? QLineF(control, to) : QLineF(from, to);
    return tangent.angle();
}

ArrowCurve ArrowCurve::upTo(qreal t) const
{
    return ArrowCurve{from, from + t * (control - from), pointAt(t)};
}

qreal ArrowCurve::parameterAtX(qreal x) const
{
    // x grows along the curve (the control lies between the ends): bisect.
    if (x <= from.x())
        return 0;
    if (x >= to.x())
        return 1;
    qreal lo = 0;
    qreal hi = 1;
    for (int i = 0; i < 40; ++i) {
        const qreal mid = (lo + hi) / 2;
        (pointAt(mid).x() < x ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

qreal ArrowCurve::distanceTo(const QPointF &p) const
{
    qreal best = std::numeric_limits<qreal>::max();
    QPointF previous = from;
    for (int i = 1; i <= kSamples; ++i) {
        const QPointF next = pointAt(qreal(i) / kSamples);
        best = std::min(best, pointToSegment(p, previous, next));
        previous = next;
    }
    return best;
}

QPainterPath ArrowCurve::path() const
{
    QPainterPath path(from);
    if (isStraight())
        path.lineTo(to);
    else
        path.quadTo(control, to);
    return path;
}

ArrowCurve ArrowCurve::translated(const QPointF &offset) const
{
    return ArrowCurve{from + offset, control + offset, to + offset};
}

QPolygonF arrowHead(const ArrowCurve &curve, qreal glyphRadius)
{
    const qreal size = glyphRadius * ArrowHeadScale;
    QLineF back = QLineF::fromPolar(size, curve.endAngle() + 180).translated(curve.to);
    const QPointF base = back.p2();
    const QPointF normal = QLineF::fromPolar(size * 0.55, curve.endAngle() + 90).p2();
    return QPolygonF{curve.to, base + normal, base - normal};
}

qreal clearanceFromEnd(const ArrowCurve &curve, const ArrowCurve &end, bool head, qreal glyphRadius)
{
    if (!head)
        return curve.distanceTo(end.to) - glyphRadius;
    const QPolygonF polygon = arrowHead(end, glyphRadius);
    qreal best = std::numeric_limits<qreal>::max();
    QPointF previous = curve.from;
    for (int i = 1; i <= kSamples; ++i) {
        const QPointF next = curve.pointAt(qreal(i) / kSamples);
        const qreal d = polygonDistance(polygon, previous, next);
        if (d < best)
            best = d;
        previous = next;
    }
    return best;
}

namespace {

// The ends a message must keep clear of: those beside its path, but not those on its own ends
// (a reply leaving where its request arrived, two heads on one point: no bow separates them).
// It stops at kMostEndsToAvoid + 1: past that the message stays straight, whatever the others are
// (a zoomed-out operation of 5,040 events spent 15 s here measuring lines against ends it never bows for).
QList<int> endsInTheWay(int i, const QList<ArrowSpec> &arrows, const QList<ArrowCurve> &curves,
                        const QList<int> &byEndX, qreal glyphRadius, qreal gap)
{
    const ArrowSpec &a = arrows.at(i);
    const qreal reach = endReach(true, glyphRadius) + gap;
    const qreal left = std::min(a.from.x(), a.to.x()) - reach;
    const qreal right = std::max(a.from.x(), a.to.x()) + reach;
    const qreal top = std::min(a.from.y(), a.to.y()) - reach;
    const qreal bottom = std::max(a.from.y(), a.to.y()) + reach;
    auto first = std::lower_bound(byEndX.cbegin(), byEndX.cend(), left,
                                  [&](int j, qreal x) { return arrows.at(j).to.x() < x; });
    QList<int> out;
    for (auto it = first; it != byEndX.cend() && arrows.at(*it).to.x() <= right; ++it) {
        const int j = *it;
        const QPointF tip = curves.at(j).to;
        if (j == i || tip.y() < top || tip.y() > bottom)
            continue;
        if (length(tip - a.from) < 2 * reach || length(tip - a.to) < 2 * reach)
            continue;
        out.append(j);
        if (out.size() > kMostEndsToAvoid)
            break;
    }
    return out;
}

qreal worstClearance(const ArrowCurve &curve, const QList<int> &ends, const QList<ArrowSpec> &arrows,
                     const QList<ArrowCurve> &curves, qreal glyphRadius, qint64 *measured)
{
    qreal worst = std::numeric_limits<qreal>::max();
    for (const int j : ends)
        worst = std::min(worst, clearanceFromEnd(curve, curves.at(j), arrows.at(j).head, glyphRadius));
    if (measured)
        *measured += ends.size();
    return worst;
}

// Bows within the box of the ends (sideways or up and down), the slightest bow first.
QList<ArrowCurve> bowsOf(const ArrowSpec &a)
{
    const QPointF middle = (a.from + a.to) / 2;
    const qreal halfWidth = std::abs(a.to.x() - a.from.x()) / 2;
    const qreal halfHeight = std::abs(a.to.y() - a.from.y()) / 2;
    const QPointF chord = a.to - a.from;
    const qreal chordLength = std::max<qreal>(length(chord), 1e-9);
    QList<QPair<qreal, ArrowCurve>> bows;
    for (const qreal k : {0.2, 0.4, 0.6, 0.8}) {
        for (const qreal side : {-1.0, 1.0}) {
            for (const QPointF &offset : {QPointF(side * k * halfWidth, 0), QPointF(0, side * k * halfHeight)}) {
                const QPointF control = middle + offset;
                const qreal bow = std::abs(cross(chord, control - a.from)) / chordLength;
                if (bow > 0.5)
                    bows.append({bow, ArrowCurve{a.from, control, a.to}});
            }
        }
    }
    std::stable_sort(bows.begin(), bows.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
    QList<ArrowCurve> out;
    for (const auto &b : std::as_const(bows))
        out.append(b.second);
    return out;
}

} // namespace

QList<ArrowCurve> routeArrows(const QList<ArrowSpec> &arrows, qreal glyphRadius, qreal gap, qint64 *endsMeasured)
{
    QList<ArrowCurve> curves;
    curves.reserve(arrows.size());
    for (const ArrowSpec &a : arrows)
        curves.append(ArrowCurve::straight(a.from, a.to));
    QList<int> byEndX(arrows.size());
    for (int i = 0; i < byEndX.size(); ++i)
        byEndX[i] = i;
    std::stable_sort(byEndX.begin(), byEndX.end(), [&](int x, int y) { return arrows.at(x).to.x() < arrows.at(y).to.x(); });
    // A bow turns a message's own head a little: a second pass routes against the turned heads.
    for (int pass = 0; pass < 2; ++pass) {
        const QList<ArrowCurve> ends = curves;
        for (int i = 0; i < arrows.size(); ++i) {
            const ArrowSpec &a = arrows.at(i);
            const ArrowCurve straight = ArrowCurve::straight(a.from, a.to);
            const QList<int> inTheWay = endsInTheWay(i, arrows, ends, byEndX, glyphRadius, gap);
            if (inTheWay.isEmpty())
                continue;
            curves[i] = straight;
            if (inTheWay.size() > kMostEndsToAvoid)
                continue;
            qreal best = worstClearance(straight, inTheWay, arrows, ends, glyphRadius, endsMeasured);
            if (best >= gap)
                continue;
            for (const ArrowCurve &bow : bowsOf(a)) {
                const qreal clearance = worstClearance(bow, inTheWay, arrows, ends, glyphRadius, endsMeasured);
                if (clearance > best) {
                    best = clearance;
                    curves[i] = bow;
                }
                if (clearance >= gap)
                    break;
            }
        }
    }
    return curves;
}

} // namespace retrylab::timeline
