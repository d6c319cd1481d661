#pragma once

#include <optional>

#include "scenario.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonValue>
#include <QString>

namespace retrylab {
namespace cli {

// What every command shares: exit codes, one-line errors, the options several commands take
// (--scenario, --seed, --set, --format, --max-attempts) and the one way user input is echoed.

constexpr int ExitOk = 0;
constexpr int ExitRuntime = 1;
constexpr int ExitUsage = 2;
// A long command stopped by Ctrl+C after printing what it had (128 + SIGINT, as shells report it).
constexpr int ExitInterrupted = 130;
// Returned by the helpers below when the command should go on.
constexpr int Continue = -1;

enum class Format { Table, Json, Csv };

// The most characters of one piece of user input (a value, a path, a name) a message repeats.
constexpr int MaxEchoChars = 200;

// User input made safe to repeat on a terminal: control characters and the invisible marks
// that reorder or hide text become \uXXXX, and text past `maxChars` characters is cut with an
// ellipsis, so a value cannot clear the screen, hide the rest of the line or flood it.
QString echo(const QString &text, int maxChars = MaxEchoChars);

// Every error is one line on stderr, so scripts can grep it and people read it at a glance.
void fail(const QString &message);

// A whole number written plainly (no sign "+", surrounding blanks allowed) from min to max;
// nullopt otherwise. The caller words the error, naming its command and flag.
std::optional<qint64> wholeNumber(const QString &text, qint64 min, qint64 max);

// A flag's value through wholeNumber(): "COMMAND: --FLAG: expected an integer from MIN to MAX, got 'X'"
// (the flag by its long name) when it is not one. Returns Continue or ExitUsage after printing.
int readWholeFlag(const QCommandLineParser &parser, const QCommandLineOption &option, const QString &command,
                  qint64 min, qint64 max, qint64 *out);

// QCommandLineParser says "Unknown option 'x'."; our lines are lower case without a full stop.
QString sentence(QString text);

// Functions, not globals: the descriptions are translated once the translators are installed.
QCommandLineOption scenarioOption();
QCommandLineOption seedOption();
QCommandLineOption setOption();
QCommandLineOption formatOption(const QString &choices);
QCommandLineOption maxAttemptsOption(const QString &description);

// --format: table, json (or csv when csvAllowed); returns Continue or ExitUsage.
int parseFormat(const QCommandLineParser &parser, const QString &command, bool csvAllowed, Format *format);

// --max-attempts N: a positive integer, digits or a number like 3e11; `fallback` when absent.
int parseMaxAttempts(const QCommandLineParser &parser, const QString &command, qint64 fallback, qint64 *out);

// --scenario (or `fallback` when it is absent and one is given), then every --set (validated
// together, in any order), then --seed. Returns Continue or the exit code after printing the error.
int loadScenario(const QCommandLineParser &parser, const QString &command, Scenario *out,
                 const Scenario *fallback = nullptr);

// "unknown field network.responseLos; did you mean network.responseLoss?"
QString unknownFieldMessage(const QString &path);

// "name - title" for a table's heading.
QString scenarioHeading(const Scenario &s);

// The scenario file's own encoding: a number, or a string beyond 2^53 where numbers lose digits.
QJsonValue seedJson(const Scenario &s);

} // namespace cli
} // namespace retrylab
