#pragma once

#include "scenario.h"

namespace retrylab::scenario {

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
}

} // namespace retrylab::scenario
