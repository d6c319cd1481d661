#include "engine/simulatednetwork.h"

#include "engine/engine.h"
#include "engine/tracetext.h"
#include "server/serverpipelineimpl.h"

#include <algorithm>
#include <cmath>

namespace retrylab::engine {

using namespace faults::shortnames;

namespace {

ServerPipelineOptions pipelineOptions(const Scenario &s, const faults::Script &script)
{
    ServerPipelineOptions o;
    // The list of requests processing only matters to a restart.
    o.trackProcessing = !s.server.restartsAtS.isEmpty() || script.restarts();
    o.occ = s.server.model == ServerModel::Occ;
    return o;
}

} // namespace

SimulatedNetwork::SimulatedNetwork(Engine &engine)
    : m_engine(engine)
    , m_s(engine.scenario())
    , m_service(m_s.server)
    , m_pipeline(m_s, m_service, *this, pipelineOptions(m_s, engine.script()))
    , m_serverDice(faults::serverDiceMayHit(m_s))
    // The server's stream feeds its dice and a processing time that is drawn; a constant one
    // (faults::processingUs without a draw, as in the AWS study) needs no stream: three mixes less.
    , m_serverStream(m_serverDice || m_s.server.processingMs.shape != DistributionShape::Uniform
                     || m_s.server.processingMs.jitter != 0)
{
    // The engine counts a streamed run's records itself (Engine::committed). Of the records it
    // reads back: the tables take all, as do a status query and reconciliation (by reference);
    // a streamed trace's commit events name only each order's first record.
    if (engine.streaming() && !m_s.reconciliation.enabled && !m_s.client.queryBeforeRetry)
        m_service.setKeep(engine.tracing() ? OrderService::Keep::FirstByOp : OrderService::Keep::CountOnly);
}

qint64 SimulatedNetwork::latency(RngStream &rng) const
{
    return faults::drawUs(m_s.network.latencyMs, rng);
}

void SimulatedNetwork::start()
{
    if (m_s.reconciliation.enabled)
        m_engine.at(qint64(m_s.reconciliation.intervalS) * kS, Ev::Reconcile, 0);
    for (const int atS : m_s.server.restartsAtS)
        m_engine.at(qint64(atS) * kS, Ev::ServerRestart, 0);
}

bool SimulatedNetwork::down() const
{
    return m_engine.now() < m_downUntil;
}

void SimulatedNetwork::fetchToken(int fi, quint8 resume, const char *, quint64 mint, TraceCause cause)
{
    // POST /order-tokens: one round trip before the order can be sent.
    const Flow &f = m_engine.flow(fi);
    m_service.issueToken(f.key);
    RngStream rng(m_s.seed, RngStream::Identity, {quint64(f.op), quint64(f.sub), mint});
    const qint64 rtt = latency(rng) + latency(rng);
    if (m_engine.tracing())
        m_engine.traceFlow(Lane::Server, EventKind::TokenIssued, f, 201, 0, QString(),
                           {cause, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostToken});
    m_engine.at(m_engine.now() + rtt, Ev::TokenReady, fi, resume, 1);
}

bool SimulatedNetwork::readRow(int fi)
{
    if (m_s.server.model != ServerModel::Occ || down())
        return false;
    // Read the row's version first (GET, no faults: the AWS model), then write with it.
    const Flow &f = m_engine.flow(fi);
    m_engine.metrics().reads++;
    RngStream rng = RngStream::resumed(f.netStream).extended(11);
    m_engine.at(m_engine.now() + latency(rng), Ev::ReadArrive, fi, f.serial);
    return true;
}

void SimulatedNetwork::onReadArrive(int fi, quint32 serial)
{
    Flow &f = m_engine.flow(fi);
    if (f.done || f.serial != serial)
        return;
    f.readVersion = m_pipeline.rowVersion(f.row);
    if (m_engine.tracing())
        m_engine.traceFlow(Lane::Server, EventKind::RowRead, f, 200, 0, QString(),
                           {TraceCause::RowVersion, f.row + 1, f.readVersion, 0, f.sentId});
    RngStream rng = RngStream::resumed(f.netStream).extended(12);
    m_engine.at(m_engine.now() + latency(rng), Ev::ReadReply, fi, serial);
}

void SimulatedNetwork::onReadReply(int fi, quint32 serial)
{
    Flow &f = m_engine.flow(fi);
    if (f.done || f.serial != serial)
        return;
    f.versionRead = true;
    m_engine.sendWrite(f);
}

void SimulatedNetwork::send(int ri)
{
    Request &r = m_engine.request(ri);
    if (r.faults & FRequestLost) {
        if (m_engine.tracing())
            m_engine.traceReq(Lane::Network, EventKind::RequestLost, r, 0, 0, QString(),
                              {TraceCause::NeverReached});
        m_engine.freeRequest(ri);
        return;
    }
    qint64 delay = r.delayUs;
    if (!r.query) {
        RngStream rng = RngStream::resumed(r.netStream).extended(7);
        delay = latency(rng);
    }
    if (r.faults & FSpike) {
        delay += qint64(m_s.network.spikeMs) * kMs;
        if (m_engine.tracing())
            r.sentId = m_engine.traceReq(Lane::Network, EventKind::RequestDelayed, r, 0, 0, QString(),
                                         {TraceCause::LatencySpike, m_s.network.spikeMs});
    }
    m_engine.at(m_engine.now() + delay, Ev::RequestArrive, ri);
}

void SimulatedNetwork::arrive(int ri)
{
    Request &r = m_engine.request(ri);
    if (!r.query && m_serverStream) {
        // The server's own dice (429, 5xx) are drawn when the request reaches it.
        const Flow &f = m_engine.flow(r.flow);
        const RngStream server = Engine::attemptStream(f.serverPrefix, r.b, r.w, r.t);
        r.serverStream = server.state();
        if (m_serverDice)
            r.faults |= faults::serverDice(m_s, server, m_engine.now());
    }
    m_arriving = true;
    m_pipeline.arrive(ri);
    m_arriving = false;
}

void SimulatedNetwork::restartServer()
{
    m_pipeline.restart();
    m_downUntil = std::max(m_downUntil, m_engine.now() + qint64(m_s.server.restartDownMs) * kMs);
}

void SimulatedNetwork::onReconcile()
{
    // Without a commit since the last pass, every duplicate is already flagged (or voided):
    // a scan would find nothing.
    const qint64 now = m_engine.now();
    QList<ReconcileChange> changes;
    if (m_service.records().size() != m_reconciledRecords) {
        changes = m_service.reconcile(m_s.reconciliation.action, now);
        m_reconciledRecords = m_service.records().size();
    }
    for (const ReconcileChange &c : changes) {
        if (c.voided)
            m_engine.metrics().voided++;
        if (m_engine.tracing()) {
            TraceEvent e;
            e.t = now;
            e.lane = Lane::Database;
            e.kind = c.voided ? EventKind::ReconcileVoided : EventKind::ReconcileFlagged;
            e.op = c.op;
            e.record = c.record;
            e.composed = ComposedPath; // "op7": no attempt
            e.detailSource = DetailSource::Typed;
            e.cause = TraceCause::Duplicate;
            e.answers = m_pipeline.commitId(c.record);
            m_engine.put(std::move(e));
        }
    }
    // Keep scanning while anything can still commit (ghost requests outlive their clients).
    if (m_engine.busy() || !changes.isEmpty()) {
        // Passes before the next event of the run are no-ops (nothing can commit in between),
        // so the next pass is the first one at or after that event: an hour between orders
        // with a pass every second costs one pass, not 3600. Scheduled now or one interval
        // earlier, the pass orders the same against every other event, since nothing else
        // is scheduled in between.
        const qint64 interval = qint64(m_s.reconciliation.intervalS) * kS;
        const qint64 pending = m_engine.nextDue();
        qint64 next = now + interval;
        // An interval of 0 (refused by validation) must not divide by zero: run() stops its loop.
        if (pending > next && interval > 0)
            next = now + (pending - now + interval - 1) / interval * interval;
        m_engine.at(next, Ev::Reconcile, 0);
    }
}

void SimulatedNetwork::addCounts(Metrics &m) const
{
    applyServerCounts(m, m_pipeline.counters());
    m.lastCommitS = m_lastCommit >= 0 ? double(m_lastCommit) / kS : 0;
}

int SimulatedNetwork::recordOrigin(int id, QString *path) const
{
    const size_t idx = size_t(id - 1);
    if (idx >= m_recordFlow.size())
        return -1;
    *path = m_recordPath[idx];
    return m_recordFlow[idx];
}

// ------------------------------------------------------------------ ServerHost

ServerRequest &SimulatedNetwork::request(Id id)
{
    return m_engine.request(int(id));
}

qint64 SimulatedNetwork::serviceNowUs() const
{
    return m_engine.now();
}

bool SimulatedNetwork::tracing() const
{
    return m_engine.tracing();
}

int SimulatedNetwork::trace(Id id, Lane lane, EventKind kind, int status, int record, const QString &detail,
                            const TraceTyped &typed)
{
    return m_engine.traceReq(lane, kind, m_engine.request(int(id)), status, record, detail, typed);
}

qint64 SimulatedNetwork::processingUs(Id id)
{
    const Request &r = m_engine.request(int(id));
    qint64 p = faults::processingUs(m_s, RngStream::resumed(r.serverStream));
    if (m_s.server.latencyPerInFlightMs > 0) // the others already processing slow this one down
        p += qint64(std::llround(m_s.server.latencyPerInFlightMs * kMs * (m_pipeline.busy() - 1)));
    return p;
}

void SimulatedNetwork::describeProcessing(qint64 us, QString *, TraceTyped *typed)
{
    // No detail: TraceEvent::detail() words it from the cause and the milliseconds.
    typed->cause = TraceCause::Processing;
    typed->arg = (us + kMs / 2) / kMs;
}

void SimulatedNetwork::schedule(Id id, qint64 us)
{
    // No processing time (server.processingMs 0, as in the AWS study): the end of processing is
    // the next event when nothing else is due at this instant, so it runs here. Only from an
    // arrival, where the pipeline schedules as its last act (ServerPipeline::startProcessing at
    // the end of arrive()), so nothing of the arrival's handler is left to come after it;
    // a queued request started by a finishing one (releaseSlot, before its answer) is scheduled.
    if (us == 0 && m_arriving && m_engine.runsNow()) {
        m_arriving = false;
        m_pipeline.processingDone(id);
        return;
    }
    m_engine.at(m_engine.now() + us, Ev::ProcessingDone, int(id));
}

void SimulatedNetwork::deliver(Id id)
{
    const Request &r = m_engine.request(int(id));
    RngStream rng = RngStream::resumed(r.netStream).extended(8);
    m_engine.at(m_engine.now() + latency(rng), Ev::ResponseArrive, int(id));
}

void SimulatedNetwork::resetConnection(Id id)
{
    const Request &r = m_engine.request(int(id));
    RngStream rng = RngStream::resumed(r.netStream).extended(8);
    m_engine.at(m_engine.now() + latency(rng), Ev::ResetArrive, int(id));
}

void SimulatedNetwork::drop(Id id, bool pending)
{
    if (pending) // freed when its ProcessingDone finds the old epoch
        return;
    Request &r = m_engine.request(int(id));
    if (r.sharedByReset) // its reset is still on the way to the client, which frees it
        r.sharedByReset = false;
    else
        m_engine.freeRequest(int(id));
}

void SimulatedNetwork::crashReset(Id id, bool processing)
{
    m_engine.request(int(id)).sharedByReset = processing;
    resetConnection(id);
}

bool SimulatedNetwork::orderExists(Id id)
{
    Request &r = m_engine.request(int(id));
    r.record = m_service.findByRef(r.order.op);
    return r.record != 0;
}

void SimulatedNetwork::committed(Id id, int record)
{
    Q_UNUSED(record);
    const Request &r = m_engine.request(int(id));
    const Flow &f = m_engine.flow(r.flow);
    m_engine.committed(r.flow);
    m_lastCommit = m_engine.now();
    // The client no longer waits for this attempt: it timed out, went on, or finished.
    if (!f.waiting || f.serial != r.serial)
        m_engine.metrics().lateCommits++;
    if (m_engine.tables()) {
        m_recordFlow.push_back(r.flow);
        m_recordPath.push_back(m_engine.path(f, r.b, r.w, r.t));
    }
}

QString SimulatedNetwork::orderRef(Id id)
{
    return orderText(m_engine.request(int(id)).order.op);
}

} // namespace retrylab::engine

namespace retrylab {

// The pipeline on the simulated network, its host's calls direct (see serverpipeline.h).
template class BasicServerPipeline<engine::SimulatedNetwork>;

} // namespace retrylab
