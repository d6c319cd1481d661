#pragma once

#include <QJsonObject>
#include <QList>
#include <QSharedData>
#include <QSharedDataPointer>
#include <QString>

#include <memory>

namespace retrylab {

// Swimlanes, outermost first; also the "lane" of a trace event.
enum class Lane : quint8 { Business, Wrapper, Transport, Network, Server, Database };

// What happened. One format feeds the timeline, log, records, charts, CLI and tests.
enum class EventKind : quint8 {
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
    BreakerChanged,     // the client's circuit breaker changed state (cause: BreakerOpened, BreakerHalfOpen,
                        // BreakerClosed; arg: open until, in microseconds)
};
constexpr int EventKindCount = int(EventKind::BreakerChanged) + 1;

// The HTTP request an event belongs to (None: a client-side event of no single request).
enum class TraceMethod : quint8 { None, PostOrder, GetOrder, PostToken };

// Where a server event stands relative to the commit: 5xx and restarts before or after it.
enum class CommitPhase : quint8 { None, BeforeCommit, AfterCommit };

// How the client saw an attempt end: RetryScheduled, GaveUp, OpFailed, an unanswered QueryResult.
enum class TraceOutcome : quint8 { None, Response, Replayed, Raised, ConnectError, ReadTimeout, ConnectionReset, CircuitOpen };

// Why an event happened, for the words at the edge (narration, captions). The numeric
// arguments each cause uses are listed beside it (TraceEvent::arg, arg2, arg3).
enum class TraceCause : quint8 {
    None,
    // KeyMinted, TokenIssued: which layer minted the key
    PerOperation,
    PerBusinessAttempt,
    PerWrapperAttempt,
    // Rejected (the status says the code)
    KeyRequired,       // 400: no Idempotency-Key header
    TokenRequired,     // 400: no order token
    UnknownToken,      // 400
    MalformedRequest,  // 400 from the live server's framing checks (detail names the field)
    TokenUsed,         // 409: single-use token already spent
    KeyInProgress,     // 409: a request with this key is in flight
    KeyTaken,          // 409: the database's UNIQUE constraint refused the key (arg 1: still in flight)
    PayloadMismatch,   // 422
    RateLimited,       // 429; arg: Retry-After seconds
    ServerFull,        // 503; arg: Retry-After seconds
    CommitRefused,     // 500: the live database refused the commit
    // ServerError (phase says before/after commit)
    InjectedError,
    QueryFailed,       // the status query failed
    // ServerRestarted (phase: AfterCommit = committed, then restarted); KeyExpired
    KeysForgotten,     // arg: down ms
    KeysKept,          // arg: down ms
    KeyTtl,            // KeyExpired; arg: TTL seconds
    // RequestLost
    NeverReached,
    ServerRestarting,  // live: sent before a restart, dropped
    ReadAndDropped,    // live: read, then dropped
    // RequestDelayed; arg: spike ms
    LatencySpike,
    // Queued; arg: queue position
    QueuePosition,
    // ProcessingStarted; arg: processing ms, arg2: real ms when the live clock is scaled (else -1)
    Processing,
    // Committed; arg: the first record of the same reference when this one duplicates it
    Insert,
    Duplicate,
    // ResponseLost, ConnectionReset
    ResponseLost,
    PeerReset,
    RowVersion,        // RowRead; arg: row (1-based), arg2: its version
    StaleVersion,      // VersionConflict; arg: row (1-based), arg2: version read, arg3: version now
    // RetryScheduled; arg: wait in microseconds (outcome says what went wrong, status the status)
    Backoff,
    RetryAfter,        // the wait is the server's Retry-After; arg2: the header's seconds when capped, else 0
    // GaveUp
    Deadline,
    MaxAttempts,       // arg: the maximum
    NotRetried,        // the outcome is not retried by this layer
    TokenSpent,        // a used single-use token is final for every layer
    TransportOff,
    MethodNotAllowed,  // the method is not in allowed_methods
    ReadErrorNotAllowed, // a read error on a method not in allowed_methods
    StatusNotRetryable,
    RetriesExhausted,  // arg: the limit; arg2: which counter (0 total, 1 connect, 2 read, 3 status, 4 other)
    BreakerOpen,
    // BudgetExhausted; arg: tokens left in hundredths
    BudgetEmpty,
    // QueryResult: status 200/404, or Unknown with the outcome
    StatusUnknown,
    // OpSucceeded/OpFailed: Final (the outcome and status say it), or one of these
    Final,
    FoundByQuery,       // the status query found the order
    TokenSpentNotFound, // the token is spent and the query found no order
    TokenFailed,        // live: no order token could be fetched (detail: the error)
    // BreakerChanged: the state it moved to; arg: BreakerOpened: open until (us), BreakerHalfOpen:
    // when the open time ended (us); arg2: BreakerHalfOpen: the calls it admits
    BreakerOpened,
    BreakerHalfOpen,
    BreakerClosed,
};

// Where an event's `detail` comes from. Text: the string in `detail` (the live paths, a file read
// back). Typed: nothing is stored; TraceEvent::detail() composes the same English from the typed
// fields when a line is written or shown, so the engine and the server pipeline build no string
// per event (a traced run's main cost, and most of a kept event's memory).
enum class DetailSource : quint8 { Text, Typed };

// The texts of an event that an emitter gave as strings (the live paths, a file read back): kept
// out of line and shared between copies, so an engine event, whose texts are all composed from
// its numbers, carries none.
struct TraceTexts : QSharedData
{
    QString path;
    QString requestId;
    QString key;
    QString detail;
    QString reference; // TraceEvent::ref() (QSharedData's own `ref` is its count)
};

// Which of an event's texts are composed from its numbers at the edge (the engine's events)
// rather than stored in TraceTexts. Bits of TraceEvent::composed.
enum TraceComposed : quint8 {
    ComposedPath = 1,      // "op7/b2/w1/t3" of op, sub, business, wrapper, transport ("op7": all three 0)
    ComposedRequestId = 2, // "req-" and requestNumber in 8 hex digits
    ComposedKey = 4,       // "key-" and keyNumber in 10 hex digits (none when keyNumber is 0)
    ComposedToken = 8,     // with ComposedKey: "tok-" instead of "key-"
};

// One event on the virtual (or real) clock. Timestamps in microseconds.
// Links: `id` numbers the events of one run from 1 in the order they were emitted (the engine's
// trace holds event id at index id - 1; the live server numbers its own events, and the Watch
// view keeps them); `answers` is the id of the event this one answers, 0 for none:
//   RequestArrived, RequestLost, RequestDelayed, ConnectFailed, Timeout -> the client's send
//     (TransportAttempt or QuerySent), or RequestDelayed for a delayed request that arrives;
//   server events of a request (Queued, Rejected, ProcessingStarted, KeyReserved, Committed,
//     ServerError, ServerRestarted, ResponseSent, VersionConflict) -> its RequestArrived;
//   Replayed -> the original record's Committed (else its RequestArrived);
//   ResponseLost, ConnectionReset, ResponseReceived, LateResponse, QueryResult -> ResponseSent.
// Every field added after the first format (method .. answers) is written to the JSONL under its
// own name; trace::hash covers only the original ones (see there).
// Compact (88 bytes): the texts (path, requestId, key, detail, ref) are read through their
// functions, which compose an engine event's from its numbers (`composed`, DetailSource::Typed)
// and return a live event's as given; an event with no given text holds no string at all.
struct TraceEvent
{
public:
    qint64 t = 0;
    // --- typed fields ---
    qint64 arg = 0;  // the cause's first numeric argument (see TraceCause)
    qint64 arg2 = 0; // its second
    qint64 arg3 = 0; // and third
    quint64 keyNumber = 0;     // ComposedKey: the key's number
    int op = 0;     // 1-based logical operation, 0 = none
    int status = 0;
    int record = 0; // record number for Committed/Replayed/Reconcile*
    int id = 0;      // 1-based emission number in the run, 0 = unknown (an old file)
    int answers = 0; // id of the event this one answers, 0 = none
    quint32 requestNumber = 0; // ComposedRequestId: the request ID's number
    qint16 sub = 1;    // submission of the op (2 = double submit)
    qint16 business = 0; // attempt numbers of the path: b, w, t (0 = none)
    qint16 wrapper = 0;
    qint16 transport = 0;
    Lane lane = Lane::Business;
    EventKind kind = EventKind::OpStart;
    TraceMethod method = TraceMethod::None;
    CommitPhase phase = CommitPhase::None;
    TraceCause cause = TraceCause::None;
    TraceOutcome outcome = TraceOutcome::None;
    DetailSource detailSource = DetailSource::Text; // not exported: the line carries the text
    quint8 composed = 0; // TraceComposed bits

