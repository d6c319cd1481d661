#include "scenario/jsonscanner.h"

#include "scenario.h"
#include "scenario/echo.h"

#include <QCoreApplication>

#include <algorithm>

namespace retrylab::scenario::detail {

// "line 3, column 14" for a byte offset: lines count \n, columns count characters (UTF-8 lead bytes).
QString lineColumn(const QByteArray &text, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    qsizetype line = 1, column = 1;
    for (qsizetype i = 0; i < offset; ++i) {
        const uchar c = uchar(text.at(i));
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xc0) != 0x80) {
            ++column;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

namespace {

bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

bool JsonScanner::scan()
{
    if (m_text.startsWith("\xef\xbb\xbf")) // a UTF-8 byte order mark, which QJsonDocument skips too
        m_pos = 3;
    skipSpace();
    if (atEnd())
        return fail(m_pos, QStringLiteral("the file holds no JSON value (it is empty)"));
    bool expectValue = true;
    for (;;) {
        if (expectValue) {
            skipSpace();
            if (atEnd())
                return failEnd();
            const char c = cur();
            if (c == '{' || c == '[') {
                if (int(m_stack.size()) >= scenario::MaxNesting)
                    return fail(m_pos, QStringLiteral("objects and arrays nested deeper than %1 levels "
                                                      "(a scenario needs 4)")
                                           .arg(scenario::MaxNesting));
                Frame frame;
                frame.object = c == '{';
                frame.start = m_pos;
                frame.path = childPath();
                m_stack.push_back(std::move(frame));
                ++m_pos;
                skipSpace();
                if (!atEnd() && cur() == (c == '{' ? '}' : ']')) {
                    ++m_pos;
                    m_stack.pop_back();
                    expectValue = false;
                } else if (c == '{' && !key()) {
                    return false;
                }
                continue;
            }
            if (!scalar())
                return false;
            expectValue = false;
            continue;
        }
        skipSpace();
        if (m_stack.empty()) {
            if (!atEnd())
                return fail(m_pos, QStringLiteral("unexpected text after the end of the JSON value: %1")
                                       .arg(quoted(QString::fromUtf8(m_text.mid(m_pos, 20)))));
            return true;
        }
        if (atEnd())
            return failEnd();
        Frame &top = m_stack.back();
        const char close = top.object ? '}' : ']';
        const char c = cur();
        if (c == close) {
            ++m_pos;
            m_stack.pop_back();
            continue;
        }
        if (c == ',') {
            const qsizetype comma = m_pos++;
            skipSpace();
            if (!atEnd() && cur() == close)
                return fail(comma, QStringLiteral("a comma before %1 (JSON allows no trailing comma)").arg(QLatin1Char(close)));
            if (top.object) {
                if (!key())
                    return false;
            } else {
                ++top.index;
            }
            expectValue = true;
            continue;
        }
        if (c == '/')
            return fail(m_pos, QStringLiteral("a comment (JSON has no comments)"));
        return fail(m_pos, top.object ? QStringLiteral("expected , or } after a value (a missing comma?)")
                                      : QStringLiteral("expected , or ] after a value (a missing comma?)"));
    }
}

bool JsonScanner::failEnd()
{
    if (m_stack.empty())
        return fail(m_text.size(), QStringLiteral("the file ends where a value should follow"));
    const Frame &top = m_stack.back();
    return fail(m_text.size(), QStringLiteral("the file ends inside the %1 that opens at %2 (a missing %3?)")
                                   .arg(top.object ? QStringLiteral("object") : QStringLiteral("array"),
                                        lineColumn(m_text, top.start),
                                        top.object ? QStringLiteral("}") : QStringLiteral("]")));
}

QString JsonScanner::childPath() const
{
    if (m_stack.empty())
        return QString();
    const Frame &top = m_stack.back();
    if (top.object)
        return joinPath(top.path, displayKey(top.key));
    return top.path + QStringLiteral("[%1]").arg(top.index);
}

// The word at from (letters, digits, signs, dots), for "invalid number 0x10".
QString JsonScanner::token(qsizetype from) const
{
    qsizetype end = from;
    while (end < m_text.size() && end - from < 24) {
        const char c = m_text.at(end);
        if (!(isAsciiLetter(c) || isAsciiDigit(c) || c == '.' || c == '+' || c == '-' || c == '_'))
            break;
        ++end;
    }
    if (end == from) {
        if (from >= m_text.size())
            return QStringLiteral("the end of the file");
        const int length = utf8Length(from);
        if (length == 0)
            return QStringLiteral("the byte 0x%1 (not UTF-8)").arg(uint(uchar(m_text.at(from))), 2, 16, QLatin1Char('0'));
        return quoted(QString::fromUtf8(m_text.mid(from, length)));
    }
    return printable(QString::fromUtf8(m_text.mid(from, end - from)));
}

bool JsonScanner::key()
{
    skipSpace();
    if (atEnd())
        return failEnd();
    const char c = cur();
    if (c != '"') {
        if (c == '\'')
            return fail(m_pos, QStringLiteral("a key in single quotes (JSON needs double quotes)"));
        if (isAsciiLetter(c) || c == '_')
            return fail(m_pos, QStringLiteral("the key %1 has no quotes (JSON needs \"%1\")").arg(token(m_pos)));
        if (c == '/')
            return fail(m_pos, QStringLiteral("a comment (JSON has no comments)"));
        return fail(m_pos, QStringLiteral("expected a key in double quotes, got %1").arg(token(m_pos)));
    }
    const qsizetype at = m_pos;
    QString name;
    if (!string(&name))
        return false;
    Frame &top = m_stack.back();
    if (top.keys.contains(name)) {
        // Line and column cost a pass over the text: only for the duplicates that are listed.
        if (m_duplicates.size() < scenario::MaxReportedErrors)
            m_duplicates << QStringLiteral("%1: the key appears twice in one object (again at %2); JSON keeps "
                                           "only the last, so write it once")
                                .arg(joinPath(top.path, displayKey(name)), lineColumn(m_text, at));
        ++m_duplicateCount;
    } else {
        top.keys.insert(name);
    }
    top.key = name;
    skipSpace();
    if (atEnd())
        return failEnd();
    if (cur() != ':')
        return fail(m_pos, QStringLiteral("expected : after the key %1").arg(quoted(name)));
    ++m_pos;
    return true;
}

// Bytes in the well-formed UTF-8 sequence at at, or 0 (RFC 3629: no overlongs, surrogates or > U+10FFFF).
int JsonScanner::utf8Length(qsizetype at) const
{
    const auto byte = [this](qsizetype i) { return i < m_text.size() ? uchar(m_text.at(i)) : uchar(0); };
    const uchar c = byte(at);
    const auto cont = [&](qsizetype i) { return (byte(i) & 0xc0) == 0x80; };
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return cont(at + 1) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        const uchar c1 = byte(at + 1);
        if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f))
            return 0;
        return cont(at + 1) && cont(at + 2) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        const uchar c1 = byte(at + 1);
        if ((c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f))
            return 0;
        return cont(at + 1) && cont(at + 2) && cont(at + 3) ? 4 : 0;
    }
    return 0;
}

