#include "orderserver.h"

#include "faults.h"

#include "adminaccess.h"
#include "adminroutes.h"
#include "idempotencykey.h"
#include "metricsformat.h"
#include "metricsroutes.h"
#include "problemanswer.h"
#include "connectionguard.h"
#include "httpconnection.h"
#include "httprequest.h"
#include "orderpayload.h"
#include "orderservice.h"
#include "orderstore.h"
#include "rng.h"
#include "server/serverpipeline.h"
#include "server/serverwords.h"

#include <QAbstractHttpServer>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMetaMethod>
#include <QPointer>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>

#include <atomic>
#include <charconv>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include <sys/socket.h>

namespace retrylab {

namespace {

constexpr qint64 kMs = 1000;
// Tables are sized for this many keys (and twice as many orders) up front: doubling a hash table
// of a few hundred thousand entries stalls every connection for tens of milliseconds, which set
// the p99 latency under load. Costs about 10 MB; the order vector's part is only reserved address
// space until orders fill it.
constexpr size_t kReservedKeys = size_t(1) << 19;

using namespace faults::shortnames;

// "op7/b2/w1/t3" or "op7#2/b2/w1/t3" (a double submit).
bool parseAttempt(const QByteArray &text, int *op, int *sub, int *b, int *w, int *t)
{
    const QList<QByteArray> seg = text.split('/');
    if (seg.size() != 4 || !seg[0].startsWith("op"))
        return false;
    QByteArray first = seg[0].mid(2);
    *sub = 1;
    const int hash = int(first.indexOf('#'));
    bool ok = true;
    if (hash >= 0) {
        *sub = first.mid(hash + 1).toInt(&ok);
        if (!ok || *sub < 1)
            return false;
        first.truncate(hash);
    }
    *op = first.toInt(&ok);
    if (!ok || *op < 0)
        return false;
    int *out[3] = {b, w, t};
    const char letters[3] = {'b', 'w', 't'};
    for (int i = 0; i < 3; ++i) {
        const QByteArray &s = seg[i + 1];
        if (s.size() < 2 || s.at(0) != letters[i])
            return false;
        *out[i] = s.mid(1).toInt(&ok);
        if (!ok || *out[i] < 1)
            return false;
    }
    return true;
}

// A JSON string literal, quotes included, written at `out`, which has room for 2 + 6 * size
// bytes; returns its end. Runs without anything to escape are copied at once.
char *writeJsonString(char *out, const char *p, qsizetype n)
{
    *out++ = '"';
    qsizetype from = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const uchar u = uchar(p[i]);
        if (u >= 0x20 && u != '"' && u != '\\')
            continue;
        std::memcpy(out, p + from, size_t(i - from));
        out += i - from;
        from = i + 1;
        if (u == '"' || u == '\\') {
            *out++ = '\\';
            *out++ = char(u);
        } else {
            static const char hex[] = "0123456789abcdef";
            const char escaped[] = {'\\', 'u', '0', '0', hex[u >> 4], hex[u & 15]};
            std::memcpy(out, escaped, 6);
            out += 6;
        }
    }
    std::memcpy(out, p + from, size_t(n - from));
    out += n - from;
    *out++ = '"';
    return out;
}

void appendJsonString(QByteArray &out, const QByteArray &utf8)
{
    const qsizetype at = out.size();
    out.resize(at + 2 + 6 * utf8.size());
    out.resize(writeJsonString(out.data() + at, utf8.constData(), utf8.size()) - out.constData());
}

bool visibleAscii(const QByteArray &text)
{
    for (const char c : text) {
        if (uchar(c) < 0x21 || uchar(c) > 0x7e)
            return false;
    }
    return true;
}

// ?name=N of GET /orders: `fallback` when absent; a message naming it when not a whole number in range.
int queryNumber(const QUrlQuery &query, const QString &name, int min, int max, int fallback, QString *error)
{
    if (!query.hasQueryItem(name))
        return fallback;
    const QString text = query.queryItemValue(name, QUrl::FullyDecoded);
    bool ok = false;
    const qint64 n = text.toLongLong(&ok);
    if (!ok || n < min || n > max) {
        if (error->isEmpty())
            *error = QStringLiteral("?%1= expects a whole number from %2 to %3, got '%4'")
                             .arg(name).arg(min).arg(max).arg(text.left(20));
        return fallback;
    }
    return int(n);
}

} // namespace

Scenario ServeOptions::defaultScenario()
{
    Scenario s;
    s.name = QStringLiteral("serve");
    s.server.processingMs = {0, 0};
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    s.network.latencyMs = {0, 0};
    return s;
}

// One POST /orders or GET /orders?ref= from arrival to its answer (or its loss): the request as
// the server pipeline sees it, and what the HTTP side keeps of it.
struct Call : ServerRequest
{
    QPointer<QTcpSocket> socket;
    QByteArray ref, key, requestId, body;
    QString path;
    quint64 slot = 0;   // its place in the connection's answer order (HttpConnection::begin)
    quint64 serial = 0; // tells a timer's call from a later one at the same address
    int generation = 0; // OrderServerPrivate::epoch when a delayed status query was read
    bool close = false;
    bool keyRowReserved = false;
    bool due = false;        // waits in OrderServerPrivate::dueCalls for its group commit
    bool written = false;    // its rows are in the group commit's transaction (prepared, below)
    OrderStore::CommitResult prepared = OrderStore::CommitResult::Failed; // what the group commit gave it
    int pendingRecord = 0;   // the id persist() wrote
    QByteArray answerBody;   // what the answer carries
    bool answerProblem = false; // application/problem+json
    QList<QByteArray> found; // a status query's orders (one page)
    qint64 arrivedNs = 0;    // on the trace clock: the latency histogram's start
    int after = 0;           // a status query's page: orders with an id above this
    int limit = 100;         // at most this many
    qint64 total = 0;        // orders of the reference in all
    int nextAfter = 0;       // the cursor of the next page, 0: the last page
    Trace events;
};

class HttpFront;

// An order a group commit wrote, as the service learns it should its request be dropped first.
struct WrittenOrder
{
    StoredRecord record;
    quint64 fingerprint = 0;
    int keyStatus = 0; // 0: no key row
};

class OrderServerPrivate final : private ServerHost
{
public:
    explicit OrderServerPrivate(OrderServer *q) : q(q)
    {
        // A zero timer, not a posted call: posting wakes the event loop through a file
        // descriptor (two system calls per batch), a timer due now only makes its next poll not wait.
        batchTimer.setSingleShot(true);
        batchTimer.setInterval(0);
        QObject::connect(&batchTimer, &QTimer::timeout, q, [this] { commitDue(); });
    }

