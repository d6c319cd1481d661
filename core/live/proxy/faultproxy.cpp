#include "faultproxy.h"

#include "connectionguard.h"
#include "faults.h"
#include "httpconnection.h"
#include "httprequest.h"
#include "metricsformat.h"
#include "upstreamclient.h"

#include <QAbstractHttpServer>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHash>
#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

#include <cmath>
#include <deque>

#include <sys/socket.h>

namespace retrylab {

using namespace faults::shortnames;

namespace {

// Every fault kind a proxy can apply, in the order /metrics lists them.
constexpr FaultKind kProxyFaults[] = {FaultKind::ConnectFailure,        FaultKind::RequestLost,
                                      FaultKind::ResponseLost,          FaultKind::ResetAfterCommit,
                                      FaultKind::LatencySpike,          FaultKind::Server5xxBeforeCommit,
                                      FaultKind::Server5xxAfterCommit,  FaultKind::Throttle429};

// "op7/b2/w1/t3" or "op7#2/b2/w1/t3" (X-RetryLab-Attempt, as the lab's live client sends it):
// the dice and the script then address the attempt as the simulation does.
bool readAttempt(const QByteArray &text, faults::Attempt *a)
{
    const QList<QByteArray> parts = text.split('/');
    if (parts.size() != 4 || !parts[0].startsWith("op"))
        return false;
    const QList<QByteArray> opSub = parts[0].mid(2).split('#');
    if (opSub.size() > 2)
        return false;
    bool ok = false;
    const int op = opSub[0].toInt(&ok);
    a->sub = ok && opSub.size() == 2 ? opSub[1].toInt(&ok) : 1;
    int *fields[] = {&a->b, &a->w, &a->t};
    const char letters[] = "bwt";
    for (int i = 0; i < 3 && ok; ++i) {
        ok = parts[i + 1].startsWith(letters[i]);
        *fields[i] = ok ? parts[i + 1].mid(1).toInt(&ok) : 0;
        ok = ok && *fields[i] >= 1;
    }
    if (!ok || a->sub < 1 || op < 0)
        return false;
    a->op = op; // the lab's own client numbers its orders as the simulation does
    return true;
}

// A JSON number as the ledger names it: %.17g, with whole numbers below 2^53 (every id a
// database counts; -0 keeps its sign) written as integers: the same text without the costly conversion.
QString numberText(double d)
{
    if (d == std::floor(d) && std::fabs(d) < 9007199254740992.0 && !(d == 0 && std::signbit(d)))
        return QString::number(qint64(d));
    return QString::number(d, 'g', 17);
}

// The created resource's id: Location's last path segment, else the JSON answer's "id".
QString resourceIdOf(const QByteArray &location, const QByteArray &body)
{
    if (!location.isEmpty()) {
        QByteArray path = location;
        const qsizetype cut = path.indexOf('?');
        if (cut >= 0)
            path.truncate(cut);
        while (path.endsWith('/'))
            path.chop(1);
        const QByteArray last = path.mid(path.lastIndexOf('/') + 1);
        if (!last.isEmpty())
            return QString::fromUtf8(QByteArray::fromPercentEncoding(last)).left(200);
    }
    if (body.isEmpty() || body.size() > 1024 * 1024)
        return QString();
    const QJsonValue id = QJsonDocument::fromJson(body).object().value(QLatin1String("id"));
    if (id.isString())
        return id.toString().left(200);
    if (id.isDouble())
        return numberText(id.toDouble());
    return QString();
}

// The method and the target of a request line the scanner passed ("POST /orders HTTP/1.1").
void splitLine(const QByteArray &line, QByteArray *method, QByteArray *target)
{
    const qsizetype first = line.indexOf(' ');
    const qsizetype last = line.lastIndexOf(' ');
    *method = first > 0 ? line.left(first) : QByteArray();
    *target = first > 0 && last > first ? line.mid(first + 1, last - first - 1) : QByteArray("/");
}

QByteArray problemJson(int status, const QString &detail, const QString &cause)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("about:blank")},
                  {QStringLiteral("title"), QString::fromLatin1(HttpConnection::reasonPhrase(status))},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("detail"), detail}};
    if (!cause.isEmpty())
        o.insert(QStringLiteral("cause"), cause);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

