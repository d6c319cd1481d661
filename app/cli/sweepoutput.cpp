// `sweep`'s output: tables, JSON, CSV, and JSON read back for --merge.
#include "sweepoutput.h"

#include "output.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace retrylab {
namespace cli {

namespace {

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

} // namespace

QStringList metricNames()
{
    QStringList names;
    const auto flat = Metrics().flat();
    for (const auto &entry : flat)
        names << entry.first;
    return names;
}

bool readMetricNames(const QString &text, QStringList *requested)
{
    const QStringList known = metricNames();
    const QStringList names = text.split(QLatin1Char(','));
    for (const QString &raw : names) {
        const QString name = raw.trimmed();
        if (!known.contains(name)) {
            // Not the whole list of some forty names: the line stays short whatever was typed.
            fail(QCoreApplication::translate("cli", "sweep: --metrics: unknown metric '%1' (the metrics are the columns of "
                                                    "'retrylab run --format csv', e.g. duplicates, httpAttempts, amplification)")
                         .arg(echo(name)));
            return false;
        }
        if (!requested->contains(name))
            requested->append(name);
    }
    return true;
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

void writeSweepJson(const QJsonObject &object)
{
    writeOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
}

void writeSweep(Format format, const Scenario &s, const SweepSpec &spec, const QList<SweepPoint> &points,
                const QStringList &requestedMetrics)
{
    switch (format) {
    case Format::Table:
        writeOut(sweepTable(s, spec, points, chosenMetrics(requestedMetrics, spec)));
        break;
    case Format::Json:
        writeSweepJson(sweepJson(s, spec, points));
        break;
    case Format::Csv:
        writeOut(sweepCsv(spec, points, requestedMetrics));
        break;
    }
}

namespace {

// One parameter's values as sweepJson() describes them ("values" or "from", "to", "steps").
void readValues(const QJsonObject &o, const QString &tail, QStringList *values, double *from, double *to, int *steps)
{
    const QJsonArray list = o.value(QStringLiteral("values") + tail).toArray();
    for (const QJsonValue &v : list)
        values->append(v.toString());
    *from = o.value(QStringLiteral("from") + tail).toDouble();
    *to = o.value(QStringLiteral("to") + tail).toDouble();
    *steps = o.value(QStringLiteral("steps") + tail).toInt();
}

} // namespace

bool sweepFromJson(const QJsonObject &object, Scenario *s, SweepSpec *spec, QList<SweepPoint> *points)
{
    if (!object.value(QStringLiteral("points")).isArray() || !object.value(QStringLiteral("param")).isString())
        return false;
    s->name = object.value(QStringLiteral("scenario")).toString();
    s->title = object.value(QStringLiteral("title")).toString();
    const QJsonValue seed = object.value(QStringLiteral("seed"));
    s->seed = seed.isString() ? seed.toString().toULongLong() : quint64(seed.toDouble());
    spec->param = object.value(QStringLiteral("param")).toString();
    spec->seeds = object.value(QStringLiteral("seeds")).toInt();
    readValues(object, QString(), &spec->values, &spec->from, &spec->to, &spec->steps);
    spec->param2 = object.value(QStringLiteral("param2")).toString();
    if (spec->twoD())
        readValues(object, QStringLiteral("2"), &spec->values2, &spec->from2, &spec->to2, &spec->steps2);
    const QStringList names = metricNames();
    const QJsonArray list = object.value(QStringLiteral("points")).toArray();
    for (const QJsonValue &v : list) {
        const QJsonObject p = v.toObject();
        SweepPoint point;
        point.value = p.value(QStringLiteral("value")).toDouble();
        point.label = p.value(QStringLiteral("label")).toString();
        point.value2 = p.value(QStringLiteral("value2")).toDouble();
        point.label2 = p.value(QStringLiteral("label2")).toString();
        const QJsonObject metrics = p.value(QStringLiteral("metrics")).toObject();
        for (const QString &name : names) {
            const QJsonObject m = metrics.value(name).toObject();
            point.stats.append({name, SweepStat{m.value(QStringLiteral("mean")).toDouble(), m.value(QStringLiteral("min")).toDouble(),
                                                m.value(QStringLiteral("max")).toDouble(), m.value(QStringLiteral("sd")).toDouble()}});
        }
        points->append(point);
    }
    return true;
}

} // namespace cli
} // namespace retrylab
