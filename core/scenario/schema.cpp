#include "scenario/schema.h"

#include "scenario/echo.h"
#include "scenario/enumnames.h"
#include "scenario/json.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <climits>
#include <type_traits>
#include <utility>

namespace retrylab::scenario {

using namespace detail;

namespace {

// The member a field reads and writes, named once: RL_AT(workload.orders).
#define RL_AT(member) +[](Scenario &s) { return &s.member; }
// A choice's member, as the index of its enum value.
#define RL_CHOICE_AT(member)                                                                                          \
    ChoiceMember                                                                                                       \
    {                                                                                                                  \
        +[](const Scenario &s) { return int(s.member); },                                                              \
            +[](Scenario &s, int v) { s.member = static_cast<std::remove_reference_t<decltype(s.member)>>(v); }        \
    }

template<typename E>
QStringList choicesOf()
{
    QStringList out;
    for (const char *name : EnumNames<E>::names)
        out << QLatin1String(name);
    return out;
}

// Builds the table in file order; each helper fills in what a type implies.
class Builder
{
public:
    QList<FieldSpec> fields;

    FieldSpec &integer(const QByteArray &path, int *(*at)(Scenario &), int lo, int hi, const char *unit = "",
                       double step = 1)
    {
        FieldSpec &f = add(path, FieldType::Integer, at);
        bound(f, lo, hi);
        f.unit = QLatin1String(unit);
        f.editor.step = step;
        return f;
    }
    FieldSpec &number(const QByteArray &path, double *(*at)(Scenario &), double lo, double hi, double step,
                      int decimals, const char *unit = "")
    {
        FieldSpec &f = add(path, FieldType::Number, at);
        bound(f, lo, hi);
        f.unit = QLatin1String(unit);
        f.editor.step = step;
        f.editor.decimals = decimals;
        return f;
    }
    // A probability from 0 to 1, which the editor shows as a percentage.
    FieldSpec &probability(const QByteArray &path, double *(*at)(Scenario &))
    {
        FieldSpec &f = number(path, at, 0, 1, 5, 1, "%");
        f.editor.percent = true;
        return f;
    }
    FieldSpec &boolean(const QByteArray &path, bool *(*at)(Scenario &)) { return add(path, FieldType::Boolean, at); }
    template<typename E>
    FieldSpec &choice(const QByteArray &path, ChoiceMember at)
    {
        FieldSpec &f = add(path, FieldType::Choice, at);
        f.choices = choicesOf<E>();
        return f;
    }
    // A text of minChars to maxChars characters: name, title, description.
    FieldSpec &text(const QByteArray &path, QString *(*at)(Scenario &), int minChars, int maxChars)
    {
        FieldSpec &f = add(path, FieldType::Text, at);
        f.role = Role::Metadata;
        f.minimum = minChars;
        f.maximum = maxChars;
        f.editor.shown = false; // the About page edits title and description as free text
        return f;
    }
    // A list with its own reader and writer.
    FieldSpec &list(const QByteArray &path, Member at, const QString &allowed,
                    void (*read)(ObjectReader &, const FieldSpec &, Scenario &), QJsonValue (*write)(const Scenario &))
    {
        FieldSpec &f = add(path, FieldType::List, at);
        f.allowed = allowed;
        f.read = read;
        f.write = write;
        return f;
    }
    // A key of a list's entries ("network.script[N].op"), read by the list's own code.
    FieldSpec &item(const QByteArray &path, FieldType type)
    {
        FieldSpec &f = add(path, type, std::monostate());
        f.role = Role::Item;
        f.editor.shown = false; // the list's table edits it
        return f;
    }

