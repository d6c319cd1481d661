#include "common/balancedwrap.h"

#include <QFontMetrics>
#include <QRect>

namespace retrylab::textwrap {

int lineCount(const QString &text, const QFont &font, int width)
{
    if (text.isEmpty() || width <= 0)
        return text.isEmpty() ? 0 : 1;
    const QFontMetrics fm(font);
    const QRect r = fm.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, text);
    return qMax(1, qRound(qreal(r.height()) / fm.lineSpacing()));
}

int balancedWidth(const QString &text, const QFont &font, int width)
{
    const int lines = lineCount(text, font, width);
    if (lines <= 1)
        return width;
    // The line count only grows as the width shrinks: the narrowest width that keeps it, by bisection.
    int lo = 1;
    int hi = width;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (lineCount(text, font, mid) <= lines)
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

} // namespace retrylab::textwrap
