#pragma once

#include <QtAlgorithms>
#include <QtGlobal>

#include <algorithm>
#include <array>
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
//
// Most events schedule one more: the engine takes the top with popLater(), and the first push
// after it takes the top's place and sifts down from the root (one pass, where a pop and a push
// are two, and the heap's last leaf no longer sinks through every level). With no push, the top
// leaves at the next look at the queue. Either way the heap then holds the same events, so they
// leave in the same order (tst_eventqueue holds it to std::priority_queue's).
class EventHeap
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
    static bool before(const Event &x, const Event &y) { return x.t != y.t ? x.t < y.t : x.seq < y.seq; }
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
            const size_t end = std::min(first + 4, n);
            for (size_t c = first + 1; c < end; ++c)
                if (before(m_heap[c], m_heap[best]))
                    best = c;
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

// The engine's event queue: a timing wheel for the next half second and an EventHeap beyond it.
// Most events fall due within a few network latencies, so they go to one of 4,096 slots of 128 us
// (their slot's short list kept in (t, seq) order, a new event nearly always going last), and the
// next event is the first of the first non-empty slot, found in a bitmap: no sift through a tree
// per event. Events further ahead wait in the heap and move to the wheel as it comes within reach
// of them. Events leave in exactly (t, seq) order, as from the heap alone (tst_eventqueue), so no
// trace changes.
class EventQueue
{
public:
    EventQueue()
    {
        m_head.fill(-1);
        m_tail.fill(-1);
        m_bits.fill(0);
    }
    bool empty() const { return m_inWheel == 0 && m_far.empty(); }
    size_t size() const { return m_inWheel + m_far.size(); }
    const Event &top() const
    {
        if (m_inWheel == 0)
            return m_far.top();
        return m_nodes[size_t(m_head[size_t(firstSlot())])].e;
    }
    void push(const Event &e)
    {
        const qint64 slot = e.t >> SlotBits;
        if (slot < m_current)
            rebase(slot); // before the last event taken: never done by the engine
        if (slot - m_current >= Slots) {
            m_far.push(e);
            return;
        }
        insert(e, int(slot & SlotMask));
    }
    void pop()
    {
        qint64 t;
        if (m_inWheel == 0) {
            t = m_far.top().t;
            m_far.pop();
        } else {
            const int slot = firstSlot();
            const int node = m_head[size_t(slot)];
            t = m_nodes[size_t(node)].e.t;
            m_head[size_t(slot)] = m_nodes[size_t(node)].next;
            if (m_head[size_t(slot)] < 0) {
                m_tail[size_t(slot)] = -1;
                m_bits[size_t(slot) >> 6] &= ~(quint64(1) << (slot & 63));
                m_first = -1;
            }
            m_nodes[size_t(node)].next = m_freeNode;
            m_freeNode = node;
            --m_inWheel;
        }
        advanceTo(t >> SlotBits);
    }
    // The same as pop() here (the heap's shortcut has nothing to save in a wheel).
    void popLater() { pop(); }

private:
    static constexpr int SlotBits = 8;  // 256 us per slot
    static constexpr int WheelBits = 13; // 8,192 slots: 2.1 s ahead
    static constexpr qint64 Slots = qint64(1) << WheelBits;
    static constexpr qint64 SlotMask = Slots - 1;
    static bool before(const Event &x, const Event &y) { return x.t != y.t ? x.t < y.t : x.seq < y.seq; }
    struct Node
    {
        Event e;
        int next;
    };

    void insert(const Event &e, int slot)
    {
        int node = m_freeNode;
        if (node >= 0) {
            m_freeNode = m_nodes[size_t(node)].next;
            m_nodes[size_t(node)] = Node{e, -1};
        } else {
            node = int(m_nodes.size());
            m_nodes.push_back(Node{e, -1});
        }
        ++m_inWheel;
        int &head = m_head[size_t(slot)];
        int &tail = m_tail[size_t(slot)];
        if (head < 0) {
            head = tail = node;
            m_bits[size_t(slot) >> 6] |= quint64(1) << (slot & 63);
            if (m_first >= 0 && offset(slot) < offset(m_first))
                m_first = slot;
            return;
        }
        if (before(m_nodes[size_t(tail)].e, e)) { // the usual case: the latest in its slot
            m_nodes[size_t(tail)].next = node;
            tail = node;
            return;
        }
        int *link = &head;
        while (*link >= 0 && before(m_nodes[size_t(*link)].e, e))
            link = &m_nodes[size_t(*link)].next;
        m_nodes[size_t(node)].next = *link;
        *link = node;
    }
    // Slots count from the current one, round the wheel.
    int offset(int slot) const { return int((slot - m_current) & SlotMask); }
    // The first non-empty slot from the current one (the wheel holds an event).
    int firstSlot() const
    {
        if (m_first >= 0)
            return m_first;
        const int start = int(m_current & SlotMask);
        const int words = int(Slots / 64);
        int w = start >> 6;
        quint64 bits = m_bits[size_t(w)] & (~quint64(0) << (start & 63));
        for (int i = 0; i <= words; ++i) {
            if (bits) {
                m_first = (w << 6) + int(qCountTrailingZeroBits(bits));
                return m_first;
            }
            w = (w + 1) % words;
            bits = m_bits[size_t(w)];
        }
        Q_UNREACHABLE();
        return 0;
    }
    // The last event taken was in `slot`: the wheel's window starts there, and far events it now
    // reaches move in.
    void advanceTo(qint64 slot)
    {
        if (slot == m_current)
            return;
        m_current = slot;
        m_first = -1;
        while (!m_far.empty() && (m_far.top().t >> SlotBits) - m_current < Slots) {
            const Event e = m_far.top();
            m_far.pop();
            insert(e, int((e.t >> SlotBits) & SlotMask));
        }
    }
    // An event before the current slot: every wheel event goes to the heap, and the wheel starts
    // again from the earlier slot.
    void rebase(qint64 slot)
    {
        for (int s = 0; s < int(Slots); ++s) {
            for (int node = m_head[size_t(s)]; node >= 0; node = m_nodes[size_t(node)].next)
                m_far.push(m_nodes[size_t(node)].e);
        }
        m_head.fill(-1);
        m_tail.fill(-1);
        m_bits.fill(0);
        m_nodes.clear();
        m_freeNode = -1;
        m_inWheel = 0;
        m_current = slot - 1; // advanceTo moves the heap's events within reach back in
        advanceTo(slot);
    }

    std::vector<Node> m_nodes;  // the wheel's events, in per-slot lists
    int m_freeNode = -1;
    std::array<int, Slots> m_head; // per slot: its first and last node, or -1
    std::array<int, Slots> m_tail;
    std::array<quint64, Slots / 64> m_bits; // non-empty slots
    qint64 m_current = 0; // the slot of the last event taken: every event is there or later
    size_t m_inWheel = 0;
    mutable int m_first = -1; // the first non-empty slot, when known
    EventHeap m_far;          // events a wheel's turn ahead or more
};

} // namespace retrylab::engine
