#include "output.h"

#include <QtGlobal>

#include <algorithm>
#include <cmath>

namespace retrylab {
namespace cli {

namespace {

// text padded with spaces to width terminal columns.
QString padded(const QString &text, int width)
{
    return text + QString(std::max(0, width - displayWidth(text)), QLatin1Char(' '));
}

} // namespace

void writeTo(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
}

void writeOut(const QString &text)
{
    writeTo(stdout, text);
}

// Integral values print without decimals, others with at most three.
QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        return QString::number(qint64(v));
    QString text = QString::number(v, 'f', 3);
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

// Full precision for machine-read CSV.
QString csvNumber(double v)
{
    if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 1e15)
        return QString::number(qint64(v));
    return QString::number(v, 'g', 15);
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// Terminal columns of text: Chinese characters (East Asian wide) take two, the rest one.
int displayWidth(const QString &text)
{
    int width = 0;
    for (const QChar c : text) {
        const ushort u = c.unicode();
        const bool wide = (u >= 0x1100 && u <= 0x115F) || (u >= 0x2E80 && u <= 0xA4CF) || (u >= 0xAC00 && u <= 0xD7A3)
            || (u >= 0xF900 && u <= 0xFAFF) || (u >= 0xFE30 && u <= 0xFE4F) || (u >= 0xFF00 && u <= 0xFF60)
            || (u >= 0xFFE0 && u <= 0xFFE6);
        width += wide ? 2 : 1;
    }
    return width;
}


// Left-aligned columns separated by two spaces; the last column is not padded.
QString alignedTable(const QList<QStringList> &rows)
{
    QList<int> widths;
    for (const QStringList &row : rows) {
        for (int i = 0; i < row.size(); ++i) {
            if (widths.size() <= i)
                widths << 0;
            widths[i] = std::max(widths[i], displayWidth(row.at(i)));
        }
    }
    QString out;
    for (const QStringList &row : rows) {
        QString line;
        for (int i = 0; i < row.size(); ++i) {
            if (i + 1 < row.size())
                line += padded(row.at(i), widths.at(i)) + QStringLiteral("  ");
            else
                line += row.at(i);
        }
        out += line + QLatin1Char('\n');
    }
    return out;
}

// Words of text in lines of at most width terminal columns (a longer word gets a line of its own).
// Chinese has no spaces: a run of wide characters breaks between any two of them.
QStringList wrapped(const QString &text, int width)
{
    QStringList lines;
    QString line;
    const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        if (displayWidth(word) == word.size()) {
            if (!line.isEmpty() && displayWidth(line) + 1 + word.size() > width) {
                lines << line;
                line.clear();
            }
            line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
            continue;
        }
        // Pieces of a word with Chinese in it: each wide character, and each run of narrow ones
        // (an option name or a path is never cut).
        QStringList pieces;
        for (const QChar c : word) {
            const bool wide = displayWidth(QString(c)) == 2;
            if (wide || pieces.isEmpty() || displayWidth(pieces.constLast().right(1)) == 2)
                pieces << QString(c);
            else
                pieces.last() += c;
        }
        if (!line.isEmpty())
            line += QLatin1Char(' ');
        for (const QString &piece : std::as_const(pieces)) {
            if (displayWidth(line) + displayWidth(piece) > width && !line.trimmed().isEmpty()) {
                lines << line.trimmed();
                line.clear();
            }
            line += piece;
        }
    }
    if (!line.isEmpty() || lines.isEmpty())
        lines << line;
    return lines;
}

// Columns of fixed width, the last one wrapped to the terminal with a hanging indent.
QString wrappedTable(const QList<QStringList> &rows)
{
    QList<int> widths;
    for (const QStringList &row : rows) {
        for (int i = 0; i + 1 < row.size(); ++i) {
            if (widths.size() <= i)
                widths << 0;
            widths[i] = std::max(widths[i], displayWidth(row.at(i)));
        }
    }
    int indent = 0;
    for (int w : std::as_const(widths))
        indent += w + 2;
    const int width = std::max(20, TerminalWidth - indent);
    QString out;
    for (const QStringList &row : rows) {
        QString head;
        for (int i = 0; i + 1 < row.size(); ++i)
            head += padded(row.at(i), widths.at(i)) + QStringLiteral("  ");
        const QStringList lines = wrapped(row.isEmpty() ? QString() : row.last(), width);
        QString first = head + lines.first();
        while (first.endsWith(QLatin1Char(' ')))
            first.chop(1);
        out += first + QLatin1Char('\n');
        for (int i = 1; i < lines.size(); ++i)
            out += QString(indent, QLatin1Char(' ')) + lines.at(i) + QLatin1Char('\n');
    }
    return out;
}

// "a", "a or b", "a, b or c"
QString joinedWithOr(const QStringList &items)
{
    if (items.size() <= 1)
        return items.value(0);
    return QStringList(items.mid(0, items.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" or ")
            + items.last();
}

} // namespace cli
} // namespace retrylab
