#include "timeline/timelineview.h"

#include "timeline/timelinescene.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

namespace retrylab {

TimelineView::TimelineView(TimelineScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , m_scene(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setFrameShape(QFrame::NoFrame);
    setTransformationAnchor(QGraphicsView::NoAnchor);
    setResizeAnchor(QGraphicsView::NoAnchor);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setOptimizationFlag(QGraphicsView::DontSavePainterState, false);
}

void TimelineView::drawForeground(QPainter *painter, const QRectF &rect)
{
    QGraphicsView::drawForeground(painter, rect);
    // Lane names stay readable however far the lanes are scrolled.
    const qreal left = mapToScene(QPoint(0, 0)).x();
    if (rect.left() < left + m_scene->labelWidth())
        m_scene->paintLaneLabels(painter, left, 0, m_scene->contentHeight());
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        if (delta.y() != 0)
            Q_EMIT zoomRequested(delta.y() > 0 ? 1.25 : 0.8, event->position().toPoint());
        event->accept();
        return;
    }
    // Time runs sideways: a plain wheel scrolls along it unless the lanes need vertical scrolling.
    if (delta.x() == 0 && delta.y() != 0 && verticalScrollBar()->maximum() == verticalScrollBar()->minimum()) {
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Space:
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
        // Playback keys belong to the timeline widget, not to scrolling.
        event->ignore();
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    Q_EMIT resized();
}

void TimelineView::showEvent(QShowEvent *event)
{
    QGraphicsView::showEvent(event);
    Q_EMIT resized();
}

void TimelineView::hideEvent(QHideEvent *event)
{
    QGraphicsView::hideEvent(event);
    Q_EMIT resized();
}

void TimelineView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    if (dx != 0)
        viewport()->update(); // the pinned lane names would otherwise scroll with the pixels
}

} // namespace retrylab
