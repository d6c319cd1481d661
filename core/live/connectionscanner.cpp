#include "connectionscanner.h"

#include "connectionguard.h"
#include "httpconnection.h"
#include "httprequest.h"

#include <QTcpSocket>

#include <cstring>

namespace retrylab {

namespace {

// Bytes peeked per step: a whole ordinary request head, so most requests take one peek.
constexpr qint64 kPeekStep = 4096;
// Blank lines allowed before a request line (RFC 9112 section 2.2 asks servers to skip at least
// one CRLF); Qt's parser keeps them in its read transaction, so they are bounded.
constexpr int kMaxBlank = 1024;
constexpr int kMaxMethod = 16;
// A plain request has at most this many fields and a head of at most kPeekStep bytes: far below
// what Qt's header parser refuses (100 fields, 8 KiB a field), so both read it alike.
constexpr int kMaxPlainFields = 50;

// RFC 9110 tchar, one lookup per byte: every byte of every method and field name passes here.
struct TokenChars
{
    bool is[256] = {};
    constexpr TokenChars()
    {
        for (int c = 'a'; c <= 'z'; ++c)
            is[c] = true;
        for (int c = 'A'; c <= 'Z'; ++c)
            is[c] = true;
        for (int c = '0'; c <= '9'; ++c)
            is[c] = true;
        for (const char c : "!#$%&'*+-.^_`|~")
            is[uchar(c)] = c != 0;
    }
};
constexpr TokenChars kTokenChars;

bool isTokenChar(char c)
{
    return kTokenChars.is[uchar(c)];
}

// The field names and values nearly every order request carries, spelled as clients send
// them: a field of a plain request that matches one byte for byte shares the static text
// (QByteArray::fromRawData, no allocation; static, so it outlives any copy of the request)
// instead of copying it. Anything else, another case included, is copied as sent.
template <size_t N>
QByteArray shared(QByteArrayView bytes, const QByteArrayView (&common)[N])
{
    for (const QByteArrayView c : common) {
        if (c.size() == bytes.size() && std::memcmp(c.data(), bytes.data(), size_t(c.size())) == 0)
            return QByteArray::fromRawData(c.data(), c.size());
    }
    return bytes.toByteArray();
}

constexpr QByteArrayView kCommonNames[] = {"Host", "Content-Type", "Content-Length", "Idempotency-Key", "Accept",
                                           "User-Agent", "Connection", "X-Request-Id", "host", "content-type",
                                           "content-length", "idempotency-key", "accept", "user-agent",
                                           "connection", "x-request-id"};
constexpr QByteArrayView kCommonValues[] = {"application/json", "*/*", "keep-alive", "close"};

bool isBlank(char c)
{
    // what Qt's parser skips before a request line
    return c == '\r' || c == '\n' || c == ' ' || c == '\t' || c == '\v';
}

// "METHOD SP target SP HTTP/1.x" with a token method and a target free of spaces and controls.
bool validRequestLine(const QByteArray &line)
{
    const int sp1 = int(line.indexOf(' '));
    if (sp1 <= 0 || sp1 > kMaxMethod)
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
    const QByteArrayView view(line);
    if (line.at(sp1 + 1) != '/' && line.at(sp1 + 1) != '*' && !view.sliced(sp1 + 1).startsWith("http"))
        return false;
    const QByteArrayView version = view.sliced(sp2 + 1);
    return version == "HTTP/1.1" || version == "HTTP/1.0";
}

bool inSet(QByteArrayView text, const char *extra)
{
    for (const char c : text) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && (c == 0 || !std::strchr(extra, c)))
            return false;
    }
    return true;
}

// A request line whose meaning no parser can read otherwise: a method the service routes, and a
// target of a path and a query with nothing to decode (no %, +, dot segment or "//" authority),
// so that QUrl::fromEncoded gives back the same path and query (ConnectionScanner::plain).
bool plainTarget(const QByteArray &line)
{
    const qsizetype sp1 = line.indexOf(' ');
    const QByteArrayView method(line.constData(), sp1);
    if (method != "GET" && method != "POST" && method != "PUT" && method != "HEAD")
        return false;
    const qsizetype sp2 = line.indexOf(' ', sp1 + 1);
    const QByteArrayView target(line.constData() + sp1 + 1, sp2 - sp1 - 1);
    const qsizetype mark = target.indexOf('?');
    const QByteArrayView path = mark < 0 ? target : target.first(mark);
    if (!path.startsWith('/') || path.contains("//") || !inSet(path, "/-_"))
        return false;
    return mark < 0 || inSet(target.sliced(mark + 1), "=&-_.");
}

