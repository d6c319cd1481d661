#include "cli.h"

#include "compare.h"
#include "i18n.h"
#include "liverun.h"
#include "orderserver.h"
#include "lesson.h"
#include "scenario.h"
#include "series.h"
#include "simulator.h"
#include "sweep.h"
#include "charts/sweepfigure.h"
#include "trace.h"
#include "work.h"

#include <QCommandLineParser>
#include <QApplication>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QNetworkInterface>
#include <QSocketNotifier>

#include <array>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <malloc.h>
#include <optional>
#include <unistd.h>

namespace retrylab {
namespace cli {

namespace {

constexpr int ExitOk = 0;
constexpr int ExitRuntime = 1;
constexpr int ExitUsage = 2;
// Returned by the helpers below when the command should go on.
constexpr int Continue = -1;

const char *const Commands[] = {"run", "sweep", "compare", "list", "lessons", "fields", "serve", "help"};

// Human-readable output fits a classic terminal.
constexpr int TerminalWidth = 80;

enum class Format { Table, Json, Csv };

void writeOut(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

// Every error is one line on stderr, so scripts can grep it and people read it at a glance.
void fail(const QString &message)
{
    QString line = message.trimmed();
    line.replace(QLatin1Char('\n'), QStringLiteral("; "));
    const QByteArray bytes = QStringLiteral("retrylab: %1\n").arg(line).toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
}

// QCommandLineParser says "Unknown option 'x'."; our lines are lower case without a full stop.
QString sentence(QString text)
{
    text = text.trimmed();
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    if (!text.isEmpty())
        text[0] = text.at(0).toLower();
    return text;
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

// text padded with spaces to width terminal columns.
QString padded(const QString &text, int width)
{
    return text + QString(std::max(0, width - displayWidth(text)), QLatin1Char(' '));
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

// "network.responseLos: unknown key ..." becomes a hint at the closest catalogue paths.
QString unknownFieldMessage(const QString &path)
{
    const QStringList close = scenario::closestFields(path);
    if (close.isEmpty())
        return QCoreApplication::translate("cli", "unknown field %1 (see 'retrylab fields' for every path)").arg(path);
    return QCoreApplication::translate("cli", "unknown field %1; did you mean %2?").arg(path, joinedWithOr(close));
}

QString withFieldHint(const QString &error)
{
    static const QRegularExpression unknown(QStringLiteral("^([A-Za-z0-9_.\\[\\]]+): unknown key"));
    const QRegularExpressionMatch m = unknown.match(error);
    return m.hasMatch() ? unknownFieldMessage(m.captured(1)) : error;
}

QString scenarioHeading(const Scenario &s)
{
    if (s.title.isEmpty())
        return s.name;
    return QStringLiteral("%1 - %2").arg(s.name, i18n::content(s.title));
}

// One subcommand's parser with the options every command shares.
class CommandParser
{
public:
    CommandParser(const QString &command, const QString &synopsis, const QString &description)
        : m_command(command), m_synopsis(synopsis), m_help(m_parser.addHelpOption())
    {
        m_parser.setApplicationDescription(description);
        m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    }

    QCommandLineParser &parser() { return m_parser; }

    // Parses `retrylab <command> args...`; returns Continue or the exit code to return now.
    int parse(const QStringList &arguments)
    {
        QStringList list = arguments;
        list.prepend(QStringLiteral("retrylab"));
        if (!m_parser.parse(list)) {
            fail(QCoreApplication::translate("cli", "%1: %2 (see 'retrylab %1 --help')").arg(m_command, sentence(m_parser.errorText())));
            return ExitUsage;
        }
        if (m_parser.isSet(m_help)) {
            writeOut(helpText());
            return ExitOk;
        }
        const QStringList extra = m_parser.positionalArguments();
        if (!extra.isEmpty()) {
            fail(QCoreApplication::translate("cli", "%1: unexpected argument '%2' (see 'retrylab %1 --help')").arg(m_command, extra.first()));
            return ExitUsage;
        }
        return Continue;
    }

    QString helpText() const
    {
        // Qt's first line names the executable's full path; ours shows the real synopsis.
        QString text = m_parser.helpText();
        const int newline = text.indexOf(QLatin1Char('\n'));
        return QCoreApplication::translate("cli", "Usage: retrylab %1 %2").arg(m_command, m_synopsis)
                + (newline >= 0 ? text.mid(newline) : QString());
    }

private:
    QString m_command;
    QString m_synopsis;
    QCommandLineParser m_parser;
    QCommandLineOption m_help;
};

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
                          value));
        return ExitUsage;
    }
    return Continue;
}

// Every --set (validated together, in any order), then --seed, on top of *s.
int applySetsAndSeed(const QCommandLineParser &parser, const QString &command, Scenario *start, Scenario *out)
{
    Scenario &s = *start;

    const QStringList assignments = parser.values(setOption());
    for (const QString &assignment : assignments) {
        if (!assignment.contains(QLatin1Char('='))) {
            fail(QCoreApplication::translate("cli", "%1: --set '%2': expected path=value, e.g. network.responseLoss=0.3")
                         .arg(command, assignment));
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
                                            .arg(command, source, withFieldHint(changed.errors.at(i))));
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
            fail(QCoreApplication::translate("cli", "%1: --seed: expected a non-negative integer, got '%2'").arg(command, text));
            return ExitUsage;
        }
        s.seed = seed;
    }
    *out = s;
    return Continue;
}

// --scenario (or `fallback` when it is absent and one is given), then every --set (validated
// together, in any order), then --seed.
int loadScenario(const QCommandLineParser &parser, const QString &command, Scenario *out,
                 const Scenario *fallback = nullptr)
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
        parsed.errors << QCoreApplication::translate("cli", "\"%1\" is a directory, not a scenario file").arg(name);
    } else if (!info.exists() && looksLikeFile) {
        parsed.errors << QCoreApplication::translate("cli", "no such scenario file \"%1\"").arg(name);
    } else {
        parsed = scenario::resolve(name);
        if (info.isFile()) {
            // Field errors only name the path inside the file; say which file too.
            for (QString &error : parsed.errors) {
                if (!error.contains(name))
                    error = QStringLiteral("%1: %2").arg(name, error);
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

// ---- run -------------------------------------------------------------------

// The scenario file's own encoding: a number, or a string beyond 2^53 where numbers lose digits.
QJsonValue seedJson(const Scenario &s)
{
    return scenario::seedToJson(s.seed); // never the whole scenario to read one field
}

QJsonObject runJson(const Scenario &s, const Metrics &m)
{
    return QJsonObject{
        {QStringLiteral("scenario"), s.name},
        {QStringLiteral("title"), s.title},
        {QStringLiteral("seed"), seedJson(s)},
        {QStringLiteral("worstCase"), s.worstCaseFormula()},
        {QStringLiteral("metrics"), m.toJson()},
    };
}

QString runTable(const Scenario &s, const Metrics &m)
{
    QString out = QCoreApplication::translate("cli", "%1 (seed %2)\n\n").arg(scenarioHeading(s)).arg(s.seed);
    QList<QStringList> rows;
    rows << QStringList{QCoreApplication::translate("cli", "metric"), QCoreApplication::translate("cli", "value")};
    rows << QStringList{QStringLiteral("------"), QStringLiteral("-----")};
    const auto flat = m.flat();
    for (const auto &entry : flat)
        rows << QStringList{entry.first, formatNumber(entry.second)};
    rows << QStringList{QStringLiteral("worstCase"), s.worstCaseFormula()};
    return out + alignedTable(rows);
}

QString runCsv(const Scenario &s, const Metrics &m)
{
    QStringList header{QStringLiteral("scenario"), QStringLiteral("seed")};
    QStringList row{csvField(s.name), QString::number(s.seed)};
    const auto flat = m.flat();
    for (const auto &entry : flat) {
        header << csvField(entry.first);
        row << csvNumber(entry.second);
    }
    header << QStringLiteral("worstCase");
    row << csvField(s.worstCaseFormula());
    return header.join(QLatin1Char(',')) + QLatin1Char('\n') + row.join(QLatin1Char(',')) + QLatin1Char('\n');
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
                     .arg(command, text));
        return ExitUsage;
    }
    *out = n;
    return Continue;
}

void writeTo(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
}

// ---- run --series ------------------------------------------------------------

// Where a series goes, chunk by chunk: a 1 ms series of a long run holds up to a million buckets,
// so it is never formatted whole. False once a write failed.
using ChunkSink = std::function<bool(const QByteArray &)>;
constexpr int SeriesChunkBytes = 1 << 16;

// The object of series::toJson, one bucket per line, its closing brace `indent` spaces in.
bool writeSeriesJson(const Series &s, int indent, const ChunkSink &sink)
{
    const QByteArray pad(indent, ' ');
    QByteArray out = "{\n" + pad + "    \"bucketS\": " + series::secondsText(s.bucketUs) + ",\n" + pad
        + "    \"buckets\": [\n";
    for (int i = 0; i < s.buckets.size(); ++i) {
        out += pad + "        ";
        series::appendJsonBucket(out, s.buckets.at(i));
        out += i + 1 < s.buckets.size() ? ",\n" : "\n";
        if (out.size() >= SeriesChunkBytes) {
            if (!sink(out))
                return false;
            out.clear();
        }
    }
    out += pad + "    ]\n" + pad + "}";
    return sink(out);
}

bool writeSeriesCsv(const Series &s, const ChunkSink &sink)
{
    QByteArray out = series::csvHeader();
    for (const SeriesBucket &b : s.buckets) {
        series::appendCsvRow(out, b);
        if (out.size() >= SeriesChunkBytes) {
            if (!sink(out))
                return false;
            out.clear();
        }
    }
    return sink(out);
}

// For people: the columns that fit a terminal, right-aligned; JSON and CSV have them all.
bool writeSeriesTable(const Series &s, const ChunkSink &sink)
{
    const char *const headers[] = {"start (s)", "attempts", "retries", "served", "successes",
                                   "failures",  "timeouts", "in flight"};
    const auto cells = [](const SeriesBucket &b) {
        return std::array<QByteArray, 8>{series::secondsText(b.startUs), QByteArray::number(b.attempts),
                                         QByteArray::number(b.retries), QByteArray::number(b.served),
                                         QByteArray::number(b.successes), QByteArray::number(b.failures),
                                         QByteArray::number(b.timeouts), QByteArray::number(b.inFlight)};
    };
    std::array<int, 8> widths{};
    for (size_t i = 0; i < widths.size(); ++i)
        widths[i] = int(std::strlen(headers[i]));
    for (const SeriesBucket &b : s.buckets) {
        const auto row = cells(b);
        for (size_t i = 0; i < widths.size(); ++i)
            widths[i] = std::max(widths[i], int(row[i].size()));
    }
    const QString title = QCoreApplication::translate("cli", "\nLoad per %1 bucket (%2): every column with --format json or csv\n\n")
                              .arg(series::formatBucket(s.bucketUs),
                                   s.buckets.size() == 1 ? QCoreApplication::translate("cli", "1 bucket")
                                                         : QCoreApplication::translate("cli", "%1 buckets").arg(s.buckets.size()));
    QByteArray out = title.toUtf8();
    const auto line = [&out, &widths](const std::array<QByteArray, 8> &row) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (i > 0)
                out += "  ";
            out += row[i].rightJustified(widths[i], ' ');
        }
        out += '\n';
    };
    std::array<QByteArray, 8> header;
    for (size_t i = 0; i < header.size(); ++i)
        header[i] = headers[i];
    line(header);
    for (const SeriesBucket &b : s.buckets) {
        line(cells(b));
        if (out.size() >= SeriesChunkBytes) {
            if (!sink(out))
                return false;
            out.clear();
        }
    }
    return sink(out);
}

