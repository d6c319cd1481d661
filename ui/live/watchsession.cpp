#include "live/watchsession.h"

#include "orderserver.h"

#include <QNetworkInterface>

namespace retrylab {

WatchSession::WatchSession(QObject *parent)
    : LiveSession(parent)
{
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
    restartBatching();
    m_scenario = scenario;
    m_options = options;
    ServeOptions serve;
    serve.scenario = scenario;
    serve.address = options.localNetwork ? QHostAddress(QHostAddress::AnyIPv4) : QHostAddress(QHostAddress::LocalHost);
    bool moved = false;
    const QString error = listenOn(options.port, options.anyPortIfBusy, [&](quint16 port, bool) {
        serve.port = port;
        return m_server->start(serve);
    }, &moved);
    if (moved)
        m_portNote = tr("Port %1 is in use, so the server listens on port %2.").arg(options.port).arg(m_server->port());
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
    if (cancelPublish())
        publish(); // what arrived last is shown, with the final counts
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

void WatchSession::setMaxEvents(qsizetype maxEvents)
{
    m_live = WatchTrace(maxEvents);
    m_live.reset(m_scenario);
}

void WatchSession::onRequest(const Trace &events)
{
    m_live.append(events);
    schedulePublish();
}

RunResult WatchSession::currentResult() const
{
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
    return result;
}

} // namespace retrylab
