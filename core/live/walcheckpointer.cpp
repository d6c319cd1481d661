#include "walcheckpointer.h"

#include <sqlite3.h>

namespace retrylab {

WalCheckpointer::~WalCheckpointer()
{
    stop();
}

QString WalCheckpointer::start(const QString &fileName, int wakeFrames)
{
    stop();
    m_wakeFrames = qMax(1, wakeFrames);
    sqlite3 *db = nullptr;
    // NOMUTEX: the connection is used by the checkpoint thread alone. UTF-8, as Qt's QSQLITE
    // driver names the file to SQLite (the local encoding could name another file).
    const int rc = sqlite3_open_v2(fileName.toUtf8().constData(), &db,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const QString error = QStringLiteral("cannot open the checkpoint connection: %1")
                                      .arg(QString::fromUtf8(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
        sqlite3_close(db);
        return error;
    }
    // A checkpoint syncs the log before it copies and the file after it (what the writer's
    // synchronous=NORMAL leaves to checkpoints), here off the request path.
    sqlite3_exec(db, "PRAGMA synchronous=NORMAL", nullptr, nullptr, nullptr);
    m_db = db;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_due = false;
        m_stop = false;
    }
    m_pending.store(false);
    m_copied.store(0);
    m_thread = std::thread([this] { run(); });
    return QString();
}

void WalCheckpointer::stop()
{
    if (m_thread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }
    if (m_db) {
        sqlite3_close(m_db);
        m_db = nullptr;
    }
}

void WalCheckpointer::logGrew(int frames)
{
    // Frames written since the last round copied: under a steady stream of commits the log never
    // starts over behind these rounds, so its size alone would ask for one after every commit.
    const int copied = m_copied.load(std::memory_order_relaxed);
    const int fresh = frames >= copied ? frames - copied : frames; // fewer: the log started over
    if (fresh < m_wakeFrames || m_pending.exchange(true))
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_due = true;
    }
    m_wake.notify_one();
}

void WalCheckpointer::run()
{
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_due || m_stop; });
            if (m_stop)
                return;
            m_due = false;
        }
        // Cleared before the round: a commit during it asks for the next one.
        m_pending.store(false);
        int log = 0, done = 0;
        // PASSIVE copies what no reader still needs, never waits and never blocks the writer;
        // SQLITE_BUSY (another checkpoint is running) is simply tried again at the next wake.
        if (sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &done) == SQLITE_OK) {
            m_copied.store(done, std::memory_order_relaxed);
            m_rounds.fetch_add(1, std::memory_order_relaxed);
        }
    }
}

} // namespace retrylab
