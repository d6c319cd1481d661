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

TransportVerdict transport(const TransportConfig &config, const QString &method, const AttemptOutcome &outcome,
                           const TransportCounts &done, double jitterU)
{
    TransportVerdict v;
    if (!config.enabled) {
        v.reason = QStringLiteral("transport retries off");
        v.why = TraceCause::TransportOff;
        return v;
    }
    if (outcome.ok()) {
        v.reason = QStringLiteral("success");
        return v;
    }
    // allowed_methods=None (an empty list here) retries every method.
    const bool methodAllowed =
        config.allowedMethods.isEmpty() || config.allowedMethods.contains(method, Qt::CaseInsensitive);
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
        if (!methodAllowed) {
            v.reason = QStringLiteral("read error on %1, which is not in allowed_methods").arg(method);
            v.why = TraceCause::ReadErrorNotAllowed;
        }
        break;
    case OutcomeKind::CircuitOpen:
        v.reason = QStringLiteral("circuit open");
        v.why = TraceCause::BreakerOpen;
        break;
    case OutcomeKind::Response: {
        v.cause = TransportCause::Status;
        doneOfCause = done.status;
        limitOfCause = config.status;
        // is_retry: `self.total and respect_retry_after_header and has_retry_after and status in
        // RETRY_AFTER_STATUS_CODES`; total is the remaining count, so 0 left or None disables it.
        const bool totalLeft = config.total != TransportConfig::Unlimited && config.total - done.total > 0;
        if (!methodAllowed) {
            v.reason = QStringLiteral("%1 is not in allowed_methods").arg(method);
            v.why = TraceCause::MethodNotAllowed;
        } else if (config.statusForcelist.contains(outcome.status)) {
            v.retry = true;
        } else if (totalLeft && config.respectRetryAfter && hasRetryAfter && isRetryAfterStatus(outcome.status)) {
            v.retry = true;
        } else {
            v.reason = QStringLiteral("status %1 is not retryable").arg(outcome.status);
            v.why = TraceCause::StatusNotRetryable;
        }
        break;
    }
    }
    if (!v.retry)
        return v;
    if (exhausted(config.total, done.total) || exhausted(limitOfCause, doneOfCause)) {
        const bool byTotal = exhausted(config.total, done.total);
        const int limit = byTotal ? config.total : limitOfCause;
        v.retry = false;
        v.statusExhausted = outcome.kind == OutcomeKind::Response;
        v.why = TraceCause::RetriesExhausted;
        v.limit = limit;
        v.counter = byTotal ? 0 : int(v.cause);
        v.reason = QStringLiteral("%1=%2 retries exhausted")
                       .arg(byTotal ? QStringLiteral("total") : QLatin1String(causeName(v.cause)))
                       .arg(limit);
        return v;
    }
    // sleep_for_retry: `if retry_after:` so 0 falls back to the backoff.
    if (outcome.kind == OutcomeKind::Response && config.respectRetryAfter && outcome.retryAfterS > 0) {
        const int seconds = std::min(outcome.retryAfterS, config.retryAfterMaxS);
        v.delayUs = qint64(seconds) * 1000000;
        v.retryAfter = true;
        v.reason = seconds < outcome.retryAfterS
            ? QStringLiteral("Retry-After %1 s, capped at %2 s").arg(outcome.retryAfterS).arg(seconds)
            : QStringLiteral("Retry-After %1 s").arg(seconds);
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
    v.reason = QStringLiteral("backoff");
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
        // x 2^e is exact either way; ldexp spares a retry-until-success loop a pow() per retry.
        v = config.multiplier == 2.0 ? std::ldexp(initial, std::min(e, 2000)) : initial * std::pow(config.multiplier, e);
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
    case Jitter::Decorrelated: {
        const double lo = initial;
        const double hi = std::max(initial, 3.0 * double(prevUs > 0 ? prevUs : qint64(initial)));
        v = std::min(cap, lo + u * (hi - lo));
        break;
    }
    }
    return qint64(std::llround(std::max({0.0, floor, v})));
}

} // namespace policy
} // namespace retrylab
