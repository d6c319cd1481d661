#pragma once

#include "scenario.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

// How the reader and the path editor echo a file's text and values in their messages: escaped,
// cut short, and with spelling suggestions for unknown keys.
namespace retrylab::scenario::detail {

// Largest integer a JSON number (an IEEE double) carries exactly.
inline constexpr double MaxExactInteger = 9007199254740992.0; // 2^53

// Text from a file, made safe to echo: control characters escaped (ESC becomes \u001b),
// cut after maxChars characters (negative: never) with an ellipsis. quotes: also escape " and \ for a quoted echo.
QString printable(const QString &text, bool quotes = false, int maxChars = scenario::MaxEchoChars);
QString quoted(const QString &text);
// "\u001b": a character as a JSON escape.
QString escapedChar(char16_t u);
// A key as it appears in an error path: plain names as they are, anything else quoted and escaped.
QString displayKey(const QString &key);
// Compact rendering of an offending value for error messages, never much longer than MaxEchoChars.
QString describe(const QJsonValue &v);
int editDistance(const QString &a, const QString &b);
QString joinPath(const QString &prefix, const QString &key);
// "prefix.key: unknown key (did you mean ...)".
QString unknownKeyMessage(const QString &prefix, const QString &key, const QStringList &known, bool suggest = true);
// At most MaxReportedErrors lines, then one "and N more errors" line.
void capErrors(QStringList *errors, qsizetype unlisted = 0);
// "1000000" rather than QString::arg's "1e+06".
QString plainNumber(double v);
// "3.5" / "10": a number of a file echoed in an error, as short as it round-trips.
QString shortNumber(double v);

} // namespace retrylab::scenario::detail
