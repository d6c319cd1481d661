#include "policy.h"

#include <algorithm>
#include <cmath>

namespace retrylab {

QString AttemptOutcome::describe() const
{
    switch (kind) {
    case OutcomeKind::Response:
        if (raised)
            return QStringLiteral("MaxRetryError (too many %1 error responses)").arg(status);
        return replayed ? QStringLiteral("%1 (replayed)").arg(status) : QString::number(status);
    case OutcomeKind::ConnectError:
        return QStringLiteral("connect error");
    case OutcomeKind::ReadTimeout:
        return QStringLiteral("read timeout");
    case OutcomeKind::ConnectionReset:
        return QStringLiteral("connection reset");
    case OutcomeKind::CircuitOpen:
        return QStringLiteral("circuit open");
    }
    return QString();
}

void TransportCounts::add(TransportCause cause)
{
    ++total;
    switch (cause) {
    case TransportCause::Connect:
        ++connect;
        break;
    case TransportCause::Read:
        ++read;
        break;
    case TransportCause::Status:
        ++status;
        break;
    case TransportCause::Other:
        ++other;
        break;
    case TransportCause::None:
        break;
    }
}

CircuitBreaker::CircuitBreaker(const CircuitBreakerConfig &config)
    : m_config(config)
{
    if (config.mode == BreakerMode::FailureRate)
        m_window.assign(size_t(std::max(1, config.window)), 0);
}

bool CircuitBreaker::admit(qint64 nowUs, BreakerChange *change)
{
    if (m_state == BreakerState::Closed)
        return true;
    if (m_state == BreakerState::Open) {
        // Polly's PermitHalfOpenCircuitTest: `now >= blockedUntil`. Nothing but time gets here.
        if (nowUs < m_openUntil)
            return false;
        m_state = BreakerState::HalfOpen;
        m_permits = m_config.permittedHalfOpenCalls();
        m_probeOutcomes = 0;
        m_probeFailures = 0;
        if (change)
            *change = BreakerChange{true, BreakerState::HalfOpen, m_openUntil};
    }
    if (m_permits <= 0)
        return false; // the permitted calls are out: the rest wait for their outcomes
    --m_permits;
    return true;
}

BreakerChange CircuitBreaker::record(qint64 nowUs, bool failure)
{
    switch (m_state) {
    case BreakerState::Open:
        // Sent before it opened: Polly "we take no action", resilience4j OpenState keeps it out
        // of any decision. It neither closes the breaker nor extends its open time.
        return {};
    case BreakerState::HalfOpen: {
        ++m_probeOutcomes;
        m_probeFailures += failure ? 1 : 0;
        const int permitted = m_config.permittedHalfOpenCalls();
        if (m_config.mode == BreakerMode::Consecutive) {
            if (failure)
                return open(nowUs); // Polly: a failure while half-open breaks again
            return m_probeOutcomes >= permitted ? close() : BreakerChange();
        }
        // resilience4j HalfOpenState: decides once the permitted calls' outcomes are in.
        if (m_probeOutcomes < permitted)
            return {};
        if (qint64(m_probeFailures) * 100 >= qint64(m_config.failureRatePercent) * permitted)
            return open(nowUs);
        return close();
    }
    case BreakerState::Closed:
        break;
    }
    if (m_config.mode == BreakerMode::Consecutive) {
        m_consecutive = failure ? m_consecutive + 1 : 0;
        return m_consecutive >= m_config.failureThreshold ? open(nowUs) : BreakerChange();
    }
    // The last `window` outcomes; the rate counts only once the window is full (resilience4j's
    // minimumNumberOfCalls equal to slidingWindowSize).
    const int size = int(m_window.size());
    if (m_filled == size)
        m_failures -= m_window[size_t(m_next)];
    else
        m_filled++;
    m_window[size_t(m_next)] = failure ? 1 : 0;
    m_failures += failure ? 1 : 0;
    m_next = (m_next + 1) % size;
    if (m_filled == size && qint64(m_failures) * 100 >= qint64(m_config.failureRatePercent) * size)
        return open(nowUs);
    return {};
}

BreakerChange CircuitBreaker::open(qint64 nowUs)
{
    m_state = BreakerState::Open;
    m_openUntil = nowUs + qint64(m_config.openMs) * 1000;
    m_permits = 0;
    // A new window after the open time: resilience4j builds new metrics for each state.
    clearWindow();
    return {true, BreakerState::Open, m_openUntil};
}

BreakerChange CircuitBreaker::close()
{
    m_state = BreakerState::Closed;
    m_openUntil = -1;
    clearWindow();
    return {true, BreakerState::Closed, -1};
}

void CircuitBreaker::clearWindow()
{
    std::fill(m_window.begin(), m_window.end(), 0);
    m_filled = 0;
    m_next = 0;
    m_failures = 0;
    m_consecutive = 0;
}

RetryBudget::RetryBudget(const RetryBudgetConfig &config)
    : m_config(config)
    , m_tokens(config.startTokens())
{
    if (config.kind == BudgetKind::GrpcThrottling) {
        // A6: "Decimal places beyond 3 are ignored": thousandths, as grpc-java's ThrottlingPolicy keeps them.
        m_tokens = std::floor(m_tokens * 1000.0);
    }
    if (config.kind == BudgetKind::Percent && config.percentCanRetry > 0) {
        // finagle RetryBudget.apply: deposit ScaleFactor (1000), withdraw ScaleFactor / percentCanRetry.
        m_deposit = 1000;
        m_withdrawal = qint64(100000.0 / config.percentCanRetry);
    }
    if (config.kind == BudgetKind::Percent)
        m_reserve = qint64(config.minRetriesPerSec) * config.ttlS * m_withdrawal;
}

void RetryBudget::onRequest(qint64 nowUs)
{
    if (m_config.kind != BudgetKind::Percent || m_deposit == 0)
        return;
    expire(nowUs);
    m_entries.emplace_back(nowUs, m_deposit);
    m_sum += m_deposit;
}

void RetryBudget::onOutcome(bool ok, bool failure)
{
    switch (m_config.kind) {
    case BudgetKind::TokenPerRetry:
        if (ok)
            m_tokens = std::min(m_config.maxTokens, m_tokens + m_config.ratio);
        break;
    case BudgetKind::GrpcThrottling: {
        const double max = std::floor(m_config.maxTokens * 1000.0);
        if (failure)
            m_tokens = std::max(0.0, m_tokens - 1000.0);
        else if (ok)
            m_tokens = std::min(max, m_tokens + std::floor(m_config.ratio * 1000.0));
        break;
    }
    case BudgetKind::Percent:
        break;
    }
}

bool RetryBudget::tryRetry(qint64 nowUs)
{
    switch (m_config.kind) {
    case BudgetKind::TokenPerRetry:
        if (m_tokens < 1.0)
            return false;
        m_tokens -= 1.0;
        return true;
    case BudgetKind::GrpcThrottling:
        // A6: "If token_count is less than or equal to the threshold (maxTokens / 2), RPCs will not
        // be retried"; a retry itself costs nothing.
        return m_tokens > std::floor(m_config.maxTokens * 1000.0) / 2;
    case BudgetKind::Percent:
        expire(nowUs);
        if (m_reserve + m_sum < m_withdrawal)
            return false;
        m_entries.emplace_back(nowUs, -m_withdrawal);
        m_sum -= m_withdrawal;
        return true;
    }
    return false;
}

double RetryBudget::balance(qint64 nowUs)
{
    switch (m_config.kind) {
    case BudgetKind::TokenPerRetry:
        return m_tokens;
    case BudgetKind::GrpcThrottling:
        return m_tokens / 1000.0;
    case BudgetKind::Percent:
        expire(nowUs);
        return double((m_reserve + m_sum) / m_withdrawal);
    }
    return 0;
}

void RetryBudget::expire(qint64 nowUs)
{
    // Deposits and withdrawals count for ttlS (Finagle's leaky TokenBucket over a WindowedAdder,
    // which expires them in ten slices of the ttl: here exactly at ttlS).
    const qint64 ttlUs = qint64(m_config.ttlS) * 1000000;
    while (!m_entries.empty() && nowUs - m_entries.front().first >= ttlUs) {
        m_sum -= m_entries.front().second;
        m_entries.pop_front();
    }
}

namespace policy {

namespace {
bool isRetryAfterStatus(int status)
{
    return status == 413 || status == 429 || status == 503;
}
} // namespace

namespace {
// urllib3 is_exhausted after increment: a limited counter below zero.
bool exhausted(int limit, int doneBefore)
{
    return limit != TransportConfig::Unlimited && doneBefore + 1 > limit;
}

const char *causeName(TransportCause cause)
{
    switch (cause) {
    case TransportCause::Connect:
        return "connect";
    case TransportCause::Read:
        return "read";
    case TransportCause::Status:
        return "status";
    case TransportCause::Other:
        return "other";
    case TransportCause::None:
        break;
    }
    return "total";
}
} // namespace

bool methodAllowed(const TransportConfig &config, const QString &method)
{
    // allowed_methods=None (an empty list here) retries every method.
    return config.allowedMethods.isEmpty() || config.allowedMethods.contains(method, Qt::CaseInsensitive);
}

TransportVerdict transportVerdict(const TransportConfig &config, bool methodAllowed, const AttemptOutcome &outcome,
                                  const TransportCounts &done, double jitterU)
{
    TransportVerdict v;
    if (!config.enabled) {
        v.why = TraceCause::TransportOff;
        return v;
    }
    if (outcome.ok())
        return v;
    const bool hasRetryAfter = outcome.retryAfterS >= 0;
    int doneOfCause = 0;
    int limitOfCause = TransportConfig::Unlimited;
    switch (outcome.kind) {
    case OutcomeKind::ConnectError:
        v.retry = true; // nothing was sent: always safe
        v.cause = TransportCause::Connect;
        doneOfCause = done.connect;
        limitOfCause = config.connect;
        break;
    case OutcomeKind::ReadTimeout:
    case OutcomeKind::ConnectionReset:
        v.retry = methodAllowed;
        v.cause = TransportCause::Read;
        doneOfCause = done.read;
        limitOfCause = config.read;
        if (!methodAllowed)
            v.why = TraceCause::ReadErrorNotAllowed;
        break;
    case OutcomeKind::CircuitOpen:
        v.why = TraceCause::BreakerOpen;
        break;
    case OutcomeKind::Response: {
        v.cause = TransportCause::Status;
        doneOfCause = done.status;
        limitOfCause = config.status;
        // is_retry: `self.total and respect_retry_after_header and has_retry_after and status in
        // RETRY_AFTER_STATUS_CODES`; total is the remaining count, so 0 left or None disables it.
        const bool totalLeft = config.total != TransportConfig::Unlimited && config.total - done.total > 0;
        if (!methodAllowed)
            v.why = TraceCause::MethodNotAllowed;
        else if (config.statusForcelist.contains(outcome.status))
            v.retry = true;
        else if (totalLeft && config.respectRetryAfter && hasRetryAfter && isRetryAfterStatus(outcome.status))
            v.retry = true;
        else
            v.why = TraceCause::StatusNotRetryable;
        break;
    }
    }
    if (!v.retry)
        return v;
    if (exhausted(config.total, done.total) || exhausted(limitOfCause, doneOfCause)) {
        const bool byTotal = exhausted(config.total, done.total);
        v.retry = false;
        v.statusExhausted = outcome.kind == OutcomeKind::Response;
        v.why = TraceCause::RetriesExhausted;
        v.limit = byTotal ? config.total : limitOfCause;
        v.counter = byTotal ? 0 : int(v.cause);
        return v;
    }
    // sleep_for_retry: `if retry_after:` so 0 falls back to the backoff.
    if (outcome.kind == OutcomeKind::Response && config.respectRetryAfter && outcome.retryAfterS > 0) {
        const int seconds = std::min(outcome.retryAfterS, config.retryAfterMaxS);
        v.delayUs = qint64(seconds) * 1000000;
        v.retryAfter = true;
        return v;
    }
    // History length after this error; the first retry is immediate (urllib3 2.x).
    const int consecutiveErrors = done.total + 1;
    double seconds = 0;
    if (consecutiveErrors > 1) {
        seconds = config.backoffFactor * std::pow(2.0, consecutiveErrors - 1);
        if (config.backoffJitterS != 0)
            seconds += jitterU * config.backoffJitterS;
    }
    seconds = std::max(0.0, std::min(config.backoffMaxS, seconds));
    v.delayUs = qint64(std::llround(seconds * 1e6));
    return v;
}

QString transportReason(const TransportVerdict &v, const QString &method, const AttemptOutcome &outcome)
{
    if (v.retry) {
        if (!v.retryAfter)
            return QStringLiteral("backoff");
        const qint64 seconds = v.delayUs / 1000000;
        return seconds < outcome.retryAfterS
            ? QStringLiteral("Retry-After %1 s, capped at %2 s").arg(outcome.retryAfterS).arg(seconds)
            : QStringLiteral("Retry-After %1 s").arg(seconds);
    }
    switch (v.why) {
    case TraceCause::TransportOff:
        return QStringLiteral("transport retries off");
    case TraceCause::ReadErrorNotAllowed:
        return QStringLiteral("read error on %1, which is not in allowed_methods").arg(method);
    case TraceCause::BreakerOpen:
        return QStringLiteral("circuit open");
    case TraceCause::MethodNotAllowed:
        return QStringLiteral("%1 is not in allowed_methods").arg(method);
    case TraceCause::StatusNotRetryable:
        return QStringLiteral("status %1 is not retryable").arg(outcome.status);
    case TraceCause::RetriesExhausted:
        return QStringLiteral("%1=%2 retries exhausted")
            .arg(v.counter == 0 ? QStringLiteral("total") : QLatin1String(causeName(v.cause)))
            .arg(v.limit);
    default:
        return QStringLiteral("success");
    }
}

TransportVerdict transport(const TransportConfig &config, const QString &method, const AttemptOutcome &outcome,
                           const TransportCounts &done, double jitterU)
{
    TransportVerdict v = transportVerdict(config, methodAllowed(config, method), outcome, done, jitterU);
    v.reason = transportReason(v, method, outcome);
    return v;
}

TransportVerdict transport(const TransportConfig &config, const QString &method, const AttemptOutcome &outcome,
                           int retriesDone)
{
    TransportCounts done;
    done.total = retriesDone;
    switch (outcome.kind) {
    case OutcomeKind::ConnectError:
        done.connect = retriesDone;
        break;
    case OutcomeKind::ReadTimeout:
    case OutcomeKind::ConnectionReset:
        done.read = retriesDone;
        break;
    case OutcomeKind::Response:
        done.status = retriesDone;
        break;
    case OutcomeKind::CircuitOpen:
        break;
    }
    return transport(config, method, outcome, done, 0);
}

double parseRetryAfter(const QString &header, const QDateTime &now, int maxS)
{
    const QString text = header.trimmed();
    if (text.isEmpty())
        return -1;
    double seconds = 0;
    bool allDigits = true;
    for (const QChar c : text)
        allDigits = allDigits && c.isDigit() && c.unicode() < 128;
    if (allDigits) {
        bool ok = false;
        seconds = text.toDouble(&ok);
        if (!ok)
            return -1;
    } else {
        // IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") and other RFC 2822 forms.
        // Qt 6.4 reads numeric zones only: IMF-fixdate's "GMT" is "+0000".
        QString normalized = text;
        if (normalized.endsWith(QLatin1String(" GMT"), Qt::CaseInsensitive)
            || normalized.endsWith(QLatin1String(" UTC"), Qt::CaseInsensitive))
            normalized = normalized.left(normalized.size() - 3) + QLatin1String("+0000");
        const QDateTime date = QDateTime::fromString(normalized, Qt::RFC2822Date);
        if (!date.isValid())
            return -1;
        seconds = double(now.msecsTo(date)) / 1000.0;
    }
    seconds = std::max(0.0, seconds);
    return std::min(seconds, double(maxS));
}

bool wrapperRetries(WrapperRetryOn on, const AttemptOutcome &outcome)
{
    if (outcome.ok())
        return false;
    if (on == WrapperRetryOn::Any)
        return true;
    return businessRetries(outcome);
}

bool businessRetries(const AttemptOutcome &outcome)
{
    switch (outcome.kind) {
    case OutcomeKind::ConnectError:
    case OutcomeKind::ReadTimeout:
    case OutcomeKind::ConnectionReset:
    case OutcomeKind::CircuitOpen:
        return true;
    case OutcomeKind::Response:
        return outcome.status >= 500 || outcome.status == 429 || outcome.status == 409;
    }
    return false;
}

bool breakerRecords(const AttemptOutcome &outcome)
{
    return outcome.kind != OutcomeKind::CircuitOpen;
}

bool breakerFailure(const AttemptOutcome &outcome)
{
    switch (outcome.kind) {
    case OutcomeKind::ConnectError:
    case OutcomeKind::ReadTimeout:
    case OutcomeKind::ConnectionReset:
        return true;
    case OutcomeKind::CircuitOpen:
        return false;
    case OutcomeKind::Response:
        return outcome.status >= 500 || outcome.status == 429;
    }
    return false;
}

// std::llround of v >= 0 (halves away from zero) without its library call, once per retry: below
// 2^52 the fraction v - trunc(v) is exact, so the comparison with one half decides as llround does.
static qint64 roundUs(double v)
{
    if (!(v < 4503599627370496.0)) // 2^52 and above (every double an integer), or NaN
        return qint64(std::llround(v));
    const qint64 whole = qint64(v);
    return v - double(whole) >= 0.5 ? whole + 1 : whole;
}

qint64 backoffUs(const BackoffConfig &config, int n, qint64 prevUs, double u)
{
    const double initial = config.initialMs * 1000.0;
    const double cap = config.maxMs * 1000.0;
    double v = initial;
    switch (config.kind) {
    case BackoffKind::Constant:
        break;
    case BackoffKind::Linear:
        v = initial * n;
        break;
    case BackoffKind::Exponential:
    case BackoffKind::AwsExponential: {
        const int e = config.kind == BackoffKind::Exponential ? std::max(0, n - 1) : std::max(1, n);
        // x 2^e is exact either way; ldexp spares a retry-until-success loop a pow() per retry, and
        // a product with 2^e (exact too) the library call for the exponents a run meets.
        if (config.multiplier != 2.0)
            v = initial * std::pow(config.multiplier, e);
        else if (e < 63)
            v = initial * double(quint64(1) << e);
        else
            v = std::ldexp(initial, std::min(e, 2000));
        break;
    }
    }
    v = std::min(v, cap);
    // tenacity's min: the floor of the wait; full jitter draws from [min, wait] (wait_random_exponential).
    const double floor = config.minMs * 1000.0;
    switch (config.jitter) {
    case Jitter::None:
        break;
    case Jitter::Full:
        v = std::max(floor, v);
        v = floor + u * (v - floor);
        break;
    case Jitter::Equal:
        v = v / 2 + u * (v / 2);
        break;
    case Jitter::Proportional:
        v = v * (1.0 + (2.0 * u - 1.0) * config.jitterPercent / 100.0);
        break;
    case Jitter::AwsDecorrelated: {
        const double lo = initial;
        const double hi = std::max(initial, 3.0 * double(prevUs > 0 ? prevUs : qint64(initial)));
        v = std::min(cap, lo + u * (hi - lo));
        break;
    }
    }
    return roundUs(std::max({0.0, floor, v}));
}

} // namespace policy
} // namespace retrylab
