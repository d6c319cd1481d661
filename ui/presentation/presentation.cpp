#include "presentation/presentation.h"

#include "common/settings.h"
#include "timeline/timelinewidget.h"

#include <QDockWidget>
#include <QWidget>
#include <QEvent>
#include <QMainWindow>
#include <QToolBar>
#include <QToolButton>

namespace retrylab {

Presentation::Presentation(QMainWindow *window, TimelineWidget *timeline, QList<QDockWidget *> editingDocks,
                           Settings *settings, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_timeline(timeline)
    , m_settings(settings)
    , m_baseFont(window->font())
    , m_zoom(settings->zoomPercent())
{
    for (QDockWidget *dock : editingDocks)
        m_docks << dock;
    m_window->installEventFilter(this);
    applyScale();
}

qreal Presentation::presentingScaleFor(const QSize &size)
{
    if (size.isEmpty())
        return presentingFontScale;
    const qreal room = qMin(qreal(size.width()) / fullScaleSize.width(), qreal(size.height()) / fullScaleSize.height());
    return qBound<qreal>(1.0, presentingFontScale * room, presentingFontScale);
}

qreal Presentation::presentingScale() const
{
    return presentingScaleFor(m_window->size());
}

qreal Presentation::fontScale() const
{
    return m_zoom / 100.0 * (m_active ? presentingScale() : 1.0);
}

bool Presentation::eventFilter(QObject *watched, QEvent *event)
{
    // Full screen on another screen, or the projector's resolution changed: the fonts follow. The
    // window's size decides the font, never the reverse, so this settles at once.
    if (watched == m_window && event->type() == QEvent::Resize && m_active
        && !qFuzzyCompare(fontScale(), m_appliedScale))
        applyScale();
    return QObject::eventFilter(watched, event);
}

qreal Presentation::strokeScale() const
{
    // Strokes grow with the text but never thin below the normal width.
    return qMax<qreal>(1.0, m_zoom / 100.0) * (m_active ? presentingStrokeScale : 1.0);
}

void Presentation::setActive(bool active)
{
    if (active == m_active)
        return;
    if (active) {
        m_savedGeometry = m_window->saveGeometry();
        m_savedState = m_window->saveState();
        m_savedWindowState = m_window->windowState();
        m_savedRect = m_window->geometry();
        m_active = true;
        for (const QPointer<QDockWidget> &dock : std::as_const(m_docks)) {
            if (dock)
                dock->hide();
        }
        m_savedToolBars.clear();
        const QList<QToolBar *> bars = m_window->findChildren<QToolBar *>();
        m_savedToolButtons.clear();
        for (QToolBar *bar : bars) {
            m_savedToolBars.append({bar, bar->toolButtonStyle()});
            const QList<QToolButton *> buttons = bar->findChildren<QToolButton *>();
            for (QToolButton *button : buttons)
                m_savedToolButtons.append({button, button->toolButtonStyle()});
            bar->setToolButtonStyle(Qt::ToolButtonIconOnly);
        }
        applyScale();
        m_window->setWindowState(m_savedWindowState | Qt::WindowFullScreen);
        if (m_window->isVisible())
            m_window->show();
    } else {
        m_active = false;
        for (const auto &saved : std::as_const(m_savedToolBars)) {
            if (saved.first)
                saved.first->setToolButtonStyle(saved.second);
        }
        m_savedToolBars.clear();
        for (const auto &saved : std::as_const(m_savedToolButtons)) {
            if (saved.first)
                saved.first->setToolButtonStyle(saved.second);
        }
        m_savedToolButtons.clear();
        applyScale();
        m_window->setWindowState(m_savedWindowState);
        m_window->restoreGeometry(m_savedGeometry);
        // restoreGeometry() moves a window without a frame 20 pixels down "to show its title bar".
        if (!(m_savedWindowState & (Qt::WindowMaximized | Qt::WindowFullScreen)))
            m_window->setGeometry(m_savedRect);
        // Dock visibility, places and sizes as they were.
        m_window->restoreState(m_savedState);
    }
    Q_EMIT activeChanged(m_active);
}

void Presentation::setZoomPercent(int percent)
{
    percent = qBound(Settings::minZoomPercent, percent, Settings::maxZoomPercent);
    if (percent == m_zoom)
        return;
    m_zoom = percent;
    m_settings->setZoomPercent(percent);
    m_settings->sync();
    applyScale();
    Q_EMIT zoomChanged(m_zoom);
}

void Presentation::resetZoom()
{
    setZoomPercent(Settings::defaultZoomPercent);
}

void Presentation::applyScale()
{
    const qreal scale = fontScale();
    m_appliedScale = scale;
    if (qFuzzyCompare(scale, 1.0)) {
        // Not an explicit font at all: the window follows the system font again, exactly as before.
        m_window->setFont(QFont());
    } else {
        QFont f = m_baseFont;
        if (m_baseFont.pointSizeF() > 0)
            f.setPointSizeF(m_baseFont.pointSizeF() * scale);
        else
            f.setPixelSize(qMax(1, qRound(m_baseFont.pixelSize() * scale)));
        m_window->setFont(f);
    }
    m_timeline->setStrokeScale(strokeScale());
    m_timeline->setOverviewAllowed(!m_active);
    for (const QPointer<QWidget> &window : std::as_const(m_followers)) {
        if (window)
            applyScale(window);
    }
}

void Presentation::applyScale(QWidget *follower) const
{
    // A window of its own does not inherit the frame's font: it is given the same.
    follower->setFont(m_window->font());
    const QList<TimelineWidget *> timelines = follower->findChildren<TimelineWidget *>();
    for (TimelineWidget *t : timelines)
        t->setStrokeScale(strokeScale());
}

void Presentation::follow(QWidget *window)
{
    if (isFollowing(window))
        return;
    m_followers.removeAll(nullptr);
    m_followers << window;
    applyScale(window);
}

bool Presentation::isFollowing(const QWidget *window) const
{
    for (const QPointer<QWidget> &w : m_followers) {
        if (w == window)
            return true;
    }
    return false;
}

} // namespace retrylab
