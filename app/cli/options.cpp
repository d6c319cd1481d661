#include "options.h"

#include "i18n.h"
#include "output.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace retrylab {
namespace cli {

namespace {

QString withFieldHint(const QString &error)
{
    static const QRegularExpression unknown(QStringLiteral("^([A-Za-z0-9_.\\[\\]]+): unknown key"));
    const QRegularExpressionMatch m = unknown.match(error);
    return m.hasMatch() ? unknownFieldMessage(m.captured(1)) : error;
}

// Every --set (validated together, in any order), then --seed, on top of *s.
int applySetsAndSeed(const QCommandLineParser &parser, const QString &command, Scenario *start, Scenario *out)
{
    Scenario &s = *start;

    const QStringList assignments = parser.values(setOption());
    for (const QString &assignment : assignments) {
        if (!assignment.contains(QLatin1Char('='))) {
            fail(QCoreApplication::translate("cli", "%1: --set '%2': expected path=value, e.g. network.responseLoss=0.3")
                         .arg(command, echo(assignment)));
            return ExitUsage;
        }
    }
    if (!assignments.isEmpty()) {
        QStringList sources;
        const ScenarioParse changed = scenario::withSets(s, assignments, &sources);
        if (!changed.ok()) {
            for (qsizetype i = 0; i < changed.errors.size(); ++i) {
                const QString source = sources.value(i);
                fail(source.isEmpty() ? QStringLiteral("%1: --set: %2").arg(command, withFieldHint(changed.errors.at(i)))
                                      : QStringLiteral("%1: --set %2: %3")
                                            .arg(command, echo(source), withFieldHint(changed.errors.at(i))));
            }
            return ExitUsage;
        }
        s = changed.scenario;
    }

    if (parser.isSet(seedOption())) {
        const QString text = parser.value(seedOption()).trimmed();
        bool ok = false;
        const qulonglong seed = text.toULongLong(&ok);
        if (!ok || text.startsWith(QLatin1Char('-')) || text.startsWith(QLatin1Char('+'))) {
            fail(QCoreApplication::translate("cli", "%1: --seed: expected a non-negative integer, got '%2'").arg(command, echo(text)));
            return ExitUsage;
        }
        s.seed = seed;
    }
    *out = s;
    return Continue;
}

} // namespace

QString echo(const QString &text, int maxChars)
{
    return scenario::printable(text, maxChars);
}

void fail(const QString &message)
{
    QString line = message.trimmed();
    line.replace(QLatin1Char('\n'), QStringLiteral("; "));
    // Whatever a message quotes (a file's path in a core error, Qt's text), nothing raw reaches the terminal.
    const QByteArray bytes = QStringLiteral("retrylab: %1\n").arg(scenario::printable(line, -1)).toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
}

int loadScenario(const QCommandLineParser &parser, const QString &command, Scenario *out, const Scenario *fallback)
{
    const QString name = parser.value(scenarioOption());
    if (fallback && !parser.isSet(scenarioOption())) {
        Scenario s = *fallback;
        return applySetsAndSeed(parser, command, &s, out);
    }
    if (!parser.isSet(scenarioOption()) || name.trimmed().isEmpty()) {
        fail(QCoreApplication::translate("cli", "%1: missing --scenario NAME|FILE (presets: %2)")
                     .arg(command, scenario::presetNames().join(QStringLiteral(", "))));
        return ExitUsage;
    }

    const QFileInfo info(name);
    ScenarioParse parsed;
    const bool looksLikeFile = name.contains(QLatin1Char('/')) || name.endsWith(QLatin1String(".json"));
    if (info.exists() && !info.isFile()) {
        // A FIFO or /dev/stdin would block or be read once: only regular files are scenarios.
        parsed.errors << (info.isDir() ? QCoreApplication::translate("cli", "\"%1\" is a directory, not a scenario file").arg(echo(name))
                                       : QCoreApplication::translate("cli", "\"%1\" is not a regular file (a FIFO, a device or a "
                                                                            "socket), not a scenario file")
                                                 .arg(echo(name)));
    } else if (!info.exists() && looksLikeFile) {
        parsed.errors << QCoreApplication::translate("cli", "no such scenario file \"%1\"").arg(echo(name));
    } else {
        parsed = scenario::resolve(name);
        if (info.isFile()) {
            // Field errors only name the path inside the file; say which file too.
            for (QString &error : parsed.errors) {
                if (!error.contains(name))
                    error = QStringLiteral("%1: %2").arg(echo(name), error);
            }
        }
    }
    if (!parsed.ok()) {
        for (const QString &error : std::as_const(parsed.errors))
            fail(QStringLiteral("%1: --scenario: %2").arg(command, error));
        return ExitUsage;
    }
    Scenario s = parsed.scenario;
    return applySetsAndSeed(parser, command, &s, out);
}

// QCommandLineParser says "Unknown option 'x'."; our lines are lower case without a full stop.
std::optional<qint64> wholeNumber(const QString &text, qint64 min, qint64 max)
{
    const QString trimmed = text.trimmed();
    bool ok = false;
    const qint64 n = trimmed.toLongLong(&ok);
    if (!ok || n < min || n > max || trimmed.startsWith(QLatin1Char('+')))
        return std::nullopt;
    return n;
}

int readWholeFlag(const QCommandLineParser &parser, const QCommandLineOption &option, const QString &command,
                  qint64 min, qint64 max, qint64 *out)
{
    const QString text = parser.value(option).trimmed();
    const std::optional<qint64> n = wholeNumber(text, min, max);
    if (!n) {
        const QStringList names = option.names();
        const QString flag = *std::max_element(names.cbegin(), names.cend(), [](const QString &a, const QString &b) {
            return a.size() < b.size();
        });
        fail(QCoreApplication::translate("cli", "%1: --%2: expected an integer from %3 to %4, got '%5'")
                 .arg(command, flag)
                 .arg(min)
                 .arg(max)
                 .arg(echo(text)));
        return ExitUsage;
    }
    *out = *n;
    return Continue;
}

QString sentence(QString text)
{
    text = text.trimmed();
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    if (!text.isEmpty())
        text[0] = text.at(0).toLower();
    return text;
}

// Functions, not globals: the descriptions are translated once the translators are installed.
QCommandLineOption scenarioOption()
{
    return QCommandLineOption(QStringLiteral("scenario"),
                              QCoreApplication::translate("cli", "Preset name (see 'retrylab list') or scenario JSON file."),
                              QStringLiteral("NAME|FILE"));
}

QCommandLineOption seedOption()
{
    return QCommandLineOption(QStringLiteral("seed"), QCoreApplication::translate("cli", "Random seed (overrides the scenario's)."),
                              QStringLiteral("N"));
}

QCommandLineOption setOption()
{
    return QCommandLineOption(QStringLiteral("set"),
                              QCoreApplication::translate("cli", "Change one scenario field, e.g. network.responseLoss=0.3 "
                                                                 "(repeatable; 'retrylab fields' lists every path with its "
                                                                 "type, range and default)."),
                              QStringLiteral("path=value"));
}

QCommandLineOption formatOption(const QString &choices)
{
    return QCommandLineOption(QStringLiteral("format"),
                              QCoreApplication::translate("cli", "Output format: %1 (default table).").arg(choices),
                              QStringLiteral("FORMAT"), QStringLiteral("table"));
}

QCommandLineOption maxAttemptsOption(const QString &description)
{
    return QCommandLineOption(QStringLiteral("max-attempts"), description, QStringLiteral("N"));
}

// --max-attempts N: a positive integer, digits or a number like 3e11.
int parseMaxAttempts(const QCommandLineParser &parser, const QString &command, qint64 fallback, qint64 *out)
{
    *out = fallback;
    if (!parser.isSet(QStringLiteral("max-attempts")))
        return Continue;
    const QString text = parser.value(QStringLiteral("max-attempts")).trimmed();
    bool ok = false;
    qint64 n = text.toLongLong(&ok);
    if (!ok) {
        const double d = text.toDouble(&ok);
        ok = ok && std::isfinite(d) && std::floor(d) == d && d < 9.2e18;
        n = ok ? qint64(d) : 0;
    }
    if (!ok || n < 1) {
        fail(QCoreApplication::translate("cli", "%1: --max-attempts: expected a positive whole number such as 500000000 or 5e8, got '%2'")
                     .arg(command, echo(text)));
        return ExitUsage;
    }
    *out = n;
    return Continue;
}

int parseFormat(const QCommandLineParser &parser, const QString &command, bool csvAllowed, Format *format)
{
    const QString value = parser.value(QStringLiteral("format"));
    if (value == QLatin1String("table"))
        *format = Format::Table;
    else if (value == QLatin1String("json"))
        *format = Format::Json;
    else if (value == QLatin1String("csv") && csvAllowed)
        *format = Format::Csv;
    else {
        fail(QCoreApplication::translate("cli", "%1: --format: expected %2, got '%3'")
                     .arg(command, csvAllowed ? QCoreApplication::translate("cli", "table, json or csv") : QCoreApplication::translate("cli", "table or json"),
                          echo(value)));
        return ExitUsage;
    }
    return Continue;
}

// "network.responseLos: unknown key ..." becomes a hint at the closest catalogue paths.
QString unknownFieldMessage(const QString &path)
{
    const QStringList close = scenario::closestFields(path);
    if (close.isEmpty())
        return QCoreApplication::translate("cli", "unknown field %1 (see 'retrylab fields' for every path)").arg(echo(path));
    return QCoreApplication::translate("cli", "unknown field %1; did you mean %2?").arg(echo(path), joinedWithOr(close));
}

QString scenarioHeading(const Scenario &s)
{
    // A file's name and title may hold any character: a table shows them escaped.
    if (s.title.isEmpty())
        return echo(s.name);
    return QStringLiteral("%1 - %2").arg(echo(s.name), echo(i18n::content(s.title)));
}

QJsonValue seedJson(const Scenario &s)
{
    return scenario::seedToJson(s.seed); // never the whole scenario to read one field
}

} // namespace cli
} // namespace retrylab
