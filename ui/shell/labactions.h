#pragma once

#include <QCoreApplication>
#include <QIcon>
#include <QList>
#include <QStyle>

class QAction;
class QObject;

namespace retrylab {

// The frame's own actions (file, playback, pages, view, help) with their icons, keys and tool tips,
// made in one place; MainWindow connects them and puts them in its menus and toolbar. A feature's
// actions belong to its controller.
struct LabActions
{
    Q_DECLARE_TR_FUNCTIONS(retrylab::LabActions)
public:
    // Creates every action as a child of `parent`.
    void create(QObject *parent, const QStyle *style);
    // A theme's icon, or the style's standard one where the theme has none.
    static QIcon icon(const QString &name, QStyle::StandardPixmap fallback, const QStyle *style);

    QAction *open = nullptr;
    QAction *save = nullptr;
    QAction *saveAs = nullptr;
    QAction *quit = nullptr;
    QAction *run = nullptr;
    QAction *play = nullptr;
    QAction *stepNext = nullptr;
    QAction *stepPrevious = nullptr;
    QAction *nextInteresting = nullptr;
    QAction *previousInteresting = nullptr;
    QAction *newSeed = nullptr;
    QList<QAction *> pages; // Timeline, Charts, Records, Log
    QAction *resetLayout = nullptr;
    QAction *predict = nullptr;
    QAction *compare = nullptr;
    QAction *about = nullptr;

private:
    void createFileActions(QObject *parent, const QStyle *s);
    void createPlaybackActions(QObject *parent, const QStyle *s);
    void createViewActions(QObject *parent);
};

} // namespace retrylab
