// The engine's floor (issue 23): the same events as a run of the engine, through the engine's own
// EventQueue, EventFifo, random streams and fault and backoff draws, with no handler logic
// beyond what decides which event comes next (an OCC row's version, a lost response, a layer's
// attempt count). What any engine of this event model pays per write or attempt.
//
//   bench_floor aws [SEEDS]      the AWS figure (bench_sweep's 9,500 runs at 100 seeds)
//   bench_floor ghost [ORDERS]   BM_GhostOrders: ghost-request, orders 1 ms apart, 30% lost
//
// Only the draws whose numbers are read are made: the AWS study's server draws nothing (no server
// dice, a constant processing time) and no request carries a key (no payload fingerprint).
// Each model follows the engine's rules step for step (the loop's order of heap, timeouts and
// arrivals; an end of processing or a retry due now run at once when nothing else is due;
// the same sequence numbers), so its events leave in the engine's order: with
// RETRYLAB_FLOOR_CHECK=1 every run is compared with simulate() (writes or attempts, events,
// conflicts or records, the last end) and any difference is printed. The model's queue
// operations are also logged and replayed through the queue alone (heap and FIFO, no draws).
// Prints wall and CPU seconds on all cores (as bench_sweep), events by kind and the mixes and
// draws per write. For callgrind: --toggle-collect='floormodel::*::run*' (the model, with
// RETRYLAB_FLOOR_REPLAY=0: it runs once) or 'floormodel::replay*' (the queue alone).
#include "engine/eventqueue.h"
#include "engine/flow.h"
#include "faults.h"
#include "policy.h"
#include "scenario.h"
#include "simulator.h"
#include "sweep.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMutex>
#include <QThreadPool>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <limits>
#include <vector>

using namespace retrylab;
using engine::Ev;
using engine::Event;
using engine::kMs;
using engine::kS;

namespace floormodel {

constexpr qint64 Never = std::numeric_limits<qint64>::max();

// What one run made: to compare with simulate() and to count per write.
struct Counts
{
    qint64 writes = 0;  // POST attempts (httpAttempts)
    qint64 events = 0;  // handled events (RunResult::events)
    qint64 pushes = 0;  // heap pushes
    qint64 fifo = 0;    // read timeouts set (FIFO pushes)
    qint64 inline_ = 0; // events run at once (runsNow)
    qint64 arrivals = 0;
    qint64 conflicts = 0; // OCC 409s
    qint64 records = 0;
    qint64 timeouts = 0; // read timeouts that fell due
    qint64 lastEnd = 0;
    qint64 byKind[32] = {};
    qint64 heapSizeSum = 0; // the heap's size at each push, summed
    void add(const Counts &o)
    {
        writes += o.writes;
        events += o.events;
        pushes += o.pushes;
        fifo += o.fifo;
        inline_ += o.inline_;
        arrivals += o.arrivals;
        conflicts += o.conflicts;
        records += o.records;
        timeouts += o.timeouts;
        heapSizeSum += o.heapSizeSum;
        for (int k = 0; k < 32; ++k)
            byKind[k] += o.byKind[k];
    }
};

// One logged queue operation, for the replay of the queue alone.
struct QueueOp
{
    enum Kind : quint8 { Push, Pop, FifoPush, FifoPop, Cancel } kind;
    qint64 t; // Push, FifoPush: the time; Cancel: the position
};

// The engine's loop (Engine::popDue, popDueSlow, countEvent, runsNow, timeoutAt, cancelTimeout):
// the heap, the read timeouts' FIFO and the arrivals merged by (t, seq), arrivals first at a tie.
// Counted: the counts and the log of queue operations are kept (a second pass: the timed and
// the collected runs keep none, so that the floor holds nothing the engine does not do).
template <bool Counted>
class Loop
{
public:
    Loop(qint64 instantLimit, std::vector<QueueOp> *log)
        : m_instantLimit(instantLimit)
        , m_log(log)
    {
    }
    qint64 now = 0;
    Counts counts;

