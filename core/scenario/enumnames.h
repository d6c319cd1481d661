#pragma once

#include "scenario.h"

#include <QString>
#include <QStringList>

#include <iterator>

// The names a scenario file gives each enum value, and the lookups both ways.
namespace retrylab::scenario::detail {

// Enum <-> name tables; the index is the enum value.
template<typename E>
struct EnumNames;

template<>
struct EnumNames<BackoffKind>
{
    static constexpr const char *names[] = {"constant", "linear", "exponential", "awsExponential"};
};
template<>
struct EnumNames<Jitter>
{
    // awsDecorrelated: the AWS study's decorrelated jitter (files of before still say "decorrelated",
    // read as an alias: see schema.cpp).
    static constexpr const char *names[] = {"none", "full", "equal", "awsDecorrelated", "proportional"};
};
template<>
struct EnumNames<KeyPlacement>
{
    static constexpr const char *names[] = {"none", "perOperation", "perBusinessAttempt", "perWrapperAttempt"};
};
template<>
struct EnumNames<IdempotencyMode>
{
    static constexpr const char *names[] = {"off", "naive", "atomic", "token"};
};
template<>
struct EnumNames<WrapperRetryOn>
{
    static constexpr const char *names[] = {"any", "transient"};
};
template<>
struct EnumNames<ReconcileAction>
{
    static constexpr const char *names[] = {"flag", "void"};
};
template<>
struct EnumNames<TokenReuse>
{
    static constexpr const char *names[] = {"reject", "replay"};
};
template<>
struct EnumNames<KeyStore>
{
    static constexpr const char *names[] = {"durable", "memory"};
};
template<>
struct EnumNames<UnknownQuery>
{
    static constexpr const char *names[] = {"fail", "resend"};
};
template<>
struct EnumNames<OccRead>
{
    static constexpr const char *names[] = {"business", "wrapper"};
};
template<>
struct EnumNames<RestartInFlight>
{
    static constexpr const char *names[] = {"reset", "hang"};
};
template<>
struct EnumNames<FaultKind>
{
    static constexpr const char *names[] = {"connectFailure",        "requestLost",          "responseLost",
                                            "resetAfterCommit",      "latencySpike",         "server5xxBeforeCommit",
                                            "server5xxAfterCommit",  "throttle429",          "serverRestart"};
};
template<>
struct EnumNames<ScriptMethod>
{
    static constexpr const char *names[] = {"POST", "GET"};
};
template<>
struct EnumNames<DistributionShape>
{
    static constexpr const char *names[] = {"uniform", "normal"};
};
template<>
struct EnumNames<BudgetScope>
{
    static constexpr const char *names[] = {"perClient", "global"};
};
template<>
struct EnumNames<BudgetKind>
{
    static constexpr const char *names[] = {"tokenPerRetry", "grpcThrottling", "percent"};
};
template<>
struct EnumNames<BreakerMode>
{
    static constexpr const char *names[] = {"consecutive", "failureRate"};
};
template<>
struct EnumNames<ServerModel>
{
    static constexpr const char *names[] = {"orders", "occ"};
};
template<>
struct EnumNames<WorkloadMode>
{
    static constexpr const char *names[] = {"open", "closed"};
};
template<>
struct EnumNames<Arrivals>
{
    static constexpr const char *names[] = {"fixed", "poisson"};
};

template<typename E>
QString enumName(E value)
{
    const auto &names = EnumNames<E>::names;
    const int i = static_cast<int>(value);
    if (i < 0 || i >= int(std::size(names)))
        return QString();
    return QLatin1String(names[i]);
}

template<typename E>
bool enumFromName(const QString &name, E *out)
{
    const auto &names = EnumNames<E>::names;
    for (int i = 0; i < int(std::size(names)); ++i) {
        if (name == QLatin1String(names[i])) {
            *out = static_cast<E>(i);
            return true;
        }
    }
    return false;
}

template<typename E>
QString enumChoices()
{
    QStringList all;
    for (const char *n : EnumNames<E>::names)
        all << QLatin1String(n);
    return all.join(QLatin1Char('|'));
}

} // namespace retrylab::scenario::detail
