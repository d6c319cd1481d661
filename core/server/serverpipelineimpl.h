#pragma once

// The definitions of BasicServerPipeline, for the files that instantiate it: serverpipeline.cpp
// (ServerHost) and core/engine/simulatednetwork.cpp (the simulated network).

#include "server/serverpipeline.h"

#include "faults.h"

#include <algorithm>

namespace retrylab {

using namespace faults::shortnames;

template <class Host>
BasicServerPipeline<Host>::BasicServerPipeline(const Scenario &scenario, OrderService &service, Host &host,
                                               const Options &options)
    : m_s(scenario)
    , m_service(&service)
    , m_host(host)
    , m_options(options)
{
    if (options.occ)
        setRows(scenario.server.occRows);
}

template <class Host>
void BasicServerPipeline<Host>::setService(OrderService &service)
{
    m_service = &service;
    m_counters = ServerCounters();
}

template <class Host>
void BasicServerPipeline<Host>::arrive(ServerHost::Id id)
{
    ServerRequest &r = m_host.request(id);
    const bool tracing = m_host.tracing();
    if (m_host.down()) {
        // Sent before the restart, arriving while the server is down: the connection is gone.
        if (tracing)
            trace(id, Lane::Network, EventKind::RequestLost, 0, 0, QString(), {TraceCause::ServerRestarting});
        m_host.drop(id, false);
        return;
    }
    r.epoch = m_epoch;
    if (tracing)
        r.arrivedId = trace(id, Lane::Server, EventKind::RequestArrived, 0, 0,
                                  QString());
    if (r.faults & FRequestLost) {
        // Read and dropped: the connection stays open and silent until the client gives up.
        if (tracing)
            trace(id, Lane::Network, EventKind::RequestLost, 0, 0, QString(), {TraceCause::ReadAndDropped});
        m_host.drop(id, false);
        return;
    }
    if (r.query)
        return answerQuery(id);
    const ServerConfig &sc = m_s.server;
    if (r.faults & F429) {
        m_counters.throttled429++;
        if (tracing)
            trace(id, Lane::Server, EventKind::Rejected, 429, 0,
                  QString(), {TraceCause::RateLimited, sc.retryAfterS});
        return answer(id, 429, sc.retryAfterS, ServerAnswer::Throttled);
    }
    if (sc.capacity > 0 && m_busy >= sc.capacity) {
        if (int(m_waiting.size()) < sc.queue) {
            m_waiting.push_back(id);
            if (tracing)
                trace(id, Lane::Server, EventKind::Queued, 0, 0, QString(),
                      {TraceCause::QueuePosition, qint64(m_waiting.size())});
            return;
        }
        m_counters.rejected503++;
        if (tracing)
            trace(id, Lane::Server, EventKind::Rejected, 503, 0,
                  QString(), {TraceCause::ServerFull, sc.retryAfterS});
        return answer(id, 503, sc.retryAfterS, ServerAnswer::Full);
    }
    startProcessing(id);
}

template <class Host>
void BasicServerPipeline<Host>::answerQuery(ServerHost::Id id)
{
    ServerRequest &r = m_host.request(id);
    const ServerConfig &sc = m_s.server;
    const bool tracing = m_host.tracing();
    if (r.faults & F429) {
        m_counters.throttled429++;
        if (tracing)
            trace(id, Lane::Server, EventKind::Rejected, 429, 0,
                  QString(), {TraceCause::RateLimited, sc.retryAfterS});
        return answer(id, 429, sc.retryAfterS, ServerAnswer::Query);
    }
    if (r.faults & (F5xxBefore | F5xxAfter)) {
        m_counters.serverErrors++;
        if (tracing)
            trace(id, Lane::Server, EventKind::ServerError, sc.errorStatus, 0, QString(),
                  {TraceCause::QueryFailed});
        return answer(id, sc.errorStatus, -1, ServerAnswer::Query);
    }
    answer(id, m_host.orderExists(id) ? 200 : 404, -1, ServerAnswer::Query);
}

template <class Host>
void BasicServerPipeline<Host>::startProcessing(ServerHost::Id id)
{
    ServerRequest &r = m_host.request(id);
    const bool tracing = m_host.tracing();
    const ServiceDecision d = m_service->begin(r.order, m_host.serviceNowUs());
    if (d.keyExpired) {
        m_host.keyExpired(id);
        if (tracing)
            trace(id, Lane::Database, EventKind::KeyExpired, 0, 0, QString(),
                  {TraceCause::KeyTtl, m_s.server.idempotency.ttlS});
    }
    if (d.kind == ServiceDecision::Reject) {
        r.tokenUsed = d.tokenUsed;
        return reject(id, d.status, d.reason, {d.why}, d.why);
    }
    if (d.kind == ServiceDecision::Replay) {
        m_counters.replays++;
        r.replayed = true;
        r.record = d.record;
        if (tracing)
            trace(id, Lane::Server, EventKind::Replayed, d.status, d.record, QString(),
                  {TraceCause::None, 0, 0, 0, commitId(d.record)});
        return answer(id, d.status, -1, ServerAnswer::Replayed);
    }
    if (tracing && d.keyReserved)
        trace(id, Lane::Database, EventKind::KeyReserved, 0, 0, QString());
    m_busy++;
    const qint64 p = m_host.processingUs(id);
    if (d.keyReserved) {
        const QString refused = m_host.reserveKey(id, p);
        if (!refused.isEmpty()) {
            // The store found the key taken (another process sharing it): this request never held it.
            m_service->release(r.order);
            m_busy--;
            reject(id, 409, refused, {TraceCause::KeyTaken, 1}, TraceCause::None);
            return releaseSlot();
        }
    }
    if (m_options.trackProcessing)
        m_processing.push_back(id);
    if (tracing) {
        QString detail;
        TraceTyped typed;
        m_host.describeProcessing(p, &detail, &typed);
        trace(id, Lane::Server, EventKind::ProcessingStarted, 0, 0, detail, typed);
    }
    m_host.schedule(id, p);
}

template <class Host>
void BasicServerPipeline<Host>::reject(ServerHost::Id id, int status, const QString &reason, const TraceTyped &typed,
                            TraceCause bodyCause)
{
    if (status == 409)
        m_counters.conflicts409++;
    else if (status == 422)
        m_counters.mismatch422++;
    else if (status == 400)
        m_counters.rejected400++;
    if (m_host.tracing())
        trace(id, Lane::Server, EventKind::Rejected, status, 0, typed.cause == TraceCause::KeyTaken ? reason : QString(), typed);
    answer(id, status, -1, ServerAnswer::Refused, reason, bodyCause);
}

template <class Host>
bool BasicServerPipeline<Host>::isProcessing(ServerHost::Id id) const
{
    return std::find(m_processing.begin(), m_processing.end(), id) != m_processing.end();
}

template <class Host>
void BasicServerPipeline<Host>::untrack(ServerHost::Id id)
{
    const auto it = std::find(m_processing.begin(), m_processing.end(), id);
    if (it != m_processing.end()) {
        *it = m_processing.back();
        m_processing.pop_back();
    }
}

template <class Host>
void BasicServerPipeline<Host>::processingDone(ServerHost::Id id)
{
    ServerRequest &r = m_host.request(id);
    if (m_options.trackProcessing) {
        if (r.epoch != m_epoch) {
            m_host.drop(id, false); // dropped by a restart while it was processing
            return;
        }
        untrack(id);
    }
    const qint64 now = m_host.serviceNowUs();
    const int errorStatus = m_s.server.errorStatus;
    if (r.faults & F5xxBefore) {
        m_counters.serverErrors++;
        // Rolled back: nothing is stored under the key, its reservation goes (storedStatus).
        m_service->failBeforeCommit(r.order, KeyOutcome::FailedBeforeCommit);
        m_host.failedBeforeCommit(id, now);
        if (m_host.tracing())
            trace(id, Lane::Server, EventKind::ServerError, errorStatus, 0, QString(),
                  {TraceCause::InjectedError, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::BeforeCommit});
        return finished(id, errorStatus, ServerAnswer::FailedBeforeCommit);
    }
    if (m_options.occ) {
        qint64 &version = m_rowVersion[size_t(r.row)];
        if (r.version != version) {
            m_counters.versionConflicts++;
            // A conflict the client is meant to retry: not a result to replay (storedStatus).
            m_service->failBeforeCommit(r.order, KeyOutcome::VersionConflict);
            if (m_host.tracing())
                trace(id, Lane::Server, EventKind::VersionConflict, 409, 0, QString(),
                      {TraceCause::StaleVersion, r.row + 1, r.version, version});
            return finished(id, 409, ServerAnswer::VersionConflict);
        }
        ++version;
    }
    commit(id, now);
}

template <class Host>
void BasicServerPipeline<Host>::commit(ServerHost::Id id, qint64 now)
{
    ServerRequest &r = m_host.request(id);
    const int errorStatus = m_s.server.errorStatus;
    const CommitDecision decision = commitDecision(r.faults, m_s.server);
    const bool after = decision.failsAfterCommit;
    const int status = decision.status;
    bool keyTaken = false;
    const QString refused = m_host.persist(id, decision, now, &keyTaken);
    if (!refused.isEmpty()) {
        m_service->release(r.order);
        if (keyTaken) {
            m_counters.conflicts409++;
            if (m_host.tracing())
                trace(id, Lane::Server, EventKind::Rejected, 409, 0, refused, {TraceCause::KeyTaken});
            return finished(id, 409, ServerAnswer::Refused, refused);
        }
        if (m_host.tracing())
            trace(id, Lane::Server, EventKind::ServerError, 500, 0, refused, {TraceCause::CommitRefused});
        return finished(id, 500, ServerAnswer::Refused, refused);
    }
    const int record = m_service->commit(r.order, now, status);
    r.committed = true;
    r.record = record;
    m_host.committed(id, record);
    const bool tracing = m_host.tracing();
    if (tracing) {
        const int first = m_service->findByRef(r.order.op);
        const bool occ = m_options.occ;
        const qint64 v = occ ? m_rowVersion[size_t(r.row)] : 0;
        // Worded from these (TraceEvent::detail()): "INSERT order ORD-0007", "UPDATE row 3 to version 2 (ORD-0007)".
        const TraceTyped typed{first == record ? TraceCause::Insert : TraceCause::Duplicate, first == record ? 0 : first,
                               occ ? r.row + 1 : 0, v};
        const int eventId = trace(id, Lane::Database, EventKind::Committed, 0, record, QString(), typed);
        if (size_t(record) > m_commitIds.size())
            m_commitIds.resize(size_t(record), 0);
        m_commitIds[size_t(record - 1)] = eventId;
    }
    if (r.faults & FRestart) {
        // Committed, then the process restarts before it answers: the client only sees a timeout.
        if (tracing)
            trace(id, Lane::Server, EventKind::ServerRestarted, 0, record, QString(),
                  faults::restartTyped(m_s, CommitPhase::AfterCommit));
        m_busy--;
        if (m_s.server.restartInFlight == RestartInFlight::Reset)
            m_host.crashReset(id, false);
        else
            m_host.drop(id, false);
        return m_host.restartNow();
    }
    if (after) {
        m_counters.serverErrors++;
        if (tracing)
            trace(id, Lane::Server, EventKind::ServerError, errorStatus, record, QString(),
                  {TraceCause::InjectedError, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::AfterCommit});
    }
    finished(id, status, after ? ServerAnswer::FailedAfterCommit : ServerAnswer::Created);
}

template <class Host>
void BasicServerPipeline<Host>::finished(ServerHost::Id id, int status, ServerAnswer why, const QString &reason)
{
    m_busy--;
    if (m_options.answerBeforeRelease) {
        answer(id, status, -1, why, reason);
        releaseSlot();
    } else {
        releaseSlot();
        answer(id, status, -1, why, reason);
    }
}

template <class Host>
void BasicServerPipeline<Host>::releaseSlot()
{
    const int capacity = m_s.server.capacity;
    do {
        if (m_waiting.empty() || (capacity > 0 && m_busy >= capacity))
            return;
        const ServerHost::Id next = m_waiting.front();
        m_waiting.pop_front();
        startProcessing(next);
    } while (m_options.fillFreeSlots);
}

template <class Host>
void BasicServerPipeline<Host>::answer(ServerHost::Id id, int status, int retryAfterS, ServerAnswer why, const QString &reason,
                            TraceCause cause)
{
    ServerRequest &r = m_host.request(id);
    r.status = status;
    r.retryAfterS = retryAfterS;
    m_host.prepareAnswer(id, why, reason, cause);
    const bool tracing = m_host.tracing();
    if (tracing)
        r.respondedId = trace(id, Lane::Server, EventKind::ResponseSent, status, r.record,
                              QString(),
                              {TraceCause::None, retryAfterS, 0, 0, 0, r.replayed ? TraceOutcome::Replayed : TraceOutcome::Response});
    const CommitPhase phase = r.committed ? CommitPhase::AfterCommit : CommitPhase::None;
    if (r.faults & FResponseLost) {
        // Held: no answer and no close, so the client sees its own read timeout.
        if (tracing)
            trace(id, Lane::Network, EventKind::ResponseLost, status, r.record,
                  QString(),
                  {TraceCause::ResponseLost, 0, 0, 0, r.respondedId, TraceOutcome::None, phase});
        return m_host.drop(id, false);
    }
    if (r.faults & FReset) {
        if (tracing)
            trace(id, Lane::Network, EventKind::ConnectionReset, 0, r.record, QString(),
                  {TraceCause::PeerReset, 0, 0, 0, r.respondedId, TraceOutcome::None, phase});
        return m_host.resetConnection(id);
    }
    m_host.deliver(id);
}

template <class Host>
std::vector<ServerHost::Id> BasicServerPipeline<Host>::takeAll()
{
    std::vector<ServerHost::Id> all(m_waiting.begin(), m_waiting.end());
    all.insert(all.end(), m_processing.begin(), m_processing.end());
    m_waiting.clear();
    m_processing.clear();
    m_busy = 0;
    return all;
}

template <class Host>
void BasicServerPipeline<Host>::restart(const QString &why)
{
    // Every request the server holds is dropped: queued and processing ones never get an answer,
    // their connections reset at once or (hang) silent until their clients time out. An in-flight key reservation is rolled back with its transaction;
    // a memory key store forgets every key. The lists are emptied first: a dropped request's host
    // may call back into the pipeline.
    const std::deque<ServerHost::Id> waiting = std::move(m_waiting);
    const std::vector<ServerHost::Id> processing = std::move(m_processing);
    m_waiting.clear();
    m_processing.clear();
    m_busy = 0;
    ++m_epoch;
    const bool tracing = m_host.tracing();
    const TraceTyped typed = faults::restartTyped(m_s, CommitPhase::BeforeCommit);
    QString dropped; // null: worded from the typed fields (TraceEvent::detail()); a host's reason is text
    if (tracing && !why.isEmpty())
        dropped = faults::restartText(m_s, QStringLiteral("request dropped:")) + QStringLiteral(" (%1)").arg(why);
    // A crash resets their connections at once (the kernel closes a dead process's sockets); a
    // hang leaves them silent until each client's timeout.
    const bool reset = m_s.server.restartInFlight == RestartInFlight::Reset;
    for (const ServerHost::Id id : waiting) {
        if (tracing)
            trace(id, Lane::Server, EventKind::ServerRestarted, 0, 0, dropped, typed);
        if (reset)
            m_host.crashReset(id, false);
        else
            m_host.drop(id, false);
    }
    for (const ServerHost::Id id : processing) {
        // Its processingDone, if one comes, finds the old epoch.
        if (tracing)
            trace(id, Lane::Server, EventKind::ServerRestarted, 0, 0, dropped, typed);
        if (reset)
            m_host.crashReset(id, true);
        else
            m_host.drop(id, true);
    }
    m_service->restart(m_s.server.idempotency.store == KeyStore::Memory);
}

} // namespace retrylab