    void at(qint64 t, Ev type, int a)
    {
        if constexpr (Counted) {
            counts.heapSizeSum += qint64(m_queue.size());
            ++counts.pushes;
            counts.byKind[int(type)]++;
            m_log->push_back({QueueOp::Push, t});
        }
        m_queue.push(Event{t, m_seq++, type, 0, a, 0});
    }
    qint64 timeoutAt(qint64 t, int a)
    {
        if (m_timeouts.empty()) {
            m_timeoutDue = t;
            m_otherDue = std::min(m_timeoutDue, m_arrivalDue);
        }
        if constexpr (Counted) {
            ++counts.fifo;
            m_log->push_back({QueueOp::FifoPush, t});
        }
        return qint64(m_timeouts.push(Event{t, m_seq++, Ev::ClientTimeout, 0, a, 0}));
    }
    void cancel(qint64 *slot)
    {
        if (*slot < 0)
            return;
        if constexpr (Counted)
            m_log->push_back({QueueOp::Cancel, *slot});
        m_timeouts.at(quint64(*slot)).setType(Ev::Cancelled);
        *slot = -1;
    }
    // The arrival due next (Never: none), taken with takeArrival().
    void setArrival(qint64 t)
    {
        m_arrivalDue = t;
        m_otherDue = std::min(m_timeoutDue, m_arrivalDue);
    }
    bool runsNow()
    {
        if (m_queue.nextTime() <= now || m_otherDue <= now || !countFast(now))
            return false;
        ++m_seq;
        if constexpr (Counted)
            ++counts.inline_;
        return true;
    }
    // The next event; false when nothing is left. An arrival comes back as Ev::OpStart (a = -1).
    bool next(Event *out)
    {
        const Event *top = m_queue.peek();
        if (top && top->t < m_otherDue) {
            *out = *top;
            m_queue.popLater();
            logPop(QueueOp::Pop);
        } else if (!nextSlow(out)) {
            return false;
        }
        if (!countFast(out->t))
            countSlow(out->t);
        return true;
    }

private:
    bool nextSlow(Event *out)
    {
        for (;;) {
            const bool fromTimeouts =
                !m_timeouts.empty() && (m_queue.empty() || engine::Later()(m_queue.top(), m_timeouts.front()));
            const Event *next = fromTimeouts ? &m_timeouts.front() : (m_queue.empty() ? nullptr : &m_queue.top());
            if (m_arrivalDue != Never && (!next || m_arrivalDue <= next->t)) {
                *out = Event{m_arrivalDue, 0, Ev::OpStart, 0, -1, 0};
                if constexpr (Counted)
                    ++counts.arrivals;
                return true;
            }
            if (!next)
                return false;
            *out = *next;
            if (!fromTimeouts) {
                m_queue.popLater();
                logPop(QueueOp::Pop);
                return true;
            }
            m_timeouts.pop();
            logPop(QueueOp::FifoPop);
            m_timeoutDue = m_timeouts.empty() ? Never : m_timeouts.front().t;
            m_otherDue = std::min(m_timeoutDue, m_arrivalDue);
            if (out->type() != Ev::Cancelled)
                return true;
            if (out->t != now) {
                now = out->t;
                m_eventsNow = 0;
            }
        }
    }
    bool countFast(qint64 t)
    {
        const qint64 atInstant = t == now ? m_eventsNow + 1 : 1;
        if (atInstant > m_instantLimit || ((m_processed + 1) & 0xFFF) == 0)
            return false;
        m_eventsNow = atInstant;
        now = t;
        ++m_processed;
        return true;
    }
    void countSlow(qint64 t)
    {
        if (t != now)
            m_eventsNow = 0;
        ++m_eventsNow;
        now = t;
        ++m_processed;
    }
    void logPop(QueueOp::Kind kind)
    {
        if constexpr (Counted)
            m_log->push_back({kind, 0});
    }

public:
    qint64 events() const { return qint64(m_processed); }

private:

