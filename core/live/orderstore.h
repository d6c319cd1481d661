#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace retrylab {

// The live order service's SQLite store (Qt Sql, QSQLITE): orders, idempotency keys and
// order tokens. In memory by default, a WAL file with `fileName`. The idempotency key
// column is UNIQUE, so the database itself refuses a second reservation of a key.
// Not thread-safe: use it from the thread that opened it.
class OrderStore
{
public:
    struct Row
    {
        int id = 0;
        QByteArray ref;
        int op = 0;
        QByteArray key;
        QByteArray requestId;
        qint64 createdUs = 0;
        QByteArray body;
    };
    struct KeyRow
    {
        QByteArray key;
        qint64 createdUs = 0;
        quint64 fingerprint = 0;
        int status = 0;
        int record = 0;
    };
    // What one commit writes: the order, and the key's response unless keys live in memory.
    struct Commit
    {
        int id = 0;
        QByteArray ref;
        int op = 0;
        QByteArray key;        // empty: no Idempotency-Key
        QByteArray requestId;
        qint64 createdUs = 0;  // wall clock, microseconds since the epoch
        QByteArray body;       // the order as JSON
        bool writeKey = false; // keys live in the database and this request has one
        bool keyReserved = false; // its in-flight row exists already (else it is inserted now)
        bool upsertKey = false;   // naive mode: the last writer wins, no UNIQUE refusal
        qint64 keyCreatedUs = 0;
        quint64 fingerprint = 0;
        int keyStatus = 0;
        QByteArray keyBody;    // the stored error response when keyStatus >= 400
        bool useToken = false; // token mode: the order token (key) is marked used with the order
    };

    OrderStore();
    ~OrderStore();
    OrderStore(const OrderStore &) = delete;
    OrderStore &operator=(const OrderStore &) = delete;

    // Exclusive: one process (one store) per file, held by an flock() on FILE.lock, which the
    // kernel releases when the process dies, however it dies. Shared: no lock (tests of two
    // connections on one file).
    enum class Access { Exclusive, Shared };
    // Opens (and creates) the store; an empty file name is a private in-memory database.
    // Returns an empty string or the error. In-flight key rows left by a killed process are
    // rolled back (deleted): their orders never committed, and the lock says no other process
    // is still working on them.
    QString open(const QString &fileName, Access access = Access::Exclusive);
    // A file store's log (WAL) checkpoints: a thread of the store copies the log into the file
    // once it holds wakeFrames pages (1 KiB each), off the request path; the writer does it
    // itself only past forceFrames, which bounds the log under a steady stream of commits.
    // Set before open().
    struct WalLimits
    {
        int wakeFrames = 4096;
        int forceFrames = 65536;
    };
    void setWalLimits(const WalLimits &limits);
    // The in-memory store's cap in bytes (memdb's own default: 1 GiB). Past it a commit fails with
    // the reason "the in-memory store is full" and rolls back; what was committed before stays.
    // Set before open().
    static constexpr qint64 kDefaultMemoryLimit = qint64(1) << 30;
    void setMemoryLimit(qint64 bytes);
    struct WalStats
    {
        qint64 background = 0; // checkpoints the thread ran
        qint64 writer = 0;     // checkpoints a commit ran (past forceFrames)
    };
    WalStats walStats() const;
    void close();
    bool isOpen() const;
    QString fileName() const;
    // The SQLite VFS the database lives on ("memdb" in memory, "unix" for a file); empty when closed.
    QString vfsName() const;
    QString lastError() const;

    // Start-up: every record in id order, every stored key, every token.
    void forEachRecord(const std::function<void(const Row &)> &visit);
    void forEachKey(const std::function<void(const KeyRow &)> &visit);
    void forEachToken(const std::function<void(const QByteArray &, bool)> &visit);

    // atomic/token: inserts the in-flight key row. False when the UNIQUE constraint refuses it
    // (another request holds or stored the key) or on an error (see lastError()).
    bool reserveKey(const QByteArray &key, qint64 createdUs, quint64 fingerprint);
    // Deletes a key row (released reservation, expired key).
    void deleteKey(const QByteArray &key);
    enum class CommitResult { Ok, KeyTaken, Failed };
    // One transaction: the order row and its key row. KeyTaken when the key's UNIQUE constraint
    // refused an unreserved insert (nothing was written); Failed on an error (see lastError()).
    CommitResult commit(const Commit &c);
    // Group commit: the orders add()ed between beginBatch() and endBatch() share one transaction,
    // so a turn of the event loop pays for one COMMIT (and, with a file, one append to the log)
    // instead of one per order. add() writes the order's key row at once: KeyTaken (the key's
    // UNIQUE constraint) backs out that order alone and the batch goes on. Where another
    // connection may write the file (Access::Shared) each order is written under a savepoint of
    // its own, so any other constraint also fails that order alone. Alone on its database (in
    // memory, Access::Exclusive) the order rows wait for endBatch(), which inserts them several
    // per statement: add()'s Ok is then provisional, and a refused order row (a record id taken)
    // fails the whole batch at endBatch(). Any other error (a busy or failing file, a full memdb)
    // ends the batch: every later add() is Failed and endBatch() rolls everything back.
    // endBatch() returns whether the batch's orders are committed (false: none is; see
    // lastError()). Nothing of a batch is durable, or visible to another connection, before
    // endBatch() returns true.
    // With `deferKeys`, alone on its database, the new key rows wait for endBatch() as the order
    // rows do (one multi-row INSERT instead of a statement per order): add() never says KeyTaken
    // for them, and a key the database refuses there rolls back the whole batch, endBatch() false
    // with batchKeyRefused() true; the writer then writes the batch again without deferKeys, where
    // that key fails its own order alone. Where savepoints are taken (Access::Shared) it changes
    // nothing.
    bool beginBatch(bool deferKeys = false);
    CommitResult add(const Commit &c);
    bool endBatch();
    // The last endBatch() failed because a deferred key row was refused (nothing was written).
    bool batchKeyRefused() const;
    // Transactions that committed orders (commit() and endBatch()): group commit's measure.
    qint64 transactions() const;
    // A failure before commit whose error response is stored (storeErrors).
    void storeKeyError(const QByteArray &key, qint64 createdUs, quint64 fingerprint, int status,
                       const QByteArray &body);
    // The stored response of a key: the error body, or the body of its record.
    QByteArray replayBody(const QByteArray &key, int record);
    QByteArray recordBody(int id);
    // One page of the records of a reference: those with an id above `afterId`, oldest first.
    struct Page
    {
        QList<QByteArray> bodies; // at most `limit`
        qint64 total = 0;         // records of the reference in all
        int lastId = 0;           // the id of the last body
        bool more = false;        // records follow the page
    };
    Page recordsByRef(const QByteArray &ref, int afterId, int limit);
    // records and distinct references (duplicates = records - refs).
    bool counts(qint64 *records, qint64 *refs);

    void insertToken(const QByteArray &token);
    void markTokenUsed(const QByteArray &token);
    // A restart: in-flight reservations roll back; `all` also forgets every key and token.
    void dropKeys(bool all);
    // POST /admin/reset: empties every table.
    void reset();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace retrylab
