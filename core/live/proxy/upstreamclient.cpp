#include "upstreamclient.h"

#include <QTcpSocket>
#include <QVarLengthArray>

#include <algorithm>

namespace retrylab {

namespace {

bool startsWithNoCase(const QByteArray &name, const char *prefix)
{
    return name.size() >= qsizetype(qstrlen(prefix)) && qstrnicmp(name.constData(), prefix, qstrlen(prefix)) == 0;
}

// The options of an answer's Connection fields (lines after the status line), in place: the
// field names they add to the hop-by-hop ones, and whether the connection closes after it.
template <typename Lines, typename Names>
void connectionOptions(const Lines &lines, Names *named, bool *close)
{
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArrayView l = lines[i];
        if (l.size() < 11 || l.first(11).compare(QByteArrayView("connection:"), Qt::CaseInsensitive) != 0)
            continue;
        for (qsizetype from = 11; from <= l.size();) {
            qsizetype comma = l.indexOf(',', from);
            if (comma < 0)
                comma = l.size();
            const QByteArrayView option = l.sliced(from, comma - from).trimmed();
            named->append(option);
            if (option.compare(QByteArrayView("close"), Qt::CaseInsensitive) == 0)
                *close = true;
            else if (option.compare(QByteArrayView("keep-alive"), Qt::CaseInsensitive) == 0)
                *close = false;
            from = comma + 1;
        }
    }
}

} // namespace

bool UpstreamClient::hopByHop(QByteArrayView name)
{
    const auto is = [&name](const char *n) { return name.compare(QByteArrayView(n), Qt::CaseInsensitive) == 0; };
    // By length first: most fields of a request or an answer are none of these.
    switch (name.size()) {
    case 2:
        return is("te");
    case 7:
        return is("trailer") || is("upgrade");
    case 10:
        return is("connection") || is("keep-alive");
    case 17:
        return is("transfer-encoding");
    default:
        break;
    }
    return name.size() >= 6 && name.first(6).compare(QByteArrayView("proxy-"), Qt::CaseInsensitive) == 0;
}

// One request on its way: the bytes to send, the connection, and the answer as it is read.
struct UpstreamClient::Call
{
    QByteArray request;
    bool head = false;
    bool idempotent = false;
    Done done;
    QTcpSocket *socket = nullptr;
    bool reused = false;
    bool gotBytes = false;
    bool resent = false;
    qint64 deadlineMs = 0; // on m_clock
    QByteArray buffer;
    enum class Stage { Head, Length, Chunks, UntilClose } stage = Stage::Head;
    qint64 remaining = 0; // Length: body bytes still due; Chunks: bytes of the current chunk
    bool inChunk = false;
    bool trailers = false;
    bool close = false;
    UpstreamAnswer answer;
};

UpstreamClient::UpstreamClient(const QUrl &upstream, const Limits &limits, QObject *parent)
    : QObject(parent), m_host(upstream.host()), m_port(quint16(upstream.port(80))), m_limits(limits)
{
    m_clock.start();
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &UpstreamClient::expire);
}

UpstreamClient::~UpstreamClient()
{
    abortAll();
}

void UpstreamClient::abortAll()
{
    m_deadline.stop();
    m_carrying.clear();
    std::vector<Call *> calls;
    calls.swap(m_calls);
    for (Call *c : calls) {
        if (c->socket) {
            c->socket->disconnect(this);
            c->socket->abort();
            c->socket->deleteLater();
        }
        delete c;
    }
    m_waiting.clear(); // each waiting call is in m_calls too
    for (QTcpSocket *s : m_idle) {
        s->disconnect(this);
        s->abort();
        s->deleteLater();
    }
    m_idle.clear();
    m_open = 0;
}

void UpstreamClient::discard(QTcpSocket *socket)
{
    // Counted here, not from QObject::destroyed: disconnect(this) would also cut that connection,
    // and a count that never went down would leave every later request waiting for a free one.
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater();
    --m_open;
}

void UpstreamClient::send(const QByteArray &request, bool head, bool idempotent, Done done)
{
    auto *c = new Call;
    c->request = request;
    c->head = head;
    c->idempotent = idempotent;
    c->done = std::move(done);
    c->deadlineMs = m_clock.elapsed() + m_limits.timeoutMs;
    m_calls.push_back(c);
    if (!m_deadline.isActive())
        armDeadline();
    start(c);
}

void UpstreamClient::armDeadline()
{
    if (m_calls.empty())
        return;
    qint64 first = m_calls.front()->deadlineMs;
    for (const Call *c : m_calls)
        first = qMin(first, c->deadlineMs);
    m_deadline.start(int(qBound(qint64(0), first - m_clock.elapsed(), qint64(std::numeric_limits<int>::max()))));
}

