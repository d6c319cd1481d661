#include "orderstore.h"

#include <QAtomicInt>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace retrylab {

namespace {
QAtomicInt g_connections;

// SQLite's extended result code for a UNIQUE or PRIMARY KEY violation is 2067/1555; Qt reports
// the primary code 19 (SQLITE_CONSTRAINT) in nativeErrorCode() for this driver version.
bool isConstraint(const QSqlError &e)
{
    const QString code = e.nativeErrorCode();
    return code == QLatin1String("19") || code == QLatin1String("2067") || code == QLatin1String("1555");
}
} // namespace

struct OrderStore::Private
{
    QString connection;
    QString fileName;
    QSqlDatabase db;
    QString error;
    std::unique_ptr<QSqlQuery> begin, commit, rollback, insertRecord, reserveKey, insertKey, upsertKey, finishKey, deleteKey,
            keyBody, recordBody, byRef, storeKeyError;

    std::unique_ptr<QSqlQuery> prepare(const char *sql)
    {
        auto q = std::make_unique<QSqlQuery>(db);
        if (!q->prepare(QString::fromLatin1(sql)) && error.isEmpty())
            error = q->lastError().text();
        return q;
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
    bool run(QSqlQuery &q)
    {
        if (q.exec())
            return true;
        error = q.lastError().text();
        return false;
    }
};

OrderStore::OrderStore() : d(std::make_unique<Private>()) {}

OrderStore::~OrderStore()
{
    close();
}

QString OrderStore::open(const QString &fileName)
{
    close();
    d->error.clear();
    d->fileName = fileName;
    d->connection = QStringLiteral("retrylab-store-%1").arg(g_connections.fetchAndAddRelaxed(1));
    d->db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), d->connection);
    d->db.setDatabaseName(fileName.isEmpty() ? QStringLiteral(":memory:") : fileName);
    if (!d->db.open()) {
        const QString e = d->db.lastError().text();
        close();
        return e.isEmpty() ? QStringLiteral("cannot open the database") : e;
    }
    const bool file = !fileName.isEmpty();
    // WAL with synchronous=NORMAL: a commit is durable against a killed process (the WAL is
    // in the OS cache); only a power loss may lose the last transactions.
    // Small pages: a commit touches three B-tree leaves (order, reference index, key), and WAL
    // appends whole pages, so 1 KiB pages write a quarter of the bytes of the 4 KiB default.
    if ((file && (!d->exec("PRAGMA page_size=1024") || !d->exec("PRAGMA journal_mode=WAL") || !d->exec("PRAGMA synchronous=NORMAL")
                  // A checkpoint syncs the WAL and the database file: every 16 MiB, not every 1 MiB.
                  || !d->exec("PRAGMA wal_autocheckpoint=16384") || !d->exec("PRAGMA busy_timeout=2000")))
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
    // Prepared once: QSqlDatabase::transaction() parses "BEGIN" anew on every call.
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
    d->byRef = d->prepare("SELECT body FROM records WHERE ref = ? ORDER BY id LIMIT ?");
    d->storeKeyError = d->prepare("INSERT OR REPLACE INTO idempotency_keys(idem_key, created_us, fingerprint, "
                                  "in_flight, status, record, body) VALUES (?, ?, ?, 0, ?, 0, ?)");
    if (!d->error.isEmpty()) {
        const QString e = d->error;
        close();
        return e;
    }
    return QString();
}

void OrderStore::close()
{
    if (d->connection.isEmpty())
        return;
    d->begin.reset();
    d->commit.reset();
    d->rollback.reset();
    d->insertRecord.reset();
    d->reserveKey.reset();
    d->insertKey.reset();
    d->upsertKey.reset();
    d->finishKey.reset();
    d->deleteKey.reset();
    d->keyBody.reset();
    d->recordBody.reset();
    d->byRef.reset();
    d->storeKeyError.reset();
    d->db.close();
    d->db = QSqlDatabase();
    QSqlDatabase::removeDatabase(d->connection);
    d->connection.clear();
}

bool OrderStore::isOpen() const
{
    return !d->connection.isEmpty();
}

QString OrderStore::fileName() const
{
    return d->fileName;
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
    QSqlQuery &q = *d->reserveKey;
    q.bindValue(0, QString::fromLatin1(key));
    q.bindValue(1, createdUs);
    q.bindValue(2, qint64(fingerprint));
    const bool ok = q.exec();
    if (!ok && !isConstraint(q.lastError()))
        d->error = q.lastError().text();
    return ok;
}

