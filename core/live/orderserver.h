#pragma once

#include "scenario.h"
#include "trace.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QObject>
#include <QUrl>

#include <memory>

namespace retrylab {

// What the server refuses before any order logic runs (design section 1.7).
struct ServeLimits
{
    int maxBodyBytes = 64 * 1024;    // 413 beyond
    int maxHeaderBytes = 16 * 1024;  // request line + headers; 431 beyond (414 for the line alone)
    int maxRequestLineBytes = 8 * 1024;
    int maxKeyChars = 255;           // Idempotency-Key; 400 beyond
    int maxConnections = 256;        // open connections; the next one gets 503 and is closed
    int requestTimeoutMs = 10000;    // a request must arrive whole within this (slow senders: 408)
    int idleTimeoutMs = 120000;      // an idle keep-alive connection (or a held one) is closed after this
    // A client that sends and never reads: its connection is no longer read while this much
    // output waits unsent, or this many requests wait for their answers; it is cut when it
    // reads nothing for requestTimeoutMs.
    int maxUnsentBytes = 64 * 1024;
    int maxPipelined = 64;
    // The in-memory store (no --db) holds at most this many bytes (about 4 million orders per
    // GiB); past it every order is answered 500 "the in-memory store is full", nothing earlier lost.
    qint64 maxMemoryStoreBytes = qint64(1) << 30;
};

// How `retrylab serve` (or the window's File > Serve) runs the live order service.
struct ServeOptions
{
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0;       // 0: a free port (see OrderServer::port())
    QString dbFile;         // empty: SQLite in memory
    // Server and fault settings: network.* and server.* (processing time, faults, idempotency,
    // key store) and the seed of the fault dice. The client and workload parts are ignored.
    Scenario scenario = defaultScenario();
    // Admin endpoints need "Authorization: Bearer <token>" when this is set, on every address;
    // start() mints one when it is empty and the address is not loopback. With or without a
    // token they refuse requests from web pages (Origin) and bodies not declared JSON
    // (AdminAccess), and a --db file is reset only with {"confirm":"delete-records"}.
    QByteArray adminToken;
    ServeLimits limits;
    // Real time per simulated time (0.1: a simulated millisecond takes 0.1 ms): processing time,
    // latency spikes and restart downtime are scaled, and the key TTL clock runs 1/timeScale
    // times as fast. Trace timestamps stay real microseconds. From 0.001 to 1000.
    double timeScale = 1.0;

    // An atomic service with no faults and no processing delay: what `serve` runs without --scenario.
    static Scenario defaultScenario();
};

class ConnectionGuard;
class OrderServerPrivate;

// The order service over real HTTP/1.1 (Qt HTTP Server on a guarded QTcpServer) with a SQLite
// store. The idempotency decisions are OrderService's; only time (real microseconds) and
// storage differ. Runs in the thread that owns it; embeddable in the GUI and the CLI.
class OrderServer : public QObject
{
    Q_OBJECT
public:
    explicit OrderServer(QObject *parent = nullptr);
    ~OrderServer() override;

    // Opens the store (loading what an earlier process committed), then listens. Returns an
    // empty string or a one-line error ("cannot listen on 127.0.0.1:8080: address in use").
    QString start(const ServeOptions &options);
    // Closes every connection and the store. Safe to call twice.
    void stop();
    bool isRunning() const;

    quint16 port() const;
    QUrl url() const;                // http://127.0.0.1:PORT
    QByteArray adminToken() const;   // empty: no token (loopback; AdminAccess's checks still hold)
    // What start() found in the --db file.
    struct Loaded
    {
        qint64 records = 0, keys = 0, tokens = 0;
    };
    Loaded loaded() const;
    const ServeOptions &options() const;
    // The listening socket and its connections (tests read its peakBacklog()); nullptr when stopped.
    const ConnectionGuard *connectionGuard() const;

    // GET/PUT /admin/faults: the network.* and server.* settings in effect.
    QJsonObject faultsJson() const;
    // Applies a partial settings object ({"network": {"responseLoss": 0.5}} or
    // {"network.responseLoss": 0.5}); returns the errors (empty: applied).
    QStringList setFaults(const QJsonObject &patch);
    // The server process restarts (as the serverRestart fault): in-flight requests are dropped,
    // connections closed, a memory key store forgets every key; nothing listens for restartDownMs.
    void restart();
    // POST /admin/reset: forgets every record, key, token and counter.
    void reset();
    // GET /metrics: records and duplicates counted in the store, the rest since start-up.
    QJsonObject metricsJson();

    // Transactions the store committed orders in since start(): requests whose processing ends in
    // one turn of the event loop share one (group commit), so under load this stays below the
    // orders committed.
    qint64 storeTransactions() const;

    // Microseconds since start() on the trace clock (the timestamps of requestHandled).
    qint64 elapsedUs() const;
    // Moves the service clock (key TTLs) forward: tests and demos of key expiry.
    void advanceServiceClock(qint64 us);

Q_SIGNALS:
    // One per handled request (POST /orders, POST /order-tokens, GET /orders?ref=): what the
    // server did, in order, with t in microseconds since start(), the X-Request-ID, the
    // Idempotency-Key and the attempt path (X-RetryLab-Attempt, else "op7/b1/w1/tN" for the N-th
    // arrival of that reference: an outside client's resends count as transport retries).
    // Built only while something is connected.
    void requestHandled(const retrylab::Trace &events);
    void started(const QUrl &url);
    void stopped();
    // A restart (fault, schedule or restart()) began or ended.
    void restarted(bool down);

protected:
    // Keep the "is requestHandled connected" answer that every request asks up to date.
    void connectNotify(const QMetaMethod &signal) override;
    void disconnectNotify(const QMetaMethod &signal) override;

private:
    friend class OrderServerPrivate;
    std::unique_ptr<OrderServerPrivate> d;
};

} // namespace retrylab