bool JsonScanner::string(QString *out)
{
    const qsizetype start = m_pos++;
    for (;;) {
        if (atEnd())
            return fail(start, QStringLiteral("a string that never ends (no closing \")"));
        const uchar c = uchar(cur());
        if (c == '"') {
            ++m_pos;
            return true;
        }
        if (c == '\\') {
            if (m_pos + 1 >= m_text.size())
                return fail(start, QStringLiteral("a string that never ends (no closing \")"));
            const char e = m_text.at(m_pos + 1);
            char16_t decoded = 0;
            switch (e) {
            case '"': case '\\': case '/': decoded = char16_t(e); break;
            case 'b': decoded = 0x08; break;
            case 'f': decoded = 0x0c; break;
            case 'n': decoded = 0x0a; break;
            case 'r': decoded = 0x0d; break;
            case 't': decoded = 0x09; break;
            case 'u': {
                bool ok = m_pos + 6 <= m_text.size();
                if (ok)
                    decoded = char16_t(m_text.mid(m_pos + 2, 4).toUInt(&ok, 16));
                for (qsizetype i = m_pos + 2; ok && i < m_pos + 6; ++i)
                    ok = isAsciiDigit(m_text.at(i)) || (m_text.at(i) >= 'a' && m_text.at(i) <= 'f')
                        || (m_text.at(i) >= 'A' && m_text.at(i) <= 'F');
                if (!ok)
                    return fail(m_pos, QStringLiteral("\\u in a string must be followed by four hex digits"));
                m_pos += 4;
                break;
            }
            default:
                return fail(m_pos, QStringLiteral("a backslash before %1, which is not a JSON escape (allowed: "
                                                  "\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                                       .arg(isAsciiLetter(e) || isAsciiDigit(e) ? QString(QLatin1Char(e)) : token(m_pos + 1)));
            }
            if (out)
                out->append(QChar(decoded));
            m_pos += 2;
            continue;
        }
        if (c < 0x20)
            return fail(m_pos, QStringLiteral("a raw control character (%1) inside a string; write it as an escape "
                                              "such as \\n")
                                   .arg(escapedChar(c)));
        const int length = utf8Length(m_pos);
        if (length == 0)
            return fail(m_pos, QStringLiteral("invalid UTF-8 inside a string (the file must be UTF-8 text)"));
        if (out)
            out->append(QString::fromUtf8(m_text.constData() + m_pos, length));
        m_pos += length;
    }
}

bool JsonScanner::number()
{
    const qsizetype start = m_pos;
    const auto invalid = [&](const QString &why) {
        return fail(start, QStringLiteral("invalid number %1 (%2)").arg(token(start), why));
    };
    if (cur() == '-')
        ++m_pos;
    if (atEnd() || !isAsciiDigit(cur())) {
        if (m_text.mid(m_pos, 8) == "Infinity")
            return fail(start, QStringLiteral("-Infinity is not a JSON number"));
        return invalid(QStringLiteral("a minus sign must be followed by a digit"));
    }
    if (cur() == '0') {
        ++m_pos;
        if (!atEnd() && (cur() == 'x' || cur() == 'X'))
            return invalid(QStringLiteral("hexadecimal is not JSON; write the number in decimal"));
        if (!atEnd() && isAsciiDigit(cur()))
            return invalid(QStringLiteral("JSON numbers have no leading zeros"));
    } else {
        while (!atEnd() && isAsciiDigit(cur()))
            ++m_pos;
    }
    if (!atEnd() && cur() == '.') {
        ++m_pos;
        if (atEnd() || !isAsciiDigit(cur()))
            return invalid(QStringLiteral("a digit must follow the decimal point"));
        while (!atEnd() && isAsciiDigit(cur()))
            ++m_pos;
    }
    if (!atEnd() && (cur() == 'e' || cur() == 'E')) {
        ++m_pos;
        if (!atEnd() && (cur() == '+' || cur() == '-'))
            ++m_pos;
        if (atEnd() || !isAsciiDigit(cur()))
            return invalid(QStringLiteral("the exponent needs digits"));
        while (!atEnd() && isAsciiDigit(cur()))
            ++m_pos;
    }
    if (!atEnd() && (isAsciiLetter(cur()) || cur() == '_' || cur() == '.'))
        return invalid(QStringLiteral("JSON numbers are plain decimals such as 10, 0.5 or 1e6"));
    bool ok = false;
    const double value = m_text.mid(start, m_pos - start).toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return invalid(QStringLiteral("too large to be a number"));
    return true;
}

bool JsonScanner::scalar()
{
    const char c = cur();
    if (c == '"')
        return string(nullptr);
    if (c == '-' || isAsciiDigit(c))
        return number();
    for (const char *literal : {"true", "false", "null"}) {
        const qsizetype n = qsizetype(qstrlen(literal));
        if (m_text.mid(m_pos, n) == literal
            && (m_pos + n >= m_text.size() || !(isAsciiLetter(m_text.at(m_pos + n)) || isAsciiDigit(m_text.at(m_pos + n))))) {
            m_pos += n;
            return true;
        }
    }
    if (c == '\'')
        return fail(m_pos, QStringLiteral("a string in single quotes (JSON needs double quotes)"));
    if (c == '+')
        return fail(m_pos, QStringLiteral("invalid number %1 (JSON numbers cannot start with +)").arg(token(m_pos)));
    if (c == '.')
        return fail(m_pos, QStringLiteral("invalid number %1 (write a digit before the decimal point, e.g. 0.5)")
                               .arg(token(m_pos)));
    if (c == '/')
        return fail(m_pos, QStringLiteral("a comment (JSON has no comments)"));
    if (isAsciiLetter(c) || c == '_') {
        const QString word = token(m_pos);
        if (word == QLatin1String("NaN") || word == QLatin1String("Infinity"))
            return fail(m_pos, QStringLiteral("%1 is not a JSON number").arg(word));
        for (const char *literal : {"true", "false", "null"}) {
            if (word.compare(QLatin1String(literal), Qt::CaseInsensitive) == 0)
                return fail(m_pos, QStringLiteral("%1 is not JSON (write %2 in lower case)").arg(word, QLatin1String(literal)));
        }
        return fail(m_pos, QStringLiteral("the word %1 has no quotes (text values need double quotes: \"%1\")").arg(word));
    }
    if (c == ',' || c == '}' || c == ']' || c == ':')
        return fail(m_pos, QStringLiteral("expected a value before %1").arg(QLatin1Char(c)));
    return fail(m_pos, QStringLiteral("unexpected %1 where a value should be").arg(token(m_pos)));
}

// A file in UTF-16 or UTF-32 (as some Windows editors save) gets a hint rather than "unexpected character".
QString encodingProblem(const QByteArray &bytes)
{
    if (bytes.startsWith("\xff\xfe") || bytes.startsWith("\xfe\xff"))
        return QStringLiteral("the file is UTF-16 or UTF-32 text (it starts with a byte order mark); save it as UTF-8");
    if (bytes.left(4).contains('\0'))
        return QStringLiteral("the file holds zero bytes near its start (UTF-16 or UTF-32 text?); save it as UTF-8");
    return QString();
}

} // namespace retrylab::scenario::detail
