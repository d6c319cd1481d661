#include "live/watchsession.h"

#include "orderserver.h"

#include <QElapsedTimer>
#include <QNetworkInterface>

namespace retrylab {

WatchSession::WatchSession(QObject *parent)
    : QObject(parent)
{
    m_batch.setSingleShot(true);
    m_batch.setInterval(BatchIntervalMs);
    connect(&m_batch, &QTimer::timeout, this, &WatchSession::publish);
    newServer();
}

void WatchSession::newServer()
{
    // A fresh server per start: OrderServer::start() keeps the counters of /metrics
    // (httpAttempts, replays, ...) from an earlier start, and serving again begins empty.
    delete m_server;
    m_server = new OrderServer(this);
    connect(m_server, &OrderServer::requestHandled, this, &WatchSession::onRequest);
    connect(m_server, &OrderServer::restarted, this, &WatchSession::restarted);
}

WatchSession::~WatchSession()
{
    m_server->stop();
}

QString WatchSession::start(const Scenario &scenario, const WatchOptions &options)
{
    stop();
    newServer();
    m_batch.setInterval(BatchIntervalMs);
    m_scenario = scenario;
    m_options = options;
    m_portNote.clear();
    ServeOptions serve;
    serve.scenario = scenario;
    serve.address = options.localNetwork ? QHostAddress(QHostAddress::AnyIPv4) : QHostAddress(QHostAddress::LocalHost);
    serve.port = options.port;
    QString error = m_server->start(serve);
    if (!error.isEmpty() && options.anyPortIfBusy && options.port != 0) {
        serve.port = 0;
        const QString second = m_server->start(serve);
        if (second.isEmpty()) {
            m_portNote = tr("Port %1 is in use, so the server listens on port %2.").arg(options.port).arg(m_server->port());
            error.clear();
        }
    }
    if (!error.isEmpty())
        return error;
    m_live.reset(scenario);
    Q_EMIT runningChanged(true);
    publish(); // the views start from an empty run
    return QString();
}

void WatchSession::stop()
{
    if (!m_server->isRunning())
        return;
    if (m_batch.isActive()) {
        m_batch.stop();
        publish(); // what arrived last is shown, with the final counts
    }
    m_server->stop();
    Q_EMIT runningChanged(false);
}

bool WatchSession::isRunning() const
{
    return m_server->isRunning();
}

QUrl WatchSession::url() const
{
    return m_server->url();
}

QStringList WatchSession::networkUrls() const
{
    QStringList urls;
    if (!m_options.localNetwork || !m_server->isRunning())
        return urls;
    const QList<QHostAddress> addresses = QNetworkInterface::allAddresses();
    for (const QHostAddress &a : addresses) {
        if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback())
            urls << QStringLiteral("http://%1:%2").arg(a.toString()).arg(m_server->port());
    }
    return urls;
}

QUrl WatchSession::commandUrl() const
{
    const QStringList urls = networkUrls();
    if (!urls.isEmpty())
        return QUrl(urls.constFirst());
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()));
}

QByteArray WatchSession::adminToken() const
{
    return m_server->adminToken();
}

QString WatchSession::portNote() const
{
    return m_portNote;
}

void WatchSession::setMaxEvents(qsizetype maxEvents)
{
    m_live = WatchTrace(maxEvents);
    m_live.reset(m_scenario);
}

void WatchSession::onRequest(const Trace &events)
{
    m_live.append(events);
    if (!m_batch.isActive())
        m_batch.start();
}

void WatchSession::publish()
{
    QElapsedTimer cost;
    cost.start();
    RunResult result = m_live.result();
    if (m_server->isRunning()) {
        // Records and duplicates as the store counts them (dropped events included); the other
        // counters from the events, which also see the orders refused before the service.
        const QJsonObject server = m_server->metricsJson();
        QJsonObject stored;
        for (const char *name : {"records", "duplicates", "duplicatesOutstanding"})
            stored.insert(QLatin1String(name), server.value(QLatin1String(name)));
        live::applyMetricsJson(&result.metrics, stored);
    }
    Q_EMIT resultReady(result, m_live.lastOperation());
    // The views redraw inside that emit. When a flood of requests makes an update expensive, the
    // next one waits longer, so the window (and the server on the same thread) keep most of the time.
    m_batch.setInterval(int(qBound(qint64(BatchIntervalMs), 4 * cost.elapsed(), qint64(MaxBatchIntervalMs))));
}

} // namespace retrylab
