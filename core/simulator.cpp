#include "simulator.h"

#include "engine.h"

#include "faults.h"

#include "orderservice.h"
#include "policy.h"
#include "rng.h"
#include "work.h"

#include <QHash>

#include <unordered_map>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <deque>
#include <limits>
#include <queue>
#include <vector>

namespace retrylab {

namespace {

constexpr qint64 kMs = 1000;
constexpr qint64 kS = 1000000;

enum class Ev : quint8 {
    OpStart,
    BusinessStart,
    WrapperStart,
    TransportSend,
    RequestArrive,
    ProcessingDone,
    ResponseArrive,
    ResetArrive,
    ConnectFail,
    ClientTimeout,
    TokenReady,
    Reconcile,
    ServerRestart,
    QuerySend,
    TokenFailed, // live path: POST /order-tokens got no token
    ReadArrive,  // server.model occ: an attempt's read of its row reaches the server
    ReadReply,   // server.model occ: the row's version is back at the client, the write goes out
};

// Scheduled event; (t, seq) orders simultaneous events by scheduling order.
struct Event
{
    qint64 t;
    quint64 seq;
    Ev type;
    quint8 phase;
    int a; // flow or request index
    quint32 serial;
};

struct Later
{
    bool operator()(const Event &x, const Event &y) const
    {
        return x.t != y.t ? x.t > y.t : x.seq > y.seq;
    }
};

// A 4-ary min-heap of events by (t, seq): half the depth of a binary heap, and the four children
// of a node share cache lines. (t, seq) is unique, so events leave in exactly the order
// std::priority_queue gave them: the same traces, about a third less time in the queue.
class EventQueue
{
public:
    bool empty() const { return m_heap.empty(); }
    const Event &top() const { return m_heap.front(); }
    void push(const Event &e)
    {
        size_t i = m_heap.size();
        m_heap.push_back(e);
        while (i > 0) {
            const size_t parent = (i - 1) / 4;
            if (!before(e, m_heap[parent]))
                break;
            m_heap[i] = m_heap[parent];
            i = parent;
        }
        m_heap[i] = e;
    }
    void pop()
    {
        const Event last = m_heap.back();
        m_heap.pop_back();
        const size_t n = m_heap.size();
        if (n == 0)
            return;
        size_t i = 0;
        for (;;) {
            const size_t first = 4 * i + 1;
            if (first >= n)
                break;
            size_t best = first;
            const size_t end = std::min(first + 4, n);
            for (size_t c = first + 1; c < end; ++c)
                if (before(m_heap[c], m_heap[best]))
                    best = c;
            if (!before(m_heap[best], last))
                break;
            m_heap[i] = m_heap[best];
            i = best;
        }
        m_heap[i] = last;
    }

private:
    static bool before(const Event &x, const Event &y) { return x.t != y.t ? x.t < y.t : x.seq < y.seq; }
    std::vector<Event> m_heap;
};

using namespace faults::shortnames;

enum class Method : quint8 { Post, Get };

struct Flow
{
    int op = 0;
    int sub = 1;
    int client = 0;
    int b = 0, w = 0, t = 0;
    quint64 key = 0;
    quint64 fingerprint = 0;
    qint64 start = 0;
    qint64 wrapperFirstStart = 0;
    qint64 prevBusinessWait = 0;
    qint64 prevWrapperWait = 0;
    TransportCounts transportDone; // urllib3 counters of the current transport loop
    quint32 serial = 0;   // current attempt; stale events carry an older one
    bool waiting = false; // an attempt is outstanding
    bool querying = false;
    int qt = 0;               // HTTP attempts of the current status query
    bool tokenUsed = false;    // a POST got "409 order token already used": final for the client
    int postAttempts = 0;
    int wire = -1;              // live path: the request of the outstanding attempt
    quint8 tokenResume = 0;     // live path: the layer event an order token is awaited for
    bool done = false;
    bool succeeded = false;
    qint64 end = 0;
    int row = 0;              // server.model occ: the row this operation updates
    qint64 readVersion = 0;   // occ: the version the current attempt read
    int nextFlow = -1;        // closed workload: the client's next operation (its first submission)
    int pairFlow = -1;        // closed workload: this operation's double submit, if any
    // Trace formatting cache (mutable: filled while tracing a const flow).
    mutable quint64 cachedAttempt = ~0ull;
    mutable QString cachedPath;
    mutable QString cachedRequestId;
    int sentId = 0; // trace: the id of the current attempt's send (TransportAttempt or QuerySent)
};

using Typed = TraceTyped;

struct Request
{
    int flow = -1;
    quint32 serial = 0;
    Method method = Method::Post;
    quint32 faults = 0;
    bool committed = false;
    int status = 0;
    int retryAfterS = -1;
    bool replayed = false;
    bool tokenUsed = false;
    quint32 epoch = 0; // server lifetime the request reached; a restart drops older ones
    int record = 0;
    OrderRequest order;
    int b = 0, w = 0, t = 0;
    qint64 version = -1; // occ: the row version the write carries
    // Trace links (event ids, 0 = none): the client's send (or the delay), the arrival, the answer.
    int sentId = 0;
    int arrivedId = 0;
    int respondedId = 0;
};

struct ClientState
{
    double tokens = 0;        // the retry budget (per client; the global one lives in client 0)
    int consecutiveFailures = 0;
    qint64 openUntil = -1;
    // circuitBreaker.mode failureRate: the last `window` recorded outcomes, a ring (1 = failure).
    std::vector<char> outcomes;
    int filled = 0;
    int next = 0;
    int failures = 0;
};

// printf-style ASCII formatting for the trace's hot paths: QString::arg and
// QString::number go through QLocale and dominated traced runs. Integers only
// (%d, %x), so the C locale question never arises.
QString ascii(const char *format, ...) Q_ATTRIBUTE_FORMAT_PRINTF(1, 2);
QString ascii(const char *format, ...)
{
    char buffer[128];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return QString::fromLatin1(buffer, qBound(0, n, int(sizeof buffer) - 1));
}

// The two formats of every attempt, written digit by digit (vsnprintf's parsing showed in traced runs).
char *putInt(char *out, int v)
{
    char digits[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - unsigned(v) : unsigned(v);
    do {
        digits[n++] = char('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *out++ = '-';
    while (n)
        *out++ = digits[--n];
    return out;
}

QString hex(quint64 v, int digits)
{
    char buffer[16];
    digits = qBound(1, digits, 16);
    for (int i = digits - 1; i >= 0; --i, v >>= 4)
        buffer[i] = "0123456789abcdef"[v & 0xF];
    return QString::fromLatin1(buffer, digits);
}

// "op7/b2/w1/t3", or "op7#2/b2/w1/t3" for a second submission.
QString attemptPath(int op, int sub, int b, int w, int t)
{
    char buffer[80];
    char *p = buffer;
    *p++ = 'o';
    *p++ = 'p';
    p = putInt(p, op);
    if (sub != 1) {
        *p++ = '#';
        p = putInt(p, sub);
    }
    *p++ = '/';
    *p++ = 'b';
    p = putInt(p, b);
    *p++ = '/';
    *p++ = 'w';
    p = putInt(p, w);
    *p++ = '/';
    *p++ = 't';
    p = putInt(p, t);
    return QString::fromLatin1(buffer, int(p - buffer));
}

QString waitText(qint64 us)
{
    if (us < kS)
        return QStringLiteral("wait %1 ms").arg(double(us) / kMs, 0, 'f', us % kMs ? 1 : 0);
    return QStringLiteral("wait %1 s").arg(double(us) / kS, 0, 'f', 2);
}

double percentile(std::vector<qint64> &v, double p)
{
    if (v.empty())
        return 0;
    const size_t idx = std::min(v.size() - 1, size_t(std::ceil(p * double(v.size()))) - (p > 0 ? 1 : 0));
    std::nth_element(v.begin(), v.begin() + long(idx), v.end());
    return double(v[idx]) / kMs;
}

class Engine
{
public:
    Engine(const Scenario &s, const RunOptions &o, WireTransport *live = nullptr)
        : m_s(s)
        , m_c(s.client)
        , m_opt(o)
        , m_tracing(o.trace || o.sink)
        , m_tables(o.trace)
        , m_service(s.server)
        , m_script(s.network.script)
        , m_live(live)
    {
        m_businessMax = m_c.business.enabled ? m_c.business.effectiveMaxAttempts() : 1;
        m_wrapperMax = m_c.wrapper.enabled ? m_c.wrapper.effectiveMaxAttempts() : 1;
        m_clients.resize(size_t(std::max(1, s.workload.clients)));
        for (ClientState &c : m_clients) {
            c.tokens = m_c.retryBudget.startTokens();
            if (m_c.circuitBreaker.enabled && m_c.circuitBreaker.mode == BreakerMode::FailureRate)
                c.outcomes.assign(size_t(std::max(1, m_c.circuitBreaker.window)), 0);
        }
        m_occ = s.server.model == ServerModel::Occ && !live;
        m_closed = s.workload.mode == WorkloadMode::Closed;
        m_tokenMode = s.server.idempotency.mode == IdempotencyMode::Token;
        m_post = QStringLiteral("POST");
        m_get = QStringLiteral("GET");
        m_restarts = !s.server.restartsAtS.isEmpty() || m_script.restarts();
        m_instantLimit = maxEventsAtOneInstant(s);
        m_timeoutText = QStringLiteral("no response within %1 ms").arg(m_c.timeoutMs);
    }

    RunResult run();

    // --- the steppable loop (simulate() runs it to the end; the live path step by step) ---
    void prepare();
    // Processes the events due at or before `until`; false once the run stopped (cancelled, or
    // the guard against a stopped clock: stopError()).
    bool advance(qint64 until);
    qint64 nextDue() const;
    RunResult finishRun(const ServerCounts *server); // server: the live counts, else null
    qint64 now() const { return m_now; }
    bool clientDone() const { return m_flowsOpen == 0 && m_nextArrival >= m_arrivals.size(); }
    const QString &stopError() const { return m_stopError; }
    // Live answers, injected as events at t (never before now).
    void liveReply(int ri, const WireReply &reply, qint64 t);
    void liveToken(int fi, const QString &token, qint64 t);
    void liveTokenFailed(int fi, const QString &why, qint64 t);

private:
    bool popDue(qint64 until, Event *out);
    void dispatch(const Event &e);
    void sendLive(Flow &f, int fi, bool query);
    // --- scheduling -------------------------------------------------------
    void at(qint64 t, Ev type, int a, quint32 serial = 0, quint8 phase = 0)
    {
        m_queue.push(Event{t, m_seq++, type, phase, a, serial});
    }
    // Every read timeout has the same length, so they fall due in the order they are
    // set: a FIFO keeps the many stale ones out of the heap.
    void timeoutAt(qint64 t, int flow, quint32 serial)
    {
        m_timeouts.push_back(Event{t, m_seq++, Ev::ClientTimeout, 0, flow, serial});
    }

    // --- tracing ----------------------------------------------------------
    QString path(const Flow &f, int b, int w, int t) const
    {
        return attemptPath(f.op, f.sub, qMax(1, b), qMax(1, w), qMax(1, t));
    }
    QString requestId(const Flow &f, int b, int w, int t) const
    {
        if (m_c.requestId)
            return QLatin1String("req-") + hex(RngStream(m_s.seed, RngStream::Identity, {quint64(f.op), quint64(f.sub)}).next(), 8);
        return QLatin1String("req-") + hex(RngStream(m_s.seed, RngStream::Identity,
                                                      {quint64(f.op), quint64(f.sub), quint64(b), quint64(w), quint64(t)}).next(), 8);
    }
    QString keyText(quint64 key) const
    {
        if (key == 0)
            return QString();
        if (!m_keyTexts.isEmpty()) {
            const auto it = m_keyTexts.constFind(key);
            if (it != m_keyTexts.constEnd())
                return it.value(); // a live server-issued token
        }
        return (m_tokenMode ? QStringLiteral("tok-") : QStringLiteral("key-")) + hex(key, 10);
    }
    // Returns the event's id (trace.h): its index in the run's trace + 1.
    int trace(Lane lane, EventKind kind, const Flow &f, int b, int w, int t, quint64 key, int status = 0,
              int record = 0, const QString &detail = QString(), const Typed &typed = Typed())
    {
        TraceEvent e;
        e.t = m_now;
        e.lane = lane;
        e.kind = kind;
        e.op = f.op;
        e.sub = f.sub;
        // Most events of an attempt share its path and ID: format them once.
        const quint64 attemptKey = (quint64(quint32(f.op)) << 32) ^ (quint64(f.sub) << 28) ^ (quint64(b) << 20)
            ^ (quint64(w) << 10) ^ quint64(t);
        if (attemptKey != f.cachedAttempt) {
            f.cachedAttempt = attemptKey;
            f.cachedPath = path(f, b, w, t);
            f.cachedRequestId = requestId(f, b, w, t);
        }
        if (key != m_cachedKey) {
            m_cachedKey = key;
            m_cachedKeyText = keyText(key);
        }
        e.path = f.cachedPath;
        e.requestId = f.cachedRequestId;
        e.key = m_cachedKeyText;
        e.status = status;
        e.record = record;
        e.detail = detail;
        e.business = qint16(qMax(1, b));
        e.wrapper = qint16(qMax(1, w));
        e.transport = qint16(qMax(1, t));
        typed.applyTo(e);
        return put(std::move(e));
    }
    // Texts that many events share, formatted once per run: copies share one buffer, so a traced
    // run does not allocate (and later free) a string per event for them.
    template<class Make>
    const QString &cached(std::vector<QString> &cache, int n, Make make)
    {
        if (n < 0 || n >= 4096)
            return m_scratch = make(n);
        if (size_t(n) >= cache.size())
            cache.resize(size_t(n) + 1);
        QString &text = cache[size_t(n)];
        if (text.isNull())
            text = make(n);
        return text;
    }
    const QString &statusText(int status)
    {
        return cached(m_statusTexts, status, [](int n) { return QString::number(n); });
    }
    // AttemptOutcome::describe(), with the plain status answers from the cache.
    QString describe(const AttemptOutcome &o)
    {
        if (o.kind == OutcomeKind::Response && !o.raised && !o.replayed)
            return statusText(o.status);
        return o.describe();
    }
    int put(TraceEvent &&e)
    {
        e.id = ++m_lastEventId;
        if (m_opt.sink)
            m_opt.sink(e);
        else
            m_trace.append(std::move(e));
        return m_lastEventId;
    }
    int traceFlow(Lane lane, EventKind kind, const Flow &f, int status = 0, int record = 0,
                  const QString &detail = QString(), const Typed &typed = Typed())
    {
        return trace(lane, kind, f, f.b, f.w, f.t, f.key, status, record, detail, typed);
    }
    // A request's event: its method, and by default the link to its arrival (or, before it, its send).
    int traceReq(Lane lane, EventKind kind, const Request &r, int status = 0, int record = 0,
                 const QString &detail = QString(), Typed typed = Typed())
    {
        const Flow &f = m_flows[size_t(r.flow)];
        typed.method = r.method == Method::Get ? TraceMethod::GetOrder : TraceMethod::PostOrder;
        if (typed.answers == 0)
            typed.answers = r.arrivedId != 0 ? r.arrivedId : r.sentId;
        return trace(lane, kind, f, r.b, r.w, r.t, r.order.key, status, record, detail, typed);
    }
    static TraceOutcome outcomeOf(const AttemptOutcome &o)
    {
        switch (o.kind) {
        case OutcomeKind::Response:
            return o.raised ? TraceOutcome::Raised : (o.replayed ? TraceOutcome::Replayed : TraceOutcome::Response);
        case OutcomeKind::ConnectError:
            return TraceOutcome::ConnectError;
        case OutcomeKind::ReadTimeout:
            return TraceOutcome::ReadTimeout;
        case OutcomeKind::ConnectionReset:
            return TraceOutcome::ConnectionReset;
        case OutcomeKind::CircuitOpen:
            return TraceOutcome::CircuitOpen;
        }
        return TraceOutcome::None;
    }
    static TraceMethod flowMethod(const Flow &f) { return f.querying ? TraceMethod::GetOrder : TraceMethod::PostOrder; }

    // --- client -----------------------------------------------------------
    bool mintKey(Flow &f, int phase, Ev resume, const char *where, TraceCause cause);
    void onOpStart(int fi, int phase);
    void onBusinessStart(int fi, int phase);
    void onWrapperStart(int fi, int phase);
    void onTransportSend(int fi);
    void sendQuery(Flow &f, int fi);
    void sendQueryAttempt(int fi);
    void queryFailed(int fi, const AttemptOutcome &o);
    void deliver(int fi, const AttemptOutcome &o);
    // The shape the business loop and the @retry wrapper share: wait and go again, or give up.
    struct LayerRetry
    {
        Lane lane;
        const LayerConfig &config;
        int max;
        int attempt;
        bool retryable;
        qint64 *prevWait;
        qint64 since;     // start of the layer's deadline
        qint64 minWaitUs; // e.g. a Retry-After the layer honours
        double u;         // the jitter draw
        Ev resume;
    };
    bool retryLayer(int fi, const AttemptOutcome &o, const LayerRetry &layer);
    void afterWrapper(int fi, const AttemptOutcome &o);
    void afterBusiness(int fi, const AttemptOutcome &o);
    // `typed`: the cause (Final with the outcome, or why else), arg the last status.
    void finish(Flow &f, bool ok, const QString &why, const Typed &typed);
    bool spendBudget(Flow &f, Lane lane);
    // The transport's verdict on a failed attempt (POST or status query), carried out: schedules
    // `resume` after the wait and returns true, or traces why it gives up and returns false.
    bool transportRetries(Flow &f, int fi, const AttemptOutcome &o, const TransportVerdict &v, Ev resume,
                          const QString &what);
    quint32 faultsFor(const Flow &f);

    // --- network and server -----------------------------------------------
    int newRequest();
    void freeRequest(int ri)
    {
        // Live requests keep their slot: a late answer or an abandon may still name it.
        if (!m_live)
            m_free.push_back(ri);
    }
    qint64 latency(RngStream &rng) const { return faults::drawUs(m_s.network.latencyMs, rng); }
    void onReadArrive(int fi, quint32 serial);
    void onReadReply(int fi, quint32 serial);
    void sendWrite(int fi);
    void recordBreaker(ClientState &cs, bool failure);
    ClientState &budgetOf(const Flow &f)
    {
        return m_clients[m_c.retryBudget.scope == BudgetScope::Global ? 0 : size_t(f.client)];
    }
    void onRequestArrive(int ri);
    void startProcessing(int ri);
    void onProcessingDone(int ri);
    void respond(int ri, int status, int retryAfterS);
    void releaseSlot();
    void onResponseArrive(int ri, bool reset);
    void onReconcile();
    void noteCommit(const Request &r);
    void restartServer();
    bool serverDown() const { return m_now < m_downUntil; }

    Scenario m_s;
    const ClientConfig &m_c;
    RunOptions m_opt;
    bool m_tracing; // events are made (for RunResult::trace or the sink)
    bool m_tables;  // RunResult::records and ::ops are filled
    OrderService m_service;
    faults::Script m_script;
    EventQueue m_queue;
    std::deque<Event> m_timeouts;
    quint64 m_seq = 0;
    qint64 m_now = 0;
    std::vector<Flow> m_flows;
    std::vector<Request> m_requests;
    std::vector<int> m_free;
    std::vector<ClientState> m_clients;
    std::deque<int> m_waiting; // requests queued for a processing slot
    int m_busy = 0;
    int m_businessMax = 1;
    int m_wrapperMax = 1;
    bool m_tokenMode = false;
    int m_flowsOpen = 0;
    quint64 m_keyCounter = 0;
    QString m_post;
    QString m_get;
    Trace m_trace;
    quint64 m_cachedKey = 0;
    QString m_cachedKeyText;
    int m_lastEventId = 0;         // ids of the trace's events (trace.h): the last one given
    std::vector<int> m_commitIds;  // record - 1 -> the id of its Committed event (replays link to it)
    std::vector<QString> m_statusTexts, m_businessTexts, m_wrapperTexts, m_attemptTexts, m_processingTexts;
    QString m_scratch;
    QString m_timeoutText;
    Metrics m_m;
    std::vector<int> m_recordFlow;
    std::vector<QString> m_recordPath;
    std::vector<std::pair<qint64, int>> m_arrivals; // (start, flow), in start order
    int m_ops = 0;        // logical operations of the run
    bool m_occ = false;   // server.model occ (simulated only)
    bool m_closed = false; // workload.mode closed
    std::vector<qint64> m_rowVersion; // occ: each row's version
    size_t m_nextArrival = 0;
    quint64 m_processed = 0;
    size_t m_reconciledRecords = 0; // records that the last reconciliation pass saw
    qint64 m_lastCommit = -1;
    // Server restarts: requests queued or processing belong to an epoch; a restart starts a new
    // one and drops the rest. Down until m_downUntil: connections are refused, arrivals dropped.
    quint32 m_epoch = 0;
    qint64 m_downUntil = -1;
    std::vector<int> m_inServer; // requests processing, for the restart to drop (kept only with restarts)
    bool m_restarts = false;
    qint64 m_instantLimit = 0; // maxEventsAtOneInstant
    qint64 m_eventsNow = 0;    // processed at m_now so far
    bool m_cancelled = false;
    QString m_stopError;
    // The live path: requests go here instead of the simulated network and server.
    WireTransport *m_live = nullptr;
    QHash<quint64, QString> m_keyTexts; // live order tokens, as the server issued them
    QHash<int, QString> m_tokenErrors;  // live: why a flow got no order token
};

// ------------------------------------------------------------------ client

bool Engine::mintKey(Flow &f, int phase, Ev resume, const char *where, TraceCause cause)
{
    if (phase == 1)
        return true; // token already fetched
    if (m_c.keyPlacement == KeyPlacement::None)
        return true;
    const quint64 key = RngStream::mix(m_s.seed ^ RngStream::mix(++m_keyCounter)) | 1;
    f.key = key;
    if (m_tokenMode && m_live) {
        f.tokenResume = quint8(resume);
        m_live->fetchToken(int(&f - m_flows.data()), requestId(f, f.b, f.w, f.t));
        return false;
    }
    if (m_tokenMode) {
        // POST /order-tokens: one round trip before the order can be sent.
        m_service.issueToken(key);
        RngStream rng(m_s.seed, RngStream::Identity, {quint64(f.op), quint64(f.sub), quint64(m_keyCounter)});
        const qint64 rtt = latency(rng) + latency(rng);
        if (m_tracing)
            traceFlow(Lane::Server, EventKind::TokenIssued, f, 201, 0,
                      QStringLiteral("POST /order-tokens (%1)").arg(QLatin1String(where)),
                      {cause, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostToken});
        at(m_now + rtt, Ev::TokenReady, int(&f - m_flows.data()), quint32(resume), 1);
        return false;
    }
    // The key belongs to the layer that mints it: inside the @retry wrapper for perWrapperAttempt.
    if (m_tracing)
        traceFlow(m_c.keyPlacement == KeyPlacement::PerWrapperAttempt ? Lane::Wrapper : Lane::Business,
                  EventKind::KeyMinted, f, 0, 0, QLatin1String(where), {cause});
    return true;
}

void Engine::onOpStart(int fi, int phase)
{
    Flow &f = m_flows[size_t(fi)];
    if (phase == 0) {
        f.start = m_now;
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::OpStart, f, 0, 0,
                      f.sub == 1 ? ascii("ORD-%04d", f.op)
                                 : ascii("ORD-%04d submitted again", f.op));
        if (m_c.keyPlacement == KeyPlacement::PerOperation) {
            // A double submit reuses the key minted for the form (same operation).
            if (f.sub > 1 && m_flows[size_t(fi - 1)].op == f.op && m_flows[size_t(fi - 1)].key != 0) {
                f.key = m_flows[size_t(fi - 1)].key;
            } else if (!mintKey(f, phase, Ev::OpStart, "per operation", TraceCause::PerOperation)) {
                return;
            }
        }
    }
    onBusinessStart(fi, 0);
}

void Engine::onBusinessStart(int fi, int phase)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.done)
        return;
    if (phase == 0) {
        f.b++;
        f.w = 0;
        f.t = 0;
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::BusinessAttempt, f, 0, 0,
                      m_c.business.maxAttempts == 0
                          ? ascii("business attempt %d (unlimited until the %d ms deadline)", f.b, m_c.business.deadlineMs)
                          : cached(m_businessTexts, f.b, [this](int b) { return ascii("business attempt %d of %d", b, m_businessMax); }),
                      {TraceCause::MaxAttempts, m_c.business.maxAttempts == 0 ? 0 : m_businessMax, m_c.business.deadlineMs});
        if (m_c.keyPlacement == KeyPlacement::PerBusinessAttempt && !mintKey(f, 0, Ev::BusinessStart, "per business attempt", TraceCause::PerBusinessAttempt))
            return;
    }
    if (m_c.queryBeforeRetry && f.b > 1) {
        sendQuery(f, fi);
        return;
    }
    f.wrapperFirstStart = -1;
    f.prevWrapperWait = 0; // a new run of the wrapper's loop: its jitter starts afresh
    onWrapperStart(fi, 0);
}

void Engine::onWrapperStart(int fi, int phase)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.done)
        return;
    if (phase == 0) {
        f.w++;
        f.t = 0;
        f.transportDone = TransportCounts();
        if (f.wrapperFirstStart < 0)
            f.wrapperFirstStart = m_now;
        // The decorated method builds the request: payload (and a key minted here) are new each time.
        f.fingerprint = RngStream::mix(quint64(f.op) * 0x100000001B3ull
                                       ^ (m_c.mutatePayloadOnRetry ? quint64(f.b * 1000 + f.w) : 0ull));
        if (m_tracing && m_c.wrapper.enabled)
            traceFlow(Lane::Wrapper, EventKind::WrapperAttempt, f, 0, 0,
                      m_c.wrapper.maxAttempts == 0
                          ? ascii("wrapper attempt %d (unlimited until the %d ms deadline)", f.w, m_c.wrapper.deadlineMs)
                          : cached(m_wrapperTexts, f.w, [this](int w) { return ascii("wrapper attempt %d of %d", w, m_wrapperMax); }),
                      {TraceCause::MaxAttempts, m_c.wrapper.maxAttempts == 0 ? 0 : m_wrapperMax, m_c.wrapper.deadlineMs});
        if (m_c.keyPlacement == KeyPlacement::PerWrapperAttempt && !mintKey(f, 0, Ev::WrapperStart, "per wrapper attempt", TraceCause::PerWrapperAttempt))
            return;
    }
    onTransportSend(fi);
}

