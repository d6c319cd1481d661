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
        : m_state(mix(seed ^ (quint64(stream) * 0xD1B54A32D192ED03ull)))
    {
        for (quint64 id : ids)
            m_state = mix(m_state ^ (id + 0x9E3779B97F4A7C15ull));
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
    quint64 m_state;
};

} // namespace retrylab
