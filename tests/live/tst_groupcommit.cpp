// Group commit (issue 21, "Speed", item 1): the orders whose processing ends in one turn of the
// event loop share one SQLite transaction, each answered only after that transaction commits; a
// constraint failure of one order fails that order alone; a batch the database refuses leaves
// nothing behind, in the table or in the service's in-memory key index, which agrees with the
// table after the failure and after a restart. Each test names the planted bug it catches.
#include "livesupport.h"

#include "orderstoresupport.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;
using namespace retrylab::test;

class TestGroupCommit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void batchIsOneTransaction();
    void constraintFailsOnlyItsOrder();
    void keyRefusalAloneWithoutSavepoints();
    void deferredKeysRefusedRollBackWhole();
    void keyTakenBehindTheServiceFailsItsOrderAlone();
    void refusedBatchWritesNothing();
    void ordersOfOneTurnShareATransaction();
    void concurrentConnectionsAnswerCorrectly();
    void indexAndTableAgreeAfterFailedCommitAndRestart();
};

void TestGroupCommit::batchIsOneTransaction()
{
    // Planted: endBatch() committing nothing (or add() committing each order) fails here.
    OrderStore s;
    QCOMPARE(s.open(QString()), QString());
    QVERIFY(s.beginBatch());
    for (int id = 1; id <= 5; ++id)
        QCOMPARE(s.add(order(id, "ORD-0001", "k-" + QByteArray::number(id))), OrderStore::CommitResult::Ok);
    QVERIFY(s.endBatch());
    QCOMPARE(s.transactions(), 1);
    qint64 records = 0, refs = 0;
    QVERIFY(s.counts(&records, &refs));
    QCOMPARE(records, 5);
    // One order alone is one transaction too (the boundary: a batch of one).
    QVERIFY(s.beginBatch());
    QCOMPARE(s.add(order(6, "ORD-0002", "k-6")), OrderStore::CommitResult::Ok);
    QVERIFY(s.endBatch());
    QCOMPARE(s.transactions(), 2);
    // A batch that holds no order counts nothing.
    QVERIFY(s.beginBatch());
    QVERIFY(s.endBatch());
    QCOMPARE(s.transactions(), 2);
}

void TestGroupCommit::constraintFailsOnlyItsOrder()
{
    // Two connections on one file, as two processes would be: the key another one stored, and a
    // record id another one took, each fail their own order; the batch's others commit.
    // Planted: add() without its savepoint (ROLLBACK TO dropped), or a constraint ending the
    // batch, fails here (the savepoint: k-4's key row stays).
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("two.db"));
    OrderStore a, b;
    QCOMPARE(a.open(file, OrderStore::Access::Shared), QString());
    QCOMPARE(b.open(file, OrderStore::Access::Shared), QString());
    QCOMPARE(a.commit(order(1, "ORD-0001", "taken")), OrderStore::CommitResult::Ok);
    QCOMPARE(a.commit(order(4, "ORD-0004", "a-4")), OrderStore::CommitResult::Ok);
    QVERIFY(b.beginBatch());
    QCOMPARE(b.add(order(2, "ORD-0002", "k-2")), OrderStore::CommitResult::Ok);
    QCOMPARE(b.add(order(3, "ORD-0003", "taken")), OrderStore::CommitResult::KeyTaken);
    QCOMPARE(b.add(order(3, "ORD-0003", "k-3")), OrderStore::CommitResult::Ok);
    // Its key row goes in first, then the record meets a's id 4: the key row must go with it.
    QCOMPARE(b.add(order(4, "ORD-0005", "k-4")), OrderStore::CommitResult::Failed);
    QCOMPARE(b.add(order(5, "ORD-0005", "k-5")), OrderStore::CommitResult::Ok);
    QVERIFY(b.endBatch());
    QCOMPARE(b.transactions(), 1);
    Peer peer(file);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM records")), 5);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM records WHERE ref = 'ORD-0005' AND id = 5")), 1);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE idem_key = 'k-4'")), 0);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE idem_key = 'taken' AND record = 1")), 1);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys")), 5); // taken, a-4, k-2, k-3, k-5
}

