#pragma once

#include "scenario.h"
#include "simulator.h"

#include <QFuture>
#include <QList>
#include <QString>

#include <atomic>
#include <memory>

namespace retrylab {

// One setting that differs between two scenarios: "client.keyPlacement", "none", "perOperation".
struct ScenarioChange
{
    QString path; // as in the scenario JSON and --set
    QString from;
    QString to;
    bool operator==(const ScenarioChange &o) const { return path == o.path && from == o.from && to == o.to; }
};

// One alternative of the current scenario for the what-if comparison.
struct WhatIfVariant
{
    QString label;                 // what differs, precisely: "key per op + atomic server"
    QList<ScenarioChange> changes; // every setting that differs from the current scenario
    Scenario scenario;
};

namespace whatif {
// The settings that differ, field by field (never via JSON), in the scenario's JSON
// order. The name, title and description are not settings: they are not compared.
QList<ScenarioChange> changes(const Scenario &from, const Scenario &to);
// True when a run of either gives the same result (same settings and seed).
bool sameSettings(const Scenario &a, const Scenario &b);
// "client.keyPlacement: none -> perOperation", one line per change.
QString describe(const QList<ScenarioChange> &changes);

// The scenario itself, then (same seed) the key placements none / per operation /
// per wrapper attempt (plus "per operation + atomic server" when the server ignores
// keys), then each enabled retry layer switched off. A variant that changes nothing
// is left out. Labels are unique and say what differs.
QList<WhatIfVariant> variants(const Scenario &s);
// Metrics of one variant, tracing off; empty metrics once the cancel flag is set.
Metrics runOne(const WhatIfVariant &variant, const std::atomic_bool *cancel = nullptr);
// Metrics of each variant on all cores (blocking). Call it from a thread outside the
// global pool: waiting inside a pool thread can starve the pool.
QList<Metrics> run(const QList<WhatIfVariant> &variants, const std::atomic_bool *cancel = nullptr);
// The same in the background (GUI): results in variant order; cancel via the future or the flag.
QFuture<Metrics> start(const QList<WhatIfVariant> &variants, std::shared_ptr<std::atomic_bool> cancel = {});
} // namespace whatif

} // namespace retrylab
