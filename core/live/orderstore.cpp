#include "orderstore.h"

#include "walcheckpointer.h"

#include <QAtomicInt>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <sqlite3.h>

#include <algorithm>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace retrylab {

namespace {
QAtomicInt g_connections;

// SQLite counts every allocation it makes under a global mutex, for sqlite3_memory_used(), which
// nothing here reads: off, an order costs about 1,900 instructions less (callgrind, serve in
// memory). Possible only before SQLite initialises (the first open of the process); later calls
// return SQLITE_MISUSE and change nothing, so a process that used SQLite before keeps counting.
void configureSqlite()
{
    static const bool once = [] {
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        return true;
    }();
    Q_UNUSED(once);
}

} // namespace

// Qt Sql opens the database, creates the schema and reads it back at start-up; the statements of
// the request path run on the driver's own sqlite3 handle (QSqlDriver::handle()), prepared once:
// QSqlQuery::bindValue formats a placeholder name and looks it up in a hash for every value, which
// cost more than SQLite's own work per order.
struct OrderStore::Private
{
    QString connection;
    QString fileName;
    QSqlDatabase db;
    QString error;
    int lockFd = -1; // FILE.lock, flock()ed while open (Access::Exclusive)
    sqlite3 *handle = nullptr;
    // A file store's checkpoints (see open()): the thread's, and the writer's own past the limit.
    WalCheckpointer checkpointer;
    WalLimits walLimits;
    qint64 memoryLimit = kDefaultMemoryLimit; // in memory (memdb): SQLITE_FCNTL_SIZE_LIMIT
    qint64 writerCheckpoints = 0;
    qint64 transactions = 0; // committed ones that held orders
    bool batchOpen = false;
    bool batchBroken = false; // an error that is not one order's constraint: the batch rolls back
    int batchOrders = 0;      // orders the open batch holds
    // A savepoint per order of a batch only where another connection may write (Access::Shared).
    // Alone on its file, the only constraint an order can meet is its key's, and that is its
    // first statement, which SQLite backs out alone (ON CONFLICT ABORT): a savepoint would only
    // copy the batch's shared pages once more per order.
    bool savepoints = true;
    // Without savepoints the order rows of a batch wait for endBatch(), which writes them with one
    // multi-row INSERT per kRowsPerInsert orders (SQLite's per-statement cost paid once per batch,
    // and the B-tree cursors opened once): their only possible refusal (a record id another
    // connection took) breaks the batch anyway. insertRecords[n - 1] inserts n rows, prepared on
    // first use.
    static constexpr int kRowsPerInsert = 32;
    std::vector<Commit> pendingRecords;
    sqlite3_stmt *insertRecords[kRowsPerInsert] = {};
    // beginBatch(true), without savepoints: the new key rows wait too (indexes into
    // pendingRecords), written before the order rows by one multi-row INSERT per kRowsPerInsert.
    // A key refused there cannot fail its order alone: the batch rolls back whole and says so
    // (keyRefused), and its writer writes it again with beginBatch(false).
    bool deferKeys = false;
    bool keyRefused = false;
    std::vector<size_t> pendingKeys;
    sqlite3_stmt *insertKeys[kRowsPerInsert] = {};
    sqlite3_stmt *begin = nullptr, *commit = nullptr, *rollback = nullptr, *insertRecord = nullptr,
                 *reserveKey = nullptr, *insertKey = nullptr, *upsertKey = nullptr, *finishKey = nullptr,
                 *deleteKey = nullptr, *keyBody = nullptr, *recordBody = nullptr, *byRef = nullptr, *countRef = nullptr,
                 *storeKeyError = nullptr, *insertToken = nullptr, *markToken = nullptr, *savepoint = nullptr,
                 *release = nullptr, *rollbackTo = nullptr;

