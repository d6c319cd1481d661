#pragma once

#include "scenario.h"

#include <QString>

namespace retrylab {

namespace work {

// The default work budget of one run or one whole sweep, in HTTP requests (POST attempts,
// status queries and token round trips, counted at their worst case).
//
// Why 2e8: bench_core measures the engine at roughly 3.5 to 4.5 million attempts per second
// on one core of the reference machine (2 cores) for metrics-only runs with every layer
// retrying (BM_SimulatePersistent503/trace:0, BM_SimulateWorstCase/trace:0). 2e8 attempts
// is then about 45 to 60 s for a run; a sweep shares the same budget over both cores, so it
// takes about half that. Nothing the lab's lessons need comes close: the largest preset makes
// a few hundred attempts, a 1e6-order default run at most 9e6.
constexpr qint64 DefaultMaxAttempts = 200000000;

// A traced run writes about ten events of JSON per attempt, some 20 times slower than
// counting (bench_core BM_TraceToJsonl): `run --trace` keeps to a minute with a budget 20
// times smaller. A 1e6-order run with the default client (3 x 3 attempts) fits in it.
constexpr qint64 DefaultMaxTracedAttempts = 10000000;

// Worst-case work of a scenario, computed from its settings alone (no run).
struct Estimate
{
    qint64 attempts = 0; // upper bound on HTTP requests of one run (POST + GET ?ref= + POST /order-tokens)
    QString drivers;     // the fields that multiply up to it, "workload.orders 1000 x client.business.maxAttempts 3"
};

// Every submission exhausting every enabled retry layer: submissions x business
// maxAttempts x wrapper maxAttempts x (transport total + 1), plus a status query before
// each business retry and a token round trip per minted key when those are on.
Estimate estimate(const Scenario &scenario);

// "2.1e11" for big counts, plain digits below a million.
QString formatCount(qint64 count);

// The one-line refusal, e.g. "this scenario could make up to 2.1e11 HTTP attempts (...), over
// the limit of 2e8; raise it with --max-attempts N". `what` is "this scenario" or "this sweep".
QString refusal(const QString &what, const Estimate &estimate, qint64 limit);

// a * b, saturating at the largest qint64 (both non-negative).
qint64 saturatedProduct(qint64 a, qint64 b);

} // namespace work

} // namespace retrylab