void UpstreamClient::expire()
{
    const qint64 now = m_clock.elapsed();
    std::vector<Call *> due;
    for (Call *c : m_calls) {
        if (c->deadlineMs <= now)
            due.push_back(c);
    }
    for (Call *c : due) // fail() calls back, which may finish or abort other calls: each is looked up
        fail(c, ProxyUpstreamOutcome::TimedOut, QStringLiteral("the upstream did not answer within %1 ms").arg(m_limits.timeoutMs));
    if (!m_deadline.isActive())
        armDeadline();
}

void UpstreamClient::start(Call *c)
{
    if (!m_idle.empty()) {
        QTcpSocket *socket = m_idle.back();
        m_idle.pop_back();
        connectCall(c, socket, true);
        return;
    }
    if (m_open >= m_limits.maxConnections) {
        m_waiting.push_back(c);
        return;
    }
    auto *socket = new QTcpSocket(this);
    ++m_open; // until discard()
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onSocketRead(socket); });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] { onSocketGone(socket); });
    connect(socket, &QAbstractSocket::errorOccurred, this,
            [this, socket](QAbstractSocket::SocketError error) { onSocketError(socket, int(error)); });
    connect(socket, &QTcpSocket::connected, this, [this, socket] {
        if (Call *c = callOn(socket)) {
            socket->write(c->request);
            socket->flush();
        }
    });
    connectCall(c, socket, false);
    socket->connectToHost(m_host, m_port);
}

void UpstreamClient::next()
{
    while (!m_waiting.empty() && (!m_idle.empty() || m_open < m_limits.maxConnections)) {
        Call *c = m_waiting.front();
        m_waiting.pop_front();
        start(c);
    }
}

UpstreamClient::Call *UpstreamClient::callOn(QTcpSocket *socket) const
{
    const auto it = m_carrying.find(socket);
    return it == m_carrying.end() ? nullptr : it->second;
}

void UpstreamClient::connectCall(Call *c, QTcpSocket *socket, bool reused)
{
    c->socket = socket;
    c->reused = reused;
    c->gotBytes = false;
    c->buffer.clear();
    c->stage = Call::Stage::Head;
    c->inChunk = c->trailers = c->close = false;
    m_carrying[socket] = c;
    // Sent now rather than from the write notifier on the next turn of the event loop (as
    // HttpConnection does for answers); a new connection sends once connected.
    if (reused) {
        socket->write(c->request);
        socket->flush();
    }
}

void UpstreamClient::onSocketRead(QTcpSocket *socket)
{
    if (Call *c = callOn(socket))
        return onRead(c);
    socket->abort(); // an idle connection sending unasked: gone (onSocketGone)
}

void UpstreamClient::onSocketGone(QTcpSocket *socket)
{
    Call *c = callOn(socket);
    if (!c) { // an idle connection the upstream closed
        m_idle.erase(std::remove(m_idle.begin(), m_idle.end(), socket), m_idle.end());
        discard(socket);
        return next();
    }
    onRead(c); // whatever came with the close
    if (callOn(socket) != c)
        return;
    if (c->stage == Call::Stage::UntilClose)
        return finish(c, false);
    fail(c, ProxyUpstreamOutcome::Unreachable, QStringLiteral("the upstream closed the connection before its answer was complete"));
}

void UpstreamClient::onSocketError(QTcpSocket *socket, int error)
{
    Call *c = callOn(socket);
    if (!c || error == QAbstractSocket::RemoteHostClosedError)
        return; // disconnected() decides
    fail(c, ProxyUpstreamOutcome::Unreachable,
         QStringLiteral("cannot reach the upstream %1:%2: %3").arg(m_host).arg(m_port).arg(socket->errorString()));
}

void UpstreamClient::fail(Call *c, ProxyUpstreamOutcome outcome, const QString &error)
{
    const auto it = std::find(m_calls.begin(), m_calls.end(), c);
    if (it == m_calls.end())
        return;
    // A kept-alive connection the upstream closed meanwhile: nothing of the request was read, so
    // a request that may be sent twice goes again on a fresh connection.
    if (outcome == ProxyUpstreamOutcome::Unreachable && c->reused && !c->gotBytes && c->idempotent && !c->resent) {
        c->resent = true;
        release(c->socket, false);
        c->socket = nullptr;
        return start(c);
    }
    c->answer = UpstreamAnswer();
    c->answer.outcome = outcome;
    c->answer.error = error;
    finish(c, false);
}

