#pragma once

// A server host for tests on a third clock: it only records what the pipeline asks of it, so the
// pipeline's sequence is checked without the engine or sockets (tst_serverpipeline, tst_storedresults).
#include "server/serverpipeline.h"

#include <map>
#include <vector>

namespace retrylab::test {

// Requests by id; timers fire when the test says so.
class RecordingHost final : public ServerHost
{
public:
    std::map<Id, ServerRequest> requests;
    std::vector<Id> scheduled;          // processing started, in order
    std::vector<std::pair<Id, int>> delivered; // (id, status) answers that left the server
    std::vector<Id> dropped;
    std::vector<EventKind> kinds;       // every trace event, in order
    bool isDown = false;
    int restarts = 0;
    QString refuseCommit; // persist() refuses with this reason when set (a store that says no)
    ServerPipeline *pipeline = nullptr;

    Id add(const ServerRequest &r)
    {
        const Id id = Id(requests.size() + 1);
        requests[id] = r;
        return id;
    }
    ServerRequest &request(Id id) override { return requests.at(id); }
    qint64 serviceNowUs() const override { return 0; }
    bool down() const override { return isDown; }
    bool tracing() const override { return true; }
    int trace(Id, Lane, EventKind kind, int, int, const QString &, const TraceTyped &) override
    {
        kinds.push_back(kind);
        return int(kinds.size());
    }
    qint64 processingUs(Id) override { return 1000; }
    void schedule(Id id, qint64) override { scheduled.push_back(id); }
    void deliver(Id id) override { delivered.emplace_back(id, requests.at(id).status); }
    void resetConnection(Id id) override { dropped.push_back(id); }
    void drop(Id id, bool) override { dropped.push_back(id); }
    bool orderExists(Id id) override { return requests.at(id).order.op == 7; }
    void committed(Id, int) override {}
    QString persist(Id, const CommitDecision &, qint64, bool *keyTaken) override
    {
        *keyTaken = false;
        return refuseCommit;
    }
    void restartNow() override
    {
        ++restarts;
        pipeline->restart();
    }
    QString orderRef(Id) override { return QStringLiteral("ORD-0007"); }
    void describeProcessing(qint64, QString *detail, TraceTyped *) override { *detail = QStringLiteral("processing 1 ms"); }
};

inline ServerRequest post(int op, quint64 key = 0)
{
    ServerRequest r;
    r.order.op = op;
    r.order.key = key;
    r.order.fingerprint = 1;
    return r;
}

} // namespace retrylab::test
