#pragma once

#include "engine/steppedrun.h"
#include "simulator.h"

#include <QObject>
#include <QUrl>

#include <memory>

namespace retrylab {

// How a scenario runs over real HTTP.
struct LiveOptions
{
    // The order service; empty: an embedded OrderServer on a free loopback port, started with the
    // scenario's network.* and server.* settings.
    QUrl url;
    // Real milliseconds per simulated millisecond: 0.1 runs ten times faster than the scenario's
    // clock. Backoffs, timeouts, arrival spacing and (embedded server) processing time, answer
    // delay of a latency spike, restart down time, scheduled restarts and key TTLs are scaled
    // (ServeOptions::timeScale). A Retry-After header is read in simulated seconds, as the
    // simulation reads it.
    double timeScale = 1.0;
    bool trace = true; // RunResult::trace, ::records and ::ops; off = metrics only
    // How long to wait for the server to finish what it still processes after the last
    // operation ended (ghost requests commit late), in real milliseconds.
    int drainMs = 5000;
};

class LiveRunPrivate;

// Runs a scenario's client over QNetworkAccessManager with real timeouts: the engine's own client
// layers (SteppedRun), driven by a timer on the real clock (scaled), with every HTTP attempt
// carrying Idempotency-Key, X-Request-ID and X-RetryLab-Attempt so the server meets the
// scenario's scripted and random faults on the same attempts as the simulation. At the end the
// records, duplicates and server counters come from the server (GET /orders?ref= per order and
// GET /metrics). Runs in the thread that owns it.
class LiveRun : public QObject
{
    Q_OBJECT
public:
    explicit LiveRun(QObject *parent = nullptr);
    ~LiveRun() override;

    // Starts the run (and the embedded server); finished() follows, also on errors.
    void start(const Scenario &scenario, const LiveOptions &options);
    // Stops early: finished() follows with result().cancelled.
    void cancel();
    bool isRunning() const;
    // The server the run talks to (valid once started).
    QUrl url() const;
    // Valid after finished(). result().error is set when the run could not be done
    // ("cannot reach http://127.0.0.1:9/: connection refused").
    const RunResult &result() const;

Q_SIGNALS:
    void finished();

private:
    friend class LiveRunPrivate;
    std::unique_ptr<LiveRunPrivate> d;
};

// Runs a live run to its end in a local event loop (a QCoreApplication must exist).
RunResult runLive(const Scenario &scenario, const LiveOptions &options);

} // namespace retrylab
