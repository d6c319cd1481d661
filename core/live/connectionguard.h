#pragma once

#include "orderserver.h"

#include <QTcpServer>

class QTcpSocket;

namespace retrylab {

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
    ServeLimits m_limits;
    int m_open = 0;
};

} // namespace retrylab
