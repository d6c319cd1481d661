#include "simulator.h"

#include "engine/engine.h"
#include "work.h"

#include <algorithm>
#include <limits>

namespace retrylab {

qint64 maxEventsAtOneInstant(const Scenario &scenario)
{
    // A POST attempt causes at most 6 events (the layer event that starts it, a token ready, then
    // a refused connection, or arrival, end of processing, response and read timeout), a status
    // query attempt 4, a submission its start; one instant holds at most one reconciliation pass
    // and the restarts scheduled for it. 16 per request leaves room for all of them.
    const ClientConfig &c = scenario.client;
    const qint64 transport = c.transport.enabled ? std::max(0, c.transport.worstCaseRetries()) + 1 : 1;
    const qint64 requests = work::saturatedProduct(std::max<qint64>(1, work::estimate(scenario).attempts), transport);
    const qint64 submissions = qint64(std::max(1, scenario.workload.operations())) * 2;
    const qint64 events = work::saturatedProduct(16, requests);
    const qint64 slack = submissions + scenario.server.restartsAtS.size() + 1024;
    return events > std::numeric_limits<qint64>::max() - slack ? std::numeric_limits<qint64>::max() : events + slack;
}

RunResult simulate(const Scenario &scenario, const RunOptions &options)
{
    engine::Engine engine(scenario, options);
    return engine.run();
}

bool Metrics::operator==(const Metrics &o) const
{
    return flat() == o.flat() && lastCommitKnown == o.lastCommitKnown;
}

QJsonObject Metrics::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("logicalOperations"), logicalOperations);
    o.insert(QStringLiteral("httpAttempts"), httpAttempts); // a JSON integer: exact beyond 2^53
    o.insert(QStringLiteral("records"), records);
    o.insert(QStringLiteral("duplicates"), duplicates);
    o.insert(QStringLiteral("duplicatesOutstanding"), duplicatesOutstanding);
    o.insert(QStringLiteral("orphans"), orphans);
    o.insert(QStringLiteral("lost"), lost);
    o.insert(QStringLiteral("replays"), replays);
    o.insert(QStringLiteral("conflicts409"), conflicts409);
    o.insert(QStringLiteral("mismatch422"), mismatch422);
    o.insert(QStringLiteral("rejected400"), rejected400);
    o.insert(QStringLiteral("throttled429"), throttled429);
    o.insert(QStringLiteral("rejected503"), rejected503);
    o.insert(QStringLiteral("serverErrors"), serverErrors);
    o.insert(QStringLiteral("clientSucceeded"), clientSucceeded);
    o.insert(QStringLiteral("clientFailed"), clientFailed);
    o.insert(QStringLiteral("timeouts"), timeouts);
    o.insert(QStringLiteral("queries"), queries);
    o.insert(QStringLiteral("queryAttempts"), queryAttempts);
    o.insert(QStringLiteral("budgetRefusals"), budgetRefusals);
    o.insert(QStringLiteral("circuitRejections"), circuitRejections);
    o.insert(QStringLiteral("voided"), voided);
    o.insert(QStringLiteral("amplification"), amplification);
    o.insert(QStringLiteral("maxAttemptsPerOp"), maxAttemptsPerOp);
    o.insert(QStringLiteral("worstCaseAttemptsPerOp"), worstCaseAttemptsPerOp);
    QJsonObject lat;
    lat.insert(QStringLiteral("p50"), latencyP50Ms);
    lat.insert(QStringLiteral("p95"), latencyP95Ms);
    lat.insert(QStringLiteral("p99"), latencyP99Ms);
    o.insert(QStringLiteral("latencyMs"), lat);
    o.insert(QStringLiteral("durationS"), durationS);
    o.insert(QStringLiteral("goodputPerS"), goodputPerS);
    o.insert(QStringLiteral("lastCommitS"), lastCommitKnown ? QJsonValue(lastCommitS) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("lateCommits"), lateCommits);
    o.insert(QStringLiteral("completionS"), completionS);
    QJsonObject perOp;
    perOp.insert(QStringLiteral("p50"), attemptsPerOpP50);
    perOp.insert(QStringLiteral("p99"), attemptsPerOpP99);
    o.insert(QStringLiteral("attemptsPerOp"), perOp);
    o.insert(QStringLiteral("reads"), reads);
    o.insert(QStringLiteral("writeAttempts"), writeAttempts);
    o.insert(QStringLiteral("versionConflicts"), versionConflicts);
    return o;
}

QList<QPair<QString, double>> Metrics::flat() const
{
    return {
        {QStringLiteral("logicalOperations"), double(logicalOperations)},
        {QStringLiteral("httpAttempts"), double(httpAttempts)},
        {QStringLiteral("records"), double(records)},
        {QStringLiteral("duplicates"), double(duplicates)},
        {QStringLiteral("duplicatesOutstanding"), double(duplicatesOutstanding)},
        {QStringLiteral("orphans"), double(orphans)},
        {QStringLiteral("lost"), double(lost)},
        {QStringLiteral("replays"), double(replays)},
        {QStringLiteral("conflicts409"), double(conflicts409)},
        {QStringLiteral("mismatch422"), double(mismatch422)},
        {QStringLiteral("rejected400"), double(rejected400)},
        {QStringLiteral("throttled429"), double(throttled429)},
        {QStringLiteral("rejected503"), double(rejected503)},
        {QStringLiteral("serverErrors"), double(serverErrors)},
        {QStringLiteral("clientSucceeded"), double(clientSucceeded)},
        {QStringLiteral("clientFailed"), double(clientFailed)},
        {QStringLiteral("timeouts"), double(timeouts)},
        {QStringLiteral("queries"), double(queries)},
        {QStringLiteral("queryAttempts"), double(queryAttempts)},
        {QStringLiteral("budgetRefusals"), double(budgetRefusals)},
        {QStringLiteral("circuitRejections"), double(circuitRejections)},
        {QStringLiteral("voided"), double(voided)},
        {QStringLiteral("amplification"), amplification},
        {QStringLiteral("maxAttemptsPerOp"), double(maxAttemptsPerOp)},
        {QStringLiteral("worstCaseAttemptsPerOp"), double(worstCaseAttemptsPerOp)},
        {QStringLiteral("latencyP50Ms"), latencyP50Ms},
        {QStringLiteral("latencyP95Ms"), latencyP95Ms},
        {QStringLiteral("latencyP99Ms"), latencyP99Ms},
        {QStringLiteral("durationS"), durationS},
        {QStringLiteral("goodputPerS"), goodputPerS},
        {QStringLiteral("lastCommitS"), lastCommitS},
        {QStringLiteral("lateCommits"), double(lateCommits)},
        {QStringLiteral("completionS"), completionS},
        {QStringLiteral("attemptsPerOpP50"), attemptsPerOpP50},
        {QStringLiteral("attemptsPerOpP99"), attemptsPerOpP99},
        {QStringLiteral("reads"), double(reads)},
        {QStringLiteral("writeAttempts"), double(writeAttempts)},
        {QStringLiteral("versionConflicts"), double(versionConflicts)},
    };
}

} // namespace retrylab
