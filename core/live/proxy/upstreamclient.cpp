#include "upstreamclient.h"

#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

namespace retrylab {

namespace {

bool startsWithNoCase(const QByteArray &name, const char *prefix)
{
    return name.size() >= qsizetype(qstrlen(prefix)) && qstrnicmp(name.constData(), prefix, qstrlen(prefix)) == 0;
}

} // namespace

bool UpstreamClient::hopByHop(const QByteArray &name)
{
    static const char *const names[] = {"connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"};
    for (const char *n : names) {
        if (name.compare(n, Qt::CaseInsensitive) == 0)
            return true;
    }
    return startsWithNoCase(name, "proxy-");
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
    QTimer timer;
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
}

UpstreamClient::~UpstreamClient()
{
    abortAll();
}

void UpstreamClient::abortAll()
{
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
    for (Call *c : m_waiting)
        delete c;
    m_waiting.clear();
    for (QTcpSocket *s : m_idle) {
        s->disconnect(this);
        s->abort();
        s->deleteLater();
    }
    m_idle.clear();
}

void UpstreamClient::send(const QByteArray &request, bool head, bool idempotent, Done done)
{
    auto *c = new Call;
    c->request = request;
    c->head = head;
    c->idempotent = idempotent;
    c->done = std::move(done);
    c->timer.setSingleShot(true);
    c->timer.setInterval(m_limits.timeoutMs);
    connect(&c->timer, &QTimer::timeout, this, [this, c] {
        fail(c, ProxyUpstreamOutcome::TimedOut,
             QStringLiteral("the upstream did not answer within %1 ms").arg(m_limits.timeoutMs));
    });
    c->timer.start();
    m_calls.push_back(c);
    start(c);
}

void UpstreamClient::start(Call *c)
{
    if (!m_idle.empty()) {
        QTcpSocket *socket = m_idle.back();
        m_idle.pop_back();
        socket->disconnect(this);
        connectCall(c, socket, true);
        return;
    }
    if (m_open >= m_limits.maxConnections) {
        m_waiting.push_back(c);
        return;
    }
    auto *socket = new QTcpSocket(this);
    ++m_open;
    connect(socket, &QObject::destroyed, this, [this] {
        --m_open;
        next();
    });
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
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

void UpstreamClient::connectCall(Call *c, QTcpSocket *socket, bool reused)
{
    c->socket = socket;
    c->reused = reused;
    c->gotBytes = false;
    c->buffer.clear();
    c->stage = Call::Stage::Head;
    c->inChunk = c->trailers = c->close = false;
    connect(socket, &QTcpSocket::readyRead, this, [this, c] { onRead(c); });
    connect(socket, &QTcpSocket::disconnected, this, [this, c] {
        onRead(c); // whatever came with the close
        if (std::find(m_calls.begin(), m_calls.end(), c) == m_calls.end())
            return;
        if (c->stage == Call::Stage::UntilClose)
            return finish(c, false);
        fail(c, ProxyUpstreamOutcome::Unreachable, QStringLiteral("the upstream closed the connection before its answer was complete"));
    });
    connect(socket, &QAbstractSocket::errorOccurred, this, [this, c](QAbstractSocket::SocketError error) {
        if (error == QAbstractSocket::RemoteHostClosedError)
            return; // disconnected() decides
        fail(c, ProxyUpstreamOutcome::Unreachable,
             QStringLiteral("cannot reach the upstream %1:%2: %3").arg(m_host).arg(m_port).arg(c->socket->errorString()));
    });
    // Sent now rather than from the write notifier on the next turn of the event loop (as
    // HttpConnection does for answers).
    const auto write = [c] {
        c->socket->write(c->request);
        c->socket->flush();
    };
    if (reused)
        write();
    else
        connect(socket, &QTcpSocket::connected, this, write);
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
    socket->disconnect(this);
    if (!keep || socket->state() != QAbstractSocket::ConnectedState) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    // Idle: closed by the upstream (or sending unasked) means gone.
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        m_idle.erase(std::remove(m_idle.begin(), m_idle.end(), socket), m_idle.end());
        socket->disconnect(this);
        socket->deleteLater();
    });
    connect(socket, &QTcpSocket::readyRead, this, [socket] { socket->abort(); });
    m_idle.push_back(socket);
    next();
}

void UpstreamClient::finish(Call *c, bool keep)
{
    const auto it = std::find(m_calls.begin(), m_calls.end(), c);
    if (it == m_calls.end())
        return;
    m_calls.erase(it);
    c->timer.stop();
    QTcpSocket *socket = c->socket;
    c->socket = nullptr;
    release(socket, keep && !c->close);
    const Done done = std::move(c->done);
    const UpstreamAnswer answer = std::move(c->answer);
    delete c;
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
    const QList<QByteArray> lines = c->buffer.left(end).split('\n');
    c->buffer.remove(0, end + 4);
    const QByteArray status = lines.first().trimmed();
    const qsizetype sp = status.indexOf(' ');
    const int code = sp > 0 ? status.mid(sp + 1, 3).toInt() : 0;
    if (!status.startsWith("HTTP/1.") || code < 100 || code > 999)
        return failed(c, ProxyUpstreamOutcome::Malformed,
                    QStringLiteral("the upstream's status line is not HTTP/1.x: %1").arg(QString::fromLatin1(status.left(60))));
    if (code == 101)
        return failed(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream switched protocols (101): not proxied"));
    if (code < 200)
        return Step::Go; // an interim answer (100 Continue, 103): the final one follows
    a = UpstreamAnswer();
    a.outcome = ProxyUpstreamOutcome::Answered;
    a.status = code;
    a.reason = status.mid(sp + 5);
    c->close = status.startsWith("HTTP/1.0");
    // Connection's options name more hop-by-hop fields: read them first.
    QList<QByteArray> named;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &l = lines[i];
        if (startsWithNoCase(l, "connection:")) {
            for (const QByteArray &o : l.mid(11).split(',')) {
                const QByteArray option = o.trimmed().toLower();
                named.append(option);
                if (option == "close")
                    c->close = true;
                else if (option == "keep-alive")
                    c->close = false;
            }
        }
    }
    bool chunked = false;
    bool otherCoding = false;
    qint64 length = -1;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QByteArray line = lines[i];
        if (line.endsWith('\r'))
            line.chop(1);
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return failed(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream sent a malformed header line"));
        const QByteArray name = line.left(colon);
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0) {
            const QByteArray last = value.split(',').last().trimmed();
            chunked = last.compare("chunked", Qt::CaseInsensitive) == 0;
            otherCoding = !chunked;
        }
        if (hopByHop(name) || named.contains(name.toLower()))
            continue;
        if (name.compare("content-length", Qt::CaseInsensitive) == 0) {
            bool ok = false;
            const qint64 n = value.toLongLong(&ok);
            if (!ok || n < 0 || (length >= 0 && n != length))
                return failed(c, ProxyUpstreamOutcome::Malformed, QStringLiteral("the upstream sent a bad or second Content-Length"));
            length = n;
            a.hasLength = true;
        } else if (name.compare("location", Qt::CaseInsensitive) == 0) {
            a.location = value;
        } else if (name.compare("content-type", Qt::CaseInsensitive) == 0) {
            a.contentType = value;
        } else if (name.compare("idempotent-replayed", Qt::CaseInsensitive) == 0) {
            a.replayed = value.compare("true", Qt::CaseInsensitive) == 0;
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
    const QByteArray bytes = c->socket->readAll();
    if (bytes.isEmpty() && c->buffer.isEmpty())
        return;
    c->gotBytes = true;
    c->buffer += bytes;
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