    OrderServer *q;
    ServeOptions options;
    Scenario scenario;
    bool running = false;
    bool isDown = false;
    quint16 port = 0;
    QByteArray adminToken;
    OrderServer::Loaded loaded; // what loadStore() found
    HttpFront *http = nullptr;
    QPointer<ConnectionGuard> guard;
    OrderStore store;
    std::unique_ptr<OrderService> service;
    bool keysInDb = true;
    QElapsedTimer clock;
    qint64 epochBaseUs = 0;
    qint64 clockOffsetUs = 0;
    double timeScale = 1.0;
    int epoch = 0; // a restart, stop or reset: timers of an older one do nothing
    std::unique_ptr<ServerPipeline> pipeline; // admission, queue, processing, commit, answer, restart
    std::unordered_map<quint64, Call *> delayed; // spiked requests still on the wire, by serial
    // Group commit: requests whose processing ended, by serial, in the order they ended; the
    // turn's batch commits them in one transaction (commitDue) before any of them is answered.
    std::unordered_map<quint64, Call *> dueCalls;
    std::vector<quint64> dueOrder;
    bool batchPosted = false;
    QTimer batchTimer; // runs commitDue() once the event loop has read what the last poll found
    qint64 frozenNowUs = -1; // the service clock while a batch commits: one time for its rows and its keys
    int storeGeneration = 0; // a reset empties the store: a batch committed before it is gone
    faults::Script script;
    QHash<QByteArray, quint64> keyIds;
    quint64 nextKeyId = 1;
    QHash<QByteArray, int> refOps;
    int nextRefOp = 100000000;
    std::unordered_map<int, int> arrivals; // op -> POSTs seen (attempt number without a header)
    std::unordered_map<quint64, QByteArray> memoryErrorBodies; // stored error responses, memory key store
    quint64 minted = 0;
    quint64 calls = 0;
    int handling = 0; // depth of HttpFront::handleRequest: stop() inside it must not delete the front
    quint64 slot = 0; // the answer place of the request being handled (0: none)
    QByteArray mintPrefix;
    QList<QTimer *> restartTimers;
    int lastEventId = 0; // ids of the Watch trace's events (trace.h)
    // counters since start-up besides the pipeline's (records and duplicates come from the store)
    qint64 httpAttempts = 0, malformed400 = 0;
    LatencyHistogram latency; // arrival to answer of what the pipeline answers

    bool tracing() const override
    {
        // Asked about ten times per order; QObject::isSignalConnected takes a lock each time
        // (about 500 instructions per order in all). A connection or disconnection of the signal
        // forgets the answer (OrderServer::connectNotify); a receiver destroyed without one leaves
        // it true, which costs only the work of a trace nobody reads.
        if (!tracingKnown.load(std::memory_order_acquire)) {
            static const QMetaMethod signal = QMetaMethod::fromSignal(&OrderServer::requestHandled);
            tracingKnown.store(true, std::memory_order_release);
            tracingOn = q->isSignalConnected(signal);
        }
        return tracingOn;
    }
    mutable std::atomic<bool> tracingKnown{false};
    mutable bool tracingOn = false;
    // Service time (key TTLs): wall-clock microseconds at start, then real time / timeScale.
    qint64 nowUs() const
    {
        if (frozenNowUs >= 0)
            return frozenNowUs;
        return epochBaseUs + qint64(double(clock.nsecsElapsed() / 1000) / timeScale) + clockOffsetUs;
    }
    qint64 scaled(qint64 simulatedUs) const { return qint64(double(simulatedUs) * timeScale); }
    qint64 traceUs() const { return clock.nsecsElapsed() / 1000; }
    // The scenario's clock (fault windows): real time since start / timeScale.
    qint64 scenarioUs() const { return qint64(double(traceUs()) / timeScale); }

    // What one process holds besides the store: the service, interned keys and references, and
    // the counters of /metrics. start() and reset() begin from here.
    void forgetProcessState()
    {
        service = std::make_unique<OrderService>(scenario.server);
        service->reserve(kReservedKeys, 2 * kReservedKeys);
        if (pipeline) {
            pipeline->setService(*service); // the ids of Committed events go on with the trace's numbering
        } else {
            ServerPipeline::Options o;
            o.answerBeforeRelease = true;
            o.fillFreeSlots = true;
            ServerHost &host = *this;
            pipeline = std::make_unique<ServerPipeline>(scenario, *service, host, o);
        }
        keyIds.clear();
        keyIds.reserve(qsizetype(kReservedKeys));
        nextKeyId = 1;
        refOps.clear();
        nextRefOp = 100000000;
        arrivals.clear();
        arrivals.reserve(kReservedKeys); // one entry per reference: its growth stalled requests as the keys' did
        memoryErrorBodies.clear();
        httpAttempts = malformed400 = 0;
        latency.clear();
    }

    quint64 keyId(const QByteArray &key)
    {
        auto it = keyIds.find(key);
        if (it != keyIds.end())
            return it.value();
        const quint64 id = nextKeyId++;
        keyIds.insert(key, id);
        return id;
    }
    int refOp(const QByteArray &ref)
    {
        // "ORD-0007" is op 7 (as the simulation names its orders); any other reference gets a
        // number of its own above every ORD-NNNNNNNN.
        if (ref.startsWith("ORD-") && ref.size() >= 5 && ref.size() <= 12) {
            bool ok = false;
            const int n = QByteArrayView(ref).sliced(4).toInt(&ok);
            if (ok && n >= 0 && ref.at(4) != '+' && ref.at(4) != '-')
                return n;
        }
        auto it = refOps.find(ref);
        if (it != refOps.end())
            return it.value();
        const int op = nextRefOp++;
        refOps.insert(ref, op);
        return op;
    }

    void compileScript() { script = faults::Script(scenario.network.script); }

    void scheduleRestarts()
    {
        qDeleteAll(restartTimers);
        restartTimers.clear();
        for (const int atS : std::as_const(scenario.server.restartsAtS)) {
            const qint64 dueMs = qint64(atS) * 1000 - clock.elapsed();
            if (dueMs < 0)
                continue;
            auto *timer = new QTimer(q);
            timer->setSingleShot(true);
            QObject::connect(timer, &QTimer::timeout, q, [this] { restart(QStringLiteral("scheduled restart")); });
            timer->start(int(qMin<qint64>(dueMs, std::numeric_limits<int>::max())));
            restartTimers.append(timer);
        }
    }

    QString loadStore();
    // A request in its turn, from Qt's parser (HttpFront) or the scanner's (ConnectionGuard).
    void dispatch(const HttpRequest &request, QTcpSocket *socket)
    {
        ++handling;
        HttpConnection *connection = HttpConnection::of(socket);
        const quint64 outer = slot;
        slot = connection ? connection->begin() : 0;
        handle(request, socket);
        slot = outer;
        --handling;
    }
    void handle(const HttpRequest &request, QTcpSocket *socket);
    void postOrder(const HttpRequest &request, QTcpSocket *socket);
    void postToken(const HttpRequest &request, QTcpSocket *socket);
    void getOrders(const HttpRequest &request, QTcpSocket *socket, const QString &path);
    // /admin/*: AdminRoutes decides and composes; the reset runs here once the answer is placed.
    void admin(const HttpRequest &request, QTcpSocket *socket, const QString &path);
    void arrive(Call *c);
    // A latency spike: the request reaches the server spikeMs later (a status query is then
    // answered only if the server did not restart and its client is still there).
    void delay(Call *c);
    void endCall(Call *c);
    // Group commit: the request's processing ended (at once, or when its processing time passed);
    // it commits with the others of this turn of the event loop.
    void processingEnded(Call *c);
    void commitDue();
    // Writes the due requests' rows in one transaction; returns how many of `batch` it took
    // (it stops after a request whose commit restarts the server).
    size_t writeBatch(const std::vector<quint64> &batch, std::vector<WrittenOrder> *written);
    size_t writeBatchOnce(const std::vector<quint64> &batch, std::vector<WrittenOrder> *written, bool deferKeys);
    OrderStore::Commit orderCommit(Call *c, int recordId, qint64 now, const CommitDecision &decision);
    void resetSocket(QTcpSocket *socket);
    void restart(const QString &why);
    // Returns the event's id; `typed.answers` 0 links it to the call's arrival.
    int event(Call *c, Lane lane, EventKind kind, int status, int record, const QString &detail,
              TraceTyped typed = TraceTyped());
    void endAll(); // every held request ends without an answer (stop, reset)

    static Call *call(Id id) { return reinterpret_cast<Call *>(id); }
    static Id idOf(Call *c) { return reinterpret_cast<Id>(c); }
    bool hasKey(const Call *c) const;
    QByteArray replayBody(const Call *c);
    void queryBody(Call *c);