// --series SIZE: the bucket, or a usage error naming the flag and the value.
int parseSeriesBucket(const QCommandLineParser &parser, qint64 *bucketUs)
{
    QString error;
    if (!series::parseBucket(parser.value(QStringLiteral("series")), bucketUs, &error)) {
        fail(QStringLiteral("run: --series: %1").arg(error));
        return ExitUsage;
    }
    return Continue;
}

// A live run sends real requests in real time and keeps its trace in memory.
constexpr qint64 DefaultMaxLiveAttempts = 100000;

int runCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("run"),
                          QStringLiteral("--scenario NAME|FILE [--seed N] [--set path=value ...] "
                                         "[--format table|json|csv] [--trace FILE.jsonl|-] [--series SIZE [--series-out FILE]] "
                                         "[--max-attempts N] [--live [--url URL] [--time-scale X]]"),
                          QCoreApplication::translate("cli", "Simulates one scenario and prints its metrics. With --live the same client "
                                         "layers send real HTTP requests to an order service, and the metrics "
                                         "come from what it stored."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption traceOption(
            QStringLiteral("trace"),
            QCoreApplication::translate("cli", "Write every event as JSON lines to FILE as the run goes. '-' (or /dev/stdout) writes "
                           "the events to standard output and the metrics to standard error. A regular file is "
                           "replaced only once the whole trace is written; a FIFO or a device is written "
                           "directly. A write error stops the run with exit code 1."),
            QStringLiteral("FILE.jsonl|-"));
    const QCommandLineOption maxAttempts = maxAttemptsOption(
            QCoreApplication::translate("cli", "Refuse the run (exit code 2) if it could make more than N HTTP attempts at worst: "
                           "every submission exhausting every enabled retry layer, plus status queries and token "
                           "round trips. N is digits or a number like 5e8. Default %1, or %2 with --trace, or %3 with --live "
                           "(real requests, in real time).")
                    .arg(work::formatCount(work::DefaultMaxAttempts), work::formatCount(work::DefaultMaxTracedAttempts),
                         work::formatCount(DefaultMaxLiveAttempts)));
    const QCommandLineOption liveOption(
            QStringLiteral("live"),
            QCoreApplication::translate("cli", "Run over real HTTP on this machine's clock: an order service is started on a free "
                           "loopback port with the scenario's service and fault settings (or --url is used), and "
                           "every attempt carries Idempotency-Key, X-Request-ID and X-RetryLab-Attempt, so the "
                           "service applies the scenario's faults to the same attempts as the simulation."));
    const QCommandLineOption urlOption(
            QStringLiteral("url"),
            QCoreApplication::translate("cli", "With --live: send the orders to this order service (another RetryLab's, or any with "
                           "the same endpoints) instead of an embedded one. Its own fault settings apply; counts "
                           "include records it already held for the same references (ORD-0001, ...)."),
            QStringLiteral("URL"));
    const QCommandLineOption timeScaleOption(
            QStringLiteral("time-scale"),
            QCoreApplication::translate("cli", "With --live: real milliseconds per simulated millisecond (default 1). 0.1 runs ten "
                           "times faster: waits, timeouts, order spacing and the embedded service's processing, "
                           "restart and spike times and key TTLs are scaled; Retry-After is read in simulated "
                           "seconds. From 0.001 to 1000."),
            QStringLiteral("X"));
    const QCommandLineOption seriesOption(
            QStringLiteral("series"),
            QCoreApplication::translate("cli", "Also count the run per bucket of virtual time SIZE (1s, 0.02s, 250ms; from 1 ms to "
                           "3600 s, at most 1,000,000 buckets): POST attempts, first tries, retries, responses "
                           "served, commits, successes, failures, timeouts, 409 conflicts, 503s, retry budget "
                           "refusals and requests in flight at the server. With --format json it is the member "
                           "\"series\" of the output; with --format csv it replaces the metrics row (one row per "
                           "bucket); with table it follows the metrics. The buckets add up to the metrics."),
            QStringLiteral("SIZE"));
    const QCommandLineOption seriesOutOption(
            QStringLiteral("series-out"),
            QCoreApplication::translate("cli", "With --series: write the series to FILE instead of standard output, as CSV if FILE "
                           "ends in .csv, else as JSON; the metrics are printed as without --series."),
            QStringLiteral("FILE"));
    parser.addOptions({scenarioOption(), seedOption(), setOption(), formatOption(QStringLiteral("table, json, csv")),
                       traceOption, seriesOption, seriesOutOption, maxAttempts, liveOption, urlOption,
                       timeScaleOption});
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;

    const bool live = parser.isSet(liveOption);
    LiveOptions liveOptions;
    for (const QCommandLineOption *option : {&urlOption, &timeScaleOption}) {
        if (parser.isSet(*option) && !live) {
            fail(QCoreApplication::translate("cli", "run: --%1 needs --live").arg(option->names().constFirst()));
            return ExitUsage;
        }
    }
    if (parser.isSet(urlOption)) {
        const QString text = parser.value(urlOption).trimmed();
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty() || url.hasQuery() || url.hasFragment()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
            fail(QCoreApplication::translate("cli", "run: --url: expected an http:// or https:// address such as "
                                "http://127.0.0.1:8080, got '%1'")
                         .arg(text.left(200)));
            return ExitUsage;
        }
        liveOptions.url = url;
    }
    if (parser.isSet(timeScaleOption)) {
        const QString text = parser.value(timeScaleOption).trimmed();
        bool ok = false;
        const double k = text.toDouble(&ok);
        if (!ok || !std::isfinite(k) || k < 0.001 || k > 1000) {
            fail(QCoreApplication::translate("cli", "run: --time-scale: expected a number from 0.001 to 1000, got '%1'").arg(text.left(80)));
            return ExitUsage;
        }
        liveOptions.timeScale = k;
    }

    Format format = Format::Table;
    if (const int rc = parseFormat(parser, QStringLiteral("run"), true, &format); rc != Continue)
        return rc;
    const QString traceFile = parser.value(traceOption);
    if (parser.isSet(traceOption) && traceFile.trimmed().isEmpty()) {
        fail(QCoreApplication::translate("cli", "run: --trace: expected a file name"));
        return ExitUsage;
    }
    const bool tracing = !traceFile.isEmpty();
    const bool seriesWanted = parser.isSet(seriesOption);
    qint64 seriesBucketUs = 0;
    if (seriesWanted) {
        if (const int rc = parseSeriesBucket(parser, &seriesBucketUs); rc != Continue)
            return rc;
    }
    const QString seriesFile = parser.value(seriesOutOption);
    if (parser.isSet(seriesOutOption)) {
        if (!seriesWanted) {
            fail(QCoreApplication::translate("cli", "run: --series-out needs --series"));
            return ExitUsage;
        }
        if (seriesFile.trimmed().isEmpty()) {
            fail(QCoreApplication::translate("cli", "run: --series-out: expected a file name"));
            return ExitUsage;
        }
    }
    // A series streams the events past a counter instead of a file: as many events as a trace.
    const bool streaming = tracing || seriesWanted;
    qint64 limit = 0;
    if (const int rc = parseMaxAttempts(parser, QStringLiteral("run"),
                                        live ? DefaultMaxLiveAttempts
                                             : (streaming ? work::DefaultMaxTracedAttempts : work::DefaultMaxAttempts),
                                        &limit);
        rc != Continue)
        return rc;

    Scenario s;
    if (const int rc = loadScenario(parser, QStringLiteral("run"), &s); rc != Continue)
        return rc;

    // Refused before anything runs: the worst case is known from the settings alone.
    const work::Estimate worst = work::estimate(s);
    if (worst.attempts > limit) {
        QString message = work::refusal(QStringLiteral("this scenario"), worst, limit);
        if ((streaming || live) && !parser.isSet(maxAttempts)) {
            const QString flag = live ? QStringLiteral("--live") : tracing ? QStringLiteral("--trace")
                                                                           : QStringLiteral("--series");
            message.replace(QStringLiteral(", over the limit of"), QStringLiteral(", over the %1 limit of").arg(flag));
        }
        fail(QStringLiteral("run: %1").arg(message));
        return ExitUsage;
    }

    // The trace is written as the engine goes (bounded memory); a bad path fails before the run.
    TraceWriter writer;
    std::atomic_bool stop{false};
    RunOptions options;
    options.trace = false;
    const auto traceFailed = [&](const QString &error) {
        fail(error.contains(traceFile)
                     ? QCoreApplication::translate("cli", "run: --trace: %1").arg(error)
                     : QCoreApplication::translate("cli", "run: --trace: cannot write trace file \"%1\": %2").arg(traceFile, error));
        return ExitRuntime;
    };
    if (tracing) {
        if (const QString error = writer.open(traceFile); !error.isEmpty())
            return traceFailed(error);
        options.cancel = &stop;
    }
    // The series is counted from the same events as they happen: the run keeps no trace for it.
    std::optional<series::Builder> builder;
    if (seriesWanted)
        builder.emplace(seriesBucketUs);
    // Opened before the run, so a bad path fails before any work; replaced only when complete.
    QSaveFile seriesOut(seriesFile);
    const auto seriesOutFailed = [&seriesFile](const QString &error) {
        fail(QCoreApplication::translate("cli", "run: --series-out: cannot write \"%1\": %2").arg(seriesFile, error));
        return ExitRuntime;
    };
    if (!seriesFile.isEmpty() && !seriesOut.open(QIODevice::WriteOnly))
        return seriesOutFailed(seriesOut.errorString());
    if (streaming) {
        options.sink = [&writer, &stop, &builder, tracing](const TraceEvent &e) {
            if (builder)
                builder->add(e);
            if (tracing) {
                writer.write(e);
                if (!writer.ok())
                    stop.store(true, std::memory_order_relaxed); // no point finishing a run nobody can read
            }
        };
    }
    RunResult result;
    if (live) {
        // The live run keeps its trace in memory (the client's and the server's events are merged
        // at the end), then writes it.
        liveOptions.trace = streaming;
        result = runLive(s, liveOptions);
        for (const TraceEvent &e : std::as_const(result.trace)) {
            if (builder)
                builder->add(e);
            if (tracing && writer.ok())
                writer.write(e);
        }
    } else {
        result = simulate(s, options);
    }
    if (tracing) {
        const QString error = writer.finish();
        if (!error.isEmpty() || result.cancelled)
            return traceFailed(error);
    }
    if (!result.error.isEmpty()) {
        // The engine's own guard stopped the run: its metrics describe a part of it only.
        fail(QStringLiteral("run: %1").arg(result.error));
        return ExitRuntime;
    }

    std::optional<Series> seriesResult;
    if (builder) {
        if (!builder->ok()) {
            const qint64 lastUs = builder->lastEventUs();
            fail(QCoreApplication::translate("cli", "run: --series: %1 cuts this run (its last event at %2 s) into %3 buckets, more "
                                "than the %4 a series may hold; use --series %5 or more")
                         .arg(parser.value(seriesOption).trimmed())
                         .arg(double(lastUs) / 1e6, 0, 'f', 3)
                         .arg(series::bucketCount(lastUs, seriesBucketUs))
                         .arg(series::MaxBuckets)
                         .arg(series::bucketArgument(series::autoBucket(lastUs, series::MaxBuckets))));
            return ExitUsage;
        }
        seriesResult = builder->finish();
    }
    // With --trace - the trace owns standard output.
    FILE *const out = tracing && TraceWriter::isStandardOutput(traceFile) ? stderr : stdout;
    const ChunkSink toOut = [out](const QByteArray &bytes) {
        return std::fwrite(bytes.constData(), 1, size_t(bytes.size()), out) == size_t(bytes.size());
    };
    // The series goes to standard output with the metrics unless --series-out takes it.
    const bool seriesInline = seriesResult && seriesFile.isEmpty();
    switch (format) {
    case Format::Table:
        writeTo(out, runTable(s, result.metrics));
        if (seriesInline)
            writeSeriesTable(*seriesResult, toOut);
        break;
    case Format::Json:
        if (seriesInline) {
            // The metrics as QJsonDocument writes them, then "series" streamed in as their last member.
            QByteArray head = QJsonDocument(runJson(s, result.metrics)).toJson(QJsonDocument::Indented);
            head.chop(3); // "\n}\n"
            toOut(head + ",\n    \"series\": ");
            writeSeriesJson(*seriesResult, 4, toOut);
            toOut("\n}\n");
        } else {
            writeTo(out, QString::fromUtf8(QJsonDocument(runJson(s, result.metrics)).toJson(QJsonDocument::Indented)));
        }
        break;
    case Format::Csv:
        if (seriesInline)
            writeSeriesCsv(*seriesResult, toOut);
        else
            writeTo(out, runCsv(s, result.metrics));
        break;
    }
    std::fflush(out);
    if (seriesResult && !seriesFile.isEmpty()) {
        const ChunkSink toFile = [&seriesOut](const QByteArray &bytes) {
            return seriesOut.write(bytes) == bytes.size();
        };
        const bool csv = seriesFile.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
        const bool written = csv ? writeSeriesCsv(*seriesResult, toFile)
                                 : writeSeriesJson(*seriesResult, 0, toFile) && toFile("\n");
        if (!written || !seriesOut.commit())
            return seriesOutFailed(seriesOut.errorString());
    }
    return ExitOk;
}

