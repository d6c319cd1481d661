#pragma once

// Helpers shared by the window tests (tests/ui): reading the status bar as a user sees it.

#include "shell/mainwindow.h"

#include <QCoreApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QTranslator>

namespace retrylab::test {

// Wraps every translated text in ‹›: a sentence built from several tr() fragments shows as several
// wrapped pieces side by side (›‹), and a text that is not translatable at all is not wrapped.
class MarkingTranslator : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *, const char *sourceText, const char * = nullptr, int = -1) const override
    {
        return QStringLiteral("\u2039%1\u203a").arg(QString::fromUtf8(sourceText));
    }
};

// A MarkingTranslator installed for the lifetime of this object.
struct InstalledTranslator
{
    MarkingTranslator translator;
    InstalledTranslator() { QCoreApplication::installTranslator(&translator); }
    ~InstalledTranslator() { QCoreApplication::removeTranslator(&translator); }
};

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
