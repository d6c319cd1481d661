#pragma once

#include "scenario.h"
#include "trace.h"

#include <QList>
#include <QString>

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace retrylab {

// A POST /orders as the service sees it (no transport, no clock of its own).
struct OrderRequest
{
    int op = 0;               // business reference number (ORD-0007 -> 7)
    quint64 key = 0;          // Idempotency-Key (or token); 0 = header absent
    quint64 fingerprint = 0;  // payload hash
};

// What the service decides when it starts processing a request.
struct ServiceDecision
{
    enum Kind { Proceed, Reject, Replay };
    Kind kind = Proceed;
    int status = 0;          // Reject / Replay
    int record = 0;          // Replay of a committed order
    bool keyExpired = false; // a stored key was found past its TTL and forgotten
    bool keyReserved = false;
    bool tokenUsed = false;  // 409 for a single-use token whose order is already committed
    QString reason;
    TraceCause why = TraceCause::None; // the reason as a value (trace.h)
};

// How a keyed POST /orders ended, as far as its key's row cares (README "Stored results").
enum class KeyOutcome : quint8 {
    Created,            // 201: the order committed
    FailedAfterCommit,  // the order committed, then the handler answered a 5xx
    FailedBeforeCommit, // a 5xx before the commit: nothing was written
    VersionConflict,    // server.model occ: 409, the row changed since the attempt read it
    CommitRefused,      // the store refused the commit (live server: 500, or 409 for a key taken)
    Refused,            // decided before processing: 400 (key or token), 409 (in progress, token used), 422
    Throttled,          // 429 or 503 (full) at admission: the service never saw it
    Dropped,            // a restart dropped it while it waited or processed
};

// One committed order.
struct StoredRecord
{
    int id = 0;
    int op = 0;
    quint64 key = 0;
    qint64 t = 0;
    bool flagged = false;
    bool voided = false;
    qint64 voidedAt = 0;
};

// What one reconciliation pass changed.
struct ReconcileChange
{
    int record = 0;
    int op = 0;
    bool voided = false;
};

// The order service's decision logic and store: idempotency modes off / naive /
// atomic / token (single-use or replaying), key required, fingerprint, TTL, stored errors. Time is passed
// in, so the simulated and the live server share it unchanged.
class OrderService
{
public:
    explicit OrderService(const ServerConfig &config);

    // At processing start: reject (400/409/422), replay, or go on (reserving the key when atomic).
    ServiceDecision begin(const OrderRequest &request, qint64 nowUs)
    {
        // No key and none required (every request of idempotency mode off): proceed, without a
        // call or a look at the store.
        if (request.key == 0 && !m_config.idempotency.requireKey && m_config.idempotency.mode != IdempotencyMode::Token)
            return ServiceDecision();
        return beginKeyed(request, nowUs);
    }
    // The one storage rule, for the simulated and the live server: the status stored under the key
    // (and replayed to every later request with it) for a request that ended in `outcome` answering
    // `status`, or 0: nothing is stored and a reservation is released, so a retry is processed
    // afresh. Only a committed order is a final result (IETF Idempotency-Key draft, Stripe): a
    // conflict the client is meant to retry, a 5xx before commit, a 429 and a refusal are not.
    static int storedStatus(KeyOutcome outcome, int status, const IdempotencyConfig &config);

    // At processing end: inserts the record and stores the key's response (storedStatus). `status`
    // is what the handler answers (201, or the error status of a failure after commit). Returns
    // the record id.
    int commit(const OrderRequest &request, qint64 nowUs, int status);
    // A request that held the key ended before its commit (a 5xx, a version conflict): nothing is
    // stored (storedStatus), the reservation is released.
    void failBeforeCommit(const OrderRequest &request, KeyOutcome outcome);

    // The server process restarts: in-flight key reservations roll back with their transactions;
    // `forgetKeys` (an in-memory store) also loses every stored key and token. Records are durable.
    void restart(bool forgetKeys);
    // Server-issued single-use token (token mode).
    quint64 issueToken(quint64 token);
    // GET /orders?ref=: the first record of the reference, 0 if none.
    int findByRef(int op) const;
    // Flags or voids every record of a reference after its first live one.
    QList<ReconcileChange> reconcile(ReconcileAction action, qint64 nowUs);

    // Live server (core/live): the store's state at start-up and run-time setting changes. None of
    // these decide anything; they put back what an earlier process committed.
    // Settings changed at run time (PUT /admin/faults): stored keys and records stay.
    void setConfig(const ServerConfig &config);
    // A committed record read back from the store (ids must come in increasing order).
    void loadRecord(const StoredRecord &record);
    // A stored key's response read back from the store (`record` 0 for a stored error).
    void loadKey(quint64 key, qint64 createdUs, quint64 fingerprint, int status, int record);
    // A token read back from the store; `used` when its order committed.
    void loadToken(quint64 token, bool used);
    // Room for this many keys and records before any table grows: a live server sizes its tables up
    // front, because doubling a hash table of a few hundred thousand keys stalls every request.
    void reserve(size_t keys, size_t records);
    // Drops a reservation made by begin() without storing anything: the store refused it
    // (its UNIQUE constraint found the key taken), so this request never held the key.
    void release(const OrderRequest &request);

    const std::vector<StoredRecord> &records() const { return m_records; }
    // What a simulated run keeps of its records, when it keeps less than all of them (the default):
    // records are numbered and counted either way.
    enum class Keep : quint8 {
        Records,     // every record (records()) and each reference's first (findByRef())
        FirstByOp,   // findByRef() only, from a table indexed by the op, 4 bytes an op: a streamed
                     // run with a trace, whose commit events name the order's first record
        CountOnly,   // nothing: a run that never reads them back; records() and findByRef() know none
    };
    void setKeep(Keep keep) { m_keep = keep; }
    // Records looked at by all reconcile() passes so far: its work, for tests and benchmarks.
    qint64 reconcileVisits() const { return qint64(m_reconciledUpTo); }

private:
    struct KeyEntry
    {
        qint64 created = 0;
        quint64 fingerprint = 0;
        bool inFlight = false;
        int status = 0;
        int record = 0;
    };
    bool usesKeys() const;
    ServiceDecision beginKeyed(const OrderRequest &request, qint64 nowUs); // begin() past its common case
    KeyEntry *lookup(quint64 key, qint64 nowUs, bool *expired);

    ServerConfig m_config;
    qint64 m_ttlUs = 0;
    std::unordered_map<quint64, KeyEntry> m_keys;
    std::unordered_set<quint64> m_tokens;
    std::unordered_set<quint64> m_usedTokens; // tokens whose order committed (kept past the key TTL)
    std::vector<StoredRecord> m_records;
    int m_recordCount = 0;
    Keep m_keep = Keep::Records;
    std::unordered_map<int, int> m_firstRecordByOp;
    std::vector<int> m_firstRecordOfOp; // Keep::FirstByOp: op -> its first record, 0 = none
    // Reconciliation is incremental: records are only appended and only reconcile() voids them,
    // so each pass looks at the records committed since the last one (records x passes was
    // unbounded work for a long run with frequent passes).
    size_t m_reconciledUpTo = 0;
    std::unordered_map<int, bool> m_reconcileKept; // op -> its live record was kept
};

} // namespace retrylab
