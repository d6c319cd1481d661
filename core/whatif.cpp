#include "whatif.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <type_traits>

namespace retrylab {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("retrylab::whatif", text);
}

// Walks every setting of two scenarios side by side. The one list of fields both
// changes() and sameSettings() use; tst_whatif checks it against every JSON leaf.
template<class Visitor>
void visitSettings(const Scenario &a, const Scenario &b, Visitor &v)
{
    v("seed", a.seed, b.seed);

    v("workload.orders", a.workload.orders, b.workload.orders);
    v("workload.interArrivalMs", a.workload.interArrivalMs, b.workload.interArrivalMs);
    v("workload.clients", a.workload.clients, b.workload.clients);
    v("workload.doubleSubmitRate", a.workload.doubleSubmitRate, b.workload.doubleSubmitRate);
    v("workload.doubleSubmitDelayMs", a.workload.doubleSubmitDelayMs, b.workload.doubleSubmitDelayMs);

    const ClientConfig &ca = a.client, &cb = b.client;
    v("client.keyPlacement", ca.keyPlacement, cb.keyPlacement);
    v("client.requestId", ca.requestId, cb.requestId);
    v("client.queryBeforeRetry", ca.queryBeforeRetry, cb.queryBeforeRetry);
    v("client.mutatePayloadOnRetry", ca.mutatePayloadOnRetry, cb.mutatePayloadOnRetry);
    v("client.businessRespectRetryAfter", ca.businessRespectRetryAfter, cb.businessRespectRetryAfter);
    v("client.wrapperRetryOn", ca.wrapperRetryOn, cb.wrapperRetryOn);
    const auto layer = [&v](const char *enabled, const char *maxAttempts, const char *kind, const char *initialMs,
                            const char *multiplier, const char *maxMs, const char *jitter, const char *deadlineMs,
                            const LayerConfig &la, const LayerConfig &lb) {
        v(enabled, la.enabled, lb.enabled);
        v(maxAttempts, la.maxAttempts, lb.maxAttempts);
        v(kind, la.backoff.kind, lb.backoff.kind);
        v(initialMs, la.backoff.initialMs, lb.backoff.initialMs);
        v(multiplier, la.backoff.multiplier, lb.backoff.multiplier);
        v(maxMs, la.backoff.maxMs, lb.backoff.maxMs);
        v(jitter, la.backoff.jitter, lb.backoff.jitter);
        v(deadlineMs, la.deadlineMs, lb.deadlineMs);
    };
    layer("client.business.enabled", "client.business.maxAttempts", "client.business.backoff.kind",
          "client.business.backoff.initialMs", "client.business.backoff.multiplier", "client.business.backoff.maxMs",
          "client.business.backoff.jitter", "client.business.deadlineMs", ca.business, cb.business);
    layer("client.wrapper.enabled", "client.wrapper.maxAttempts", "client.wrapper.backoff.kind",
          "client.wrapper.backoff.initialMs", "client.wrapper.backoff.multiplier", "client.wrapper.backoff.maxMs",
          "client.wrapper.backoff.jitter", "client.wrapper.deadlineMs", ca.wrapper, cb.wrapper);
    v("client.transport.enabled", ca.transport.enabled, cb.transport.enabled);
    v("client.transport.total", ca.transport.total, cb.transport.total);
    v("client.transport.backoffFactor", ca.transport.backoffFactor, cb.transport.backoffFactor);
    v("client.transport.backoffMaxS", ca.transport.backoffMaxS, cb.transport.backoffMaxS);
    v("client.transport.statusForcelist", ca.transport.statusForcelist, cb.transport.statusForcelist);
    v("client.transport.allowedMethods", ca.transport.allowedMethods, cb.transport.allowedMethods);
    v("client.transport.respectRetryAfter", ca.transport.respectRetryAfter, cb.transport.respectRetryAfter);
    v("client.timeoutMs", ca.timeoutMs, cb.timeoutMs);
    v("client.connectFailMs", ca.connectFailMs, cb.connectFailMs);
    v("client.retryBudget.enabled", ca.retryBudget.enabled, cb.retryBudget.enabled);
    v("client.retryBudget.ratio", ca.retryBudget.ratio, cb.retryBudget.ratio);
    v("client.retryBudget.maxTokens", ca.retryBudget.maxTokens, cb.retryBudget.maxTokens);
    v("client.circuitBreaker.enabled", ca.circuitBreaker.enabled, cb.circuitBreaker.enabled);
    v("client.circuitBreaker.failureThreshold", ca.circuitBreaker.failureThreshold, cb.circuitBreaker.failureThreshold);
    v("client.circuitBreaker.openMs", ca.circuitBreaker.openMs, cb.circuitBreaker.openMs);

    const NetworkConfig &na = a.network, &nb = b.network;
    v("network.latencyMs.base", na.latencyMs.base, nb.latencyMs.base);
    v("network.latencyMs.jitter", na.latencyMs.jitter, nb.latencyMs.jitter);
    v("network.connectFailure", na.connectFailure, nb.connectFailure);
    v("network.requestLoss", na.requestLoss, nb.requestLoss);
    v("network.responseLoss", na.responseLoss, nb.responseLoss);
    v("network.resetAfterCommit", na.resetAfterCommit, nb.resetAfterCommit);
    v("network.latencySpike", na.latencySpike, nb.latencySpike);
    v("network.spikeMs", na.spikeMs, nb.spikeMs);
    v("network.script", na.script, nb.script);

    const ServerConfig &sa = a.server, &sb = b.server;
    v("server.processingMs.base", sa.processingMs.base, sb.processingMs.base);
    v("server.processingMs.jitter", sa.processingMs.jitter, sb.processingMs.jitter);
    v("server.capacity", sa.capacity, sb.capacity);
    v("server.queue", sa.queue, sb.queue);
    v("server.errorStatus", sa.errorStatus, sb.errorStatus);
    v("server.error5xxBeforeCommit", sa.error5xxBeforeCommit, sb.error5xxBeforeCommit);
    v("server.error5xxAfterCommit", sa.error5xxAfterCommit, sb.error5xxAfterCommit);
    v("server.throttle429", sa.throttle429, sb.throttle429);
    v("server.retryAfterS", sa.retryAfterS, sb.retryAfterS);
    v("server.idempotency.mode", sa.idempotency.mode, sb.idempotency.mode);
    v("server.idempotency.requireKey", sa.idempotency.requireKey, sb.idempotency.requireKey);
    v("server.idempotency.ttlS", sa.idempotency.ttlS, sb.idempotency.ttlS);
    v("server.idempotency.fingerprint", sa.idempotency.fingerprint, sb.idempotency.fingerprint);
    v("server.idempotency.storeErrors", sa.idempotency.storeErrors, sb.idempotency.storeErrors);

    v("reconciliation.enabled", a.reconciliation.enabled, b.reconciliation.enabled);
    v("reconciliation.intervalS", a.reconciliation.intervalS, b.reconciliation.intervalS);
    v("reconciliation.action", a.reconciliation.action, b.reconciliation.action);
}

