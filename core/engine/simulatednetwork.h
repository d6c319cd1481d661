#pragma once

#include "engine/serverlink.h"
#include "faults.h"
#include "orderservice.h"
#include "server/serverpipeline.h"

#include <QString>

#include <vector>

namespace retrylab::engine {

class Engine;

// A simulated run's network and server on the engine's virtual clock. The network model: the
// way there (request loss, latency spikes, latency) and back (response loss, resets, latency).
// The server model: the order service on the ServerPipeline, restarts on schedule, the occ rows
// and the reconciliation job.
// It is the pipeline's host as a final class (BasicServerPipeline<SimulatedNetwork>): the
// pipeline's calls to it are direct, and its small steps inline.
class SimulatedNetwork final : public ServerLink, private ServerHost
{
    friend class BasicServerPipeline<SimulatedNetwork>;

public:
    explicit SimulatedNetwork(Engine &engine);

    // ServerLink
    void start() override;
    bool down() const override;
    void fetchToken(int fi, quint8 resume, const char *where, quint64 mint, TraceCause cause) override;
    bool readRow(int fi) override;
    void tokenReady(int) override {}
    void send(int ri) override;
    void abandon(Flow &) override {}
    bool recyclesRequests() const override { return true; }
    const std::vector<StoredRecord> &records() const override { return m_service.records(); }
    int firstRecord(int op) const override { return m_service.findByRef(op); }
    void addCounts(Metrics &m) const override;
    int recordOrigin(int id, QString *path) const override;
    // Inline: the engine's dispatch calls it directly (the class is final), so its switch joins
    // the engine's instead of costing a call for four of the AWS figure's six events per write.
    void dispatch(const Event &e) override;

private:
    qint64 latency(RngStream &rng) const;
    void arrive(int ri);
    void onReadArrive(int fi, quint32 serial);
    void onReadReply(int fi, quint32 serial);
    void onReconcile();
    void restartServer();

    // ServerHost
    ServerRequest &request(Id id) override;
    qint64 serviceNowUs() const override;
    bool tracing() const override;
    int trace(Id id, Lane lane, EventKind kind, int status, int record, const QString &detail,
              const TraceTyped &typed) override;
    qint64 processingUs(Id id) override;
    void schedule(Id id, qint64 us) override;
    void deliver(Id id) override;
    void resetConnection(Id id) override;
    void drop(Id id, bool pending) override;
    void crashReset(Id id, bool processing) override;
    bool orderExists(Id id) override;
    void committed(Id id, int record) override;
    void restartNow() override { restartServer(); }
    QString orderRef(Id id) override;
    void describeProcessing(qint64 us, QString *detail, TraceTyped *typed) override;

    Engine &m_engine;
    const Scenario &m_s;
    OrderService m_service;
    BasicServerPipeline<SimulatedNetwork> m_pipeline;
    bool m_serverDice = true; // faults::serverDiceMayHit, asked once per run
    bool m_serverStream = true; // an arriving POST's server stream is drawn from (dice or processing time)
    bool m_arriving = false; // inside arrive(): the pipeline's arrival, which ends with schedule()
    qint64 m_downUntil = -1; // down until then: connections are refused, arrivals dropped
    qint64 m_lastCommit = -1;
    size_t m_reconciledRecords = 0; // records that the last reconciliation pass saw
    std::vector<int> m_recordFlow;  // per record (with the tables): the flow that committed it
    std::vector<QString> m_recordPath;
};

inline void SimulatedNetwork::dispatch(const Event &e)
{
    switch (e.type()) {
    case Ev::RequestArrive:
        arrive(e.a);
        break;
    case Ev::ProcessingDone:
        m_pipeline.processingDone(e.a);
        break;
    case Ev::Reconcile:
        onReconcile();
        break;
    case Ev::ServerRestart:
        restartServer();
        break;
    case Ev::ReadArrive:
        onReadArrive(e.a, e.serial);
        break;
    case Ev::ReadReply:
        onReadReply(e.a, e.serial);
        break;
    default:
        break;
    }
}

} // namespace retrylab::engine