quint32 Engine::faultsFor(const Flow &f)
{
    const faults::Attempt attempt{f.op, f.sub, f.b, f.w, f.t, false};
    return (m_script.empty() ? 0u : m_script.match(attempt)) | faults::postNetworkDice(m_s, attempt, m_now);
}

void Engine::onTransportSend(int fi)
{
    Flow &f = m_flows[size_t(fi)];
    f.t++;
    f.serial++;
    f.waiting = true;
    f.querying = false;
    if (m_tracing)
        f.sentId = traceFlow(Lane::Transport, EventKind::TransportAttempt, f, 0, 0,
                             cached(m_attemptTexts, f.t, [](int t) { return ascii("POST /orders, attempt %d", t); }),
                             {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostOrder});

    ClientState &cs = m_clients[size_t(f.client)];
    const bool firstTry = f.b <= 1 && f.w <= 1 && f.t == 1;
    if (m_c.circuitBreaker.enabled && cs.openUntil >= 0 && m_now < cs.openUntil
        && !(m_c.circuitBreaker.retriesOnly && firstTry)) {
        m_m.circuitRejections++;
        if (m_tracing)
            traceFlow(Lane::Transport, EventKind::CircuitOpen, f, 0, 0, QStringLiteral("circuit breaker open"),
                      {TraceCause::BreakerOpen, 0, 0, 0, f.sentId, TraceOutcome::None, CommitPhase::None, TraceMethod::PostOrder});
        f.waiting = false;
        AttemptOutcome o;
        o.kind = OutcomeKind::CircuitOpen;
        deliver(fi, o);
        return;
    }
    if (m_occ && !serverDown()) {
        // Read the row's version first (GET, no faults: the AWS model), then write with it.
        m_m.reads++;
        RngStream rng(m_s.seed, RngStream::Network,
                      {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), quint64(f.t), 11});
        at(m_now + latency(rng), Ev::ReadArrive, fi, f.serial);
        return;
    }
    sendWrite(fi);
}