void UpstreamClient::release(QTcpSocket *socket, bool keep)
{
    if (!socket)
        return;
    m_carrying.erase(socket);
    if (!keep || socket->state() != QAbstractSocket::ConnectedState) {
        discard(socket);
        return next();
    }
    // Idle: closed by the upstream, or sending unasked, means gone (onSocketGone, onSocketRead).
    m_idle.push_back(socket);
    next();
}

void UpstreamClient::finish(Call *c, bool keep)
{
    const auto it = std::find(m_calls.begin(), m_calls.end(), c);
    if (it == m_calls.end())
        return;
    m_calls.erase(it);
    m_waiting.erase(std::remove(m_waiting.begin(), m_waiting.end(), c), m_waiting.end());
    QTcpSocket *socket = c->socket;
    c->socket = nullptr;
    release(socket, keep && !c->close);
    const Done done = std::move(c->done);
    const UpstreamAnswer answer = std::move(c->answer);
    delete c;
    if (m_calls.empty())
        m_deadline.stop();
    done(answer);
}

UpstreamClient::Step UpstreamClient::failed(Call *c, ProxyUpstreamOutcome outcome, const QString &error)
{
    fail(c, outcome, error);
    return Step::Done;
}

// The head of the answer in the buffer, if whole: its status, its fields, and the framing of
// its body. Go: read on; Wait: more bytes are due; Done: the call failed.
UpstreamClient::Step UpstreamClient::readHead(Call *c)
{
    UpstreamAnswer &a = c->answer;
    const qsizetype end = c->buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (c->buffer.size() > m_limits.maxHeadBytes)
            return failed(c, ProxyUpstreamOutcome::Malformed,
                        QStringLiteral("the upstream's answer head is larger than %1 bytes").arg(m_limits.maxHeadBytes));
        return Step::Wait;
    }
    // The head's lines, looked at in place (a split copied every line of every answer).
    const QByteArray head = c->buffer.left(end);
    c->buffer.remove(0, end + 4);
    QVarLengthArray<QByteArrayView, 32> lines;
    for (qsizetype from = 0;;) {
        const qsizetype nl = head.indexOf('\n', from);
        QByteArrayView line(head.constData() + from, (nl < 0 ? head.size() : nl) - from);
        if (line.endsWith('\r'))
            line.chop(1);
        lines.append(line);
        if (nl < 0)
            break;
        from = nl + 1;
    }
    const QByteArrayView status = lines.first().trimmed();
    const qsizetype sp = status.indexOf(' ');
    const int code = sp > 0 ? status.sliced(sp + 1).first(qMin<qsizetype>(3, status.size() - sp - 1)).toInt() : 0;
    if (!status.startsWith("HTTP/1.") || code < 100 || code > 999)
        return failed(c, ProxyUpstreamOutcome::Malformed,
                    QStringLiteral("the upstream's status line is not HTTP/1.x: %1").arg(QString::fromLatin1(status.first(qMin<qsizetype>(60, status.size())))));
    if (code == 101)
        return failed(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream switched protocols (101): not proxied"));
    if (code < 200)
        return Step::Go; // an interim answer (100 Continue, 103): the final one follows
    a = UpstreamAnswer();
    a.outcome = ProxyUpstreamOutcome::Answered;
    a.status = code;
    a.reason = sp + 5 < status.size() ? status.sliced(sp + 5).toByteArray() : QByteArray();
    c->close = status.startsWith("HTTP/1.0");
    // Connection's options name more hop-by-hop fields: read them first.
    QVarLengthArray<QByteArrayView, 4> named;
    connectionOptions(lines, &named, &c->close);
    const auto isNamed = [&named](QByteArrayView name) {
        for (const QByteArrayView n : named) {
            if (n.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    };
    bool chunked = false;
    bool otherCoding = false;
    qint64 length = -1;
    a.headerLines.reserve(head.size());
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArrayView line = lines[i];
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return failed(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream sent a malformed header line"));
        const QByteArrayView name = line.first(colon);
        const QByteArrayView value = line.sliced(colon + 1).trimmed();
        const auto is = [&name](const char *field) { return name.compare(QByteArrayView(field), Qt::CaseInsensitive) == 0; };
        if (is("transfer-encoding")) {
            const qsizetype comma = value.lastIndexOf(',');
            chunked = value.sliced(comma + 1).trimmed().compare(QByteArrayView("chunked"), Qt::CaseInsensitive) == 0;
            otherCoding = !chunked;
        }
        if (hopByHop(name) || isNamed(name))
            continue;
        if (is("content-length")) {
            bool ok = false;
            const qint64 n = value.toLongLong(&ok);
            if (!ok || n < 0 || (length >= 0 && n != length))
                return failed(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream sent a bad or second Content-Length"));
            length = n;
            a.hasLength = true;
        } else if (is("location")) {
            a.location = value.toByteArray();
        } else if (is("content-type")) {
            a.contentType = value.toByteArray();
        } else if (is("idempotent-replayed")) {
            a.replayed = value.compare(QByteArrayView("true"), Qt::CaseInsensitive) == 0;
        }
        a.headerLines += line;
        a.headerLines += "\r\n";
    }
    if (c->head || code == 204 || code == 304) {
        c->stage = Call::Stage::Length;
        c->remaining = 0;
    } else if (chunked || otherCoding) {
        if (a.hasLength) { // RFC 9112 section 6.3: the coding wins; the length goes
            QByteArray kept;
            for (const QByteArray &l : a.headerLines.split('\n')) {
                if (!l.isEmpty() && !startsWithNoCase(l, "content-length:"))
                    kept += l + '\n';
            }
            a.headerLines = kept;
            a.hasLength = false;
        }
        c->stage = chunked ? Call::Stage::Chunks : Call::Stage::UntilClose;
        c->close = c->close || !chunked;
    } else if (length >= 0) {
        if (length > m_limits.maxAnswerBytes)
            return failed(c, ProxyUpstreamOutcome::Malformed,
                        QStringLiteral("the upstream's answer is larger than %1 bytes").arg(m_limits.maxAnswerBytes));
        c->stage = Call::Stage::Length;
        c->remaining = length;
    } else {
        c->stage = Call::Stage::UntilClose;
        c->close = true;
    }
    return Step::Go;
}

// Reads what has come: the head (skipping 1xx answers), then the body in its framing.
void UpstreamClient::onRead(Call *c)
{
    if (std::find(m_calls.begin(), m_calls.end(), c) == m_calls.end() || !c->socket)
        return;
    if (c->buffer.isEmpty())
        c->buffer = c->socket->readAll(); // the common case: no copy into the buffer
    else
        c->buffer += c->socket->readAll();
    if (c->buffer.isEmpty())
        return;
    c->gotBytes = true;
    UpstreamAnswer &a = c->answer;
    while (c->stage == Call::Stage::Head) {
        const Step step = readHead(c);
        if (step != Step::Go)
            return;
    }
    if (c->stage == Call::Stage::Length) {
        if (c->buffer.size() < c->remaining)
            return;
        a.body = c->buffer.left(c->remaining);
        const bool extra = c->buffer.size() > c->remaining; // bytes nobody asked for: not reused
        return finish(c, !extra);
    }
    if (c->stage == Call::Stage::UntilClose) {
        a.body += c->buffer;
        c->buffer.clear();
        if (a.body.size() > m_limits.maxAnswerBytes)
            return fail(c, ProxyUpstreamOutcome::Malformed,
                        QStringLiteral("the upstream's answer is larger than %1 bytes").arg(m_limits.maxAnswerBytes));
        return; // done when the upstream closes
    }
    readChunks(c);
}

// Chunks: size line, data, CRLF; a zero size, then trailers until an empty line.
void UpstreamClient::readChunks(Call *c)
{
    UpstreamAnswer &a = c->answer;
    for (;;) {
        if (c->inChunk) {
            if (c->buffer.size() < c->remaining + 2)
                return;
            a.body += c->buffer.left(c->remaining);
            c->buffer.remove(0, c->remaining + 2);
            c->inChunk = false;
            if (a.body.size() > m_limits.maxAnswerBytes)
                return fail(c, ProxyUpstreamOutcome::Malformed,
                            QStringLiteral("the upstream's answer is larger than %1 bytes").arg(m_limits.maxAnswerBytes));
            continue;
        }
        const qsizetype nl = c->buffer.indexOf('\n');
        if (nl < 0) {
            if (c->buffer.size() > 4096)
                return fail(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream sent a malformed chunk"));
            return;
        }
        const QByteArray line = c->buffer.left(nl).trimmed();
        c->buffer.remove(0, nl + 1);
        if (c->trailers) {
            if (line.isEmpty())
                return finish(c, c->buffer.isEmpty());
            continue; // trailer fields are not passed on: the answer goes out with a length
        }
        bool ok = false;
        const qint64 size = line.split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0)
            return fail(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream sent a malformed chunk size"));
        if (size == 0) {
            c->trailers = true;
            continue;
        }
        c->remaining = size;
        c->inChunk = true;
    }
}

} // namespace retrylab