// ---- sweep -----------------------------------------------------------------

// The table's metrics unless --metrics says otherwise.
const char *const SweepTableMetrics[] = {"duplicates", "records",      "amplification",
                                         "httpAttempts", "clientFailed", "orphans"};
// A 2-D sweep is the AWS figure: calls and completion time per cell.
const char *const SweepTableMetrics2D[] = {"httpAttempts", "completionS"};

QString statCell(const SweepStat &stat)
{
    if (stat.min == stat.max)
        return formatNumber(stat.mean);
    return QStringLiteral("%1 [%2..%3]").arg(formatNumber(stat.mean), formatNumber(stat.min), formatNumber(stat.max));
}

// Mean and sample standard deviation, "812 ±41.5".
QString meanSdCell(const SweepStat &stat)
{
    if (stat.sd == 0)
        return formatNumber(stat.mean);
    return QStringLiteral("%1 ±%2").arg(formatNumber(stat.mean), formatNumber(stat.sd));
}

QStringList metricNames()
{
    QStringList names;
    const auto flat = Metrics().flat();
    for (const auto &entry : flat)
        names << entry.first;
    return names;
}

// The metrics a table or CSV shows: --metrics, or the defaults that Metrics::flat() has.
QStringList chosenMetrics(const QStringList &requested, const SweepSpec &spec)
{
    if (!requested.isEmpty())
        return requested;
    const QStringList known = metricNames();
    QStringList names;
    if (spec.twoD()) {
        for (const char *metric : SweepTableMetrics2D) {
            if (known.contains(QLatin1String(metric)))
                names << QLatin1String(metric);
        }
        // Without completionS in Metrics::flat(), the run's duration stands in for it.
        if (!names.contains(QLatin1String("completionS")))
            names << QStringLiteral("durationS");
    } else {
        for (const char *metric : SweepTableMetrics)
            names << QLatin1String(metric);
    }
    return names;
}

// How a parameter's values were given, for the heading: "from 0 to 0.5 in 3 steps" or "none, full".
QString valuesText(const QStringList &values, double from, double to, int steps)
{
    if (!values.isEmpty()) {
        QStringList trimmed;
        for (const QString &v : values)
            trimmed << v.trimmed();
        return trimmed.join(QStringLiteral(", "));
    }
    return QCoreApplication::translate("cli", "from %1 to %2, %3").arg(formatNumber(from), formatNumber(to),
                                                   steps == 1 ? QCoreApplication::translate("cli", "1 value")
                                                              : QCoreApplication::translate("cli", "%1 values").arg(steps));
}

