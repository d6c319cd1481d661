#pragma once

#include <QByteArray>
#include <QJsonObject>

#include <array>

namespace retrylab {

// How long the service took to answer an order or a status query, from arrival to answer, in
// the buckets of a Prometheus histogram (cumulative counts are made when it is written).
class LatencyHistogram
{
public:
    // Upper bounds in seconds: 0.5 ms to 10 s, then +Inf.
    static constexpr std::array<double, 14> kBounds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                     0.1,    0.25,  0.5,    1,     2.5,  5,     10};
    void observe(qint64 ns);
    void clear() { *this = LatencyHistogram(); }
    quint64 count() const { return m_count; }
    double sumSeconds() const { return double(m_sumNs) / 1e9; }
    // Observations at or below kBounds[i] (cumulative), i < kBounds.size().
    quint64 cumulative(size_t i) const;

private:
    std::array<quint64, kBounds.size() + 1> m_buckets{}; // the last: above every bound
    quint64 m_count = 0;
    qint64 m_sumNs = 0;
};

// GET /metrics in the Prometheus text exposition format 0.0.4 (HELP and TYPE lines, counters
// named *_total, gauges, the latency histogram), from the same values as the JSON answer.
QByteArray prometheusText(const QJsonObject &metrics, const LatencyHistogram &latency);

// Pieces of the text format for other /metrics answers (the proxy's): a family's HELP and TYPE
// lines, one sample (labels such as `{fault="requestLost"}` are part of the name), a histogram.
void appendPrometheusFamily(QByteArray &out, const char *name, const char *type, const char *help);
void appendPrometheusSample(QByteArray &out, const QByteArray &name, double value);
void appendPrometheusHistogram(QByteArray &out, const char *name, const char *help, const LatencyHistogram &h);

// Content negotiation of GET /metrics (RFC 9110 section 12.5.1): JSON when the Accept field
// prefers application/json to text/plain (by q-value, then by order), else the text format,
// which is also the answer to no Accept field and to */* (what Prometheus and curl send).
bool prefersJson(const QByteArray &accept);

} // namespace retrylab
