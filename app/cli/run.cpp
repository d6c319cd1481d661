// `retrylab run`: one scenario, simulated or live, its metrics as a table, JSON or CSV, and
// optionally its trace (JSON lines) and a load series per bucket of time.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "liverun.h"
#include "scenario.h"
#include "series.h"
#include "simulator.h"
#include "trace.h"
#include "work.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QUrl>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

namespace retrylab {
namespace cli {

namespace {

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
    QString out = QCoreApplication::translate("cli", "%1 (seed %2)\n\n").arg(scenarioHeading(s), QString::number(s.seed));
    QList<QStringList> rows;
    rows << QStringList{QCoreApplication::translate("cli", "metric"), QCoreApplication::translate("cli", "value")};
    rows << QStringList{QStringLiteral("------"), QStringLiteral("-----")};
    const auto flat = m.flat();
    for (const auto &entry : flat) {
        const bool unknown = !m.lastCommitKnown && entry.first == QLatin1String("lastCommitS");
        rows << QStringList{entry.first, unknown ? QCoreApplication::translate("cli", "unknown") : formatNumber(entry.second)};
    }
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
        // An unknown value is an empty cell (RFC 4180 has no null).
        const bool unknown = !m.lastCommitKnown && entry.first == QLatin1String("lastCommitS");
        row << (unknown ? QString() : csvNumber(entry.second));
    }
    header << QStringLiteral("worstCase");
    row << csvField(s.worstCaseFormula());
    return header.join(QLatin1Char(',')) + QLatin1Char('\n') + row.join(QLatin1Char(',')) + QLatin1Char('\n');
}

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

// The options of `run` beyond the shared ones.
struct RunFlags
{
    QCommandLineOption trace;
    QCommandLineOption maxAttempts;
    QCommandLineOption live;
    QCommandLineOption url;
    QCommandLineOption timeScale;
    QCommandLineOption series;
    QCommandLineOption seriesOut;
};

RunFlags runFlags()
{
    return RunFlags{
        QCommandLineOption(
            QStringLiteral("trace"),
            QCoreApplication::translate("cli", "Write every event as JSON lines to FILE as the run goes. '-' (or /dev/stdout) writes "
                           "the events to standard output and the metrics to standard error. A regular file is "
                           "replaced only once the whole trace is written; a FIFO or a device is written "
                           "directly. A write error stops the run with exit code 1."),
            QStringLiteral("FILE.jsonl|-")),
        maxAttemptsOption(
            QCoreApplication::translate("cli", "Refuse the run (exit code 2) if it could make more than N HTTP attempts at worst: "
                           "every submission exhausting every enabled retry layer, plus status queries and token "
                           "round trips. N is digits or a number like 5e8. Default %1, or %2 with --trace, or %3 with --live "
                           "(real requests, in real time).")
                    .arg(work::formatCount(work::DefaultMaxAttempts), work::formatCount(work::DefaultMaxTracedAttempts),
                         work::formatCount(DefaultMaxLiveAttempts))),
        QCommandLineOption(
            QStringLiteral("live"),
            QCoreApplication::translate("cli", "Run over real HTTP on this machine's clock: an order service is started on a free "
                           "loopback port with the scenario's service and fault settings (or --url is used), and "
                           "every attempt carries Idempotency-Key, X-Request-ID and X-RetryLab-Attempt, so the "
                           "service applies the scenario's faults to the same attempts as the simulation.")),
        QCommandLineOption(
            QStringLiteral("url"),
            QCoreApplication::translate("cli", "With --live: send the orders to this order service (another RetryLab's, or any with "
                           "the same endpoints) instead of an embedded one. Its own fault settings apply; counts "
                           "include records it already held for the same references (ORD-0001, ...)."),
            QStringLiteral("URL")),
        QCommandLineOption(
            QStringLiteral("time-scale"),
            QCoreApplication::translate("cli", "With --live: real milliseconds per simulated millisecond (default 1). 0.1 runs ten "
                           "times faster: waits, timeouts, order spacing and the embedded service's processing, "
                           "restart and spike times and key TTLs are scaled; Retry-After is read in simulated "
                           "seconds. From 0.001 to 1000."),
            QStringLiteral("X")),
        QCommandLineOption(
            QStringLiteral("series"),
            QCoreApplication::translate("cli", "Also count the run per bucket of virtual time SIZE (1s, 0.02s, 250ms; from 1 ms to "
                           "3600 s, at most 1,000,000 buckets): POST attempts, first tries, retries, responses "
                           "served, commits, successes, failures, timeouts, 409 conflicts, 503s, retry budget "
                           "refusals and requests in flight at the server. With --format json it is the member "
                           "\"series\" of the output; with --format csv it replaces the metrics row (one row per "
                           "bucket); with table it follows the metrics. The buckets add up to the metrics."),
            QStringLiteral("SIZE")),
        QCommandLineOption(
            QStringLiteral("series-out"),
            QCoreApplication::translate("cli", "With --series: write the series to FILE instead of standard output, as CSV if FILE "
                           "ends in .csv, else as JSON; the metrics are printed as without --series."),
            QStringLiteral("FILE")),
    };
}

// What the flags of `run` ask for, read and checked before the scenario is loaded.
struct RunRequest
{
    bool live = false;
    LiveOptions liveOptions;
    Format format = Format::Table;
    QString traceFile;
    bool tracing = false;
    QString seriesText; // --series as typed, for the error that finds it too fine
    bool seriesWanted = false;
    qint64 seriesBucketUs = 0;
    QString seriesFile;
    // A series streams the events past a counter instead of a file: as many events as a trace.
    bool streaming = false;
    bool limitGiven = false;
    qint64 limit = 0;
};

// --live and what only makes sense with it: --url, --time-scale.
int readLiveFlags(const QCommandLineParser &parser, const RunFlags &flags, RunRequest *request)
{
    request->live = parser.isSet(flags.live);
    for (const QCommandLineOption *option : {&flags.url, &flags.timeScale}) {
        if (parser.isSet(*option) && !request->live) {
            fail(QCoreApplication::translate("cli", "run: --%1 needs --live").arg(option->names().constFirst()));
            return ExitUsage;
        }
    }
    if (parser.isSet(flags.url)) {
        const QString text = parser.value(flags.url).trimmed();
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty() || url.hasQuery() || url.hasFragment()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
            fail(QCoreApplication::translate("cli", "run: --url: expected an http:// or https:// address such as "
                                "http://127.0.0.1:8080, got '%1'")
                         .arg(echo(text)));
            return ExitUsage;
        }
        request->liveOptions.url = url;
    }
    if (parser.isSet(flags.timeScale)) {
        const QString text = parser.value(flags.timeScale).trimmed();
        bool ok = false;
        const double k = text.toDouble(&ok);
        if (!ok || !std::isfinite(k) || k < 0.001 || k > 1000) {
            fail(QCoreApplication::translate("cli", "run: --time-scale: expected a number from 0.001 to 1000, got '%1'").arg(echo(text, 80)));
            return ExitUsage;
        }
        request->liveOptions.timeScale = k;
    }
    return Continue;
}

