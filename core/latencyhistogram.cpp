#include "latencyhistogram.h"

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {

// Rank (0-based) of percentile p among n sorted samples, as the engine has always picked it:
// ceil(p * n) - 1, and the lowest for p = 0.
size_t rankOf(double p, size_t n)
{
    return std::min(n - 1, size_t(std::ceil(p * double(n))) - (p > 0 ? 1 : 0));
}

} // namespace

size_t LatencyHistogram::bucketOf(quint64 v)
{
    constexpr quint64 Sub = quint64(1) << SubBits;
    if (v < 2 * Sub)
        return size_t(v); // exact: buckets 0 .. 2047 are the values themselves
    // v in [2^k, 2^(k+1)), k >= SubBits + 1: shift so the top SubBits + 1 bits remain.
    int k = 63;
    while (!(v >> k))
        --k;
    const int shift = k - SubBits;
    const quint64 top = v >> shift; // in [1024, 2048)
    return size_t(2 * Sub + quint64(shift - 1) * Sub + (top - Sub));
}

double LatencyHistogram::middleOf(size_t bucket)
{
    constexpr size_t Sub = size_t(1) << SubBits;
    if (bucket < 2 * Sub)
        return double(bucket);
    const size_t shift = (bucket - 2 * Sub) / Sub + 1;
    const quint64 top = quint64((bucket - 2 * Sub) % Sub + Sub);
    const double low = std::ldexp(double(top), int(shift));
    return low + std::ldexp(1.0, int(shift)) / 2 - 0.5; // the middle of [low, low + 2^shift - 1]
}

void LatencyHistogram::add(qint64 value)
{
    value = std::max<qint64>(0, value);
    ++m_count;
    if (size_t(m_count) <= m_exactLimit) {
        m_exact.push_back(value);
        return;
    }
    if (!m_exact.empty())
        spill();
    const size_t b = bucketOf(quint64(value));
    if (b >= m_buckets.size())
        m_buckets.resize(b + 1, 0);
    ++m_buckets[b];
}

void LatencyHistogram::spill()
{
    for (const qint64 v : m_exact) {
        const size_t b = bucketOf(quint64(v));
        if (b >= m_buckets.size())
            m_buckets.resize(b + 1, 0);
        ++m_buckets[b];
    }
    m_exact.clear();
    m_exact.shrink_to_fit();
}

double LatencyHistogram::percentile(double p)
{
    if (m_count == 0)
        return 0;
    const size_t rank = rankOf(p, size_t(m_count));
    if (m_buckets.empty()) {
        std::nth_element(m_exact.begin(), m_exact.begin() + long(rank), m_exact.end());
        return double(m_exact[rank]);
    }
    quint64 seen = 0;
    for (size_t b = 0; b < m_buckets.size(); ++b) {
        seen += m_buckets[b];
        if (seen > rank)
            return middleOf(b);
    }
    return middleOf(m_buckets.size() - 1);
}

} // namespace retrylab
