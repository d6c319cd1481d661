#pragma once

#include <QDockWidget>
#include <QMainWindow>
#include <QString>

namespace retrylab {

// A dock of the lab's window around `content`: closable, movable and floatable, named for the
// saved window state. The caller adds it to an area.
inline QDockWidget *makeDock(const QString &title, const QString &objectName, QWidget *content, QMainWindow *window)
{
    auto *dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
                      | QDockWidget::DockWidgetFloatable);
    return dock;
}

// Shows `dock` and brings it to the front of its tab group. A dock opened from the command line
// (--lesson, --check-report) is opened before its window shows, when there is no tab bar to raise it
// in: it is raised again once the window has shown and laid its tabs out, else the tab the saved
// window state had in front (the Scenario) would cover it. The latest dock asked for wins.
void bringDockToFront(QDockWidget *dock);

} // namespace retrylab
