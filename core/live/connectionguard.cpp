#include "connectionguard.h"

#include "connectionscanner.h"
#include "httpconnection.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>


namespace retrylab {

ConnectionGuard::ConnectionGuard(const ServeLimits &limits, QObject *parent)
    : QTcpServer(parent), m_limits(limits)
{
    m_clock.start();
    // A quarter of the shortest limit: a deadline fires at most 25% late.
    m_sweep.setInterval(qBound(20, qMin(limits.requestTimeoutMs, limits.idleTimeoutMs) / 4, 1000));
    connect(&m_sweep, &QTimer::timeout, this, &ConnectionGuard::sweep);
}

ConnectionGuard *ConnectionGuard::open(const ServeLimits &limits, const QHostAddress &address, quint16 port,
                                       QString *error)
{
    auto *guard = new ConnectionGuard(limits);
    if (guard->listen(address, port))
        return guard;
    *error = QStringLiteral("cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(guard->errorString());
    delete guard;
    return nullptr;
}

void ConnectionGuard::track(ConnectionScanner *scanner)
{
    m_scanners.insert(scanner);
    if (!m_sweep.isActive())
        m_sweep.start();
}

void ConnectionGuard::untrack(ConnectionScanner *scanner)
{
    m_scanners.erase(scanner);
    if (m_scanners.empty())
        m_sweep.stop();
}

void ConnectionGuard::noteBacklog(qint64 bytes)
{
    m_peakBacklog = qMax(m_peakBacklog, bytes);
}

void ConnectionGuard::sweep()
{
    const qint64 now = m_clock.elapsed();
    // A timeout closes its socket, which may destroy scanners: work on a copy.
    const std::vector<ConnectionScanner *> scanners(m_scanners.begin(), m_scanners.end());
    for (ConnectionScanner *scanner : scanners) {
        if (m_scanners.count(scanner))
            scanner->checkDeadline(now);
    }
}

void ConnectionGuard::refuse(QTcpSocket *socket, int status, const QByteArray &title, const QString &detail)
{
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("about:blank")},
                                                      {QStringLiteral("title"), QString::fromLatin1(title)},
                                                      {QStringLiteral("status"), status},
                                                      {QStringLiteral("detail"), detail}})
                                    .toJson(QJsonDocument::Compact);
    QByteArray out;
    out.reserve(200 + body.size());
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + title + "\r\n";
    out += "Content-Type: application/problem+json\r\nContent-Length: " + QByteArray::number(body.size());
    out += "\r\nConnection: close\r\n\r\n" + body;
    socket->write(out);
    socket->disconnectFromHost();
}

void ConnectionGuard::abortAll()
{
    const QList<QTcpSocket *> sockets = findChildren<QTcpSocket *>(QString(), Qt::FindDirectChildrenOnly);
    for (QTcpSocket *socket : sockets)
        socket->abort();
}

void ConnectionGuard::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (m_open >= m_limits.maxConnections) {
        refuse(socket, 503, "Service Unavailable",
               QStringLiteral("too many connections (at most %1)").arg(m_limits.maxConnections));
        Q_EMIT refused(503, QStringLiteral("too many connections"));
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        return;
    }
    ++m_open;
    connect(socket, &QObject::destroyed, this, [this] { --m_open; });
    // Bounds what one connection holds unread: a whole request fits (the parser keeps a partial
    // request in its read transaction), and a client that never reads its answers stops at this.
    socket->setReadBufferSize(qint64(m_limits.maxHeaderBytes) + m_limits.maxBodyBytes + 4096);
    auto *connection = new HttpConnection(socket);
    // Connected before the HTTP server's own readyRead handler, so the scanner looks first.
    auto *scanner = new ConnectionScanner(socket, connection, m_limits, this);
    connect(socket, &QTcpSocket::readyRead, scanner, &ConnectionScanner::onReadyRead);
    addPendingConnection(socket);
}

} // namespace retrylab
