#pragma once

#include "scenario.h"
#include "simulator.h"
#include "work.h"

#include <QFuture>
#include <QList>
#include <QString>

namespace retrylab {

// One parameter varied over [from, to] in `steps` points, `seeds` runs per point.
struct SweepSpec
{
    QString param;
    double from = 0;
    double to = 1;
    int steps = 5;
    int seeds = 10;
};

struct SweepStat
{
    double mean = 0;
    double min = 0;
    double max = 0;
};

struct SweepPoint
{
    double value = 0;
    QList<QPair<QString, SweepStat>> stats; // metric name -> stats, Metrics::flat() order
    SweepStat stat(const QString &metric) const;
};

struct SweepJob
{
    int point = 0;
    double value = 0;
    Scenario scenario;
};

namespace sweep {
// Validates the spec against the scenario; errors name the flag or path.
QStringList validate(const Scenario &base, const SweepSpec &spec);
// Worst-case work of the whole sweep: over its values, seeds x the run's work::estimate.
// Call after validate() (an invalid value keeps the base scenario's work).
work::Estimate estimate(const Scenario &base, const SweepSpec &spec);
// The (point, seed) jobs; seeds are base seed + i.
QList<SweepJob> jobs(const Scenario &base, const SweepSpec &spec);
// Metrics of one job (tracing off).
Metrics runJob(const SweepJob &job);
// Folds job results (in job order) into points.
QList<SweepPoint> aggregate(const SweepSpec &spec, const QList<SweepJob> &jobs, const QList<Metrics> &results);
// Runs everything on all cores (blocking); for the CLI and tests.
QList<SweepPoint> run(const Scenario &base, const SweepSpec &spec);
// Starts in the background: progress and cancel via the future (GUI).
QFuture<Metrics> start(const QList<SweepJob> &jobs);
} // namespace sweep

} // namespace retrylab
