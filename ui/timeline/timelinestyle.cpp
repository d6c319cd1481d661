#include "timeline/timelinestyle.h"

#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include <cmath>

namespace retrylab {
namespace timeline {

namespace {

QColor mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

Colors Colors::fromPalette(const QPalette &palette)
{
    Colors c;
    c.base = palette.color(QPalette::Base);
    c.alternate = palette.color(QPalette::AlternateBase);
    c.text = palette.color(QPalette::Text);
    c.dark = c.base.lightnessF() < 0.5;
    if (c.alternate == c.base)
        c.alternate = mix(c.base, c.text, 0.04);
    c.muted = mix(c.base, c.text, 0.6);
    c.grid = mix(c.base, c.text, 0.12);
    c.highlight = palette.color(QPalette::Highlight);
    c.playhead = mix(c.base, c.text, 0.85);
    // Okabe-Ito; on a light background the pale hues are darkened so strokes and text keep their contrast.
    if (c.dark) {
        c.business = QColor(0x4d, 0xa3, 0xe0);
        c.wrapper = QColor(0x8c, 0xcf, 0xf5);
        c.transport = QColor(0xa9, 0xb9, 0xc8);
        c.server = QColor(0xb0, 0xb0, 0xb0);
        c.ok = QColor(0x2c, 0xc2, 0x96);
        c.duplicate = QColor(0xf0, 0x7a, 0x2a);
        c.fault = QColor(0xf2, 0xb1, 0x1e);
        c.rejection = QColor(0xe0, 0x94, 0xbe);
    } else {
        c.business = QColor(0x00, 0x72, 0xb2);
        c.wrapper = QColor(0x2e, 0x93, 0xcf);
        c.transport = QColor(0x5d, 0x7a, 0x93);
        c.server = QColor(0x70, 0x70, 0x70);
        c.ok = QColor(0x00, 0x8a, 0x65);
        c.duplicate = QColor(0xd5, 0x5e, 0x00);
        c.fault = QColor(0xc0, 0x80, 0x00);
        c.rejection = QColor(0xb0, 0x4f, 0x8c);
    }
    return c;
}

QColor Colors::color(Role role) const
{
    switch (role) {
    case Role::Text:
        return text;
    case Role::Muted:
        return muted;
    case Role::Business:
        return business;
    case Role::Wrapper:
        return wrapper;
    case Role::Transport:
        return transport;
    case Role::Server:
        return server;
    case Role::Ok:
        return ok;
    case Role::Duplicate:
        return duplicate;
    case Role::Fault:
        return fault;
    case Role::Rejection:
        return rejection;
    case Role::Accent:
        return highlight;
    }
    return text;
}

QColor Colors::tint(Role role, qreal amount) const
{
    return mix(base, color(role), amount);
}

void drawGlyph(QPainter *p, Glyph glyph, const QPointF &c, qreal r, const QColor &color, const QColor &fill)
{
    if (glyph == Glyph::None)
        return;
    p->save();
    QPen pen(color, qMax(1.5, r / 4.0));
    pen.setJoinStyle(Qt::RoundJoin);
    pen.setCapStyle(Qt::RoundCap);
    p->setPen(pen);
    p->setBrush(fill);
    switch (glyph) {
    case Glyph::None:
        break;
    case Glyph::Dot:
        p->setBrush(color);
        p->setPen(Qt::NoPen);
        p->drawEllipse(c, r * 0.5, r * 0.5);
        break;
    case Glyph::Circle:
        p->drawEllipse(c, r, r);
        break;
    case Glyph::Diamond: {
        const QPolygonF d{QPointF(c.x(), c.y() - r * 1.15), QPointF(c.x() + r * 1.15, c.y()),
                          QPointF(c.x(), c.y() + r * 1.15), QPointF(c.x() - r * 1.15, c.y())};
        p->drawPolygon(d);
        break;
    }
    case Glyph::Cross: {
        pen.setWidthF(qMax(2.0, r / 2.6));
        p->setPen(pen);
        const qreal a = r * 0.8;
        p->drawLine(QPointF(c.x() - a, c.y() - a), QPointF(c.x() + a, c.y() + a));
        p->drawLine(QPointF(c.x() - a, c.y() + a), QPointF(c.x() + a, c.y() - a));
        break;
    }
    case Glyph::Triangle: {
        const QPolygonF t{QPointF(c.x(), c.y() - r * 1.1), QPointF(c.x() + r, c.y() + r * 0.8),
                          QPointF(c.x() - r, c.y() + r * 0.8)};
        p->setBrush(color);
        p->drawPolygon(t);
        break;
    }
    case Glyph::Square:
        p->setBrush(color);
        p->drawRect(QRectF(c.x() - r * 0.85, c.y() - r * 0.85, r * 1.7, r * 1.7));
        break;
    case Glyph::Flag: {
        const qreal h = r * 1.2;
        p->drawLine(QPointF(c.x() - r * 0.5, c.y() + h), QPointF(c.x() - r * 0.5, c.y() - h));
        const QPolygonF f{QPointF(c.x() - r * 0.5, c.y() - h), QPointF(c.x() + r * 0.9, c.y() - h * 0.55),
                          QPointF(c.x() - r * 0.5, c.y() - h * 0.1)};
        p->setBrush(color);
        p->drawPolygon(f);
        break;
    }
    case Glyph::Key: {
        const qreal ring = r * 0.5;
        const QPointF rc(c.x() - r * 0.45, c.y());
        p->drawEllipse(rc, ring, ring);
        p->drawLine(QPointF(rc.x() + ring, c.y()), QPointF(c.x() + r, c.y()));
        p->drawLine(QPointF(c.x() + r * 0.75, c.y()), QPointF(c.x() + r * 0.75, c.y() + r * 0.45));
        p->drawLine(QPointF(c.x() + r * 0.35, c.y()), QPointF(c.x() + r * 0.35, c.y() + r * 0.35));
        break;
    }
    case Glyph::Check: {
        p->setBrush(color);
        p->setPen(Qt::NoPen);
        p->drawEllipse(c, r, r);
        QPen tick(fill, qMax(1.8, r / 3.5));
        tick.setCapStyle(Qt::RoundCap);
        tick.setJoinStyle(Qt::RoundJoin);
        p->setPen(tick);
        p->setBrush(Qt::NoBrush);
        const QPolygonF t{QPointF(c.x() - r * 0.45, c.y() + r * 0.02), QPointF(c.x() - r * 0.1, c.y() + r * 0.38),
                          QPointF(c.x() + r * 0.5, c.y() - r * 0.35)};
        p->drawPolyline(t);
        break;
    }
    case Glyph::Stop: {
        // An octagon, like a stop sign.
        QPolygonF o;
        for (int i = 0; i < 8; ++i) {
            const double a = (22.5 + 45.0 * i) * M_PI / 180.0;
            o << QPointF(c.x() + r * std::cos(a), c.y() + r * std::sin(a));
        }
        p->setBrush(color);
        p->drawPolygon(o);
        QPen bar(fill, qMax(1.8, r / 3.5));
        p->setPen(bar);
        p->drawLine(QPointF(c.x() - r * 0.45, c.y()), QPointF(c.x() + r * 0.45, c.y()));
        break;
    }
    case Glyph::Query: {
        p->drawEllipse(c, r, r);
        QFont f = p->font();
        f.setBold(true);
        f.setPixelSize(qMax(6, int(std::lround(r * 1.45))));
        p->setFont(f);
        p->setPen(color);
        p->drawText(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), Qt::AlignCenter, QStringLiteral("?"));
        break;
    }
    case Glyph::Arrow: {
        const QPolygonF a{QPointF(c.x(), c.y()), QPointF(c.x() - r, c.y() - r * 0.55), QPointF(c.x() - r, c.y() + r * 0.55)};
        p->setBrush(color);
        p->setPen(Qt::NoPen);
        p->drawPolygon(a);
        break;
    }
    }
    p->restore();
}

QString formatDuration(qint64 us)
{
    // Each unit takes over where the smaller one would round up to it: 59.96 s reads "1 min 00 s",
    // not "60.0 s"; 9.996 ms reads "10 ms", not "10.0 ms".
    const qint64 a = us < 0 ? -us : us;
    if (a < 1000)
        return QStringLiteral("%1 \u00b5s").arg(us);
    if (a < 999500) {
        const double ms = us / 1000.0;
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', a < 9950 ? 1 : 0);
    }
    if (a < 59950000) {
        const double s = us / 1e6;
        return QStringLiteral("%1 s").arg(s, 0, 'f', a < 9995000 ? 2 : 1);
    }
    const QString sign = us < 0 ? QStringLiteral("-") : QString();
    if (a < 3599500000LL) {
        const qint64 s = (a + 500000) / 1000000;
        return sign + QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    }
    const qint64 m = (a + 30000000) / 60000000;
    return sign + QStringLiteral("%1 h %2 min").arg(m / 60).arg(m % 60, 2, 10, QLatin1Char('0'));
}

QString formatAxisTime(qint64 t, qint64 stepUs)
{
    if (t == 0)
        return QStringLiteral("0");
    if (t < 0)
        return QStringLiteral("\u2212") + formatAxisTime(-t, stepUs);
    if (t < 1000000 && stepUs < 1000000) {
        const int decimals = stepUs >= 1000 ? 0 : (stepUs >= 100 ? 1 : 2);
        return QStringLiteral("%1 ms").arg(t / 1000.0, 0, 'f', decimals);
    }
    if (t < 60 * 1000000LL) {
        int decimals = 0;
        if (stepUs < 10000)
            decimals = 3;
        else if (stepUs < 100000)
            decimals = 2;
        else if (stepUs < 1000000)
            decimals = 1;
        return QStringLiteral("%1 s").arg(t / 1e6, 0, 'f', decimals);
    }
    const qint64 minutes = t / 60000000;
    const double seconds = (t % 60000000) / 1e6;
    const int decimals = stepUs >= 1000000 ? 0 : (stepUs >= 100000 ? 1 : 3);
    const int width = decimals == 0 ? 2 : 3 + decimals;
    return QStringLiteral("%1:%2").arg(minutes).arg(seconds, width, 'f', decimals, QLatin1Char('0'));
}

qint64 niceStep(double us)
{
    if (us <= 1)
        return 1;
    double magnitude = std::pow(10.0, std::floor(std::log10(us)));
    for (;;) {
        for (const double m : {1.0, 2.0, 5.0}) {
            if (m * magnitude >= us)
                return qint64(m * magnitude + 0.5);
        }
        magnitude *= 10;
    }
}

QFont labelFont(const QFont &base)
{
    QFont f = base;
    f.setPointSizeF(qMax(9.0, base.pointSizeF() * 1.05));
    f.setBold(true);
    return f;
}

QFont badgeFont(const QFont &base)
{
    QFont f = base;
    f.setPointSizeF(qMax(8.0, base.pointSizeF() * 0.92));
    return f;
}

} // namespace timeline
} // namespace retrylab