bool named(const char *line, int colon, const char *name)
{
    return int(qstrlen(name)) == colon && qstrnicmp(line, name, uint(colon)) == 0;
}

// The value of a header line without its optional white space (RFC 9110 section 5.6.3).
QByteArray fieldValue(const char *line, int colon, qint64 length)
{
    qint64 from = colon + 1;
    while (from < length && (line[from] == ' ' || line[from] == '\t'))
        ++from;
    qint64 to = length;
    while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t'))
        --to;
    return QByteArray(line + from, int(to - from));
}

bool allDigits(const QByteArray &value)
{
    if (value.isEmpty() || value.size() > 18)
        return false;
    for (const char c : value) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

} // namespace

ConnectionScanner::ConnectionScanner(QTcpSocket *socket, HttpConnection *connection, const ServeLimits &limits,
                                     ConnectionGuard *guard)
    : QObject(socket), m_socket(socket), m_connection(connection), m_limits(limits), m_guard(guard)
{
    guard->track(this);
    armIdle();
    connect(connection, &HttpConnection::progressed, this, [this] {
        if (m_holding && !backlogged())
            release();
    });
}

ConnectionScanner::~ConnectionScanner()
{
    if (m_guard)
        m_guard->untrack(this);
}

void ConnectionScanner::checkDeadline(qint64 nowMs)
{
    if (nowMs < m_deadline)
        return;
    if (m_refused) {
        // Refused or closing, and still open an idle period later (its refusal waits behind an
        // answer that never came, or the client does not read it): cut.
        m_socket->abort();
        return;
    }
    timedOut();
}

void ConnectionScanner::onReadyRead()
{
    // A plain request taken here leaves the rest of the input to scan in the same turn.
    QPointer<ConnectionScanner> alive(this);
    while (scanTurn() && alive) {
    }
}

bool ConnectionScanner::scanTurn()
{
    if (m_refused || m_state == State::Done) {
        m_socket->readAll();
        return false;
    }
    if (m_holding || (atBoundary() && backlogged())) {
        hold();
        return false;
    }
    const qint64 available = m_socket->bytesAvailable();
    qint64 at = 0;
    qint64 peeked = 0;
    m_whole = false;
    // One request per turn: Qt's parser reads exactly that request after this slot and signals
    // readyRead again for the rest, so a refusal never overtakes an earlier request's answer.
    while (at < available) {
        if (m_state == State::Body) {
            // The body's bytes are counted, never copied.
            const qint64 take = qMin(m_remaining, available - at);
            at += take;
            m_remaining -= take;
            if (m_remaining == 0) {
                completed();
                return takePlain(at);
            }
            continue;
        }
        if (at >= peeked) {
            // Peeked into a buffer that lives as long as the connection: no allocation per read.
            const qint64 want = qMin(available, at + kPeekStep);
            if (m_window.size() < want)
                m_window.resize(want);
            peeked = m_socket->peek(m_window.data(), want);
            if (peeked <= at)
                return false;
        }
        const char *p = m_window.constData();
        const Step step = m_state == State::Line ? scanLine(p, &at, peeked) : scanHeader(p, &at, peeked);
        if (step == Step::Complete)
            return takePlain(at);
        if (step != Step::More)
            return false;
    }
    return false;
}

bool ConnectionScanner::takePlain(qint64 end)
{
    // Only a request read whole in this turn, whose head the checks found plain, and only when
    // the guard has a handler (else every request goes to Qt's parser, as before).
    if (!m_whole || !m_head.plain || !m_guard || !m_guard->m_handler)
        return false;
    if (m_window.size() < end)
        m_window.resize(end);
    if (m_socket->peek(m_window.data(), end) != end)
        return false;
    HttpRequest request;
    if (!plain(m_window.constData() + m_lineAt, end - m_lineAt, m_head.contentLength, &request))
        return false;
    // Qt's parser left a read transaction open when it last found nothing to read; what it
    // holds is read already, so it ends here, and the bytes of this request are consumed.
    if (m_socket->isTransactionStarted())
        m_socket->commitTransaction();
    m_socket->skip(end);
    ++m_guard->m_plainRequests;
    const ConnectionGuard::RequestHandler handler = m_guard->m_handler; // it may stop the server
    handler(request, m_socket);
    return m_socket->state() == QAbstractSocket::ConnectedState && m_socket->bytesAvailable() > 0;
}

