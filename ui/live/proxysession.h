#pragma once

#include "live/livesession.h"
#include "proxytrace.h"
#include "scenario.h"

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
// finished exchange goes into a ProxyTrace, and a RunResult of it is published as LiveSession
// batches it, as WatchSession does for serve.
class ProxySession : public LiveSession
{
    Q_OBJECT
public:
    explicit ProxySession(QObject *parent = nullptr);
    ~ProxySession() override;

    // Starts the proxy with the scenario's network.* and server.* faults and its seed. Returns an
    // empty string or why not (the upstream named wrong, the port taken).
    QString start(const Scenario &scenario, const ProxyOptions &options);
    // Closes the port; the last result stays published. Safe to call twice.
    void stop();
    bool isRunning() const override;

    QUrl url() const;
    QUrl upstream() const { return m_options.upstream; }
    const ProxyTrace &proxyTrace() const { return m_trace; }
    FaultProxy *proxy() const { return m_proxy; }

protected:
    RunResult currentResult() const override { return m_trace.result(); }
    int latestOperation() const override { return m_trace.lastOperation(); }

private:
    void newProxy();

    FaultProxy *m_proxy = nullptr;
    ProxyTrace m_trace;
    ProxyOptions m_options;
};

} // namespace retrylab