    // ServerHost: the pipeline on real time, QTimers, sockets and SQLite
    ServerRequest &request(Id id) override;
    qint64 serviceNowUs() const override { return nowUs(); }
    bool down() const override { return isDown; }
    int trace(Id id, Lane lane, EventKind kind, int status, int record, const QString &detail,
              const TraceTyped &typed) override
    {
        return event(call(id), lane, kind, status, record, detail, typed);
    }
    qint64 processingUs(Id id) override;
    void schedule(Id id, qint64 us) override;
    void deliver(Id id) override;
    void resetConnection(Id id) override;
    void drop(Id id, bool) override { endCall(call(id)); }
    void prepareAnswer(Id id, ServerAnswer why, const QString &reason, TraceCause cause) override;
    bool orderExists(Id id) override;
    void keyExpired(Id id) override;
    QString reserveKey(Id id, qint64 processingUs) override;
    void failedBeforeCommit(Id id, qint64 now) override;
    QString persist(Id id, const CommitDecision &decision, qint64 now, bool *keyTaken) override;
    void committed(Id id, int record) override;
    void restartNow() override { restart(QStringLiteral("serverRestart fault")); }
    QString orderRef(Id id) override { return QString::fromUtf8(call(id)->ref); }
    void describeProcessing(qint64 us, QString *detail, TraceTyped *typed) override;

    void write(QTcpSocket *socket, int status, const QByteArray &contentType, const QByteArray &body,
               const QByteArray &requestId, bool replayed = false, int retryAfterS = -1, bool close = false,
               const QByteArray &extraHeader = QByteArray());
    // Answers in the connection's request order (HttpConnection).
    void answer(QTcpSocket *socket, quint64 place, const HttpAnswer &a);
    // The answer of the request being handled.
    void writeAnswer(QTcpSocket *socket, const HttpAnswer &a) { answer(socket, slot, a); }
    void writeProblem(QTcpSocket *socket, int status, const QString &detail, const QByteArray &requestId = QByteArray(),
                      bool close = false, const QByteArray &extraHeader = QByteArray())
    {
        write(socket, status, "application/problem+json", problemJson(status, detail, requestId), requestId, false, -1,
              close, extraHeader);
    }
};

// Qt HTTP Server's request framing and parsing with our own dispatch (no regular-expression
// router on the hot path) and direct access to each request's socket (holds, resets, restarts).
class HttpFront : public QAbstractHttpServer
{
public:
    HttpFront(OrderServerPrivate *d, QObject *parent) : QAbstractHttpServer(parent), m_d(d) {}

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        if (!m_d) { // stopped while this request was on its way
            socket->abort();
            return true;
        }
        m_d->dispatch(HttpRequest::fromQt(request), socket);
        return true;
    }
    void missingHandler(const QHttpServerRequest &, QTcpSocket *socket) override
    {
        socket->abort();
    }

public:
    void detach() { m_d = nullptr; }

private:
    OrderServerPrivate *m_d;
};

void OrderServerPrivate::write(QTcpSocket *socket, int status, const QByteArray &contentType, const QByteArray &body,
                               const QByteArray &requestId, bool replayed, int retryAfterS, bool close,
                               const QByteArray &extraHeader)
{
    answer(socket, slot, HttpAnswer{status, contentType, body, requestId, replayed, retryAfterS, close, extraHeader});
}

void OrderServerPrivate::answer(QTcpSocket *socket, quint64 place, const HttpAnswer &a)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    if (HttpConnection *connection = HttpConnection::of(socket))
        connection->answer(place, a);
}

int OrderServerPrivate::event(Call *c, Lane lane, EventKind kind, int status, int record, const QString &detail,
                              TraceTyped typed)
{
    TraceEvent e;
    e.t = traceUs();
    e.lane = lane;
    e.kind = kind;
    e.op = c->order.op;
    e.sub = c->sub;
    e.setPath(c->path);
    e.setRequestId(QString::fromLatin1(c->requestId));
    e.setKey(QString::fromLatin1(c->key));
    e.status = status;
    e.record = record;
    e.setDetail(detail);
    e.setRef(QString::fromUtf8(c->ref));
    if (!c->path.isEmpty()) {
        e.business = qint16(c->b);
        e.wrapper = qint16(c->query ? 1 : c->w); // a query's path is bN/w1/tQ
        e.transport = qint16(c->t);
    }
    if (typed.method == TraceMethod::None)
        typed.method = c->query ? TraceMethod::GetOrder : TraceMethod::PostOrder;
    if (typed.answers == 0)
        typed.answers = c->arrivedId;
    typed.applyTo(e);
    if (detail.isNull()) // the pipeline's words come from the typed fields; live events keep their text
        e.setDetail(trace::composedDetail(e));
    e.id = ++lastEventId;
    c->events.append(e);
    return e.id;
}

QString OrderServerPrivate::loadStore()
{
    // Put back what an earlier process committed: records, and the keys and tokens of a durable
    // key store (a memory key store starts empty: the restart lesson).
    loaded = OrderServer::Loaded();
    store.forEachRecord([this](const OrderStore::Row &row) {
        ++loaded.records;
        StoredRecord r;
        r.id = row.id;
        r.op = row.op;
        r.key = row.key.isEmpty() ? 0 : keyId(row.key);
        r.t = row.createdUs;
        service->loadRecord(r);
        refOp(row.ref);
    });
    if (qsizetype(service->records().size()) > 0 && service->records().back().id != int(service->records().size()))
        return QStringLiteral("the records table has gaps in its ids; it was not written by retrylab serve");
    if (keysInDb) {
        store.forEachKey([this](const OrderStore::KeyRow &k) {
            ++loaded.keys;
            service->loadKey(keyId(k.key), k.createdUs, k.fingerprint, k.status, k.record);
        });
        store.forEachToken([this](const QByteArray &token, bool used) {
            ++loaded.tokens;
            service->loadToken(keyId(token), used);
        });
    }
    return QString();
}

void OrderServerPrivate::handle(const HttpRequest &request, QTcpSocket *socket)
{
    const QString &path = request.path;
    // HEAD wherever GET (RFC 9110 section 9.3.2): routed as GET; its answer loses the content
    // in HttpConnection.
    const QHttpServerRequest::Method method =
            request.method == QHttpServerRequest::Method::Head ? QHttpServerRequest::Method::Get : request.method;
    if (path == QLatin1String("/orders")) {
        if (method == QHttpServerRequest::Method::Post)
            return postOrder(request, socket);
        if (method == QHttpServerRequest::Method::Get)
            return getOrders(request, socket, path);
        return writeProblem(socket, 405, QStringLiteral("use POST or GET on /orders"), QByteArray(), false,
                            "Allow: GET, POST");
    }
    if (path.startsWith(QLatin1String("/orders/"))) {
        if (method == QHttpServerRequest::Method::Get)
            return getOrders(request, socket, path);
        return writeProblem(socket, 405, QStringLiteral("use GET on /orders/{id}"), QByteArray(), false, "Allow: GET");
    }
    if (path == QLatin1String("/order-tokens")) {
        if (method == QHttpServerRequest::Method::Post)
            return postToken(request, socket);
        return writeProblem(socket, 405, QStringLiteral("use POST on /order-tokens"), QByteArray(), false, "Allow: POST");
    }
    if (MetricsRoutes::handles(path))
        return writeAnswer(socket, MetricsRoutes::route(*q, latency, path, method == QHttpServerRequest::Method::Get,
                                                        request.value("accept")));
    if (path.startsWith(QLatin1String("/problems/")))
        return writeAnswer(socket, problemTypePage(path, method == QHttpServerRequest::Method::Get));
    if (path.startsWith(QLatin1String("/admin/")))
        return admin(request, socket, path);
    writeProblem(socket, 404, QStringLiteral("no such endpoint: %1").arg(path.left(100)));
}