    sqlite3_stmt *prepare(const char *sql)
    {
        sqlite3_stmt *stmt = nullptr;
        if (sqlite3_prepare_v3(handle, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK
            && error.isEmpty())
            error = QString::fromUtf8(sqlite3_errmsg(handle));
        return stmt;
    }
    void finalizeAll()
    {
        for (sqlite3_stmt **stmt : {&begin, &commit, &rollback, &insertRecord, &reserveKey, &insertKey, &upsertKey,
                                    &finishKey, &deleteKey, &keyBody, &recordBody, &byRef, &countRef, &storeKeyError,
                                    &insertToken, &markToken, &savepoint, &release, &rollbackTo}) {
            sqlite3_finalize(*stmt);
            *stmt = nullptr;
        }
        for (sqlite3_stmt *&stmt : insertRecords) {
            sqlite3_finalize(stmt);
            stmt = nullptr;
        }
        for (sqlite3_stmt *&stmt : insertKeys) {
            sqlite3_finalize(stmt);
            stmt = nullptr;
        }
        pendingRecords.clear();
        pendingKeys.clear();
    }
    bool exec(const char *sql)
    {
        QSqlQuery q(db);
        if (!q.exec(QString::fromLatin1(sql))) {
            error = q.lastError().text();
            return false;
        }
        return true;
    }
    // Steps a statement to completion (or to its first row with `row`); SQLITE_DONE, SQLITE_ROW or
    // the error code, which is kept in `error` unless it is a constraint violation.
    int step(sqlite3_stmt *stmt)
    {
        const int rc = sqlite3_step(stmt);
        if (rc != SQLITE_DONE && rc != SQLITE_ROW && (rc & 0xff) != SQLITE_CONSTRAINT)
            error = (rc & 0xff) == SQLITE_FULL && fileName.isEmpty() ? fullInMemory()
                                                                     : QString::fromUtf8(sqlite3_errmsg(handle));
        return rc;
    }
    // memdb's "database or disk is full" says neither which nor what to do.
    QString fullInMemory() const
    {
        const QString limit = memoryLimit % (qint64(1) << 20) == 0 ? QStringLiteral("%1 MiB").arg(memoryLimit >> 20)
                                                                  : QStringLiteral("%1 bytes").arg(memoryLimit);
        return QStringLiteral("the in-memory store is full (%1); the orders it holds are kept: serve with --db FILE "
                              "to store more")
                .arg(limit);
    }
    int run(sqlite3_stmt *stmt)
    {
        const int rc = step(stmt);
        sqlite3_reset(stmt);
        return rc;
    }
    static void text(sqlite3_stmt *stmt, int i, const QByteArray &value)
    {
        if (value.isEmpty())
            sqlite3_bind_null(stmt, i);
        else
            sqlite3_bind_text(stmt, i, value.constData(), int(value.size()), SQLITE_STATIC);
    }
    static void blob(sqlite3_stmt *stmt, int i, const QByteArray &value)
    {
        if (value.isNull())
            sqlite3_bind_null(stmt, i);
        else
            sqlite3_bind_blob(stmt, i, value.constData(), int(value.size()), SQLITE_STATIC);
    }
    // sqlite3_wal_hook: after each commit of the writer, with the frames the log now holds.
    static int logGrew(void *self, sqlite3 *, const char *, int frames)
    {
        auto *d = static_cast<Private *>(self);
        d->checkpointer.logGrew(frames);
        // SQLite starts the log over only at a transaction that begins with every frame copied,
        // which never happens behind a checkpoint running beside a steady stream of commits: at
        // this size the writer copies the rest itself (a short stall once per forceFrames), so
        // the log stays bounded under any load.
        if (frames >= d->walLimits.forceFrames) {
            int log = 0, done = 0;
            if (sqlite3_wal_checkpoint_v2(d->handle, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &done) == SQLITE_OK)
                ++d->writerCheckpoints;
        }
        return SQLITE_OK;
    }
    // The seven values of an order row, from placeholder `first` + 1 on.
    static void bindRecord(sqlite3_stmt *q, int first, const Commit &c)
    {
        sqlite3_bind_int(q, first + 1, c.id);
        text(q, first + 2, c.ref);
        sqlite3_bind_int(q, first + 3, c.op);
        text(q, first + 4, c.key);
        text(q, first + 5, c.requestId);
        sqlite3_bind_int64(q, first + 6, c.createdUs);
        blob(q, first + 7, c.body);
    }
    // The statement that inserts `rows` order rows (1 to kRowsPerInsert); null on an error.
    sqlite3_stmt *insertRecordsOf(int rows)
    {
        sqlite3_stmt *&stmt = insertRecords[rows - 1];
        if (!stmt) {
            QByteArray sql("INSERT INTO records(id, ref, op, idem_key, request_id, created_us, body) VALUES ");
            for (int i = 0; i < rows; ++i)
                sql += i == 0 ? "(?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?)";
            stmt = prepare(sql.constData());
        }
        return stmt;
    }
    // The statement that inserts `rows` new key rows (1 to kRowsPerInsert); null on an error.
    sqlite3_stmt *insertKeysOf(int rows)
    {
        sqlite3_stmt *&stmt = insertKeys[rows - 1];
        if (!stmt) {
            QByteArray sql("INSERT INTO idempotency_keys(idem_key, created_us, fingerprint, in_flight, status, "
                           "record, body) VALUES ");
            for (int i = 0; i < rows; ++i)
                sql += i == 0 ? "(?, ?, ?, 0, ?, ?, ?)" : ", (?, ?, ?, 0, ?, ?, ?)";
            stmt = prepare(sql.constData());
        }
        return stmt;
    }
    // The six values of a new key row (insertKey's), from placeholder `first` + 1 on.
    static void bindKey(sqlite3_stmt *q, int first, const Commit &c)
    {
        static const QByteArray noBody;
        text(q, first + 1, c.key);
        sqlite3_bind_int64(q, first + 2, c.keyCreatedUs);
        sqlite3_bind_int64(q, first + 3, qint64(c.fingerprint));
        sqlite3_bind_int(q, first + 4, c.keyStatus);
        sqlite3_bind_int(q, first + 5, c.id);
        blob(q, first + 6, c.keyStatus >= 400 ? c.keyBody : noBody);
    }
    // endBatch(): `total` waiting rows, kRowsPerInsert per statement (`statementOf(rows)`, each row
    // `columns` placeholders bound by `bind(q, first, i)`). False on any error; a refusal (UNIQUE: a
    // key or a record id another connection took) keeps the database's reason in `error`.
    template<typename StatementOf, typename Bind>
    bool writePending(int total, int columns, StatementOf statementOf, Bind bind, bool *refused)
    {
        for (int done = 0; done < total;) {
            const int rows = std::min(total - done, int(kRowsPerInsert));
            sqlite3_stmt *q = (this->*statementOf)(rows);
            if (!q)
                return false;
            for (int i = 0; i < rows; ++i)
                bind(q, columns * i, done + i);
            const int rc = run(q);
            if (rc != SQLITE_DONE) {
                if ((rc & 0xff) == SQLITE_CONSTRAINT) {
                    *refused = true;
                    error = QString::fromUtf8(sqlite3_errmsg(handle));
                }
                return false;
            }
            done += rows;
        }
        return true;
    }
    // The batch's waiting key rows; a refusal sets keyRefused (the batch is written again, a key
    // row per order, so the refused key fails its own order alone).
    bool writePendingKeys()
    {
        return writePending(int(pendingKeys.size()), 6, &Private::insertKeysOf,
                            [this](sqlite3_stmt *q, int first, int i) {
                                bindKey(q, first, pendingRecords[pendingKeys[size_t(i)]]);
                            },
                            &keyRefused);
    }
    // The batch's waiting order rows. False on any error (kept in `error`), which breaks the batch.
    bool writePendingRecords()
    {
        bool refused = false; // a record id another connection took: its reason is in `error`
        return writePending(int(pendingRecords.size()), 7, &Private::insertRecordsOf,
                            [this](sqlite3_stmt *q, int first, int i) { bindRecord(q, first, pendingRecords[size_t(i)]); },
                            &refused);
    }
    // The rows of one order inside an open transaction: its key row first (the one a constraint
    // may refuse), the order, its token. Ok, KeyTaken, or Failed with `*constraint` telling a
    // constraint (this order's own failure) from any other error. With `deferRecord` the order
    // row waits in pendingRecords for endBatch().
    CommitResult writeRows(const Commit &c, bool *constraint, bool deferRecord = false)
    {
        *constraint = false;
        const bool deferKey = deferRecord && deferKeys && c.writeKey && !c.keyReserved && !c.upsertKey;
        if (c.writeKey && !deferKey) {
            sqlite3_stmt *q = c.keyReserved ? finishKey : (c.upsertKey ? upsertKey : insertKey);
            const QByteArray noBody;
            const QByteArray &errorBody = c.keyStatus >= 400 ? c.keyBody : noBody;
            if (c.keyReserved) {
                sqlite3_bind_int64(q, 1, qint64(c.fingerprint));
                sqlite3_bind_int(q, 2, c.keyStatus);
                sqlite3_bind_int(q, 3, c.id);
                blob(q, 4, errorBody);
                text(q, 5, c.key);
            } else {
                text(q, 1, c.key);
                sqlite3_bind_int64(q, 2, c.keyCreatedUs);
                sqlite3_bind_int64(q, 3, qint64(c.fingerprint));
                sqlite3_bind_int(q, 4, c.keyStatus);
                sqlite3_bind_int(q, 5, c.id);
                blob(q, 6, errorBody);
            }
            const int rc = run(q);
            if (rc != SQLITE_DONE) {
                *constraint = (rc & 0xff) == SQLITE_CONSTRAINT;
                return *constraint ? CommitResult::KeyTaken : CommitResult::Failed;
            }
        }
        int rc = SQLITE_DONE;
        if (deferRecord) {
            if (deferKey)
                pendingKeys.push_back(pendingRecords.size());
            pendingRecords.push_back(c);
        } else {
            bindRecord(insertRecord, 0, c);
            rc = run(insertRecord);
        }
        if (rc == SQLITE_DONE && c.useToken) {
            text(markToken, 1, c.key);
            rc = run(markToken);
        }
        if (rc != SQLITE_DONE) {
            *constraint = (rc & 0xff) == SQLITE_CONSTRAINT;
            if (*constraint) // a record id another connection took: the database's reason, never "key taken"
                error = QString::fromUtf8(sqlite3_errmsg(handle));
            return CommitResult::Failed;
        }
        return CommitResult::Ok;
    }
    static QByteArray column(sqlite3_stmt *stmt, int i)
    {
        const void *data = sqlite3_column_blob(stmt, i);
        const int size = sqlite3_column_bytes(stmt, i);
        return data ? QByteArray(static_cast<const char *>(data), size) : QByteArray();
    }
};

OrderStore::OrderStore() : d(std::make_unique<Private>()) {}

OrderStore::~OrderStore()
{
    close();
}

namespace {
// Takes FILE.lock for this process: an empty string, or who holds it.
QString lockFile(const QString &fileName, int *fd)
{
    const QByteArray path = QFile::encodeName(fileName + QStringLiteral(".lock"));
    *fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (*fd < 0)
        return QStringLiteral("cannot create the lock file %1.lock: %2").arg(fileName, QString::fromLocal8Bit(strerror(errno)));
    if (::flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = {};
        const ssize_t n = ::pread(*fd, pid, sizeof pid - 1, 0);
        ::close(*fd);
        *fd = -1;
        const QByteArray holder = n > 0 ? QByteArray(pid, int(n)).trimmed() : QByteArray();
        return QStringLiteral("another retrylab serve%1 is using it (it holds %2.lock); stop it or choose another --db file")
                .arg(holder.isEmpty() ? QString() : QStringLiteral(" (process %1)").arg(QString::fromLatin1(holder)), fileName);
    }
    // Who holds it, for the next one's message.
    const QByteArray pid = QByteArray::number(qint64(::getpid())) + '\n';
    if (::ftruncate(*fd, 0) != 0 || ::pwrite(*fd, pid.constData(), size_t(pid.size()), 0) < 0) {
        // The lock holds without the note.
    }
    return QString();
}
} // namespace

QString OrderStore::open(const QString &fileName, Access access)
{
    close();
    d->error.clear();
    d->transactions = 0;
    d->savepoints = access == Access::Shared && !fileName.isEmpty();
    d->fileName = fileName;
    if (!fileName.isEmpty() && access == Access::Exclusive) {
        const QString locked = lockFile(fileName, &d->lockFd);
        if (!locked.isEmpty())
            return locked;
    }
    configureSqlite();
    d->connection = QStringLiteral("retrylab-store-%1").arg(g_connections.fetchAndAddRelaxed(1));
    d->db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), d->connection);
    if (fileName.isEmpty()) {
        // In memory on SQLite's memdb VFS, not ":memory:": a ":memory:" database keeps its pages in
        // the page cache alone, and every COMMIT walks all of that cache's hash buckets (pcache1's
        // truncate), so an order cost more the more orders were stored (10 -> 25 us over 200k).
        // memdb keeps the pages in one buffer and its journal in memory: flat. A name without a
        // leading "/" is private to this connection. memdb caps the database at 1 GiB
        // (SQLITE_MEMDB_DEFAULT_MAXSIZE): past it a commit fails with "database or disk is full".
        d->db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_URI"));
        d->db.setDatabaseName(QStringLiteral("file:%1?vfs=memdb").arg(d->connection));
    } else {
        d->db.setDatabaseName(fileName);
    }
    if (!d->db.open()) {
        const QString e = d->db.lastError().text();
        close();
        return e.isEmpty() ? QStringLiteral("cannot open the database") : e;
    }
    const bool file = !fileName.isEmpty();
    // WAL with synchronous=NORMAL: a commit is durable against a killed process (the WAL is
    // in the OS cache); only a power loss may lose the last transactions (never the file: the
    // log is synced before a checkpoint copies it).
    // Small pages: a commit touches three B-tree leaves (order, reference index, key), and the
    // WAL copies whole pages: 1 KiB pages copy a quarter of the bytes of the 4 KiB default. In
    // memory (memdb, its journal in memory) 2 KiB measured best: instructions per order under
    // bench-serve's load, callgrind, orders 22k to 102k: 70.7k at 1 KiB, 69.0k at 2, 69.8k at 4.
    if (!d->exec(file ? "PRAGMA page_size=1024" : "PRAGMA page_size=2048")
        || (file && (!d->exec("PRAGMA journal_mode=WAL") || !d->exec("PRAGMA synchronous=NORMAL")
                  // No checkpoint inside a commit: WalCheckpointer's thread runs them (below).
                  || !d->exec("PRAGMA wal_autocheckpoint=0") || !d->exec("PRAGMA busy_timeout=2000")
                  // The order, reference and key B-trees' working set stays in memory.
                  || !d->exec("PRAGMA cache_size=-16384")))
        || !d->exec("CREATE TABLE IF NOT EXISTS records(id INTEGER PRIMARY KEY, ref TEXT NOT NULL, "
                    "op INTEGER NOT NULL, idem_key TEXT, request_id TEXT, created_us INTEGER NOT NULL, "
                    "body BLOB NOT NULL)")
        || !d->exec("CREATE INDEX IF NOT EXISTS records_ref ON records(ref)")
        // The key is the table's primary key (UNIQUE and NOT NULL): one B-tree, no second index.
        || !d->exec("CREATE TABLE IF NOT EXISTS idempotency_keys(idem_key TEXT NOT NULL PRIMARY KEY, "
                    "created_us INTEGER NOT NULL, fingerprint INTEGER NOT NULL, in_flight INTEGER NOT NULL, "
                    "status INTEGER NOT NULL DEFAULT 0, record INTEGER NOT NULL DEFAULT 0, body BLOB) WITHOUT ROWID")
        || !d->exec("CREATE TABLE IF NOT EXISTS order_tokens(token TEXT PRIMARY KEY, used INTEGER NOT NULL DEFAULT 0)")
        || !d->exec("DELETE FROM idempotency_keys WHERE in_flight = 1")) {
        const QString e = d->error;
        close();
        return e;
    }
    const QVariant native = d->db.driver()->handle();
    if (qstrcmp(native.typeName(), "sqlite3*") == 0)
        d->handle = *static_cast<sqlite3 *const *>(native.constData());
    if (!d->handle) {
        close();
        return QStringLiteral("the QSQLITE driver gave no sqlite3 handle");
    }
    if (!file) {
        sqlite3_int64 limit = d->memoryLimit;
        if (sqlite3_file_control(d->handle, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit) != SQLITE_OK) {
            close();
            return QStringLiteral("the memdb VFS refused a size limit");
        }
        d->memoryLimit = limit; // never below what the database holds already
    }
    if (file) {
        const QString started = d->checkpointer.start(fileName, d->walLimits.wakeFrames);
        if (!started.isEmpty()) {
            close();
            return started;
        }
        sqlite3_wal_hook(d->handle, &Private::logGrew, d.get());
    }
    // Prepared once (QSqlDatabase::transaction() would parse "BEGIN" anew on every call).
    d->begin = d->prepare("BEGIN");
    d->commit = d->prepare("COMMIT");
    d->rollback = d->prepare("ROLLBACK");
    d->insertRecord = d->prepare("INSERT INTO records(id, ref, op, idem_key, request_id, created_us, body) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?)");
    d->reserveKey = d->prepare("INSERT INTO idempotency_keys(idem_key, created_us, fingerprint, in_flight) "
                               "VALUES (?, ?, ?, 1)");
    d->insertKey = d->prepare("INSERT INTO idempotency_keys(idem_key, created_us, fingerprint, in_flight, status, "
                              "record, body) VALUES (?, ?, ?, 0, ?, ?, ?)");
    d->upsertKey = d->prepare("INSERT OR REPLACE INTO idempotency_keys(idem_key, created_us, fingerprint, in_flight, "
                              "status, record, body) VALUES (?, ?, ?, 0, ?, ?, ?)");
    d->finishKey = d->prepare("UPDATE idempotency_keys SET in_flight = 0, fingerprint = ?, status = ?, record = ?, "
                              "body = ? WHERE idem_key = ?");
    d->deleteKey = d->prepare("DELETE FROM idempotency_keys WHERE idem_key = ?");
    d->keyBody = d->prepare("SELECT body FROM idempotency_keys WHERE idem_key = ?");
    d->recordBody = d->prepare("SELECT body FROM records WHERE id = ?");
    d->byRef = d->prepare("SELECT id, body FROM records WHERE ref = ? AND id > ? ORDER BY id LIMIT ?");
    d->countRef = d->prepare("SELECT COUNT(*) FROM records WHERE ref = ?");
    d->storeKeyError = d->prepare("INSERT OR REPLACE INTO idempotency_keys(idem_key, created_us, fingerprint, "
                                  "in_flight, status, record, body) VALUES (?, ?, ?, 0, ?, 0, ?)");
    d->insertToken = d->prepare("INSERT OR IGNORE INTO order_tokens(token, used) VALUES (?, 0)");
    d->markToken = d->prepare("UPDATE order_tokens SET used = 1 WHERE token = ?");
    d->savepoint = d->prepare("SAVEPOINT one_order");
    d->release = d->prepare("RELEASE one_order");
    d->rollbackTo = d->prepare("ROLLBACK TO one_order");
    if (!d->error.isEmpty()) {
        const QString e = d->error;
        close();
        return e;
    }
    return QString();
}