void Engine::onReadArrive(int fi, quint32 serial)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.done || f.serial != serial)
        return;
    f.readVersion = m_rowVersion[size_t(f.row)];
    if (m_tracing)
        traceFlow(Lane::Server, EventKind::RowRead, f, 200, 0,
                  ascii("row %d: version %lld", f.row + 1, static_cast<long long>(f.readVersion)),
                  {TraceCause::RowVersion, f.row + 1, f.readVersion, 0, f.sentId});
    RngStream rng(m_s.seed, RngStream::Network,
                  {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), quint64(f.t), 12});
    at(m_now + latency(rng), Ev::ReadReply, fi, serial);
}

void Engine::onReadReply(int fi, quint32 serial)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.done || f.serial != serial)
        return;
    sendWrite(fi);
}

void Engine::sendWrite(int fi)
{
    Flow &f = m_flows[size_t(fi)];
    m_m.httpAttempts++;
    f.postAttempts++;
    quint32 faults = faultsFor(f);
    if (serverDown())
        faults |= FConnect; // nothing listens while the server restarts
    const quint32 serial = f.serial;
    if (faults & FConnect) {
        at(m_now + qint64(m_c.connectFailMs) * kMs, Ev::ConnectFail, fi, serial);
        return;
    }
    timeoutAt(m_now + qint64(m_c.timeoutMs) * kMs, fi, serial);
    if (m_live) {
        // Everything past a refused connection happens on the wire: the server reads the attempt
        // path and meets the same script and dice.
        sendLive(f, fi, false);
        return;
    }

    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    r.serial = serial;
    r.method = Method::Post;
    r.faults = faults;
    r.b = f.b;
    r.w = f.w;
    r.t = f.t;
    r.order.op = f.op;
    r.order.key = f.key;
    r.order.fingerprint = f.fingerprint;
    r.version = f.readVersion;
    r.sentId = f.sentId;
    if (faults & FRequestLost) {
        if (m_tracing)
            traceReq(Lane::Network, EventKind::RequestLost, r, 0, 0, QStringLiteral("the request never reached the server"),
                     {TraceCause::NeverReached});
        freeRequest(ri);
        return;
    }
    RngStream rng(m_s.seed, RngStream::Network,
                  {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), quint64(f.t), 7});
    qint64 delay = latency(rng);
    if (faults & FSpike) {
        delay += qint64(m_s.network.spikeMs) * kMs;
        if (m_tracing)
            r.sentId = traceReq(Lane::Network, EventKind::RequestDelayed, r, 0, 0,
                                QStringLiteral("delayed by %1 ms").arg(m_s.network.spikeMs),
                                {TraceCause::LatencySpike, m_s.network.spikeMs});
    }
    at(m_now + delay, Ev::RequestArrive, ri);
}

void Engine::sendQuery(Flow &f, int fi)
{
    m_m.queries++;
    f.qt = 0;
    if (m_tracing)
        f.sentId = traceFlow(Lane::Business, EventKind::QuerySent, f, 0, 0, ascii("GET /orders?ref=ORD-%04d", f.op),
                             {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::GetOrder});
    sendQueryAttempt(fi);
}

void Engine::sendQueryAttempt(int fi)
{
    // GET /orders?ref= goes through the same session as the POST: every network fault, a restarting
    // server and the script entries with "method": "GET" apply, and the transport retries it (GET
    // is in urllib3's default allowed_methods). Its path is bN/w1/tQ, Q counting its HTTP attempts.
    Flow &f = m_flows[size_t(fi)];
    if (f.done)
        return;
    f.qt++;
    f.serial++;
    f.waiting = true;
    f.querying = true;
    m_m.queryAttempts++;
    if (m_tracing && f.qt > 1)
        f.sentId = traceFlow(Lane::Transport, EventKind::QuerySent, f, 0, 0,
                             ascii("GET /orders?ref=ORD-%04d, attempt %d", f.op, f.qt),
                             {TraceCause::None, f.qt, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::GetOrder});
    const NetworkConfig &n = m_s.network;
    const faults::Attempt query{f.op, f.sub, f.b, 1, f.qt, true};
    qint64 delay = 0;
    quint32 faults = faults::queryDice(m_s, query, &delay, m_now);
    if (m_script.addressesQueries())
        faults |= m_script.match(query);
    if (serverDown())
        faults |= FConnect; // nothing listens while the server restarts
    if (faults & FConnect) {
        at(m_now + qint64(m_c.connectFailMs) * kMs, Ev::ConnectFail, fi, f.serial);
        return;
    }
    timeoutAt(m_now + qint64(m_c.timeoutMs) * kMs, fi, f.serial);
    if (m_live) {
        sendLive(f, fi, true);
        return;
    }
    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    r.serial = f.serial;
    r.method = Method::Get;
    r.faults = faults;
    r.b = f.b;
    r.w = qMax(1, f.w);
    r.t = qMax(1, f.t);
    r.order.op = f.op;
    r.sentId = f.sentId;
    if (faults & FRequestLost) {
        if (m_tracing)
            traceReq(Lane::Network, EventKind::RequestLost, r, 0, 0, QStringLiteral("the status query was lost"),
                     {TraceCause::NeverReached});
        freeRequest(ri);
        return;
    }
    if (faults & FSpike) {
        delay += qint64(n.spikeMs) * kMs;
        if (m_tracing)
            r.sentId = traceReq(Lane::Network, EventKind::RequestDelayed, r, 0, 0, QStringLiteral("delayed by %1 ms").arg(n.spikeMs),
                                {TraceCause::LatencySpike, n.spikeMs});
    }
    at(m_now + delay, Ev::RequestArrive, ri);
}