// --format, --trace, --series, --series-out and --max-attempts (whose default depends on them).
int readOutputFlags(const QCommandLineParser &parser, const RunFlags &flags, RunRequest *request)
{
    if (const int rc = parseFormat(parser, QStringLiteral("run"), true, &request->format); rc != Continue)
        return rc;
    request->traceFile = parser.value(flags.trace);
    if (parser.isSet(flags.trace) && request->traceFile.trimmed().isEmpty()) {
        fail(QCoreApplication::translate("cli", "run: --trace: expected a file name"));
        return ExitUsage;
    }
    request->tracing = !request->traceFile.isEmpty();
    request->seriesWanted = parser.isSet(flags.series);
    request->seriesText = parser.value(flags.series).trimmed();
    if (request->seriesWanted) {
        if (const int rc = parseSeriesBucket(parser, &request->seriesBucketUs); rc != Continue)
            return rc;
    }
    request->seriesFile = parser.value(flags.seriesOut);
    if (parser.isSet(flags.seriesOut)) {
        if (!request->seriesWanted) {
            fail(QCoreApplication::translate("cli", "run: --series-out needs --series"));
            return ExitUsage;
        }
        if (request->seriesFile.trimmed().isEmpty()) {
            fail(QCoreApplication::translate("cli", "run: --series-out: expected a file name"));
            return ExitUsage;
        }
    }
    request->streaming = request->tracing || request->seriesWanted;
    request->limitGiven = parser.isSet(flags.maxAttempts);
    const qint64 fallback = request->live ? DefaultMaxLiveAttempts
                                          : (request->streaming ? work::DefaultMaxTracedAttempts : work::DefaultMaxAttempts);
    return parseMaxAttempts(parser, QStringLiteral("run"), fallback, &request->limit);
}

