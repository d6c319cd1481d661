#pragma once

#include "scenario.h"
#include "simulator.h"

#include <QFuture>
#include <QList>
#include <QString>

#include <atomic>
#include <memory>

namespace retrylab {

// One alternative of the current scenario for the what-if comparison.
struct WhatIfVariant
{
    QString label;
    Scenario scenario;
};

namespace whatif {
// The scenario itself, then (same seed) the key placements none / per operation /
// per wrapper attempt (plus "per operation + atomic" when the server ignores keys),
// then each enabled retry layer switched off. Labels are unique.
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