void TestGroupCommit::keyRefusalAloneWithoutSavepoints()
{
    // A store alone on its database (in memory, or a file it holds the lock of) writes a batch
    // without savepoints: the key's refusal is its order's first statement, which SQLite backs
    // out alone. Planted: a KeyTaken ending the batch there fails here.
    QTemporaryDir dir;
    for (const QString &file : {QString(), dir.filePath(QStringLiteral("alone.db"))}) {
        OrderStore s;
        QCOMPARE(s.open(file), QString());
        QCOMPARE(s.commit(order(1, "ORD-0001", "taken")), OrderStore::CommitResult::Ok);
        QVERIFY(s.beginBatch());
        QCOMPARE(s.add(order(2, "ORD-0002", "k-2")), OrderStore::CommitResult::Ok);
        QCOMPARE(s.add(order(3, "ORD-0003", "taken")), OrderStore::CommitResult::KeyTaken);
        QCOMPARE(s.add(order(3, "ORD-0003", "k-3")), OrderStore::CommitResult::Ok);
        QVERIFY(s.endBatch());
        QCOMPARE(s.transactions(), 2);
        qint64 records = 0, refs = 0;
        QVERIFY(s.counts(&records, &refs));
        QCOMPARE(records, 3);
        QCOMPARE(s.replayBody("taken", 1), QByteArray("{\"id\":1,\"ref\":\"ORD-0001\"}"));
        QList<QByteArray> keys;
        s.forEachKey([&keys](const OrderStore::KeyRow &k) { keys << k.key; });
        std::sort(keys.begin(), keys.end());
        QCOMPARE(keys, (QList<QByteArray>{"k-2", "k-3", "taken"}));
    }
}

void TestGroupCommit::deferredKeysRefusedRollBackWhole()
{
    // beginBatch(true): the new key rows wait for endBatch() with the order rows. A deferred batch
    // writes the same key rows as one written a key per add(); a key the database refuses there
    // rolls back the whole batch (nothing of it stays) and says so, and written again without
    // deferKeys that key fails its own order alone. Planted: key rows not bound from their own
    // order (pendingRecords[0] for each) fails the rows' check; a refusal not reported
    // (batchKeyRefused() false) fails here.
    QTemporaryDir dir;
    for (const QString &file : {QString(), dir.filePath(QStringLiteral("deferred.db"))}) {
        OrderStore s;
        QCOMPARE(s.open(file), QString());
        QCOMPARE(s.commit(order(1, "ORD-0001", "taken")), OrderStore::CommitResult::Ok);
        QVERIFY(s.beginBatch(true));
        for (int id = 2; id <= 4; ++id)
            QCOMPARE(s.add(order(id, "ORD-0002", "d-" + QByteArray::number(id))), OrderStore::CommitResult::Ok);
        QVERIFY2(s.endBatch(), qPrintable(s.lastError()));
        QVERIFY(!s.batchKeyRefused());
        QList<OrderStore::KeyRow> rows;
        s.forEachKey([&rows](const OrderStore::KeyRow &k) { rows << k; });
        std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.key < b.key; });
        QCOMPARE(rows.size(), 4);
        for (int id = 2; id <= 4; ++id) {
            const OrderStore::KeyRow &k = rows.at(id - 2);
            QCOMPARE(k.key, "d-" + QByteArray::number(id));
            QCOMPARE(k.record, id);
            QCOMPARE(k.createdUs, 1000 * id);
            QCOMPARE(k.fingerprint, quint64(42));
            QCOMPARE(k.status, 201);
        }

        QVERIFY(s.beginBatch(true));
        QCOMPARE(s.add(order(5, "ORD-0005", "k-5")), OrderStore::CommitResult::Ok);
        QCOMPARE(s.add(order(6, "ORD-0006", "taken")), OrderStore::CommitResult::Ok); // provisional
        QCOMPARE(s.add(order(7, "ORD-0007", "k-7")), OrderStore::CommitResult::Ok);
        QVERIFY(!s.endBatch());
        QVERIFY(s.batchKeyRefused());
        qint64 records = 0, refs = 0;
        QVERIFY(s.counts(&records, &refs));
        QCOMPARE(records, 4);

        QVERIFY(s.beginBatch(false));
        QVERIFY(!s.batchKeyRefused());
        QCOMPARE(s.add(order(5, "ORD-0005", "k-5")), OrderStore::CommitResult::Ok);
        QCOMPARE(s.add(order(6, "ORD-0006", "taken")), OrderStore::CommitResult::KeyTaken);
        QCOMPARE(s.add(order(6, "ORD-0007", "k-7")), OrderStore::CommitResult::Ok);
        QVERIFY(s.endBatch());
        QVERIFY(s.counts(&records, &refs));
        QCOMPARE(records, 6);
        QCOMPARE(s.replayBody("taken", 1), QByteArray("{\"id\":1,\"ref\":\"ORD-0001\"}"));
        QCOMPARE(s.replayBody("k-7", 6), QByteArray("{\"id\":6,\"ref\":\"ORD-0007\"}"));
    }
}

