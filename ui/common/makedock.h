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

} // namespace retrylab
