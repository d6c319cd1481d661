#pragma once

#include "proxytrace.h"
#include "scenario.h"
#include "simulator.h"

#include <QObject>
#include <QTimer>
#include <QUrl>

namespace retrylab {

class FaultProxy;

// What File > Proxy… asks for.
struct ProxyOptions
{
    static constexpr quint16 DefaultPort = 8081;
    QUrl upstream{QStringLiteral("http://127.0.0.1:5000")}; // the service under test (http://host:port)
    quint16 port = DefaultPort;
    // When the port is taken, listen on a free one instead of failing.
    bool anyPortIfBusy = true;
    // A field of the JSON body that names the order ("ref"): a rotated key still counts as one order.
    QString orderField;
};

// The window's fault proxy in front of someone's own service and what went through it: every
// finished exchange goes into a ProxyTrace, and a RunResult of it is published at most once per
// BatchIntervalMs (longer while updates are expensive), as WatchSession does for serve.
class ProxySession : public QObject
{
    Q_OBJECT
public:
    static constexpr int BatchIntervalMs = 100;
    static constexpr int MaxBatchIntervalMs = 2000;

    explicit ProxySession(QObject *parent = nullptr);
    ~ProxySession() override;

    // Starts the proxy with the scenario's network.* and server.* faults and its seed. Returns an
    // empty string or why not (the upstream named wrong, the port taken).
    QString start(const Scenario &scenario, const ProxyOptions &options);
    // Closes the port; the last result stays published. Safe to call twice.
    void stop();
    bool isRunning() const;

    QUrl url() const;
    QUrl upstream() const { return m_options.upstream; }
    // Why the port is not the one asked for; empty otherwise.
    QString portNote() const { return m_portNote; }
    const ProxyTrace &proxyTrace() const { return m_trace; }
    FaultProxy *proxy() const { return m_proxy; }

Q_SIGNALS:
    void runningChanged(bool running);
    // A new picture of what went through; lastOperation is the op of the latest logical request.
    void resultReady(const retrylab::RunResult &result, int lastOperation);

private:
    void newProxy();
    void publish();

    FaultProxy *m_proxy = nullptr;
    ProxyTrace m_trace;
    ProxyOptions m_options;
    QString m_portNote;
    QTimer m_batch;
};

} // namespace retrylab
