#pragma once

#include "scenario.h"

#include <QString>

namespace retrylab {

// What the client code sees when one HTTP attempt ends.
enum class OutcomeKind { Response, ConnectError, ReadTimeout, ConnectionReset, CircuitOpen };

struct AttemptOutcome
{
    OutcomeKind kind = OutcomeKind::Response;
    int status = 0;
    int retryAfterS = -1; // Retry-After header, -1 when absent
    bool replayed = false;

    bool ok() const { return kind == OutcomeKind::Response && status >= 200 && status < 300; }
    QString describe() const;
};

// The retry decision of urllib3's Retry for one failed attempt.
struct TransportVerdict
{
    bool retry = false;
    qint64 delayUs = 0;
    QString reason;
};

// Pure decision functions shared by the simulated and the live client.
namespace policy {

// urllib3 2.x Retry.increment/is_retry/get_backoff_time. `retriesDone` is the
// number of retries already made for this request (0 after the first attempt).
// Connect errors are always retried; read errors (timeouts, resets) and
// status_forcelist statuses only for allowed_methods; a Retry-After on
// 413/429/503 makes the status retryable and sets the wait; otherwise the
// wait is 0 for the first retry and backoff_factor * 2^(n-1) after n errors,
// capped at backoff_max.
TransportVerdict transport(const TransportConfig &config, const QString &method,
                           const AttemptOutcome &outcome, int retriesDone);

// tenacity-style wrapper: retry on any exception, or on transient ones only.
bool wrapperRetries(WrapperRetryOn on, const AttemptOutcome &outcome);

// The hand-written business loop: timeouts, resets, connect errors, 5xx, 429 and
// 409 (in progress); never 400/422 or other 4xx.
bool businessRetries(const AttemptOutcome &outcome);

// Whether an outcome counts as a failure for the circuit breaker.
bool breakerFailure(const AttemptOutcome &outcome);

// Wait before retry n (n >= 1), in microseconds. `prevUs` is the previous wait
// (decorrelated jitter), `u` a uniform draw in [0, 1).
qint64 backoffUs(const BackoffConfig &config, int n, qint64 prevUs, double u);

} // namespace policy
} // namespace retrylab