bool sameEntry(const ScriptEntry &a, const ScriptEntry &b)
{
    return a.op == b.op && a.attempt == b.attempt && a.fault == b.fault;
}

bool sameScript(const QList<ScriptEntry> &a, const QList<ScriptEntry> &b)
{
    return a.size() == b.size() && std::equal(a.cbegin(), a.cend(), b.cbegin(), sameEntry);
}

struct SameVisitor
{
    bool same = true;
    template<class T>
    void operator()(const char *, const T &a, const T &b)
    {
        same = same && a == b;
    }
    void operator()(const char *, const QList<ScriptEntry> &a, const QList<ScriptEntry> &b)
    {
        same = same && sameScript(a, b);
    }
};

QString text(bool v) { return v ? QStringLiteral("true") : QStringLiteral("false"); }
QString text(int v) { return QString::number(v); }
QString text(quint64 v) { return QString::number(v); }
QString text(double v) { return QString::number(v); }
QString text(const QStringList &v) { return QLatin1Char('[') + v.join(QStringLiteral(", ")) + QLatin1Char(']'); }
QString text(const QList<int> &v)
{
    QStringList parts;
    for (int i : v)
        parts << QString::number(i);
    return text(parts);
}
template<class E, class = std::enable_if_t<std::is_enum_v<E>>>
QString text(E v)
{
    return scenario::toString(v);
}
QString text(const ScriptEntry &e)
{
    return QStringLiteral("op %1, attempt %2, %3")
        .arg(e.op == 0 ? QStringLiteral("*") : QString::number(e.op), e.attempt, scenario::toString(e.fault));
}

