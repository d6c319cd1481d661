// The SQLite store's own guarantees (issue 21, "the store's own guarantees"): checked at the
// database level, with two connections on one file, a reopen after a process that died holding
// in-flight rows, and a restart of a durable store. Each test fails when the guarantee it names
// is planted out of core/live/orderstore.cpp (see the comments).
#include "livesupport.h"

#include "orderstoresupport.h"

#include <QDir>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

namespace {

// A third connection that reads the file as any SQLite client would.
qint64 countRows(const QString &file, const QString &sql)
{
    return Peer(file, QStringLiteral("peek")).count(sql);
}

QByteArray post(int ref, const QByteArray &key)
{
    return postOrder("{\"ref\":\"ORD-" + QByteArray::number(ref).rightJustified(4, '0') + "\"}", key);
}

} // namespace

class TestOrderStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void uniquenessAtCommitIsAConflict();
    void otherFailuresAreNotConflicts();
    void inFlightRowsAreClearedAtReopen();
    void durableStoreKeepsKeysAndTokens();
    void durableServerRestartKeepsKeysAndTokens();
    void oneExclusiveStorePerFile();
    void pagesOfAReference();
    void inMemoryOnTheMemdbVfs();
    void inMemoryStoresArePrivate();
    void inMemoryBrokenBatchRollsBack();
    void batchRowsSeveralPerStatement_data();
    void batchRowsSeveralPerStatement();
    void failureAfterCommitStoresOneDecision_data();
    void failureAfterCommitStoresOneDecision();
};