void OrderServerPrivate::admin(const HttpRequest &request, QTcpSocket *socket, const QString &path)
{
    const QHttpServerRequest::Method method = request.method;
    // HEAD as GET, as everywhere (handle()); the connection drops the content.
    const QByteArray methodName = method == QHttpServerRequest::Method::Get || method == QHttpServerRequest::Method::Head
                                        ? QByteArrayLiteral("GET")
                                : method == QHttpServerRequest::Method::Put   ? QByteArrayLiteral("PUT")
                                : method == QHttpServerRequest::Method::Post  ? QByteArrayLiteral("POST")
                                                                               : QByteArrayLiteral("OTHER");
    const AdminRoutes::Reply reply = AdminRoutes::route(*q, adminToken, {methodName, path, request.headers, request.body});
    writeAnswer(socket, reply.answer);
    if (reply.reset)
        q->reset(); // after the answer has its place: the reset ends every other held request
}

void OrderServerPrivate::getOrders(const HttpRequest &request, QTcpSocket *socket, const QString &path)
{
    if (path.size() > 8) { // /orders/{id}
        bool ok = false;
        const int id = QStringView(path).mid(8).toInt(&ok);
        const QByteArray body = ok && id > 0 ? store.recordBody(id) : QByteArray();
        if (body.isEmpty())
            return writeProblem(socket, 404, QStringLiteral("no order with id %1").arg(path.mid(8).left(20)));
        return write(socket, 200, "application/json", body, QByteArray());
    }
    const QByteArray ref = request.query.queryItemValue(QStringLiteral("ref"), QUrl::FullyDecoded).toUtf8();
    if (ref.isEmpty() || ref.size() > 64)
        return writeProblem(socket, 400, QStringLiteral("GET /orders needs ?ref=ORD-0007 (at most 64 characters)"));
    const QByteArray requestId = request.value("x-request-id");
    QString pageError;
    const int limit = queryNumber(request.query, QStringLiteral("limit"), 1, 1000, 100, &pageError);
    const int after = queryNumber(request.query, QStringLiteral("after"), 0, std::numeric_limits<int>::max(), 0, &pageError);
    if (!pageError.isEmpty())
        return writeProblem(socket, 400, pageError);
    auto *c = new Call;
    c->arrivedNs = clock.nsecsElapsed();
    c->query = true;
    c->limit = limit;
    c->after = after;
    c->socket = socket;
    c->slot = slot;
    c->ref = ref;
    c->order.op = refOp(ref);
    c->requestId = visibleAscii(requestId) ? requestId.left(200) : QByteArray();
    // The status query meets the faults the simulation gives it: script entries with
    // "method": "GET" and the query's dice, addressed by its path bN/w1/tQ.
    const QByteArray attempt = request.value("x-retrylab-attempt");
    int op = 0;
    if (attempt.isEmpty() || !parseAttempt(attempt, &op, &c->sub, &c->b, &c->w, &c->t)) {
        c->sub = c->b = c->w = c->t = 1;
    }
    const faults::Attempt dice{c->order.op, c->sub, c->b, 1, c->t, true};
    quint32 found = script.addressesQueries() ? script.match(dice) : 0u;
    const NetworkConfig &n = scenario.network;
    if (!attempt.isEmpty()
        && (n.requestLoss > 0 || n.responseLoss > 0 || n.latencySpike > 0 || n.resetAfterCommit > 0 || !scenario.windows.isEmpty()))
        found |= faults::queryDice(scenario, dice, nullptr, scenarioUs()); // windows on the run's (scaled) clock
    c->faults = found & ~quint32(faults::Connect); // a refused connection is the client's side
    if (tracing()) {
        c->path = QStringLiteral("op%1/b%2/w1/t%3").arg(c->order.op).arg(c->b).arg(c->t);
        c->arrivedId = event(c, Lane::Server, EventKind::RequestArrived, 0, 0,
                             serverwords::getOrders(QString::fromUtf8(ref)));
    }
    if (isDown || (c->faults & FRequestLost)) {
        // Read and dropped: no answer will come, the client times out.
        if (tracing())
            event(c, Lane::Network, EventKind::RequestLost, 0, 0, serverwords::queryLost(),
                  {isDown ? TraceCause::ServerRestarting : TraceCause::NeverReached});
        return endCall(c);
    }
    if (c->faults & FSpike) {
        c->generation = epoch;
        c->serial = ++calls;
        return delay(c);
    }
    pipeline->answerQuery(idOf(c));
}

void OrderServerPrivate::postToken(const HttpRequest &request, QTcpSocket *socket)
{
    QByteArray requestId = request.value("x-request-id");
    if (!requestId.isEmpty() && (requestId.size() > 200 || !visibleAscii(requestId)))
        return writeProblem(socket, 400, QStringLiteral("X-Request-ID must be 1 to 200 visible ASCII characters"));
    const quint64 a = QRandomGenerator::global()->generate64();
    const quint64 b = QRandomGenerator::global()->generate64();
    const QByteArray token = "tok-" + QByteArray::number(a, 16).rightJustified(16, '0')
            + QByteArray::number(b, 16).rightJustified(16, '0');
    service->issueToken(keyId(token));
    if (keysInDb)
        store.insertToken(token);
    write(socket, 201, "application/json", "{\"token\":\"" + token + "\"}", requestId);
    if (tracing()) {
        Call call;
        call.order.op = 0;
        call.key = token;
        call.requestId = requestId;
        event(&call, Lane::Server, EventKind::TokenIssued, 201, 0, serverwords::postOrderTokens(),
              {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostToken});
        Q_EMIT q->requestHandled(call.events);
    }
}