QString sweepTable(const Scenario &s, const SweepSpec &spec, const QList<SweepPoint> &points, const QStringList &metrics)
{
    const QString seeds = QCoreApplication::translate("cli", "%1 (seeds %2..%3)")
                                  .arg(spec.seeds == 1 ? QCoreApplication::translate("cli", "1 seed") : QCoreApplication::translate("cli", "%1 seeds").arg(spec.seeds))
                                  .arg(s.seed)
                                  .arg(s.seed + quint64(spec.seeds) - 1);
    // A parameter given by --values shows its value as typed, a range its number.
    const auto rowName = [&spec](const SweepPoint &point) {
        return spec.values.isEmpty() ? formatNumber(point.value) : point.label;
    };
    QString out = QCoreApplication::translate("cli", "%1\nsweep %2: %3\n")
                          .arg(scenarioHeading(s), spec.param, valuesText(spec.values, spec.from, spec.to, spec.steps));
    if (!spec.twoD()) {
        out += QCoreApplication::translate("cli", "%1 per value; mean [min..max]\n\n").arg(seeds);
        QList<QStringList> rows;
        rows << (QStringList{spec.param} + metrics);
        for (const SweepPoint &point : points) {
            QStringList row{rowName(point)};
            for (const QString &metric : metrics)
                row << statCell(point.stat(metric));
            rows << row;
        }
        return out + alignedTable(rows);
    }

    // One block per metric: a row per value of --param, a column per value of --param2.
    out += QCoreApplication::translate("cli", "   by %1: %2\n%3 per cell; mean ±sd (sample standard deviation)\n")
                   .arg(spec.param2, valuesText(spec.values2, spec.from2, spec.to2, spec.steps2), seeds);
    QStringList columns;
    const int count2 = spec.count2();
    for (int j = 0; j < count2 && j < points.size(); ++j)
        columns << (spec.values2.isEmpty() ? formatNumber(points.at(j).value2) : points.at(j).label2);
    for (const QString &metric : metrics) {
        QList<QStringList> rows;
        rows << (QStringList{spec.param} + columns);
        for (int i = 0; i + count2 <= points.size(); i += count2) {
            QStringList row{rowName(points.at(i))};
            for (int j = 0; j < count2; ++j)
                row << meanSdCell(points.at(i + j).stat(metric));
            rows << row;
        }
        out += QStringLiteral("\n%1\n").arg(metric) + alignedTable(rows);
    }
    return out;
}

QJsonObject sweepJson(const Scenario &s, const SweepSpec &spec, const QList<SweepPoint> &points)
{
    QJsonArray pointsJson;
    for (const SweepPoint &point : points) {
        QJsonObject metrics;
        for (const auto &entry : point.stats) {
            metrics.insert(entry.first, QJsonObject{{QStringLiteral("mean"), entry.second.mean},
                                                    {QStringLiteral("min"), entry.second.min},
                                                    {QStringLiteral("max"), entry.second.max},
                                                    {QStringLiteral("sd"), entry.second.sd}});
        }
        QJsonObject p{{QStringLiteral("value"), point.value},
                      {QStringLiteral("label"), point.label},
                      {QStringLiteral("metrics"), metrics}};
        if (spec.twoD()) {
            p.insert(QStringLiteral("value2"), point.value2);
            p.insert(QStringLiteral("label2"), point.label2);
        }
        pointsJson.append(p);
    }
    QJsonObject o{
        {QStringLiteral("scenario"), s.name},
        {QStringLiteral("title"), s.title},
        {QStringLiteral("seed"), seedJson(s)},
        {QStringLiteral("param"), spec.param},
        {QStringLiteral("seeds"), spec.seeds},
        {QStringLiteral("sd"), QStringLiteral("sample standard deviation over the seeds (n - 1)")},
        {QStringLiteral("points"), pointsJson},
    };
    const auto describe = [&o](const char *suffix, const QStringList &values, double from, double to, int steps) {
        const QString tail = QLatin1String(suffix);
        if (!values.isEmpty()) {
            QJsonArray list;
            for (const QString &v : values)
                list.append(v.trimmed());
            o.insert(QStringLiteral("values") + tail, list);
        } else {
            o.insert(QStringLiteral("from") + tail, from);
            o.insert(QStringLiteral("to") + tail, to);
            o.insert(QStringLiteral("steps") + tail, steps);
        }
    };
    describe("", spec.values, spec.from, spec.to, spec.steps);
    if (spec.twoD()) {
        o.insert(QStringLiteral("param2"), spec.param2);
        describe("2", spec.values2, spec.from2, spec.to2, spec.steps2);
    }
    return o;
}

// One row per cell: value, label (and value2, label2 in a 2-D sweep), then mean, sd, min, max per metric.
QString sweepCsv(const SweepSpec &spec, const QList<SweepPoint> &points, const QStringList &requested)
{
    QStringList header{QStringLiteral("value"), QStringLiteral("label")};
    if (spec.twoD())
        header << QStringLiteral("value2") << QStringLiteral("label2");
    QList<int> columns; // index into stats
    if (!points.isEmpty()) {
        const auto &stats = points.first().stats;
        for (int m = 0; m < stats.size(); ++m) {
            if (!requested.isEmpty() && !requested.contains(stats.at(m).first))
                continue;
            columns << m;
            const QString name = stats.at(m).first;
            header << csvField(name + QStringLiteral("_mean")) << csvField(name + QStringLiteral("_sd"))
                   << csvField(name + QStringLiteral("_min")) << csvField(name + QStringLiteral("_max"));
        }
    }
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const SweepPoint &point : points) {
        QStringList row{csvNumber(point.value), csvField(point.label)};
        if (spec.twoD())
            row << csvNumber(point.value2) << csvField(point.label2);
        for (const int m : qAsConst(columns)) {
            const SweepStat &stat = point.stats.at(m).second;
            row << csvNumber(stat.mean) << csvNumber(stat.sd) << csvNumber(stat.min) << csvNumber(stat.max);
        }
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

bool parseNumberFlag(const QCommandLineParser &parser, const QString &flag, double *out)
{
    const QString text = parser.value(flag).trimmed();
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        fail(QCoreApplication::translate("cli", "sweep: --%1: expected a number, got '%2'").arg(flag, text));
        return false;
    }
    *out = v;
    return true;
}

bool parseIntFlag(const QCommandLineParser &parser, const QString &flag, int lo, int hi, int *out)
{
    const QString text = parser.value(flag).trimmed();
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < lo || v > hi) {
        fail(QCoreApplication::translate("cli", "sweep: --%1: expected an integer from %2 to %3, got '%4'").arg(flag).arg(lo).arg(hi).arg(text));
        return false;
    }
    *out = v;
    return true;
}

// One parameter's values: exactly one of --valuesN and --fromN/--toN/--stepsN.
// `n` is "" or "2". Returns false after printing the error.
bool parseParamValues(const QCommandLineParser &parser, const QString &n, QStringList *values, double *from, double *to,
                      int *steps)
{
    const QString valuesFlag = QStringLiteral("values") + n;
    const QStringList rangeFlags{QStringLiteral("from") + n, QStringLiteral("to") + n, QStringLiteral("steps") + n};
    const QStringList valueNames{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("K")};
    bool anyRange = false;
    for (const QString &flag : rangeFlags)
        anyRange = anyRange || parser.isSet(flag);
    if (parser.isSet(valuesFlag)) {
        if (anyRange) {
            fail(QCoreApplication::translate("cli", "sweep: --param%1: give its values either with --%2 or with --%3/--%4/--%5, not both")
                         .arg(n, valuesFlag, rangeFlags.at(0), rangeFlags.at(1), rangeFlags.at(2)));
            return false;
        }
        // Every value as typed: the sweep refuses an empty one, naming the flag.
        *values = sweep::splitValues(parser.value(valuesFlag));
        return true;
    }
    if (!anyRange) {
        fail(QCoreApplication::translate("cli", "sweep: --param%1: missing its values: --%2 a,b,c or --%3 A --%4 B --%5 K")
                     .arg(n, valuesFlag, rangeFlags.at(0), rangeFlags.at(1), rangeFlags.at(2)));
        return false;
    }
    for (int i = 0; i < rangeFlags.size(); ++i) {
        if (!parser.isSet(rangeFlags.at(i))) {
            fail(QCoreApplication::translate("cli", "sweep: missing --%1 %2").arg(rangeFlags.at(i), valueNames.at(i)));
            return false;
        }
    }
    return parseNumberFlag(parser, rangeFlags.at(0), from) && parseNumberFlag(parser, rangeFlags.at(1), to)
            && parseIntFlag(parser, rangeFlags.at(2), 1, sweep::MaxValues, steps);
}

// Runs the jobs in the background and draws a progress line while a person watches stderr.
QList<SweepPoint> runWithProgress(const QList<SweepJob> &jobs)
{
    QFuture<SweepAccumulator> future = sweep::startFolded(jobs);
    QFutureWatcher<SweepAccumulator> watcher;
    QEventLoop loop;
    const int total = int(jobs.size());
    QObject::connect(&watcher, &QFutureWatcherBase::progressValueChanged, &loop, [total](int done) {
        std::fprintf(stderr, "\rsweep: %d/%d runs", done, total);
        std::fflush(stderr);
    });
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    if (!future.isFinished())
        loop.exec();
    future.waitForFinished();
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    return future.result().points();
}

