#include "sweep.h"

#include <QJsonValue>
#include <QMap>
#include <QVariant>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab {

namespace {

// The largest number of runs one sweep may ask for: beyond this the job list alone
// would eat gigabytes (each job carries a whole Scenario).
constexpr qint64 MaxRuns = 200000;

// Integer fields come out of Scenario::toJson() as CBOR integers, real ones as doubles.
bool isIntegerField(const QJsonValue &value)
{
    const int type = value.toVariant().metaType().id();
    return type == QMetaType::LongLong || type == QMetaType::Int || type == QMetaType::ULongLong;
}

double pointValue(const SweepSpec &spec, int i, bool integer)
{
    double v = spec.steps <= 1 ? spec.from : spec.from + (spec.to - spec.from) * double(i) / double(spec.steps - 1);
    if (i == spec.steps - 1 && spec.steps > 1)
        v = spec.to; // no rounding drift at the end of the range
    return integer ? double(std::llround(v)) : v;
}

QJsonValue jsonValue(double v, bool integer)
{
    return integer ? QJsonValue(qint64(v)) : QJsonValue(v);
}

// Integer fields travel as JSON integers: beyond 2^53 a double no longer holds every integer,
// and beyond 2^63 the conversion would wrap into values nobody typed.
constexpr double MaxExactInteger = 9007199254740992.0;

// The scenario at one value of the sweep.
Scenario atPoint(const Scenario &base, const QString &param, double v, bool integer)
{
    return scenario::withValue(base, param, jsonValue(v, integer)).scenario;
}

} // namespace

SweepStat SweepPoint::stat(const QString &metric) const
{
    for (const auto &entry : stats) {
        if (entry.first == metric)
            return entry.second;
    }
    return SweepStat{};
}