// One request between its arrival and its end.
struct ProxyCall
{
    ProxyExchange e;
    QPointer<QTcpSocket> socket;
    quint64 slot = 0;
    bool headRequest = false;
    bool clientGone = false;
    bool held = false;      // answered with silence: finished when the client leaves
    bool upstreamBusy = false;
    QByteArray wire;        // the request as it goes to the upstream
    QMetaObject::Connection gone;
};

class ProxyFront;

class FaultProxyPrivate
{
public:
    explicit FaultProxyPrivate(FaultProxy *q) : q(q) {}

    // A request in its turn, from Qt's parser (ProxyFront) or the scanner's (ConnectionGuard).
    void dispatch(const HttpRequest &request, QTcpSocket *socket);
    void handle(const HttpRequest &request, QTcpSocket *socket);
    ProxyCall *newCall(const HttpRequest &request, QTcpSocket *socket, const HttpConnection::Request &head);
    QByteArray composeUpstream(const HttpRequest &request, const ProxyCall &c) const;
    void assignOp(ProxyCall *c);
    quint32 decideFaults(const ProxyCall &c);
    void proceed(ProxyCall *c);
    void admit(ProxyCall *c);
    void forward(ProxyCall *c);
    void onUpstream(quint64 id, const UpstreamAnswer &answer);
    void answerClient(ProxyCall *c, const HttpAnswer &a);
    void answerProblem(ProxyCall *c, int status, const QString &detail, FaultKind cause, bool withCause, int retryAfterS = -1);
    void hold(ProxyCall *c);
    void closeClient(ProxyCall *c, bool reset);
    void finish(ProxyCall *c, ProxyClientOutcome outcome);
    void answerMetrics(QTcpSocket *socket, quint64 slot, const HttpRequest &request);
    qint64 nowUs() const { return clock.nsecsElapsed() / 1000; }
    ProxyCall *call(quint64 id) const { return calls.value(id, nullptr); }

    FaultProxy *q;
    FaultProxy::Options options;
    bool running = false;
    quint16 port = 0;
    QPointer<ConnectionGuard> guard;
    ProxyFront *front = nullptr;
    UpstreamClient *upstream = nullptr;
    QByteArray authority; // the upstream's host[:port] for the Host field
    QElapsedTimer clock;
    faults::Script script;
    std::deque<quint32> forced;
    QHash<quint64, ProxyCall *> calls;
    quint64 lastId = 0;
    struct Group
    {
        int op = 0;
        int arrivals = 0;
    };
    QHash<QString, Group> groups;
    int lastOp = 0;
    QList<ProxyExchange> exchanges;
    ProxyLedger ledger;
    qint64 forwarded = 0;
    qint64 upstreamAnswers = 0;
    qint64 faultCounts[std::size(kProxyFaults)] = {};
    qint64 upstreamErrors[3] = {}; // unreachable, timed out, malformed
    LatencyHistogram upstreamLatency;
    int handling = 0;
    int epoch = 0; // stop() counts up: a timer of an earlier run finds nothing
};

// Qt HTTP Server's framing and parsing (behind the hardened ConnectionGuard) with every request
// handed to the proxy along with its socket.
class ProxyFront : public QAbstractHttpServer
{
public:
    ProxyFront(FaultProxyPrivate *d, QObject *parent) : QAbstractHttpServer(parent), m_d(d) {}
    void detach() { m_d = nullptr; }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        if (!m_d) {
            socket->abort();
            return true;
        }
        m_d->dispatch(HttpRequest::fromQt(request), socket);
        return true;
    }
    void missingHandler(const QHttpServerRequest &, QTcpSocket *socket) override { socket->abort(); }

private:
    FaultProxyPrivate *m_d;
};

void FaultProxyPrivate::dispatch(const HttpRequest &request, QTcpSocket *socket)
{
    ++handling;
    handle(request, socket);
    --handling;
}

