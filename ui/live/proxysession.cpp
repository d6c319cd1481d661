#include "live/proxysession.h"

#include "faultproxy.h"

namespace retrylab {

ProxySession::ProxySession(QObject *parent)
    : LiveSession(parent)
{
    newProxy();
}

ProxySession::~ProxySession()
{
    m_proxy->stop();
}

void ProxySession::newProxy()
{
    // A fresh proxy per start: its ledger and exchanges begin empty, as the views do.
    delete m_proxy;
    m_proxy = new FaultProxy(this);
    connect(m_proxy, &FaultProxy::exchangeFinished, this, [this](const ProxyExchange &exchange) {
        m_trace.append(exchange);
        schedulePublish();
    });
}

QString ProxySession::start(const Scenario &scenario, const ProxyOptions &options)
{
    stop();
    newProxy();
    restartBatching();
    m_options = options;
    FaultProxy::Options o;
    o.upstream = options.upstream;
    o.scenario = scenario;
    o.orderField = options.orderField;
    bool moved = false;
    const QString error = listenOn(options.port, options.anyPortIfBusy, [&](quint16 port, bool again) {
        if (again)
            newProxy(); // a proxy that failed to listen is not started twice
        o.port = port;
        return m_proxy->start(o);
    }, &moved);
    if (moved)
        m_portNote = tr("Port %1 is in use, so the proxy listens on port %2.").arg(options.port).arg(m_proxy->port());
    if (!error.isEmpty())
        return error;
    m_trace.reset(scenario);
    Q_EMIT runningChanged(true);
    publish(); // the views start from an empty run
    return QString();
}

void ProxySession::stop()
{
    if (!m_proxy->isRunning())
        return;
    m_proxy->stop();
    cancelPublish();
    publish(); // what went through last is shown, with the final counts
    Q_EMIT runningChanged(false);
}

bool ProxySession::isRunning() const
{
    return m_proxy->isRunning();
}

QUrl ProxySession::url() const
{
    return m_proxy->url();
}

} // namespace retrylab
