#pragma once

#include "scenario.h"
#include "simulator.h"
#include "whatif.h"

#include <QFuture>
#include <QList>
#include <QPointF>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace retrylab {

// One metric of the difference summary: A, B, B - A and the relative change.
struct CompareRow
{
    enum class Unit { Count, Milliseconds, PerSecond };
    QString key;   // machine name, as in JSON and CSV output: "records", "latencyP50Ms"
    QString label; // for people (translated): "Records on the server"
    Unit unit = Unit::Count;
    // Which way is better for the lesson: -1 lower, +1 higher, 0 neither (records: fewer can
    // mean fewer duplicates or fewer orders stored).
    int better = 0;
    double a = 0; // a Count holds an exact integer (qint64 fits a double up to 2^53)
    double b = 0;

    bool isInteger() const { return unit == Unit::Count; }
    double difference() const { return b - a; }
    // (B - A) / |A|: 0 when both are 0, none when A is 0 and B is not (no division by zero).
    std::optional<double> relative() const;
    // B is better than A (+1), worse (-1), or the same or neither (0), by `better`.
    int verdict() const;
    bool operator==(const CompareRow &o) const;
};

// Both runs' numbers side by side.
struct CompareSummary
{
    Metrics a;
    Metrics b;
    QList<CompareRow> rows;
    // True when every row has B == A.
    bool isZero() const;
    const CompareRow *row(const QString &key) const;
};

// Both runs of a comparison with their summary. Tracing on fills RunResult::trace, records, ops
// (the timelines); off keeps the metrics only (the command line).
struct CompareResult
{
    RunResult a;
    RunResult b;
    CompareSummary summary;
    bool cancelled = false;
};

namespace compare {

// The rows, in a stable order: records, duplicates, orphans, attempts (POST), successes,
// failures, latency p50, latency p99 (of the operations, ms) and goodput (successful orders
// per second of the run).
CompareSummary summarize(const Metrics &a, const Metrics &b);

// What B can be: the what-if variants (key placements, each retry layer off), then, for a lesson
// about load or an OCC row (story::isAboutLoad), the fixes of the AWS study and the metastable
// lesson: full jitter on the business loop's backoff (when it has none) and a global retry budget
// (when there is none).
QList<WhatIfVariant> variants(const Scenario &s);

// The most instructive single toggle of `s`, as one of variants(s). About load: full jitter, else
// the global budget. Otherwise, while the client sends no key, a key in the wrong place or the
// server ignores keys, the fix (a key per operation, plus an atomic server when it ignored keys);
// otherwise the first variant that changes something (which takes the key away, or a retry layer).
// A scenario no variant changes gets the current settings back (label "current settings").
WhatIfVariant defaultVariant(const Scenario &s);

// "client.keyPlacement: none → perOperation", changes joined with "; ". Empty: no change.
QString toggleLabel(const QList<ScenarioChange> &changes);

// B as the comparison runs it: A's seed, whatever B said.
Scenario withSeedOf(const Scenario &a, Scenario b);

// Runs A and B (B with A's seed) one after the other on this thread; the summary once both
// ran. With the cancel flag set, returns early with cancelled = true.
CompareResult run(const Scenario &a, const Scenario &b, bool trace = true, const std::atomic_bool *cancel = nullptr);

// The same in the background (one pool thread): progress 0..2 runs done; cancel via the future
// (checked between the runs) or the flag (checked inside them too).
QFuture<CompareResult> start(const Scenario &a, const Scenario &b, bool trace = true,
                             std::shared_ptr<std::atomic_bool> cancel = {});

// People's texts. A Count with digits only; ms with one decimal; per second with two.
QString formatValue(const CompareRow &row, double value);
// "+12", "−3.5 ms", "0" (a true minus sign).
QString formatDifference(const CompareRow &row);
// "+60%", "−100%", "−0.5%" (one decimal below 10%), "0%"; "—" when A is 0 and B is not.
QString formatRelative(const CompareRow &row);

// Cumulative counts over simulated seconds, as steps (a point before and after each jump):
// records written (ghosts included) and, of them, duplicates. From RunResult::records.
struct Curves
{
    QList<QPointF> records;
    QList<QPointF> duplicates;
    double end = 0; // seconds: the last record or the end of the last operation, at least 1
};
Curves curves(const RunResult &result);

} // namespace compare

} // namespace retrylab
