#include "liverun.h"

#include "orderserver.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

namespace retrylab {

namespace {

int scaledMs(int ms, double scale)
{
    return ms <= 0 ? ms : int(std::lround(double(ms) * scale));
}

QString refText(int op)
{
    return QStringLiteral("ORD-%1").arg(op, 4, 10, QLatin1Char('0'));
}

int refOp(const QString &ref)
{
    if (!ref.startsWith(QLatin1String("ORD-")))
        return 0;
    bool ok = false;
    const int op = QStringView(ref).mid(4).toInt(&ok);
    return ok ? op : 0;
}

// The error of a reply that carries no HTTP status, in a few words.
QString networkError(const QNetworkReply *reply)
{
    switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError: return QStringLiteral("connection refused");
    case QNetworkReply::HostNotFoundError: return QStringLiteral("host not found");
    case QNetworkReply::RemoteHostClosedError: return QStringLiteral("the server closed the connection");
    case QNetworkReply::TimeoutError: return QStringLiteral("no answer in time");
    default: return reply->errorString().left(200);
    }
}

// The JSON body of a reply. A reply that did not finish (its transfer timeout aborted it) is closed:
// it has no body, and reading it only warns "QIODevice::read: device not open" on stderr.
QJsonObject replyBody(QNetworkReply *reply)
{
    return reply->isOpen() ? QJsonDocument::fromJson(reply->readAll()).object() : QJsonObject();
}

// A request body that QNetworkAccessManager cannot rewind. When a connection closes before the
// answer, QNAM resends the request on its own, up to twice, POST included: a retry that no layer
// of the scenario made (and a duplicate order after a reset). A body it cannot rewind turns that
// into an error (ContentReSendError), which the client sees as the broken connection it was.
class OneShotBody : public QIODevice
{
public:
    OneShotBody(QByteArray data, QObject *parent) : QIODevice(parent), m_data(std::move(data))
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    qint64 bytesAvailable() const override { return m_data.size() - m_pos + QIODevice::bytesAvailable(); }
    qint64 size() const override { return m_data.size(); }

protected:
    qint64 readData(char *out, qint64 max) override
    {
        const qint64 n = std::min<qint64>(max, m_data.size() - m_pos);
        if (n <= 0)
            return m_pos >= m_data.size() ? -1 : 0;
        std::memcpy(out, m_data.constData() + m_pos, size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_pos = 0;
};

} // namespace

class LiveRunPrivate : public WireTransport
{
public:
    explicit LiveRunPrivate(LiveRun *q) : q(q)
    {
        timer.setSingleShot(true);
        timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&timer, &QTimer::timeout, q, [this] { pump(); });
    }
    ~LiveRunPrivate() override { abortAll(); }

    LiveRun *q;
    Scenario scenario;
    LiveOptions options;
    QUrl base;
    std::unique_ptr<OrderServer> server;
    QNetworkAccessManager nam; // the run's own queries (metrics, records, order tokens)
    // One session per scenario client, as separate processes would have: QNAM keeps at most six
    // connections to a host, so a single one would queue the requests of many clients.
    std::vector<std::unique_ptr<QNetworkAccessManager>> sessions;
    QNetworkAccessManager *session(int client)
    {
        const size_t i = size_t(std::max(0, client)) % MaxSessions;
        if (sessions.size() <= i)
            sessions.resize(i + 1);
        if (!sessions[i]) {
            sessions[i] = std::make_unique<QNetworkAccessManager>();
            if (server)
                sessions[i]->setProxy(QNetworkProxy::NoProxy);
        }
        return sessions[i].get();
    }
    static constexpr size_t MaxSessions = 64;
    std::unique_ptr<SteppedRun> run;
    QTimer timer;
    QElapsedTimer clock;
    QHash<int, QNetworkReply *> inflight;    // attempt id -> its reply
    QList<QPointer<QNetworkReply>> helpers;  // token, metrics and record queries
    Trace serverEvents;
    qint64 serverBaseUs = 0;
    qint64 lastCommitUs = -1;
    bool counting = false; // the records are being counted: the run itself is over
    QJsonObject baseline; // GET /metrics before the run
    RunResult result;
    bool running = false;
    int generation = 0; // a cancel or a new start ignores the callbacks of an older run
    QList<QTimer *> restartTimers;

