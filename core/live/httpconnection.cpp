#include "httpconnection.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

#include <charconv>
#include <cerrno>
#include <cstring>

#include <sys/socket.h>

namespace retrylab {

HttpConnection::HttpConnection(QTcpSocket *socket) : QObject(socket), m_socket(socket)
{
    connect(socket, &QTcpSocket::bytesWritten, this, &HttpConnection::progressed);
}

HttpConnection *HttpConnection::of(QTcpSocket *socket)
{
    return socket ? socket->findChild<HttpConnection *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

const char *HttpConnection::reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 417: return "Expectation Failed";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return status >= 500 ? "Server Error" : (status >= 400 ? "Client Error" : "Status");
    }
}

HttpConnection::Request HttpConnection::request(quint64 slot) const
{
    if (slot < m_firstSlot || slot - m_firstSlot >= m_slots.size())
        return Request();
    return m_slots[size_t(slot - m_firstSlot)].request;
}

static void composePassThrough(QByteArray &out, const HttpAnswer &a, const HttpConnection::Request &request)
{
    out.clear();
    out.reserve(64 + a.headerLines.size() + (request.head ? 0 : a.body.size()));
    out += "HTTP/1.1 ";
    out += QByteArray::number(a.status);
    out += ' ';
    out += a.reason;
    out += "\r\n";
    out += a.headerLines;
    if (a.addLength) {
        out += "Content-Length: ";
        out += QByteArray::number(a.body.size());
        out += "\r\n";
    }
    if (a.close || request.close)
        out += "Connection: close\r\n";
    out += "\r\n";
    if (!request.head)
        out += a.body;
}

namespace {

// Appends to a buffer sized in advance (compose() below): memcpy and to_chars, no allocation.
struct Writer
{
    char *p;
    void put(const char *text, size_t size)
    {
        std::memcpy(p, text, size);
        p += size;
    }
    void put(const QByteArray &text) { put(text.constData(), size_t(text.size())); }
    template<size_t N>
    void literal(const char (&text)[N]) { put(text, N - 1); }
    void number(qint64 n) { p = std::to_chars(p, p + 20, n).ptr; }
};

} // namespace

void HttpConnection::compose(QByteArray &out, const HttpAnswer &a, const Request &request)
{
    if (a.passThrough)
        return composePassThrough(out, a, request);
    // Every answer of an order goes through here: sized once, then written with memcpy (the
    // appends it replaces, each a QByteArray::insert and two QByteArray::number, cost about
    // 3,900 instructions per order; this about a tenth).
    const char *reason = reasonPhrase(a.status);
    const size_t reasonSize = std::strlen(reason);
    const bool close = a.close || request.close;
    const qsizetype content = request.head ? 0 : a.body.size();
    const qsizetype bound = 256 + qsizetype(reasonSize) + a.contentType.size() + a.requestId.size()
                            + a.extraHeader.size() + content;
    out.resize(bound); // the fixed text and three numbers take under 200 bytes; the capacity stays
    Writer w{out.data()};
    w.literal("HTTP/1.1 ");
    w.number(a.status);
    w.put(" ", 1);
    w.put(reason, reasonSize);
    w.literal("\r\nContent-Type: ");
    w.put(a.contentType);
    // A HEAD answer names the length the GET's content would have (RFC 9110 section 9.3.2).
    w.literal("\r\nContent-Length: ");
    w.number(a.body.size());
    if (!a.requestId.isEmpty()) {
        w.literal("\r\nX-Request-ID: ");
        w.put(a.requestId);
    }
    if (a.replayed)
        w.literal("\r\nIdempotent-Replayed: true");
    if (a.retryAfterS >= 0) {
        w.literal("\r\nRetry-After: ");
        w.number(a.retryAfterS);
    }
    if (!a.extraHeader.isEmpty()) {
        w.literal("\r\n");
        w.put(a.extraHeader);
    }
    if (close)
        w.literal("\r\nConnection: close");
    w.literal("\r\n\r\n");
    if (!request.head)
        w.put(a.body);
    out.resize(w.p - out.constData());
}

void HttpConnection::expect(const Request &request)
{
    if (m_closing)
        return;
    Slot s;
    s.request = request;
    m_slots.push_back(s);
}

void HttpConnection::continueLast()
{
    if (m_slots.empty() || m_closing)
        return;
    m_slots.back().continueDue = true;
    flush();
}

quint64 HttpConnection::begin()
{
    const quint64 slot = m_nextBegin++;
    if (slot < m_firstSlot)
        return slot; // its connection closed before it: the answer goes nowhere
    const size_t index = size_t(slot - m_firstSlot);
    if (index >= m_slots.size())
        m_slots.resize(index + 1); // not seen by the guard (cannot happen): plain GET framing
    m_slots[index].begun = true;
    return slot;
}

