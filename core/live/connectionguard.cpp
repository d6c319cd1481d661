#include "connectionguard.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

#include <cstring>

namespace retrylab {

namespace {

bool isTokenChar(char c)
{
    // RFC 9110 tchar
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

// "METHOD SP target SP HTTP/1.x" with a token method and a target free of spaces and controls.
bool validRequestLine(const QByteArray &line)
{
    const int sp1 = int(line.indexOf(' '));
    if (sp1 <= 0 || sp1 > 16)
        return false;
    for (int i = 0; i < sp1; ++i) {
        if (!isTokenChar(line.at(i)))
            return false;
    }
    const int sp2 = int(line.indexOf(' ', sp1 + 1));
    if (sp2 <= sp1 + 1 || line.indexOf(' ', sp2 + 1) >= 0)
        return false;
    for (int i = sp1 + 1; i < sp2; ++i) {
        const uchar c = uchar(line.at(i));
        if (c <= 0x20 || c >= 0x7f)
            return false;
    }
    if (line.at(sp1 + 1) != '/' && line.at(sp1 + 1) != '*' && !line.mid(sp1 + 1, 4).startsWith("http"))
        return false;
    const QByteArray version = line.mid(sp2 + 1);
    return version == "HTTP/1.1" || version == "HTTP/1.0";
}

} // namespace

// Follows one connection's byte stream the way Qt HTTP Server 6.4 frames it (request line up to
// LF, headers up to an empty line, Content-Length bytes of body), one step ahead of it.
class ConnectionScanner : public QObject
{
public:
    ConnectionScanner(QTcpSocket *socket, const ServeLimits &limits, ConnectionGuard *guard)
        : QObject(socket), m_socket(socket), m_limits(limits), m_guard(guard)
    {
        guard->track(this);
        armIdle();
    }
    ~ConnectionScanner() override
    {
        if (m_guard)
            m_guard->untrack(this);
    }

    // Called by the guard's sweep.
    void checkDeadline(qint64 nowMs)
    {
        if (!m_rejected && nowMs >= m_deadline)
            timedOut();
    }

    void onReadyRead()
    {
        if (m_rejected) {
            m_socket->readAll();
            return;
        }
        const qint64 available = m_socket->bytesAvailable();
        if (available <= m_pending)
            return;
        // Peeked into a buffer that lives as long as the connection: no allocation per read.
        if (m_window.size() < available)
            m_window.resize(available);
        const qint64 n = m_socket->peek(m_window.data(), available);
        if (n <= 0)
            return;
        const char *p = m_window.constData();
        qint64 firstEnd = -1; // where the first request completing in this window ends
        for (qint64 i = m_pending; i < n;) {
            switch (m_state) {
            case State::Line: {
                const char c = p[i];
                if (m_line.isEmpty() && (c == '\r' || c == '\n' || c == ' ' || c == '\t' || c == '\v')) {
                    ++i;
                    continue;
                }
                if (m_line.isEmpty())
                    armRequest();
                const char *nl = static_cast<const char *>(std::memchr(p + i, '\n', size_t(n - i)));
                const qint64 end = nl ? qint64(nl - p) : n;
                m_line.append(p + i, int(end - i));
                if (m_line.size() > m_limits.maxRequestLineBytes)
                    return reject(414, "URI Too Long",
                                  QStringLiteral("the request line is longer than %1 bytes").arg(m_limits.maxRequestLineBytes));
                i = end;
                if (!nl)
                    continue;
                ++i;
                if (m_line.endsWith('\r'))
                    m_line.chop(1);
                if (!validRequestLine(m_line))
                    return reject(400, "Bad Request", QStringLiteral("malformed request line"));
                m_headerBytes = int(m_line.size());
                m_line.clear();
                m_contentLength = 0;
                m_state = State::Headers;
                break;
            }
            case State::Headers: {
                const char *nl = static_cast<const char *>(std::memchr(p + i, '\n', size_t(n - i)));
                const qint64 end = nl ? qint64(nl - p) : n;
                m_headerBytes += int(end - i) + (nl ? 1 : 0);
                if (m_headerBytes > m_limits.maxHeaderBytes)
                    return reject(431, "Request Header Fields Too Large",
                                  QStringLiteral("the request head is larger than %1 bytes").arg(m_limits.maxHeaderBytes));
                if (!nl) {
                    m_line.append(p + i, int(end - i));
                    i = end;
                    continue;
                }
                // A line whole in this window is looked at in place; only a split one is copied.
                const char *line = p + i;
                qint64 length = end - i;
                if (!m_line.isEmpty()) {
                    m_line.append(line, int(length));
                    line = m_line.constData();
                    length = m_line.size();
                }
                i = end + 1;
                if (length > 0 && line[length - 1] == '\r')
                    --length;
                if (length == 0) {
                    m_line.clear();
                    if (m_contentLength > m_limits.maxBodyBytes)
                        return reject(413, "Content Too Large",
                                      QStringLiteral("the body is larger than %1 bytes").arg(m_limits.maxBodyBytes));
                    m_remaining = m_contentLength;
                    m_state = State::Body;
                    if (m_remaining == 0)
                        completed(i, &firstEnd);
                    break;
                }
                if (!header(line, length))
                    return;
                m_line.clear();
                break;
            }
            case State::Body: {
                const qint64 take = qMin(m_remaining, n - i);
                i += take;
                m_remaining -= take;
                if (m_remaining == 0)
                    completed(i, &firstEnd);
                break;
            }
            }
        }
        // The HTTP server reads the rest of this window, or up to the end of its request.
        const qint64 consumed = firstEnd >= 0 ? firstEnd : n;
        m_pending = n - consumed;
    }

private:
    enum class State { Line, Headers, Body };

