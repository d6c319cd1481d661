#pragma once

#include <QtGlobal>

#include <vector>

namespace retrylab {

// Percentiles of a stream of non-negative integer samples (latencies in microseconds, attempt
// counts) in memory that does not grow with the number of samples: exact while at most
// ExactSamples are kept, then a log-linear histogram of the HdrHistogram kind. Each power of two
// is cut into 1024 equal buckets, so a value below 2048 is kept exactly and any other is
// reported as the middle of its bucket: at most 1/2048 (0.05%) from the exact percentile, within
// the stated relative error of 0.1% (RelativeError). Small runs (the presets, the lessons, the
// documented outputs) stay exact, bit for bit; only runs beyond ExactSamples are approximated.
class LatencyHistogram
{
public:
    static constexpr size_t ExactSamples = 65536;
    static constexpr double RelativeError = 0.001;

    // exactSamples: how many samples stay exact (tests lower it to reach the histogram).
    explicit LatencyHistogram(size_t exactSamples = ExactSamples)
        : m_exactLimit(exactSamples)
    {
    }
    void add(qint64 value);
    qint64 count() const { return m_count; }
    // The sample of rank ceil(p * n) (1-based; the lowest for p = 0), as the exact computation
    // over the sorted samples picks it, within RelativeError once the histogram took over; 0 when
    // empty.
    double percentile(double p);

private:
    static constexpr int SubBits = 10; // 1024 buckets per power of two
    static size_t bucketOf(quint64 v);
    static double middleOf(size_t bucket);
    void spill(); // the exact samples into the histogram

    size_t m_exactLimit;
    qint64 m_count = 0;
    std::vector<qint64> m_exact;      // while m_count <= ExactSamples
    std::vector<quint64> m_buckets;   // after: counts per bucket, grown to the highest one used
};

} // namespace retrylab
