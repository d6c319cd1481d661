#pragma once

#include "scenario.h"

#include <QString>

namespace retrylab {

namespace work {

// The default work budget of one run or one whole sweep, in HTTP requests (POST attempts,
// status queries and token round trips, counted at their worst case).
//
// Why 1e8: bench_core measures the engine, metrics only, at 2.1 million attempts per second
// of CPU on the reference machine (2 cores) when every POST is processed and answered 503
// (BM_SimulatePersistent503/trace:0, the slowest shape), 2.5 million for lost responses
// (BM_SimulateGhostRequest20k/trace:0) and 5.4 million when every connection is refused
// (BM_SimulateEveryConnectionFails). A run is one thread, so 1e8 attempts take 20 to 50 s at
// worst; a sweep shares the budget over both cores and takes about half that. Measured at the
// limit (issue 23): 1e6 orders of ghost-request x 10 business x 10 wrapper attempts, every
// response lost, took 47 s of CPU and 28 MB peak (`/usr/bin/time -v retrylab run`, 2026-12-03,
// on the shared 2-core machine; 61.5 s before the engine work of that day). Nothing the
// lessons need comes close: the presets make a few hundred attempts, a 1e6-order run with
// the default client at most 9e6.
constexpr qint64 DefaultMaxAttempts = 100000000;

// `run --trace` writes about ten events of JSON per attempt, 370 bytes each: the 1e6-order ghost
// request makes 1.43 million attempts, 13.9 million events, 5.1 GB (2026-12-04). The writer is
// no longer what bounds a traced run (about 4.5 million events per second of CPU, 3.1 s user for
// that run; BM_StreamedTrace1e6 5.4 million in docs/benchmarks.md, round six): the file is, about
// 3.6 kB per attempt, written at 21-24 s wall for that run on the shared machine's disk. 1e7 keeps
// a traced run at its worst to about 36 GB and three minutes, and still lets the default client
// (3 x 3 attempts) trace a million orders at its worst (9e6).
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

// "2.1e11" for big counts, plain digits below a million: the command line's refusals and limits.
QString formatCount(qint64 count);

// A count for people in the window, in `language` (i18n::currentLanguage()): "30,000,000" in
// English; in Chinese by ten-thousands, "3000 万", "2100 亿", at most four significant digits
// ("1.235 亿"), plain digits below 10,000.
QString formatCountForPeople(qint64 count, const QString &language);

// The one-line refusal, e.g. "this scenario could make up to 2.1e11 HTTP attempts (...), over
// the limit of 2e8; raise it with --max-attempts N". `what` is "this scenario" or "this sweep".
QString refusal(const QString &what, const Estimate &estimate, qint64 limit);

// a * b, saturating at the largest qint64 (both non-negative).
qint64 saturatedProduct(qint64 a, qint64 b);

} // namespace work

} // namespace retrylab
