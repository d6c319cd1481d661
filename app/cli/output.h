#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdio>

namespace retrylab {
namespace cli {

// How the commands print for people (aligned and wrapped tables, short numbers) and for
// machines (CSV cells); the bytes they write are the command line's contract with scripts.

// Human-readable output fits a classic terminal.
constexpr int TerminalWidth = 80;

void writeOut(const QString &text);
void writeTo(FILE *stream, const QString &text);

// Integral values print without decimals, others with at most three.
QString formatNumber(double v);
// Full precision for machine-read CSV.
QString csvNumber(double v);
QString csvField(const QString &text);

// Terminal columns of text: Chinese characters (East Asian wide) take two, the rest one.
int displayWidth(const QString &text);
// Left-aligned columns separated by two spaces; the last column is not padded.
QString alignedTable(const QList<QStringList> &rows);
// Words of text in lines of at most width terminal columns (a longer word gets a line of its own).
QStringList wrapped(const QString &text, int width);
// Columns of fixed width, the last one wrapped to the terminal with a hanging indent.
QString wrappedTable(const QList<QStringList> &rows);
// "a", "a or b", "a, b or c"
QString joinedWithOr(const QStringList &items);

} // namespace cli
} // namespace retrylab