    engine::EventQueue m_queue;
    engine::EventFifo m_timeouts;
    quint64 m_seq = 0;
    qint64 m_timeoutDue = Never, m_arrivalDue = Never, m_otherDue = Never;
    quint64 m_processed = 0;
    qint64 m_eventsNow = 0;
    qint64 m_instantLimit;
    std::vector<QueueOp> *m_log;
};

// An attempt's stream from its flow's (op, sub) prefix (Engine::attemptStream).
inline RngStream attemptStream(quint64 prefix, int b, int w, int t)
{
    return RngStream::resumed(prefix).extended(quint64(b)).extended(quint64(w)).extended(quint64(t));
}

// A flow's streams keyed by (seed, stream, op, sub) (Engine::allocFlow, backoffStream).
struct Roots
{
    explicit Roots(quint64 seed)
        : net(RngStream::root(seed, RngStream::Network))
        , server(RngStream::root(seed, RngStream::Server))
        , backoff(RngStream::root(seed, RngStream::Backoff))
    {
    }
    static quint64 prefix(const RngStream &root, int op) { return root.extended(quint64(op)).extended(1).state(); }
    RngStream net, server, backoff;
};

// --- the AWS figure: closed clients, one operation each, read the row, write it, 409 on a stale
// version, the business loop retries after its backoff. Each client has one attempt in flight.
struct AwsClient
{
    quint64 netPrefix = 0, backoffPrefix = 0, netStream = 0;
    bool backoffReady = false;
    int op = 0, b = 0;
    qint64 start = 0, prevWait = 0, timeoutSlot = -1;
    qint64 readVersion = 0, sentVersion = 0;
};

template <bool Counted>
class Aws
{
public:
    Aws(const Scenario &s, std::vector<QueueOp> *log)
        : m_s(s)
        , m_roots(s.seed)
        , m_loop(maxEventsAtOneInstant(s), log)
        , m_clients(size_t(std::max(1, s.workload.clients)))
        , m_max(s.client.business.effectiveMaxAttempts())
    {
    }
    Counts run();

private:
    qint64 latency(quint64 stream, quint64 leg)
    {
        RngStream rng = RngStream::resumed(stream).extended(leg);
        return faults::drawUs(m_s.network.latencyMs, rng);
    }
    void businessStart(int c);
    void readArrive(int c)
    {
        AwsClient &f = m_clients[size_t(c)];
        f.readVersion = m_version;
        m_loop.at(m_loop.now + latency(f.netStream, 12), Ev::ReadReply, c);
    }
    void readReply(int c)
    {
        AwsClient &f = m_clients[size_t(c)];
        ++m_loop.counts.writes;
        f.timeoutSlot = m_loop.timeoutAt(m_loop.now + qint64(m_s.client.timeoutMs) * kMs, c);
        f.sentVersion = f.readVersion;
        m_loop.at(m_loop.now + latency(f.netStream, 7), Ev::RequestArrive, c);
    }
    void requestArrive(int c)
    {
        // No server stream: no server dice and a constant processing time draw nothing from it.
        if (m_loop.runsNow())
            processingDone(c);
        else
            m_loop.at(m_loop.now, Ev::ProcessingDone, c);
    }
    void processingDone(int c)
    {
        AwsClient &f = m_clients[size_t(c)];
        m_status[size_t(c)] = f.sentVersion == m_version ? 201 : 409;
        if (m_status[size_t(c)] == 201) {
            ++m_version;
            ++m_loop.counts.records;
        } else {
            ++m_loop.counts.conflicts;
        }
        m_loop.at(m_loop.now + latency(f.netStream, 8), Ev::ResponseArrive, c);
    }
    void responseArrive(int c);