    qint64 simNow() const { return qint64(double(clock.nsecsElapsed()) / 1000.0 / options.timeScale); }

    QUrl endpoint(const QString &path, const QString &query = QString()) const
    {
        QUrl u = base;
        QString prefix = base.path();
        while (prefix.endsWith(QLatin1Char('/')))
            prefix.chop(1);
        u.setPath(prefix + path);
        u.setQuery(query);
        return u;
    }
    QNetworkRequest request(const QUrl &url) const
    {
        QNetworkRequest r(url);
        r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        r.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
        // One connection per attempt: a fault that closes or resets a connection never meets
        // a later attempt on a reused one.
        r.setRawHeader("Connection", "close");
        return r;
    }

    void start();
    void fail(const QString &error);
    void pump();
    void schedulePump() { timer.start(0); }
    void collect();
    void drain(int generationNow, qint64 deadlineMs, QElapsedTimer waited);
    void countRecords(int generationNow);
    void finish(ServerCounts counts);
    // result.metrics.lastCommitS: only the embedded server's trace tells when it committed;
    // another server's commit times are not on the wire, so there it is unknown.
    void noteLastCommit()
    {
        const bool embedded = options.url.isEmpty();
        result.metrics.lastCommitKnown = embedded;
        result.metrics.lastCommitS = embedded && lastCommitUs >= 0 ? double(lastCommitUs) / 1e6 : 0;
    }
    void abortAll();
    void getJson(const QUrl &url, std::function<void(int, const QJsonObject &, const QString &)> done);

    // WireTransport
    void send(const WireAttempt &a) override;
    void abandon(int id) override;
    void fetchToken(int id, const QString &requestId) override;
    void onReply(int id, QNetworkReply *reply, bool query);

    // The records of the run as GET /orders?ref= reports them (op -> rows).
    QList<RecordRow> rows;
    std::vector<int> perOp;
    int pendingRefs = 0;
};

void LiveRunPrivate::getJson(const QUrl &url, std::function<void(int, const QJsonObject &, const QString &)> done)
{
    QNetworkRequest r = request(url);
    r.setTransferTimeout(10000);
    // GET /metrics answers the Prometheus text format unless JSON is asked for.
    r.setRawHeader("Accept", "application/json");
    QNetworkReply *reply = nam.get(r);
    helpers.append(reply);
    const int gen = generation;
    QObject::connect(reply, &QNetworkReply::finished, q, [this, reply, gen, done] {
        reply->deleteLater();
        if (gen != generation)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status <= 0) {
            done(0, QJsonObject(), networkError(reply));
            return;
        }
        done(status, replyBody(reply), QString());
    });
}

