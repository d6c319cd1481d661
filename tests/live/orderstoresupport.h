#pragma once

// Helpers for the tests of the SQLite order store (tst_orderstore, tst_groupcommit): one order as
// the server would commit it, and a connection of its own on the file, as any other SQLite client.
#include "orderstore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

namespace retrylab::test {

// Order `id` of reference `ref`; with a key, its stored 201 (fingerprint 42) goes in the same commit.
inline OrderStore::Commit order(int id, const QByteArray &ref, const QByteArray &key = QByteArray(), bool reserved = false)
{
    OrderStore::Commit c;
    c.id = id;
    c.ref = ref;
    c.op = id;
    c.key = key;
    c.requestId = "req-" + QByteArray::number(id);
    c.createdUs = 1000 * id;
    c.body = "{\"id\":" + QByteArray::number(id) + ",\"ref\":\"" + ref + "\"}";
    c.writeKey = !key.isEmpty();
    c.keyReserved = reserved;
    c.keyCreatedUs = c.createdUs;
    c.fingerprint = 42;
    c.keyStatus = 201;
    return c;
}

// A connection of its own on the file, as another SQLite client (no OrderStore, no lock file).
class Peer
{
public:
    explicit Peer(const QString &file, const QString &name = QStringLiteral("peer")) : m_name(name)
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(file);
        db.open();
    }
    ~Peer()
    {
        QSqlDatabase::database(m_name).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    Peer(const Peer &) = delete;
    Peer &operator=(const Peer &) = delete;
    bool exec(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        return q.exec(sql);
    }
    // The first column of the first row (a COUNT), -1 when the query fails.
    qint64 count(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
    }

private:
    QString m_name;
};

} // namespace retrylab::test
