#include "policy.h"

#include <algorithm>
#include <cmath>

namespace retrylab {

QString AttemptOutcome::describe() const
{
    switch (kind) {
    case OutcomeKind::Response:
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

namespace policy {

namespace {
bool isRetryAfterStatus(int status)
{
    return status == 413 || status == 429 || status == 503;
}
} // namespace

TransportVerdict transport(const TransportConfig &config, const QString &method,
                           const AttemptOutcome &outcome, int retriesDone)
{
    TransportVerdict v;
    if (!config.enabled) {
        v.reason = QStringLiteral("transport retries off");
        return v;
    }
    if (outcome.ok()) {
        v.reason = QStringLiteral("success");
        return v;
    }
    const bool methodAllowed = config.allowedMethods.contains(method, Qt::CaseInsensitive);
    switch (outcome.kind) {
    case OutcomeKind::ConnectError:
        v.retry = true; // nothing was sent: always safe
        break;
    case OutcomeKind::ReadTimeout:
    case OutcomeKind::ConnectionReset:
        v.retry = methodAllowed;
        if (!methodAllowed)
            v.reason = QStringLiteral("read error on %1, which is not in allowed_methods").arg(method);
        break;
    case OutcomeKind::CircuitOpen:
        v.reason = QStringLiteral("circuit open");
        break;
    case OutcomeKind::Response:
        if (!methodAllowed) {
            v.reason = QStringLiteral("%1 is not in allowed_methods").arg(method);
        } else if (config.statusForcelist.contains(outcome.status)) {
            v.retry = true;
        } else if (config.respectRetryAfter && outcome.retryAfterS >= 0 && isRetryAfterStatus(outcome.status)) {
            v.retry = true;
        } else {
            v.reason = QStringLiteral("status %1 is not retryable").arg(outcome.status);
        }
        break;
    }
    if (!v.retry)
        return v;
    if (retriesDone >= config.total) {
        v.retry = false;
        v.reason = QStringLiteral("total=%1 retries exhausted").arg(config.total);
        return v;
    }
    if (outcome.kind == OutcomeKind::Response && config.respectRetryAfter && outcome.retryAfterS >= 0) {
        v.delayUs = qint64(outcome.retryAfterS) * 1000000;
        v.reason = QStringLiteral("Retry-After %1 s").arg(outcome.retryAfterS);
        return v;
    }
    // History length after this error; the first retry is immediate (urllib3 2.x).
    const int consecutiveErrors = retriesDone + 1;
    double seconds = 0;
    if (consecutiveErrors > 1)
        seconds = config.backoffFactor * std::pow(2.0, consecutiveErrors - 1);
    seconds = std::max(0.0, std::min(config.backoffMaxS, seconds));
    v.delayUs = qint64(std::llround(seconds * 1e6));
    v.reason = QStringLiteral("backoff");
    return v;
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
        v = initial * std::pow(config.multiplier, std::max(0, n - 1));
        break;
    }
    v = std::min(v, cap);
    switch (config.jitter) {
    case Jitter::None:
        break;
    case Jitter::Full:
        v = u * v;
        break;
    case Jitter::Equal:
        v = v / 2 + u * (v / 2);
        break;
    case Jitter::Decorrelated: {
        const double lo = initial;
        const double hi = std::max(initial, 3.0 * double(prevUs > 0 ? prevUs : qint64(initial)));
        v = std::min(cap, lo + u * (hi - lo));
        break;
    }
    }
    return qint64(std::llround(std::max(0.0, v)));
}

} // namespace policy
} // namespace retrylab
