// `serve --db`'s log checkpoints off the request path (issue 21, speed: the p99 of 23 ms came
// from SQLite's automatic checkpoint, which runs inside the COMMIT that crosses its limit and
// syncs the log and the database file there). A VFS under every connection of this process counts
// the fsyncs by thread: the thread that commits must pay for none, and the log must stay bounded.
#include "orderstore.h"
#include "walcheckpointer.h"
#include "wrappingvfs.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cstring>
#include <thread>

using namespace retrylab;
using namespace retrylab::test;

namespace {

// ---- syncs counted by thread, through a VFS over the default one ----
std::thread::id g_testThread;
// On the test's thread (the one that commits): syncs of the database file, and of the log. SQLite
// syncs a log's header when it starts the log over (a restart after a checkpoint copied all of
// it), a cost of the writer's by design; a checkpoint syncs the log and then the file.
std::atomic<int> g_fileSyncsHere{0};
std::atomic<int> g_logSyncsHere{0};
std::atomic<int> g_syncsOther{0}; // on any other thread (the checkpoint thread)

int countSync(const WrappedFile &file)
{
    if (std::this_thread::get_id() != g_testThread)
        g_syncsOther.fetch_add(1);
    else
        (file.isMainDb() ? g_fileSyncsHere : g_logSyncsHere).fetch_add(1);
    return SQLITE_OK;
}

OrderStore::Commit order(int id)
{
    OrderStore::Commit c;
    c.id = id;
    c.ref = "ORD-" + QByteArray::number(id);
    c.op = id;
    c.key = "key-" + QByteArray::number(id);
    c.requestId = "req-" + QByteArray::number(id);
    c.createdUs = id;
    c.body = "{\"id\":" + QByteArray::number(id) + ",\"ref\":\"" + c.ref + "\",\"payload\":{\"item\":\"book\"}}";
    c.writeKey = true;
    c.keyCreatedUs = id;
    c.fingerprint = 7;
    c.keyStatus = 201;
    return c;
}

// What the log's shared index says (SQLite's file format, "the WAL-index format"): the frames
// in the log (mxFrame, offset 16 of the header) and how many of them a checkpoint has copied
// into the database file (nBackfill, offset 96, after the header's two 48-byte copies).
struct LogIndex
{
    quint32 frames = 0, copied = 0;
};
LogIndex logIndex(const QString &file)
{
    QFile shm(file + QStringLiteral("-shm"));
    LogIndex index;
    if (!shm.open(QIODevice::ReadOnly))
        return index;
    const QByteArray head = shm.read(100);
    if (head.size() == 100) {
        std::memcpy(&index.frames, head.constData() + 16, 4);
        std::memcpy(&index.copied, head.constData() + 96, 4);
    }
    return index;
}

} // namespace

class TestWalCheckpoint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void commitsPayNoSync();
    void logStaysBounded();
    void wakesExactlyAtItsLimit();
};

void TestWalCheckpoint::initTestCase()
{
    g_testThread = std::this_thread::get_id();
    VfsHooks hooks;
    hooks.sync = countSync;
    installWrappingVfs("retrylab-counting", hooks);
}

void TestWalCheckpoint::commitsPayNoSync()
{
    // Fails when the writer checkpoints inside its commits again (PRAGMA wal_autocheckpoint=N on
    // the writer's connection, no hook): its thread then pays the log's and the file's fsyncs.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("orders.db"));
    OrderStore store;
    store.setWalLimits({64, 1 << 30});
    QCOMPARE(store.open(file), QString());
    g_fileSyncsHere = 0;
    g_logSyncsHere = 0;
    g_syncsOther = 0;
    const int orders = 3000;
    for (int id = 1; id <= orders; ++id)
        QCOMPARE(store.commit(order(id)), OrderStore::CommitResult::Ok);
    QCOMPARE(g_fileSyncsHere.load(), 0);
    QTRY_VERIFY(store.walStats().background >= 1);
    // At most one log-header sync per restart, and the log restarts only after a round of the
    // thread copied all of it.
    QVERIFY2(g_logSyncsHere.load() <= store.walStats().background,
             qPrintable(QStringLiteral("%1 log syncs, %2 rounds").arg(g_logSyncsHere.load()).arg(store.walStats().background)));
    QCOMPARE(store.walStats().writer, 0);
    QVERIFY(g_syncsOther.load() >= 2); // the log before copying, the file after
    // The thread's checkpoints copied the log into the database file: all of it but what came
    // after its last round (fewer than wakeFrames frames), or all of it and the log started over.
    QTRY_VERIFY(logIndex(file).frames - logIndex(file).copied < 64);
    // Every order is there through the store (the log and the file together).
    qint64 records = 0, refs = 0;
    QVERIFY(store.counts(&records, &refs));
    QCOMPARE(records, qint64(orders));
}

void TestWalCheckpoint::logStaysBounded()
{
    // The thread never wakes here (wakeFrames out of reach), so only the writer's own checkpoint
    // at forceFrames keeps the log from growing: fails when that limit is taken out (the log then
    // holds every frame of 3,000 orders, about 9,000 KiB).
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("orders.db"));
    const int force = 512;
    OrderStore store;
    store.setWalLimits({1 << 30, force});
    QCOMPARE(store.open(file), QString());
    qint64 largest = 0;
    for (int id = 1; id <= 3000; ++id) {
        QCOMPARE(store.commit(order(id)), OrderStore::CommitResult::Ok);
        largest = qMax(largest, QFileInfo(file + QStringLiteral("-wal")).size());
    }
    QVERIFY(store.walStats().writer >= 3);
    QCOMPARE(store.walStats().background, 0);
    // A frame is a 24-byte header and a 1 KiB page; the log starts over at the first commit after
    // a checkpoint, so it holds at most forceFrames plus one commit's frames (a few pages).
    const qint64 bound = 32 + qint64(force + 16) * (24 + 1024);
    QVERIFY2(largest <= bound, qPrintable(QStringLiteral("the log reached %1 bytes (bound %2)").arg(largest).arg(bound)));
}

void TestWalCheckpoint::wakesExactlyAtItsLimit()
{
    // The thread runs a checkpoint once the log holds wakeFrames frames, not one frame earlier.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("plain.db"));
    {
        OrderStore store; // creates the WAL database
        QCOMPARE(store.open(file), QString());
    }
    WalCheckpointer checkpointer;
    QCOMPARE(checkpointer.start(file, 100), QString());
    checkpointer.logGrew(99);
    QTest::qWait(50);
    QCOMPARE(checkpointer.rounds(), 0);
    checkpointer.logGrew(100);
    QTRY_COMPARE(checkpointer.rounds(), 1);
    // The log was empty, so that round copied nothing: the count starts again from 0 frames.
    checkpointer.logGrew(99);
    QTest::qWait(50);
    QCOMPARE(checkpointer.rounds(), 1);
    checkpointer.stop();
    QVERIFY(!checkpointer.isRunning());
    // A file that is not a database: a clear error, no thread.
    QCOMPARE(checkpointer.start(dir.filePath(QStringLiteral("missing/none.db")), 100).isEmpty(), false);
    QVERIFY(!checkpointer.isRunning());
}

QTEST_GUILESS_MAIN(TestWalCheckpoint)
#include "tst_walcheckpoint.moc"