void FaultProxyPrivate::handle(const HttpRequest &request, QTcpSocket *socket)
{
    HttpConnection *connection = HttpConnection::of(socket);
    const quint64 slot = connection ? connection->begin() : 0;
    const HttpConnection::Request head = connection ? connection->request(slot) : HttpConnection::Request();
    QByteArray methodName, target;
    splitLine(head.line, &methodName, &target);
    const QByteArray path = target.left(target.indexOf('?') < 0 ? target.size() : target.indexOf('?'));
    const QHttpServerRequest::Method method = request.method;
    if (!options.metricsPath.isEmpty() && path == options.metricsPath
        && (method == QHttpServerRequest::Method::Get || method == QHttpServerRequest::Method::Head))
        return answerMetrics(socket, slot, request);
    ProxyCall *c = newCall(request, socket, head);
    c->slot = slot;
    c->e.faults = decideFaults(*c);
    if (c->e.faults & FConnect) // refused: the rest cannot happen
        c->e.faults = FConnect;
    c->wire = composeUpstream(request, *c);
    calls.insert(c->e.id, c);
    const quint64 id = c->e.id;
    c->gone = QObject::connect(socket, &QTcpSocket::disconnected, q, [this, id] {
        ProxyCall *gone = call(id);
        if (!gone)
            return;
        gone->clientGone = true;
        if (gone->held || !gone->upstreamBusy)
            finish(gone, ProxyClientOutcome::NoAnswer);
    });
    Q_EMIT q->exchangeStarted(c->e);
    proceed(c);
}

ProxyCall *FaultProxyPrivate::newCall(const HttpRequest &request, QTcpSocket *socket,
                                      const HttpConnection::Request &head)
{
    auto *c = new ProxyCall;
    c->socket = socket;
    c->headRequest = head.head;
    ProxyExchange &e = c->e;
    e.id = ++lastId;
    e.receivedUs = nowUs();
    splitLine(head.line, &e.method, &e.target);
    for (const auto &h : request.headers) {
        if (h.first.compare(options.keyHeader, Qt::CaseInsensitive) == 0)
            e.key = h.second.left(options.limits.maxKeyChars);
        else if (h.first.compare("x-request-id", Qt::CaseInsensitive) == 0)
            e.requestId = h.second.left(200);
        else if (h.first.compare("x-retrylab-attempt", Qt::CaseInsensitive) == 0)
            e.attempt = h.second.left(100);
    }
    const QByteArray &body = request.body;
    e.bodyBytes = body.size();
    if (!body.isEmpty())
        e.bodyFingerprint = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex();
    if (!options.orderField.isEmpty() && !body.isEmpty()) {
        const QJsonValue ref = QJsonDocument::fromJson(body).object().value(options.orderField);
        if (ref.isString())
            e.orderRef = ref.toString().left(200);
        else if (ref.isDouble())
            e.orderRef = numberText(ref.toDouble());
    }
    assignOp(c);
    return c;
}

void FaultProxyPrivate::assignOp(ProxyCall *c)
{
    ProxyExchange &e = c->e;
    QString group;
    if (!e.orderRef.isEmpty())
        group = QLatin1String("r:") + e.orderRef;
    else if (!e.key.isEmpty())
        group = QLatin1String("k:") + QString::fromLatin1(e.key);
    else if (ProxyLedger::isRead(e.method))
        return; // a read: op 0, not a logical request
    if (group.isEmpty()) {
        e.op = ++lastOp;
        e.arrival = 1;
        return;
    }
    Group &g = groups[group];
    if (g.op == 0)
        g.op = ++lastOp;
    e.op = g.op;
    e.arrival = ++g.arrivals;
}

quint32 FaultProxyPrivate::decideFaults(const ProxyCall &c)
{
    if (!forced.empty()) {
        const quint32 bit = forced.front();
        forced.pop_front();
        return bit;
    }
    if (!options.faultMethods.contains(c.e.method))
        return 0;
    faults::Attempt a;
    a.op = c.e.op;
    if (c.e.attempt.isEmpty() || !readAttempt(c.e.attempt, &a)) {
        a.sub = a.b = a.w = 1;
        a.t = qMax(1, c.e.arrival);
    }
    const Scenario &s = options.scenario;
    quint32 found = script.empty() ? 0u : script.match(a);
    found |= faults::postNetworkDice(s, a, nowUs());
    found |= faults::serverDice(s, a, nowUs());
    return found & ~quint32(FRestart);
}

