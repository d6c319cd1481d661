#pragma once

#include "scenario.h"
#include "trace.h"

#include <QDateTime>
#include <QString>

#include <deque>
#include <vector>

namespace retrylab {

// What the client code sees when one HTTP attempt ends.
enum class OutcomeKind { Response, ConnectError, ReadTimeout, ConnectionReset, CircuitOpen };

struct AttemptOutcome
{
    OutcomeKind kind = OutcomeKind::Response;
    int status = 0;
    int retryAfterS = -1; // Retry-After header, -1 when absent
    bool replayed = false;
    // urllib3 raised MaxRetryError for an exhausted status_forcelist status (raise_on_status):
    // the layer above sees an exception, not the response, so no Retry-After reaches it.
    bool raised = false;

    bool ok() const { return kind == OutcomeKind::Response && status >= 200 && status < 300; }
    QString describe() const;
};

// Which urllib3 Retry counter an error decrements (besides total).
enum class TransportCause { None, Connect, Read, Status, Other };

// Retries already made in one run of the transport loop, per urllib3 counter.
struct TransportCounts
{
    int total = 0;
    int connect = 0;
    int read = 0;
    int status = 0;
    int other = 0;
    void add(TransportCause cause);
};

// The retry decision of urllib3's Retry for one failed attempt.
struct TransportVerdict
{
    bool retry = false;
    qint64 delayUs = 0;
    QString reason;
    TraceCause why = TraceCause::None; // the reason as a value (trace.h); words come from it at the edge
    int limit = 0;                     // RetriesExhausted: the limit,
    int counter = 0;                   // and its counter: 0 total, else int(TransportCause)
    TransportCause cause = TransportCause::None;
    bool retryAfter = false; // the wait is the server's Retry-After, not the backoff
    // A status_forcelist (or Retry-After) status that was retryable but ran out of retries:
    // urllib3 raises MaxRetryError when raise_on_status is true, else returns the response.
    bool statusExhausted = false;
};

// The circuit breaker's state, as Polly's CircuitState and resilience4j's State name them.
enum class BreakerState { Closed, Open, HalfOpen };

// A change of a breaker's state, for the trace (changed false: none).
struct BreakerChange
{
    bool changed = false;
    BreakerState to = BreakerState::Closed;
    qint64 untilUs = -1; // Open: when time will let the next call probe
};

// A circuit breaker as Polly (Polly.Core CircuitStateController) and resilience4j
// (CircuitBreakerStateMachine) run it. Closed: counts failures (consecutive, or a failure rate over a
// full window of the last `window` outcomes); opening empties the window. Open: refuses every call;
// outcomes of calls sent before it opened neither close it nor extend it ("only time passing
// governs transitioning from Open to HalfOpen"). Once openMs has passed, the next call asking moves
// it to half-open, which admits permittedHalfOpenCalls() calls and refuses the rest; a failure while
// half-open re-opens it at once in consecutive mode (Polly), and in failure-rate mode the permitted
// calls' outcomes decide once all are in (resilience4j HalfOpenState); enough successes close it.
class CircuitBreaker
{
public:
    CircuitBreaker() = default;
    explicit CircuitBreaker(const CircuitBreakerConfig &config);

    // May a call go out at `nowUs`? Sets `change` when time moved it Open -> HalfOpen.
    bool admit(qint64 nowUs, BreakerChange *change);
    // An outcome arriving at `nowUs` (policy::breakerRecords said it counts).
    BreakerChange record(qint64 nowUs, bool failure);

    BreakerState state() const { return m_state; }
    qint64 openUntil() const { return m_openUntil; }
    int permitsLeft() const { return m_permits; }
    int windowFilled() const { return m_filled; }

private:
    BreakerChange open(qint64 nowUs);
    BreakerChange close();
    void clearWindow();

    CircuitBreakerConfig m_config;
    BreakerState m_state = BreakerState::Closed;
    qint64 m_openUntil = -1;
    int m_consecutive = 0;
    std::vector<char> m_window; // failureRate: the last outcomes, a ring (1 = failure)
    int m_filled = 0;
    int m_next = 0;
    int m_failures = 0;
    int m_permits = 0;          // half-open: calls it may still admit
    int m_probeOutcomes = 0;    // half-open: outcomes recorded, and how many failed
    int m_probeFailures = 0;
};

// A retry budget of one of the designs of BudgetKind (scenario.h), each by its peer's rule.
class RetryBudget
{
public:
    RetryBudget() = default;
    explicit RetryBudget(const RetryBudgetConfig &config);

