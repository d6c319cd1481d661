#include "live/proxysession.h"

#include "faultproxy.h"

#include <QElapsedTimer>

namespace retrylab {

ProxySession::ProxySession(QObject *parent)
    : QObject(parent)
{
    m_batch.setSingleShot(true);
    m_batch.setInterval(BatchIntervalMs);
    connect(&m_batch, &QTimer::timeout, this, &ProxySession::publish);
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
        if (!m_batch.isActive())
            m_batch.start();
    });
}

QString ProxySession::start(const Scenario &scenario, const ProxyOptions &options)
{
    stop();
    newProxy();
    m_batch.setInterval(BatchIntervalMs);
    m_options = options;
    m_portNote.clear();
    FaultProxy::Options o;
    o.upstream = options.upstream;
    o.port = options.port;
    o.scenario = scenario;
    o.orderField = options.orderField;
    QString error = m_proxy->start(o);
    if (!error.isEmpty() && options.anyPortIfBusy && options.port != 0 && !m_proxy->isRunning()) {
        o.port = 0;
        newProxy();
        const QString second = m_proxy->start(o);
        if (second.isEmpty()) {
            m_portNote = tr("Port %1 is in use, so the proxy listens on port %2.").arg(options.port).arg(m_proxy->port());
            error.clear();
        }
    }
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
    if (m_batch.isActive())
        m_batch.stop();
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

void ProxySession::publish()
{
    QElapsedTimer cost;
    cost.start();
    Q_EMIT resultReady(m_trace.result(), m_trace.lastOperation());
    // A flood of requests makes an update expensive: the next one waits longer, so the window (and
    // the proxy on the same thread) keep most of the time.
    m_batch.setInterval(int(qBound(qint64(BatchIntervalMs), 4 * cost.elapsed(), qint64(MaxBatchIntervalMs))));
}

} // namespace retrylab
