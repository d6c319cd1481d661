#pragma once

#include "rng.h"
#include "scenario.h"
#include "trace.h"

#include <unordered_map>
#include <vector>

namespace retrylab {

// Which faults strike one HTTP attempt: the scenario's script and its dice. Pure decisions, shared
// by the simulated engine and the live server (which reads the attempt path from the
// X-RetryLab-Attempt header), so both see the same faults on the same attempt.
namespace faults {

enum Bit : quint32 {
    Connect = 1u << 0,
    RequestLost = 1u << 1,
    ResponseLost = 1u << 2,
    Reset = 1u << 3,
    Spike = 1u << 4,
    Error5xxBefore = 1u << 5,
    Error5xxAfter = 1u << 6,
    Throttle429 = 1u << 7,
    Restart = 1u << 8,
};

// Short names for the request handlers of the engine and the live server.
namespace shortnames {
constexpr quint32 FConnect = Connect;
constexpr quint32 FRequestLost = RequestLost;
constexpr quint32 FResponseLost = ResponseLost;
constexpr quint32 FReset = Reset;
constexpr quint32 FSpike = Spike;
constexpr quint32 F5xxBefore = Error5xxBefore;
constexpr quint32 F5xxAfter = Error5xxAfter;
constexpr quint32 F429 = Throttle429;
constexpr quint32 FRestart = Restart;
} // namespace shortnames

quint32 bit(FaultKind kind);

// One time drawn from a distribution, in microseconds, from one draw of the stream: uniform
// base + U(0, jitter), or normal |N(mean, sd)| by the inverse of the normal distribution function
// (the standard leaves std::normal_distribution's algorithm to each library, and a trace must be
// the same everywhere).
// Inline: four or five draws per write of the AWS figure, each a call and a return less.
inline qint64 drawUs(const Distribution &d, RngStream &rng);
// The normal shape's time for the uniform p in (0, 1), by the formula alone.
qint64 normalUs(const Distribution &d, double p);
// The same microsecond, as drawUs finds it: from a table where that is sure, else by the formula.
qint64 normalUsTabulated(const Distribution &d, double p);

inline qint64 drawUs(const Distribution &d, RngStream &rng)
{
    constexpr qint64 kMs = 1000;
    if (d.shape == DistributionShape::Uniform)
        return qint64(d.base) * kMs + qint64(rng.uniform() * d.jitter * kMs);
    // (0, 1): the quantile stays finite at both ends.
    const double p = (double(rng.next() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    return normalUsTabulated(d, p);
}

// The probability of `fault` at virtual time tUs: the scenario's own (`base`), or a window's while
// one of that fault is open (fromS <= t < toS). tUs < 0 ignores the windows.
double probabilityAt(const Scenario &s, FaultKind fault, double base, qint64 tUs);

// One HTTP attempt as the script and the dice address it.
struct Attempt
{
    int op = 0;  // 1-based
    int sub = 1; // submission (2 = double submit)
    int b = 1, w = 1, t = 1;
    bool get = false; // a status query: t counts its own HTTP attempts, w is 1
};

// network.script compiled for lookups: a short script is scanned, a long one indexed by
// (op, b, w, t) with 0 for "any", so an attempt costs at most 16 lookups however long it is.
class Script
{
public:
    Script() = default;
    explicit Script(const QList<ScriptEntry> &entries);

    // The faults the script forces on this attempt.
    quint32 match(const Attempt &a) const;
    bool empty() const { return m_entries.empty(); }
    bool addressesQueries() const { return m_queries; }
    bool restarts() const { return m_restarts; }

private:
    struct Entry
    {
        int op = 0;
        int b = 0, w = 0, t = 0;
        quint32 bit = 0;
        bool get = false;
    };
    static quint64 key(int op, int b, int w, int t);
    std::vector<Entry> m_entries;
    std::unordered_map<quint64, quint32> m_index[2]; // [0] POST, [1] GET; only for long scripts
    bool m_queries = false;
    bool m_restarts = false;
};

// The network's dice for a POST attempt (network.connectFailure, requestLoss, latencySpike,
// responseLoss, resetAfterCommit), drawn in that order from the attempt's own stream.
// tUs: when the attempt is sent (fault windows); -1 ignores the windows.
quint32 postNetworkDice(const Scenario &s, const Attempt &a, qint64 tUs = -1);
// The server's dice for a POST attempt when it arrives (server.throttle429, error5xxBeforeCommit,
// error5xxAfterCommit).
// tUs: when it arrives (fault windows); -1 ignores the windows.
quint32 serverDice(const Scenario &s, const Attempt &a, qint64 tUs = -1);
// How long the server processes a POST attempt that gets a processing slot, in microseconds
// (server.processingMs: base plus a uniform share of the jitter).
qint64 processingUs(const Scenario &s, const Attempt &a);

// The attempt's own stream of `stream` (seed, stream, op, sub, b, w, t): the dice above draw from
// it, the latencies from its extensions (RngStream::extended). The engine builds it once per
// attempt and passes it to the forms below, which give exactly what the forms above give.
RngStream attemptStream(const Scenario &s, RngStream::Stream stream, const Attempt &a);
quint32 postNetworkDice(const Scenario &s, RngStream network, qint64 tUs);
quint32 serverDice(const Scenario &s, RngStream server, qint64 tUs);
// Whether the dice above can find anything in this scenario (a probability above 0, or a fault
// window): when not, they give 0 without drawing, and the engine asks once per run, not per attempt.
bool postNetworkDiceMayHit(const Scenario &s);
bool serverDiceMayHit(const Scenario &s);
qint64 processingUs(const Scenario &s, const RngStream &server);

// The network's dice for a status query (GET /orders?ref=, a.get with a.t its own HTTP attempt):
// requestLoss and responseLoss, the latency of the way there, then connectFailure, latencySpike
// and resetAfterCommit, in that order from the query's own stream. `latencyUs` gets that latency.
quint32 queryDice(const Scenario &s, const Attempt &a, qint64 *latencyUs = nullptr, qint64 tUs = -1);

// What a server restart did, for the trace of a request it dropped: the prefix, then the down
// time and whether the key store forgot its keys. One wording for the engine and the live server.
QString restartText(const Scenario &s, const QString &prefix);
// The same as typed trace fields: keys forgotten or kept, the down time (ms), before or after a commit.
TraceTyped restartTyped(const Scenario &s, CommitPhase phase);

} // namespace faults
} // namespace retrylab
