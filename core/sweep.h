#pragma once

#include "scenario.h"
#include "simulator.h"
#include "work.h"

#include <QFuture>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
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
    qint64 index = -1; // position in sweep::jobs() (-1: made by hand); folds stop at a gap
    int point() const { return cell ? cell->point : 0; }
    // The scenario of this run: the cell's, at this seed.
    Scenario scenario() const;
};

// The K-th of N deterministic slices of a sweep (--shard K/N): whole points, point i going to
// shard i mod N + 1, so a point's statistics are computed exactly as one machine computes them
// and the slices depend on K, N and the sweep alone, never on the machines or their cores.
struct SweepShard
{
    int index = 1; // K, from 1
    int count = 1; // N
    bool whole() const { return count == 1; }
    bool contains(int point) const { return count <= 1 || point % count == index - 1; }
    // The points of a sweep of `total` points this shard runs.
    int pointsOf(int total) const { return count <= 1 ? total : qMax(0, (total - index + count) / count); }
};

// What a sweep is expected to cost, reckoned before it runs (sweep::cost).
struct SweepCost
{
    qint64 runs = 0;
    qint64 expectedAttempts = 0; // HTTP requests of every run (POST attempts and status queries)
    QList<qint64> perJob;        // the expected requests of each job, in job order
    qint64 pilotAttempts = 0;    // what the pilot runs made (the caller times them for a rate)
    int pilotRuns = 0;
};

// The result of sweep::startInto(), whose points are folded into the caller's accumulator.
// Not a number: QtConcurrent would take an enum for an initial value of one.
struct SweepFolded
{
};

// Folds run results, in job order, into points (mean, min, max, sd per metric).
class SweepAccumulator
{
public:
    void add(const SweepCell &cell, const Metrics &metrics);
    QList<SweepPoint> points() const;
    // The runs folded so far.
    qint64 runs() const { return m_runs; }
    // Points with all `seeds` runs folded (the whole sweep's first points after an interrupt).
    QList<SweepPoint> completePoints(int seeds) const;

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
    qint64 m_runs = 0;
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

// The AWS study's figure (aws-samples/aws-arch-backoff-simulator): workload.clients 10 to 190 in 19
// steps against the five backoff strategies (no wait, and exponential with no, full, equal and
// decorrelated jitter), `seeds` seeds each. One definition for bench_sweep, bench_floor and the tests.
SweepSpec awsFigureSpec(int seeds);
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
// The (cell, seed) jobs, cell-major; seeds are base seed + i. With a shard, only its points.
QList<SweepJob> jobs(const Scenario &base, const SweepSpec &spec, const SweepShard &shard = {});
// Metrics of one job (tracing off).
Metrics runJob(const SweepJob &job);

// The default limit on a whole sweep's expected HTTP requests (--max-attempts). A run keeps
// its own limit on its worst case (work::DefaultMaxAttempts). Why 1e9: at the 2-5 million
// attempts per second per core that bench_core measures, a few minutes on two cores.
inline constexpr qint64 DefaultMaxTotalAttempts = 1000000000;
// A pilot runs a cell with at most this many operations; its requests per operation, times
// the cell's operations, is the cell's expected work.
inline constexpr int PilotOperations = 1000;
// Cells piloted at most, spread evenly over the sweep (the others take the nearest one's rate).
inline constexpr int MaxPilotCells = 8;
// The expected work of every job: a short pilot of up to MaxPilotCells cells (base seed,
// operations cut to PilotOperations), each cell's requests per operation from its nearest
// pilot, times its operations, never above its worst case (work::estimate). Exact when every
// cell has at most PilotOperations operations and one seed. Deterministic: no clock.
SweepCost cost(const Scenario &base, const SweepSpec &spec, const QList<SweepJob> &jobs);
// "about 28 h", "about 12 min", "about 40 s", "under a second".
QString durationText(double seconds);
// The smallest number of at most two significant digits that is >= n (2.86e11 -> 2.9e11),
// written for --max-attempts.
QString countAtLeast(qint64 n);
// The refusal of a sweep over `limit`: its expected requests, runs, the time at
// `attemptsPerSecond` (this machine's measured rate, over all threads) and the flag that allows it.
QString costRefusal(const SweepCost &cost, qint64 limit, double attemptsPerSecond);
// "sweep: 120/9500 runs (1%), about 2 min left": `doneWork` and `totalWork` weigh the runs by
// their expected requests, so a sweep whose late values are heavy does not promise too soon.
QString progressText(qint64 done, qint64 total, double elapsedS, double doneWork, double totalWork);
// --shard K/N: "3/7" -> {3, 7}; false with the reason (naming the flag and the value) otherwise.
bool parseShard(const QString &text, SweepShard *shard, QString *error);
// Runs the jobs in the background folding into `into` in job order; when `cancel` is set
// the runs in flight stop and the fold keeps the unbroken prefix of finished runs (cancel the
// future too, so that no new run starts). Read `into` only after the future has finished.
QFuture<SweepFolded> startInto(const QList<SweepJob> &jobs, std::shared_ptr<SweepAccumulator> into,
                        std::shared_ptr<std::atomic_bool> cancel);
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