QByteArray FaultProxyPrivate::composeUpstream(const HttpRequest &request, const ProxyCall &c) const
{
    const auto &headers = request.headers;
    QList<QByteArray> named; // the fields Connection names are hop-by-hop too
    for (const auto &h : headers) {
        if (h.first.compare("connection", Qt::CaseInsensitive) == 0) {
            for (const QByteArray &o : h.second.split(','))
                named.append(o.trimmed().toLower());
        }
    }
    QByteArray out;
    const QByteArray &body = request.body;
    qsizetype size = c.e.method.size() + c.e.target.size() + authority.size() + body.size() + 64;
    for (const auto &h : headers)
        size += h.first.size() + h.second.size() + 4;
    out.reserve(size); // one allocation for the whole request
    out += c.e.method;
    out += ' ';
    out += c.e.target;
    out += " HTTP/1.1\r\n";
    bool host = false;
    bool via = false;
    for (const auto &h : headers) {
        if (UpstreamClient::hopByHop(h.first) || (!named.isEmpty() && named.contains(h.first.toLower())))
            continue;
        out += h.first;
        out += ": ";
        if (h.first.compare("host", Qt::CaseInsensitive) == 0) {
            host = true;
            out += authority; // the upstream's name, as a gateway sends it
        } else if (h.first.compare("via", Qt::CaseInsensitive) == 0 && !via) {
            via = true;
            out += h.second;
            out += ", 1.1 retrylab"; // RFC 9110 section 7.6.3: a gateway adds itself
        } else {
            out += h.second;
        }
        out += "\r\n";
    }
    if (!host) {
        out += "Host: ";
        out += authority;
        out += "\r\n";
    }
    if (!via)
        out += "Via: 1.1 retrylab\r\n";
    out += "\r\n";
    out += body;
    return out;
}

void FaultProxyPrivate::proceed(ProxyCall *c)
{
    const quint32 f = c->e.faults;
    if (f & FConnect) {
        closeClient(c, false);
        return finish(c, ProxyClientOutcome::Refused);
    }
    if (f & FRequestLost)
        return hold(c);
    if (f & FSpike) {
        // Held before forwarding: the request reaches the upstream late, maybe after its client
        // gave up (the ghost), as the simulated network delays it.
        const quint64 id = c->e.id;
        const int run = epoch;
        c->upstreamBusy = true; // the request is on its way even if the client leaves
        QTimer::singleShot(options.scenario.network.spikeMs, q, [this, id, run] {
            ProxyCall *late = call(id);
            if (late && run == epoch) // not a request of a later start() with the same id
                admit(late);
        });
        return;
    }
    admit(c);
}

void FaultProxyPrivate::admit(ProxyCall *c)
{
    const ServerConfig &sc = options.scenario.server;
    if (c->e.faults & F429) {
        answerProblem(c, 429, QStringLiteral("throttled by retrylab proxy (throttle429): not forwarded"),
                      FaultKind::Throttle429, true, sc.retryAfterS);
        return finish(c, ProxyClientOutcome::Answered);
    }
    if (c->e.faults & F5xxBefore) {
        answerProblem(c, sc.errorStatus, QStringLiteral("answered by retrylab proxy before the upstream (server5xxBeforeCommit): not forwarded"),
                      FaultKind::Server5xxBeforeCommit, true, sc.retryAfterS);
        return finish(c, ProxyClientOutcome::Answered);
    }
    forward(c);
}

void FaultProxyPrivate::forward(ProxyCall *c)
{
    c->upstreamBusy = true;
    c->e.forwardedUs = nowUs();
    ++forwarded;
    const quint64 id = c->e.id;
    upstream->send(c->wire, c->headRequest, ProxyLedger::isRead(c->e.method),
                   [this, id](const UpstreamAnswer &answer) { onUpstream(id, answer); });
    c->wire.clear();
}

