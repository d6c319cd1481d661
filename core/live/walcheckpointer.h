#pragma once

#include <QString>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

struct sqlite3;

namespace retrylab {

// Copies a WAL database's log into the database file from a thread and a connection of its own,
// so that a commit on the request path never waits for a checkpoint: SQLite's automatic
// checkpoint runs inside the COMMIT that crosses its limit and syncs the log and the file there,
// which set the p99 latency of `serve --db`. PASSIVE checkpoints take no lock a writer needs.
class WalCheckpointer
{
public:
    WalCheckpointer() = default;
    ~WalCheckpointer();
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    // Opens its connection on `fileName` (already a WAL database) and starts the thread; an
    // empty string or the error. `wakeFrames`: a checkpoint begins once the log holds this many.
    QString start(const QString &fileName, int wakeFrames);
    // Ends the thread (after the round it is in) and closes its connection. Safe to call twice.
    void stop();
    bool isRunning() const { return m_db != nullptr; }
    // The writer committed and the log now holds `frames` frames (sqlite3_wal_hook): wakes the
    // thread once wakeFrames of them came after what the last round copied. Costs two atomic
    // operations when no checkpoint is due.
    void logGrew(int frames);
    // Checkpoints the thread ran to the end (tests, measures).
    qint64 rounds() const { return m_rounds.load(std::memory_order_relaxed); }

private:
    void run();

    sqlite3 *m_db = nullptr;
    int m_wakeFrames = 0;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_due = false;  // under m_mutex
    bool m_stop = false; // under m_mutex
    std::atomic<bool> m_pending{false}; // a round is asked for and has not begun
    std::atomic<int> m_copied{0}; // the log's frames the last round copied into the file
    std::atomic<qint64> m_rounds{0};
};

} // namespace retrylab