struct ChangesVisitor
{
    QList<ScenarioChange> out;
    template<class T>
    void operator()(const char *path, const T &a, const T &b)
    {
        if (!(a == b))
            out.append({QLatin1String(path), text(a), text(b)});
    }
    void operator()(const char *path, const QList<ScriptEntry> &a, const QList<ScriptEntry> &b)
    {
        const QString none = tr("(none)");
        for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
            const bool inA = i < a.size();
            const bool inB = i < b.size();
            if (inA && inB && sameEntry(a.at(i), b.at(i)))
                continue;
            out.append({QStringLiteral("%1[%2]").arg(QLatin1String(path)).arg(i), inA ? text(a.at(i)) : none,
                        inB ? text(b.at(i)) : none});
        }
    }
};

} // namespace

namespace whatif {

QList<ScenarioChange> changes(const Scenario &from, const Scenario &to)
{
    ChangesVisitor v;
    visitSettings(from, to, v);
    return v.out;
}

bool sameSettings(const Scenario &a, const Scenario &b)
{
    SameVisitor v;
    visitSettings(a, b, v);
    return v.same;
}

QString describe(const QList<ScenarioChange> &changes)
{
    QStringList lines;
    for (const ScenarioChange &c : changes)
        lines << QStringLiteral("%1: %2 -> %3").arg(c.path, c.from, c.to);
    return lines.join(QLatin1Char('\n'));
}

QList<WhatIfVariant> variants(const Scenario &s)
{
    QList<WhatIfVariant> out;
    out.append({tr("current settings"), {}, s});
    const auto add = [&](const QString &label, const Scenario &v) {
        const QList<ScenarioChange> changed = changes(s, v);
        if (!changed.isEmpty()) // "one change at a time": a variant without one says nothing
            out.append({label, changed, v});
    };

    // What the server does with a key decides whether a key placement helps at all.
    const IdempotencyMode mode = s.server.idempotency.mode;
    const QString ignored = tr("server ignores keys (mode off)");
    const auto withKey = [&](KeyPlacement placement) {
        Scenario v = s;
        v.client.keyPlacement = placement;
        return v;
    };
    add(s.server.idempotency.requireKey && mode != IdempotencyMode::Off
            ? tr("no key, server requires one (400)")
            : tr("no key"),
        withKey(KeyPlacement::None));
    add(mode == IdempotencyMode::Off ? tr("key per op, %1").arg(ignored) : tr("key per op"),
        withKey(KeyPlacement::PerOperation));
    if (mode == IdempotencyMode::Off) {
        // A key alone does nothing while the server ignores it: show the complete fix too.
        Scenario v = withKey(KeyPlacement::PerOperation);
        v.server.idempotency.mode = IdempotencyMode::Atomic;
        add(s.client.keyPlacement == KeyPlacement::PerOperation ? tr("atomic server (same key per op)")
                                                                 : tr("key per op + atomic server"),
            v);
    }
    add(mode == IdempotencyMode::Off ? tr("new key per @retry attempt, %1").arg(ignored)
                                     : tr("new key per @retry attempt"),
        withKey(KeyPlacement::PerWrapperAttempt));

    if (s.client.business.enabled) {
        Scenario v = s;
        v.client.business.enabled = false;
        add(tr("no business retry loop"), v);
    }
    if (s.client.wrapper.enabled) {
        Scenario v = s;
        v.client.wrapper.enabled = false;
        add(tr("no @retry wrapper"), v);
    }
    if (s.client.transport.enabled) {
        Scenario v = s;
        v.client.transport.enabled = false;
        add(tr("no transport retries (urllib3)"), v);
    }
    return out;
}

Metrics runOne(const WhatIfVariant &variant, const std::atomic_bool *cancel)
{
    if (cancel && cancel->load())
        return Metrics{};
    RunOptions options;
    options.trace = false;
    options.cancel = cancel;
    return simulate(variant.scenario, options).metrics;
}

QList<Metrics> run(const QList<WhatIfVariant> &variants, const std::atomic_bool *cancel)
{
    const std::function<Metrics(const WhatIfVariant &)> one = [cancel](const WhatIfVariant &v) {
        return runOne(v, cancel);
    };
    return QtConcurrent::blockingMapped<QList<Metrics>>(variants, one);
}

QFuture<Metrics> start(const QList<WhatIfVariant> &variants, std::shared_ptr<std::atomic_bool> cancel)
{
    // The shared flag lives as long as the jobs that read it.
    const std::function<Metrics(const WhatIfVariant &)> one = [cancel](const WhatIfVariant &v) {
        return runOne(v, cancel.get());
    };
    return QtConcurrent::mapped(variants, one);
}

} // namespace whatif

} // namespace retrylab