bool ConnectionScanner::plain(const char *p, qint64 size, qint64 bodyBytes, HttpRequest *request)
{
    // The head passed every check already: lines end in LF (a CR before it is dropped), the
    // request line is "METHOD SP target SP version", each field "name: value".
    const char *end = p + size - bodyBytes;
    const auto nextLine = [&end](const char *&at) {
        const char *nl = static_cast<const char *>(std::memchr(at, '\n', size_t(end - at)));
        const char *stop = nl ? nl : end;
        const QByteArrayView line(at, stop - at);
        at = nl ? nl + 1 : end;
        return line.endsWith('\r') ? line.chopped(1) : line;
    };
    const char *at = p;
    const QByteArrayView line = nextLine(at);
    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = line.lastIndexOf(' ');
    if (sp1 <= 0 || sp2 <= sp1)
        return false;
    request->method = HttpRequest::methodOf(line.first(sp1));
    const QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const qsizetype mark = target.indexOf('?');
    request->path = QString::fromLatin1(mark < 0 ? target : target.first(mark));
    if (mark >= 0)
        request->query = QUrlQuery(QString::fromLatin1(target.sliced(mark + 1)));
    request->headers.reserve(m_head.fields);
    while (at < end) {
        const QByteArrayView field = nextLine(at);
        if (field.isEmpty())
            break;
        const qsizetype colon = field.indexOf(':');
        if (colon <= 0)
            return false;
        request->headers.append(
                {shared(field.first(colon), kCommonNames), shared(field.sliced(colon + 1).trimmed(), kCommonValues)});
    }
    request->body = QByteArray(end, bodyBytes);
    return true;
}

ConnectionScanner::Step ConnectionScanner::scanLine(const char *p, qint64 *at, qint64 end)
{
    if (m_line.isEmpty()) {
        while (*at < end && isBlank(p[*at])) {
            ++*at;
            if (++m_blank > kMaxBlank)
                return refuse(400, "Bad Request",
                              QStringLiteral("more than %1 blank bytes before a request line").arg(kMaxBlank));
        }
        if (*at == end)
            return Step::More;
        armRequest();
        m_head = Head();
        m_whole = true;
        m_lineAt = *at;
    }
    const char *nl = static_cast<const char *>(std::memchr(p + *at, '\n', size_t(end - *at)));
    const qint64 stop = nl ? qint64(nl - p) : end;
    const qsizetype before = m_line.size();
    m_line.append(p + *at, stop - *at);
    *at = stop;
    // The method is checked byte by byte as it arrives, so a TLS ClientHello or other binary
    // input is refused at its first byte instead of waiting for a line end that never comes.
    const qsizetype space = m_line.indexOf(' ');
    const qsizetype methodEnd = space < 0 ? m_line.size() : space;
    for (qsizetype i = before; i < methodEnd; ++i) {
        if (!isTokenChar(m_line.at(i)) && m_line.at(i) != '\r')
            return refuse(400, "Bad Request",
                          QStringLiteral("the request does not start with an HTTP method (byte 0x%1 at %2; TLS on a "
                                         "plain-HTTP port?)")
                                  .arg(uchar(m_line.at(i)), 2, 16, QLatin1Char('0'))
                                  .arg(i));
    }
    if (methodEnd > kMaxMethod)
        return refuse(400, "Bad Request", QStringLiteral("the method is longer than %1 characters").arg(kMaxMethod));
    if (m_line.size() > m_limits.maxRequestLineBytes)
        return refuse(414, "URI Too Long",
                      QStringLiteral("the request line is longer than %1 bytes").arg(m_limits.maxRequestLineBytes));
    if (!nl)
        return Step::More;
    ++*at;
    if (m_line.endsWith('\r'))
        m_line.chop(1);
    if (!requestLine())
        return refuse(400, "Bad Request", QStringLiteral("malformed request line"));
    m_headerBytes = int(m_line.size());
    m_line.clear();
    m_state = State::Headers;
    return Step::More;
}

bool ConnectionScanner::requestLine()
{
    if (!validRequestLine(m_line))
        return false;
    m_head.head = m_line.startsWith("HEAD ");
    m_head.http10 = m_line.endsWith("HTTP/1.0");
    m_head.plain = plainTarget(m_line);
    m_head.line = m_line; // shared, not copied
    return true;
}

