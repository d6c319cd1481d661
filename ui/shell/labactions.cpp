#include "shell/labactions.h"

#include <QAction>
#include <QKeySequence>

namespace retrylab {

QIcon LabActions::icon(const QString &name, QStyle::StandardPixmap fallback, const QStyle *style)
{
    return QIcon::fromTheme(name, style->standardIcon(fallback));
}

void LabActions::create(QObject *parent, const QStyle *style)
{
    createFileActions(parent, style);
    createPlaybackActions(parent, style);
    createViewActions(parent);
}

void LabActions::createViewActions(QObject *parent)
{
    const QStringList pageNames{tr("&Timeline"), tr("&Charts"), tr("R&ecords"), tr("&Log")};
    for (int i = 0; i < pageNames.size(); ++i) {
        auto *a = new QAction(pageNames.at(i), parent);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        a->setCheckable(true);
        pages << a;
    }

    resetLayout = new QAction(tr("&Reset layout"), parent);

    predict = new QAction(tr("&Predict before you see"), parent);
    predict->setObjectName(QStringLiteral("predictAction"));
    predict->setCheckable(true);
    predict->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    predict->setToolTip(tr("Hide the outcome until the class has guessed records, duplicates and attempts"));

    compare = new QAction(tr("&Compare…"), parent);
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    compare->setToolTip(tr("Run this scenario and a copy with one toggle changed side by side, same seed"));

    about = new QAction(QIcon(QStringLiteral(":/icons/retrylab.svg")), tr("&About RetryLab"), parent);
    about->setMenuRole(QAction::AboutRole);
}

void LabActions::createFileActions(QObject *parent, const QStyle *s)
{
    open = new QAction(icon(QStringLiteral("document-open"), QStyle::SP_DialogOpenButton, s),
                               tr("&Open…"), parent);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open a scenario file"));

    save = new QAction(icon(QStringLiteral("document-save"), QStyle::SP_DialogSaveButton, s),
                               tr("&Save"), parent);
    save->setShortcut(QKeySequence::Save);

    saveAs = new QAction(icon(QStringLiteral("document-save-as"), QStyle::SP_DialogSaveButton, s),
                                 tr("Save &As…"), parent);
    saveAs->setShortcut(QKeySequence::SaveAs);

    quit = new QAction(icon(QStringLiteral("application-exit"), QStyle::SP_DialogCloseButton, s),
                               tr("&Quit"), parent);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
}

void LabActions::createPlaybackActions(QObject *parent, const QStyle *s)
{
    run = new QAction(icon(QStringLiteral("view-refresh"), QStyle::SP_BrowserReload, s),
                              tr("&Re-run"), parent);
    run->setShortcut(QKeySequence::Refresh);
    run->setToolTip(tr("Run the scenario again (same seed, same result)"));

    play = new QAction(icon(QStringLiteral("media-playback-start"), QStyle::SP_MediaPlay, s),
                               tr("&Play"), parent);
    play->setShortcuts({QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_MediaTogglePlayPause)});

    stepPrevious = new QAction(
        icon(QStringLiteral("media-skip-backward"), QStyle::SP_MediaSkipBackward, s), tr("Step &back"), parent);
    stepPrevious->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Left), QKeySequence(Qt::Key_MediaPrevious)});
    stepPrevious->setToolTip(tr("Previous event of this operation"));

    stepNext = new QAction(icon(QStringLiteral("media-skip-forward"), QStyle::SP_MediaSkipForward, s),
                                   tr("Step &next"), parent);
    stepNext->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Right), QKeySequence(Qt::Key_MediaNext)});
    stepNext->setToolTip(tr("Next event of this operation"));

    previousInteresting = new QAction(
        icon(QStringLiteral("go-previous"), QStyle::SP_ArrowLeft, s), tr("Previous &interesting operation"), parent);
    previousInteresting->setObjectName(QStringLiteral("previousInteresting"));
    previousInteresting->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Left));
    previousInteresting->setToolTip(
        tr("Previous operation with a duplicate, orphan, replay, 409, 422 or status query (Page Up on the timeline)"));

    nextInteresting = new QAction(icon(QStringLiteral("go-next"), QStyle::SP_ArrowRight, s),
                                          tr("Next i&nteresting operation"), parent);
    nextInteresting->setObjectName(QStringLiteral("nextInteresting"));
    nextInteresting->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Right));
    nextInteresting->setToolTip(
        tr("Next operation with a duplicate, orphan, replay, 409, 422 or status query (Page Down on the timeline)"));

    newSeed = new QAction(icon(QStringLiteral("roll"), QStyle::SP_BrowserReload, s), tr("New &seed"), parent);
    newSeed->setObjectName(QStringLiteral("newSeed"));
    newSeed->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    newSeed->setToolTip(tr("Run again with a new random seed: the lesson should hold for any seed"));
}

} // namespace retrylab