void LiveRunPrivate::start()
{
    counting = false;
    running = true;
    ++generation;
    result = RunResult();
    result.scenario = scenario;
    sessions.clear();
    serverEvents.clear();
    lastCommitUs = -1;
    rows.clear();
    if (scenario.server.model == ServerModel::Occ)
        return fail(QStringLiteral("server.model occ is simulated only: the live order service serves orders "
                                   "(set server.model to orders for a live run)"));
    if (options.url.isEmpty()) {
        // The embedded server runs the scenario's server and faults on the scaled clock: its
        // processing, answer delays, restart down time and key TTL clock.
        ServeOptions serve;
        serve.scenario = scenario;
        serve.timeScale = options.timeScale;
        serve.scenario.server.restartsAtS.clear(); // scheduled below on the scaled clock
        server = std::make_unique<OrderServer>();
        const QString error = server->start(serve);
        if (!error.isEmpty())
            return fail(QStringLiteral("cannot start the embedded order service: %1").arg(error));
        base = server->url();
        nam.setProxy(QNetworkProxy::NoProxy);
        QObject::connect(server.get(), &OrderServer::requestHandled, q, [this](const Trace &events) {
            // The counting queries at the end (GET /orders?ref= per order) are the lab's
            // bookkeeping, not the scenario's: they stay out of the trace.
            if (counting)
                return;
            for (TraceEvent e : events) {
                e.t = qint64(double(e.t - serverBaseUs) / options.timeScale);
                if (e.kind == EventKind::Committed)
                    lastCommitUs = std::max(lastCommitUs, e.t);
                if (options.trace)
                    serverEvents.append(std::move(e));
            }
        });
    } else {
        base = options.url;
    }
    const int gen = generation;
    getJson(endpoint(QStringLiteral("/metrics")), [this, gen](int status, const QJsonObject &o, const QString &error) {
        if (gen != generation)
            return;
        if (status == 0)
            return fail(QStringLiteral("cannot reach %1: %2").arg(base.toString(), error));
        if (status != 200 || !o.contains(QLatin1String("records")))
            return fail(QStringLiteral("%1 is not a RetryLab order service: GET /metrics answered %2 without "
                                       "\"records\"")
                            .arg(base.toString())
                            .arg(status));
        baseline = o;
        RunOptions ro;
        ro.trace = options.trace;
        run = std::make_unique<SteppedRun>(scenario, ro, this);
        if (server)
            serverBaseUs = server->elapsedUs();
        clock.start();
        if (server) {
            for (const int atS : std::as_const(scenario.server.restartsAtS)) {
                auto *t = new QTimer(q);
                t->setSingleShot(true);
                t->setTimerType(Qt::PreciseTimer);
                QObject::connect(t, &QTimer::timeout, q, [this] {
                    if (server)
                        server->restart();
                });
                t->start(int(std::min<double>(double(atS) * 1000.0 * options.timeScale, 2e9)));
                restartTimers.append(t);
            }
        }
        pump();
    });
}

void LiveRunPrivate::fail(const QString &error)
{
    abortAll();
    result = RunResult();
    result.scenario = scenario;
    result.error = error;
    running = false;
    if (server)
        server->stop();
    // Always after start() returned, so a caller connected afterwards hears it.
    QTimer::singleShot(0, q, [this] { Q_EMIT q->finished(); });
}

void LiveRunPrivate::pump()
{
    if (!run || !running)
        return;
    if (!run->advanceTo(simNow())) {
        abortAll();
        result = run->result(ServerCounts());
        noteLastCommit();
        running = false;
        if (server)
            server->stop();
        Q_EMIT q->finished();
        return;
    }
    if (run->clientDone())
        return collect();
    const qint64 next = run->nextDue();
    if (next < 0)
        return; // waiting for an answer (an order token); its reply pumps
    const double waitUs = double(next - simNow()) * options.timeScale;
    timer.start(int(std::clamp(std::ceil(waitUs / 1000.0), 0.0, 2e9)));
}

void LiveRunPrivate::send(const WireAttempt &a)
{
    QNetworkRequest r = request(a.query ? endpoint(QStringLiteral("/orders"), QStringLiteral("ref=") + a.ref)
                                        : endpoint(QStringLiteral("/orders")));
    r.setRawHeader("X-Request-ID", a.requestId.toLatin1());
    r.setRawHeader("X-RetryLab-Attempt", a.path.toLatin1());
    QNetworkReply *reply = nullptr;
    if (a.query) {
        reply = session(a.client)->get(r);
    } else {
        if (!a.key.isEmpty())
            r.setRawHeader("Idempotency-Key", a.key.toLatin1());
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QJsonObject body{{QStringLiteral("ref"), a.ref}, {QStringLiteral("item"), QStringLiteral("book")},
                         {QStringLiteral("qty"), 1}};
        if (a.payloadRevision)
            body.insert(QStringLiteral("revision"), a.payloadRevision); // rebuilt on each retry
        const QByteArray bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
        r.setHeader(QNetworkRequest::ContentLengthHeader, bytes.size());
        r.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
        auto *device = new OneShotBody(bytes, nullptr);
        reply = session(a.client)->post(r, device);
        device->setParent(reply);
    }
    inflight.insert(a.id, reply);
    const int id = a.id;
    const bool query = a.query;
    QObject::connect(reply, &QNetworkReply::finished, q, [this, id, reply, query] { onReply(id, reply, query); });
}

