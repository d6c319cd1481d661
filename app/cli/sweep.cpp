// `retrylab sweep`: one or two scenario fields varied over many seeds, the statistics of every
// metric per value (or per cell) as a table, JSON or CSV, and optionally drawn as a chart.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"
#include "sweepoutput.h"

#include "charts/sweepfigure.h"
#include "scenario.h"
#include "sweep.h"
#include "work.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <fcntl.h>
#include <unistd.h>

namespace retrylab {
namespace cli {

namespace {

bool parseNumberFlag(const QCommandLineParser &parser, const QString &flag, double *out)
{
    const QString text = parser.value(flag).trimmed();
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        fail(QCoreApplication::translate("cli", "sweep: --%1: expected a number, got '%2'").arg(flag, echo(text)));
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
        fail(QCoreApplication::translate("cli", "sweep: --%1: expected an integer from %2 to %3, got '%4'").arg(flag).arg(lo).arg(hi).arg(echo(text)));
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

// Ctrl+C while a sweep runs: the handler only writes a byte to this pipe (async-signal-safe);
// the event loop reads it, stops the runs and prints the points finished so far.
int g_interruptPipe[2] = {-1, -1};

void onInterrupt(int)
{
    const char byte = 1;
    const ssize_t written = ::write(g_interruptPipe[1], &byte, 1);
    (void)written;
}

// What a sweep run came back with: every point, or after Ctrl+C those finished.
struct SweepOutcome
{
    QList<SweepPoint> points;
    bool interrupted = false;
};

// Runs the jobs in the background. On a terminal, draws a progress line with an ETA on stderr
// (the ETA weighs each run by its expected requests). SIGINT stops it: the result holds the
// points whose every seed finished, in order; a second Ctrl+C ends the process at once.
SweepOutcome runSweep(const QList<SweepJob> &jobs, const SweepCost &cost, int seeds)
{
    auto into = std::make_shared<SweepAccumulator>();
    auto cancel = std::make_shared<std::atomic_bool>(false);
    SweepOutcome outcome;
    const bool piped = ::pipe(g_interruptPipe) == 0;
    struct sigaction action = {}, previous = {};
    if (piped) {
        ::fcntl(g_interruptPipe[1], F_SETFL, O_NONBLOCK);
        action.sa_handler = onInterrupt;
        action.sa_flags = SA_RESETHAND; // the second Ctrl+C is the default one
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &previous);
    }
    QFuture<SweepFolded> future = sweep::startInto(jobs, into, cancel);
    QFutureWatcher<SweepFolded> watcher;
    QEventLoop loop;
    // Without a pipe (none left to open) the sweep runs on and Ctrl+C ends it the default way.
    std::unique_ptr<QSocketNotifier> notifier;
    if (piped) {
        notifier = std::make_unique<QSocketNotifier>(g_interruptPipe[0], QSocketNotifier::Read);
        QObject::connect(notifier.get(), &QSocketNotifier::activated, &loop, [&] {
            char byte = 0;
            const ssize_t got = ::read(g_interruptPipe[0], &byte, 1);
            (void)got;
            notifier->setEnabled(false);
            outcome.interrupted = true;
            cancel->store(true);
            future.cancel();
        });
    }
    const bool terminal = isatty(fileno(stderr));
    QList<double> workBefore{0}; // expected requests of the first i jobs
    for (const qint64 w : cost.perJob)
        workBefore << workBefore.constLast() + double(w);
    QElapsedTimer clock;
    clock.start();
    if (terminal) {
        QObject::connect(&watcher, &QFutureWatcherBase::progressValueChanged, &loop, [&](int done) {
            const int at = std::clamp(done, 0, int(workBefore.size()) - 1);
            const QString line = sweep::progressText(done, jobs.size(), clock.elapsed() / 1000.0, workBefore.at(at),
                                                     workBefore.constLast());
            writeTo(stderr, QStringLiteral("\r%1\033[K").arg(line));
        });
    }
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    if (!future.isFinished())
        loop.exec();
    future.waitForFinished();
    if (terminal)
        writeTo(stderr, QStringLiteral("\r\033[K"));
    if (piped) {
        ::sigaction(SIGINT, &previous, nullptr);
        ::close(g_interruptPipe[0]);
        ::close(g_interruptPipe[1]);
    }
    outcome.points = outcome.interrupted ? into->completePoints(seeds) : into->points();
    return outcome;
}

// The options of `sweep` beyond the shared ones.
struct SweepFlags
{
    QCommandLineOption param;
    QCommandLineOption values;
    QCommandLineOption from;
    QCommandLineOption to;
    QCommandLineOption steps;
    QCommandLineOption param2;
    QCommandLineOption values2;
    QCommandLineOption from2;
    QCommandLineOption to2;
    QCommandLineOption steps2;
    QCommandLineOption labels;
    QCommandLineOption labels2;
    QCommandLineOption chart;
    QCommandLineOption title;
    QCommandLineOption seeds;
    QCommandLineOption metrics;
    QCommandLineOption maxAttempts;
    QCommandLineOption shard;
};

SweepFlags sweepFlags()
{
    return SweepFlags{
        QCommandLineOption(QStringLiteral("param"),
                           QCoreApplication::translate("cli", "Scenario field to vary, e.g. network.responseLoss or "
                                          "client.business.backoff.jitter ('retrylab fields' lists "
                                          "them)."),
                           QStringLiteral("PATH")),
        QCommandLineOption(
            QStringLiteral("values"),
            QCoreApplication::translate("cli", "Values of --param, comma-separated, any type: numbers, true/false, names such as "
                           "none,full,equal,decorrelated (each read as JSON if it is JSON, else as text, as --set "
                           "does). Instead of --from/--to/--steps."),
            QStringLiteral("a,b,...")),
        QCommandLineOption(QStringLiteral("from"), QStringLiteral("First value of a numeric --param."), QStringLiteral("A")),
        QCommandLineOption(QStringLiteral("to"), QStringLiteral("Last value."), QStringLiteral("B")),
        QCommandLineOption(QStringLiteral("steps"),
                           QCoreApplication::translate("cli", "Number of values from A to B inclusive (1-1000)."),
                           QStringLiteral("K")),
        QCommandLineOption(QStringLiteral("param2"),
                           QCoreApplication::translate("cli", "A second field to vary: every (value, value2) pair is a "
                                          "cell, e.g. client.business.backoff.jitter."),
                           QStringLiteral("PATH")),
        QCommandLineOption(QStringLiteral("values2"), QStringLiteral("Values of --param2."), QStringLiteral("a,b,...")),
        QCommandLineOption(QStringLiteral("from2"), QStringLiteral("First value of a numeric --param2."),
                           QStringLiteral("A")),
        QCommandLineOption(QStringLiteral("to2"), QStringLiteral("Last value of --param2."), QStringLiteral("B")),
        QCommandLineOption(QStringLiteral("steps2"),
                           QCoreApplication::translate("cli", "Number of values of --param2 from A to B (1-1000)."),
                           QStringLiteral("K")),
        QCommandLineOption(
            QStringLiteral("labels"),
            QCoreApplication::translate("cli", "Names for the values of --values in the table and chart, comma-separated, one per value."),
            QStringLiteral("a,b,...")),
        QCommandLineOption(QStringLiteral("labels2"),
                           QCoreApplication::translate("cli", "Names for the values of --values2, one per value."),
                           QStringLiteral("a,b,...")),
        QCommandLineOption(
            QStringLiteral("chart"),
            QCoreApplication::translate("cli", "Also draw the sweep to FILE (.png or .svg): one chart per metric of the table, x = "
                           "--param, one line per value of --param2. Works without a display."),
            QStringLiteral("FILE")),
        QCommandLineOption(QStringLiteral("title"), QCoreApplication::translate("cli", "The --chart figure's title."),
                           QStringLiteral("TEXT")),
        QCommandLineOption(QStringLiteral("seeds"),
                           QCoreApplication::translate("cli", "Runs per value (per cell), seeds N, N+1, ... (1-10000, "
                                          "default 10). At most 1,000,000 runs per sweep."),
                           QStringLiteral("S"), QStringLiteral("10")),
        QCommandLineOption(
            QStringLiteral("metrics"),
            QCoreApplication::translate("cli", "Metrics of the table and CSV, comma-separated (default: duplicates, records, "
                           "amplification, httpAttempts, clientFailed, orphans; with --param2: httpAttempts, "
                           "completionS). JSON always has every metric."),
            QStringLiteral("m1,m2")),
        maxAttemptsOption(
            QCoreApplication::translate("cli", "Refuse the sweep (exit code 2) if one of its runs could make more than N HTTP "
                                               "attempts at worst (each cell at its own worst case; default %1) or if the whole "
                                               "sweep is expected to make more than N requests (from a short pilot run; default "
                                               "%2). N is digits or a number like 5e8.")
                    .arg(work::formatCount(work::DefaultMaxAttempts), work::formatCount(sweep::DefaultMaxTotalAttempts))),
        QCommandLineOption(QStringLiteral("shard"),
                           QCoreApplication::translate("cli", "Run only the K-th of N slices of the sweep (whole points: point i "
                                                              "goes to slice i mod N + 1) and print it as JSON for --merge."),
                           QStringLiteral("K/N")),
    };
}

// --labels / --labels2: names for listed values, as many as there are values.
int readLabels(const QCommandLineParser &parser, const SweepFlags &flags, SweepSpec *spec)
{
    for (int i = 0; i < 2; ++i) {
        QStringList &labels = i == 0 ? spec->labels : spec->labels2;
        const QCommandLineOption &option = i == 0 ? flags.labels : flags.labels2;
        if (!parser.isSet(option))
            continue;
        const QStringList &values = i == 0 ? spec->values : spec->values2;
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
    return Continue;
}

// --param, --param2 and their values, --seeds and --labels: what to vary, checked before the scenario is read.
int readSpec(const QCommandLineParser &parser, const SweepFlags &flags, SweepSpec *spec)
{
    if (!parser.isSet(flags.param)) {
        fail(QCoreApplication::translate("cli", "sweep: missing --param PATH"));
        return ExitUsage;
    }
    spec->param = parser.value(flags.param).trimmed();
    if (!parseParamValues(parser, QString(), &spec->values, &spec->from, &spec->to, &spec->steps))
        return ExitUsage;
    if (parser.isSet(flags.param2)) {
        spec->param2 = parser.value(flags.param2).trimmed();
        if (spec->param2.isEmpty()) {
            fail(QCoreApplication::translate("cli", "sweep: --param2: expected a scenario field path, e.g. client.business.backoff.jitter"));
            return ExitUsage;
        }
        if (!parseParamValues(parser, QStringLiteral("2"), &spec->values2, &spec->from2, &spec->to2, &spec->steps2))
            return ExitUsage;
    } else {
        for (const QCommandLineOption *orphan : {&flags.values2, &flags.from2, &flags.to2, &flags.steps2}) {
            if (parser.isSet(*orphan)) {
                fail(QCoreApplication::translate("cli", "sweep: --%1 needs --param2 PATH").arg(orphan->names().constFirst()));
                return ExitUsage;
            }
        }
    }
    if (!parseIntFlag(parser, QStringLiteral("seeds"), 1, 10000, &spec->seeds))
        return ExitUsage;
    return readLabels(parser, flags, spec);
}

// --chart FILE (.png or .svg, drawn only where a QApplication runs) and --title, which needs it.
int readChart(const QCommandLineParser &parser, const SweepFlags &flags, QString *chartFile)
{
    if (parser.isSet(flags.title) && !parser.isSet(flags.chart)) {
        fail(QCoreApplication::translate("cli", "sweep: --title needs --chart FILE"));
        return ExitUsage;
    }
    *chartFile = parser.value(flags.chart);
    if (parser.isSet(flags.chart)) {
        const QString suffix = QFileInfo(*chartFile).suffix().toLower();
        if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
            fail(QCoreApplication::translate("cli", "sweep: --chart: expected a file name ending in .png or .svg, got '%1'").arg(echo(*chartFile)));
            return ExitUsage;
        }
        if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
            fail(QCoreApplication::translate("cli", "sweep: --chart: cannot draw here (no graphics)"));
            return ExitRuntime;
        }
    }
    return Continue;
}

// --metrics: known names only, each once, in the order given.
int readMetrics(const QCommandLineParser &parser, const SweepFlags &flags, QStringList *requested)
{
    if (!parser.isSet(flags.metrics))
        return Continue;
    return readMetricNames(parser.value(flags.metrics), requested) ? Continue : ExitUsage;
}

// --shard K/N: a valid slice, printed as JSON (the form --merge reads), without a chart.
int readShard(const QCommandLineParser &parser, const SweepFlags &flags, Format format, const QString &chartFile,
              SweepShard *shard)
{
    if (!parser.isSet(flags.shard))
        return Continue;
    QString error;
    if (!sweep::parseShard(parser.value(flags.shard), shard, &error)) {
        fail(QStringLiteral("sweep: %1").arg(error));
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("format")) && format != Format::Json) {
        fail(QCoreApplication::translate("cli", "sweep: --shard prints JSON for --merge; leave out --format or give --format json"));
        return ExitUsage;
    }
    if (!chartFile.isEmpty()) {
        fail(QCoreApplication::translate("cli", "sweep: --shard: draw the chart from the merged output, not from one slice"));
        return ExitUsage;
    }
    return Continue;
}

// Once the scenario is known: the parameters name its fields, the sweep is valid and no run
// could pass --max-attempts.
int checkAgainstScenario(const QCommandLineParser &parser, const Scenario &s, const SweepSpec &spec, qint64 *totalLimit)
{
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
    *totalLimit = parser.isSet(QStringLiteral("max-attempts")) ? limit : sweep::DefaultMaxTotalAttempts;
    // The limit is per run: the number of runs is capped by sweep::validate().
    if (const work::Estimate worst = sweep::estimate(s, spec); worst.attempts > limit) {
        fail(QStringLiteral("sweep: %1").arg(work::refusal(QStringLiteral("one run of this sweep"), worst, limit)));
        return ExitUsage;
    }
    return Continue;
}

// This machine's rate in requests per second over all threads: up to sweep::MaxPilotCells of
// the jobs, spread over the sweep, each with at most sweep::PilotOperations operations (an open
// workload's orders cut; a larger one left out), timed alone and again until a fifth of a second
// has passed, so that neither the sweep's set-up nor one quick run decides the rate.
double measuredRate(const QList<SweepJob> &jobs)
{
    QList<Scenario> samples;
    const qsizetype n = jobs.size();
    for (qsizetype i = 0; i < std::min<qsizetype>(n, sweep::MaxPilotCells); ++i) {
        const qsizetype at = n <= sweep::MaxPilotCells ? i : std::llround(double(i) * double(n - 1) / (sweep::MaxPilotCells - 1));
        Scenario s = jobs.at(at).scenario();
        if (s.workload.mode != WorkloadMode::Closed && s.workload.phases.isEmpty())
            s.workload.orders = std::min(s.workload.orders, sweep::PilotOperations);
        if (s.workload.operations() <= sweep::PilotOperations)
            samples << s;
    }
    RunOptions options;
    options.trace = false;
    qint64 requests = 0;
    QElapsedTimer clock;
    clock.start();
    for (int round = 0; !samples.isEmpty() && round < 1000 && (round == 0 || clock.elapsed() < 200); ++round) {
        for (const Scenario &s : std::as_const(samples)) {
            const Metrics m = simulate(s, options).metrics;
            requests += m.httpAttempts + m.queryAttempts;
        }
    }
    if (requests == 0)
        return 0;
    const double seconds = std::max(1e-6, clock.nsecsElapsed() / 1e9);
    return double(requests) / seconds * std::max(1, QThreadPool::globalInstance()->maxThreadCount());
}

// The identity of a sweep in a shard's JSON: the whole scenario and the spec, hashed, so that
// --merge joins only slices of one sweep.
QString sweepIdentity(const Scenario &s, const SweepSpec &spec)
{
    QJsonObject described = sweepJson(s, spec, {});
    described.insert(QStringLiteral("scenario"), s.toJson());
    const QByteArray bytes = QJsonDocument(described).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().left(16));
}