void OrderServerPrivate::postOrder(const HttpRequest &request, QTcpSocket *socket)
{
    QByteArray requestId = request.value("x-request-id");
    QList<QByteArray> keyFields;
    bool hasLength = false;
    for (const auto &h : request.headers) {
        // By length first (15 and 14): the case-blind compare runs only for a likely name.
        if (h.first.size() == 15 && h.first.compare("idempotency-key", Qt::CaseInsensitive) == 0)
            keyFields.append(h.second);
        else if (h.first.size() == 14 && h.first.compare("content-length", Qt::CaseInsensitive) == 0)
            hasLength = true;
    }
    const IdempotencyKeyField keyField = IdempotencyKeyField::parse(keyFields, options.limits.maxKeyChars);
    QByteArray key = keyField.key;
    // A malformed order is answered 400 before the service sees it; the Watch view still shows it.
    auto refuse = [&](const QString &detail, int status = 400, const char *type = nullptr) {
        // An HTTP attempt refused before the service: counted as the simulation counts a 400.
        ++httpAttempts;
        if (status == 400)
            ++malformed400;
        write(socket, status, "application/problem+json", problemJson(status, detail, requestId, TraceCause::None, type),
              requestId);
        if (tracing()) {
            Call call;
            call.requestId = requestId;
            call.key = key;
            call.arrivedId = event(&call, Lane::Server, EventKind::RequestArrived, 0, 0, serverwords::postOrders());
            event(&call, Lane::Server, EventKind::Rejected, status, 0, detail, {TraceCause::MalformedRequest});
            event(&call, Lane::Server, EventKind::ResponseSent, status, 0, QString::number(status),
                  {TraceCause::None, -1, 0, 0, 0, TraceOutcome::Response});
            Q_EMIT q->requestHandled(call.events);
        }
    };
    if (!requestId.isEmpty() && (requestId.size() > 200 || !visibleAscii(requestId))) {
        requestId.clear();
        key.clear();
        return refuse(QStringLiteral("X-Request-ID must be 1 to 200 visible ASCII characters"));
    }
    if (requestId.isEmpty())
        requestId = mintPrefix + QByteArray::number(++minted);
    if (!keyField.error.isEmpty())
        return refuse(keyField.error, 400, "invalid-key");

    const QByteArray body = request.body;
    if (body.isEmpty() && !hasLength)
        return refuse(QStringLiteral("POST /orders needs a body with a Content-Length: none was sent"), 411);
    if (body.trimmed().isEmpty())
        return refuse(QStringLiteral("the body is empty: expected a JSON object such as {\"ref\":\"ORD-0007\"}"));
    OrderPayload payload = OrderPayload::read(body);
    if (payload.status == OrderPayload::Status::NotJson)
        return refuse(QStringLiteral("the body is not JSON: %1 at byte %2 of %3")
                              .arg(payload.parseError)
                              .arg(payload.errorOffset)
                              .arg(body.size()));
    if (payload.status != OrderPayload::Status::Object)
        return refuse(QStringLiteral("the body must be a JSON object"));
    if (!payload.refIsString || payload.refLength == 0 || payload.refLength > 64)
        return refuse(QStringLiteral("\"ref\" is required: a string such as \"ORD-0007\" (1 to 64 characters)"));

    auto *c = new Call;
    c->arrivedNs = clock.nsecsElapsed();
    c->socket = socket;
    c->slot = slot;
    c->requestId = requestId;
    c->key = key;
    c->ref = std::move(payload.ref);
    // The order keeps the client's own JSON text (valid: it just parsed as an object).
    c->body = request.body.trimmed();
    c->order.op = refOp(c->ref);
    c->order.key = key.isEmpty() ? 0 : keyId(key);
    c->order.fingerprint = payload.fingerprint;
    c->close = request.value("connection").compare("close", Qt::CaseInsensitive) == 0;
    c->serial = ++calls;
    const int arrival = ++arrivals[c->order.op];
    const QByteArray attempt = request.value("x-retrylab-attempt");
    int op = 0;
    if (attempt.isEmpty() || !parseAttempt(attempt, &op, &c->sub, &c->b, &c->w, &c->t)) {
        c->sub = 1;
        c->b = 1;
        c->w = 1;
        c->t = arrival;
    }
    if (tracing()) {
        c->path = c->sub == 1 ? QStringLiteral("op%1/b%2/w%3/t%4").arg(c->order.op).arg(c->b).arg(c->w).arg(c->t)
                              : QStringLiteral("op%1#%2/b%3/w%4/t%5").arg(c->order.op).arg(c->sub).arg(c->b).arg(c->w).arg(c->t);
    }
    // Faults: the script for this (op, attempt), then the dice, drawn in the simulation's order
    // from the same streams, so a live client sending X-RetryLab-Attempt meets the same faults.
    const faults::Attempt dice{c->order.op, c->sub, c->b, c->w, c->t, false};
    quint32 found = script.empty() ? 0u : script.match(dice);
    const NetworkConfig &n = scenario.network;
    // Fault windows open and close on the run's (scaled) clock.
    const qint64 now = scenarioUs();
    if (n.requestLoss > 0 || n.latencySpike > 0 || n.responseLoss > 0 || n.resetAfterCommit > 0 || !scenario.windows.isEmpty())
        found |= faults::postNetworkDice(scenario, dice, now);
    const ServerConfig &sc = scenario.server;
    if (sc.throttle429 > 0 || sc.error5xxBeforeCommit > 0 || sc.error5xxAfterCommit > 0 || !scenario.windows.isEmpty())
        found |= faults::serverDice(scenario, dice, now);
    // A refused connection is the client's side: nothing of it reaches a server.
    const quint32 applied = found & ~quint32(faults::Connect);
    c->faults = applied;
    if (applied & FSpike) {
        // Design 1.3: the spiked request reaches the server late, and commits after its client
        // gave up (the ghost), as in the simulation.
        return delay(c);
    }
    arrive(c);
}

void OrderServerPrivate::delay(Call *c)
{
    if (tracing())
        event(c, Lane::Network, EventKind::RequestDelayed, 0, 0, serverwords::delayed(scenario.network.spikeMs),
              {TraceCause::LatencySpike, scenario.network.spikeMs});
    const quint64 serial = c->serial;
    delayed.emplace(serial, c);
    QTimer::singleShot(int(scaled(qint64(scenario.network.spikeMs) * kMs) / kMs), q, [this, serial] {
        const auto it = delayed.find(serial);
        if (it == delayed.end())
            return; // stopped meanwhile
        Call *late = it->second;
        delayed.erase(it);
        if (!late->query)
            arrive(late);
        else if (late->generation == epoch && late->socket)
            pipeline->answerQuery(idOf(late));
        else
            delete late; // the server restarted meanwhile, or the client left: nothing to say
    });
}

void OrderServerPrivate::arrive(Call *c)
{
    ++httpAttempts;
    pipeline->arrive(idOf(c));
}