void Engine::queryFailed(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    f.querying = false;
    if (m_c.transport.enabled) {
        if (transportRetries(f, fi, o, policy::transport(m_c.transport, m_get, o, f.qt - 1), Ev::QuerySend,
                             QStringLiteral("GET ")))
            return;
    }
    // No answer: the order may or may not exist.
    if (m_c.onUnknownQuery == UnknownQuery::Resend && !f.tokenUsed) {
        if (m_tracing)
            traceFlow(Lane::Business, EventKind::QueryResult, f, 0, 0,
                      QStringLiteral("status unknown (%1): send again").arg(o.describe()),
                      {TraceCause::StatusUnknown, o.status, 0, 0, f.sentId, outcomeOf(o), CommitPhase::None,
                       TraceMethod::GetOrder});
        f.wrapperFirstStart = -1;
        onWrapperStart(fi, 0);
        return;
    }
    // An unanswered status query cannot prove the order is absent: do not resend.
    afterBusiness(fi, o);
}

bool Engine::transportRetries(Flow &f, int fi, const AttemptOutcome &o, const TransportVerdict &v, Ev resume,
                              const QString &what)
{
    if (v.retry && spendBudget(f, Lane::Transport)) {
        if (m_tracing)
            traceFlow(Lane::Transport, EventKind::RetryScheduled, f, o.status, 0,
                      QStringLiteral("%1%2 after %3").arg(what, waitText(v.delayUs), o.describe()),
                      {v.retryAfter ? TraceCause::RetryAfter : TraceCause::Backoff, v.delayUs,
                       v.retryAfter && o.retryAfterS * kS > v.delayUs ? o.retryAfterS : 0, 0, 0, outcomeOf(o),
                       CommitPhase::None, what.isEmpty() ? TraceMethod::PostOrder : TraceMethod::GetOrder});
        at(m_now + v.delayUs, resume, fi);
        return true;
    }
    if (m_tracing && !v.retry)
        traceFlow(Lane::Transport, EventKind::GaveUp, f, o.status, 0, v.reason,
                  {v.why, v.limit, v.counter, 0, 0, outcomeOf(o), CommitPhase::None,
                   what.isEmpty() ? TraceMethod::PostOrder : TraceMethod::GetOrder});
    return false;
}

bool Engine::spendBudget(Flow &f, Lane lane)
{
    if (!m_c.retryBudget.enabled)
        return true;
    ClientState &cs = budgetOf(f);
    if (cs.tokens >= 1.0) {
        cs.tokens -= 1.0;
        return true;
    }
    m_m.budgetRefusals++;
    if (m_tracing)
        traceFlow(lane, EventKind::BudgetExhausted, f, 0, 0,
                  QStringLiteral("retry budget empty (%1 tokens)").arg(cs.tokens, 0, 'f', 2),
                  {TraceCause::BudgetEmpty, qint64(std::llround(cs.tokens * 100))});
    return false;
}

void Engine::deliver(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    ClientState &cs = m_clients[size_t(f.client)];
    if (m_c.circuitBreaker.enabled && policy::breakerRecords(o))
        recordBreaker(cs, policy::breakerFailure(o));
    if (o.ok() && m_c.retryBudget.enabled) {
        ClientState &bucket = budgetOf(f);
        bucket.tokens = std::min(m_c.retryBudget.maxTokens, bucket.tokens + m_c.retryBudget.ratio);
    }

    if (m_c.transport.enabled && !o.ok()) {
        double jitterU = 0;
        if (m_c.transport.backoffJitterS > 0) {
            RngStream rng(m_s.seed, RngStream::Backoff,
                          {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), quint64(f.t), 3});
            jitterU = rng.uniform();
        }
        const TransportVerdict v = policy::transport(m_c.transport, m_post, o, f.transportDone, jitterU);
        if (transportRetries(f, fi, o, v, Ev::TransportSend, QString())) {
            f.transportDone.add(v.cause);
            return;
        }
        if (!v.retry && v.statusExhausted && m_c.transport.raiseOnStatus) {
            // raise_on_status: MaxRetryError reaches the layer above, the response (and its
            // Retry-After) does not.
            AttemptOutcome raised = o;
            raised.raised = true;
            raised.retryAfterS = -1;
            afterWrapper(fi, raised);
            return;
        }
    }
    afterWrapper(fi, o);
}

void Engine::recordBreaker(ClientState &cs, bool failure)
{
    const CircuitBreakerConfig &cb = m_c.circuitBreaker;
    if (cb.mode == BreakerMode::Consecutive) {
        if (failure) {
            if (++cs.consecutiveFailures >= cb.failureThreshold) {
                cs.openUntil = m_now + qint64(cb.openMs) * kMs;
                cs.consecutiveFailures = 0;
            }
        } else {
            cs.consecutiveFailures = 0;
            cs.openUntil = -1;
        }
        return;
    }
    // Failure rate over the last `window` outcomes, once the window is full; opening starts a new window.
    const int size = int(cs.outcomes.size());
    if (cs.filled == size)
        cs.failures -= cs.outcomes[size_t(cs.next)];
    else
        cs.filled++;
    cs.outcomes[size_t(cs.next)] = failure ? 1 : 0;
    cs.failures += failure ? 1 : 0;
    cs.next = (cs.next + 1) % size;
    if (!failure && cs.openUntil >= 0 && m_now >= cs.openUntil)
        cs.openUntil = -1; // a probe succeeded
    if (cs.filled == size && qint64(cs.failures) * 100 >= qint64(cb.failureRatePercent) * size) {
        cs.openUntil = m_now + qint64(cb.openMs) * kMs;
        std::fill(cs.outcomes.begin(), cs.outcomes.end(), 0);
        cs.filled = 0;
        cs.next = 0;
        cs.failures = 0;
    }
}

bool Engine::retryLayer(int fi, const AttemptOutcome &o, const LayerRetry &layer)
{
    Flow &f = m_flows[size_t(fi)];
    if (layer.attempt < layer.max && layer.retryable) {
        const qint64 backoff = policy::backoffUs(layer.config.backoff, layer.attempt, *layer.prevWait, layer.u);
        const qint64 wait = std::max(layer.minWaitUs, backoff);
        // tenacity stop_before_delay: stop when elapsed + the next wait reaches the deadline.
        const bool deadlineOk = layer.config.deadlineMs <= 0
            || m_now + wait - layer.since < qint64(layer.config.deadlineMs) * kMs;
        if (deadlineOk && spendBudget(f, layer.lane)) {
            // Decorrelated jitter grows from its own previous wait; a Retry-After does not feed it.
            *layer.prevWait = backoff;
            if (m_tracing)
                traceFlow(layer.lane, EventKind::RetryScheduled, f, o.status, 0,
                          QStringLiteral("%1 after %2").arg(waitText(wait), o.describe()),
                          {backoff < layer.minWaitUs ? TraceCause::RetryAfter : TraceCause::Backoff, wait, 0, 0, 0,
                           outcomeOf(o)});
            at(m_now + wait, layer.resume, fi);
            return true;
        }
        if (m_tracing && !deadlineOk)
            traceFlow(layer.lane, EventKind::GaveUp, f, o.status, 0, QStringLiteral("deadline reached"),
                      {TraceCause::Deadline, layer.config.deadlineMs, 0, 0, 0, outcomeOf(o)});
    } else if (m_tracing) {
        traceFlow(layer.lane, EventKind::GaveUp, f, o.status, 0,
                  layer.attempt >= layer.max ? QStringLiteral("stop after %1 attempts").arg(layer.max)
                                             : QStringLiteral("%1 is not retried").arg(o.describe()),
                  {layer.attempt >= layer.max ? TraceCause::MaxAttempts : TraceCause::NotRetried, layer.max, 0, 0, 0,
                   outcomeOf(o)});
    }
    return false;
}

void Engine::afterWrapper(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    if (f.tokenUsed) {
        // A used single-use token is a final answer for every client layer: resending it can
        // only get 409 again.
        if (m_tracing && m_c.wrapper.enabled)
            traceFlow(Lane::Wrapper, EventKind::GaveUp, f, o.status, 0, QStringLiteral("order token already used: final"),
                      {TraceCause::TokenSpent, 0, 0, 0, 0, outcomeOf(o)});
        afterBusiness(fi, o);
        return;
    }
    if (!o.ok() && m_c.wrapper.enabled) {
        RngStream rng(m_s.seed, RngStream::Backoff, {quint64(f.op), quint64(f.sub), quint64(f.b), quint64(f.w), 2});
        const LayerRetry layer{Lane::Wrapper, m_c.wrapper, m_wrapperMax, f.w,
                               policy::wrapperRetries(m_c.wrapperRetryOn, o), &f.prevWrapperWait,
                               f.wrapperFirstStart, 0, rng.uniform(), Ev::WrapperStart};
        if (retryLayer(fi, o, layer))
            return;
    }
    afterBusiness(fi, o);
}

void Engine::afterBusiness(int fi, const AttemptOutcome &o)
{
    Flow &f = m_flows[size_t(fi)];
    if (o.ok()) {
        finish(f, true, o.replayed ? QStringLiteral("replayed %1").arg(o.status) : QString::number(o.status),
               {TraceCause::Final, o.status, 0, 0, 0, outcomeOf(o)});
        return;
    }
    if (f.tokenUsed && o.kind == OutcomeKind::Response && o.status == 409 && !m_c.queryBeforeRetry) {
        // Final: resending the spent token can only get 409 again. The order may exist (its first
        // response was lost); only a client that queries before its next attempt finds out: the
        // business loop then goes on, and its next attempt starts with GET /orders?ref=.
        finish(f, false, QStringLiteral("409: order token already used"),
               {TraceCause::TokenSpent, o.status, 0, 0, 0, outcomeOf(o)});
        return;
    }
    if (m_c.business.enabled) {
        RngStream rng(m_s.seed, RngStream::Backoff, {quint64(f.op), quint64(f.sub), quint64(f.b), 1});
        const qint64 retryAfter = m_c.businessRespectRetryAfter && o.retryAfterS >= 0 ? qint64(o.retryAfterS) * kS : 0;
        const LayerRetry layer{Lane::Business, m_c.business, m_businessMax, f.b, policy::businessRetries(o),
                               &f.prevBusinessWait, f.start, retryAfter, rng.uniform(), Ev::BusinessStart};
        if (retryLayer(fi, o, layer))
            return;
    }
    finish(f, false, o.describe(), {TraceCause::Final, o.status, 0, 0, 0, outcomeOf(o)});
}

void Engine::finish(Flow &f, bool ok, const QString &why, const Typed &typed)
{
    f.done = true;
    f.succeeded = ok;
    f.end = m_now;
    f.waiting = false;
    m_flowsOpen--;
    if (m_closed && f.nextFlow >= 0) {
        // The client thinks, then starts its next operation (and that one's double submit).
        const qint64 next = m_now + qint64(m_s.workload.thinkTimeMs) * kMs;
        const Flow &n = m_flows[size_t(f.nextFlow)];
        at(next, Ev::OpStart, f.nextFlow);
        if (n.pairFlow >= 0)
            at(next + qint64(m_s.workload.doubleSubmitDelayMs) * kMs, Ev::OpStart, n.pairFlow);
    }
    if (m_tracing) {
        traceFlow(Lane::Business, ok ? EventKind::OpSucceeded : EventKind::OpFailed, f, 0, 0, why, typed);
        // A streamed run of a million orders must not keep a million formatted paths: a late
        // response formats its own again.
        f.cachedAttempt = ~0ull;
        f.cachedPath = QString();
        f.cachedRequestId = QString();
    }
}

// ------------------------------------------------------------- server side

int Engine::newRequest()
{
    if (!m_free.empty()) {
        const int ri = m_free.back();
        m_free.pop_back();
        m_requests[size_t(ri)] = Request();
        return ri;
    }
    m_requests.emplace_back();
    return int(m_requests.size()) - 1;
}