    void completed(qint64 at, qint64 *firstEnd)
    {
        if (*firstEnd < 0)
            *firstEnd = at;
        m_state = State::Line;
        m_line.clear();
        armIdle();
    }

    static bool named(const char *line, int colon, const char *name)
    {
        return int(qstrlen(name)) == colon && qstrnicmp(line, name, uint(colon)) == 0;
    }

    bool header(const char *line, qint64 length)
    {
        const char *colonAt = static_cast<const char *>(std::memchr(line, ':', size_t(length)));
        const int colon = colonAt ? int(colonAt - line) : -1;
        if (colon <= 0) {
            reject(400, "Bad Request", QStringLiteral("malformed header line"));
            return false;
        }
        for (int k = 0; k < colon; ++k) {
            if (!isTokenChar(line[k])) {
                reject(400, "Bad Request", QStringLiteral("malformed header name"));
                return false;
            }
        }
        const bool contentLength = named(line, colon, "content-length");
        const bool transferEncoding = !contentLength && named(line, colon, "transfer-encoding");
        if (!contentLength && !transferEncoding)
            return true;
        const QByteArray value = QByteArray(line + colon + 1, int(length - colon - 1)).trimmed();
        if (contentLength) {
            bool ok = false;
            const qint64 number = value.toLongLong(&ok);
            if (!ok || number < 0 || value.startsWith('+')) {
                reject(400, "Bad Request", QStringLiteral("Content-Length is not a number"));
                return false;
            }
            if (number > m_limits.maxBodyBytes) {
                reject(413, "Content Too Large",
                       QStringLiteral("the body is larger than %1 bytes").arg(m_limits.maxBodyBytes));
                return false;
            }
            m_contentLength = number;
        } else if (value.toLower() != "identity") {
            reject(411, "Length Required", QStringLiteral("send the body with a Content-Length, not chunked"));
            return false;
        }
        return true;
    }

    void armRequest()
    {
        m_inRequest = true;
        m_deadline = m_guard->m_clock.elapsed() + m_limits.requestTimeoutMs;
    }
    void armIdle()
    {
        m_inRequest = false;
        m_deadline = m_guard->m_clock.elapsed() + m_limits.idleTimeoutMs;
    }

    void timedOut()
    {
        if (m_inRequest) {
            reject(408, "Request Timeout",
                   QStringLiteral("the request did not arrive within %1 ms").arg(m_limits.requestTimeoutMs));
            return;
        }
        m_rejected = true;
        m_socket->disconnectFromHost();
    }

    void reject(int status, const char *title, const QString &detail)
    {
        m_rejected = true;
        m_socket->readAll();
        ConnectionGuard::refuse(m_socket, status, QByteArray(title), detail);
        Q_EMIT m_guard->refused(status, detail);
    }

    QTcpSocket *m_socket;
    ServeLimits m_limits;
    QPointer<ConnectionGuard> m_guard;
    qint64 m_deadline = 0;
    QByteArray m_window;
    State m_state = State::Line;
    QByteArray m_line;
    int m_headerBytes = 0;
    qint64 m_contentLength = 0;
    qint64 m_remaining = 0;
    qint64 m_pending = 0; // bytes at the front of the socket buffer scanned but not yet read
    bool m_inRequest = false;
    bool m_rejected = false;
};

ConnectionGuard::ConnectionGuard(const ServeLimits &limits, QObject *parent)
    : QTcpServer(parent), m_limits(limits)
{
    m_clock.start();
    // A quarter of the shortest limit: a deadline fires at most 25% late.
    m_sweep.setInterval(qBound(20, qMin(limits.requestTimeoutMs, limits.idleTimeoutMs) / 4, 1000));
    connect(&m_sweep, &QTimer::timeout, this, &ConnectionGuard::sweep);
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
    // Connected before the HTTP server's own readyRead handler, so the scanner looks first.
    auto *scanner = new ConnectionScanner(socket, m_limits, this);
    connect(socket, &QTcpSocket::readyRead, scanner, &ConnectionScanner::onReadyRead);
    addPendingConnection(socket);
}

} // namespace retrylab