    const Scenario &m_s;
    Roots m_roots;
    Loop<Counted> m_loop;
    std::vector<AwsClient> m_clients;
    std::vector<int> m_status = std::vector<int>(m_clients.size());
    int m_max;
    qint64 m_version = 0;
    bool m_runningNow = false;
};

template <bool Counted>
void Aws<Counted>::businessStart(int c)
{
    AwsClient &f = m_clients[size_t(c)];
    f.b++;
    f.netStream = attemptStream(f.netPrefix, f.b, 1, 1).state();
    m_loop.at(m_loop.now + latency(f.netStream, 11), Ev::ReadArrive, c);
}

template <bool Counted>
void Aws<Counted>::responseArrive(int c)
{
    AwsClient &f = m_clients[size_t(c)];
    m_loop.cancel(&f.timeoutSlot);
    if (m_status[size_t(c)] == 201) {
        m_loop.counts.lastEnd = std::max(m_loop.counts.lastEnd, m_loop.now);
        return;
    }
    if (!f.backoffReady) {
        f.backoffPrefix = Roots::prefix(m_roots.backoff, f.op);
        f.backoffReady = true;
    }
    const double u = RngStream::resumed(f.backoffPrefix).extended(quint64(f.b)).extended(1).uniform();
    const BackoffConfig &config = m_s.client.business.backoff;
    const qint64 backoff = policy::backoffUs(config, f.b, f.prevWait, u);
    const int deadlineMs = m_s.client.business.deadlineMs;
    if (f.b >= m_max || (deadlineMs > 0 && m_loop.now + backoff - f.start >= qint64(deadlineMs) * kMs)) {
        m_loop.counts.lastEnd = std::max(m_loop.counts.lastEnd, m_loop.now);
        return;
    }
    f.prevWait = backoff;
    if (backoff == 0 && !m_runningNow && m_loop.runsNow()) {
        m_runningNow = true;
        businessStart(c);
        m_runningNow = false;
        return;
    }
    m_loop.at(m_loop.now + backoff, Ev::BusinessStart, c);
}

template <bool Counted>
Counts Aws<Counted>::run()
{
    for (size_t c = 0; c < m_clients.size(); ++c) {
        AwsClient &f = m_clients[c];
        f.op = int(c) * std::max(1, m_s.workload.opsPerClient) + 1;
        f.netPrefix = Roots::prefix(m_roots.net, f.op);
    }
    // Every client starts together (startTogether), in client order.
    size_t arrived = 0;
    m_loop.setArrival(0);
    Event e;
    while (m_loop.next(&e)) {
        const int c = e.a;
        switch (e.type()) {
        case Ev::OpStart: {
            const size_t started = arrived++; // taken before its handler runs (Engine::takeArrival)
            m_loop.setArrival(arrived < m_clients.size() ? 0 : Never);
            m_clients[started].start = m_loop.now;
            businessStart(int(started));
            break;
        }
        case Ev::BusinessStart: businessStart(c); break;
        case Ev::ReadArrive: readArrive(c); break;
        case Ev::ReadReply: readReply(c); break;
        case Ev::RequestArrive: requestArrive(c); break;
        case Ev::ProcessingDone: processingDone(c); break;
        case Ev::ResponseArrive: responseArrive(c); break;
        default: ++m_loop.counts.timeouts; break; // a read timeout: never in this model
        }
    }
    m_loop.counts.events = m_loop.events();
    return m_loop.counts;
}

// --- BM_GhostOrders: an open workload 1 ms apart, no key, 30% of the responses lost; the @retry
// wrapper (3 attempts) inside the business loop (3), a read timeout of 3 s. Flows are recycled.
struct GhostFlow
{
    quint64 netPrefix = 0, serverPrefix = 0, backoffPrefix = 0, netStream = 0, serverStream = 0;
    bool backoffReady = false;
    int op = 0, b = 0, w = 0;
    quint32 faults = 0;
    qint64 start = 0, prevBusinessWait = 0, prevWrapperWait = 0, wrapperFirstStart = -1, timeoutSlot = -1;
};

template <bool Counted>
class Ghost
{
public:
    Ghost(const Scenario &s, std::vector<QueueOp> *log)
        : m_s(s)
        , m_roots(s.seed)
        , m_loop(maxEventsAtOneInstant(s), log)
        , m_businessMax(s.client.business.effectiveMaxAttempts())
        , m_wrapperMax(s.client.wrapper.effectiveMaxAttempts())
    {
    }
    Counts run();

private:
    int newFlow(int op);
    void wrapperStart(int fi);
    void requestArrive(int fi);
    void processingDone(int fi);
    void failed(int fi);
    bool retry(int fi, const LayerConfig &config, int attempt, int max, qint64 *prev, qint64 since, quint64 layer,
               Ev resume);
    RngStream backoffStream(GhostFlow &f)
    {
        if (!f.backoffReady) {
            f.backoffPrefix = Roots::prefix(m_roots.backoff, f.op);
            f.backoffReady = true;
        }
        return RngStream::resumed(f.backoffPrefix);
    }
    void done(int fi)
    {
        m_loop.counts.lastEnd = std::max(m_loop.counts.lastEnd, m_loop.now);
        m_free.push_back(fi);
    }

