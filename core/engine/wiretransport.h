#pragma once

#include <QString>

namespace retrylab {

// One HTTP request that the client side of a run sends to a real order service (the live path;
// the simulated network and server stay inside the engine).
struct WireAttempt
{
    int id = 0;         // the engine's handle: pass it back with the reply
    bool query = false; // GET /orders?ref= (a status query), else POST /orders
    int op = 0;
    int client = 0;    // the scenario's client (workload.clients) that sends it
    QString ref;       // "ORD-0007"
    QString path;      // "op7/b2/w1/t3": X-RetryLab-Attempt, so the server meets the scripted faults
    QString requestId; // X-Request-ID
    QString key;       // Idempotency-Key; empty: none
    // 0: the order as first built; else the rebuilt payload of a retry (mutatePayloadOnRetry),
    // business attempt * 1000 + wrapper attempt, as the simulated fingerprint counts it.
    int payloadRevision = 0;
};

// What came back for a WireAttempt.
struct WireReply
{
    enum Kind { Response, Reset, Refused };
    Kind kind = Response;
    int status = 0;
    int retryAfterS = -1;
    bool replayed = false;  // Idempotent-Replayed: true
    bool tokenUsed = false; // 409 because the single-use order token was already used
    int record = 0;         // the order's id in the answer, 0 when none
};

// Where the live client side sends its requests. Every call is made from inside
// SteppedRun::advanceTo; answers go back through SteppedRun::reply / tokenIssued / tokenFailed,
// never from inside these calls.
class WireTransport
{
public:
    virtual ~WireTransport() = default;
    virtual void send(const WireAttempt &attempt) = 0;
    // The client stopped waiting for this attempt (its read timeout): drop the request.
    virtual void abandon(int id) = 0;
    // POST /order-tokens (server-issued token mode).
    virtual void fetchToken(int id, const QString &requestId) = 0;
};

} // namespace retrylab