void Engine::onRequestArrive(int ri)
{
    Request &r = m_requests[size_t(ri)];
    const Flow &f = m_flows[size_t(r.flow)];
    if (serverDown()) {
        // Sent before the restart, arriving while the server is down: the connection is gone.
        if (m_tracing)
            traceReq(Lane::Network, EventKind::RequestLost, r, 0, 0,
                     QStringLiteral("the server is restarting: the request was dropped"), {TraceCause::ServerRestarting});
        freeRequest(ri);
        return;
    }
    r.epoch = m_epoch;
    if (m_tracing)
        r.arrivedId = traceReq(Lane::Server, EventKind::RequestArrived, r, 0, 0,
                               r.method == Method::Get ? ascii("GET /orders?ref=ORD-%04d", f.op)
                                                       : QStringLiteral("POST /orders"));
    if (r.method == Method::Get) {
        const ServerConfig &sc = m_s.server;
        if (r.faults & F429) {
            m_m.throttled429++;
            if (m_tracing)
                traceReq(Lane::Server, EventKind::Rejected, r, 429, 0, QStringLiteral("rate limited, Retry-After: %1").arg(sc.retryAfterS),
                         {TraceCause::RateLimited, sc.retryAfterS});
            respond(ri, 429, sc.retryAfterS);
            return;
        }
        if (r.faults & (F5xxBefore | F5xxAfter)) {
            m_m.serverErrors++;
            if (m_tracing)
                traceReq(Lane::Server, EventKind::ServerError, r, sc.errorStatus, 0, QStringLiteral("the status query failed"),
                         {TraceCause::QueryFailed});
            respond(ri, sc.errorStatus, -1);
            return;
        }
        const int record = m_service.findByRef(r.order.op);
        r.record = record;
        respond(ri, record ? 200 : 404, -1);
        return;
    }
    const ServerConfig &sc = m_s.server;
    r.faults |= faults::serverDice(m_s, {f.op, f.sub, r.b, r.w, r.t, false}, m_now);
    if (r.faults & F429) {
        m_m.throttled429++;
        if (m_tracing)
            traceReq(Lane::Server, EventKind::Rejected, r, 429, 0, QStringLiteral("rate limited, Retry-After: %1").arg(sc.retryAfterS),
                     {TraceCause::RateLimited, sc.retryAfterS});
        respond(ri, 429, sc.retryAfterS);
        return;
    }
    if (sc.capacity > 0 && m_busy >= sc.capacity) {
        if (int(m_waiting.size()) < sc.queue) {
            m_waiting.push_back(ri);
            if (m_tracing)
                traceReq(Lane::Server, EventKind::Queued, r, 0, 0, QStringLiteral("queue position %1").arg(m_waiting.size()),
                         {TraceCause::QueuePosition, qint64(m_waiting.size())});
            return;
        }
        m_m.rejected503++;
        if (m_tracing)
            traceReq(Lane::Server, EventKind::Rejected, r, 503, 0,
                     QStringLiteral("server full, Retry-After: %1").arg(sc.retryAfterS), {TraceCause::ServerFull, sc.retryAfterS});
        respond(ri, 503, sc.retryAfterS);
        return;
    }
    startProcessing(ri);
}

void Engine::startProcessing(int ri)
{
    Request &r = m_requests[size_t(ri)];
    const Flow &f = m_flows[size_t(r.flow)];
    const ServiceDecision d = m_service.begin(r.order, m_now);
    if (m_tracing && d.keyExpired)
        traceReq(Lane::Database, EventKind::KeyExpired, r, 0, 0,
                 QStringLiteral("key older than the %1 s TTL was forgotten").arg(m_s.server.idempotency.ttlS),
                 {TraceCause::KeyTtl, m_s.server.idempotency.ttlS});
    if (d.kind == ServiceDecision::Reject) {
        if (d.status == 409)
            m_m.conflicts409++;
        else if (d.status == 422)
            m_m.mismatch422++;
        else if (d.status == 400)
            m_m.rejected400++;
        r.tokenUsed = d.tokenUsed;
        if (m_tracing)
            traceReq(Lane::Server, EventKind::Rejected, r, d.status, 0, d.reason, {d.why});
        respond(ri, d.status, -1);
        return;
    }
    if (d.kind == ServiceDecision::Replay) {
        m_m.replays++;
        r.replayed = true;
        r.record = d.record;
        if (m_tracing)
            traceReq(Lane::Server, EventKind::Replayed, r, d.status, d.record, QStringLiteral("Idempotent-Replayed: true"),
                     {TraceCause::None, 0, 0, 0, d.record > 0 && size_t(d.record) <= m_commitIds.size() ? m_commitIds[size_t(d.record - 1)] : 0});
        respond(ri, d.status, -1);
        return;
    }
    if (m_tracing && d.keyReserved)
        traceReq(Lane::Database, EventKind::KeyReserved, r, 0, 0, QStringLiteral("key reserved in flight"));
    m_busy++;
    if (m_restarts)
        m_inServer.push_back(ri);
    qint64 p = faults::processingUs(m_s, {f.op, f.sub, r.b, r.w, r.t, false});
    if (m_s.server.latencyPerInFlightMs > 0) // the others already processing slow this one down
        p += qint64(std::llround(m_s.server.latencyPerInFlightMs * kMs * (m_busy - 1)));
    if (m_tracing)
        traceReq(Lane::Server, EventKind::ProcessingStarted, r, 0, 0, cached(m_processingTexts, int((p + kMs / 2) / kMs), [](int ms) { return ascii("processing %d ms", ms); }),
                 {TraceCause::Processing, (p + kMs / 2) / kMs});
    at(m_now + p, Ev::ProcessingDone, ri);
}

void Engine::onProcessingDone(int ri)
{
    Request &r = m_requests[size_t(ri)];
    if (m_restarts) {
        if (r.epoch != m_epoch) {
            freeRequest(ri); // dropped by a restart while it was processing
            return;
        }
        const auto it = std::find(m_inServer.begin(), m_inServer.end(), ri);
        if (it != m_inServer.end()) {
            *it = m_inServer.back();
            m_inServer.pop_back();
        }
    }
    const int errorStatus = m_s.server.errorStatus;
    if (r.faults & F5xxBefore) {
        m_m.serverErrors++;
        m_service.failBeforeCommit(r.order, m_now, errorStatus);
        if (m_tracing)
            traceReq(Lane::Server, EventKind::ServerError, r, errorStatus, 0, QStringLiteral("failed before commit"),
                     {TraceCause::InjectedError, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::BeforeCommit});
        releaseSlot();
        respond(ri, errorStatus, -1);
        return;
    }
    if (m_occ) {
        const Flow &f = m_flows[size_t(r.flow)];
        qint64 &version = m_rowVersion[size_t(f.row)];
        if (r.version != version) {
            m_m.versionConflicts++;
            m_service.failBeforeCommit(r.order, m_now, 409);
            if (m_tracing)
                traceReq(Lane::Server, EventKind::VersionConflict, r, 409, 0,
                         ascii("row %d: read version %lld, now %lld", f.row + 1, static_cast<long long>(r.version),
                               static_cast<long long>(version)),
                         {TraceCause::StaleVersion, f.row + 1, r.version, version});
            releaseSlot();
            respond(ri, 409, -1);
            return;
        }
        ++version;
    }
    const bool after = r.faults & F5xxAfter;
    const int status = after ? errorStatus : 201;
    const int record = m_service.commit(r.order, m_now, status);
    r.committed = true;
    r.record = record;
    noteCommit(r);
    const Flow &f = m_flows[size_t(r.flow)];
    if (m_tables) {
        m_recordFlow.push_back(r.flow);
        m_recordPath.push_back(path(f, r.b, r.w, r.t));
    }
    if (m_tracing) {
        const int first = m_service.findByRef(r.order.op);
        const Typed typed{first == record ? TraceCause::Insert : TraceCause::Duplicate, first == record ? 0 : first,
                          m_occ ? f.row + 1 : 0, m_occ ? m_rowVersion[size_t(f.row)] : 0};
        int id = 0;
        if (m_occ) {
            // The update of ORD-0007 written to its row; a second one is the same update applied twice.
            const long long v = static_cast<long long>(m_rowVersion[size_t(f.row)]);
            id = traceReq(Lane::Database, EventKind::Committed, r, 0, record,
                          first == record ? ascii("UPDATE row %d to version %lld (ORD-%04d)", f.row + 1, v, r.order.op)
                                          : ascii("UPDATE row %d to version %lld: ORD-%04d applied again (record #%d)",
                                                  f.row + 1, v, r.order.op, first),
                          typed);
        } else {
            id = traceReq(Lane::Database, EventKind::Committed, r, 0, record,
                          first == record ? ascii("INSERT order ORD-%04d", r.order.op)
                                          : ascii("INSERT order ORD-%04d: duplicate of record #%d", r.order.op, first),
                          typed);
        }
        if (size_t(record) > m_commitIds.size())
            m_commitIds.resize(size_t(record), 0);
        m_commitIds[size_t(record - 1)] = id;
    }
    if (r.faults & FRestart) {
        // Committed, then the process restarts before it answers: the client only sees a timeout.
        if (m_tracing)
            traceReq(Lane::Server, EventKind::ServerRestarted, r, 0, record, faults::restartText(m_s, QStringLiteral("committed, then")),
                     faults::restartTyped(m_s, CommitPhase::AfterCommit));
        freeRequest(ri);
        m_busy--;
        restartServer();
        return;
    }
    if (after) {
        m_m.serverErrors++;
        if (m_tracing)
            traceReq(Lane::Server, EventKind::ServerError, r, errorStatus, record, QStringLiteral("failed after commit"),
                     {TraceCause::InjectedError, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::AfterCommit});
    }
    releaseSlot();
    respond(ri, status, -1);
}

void Engine::noteCommit(const Request &r)
{
    m_lastCommit = m_now;
    // The client no longer waits for this attempt: it timed out, went on, or finished.
    const Flow &f = m_flows[size_t(r.flow)];
    if (!f.waiting || f.serial != r.serial)
        m_m.lateCommits++;
}


void Engine::restartServer()
{
    // Every request the server holds is dropped: queued and processing ones never get an answer.
    // An in-flight key reservation is rolled back with its transaction; a memory store forgets all.
    const QString dropped = faults::restartText(m_s, QStringLiteral("request dropped:"));
    for (const int ri : m_waiting) {
        if (m_tracing)
            traceReq(Lane::Server, EventKind::ServerRestarted, m_requests[size_t(ri)], 0, 0, dropped,
                     faults::restartTyped(m_s, CommitPhase::BeforeCommit));
        freeRequest(ri);
    }
    m_waiting.clear();
    for (const int ri : m_inServer) {
        if (m_tracing)
            traceReq(Lane::Server, EventKind::ServerRestarted, m_requests[size_t(ri)], 0, 0, dropped,
                     faults::restartTyped(m_s, CommitPhase::BeforeCommit));
        // freed when its ProcessingDone finds the old epoch
    }
    m_inServer.clear();
    m_busy = 0;
    ++m_epoch;
    m_downUntil = std::max(m_downUntil, m_now + qint64(m_s.server.restartDownMs) * kMs);
    m_service.restart(m_s.server.idempotency.store == KeyStore::Memory);
}

void Engine::releaseSlot()
{
    m_busy--;
    if (!m_waiting.empty() && (m_s.server.capacity <= 0 || m_busy < m_s.server.capacity)) {
        const int next = m_waiting.front();
        m_waiting.pop_front();
        startProcessing(next);
    }
}