void LiveRunPrivate::onReply(int id, QNetworkReply *reply, bool query)
{
    reply->deleteLater();
    if (inflight.value(id) != reply)
        return; // abandoned
    inflight.remove(id);
    if (!run || !running)
        return;
    WireReply w;
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (status.isValid() && status.toInt() > 0) {
        w.kind = WireReply::Response;
        w.status = status.toInt();
        bool ok = false;
        const int retryAfter = reply->rawHeader("Retry-After").trimmed().toInt(&ok);
        w.retryAfterS = ok && retryAfter >= 0 ? retryAfter : -1;
        w.replayed = reply->rawHeader("Idempotent-Replayed").trimmed().compare("true", Qt::CaseInsensitive) == 0;
        const QJsonObject body = replyBody(reply);
        // The service's typed reason for a spent single-use token (the problem's "cause" member).
        w.tokenUsed = w.status == 409
            && body.value(QLatin1String("cause")).toString() == trace::causeName(TraceCause::TokenUsed);
        const QJsonObject order =
            query ? body.value(QLatin1String("orders")).toArray().at(0).toObject() : body;
        w.record = order.value(QLatin1String("id")).toInt();
    } else {
        switch (reply->error()) {
        case QNetworkReply::OperationCanceledError:
            return; // aborted by us
        case QNetworkReply::ConnectionRefusedError:
        case QNetworkReply::HostNotFoundError:
        case QNetworkReply::ProxyConnectionRefusedError:
        case QNetworkReply::ProxyNotFoundError:
            w.kind = WireReply::Refused; // nothing was sent: safe to retry
            break;
        default:
            w.kind = WireReply::Reset; // the connection broke after the request went out
            break;
        }
    }
    run->reply(id, w, simNow());
    schedulePump();
}

void LiveRunPrivate::abandon(int id)
{
    QNetworkReply *reply = inflight.take(id);
    if (!reply)
        return;
    reply->disconnect(q);
    reply->abort();
    reply->deleteLater();
}

void LiveRunPrivate::fetchToken(int id, const QString &requestId)
{
    QNetworkRequest r = request(endpoint(QStringLiteral("/order-tokens")));
    r.setRawHeader("X-Request-ID", requestId.toLatin1());
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    // Nothing in the engine times this round trip out: the transfer timeout does.
    r.setTransferTimeout(std::max(1, scaledMs(scenario.client.timeoutMs, options.timeScale)));
    QNetworkReply *reply = nam.post(r, QByteArrayLiteral("{}"));
    helpers.append(reply);
    const int gen = generation;
    QObject::connect(reply, &QNetworkReply::finished, q, [this, reply, id, gen] {
        reply->deleteLater();
        if (gen != generation || !run || !running)
            return;
        // Answered: a status, and a body that arrived whole (not aborted by the transfer timeout).
        const int status = reply->isOpen() ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : 0;
        const QString token = status > 0 ? replyBody(reply).value(QLatin1String("token")).toString() : QString();
        if (status == 201 && !token.isEmpty())
            run->tokenIssued(id, token, simNow());
        else
            run->tokenFailed(id, status > 0 ? QStringLiteral("POST /order-tokens answered %1").arg(status)
                                            : networkError(reply),
                             simNow());
        schedulePump();
    });
}

void LiveRunPrivate::collect()
{
    // Every operation is over. Ghost requests may still be on their way (spiked), queued or
    // processing on the server: wait until it holds none (embedded or any RetryLab server:
    // GET /metrics reports them), then count.
    timer.stop();
    QElapsedTimer waited;
    waited.start();
    drain(generation, options.drainMs, waited);
}

