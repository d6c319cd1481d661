#include "engine/arrivalsource.h"

#include "engine/eventqueue.h"

#include <algorithm>
#include <cmath>

namespace retrylab::engine {

ArrivalSource::ArrivalSource(const Scenario &s)
    : m_w(s.workload)
    , m_rng(s.seed, RngStream::Workload, {0x5eed})
    , m_clients(std::max(1, s.workload.clients))
    , m_closed(s.workload.mode == WorkloadMode::Closed)
    , m_poisson(s.workload.arrivals == Arrivals::Poisson)
{
    m_meanUs = double(m_w.interArrivalMs) * kMs / m_clients;
    if (!m_closed && !m_w.phases.isEmpty()) {
        m_phases.assign(m_w.phases.cbegin(), m_w.phases.cend());
        std::stable_sort(m_phases.begin(), m_phases.end(),
                         [](const LoadPhase &a, const LoadPhase &b) { return a.fromS < b.fromS; });
        // The phases define the arrivals (workload.orders counts only without them), up to
        // WorkloadConfig::operations(), a bound no Poisson count reaches in practice.
        m_bound = m_w.operations();
    }
}

double ArrivalSource::gap(double meanUs)
{
    return m_poisson ? -std::log(1.0 - m_rng.uniform()) * meanUs : meanUs;
}

bool ArrivalSource::next(Arrival *out)
{
    if (m_closed) {
        // Each client's first operation; the next ones start when the previous ends.
        if (m_count >= m_clients)
            return false;
        const int c = m_count++;
        const int perClient = std::max(1, m_w.opsPerClient);
        out->t = m_w.startTogether ? 0 : qint64(c) * m_w.interArrivalMs * kMs / m_clients;
        out->op = c * perClient + 1;
        out->client = c;
        return true;
    }
    if (!m_phases.empty())
        return nextPhased(out);
    if (m_count >= m_w.orders)
        return false;
    const int i = m_count++;
    // Fixed spacing keeps the integer arithmetic it always had.
    out->t = m_poisson ? qint64(std::llround(m_t)) : qint64(i) * m_w.interArrivalMs * kMs / m_clients;
    if (m_poisson)
        m_t += gap(m_meanUs);
    out->op = i + 1;
    out->client = i % m_clients;
    return true;
}

bool ArrivalSource::nextPhased(Arrival *out)
{
    // Phases do not overlap (the reader refuses it), so their arrivals come in time order. A
    // Poisson process has no arrival at the phase's start: its first comes after an exponential
    // gap, as every later one (fixed spacing starts at fromS).
    for (;;) {
        if (m_phase >= 0 && m_t < m_phaseEnd && m_count < m_bound) {
            out->t = qint64(std::llround(m_t));
            m_t += gap(m_meanUs);
            out->op = m_count + 1;
            out->client = m_count % m_clients;
            ++m_count;
            return true;
        }
        if (m_count >= m_bound)
            return false;
        do {
            if (size_t(++m_phase) >= m_phases.size())
                return false;
        } while (m_phases[size_t(m_phase)].ratePerS <= 0);
        const LoadPhase &ph = m_phases[size_t(m_phase)];
        m_meanUs = double(kS) / ph.ratePerS;
        m_phaseEnd = ph.toS * kS;
        m_t = ph.fromS * kS + (m_poisson ? gap(m_meanUs) : 0.0);
    }
}

} // namespace retrylab::engine
