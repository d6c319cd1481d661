#pragma once

#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMenu;
class QShortcut;

namespace retrylab {

class LabFrame;
class Presentation;
class Settings;

// Presentation mode (F11, View > Presentation mode; Escape leaves) and the projector zoom
// (Ctrl+plus, Ctrl+minus, Ctrl+0, remembered between sessions): the actions, the keys that work
// only while presenting, and the language switch's part.
class PresentationController : public QObject
{
    Q_OBJECT
public:
    // `editingDocks` are hidden while presenting; `frame` and `settings` outlive the controller.
    PresentationController(LabFrame *frame, const QList<QDockWidget *> &editingDocks, Settings *settings,
                           QObject *parent = nullptr);

    Presentation *presentation() const { return m_presentation; }
    QAction *presentAction() const { return m_presentAction; }
    // Presentation mode and the zoom, at the end of the View menu.
    void addToViewMenu(QMenu *menu);
    // Escape stops a Live run first (that action's own shortcut): leaving waits while it is enabled,
    // so the two never compete for the key.
    void setEscapeTakenBy(QAction *action);
    // Shows a window of the lab's own (compare mode) as presentation mode would: its text follows
    // the zoom and presentation mode, its timelines their strokes, Ctrl+plus / Ctrl+minus work in
    // it, and while presenting it opens full screen.
    void showFollower(QWidget *window);

    // The language switch: the layout to hand over is the normal one, so saving leaves presentation mode.
    struct State
    {
        bool presenting = false;
    };
    State saveState();
    void restoreState(const State &state);

private:
    void createZoomActions();
    void updateKeys();

    LabFrame *m_frame;
    Presentation *m_presentation = nullptr;
    QAction *m_presentAction = nullptr;
    QAction *m_zoomInAction = nullptr;
    QAction *m_zoomOutAction = nullptr;
    QAction *m_zoomResetAction = nullptr;
    QAction *m_escapeTakenBy = nullptr;
    QShortcut *m_leaveKey = nullptr;     // Escape, while presenting
    QList<QShortcut *> m_presentingKeys; // Left / Right step events while presenting
};

} // namespace retrylab