void OrderStore::close()
{
    // First: the writer's close below checkpoints the log into the file, alone.
    d->checkpointer.stop();
    if (!d->connection.isEmpty()) {
        if (d->handle)
            sqlite3_wal_hook(d->handle, nullptr, nullptr);
        d->finalizeAll();
        d->handle = nullptr;
        d->db.close();
        d->db = QSqlDatabase();
        QSqlDatabase::removeDatabase(d->connection);
        d->connection.clear();
    }
    // Last: the next process may open the file once this one has let go of it.
    if (d->lockFd >= 0) {
        ::close(d->lockFd); // releases the flock
        d->lockFd = -1;
    }
}

bool OrderStore::isOpen() const
{
    return !d->connection.isEmpty();
}

QString OrderStore::fileName() const
{
    return d->fileName;
}

QString OrderStore::vfsName() const
{
    sqlite3_vfs *vfs = nullptr;
    if (!d->handle || sqlite3_file_control(d->handle, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK || !vfs)
        return QString();
    return QString::fromUtf8(vfs->zName);
}

void OrderStore::setWalLimits(const WalLimits &limits)
{
    d->walLimits = limits;
}

void OrderStore::setMemoryLimit(qint64 bytes)
{
    d->memoryLimit = bytes;
}

OrderStore::WalStats OrderStore::walStats() const
{
    return WalStats{d->checkpointer.rounds(), d->writerCheckpoints};
}

QString OrderStore::lastError() const
{
    return d->error;
}

void OrderStore::forEachRecord(const std::function<void(const Row &)> &visit)
{
    QSqlQuery q(d->db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT id, ref, op, idem_key, request_id, created_us FROM records ORDER BY id")))
        return;
    Row r;
    while (q.next()) {
        r.id = q.value(0).toInt();
        r.ref = q.value(1).toByteArray();
        r.op = q.value(2).toInt();
        r.key = q.value(3).toByteArray();
        r.requestId = q.value(4).toByteArray();
        r.createdUs = q.value(5).toLongLong();
        visit(r);
    }
}

void OrderStore::forEachKey(const std::function<void(const KeyRow &)> &visit)
{
    QSqlQuery q(d->db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT idem_key, created_us, fingerprint, status, record FROM idempotency_keys "
                               "WHERE in_flight = 0")))
        return;
    KeyRow k;
    while (q.next()) {
        k.key = q.value(0).toByteArray();
        k.createdUs = q.value(1).toLongLong();
        k.fingerprint = quint64(q.value(2).toLongLong());
        k.status = q.value(3).toInt();
        k.record = q.value(4).toInt();
        visit(k);
    }
}

