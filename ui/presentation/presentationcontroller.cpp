#include "presentation/presentationcontroller.h"

#include "common/settings.h"
#include "presentation/presentation.h"
#include "shell/labframe.h"
#include "timeline/timelinewidget.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QShortcut>
#include <QSignalBlocker>
#include <QStyle>

#include <functional>

namespace retrylab {

PresentationController::PresentationController(LabFrame *frame, const QList<QDockWidget *> &editingDocks,
                                               Settings *settings, QObject *parent)
    : QObject(parent)
    , m_frame(frame)
{
    QMainWindow *window = m_frame->frameWindow();
    m_presentation = new Presentation(window, m_frame->timeline(), editingDocks, settings, this);

    m_presentAction = new QAction(QIcon::fromTheme(QStringLiteral("view-fullscreen"),
                                                   window->style()->standardIcon(QStyle::SP_TitleBarMaxButton)),
                                  tr("&Presentation mode"), this);
    m_presentAction->setObjectName(QStringLiteral("presentAction"));
    m_presentAction->setCheckable(true);
    m_presentAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_presentAction->setToolTip(tr("Full screen with large text for a projector; F11 or Escape leaves"));
    connect(m_presentAction, &QAction::toggled, m_presentation, &Presentation::setActive);
    connect(m_presentation, &Presentation::activeChanged, this, [this](bool active) {
        const QSignalBlocker blocker(m_presentAction);
        m_presentAction->setChecked(active);
        updateKeys();
        // The clicker's Page Up / Page Down work on the timeline.
        if (active && m_frame->currentPage() == LabFrame::Page::Timeline)
            m_frame->timeline()->setFocus(Qt::OtherFocusReason);
    });
    createZoomActions();

    // Keys only while presenting: Escape leaves, Left / Right step through the events.
    m_leaveKey = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    connect(m_leaveKey, &QShortcut::activated, this, [this] { m_presentation->setActive(false); });
    const QList<QPair<Qt::Key, std::function<void()>>> steps{{Qt::Key_Left, [this] { m_frame->stepPrevious(); }},
                                                            {Qt::Key_Right, [this] { m_frame->stepNext(); }}};
    for (const auto &step : steps) {
        auto *key = new QShortcut(QKeySequence(step.first), window);
        connect(key, &QShortcut::activated, this, step.second);
        m_presentingKeys << key;
    }
    updateKeys();
}

void PresentationController::createZoomActions()
{
    m_zoomInAction = new QAction(tr("Zoom &in"), this);
    m_zoomInAction->setObjectName(QStringLiteral("zoomInAction"));
    m_zoomInAction->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(m_zoomInAction, &QAction::triggered, m_presentation, &Presentation::zoomIn);
    m_zoomOutAction = new QAction(tr("Zoom &out"), this);
    m_zoomOutAction->setObjectName(QStringLiteral("zoomOutAction"));
    m_zoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(m_zoomOutAction, &QAction::triggered, m_presentation, &Presentation::zoomOut);
    m_zoomResetAction = new QAction(tr("&Actual size"), this);
    m_zoomResetAction->setObjectName(QStringLiteral("zoomResetAction"));
    m_zoomResetAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_zoomResetAction, &QAction::triggered, m_presentation, &Presentation::resetZoom);
    auto updateZoomActions = [this](int percent) {
        m_zoomInAction->setEnabled(percent < Settings::maxZoomPercent);
        m_zoomOutAction->setEnabled(percent > Settings::minZoomPercent);
        m_zoomResetAction->setText(tr("&Actual size (now %1%)").arg(percent));
    };
    connect(m_presentation, &Presentation::zoomChanged, this, updateZoomActions);
    updateZoomActions(m_presentation->zoomPercent());
}

void PresentationController::addToViewMenu(QMenu *menu)
{
    menu->addSeparator();
    menu->addAction(m_presentAction);
    menu->addAction(m_zoomInAction);
    menu->addAction(m_zoomOutAction);
    menu->addAction(m_zoomResetAction);
}

void PresentationController::setEscapeTakenBy(QAction *action)
{
    m_escapeTakenBy = action;
    connect(action, &QAction::changed, this, &PresentationController::updateKeys);
    updateKeys();
}

void PresentationController::updateKeys()
{
    const bool active = m_presentation->isActive();
    m_leaveKey->setEnabled(active && !(m_escapeTakenBy && m_escapeTakenBy->isEnabled()));
    for (QShortcut *key : std::as_const(m_presentingKeys))
        key->setEnabled(active);
}

void PresentationController::showFollower(QWidget *window)
{
    if (!m_presentation->isFollowing(window)) {
        m_presentation->follow(window);
        window->addActions({m_zoomInAction, m_zoomOutAction, m_zoomResetAction});
    }
    window->show();
    // Full screen once shown: a state set before the first show is lost on some platforms.
    if (m_presentation->isActive())
        window->setWindowState(window->windowState() | Qt::WindowFullScreen);
}

PresentationController::State PresentationController::saveState()
{
    State state{m_presentation->isActive()};
    m_presentation->setActive(false);
    return state;
}

void PresentationController::restoreState(const State &state)
{
    if (state.presenting)
        m_presentation->setActive(true);
}

} // namespace retrylab