void Engine::respond(int ri, int status, int retryAfterS)
{
    Request &r = m_requests[size_t(ri)];
    const Flow &f = m_flows[size_t(r.flow)];
    r.status = status;
    r.retryAfterS = retryAfterS;
    if (m_tracing)
        r.respondedId = traceReq(Lane::Server, EventKind::ResponseSent, r, status, r.record,
                                 r.replayed ? ascii("%d, Idempotent-Replayed: true", status) : statusText(status),
                                 {TraceCause::None, retryAfterS, 0, 0, 0, r.replayed ? TraceOutcome::Replayed : TraceOutcome::Response});
    if (r.faults & FResponseLost) {
        if (m_tracing)
            traceReq(Lane::Network, EventKind::ResponseLost, r, status, r.record,
                     r.committed ? QStringLiteral("committed, but the response was lost") : QStringLiteral("the response was lost"),
                     {TraceCause::ResponseLost, 0, 0, 0, r.respondedId, TraceOutcome::None,
                      r.committed ? CommitPhase::AfterCommit : CommitPhase::None});
        freeRequest(ri);
        return;
    }
    RngStream rng(m_s.seed, RngStream::Network, {quint64(f.op), quint64(f.sub), quint64(r.b), quint64(r.w), quint64(r.t), 8});
    const qint64 delay = latency(rng);
    if (r.faults & FReset) {
        if (m_tracing)
            traceReq(Lane::Network, EventKind::ConnectionReset, r, 0, r.record, QStringLiteral("connection reset by peer"),
                     {TraceCause::PeerReset, 0, 0, 0, r.respondedId, TraceOutcome::None,
                      r.committed ? CommitPhase::AfterCommit : CommitPhase::None});
        at(m_now + delay, Ev::ResetArrive, ri);
        return;
    }
    at(m_now + delay, Ev::ResponseArrive, ri);
}

void Engine::onResponseArrive(int ri, bool reset)
{
    const Request r = m_requests[size_t(ri)];
    freeRequest(ri);
    Flow &f = m_flows[size_t(r.flow)];
    if (!f.waiting || f.serial != r.serial) {
        if (m_tracing)
            traceReq(Lane::Transport, EventKind::LateResponse, r, reset ? 0 : r.status, r.record,
                     QStringLiteral("arrived after the client gave up: ignored"),
                     {reset ? TraceCause::PeerReset : TraceCause::None, 0, 0, 0, r.respondedId});
        return;
    }
    f.waiting = false;
    AttemptOutcome o;
    if (reset) {
        o.kind = OutcomeKind::ConnectionReset;
    } else {
        o.status = r.status;
        o.retryAfterS = r.retryAfterS;
        o.replayed = r.replayed;
    }
    if (r.method == Method::Get) {
        if (reset || (r.status != 200 && r.status != 404)) {
            // A reset, a 5xx or a 429 says nothing about the order: the transport may retry the
            // GET, else the answer stays unknown.
            if (m_tracing)
                traceReq(Lane::Transport, reset ? EventKind::ConnectionReset : EventKind::ResponseReceived, r,
                         reset ? 0 : r.status, 0, describe(o),
                         {reset ? TraceCause::PeerReset : TraceCause::None, o.retryAfterS, 0, 0, r.respondedId, outcomeOf(o)});
            queryFailed(r.flow, o);
            return;
        }
        if (m_tracing)
            traceReq(Lane::Business, EventKind::QueryResult, r, r.status, r.record,
                     r.status == 200 ? QStringLiteral("order exists: do not resend") : QStringLiteral("no order yet: send again"),
                     {TraceCause::None, 0, 0, 0, r.respondedId, outcomeOf(o)});
        f.querying = false;
        if (r.status == 200) {
            finish(f, true, QStringLiteral("found by status query"), {TraceCause::FoundByQuery, r.status});
            return;
        }
        if (f.tokenUsed) {
            // The token is spent: sending it again would only get another 409.
            finish(f, false, QStringLiteral("order token already used, and no order found"),
                   {TraceCause::TokenSpentNotFound, r.status});
            return;
        }
        f.wrapperFirstStart = -1;
        onWrapperStart(r.flow, 0);
        return;
    }
    if (m_tracing)
        traceReq(Lane::Transport, reset ? EventKind::ConnectionReset : EventKind::ResponseReceived, r,
                 reset ? 0 : r.status, r.record, describe(o),
                 {reset ? TraceCause::PeerReset : TraceCause::None, o.retryAfterS, 0, 0, r.respondedId, outcomeOf(o)});
    f.tokenUsed = r.tokenUsed;
    deliver(r.flow, o);
}

void Engine::onReconcile()
{
    // Without a commit since the last pass, every duplicate is already flagged (or voided):
    // a scan would find nothing.
    QList<ReconcileChange> changes;
    if (m_service.records().size() != m_reconciledRecords) {
        changes = m_service.reconcile(m_s.reconciliation.action, m_now);
        m_reconciledRecords = m_service.records().size();
    }
    for (const ReconcileChange &c : changes) {
        if (c.voided)
            m_m.voided++;
        if (m_tracing) {
            TraceEvent e;
            e.t = m_now;
            e.lane = Lane::Database;
            e.kind = c.voided ? EventKind::ReconcileVoided : EventKind::ReconcileFlagged;
            e.op = c.op;
            e.record = c.record;
            e.path = QStringLiteral("op%1").arg(c.op);
            e.detail = c.voided ? QStringLiteral("reconciliation voided duplicate record #%1").arg(c.record)
                                : QStringLiteral("reconciliation flagged duplicate record #%1").arg(c.record);
            e.cause = TraceCause::Duplicate;
            if (size_t(c.record) <= m_commitIds.size() && c.record > 0)
                e.answers = m_commitIds[size_t(c.record - 1)];
            put(std::move(e));
        }
    }
    // Keep scanning while anything can still commit (ghost requests outlive their clients).
    if (m_flowsOpen > 0 || !m_queue.empty() || !m_timeouts.empty() || !changes.isEmpty()) {
        // Passes before the next event of the run are no-ops (nothing can commit in between),
        // so the next pass is the first one at or after that event: an hour between orders
        // with a pass every second costs one pass, not 3600. Scheduled now or one interval
        // earlier, the pass orders the same against every other event, since nothing else
        // is scheduled in between.
        const qint64 interval = qint64(m_s.reconciliation.intervalS) * kS;
        const qint64 pending = nextDue();
        qint64 next = m_now + interval;
        // An interval of 0 (refused by validation) must not divide by zero: run() stops its loop.
        if (pending > next && interval > 0)
            next = m_now + (pending - m_now + interval - 1) / interval * interval;
        at(next, Ev::Reconcile, 0);
    }
}

void Engine::prepare()
{
    const WorkloadConfig &w = m_s.workload;
    const int clients = std::max(1, w.clients);
    // Arrivals stay out of the heap (it then holds only what is in flight); at equal
    // times they come before anything scheduled later, as if scheduled first.
    std::vector<std::pair<qint64, int>> &arrivals = m_arrivals;
    // One operation (and its double submit, drawn per operation); returns its first flow.
    const auto addOp = [&](int op, int client, qint64 start, bool scheduled) {
        Flow f;
        f.op = op;
        f.client = client;
        if (m_occ && m_s.server.occRows > 1) {
            RngStream rng(m_s.seed, RngStream::Workload, {quint64(op), 23});
            f.row = std::min(m_s.server.occRows - 1, int(rng.uniform() * m_s.server.occRows));
        }
        m_flows.push_back(f);
        const int first = int(m_flows.size()) - 1;
        if (scheduled)
            arrivals.emplace_back(start, first);
        if (w.doubleSubmitRate > 0) {
            RngStream rng(m_s.seed, RngStream::Workload, {quint64(op)});
            if (rng.uniform() < w.doubleSubmitRate) {
                Flow again = f;
                again.sub = 2;
                m_flows.push_back(again);
                m_flows[size_t(first)].pairFlow = int(m_flows.size()) - 1;
                if (scheduled)
                    arrivals.emplace_back(start + qint64(w.doubleSubmitDelayMs) * kMs, int(m_flows.size()) - 1);
            }
        }
        return first;
    };
    if (m_closed) {
        // Each client's operations one after another: only its first is scheduled now, the next
        // one when the previous ends (finish()).
        const int perClient = std::max(1, w.opsPerClient);
        m_flows.reserve(size_t(clients) * size_t(perClient) * (w.doubleSubmitRate > 0 ? 2 : 1));
        for (int c = 0; c < clients; ++c) {
            const qint64 start = w.startTogether ? 0 : qint64(c) * w.interArrivalMs * kMs / clients;
            int previous = -1;
            for (int k = 0; k < perClient; ++k) {
                const int fi = addOp(c * perClient + k + 1, c, start, k == 0);
                if (previous >= 0)
                    m_flows[size_t(previous)].nextFlow = fi;
                previous = fi;
            }
        }
        m_ops = clients * perClient;
    } else {
        // Start times: evenly spaced or a Poisson process, at one rate or phase by phase.
        std::vector<qint64> starts;
        RngStream rng(m_s.seed, RngStream::Workload, {0x5eed});
        const auto gap = [&](double meanUs) {
            return w.arrivals == Arrivals::Poisson ? -std::log(1.0 - rng.uniform()) * meanUs : meanUs;
        };
        if (w.phases.isEmpty()) {
            starts.reserve(size_t(w.orders));
            double t = 0;
            const double meanUs = double(w.interArrivalMs) * kMs / clients;
            for (int i = 0; i < w.orders; ++i) {
                // Fixed spacing keeps the integer arithmetic it always had.
                starts.push_back(w.arrivals == Arrivals::Fixed ? qint64(i) * w.interArrivalMs * kMs / clients
                                                               : qint64(std::llround(t)));
                if (w.arrivals == Arrivals::Poisson)
                    t += gap(meanUs);
            }
        } else {
            QList<LoadPhase> phases = w.phases;
            std::stable_sort(phases.begin(), phases.end(),
                             [](const LoadPhase &a, const LoadPhase &b) { return a.fromS < b.fromS; });
            for (const LoadPhase &ph : phases) {
                if (ph.ratePerS <= 0)
                    continue;
                const double meanUs = double(kS) / ph.ratePerS;
                const double end = ph.toS * kS;
                for (double t = ph.fromS * kS; t < end && int(starts.size()) < w.orders; t += gap(meanUs))
                    starts.push_back(qint64(std::llround(t)));
            }
        }
        m_flows.reserve(starts.size() * (w.doubleSubmitRate > 0 ? 2 : 1));
        arrivals.reserve(m_flows.capacity());
        for (size_t i = 0; i < starts.size(); ++i)
            addOp(int(i) + 1, int(i % size_t(clients)), starts[i], true);
        m_ops = int(starts.size());
    }
    std::stable_sort(arrivals.begin(), arrivals.end(),
                     [](const std::pair<qint64, int> &a, const std::pair<qint64, int> &b) { return a.first < b.first; });
    if (m_occ)
        m_rowVersion.assign(size_t(std::max(1, m_s.server.occRows)), 0);
    m_flowsOpen = int(m_flows.size());
    if (m_live)
        return; // reconciliation and restarts are the real server's business
    if (m_s.reconciliation.enabled)
        at(qint64(m_s.reconciliation.intervalS) * kS, Ev::Reconcile, 0);
    for (const int atS : m_s.server.restartsAtS)
        at(qint64(atS) * kS, Ev::ServerRestart, 0);
}