void TestGroupCommit::keyTakenBehindTheServiceFailsItsOrderAlone()
{
    // A key row the service's index does not know (written by another SQLite client behind its
    // back) is refused by the database at the end of a batch whose key rows waited: the batch is
    // written again a key per order, and that order alone fails (409), the others get ids 1 to 5
    // in request order in one committed transaction. Planted: writeBatch() not writing the batch
    // again answers all six 500 and fails here.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("behind.db"));
    auto server = startServer(ServeOptions::defaultScenario(), file);
    {
        Peer peer(file);
        QVERIFY(peer.exec(QStringLiteral("INSERT INTO idempotency_keys(idem_key, created_us, fingerprint, in_flight, "
                                         "status, record, body) VALUES ('behind-3', 1, 1, 0, 201, 999, NULL)")));
    }
    RawClient client(server->port());
    QByteArray bytes;
    for (int i = 1; i <= 6; ++i)
        bytes += orderFor(i, "behind-" + QByteArray::number(i));
    client.send(bytes);
    const QList<RawResponse> got = answers(client, 6);
    QCOMPARE(got.size(), 6);
    int id = 0;
    for (int i = 1; i <= 6; ++i) {
        const RawResponse &r = got.at(i - 1);
        if (i == 3) {
            QCOMPARE(r.status, 409);
            continue;
        }
        QCOMPARE(r.status, 201);
        QCOMPARE(orderId(r), ++id);
    }
    QCOMPARE(server->storeTransactions(), 1);
}

void TestGroupCommit::refusedBatchWritesNothing()
{
    // Another connection holds the write lock past the busy timeout: the batch's first write
    // fails, every order of it fails, and nothing of it is in the file.
    // Planted: endBatch() committing a broken batch, or add() going on after it broke, fails here.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("busy.db"));
    OrderStore s;
    QCOMPARE(s.open(file, OrderStore::Access::Shared), QString());
    Peer peer(file);
    QVERIFY(peer.exec(QStringLiteral("BEGIN IMMEDIATE")));
    QVERIFY(s.beginBatch());
    QCOMPARE(s.add(order(1, "ORD-0001", "k-1")), OrderStore::CommitResult::Failed);
    QCOMPARE(s.add(order(2, "ORD-0002", "k-2")), OrderStore::CommitResult::Failed);
    QVERIFY(!s.endBatch());
    QVERIFY(!s.lastError().isEmpty());
    QVERIFY(peer.exec(QStringLiteral("ROLLBACK")));
    QCOMPARE(s.transactions(), 0);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM records")), 0);
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys")), 0);
    // The next batch starts clean.
    QVERIFY(s.beginBatch());
    QCOMPARE(s.add(order(1, "ORD-0001", "k-1")), OrderStore::CommitResult::Ok);
    QVERIFY(s.endBatch());
    QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM records")), 1);
}