void FaultProxyPrivate::onUpstream(quint64 id, const UpstreamAnswer &answer)
{
    ProxyCall *c = call(id);
    if (!c)
        return;
    c->upstreamBusy = false;
    ProxyExchange &e = c->e;
    e.upstream = answer.outcome;
    e.upstreamUs = nowUs();
    if (answer.outcome != ProxyUpstreamOutcome::Answered) {
        ++upstreamErrors[answer.outcome == ProxyUpstreamOutcome::Unreachable ? 0 : answer.outcome == ProxyUpstreamOutcome::TimedOut ? 1 : 2];
        if (c->clientGone)
            return finish(c, ProxyClientOutcome::NoAnswer);
        const int status = answer.outcome == ProxyUpstreamOutcome::TimedOut ? 504 : 502;
        answerProblem(c, status, answer.error, FaultKind::ConnectFailure, false);
        return finish(c, ProxyClientOutcome::Answered);
    }
    ++upstreamAnswers;
    upstreamLatency.observe((e.upstreamUs - e.forwardedUs) * 1000);
    e.upstreamStatus = answer.status;
    e.location = answer.location.left(2048);
    e.resourceId = resourceIdOf(answer.location, answer.body);
    e.replayedHeader = answer.replayed;
    if (c->clientGone)
        return finish(c, ProxyClientOutcome::NoAnswer);
    const ServerConfig &sc = options.scenario.server;
    if (e.faults & F5xxAfter) {
        answerProblem(c, sc.errorStatus, QStringLiteral("the upstream answered %1; retrylab proxy replaced its answer (server5xxAfterCommit)").arg(answer.status),
                      FaultKind::Server5xxAfterCommit, true, sc.retryAfterS);
        return finish(c, ProxyClientOutcome::Answered);
    }
    if (e.faults & FResponseLost)
        return hold(c); // read whole, then dropped: the client waits for its own timeout
    if (e.faults & FReset) {
        closeClient(c, true);
        return finish(c, ProxyClientOutcome::Reset);
    }
    HttpAnswer a;
    a.status = answer.status;
    a.passThrough = true;
    a.reason = answer.reason;
    a.headerLines = answer.headerLines;
    a.addLength = !answer.hasLength && !c->headRequest && answer.status != 204 && answer.status != 304;
    a.body = answer.body;
    answerClient(c, a);
    finish(c, ProxyClientOutcome::Answered);
}

void FaultProxyPrivate::answerClient(ProxyCall *c, const HttpAnswer &a)
{
    if (c->e.client == ProxyClientOutcome::Pending)
        c->e.clientStatus = a.status;
    // Answering may close the connection at once (Connection: close): not the client leaving.
    QObject::disconnect(c->gone);
    if (!c->socket || c->socket->state() != QAbstractSocket::ConnectedState)
        return;
    if (HttpConnection *connection = HttpConnection::of(c->socket))
        connection->answer(c->slot, a);
}

void FaultProxyPrivate::answerProblem(ProxyCall *c, int status, const QString &detail, FaultKind cause, bool withCause,
                                      int retryAfterS)
{
    HttpAnswer a;
    a.status = status;
    a.contentType = "application/problem+json";
    a.body = problemJson(status, detail, withCause ? scenario::toString(cause) : QString());
    a.requestId = c->e.requestId;
    a.retryAfterS = retryAfterS;
    answerClient(c, a);
}

void FaultProxyPrivate::hold(ProxyCall *c)
{
    c->held = true;
    if (c->clientGone)
        finish(c, ProxyClientOutcome::NoAnswer);
}

void FaultProxyPrivate::closeClient(ProxyCall *c, bool reset)
{
    QObject::disconnect(c->gone); // the close below is the proxy's, not the client leaving
    if (!c->socket)
        return;
    if (reset) {
        // SO_LINGER 0: the close sends a RST, as a crashed peer or a middlebox would.
        const qintptr fd = c->socket->socketDescriptor();
        struct linger now = {1, 0};
        if (fd >= 0)
            ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &now, sizeof now);
        c->socket->abort();
    } else {
        c->socket->disconnectFromHost(); // closed without a word
    }
}

void FaultProxyPrivate::finish(ProxyCall *c, ProxyClientOutcome outcome)
{
    QObject::disconnect(c->gone);
    calls.remove(c->e.id);
    ProxyExchange &e = c->e;
    // An answer to a client that has left is no answer it saw.
    e.client = outcome == ProxyClientOutcome::Answered && c->clientGone ? ProxyClientOutcome::NoAnswer : outcome;
    if (e.client != ProxyClientOutcome::Answered)
        e.clientStatus = 0;
    e.finishedUs = nowUs();
    for (size_t i = 0; i < std::size(kProxyFaults); ++i)
        faultCounts[i] += (e.faults & faults::bit(kProxyFaults[i])) ? 1 : 0;
    ledger.add(e);
    exchanges.append(e);
    if (exchanges.size() > options.maxExchanges)
        exchanges.removeFirst();
    const ProxyExchange done = e;
    delete c;
    Q_EMIT q->exchangeFinished(done);
}

void FaultProxyPrivate::answerMetrics(QTcpSocket *socket, quint64 slot, const HttpRequest &request)
{
    HttpAnswer a;
    if (prefersJson(request.value("accept"))) {
        a.contentType = "application/json";
        a.body = QJsonDocument(q->metricsJson()).toJson(QJsonDocument::Compact);
    } else {
        a.contentType = "text/plain; version=0.0.4; charset=utf-8";
        a.body = q->metricsText();
    }
    if (HttpConnection *connection = HttpConnection::of(socket))
        connection->answer(slot, a);
}