bool Engine::popDue(qint64 until, Event *out)
{
    const bool fromTimeouts = !m_timeouts.empty() && (m_queue.empty() || Later()(m_queue.top(), m_timeouts.front()));
    const Event *next = fromTimeouts ? &m_timeouts.front() : (m_queue.empty() ? nullptr : &m_queue.top());
    if (m_nextArrival < m_arrivals.size() && (!next || m_arrivals[m_nextArrival].first <= next->t)) {
        if (m_arrivals[m_nextArrival].first > until)
            return false;
        *out = Event{m_arrivals[m_nextArrival].first, 0, Ev::OpStart, 0, m_arrivals[m_nextArrival].second, 0};
        ++m_nextArrival;
        return true;
    }
    if (!next || next->t > until)
        return false;
    *out = *next;
    if (fromTimeouts)
        m_timeouts.pop_front();
    else
        m_queue.pop();
    return true;
}

qint64 Engine::nextDue() const
{
    qint64 t = -1;
    if (!m_queue.empty())
        t = m_queue.top().t;
    if (!m_timeouts.empty() && (t < 0 || m_timeouts.front().t < t))
        t = m_timeouts.front().t;
    if (m_nextArrival < m_arrivals.size() && (t < 0 || m_arrivals[m_nextArrival].first < t))
        t = m_arrivals[m_nextArrival].first;
    return t;
}

bool Engine::advance(qint64 until)
{
    if (m_cancelled || !m_stopError.isEmpty())
        return false;
    Event e;
    while (popDue(until, &e)) {
        // The clock must move: a zero wait retried without end, or a periodic job of interval 0,
        // would otherwise spin here for ever.
        if (e.t != m_now)
            m_eventsNow = 0;
        if (++m_eventsNow > m_instantLimit) {
            m_stopError = QStringLiteral("the run was stopped at %1 s of virtual time: more than %2 events happened "
                                         "at that one instant, more than the whole run could need, so a retry or a "
                                         "periodic job is looping without waiting")
                              .arg(double(e.t) / kS, 0, 'f', 3)
                              .arg(work::formatCount(m_instantLimit));
            return false;
        }
        m_now = e.t;
        ++m_processed;
        if (m_opt.cancel && (m_processed & 0xFFF) == 0 && m_opt.cancel->load(std::memory_order_relaxed)) {
            m_cancelled = true;
            return false;
        }
        dispatch(e);
    }
    return true;
}

void Engine::dispatch(const Event &e)
{
    switch (e.type) {
    case Ev::OpStart:
        onOpStart(e.a, e.phase);
        break;
    case Ev::BusinessStart:
        onBusinessStart(e.a, e.phase);
        break;
    case Ev::WrapperStart:
        onWrapperStart(e.a, e.phase);
        break;
    case Ev::TransportSend:
        onTransportSend(e.a);
        break;
    case Ev::TokenReady:
        if (m_live && m_tracing)
            traceFlow(Lane::Server, EventKind::TokenIssued, m_flows[size_t(e.a)], 201, 0, QStringLiteral("POST /order-tokens"),
                      {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostToken});
        switch (Ev(e.serial)) {
        case Ev::OpStart: onOpStart(e.a, 1); break;
        case Ev::BusinessStart: onBusinessStart(e.a, 1); break;
        default: onWrapperStart(e.a, 1); break;
        }
        break;
    case Ev::TokenFailed: {
        Flow &f = m_flows[size_t(e.a)];
        if (!f.done)
            finish(f, false, m_tokenErrors.value(e.a), {TraceCause::TokenFailed});
        break;
    }
    case Ev::RequestArrive:
        onRequestArrive(e.a);
        break;
    case Ev::ProcessingDone:
        onProcessingDone(e.a);
        break;
    case Ev::ResponseArrive:
        onResponseArrive(e.a, false);
        break;
    case Ev::ResetArrive:
        onResponseArrive(e.a, true);
        break;
    case Ev::ConnectFail: {
        Flow &f = m_flows[size_t(e.a)];
        if (f.waiting && f.serial == e.serial) {
            f.waiting = false;
            if (m_tracing)
                traceFlow(Lane::Network, EventKind::ConnectFailed, f, 0, 0, QStringLiteral("connection refused"),
                          {TraceCause::None, 0, 0, 0, f.sentId, TraceOutcome::ConnectError, CommitPhase::None, flowMethod(f)});
            AttemptOutcome o;
            o.kind = OutcomeKind::ConnectError;
            if (f.querying)
                queryFailed(e.a, o);
            else
                deliver(e.a, o);
        }
        break;
    }
    case Ev::ClientTimeout: {
        Flow &f = m_flows[size_t(e.a)];
        if (f.waiting && f.serial == e.serial) {
            f.waiting = false;
            if (m_live && f.wire >= 0) {
                m_live->abandon(f.wire); // a real client closes the connection it gave up on
                f.wire = -1;
            }
            m_m.timeouts++;
            if (m_tracing)
                traceFlow(f.querying ? Lane::Business : Lane::Transport, EventKind::Timeout, f, 0, 0, m_timeoutText,
                          {TraceCause::None, m_c.timeoutMs, 0, 0, f.sentId, TraceOutcome::ReadTimeout, CommitPhase::None,
                           flowMethod(f)});
            AttemptOutcome o;
            o.kind = OutcomeKind::ReadTimeout;
            if (f.querying) {
                queryFailed(e.a, o);
            } else {
                deliver(e.a, o);
            }
        }
        break;
    }
    case Ev::Reconcile:
        onReconcile();
        break;
    case Ev::ServerRestart:
        restartServer();
        break;
    case Ev::QuerySend:
        sendQueryAttempt(e.a);
        break;
    case Ev::ReadArrive:
        onReadArrive(e.a, e.serial);
        break;
    case Ev::ReadReply:
        onReadReply(e.a, e.serial);
        break;
    }
}

RunResult Engine::run()
{
    prepare();
    advance(std::numeric_limits<qint64>::max());
    return finishRun(nullptr);
}

RunResult Engine::finishRun(const ServerCounts *server)
{
    RunResult result;
    result.scenario = m_s;
    result.cancelled = m_cancelled;
    result.error = m_stopError;
    // ---- metrics ----
    const std::vector<StoredRecord> &records = m_service.records();
    const int ops = m_ops;
    std::vector<int> recordsPerOp(size_t(ops) + 1, 0), liveRecordsPerOp(size_t(ops) + 1, 0);
    int recordCount = int(records.size());
    if (server) {
        // The real server counted them; a reference it holds beyond the run's orders is not ours.
        recordCount = 0;
        for (int o = 1; o <= ops && size_t(o) < server->recordsPerOp.size(); ++o) {
            recordsPerOp[size_t(o)] = liveRecordsPerOp[size_t(o)] = server->recordsPerOp[size_t(o)];
            recordCount += server->recordsPerOp[size_t(o)];
        }
        m_m.replays = server->replays;
        m_m.conflicts409 = server->conflicts409;
        m_m.mismatch422 = server->mismatch422;
        m_m.rejected400 = server->rejected400;
        m_m.throttled429 = server->throttled429;
        m_m.rejected503 = server->rejected503;
        m_m.serverErrors = server->serverErrors;
    }
    for (const StoredRecord &r : records) {
        recordsPerOp[size_t(r.op)]++;
        if (!r.voided)
            liveRecordsPerOp[size_t(r.op)]++;
    }
    std::vector<char> opOk(size_t(ops) + 1, 0), opDone(size_t(ops) + 1, 0);
    std::vector<qint64> opEnd(size_t(ops) + 1, 0), opStart(size_t(ops) + 1, -1);
    std::vector<int> opAttempts(size_t(ops) + 1, 0), opSubs(size_t(ops) + 1, 0);
    for (const Flow &f : m_flows) {
        const size_t o = size_t(f.op);
        opOk[o] = opOk[o] || f.succeeded;
        opDone[o] = 1;
        opEnd[o] = std::max(opEnd[o], f.end);
        if (opStart[o] < 0 || f.start < opStart[o])
            opStart[o] = f.start;
        opAttempts[o] += f.postAttempts;
        opSubs[o]++;
        m_m.maxAttemptsPerOp = std::max(m_m.maxAttemptsPerOp, f.postAttempts);
    }
    int distinct = 0, distinctLive = 0, live = 0;
    std::vector<qint64> latencies, attemptsPerOp;
    latencies.reserve(size_t(ops));
    attemptsPerOp.reserve(size_t(ops));
    qint64 firstStart = -1;
    for (int o = 1; o <= ops; ++o) {
        distinct += recordsPerOp[size_t(o)] > 0;
        distinctLive += liveRecordsPerOp[size_t(o)] > 0;
        live += liveRecordsPerOp[size_t(o)];
        if (opOk[size_t(o)]) {
            m_m.clientSucceeded++;
            if (recordsPerOp[size_t(o)] == 0)
                m_m.lost++;
        } else {
            m_m.clientFailed++;
            if (recordsPerOp[size_t(o)] > 0)
                m_m.orphans++;
        }
        latencies.push_back(opEnd[size_t(o)] - std::max<qint64>(0, opStart[size_t(o)]));
        attemptsPerOp.push_back(qint64(opAttempts[size_t(o)]) * kMs); // percentile() reads milliseconds
        if (opStart[size_t(o)] >= 0 && (firstStart < 0 || opStart[size_t(o)] < firstStart))
            firstStart = opStart[size_t(o)];
    }
    m_m.logicalOperations = ops;
    m_m.records = recordCount;
    m_m.duplicates = m_m.records - distinct;
    m_m.duplicatesOutstanding = live - distinctLive;
    m_m.amplification = ops > 0 ? double(m_m.httpAttempts) / ops : 0;
    m_m.worstCaseAttemptsPerOp = m_s.worstCaseAttemptsPerOp();
    m_m.latencyP50Ms = percentile(latencies, 0.50);
    m_m.latencyP95Ms = percentile(latencies, 0.95);
    m_m.latencyP99Ms = percentile(latencies, 0.99);
    m_m.attemptsPerOpP50 = percentile(attemptsPerOp, 0.50);
    m_m.attemptsPerOpP99 = percentile(attemptsPerOp, 0.99);
    if (m_occ)
        m_m.writeAttempts = m_m.httpAttempts;
    // The run ends when the last operation does, not at the last pending timer or ghost.
    qint64 lastEnd = 0;
    for (const Flow &f : m_flows)
        lastEnd = std::max(lastEnd, f.done ? f.end : m_now);
    m_m.durationS = double(lastEnd) / kS;
    m_m.completionS = double(lastEnd - std::max<qint64>(0, std::min(firstStart, lastEnd))) / kS;
    m_m.goodputPerS = lastEnd > 0 ? m_m.clientSucceeded / m_m.durationS : 0;
    m_m.lastCommitS = m_lastCommit >= 0 ? double(m_lastCommit) / kS : 0;

    result.metrics = m_m;
    result.events = qint64(m_processed);
    result.trace = std::move(m_trace);
    if (!m_tables)
        return result; // metrics-only and streamed runs (sweeps, benchmarks, the CLI) skip the tables
    if (server)
        result.records = server->records;
    result.records.reserve(int(records.size()));
    for (const StoredRecord &r : records) {
        RecordRow row;
        row.id = r.id;
        row.op = r.op;
        row.ref = ascii("ORD-%04d", r.op);
        row.key = keyText(r.key);
        const size_t idx = size_t(r.id - 1);
        if (idx < m_recordFlow.size()) {
            const Flow &f = m_flows[size_t(m_recordFlow[idx])];
            row.path = m_recordPath[idx];
            row.requestId = requestId(f, f.b, f.w, f.t);
        }
        row.t = r.t;
        row.duplicate = m_service.findByRef(r.op) != r.id;
        row.flagged = r.flagged;
        row.voided = r.voided;
        row.voidedAt = r.voidedAt;
        result.records.append(std::move(row));
    }
    result.ops.reserve(ops);
    for (int o = 1; o <= ops; ++o) {
        OpSummary s;
        s.op = o;
        s.ref = ascii("ORD-%04d", o);
        s.submissions = opSubs[size_t(o)];
        s.attempts = opAttempts[size_t(o)];
        s.records = recordsPerOp[size_t(o)];
        s.succeeded = opOk[size_t(o)];
        s.start = std::max<qint64>(0, opStart[size_t(o)]);
        s.end = opEnd[size_t(o)];
        result.ops.append(s);
    }
    return result;
}