void OrderServerPrivate::resetSocket(QTcpSocket *socket)
{
    // SO_LINGER 0: close() sends a RST, as a crashed peer or a middlebox would.
    const qintptr fd = socket->socketDescriptor();
    if (fd >= 0) {
        struct linger l = {1, 0};
        ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
    socket->abort();
}

void OrderServerPrivate::endCall(Call *c)
{
    if (c->due)
        dueCalls.erase(c->serial);
    if (!c->events.isEmpty())
        Q_EMIT q->requestHandled(c->events);
    delete c;
}

void OrderServerPrivate::endAll()
{
    for (const Id id : pipeline->takeAll())
        endCall(call(id));
}

void OrderServerPrivate::restart(const QString &why)
{
    // Every request the server holds is dropped (the pipeline): with server.restartInFlight reset
    // (the default) its connection is reset at once, as the kernel closes a crashed process's
    // sockets; with hang it stays open and silent until its client gives up. Either way its
    // answer never comes, as the simulation has it. A memory key store forgets every key, and
    // nothing listens until restartDownMs have passed (new connections are refused). Idle
    // keep-alive connections stay open; a request on one meets the server down and is dropped.
    ++epoch;
    pipeline->restart(why);
    if (keysInDb)
        store.dropKeys(false);
    if (scenario.server.idempotency.store == KeyStore::Memory)
        memoryErrorBodies.clear();
    if (guard)
        guard->close(); // nothing listens: new connections are refused until it is back
    isDown = true;
    Q_EMIT q->restarted(true);
    const int epochNow = epoch;
    QTimer::singleShot(int(qMax<qint64>(0, scaled(qint64(scenario.server.restartDownMs) * kMs) / kMs)), q, [this, epochNow] {
        if (!running || epoch != epochNow || !guard)
            return;
        guard->listen(options.address, port);
        isDown = false;
        Q_EMIT q->restarted(false);
    });
}

// ---- ServerHost: what the pipeline needs from the live server ----

ServerRequest &OrderServerPrivate::request(Id id)
{
    return *reinterpret_cast<Call *>(id);
}

qint64 OrderServerPrivate::processingUs(Id id)
{
    const Call *c = call(id);
    const ServerConfig &sc = scenario.server;
    if (sc.processingMs.base <= 0 && sc.processingMs.jitter <= 0)
        return 0;
    return faults::processingUs(scenario, {c->order.op, c->sub, c->b, c->w, c->t, false});
}

void OrderServerPrivate::describeProcessing(qint64 p, QString *detail, TraceTyped *typed)
{
    typed->cause = TraceCause::Processing;
    if (p <= 0) {
        *detail = QStringLiteral("processing 0 ms");
        return;
    }
    const qint64 realUs = scaled(p);
    *detail = timeScale == 1.0 ? QStringLiteral("processing %1 ms").arg(p / kMs)
                               : QStringLiteral("processing %1 ms (%2 ms real)").arg(p / kMs).arg(double(realUs) / kMs);
    typed->arg = p / kMs;
    typed->arg2 = timeScale == 1.0 ? 0 : realUs;
}

void OrderServerPrivate::schedule(Id id, qint64 p)
{
    Call *c = call(id);
    if (p <= 0)
        return processingEnded(c);
    const quint64 serial = c->serial;
    QTimer::singleShot(int(qMax<qint64>(1, (scaled(p) + kMs / 2) / kMs)), Qt::PreciseTimer, q, [this, id, c, serial] {
        if (pipeline && pipeline->isProcessing(id) && c->serial == serial)
            processingEnded(c);
    });
}

void OrderServerPrivate::processingEnded(Call *c)
{
    c->due = true;
    dueCalls.emplace(c->serial, c);
    dueOrder.push_back(c->serial);
    if (batchPosted)
        return;
    // The timer fires once the event loop has handled every connection its last poll found
    // readable: the requests whose processing ended in this turn are the batch.
    batchPosted = true;
    batchTimer.start();
}

OrderStore::Commit OrderServerPrivate::orderCommit(Call *c, int recordId, qint64 now, const CommitDecision &decision)
{
    const ServerConfig &sc = scenario.server;
    const IdempotencyConfig &idem = sc.idempotency;
    const bool after = decision.failsAfterCommit;
    // {"id":7,"ref":"ORD-0007","requestId":"...","payload":{...}}, sized once and written in place
    // (the appends it replaces cost about 2,700 instructions per order).
    QByteArray order(64 + 6 * (c->ref.size() + c->requestId.size()) + c->body.size(), Qt::Uninitialized);
    char *out = order.data();
    const auto put = [&out](const char *text, size_t size) {
        std::memcpy(out, text, size);
        out += size;
    };
    put("{\"id\":", 6);
    out = std::to_chars(out, out + 11, recordId).ptr;
    put(",\"ref\":", 7);
    out = writeJsonString(out, c->ref.constData(), c->ref.size());
    put(",\"requestId\":", 13);
    out = writeJsonString(out, c->requestId.constData(), c->requestId.size());
    put(",\"payload\":", 11);
    put(c->body.constData(), size_t(c->body.size()));
    *out++ = '}';
    order.truncate(out - order.constData());
    const QByteArray errorBody = after ? problemJson(decision.status, serverwords::failedAfterCommit(), c->requestId, TraceCause::None, "failed-after-commit")
                                       : QByteArray();
    OrderStore::Commit commit;
    commit.id = recordId;
    commit.ref = c->ref;
    commit.op = c->order.op;
    commit.key = c->key;
    commit.requestId = c->requestId;
    commit.createdUs = now;
    commit.writeKey = keysInDb && hasKey(c);
    commit.keyReserved = c->keyRowReserved;
    commit.upsertKey = idem.mode == IdempotencyMode::Naive;
    commit.keyCreatedUs = now;
    commit.fingerprint = c->order.fingerprint;
    commit.keyStatus = decision.keyStatus;
    commit.keyBody = errorBody;
    commit.useToken = idem.mode == IdempotencyMode::Token && commit.writeKey;
    // What the answer carries once the commit holds (persist()).
    c->pendingRecord = recordId;
    c->answerProblem = after;
    c->answerBody = after ? errorBody : order;
    commit.body = std::move(order);
    return commit;
}

size_t OrderServerPrivate::writeBatch(const std::vector<quint64> &batch, std::vector<WrittenOrder> *written)
{
    // The new key rows first wait for the batch's end too (one multi-row INSERT); a key the
    // database refuses there (another row holds it: rare, the service's own index answers first)
    // rolls the batch back whole, and it is written again with a key row per order, where that
    // key fails its own order alone and the record ids after it move down by one, the answers
    // composed again with them (orderCommit).
    const size_t taken = writeBatchOnce(batch, written, true);
    if (!store.batchKeyRefused())
        return taken;
    written->clear();
    return writeBatchOnce(batch, written, false);
}

size_t OrderServerPrivate::writeBatchOnce(const std::vector<quint64> &batch, std::vector<WrittenOrder> *written,
                                          bool deferKeys)
{
    int nextId = int(service->records().size()) + 1;
    bool open = false, failed = false;
    std::vector<Call *> inBatch;
    size_t taken = 0;
    while (taken < batch.size()) {
        const auto it = dueCalls.find(batch[taken++]);
        if (it == dueCalls.end())
            continue; // ended meanwhile (a restart dropped it)
        Call *c = it->second;
        if (c->faults & F5xxBefore)
            continue; // fails before its commit: nothing to write
        if (!open && !failed) {
            open = store.beginBatch(deferKeys);
            failed = !open;
        }
        c->written = true;
        // The pipeline decides the same from the same faults when it commits (persist()).
        const OrderStore::Commit commit = orderCommit(c, nextId, frozenNowUs, commitDecision(c->faults, scenario.server));
        c->prepared = failed ? OrderStore::CommitResult::Failed : store.add(commit);
        if (c->prepared == OrderStore::CommitResult::Ok) {
            inBatch.push_back(c);
            written->push_back({StoredRecord{nextId, c->order.op, c->order.key, frozenNowUs}, commit.fingerprint,
                                commit.writeKey ? commit.keyStatus : 0});
            ++nextId;
        }
        if (c->faults & FRestart)
            break; // its commit restarts the server, which drops the rest: they wait for the next batch
    }
    if (open && !store.endBatch()) {
        // Nothing of the batch is in the database: each of its orders fails as its own commit would.
        for (Call *c : inBatch)
            c->prepared = OrderStore::CommitResult::Failed;
        written->clear();
    }
    return taken;
}

void OrderServerPrivate::commitDue()
{
    batchPosted = false;
    if (!running || dueOrder.empty())
        return;
    std::vector<quint64> batch;
    batch.swap(dueOrder);
    // One service time for the batch: its rows and the keys the service stores agree to the microsecond.
    frozenNowUs = nowUs();
    const int generation = storeGeneration;
    std::vector<WrittenOrder> written;
    const size_t taken = writeBatch(batch, &written);
    // Only now, with the batch committed (or refused), does the service commit each order and
    // each request get its answer, in the order their processing ended.
    for (size_t i = 0; i < taken && running; ++i) {
        const auto it = dueCalls.find(batch[i]);
        if (it == dueCalls.end())
            continue;
        Call *c = it->second;
        dueCalls.erase(it);
        c->due = false;
        pipeline->processingDone(idOf(c));
    }
    // A restart from a slot of requestHandled (above) dropped requests whose rows had committed:
    // the service learns their orders and keys as a restarted process reads them back.
    if (running && generation == storeGeneration && service) {
        for (const WrittenOrder &w : written) {
            if (w.record.id <= int(service->records().size()))
                continue;
            service->loadRecord(w.record);
            if (w.keyStatus > 0)
                service->loadKey(w.record.key, w.record.t, w.fingerprint, w.keyStatus, w.record.id);
        }
    }
    frozenNowUs = -1;
    if (taken < batch.size()) {
        dueOrder.insert(dueOrder.begin(), batch.begin() + qsizetype(taken), batch.end());
        if (!batchPosted) {
            batchPosted = true;
            batchTimer.start();
        }
    }
}

QString OrderServerPrivate::reserveKey(Id id, qint64 p)
{
    Call *c = call(id);
    if (p <= 0 || !keysInDb)
        return QString();
    // The in-flight row: a request in another process (a shared --db file) meets the UNIQUE
    // constraint even before this one commits.
    if (!store.reserveKey(c->key, nowUs(), c->order.fingerprint))
        return QStringLiteral("the database refused the key (UNIQUE constraint): a request with this key is in progress");
    c->keyRowReserved = true;
    return QString();
}

void OrderServerPrivate::keyExpired(Id id)
{
    Call *c = call(id);
    if (keysInDb)
        store.deleteKey(c->key);
    memoryErrorBodies.erase(c->order.key);
}

bool OrderServerPrivate::hasKey(const Call *c) const
{
    return c->order.key != 0 && scenario.server.idempotency.mode != IdempotencyMode::Off;
}

void OrderServerPrivate::failedBeforeCommit(Id id, qint64 now)
{
    Call *c = call(id);
    const ServerConfig &sc = scenario.server;
    c->answerBody = problemJson(sc.errorStatus, serverwords::failedBeforeCommit(), c->requestId, TraceCause::None, "failed-before-commit");
    c->answerProblem = true;
    // Nothing is stored for a failure before commit (OrderService::storedStatus): the row goes.
    Q_UNUSED(now);
    if (c->keyRowReserved)
        store.deleteKey(c->key);
}

QString OrderServerPrivate::persist(Id id, const CommitDecision &decision, qint64 now, bool *keyTaken)
{
    Call *c = call(id);
    OrderStore::CommitResult result = c->prepared;
    if (!c->written) // every commit comes through commitDue(); a single transaction otherwise
        result = store.commit(orderCommit(c, int(service->records().size()) + 1, now, decision));
    c->written = false;
    *keyTaken = result == OrderStore::CommitResult::KeyTaken;
    if (result == OrderStore::CommitResult::KeyTaken)
        return QStringLiteral("the database refused the key (UNIQUE constraint)");
    if (result != OrderStore::CommitResult::Ok)
        return QStringLiteral("the database refused the commit: %1").arg(store.lastError().left(200));
    return QString();
}

void OrderServerPrivate::committed(Id id, int record)
{
    Call *c = call(id);
    Q_ASSERT(record == c->pendingRecord);
    Q_UNUSED(record);
    const IdempotencyConfig &idem = scenario.server.idempotency;
    if ((c->faults & F5xxAfter) && idem.storeErrors && hasKey(c) && !keysInDb)
        memoryErrorBodies[c->order.key] = c->answerBody;
    // A durable store marked the token used in the order's own transaction (orderCommit).
}

void OrderServerPrivate::prepareAnswer(Id id, ServerAnswer why, const QString &reason, TraceCause cause)
{
    Call *c = call(id);
    const ServerConfig &sc = scenario.server;
    switch (why) {
    case ServerAnswer::Throttled:
        c->answerBody = problemJson(429, QStringLiteral("rate limited: retry after %1 s").arg(sc.retryAfterS), c->requestId);
        c->answerProblem = true;
        return;
    case ServerAnswer::Full:
        c->answerBody = problemJson(503, QStringLiteral("server full: retry after %1 s").arg(sc.retryAfterS), c->requestId, TraceCause::ServerFull);
        c->answerProblem = true;
        return;
    case ServerAnswer::Refused:
    case ServerAnswer::VersionConflict:
        // A used token keeps the lesson's 409 (design 1.4b), although the draft keeps 409 for a
        // request in progress: the detail says what it means and what to do instead.
        c->answerBody = problemJson(c->status,
                                cause == TraceCause::TokenUsed
                                        ? reason + QStringLiteral(": the order it created exists; ask GET /orders?ref= "
                                                                  "instead of retrying")
                                        : reason,
                                c->requestId, cause);
        c->answerProblem = true;
        return;
    case ServerAnswer::Replayed:
        c->answerBody = replayBody(c);
        c->answerProblem = c->status >= 400;
        // A stored 503 or 429 tells its client again when to come back (RFC 9110 section 10.2.3).
        if (c->status == 503 || c->status == 429)
            c->retryAfterS = sc.retryAfterS;
        return;
    case ServerAnswer::FailedBeforeCommit:
    case ServerAnswer::FailedAfterCommit:
        if (c->status == 503)
            c->retryAfterS = sc.retryAfterS;
        return; // the body was written by failedBeforeCommit() / persist()
    case ServerAnswer::Created:
        return; // written by persist()
    case ServerAnswer::Query:
        return queryBody(c);
    }
}

QByteArray OrderServerPrivate::replayBody(const Call *c)
{
    // A stored success replays its order's body: one lookup by record id, no key row read.
    if (c->status < 400 && c->record > 0)
        return store.recordBody(c->record);
    if (keysInDb)
        return store.replayBody(c->key, 0);
    if (c->status >= 400) {
        auto it = memoryErrorBodies.find(c->order.key);
        return it != memoryErrorBodies.end() ? it->second : QByteArray();
    }
    return store.recordBody(c->record);
}

void OrderServerPrivate::queryBody(Call *c)
{
    const ServerConfig &sc = scenario.server;
    c->answerProblem = true;
    if (c->status == 429) {
        c->answerBody = problemJson(429, QStringLiteral("rate limited: retry after %1 s").arg(sc.retryAfterS), c->requestId);
    } else if (c->status == 404) {
        c->answerBody = problemJson(404, QStringLiteral("no order with ref %1").arg(QString::fromUtf8(c->ref)), c->requestId);
    } else if (c->status != 200) {
        c->answerBody = problemJson(c->status, serverwords::queryFailed(), c->requestId, TraceCause::QueryFailed);
    } else {
        c->answerProblem = false;
        QByteArray &body = c->answerBody;
        // "count" is every order of the reference; "orders" one page of them, oldest first, and
        // "next" the page after it while there is one.
        body = "{\"ref\":";
        appendJsonString(body, c->ref);
        body += ",\"count\":" + QByteArray::number(c->total) + ",\"orders\":[";
        for (int i = 0; i < c->found.size(); ++i) {
            if (i)
                body += ',';
            body += c->found.at(i);
        }
        body += ']';
        if (c->nextAfter > 0) {
            body += ",\"next\":";
            appendJsonString(body, "/orders?ref=" + QUrl::toPercentEncoding(QString::fromUtf8(c->ref)) + "&after="
                                           + QByteArray::number(c->nextAfter) + "&limit=" + QByteArray::number(c->limit));
        }
        body += '}';
        c->found.clear();
    }
}

bool OrderServerPrivate::orderExists(Id id)
{
    Call *c = call(id);
    const OrderStore::Page page = store.recordsByRef(c->ref, c->after, c->limit);
    c->found = page.bodies;
    c->total = page.total;
    c->nextAfter = page.more ? page.lastId : 0;
    return page.total > 0;
}

void OrderServerPrivate::deliver(Id id)
{
    Call *c = call(id);
    latency.observe(clock.nsecsElapsed() - c->arrivedNs);
    const QByteArray type = c->answerProblem ? QByteArrayLiteral("application/problem+json") : QByteArrayLiteral("application/json");
    answer(c->socket, c->slot,
           HttpAnswer{c->status, type, c->answerBody, c->requestId, c->replayed, c->retryAfterS, c->close, QByteArray()});
    endCall(c);
}

void OrderServerPrivate::resetConnection(Id id)
{
    Call *c = call(id);
    if (c->socket)
        resetSocket(c->socket);
    endCall(c);
}

OrderServer::OrderServer(QObject *parent) : QObject(parent), d(std::make_unique<OrderServerPrivate>(this))
{
    qRegisterMetaType<retrylab::Trace>("retrylab::Trace");
}

OrderServer::~OrderServer()
{
    stop();
}

QString OrderServer::start(const ServeOptions &options)
{
    stop();
    if (!(options.timeScale >= 0.001 && options.timeScale <= 1000))
        return QStringLiteral("time scale %1 is outside 0.001 to 1000").arg(options.timeScale);
    if (!options.adminToken.isEmpty()) {
        const QString tokenProblem = AdminAccess::tokenProblem(options.adminToken);
        if (!tokenProblem.isEmpty())
            return QStringLiteral("admin token: %1").arg(tokenProblem);
    }
    d->options = options;
    d->scenario = options.scenario;
    d->timeScale = options.timeScale;
    d->keysInDb = d->scenario.server.idempotency.store == KeyStore::Durable;
    // A server started again begins like a new process: what the store holds is loaded below.
    d->forgetProcessState();
    d->compileScript();
    d->store.setMemoryLimit(options.limits.maxMemoryStoreBytes);
    const QString error = d->store.open(options.dbFile);
    if (!error.isEmpty())
        return QStringLiteral("cannot open the database %1: %2")
                .arg(options.dbFile.isEmpty() ? QStringLiteral("in memory") : options.dbFile, error);
    d->epochBaseUs = QDateTime::currentMSecsSinceEpoch() * kMs;
    d->clock.start();
    const QString loadError = d->loadStore();
    if (!loadError.isEmpty()) {
        d->store.close();
        return QStringLiteral("cannot use the database %1: %2").arg(options.dbFile, loadError);
    }

    QString listenError;
    ConnectionGuard *guard = ConnectionGuard::open(options.limits, options.address, options.port, &listenError);
    if (!guard) {
        d->store.close();
        d->service.reset();
        return listenError;
    }
    d->guard = guard;
    d->port = guard->serverPort();
    d->http = new HttpFront(d.get(), this);
    d->http->bind(guard);
    // The plain requests (every order of an ordinary client) skip Qt's parser, which reads a byte
    // per call; the others go through it (HttpFront::handleRequest).
    guard->dispatchWhileRunning(d.get());
    d->adminToken = options.adminToken;
    if (d->adminToken.isEmpty() && !options.address.isLoopback())
        d->adminToken = AdminAccess::mintToken();
    const quint32 prefix = QRandomGenerator::global()->generate();
    d->mintPrefix = "srv-" + QByteArray::number(prefix, 16).rightJustified(8, '0') + '-';
    d->running = true;
    d->isDown = false;
    d->scheduleRestarts();
    Q_EMIT started(url());
    return QString();
}

void OrderServer::stop()
{
    if (!d->running)
        return;
    d->running = false;
    qDeleteAll(d->restartTimers);
    d->restartTimers.clear();
    ++d->epoch;
    for (const ServerHost::Id id : d->pipeline->takeAll())
        delete reinterpret_cast<Call *>(id);
    for (const auto &late : d->delayed)
        delete late.second;
    d->delayed.clear();
    d->dueCalls.clear(); // deleted with the pipeline's (takeAll above)
    d->dueOrder.clear();
    if (d->guard) {
        d->guard->abortAll();
        d->guard->close();
    }
    // The front owns the guard and its sockets. Inside a request (a slot of requestHandled
    // stopping the server) it is deleted once that request has returned.
    d->http->detach();
    if (d->handling > 0)
        d->http->deleteLater();
    else
        delete d->http;
    d->http = nullptr;
    d->store.close();
    d->service.reset();
    d->keyIds.clear();
    d->refOps.clear();
    d->arrivals.clear();
    d->memoryErrorBodies.clear();
    Q_EMIT stopped();
}

bool OrderServer::isRunning() const
{
    return d->running;
}

quint16 OrderServer::port() const
{
    return d->port;
}

QUrl OrderServer::url() const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    QHostAddress host = d->options.address;
    if (host == QHostAddress::Any || host == QHostAddress::AnyIPv4)
        host = QHostAddress::LocalHost;
    else if (host == QHostAddress::AnyIPv6)
        host = QHostAddress::LocalHostIPv6;
    u.setHost(host.toString());
    u.setPort(d->port);
    return u;
}

