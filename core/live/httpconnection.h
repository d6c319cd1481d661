#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <deque>

class QTcpSocket;

namespace retrylab {

// One final answer as the order service composes it; the connection adds the framing.
struct HttpAnswer
{
    int status = 200;
    QByteArray contentType;
    QByteArray body;
    QByteArray requestId;
    bool replayed = false;
    int retryAfterS = -1;
    bool close = false; // the service wants the connection closed after this answer
    QByteArray extraHeader; // one "Name: value" line without CRLF
    // A proxied answer (core/live/proxy/): the upstream's reason phrase and header lines as
    // received ("Name: value\r\n" each), written instead of Content-Type and the fields above;
    // Content-Length is added only when `addLength` (the upstream's own stays in its lines).
    bool passThrough = false;
    QByteArray reason{};
    QByteArray headerLines{};
    bool addLength = true;
};

// One HTTP/1.1 connection's answers, written in the order its requests arrived (RFC 9112
// section 9.3.2) however long each one takes, with HEAD, Connection: close and HTTP/1.0 applied
// to every answer. It also says how much output waits unsent, so that the guard stops reading a
// client that sends and never reads.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    // What the framing check read in a request's head.
    struct Request
    {
        bool head = false;  // HEAD: the answer carries the GET's headers and no content
        bool close = false; // Connection: close, or HTTP/1.0: the connection ends after the answer
        QByteArray line;    // the request line as received, without CRLF ("POST /orders HTTP/1.1")
    };

    explicit HttpConnection(QTcpSocket *socket);
    // The connection of a socket the guard accepted (nullptr for any other socket).
    static HttpConnection *of(QTcpSocket *socket);
    static const char *reasonPhrase(int status);

    // The guard: a request's head passed the framing checks (requests come in arrival order).
    void expect(const Request &request);
    // The guard: "100 Continue" for the request just expected, written in its turn.
    void continueLast();
    // Qt's parser handed the next request to the service: its place in the answer order.
    quint64 begin();
    // The final answer in the place `slot`: written at once when every earlier answer is out,
    // else held until they are.
    void answer(quint64 slot, const HttpAnswer &answer);
    // The guard refuses the byte stream: the refusal (problem+json) takes the place of the
    // request being read, follows every earlier answer, and then the connection closes.
    void refuse(int status, const QByteArray &title, const QString &detail);

    // Output that waits: answers held for their turn and bytes the socket has not yet sent.
    qint64 unsentBytes() const;
    // What the framing check read of the request in `slot` (a default Request when it is gone).
    Request request(quint64 slot) const;
    // Requests begun or expected that have no final answer yet.
    int waiting() const { return int(m_slots.size()); }
    // A close was answered or is due: no later request will be served.
    bool closing() const { return m_closing; }

    // The bytes of an answer exactly as they go on the wire for `request`.
    static void compose(QByteArray &out, const HttpAnswer &answer, const Request &request);

Q_SIGNALS:
    // Output was written or sent: the guard checks whether to read again.
    void progressed();

private:
    struct Slot
    {
        Request request;
        bool begun = false;
        bool ready = false;
        bool continueDue = false;
        bool close = false;
        QByteArray bytes;
    };
    void flush();
    // Writes bytes after every earlier byte; true when some of them wait in the socket's buffer.
    bool send(const QByteArray &bytes);
    void closeAfterWrite();

    QTcpSocket *m_socket;
    std::deque<Slot> m_slots;
    quint64 m_firstSlot = 1; // the number of m_slots.front()
    quint64 m_nextBegin = 1;
    qint64 m_heldBytes = 0;
    bool m_closing = false;
    QByteArray m_out; // reused for every answer written at once
};

} // namespace retrylab