namespace sweep {

QStringList validate(const Scenario &base, const SweepSpec &spec)
{
    QStringList errors;
    const QString param = spec.param.trimmed();
    bool numeric = false;
    if (param.isEmpty()) {
        errors << QStringLiteral("--param: expected a scenario field path, e.g. network.responseLoss");
    } else {
        const QJsonValue current = scenario::valueAt(base, param);
        if (param == QLatin1String("seed"))
            errors << QStringLiteral("--param: the seed is varied by --seed and --seeds, not swept");
        else if (current.isUndefined())
            errors << QStringLiteral("--param: unknown scenario field \"%1\"").arg(param);
        else if (!current.isDouble())
            errors << QStringLiteral("--param: \"%1\" is not a numeric field").arg(param);
        else
            numeric = true;
    }
    if (!std::isfinite(spec.from))
        errors << QStringLiteral("--from: expected a finite number");
    if (!std::isfinite(spec.to))
        errors << QStringLiteral("--to: expected a finite number");
    if (std::isfinite(spec.from) && std::isfinite(spec.to) && !std::isfinite(spec.to - spec.from))
        errors << QStringLiteral("--from/--to: the range from %1 to %2 is too wide to divide into steps")
                          .arg(QString::number(spec.from, 'g', 6), QString::number(spec.to, 'g', 6));
    // Seeds are base seed + i: they must not pass 2^64 - 1 and wrap around to 0.
    if (spec.seeds >= 1 && base.seed > std::numeric_limits<quint64>::max() - quint64(spec.seeds - 1))
        errors << QStringLiteral("--seed/--seeds: --seed %1 with --seeds %2 would go past the largest seed, "
                                 "18446744073709551615 (2^64 - 1), and wrap around to 0; use --seed %3 or lower")
                          .arg(base.seed)
                          .arg(spec.seeds)
                          .arg(std::numeric_limits<quint64>::max() - quint64(spec.seeds - 1));
    if (spec.steps < 1 || spec.steps > 1000)
        errors << QStringLiteral("--steps: expected an integer from 1 to 1000, got %1").arg(spec.steps);
    if (spec.seeds < 1 || spec.seeds > 10000)
        errors << QStringLiteral("--seeds: expected an integer from 1 to 10000, got %1").arg(spec.seeds);
    if (errors.isEmpty() && qint64(spec.steps) * spec.seeds > MaxRuns)
        errors << QStringLiteral("--steps x --seeds: at most %1 runs per sweep, got %2 x %3")
                          .arg(MaxRuns)
                          .arg(spec.steps)
                          .arg(spec.seeds);
    if (!errors.isEmpty() || !numeric)
        return errors;

    // Every value must make a valid scenario; report each distinct complaint once.
    const bool integer = isIntegerField(scenario::valueAt(base, param));
    if (integer) {
        bool tooBig = false;
        for (const auto &[flag, v] : {std::pair{"--from", spec.from}, std::pair{"--to", spec.to}}) {
            if (std::fabs(v) > MaxExactInteger) {
                errors << QStringLiteral("%1: %2 is out of range for the integer field %3 (beyond 2^53 either side of 0)")
                                  .arg(QLatin1String(flag), QString::number(v, 'g', 6), param);
                tooBig = true;
            }
        }
        if (tooBig)
            return errors;
    }
    for (int i = 0; i < spec.steps; ++i) {
        const double v = pointValue(spec, i, integer);
        const ScenarioParse parsed = scenario::withValue(base, param, jsonValue(v, integer));
        for (const QString &error : parsed.errors) {
            const QString line = QStringLiteral("--param %1=%2: %3").arg(param, QString::number(v, 'g', 12), error);
            if (!errors.contains(line))
                errors << line;
        }
        if (errors.size() >= 5)
            break;
    }
    return errors;
}

QList<SweepJob> jobs(const Scenario &base, const SweepSpec &spec)
{
    QList<SweepJob> result;
    if (spec.steps < 1 || spec.seeds < 1)
        return result;
    const QString param = spec.param.trimmed();
    const bool integer = isIntegerField(scenario::valueAt(base, param));
    result.reserve(qsizetype(spec.steps) * spec.seeds);
    for (int point = 0; point < spec.steps; ++point) {
        const double v = pointValue(spec, point, integer);
        // validate() has rejected bad values; if a caller skipped it, the scenario keeps its base value.
        const Scenario atValue = atPoint(base, param, v, integer);
        for (int i = 0; i < spec.seeds; ++i) {
            SweepJob job;
            job.point = point;
            job.value = v;
            job.scenario = atValue;
            job.scenario.seed = base.seed + quint64(i);
            result << job;
        }
    }
    return result;
}

work::Estimate estimate(const Scenario &base, const SweepSpec &spec)
{
    work::Estimate total;
    if (spec.steps < 1 || spec.seeds < 1)
        return total;
    const QString param = spec.param.trimmed();
    const bool integer = isIntegerField(scenario::valueAt(base, param));
    work::Estimate worst;
    double worstValue = 0;
    for (int point = 0; point < spec.steps; ++point) {
        const double v = pointValue(spec, point, integer);
        const work::Estimate run = work::estimate(atPoint(base, param, v, integer));
        // Saturating sum: a thousand values of 4.2e11 each still fit, but never wrap.
        total.attempts = qMin(std::numeric_limits<qint64>::max() - run.attempts, total.attempts) + run.attempts;
        if (point == 0 || run.attempts > worst.attempts) {
            worst = run;
            worstValue = v;
        }
    }
    total.attempts = work::saturatedProduct(total.attempts, spec.seeds);
    total.drivers = QStringLiteral("--steps %1 x --seeds %2 runs, each up to %3 at %4=%5: %6")
                            .arg(spec.steps)
                            .arg(spec.seeds)
                            .arg(work::formatCount(worst.attempts), param, QString::number(worstValue, 'g', 12),
                                 worst.drivers);
    return total;
}

Metrics runJob(const SweepJob &job)
{
    RunOptions options;
    options.trace = false;
    return simulate(job.scenario, options).metrics;
}

QList<SweepPoint> aggregate(const SweepSpec &spec, const QList<SweepJob> &jobs, const QList<Metrics> &results)
{
    Q_UNUSED(spec);
    struct Accumulator
    {
        SweepPoint point;
        QList<double> sums;
        int count = 0;
    };
    // Keyed by point index so the points come out in order whatever the job order.
    QMap<int, Accumulator> byPoint;
    // Results may be shorter than jobs after a cancel: only finished runs count.
    const qsizetype n = std::min(jobs.size(), results.size());
    for (qsizetype i = 0; i < n; ++i) {
        const auto flat = results.at(i).flat();
        Accumulator &acc = byPoint[jobs.at(i).point];
        if (acc.count == 0) {
            acc.point.value = jobs.at(i).value;
            for (const auto &entry : flat)
                acc.point.stats.append({entry.first, SweepStat{0, entry.second, entry.second}});
            acc.sums = QList<double>(flat.size(), 0.0);
        }
        for (qsizetype m = 0; m < flat.size() && m < acc.sums.size(); ++m) {
            const double v = flat.at(m).second;
            SweepStat &stat = acc.point.stats[m].second;
            acc.sums[m] += v;
            stat.min = std::min(stat.min, v);
            stat.max = std::max(stat.max, v);
        }
        ++acc.count;
    }
    QList<SweepPoint> points;
    for (Accumulator &acc : byPoint) {
        for (qsizetype m = 0; m < acc.sums.size(); ++m)
            acc.point.stats[m].second.mean = acc.sums.at(m) / acc.count;
        points << acc.point;
    }
    return points;
}

QList<SweepPoint> run(const Scenario &base, const SweepSpec &spec)
{
    const QList<SweepJob> all = jobs(base, spec);
    const QList<Metrics> results = QtConcurrent::blockingMapped(all, runJob);
    return aggregate(spec, all, results);
}

QFuture<Metrics> start(const QList<SweepJob> &jobs)
{
    return QtConcurrent::mapped(jobs, runJob);
}

} // namespace sweep

} // namespace retrylab
