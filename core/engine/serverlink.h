#pragma once

#include "engine/eventqueue.h"
#include "orderservice.h"
#include "server/serverpipeline.h"
#include "simulator.h"

#include <vector>

namespace retrylab::engine {

struct Flow;

// The server's counters into a run's metrics.
inline void applyServerCounts(Metrics &m, const ServerCounters &c)
{
    m.replays = c.replays;
    m.conflicts409 = c.conflicts409;
    m.mismatch422 = c.mismatch422;
    m.rejected400 = c.rejected400;
    m.throttled429 = c.throttled429;
    m.rejected503 = c.rejected503;
    m.serverErrors = int(c.serverErrors);
    m.versionConflicts = c.versionConflicts;
}

// Where the engine's client layers send an HTTP attempt once it leaves the client: the simulated
// network and server on the virtual clock (SimulatedNetwork), or a real order service over a
// WireTransport (LiveLink). The client's decisions are the same on both.
class ServerLink
{
public:
    virtual ~ServerLink() = default;

    // The run starts: schedule what the server does on its own (restarts, reconciliation).
    virtual void start() = 0;
    // Nothing listens (the server restarts): connections are refused.
    virtual bool down() const = 0;
    // POST /order-tokens for the flow's key, the run's `mint`-th, minted `where`; the flow
    // resumes with TokenReady.
    virtual void fetchToken(int fi, quint8 resume, const char *where, quint64 mint, TraceCause cause) = 0;
    // The token of flow fi is back and the flow resumes.
    virtual void tokenReady(int fi) = 0;
    // server.model occ: the attempt reads its row's version before it writes (the write follows
    // through Engine::sendWrite). False: the write goes at once.
    virtual bool readRow(int fi)
    {
        Q_UNUSED(fi);
        return false;
    }
    // Request ri (prepared by the engine) passed the client's connection: send it.
    virtual void send(int ri) = 0;
    // The client stopped waiting for the flow's attempt (its read timeout).
    virtual void abandon(Flow &f) = 0;
    // Whether a finished request's slot may be reused (a real server may still answer it late).
    virtual bool recyclesRequests() const = 0;
    // The records committed, as far as this side knows them (the live server counts its own).
    virtual const std::vector<StoredRecord> &records() const = 0;
    // GET /orders?ref= : the first record of the reference (0: none).
    virtual int firstRecord(int op) const = 0;
    // The server's counters and last commit, into the run's metrics (the simulated server).
    virtual void addCounts(Metrics &m) const { Q_UNUSED(m); }
    // The flow that committed record `id` and its attempt path; -1 when unknown.
    virtual int recordOrigin(int id, QString *path) const
    {
        Q_UNUSED(id);
        Q_UNUSED(path);
        return -1;
    }
    // An event this side scheduled (the way there and back, the server's own) falls due.
    virtual void dispatch(const Event &e) = 0;
};

} // namespace retrylab::engine
