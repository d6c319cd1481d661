#include "elidedlabel.h"

#include <QPainter>
#include <QStyle>

namespace retrylab {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

QSize ElidedLabel::sizeHint() const
{
    return minimumSizeHint();
}

QSize ElidedLabel::minimumSizeHint() const
{
    // Room for a first word's start and the ellipsis; the layout's spare room does the rest.
    const QMargins m = contentsMargins();
    return QSize(fontMetrics().horizontalAdvance(QStringLiteral("mmmm\u2026")) + m.left() + m.right(),
                 QLabel::sizeHint().height());
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(text(), Qt::ElideRight, contentsRect().width());
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    style()->drawItemText(&p, contentsRect(), int(Qt::AlignLeft | Qt::AlignVCenter), palette(), isEnabled(),
                          shownText(), foregroundRole());
}

} // namespace retrylab