void TestOrderStore::uniquenessAtCommitIsAConflict()
{
    // Two connections on one file, as two processes would be: only the database's UNIQUE
    // constraint (the key is the primary key of idempotency_keys) can refuse the second.
    // Planted: commit() returning Failed for a constraint, or the key column without its
    // constraint, fails here.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("two.db"));
    OrderStore a, b;
    QCOMPARE(a.open(file, OrderStore::Access::Shared), QString());
    QCOMPARE(b.open(file, OrderStore::Access::Shared), QString());
    // A reserves (in flight), B commits the same key without a reservation of its own.
    QVERIFY(a.reserveKey("shared-key", 1, 42));
    QVERIFY(!b.reserveKey("shared-key", 2, 42));
    QCOMPARE(b.commit(order(1, "ORD-0001", "shared-key")), OrderStore::CommitResult::KeyTaken);
    QCOMPARE(b.lastError(), QString()); // a conflict is no error
    qint64 records = -1, refs = -1;
    QVERIFY(b.counts(&records, &refs));
    QCOMPARE(records, 0); // nothing of B's transaction was written
    // A finishes its reservation; a key that is stored (not in flight) is refused the same way.
    QCOMPARE(a.commit(order(1, "ORD-0001", "shared-key", true)), OrderStore::CommitResult::Ok);
    QCOMPARE(b.commit(order(2, "ORD-0001", "shared-key")), OrderStore::CommitResult::KeyTaken);
    QVERIFY(b.counts(&records, &refs));
    QCOMPARE(records, 1);
    QCOMPARE(countRows(file, QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE idem_key = 'shared-key' AND in_flight = 0")), 1);
    // Naive mode's upsert is the one path past the constraint: the last writer wins.
    OrderStore::Commit naive = order(2, "ORD-0001", "shared-key");
    naive.upsertKey = true;
    QCOMPARE(b.commit(naive), OrderStore::CommitResult::Ok);
}

void TestOrderStore::otherFailuresAreNotConflicts()
{
    // A record id taken by the other connection is a constraint too, but not the key's: it must
    // be a plain failure with the database's reason, never "key taken" (a 409 for a 500).
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("ids.db"));
    OrderStore a, b;
    QCOMPARE(a.open(file, OrderStore::Access::Shared), QString());
    QCOMPARE(b.open(file, OrderStore::Access::Shared), QString());
    QCOMPARE(a.commit(order(1, "ORD-0001", "key-a")), OrderStore::CommitResult::Ok);
    QCOMPARE(b.commit(order(1, "ORD-0002", "key-b")), OrderStore::CommitResult::Failed);
    // The key row of the failed transaction was rolled back with it.
    QCOMPARE(countRows(file, QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE idem_key = 'key-b'")), 0);
    QCOMPARE(b.commit(order(2, "ORD-0002", "key-b")), OrderStore::CommitResult::Ok);
}

void TestOrderStore::inFlightRowsAreClearedAtReopen()
{
    // A process killed while processing leaves its reservation in flight; its order never
    // committed, so the next process must let the key through (a resend gets 201, not 409).
    // Planted: open() without its "DELETE ... WHERE in_flight = 1" fails here.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("killed.db"));
    {
        OrderStore dying;
        QCOMPARE(dying.open(file), QString());
        QCOMPARE(dying.commit(order(1, "ORD-0001", "done-key")), OrderStore::CommitResult::Ok);
        QVERIFY(dying.reserveKey("in-flight-key", 5, 7));
        // close() is what the kernel does for a killed process: the connection goes, nothing
        // else runs (no rollback of the reservation by the store).
    }
    QCOMPARE(countRows(file, QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE in_flight = 1")), 1);
    OrderStore next;
    QCOMPARE(next.open(file), QString());
    QCOMPARE(countRows(file, QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE in_flight = 1")), 0);
    QList<QByteArray> keys;
    next.forEachKey([&keys](const OrderStore::KeyRow &k) { keys << k.key; });
    QCOMPARE(keys, QList<QByteArray>{"done-key"}); // the committed key stays
    QVERIFY(next.reserveKey("in-flight-key", 9, 7));
    QCOMPARE(next.commit(order(2, "ORD-0002", "in-flight-key", true)), OrderStore::CommitResult::Ok);
}

void TestOrderStore::durableStoreKeepsKeysAndTokens()
{
    // Planted: open() deleting every key or token row (not only in-flight ones) fails here.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("durable.db"));
    {
        OrderStore s;
        QCOMPARE(s.open(file), QString());
        QCOMPARE(s.commit(order(1, "ORD-0001", "kept-key")), OrderStore::CommitResult::Ok);
        s.storeKeyError("error-key", 3, 9, 503, "{\"status\":503}");
        s.insertToken("tok-used");
        s.insertToken("tok-fresh");
        s.markTokenUsed("tok-used");
    }
    OrderStore s;
    QCOMPARE(s.open(file), QString());
    QMap<QByteArray, int> keys;
    s.forEachKey([&keys](const OrderStore::KeyRow &k) { keys.insert(k.key, k.status * 10 + k.record); });
    QCOMPARE(keys.value("kept-key"), 2011);
    QCOMPARE(keys.value("error-key"), 5030);
    QMap<QByteArray, bool> tokens;
    s.forEachToken([&tokens](const QByteArray &t, bool used) { tokens.insert(t, used); });
    QCOMPARE(tokens.size(), 2);
    QCOMPARE(tokens.value("tok-used"), true);
    QCOMPARE(tokens.value("tok-fresh"), false);
    QCOMPARE(s.replayBody("error-key", 0), QByteArray("{\"status\":503}"));
}

void TestOrderStore::durableServerRestartKeepsKeysAndTokens()
{
    // A restart fault (the server process restarts in place), then a real process restart on the
    // same file: a durable key store keeps its keys and tokens through both.
    // Planted: restart() calling dropKeys(true) for a durable store fails here.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("restart.db"));
    ServeOptions options;
    options.dbFile = file;
    options.scenario.server.restartDownMs = 50;
    options.scenario.server.idempotency.mode = IdempotencyMode::Token;
    QByteArray used, fresh;
    {
        OrderServer server;
        QCOMPARE(server.start(options), QString());
        used = exchange(server.port(), request("POST", "/order-tokens")).json().value(QLatin1String("token")).toString().toLatin1();
        fresh = exchange(server.port(), request("POST", "/order-tokens")).json().value(QLatin1String("token")).toString().toLatin1();
        QCOMPARE(exchange(server.port(), post(1, used)).status, 201);
        QSignalSpy restarted(&server, &OrderServer::restarted);
        server.restart();
        QTRY_COMPARE_WITH_TIMEOUT(restarted.size(), 2, 5000); // down, then up
        QCOMPARE(exchange(server.port(), post(1, used)).status, 409); // still used
        server.stop();
    }
    QCOMPARE(countRows(file, QStringLiteral("SELECT COUNT(*) FROM order_tokens")), 2);
    OrderServer again;
    QCOMPARE(again.start(options), QString());
    QCOMPARE(again.loaded().tokens, 2);
    QCOMPARE(again.loaded().keys, 1);
    QCOMPARE(exchange(again.port(), post(1, used)).status, 409);
    QCOMPARE(exchange(again.port(), post(2, fresh)).status, 201);
}

void TestOrderStore::oneExclusiveStorePerFile()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("lock.db"));
    OrderStore first, second;
    QCOMPARE(first.open(file), QString());
    const QString refused = second.open(file);
    QVERIFY2(refused.contains(QLatin1String("another retrylab serve")), qPrintable(refused));
    QVERIFY(!second.isOpen());
    first.close();
    QCOMPARE(second.open(file), QString());
    // In memory, each store is its own database: no lock.
    OrderStore m1, m2;
    QCOMPARE(m1.open(QString()), QString());
    QCOMPARE(m2.open(QString()), QString());
}

void TestOrderStore::pagesOfAReference()
{
    OrderStore s;
    QCOMPARE(s.open(QString()), QString());
    for (int id = 1; id <= 5; ++id)
        QCOMPARE(s.commit(order(id, id == 3 ? "ORD-0002" : "ORD-0001")), OrderStore::CommitResult::Ok);
    // ORD-0001 has ids 1, 2, 4, 5.
    OrderStore::Page p = s.recordsByRef("ORD-0001", 0, 2);
    QCOMPARE(p.total, 4);
    QCOMPARE(p.bodies.size(), 2);
    QCOMPARE(p.lastId, 2);
    QVERIFY(p.more);
    p = s.recordsByRef("ORD-0001", 2, 2); // exactly the rest: no next page
    QCOMPARE(p.bodies.size(), 2);
    QCOMPARE(p.lastId, 5);
    QVERIFY(!p.more);
    QVERIFY(p.bodies.first().contains("\"id\":4"));
    p = s.recordsByRef("ORD-0001", 5, 2);
    QCOMPARE(p.bodies.size(), 0);
    QCOMPARE(p.total, 4);
    QVERIFY(!p.more);
    p = s.recordsByRef("ORD-0001", 0, 4); // a limit equal to the total
    QCOMPARE(p.bodies.size(), 4);
    QVERIFY(!p.more);
    QCOMPARE(s.recordsByRef("ORD-9999", 0, 10).total, 0);
}

void TestOrderStore::inMemoryOnTheMemdbVfs()
{
    // In memory the store lives on SQLite's memdb VFS: a ":memory:" database walks its whole page
    // cache at every COMMIT, so an order cost more the more orders were stored (issue 21, "Speed").
    // Nothing goes to disk, not even a journal. Planted: ":memory:" again fails the VFS (SQLite's
    // default, "unix"). Where SQLite is built without SQLITE_USE_URI (Debian's reads URIs anyway),
    // the URI without QSQLITE_OPEN_URI would be a file named "file:...?vfs=memdb" here: both fail.
    QTemporaryDir dir;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    {
        OrderStore s;
        QCOMPARE(s.open(QString()), QString());
        QCOMPARE(s.vfsName(), QStringLiteral("memdb"));
        QCOMPARE(s.commit(order(1, "ORD-0001", "k-1")), OrderStore::CommitResult::Ok);
        QVERIFY(s.beginBatch());
        QCOMPARE(s.add(order(2, "ORD-0002", "k-2")), OrderStore::CommitResult::Ok);
        QVERIFY(s.endBatch());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        s.close();
        QCOMPARE(s.vfsName(), QString());
    }
    QVERIFY(QDir::setCurrent(before));
    // A file keeps SQLite's default VFS (the WAL and its checkpoints need it).
    OrderStore f;
    QCOMPARE(f.open(dir.filePath(QStringLiteral("file.db"))), QString());
    QCOMPARE(f.vfsName(), QStringLiteral("unix"));
}

void TestOrderStore::inMemoryStoresArePrivate()
{
    // Two in-memory stores of one process (two servers in one window or test) never share rows:
    // memdb shares a database only under a name that starts with "/". Planted: one fixed name
    // such as "file:/retrylab?vfs=memdb" fails here.
    OrderStore a, b;
    QCOMPARE(a.open(QString()), QString());
    QCOMPARE(b.open(QString()), QString());
    QCOMPARE(a.commit(order(1, "ORD-0001", "k-1")), OrderStore::CommitResult::Ok);
    qint64 records = -1, refs = -1;
    QVERIFY(b.counts(&records, &refs));
    QCOMPARE(records, 0);
    QCOMPARE(b.commit(order(1, "ORD-0001", "k-1")), OrderStore::CommitResult::Ok);
    QVERIFY(a.counts(&records, &refs));
    QCOMPARE(records, 1);
}

void TestOrderStore::inMemoryBrokenBatchRollsBack()
{
    // In memory a batch has no savepoints: a failure that is not the key's own refusal (here a
    // record id taken) breaks the batch, and the journal in memory rolls all of it back; the next
    // batch starts clean. The order rows wait for endBatch()'s multi-row INSERT, so add() takes
    // each order (its key row is new) and endBatch() meets the taken id. Planted: endBatch()
    // committing a broken batch fails here (order 2 and key k-2 would stay).
    OrderStore s;
    QCOMPARE(s.open(QString()), QString());
    QCOMPARE(s.commit(order(1, "ORD-0001", "k-1")), OrderStore::CommitResult::Ok);
    QVERIFY(s.beginBatch());
    QCOMPARE(s.add(order(2, "ORD-0002", "k-2")), OrderStore::CommitResult::Ok);
    QCOMPARE(s.add(order(1, "ORD-0009", "k-9")), OrderStore::CommitResult::Ok);
    QCOMPARE(s.add(order(3, "ORD-0003", "k-3")), OrderStore::CommitResult::Ok);
    QVERIFY(!s.endBatch());
    QVERIFY2(s.lastError().contains(QStringLiteral("UNIQUE")), qPrintable(s.lastError()));
    QVERIFY(!s.lastError().isEmpty());
    qint64 records = -1, refs = -1;
    QVERIFY(s.counts(&records, &refs));
    QCOMPARE(records, 1);
    QList<QByteArray> keys;
    s.forEachKey([&keys](const OrderStore::KeyRow &k) { keys << k.key; });
    QCOMPARE(keys, QList<QByteArray>{"k-1"});
    QCOMPARE(s.transactions(), 1);
    QVERIFY(s.beginBatch());
    QCOMPARE(s.add(order(2, "ORD-0002", "k-2")), OrderStore::CommitResult::Ok);
    QVERIFY(s.endBatch());
    QVERIFY(s.counts(&records, &refs));
    QCOMPARE(records, 2);
    QCOMPARE(s.recordBody(2), QByteArray("{\"id\":2,\"ref\":\"ORD-0002\"}"));
}

void TestOrderStore::batchRowsSeveralPerStatement_data()
{
    QTest::addColumn<bool>("inFile");
    QTest::addColumn<int>("orders");
    // 32 rows per INSERT: one statement, one full one, one row past it, several with a rest.
    for (const bool inFile : {false, true})
        for (const int n : {1, 31, 32, 33, 70}) {
            const QByteArray name = QByteArray(inFile ? "file-" : "memory-") + QByteArray::number(n);
            QTest::newRow(name.constData()) << inFile << n;
        }
}

void TestOrderStore::batchRowsSeveralPerStatement()
{
    // Alone on its database a batch's order rows go in at endBatch(), up to 32 per INSERT: every
    // order keeps its own id, reference, key, request id, time and body, and a key refused in the
    // middle (its row is written at add()) leaves no row of its order behind. Planted: the rows
    // of the second statement bound from the batch's start (pending[i] for pending[done + i])
    // fails at 33 and 70; a batch whose waiting rows are not cleared (written again by the next)
    // fails every row.
    QFETCH(bool, inFile);
    QFETCH(int, orders);
    QTemporaryDir dir;
    OrderStore s;
    QCOMPARE(s.open(inFile ? dir.filePath(QStringLiteral("rows.db")) : QString()), QString());
    QCOMPARE(s.commit(order(1, "ORD-0001", "taken")), OrderStore::CommitResult::Ok);
    QVERIFY(s.beginBatch());
    int id = 2;
    for (int i = 0; i < orders; ++i) {
        const QByteArray ref = "ORD-" + QByteArray::number(100 + i % 7);
        if (i == orders / 2) // a key the database holds: this order alone fails, the next takes its id
            QCOMPARE(s.add(order(id, ref, "taken")), OrderStore::CommitResult::KeyTaken);
        QCOMPARE(s.add(order(id, ref, "k-" + QByteArray::number(id))), OrderStore::CommitResult::Ok);
        ++id;
    }
    QVERIFY(s.endBatch());
    // The next batch, of one order, writes that order alone.
    QVERIFY(s.beginBatch());
    QCOMPARE(s.add(order(id, "ORD-0002", "k-" + QByteArray::number(id))), OrderStore::CommitResult::Ok);
    QVERIFY2(s.endBatch(), qPrintable(s.lastError()));
    QCOMPARE(s.transactions(), 3);
    int seen = 0;
    s.forEachRecord([&seen](const OrderStore::Row &r) {
        ++seen;
        const OrderStore::Commit want = order(seen, r.ref, seen == 1 ? "taken" : "k-" + QByteArray::number(seen));
        QCOMPARE(r.id, seen);
        QCOMPARE(r.op, want.op);
        QCOMPARE(r.key, want.key);
        QCOMPARE(r.requestId, want.requestId);
        QCOMPARE(r.createdUs, want.createdUs);
    });
    QCOMPARE(seen, orders + 2);
    for (int i = 2; i <= orders + 2; ++i) {
        const QByteArray ref = i == orders + 2 ? QByteArray("ORD-0002") : "ORD-" + QByteArray::number(100 + (i - 2) % 7);
        QCOMPARE(s.recordBody(i), order(i, ref).body);
        QCOMPARE(s.replayBody("k-" + QByteArray::number(i), i), order(i, ref).body);
    }
    qint64 records = 0, refs = 0;
    QVERIFY(s.counts(&records, &refs));
    QCOMPARE(records, qint64(orders + 2));
    QCOMPARE(refs, qint64(std::min(orders, 7) + 2));
    const OrderStore::Page page = s.recordsByRef("ORD-100", 0, 100);
    QCOMPARE(page.total, qint64((orders + 6) / 7));
}

void TestOrderStore::failureAfterCommitStoresOneDecision_data()
{
    QTest::addColumn<bool>("storeErrors");
    QTest::addColumn<int>("keyRow");
    // errorStatus 500, not the default 503: the row must carry the configured status.
    QTest::addRow("store-errors") << true << 500;
    QTest::addRow("store-only-successes") << false << 201;
}

void TestOrderStore::failureAfterCommitStoresOneDecision()
{
    // server5xxAfterCommit: the order commits and the client gets errorStatus. The key row serve's
    // group commit writes and the status the pipeline answers come from one decision
    // (commitDecision): with storeErrors the key replays the error, else the order's 201, in this
    // process and in the next one (the row). Planted: the row's status taken from the answer
    // whatever storeErrors says fails store-only-successes; one fixed 503 fails store-errors.
    QFETCH(bool, storeErrors);
    QFETCH(int, keyRow);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("after.db"));
    Scenario s = ServeOptions::defaultScenario();
    s.server.error5xxAfterCommit = 1.0;
    s.server.errorStatus = 500;
    s.server.idempotency.storeErrors = storeErrors;
    {
        auto server = startServer(s, file);
        QCOMPARE(exchange(server->port(), post(1, "after-1")).status, 500);
        QCOMPARE(exchange(server->port(), post(1, "after-1")).status, keyRow); // the replay
    }
    QCOMPARE(countRows(file, QStringLiteral("SELECT status FROM idempotency_keys WHERE idem_key = 'after-1'")), keyRow);
    QCOMPARE(countRows(file, QStringLiteral("SELECT COUNT(*) FROM records")), 1);
    s.server.error5xxAfterCommit = 0;
    auto again = startServer(s, file);
    const RawResponse replay = exchange(again->port(), post(1, "after-1"));
    QCOMPARE(replay.status, keyRow);
    QCOMPARE(replay.header("Idempotent-Replayed"), QByteArray("true"));
}

QTEST_GUILESS_MAIN(TestOrderStore)
#include "tst_orderstore.moc"
