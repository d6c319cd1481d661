#include "scenario/echo.h"

#include "scenario.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace retrylab::scenario::detail {

// Characters that must not reach a terminal raw: C0 and C1 controls, DEL, and the invisible
// marks that reorder or hide text (bidi overrides and isolates, zero-width marks, BOM).
bool unsafeChar(char16_t u)
{
    return u < 0x20 || (u >= 0x7f && u <= 0x9f) || (u >= 0x200b && u <= 0x200f) || (u >= 0x202a && u <= 0x202e)
        || (u >= 0x2060 && u <= 0x2069) || u == 0xfeff;
}

QString escapedChar(char16_t u)
{
    return QStringLiteral("\\u%1").arg(uint(u), 4, 16, QLatin1Char('0'));
}

// Text from a file, made safe to echo: control characters escaped (ESC becomes \u001b),
// cut after maxChars characters (negative: never) with an ellipsis. quotes: also escape " and \ for a quoted echo.
QString printable(const QString &text, bool quotes, int maxChars)
{
    QString out;
    int shown = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (shown == maxChars) {
            out += QChar(0x2026);
            break;
        }
        ++shown;
        const QChar c = text.at(i);
        const char16_t u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            out += c;
            out += text.at(++i);
        } else if (unsafeChar(u) || c.isSurrogate()) {
            out += escapedChar(u);
        } else if (quotes && (u == '"' || u == '\\')) {
            out += QLatin1Char('\\');
            out += c;
        } else {
            out += c;
        }
    }
    return out;
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + printable(text, true) + QLatin1Char('"');
}

bool plainKey(const QString &key)
{
    if (key.isEmpty() || key.at(0).isDigit())
        return false;
    for (const QChar c : key) {
        const char16_t u = c.unicode();
        if (!((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'))
            return false;
    }
    return true;
}

// A key as it appears in an error path: plain names as they are, anything else quoted and escaped,
// so " workload" cannot read like "workload" and an empty key is visible.
QString displayKey(const QString &key)
{
    if (key.isEmpty())
        return QStringLiteral("\"\" (an empty key)");
    return plainKey(key) && key.size() <= scenario::MaxEchoChars ? key : quoted(key);
}

void describeInto(const QJsonValue &v, QString *out);

// Compact rendering of an offending value for error messages, never much longer than MaxEchoChars.
QString describe(const QJsonValue &v)
{
    QString out;
    describeInto(v, &out);
    if (out.size() > scenario::MaxEchoChars + 1 && !v.isString())
        out = out.left(scenario::MaxEchoChars) + QChar(0x2026);
    return out;
}

void describeInto(const QJsonValue &v, QString *out)
{
    // Stops early on big arrays and objects: the text is cut at MaxEchoChars anyway.
    const auto full = [out] { return out->size() > scenario::MaxEchoChars; };
    switch (v.type()) {
    case QJsonValue::Null:
        *out += QStringLiteral("null");
        return;
    case QJsonValue::Bool:
        *out += v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        return;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::floor(d) == d && std::fabs(d) < MaxExactInteger)
            *out += QString::number(qint64(d));
        else // the shortest text that reads back as d: 1.0000001, not 1.0000001000000001
            *out += QString::number(d, 'g', QLocale::FloatingPointShortest);
        return;
    }
    case QJsonValue::String:
        *out += quoted(v.toString());
        return;
    case QJsonValue::Array: {
        const QJsonArray array = v.toArray();
        *out += QLatin1Char('[');
        for (qsizetype i = 0; i < array.size() && !full(); ++i) {
            if (i > 0)
                *out += QLatin1Char(',');
            describeInto(array.at(i), out);
        }
        *out += QLatin1Char(']');
        return;
    }
    case QJsonValue::Object: {
        const QJsonObject object = v.toObject();
        *out += QLatin1Char('{');
        bool first = true;
        for (auto it = object.constBegin(); it != object.constEnd() && !full(); ++it) {
            if (!first)
                *out += QLatin1Char(',');
            first = false;
            *out += quoted(it.key()) + QLatin1Char(':');
            describeInto(it.value(), out);
        }
        *out += QLatin1Char('}');
        return;
    }
    case QJsonValue::Undefined:
        break;
    }
    *out += QStringLiteral("nothing");
}

int editDistance(const QString &a, const QString &b)
{
    QList<int> prev(b.size() + 1), cur(b.size() + 1);
    for (int j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (int i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (int j = 1; j <= b.size(); ++j) {
            const int cost = a.at(i - 1).toLower() == b.at(j - 1).toLower() ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

QString joinPath(const QString &prefix, const QString &key)
{
    return prefix.isEmpty() ? key : prefix + QLatin1Char('.') + key;
}

// "prefix.key: unknown key (did you mean ...)". Suggestions only for keys of sensible length and
// within two edits, so a megabyte key or a hundred thousand keys cost no spelling work.
QString unknownKeyMessage(const QString &prefix, const QString &key, const QStringList &known, bool suggest)
{
    QString best;
    if (suggest && key.size() <= scenario::MaxSuggestedKeyChars) {
        int bestDistance = 3; // suggest only close misspellings
        for (const QString &k : known) {
            if (std::abs(int(k.size()) - int(key.size())) >= bestDistance)
                continue;
            const int d = editDistance(key, k);
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
    }
    QString msg = joinPath(prefix, displayKey(key)) + QStringLiteral(": unknown key");
    if (!best.isEmpty())
        msg += QStringLiteral(" (did you mean \"%1\"?)").arg(best);
    return msg;
}

// At most MaxReportedErrors lines, then one "and N more errors" line.
void capErrors(QStringList *errors, qsizetype unlisted)
{
    const qsizetype more = std::max<qsizetype>(0, errors->size() - scenario::MaxReportedErrors) + unlisted;
    if (more == 0)
        return;
    if (errors->size() > scenario::MaxReportedErrors)
        errors->erase(errors->begin() + scenario::MaxReportedErrors, errors->end());
    errors->append(more == 1 ? QCoreApplication::translate("scenario", "and 1 more error") : QCoreApplication::translate("scenario", "and %1 more errors").arg(more));
}

// "1000000" rather than QString::arg's "1e+06".
QString plainNumber(double v)
{
    if (std::floor(v) == v && std::fabs(v) < MaxExactInteger)
        return QString::number(qint64(v));
    return QString::number(v, 'g', 15);
}

QString shortNumber(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

} // namespace retrylab::scenario::detail

namespace retrylab::scenario {

QString printable(const QString &text, int maxChars)
{
    return detail::printable(text, false, maxChars);
}

} // namespace retrylab::scenario