// ---- FaultProxy ----

Scenario FaultProxy::Options::noFaults()
{
    Scenario s;
    s.name = QStringLiteral("proxy");
    s.network = NetworkConfig();
    s.network.latencyMs = Distribution{0, 0};
    s.server.error5xxBeforeCommit = s.server.error5xxAfterCommit = s.server.throttle429 = 0;
    return s;
}

ServeLimits FaultProxy::Options::proxyLimits()
{
    ServeLimits l;
    l.maxBodyBytes = 1024 * 1024;
    l.maxUnsentBytes = 1024 * 1024;
    return l;
}

FaultProxy::FaultProxy(QObject *parent) : QObject(parent), d(new FaultProxyPrivate(this)) {}

FaultProxy::~FaultProxy()
{
    stop();
}

QString FaultProxy::start(const Options &options)
{
    stop();
    const QUrl &u = options.upstream;
    if (!u.isValid() || u.scheme() != QLatin1String("http") || u.host().isEmpty() || (!u.path().isEmpty() && u.path() != QLatin1String("/"))
        || u.hasQuery() || !u.userInfo().isEmpty())
        return QStringLiteral("upstream: expected http://host:port without a path, got '%1'").arg(u.toDisplayString().left(200));
    if (options.maxExchanges < 1 || options.upstreamTimeoutMs < 1 || options.maxAnswerBytes < 1)
        return QStringLiteral("maxExchanges, upstreamTimeoutMs and maxAnswerBytes must be positive");
    d->options = options;
    d->authority = u.host(QUrl::FullyEncoded).toLatin1();
    if (u.host().contains(QLatin1Char(':')))
        d->authority = '[' + d->authority + ']';
    if (u.port() > 0)
        d->authority += ':' + QByteArray::number(u.port());
    d->script = faults::Script(options.scenario.network.script);
    QString listenError;
    ConnectionGuard *guard = ConnectionGuard::open(options.limits, options.listen, options.port, &listenError);
    if (!guard)
        return listenError;
    d->guard = guard;
    d->port = guard->serverPort();
    d->front = new ProxyFront(d.get(), this);
    d->front->bind(guard);
    // The plain requests skip Qt's parser, which reads a byte per call (as serve's do).
    guard->dispatchWhileRunning(d.get());
    UpstreamClient::Limits limits;
    limits.timeoutMs = options.upstreamTimeoutMs;
    limits.maxAnswerBytes = options.maxAnswerBytes;
    d->upstream = new UpstreamClient(u, limits, this);
    d->exchanges.clear();
    d->ledger = ProxyLedger();
    d->groups.clear();
    d->lastOp = 0;
    d->lastId = 0;
    d->forwarded = d->upstreamAnswers = 0;
    std::fill(std::begin(d->faultCounts), std::end(d->faultCounts), 0);
    std::fill(std::begin(d->upstreamErrors), std::end(d->upstreamErrors), 0);
    d->upstreamLatency.clear();
    d->clock.start();
    d->running = true;
    Q_EMIT started(url());
    return QString();
}

void FaultProxy::stop()
{
    if (!d->running)
        return;
    d->running = false;
    ++d->epoch;
    d->upstream->abortAll();
    // Whatever is still held or in flight ends as it stands: its client got no answer.
    const QList<ProxyCall *> open = d->calls.values();
    std::vector<ProxyCall *> ordered(open.begin(), open.end());
    std::sort(ordered.begin(), ordered.end(), [](const ProxyCall *a, const ProxyCall *b) { return a->e.id < b->e.id; });
    for (ProxyCall *c : ordered)
        d->finish(c, ProxyClientOutcome::NoAnswer);
    if (d->guard) {
        d->guard->abortAll();
        d->guard->close();
    }
    d->front->detach();
    if (d->handling > 0)
        d->front->deleteLater();
    else
        delete d->front;
    d->front = nullptr;
    delete d->upstream;
    d->upstream = nullptr;
    d->forced.clear();
    Q_EMIT stopped();
}

bool FaultProxy::isRunning() const { return d->running; }
quint16 FaultProxy::port() const { return d->running ? d->port : 0; }
const FaultProxy::Options &FaultProxy::options() const { return d->options; }
const QList<ProxyExchange> &FaultProxy::exchanges() const { return d->exchanges; }
int FaultProxy::pending() const { return int(d->calls.size()); }
const ProxyLedger &FaultProxy::ledger() const { return d->ledger; }
qint64 FaultProxy::elapsedUs() const { return d->clock.isValid() ? d->nowUs() : 0; }

