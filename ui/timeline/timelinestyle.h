#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

class QPainter;
class QPointF;

namespace retrylab {
namespace timeline {

// Shapes carry the meaning as well as colours, so the timeline reads without colour vision.
enum class Glyph {
    None,
    Dot,      // small point: a response leaves, a query is sent
    Circle,   // commit
    Diamond,  // replayed response
    Cross,    // lost, refused, reset
    Triangle, // timeout
    Square,   // rejection: 400/409/422/429/503, 5xx, circuit open, budget
    Flag,     // an operation starts, reconciliation flags
    Key,      // a key or token is minted, reserved or forgotten
    Check,    // the client reports success
    Stop,     // a layer gives up, the client reports failure
    Arrow,    // arrowhead of a delivered message
    Query,    // a circled question mark: the client asks the server whether the order exists
};

// What a colour stands for; resolved against the palette at paint time so light/dark switches apply.
enum class Role { Text, Muted, Business, Wrapper, Transport, Server, Ok, Duplicate, Fault, Rejection, Accent };

// Okabe-Ito colours for meaning, the system palette for background and text.
struct Colors
{
    QColor base;
    QColor alternate;
    QColor text;
    QColor muted;
    QColor grid;
    QColor highlight;
    QColor playhead;
    QColor business;
    QColor wrapper;
    QColor transport;
    QColor server;
    QColor ok;
    QColor duplicate;
    QColor fault;
    QColor rejection;
    bool dark = false;

    static Colors fromPalette(const QPalette &palette);
    QColor color(Role role) const;
    // A light tint of a colour for fills on the lane background.
    QColor tint(Role role, qreal amount) const;
};

// Paints a glyph centred on c with radius r; `fill` is the inside colour of hollow shapes.
void drawGlyph(QPainter *painter, Glyph glyph, const QPointF &c, qreal r, const QColor &color, const QColor &fill);

// "850 µs", "42 ms", "1.50 s", "2 min 05 s".
QString formatDuration(qint64 us);
// An axis label for time t when ticks are `stepUs` apart.
QString formatAxisTime(qint64 t, qint64 stepUs);
// The smallest 1/2/5 x 10^n microseconds not below `us`.
qint64 niceStep(double us);

// Fonts scaled from the widget font, for a projector.
QFont labelFont(const QFont &base);
QFont badgeFont(const QFont &base);

} // namespace timeline
} // namespace retrylab