    const Scenario &m_s;
    Roots m_roots;
    Loop<Counted> m_loop;
    std::vector<GhostFlow> m_flows;
    std::vector<int> m_free;
    int m_businessMax, m_wrapperMax;
};

template <bool Counted>
int Ghost<Counted>::newFlow(int op)
{
    int fi;
    if (!m_free.empty()) {
        fi = m_free.back();
        m_free.pop_back();
    } else {
        fi = int(m_flows.size());
        m_flows.emplace_back();
    }
    GhostFlow &f = m_flows[size_t(fi)];
    f = GhostFlow();
    f.op = op;
    f.netPrefix = Roots::prefix(m_roots.net, op);
    f.serverPrefix = Roots::prefix(m_roots.server, op);
    return fi;
}

template <bool Counted>
void Ghost<Counted>::wrapperStart(int fi)
{
    GhostFlow &f = m_flows[size_t(fi)];
    f.w++;
    if (f.wrapperFirstStart < 0)
        f.wrapperFirstStart = m_loop.now;
    f.netStream = attemptStream(f.netPrefix, f.b, f.w, 1).state();
    ++m_loop.counts.writes;
    f.faults = faults::postNetworkDice(m_s, RngStream::resumed(f.netStream), m_loop.now);
    f.timeoutSlot = m_loop.timeoutAt(m_loop.now + qint64(m_s.client.timeoutMs) * kMs, fi);
    RngStream rng = RngStream::resumed(f.netStream).extended(7);
    m_loop.at(m_loop.now + faults::drawUs(m_s.network.latencyMs, rng), Ev::RequestArrive, fi);
}

template <bool Counted>
void Ghost<Counted>::requestArrive(int fi)
{
    GhostFlow &f = m_flows[size_t(fi)];
    const RngStream server = attemptStream(f.serverPrefix, f.b, f.w, 1);
    f.serverStream = server.state();
    m_loop.at(m_loop.now + faults::processingUs(m_s, server), Ev::ProcessingDone, fi);
}

template <bool Counted>
void Ghost<Counted>::processingDone(int fi)
{
    GhostFlow &f = m_flows[size_t(fi)];
    ++m_loop.counts.records;
    if (f.faults & faults::ResponseLost)
        return; // held: the client's read timeout falls due
    RngStream rng = RngStream::resumed(f.netStream).extended(8);
    m_loop.at(m_loop.now + faults::drawUs(m_s.network.latencyMs, rng), Ev::ResponseArrive, fi);
}

template <bool Counted>
bool Ghost<Counted>::retry(int fi, const LayerConfig &config, int attempt, int max, qint64 *prev, qint64 since, quint64 layer,
                  Ev resume)
{
    GhostFlow &f = m_flows[size_t(fi)];
    RngStream rng = layer == 2 ? backoffStream(f).extended(quint64(f.b)).extended(quint64(f.w)).extended(2)
                               : backoffStream(f).extended(quint64(f.b)).extended(1);
    const double u = rng.uniform();
    if (attempt >= max)
        return false;
    const qint64 wait = policy::backoffUs(config.backoff, attempt, *prev, u);
    if (config.deadlineMs > 0 && m_loop.now + wait - since >= qint64(config.deadlineMs) * kMs)
        return false;
    *prev = wait;
    m_loop.at(m_loop.now + wait, resume, fi); // a wait of 0 cannot happen here
    return true;
}

template <bool Counted>
void Ghost<Counted>::failed(int fi)
{
    GhostFlow &f = m_flows[size_t(fi)];
    ++m_loop.counts.timeouts;
    f.timeoutSlot = -1;
    if (retry(fi, m_s.client.wrapper, f.w, m_wrapperMax, &f.prevWrapperWait, f.wrapperFirstStart, 2, Ev::WrapperStart))
        return;
    if (retry(fi, m_s.client.business, f.b, m_businessMax, &f.prevBusinessWait, f.start, 1, Ev::BusinessStart))
        return;
    done(fi);
}

template <bool Counted>
Counts Ghost<Counted>::run()
{
    const WorkloadConfig &w = m_s.workload;
    int op = 0;
    const auto arrivalTime = [&](int i) { return qint64(i) * w.interArrivalMs * kMs / std::max(1, w.clients); };
    m_loop.setArrival(w.orders > 0 ? 0 : Never);
    int arrivingFlow = w.orders > 0 ? newFlow(1) : -1;
    Event e;
    while (m_loop.next(&e)) {
        const int fi = e.a;
        switch (e.type()) {
        case Ev::OpStart: {
            // The next operation is drawn as this one is taken (Engine::takeArrival).
            const int started = arrivingFlow;
            ++op;
            if (op < w.orders) {
                arrivingFlow = newFlow(op + 1);
                m_loop.setArrival(arrivalTime(op));
            } else {
                m_loop.setArrival(Never);
            }
            m_flows[size_t(started)].start = m_loop.now;
            m_flows[size_t(started)].b = 1;
            wrapperStart(started);
            break;
        }
        case Ev::BusinessStart:
            m_flows[size_t(fi)].b++;
            m_flows[size_t(fi)].w = 0;
            m_flows[size_t(fi)].wrapperFirstStart = -1;
            m_flows[size_t(fi)].prevWrapperWait = 0;
            wrapperStart(fi);
            break;
        case Ev::WrapperStart: wrapperStart(fi); break;
        case Ev::RequestArrive: requestArrive(fi); break;
        case Ev::ProcessingDone: processingDone(fi); break;
        case Ev::ResponseArrive:
            m_loop.cancel(&m_flows[size_t(fi)].timeoutSlot);
            done(fi);
            break;
        case Ev::ClientTimeout: failed(fi); break;
        default: break;
        }
    }
    m_loop.counts.events = m_loop.events();
    return m_loop.counts;
}

// The logged queue operations through the queue alone: the heap's and the FIFO's share of the floor.
qint64 replayQueue(const std::vector<QueueOp> &log)
{
    engine::EventQueue queue;
    engine::EventFifo fifo;
    quint64 seq = 0;
    qint64 sum = 0;
    for (const QueueOp &op : log) {
        switch (op.kind) {
        case QueueOp::Push: queue.push(Event{op.t, seq++, Ev::ReadArrive, 0, 0, 0}); break;
        case QueueOp::Pop:
            sum += queue.peek()->t;
            queue.popLater();
            break;
        case QueueOp::FifoPush: fifo.push(Event{op.t, seq++, Ev::ClientTimeout, 0, 0, 0}); break;
        case QueueOp::FifoPop:
            sum += fifo.front().t;
            fifo.pop();
            break;
        case QueueOp::Cancel: fifo.at(quint64(op.t)).setType(Ev::Cancelled); break;
        }
    }
    return sum;
}

} // namespace floormodel

