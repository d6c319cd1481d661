#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

namespace retrylab {

// Swimlanes, outermost first; also the "lane" of a trace event.
enum class Lane { Business, Wrapper, Transport, Network, Server, Database };

// What happened. One format feeds the timeline, log, records, charts, CLI and tests.
enum class EventKind {
    OpStart,            // a logical operation (or its double submit) begins
    KeyMinted,          // client minted an idempotency key (detail: where)
    TokenIssued,        // server issued a single-use token
    BusinessAttempt,    // business layer starts attempt b
    WrapperAttempt,     // wrapper layer starts attempt w
    TransportAttempt,   // transport sends HTTP attempt t
    QuerySent,          // GET /orders?ref= before a business retry
    QueryResult,        // status 200 found, 404 not found
    ConnectFailed,      // refused before anything was sent
    CircuitOpen,        // breaker refused the attempt locally
    RequestLost,        // request vanished on the way
    RequestDelayed,     // latency spike: request will arrive after the client gave up
    RequestArrived,     // server received the request
    Queued,             // waiting for a processing slot
    Rejected,           // 400/409/422/429/503 before processing
    ProcessingStarted,
    KeyReserved,        // atomic/token: key reserved in-flight
    KeyExpired,         // TTL passed, key forgotten
    Committed,          // a record was inserted (record = number)
    Replayed,           // stored response replayed (Idempotent-Replayed: true)
    ServerError,        // 5xx before or after commit (detail says which)
    ResponseSent,
    ResponseLost,       // response vanished; the client will only see a timeout
    ConnectionReset,    // connection reset after commit
    ResponseReceived,   // the client got a status
    LateResponse,       // arrived after the client's timeout: ignored
    Timeout,            // client read timeout
    RetryScheduled,     // a layer decided to retry (detail: wait)
    GaveUp,             // a layer stopped retrying (detail: why)
    BudgetExhausted,    // retry budget refused a retry
    OpSucceeded,
    OpFailed,
    ReconcileFlagged,   // reconciliation found an extra record
    ReconcileVoided,
    ServerRestarted,    // the server process restarted: this request was dropped (detail: committed or not,
                        // down time, whether in-memory keys were forgotten)
    RowRead,            // server.model occ: the server read a row's version for an attempt (detail: row, version)
    VersionConflict,    // server.model occ: a write carried a stale version: 409, nothing written
};
constexpr int EventKindCount = int(EventKind::VersionConflict) + 1;

// One event on the virtual (or real) clock. Timestamps in microseconds.
struct TraceEvent
{
    qint64 t = 0;
    Lane lane = Lane::Business;
    EventKind kind = EventKind::OpStart;
    int op = 0;     // 1-based logical operation, 0 = none
    int sub = 1;    // submission of the op (2 = double submit)
    QString path;   // "op7/b2/w1/t3"
    QString requestId;
    QString key;
    int status = 0;
    int record = 0; // record number for Committed/Replayed/Reconcile*
    QString detail;
    bool operator==(const TraceEvent &o) const;
    QJsonObject toJson() const;
    static TraceEvent fromJson(const QJsonObject &o);
};

} // namespace retrylab

// Plain values of QStrings and integers: QList may grow them with a memmove.
Q_DECLARE_TYPEINFO(retrylab::TraceEvent, Q_RELOCATABLE_TYPE);

namespace retrylab {

using Trace = QList<TraceEvent>;

namespace trace {
QString laneName(Lane);
QString kindName(EventKind);
bool laneFromName(const QString &, Lane *);
bool kindFromName(const QString &, EventKind *);
QByteArray toJsonl(const Trace &);
// Appends one event's JSONL line ('\n' included) to `out`: the bytes of
// QJsonDocument(e.toJson()).toJson(Compact), without building a QJsonObject.
void appendJsonl(QByteArray &out, const TraceEvent &e);
// SHA-256 (hex) of the JSONL: golden tests and determinism checks.
QByteArray hash(const Trace &);
// Writes JSONL event by event; returns an empty string or the error (see TraceWriter).
QString save(const Trace &, const QString &fileName);
// One plain sentence for the caption under the timeline.
QString narrate(const TraceEvent &);
} // namespace trace

// Writes trace JSONL as events arrive, in bounded memory (a small buffer).
// A regular file (or a new one) is written to a temporary file that replaces it only when
// finish() succeeds, so a failed run never leaves half a trace. Anything else that exists
// (a FIFO, a character device such as /dev/null or /dev/full, a terminal) and "-" (standard
// output) is written directly: renaming over it would replace the device with a plain file.
class TraceWriter
{
public:
    TraceWriter();
    ~TraceWriter(); // an unfinished regular file is discarded
    TraceWriter(const TraceWriter &) = delete;
    TraceWriter &operator=(const TraceWriter &) = delete;

    // Returns an empty string or the error. Blocks on a FIFO until a reader opens it.
    QString open(const QString &fileName);
    // After the first error, further events are dropped; finish() reports it.
    void write(const TraceEvent &e);
    // False after an error (the caller may stop producing events).
    bool ok() const;
    // Flushes (and commits a regular file); returns an empty string or the first error.
    QString finish();
    // True for "-" and paths that are standard output itself (/dev/stdout, /proc/self/fd/1, ...).
    static bool isStandardOutput(const QString &fileName);

private:
    bool flush();
    void fail(const QString &why);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace retrylab