void HttpConnection::answer(quint64 slot, const HttpAnswer &a)
{
    if (slot < m_firstSlot || slot - m_firstSlot >= m_slots.size())
        return;
    Slot &s = m_slots[size_t(slot - m_firstSlot)];
    if (s.ready)
        return;
    s.close = a.close || s.request.close;
    if (slot == m_firstSlot && !s.continueDue) {
        // Its turn already: composed into one reused buffer, no copy held.
        compose(m_out, a, s.request);
        const bool buffered = send(m_out);
        const bool close = s.close;
        m_slots.pop_front();
        ++m_firstSlot;
        if (close)
            closeAfterWrite();
        else
            flush();
        // Sent now rather than from the write notifier on the next turn of the event loop: that
        // round trip (arm the notifier, poll, write, disarm) costs more than the write itself.
        if (buffered && m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->flush();
        Q_EMIT progressed();
        return;
    }
    compose(s.bytes, a, s.request);
    s.ready = true;
    m_heldBytes += s.bytes.size();
    flush();
}

void HttpConnection::refuse(int status, const QByteArray &title, const QString &detail)
{
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("about:blank")},
                                                      {QStringLiteral("title"), QString::fromLatin1(title)},
                                                      {QStringLiteral("status"), status},
                                                      {QStringLiteral("detail"), detail}})
                                    .toJson(QJsonDocument::Compact);
    // The request being read when the stream was refused has a place already when its head
    // passed; a refusal of a head or of bytes between requests takes a new one.
    if (m_slots.empty() || m_slots.back().begun || m_slots.back().ready)
        m_slots.emplace_back();
    Slot &s = m_slots.back();
    s.request.head = false;
    s.continueDue = false;
    s.close = true;
    s.ready = true;
    HttpAnswer a;
    a.status = status;
    a.contentType = "application/problem+json";
    a.body = body;
    a.close = true;
    compose(s.bytes, a, s.request);
    m_heldBytes += s.bytes.size();
    m_closing = true;
    flush();
}

qint64 HttpConnection::unsentBytes() const
{
    return m_heldBytes + m_socket->bytesToWrite();
}

void HttpConnection::closeAfterWrite()
{
    // RFC 9112 section 9.6: nothing after a close is served; disconnectFromHost() sends what
    // is written first.
    m_closing = true;
    for (const Slot &later : m_slots)
        m_heldBytes -= later.bytes.size();
    m_slots.clear();
    m_socket->disconnectFromHost();
}

bool HttpConnection::send(const QByteArray &bytes)
{
    const qsizetype size = bytes.size();
    qsizetype sent = 0;
    // Straight to the kernel when nothing waits in the socket's own buffer (order is kept): one
    // send(), no copy into Qt's ring buffer and no flush() through QAbstractSocket. MSG_NOSIGNAL:
    // a reset peer raises no SIGPIPE even where the process handles that signal itself (Qt ignores
    // it only where nobody set a handler).
    if (m_socket->bytesToWrite() == 0 && m_socket->state() == QAbstractSocket::ConnectedState) {
        ssize_t n;
        do {
            n = ::send(int(m_socket->socketDescriptor()), bytes.constData(), size_t(size), MSG_NOSIGNAL);
        } while (n < 0 && errno == EINTR);
        if (n == size)
            return false;
        if (n > 0)
            sent = n;
    }
    // What the kernel did not take (its buffer is full: EAGAIN, or a part of the answer) waits in
    // the socket's buffer, which the write notifier drains as before; on an error (a reset peer)
    // Qt's own write meets it again and ends the connection as it always did.
    m_socket->write(bytes.constData() + sent, size - sent);
    return true;
}

void HttpConnection::flush()
{
    bool wrote = false, buffered = false;
    while (!m_slots.empty()) {
        Slot &s = m_slots.front();
        if (s.continueDue) {
            static const QByteArray kContinue = QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n");
            buffered |= send(kContinue);
            s.continueDue = false;
            wrote = true;
        }
        if (!s.ready)
            break;
        buffered |= send(s.bytes);
        m_heldBytes -= s.bytes.size();
        wrote = true;
        const bool close = s.close;
        m_slots.pop_front();
        ++m_firstSlot;
        if (close) {
            closeAfterWrite();
            break;
        }
    }
    if (wrote) {
        if (buffered && m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->flush();
        Q_EMIT progressed();
    }
}

} // namespace retrylab