void OrderStore::deleteKey(const QByteArray &key)
{
    QSqlQuery &q = *d->deleteKey;
    q.bindValue(0, QString::fromLatin1(key));
    d->run(q);
}

OrderStore::CommitResult OrderStore::commit(const Commit &c)
{
    if (!d->run(*d->begin))
        return CommitResult::Failed;
    bool taken = false;
    const QVariant noText{QMetaType::fromType<QString>()};
    const QVariant key = c.key.isEmpty() ? noText : QVariant(QString::fromLatin1(c.key));
    const QVariant errorBody = c.keyStatus >= 400 ? QVariant(c.keyBody) : QVariant(QMetaType::fromType<QByteArray>());
    bool ok = true;
    if (c.writeKey) {
        QSqlQuery &q = c.keyReserved ? *d->finishKey : (c.upsertKey ? *d->upsertKey : *d->insertKey);
        if (c.keyReserved) {
            q.bindValue(0, qint64(c.fingerprint));
            q.bindValue(1, c.keyStatus);
            q.bindValue(2, c.id);
            q.bindValue(3, errorBody);
            q.bindValue(4, key);
        } else {
            q.bindValue(0, key);
            q.bindValue(1, c.keyCreatedUs);
            q.bindValue(2, qint64(c.fingerprint));
            q.bindValue(3, c.keyStatus);
            q.bindValue(4, c.id);
            q.bindValue(5, errorBody);
        }
        ok = q.exec();
        taken = !ok && isConstraint(q.lastError());
        if (!ok && !taken)
            d->error = q.lastError().text();
    }
    if (ok) {
        QSqlQuery &q = *d->insertRecord;
        q.bindValue(0, c.id);
        q.bindValue(1, QString::fromUtf8(c.ref));
        q.bindValue(2, c.op);
        q.bindValue(3, key);
        q.bindValue(4, c.requestId.isEmpty() ? noText : QVariant(QString::fromLatin1(c.requestId)));
        q.bindValue(5, c.createdUs);
        q.bindValue(6, c.body);
        ok = d->run(q);
    }
    if (!ok) {
        d->rollback->exec();
        return taken ? CommitResult::KeyTaken : CommitResult::Failed;
    }
    if (!d->run(*d->commit)) {
        d->rollback->exec();
        return CommitResult::Failed;
    }
    return CommitResult::Ok;
}

void OrderStore::storeKeyError(const QByteArray &key, qint64 createdUs, quint64 fingerprint, int status,
                               const QByteArray &body)
{
    QSqlQuery &q = *d->storeKeyError;
    q.bindValue(0, QString::fromLatin1(key));
    q.bindValue(1, createdUs);
    q.bindValue(2, qint64(fingerprint));
    q.bindValue(3, status);
    q.bindValue(4, body);
    d->run(q);
}

QByteArray OrderStore::replayBody(const QByteArray &key, int record)
{
    QSqlQuery &q = *d->keyBody;
    q.bindValue(0, QString::fromLatin1(key));
    QByteArray body;
    if (d->run(q) && q.next())
        body = q.value(0).toByteArray();
    q.finish();
    if (body.isEmpty() && record > 0)
        body = recordBody(record);
    return body;
}

QByteArray OrderStore::recordBody(int id)
{
    QSqlQuery &q = *d->recordBody;
    q.bindValue(0, id);
    QByteArray body;
    if (d->run(q) && q.next())
        body = q.value(0).toByteArray();
    q.finish();
    return body;
}

QList<QByteArray> OrderStore::recordsByRef(const QByteArray &ref, int limit)
{
    QSqlQuery &q = *d->byRef;
    q.bindValue(0, QString::fromUtf8(ref));
    q.bindValue(1, limit);
    QList<QByteArray> out;
    if (d->run(q)) {
        while (q.next())
            out.append(q.value(0).toByteArray());
    }
    q.finish();
    return out;
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
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO order_tokens(token, used) VALUES (?, 0)"));
    q.bindValue(0, QString::fromLatin1(token));
    d->run(q);
}

void OrderStore::markTokenUsed(const QByteArray &token)
{
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("UPDATE order_tokens SET used = 1 WHERE token = ?"));
    q.bindValue(0, QString::fromLatin1(token));
    d->run(q);
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
