// `retrylab sweep`: one or two scenario fields varied over many seeds, the statistics of every
// metric per value (or per cell) as a table, JSON or CSV, and optionally drawn as a chart.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "charts/sweepfigure.h"
#include "scenario.h"
#include "sweep.h"
#include "work.h"

#include <QApplication>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace retrylab {
namespace cli {

namespace {

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
            trimmed << echo(v.trimmed()); // typed by the user, shown in a table
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
        return spec.values.isEmpty() ? formatNumber(point.value) : echo(point.label);
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
        columns << (spec.values2.isEmpty() ? formatNumber(points.at(j).value2) : echo(points.at(j).label2));
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
            QCoreApplication::translate("cli", "Refuse the sweep (exit code 2) if one of its runs could make more than N HTTP attempts "
                           "at worst, each cell counted at its own worst case. N is digits or a number like 5e8. "
                           "Default %1.")
                    .arg(work::formatCount(work::DefaultMaxAttempts))),
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
    const QStringList known = metricNames();
    const QStringList names = parser.value(flags.metrics).split(QLatin1Char(','));
    for (const QString &raw : names) {
        const QString name = raw.trimmed();
        if (!known.contains(name)) {
            fail(QCoreApplication::translate("cli", "sweep: --metrics: unknown metric '%1' (known: %2)").arg(echo(name), known.join(QStringLiteral(", "))));
            return ExitUsage;
        }
        if (!requested->contains(name))
            requested->append(name);
    }
    return Continue;
}

// Once the scenario is known: the parameters name its fields, the sweep is valid and no run
// could pass --max-attempts.
int checkAgainstScenario(const QCommandLineParser &parser, const Scenario &s, const SweepSpec &spec)
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
    // The limit is per run: the number of runs is capped by sweep::validate().
    if (const work::Estimate worst = sweep::estimate(s, spec); worst.attempts > limit) {
        fail(QStringLiteral("sweep: %1").arg(work::refusal(QStringLiteral("one run of this sweep"), worst, limit)));
        return ExitUsage;
    }
    return Continue;
}

void writeSweep(Format format, const Scenario &s, const SweepSpec &spec, const QList<SweepPoint> &points,
                const QStringList &requestedMetrics)
{
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
}

} // namespace

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
    const SweepFlags f = sweepFlags();
    parser.addOptions({scenarioOption(), f.param, f.values, f.from, f.to, f.steps, f.param2, f.values2, f.from2, f.to2,
                       f.steps2, f.labels, f.labels2, f.seeds, f.metrics, seedOption(), setOption(),
                       formatOption(QStringLiteral("table, json, csv")), f.maxAttempts, f.chart, f.title});
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, true, &format); rc != Continue)
        return rc;
    SweepSpec spec;
    QString chartFile;
    QStringList requestedMetrics;
    if (const int rc = readSpec(parser, f, &spec); rc != Continue)
        return rc;
    if (const int rc = readChart(parser, f, &chartFile); rc != Continue)
        return rc;
    if (const int rc = readMetrics(parser, f, &requestedMetrics); rc != Continue)
        return rc;

    Scenario s;
    if (const int rc = loadScenario(parser, QStringLiteral("sweep"), &s); rc != Continue)
        return rc;
    if (const int rc = checkAgainstScenario(parser, s, spec); rc != Continue)
        return rc;

    QList<SweepPoint> points;
    if (isatty(fileno(stderr)))
        points = runWithProgress(sweep::jobs(s, spec));
    else
        points = sweep::run(s, spec);

    if (!chartFile.isEmpty()) {
        const QString error = saveSweepFigure(spec, points, chosenMetrics(requestedMetrics, spec),
                                              parser.value(f.title), chartFile);
        if (!error.isEmpty()) {
            fail(QStringLiteral("sweep: --chart: %1").arg(error));
            return ExitRuntime;
        }
    }
    writeSweep(format, s, spec, points, requestedMetrics);
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
