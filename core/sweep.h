#pragma once

#include "scenario.h"
#include "simulator.h"
#include "work.h"

#include <QFuture>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace retrylab {

// One or two parameters varied, `seeds` runs per cell. Each parameter takes its values either
// from a list (`values`, any field: numbers, booleans, enum names) or from a numeric range
// (`from`..`to` in `steps` points). With `param2` set, every (value, value2) pair is a cell.
struct SweepSpec
{
    QString param;
    double from = 0;
    double to = 1;
    int steps = 5;
    // When not empty: the values of `param` as typed (each read as JSON when it parses, else as a
    // string, as --set does); from/to/steps are then unused.
    QStringList values;
    // Names for the listed values (tables, JSON, charts); empty: each value's own text.
    QStringList labels;
    // The second parameter (empty: a 1-D sweep) and its values, alike.
    QString param2;
    double from2 = 0;
    double to2 = 1;
    int steps2 = 5;
    QStringList values2;
    QStringList labels2;
    int seeds = 10;

    bool twoD() const { return !param2.trimmed().isEmpty(); }
    // Number of values of each parameter (1 for an absent second one), and of cells.
    int count() const { return values.isEmpty() ? steps : int(values.size()); }
    int count2() const { return !twoD() ? 1 : values2.isEmpty() ? steps2 : int(values2.size()); }
};

// Over the seeds of one cell. sd is the sample standard deviation (n - 1 in the denominator),
// 0 for a single seed.
struct SweepStat
{
    double mean = 0;
    double min = 0;
    double max = 0;
    double sd = 0;
};

struct SweepPoint
{
    // The number of the first parameter's value, or its index in --values when it is not a
    // number (an enum name, a boolean); label is the value as text ("full", "0.25", "true").
    double value = 0;
    QString label;
    // The same for the second parameter (0 and empty in a 1-D sweep).
    double value2 = 0;
    QString label2;
    QList<QPair<QString, SweepStat>> stats; // metric name -> stats, Metrics::flat() order
    SweepStat stat(const QString &metric) const;
};

// One cell of the sweep: its values and its scenario (seed still the base seed).
struct SweepCell
{
    int point = 0; // index in the sweep's points: index of value * count2 + index of value2
    double value = 0;
    QString label;
    double value2 = 0;
    QString label2;
    Scenario scenario;
};

// One run: a cell (shared by its seeds, never copied per job) and a seed.
struct SweepJob
{
    std::shared_ptr<const SweepCell> cell;
    quint64 seed = 0;
    int point() const { return cell ? cell->point : 0; }
    // The scenario of this run: the cell's, at this seed.
    Scenario scenario() const;
};

// Folds run results, in job order, into points (mean, min, max, sd per metric).
class SweepAccumulator
{
public:
    void add(const SweepCell &cell, const Metrics &metrics);
    QList<SweepPoint> points() const;

private:
    struct Cell
    {
        SweepPoint point;
        QList<double> sums;
        QList<double> m2; // Welford's sum of squared deviations
        QList<double> means;
        int count = 0;
    };
    QList<Cell> m_cells; // ordered by point index
    QList<int> m_index;  // point index -> position in m_cells, -1 while absent
};

namespace sweep {
// The most runs (cells x seeds) and cells one sweep may have.
inline constexpr qint64 MaxRuns = 1000000;
inline constexpr int MaxCells = 10000;
// The most values of one parameter (--steps or --values).
inline constexpr int MaxValues = 1000;

// A value typed on the command line as JSON when it parses as JSON, else as a string (--set's rule).
QJsonValue valueFromText(const QString &text);
// "a,b,c" -> {"a", "b", "c"}, splitting only at commas outside JSON objects, arrays and strings, so
// a value may be a partial object: --values2 '{"kind":"constant","initialMs":0},{"jitter":"full"}'.
QStringList splitValues(const QString &text);
// The label of a value as typed: the text, or for an object its members ("kind constant, initialMs 0").
QString valueLabel(const QString &text, const QJsonValue &value);
// Validates the spec against the scenario; errors name the flag and the value.
QStringList validate(const Scenario &base, const SweepSpec &spec);
// The cells in order (first parameter outer, second inner). Call after validate() (an invalid
// value keeps the base scenario's setting).
QList<SweepCell> cells(const Scenario &base, const SweepSpec &spec);
// The worst-case work of ONE run of the sweep: the largest work::estimate over its cells; drivers
// name the value(s) of that cell. The work limit applies per run (the number of runs is capped
// by MaxRuns in validate()).
work::Estimate estimate(const Scenario &base, const SweepSpec &spec);
// The (cell, seed) jobs, cell-major; seeds are base seed + i.
QList<SweepJob> jobs(const Scenario &base, const SweepSpec &spec);
// Metrics of one job (tracing off).
Metrics runJob(const SweepJob &job);
// Folds job results (in job order) into points; results may be shorter than jobs (cancel).
QList<SweepPoint> aggregate(const QList<SweepJob> &jobs, const QList<Metrics> &results);
// Runs everything on all cores (blocking), folding results as they come; for the CLI and tests.
QList<SweepPoint> run(const Scenario &base, const SweepSpec &spec);
// Starts in the background: progress and cancel via the future (GUI).
QFuture<Metrics> start(const QList<SweepJob> &jobs);
// The same, folding as it goes (no list of every run's metrics): the CLI's progress path.
QFuture<SweepAccumulator> startFolded(const QList<SweepJob> &jobs);
} // namespace sweep

} // namespace retrylab
