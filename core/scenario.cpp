#include "scenario.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab {

bool Scenario::operator==(const Scenario &o) const
{
    // Field by field: serialising both sides cost gigabytes on big scripts.
    return schema == o.schema && name == o.name && title == o.title && description == o.description
        && seed == o.seed && scenario::sameSettings(*this, o);
}

int WorkloadConfig::operations() const
{
    if (mode == WorkloadMode::Closed)
        return clients * opsPerClient;
    if (phases.isEmpty())
        return orders;
    double mean = 0, fixed = 0;
    for (const LoadPhase &p : phases) {
        const double expected = std::max(0.0, (p.toS - p.fromS) * p.ratePerS);
        mean += expected;
        fixed += std::ceil(expected);
    }
    const double bound = arrivals == Arrivals::Poisson ? std::ceil(mean + 10 * std::sqrt(mean)) + 10 : fixed;
    return int(std::min(bound, double(std::numeric_limits<int>::max())));
}

int LayerConfig::minimumWaitMs() const
{
    // backoffUs over n >= 1: constant and linear start at initialMs, exponential too unless it
    // shrinks (multiplier < 1); the cap applies first, then the jitter.
    double v = backoff.initialMs;
    if (backoff.kind == BackoffKind::AwsExponential)
        v = backoff.initialMs * backoff.multiplier; // retry 1 already doubles
    if ((backoff.kind == BackoffKind::Exponential || backoff.kind == BackoffKind::AwsExponential)
        && backoff.multiplier < 1)
        v = 0;
    v = std::min(v, double(backoff.maxMs));
    switch (backoff.jitter) {
    case Jitter::None:
        break;
    case Jitter::Full:
        v = 0;
        break;
    case Jitter::Equal:
        v = v / 2;
        break;
    case Jitter::AwsDecorrelated:
        v = std::min(backoff.initialMs, backoff.maxMs);
        break;
    case Jitter::Proportional:
        v = v * (1.0 - backoff.jitterPercent / 100.0);
        break;
    }
    return int(std::floor(std::max(v, double(backoff.minMs))));
}

int LayerConfig::effectiveMaxAttempts() const
{
    if (maxAttempts > 0)
        return maxAttempts;
    if (deadlineMs <= 0)
        return 1; // refused by the validator; never loop without a bound
    // A backoff that can wait 0 ms counts as 1 ms per retry: since issue 11 such a backoff is
    // allowed with unlimited attempts (retry until success, the AWS study), and this stays a bound.
    return 1 + deadlineMs / std::max(1, minimumWaitMs());
}

int TransportConfig::worstCaseRetries() const
{
    // Each error decrements total and its own counter; the loop ends when either runs out.
    // Errors of different kinds can each use their own counter first, so the counters add up:
    // the most retries are min(total, connect + read + status) ("other" never happens here).
    int counters = -1;
    if (connect != Unlimited && read != Unlimited && status != Unlimited)
        counters = connect + read + status;
    if (total == Unlimited)
        return counters;
    return counters == -1 ? total : std::min(total, counters);
}

int Scenario::worstCaseAttemptsPerOp() const
{
    const qint64 b = client.business.enabled ? client.business.effectiveMaxAttempts() : 1;
    const qint64 w = client.wrapper.enabled ? client.wrapper.effectiveMaxAttempts() : 1;
    const qint64 t = client.transport.enabled ? std::max(0, client.transport.worstCaseRetries()) + 1 : 1;
    return int(std::min<qint64>(b * w * t, std::numeric_limits<int>::max()));
}

namespace {
// The attempt count of each enabled layer, outermost first ("1" when none retries).
QStringList worstCaseFactors(const ClientConfig &client)
{
    QStringList factors;
    if (client.business.enabled)
        factors << QString::number(client.business.effectiveMaxAttempts());
    if (client.wrapper.enabled)
        factors << QString::number(client.wrapper.effectiveMaxAttempts());
    if (client.transport.enabled)
        factors << QString::number(std::max(0, client.transport.worstCaseRetries()) + 1);
    if (factors.isEmpty())
        factors << QStringLiteral("1");
    return factors;
}
} // namespace

QString Scenario::worstCaseFormula() const
{
    return worstCaseFactors(client).join(QStringLiteral(" x ")) + QStringLiteral(" = ")
        + QString::number(worstCaseAttemptsPerOp());
}

QString Scenario::worstCaseText() const
{
    return worstCaseFactors(client).size() > 1 ? worstCaseFormula() : QString::number(worstCaseAttemptsPerOp());
}

} // namespace retrylab