namespace {

using floormodel::Counts;

struct Job
{
    Scenario scenario;
    bool aws = true;
};

// log: the counted pass (events by kind, the queue's operations for the replay); null: the floor.
Counts runJob(const Job &job, std::vector<floormodel::QueueOp> *log)
{
    if (log)
        return job.aws ? floormodel::Aws<true>(job.scenario, log).run() : floormodel::Ghost<true>(job.scenario, log).run();
    return job.aws ? floormodel::Aws<false>(job.scenario, nullptr).run() : floormodel::Ghost<false>(job.scenario, nullptr).run();
}

// The model's counts against simulate()'s; prints the first differences.
bool matches(const Job &job, const Counts &c, int *printed)
{
    RunOptions options;
    options.trace = false;
    const RunResult r = simulate(job.scenario, options);
    const Metrics &m = r.metrics;
    const bool same = c.writes == m.httpAttempts && c.events == r.events && double(c.lastEnd) / kS == m.durationS
        && (job.aws ? c.conflicts == m.versionConflicts : c.records == m.records && c.timeouts == m.timeouts);
    if (!same && (*printed)++ < 5)
        std::printf("  DIFFERENT: clients %d seed %llu: writes %lld/%lld events %lld/%lld conflicts %lld/%lld "
                    "records %lld/%lld timeouts %lld/%lld end %.6f/%.6f\n",
                    job.scenario.workload.clients, qulonglong(job.scenario.seed), c.writes, m.httpAttempts, c.events,
                    r.events, c.conflicts, m.versionConflicts, c.records, qint64(m.records), c.timeouts, m.timeouts,
                    double(c.lastEnd) / kS, m.durationS);
    return same;
}

QList<Job> awsJobs(int seeds)
{
    const ScenarioParse parsed = scenario::resolve(QStringLiteral("jitter-contention"));
    const SweepSpec spec = sweep::awsFigureSpec(seeds); // bench_sweep's default
    QList<Job> jobs;
    for (const SweepJob &j : sweep::jobs(parsed.scenario, spec))
        jobs.append(Job{j.scenario(), true});
    return jobs;
}

QList<Job> ghostJobs(int orders)
{
    Scenario s = scenario::resolve(QStringLiteral("ghost-request")).scenario; // bench_core's largeGhost()
    s.workload.orders = orders;
    s.workload.interArrivalMs = 1;
    s.network.responseLoss = 0.3;
    s.network.script.clear();
    return {Job{s, false}};
}

void printCounts(const Counts &c, bool aws)
{
    const double per = double(c.writes);
    const char *unit = aws ? "write" : "attempt";
    std::printf("  %lld %ss, %lld events (%.3f per %s), %lld run at once, %lld arrivals\n", c.writes, unit, c.events,
                c.events / per, unit, c.inline_, c.arrivals);
    std::printf("  per %s: heap pushes %.3f (mean heap %.1f), read timeouts set %.3f, fell due %.3f\n", unit,
                c.pushes / per, c.pushes ? double(c.heapSizeSum) / double(c.pushes) : 0.0, c.fifo / per,
                c.timeouts / per);
    static const char *names[] = {"OpStart", "BusinessStart", "WrapperStart", "TransportSend", "RequestArrive",
                                  "ProcessingDone", "ResponseArrive", "ResetArrive", "ConnectFail", "ClientTimeout",
                                  "TokenReady", "Reconcile", "ServerRestart", "QuerySend", "TokenFailed",
                                  "ReadArrive", "ReadReply"};
    std::printf("  heap pushes by kind, per %s:", unit);
    for (int k = 0; k < 17; ++k)
        if (c.byKind[k])
            std::printf(" %s %.3f", names[k], c.byKind[k] / per);
    std::printf("\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const bool aws = args.value(0, QStringLiteral("aws")) != QLatin1String("ghost");
    const QList<Job> jobs = aws ? awsJobs(args.value(1, QStringLiteral("100")).toInt())
                                : ghostJobs(args.value(1, QStringLiteral("20000")).toInt());
    if (const int threads = qEnvironmentVariableIntValue("RETRYLAB_BENCH_THREADS"); threads > 0)
        QThreadPool::globalInstance()->setMaxThreadCount(threads);

    // The model on every core, as bench_sweep runs the sweep; one run (ghost) on this thread,
    // repeated up to about two million attempts as bench_core repeats BM_GhostOrders.
    std::atomic<int> nextJob{0};
    QMutex mutex;
    Counts total;
    const int workers = std::min<int>(QThreadPool::globalInstance()->maxThreadCount(), int(jobs.size()));
    const int repeats = aws ? 1 : std::max(1, 2000000 / std::max(1, jobs[0].scenario.workload.orders));
    const std::clock_t cpu0 = std::clock();
    QElapsedTimer timer;
    timer.start();
    if (!aws) {
        for (int r = 0; r < repeats; ++r)
            total.add(runJob(jobs[0], nullptr));
    }
    for (int w = 0; aws && w < workers; ++w) {
        QThreadPool::globalInstance()->start([&] {
            Counts mine;
            for (int i; (i = nextJob++) < jobs.size();)
                mine.add(runJob(jobs[i], nullptr));
            QMutexLocker lock(&mutex);
            total.add(mine);
        });
    }
    QThreadPool::globalInstance()->waitForDone();
    const double wallS = timer.nsecsElapsed() / 1e9;
    const double cpuS = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::printf("bench_floor %s: %lld runs, %d threads\n", aws ? "aws" : "ghost", qlonglong(jobs.size()) * repeats,
                aws ? workers : 1);
    std::printf("  model: %.3f s wall, %.3f s CPU (%.2f cores busy), %.3g %ss/s, %.3g per CPU second\n", wallS, cpuS,
                wallS > 0 ? cpuS / wallS : 0.0, total.writes / wallS, aws ? "write" : "attempt", total.writes / cpuS);

    // The counted pass: events by kind, and the queue alone (each run's logged operations replayed
    // through the heap and the FIFO). RETRYLAB_FLOOR_REPLAY=0 skips it (callgrind of the floor).
    if (qEnvironmentVariable("RETRYLAB_FLOOR_REPLAY") != QLatin1String("0")) {
        Counts counted;
        qint64 sum = 0, ops = 0;
        double replayCpu = 0;
        std::vector<floormodel::QueueOp> log;
        for (const Job &job : jobs) {
            log.clear();
            counted.add(runJob(job, &log));
            const std::clock_t r0 = std::clock();
            sum += floormodel::replayQueue(log);
            replayCpu += double(std::clock() - r0) / CLOCKS_PER_SEC;
            ops += qint64(log.size());
        }
        printCounts(counted, aws);
        std::printf("  queue alone: %lld operations, %.3f s CPU on one core (checksum %lld)\n", ops, replayCpu, sum);
        std::printf("  bytes: an event %zu, the engine's flow %zu, its request %zu\n", sizeof(engine::Event),
                    sizeof(engine::Flow), sizeof(engine::Request));
    }

    if (qEnvironmentVariableIntValue("RETRYLAB_FLOOR_CHECK") > 0) {
        int printed = 0, same = 0;
        for (const Job &job : jobs)
            same += matches(job, runJob(job, nullptr), &printed);
        std::printf("  check: %d of %lld runs the same as simulate()\n", same, qlonglong(jobs.size()));
        return same == jobs.size() ? 0 : 1;
    }
    return 0;
}