    // "op7/b2/w1/t3": for the export and the views; read the numbers instead.
    QString path() const;
    QString requestId() const;
    QString key() const;
    // English, for the export, never parsed back: the text given, or (DetailSource::Typed) the
    // words composed from the typed fields, byte for byte what the engine used to store.
    QString detail() const;
    // The business reference as the client wrote it: the live server's events (the engine's is
    // ORD-NNNN of op and stays empty).
    QString ref() const { return m_texts ? m_texts->reference : QString(); }
    // Setting a text stores it as given (and stops composing it).
    void setPath(const QString &path);
    void setRequestId(const QString &requestId);
    void setKey(const QString &key);
    void setDetail(const QString &detail); // DetailSource::Text
    void setRef(const QString &ref);
    // The texts as given, or null when none was (trace.cpp's line writer reads them).
    const TraceTexts *texts() const { return m_texts.constData(); }

    bool operator==(const TraceEvent &o) const; // compares texts as read, not how they are held
    QJsonObject toJson() const;
    static TraceEvent fromJson(const QJsonObject &o);

private:
    TraceTexts &mutableTexts();
    QSharedDataPointer<TraceTexts> m_texts;
};
// The typed fields an emitter fills beside lane, kind, status and record: the engine and the
// live server pass one per event (brace-initialised in this order).
struct TraceTyped
{
    TraceCause cause = TraceCause::None;
    qint64 arg = 0;
    qint64 arg2 = 0;
    qint64 arg3 = 0;
    int answers = 0;
    TraceOutcome outcome = TraceOutcome::None;
    CommitPhase phase = CommitPhase::None;
    TraceMethod method = TraceMethod::None;
    void applyTo(TraceEvent &e) const
    {
        e.cause = cause;
        e.arg = arg;
        e.arg2 = arg2;
        e.arg3 = arg3;
        e.answers = answers;
        e.outcome = outcome;
        e.phase = phase;
        e.method = method;
    }
};

} // namespace retrylab

// Integers and one shared pointer: QList may grow them with a memmove.
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
// SHA-256 (hex) of the JSONL of the ORIGINAL fields only (t .. detail, as before the typed
// fields): tests/data/golden/trace-hashes.txt pins it, so it proves behaviour unchanged.
QByteArray hash(const Trace &);
// SHA-256 (hex) of the full JSONL, typed fields included (tests/data/golden/trace-full-hashes.txt).
QByteArray fullHash(const Trace &);
QString methodName(TraceMethod);
QString phaseName(CommitPhase);
QString causeName(TraceCause);
QString outcomeName(TraceOutcome);
// a.path() == b.path(), without composing the text when both compose it (a view's search).
bool samePath(const TraceEvent &a, const TraceEvent &b);
// The words of the typed fields, whatever detailSource says (a live host keeps them as text).
QString composedDetail(const TraceEvent &);
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