QUrl FaultProxy::url() const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    const QHostAddress a = d->options.listen;
    const bool any = a == QHostAddress::Any || a == QHostAddress::AnyIPv4;
    u.setHost(any ? QStringLiteral("127.0.0.1") : (a == QHostAddress::AnyIPv6 ? QStringLiteral("::1") : a.toString()));
    u.setPort(port());
    return u;
}

void FaultProxy::forceNext(FaultKind kind)
{
    if (kind != FaultKind::ServerRestart)
        d->forced.push_back(faults::bit(kind));
}

QJsonObject FaultProxy::metricsJson() const
{
    QJsonObject faultsJson;
    for (size_t i = 0; i < std::size(kProxyFaults); ++i)
        faultsJson.insert(scenario::toString(kProxyFaults[i]), double(d->faultCounts[i]));
    const QJsonObject proxy{{QStringLiteral("upstream"), d->options.upstream.toString()},
                            {QStringLiteral("uptimeS"), double(elapsedUs()) / 1e6},
                            {QStringLiteral("pending"), pending()},
                            {QStringLiteral("forwarded"), double(d->forwarded)},
                            {QStringLiteral("upstreamAnswers"), double(d->upstreamAnswers)},
                            {QStringLiteral("faults"), faultsJson},
                            {QStringLiteral("upstreamErrors"),
                             QJsonObject{{QStringLiteral("unreachable"), double(d->upstreamErrors[0])},
                                         {QStringLiteral("timedOut"), double(d->upstreamErrors[1])},
                                         {QStringLiteral("malformed"), double(d->upstreamErrors[2])}}}};
    return QJsonObject{{QStringLiteral("proxy"), proxy}, {QStringLiteral("ledger"), d->ledger.totalsJson()}};
}

QByteArray FaultProxy::metricsText() const
{
    QByteArray out;
    const ProxyLedger::Totals t = d->ledger.totals();
    appendPrometheusFamily(out, "retrylab_proxy_exchanges_total", "counter", "Requests finished through the proxy.");
    appendPrometheusSample(out, "retrylab_proxy_exchanges_total", double(t.exchanges));
    appendPrometheusFamily(out, "retrylab_proxy_forwarded_total", "counter", "Requests sent to the upstream.");
    appendPrometheusSample(out, "retrylab_proxy_forwarded_total", double(d->forwarded));
    appendPrometheusFamily(out, "retrylab_proxy_faults_total", "counter", "Finished requests a fault struck, by fault.");
    for (size_t i = 0; i < std::size(kProxyFaults); ++i)
        appendPrometheusSample(out, "retrylab_proxy_faults_total{fault=\"" + scenario::toString(kProxyFaults[i]).toLatin1() + "\"}",
                               double(d->faultCounts[i]));
    appendPrometheusFamily(out, "retrylab_proxy_upstream_errors_total", "counter", "Requests without an upstream answer (502, 504).");
    const char *outcomes[] = {"unreachable", "timedOut", "malformed"};
    for (int i = 0; i < 3; ++i)
        appendPrometheusSample(out, QByteArray("retrylab_proxy_upstream_errors_total{outcome=\"") + outcomes[i] + "\"}",
                               double(d->upstreamErrors[i]));
    const auto gauge = [&out](const char *name, const char *help, double value) {
        appendPrometheusFamily(out, name, "gauge", help);
        appendPrometheusSample(out, name, value);
    };
    gauge("retrylab_proxy_pending", "Requests in flight or held.", pending());
    gauge("retrylab_proxy_logical_requests", "Logical requests (by order field, key, or alone).", double(t.logicalRequests));
    gauge("retrylab_proxy_created", "Distinct resources the upstream created (2xx answers with an id).", double(t.created));
    gauge("retrylab_proxy_duplicates", "Resources beyond the first of their logical request.", double(t.duplicates));
    gauge("retrylab_proxy_orphans", "Logical requests committed upstream whose client saw only failures.", double(t.orphans));
    appendPrometheusHistogram(out, "retrylab_proxy_upstream_duration_seconds",
                              "From forwarding a request to reading the upstream's whole answer.", d->upstreamLatency);
    return out;
}

} // namespace retrylab
