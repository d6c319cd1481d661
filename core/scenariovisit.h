#pragma once

#include "scenario.h"

#include <QLocale>

namespace retrylab::scenario {

// Every setting as JSON, with the keys that Scenario::toJson() leaves out of a saved file (a
// uniform distribution's distribution, mean and sd): what --set, valueAt, the field catalogue and
// the editor's form read.
QJsonObject toCompleteJson(const Scenario &s);

namespace detail {
inline QString shortest(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}
// A list setting as one text per entry, compared and shown whole ("0 to 10 s at 5/s"): the
// texts round-trip every number exactly, so equal texts are equal entries.
inline QStringList entryTexts(const QList<LoadPhase> &phases)
{
    QStringList out;
    for (const LoadPhase &p : phases)
        out << QStringLiteral("%1 to %2 s at %3/s").arg(shortest(p.fromS), shortest(p.toS), shortest(p.ratePerS));
    return out;
}
inline QStringList entryTexts(const QList<FaultWindow> &windows)
{
    QStringList out;
    for (const FaultWindow &w : windows)
        out << QStringLiteral("%1 to %2 s: %3 at %4")
                   .arg(shortest(w.fromS), shortest(w.toS), toString(w.fault), shortest(w.probability));
    return out;
}
} // namespace detail

// Walks every setting of two scenarios side by side: v(path, valueOfA, valueOfB) per field.
// The one list of fields that scenario::sameSettings(), operator== and whatif::changes() use;
// tst_whatif checks it against every JSON leaf. The seed comes first, as "seed".
template<class Visitor>
void visitSettings(const Scenario &a, const Scenario &b, Visitor &v)
{
    v("seed", a.seed, b.seed);

    v("workload.orders", a.workload.orders, b.workload.orders);
    v("workload.interArrivalMs", a.workload.interArrivalMs, b.workload.interArrivalMs);
    v("workload.clients", a.workload.clients, b.workload.clients);
    v("workload.doubleSubmitRate", a.workload.doubleSubmitRate, b.workload.doubleSubmitRate);
    v("workload.doubleSubmitDelayMs", a.workload.doubleSubmitDelayMs, b.workload.doubleSubmitDelayMs);
    v("workload.mode", a.workload.mode, b.workload.mode);
    v("workload.arrivals", a.workload.arrivals, b.workload.arrivals);
    v("workload.phases", detail::entryTexts(a.workload.phases), detail::entryTexts(b.workload.phases));
    v("workload.opsPerClient", a.workload.opsPerClient, b.workload.opsPerClient);
    v("workload.thinkTimeMs", a.workload.thinkTimeMs, b.workload.thinkTimeMs);
    v("workload.startTogether", a.workload.startTogether, b.workload.startTogether);

    const ClientConfig &ca = a.client, &cb = b.client;
    v("client.keyPlacement", ca.keyPlacement, cb.keyPlacement);
    v("client.requestId", ca.requestId, cb.requestId);
    v("client.queryBeforeRetry", ca.queryBeforeRetry, cb.queryBeforeRetry);
    v("client.onUnknownQuery", ca.onUnknownQuery, cb.onUnknownQuery);
    v("client.mutatePayloadOnRetry", ca.mutatePayloadOnRetry, cb.mutatePayloadOnRetry);
    v("client.businessRespectRetryAfter", ca.businessRespectRetryAfter, cb.businessRespectRetryAfter);
    v("client.wrapperRetryOn", ca.wrapperRetryOn, cb.wrapperRetryOn);
    const auto layer = [&v](const char *enabled, const char *maxAttempts, const char *kind, const char *initialMs,
                            const char *multiplier, const char *maxMs, const char *jitter, const char *minMs, const char *jitterPercent,
                            const char *deadlineMs, const LayerConfig &la, const LayerConfig &lb) {
        v(enabled, la.enabled, lb.enabled);
        v(maxAttempts, la.maxAttempts, lb.maxAttempts);
        v(kind, la.backoff.kind, lb.backoff.kind);
        v(initialMs, la.backoff.initialMs, lb.backoff.initialMs);
        v(multiplier, la.backoff.multiplier, lb.backoff.multiplier);
        v(maxMs, la.backoff.maxMs, lb.backoff.maxMs);
        v(jitter, la.backoff.jitter, lb.backoff.jitter);
        v(minMs, la.backoff.minMs, lb.backoff.minMs);
        v(jitterPercent, la.backoff.jitterPercent, lb.backoff.jitterPercent);
        v(deadlineMs, la.deadlineMs, lb.deadlineMs);
    };
    layer("client.business.enabled", "client.business.maxAttempts", "client.business.backoff.kind",
          "client.business.backoff.initialMs", "client.business.backoff.multiplier", "client.business.backoff.maxMs",
          "client.business.backoff.jitter", "client.business.backoff.minMs", "client.business.backoff.jitterPercent",
          "client.business.deadlineMs", ca.business,
          cb.business);
    layer("client.wrapper.enabled", "client.wrapper.maxAttempts", "client.wrapper.backoff.kind",
          "client.wrapper.backoff.initialMs", "client.wrapper.backoff.multiplier", "client.wrapper.backoff.maxMs",
          "client.wrapper.backoff.jitter", "client.wrapper.backoff.minMs", "client.wrapper.backoff.jitterPercent",
          "client.wrapper.deadlineMs", ca.wrapper,
          cb.wrapper);
    v("client.transport.enabled", ca.transport.enabled, cb.transport.enabled);
    v("client.transport.total", ca.transport.total, cb.transport.total);
    v("client.transport.connect", ca.transport.connect, cb.transport.connect);
    v("client.transport.read", ca.transport.read, cb.transport.read);
    v("client.transport.status", ca.transport.status, cb.transport.status);
    v("client.transport.other", ca.transport.other, cb.transport.other);
    v("client.transport.backoffFactor", ca.transport.backoffFactor, cb.transport.backoffFactor);
    v("client.transport.backoffMaxS", ca.transport.backoffMaxS, cb.transport.backoffMaxS);
    v("client.transport.backoffJitter", ca.transport.backoffJitterS, cb.transport.backoffJitterS);
    v("client.transport.statusForcelist", ca.transport.statusForcelist, cb.transport.statusForcelist);
    v("client.transport.allowedMethods", ca.transport.allowedMethods, cb.transport.allowedMethods);
    v("client.transport.respectRetryAfter", ca.transport.respectRetryAfter, cb.transport.respectRetryAfter);
    v("client.transport.retryAfterMaxS", ca.transport.retryAfterMaxS, cb.transport.retryAfterMaxS);
    v("client.transport.raiseOnStatus", ca.transport.raiseOnStatus, cb.transport.raiseOnStatus);
    v("client.timeoutMs", ca.timeoutMs, cb.timeoutMs);
    v("client.connectFailMs", ca.connectFailMs, cb.connectFailMs);
    v("client.retryBudget.enabled", ca.retryBudget.enabled, cb.retryBudget.enabled);
    v("client.retryBudget.ratio", ca.retryBudget.ratio, cb.retryBudget.ratio);
    v("client.retryBudget.maxTokens", ca.retryBudget.maxTokens, cb.retryBudget.maxTokens);
    v("client.retryBudget.scope", ca.retryBudget.scope, cb.retryBudget.scope);
    v("client.retryBudget.initialTokens", ca.retryBudget.initialTokens, cb.retryBudget.initialTokens);
    v("client.circuitBreaker.enabled", ca.circuitBreaker.enabled, cb.circuitBreaker.enabled);
    v("client.circuitBreaker.failureThreshold", ca.circuitBreaker.failureThreshold, cb.circuitBreaker.failureThreshold);
    v("client.circuitBreaker.openMs", ca.circuitBreaker.openMs, cb.circuitBreaker.openMs);
    v("client.circuitBreaker.mode", ca.circuitBreaker.mode, cb.circuitBreaker.mode);
    v("client.circuitBreaker.window", ca.circuitBreaker.window, cb.circuitBreaker.window);
    v("client.circuitBreaker.failureRatePercent", ca.circuitBreaker.failureRatePercent,
      cb.circuitBreaker.failureRatePercent);
    v("client.circuitBreaker.retriesOnly", ca.circuitBreaker.retriesOnly, cb.circuitBreaker.retriesOnly);

    const NetworkConfig &na = a.network, &nb = b.network;
    v("network.latencyMs.distribution", na.latencyMs.shape, nb.latencyMs.shape);
    v("network.latencyMs.base", na.latencyMs.base, nb.latencyMs.base);
    v("network.latencyMs.jitter", na.latencyMs.jitter, nb.latencyMs.jitter);
    v("network.latencyMs.mean", na.latencyMs.mean, nb.latencyMs.mean);
    v("network.latencyMs.sd", na.latencyMs.sd, nb.latencyMs.sd);
    v("network.connectFailure", na.connectFailure, nb.connectFailure);
    v("network.requestLoss", na.requestLoss, nb.requestLoss);
    v("network.responseLoss", na.responseLoss, nb.responseLoss);
    v("network.resetAfterCommit", na.resetAfterCommit, nb.resetAfterCommit);
    v("network.latencySpike", na.latencySpike, nb.latencySpike);
    v("network.spikeMs", na.spikeMs, nb.spikeMs);
    v("network.script", na.script, nb.script);

    const ServerConfig &sa = a.server, &sb = b.server;
    v("server.model", sa.model, sb.model);
    v("server.occ.rows", sa.occRows, sb.occRows);
    v("server.processingMs.distribution", sa.processingMs.shape, sb.processingMs.shape);
    v("server.processingMs.base", sa.processingMs.base, sb.processingMs.base);
    v("server.processingMs.jitter", sa.processingMs.jitter, sb.processingMs.jitter);
    v("server.processingMs.mean", sa.processingMs.mean, sb.processingMs.mean);
    v("server.processingMs.sd", sa.processingMs.sd, sb.processingMs.sd);
    v("server.latencyPerInFlightMs", sa.latencyPerInFlightMs, sb.latencyPerInFlightMs);
    v("server.capacity", sa.capacity, sb.capacity);
    v("server.queue", sa.queue, sb.queue);
    v("server.errorStatus", sa.errorStatus, sb.errorStatus);
    v("server.error5xxBeforeCommit", sa.error5xxBeforeCommit, sb.error5xxBeforeCommit);
    v("server.error5xxAfterCommit", sa.error5xxAfterCommit, sb.error5xxAfterCommit);
    v("server.throttle429", sa.throttle429, sb.throttle429);
    v("server.retryAfterS", sa.retryAfterS, sb.retryAfterS);
    v("server.restarts", sa.restartsAtS, sb.restartsAtS);
    v("server.restartDownMs", sa.restartDownMs, sb.restartDownMs);
    v("server.idempotency.mode", sa.idempotency.mode, sb.idempotency.mode);
    v("server.idempotency.requireKey", sa.idempotency.requireKey, sb.idempotency.requireKey);
    v("server.idempotency.ttlS", sa.idempotency.ttlS, sb.idempotency.ttlS);
    v("server.idempotency.fingerprint", sa.idempotency.fingerprint, sb.idempotency.fingerprint);
    v("server.idempotency.storeErrors", sa.idempotency.storeErrors, sb.idempotency.storeErrors);
    v("server.idempotency.tokenReuse", sa.idempotency.tokenReuse, sb.idempotency.tokenReuse);
    v("server.idempotency.store", sa.idempotency.store, sb.idempotency.store);

    v("reconciliation.enabled", a.reconciliation.enabled, b.reconciliation.enabled);
    v("reconciliation.intervalS", a.reconciliation.intervalS, b.reconciliation.intervalS);
    v("reconciliation.action", a.reconciliation.action, b.reconciliation.action);

    v("windows", detail::entryTexts(a.windows), detail::entryTexts(b.windows));
}

} // namespace retrylab::scenario
