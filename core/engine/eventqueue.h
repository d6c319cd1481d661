#pragma once

#include <QtGlobal>

#include <algorithm>
#include <limits>
#include <vector>

namespace retrylab::engine {

constexpr qint64 kMs = 1000;    // microseconds of virtual time
constexpr qint64 kS = 1000000;

// What a scheduled event does when it falls due. The client's events are the Engine's; the way
// to the server and the server's own are its ServerLink's (Engine::dispatch hands them on).
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
    Cancelled,   // a read timeout the answer made stale: popped in its turn, names nothing
};

// Scheduled event; (t, seq) orders simultaneous events by scheduling order. 24 bytes, so that
// more of them share a cache line in the heap: the sequence number, the kind and the phase are
// packed in one word, the sequence number on top (48 bits: 2.8e14 events, far beyond any run
// the work budget lets through). Sequence numbers are unique, so (t, order) sorts exactly as
// (t, seq) did.
struct Event
{
    Event() = default;
    Event(qint64 time, quint64 seq, Ev type, quint8 phase, int index, quint32 attempt)
        : t(time)
        , order((seq << 16) | (quint64(type) << 8) | phase)
        , a(index)
        , serial(attempt)
    {
    }
    quint64 seq() const { return order >> 16; }
    Ev type() const { return Ev(quint8(order >> 8)); }
    quint8 phase() const { return quint8(order); }
    void setType(Ev type) { order = (order & ~quint64(0xFF00)) | (quint64(type) << 8); }

    qint64 t = 0;
    quint64 order = 0; // seq << 16 | type << 8 | phase
    int a = 0;         // flow or request index
    quint32 serial = 0;
};
static_assert(sizeof(Event) == 24, "an event fills 24 bytes: eight fit in three cache lines");

struct Later
{
    bool operator()(const Event &x, const Event &y) const
    {
        return x.t != y.t ? x.t > y.t : x.order > y.order;
    }
};

// A 4-ary min-heap of events by (t, seq): half the depth of a binary heap, and the four children
// of a node share cache lines. (t, seq) is unique, so events leave in exactly the order
// std::priority_queue gave them: the same traces, about a third less time in the queue.
//
// Most events schedule one more: the engine takes the top with popLater(), and the first push
// after it takes the top's place and sifts down from the root (one pass, where a pop and a push
// are two, and the heap's last leaf no longer sinks through every level). With no push, the top
// leaves at the next look at the queue. Either way the heap then holds the same events, so they
// leave in the same order (tst_eventqueue holds it to std::priority_queue's).
class EventQueue
{
public:
    bool empty() const
    {
        settle();
        return m_heap.empty();
    }
    size_t size() const
    {
        settle();
        return m_heap.size();
    }
    const Event &top() const
    {
        settle();
        return m_heap.front();
    }
    // The earliest time due without carrying out a pending pop (its successor's, found among the
    // root's children); the greatest qint64 when nothing is due.
    qint64 nextTime() const
    {
        const size_t n = m_heap.size();
        if (!m_popPending)
            return n == 0 ? std::numeric_limits<qint64>::max() : m_heap[0].t;
        qint64 t = std::numeric_limits<qint64>::max();
        for (size_t c = 1; c < n && c <= 4; ++c)
            t = std::min(t, m_heap[c].t);
        return t;
    }
    // The top, or null when empty.
    const Event *peek() const
    {
        settle();
        return m_heap.empty() ? nullptr : m_heap.data();
    }
    void push(const Event &e)
    {
        if (m_popPending) {
            m_popPending = false;
            siftDown(e);
            return;
        }
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
        settle();
        popNow();
    }
    // The top leaves: at the next push (which takes its place) or the next look at the queue.
    void popLater()
    {
        settle();
        m_popPending = true;
    }

private:
    static bool before(const Event &x, const Event &y) { return x.t != y.t ? x.t < y.t : x.order < y.order; }
    void settle() const
    {
        if (m_popPending) {
            m_popPending = false;
            popNow();
        }
    }
    void popNow() const
    {
        const Event last = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty())
            siftDown(last);
    }
    // Puts e in the root's place and moves it down to where it belongs.
    void siftDown(const Event &e) const
    {
        const size_t n = m_heap.size();
        size_t i = 0;
        for (;;) {
            const size_t first = 4 * i + 1;
            if (first >= n)
                break;
            size_t best = first;
            if (first + 3 < n) {
                // All four children: the loop below unrolled.
                if (before(m_heap[first + 1], m_heap[best]))
                    best = first + 1;
                if (before(m_heap[first + 2], m_heap[best]))
                    best = first + 2;
                if (before(m_heap[first + 3], m_heap[best]))
                    best = first + 3;
            } else {
                for (size_t c = first + 1; c < n; ++c)
                    if (before(m_heap[c], m_heap[best]))
                        best = c;
            }
            if (!before(m_heap[best], e))
                break;
            m_heap[i] = m_heap[best];
            i = best;
        }
        m_heap[i] = e;
    }
    // Mutable: a look at the queue (top, empty) first carries out a pending pop.
    mutable std::vector<Event> m_heap;
    mutable bool m_popPending = false;
};

// Events that leave in the order they came (read timeouts: all of one length, so they fall due
// in the order they are set). A ring of absolute positions: an entry keeps its number while
// earlier ones leave, so a flow can name its timeout to cancel it. Where std::deque spent a
// chunk allocation every 21 events and a chunk lookup on each access, this is a mask and an index.
class EventFifo
{
public:
    bool empty() const { return m_head == m_tail; }
    size_t size() const { return size_t(m_tail - m_head); }
    const Event &front() const { return m_ring[size_t(m_head & m_mask)]; }
    // Appends e; returns its absolute position.
    quint64 push(const Event &e)
    {
        if (m_tail - m_head == m_ring.size())
            grow();
        m_ring[size_t(m_tail & m_mask)] = e;
        return m_tail++;
    }
    void pop() { ++m_head; }
    // The entry at absolute position `position` (still in the FIFO).
    Event &at(quint64 position) { return m_ring[size_t(position & m_mask)]; }

private:
    void grow()
    {
        std::vector<Event> ring(std::max<size_t>(64, 2 * m_ring.size()));
        const quint64 mask = ring.size() - 1;
        for (quint64 p = m_head; p != m_tail; ++p)
            ring[size_t(p & mask)] = m_ring[size_t(p & m_mask)];
        m_ring.swap(ring);
        m_mask = mask;
    }
    std::vector<Event> m_ring; // a power of two in size
    quint64 m_mask = 0;
    quint64 m_head = 0; // absolute position of the front
    quint64 m_tail = 0; // absolute position after the back
};

} // namespace retrylab::engine
