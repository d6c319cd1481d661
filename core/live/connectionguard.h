#pragma once

#include "orderserver.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTimer>

#include <unordered_set>

class QTcpSocket;

namespace retrylab {

class ConnectionScanner;

// The QTcpServer under the HTTP server: Qt HTTP Server 6.4 buffers any request line, header
// block or body without a limit and never times a connection out, so this guard reads along
// (peeking, before the HTTP server reads) and answers 400/408/411/413/414/431/503 as
// problem+json itself, closing the connection. It also counts connections.
class ConnectionGuard : public QTcpServer
{
    Q_OBJECT
public:
    explicit ConnectionGuard(const ServeLimits &limits, QObject *parent = nullptr);

    int openConnections() const { return m_open; }
    // Closes every open connection at once (a server restart).
    void abortAll();
    // Writes a complete problem+json response with "Connection: close" and closes the socket.
    static void refuse(QTcpSocket *socket, int status, const QByteArray &title, const QString &detail);

Q_SIGNALS:
    // A connection was refused or cut by a limit (status 0: closed without an answer).
    void refused(int status, const QString &detail);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    friend class ConnectionScanner;
    void track(ConnectionScanner *scanner);
    void untrack(ConnectionScanner *scanner);
    void sweep();

    ServeLimits m_limits;
    int m_open = 0;
    // Deadlines (slow senders, idle connections) are checked by one coarse timer over every
    // connection, so a request only writes a number instead of restarting a QTimer twice.
    QElapsedTimer m_clock;
    QTimer m_sweep;
    std::unordered_set<ConnectionScanner *> m_scanners;
};

} // namespace retrylab