// Refused before anything runs: the worst case is known from the settings alone.
int refuseOverLimit(const Scenario &s, const RunRequest &request)
{
    const work::Estimate worst = work::estimate(s);
    if (worst.attempts <= request.limit)
        return Continue;
    QString message = work::refusal(QStringLiteral("this scenario"), worst, request.limit);
    if ((request.streaming || request.live) && !request.limitGiven) {
        const QString flag = request.live ? QStringLiteral("--live")
                                          : request.tracing ? QStringLiteral("--trace") : QStringLiteral("--series");
        message.replace(QStringLiteral(", over the limit of"), QStringLiteral(", over the %1 limit of").arg(flag));
    }
    fail(QStringLiteral("run: %1").arg(message));
    return ExitUsage;
}

int traceFailed(const QString &traceFile, const QString &error)
{
    fail(error.contains(traceFile)
                 ? QCoreApplication::translate("cli", "run: --trace: %1").arg(error)
                 : QCoreApplication::translate("cli", "run: --trace: cannot write trace file \"%1\": %2").arg(echo(traceFile), error));
    return ExitRuntime;
}

int seriesOutFailed(const QString &seriesFile, const QString &error)
{
    fail(QCoreApplication::translate("cli", "run: --series-out: cannot write \"%1\": %2").arg(echo(seriesFile), error));
    return ExitRuntime;
}

// The series of a run, or the usage error when --series cut it into more buckets than a series holds.
int finishSeries(const series::Builder &builder, const RunRequest &request, std::optional<Series> *out)
{
    if (!builder.ok()) {
        const qint64 lastUs = builder.lastEventUs();
        fail(QCoreApplication::translate("cli", "run: --series: %1 cuts this run (its last event at %2 s) into %3 buckets, more "
                            "than the %4 a series may hold; use --series %5 or more")
                     .arg(echo(request.seriesText))
                     .arg(double(lastUs) / 1e6, 0, 'f', 3)
                     .arg(series::bucketCount(lastUs, request.seriesBucketUs))
                     .arg(series::MaxBuckets)
                     .arg(series::bucketArgument(series::autoBucket(lastUs, series::MaxBuckets))));
        return ExitUsage;
    }
    *out = builder.finish();
    return Continue;
}