void OrderStore::forEachToken(const std::function<void(const QByteArray &, bool)> &visit)
{
    QSqlQuery q(d->db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT token, used FROM order_tokens")))
        return;
    while (q.next())
        visit(q.value(0).toByteArray(), q.value(1).toBool());
}

bool OrderStore::reserveKey(const QByteArray &key, qint64 createdUs, quint64 fingerprint)
{
    sqlite3_stmt *q = d->reserveKey;
    Private::text(q, 1, key);
    sqlite3_bind_int64(q, 2, createdUs);
    sqlite3_bind_int64(q, 3, qint64(fingerprint));
    return d->run(q) == SQLITE_DONE;
}

void OrderStore::deleteKey(const QByteArray &key)
{
    Private::text(d->deleteKey, 1, key);
    d->run(d->deleteKey);
}

OrderStore::CommitResult OrderStore::commit(const Commit &c)
{
    if (d->run(d->begin) != SQLITE_DONE)
        return CommitResult::Failed;
    bool constraint = false;
    const CommitResult result = d->writeRows(c, &constraint);
    // An error that rolled the transaction back already (a full memdb, an I/O error) makes the
    // ROLLBACK fail too: the first reason is the one to keep.
    const auto rollback = [this] {
        const QString why = d->error;
        d->run(d->rollback);
        d->error = why;
    };
    if (result != CommitResult::Ok) {
        rollback();
        return result;
    }
    if (d->run(d->commit) != SQLITE_DONE) {
        rollback();
        return CommitResult::Failed;
    }
    ++d->transactions;
    return CommitResult::Ok;
}

bool OrderStore::beginBatch(bool deferKeys)
{
    d->batchBroken = false;
    d->batchOrders = 0;
    d->deferKeys = deferKeys;
    d->keyRefused = false;
    d->pendingRecords.clear();
    d->pendingKeys.clear();
    d->batchOpen = d->run(d->begin) == SQLITE_DONE;
    return d->batchOpen;
}

OrderStore::CommitResult OrderStore::add(const Commit &c)
{
    if (!d->batchOpen || d->batchBroken)
        return CommitResult::Failed;
    if (d->savepoints && d->run(d->savepoint) != SQLITE_DONE) {
        d->batchBroken = true;
        return CommitResult::Failed;
    }
    bool constraint = false;
    const CommitResult result = d->writeRows(c, &constraint, !d->savepoints);
    if (d->savepoints) {
        if (result != CommitResult::Ok && (!constraint || d->run(d->rollbackTo) != SQLITE_DONE))
            d->batchBroken = true; // not this order's own refusal: nothing of the batch may commit
        if (d->run(d->release) != SQLITE_DONE)
            d->batchBroken = true;
    } else if (result != CommitResult::Ok && result != CommitResult::KeyTaken) {
        d->batchBroken = true; // only the key's refusal (its first statement) is backed out alone
    }
    if (d->batchBroken)
        return CommitResult::Failed;
    if (result == CommitResult::Ok)
        ++d->batchOrders;
    return result;
}

bool OrderStore::endBatch()
{
    if (!d->batchOpen)
        return false;
    d->batchOpen = false;
    const bool written = !d->batchBroken && d->writePendingKeys() && d->writePendingRecords();
    d->pendingRecords.clear();
    d->pendingKeys.clear();
    if (written && d->run(d->commit) == SQLITE_DONE) {
        if (d->batchOrders > 0)
            ++d->transactions;
        return true;
    }
    const QString why = d->error;
    d->run(d->rollback); // an error that rolled the transaction back already makes this one fail
    d->error = why;
    return false;
}

bool OrderStore::batchKeyRefused() const
{
    return d->keyRefused;
}

qint64 OrderStore::transactions() const
{
    return d->transactions;
}

void OrderStore::storeKeyError(const QByteArray &key, qint64 createdUs, quint64 fingerprint, int status,
                               const QByteArray &body)
{
    sqlite3_stmt *q = d->storeKeyError;
    Private::text(q, 1, key);
    sqlite3_bind_int64(q, 2, createdUs);
    sqlite3_bind_int64(q, 3, qint64(fingerprint));
    sqlite3_bind_int(q, 4, status);
    Private::blob(q, 5, body);
    d->run(q);
}

QByteArray OrderStore::replayBody(const QByteArray &key, int record)
{
    sqlite3_stmt *q = d->keyBody;
    Private::text(q, 1, key);
    QByteArray body;
    if (d->step(q) == SQLITE_ROW)
        body = Private::column(q, 0);
    sqlite3_reset(q);
    if (body.isEmpty() && record > 0)
        body = recordBody(record);
    return body;
}

QByteArray OrderStore::recordBody(int id)
{
    sqlite3_stmt *q = d->recordBody;
    sqlite3_bind_int(q, 1, id);
    QByteArray body;
    if (d->step(q) == SQLITE_ROW)
        body = Private::column(q, 0);
    sqlite3_reset(q);
    return body;
}

OrderStore::Page OrderStore::recordsByRef(const QByteArray &ref, int afterId, int limit)
{
    Page page;
    sqlite3_stmt *q = d->byRef;
    Private::text(q, 1, ref);
    sqlite3_bind_int(q, 2, afterId);
    sqlite3_bind_int(q, 3, limit + 1); // one more tells whether a next page exists
    while (d->step(q) == SQLITE_ROW) {
        if (page.bodies.size() == limit) {
            page.more = true;
            break;
        }
        page.lastId = sqlite3_column_int(q, 0);
        page.bodies.append(Private::column(q, 1));
    }
    sqlite3_reset(q);
    Private::text(d->countRef, 1, ref);
    if (d->step(d->countRef) == SQLITE_ROW)
        page.total = sqlite3_column_int64(d->countRef, 0);
    sqlite3_reset(d->countRef);
    return page;
}

bool OrderStore::counts(qint64 *records, qint64 *refs)
{
    QSqlQuery q(d->db);
    if (!q.exec(QStringLiteral("SELECT COUNT(*), COUNT(DISTINCT ref) FROM records")) || !q.next()) {
        d->error = q.lastError().text();
        return false;
    }
    *records = q.value(0).toLongLong();
    *refs = q.value(1).toLongLong();
    return true;
}

void OrderStore::insertToken(const QByteArray &token)
{
    Private::text(d->insertToken, 1, token);
    d->run(d->insertToken);
}

void OrderStore::markTokenUsed(const QByteArray &token)
{
    Private::text(d->markToken, 1, token);
    d->run(d->markToken);
}

void OrderStore::dropKeys(bool all)
{
    if (all) {
        d->exec("DELETE FROM idempotency_keys");
        d->exec("DELETE FROM order_tokens");
    } else {
        d->exec("DELETE FROM idempotency_keys WHERE in_flight = 1");
    }
}

void OrderStore::reset()
{
    d->exec("DELETE FROM records");
    d->exec("DELETE FROM idempotency_keys");
    d->exec("DELETE FROM order_tokens");
}

} // namespace retrylab
