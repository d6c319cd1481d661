#pragma once

#include "policy.h"
#include "server/serverpipeline.h"

#include <QString>

#include <vector>

namespace retrylab::engine {

// One submission of a logical operation as the client layers carry it: where its business,
// wrapper and transport loops stand, its key and payload, and the attempt it waits for.
struct Flow
{
    // What every event of the flow looks at first (a stale timeout, a release) shares a cache line.
    quint32 serial = 0;   // current attempt; stale events carry an older one
    bool waiting = false; // an attempt is outstanding
    bool done = false;
    bool succeeded = false;
    bool querying = false;
    // What still names this flow: events scheduled for it and requests on their way. A finished
    // flow is released (its slot reused) once both are zero.
    int pending = 0;
    int requests = 0;
    // The current attempt's read timeout in the engine's timeout FIFO (its absolute position), or
    // -1: cancelled when the attempt ends otherwise, so the stale timeout never touches the flow.
    qint64 timeoutSlot = -1;
    int self = -1;            // this flow's index in the engine
    int opState = -1;         // its operation's OpState (both submissions share it)
    int op = 0;
    int sub = 1;
    int client = 0;
    int b = 0, w = 0, t = 0;
    int postAttempts = 0;
    qint64 start = 0;
    qint64 end = 0;
    quint64 key = 0;
    quint64 fingerprint = 0;
    qint64 wrapperFirstStart = 0;
    qint64 prevBusinessWait = 0;
    qint64 prevWrapperWait = 0;
    TransportCounts transportDone; // urllib3 counters of the current transport loop
    TransportCounts queryDone;     // the same for the current status query's GET
    int qt = 0;               // HTTP attempts of the current status query
    bool tokenUsed = false;    // a POST got "409 order token already used": final for the client
    quint8 tokenResume = 0;     // live path: the layer event an order token is awaited for
    bool versionRead = false; // occ: the reading layer's current attempt has read its row
    int wire = -1;              // live path: the request of the outstanding attempt
    int row = 0;              // server.model occ: the row this operation updates
    qint64 readVersion = 0;   // occ: the version the current attempt read
    int pairFlow = -1;        // this operation's double submit, if any (on its first submission)
    int sentId = 0; // trace: the id of the current attempt's send (TransportAttempt or QuerySent)
    // The current POST attempt's network stream (faults::attemptStream), kept as its state: its
    // dice, the read, the send and the answer's latencies all extend it (one mix each, not seven).
    quint64 netStream = 0;
    // The flow's network and server streams keyed by (op, sub) alone: an attempt's streams extend
    // them by b, w and t (three mixes, not six).
    quint64 netPrefix = 0;
    quint64 serverPrefix = 0;
    // The backoff stream keyed by (op, sub), made at the flow's first retry draw (most flows of a
    // big run never retry): each draw extends it by its layer's numbers (Engine::backoffStream).
    quint64 backoffPrefix = 0;
    bool backoffReady = false;
    // The current attempt's request ID number, drawn once (mutable: filled while tracing a const flow).
    mutable quint64 cachedAttempt = ~0ull;
    mutable quint32 cachedRequestNumber = 0;
};

// One HTTP attempt on its way: the request as the server sees it, and the flow waiting for it.
struct Request : ServerRequest
{
    int flow = -1;
    quint32 serial = 0; // the flow's attempt it belongs to
    qint64 delayUs = 0; // a status query's latency to the server, drawn with its faults
    quint64 netStream = 0;    // a POST's: its flow's netStream when it was sent
    quint64 serverStream = 0; // the attempt's server stream, made when it reaches the server
    // A restart reset it while its processingDone was still due: of the two events that name it,
    // the reset reaching the client and that processingDone, the later one frees it.
    bool sharedByReset = false;
};

// One logical operation while any of its submissions is alive: what its metrics are made of
// when it is counted (Engine::countOp) and forgotten.
struct OpState
{
    int records = 0;   // committed (the simulated server tells the engine)
    int flows = 0;     // submissions not yet released
    int attempts = 0;  // POST attempts of the released ones
    bool ok = false;
    qint64 start = -1;
    qint64 end = 0;
    quint64 key = 0;   // per operation: the key of the first submission, for a double submit
};

// Per client: the retry budget and the circuit breaker (policy.h).
struct ClientState
{
    RetryBudget budget; // per client; the global one lives in client 0
    CircuitBreaker breaker;
};

} // namespace retrylab::engine