// Simulates (or runs live) with the trace written and the series counted as the events happen.
// seriesOut is opened before the run, so a bad path fails before any work.
int execute(const Scenario &s, const RunRequest &request, QSaveFile *seriesOut, RunResult *result,
            std::optional<Series> *seriesResult)
{
    // The trace is written as the engine goes (bounded memory); a bad path fails before the run.
    TraceWriter writer;
    std::atomic_bool stop{false};
    RunOptions options;
    options.trace = false;
    if (request.tracing) {
        if (const QString error = writer.open(request.traceFile); !error.isEmpty())
            return traceFailed(request.traceFile, error);
        options.cancel = &stop;
    }
    // The series is counted from the same events as they happen: the run keeps no trace for it.
    std::optional<series::Builder> builder;
    if (request.seriesWanted)
        builder.emplace(request.seriesBucketUs);
    if (!request.seriesFile.isEmpty() && !seriesOut->open(QIODevice::WriteOnly))
        return seriesOutFailed(request.seriesFile, seriesOut->errorString());
    const bool tracing = request.tracing;
    if (request.streaming) {
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
    if (request.live) {
        // The live run keeps its trace in memory (the client's and the server's events are merged
        // at the end), then writes it.
        LiveOptions liveOptions = request.liveOptions;
        liveOptions.trace = request.streaming;
        *result = runLive(s, liveOptions);
        for (const TraceEvent &e : std::as_const(result->trace)) {
            if (builder)
                builder->add(e);
            if (tracing && writer.ok())
                writer.write(e);
        }
    } else {
        *result = simulate(s, options);
    }
    if (tracing) {
        const QString error = writer.finish();
        if (!error.isEmpty() || result->cancelled)
            return traceFailed(request.traceFile, error);
    }
    if (!result->error.isEmpty()) {
        // The engine's own guard stopped the run: its metrics describe a part of it only.
        fail(QStringLiteral("run: %1").arg(result->error));
        return ExitRuntime;
    }
    return builder ? finishSeries(*builder, request, seriesResult) : Continue;
}

// The metrics (and the series unless --series-out takes it) in the chosen format. With --trace -
// the trace owns standard output and this goes to standard error.
void writeResult(const Scenario &s, const RunRequest &request, const Metrics &metrics,
                 const std::optional<Series> &seriesResult)
{
    FILE *const out = request.tracing && TraceWriter::isStandardOutput(request.traceFile) ? stderr : stdout;
    const ChunkSink toOut = [out](const QByteArray &bytes) {
        return std::fwrite(bytes.constData(), 1, size_t(bytes.size()), out) == size_t(bytes.size());
    };
    const bool seriesInline = seriesResult && request.seriesFile.isEmpty();
    switch (request.format) {
    case Format::Table:
        writeTo(out, runTable(s, metrics));
        if (seriesInline)
            writeSeriesTable(*seriesResult, toOut);
        break;
    case Format::Json:
        if (seriesInline) {
            // The metrics as QJsonDocument writes them, then "series" streamed in as their last member.
            QByteArray head = QJsonDocument(runJson(s, metrics)).toJson(QJsonDocument::Indented);
            head.chop(3); // "\n}\n"
            toOut(head + ",\n    \"series\": ");
            writeSeriesJson(*seriesResult, 4, toOut);
            toOut("\n}\n");
        } else {
            writeTo(out, QString::fromUtf8(QJsonDocument(runJson(s, metrics)).toJson(QJsonDocument::Indented)));
        }
        break;
    case Format::Csv:
        if (seriesInline)
            writeSeriesCsv(*seriesResult, toOut);
        else
            writeTo(out, runCsv(s, metrics));
        break;
    }
    std::fflush(out);
}

// --series-out FILE: CSV if it ends in .csv, else JSON; replaced only once complete.
int writeSeriesFile(const Series &seriesResult, const QString &seriesFile, QSaveFile *seriesOut)
{
    const ChunkSink toFile = [seriesOut](const QByteArray &bytes) { return seriesOut->write(bytes) == bytes.size(); };
    const bool csv = seriesFile.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    const bool written = csv ? writeSeriesCsv(seriesResult, toFile)
                             : writeSeriesJson(seriesResult, 0, toFile) && toFile("\n");
    if (!written || !seriesOut->commit())
        return seriesOutFailed(seriesFile, seriesOut->errorString());
    return ExitOk;
}

} // namespace

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
    const RunFlags flags = runFlags();
    parser.addOptions({scenarioOption(), seedOption(), setOption(), formatOption(QStringLiteral("table, json, csv")),
                       flags.trace, flags.series, flags.seriesOut, flags.maxAttempts, flags.live, flags.url,
                       flags.timeScale});
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;

    RunRequest request;
    if (const int rc = readLiveFlags(parser, flags, &request); rc != Continue)
        return rc;
    if (const int rc = readOutputFlags(parser, flags, &request); rc != Continue)
        return rc;
    Scenario s;
    if (const int rc = loadScenario(parser, QStringLiteral("run"), &s); rc != Continue)
        return rc;
    if (const int rc = refuseOverLimit(s, request); rc != Continue)
        return rc;

    QSaveFile seriesOut(request.seriesFile);
    RunResult result;
    std::optional<Series> seriesResult;
    if (const int rc = execute(s, request, &seriesOut, &result, &seriesResult); rc != Continue)
        return rc;
    writeResult(s, request, result.metrics, seriesResult);
    if (seriesResult && !request.seriesFile.isEmpty())
        return writeSeriesFile(*seriesResult, request.seriesFile, &seriesOut);
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
