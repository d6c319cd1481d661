#pragma once

#include "rng.h"
#include "scenario.h"

#include <QtGlobal>

#include <vector>

namespace retrylab::engine {

// The first submissions of a run's operations, one at a time in operation order (so in time
// order: evenly spaced, Poisson, phase by phase, or each closed-loop client's first), drawn as
// the run reaches them: a run of 1e8 orders holds no list of its start times.
class ArrivalSource
{
public:
    explicit ArrivalSource(const Scenario &s);

    struct Arrival
    {
        qint64 t = 0;
        int op = 0;
        int client = 0;
    };
    // The next operation's first submission; false when there is none left.
    bool next(Arrival *out);
    // Operations handed out so far.
    int count() const { return m_count; }

private:
    double gap(double meanUs);
    bool nextPhased(Arrival *out);

    const WorkloadConfig &m_w;
    RngStream m_rng;
    int m_clients = 1;
    bool m_closed = false;
    bool m_poisson = false;
    int m_count = 0;
    double m_t = 0;      // Poisson: the next start, not yet rounded
    double m_meanUs = 0; // the current mean gap
    // workload.phases, sorted by fromS; the current one and its end; the bound on all arrivals.
    std::vector<LoadPhase> m_phases;
    int m_phase = -1;
    double m_phaseEnd = 0;
    int m_bound = 0;
};

} // namespace retrylab::engine
