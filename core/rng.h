#pragma once

#include <QtGlobal>

#include <initializer_list>

namespace retrylab {

// Counter-based random streams: every draw is keyed by (seed, stream, ids), so
// the same HTTP attempt of the same operation sees the same fault in every
// variant of a scenario (what-if charts compare like with like), runs are
// bit-identical on every platform, and a stream costs nothing to create.
// The mixer is SplitMix64 (Steele, Lea, Flood 2014), the seeding function
// std::mt19937_64 implementations also recommend.
class RngStream
{
public:
    enum Stream : quint64 {
        Network = 1,
        Server = 2,
        Backoff = 3,
        Workload = 4,
        Identity = 5,
        Query = 6,
    };

    RngStream(quint64 seed, Stream stream, std::initializer_list<quint64> ids)
        : m_state(root(seed, stream).m_state)
    {
        for (quint64 id : ids)
            m_state = mix(m_state ^ (id + 0x9E3779B97F4A7C15ull));
    }

    // The stream keyed by (seed, stream) and no ids yet: a run makes it once and extends it by
    // each operation's ids, for one mix fewer per stream.
    static RngStream root(quint64 seed, Stream stream)
    {
        return RngStream(mix(seed ^ (quint64(stream) * 0xD1B54A32D192ED03ull)));
    }

    // The stream keyed by this one's ids and `id` after them: the same as building it with the
    // longer list, for the price of one mix (an attempt's streams share their first ids). Only
    // on a stream nothing was drawn from yet.
    RngStream extended(quint64 id) const { return RngStream(mix(m_state ^ (id + 0x9E3779B97F4A7C15ull))); }

    // A stream kept as its state (in a struct that needs no constructor) and taken up again.
    quint64 state() const { return m_state; }
    static RngStream resumed(quint64 state) { return RngStream(state); }

    // Moves past one draw without making it: the next draw is the one after, as if drawn.
    void skip() { m_state += 0x9E3779B97F4A7C15ull; }

    // u < probability for the next draw; a probability of 0 or below (never) or 1 or above
    // (always, since u < 1) decides without the draw's mix.
    bool below(double probability)
    {
        if (probability <= 0 || probability >= 1) {
            skip();
            return probability >= 1;
        }
        return uniform() < probability;
    }

    quint64 next()
    {
        m_state += 0x9E3779B97F4A7C15ull;
        return mix(m_state);
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

    static quint64 mix(quint64 z)
    {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

private:
    explicit RngStream(quint64 state)
        : m_state(state)
    {
    }
    quint64 m_state;
};

} // namespace retrylab
