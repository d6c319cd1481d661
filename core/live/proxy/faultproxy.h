#pragma once

#include "orderserver.h"
#include "proxyexchange.h"
#include "proxyledger.h"
#include "scenario.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QUrl>

#include <memory>

namespace retrylab {

class FaultProxyPrivate;

// `retrylab proxy`: a reverse proxy in front of any HTTP/1.1 service that applies the lab's wire
// faults to real requests by the same dice and script as the simulated network (core/faults.h),
// passes everything else through unchanged, and records every exchange so that ProxyLedger counts
// duplicates and orphans on a service it never touches. Runs in the thread that owns it.
class FaultProxy : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QUrl upstream;            // http://host:port of the service behind the proxy (no path)
        QHostAddress listen = QHostAddress(QHostAddress::LocalHost);
        quint16 port = 0;         // 0: a free port (port())
        // The faults: network.* (connectFailure, requestLoss, responseLoss, resetAfterCommit,
        // latencySpike and spikeMs, script) and server.* (error5xxBeforeCommit/AfterCommit,
        // errorStatus, throttle429, retryAfterS), and the seed of their dice. The rest is ignored.
        Scenario scenario = noFaults();
        QByteArray keyHeader = "Idempotency-Key";
        // A field of a JSON object body naming the logical request ("ref"); empty: keys only.
        QString orderField;
        // Faults strike requests of these methods; the others always pass.
        QList<QByteArray> faultMethods{QByteArrayLiteral("POST")};
        // The hardened front's limits for the client side; the proxy takes bodies up to 1 MiB.
        ServeLimits limits = proxyLimits();
        int upstreamTimeoutMs = 30000;       // no whole answer within this: 504
        qint64 maxAnswerBytes = 16 << 20;    // a larger upstream answer: 502
        QByteArray metricsPath = "/metrics"; // the proxy's own GET /metrics (empty: none, all forwarded)
        int maxExchanges = 100000;           // exchanges() keeps the last ones; the ledger counts all

        static Scenario noFaults();
        static ServeLimits proxyLimits();
    };

    explicit FaultProxy(QObject *parent = nullptr);
    ~FaultProxy() override;

    // Listens; returns an empty string or a one-line reason ("upstream: expected http://host:port").
    QString start(const Options &options);
    // Closes every connection; an exchange still held or in flight is finished as it stands.
    void stop();
    bool isRunning() const;
    quint16 port() const;
    QUrl url() const; // http://127.0.0.1:PORT
    const Options &options() const;

    // The next request that arrives gets this fault, whatever its method and the dice (the check's
    // "lose the answer of THIS request"). Calls queue up, one per request.
    void forceNext(FaultKind kind);

    // Finished exchanges in the order they finished (the last Options::maxExchanges).
    const QList<ProxyExchange> &exchanges() const;
    // Requests arrived and not finished yet.
    int pending() const;
    const ProxyLedger &ledger() const;
    // GET /metrics: the ledger's totals and the proxy's own counters; the Prometheus text of the same.
    QJsonObject metricsJson() const;
    QByteArray metricsText() const;
    // Real microseconds since start() (the exchanges' timestamps).
    qint64 elapsedUs() const;

Q_SIGNALS:
    void exchangeStarted(const retrylab::ProxyExchange &exchange);
    void exchangeFinished(const retrylab::ProxyExchange &exchange);
    void started(const QUrl &url);
    void stopped();

private:
    friend class FaultProxyPrivate;
    std::unique_ptr<FaultProxyPrivate> d;
};

} // namespace retrylab