ConnectionScanner::Step ConnectionScanner::scanHeader(const char *p, qint64 *at, qint64 end)
{
    const char *nl = static_cast<const char *>(std::memchr(p + *at, '\n', size_t(end - *at)));
    const qint64 stop = nl ? qint64(nl - p) : end;
    m_headerBytes += int(stop - *at) + (nl ? 1 : 0);
    if (m_headerBytes > m_limits.maxHeaderBytes)
        return refuse(431, "Request Header Fields Too Large",
                      QStringLiteral("the request head is larger than %1 bytes").arg(m_limits.maxHeaderBytes));
    if (!nl) {
        m_line.append(p + *at, stop - *at);
        *at = stop;
        return Step::More;
    }
    // A line whole in this window is looked at in place; only a split one is copied.
    const char *line = p + *at;
    qint64 length = stop - *at;
    if (!m_line.isEmpty()) {
        m_line.append(line, length);
        line = m_line.constData();
        length = m_line.size();
    }
    *at = stop + 1;
    if (length > 0 && line[length - 1] == '\r')
        --length;
    if (length == 0) {
        m_line.clear();
        return endOfHead();
    }
    if (!header(line, length))
        return Step::Refused;
    m_line.clear();
    return Step::More;
}

bool ConnectionScanner::header(const char *line, qint64 length)
{
    if (line[0] == ' ' || line[0] == '\t') {
        refuse(400, "Bad Request",
               QStringLiteral("a header line starts with white space (obs-fold, refused by RFC 9112 section 5.2)"));
        return false;
    }
    const char *colonAt = static_cast<const char *>(std::memchr(line, ':', size_t(length)));
    const int colon = colonAt ? int(colonAt - line) : -1;
    if (colon <= 0) {
        refuse(400, "Bad Request", QStringLiteral("malformed header line"));
        return false;
    }
    for (int k = 0; k < colon; ++k) {
        if (!isTokenChar(line[k])) {
            refuse(400, "Bad Request", QStringLiteral("malformed header name (no space before the colon)"));
            return false;
        }
    }
    for (qint64 k = colon + 1; k < length; ++k) {
        const uchar c = uchar(line[k]);
        if (c == 0 || c == '\r' || (c < 0x20 && c != '\t') || c == 0x7f) {
            const QString what = c == 0 ? QStringLiteral("a NUL byte")
                                        : (c == '\r' ? QStringLiteral("a bare CR") : QStringLiteral("a control byte"));
            refuse(400, "Bad Request",
                   QStringLiteral("%1 in the value of header %2").arg(what, QString::fromLatin1(line, qMin(colon, 60))));
            return false;
        }
    }
    // Plain (for ConnectionScanner::plain) while Qt's parser would read it the same: few fields,
    // no upgrade, a Host that makes a valid URL authority.
    if (++m_head.fields > kMaxPlainFields || named(line, colon, "upgrade"))
        m_head.plain = false;
    if (named(line, colon, "content-length")) {
        const QByteArray value = fieldValue(line, colon, length);
        if (++m_head.lengths > 1) {
            refuse(400, "Bad Request",
                   QStringLiteral("more than one Content-Length header (RFC 9112 section 6.3), even with equal values"));
            return false;
        }
        if (!allDigits(value)) {
            refuse(400, "Bad Request", QStringLiteral("Content-Length is not a number"));
            return false;
        }
        m_head.contentLength = value.toLongLong();
        if (m_head.contentLength > m_limits.maxBodyBytes) {
            refuse(413, "Content Too Large",
                   QStringLiteral("the body is larger than %1 bytes").arg(m_limits.maxBodyBytes));
            return false;
        }
    } else if (named(line, colon, "transfer-encoding")) {
        m_head.transferEncoding = true;
        for (const QByteArray &coding : fieldValue(line, colon, length).split(',')) {
            if (!m_head.codings.isEmpty())
                m_head.codings += ',';
            m_head.codings += coding.trimmed().toLower();
        }
    } else if (named(line, colon, "host")) {
        ++m_head.hosts;
        if (!inSet(fieldValue(line, colon, length), ".:-[]"))
            m_head.plain = false;
    } else if (named(line, colon, "connection")) {
        const QByteArray value = fieldValue(line, colon, length);
        for (const QByteArray &option : value.split(',')) {
            if (option.trimmed().compare("close", Qt::CaseInsensitive) == 0)
                m_head.close = true;
        }
        if (value.toLower().contains("upgrade"))
            m_head.plain = false;
    } else if (named(line, colon, "expect")) {
        if (fieldValue(line, colon, length).compare("100-continue", Qt::CaseInsensitive) == 0)
            m_head.expectContinue = true;
        else
            m_head.expectOther = true;
    }
    return true;
}