void LiveRunPrivate::drain(int gen, qint64 deadlineMs, QElapsedTimer waited)
{
    getJson(endpoint(QStringLiteral("/metrics")), [this, gen, deadlineMs, waited](int status, const QJsonObject &o,
                                                                                   const QString &error) {
        if (gen != generation)
            return;
        if (status != 200)
            return fail(QStringLiteral("the order service stopped answering at the end of the run: %1")
                            .arg(status ? QStringLiteral("GET /metrics answered %1").arg(status) : error));
        const QJsonObject s = o.value(QLatin1String("server")).toObject();
        const bool busy = s.value(QLatin1String("processing")).toInt() > 0
            || s.value(QLatin1String("queued")).toInt() > 0 || s.value(QLatin1String("delayed")).toInt() > 0;
        if (busy && waited.elapsed() < deadlineMs) {
            QTimer::singleShot(5, q, [this, gen, deadlineMs, waited] {
                if (gen == generation)
                    drain(gen, deadlineMs, waited);
            });
            return;
        }
        countRecords(gen);
    });
}

void LiveRunPrivate::countRecords(int gen)
{
    counting = true;
    const int ops = scenario.workload.operations();
    perOp.assign(size_t(ops) + 1, 0);
    rows.clear();
    pendingRefs = ops;
    auto finalCounters = [this, gen] {
        getJson(endpoint(QStringLiteral("/metrics")), [this, gen](int status, const QJsonObject &o, const QString &error) {
            if (gen != generation)
                return;
            if (status != 200)
                return fail(QStringLiteral("the order service stopped answering at the end of the run: %1").arg(error));
            auto delta = [&](const char *name) {
                const QString key = QString::fromLatin1(name);
                return o.value(key).toInteger() - baseline.value(key).toInteger();
            };
            ServerCounts c;
            c.recordsPerOp = perOp;
            c.counters.replays = delta("replays");
            c.counters.conflicts409 = delta("conflicts409");
            c.counters.mismatch422 = delta("mismatch422");
            c.counters.rejected400 = delta("rejected400");
            c.counters.throttled429 = delta("throttled429");
            c.counters.rejected503 = delta("rejected503");
            c.counters.serverErrors = delta("serverErrors");
            std::sort(rows.begin(), rows.end(), [](const RecordRow &a, const RecordRow &b) { return a.id < b.id; });
            c.records = rows;
            finish(std::move(c));
        });
    };
    if (ops == 0)
        return finalCounters();
    for (int op = 1; op <= ops; ++op) {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("ref"), refText(op));
        getJson(endpoint(QStringLiteral("/orders"), query.toString(QUrl::FullyEncoded)),
                [this, gen, op, finalCounters](int status, const QJsonObject &o, const QString &error) {
                    if (gen != generation)
                        return;
                    if (status != 200 && status != 404)
                        return fail(QStringLiteral("cannot count the records of %1: %2")
                                        .arg(refText(op), status ? QStringLiteral("answer %1").arg(status) : error));
                    if (status == 200) {
                        const QJsonArray orders = o.value(QLatin1String("orders")).toArray();
                        perOp[size_t(op)] = std::max(o.value(QLatin1String("count")).toInt(), int(orders.size()));
                        for (int i = 0; options.trace && i < orders.size(); ++i) {
                            const QJsonObject order = orders.at(i).toObject();
                            RecordRow row;
                            row.id = order.value(QLatin1String("id")).toInt();
                            row.ref = order.value(QLatin1String("ref")).toString();
                            row.op = refOp(row.ref);
                            row.requestId = order.value(QLatin1String("requestId")).toString();
                            row.duplicate = i > 0;
                            rows.append(row);
                        }
                    }
                    if (--pendingRefs == 0)
                        finalCounters();
                });
    }
}