int sweepCommand(const QStringList &arguments)
{
    CommandParser command(
            QStringLiteral("sweep"),
            QStringLiteral("--scenario NAME|FILE --param PATH (--values a,b,... | --from A --to B --steps K) "
                           "[--param2 PATH (--values2 a,b,... | --from2 A --to2 B --steps2 K)] [--seeds S] "
                           "[--metrics m1,m2] [--seed N] [--set path=value ...] [--format table|json|csv] "
                           "[--max-attempts N]"),
            QCoreApplication::translate("cli", "Varies one scenario field (or two: every pair of values is a cell) and runs several "
                           "seeds per value; prints mean, min, max and sample standard deviation of every metric. "
                           "With --param2 the table has one row per value of --param and one column per value of "
                           "--param2."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption paramOption(QStringLiteral("param"),
                                         QCoreApplication::translate("cli", "Scenario field to vary, e.g. network.responseLoss or "
                                                        "client.business.backoff.jitter ('retrylab fields' lists "
                                                        "them)."),
                                         QStringLiteral("PATH"));
    const QCommandLineOption valuesOption(
            QStringLiteral("values"),
            QCoreApplication::translate("cli", "Values of --param, comma-separated, any type: numbers, true/false, names such as "
                           "none,full,equal,decorrelated (each read as JSON if it is JSON, else as text, as --set "
                           "does). Instead of --from/--to/--steps."),
            QStringLiteral("a,b,..."));
    const QCommandLineOption fromOption(QStringLiteral("from"), QStringLiteral("First value of a numeric --param."),
                                        QStringLiteral("A"));
    const QCommandLineOption toOption(QStringLiteral("to"), QStringLiteral("Last value."), QStringLiteral("B"));
    const QCommandLineOption stepsOption(QStringLiteral("steps"),
                                         QCoreApplication::translate("cli", "Number of values from A to B inclusive (1-1000)."),
                                         QStringLiteral("K"));
    const QCommandLineOption param2Option(QStringLiteral("param2"),
                                          QCoreApplication::translate("cli", "A second field to vary: every (value, value2) pair is a "
                                                         "cell, e.g. client.business.backoff.jitter."),
                                          QStringLiteral("PATH"));
    const QCommandLineOption values2Option(QStringLiteral("values2"), QStringLiteral("Values of --param2."),
                                           QStringLiteral("a,b,..."));
    const QCommandLineOption from2Option(QStringLiteral("from2"), QStringLiteral("First value of a numeric --param2."),
                                         QStringLiteral("A"));
    const QCommandLineOption to2Option(QStringLiteral("to2"), QStringLiteral("Last value of --param2."),
                                       QStringLiteral("B"));
    const QCommandLineOption steps2Option(QStringLiteral("steps2"),
                                          QCoreApplication::translate("cli", "Number of values of --param2 from A to B (1-1000)."),
                                          QStringLiteral("K"));
    const QCommandLineOption labelsOption(
            QStringLiteral("labels"),
            QCoreApplication::translate("cli", "Names for the values of --values in the table and chart, comma-separated, one per value."),
            QStringLiteral("a,b,..."));
    const QCommandLineOption labels2Option(QStringLiteral("labels2"),
                                           QCoreApplication::translate("cli", "Names for the values of --values2, one per value."),
                                           QStringLiteral("a,b,..."));
    const QCommandLineOption chartOption(
            QStringLiteral("chart"),
            QCoreApplication::translate("cli", "Also draw the sweep to FILE (.png or .svg): one chart per metric of the table, x = "
                           "--param, one line per value of --param2. Works without a display."),
            QStringLiteral("FILE"));
    const QCommandLineOption titleOption(QStringLiteral("title"), QCoreApplication::translate("cli", "The --chart figure's title."),
                                         QStringLiteral("TEXT"));
    const QCommandLineOption seedsOption(QStringLiteral("seeds"),
                                         QCoreApplication::translate("cli", "Runs per value (per cell), seeds N, N+1, ... (1-10000, "
                                                        "default 10). At most 1,000,000 runs per sweep."),
                                         QStringLiteral("S"), QStringLiteral("10"));
    const QCommandLineOption metricsOption(
            QStringLiteral("metrics"),
            QCoreApplication::translate("cli", "Metrics of the table and CSV, comma-separated (default: duplicates, records, "
                           "amplification, httpAttempts, clientFailed, orphans; with --param2: httpAttempts, "
                           "completionS). JSON always has every metric."),
            QStringLiteral("m1,m2"));
    const QCommandLineOption maxAttempts = maxAttemptsOption(
            QCoreApplication::translate("cli", "Refuse the sweep (exit code 2) if one of its runs could make more than N HTTP attempts "
                           "at worst, each cell counted at its own worst case. N is digits or a number like 5e8. "
                           "Default %1.")
                    .arg(work::formatCount(work::DefaultMaxAttempts)));
    parser.addOptions({scenarioOption(), paramOption, valuesOption, fromOption, toOption, stepsOption, param2Option,
                       values2Option, from2Option, to2Option, steps2Option, labelsOption, labels2Option, seedsOption,
                       metricsOption, seedOption(), setOption(), formatOption(QStringLiteral("table, json, csv")), maxAttempts,
                       chartOption, titleOption});
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;

    Format format = Format::Table;
    if (const int rc = parseFormat(parser, QStringLiteral("sweep"), true, &format); rc != Continue)
        return rc;
    if (!parser.isSet(paramOption)) {
        fail(QCoreApplication::translate("cli", "sweep: missing --param PATH"));
        return ExitUsage;
    }
    SweepSpec spec;
    spec.param = parser.value(paramOption).trimmed();
    if (!parseParamValues(parser, QString(), &spec.values, &spec.from, &spec.to, &spec.steps))
        return ExitUsage;
    if (parser.isSet(param2Option)) {
        spec.param2 = parser.value(param2Option).trimmed();
        if (spec.param2.isEmpty()) {
            fail(QCoreApplication::translate("cli", "sweep: --param2: expected a scenario field path, e.g. client.business.backoff.jitter"));
            return ExitUsage;
        }
        if (!parseParamValues(parser, QStringLiteral("2"), &spec.values2, &spec.from2, &spec.to2, &spec.steps2))
            return ExitUsage;
    } else {
        for (const QCommandLineOption *orphan : {&values2Option, &from2Option, &to2Option, &steps2Option}) {
            if (parser.isSet(*orphan)) {
                fail(QCoreApplication::translate("cli", "sweep: --%1 needs --param2 PATH").arg(orphan->names().constFirst()));
                return ExitUsage;
            }
        }
    }
    if (!parseIntFlag(parser, QStringLiteral("seeds"), 1, 10000, &spec.seeds))
        return ExitUsage;
    // Names for listed values: as many as there are values.
    for (int i = 0; i < 2; ++i) {
        QStringList &labels = i == 0 ? spec.labels : spec.labels2;
        const QCommandLineOption &option = i == 0 ? labelsOption : labels2Option;
        if (!parser.isSet(option))
            continue;
        const QStringList &values = i == 0 ? spec.values : spec.values2;
        const QString flag = option.names().constFirst();
        if (values.isEmpty()) {
            fail(QStringLiteral("sweep: --%1 names the values of --values%2").arg(flag, i == 0 ? QString() : QStringLiteral("2")));
            return ExitUsage;
        }
        labels = parser.value(option).split(QLatin1Char(','));
        if (labels.size() != values.size()) {
            fail(QCoreApplication::translate("cli", "sweep: --%1: %2 for %3 values")
                     .arg(flag, labels.size() == 1 ? QCoreApplication::translate("cli", "1 name") : QCoreApplication::translate("cli", "%1 names").arg(labels.size()))
                     .arg(values.size()));
            return ExitUsage;
        }
    }
    if (parser.isSet(titleOption) && !parser.isSet(chartOption)) {
        fail(QCoreApplication::translate("cli", "sweep: --title needs --chart FILE"));
        return ExitUsage;
    }
    const QString chartFile = parser.value(chartOption);
    if (parser.isSet(chartOption)) {
        const QString suffix = QFileInfo(chartFile).suffix().toLower();
        if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
            fail(QCoreApplication::translate("cli", "sweep: --chart: expected a file name ending in .png or .svg, got '%1'").arg(chartFile));
            return ExitUsage;
        }
        if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
            fail(QCoreApplication::translate("cli", "sweep: --chart: cannot draw here (no graphics)"));
            return ExitRuntime;
        }
    }
    QStringList requestedMetrics;
    if (parser.isSet(metricsOption)) {
        const QStringList known = metricNames();
        const QStringList names = parser.value(metricsOption).split(QLatin1Char(','));
        for (const QString &raw : names) {
            const QString name = raw.trimmed();
            if (!known.contains(name)) {
                fail(QCoreApplication::translate("cli", "sweep: --metrics: unknown metric '%1' (known: %2)").arg(name, known.join(QStringLiteral(", "))));
                return ExitUsage;
            }
            if (!requestedMetrics.contains(name))
                requestedMetrics << name;
        }
    }

    Scenario s;
    if (const int rc = loadScenario(parser, QStringLiteral("sweep"), &s); rc != Continue)
        return rc;
    for (const auto &[flag, param] : {std::pair{"param", spec.param}, std::pair{"param2", spec.param2}}) {
        if (!param.isEmpty() && param != QLatin1String("seed") && scenario::valueAt(s, param).isUndefined()) {
            fail(QStringLiteral("sweep: --%1: %2").arg(QLatin1String(flag), unknownFieldMessage(param)));
            return ExitUsage;
        }
    }
    const QStringList errors = sweep::validate(s, spec);
    if (!errors.isEmpty()) {
        for (const QString &error : errors)
            fail(QStringLiteral("sweep: %1").arg(error));
        return ExitUsage;
    }
    qint64 limit = 0;
    if (const int rc = parseMaxAttempts(parser, QStringLiteral("sweep"), work::DefaultMaxAttempts, &limit);
        rc != Continue)
        return rc;
    // The limit is per run: the number of runs is capped by sweep::validate().
    if (const work::Estimate worst = sweep::estimate(s, spec); worst.attempts > limit) {
        fail(QStringLiteral("sweep: %1").arg(work::refusal(QStringLiteral("one run of this sweep"), worst, limit)));
        return ExitUsage;
    }

    QList<SweepPoint> points;
    if (isatty(fileno(stderr)))
        points = runWithProgress(sweep::jobs(s, spec));
    else
        points = sweep::run(s, spec);

    if (!chartFile.isEmpty()) {
        const QString error = saveSweepFigure(spec, points, chosenMetrics(requestedMetrics, spec),
                                              parser.value(titleOption), chartFile);
        if (!error.isEmpty()) {
            fail(QStringLiteral("sweep: --chart: %1").arg(error));
            return ExitRuntime;
        }
    }

    switch (format) {
    case Format::Table:
        writeOut(sweepTable(s, spec, points, chosenMetrics(requestedMetrics, spec)));
        break;
    case Format::Json:
        writeOut(QString::fromUtf8(QJsonDocument(sweepJson(s, spec, points)).toJson(QJsonDocument::Indented)));
        break;
    case Format::Csv:
        writeOut(sweepCsv(spec, points, requestedMetrics));
        break;
    }
    return ExitOk;
}

