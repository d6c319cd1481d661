#pragma once

#include <QGraphicsView>

namespace retrylab {

class TimelineScene;

// The view of the swimlanes: lane names pinned at the left edge, Ctrl+wheel zoom, drag to pan.
class TimelineView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit TimelineView(TimelineScene *scene, QWidget *parent = nullptr);
    TimelineScene *timelineScene() const { return m_scene; }

Q_SIGNALS:
    void zoomRequested(double factor, const QPoint &anchor);
    void resized(); // also when shown: whether the view is on screen decides how labels meet its edges

protected:
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    TimelineScene *m_scene;
};

} // namespace retrylab