    // A first try went out (Percent: Finagle's deposit()).
    void onRequest(qint64 nowUs);
    // An attempt ended: ok (2xx) or a failure as the breaker counts it (5xx, 429, network errors).
    void onOutcome(bool ok, bool failure);
    // May a retry go at `nowUs`? Charges it where the design charges retries.
    bool tryRetry(qint64 nowUs);
    // Tokens (TokenPerRetry, GrpcThrottling) or whole retries left (Percent) at `nowUs`.
    double balance(qint64 nowUs);

private:
    void expire(qint64 nowUs);

    RetryBudgetConfig m_config;
    double m_tokens = 0;
    // Percent, in Finagle's units: a request deposits 1000, a retry withdraws 1000 / percent.
    qint64 m_deposit = 0;
    qint64 m_withdrawal = 1;
    qint64 m_reserve = 0;
    qint64 m_sum = 0;
    std::deque<std::pair<qint64, qint64>> m_entries; // (time, amount) within the last ttlS
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
// `done` counts the retries of this request so far, per counter; `jitterU` is a uniform
// draw in [0, 1) for backoff_jitter. A Retry-After of 0 is present (it makes 413/429/503
// retryable, as urllib3's is_retry tests the header) but waits the backoff, as
// sleep_for_retry tests `if retry_after:`; a Retry-After wait is capped at retryAfterMaxS.
// An exhausted counter (total or the error's own) ends the loop.
TransportVerdict transport(const TransportConfig &config, const QString &method, const AttemptOutcome &outcome,
                           const TransportCounts &done, double jitterU = 0);
// The same decision without its words (TransportVerdict::reason stays empty): the engine's,
// which words a verdict only at the edge (TraceEvent::detail()). `methodAllowed` is
// methodAllowed(config, method), asked once per run rather than per attempt.
TransportVerdict transportVerdict(const TransportConfig &config, bool methodAllowed, const AttemptOutcome &outcome,
                                  const TransportCounts &done, double jitterU = 0);
bool methodAllowed(const TransportConfig &config, const QString &method);
// A verdict's reason, as transport() words it.
QString transportReason(const TransportVerdict &v, const QString &method, const AttemptOutcome &outcome);
// The same for a run of `retriesDone` retries all caused like this outcome.
TransportVerdict transport(const TransportConfig &config, const QString &method,
                           const AttemptOutcome &outcome, int retriesDone);

// urllib3 Retry.parse_retry_after: delta-seconds ("120") or an HTTP-date relative to `now`,
// clamped to [0, maxS]. Returns -1 when the header is absent, negative or unparsable (urllib3
// raises InvalidHeader there; RetryLab treats it as absent and falls back to the backoff).
double parseRetryAfter(const QString &header, const QDateTime &now, int maxS);

// tenacity-style wrapper: retry on any exception, or on transient ones only.
bool wrapperRetries(WrapperRetryOn on, const AttemptOutcome &outcome);

// The hand-written business loop: timeouts, resets, connect errors, 5xx, 429 and
// 409 (in progress); never 400/422 or other 4xx.
bool businessRetries(const AttemptOutcome &outcome);

// Whether the circuit breaker records an outcome at all: a rejection by the open breaker
// itself is not an answer from the server, so it neither counts as a failure nor closes it.
bool breakerRecords(const AttemptOutcome &outcome);
// Whether a recorded outcome counts as a failure for the circuit breaker: the server or the
// network is in trouble (5xx, 429, timeout, reset, connect error). Any other answer (2xx, a
// replay, 400, 404, 409, 422) shows a healthy server and resets the consecutive failures.
bool breakerFailure(const AttemptOutcome &outcome);

// Wait before retry n (n >= 1), in microseconds. `prevUs` is the previous wait
// (decorrelated jitter), `u` a uniform draw in [0, 1).
qint64 backoffUs(const BackoffConfig &config, int n, qint64 prevUs, double u);

} // namespace policy
} // namespace retrylab