    template<LayerConfig ClientConfig::*Layer>
    void layer(const QByteArray &prefix);
    template<Distribution *(*At)(Scenario &)>
    void distribution(const QByteArray &prefix);

private:
    FieldSpec &add(const QByteArray &path, FieldType type, Member member)
    {
        FieldSpec f;
        f.path = QString::fromLatin1(path);
        f.pathLatin1 = path;
        f.type = type;
        f.member = member;
        fields.append(f);
        return fields.last();
    }
    static void bound(FieldSpec &f, double lo, double hi)
    {
        f.bounded = true;
        f.minimum = lo;
        f.maximum = hi;
    }
};

// client.business and client.wrapper: the same keys under two names.
template<LayerConfig ClientConfig::*Layer>
void Builder::layer(const QByteArray &p)
{
    boolean(p + "enabled", +[](Scenario &s) { return &(s.client.*Layer).enabled; });
    FieldSpec &attempts = integer(p + "maxAttempts", +[](Scenario &s) { return &(s.client.*Layer).maxAttempts; }, 0, 100);
    attempts.special = Special::LowMeans;
    attempts.specialText = QStringLiteral("0 for unlimited until %1deadlineMs").arg(QString::fromLatin1(p));
    integer(p + "deadlineMs", +[](Scenario &s) { return &(s.client.*Layer).deadlineMs; }, 0, MaxMs, "ms", 1000);
    choice<BackoffKind>(p + "backoff.kind",
                        ChoiceMember{+[](const Scenario &s) { return int((s.client.*Layer).backoff.kind); },
                                     +[](Scenario &s, int v) { (s.client.*Layer).backoff.kind = BackoffKind(v); }});
    integer(p + "backoff.initialMs", +[](Scenario &s) { return &(s.client.*Layer).backoff.initialMs; }, 0, MaxMs, "ms",
            100);
    number(p + "backoff.multiplier", +[](Scenario &s) { return &(s.client.*Layer).backoff.multiplier; }, 0, 100, 0.5, 2);
    integer(p + "backoff.maxMs", +[](Scenario &s) { return &(s.client.*Layer).backoff.maxMs; }, 0, MaxMs, "ms", 100);
    FieldSpec &jitter = choice<Jitter>(p + "backoff.jitter",
                   ChoiceMember{+[](const Scenario &s) { return int((s.client.*Layer).backoff.jitter); },
                                +[](Scenario &s, int v) { (s.client.*Layer).backoff.jitter = Jitter(v); }});
    // The formula is named by whose it is (Polly's decorrelated jitter is another); files of before still load.
    jitter.choiceAliases = {{QStringLiteral("decorrelated"), int(Jitter::AwsDecorrelated)}};
    integer(p + "backoff.minMs", +[](Scenario &s) { return &(s.client.*Layer).backoff.minMs; }, 0, MaxMs, "ms", 100);
    integer(p + "backoff.jitterPercent", +[](Scenario &s) { return &(s.client.*Layer).backoff.jitterPercent; }, 0, 100,
            "%", 5);
    // tenacity's names of the backoff, in seconds: an input alias of the keys above, read by readTenacity.
    FieldSpec &tenacity = list(p + "backoff.tenacity", std::monostate(), QString(), readTenacity, nullptr);
    tenacity.role = Role::Alias;
    tenacity.editor.shown = false;
    const double maxS = MaxMs / 1000.0;
    const std::pair<const char *, double> aliases[] = {{"multiplier", maxS}, {"expBase", 100}, {"min", maxS}, {"max", maxS}};
    for (const auto &[key, hi] : aliases) {
        FieldSpec &f = item(p + "backoff.tenacity." + key, FieldType::Number);
        f.role = Role::Alias;
        bound(f, 0, hi);
    }
    // Which tenacity wait: wait_exponential (no jitter) or wait_random_exponential (U(min, wait)).
    FieldSpec &wait = item(p + "backoff.tenacity.wait", FieldType::Choice);
    wait.role = Role::Alias;
    wait.choices = QStringList{QStringLiteral("wait_exponential"), QStringLiteral("wait_random_exponential")};
}

// network.latencyMs and server.processingMs: uniform base + jitter, or normal mean and sd.
template<Distribution *(*At)(Scenario &)>
void Builder::distribution(const QByteArray &p)
{
    const auto normal = +[](const Scenario &s) {
        return At(const_cast<Scenario &>(s))->shape == DistributionShape::Normal;
    };
    choice<DistributionShape>(p + "distribution",
                              ChoiceMember{+[](const Scenario &s) { return int(At(const_cast<Scenario &>(s))->shape); },
                                           +[](Scenario &s, int v) { At(s)->shape = DistributionShape(v); }})
        .writtenIf = normal;
    integer(p + "base", +[](Scenario &s) { return &At(s)->base; }, 0, MaxMs, "ms", 5);
    integer(p + "jitter", +[](Scenario &s) { return &At(s)->jitter; }, 0, MaxMs, "ms", 5);
    number(p + "mean", +[](Scenario &s) { return &At(s)->mean; }, 0, MaxDistributionMs, 1, 2, "ms").writtenIf = normal;
    number(p + "sd", +[](Scenario &s) { return &At(s)->sd; }, 0, MaxDistributionMs, 1, 2, "ms").writtenIf = normal;
}

Distribution *latency(Scenario &s)
{
    return &s.network.latencyMs;
}

Distribution *processing(Scenario &s)
{
    return &s.server.processingMs;
}

// Keys of a period (a load phase, a fault window): their bounds depend on each other, so the
// catalogue states them in words.
void addPeriod(Builder &b, const QByteArray &prefix)
{
    b.item(prefix + "fromS", FieldType::Number).allowed = QStringLiteral("0 to 86400 (seconds), before toS");
    b.item(prefix + "toS", FieldType::Number).allowed = QStringLiteral("after fromS, up to 86400 (seconds)");
}

void addTop(Builder &b)
{
    FieldSpec &version = b.integer("schema", RL_AT(schema), 1, 1);
    version.role = Role::Metadata;
    version.allowed = QStringLiteral("1");
    version.read = readSchema;
    version.editor.shown = false;
    b.text("name", RL_AT(name), 1, MaxNameChars);
    b.text("title", RL_AT(title), 0, MaxTitleChars);
    b.text("description", RL_AT(description), 0, MaxDescriptionChars);
    FieldSpec &seed = b.list("seed", RL_AT(seed), QStringLiteral("0 to 2^53, or a decimal string up to 2^64 - 1"),
                             readSeed, writeSeed);
    seed.type = FieldType::Integer;
    seed.bounded = true;
    seed.maximum = MaxExactInteger;
}

void addWorkload(Builder &b)
{
    b.integer("workload.orders", RL_AT(workload.orders), 1, MaxOperations);
    b.integer("workload.interArrivalMs", RL_AT(workload.interArrivalMs), 0, MaxMs, "ms", 100);
    b.integer("workload.clients", RL_AT(workload.clients), 1, 10000);
    b.probability("workload.doubleSubmitRate", RL_AT(workload.doubleSubmitRate));
    b.integer("workload.doubleSubmitDelayMs", RL_AT(workload.doubleSubmitDelayMs), 0, MaxMs, "ms", 5);
    b.choice<WorkloadMode>("workload.mode", RL_CHOICE_AT(workload.mode));
    b.choice<Arrivals>("workload.arrivals", RL_CHOICE_AT(workload.arrivals));
    b.list("workload.phases", RL_AT(workload.phases),
           QStringLiteral("load phases {fromS, toS, ratePerS} of open mode, not overlapping, at most %1 entries "
                          "and %2 arrivals in all; they define the arrivals (workload.orders counts only without them)")
               .arg(MaxPhaseEntries)
               .arg(plainNumber(MaxPhaseArrivals)),
           readPhases, writePhases);
    addPeriod(b, "workload.phases[N].");
    FieldSpec &rate = b.item("workload.phases[N].ratePerS", FieldType::Number);
    rate.bounded = true;
    rate.maximum = 100000;
    b.integer("workload.opsPerClient", RL_AT(workload.opsPerClient), 1, 100000);
    b.integer("workload.thinkTimeMs", RL_AT(workload.thinkTimeMs), 0, MaxMs, "ms", 100);
    b.boolean("workload.startTogether", RL_AT(workload.startTogether));
}

void addTransport(Builder &b)
{
    b.boolean("client.transport.enabled", RL_AT(client.transport.enabled));
    FieldSpec &total = b.integer("client.transport.total", RL_AT(client.transport.total), 0, 20);
    total.special = Special::NullQuiet; // null allowed when the counters are limited: a cross-field rule
    const std::pair<const char *, int *(*)(Scenario &)> counters[] = {{"connect", RL_AT(client.transport.connect)},
                                                                       {"read", RL_AT(client.transport.read)},
                                                                       {"status", RL_AT(client.transport.status)},
                                                                       {"other", RL_AT(client.transport.other)}};
    for (const auto &[name, at] : counters)
        b.integer(QByteArray("client.transport.") + name, at, 0, 20).special = Special::NullUnlimited;
    b.number("client.transport.backoffFactor", RL_AT(client.transport.backoffFactor), 0, 3600, 0.1, 2, "s");
    b.number("client.transport.backoffMaxS", RL_AT(client.transport.backoffMaxS), 0, 86400, 1, 1, "s");
    b.number("client.transport.backoffJitter", RL_AT(client.transport.backoffJitterS), 0, 3600, 0.1, 2);
    b.boolean("client.transport.respectRetryAfter", RL_AT(client.transport.respectRetryAfter));
    b.integer("client.transport.retryAfterMaxS", RL_AT(client.transport.retryAfterMaxS), 0, 86400, "s", 60);
    b.boolean("client.transport.raiseOnStatus", RL_AT(client.transport.raiseOnStatus));
    b.list("client.transport.statusForcelist", RL_AT(client.transport.statusForcelist),
           QStringLiteral("HTTP statuses from 100 to 599, at most %1 entries").arg(MaxForcelistEntries),
           readStatusForcelist, writeStatusForcelist);
    FieldSpec &methods = b.list("client.transport.allowedMethods", RL_AT(client.transport.allowedMethods), QString(),
                                readAllowedMethods, writeAllowedMethods);
    methods.choices = httpMethods();
    methods.allowed = QStringLiteral("any of %1 (null or [] retries every method, POST included), at most %2 entries")
                          .arg(methods.choices.join(QStringLiteral(", ")))
                          .arg(MaxMethodEntries);
}

void addClient(Builder &b)
{
    b.choice<KeyPlacement>("client.keyPlacement", RL_CHOICE_AT(client.keyPlacement));
    b.boolean("client.requestId", RL_AT(client.requestId));
    b.boolean("client.queryBeforeRetry", RL_AT(client.queryBeforeRetry));
    b.choice<UnknownQuery>("client.onUnknownQuery", RL_CHOICE_AT(client.onUnknownQuery));
    b.boolean("client.mutatePayloadOnRetry", RL_AT(client.mutatePayloadOnRetry));
    b.boolean("client.businessRespectRetryAfter", RL_AT(client.businessRespectRetryAfter));
    b.choice<WrapperRetryOn>("client.wrapperRetryOn", RL_CHOICE_AT(client.wrapperRetryOn));
    // Issue 20 (occ): the layer that does the read-modify-write of server.model occ.
    b.choice<OccRead>("client.occRead", RL_CHOICE_AT(client.occRead));
    b.layer<&ClientConfig::business>("client.business.");
    b.layer<&ClientConfig::wrapper>("client.wrapper.");
    addTransport(b);
    b.integer("client.timeoutMs", RL_AT(client.timeoutMs), 1, MaxMs, "ms", 500);
    b.integer("client.connectFailMs", RL_AT(client.connectFailMs), 0, MaxMs, "ms", 5);
    b.boolean("client.retryBudget.enabled", RL_AT(client.retryBudget.enabled));
    b.number("client.retryBudget.ratio", RL_AT(client.retryBudget.ratio), 0, 100, 0.05, 2);
    b.number("client.retryBudget.maxTokens", RL_AT(client.retryBudget.maxTokens), 0, 1000000, 1, 1);
    b.choice<BudgetScope>("client.retryBudget.scope", RL_CHOICE_AT(client.retryBudget.scope));
    FieldSpec &initial =
        b.number("client.retryBudget.initialTokens", RL_AT(client.retryBudget.initialTokens), 0, 1000000, 1, 1);
    initial.special = Special::NullMeans;
    initial.specialText = QStringLiteral("a full bucket (maxTokens)");
    // Issue 20: the budget's design by its peer's name, and Finagle's numbers.
    b.choice<BudgetKind>("client.retryBudget.kind", RL_CHOICE_AT(client.retryBudget.kind));
    b.number("client.retryBudget.percentCanRetry", RL_AT(client.retryBudget.percentCanRetry), 0, 100000, 5, 1, "%");
    b.integer("client.retryBudget.minRetriesPerSec", RL_AT(client.retryBudget.minRetriesPerSec), 0, 100000);
    b.integer("client.retryBudget.ttlS", RL_AT(client.retryBudget.ttlS), 1, 60, "s");
    b.boolean("client.circuitBreaker.enabled", RL_AT(client.circuitBreaker.enabled));
    b.integer("client.circuitBreaker.failureThreshold", RL_AT(client.circuitBreaker.failureThreshold), 1, 1000);
    b.integer("client.circuitBreaker.openMs", RL_AT(client.circuitBreaker.openMs), 1, MaxMs, "ms", 500);
    b.choice<BreakerMode>("client.circuitBreaker.mode", RL_CHOICE_AT(client.circuitBreaker.mode));
    b.integer("client.circuitBreaker.window", RL_AT(client.circuitBreaker.window), 1, 10000, "attempts", 5);
    b.integer("client.circuitBreaker.failureRatePercent", RL_AT(client.circuitBreaker.failureRatePercent), 1, 100, "%",
              5);
    b.boolean("client.circuitBreaker.retriesOnly", RL_AT(client.circuitBreaker.retriesOnly));
    // Issue 20: the calls half-open admits.
    // 0 is the mode's peer default: Polly's one probe (consecutive), resilience4j's 10 (failureRate).
    b.integer("client.circuitBreaker.halfOpenCalls", RL_AT(client.circuitBreaker.halfOpenCalls), 0, 10000);
}

void addNetwork(Builder &b)
{
    b.distribution<latency>("network.latencyMs.");
    b.probability("network.connectFailure", RL_AT(network.connectFailure));
    b.probability("network.requestLoss", RL_AT(network.requestLoss));
    b.probability("network.responseLoss", RL_AT(network.responseLoss));
    b.probability("network.resetAfterCommit", RL_AT(network.resetAfterCommit));
    b.probability("network.latencySpike", RL_AT(network.latencySpike));
    b.integer("network.spikeMs", RL_AT(network.spikeMs), 0, MaxMs, "ms", 500);
    b.list("network.script", RL_AT(network.script),
           QStringLiteral("fault entries {op, attempt, fault}, at most %1 entries").arg(MaxScriptEntries), readScript,
           writeScript);
    // op's bound is workload.orders: the catalogue states the default scenario's.
    FieldSpec &op = b.item("network.script[N].op", FieldType::Integer);
    op.bounded = true;
    op.minimum = 1;
    op.maximum = Scenario().workload.orders;
    op.allowed = QStringLiteral("1 to workload.orders, or \"*\" for every operation");
    b.item("network.script[N].attempt", FieldType::Text).allowed =
        QStringLiteral("an attempt path bN/wN/tN, * for any in a segment");
    b.item("network.script[N].fault", FieldType::Choice).choices = choicesOf<FaultKind>();
    b.item("network.script[N].method", FieldType::Choice).choices = choicesOf<ScriptMethod>();
}

void addServer(Builder &b)
{
    b.choice<ServerModel>("server.model", RL_CHOICE_AT(server.model));
    b.integer("server.occ.rows", RL_AT(server.occRows), 1, 100000);
    b.distribution<processing>("server.processingMs.");
    b.number("server.latencyPerInFlightMs", RL_AT(server.latencyPerInFlightMs), 0, 10000, 1, 2, "ms");
    b.integer("server.capacity", RL_AT(server.capacity), 0, 100000);
    b.integer("server.queue", RL_AT(server.queue), 0, 1000000);
    b.integer("server.errorStatus", RL_AT(server.errorStatus), 500, 599);
    b.probability("server.error5xxBeforeCommit", RL_AT(server.error5xxBeforeCommit));
    b.probability("server.error5xxAfterCommit", RL_AT(server.error5xxAfterCommit));
    b.probability("server.throttle429", RL_AT(server.throttle429));
    b.integer("server.retryAfterS", RL_AT(server.retryAfterS), 0, 86400, "s");
    b.list("server.restarts", RL_AT(server.restartsAtS),
           QStringLiteral("restarts {atS} with atS a whole second from 0 to 3600, at most %1 entries")
               .arg(MaxRestartEntries),
           readRestarts, writeRestarts);
    b.integer("server.restartDownMs", RL_AT(server.restartDownMs), 0, MaxMs, "ms", 500);
    // Issue 20 (occ): what a restart does to the connections the server holds.
    b.choice<RestartInFlight>("server.restartInFlight", RL_CHOICE_AT(server.restartInFlight));
    b.choice<IdempotencyMode>("server.idempotency.mode", RL_CHOICE_AT(server.idempotency.mode));
    b.boolean("server.idempotency.requireKey", RL_AT(server.idempotency.requireKey));
    b.integer("server.idempotency.ttlS", RL_AT(server.idempotency.ttlS), 0, 31536000, "s", 60);
    b.boolean("server.idempotency.fingerprint", RL_AT(server.idempotency.fingerprint));
    b.boolean("server.idempotency.storeErrors", RL_AT(server.idempotency.storeErrors));
    b.choice<TokenReuse>("server.idempotency.tokenReuse", RL_CHOICE_AT(server.idempotency.tokenReuse));
    b.choice<KeyStore>("server.idempotency.store", RL_CHOICE_AT(server.idempotency.store));
}

void addReconciliationAndWindows(Builder &b)
{
    b.boolean("reconciliation.enabled", RL_AT(reconciliation.enabled));
    b.integer("reconciliation.intervalS", RL_AT(reconciliation.intervalS), 1, 86400, "s", 10);
    b.choice<ReconcileAction>("reconciliation.action", RL_CHOICE_AT(reconciliation.action));
    b.list("windows", RL_AT(windows),
           QStringLiteral("fault windows {fromS, toS, fault, probability}, at most %1 entries").arg(MaxWindowEntries),
           readWindows, writeWindows);
    addPeriod(b, "windows[N].");
    b.item("windows[N].fault", FieldType::Choice).choices = windowFaults();
    FieldSpec &probability = b.item("windows[N].probability", FieldType::Number);
    probability.bounded = true;
    probability.maximum = 1;
}

#undef RL_AT
#undef RL_CHOICE_AT

} // namespace

const QList<FieldSpec> &schema()
{
    static const QList<FieldSpec> table = [] {
        Builder b;
        addTop(b);
        addWorkload(b);
        addClient(b);
        addNetwork(b);
        addServer(b);
        addReconciliationAndWindows(b);
        return b.fields;
    }();
    return table;
}

const FieldSpec *fieldSpec(const QString &path)
{
    for (const FieldSpec &f : schema()) {
        if (f.path == path)
            return &f;
    }
    return nullptr;
}

EditorRange editorRange(const FieldSpec &spec)
{
    EditorRange range;
    range.minimum = std::min(spec.minimum, 0.0);
    range.maximum = spec.maximum * 10;
    if (spec.special == Special::NullUnlimited || spec.special == Special::NullQuiet
        || spec.special == Special::NullMeans) {
        range.minimum -= 1;
        range.nullAtMinimum = true;
    }
    if (spec.type == FieldType::Integer)
        range.maximum = std::min(range.maximum, double(INT_MAX));
    return range;
}

} // namespace retrylab::scenario
