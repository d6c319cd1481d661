#pragma once

#include "scenario.h"
#include "simulator.h"

#include <QList>
#include <QString>

#include <atomic>

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
// Metrics of each variant, tracing off, on all cores (blocking). A set cancel flag
// makes the remaining variants return empty metrics.
QList<Metrics> run(const QList<WhatIfVariant> &variants, const std::atomic_bool *cancel = nullptr);
} // namespace whatif

} // namespace retrylab