// ------------------------------------------------------------- live path

void Engine::sendLive(Flow &f, int fi, bool query)
{
    const int ri = newRequest();
    Request &r = m_requests[size_t(ri)];
    r.flow = fi;
    r.serial = f.serial;
    r.method = query ? Method::Get : Method::Post;
    r.b = f.b;
    r.w = query ? qMax(1, f.w) : f.w;
    r.t = query ? qMax(1, f.t) : f.t;
    r.order.op = f.op;
    if (!query) {
        r.order.key = f.key;
        r.order.fingerprint = f.fingerprint;
    }
    f.wire = ri;
    WireAttempt a;
    a.id = ri;
    a.query = query;
    a.op = f.op;
    a.client = f.client;
    a.ref = ascii("ORD-%04d", f.op);
    // A status query's own path is bN/w1/tQ, as the script addresses it.
    a.path = query ? path(f, f.b, 1, f.qt) : path(f, f.b, f.w, f.t);
    a.requestId = requestId(f, r.b, r.w, r.t);
    a.key = query ? QString() : keyText(f.key);
    a.payloadRevision = m_c.mutatePayloadOnRetry ? f.b * 1000 + f.w : 0;
    m_live->send(a);
}

void Engine::liveReply(int ri, const WireReply &reply, qint64 t)
{
    if (ri < 0 || size_t(ri) >= m_requests.size())
        return;
    Request &r = m_requests[size_t(ri)];
    const qint64 when = std::max(t, m_now);
    Flow &f = m_flows[size_t(r.flow)];
    if (f.wire == ri)
        f.wire = -1;
    switch (reply.kind) {
    case WireReply::Refused:
        at(when, Ev::ConnectFail, r.flow, r.serial);
        return;
    case WireReply::Reset:
        r.record = reply.record;
        at(when, Ev::ResetArrive, ri);
        return;
    case WireReply::Response:
        r.status = reply.status;
        r.retryAfterS = reply.retryAfterS;
        r.replayed = reply.replayed;
        r.tokenUsed = reply.tokenUsed;
        r.record = reply.record;
        at(when, Ev::ResponseArrive, ri);
        return;
    }
}

void Engine::liveToken(int fi, const QString &token, qint64 t)
{
    if (fi < 0 || size_t(fi) >= m_flows.size())
        return;
    const Flow &f = m_flows[size_t(fi)];
    m_keyTexts.insert(f.key, token);
    m_cachedKey = 0; // 0 always stands for the empty text
    m_cachedKeyText.clear();
    at(std::max(t, m_now), Ev::TokenReady, fi, f.tokenResume, 1);
}

void Engine::liveTokenFailed(int fi, const QString &why, qint64 t)
{
    if (fi < 0 || size_t(fi) >= m_flows.size())
        return;
    m_tokenErrors.insert(fi, QStringLiteral("no order token: %1").arg(why));
    at(std::max(t, m_now), Ev::TokenFailed, fi);
}

} // namespace

qint64 maxEventsAtOneInstant(const Scenario &scenario)
{
    // A POST attempt causes at most 6 events (the layer event that starts it, a token ready, then
    // a refused connection, or arrival, end of processing, response and read timeout), a status
    // query attempt 4, a submission its start; one instant holds at most one reconciliation pass
    // and the restarts scheduled for it. 16 per request leaves room for all of them.
    const ClientConfig &c = scenario.client;
    const qint64 transport = c.transport.enabled ? std::max(0, c.transport.worstCaseRetries()) + 1 : 1;
    const qint64 requests = work::saturatedProduct(std::max<qint64>(1, work::estimate(scenario).attempts), transport);
    const qint64 submissions = qint64(std::max(1, scenario.workload.operations())) * 2;
    const qint64 events = work::saturatedProduct(16, requests);
    const qint64 slack = submissions + scenario.server.restartsAtS.size() + 1024;
    return events > std::numeric_limits<qint64>::max() - slack ? std::numeric_limits<qint64>::max() : events + slack;
}

RunResult simulate(const Scenario &scenario, const RunOptions &options)
{
    Engine engine(scenario, options);
    return engine.run();
}

bool Metrics::operator==(const Metrics &o) const
{
    return flat() == o.flat();
}

QJsonObject Metrics::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("logicalOperations"), logicalOperations);
    o.insert(QStringLiteral("httpAttempts"), httpAttempts); // a JSON integer: exact beyond 2^53
    o.insert(QStringLiteral("records"), records);
    o.insert(QStringLiteral("duplicates"), duplicates);
    o.insert(QStringLiteral("duplicatesOutstanding"), duplicatesOutstanding);
    o.insert(QStringLiteral("orphans"), orphans);
    o.insert(QStringLiteral("lost"), lost);
    o.insert(QStringLiteral("replays"), replays);
    o.insert(QStringLiteral("conflicts409"), conflicts409);
    o.insert(QStringLiteral("mismatch422"), mismatch422);
    o.insert(QStringLiteral("rejected400"), rejected400);
    o.insert(QStringLiteral("throttled429"), throttled429);
    o.insert(QStringLiteral("rejected503"), rejected503);
    o.insert(QStringLiteral("serverErrors"), serverErrors);
    o.insert(QStringLiteral("clientSucceeded"), clientSucceeded);
    o.insert(QStringLiteral("clientFailed"), clientFailed);
    o.insert(QStringLiteral("timeouts"), timeouts);
    o.insert(QStringLiteral("queries"), queries);
    o.insert(QStringLiteral("queryAttempts"), queryAttempts);
    o.insert(QStringLiteral("budgetRefusals"), budgetRefusals);
    o.insert(QStringLiteral("circuitRejections"), circuitRejections);
    o.insert(QStringLiteral("voided"), voided);
    o.insert(QStringLiteral("amplification"), amplification);
    o.insert(QStringLiteral("maxAttemptsPerOp"), maxAttemptsPerOp);
    o.insert(QStringLiteral("worstCaseAttemptsPerOp"), worstCaseAttemptsPerOp);
    QJsonObject lat;
    lat.insert(QStringLiteral("p50"), latencyP50Ms);
    lat.insert(QStringLiteral("p95"), latencyP95Ms);
    lat.insert(QStringLiteral("p99"), latencyP99Ms);
    o.insert(QStringLiteral("latencyMs"), lat);
    o.insert(QStringLiteral("durationS"), durationS);
    o.insert(QStringLiteral("goodputPerS"), goodputPerS);
    o.insert(QStringLiteral("lastCommitS"), lastCommitS);
    o.insert(QStringLiteral("lateCommits"), lateCommits);
    o.insert(QStringLiteral("completionS"), completionS);
    QJsonObject perOp;
    perOp.insert(QStringLiteral("p50"), attemptsPerOpP50);
    perOp.insert(QStringLiteral("p99"), attemptsPerOpP99);
    o.insert(QStringLiteral("attemptsPerOp"), perOp);
    o.insert(QStringLiteral("reads"), reads);
    o.insert(QStringLiteral("writeAttempts"), writeAttempts);
    o.insert(QStringLiteral("versionConflicts"), versionConflicts);
    return o;
}

QList<QPair<QString, double>> Metrics::flat() const
{
    return {
        {QStringLiteral("logicalOperations"), double(logicalOperations)},
        {QStringLiteral("httpAttempts"), double(httpAttempts)},
        {QStringLiteral("records"), double(records)},
        {QStringLiteral("duplicates"), double(duplicates)},
        {QStringLiteral("duplicatesOutstanding"), double(duplicatesOutstanding)},
        {QStringLiteral("orphans"), double(orphans)},
        {QStringLiteral("lost"), double(lost)},
        {QStringLiteral("replays"), double(replays)},
        {QStringLiteral("conflicts409"), double(conflicts409)},
        {QStringLiteral("mismatch422"), double(mismatch422)},
        {QStringLiteral("rejected400"), double(rejected400)},
        {QStringLiteral("throttled429"), double(throttled429)},
        {QStringLiteral("rejected503"), double(rejected503)},
        {QStringLiteral("serverErrors"), double(serverErrors)},
        {QStringLiteral("clientSucceeded"), double(clientSucceeded)},
        {QStringLiteral("clientFailed"), double(clientFailed)},
        {QStringLiteral("timeouts"), double(timeouts)},
        {QStringLiteral("queries"), double(queries)},
        {QStringLiteral("queryAttempts"), double(queryAttempts)},
        {QStringLiteral("budgetRefusals"), double(budgetRefusals)},
        {QStringLiteral("circuitRejections"), double(circuitRejections)},
        {QStringLiteral("voided"), double(voided)},
        {QStringLiteral("amplification"), amplification},
        {QStringLiteral("maxAttemptsPerOp"), double(maxAttemptsPerOp)},
        {QStringLiteral("worstCaseAttemptsPerOp"), double(worstCaseAttemptsPerOp)},
        {QStringLiteral("latencyP50Ms"), latencyP50Ms},
        {QStringLiteral("latencyP95Ms"), latencyP95Ms},
        {QStringLiteral("latencyP99Ms"), latencyP99Ms},
        {QStringLiteral("durationS"), durationS},
        {QStringLiteral("goodputPerS"), goodputPerS},
        {QStringLiteral("lastCommitS"), lastCommitS},
        {QStringLiteral("lateCommits"), double(lateCommits)},
        {QStringLiteral("completionS"), completionS},
        {QStringLiteral("attemptsPerOpP50"), attemptsPerOpP50},
        {QStringLiteral("attemptsPerOpP99"), attemptsPerOpP99},
        {QStringLiteral("reads"), double(reads)},
        {QStringLiteral("writeAttempts"), double(writeAttempts)},
        {QStringLiteral("versionConflicts"), double(versionConflicts)},
    };
}

// ------------------------------------------------------------- SteppedRun

struct SteppedRun::Private
{
    Private(const Scenario &s, const RunOptions &o, WireTransport *t) : engine(s, o, t) {}
    Engine engine;
};

SteppedRun::SteppedRun(const Scenario &scenario, const RunOptions &options, WireTransport *transport)
    : d(std::make_unique<Private>(scenario, options, transport))
{
    d->engine.prepare();
}

SteppedRun::~SteppedRun() = default;

bool SteppedRun::advanceTo(qint64 t)
{
    return d->engine.advance(t);
}

qint64 SteppedRun::nextDue() const
{
    return d->engine.nextDue();
}

qint64 SteppedRun::now() const
{
    return d->engine.now();
}

bool SteppedRun::clientDone() const
{
    return d->engine.clientDone();
}

QString SteppedRun::error() const
{
    return d->engine.stopError();
}

void SteppedRun::reply(int id, const WireReply &reply, qint64 t)
{
    d->engine.liveReply(id, reply, t);
}

void SteppedRun::tokenIssued(int id, const QString &token, qint64 t)
{
    d->engine.liveToken(id, token, t);
}

void SteppedRun::tokenFailed(int id, const QString &why, qint64 t)
{
    d->engine.liveTokenFailed(id, why, t);
}

RunResult SteppedRun::result(const ServerCounts &server)
{
    return d->engine.finishRun(&server);
}

} // namespace retrylab