// ---- list, serve, help -----------------------------------------------------

int listCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("list"), QStringLiteral("[--long] [--format table|json]"),
                          QCoreApplication::translate("cli", "Lists the built-in scenario presets and what each one teaches."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption longOption(QStringLiteral("long"),
                                        QCoreApplication::translate("cli", "Also print each preset's whole lesson text."));
    parser.addOptions({longOption, formatOption(QStringLiteral("table, json"))});
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;
    Format format = Format::Table;
    if (const int rc = parseFormat(parser, QStringLiteral("list"), false, &format); rc != Continue)
        return rc;
    const bool longForm = parser.isSet(longOption);

    QJsonArray presets;
    QList<QStringList> rows{{QCoreApplication::translate("cli", "PRESET"), QCoreApplication::translate("cli", "WHAT IT TEACHES")}};
    const QStringList names = scenario::presetNames();
    for (const QString &name : names) {
        const ScenarioParse parsed = scenario::preset(name);
        const QString title = parsed.ok() ? parsed.scenario.title
                                          : QCoreApplication::translate("cli", "(invalid preset: %1)").arg(parsed.errors.value(0));
        if (longForm && rows.size() > 1)
            rows << QStringList{QString(), QString()};
        rows << QStringList{name, parsed.ok() ? i18n::content(title) : title};
        if (longForm && parsed.ok())
            rows << QStringList{QString(), i18n::content(parsed.scenario.description)};
        presets.append(QJsonObject{{QStringLiteral("name"), name},
                                   {QStringLiteral("title"), title},
                                   {QStringLiteral("description"), parsed.scenario.description}});
    }
    if (format == Format::Json) {
        writeOut(QString::fromUtf8(QJsonDocument(presets).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }
    writeOut(wrappedTable(rows));
    writeOut(QStringLiteral("\n")
             + wrapped(longForm ? QCoreApplication::translate("cli", "Run one with 'retrylab run --scenario PRESET'; change it with "
                                                                     "--set (see 'retrylab fields').")
                                : QCoreApplication::translate("cli", "Run one with 'retrylab run --scenario PRESET', read every "
                                                                     "lesson with 'retrylab list --long'; change it with --set "
                                                                     "(see 'retrylab fields')."),
                       TerminalWidth)
                       .join(QLatin1Char('\n'))
             + QLatin1Char('\n'));
    return ExitOk;
}

// ---- lessons ---------------------------------------------------------------

int lessonsCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("lessons"), QStringLiteral("[--format table|json]"),
                          QCoreApplication::translate("cli", "Lists the guided lessons: name, title and number of steps."));
    QCommandLineParser &parser = command.parser();
    parser.addOptions({formatOption(QStringLiteral("table, json"))});
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;
    Format format = Format::Table;
    if (const int rc = parseFormat(parser, QStringLiteral("lessons"), false, &format); rc != Continue)
        return rc;
    QJsonArray lessons;
    QList<QStringList> rows{{QCoreApplication::translate("cli", "LESSON"), QCoreApplication::translate("cli", "STEPS"),
                             QCoreApplication::translate("cli", "TITLE")}};
    const QStringList names = lesson::builtinNames();
    for (const QString &name : names) {
        const LessonParse parsed = lesson::builtin(name);
        const QString title = parsed.ok() ? parsed.lesson.title
                                          : QStringLiteral("(invalid lesson: %1)").arg(parsed.errors.value(0));
        // The table is for people (translated); the JSON keeps the file's English title.
        rows << QStringList{name, QString::number(parsed.lesson.steps.size()),
                            parsed.ok() ? i18n::content(title)
                                        : QCoreApplication::translate("cli", "(invalid lesson: %1)").arg(parsed.errors.value(0))};
        lessons.append(QJsonObject{{QStringLiteral("name"), name},
                                   {QStringLiteral("title"), title},
                                   {QStringLiteral("steps"), int(parsed.lesson.steps.size())}});
    }
    if (format == Format::Json) {
        writeOut(QString::fromUtf8(QJsonDocument(lessons).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }
    writeOut(wrappedTable(rows));
    writeOut(QLatin1Char('\n')
             + QCoreApplication::translate("cli", "Open one in the desktop lab with 'retrylab --lesson NAME [--step N]'.")
             + QLatin1Char('\n'));
    return ExitOk;
}

// ---- fields ----------------------------------------------------------------

QString compactJson(const QJsonValue &value)
{
    if (value.isArray()) {
        QStringList items;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &v : array)
            items << compactJson(v);
        return items.isEmpty() ? QCoreApplication::translate("cli", "none") : items.join(QStringLiteral(", "));
    }
    if (value.isString())
        return value.toString().isEmpty() ? QStringLiteral("\"\"") : value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return formatNumber(value.toDouble());
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

int fieldsCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("fields"), QStringLiteral("[--format table|json]"),
                          QCoreApplication::translate("cli", "Lists every scenario field that --set path=value and sweep --param "
                                         "accept, with its type, allowed values and default."));
    QCommandLineParser &parser = command.parser();
    parser.addOption(formatOption(QStringLiteral("table, json")));
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;
    Format format = Format::Table;
    if (const int rc = parseFormat(parser, QStringLiteral("fields"), false, &format); rc != Continue)
        return rc;

    const QList<FieldInfo> fields = scenario::fields();
    if (format == Format::Json) {
        QJsonArray array;
        for (const FieldInfo &f : fields) {
            QJsonObject o{{QStringLiteral("path"), f.path},
                          {QStringLiteral("type"), f.type},
                          {QStringLiteral("allowed"), f.allowed},
                          {QStringLiteral("default"), f.defaultValue}};
            if (f.bounded) {
                o.insert(QStringLiteral("minimum"), f.minimum);
                o.insert(QStringLiteral("maximum"), f.maximum);
            }
            if (!f.choices.isEmpty())
                o.insert(QStringLiteral("choices"), QJsonArray::fromStringList(f.choices));
            array.append(o);
        }
        writeOut(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }

    QString out = wrapped(QCoreApplication::translate("cli", "Every field of a scenario, for --set path=value (run, sweep) and "
                                         "--param PATH (sweep). Durations end in Ms (milliseconds) or S "
                                         "(seconds); rates are fractions from 0 to 1. In network.script[N], "
                                         "workload.phases[N] and windows[N], N is an entry's index; the next free "
                                         "index appends an entry."),
                          TerminalWidth)
                          .join(QLatin1Char('\n'))
            + QStringLiteral("\n\n");
    QList<QStringList> rows{{QCoreApplication::translate("cli", "FIELD"), QCoreApplication::translate("cli", "TYPE"),
                             QCoreApplication::translate("cli", "ALLOWED (DEFAULT)")}};
    QString section;
    for (const FieldInfo &f : fields) {
        const QString top = f.path.section(QLatin1Char('.'), 0, 0);
        if (f.path.contains(QLatin1Char('.')) && top != section && rows.size() > 1)
            rows << QStringList{QString(), QString(), QString()};
        if (f.path.contains(QLatin1Char('.')))
            section = top;
        rows << QStringList{f.path, f.type,
                            QCoreApplication::translate("cli", "%1 (default %2)").arg(f.allowed, compactJson(f.defaultValue))};
    }
    writeOut(out + wrappedTable(rows));
    return ExitOk;
}

// Ctrl+C and SIGTERM reach the event loop through a pipe: a signal handler may only write().
int g_signalPipe[2] = {-1, -1};

void onStopSignal(int)
{
    const char byte = 1;
    if (g_signalPipe[1] >= 0)
        (void)!::write(g_signalPipe[1], &byte, 1);
}

int serveCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("serve"),
                          QStringLiteral("[--port P] [--listen ADDR] [--db FILE] [--key-store memory|durable] "
                                         "[--scenario NAME|FILE] [--set path=value ...]"),
                          QCoreApplication::translate("cli", "Serves the order service over real HTTP/1.1: POST /orders, GET /orders/{id}, "
                                         "GET /orders?ref=, POST /order-tokens, GET /metrics, GET /healthz, "
                                         "GET|PUT /admin/faults, POST /admin/reset. Stop it with Ctrl+C."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption port(QStringLiteral("port"),
                                  QCoreApplication::translate("cli", "TCP port (default 8080; 0 picks a free port and prints it)."),
                                  QStringLiteral("P"), QStringLiteral("8080"));
    const QCommandLineOption listen(QStringLiteral("listen"),
                                    QCoreApplication::translate("cli", "Address to listen on (default 127.0.0.1). Any other address "
                                                   "protects the admin endpoints with a bearer token printed at "
                                                   "start-up."),
                                    QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption db(QStringLiteral("db"),
                                QCoreApplication::translate("cli", "SQLite file for orders and keys (default: in memory). Records and "
                                               "keys survive kill -9 and a restart."),
                                QStringLiteral("FILE"));
    const QCommandLineOption keyStore(QStringLiteral("key-store"),
                                      QCoreApplication::translate("cli", "Where idempotency keys live: durable (in the database, the "
                                                     "default) or memory (forgotten when the server restarts)."),
                                      QStringLiteral("memory|durable"));
    parser.addOption(port);
    parser.addOption(listen);
    parser.addOption(db);
    parser.addOption(keyStore);
    parser.addOption(scenarioOption());
    parser.addOption(setOption());
    parser.addOption(seedOption());
    const int parsed = command.parse(arguments);
    if (parsed != Continue)
        return parsed;

    ServeOptions options;
    {
        // A preset or file, else the built-in serve settings; --set and --seed change either.
        const Scenario builtIn = ServeOptions::defaultScenario();
        Scenario s;
        const int loaded = loadScenario(parser, QStringLiteral("serve"), &s, &builtIn);
        if (loaded != Continue)
            return loaded;
        options.scenario = s;
    }

    const QString portText = parser.value(port).trimmed();
    bool ok = false;
    const uint portNumber = portText.toUInt(&ok);
    if (!ok || portNumber > 65535 || portText.startsWith(QLatin1Char('+'))) {
        fail(QCoreApplication::translate("cli", "serve: --port: expected a number from 0 to 65535, got '%1'").arg(portText));
        return ExitUsage;
    }
    options.port = quint16(portNumber);
    const QString address = parser.value(listen).trimmed();
    if (address == QLatin1String("localhost"))
        options.address = QHostAddress(QHostAddress::LocalHost);
    else if (!options.address.setAddress(address)) {
        fail(QCoreApplication::translate("cli", "serve: --listen: expected an IP address such as 127.0.0.1, 0.0.0.0 or ::1, got '%1'")
                     .arg(address));
        return ExitUsage;
    }
    if (parser.isSet(keyStore)) {
        const QString value = parser.value(keyStore);
        if (value == QLatin1String("memory"))
            options.scenario.server.idempotency.store = KeyStore::Memory;
        else if (value == QLatin1String("durable"))
            options.scenario.server.idempotency.store = KeyStore::Durable;
        else {
            fail(QCoreApplication::translate("cli", "serve: --key-store: expected memory or durable, got '%1'").arg(value));
            return ExitUsage;
        }
    }
    if (parser.isSet(db)) {
        options.dbFile = parser.value(db);
        const QFileInfo info(options.dbFile);
        if (options.dbFile.trimmed().isEmpty() || info.isDir()) {
            fail(QCoreApplication::translate("cli", "serve: --db: expected a file name, got '%1'").arg(options.dbFile));
            return ExitUsage;
        }
    }

    // The store grows by small blocks all the time: keep freed heap instead of handing it back to
    // the kernel and faulting it in again (glibc trims above 128 KiB by default).
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    mallopt(M_TOP_PAD, 16 * 1024 * 1024);
    OrderServer server;
    const QString error = server.start(options);
    if (!error.isEmpty()) {
        fail(QStringLiteral("serve: %1").arg(error));
        return ExitRuntime;
    }
    const Scenario &s = options.scenario;
    const QString url = server.url().toString();
    QString banner = QCoreApplication::translate("cli", "RetryLab order service listening on %1\n").arg(url);
    if (options.address == QHostAddress::Any || options.address == QHostAddress::AnyIPv4) {
        // What students type: this machine's other addresses.
        const QList<QHostAddress> addresses = QNetworkInterface::allAddresses();
        for (const QHostAddress &a : addresses) {
            if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback())
                banner += QCoreApplication::translate("cli", "  also reachable at http://%1:%2\n").arg(a.toString()).arg(server.port());
        }
    }
    banner += QCoreApplication::translate("cli", "  idempotency: %1, key store: %2, database: %3\n")
                      .arg(scenario::toString(s.server.idempotency.mode), scenario::toString(s.server.idempotency.store),
                           options.dbFile.isEmpty() ? QCoreApplication::translate("cli", "in memory") : options.dbFile);
    if (parser.isSet(scenarioOption()))
        banner += QCoreApplication::translate("cli", "  server and fault settings from scenario %1 (seed %2)\n").arg(s.name).arg(s.seed);
    if (!server.adminToken().isEmpty())
        banner += QCoreApplication::translate("cli", "  admin token (Authorization: Bearer ...): %1\n").arg(QString::fromLatin1(server.adminToken()));
    banner += QCoreApplication::translate("cli", "  try: curl -i -X POST %1/orders -H 'Content-Type: application/json' "
                             "-H 'Idempotency-Key: k-1' -d '{\"ref\":\"ORD-0001\",\"item\":\"book\",\"qty\":1}'\n"
                             "Press Ctrl+C to stop.\n").arg(url);
    writeOut(banner);
    std::fflush(stdout);

    if (::pipe(g_signalPipe) != 0) {
        fail(QCoreApplication::translate("cli", "serve: cannot install the signal handler"));
        return ExitRuntime;
    }
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, QCoreApplication::instance(), [] {
        char byte = 0;
        (void)!::read(g_signalPipe[0], &byte, 1);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::signal(SIGPIPE, SIG_IGN);

    QCoreApplication::exec();
    server.stop();
    writeOut(QCoreApplication::translate("cli", "Stopped.\n"));
    return ExitOk;
}

// ---- compare ---------------------------------------------------------------

QString compareTr(const char *text)
{
    return QCoreApplication::translate("cli", text);
}

QJsonObject compareJson(const Scenario &a, const QString &labelB, const QList<ScenarioChange> &changes,
                        const CompareSummary &summary)
{
    QJsonArray changed;
    for (const ScenarioChange &c : changes)
        changed.append(QJsonObject{{QStringLiteral("path"), c.path}, {QStringLiteral("from"), c.from},
                                   {QStringLiteral("to"), c.to}});
    QJsonArray rows;
    for (const CompareRow &r : summary.rows) {
        const std::optional<double> relative = r.relative();
        rows.append(QJsonObject{
                {QStringLiteral("metric"), r.key},
                {QStringLiteral("a"), r.a},
                {QStringLiteral("b"), r.b},
                {QStringLiteral("difference"), r.difference()},
                {QStringLiteral("relative"), relative ? QJsonValue(*relative) : QJsonValue(QJsonValue::Null)},
        });
    }
    return QJsonObject{
            {QStringLiteral("scenario"), a.name},
            {QStringLiteral("seed"), seedJson(a)},
            {QStringLiteral("b"), QJsonObject{{QStringLiteral("label"), labelB}, {QStringLiteral("changes"), changed}}},
            {QStringLiteral("metrics"), rows},
    };
}

QString compareCsv(const CompareSummary &summary)
{
    QString out = QStringLiteral("metric,a,b,difference,relative\n");
    for (const CompareRow &r : summary.rows) {
        const std::optional<double> relative = r.relative();
        out += QStringList{r.key, csvNumber(r.a), csvNumber(r.b), csvNumber(r.difference()),
                           relative ? csvNumber(*relative) : QString()}
                       .join(QLatin1Char(','))
               + QLatin1Char('\n');
    }
    return out;
}

QString compareTable(const Scenario &a, const QString &labelB, const QList<ScenarioChange> &changes,
                     const CompareSummary &summary)
{
    QString out = compareTr("%1 (seed %2)\n").arg(scenarioHeading(a)).arg(a.seed);
    out += compareTr("A: the scenario as it is\n");
    out += changes.isEmpty() ? compareTr("B: the same settings (no change)\n")
                             : compareTr("B: %1 (%2)\n").arg(labelB, compare::toggleLabel(changes));
    out += QLatin1Char('\n');
    QList<QStringList> rows;
    rows << QStringList{compareTr("metric"), QStringLiteral("A"), QStringLiteral("B"), compareTr("B \u2212 A"),
                        compareTr("change")};
    for (const CompareRow &r : summary.rows)
        rows << QStringList{r.label, compare::formatValue(r, r.a), compare::formatValue(r, r.b),
                            compare::formatDifference(r), compare::formatRelative(r)};
    return out + alignedTable(rows);
}

// A = the scenario (with --seed); B = A with every --set, or A with compare::defaultVariant.
int compareCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("compare"),
                          compareTr("--scenario NAME|FILE [--set path=value ...] [--seed N] "
                                    "[--format table|json|csv] [--max-attempts N]"),
                          compareTr("Runs a scenario (A) and a copy of it with some settings changed (B), with "
                                    "the same seed, and prints the difference: records, duplicates, orphans, "
                                    "POST attempts, successes, failures, latency p50 and p99, goodput. B is A "
                                    "with every --set; without --set, A with the one toggle that teaches most "
                                    "(for example no key -> a key per operation and an atomic server)."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption maxAttempts = maxAttemptsOption(
            compareTr("Refuse the comparison (exit code 2) if A and B together could make more than N HTTP "
                      "attempts at worst. Default %1.")
                    .arg(work::formatCount(work::DefaultMaxAttempts)));
    parser.addOptions({scenarioOption(), seedOption(), setOption(), formatOption(QStringLiteral("table, json, csv")),
                       maxAttempts});
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;
    const QString name = QStringLiteral("compare");
    Format format = Format::Table;
    if (const int rc = parseFormat(parser, name, true, &format); rc != Continue)
        return rc;
    qint64 limit = 0;
    if (const int rc = parseMaxAttempts(parser, name, work::DefaultMaxAttempts, &limit); rc != Continue)
        return rc;

    // A: --scenario and --seed only, read by the same code as every command (same errors).
    QCommandLineParser sideA;
    sideA.addOptions({scenarioOption(), seedOption(), setOption()});
    QStringList argumentsA{QStringLiteral("retrylab")};
    if (parser.isSet(scenarioOption()))
        argumentsA << QStringLiteral("--scenario") << parser.value(scenarioOption());
    if (parser.isSet(seedOption()))
        argumentsA << QStringLiteral("--seed") << parser.value(seedOption());
    sideA.parse(argumentsA);
    Scenario a;
    if (const int rc = loadScenario(sideA, name, &a); rc != Continue)
        return rc;
    Scenario b;
    QString labelB;
    if (parser.isSet(setOption())) {
        if (const int rc = loadScenario(parser, name, &b); rc != Continue)
            return rc;
        labelB = compareTr("--set");
    } else {
        const WhatIfVariant variant = compare::defaultVariant(a);
        b = variant.scenario;
        labelB = variant.label;
    }
    b = compare::withSeedOf(a, b);
    const QList<ScenarioChange> changes = whatif::changes(a, b);

    const qint64 worst = work::estimate(a).attempts + work::estimate(b).attempts;
    if (worst > limit) {
        fail(compareTr("compare: A and B could make up to %1 HTTP attempts together, over the limit of %2; "
                       "raise it with --max-attempts N")
                     .arg(work::formatCount(worst), work::formatCount(limit)));
        return ExitUsage;
    }

    const CompareResult result = compare::run(a, b, false);
    for (const RunResult *side : {&result.a, &result.b}) {
        if (!side->error.isEmpty()) {
            fail(compareTr("compare: %1").arg(side->error));
            return ExitRuntime;
        }
    }
    switch (format) {
    case Format::Json:
        writeOut(QString::fromUtf8(QJsonDocument(compareJson(a, labelB, changes, result.summary)).toJson()));
        break;
    case Format::Csv:
        writeOut(compareCsv(result.summary));
        break;
    case Format::Table:
        writeOut(compareTable(a, labelB, changes, result.summary));
        break;
    }
    return ExitOk;
}

QString generalHelp()
{
    return QCoreApplication::translate("cli",
            "RetryLab: a lab for retries and idempotency. A timeout is not a failure.\n"
            "\n"
            "Usage:\n"
            "  retrylab                        open the desktop lab\n"
            "  retrylab run --scenario NAME|FILE [--seed N] [--set path=value ...]\n"
            "               [--format table|json|csv] [--trace FILE.jsonl|-] [--max-attempts N]\n"
            "  retrylab sweep --scenario NAME|FILE --param PATH\n"
            "               (--values a,b,c | --from A --to B --steps K) [--seeds S]\n"
            "               [--param2 PATH (--values2 a,b | --from2 A --to2 B --steps2 K)]\n"
            "               [--metrics m1,m2] [--seed N] [--set path=value ...]\n"
            "               [--format table|json|csv] [--max-attempts N]\n"
            "  retrylab compare --scenario NAME|FILE [--set path=value ...] [--seed N]\n"
            "               [--format table|json|csv]\n"
            "                                  A and B = A with the changes (or one toggle), side by side\n"
            "  retrylab list [--long] [--format table|json]\n"
            "                                  the presets and what each one teaches\n"
            "  retrylab lessons [--format table|json]\n"
            "                                  the guided lessons; open one with --lesson NAME [--step N]\n"
            "  retrylab fields [--format table|json]\n"
            "                                  every --set / --param path: type, range, default\n"
            "  retrylab serve [--port P] [--listen ADDR] [--db FILE] [--key-store memory|durable]\n"
            "               [--scenario NAME|FILE] [--set path=value ...]\n"
            "                                  the order service over real HTTP, for your own client\n"
            "  retrylab help [COMMAND]\n"
            "\n"
            "Run 'retrylab COMMAND --help' for the options of one command.\n"
            "Exit codes: 0 ok, 1 runtime error, 2 usage error.\n");
}

int dispatch(const QString &command, const QStringList &arguments)
{
    if (command == QLatin1String("run"))
        return runCommand(arguments);
    if (command == QLatin1String("sweep"))
        return sweepCommand(arguments);
    if (command == QLatin1String("compare"))
        return compareCommand(arguments);
    if (command == QLatin1String("list"))
        return listCommand(arguments);
    if (command == QLatin1String("lessons"))
        return lessonsCommand(arguments);
    if (command == QLatin1String("fields"))
        return fieldsCommand(arguments);
    if (command == QLatin1String("serve"))
        return serveCommand(arguments);
    if (command == QLatin1String("help") || command == QLatin1String("--help") || command == QLatin1String("-h")) {
        // `help run` is `run --help`; an unknown topic gets dispatch's unknown-command error.
        if (command == QLatin1String("help") && !arguments.isEmpty()
            && arguments.constFirst() != QLatin1String("help"))
            return dispatch(arguments.constFirst(), {QStringLiteral("--help")});
        writeOut(generalHelp());
        return ExitOk;
    }
    if (command == QLatin1String("--version")) {
        writeOut(QStringLiteral("retrylab %1\n").arg(QCoreApplication::applicationVersion()));
        return ExitOk;
    }
    fail(QCoreApplication::translate("cli", "unknown command '%1' (expected run, sweep, compare, list, lessons, fields, serve or help)").arg(command));
    return ExitUsage;
}

} // namespace

bool wanted(int argc, char *argv[])
{
    if (argc < 2 || !argv[1])
        return false;
    const char *first = argv[1];
    if (!std::strcmp(first, "--help") || !std::strcmp(first, "-h") || !std::strcmp(first, "--version"))
        return true;
    for (const char *command : Commands) {
        if (!std::strcmp(first, command))
            return true;
    }
    // A bare word is meant as a command: a typo gets a usage error, not a window.
    return first[0] != '-' && first[0] != '\0';
}

int run(int argc, char *argv[], const QString &language)
{
    // serve spends its time in the event loop: Qt's own Unix dispatcher is lighter than GLib's.
    if (argc >= 2 && argv[1] && !std::strcmp(argv[1], "serve") && !qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    // sweep --chart draws with Qt Charts, which needs a QApplication (offscreen without a display).
    bool chart = false;
    for (int i = 2; i < argc && argv[1] && !std::strcmp(argv[1], "sweep"); ++i)
        chart = chart || !std::strcmp(argv[i], "--chart") || !std::strncmp(argv[i], "--chart=", 8);
    if (chart && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> application = chart ? std::make_unique<QApplication>(argc, argv)
                                                          : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("retrylab"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    i18n::install(language.isEmpty() ? i18n::systemLanguage() : language);
    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    if (arguments.isEmpty()) {
        writeOut(generalHelp());
        return ExitUsage;
    }
    const QString command = arguments.takeFirst();
    return dispatch(command, arguments);
}

} // namespace cli
} // namespace retrylab
