#pragma once

#include "orderserver.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

class QTcpSocket;

namespace retrylab {

class ConnectionGuard;
class HttpConnection;

// The one framing check of a connection: reads each request's head one step ahead of Qt HTTP
// Server 6.4's parser (peeking, before that parser reads) and refuses every framing the two could
// read differently (two lengths, a length with a transfer coding, obs-fold, bare CR, NUL) before
// the parser sees it. It hands Qt one request per turn, and holds the rest while the client
// leaves its answers unread.
class ConnectionScanner : public QObject
{
public:
    ConnectionScanner(QTcpSocket *socket, HttpConnection *connection, const ServeLimits &limits,
                      ConnectionGuard *guard);
    ~ConnectionScanner() override;

    // Called by the guard's sweep.
    void checkDeadline(qint64 nowMs);
    // Connected to the socket's readyRead before Qt's parser.
    void onReadyRead();
    // Bytes read from the client and held back while its answers wait unread.
    qint64 heldBytes() const { return m_held; }

private:
    enum class State { Line, Headers, Body, Done };
    enum class Step { More, Complete, Refused };

    // What the head of the request being read says about its framing.
    struct Head
    {
        qint64 contentLength = 0;
        int lengths = 0;
        int hosts = 0;
        bool transferEncoding = false;
        QByteArray codings;
        bool http10 = false;
        bool head = false;
        bool close = false;
        bool expectContinue = false;
        bool expectOther = false;
        QByteArray line; // the request line (HttpConnection::Request::line)
    };

    Step scanLine(const char *p, qint64 *at, qint64 end);
    Step scanHeader(const char *p, qint64 *at, qint64 end);
    Step endOfHead();
    bool header(const char *line, qint64 length);
    bool requestLine();
    void completed();

    bool atBoundary() const { return m_state == State::Line && m_line.isEmpty(); }
    bool backlogged() const;
    void hold();
    void release();

    void armRequest();
    void armIdle();
    void timedOut();
    Step refuse(int status, const char *title, const QString &detail);

    QTcpSocket *m_socket;
    QPointer<HttpConnection> m_connection;
    ServeLimits m_limits;
    QPointer<ConnectionGuard> m_guard;
    qint64 m_deadline = 0;
    QByteArray m_window;
    State m_state = State::Line;
    QByteArray m_line;
    Head m_head;
    int m_headerBytes = 0;
    int m_blank = 0; // blank bytes skipped before this request line
    qint64 m_remaining = 0;
    qint64 m_held = 0;
    bool m_holding = false;
    bool m_inRequest = false;
    bool m_refused = false;
};

} // namespace retrylab
