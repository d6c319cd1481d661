#pragma once

// Helpers shared by the window tests (tests/ui): reading the status bar as a user sees it.

#include "mainwindow.h"

#include <QLabel>
#include <QRegularExpression>

namespace retrylab::test {

// The text of a status label, empty when it is hidden.
inline QString labelText(const MainWindow &w, const char *name)
{
    const auto *label = w.findChild<QLabel *>(QLatin1String(name));
    return label && label->isVisibleTo(&w) ? label->text() : QString();
}

// The number at the end of a status label such as "Duplicates: 3"; -1 when hidden or absent.
inline int labelNumber(const MainWindow &w, const char *name)
{
    static const QRegularExpression number(QStringLiteral("(\\d+)\\s*$"));
    const QRegularExpressionMatch m = number.match(labelText(w, name));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace retrylab::test