void TestGroupCommit::ordersOfOneTurnShareATransaction()
{
    // Twelve orders pipelined in one write are read in one turn: one transaction holds them all.
    // The seventh repeats the third one's key while that one is still uncommitted in the same
    // batch: a concurrent request with the key, 409, and the other eleven 201, ids 1 to 11 in
    // request order. Planted: a transaction per order (writeBatch() ending and beginning the
    // batch after each add()) fails the count.
    QTemporaryDir dir;
    for (const QString &db : {QString(), dir.filePath(QStringLiteral("turn.db"))}) {
        auto server = startServer(ServeOptions::defaultScenario(), db);
        RawClient client(server->port());
        QByteArray bytes;
        for (int i = 1; i <= 12; ++i)
            bytes += orderFor(i, "turn-" + QByteArray::number(i == 7 ? 3 : i));
        client.send(bytes);
        const QList<RawResponse> got = answers(client, 12);
        QCOMPARE(got.size(), 12);
        int id = 0;
        for (int i = 1; i <= 12; ++i) {
            const RawResponse &r = got.at(i - 1);
            if (i == 7) {
                QCOMPARE(r.status, 409);
                continue;
            }
            QCOMPARE(r.status, 201);
            QCOMPARE(orderId(r), ++id);
            QCOMPARE(r.json().value(QLatin1String("ref")).toString(),
                     QStringLiteral("ORD-%1").arg(i, 4, 10, QLatin1Char('0')));
        }
        QCOMPARE(server->storeTransactions(), 1);
        // The answered duplicate key replays now that its order committed.
        const RawResponse replay = exchange(server->port(), orderFor(3, "turn-3"));
        QCOMPARE(replay.status, 201);
        QCOMPARE(replay.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(orderId(replay), 3);
        QCOMPARE(server->metricsJson().value(QLatin1String("records")).toInt(), 11);
    }
}

void TestGroupCommit::concurrentConnectionsAnswerCorrectly()
{
    // Sixteen connections at once (wrk's shape), two of them with one key: every answer is right
    // whichever turns the requests fall in, and no more transactions than orders ran.
    auto server = startServer(ServeOptions::defaultScenario());
    QList<QByteArray> requests;
    for (int i = 1; i <= 16; ++i)
        requests << (i == 16 ? orderFor(1, "conn-1") : orderFor(i, "conn-" + QByteArray::number(i)));
    const QList<RawResponse> got = exchangeAll(server->port(), requests, 10000);
    int created = 0, sameKey = 0;
    QSet<int> ids;
    for (const RawResponse &r : got) {
        QVERIFY2(r.status == 201 || r.status == 409, qPrintable(QString::number(r.status)));
        if (r.status == 201 && r.header("Idempotent-Replayed").isEmpty()) {
            ++created;
            ids.insert(orderId(r));
        } else {
            ++sameKey;
        }
    }
    QCOMPARE(created, 15);
    QCOMPARE(sameKey, 1);
    QCOMPARE(ids.size(), 15);
    QCOMPARE(*std::max_element(ids.begin(), ids.end()), 15);
    QVERIFY(server->storeTransactions() >= 1);
    QVERIFY(server->storeTransactions() <= 15);
    QCOMPARE(server->metricsJson().value(QLatin1String("records")).toInt(), 15);
}

void TestGroupCommit::indexAndTableAgreeAfterFailedCommitAndRestart()
{
    // The service's key index (OrderService, in memory) learns an order only after its commit
    // holds: a batch the database refuses leaves no key behind, so the same keys go through
    // afresh once the database accepts writes again, and a restarted process rebuilds the same
    // index from the table. Planted: persist() taking a refused order as committed (the service
    // then holds keys the table lacks) makes the resends replays.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("index.db"));
    ServeOptions options;
    options.dbFile = file;
    QMap<QByteArray, QByteArray> bodies;
    {
        OrderServer server;
        QCOMPARE(server.start(options), QString());
        Peer peer(file);
        QVERIFY(peer.exec(QStringLiteral("BEGIN IMMEDIATE"))); // every write waits, then fails (busy)
        RawClient client(server.port());
        client.send(ordersFor(3, "idx"));
        const QList<RawResponse> refused = answers(client, 3, 20000);
        QVERIFY(peer.exec(QStringLiteral("ROLLBACK")));
        QCOMPARE(refused.size(), 3);
        for (const RawResponse &r : refused) {
            QCOMPARE(r.status, 500);
            QVERIFY2(r.body.contains("the database refused the commit"), r.body.constData());
        }
        QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys")), 0);
        QCOMPARE(server.storeTransactions(), 0);
        // The keys were never stored: each goes through as new, ids from 1.
        client.send(ordersFor(3, "idx"));
        const QList<RawResponse> created = answers(client, 3);
        expectNewOrders(created, 3);
        if (QTest::currentTestFailed())
            return;
        for (int i = 0; i < 3; ++i)
            bodies.insert("idx-" + QByteArray::number(i + 1), created.at(i).body);
        QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM records")), 3);
        QCOMPARE(peer.count(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE in_flight = 0")), 3);
        server.stop();
    }
    // A new process: the index from the table replays each key's own order, and a new key gets the next id.
    OrderServer again;
    QCOMPARE(again.start(options), QString());
    QCOMPARE(again.loaded().keys, 3);
    QCOMPARE(again.loaded().records, 3);
    RawClient client(again.port());
    client.send(ordersFor(4, "idx"));
    const QList<RawResponse> after = answers(client, 4);
    QCOMPARE(after.size(), 4);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(after.at(i).status, 201);
        QCOMPARE(after.at(i).header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(after.at(i).body, bodies.value("idx-" + QByteArray::number(i + 1)));
    }
    QCOMPARE(after.at(3).status, 201);
    QVERIFY(after.at(3).header("Idempotent-Replayed").isEmpty());
    QCOMPARE(orderId(after.at(3)), 4);
}

QTEST_GUILESS_MAIN(TestGroupCommit)
#include "tst_groupcommit.moc"