// The embedded server numbers its own events: renumbered after the client's, so every id of the
// merged trace is unique, and the two ends of each HTTP attempt (same path and request ID) linked:
// the server's arrival answers the client's send, the client's reception the server's answer.
static void linkServerEvents(Trace &client, Trace &server)
{
    int offset = 0;
    for (const TraceEvent &e : std::as_const(client))
        offset = std::max(offset, e.id);
    QHash<QString, int> sends, answers; // path + request ID -> id
    for (TraceEvent &e : server) {
        e.id += offset;
        if (e.answers != 0)
            e.answers += offset;
        if (e.kind == EventKind::ResponseSent)
            answers.insert(e.path() + QLatin1Char(' ') + e.requestId(), e.id);
    }
    for (TraceEvent &e : client) {
        if (e.kind == EventKind::TransportAttempt || e.kind == EventKind::QuerySent)
            sends.insert(e.path() + QLatin1Char(' ') + e.requestId(), e.id);
        const bool hears = e.kind == EventKind::ResponseReceived || e.kind == EventKind::LateResponse
            || e.kind == EventKind::QueryResult || (e.kind == EventKind::ConnectionReset && e.lane == Lane::Transport);
        if (hears)
            e.answers = answers.value(e.path() + QLatin1Char(' ') + e.requestId(), e.answers);
    }
    for (TraceEvent &e : server) {
        if (e.kind == EventKind::RequestArrived)
            e.answers = sends.value(e.path() + QLatin1Char(' ') + e.requestId(), e.answers);
    }
}

void LiveRunPrivate::finish(ServerCounts counts)
{
    // The embedded server's own trace names each record's key, attempt and commit time.
    QHash<int, const TraceEvent *> commits;
    for (const TraceEvent &e : std::as_const(serverEvents)) {
        if (e.kind == EventKind::Committed && e.record > 0)
            commits.insert(e.record, &e);
    }
    for (RecordRow &row : counts.records) {
        if (const TraceEvent *e = commits.value(row.id)) {
            row.key = e->key();
            row.path = e->path();
            row.t = e->t;
        }
    }
    result = run->result(counts);
    result.scenario = scenario;
    noteLastCommit();
    if (options.trace && !serverEvents.isEmpty()) {
        // One trace: the client's events and the server's, on the run's (scaled) clock.
        Trace merged = result.trace;
        linkServerEvents(merged, serverEvents);
        merged.append(serverEvents);
        std::stable_sort(merged.begin(), merged.end(),
                         [](const TraceEvent &a, const TraceEvent &b) { return a.t < b.t; });
        result.trace = std::move(merged);
    }
    running = false;
    abortAll();
    if (server)
        server->stop();
    Q_EMIT q->finished();
}

void LiveRunPrivate::abortAll()
{
    timer.stop();
    qDeleteAll(restartTimers);
    restartTimers.clear();
    const QList<QNetworkReply *> replies = inflight.values();
    inflight.clear();
    for (QNetworkReply *reply : replies) {
        reply->disconnect(q);
        reply->abort();
        reply->deleteLater();
    }
    for (const QPointer<QNetworkReply> &reply : std::as_const(helpers)) {
        if (reply && reply->isRunning()) {
            reply->disconnect(q);
            reply->abort();
        }
    }
    helpers.clear();
}

LiveRun::LiveRun(QObject *parent) : QObject(parent), d(std::make_unique<LiveRunPrivate>(this)) {}

LiveRun::~LiveRun()
{
    d->abortAll();
    if (d->server)
        d->server->stop();
}

void LiveRun::start(const Scenario &scenario, const LiveOptions &options)
{
    d->abortAll();
    d->scenario = scenario;
    d->options = options;
    if (!(options.timeScale > 0) || !std::isfinite(options.timeScale))
        return d->fail(QStringLiteral("the time scale must be a number above 0"));
    d->start();
}

void LiveRun::cancel()
{
    if (!d->running)
        return;
    ++d->generation;
    d->abortAll();
    d->result = d->run ? d->run->result(ServerCounts()) : RunResult();
    d->noteLastCommit();
    d->result.scenario = d->scenario;
    d->result.cancelled = true;
    d->running = false;
    if (d->server)
        d->server->stop();
    QTimer::singleShot(0, this, [this] { Q_EMIT finished(); });
}

bool LiveRun::isRunning() const
{
    return d->running;
}

QUrl LiveRun::url() const
{
    return d->base;
}

const RunResult &LiveRun::result() const
{
    return d->result;
}

RunResult runLive(const Scenario &scenario, const LiveOptions &options)
{
    LiveRun run;
    QEventLoop loop;
    QObject::connect(&run, &LiveRun::finished, &loop, &QEventLoop::quit);
    run.start(scenario, options);
    loop.exec();
    return run.result();
}

} // namespace retrylab