QByteArray OrderServer::adminToken() const
{
    return d->adminToken;
}

OrderServer::Loaded OrderServer::loaded() const
{
    return d->loaded;
}

const ServeOptions &OrderServer::options() const
{
    return d->options;
}

const ConnectionGuard *OrderServer::connectionGuard() const
{
    return d->guard;
}

void OrderServer::connectNotify(const QMetaMethod &signal)
{
    if (d && signal == QMetaMethod::fromSignal(&OrderServer::requestHandled))
        d->tracingKnown.store(false, std::memory_order_release);
}

void OrderServer::disconnectNotify(const QMetaMethod &signal)
{
    if (d && (!signal.isValid() || signal == QMetaMethod::fromSignal(&OrderServer::requestHandled)))
        d->tracingKnown.store(false, std::memory_order_release);
}

QJsonObject OrderServer::faultsJson() const
{
    return AdminRoutes::faultsJson(d->scenario);
}

QStringList OrderServer::setFaults(const QJsonObject &patch)
{
    QStringList errors;
    const Scenario s = AdminRoutes::patched(d->scenario, patch, &errors);
    if (!errors.isEmpty())
        return errors;
    d->scenario = s;
    d->service->setConfig(s.server);
    d->compileScript();
    d->scheduleRestarts();
    return {};
}