// The output of a shard or of an interrupted sweep: the JSON one machine prints, plus what it is.
QJsonObject annotatedJson(const Scenario &s, const SweepSpec &spec, const SweepShard *shard,
                          const SweepOutcome &outcome)
{
    QJsonObject o = sweepJson(s, spec, outcome.points);
    const int total = spec.count() * spec.count2();
    if (shard)
        o.insert(QStringLiteral("shard"), QJsonObject{{QStringLiteral("index"), shard->index},
                                                      {QStringLiteral("count"), shard->count},
                                                      {QStringLiteral("sweep"), sweepIdentity(s, spec)},
                                                      {QStringLiteral("points"), total}});
    if (outcome.interrupted)
        o.insert(QStringLiteral("partial"), QJsonObject{{QStringLiteral("pointsFinished"), outcome.points.size()},
                                                        {QStringLiteral("pointsPlanned"), shard ? shard->pointsOf(total) : total},
                                                        {QStringLiteral("reason"), QStringLiteral("interrupted (SIGINT)")}});
    return o;
}

} // namespace

int sweepCommand(const QStringList &arguments)
{
    if (arguments.contains(QLatin1String("--merge")))
        return sweepMergeCommand(arguments);
    CommandParser command(
            QStringLiteral("sweep"),
            QStringLiteral("--scenario NAME|FILE --param PATH (--values a,b,... | --from A --to B --steps K) "
                           "[--param2 PATH (--values2 a,b,... | --from2 A --to2 B --steps2 K)] [--seeds S] "
                           "[--metrics m1,m2] [--seed N] [--set path=value ...] [--format table|json|csv] "
                           "[--max-attempts N] [--shard K/N]\n       retrylab sweep --merge FILES [--format table|json|csv] "
                           "[--metrics m1,m2]"),
            QCoreApplication::translate("cli", "Varies one scenario field (or two: every pair of values is a cell) and runs several "
                           "seeds per value; prints mean, min, max and sample standard deviation of every metric. "
                           "With --param2 the table has one row per value of --param and one column per value of "
                           "--param2. Before it starts, a short pilot run estimates the whole sweep's requests; "
                           "on a terminal a progress line shows the time left; Ctrl+C prints the points finished "
                           "so far (exit code 130). --shard K/N runs one of N slices; --merge joins them."));
    QCommandLineParser &parser = command.parser();
    const SweepFlags f = sweepFlags();
    parser.addOptions({scenarioOption(), f.param, f.values, f.from, f.to, f.steps, f.param2, f.values2, f.from2, f.to2,
                       f.steps2, f.labels, f.labels2, f.seeds, f.metrics, seedOption(), setOption(),
                       formatOption(QStringLiteral("table, json, csv")), f.maxAttempts, f.shard, f.chart, f.title,
                       mergeOption()});
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, true, &format); rc != Continue)
        return rc;
    SweepSpec spec;
    QString chartFile;
    QStringList requestedMetrics;
    SweepShard shard;
    if (const int rc = readSpec(parser, f, &spec); rc != Continue)
        return rc;
    if (const int rc = readChart(parser, f, &chartFile); rc != Continue)
        return rc;
    if (const int rc = readMetrics(parser, f, &requestedMetrics); rc != Continue)
        return rc;
    if (const int rc = readShard(parser, f, format, chartFile, &shard); rc != Continue)
        return rc;

    Scenario s;
    if (const int rc = loadScenario(parser, QStringLiteral("sweep"), &s); rc != Continue)
        return rc;
    qint64 totalLimit = 0;
    if (const int rc = checkAgainstScenario(parser, s, spec, &totalLimit); rc != Continue)
        return rc;
    const QList<SweepJob> jobs = sweep::jobs(s, spec, shard);
    const SweepCost cost = sweep::cost(s, spec, jobs);
    if (cost.expectedAttempts > totalLimit) {
        fail(QStringLiteral("sweep: %1").arg(sweep::costRefusal(cost, totalLimit, measuredRate(jobs))));
        return ExitUsage;
    }

    const SweepOutcome outcome = runSweep(jobs, cost, spec.seeds);
    if (outcome.interrupted)
        fail(QCoreApplication::translate("cli", "sweep: interrupted: the output is partial, the %1 of %2 points whose every "
                                                "seed had finished")
                     .arg(outcome.points.size())
                     .arg(shard.pointsOf(spec.count() * spec.count2())));
    if (!chartFile.isEmpty() && !outcome.interrupted) {
        const QString error = saveSweepFigure(spec, outcome.points, chosenMetrics(requestedMetrics, spec),
                                              parser.value(f.title), chartFile);
        if (!error.isEmpty()) {
            fail(QStringLiteral("sweep: --chart: %1").arg(error));
            return ExitRuntime;
        }
    }
    if (parser.isSet(f.shard) || (outcome.interrupted && format == Format::Json))
        writeSweepJson(annotatedJson(s, spec, parser.isSet(f.shard) ? &shard : nullptr, outcome));
    else
        writeSweep(format, s, spec, outcome.points, requestedMetrics);
    if (outcome.interrupted && format == Format::Table)
        writeOut(QCoreApplication::translate("cli", "\n(partial: interrupted after %1 of %2 points)\n")
                         .arg(outcome.points.size())
                         .arg(shard.pointsOf(spec.count() * spec.count2())));
    return outcome.interrupted ? ExitInterrupted : ExitOk;
}

} // namespace cli
} // namespace retrylab
