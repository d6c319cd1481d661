#pragma once

#include "faults.h"
#include "orderservice.h"
#include "scenario.h"

namespace retrylab {

// What a request that reaches its commit answers and what its key stores, from its faults: one
// decision, made by the server pipeline when the service commits (ServerPipeline::commit) and by
// serve when its group commit writes the rows a moment before (OrderServerPrivate::orderCommit).
struct CommitDecision
{
    bool failsAfterCommit = false; // server5xxAfterCommit: committed, then answered errorStatus
    int status = 201;              // the answer's status
    int keyStatus = 201;           // what the key replays (OrderService::storedStatus)
};

inline CommitDecision commitDecision(quint32 faults, const ServerConfig &server)
{
    CommitDecision d;
    d.failsAfterCommit = faults & faults::Error5xxAfter;
    d.status = d.failsAfterCommit ? server.errorStatus : 201;
    d.keyStatus = OrderService::storedStatus(d.failsAfterCommit ? KeyOutcome::FailedAfterCommit : KeyOutcome::Created,
                                             d.status, server.idempotency);
    return d;
}

} // namespace retrylab