ConnectionScanner::Step ConnectionScanner::endOfHead()
{
    if (m_head.transferEncoding) {
        if (m_head.lengths > 0)
            return refuse(400, "Bad Request",
                          QStringLiteral("both Content-Length and Transfer-Encoding: two framings that could "
                                         "disagree (RFC 9112 section 6.3)"));
        if (m_head.http10)
            return refuse(400, "Bad Request", QStringLiteral("Transfer-Encoding in an HTTP/1.0 request"));
        if (m_head.codings == "chunked")
            return refuse(411, "Length Required", QStringLiteral("send the body with a Content-Length, not chunked"));
        return refuse(501, "Not Implemented",
                      QStringLiteral("Transfer-Encoding \"%1\" is not supported: send the body with a Content-Length")
                              .arg(QString::fromLatin1(m_head.codings.left(60))));
    }
    if (!m_head.http10 && m_head.hosts == 0)
        return refuse(400, "Bad Request", QStringLiteral("an HTTP/1.1 request needs a Host header (RFC 9112 section 3.2)"));
    if (m_head.hosts > 1)
        return refuse(400, "Bad Request", QStringLiteral("more than one Host header (RFC 9112 section 3.2)"));
    if (m_headerBytes > kPeekStep)
        m_head.plain = false;
    if (m_head.expectOther)
        return refuse(417, "Expectation Failed", QStringLiteral("the only expectation understood is 100-continue"));
    HttpConnection::Request request;
    request.head = m_head.head;
    // HTTP/1.0 has no persistent connections here: its answer ends with the connection.
    request.close = m_head.close || m_head.http10;
    request.line = m_head.line;
    if (m_connection) {
        m_connection->expect(request);
        if (m_head.expectContinue && m_head.contentLength > 0 && !m_head.http10)
            m_connection->continueLast();
    }
    m_remaining = m_head.contentLength;
    m_state = State::Body;
    if (m_remaining > 0)
        return Step::More;
    completed();
    return Step::Complete;
}

void ConnectionScanner::completed()
{
    // RFC 9112 section 9.6: no request after a close is served.
    m_state = m_head.close || m_head.http10 ? State::Done : State::Line;
    m_line.clear();
    m_blank = 0;
    armIdle();
}

bool ConnectionScanner::backlogged() const
{
    return m_connection
           && (m_connection->unsentBytes() > m_limits.maxUnsentBytes || m_connection->waiting() >= m_limits.maxPipelined);
}

void ConnectionScanner::hold()
{
    if (!m_holding) {
        // Read into a transaction of our own, so the parser sees nothing until release() rolls it
        // back; the socket's read buffer size bounds what is held.
        m_holding = true;
        if (!m_socket->isTransactionStarted())
            m_socket->startTransaction();
        m_inRequest = false;
        m_deadline = m_guard->m_clock.elapsed() + m_limits.requestTimeoutMs;
    }
    const qint64 available = m_socket->bytesAvailable();
    if (available > 0) {
        if (m_window.size() < available)
            m_window.resize(available);
        m_held += qMax<qint64>(0, m_socket->read(m_window.data(), available));
    }
    if (m_guard)
        m_guard->noteBacklog(m_held + (m_connection ? m_connection->unsentBytes() : 0));
}

void ConnectionScanner::release()
{
    m_holding = false;
    m_held = 0;
    m_socket->rollbackTransaction();
    armIdle();
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(m_socket, &QAbstractSocket::readyRead, Qt::QueuedConnection);
}

void ConnectionScanner::armRequest()
{
    m_inRequest = true;
    m_deadline = m_guard->m_clock.elapsed() + m_limits.requestTimeoutMs;
}

void ConnectionScanner::armIdle()
{
    m_inRequest = false;
    m_deadline = m_guard->m_clock.elapsed() + m_limits.idleTimeoutMs;
}

void ConnectionScanner::timedOut()
{
    if (m_holding) {
        // Its answers were not read in time: there is no one to tell.
        m_refused = true;
        const QString detail = QStringLiteral("the client left its answers unread for %1 ms").arg(m_limits.requestTimeoutMs);
        Q_EMIT m_guard->refused(0, detail);
        m_socket->abort();
        return;
    }
    if (m_inRequest) {
        refuse(408, "Request Timeout",
               QStringLiteral("the request did not arrive within %1 ms").arg(m_limits.requestTimeoutMs));
        return;
    }
    m_refused = true;
    m_deadline = m_guard->m_clock.elapsed() + m_limits.idleTimeoutMs;
    m_socket->disconnectFromHost();
}

ConnectionScanner::Step ConnectionScanner::refuse(int status, const char *title, const QString &detail)
{
    m_refused = true;
    m_deadline = m_guard->m_clock.elapsed() + m_limits.idleTimeoutMs;
    m_socket->readAll();
    if (m_connection)
        m_connection->refuse(status, QByteArray(title), detail);
    else
        ConnectionGuard::refuse(m_socket, status, QByteArray(title), detail);
    if (m_guard)
        Q_EMIT m_guard->refused(status, detail);
    return Step::Refused;
}

} // namespace retrylab
