#pragma once

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QRect>
#include <QSize>

class QDockWidget;
class QMainWindow;
class QToolBar;
class QToolButton;
class QWidget;

namespace retrylab {

class Settings;
class TimelineWidget;

// Presentation mode and the projector zoom of the desktop lab. The zoom scales the whole window's
// font (and the timeline's strokes with it); presentation mode goes full screen, hides the editing
// docks, and draws larger on top of the zoom. Leaving restores the window exactly as it was.
class Presentation : public QObject
{
    Q_OBJECT
public:
    // On top of the zoom while presenting: fonts half as large again, strokes twice as thick, on a
    // screen of at least fullScaleSize; on a smaller one the fonts grow less (presentingScaleFor).
    static constexpr qreal presentingFontScale = 1.5;
    static constexpr QSize fullScaleSize{1600, 900};
    static constexpr qreal presentingStrokeScale = 2.0;
    // Ctrl+plus / Ctrl+minus move the zoom by this many percent.
    static constexpr int zoomStep = 10;

    // Reads the zoom from settings and applies it; the window's font now is the 100% font.
    Presentation(QMainWindow *window, TimelineWidget *timeline, QList<QDockWidget *> editingDocks,
                 Settings *settings, QObject *parent = nullptr);

    bool isActive() const { return m_active; }
    int zoomPercent() const { return m_zoom; }
    // The window font's size over the font it had before any zoom.
    qreal fontScale() const;
    // The font growth presentation mode adds in a window of `size`: presentingFontScale from
    // fullScaleSize up, in proportion below it (1280x720: 1.2), never below 1 (1024x640: 1.0).
    // A projector of 1280x720 shows the layout of 1920x1080 at the size the class reads best,
    // with room for the lesson's answer and all six lanes.
    static qreal presentingScaleFor(const QSize &size);
    qreal presentingScale() const;
    qreal strokeScale() const;
    // A window of the lab's own (compare mode) takes the window's font and the timelines' strokes.
    void follow(QWidget *window);
    bool isFollowing(const QWidget *window) const;

public Q_SLOTS:
    void setActive(bool active);
    void toggle() { setActive(!m_active); }
    // Clamped to Settings::minZoomPercent..maxZoomPercent and saved.
    void setZoomPercent(int percent);
    void zoomIn() { setZoomPercent(m_zoom + zoomStep); }
    void zoomOut() { setZoomPercent(m_zoom - zoomStep); }
    void resetZoom();

Q_SIGNALS:
    void activeChanged(bool active);
    void zoomChanged(int percent);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyScale();
    void applyScale(QWidget *follower) const;

    QMainWindow *m_window;
    TimelineWidget *m_timeline;
    QList<QPointer<QDockWidget>> m_docks;
    QList<QPointer<QWidget>> m_followers;
    Settings *m_settings;
    QFont m_baseFont;
    int m_zoom = 100;
    qreal m_appliedScale = 0; // the font scale last applied
    bool m_active = false;
    // What leaving restores.
    QByteArray m_savedGeometry;
    QByteArray m_savedState;
    Qt::WindowStates m_savedWindowState;
    QRect m_savedRect;
    // Toolbars show icons only while presenting: their text no longer fits at large sizes.
    QList<QPair<QPointer<QToolBar>, Qt::ToolButtonStyle>> m_savedToolBars;
    // A toolbar's style change reaches every button: those with a style of their own get it back.
    QList<QPair<QPointer<QToolButton>, Qt::ToolButtonStyle>> m_savedToolButtons;
};

} // namespace retrylab
