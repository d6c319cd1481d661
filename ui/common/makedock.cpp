#include "common/makedock.h"

#include <QEvent>
#include <QPointer>
#include <QTimer>

namespace retrylab {

namespace {

// Raises one dock of a window once the window is shown: one per window, the latest dock asked for.
class RaiseOnShow : public QObject
{
public:
    explicit RaiseOnShow(QWidget *window)
        : QObject(window)
        , m_window(window)
    {
        setObjectName(QStringLiteral("raiseOnShow"));
        window->installEventFilter(this);
    }
    void setDock(QDockWidget *dock) { m_dock = dock; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Show) {
            m_window->removeEventFilter(this);
            // After the show's own layout pass, which puts the tabs in place.
            QTimer::singleShot(0, m_window, [dock = m_dock] {
                if (!dock || dock->isHidden())
                    return;
                // A dock switches its tab on a change of stacking order: the raise before the show
                // left it on top, so a second raise alone would change nothing.
                dock->lower();
                dock->raise();
            });
            deleteLater();
        }
        return false;
    }

private:
    QWidget *m_window;
    QPointer<QDockWidget> m_dock;
};

} // namespace

void bringDockToFront(QDockWidget *dock)
{
    dock->show();
    dock->raise();
    QWidget *window = dock->window();
    if (window->isVisible())
        return;
    auto *pending = window->findChild<RaiseOnShow *>(QStringLiteral("raiseOnShow"), Qt::FindDirectChildrenOnly);
    if (!pending)
        pending = new RaiseOnShow(window);
    pending->setDock(dock);
}

} // namespace retrylab
