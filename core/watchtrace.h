#pragma once

#include "simulator.h"

#include <QHash>
#include <QJsonObject>

namespace retrylab {

// The Watch view's run: gathers the events a live order server reports, one handled request at a time, into a
// RunResult that the timeline, records, log and charts read as they read a simulated run: the
// trace unchanged, a record per Committed event, one operation per business reference (its op
// number, as the server assigns it: ORD-0007 is op 7). Keeps at most maxEvents events; older
// requests are dropped whole (their counts stay in the metrics).
class WatchTrace
{
public:
    static constexpr qsizetype DefaultMaxEvents = 200000;

    explicit WatchTrace(qsizetype maxEvents = DefaultMaxEvents);

    // Forgets everything; the scenario is what the result says it ran (the server's settings).
    void reset(const Scenario &scenario);
    // The events of one handled request (OrderServer::requestHandled), in order.
    void append(const Trace &events);

    qsizetype maxEvents() const { return m_maxEvents; }
    // Events dropped to stay within maxEvents since the last reset.
    qint64 droppedEvents() const { return m_dropped; }
    // Requests appended since the last reset (dropped ones included).
    qint64 requests() const { return m_requests; }
    // The op of the last request that named an order (0: none yet).
    int lastOperation() const { return m_lastOp; }

    // The events kept, their records and operations (ascending op), and metrics counted from
    // every request appended (records and duplicates: from the records kept).
    RunResult result() const;

private:
    void count(const Trace &events);
    void dropOldest();
    // Adds the request held in m_trace[begin, end) to the records and operations.
    void addRequest(qsizetype begin, qsizetype end);
    QString refOf(int op) const;

    qsizetype m_maxEvents;
    Scenario m_scenario;
    Trace m_trace;
    QList<qsizetype> m_requestStarts; // index in m_trace of each kept request's first event
    QList<RecordRow> m_records;
    QHash<int, OpSummary> m_ops;
    QHash<int, int> m_firstRecordOfOp; // over everything appended: a duplicate stays one after a drop
    QHash<int, QString> m_refs;        // op -> the reference as the client wrote it
    Metrics m_counts;                  // counters over everything appended
    qint64 m_dropped = 0;
    qint64 m_requests = 0;
    int m_lastOp = 0;
};

namespace live {
// The reference a Committed or status-query arrival names (TraceEvent::ref); empty otherwise.
QString refFromEvent(const TraceEvent &e);
// Copies the counters of GET /metrics (OrderServer::metricsJson) that Metrics names into `m`;
// other keys are ignored.
void applyMetricsJson(Metrics *m, const QJsonObject &json);
} // namespace live

} // namespace retrylab
