#pragma once

#include "orderserver.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <functional>
#include <unordered_set>


namespace retrylab {

class ConnectionScanner;
struct HttpRequest;

// The QTcpServer under the HTTP server: Qt HTTP Server 6.4 buffers any request line, header
// block or body without a limit, never times a connection out and frames requests loosely, so
// each connection gets a scanner (connectionscanner.h) that reads along before the HTTP server
// reads and refuses (400/408/411/413/414/417/431/501) as problem+json, and an answer queue
// (httpconnection.h). The guard counts connections and answers 503 beyond the limit.
class ConnectionGuard : public QTcpServer
{
    Q_OBJECT
public:
    explicit ConnectionGuard(const ServeLimits &limits, QObject *parent = nullptr);
    // A guard listening on address:port, or nullptr with *error "cannot listen on A:P: why"
    // (serve's and the proxy's start-up say it in the same words).
    static ConnectionGuard *open(const ServeLimits &limits, const QHostAddress &address, quint16 port,
                                 QString *error);

    int openConnections() const { return m_open; }
    // The most any connection held while its client left answers unread: bytes read and held
    // back plus answers not yet sent (0: no connection was ever held).
    qint64 peakBacklog() const { return m_peakBacklog; }
    // Closes every open connection at once (a server restart).
    void abortAll();
    // When set, each plain request (an ordinary method and target, few fields, read whole at once)
    // goes to this handler straight from the connection's scanner, past Qt's parser, which then
    // reads only the others: the order service's hot path. Unset, every request goes to Qt's.
    using RequestHandler = std::function<void(const HttpRequest &, QTcpSocket *)>;
    void setRequestHandler(RequestHandler handler) { m_handler = std::move(handler); }
    // The handler of serve and the proxy: owner->dispatch(request, socket) while owner->running,
    // else the connection is cut (a request read after the front began to stop).
    template <class Owner>
    void dispatchWhileRunning(Owner *owner)
    {
        setRequestHandler([owner](const HttpRequest &request, QTcpSocket *socket) {
            if (!owner->running) {
                socket->abort();
                return;
            }
            owner->dispatch(request, socket);
        });
    }
    // How many requests went to that handler (the others went through Qt's parser).
    qint64 plainRequests() const { return m_plainRequests; }
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
    void noteBacklog(qint64 bytes);

    ServeLimits m_limits;
    int m_open = 0;
    qint64 m_peakBacklog = 0;
    // Deadlines (slow senders, idle connections) are checked by one coarse timer over every
    // connection, so a request only writes a number instead of restarting a QTimer twice.
    QElapsedTimer m_clock;
    QTimer m_sweep;
    std::unordered_set<ConnectionScanner *> m_scanners;
    RequestHandler m_handler;
    qint64 m_plainRequests = 0;
};

} // namespace retrylab