void OrderServer::restart()
{
    if (d->running && !d->isDown)
        d->restart(QStringLiteral("restart requested"));
}

void OrderServer::reset()
{
    if (!d->running)
        return;
    ++d->epoch;
    ++d->storeGeneration;
    d->endAll();
    d->store.reset();
    d->forgetProcessState();
}

QJsonObject OrderServer::metricsJson()
{
    qint64 records = 0, refs = 0;
    if (d->running)
        d->store.counts(&records, &refs);
    const ServerCounters c = d->pipeline ? d->pipeline->counters() : ServerCounters();
    return QJsonObject{
        {QStringLiteral("httpAttempts"), d->httpAttempts},
        {QStringLiteral("records"), records},
        {QStringLiteral("duplicates"), records - refs},
        {QStringLiteral("duplicatesOutstanding"), records - refs},
        {QStringLiteral("replays"), c.replays},
        {QStringLiteral("conflicts409"), c.conflicts409},
        {QStringLiteral("mismatch422"), c.mismatch422},
        {QStringLiteral("rejected400"), c.rejected400 + d->malformed400},
        {QStringLiteral("throttled429"), c.throttled429},
        {QStringLiteral("rejected503"), c.rejected503},
        {QStringLiteral("serverErrors"), c.serverErrors},
        {QStringLiteral("server"),
         QJsonObject{{QStringLiteral("uptimeS"), double(d->clock.elapsed()) / 1000.0},
                     {QStringLiteral("connections"), d->guard ? d->guard->openConnections() : 0},
                     {QStringLiteral("processing"), d->pipeline ? d->pipeline->busy() : 0},
                     {QStringLiteral("queued"), d->pipeline ? d->pipeline->queued() : 0},
                     {QStringLiteral("delayed"), int(d->delayed.size())}, // spiked requests not arrived yet
                     {QStringLiteral("idempotency"), scenario::toString(d->scenario.server.idempotency.mode)},
                     {QStringLiteral("keyStore"), scenario::toString(d->scenario.server.idempotency.store)},
                     {QStringLiteral("database"), d->options.dbFile.isEmpty() ? QStringLiteral(":memory:")
                                                                              : d->options.dbFile}}},
    };
}

qint64 OrderServer::storeTransactions() const
{
    return d->store.transactions();
}

qint64 OrderServer::elapsedUs() const
{
    return d->clock.isValid() ? d->traceUs() : 0;
}

void OrderServer::advanceServiceClock(qint64 us)
{
    d->clockOffsetUs += us;
}

} // namespace retrylab
