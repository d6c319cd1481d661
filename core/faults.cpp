#include "faults.h"

#include <algorithm>
#include <cmath>

#include "rng.h"

namespace retrylab {
namespace faults {

namespace {

constexpr size_t LinearScriptEntries = 16;

int segmentNumber(const QString &segment)
{
    if (segment == QLatin1String("*") || segment.size() < 2)
        return 0;
    bool ok = false;
    const int n = segment.mid(1).toInt(&ok);
    return ok ? n : 0;
}

} // namespace

quint32 bit(FaultKind kind)
{
    switch (kind) {
    case FaultKind::ConnectFailure: return Connect;
    case FaultKind::RequestLost: return RequestLost;
    case FaultKind::ResponseLost: return ResponseLost;
    case FaultKind::ResetAfterCommit: return Reset;
    case FaultKind::LatencySpike: return Spike;
    case FaultKind::Server5xxBeforeCommit: return Error5xxBefore;
    case FaultKind::Server5xxAfterCommit: return Error5xxAfter;
    case FaultKind::Throttle429: return Throttle429;
    case FaultKind::ServerRestart: return Restart;
    }
    return 0;
}

quint64 Script::key(int op, int b, int w, int t)
{
    // op < 2^21 (at most 1e6), attempt numbers < 2^14 (at most 9999): 63 bits.
    return (quint64(quint32(op)) << 42) | (quint64(quint32(b) & 0x3FFF) << 28) | (quint64(quint32(w) & 0x3FFF) << 14)
        | quint64(quint32(t) & 0x3FFF);
}

Script::Script(const QList<ScriptEntry> &entries)
{
    m_entries.reserve(size_t(entries.size()));
    for (const ScriptEntry &e : entries) {
        Entry c;
        c.op = e.op;
        const QStringList seg = e.attempt.split(QLatin1Char('/'));
        if (seg.size() == 3) {
            c.b = segmentNumber(seg[0]);
            c.w = segmentNumber(seg[1]);
            c.t = segmentNumber(seg[2]);
        }
        c.bit = bit(e.fault);
        c.get = e.method == ScriptMethod::Get;
        m_queries |= c.get;
        m_restarts |= (c.bit & Restart) != 0;
        m_entries.push_back(c);
    }
    if (m_entries.size() > LinearScriptEntries) {
        for (const Entry &c : m_entries)
            m_index[c.get ? 1 : 0][key(c.op, c.b, c.w, c.t)] |= c.bit;
    }
}

quint32 Script::match(const Attempt &a) const
{
    quint32 found = 0;
    if (m_entries.size() > LinearScriptEntries) {
        const std::unordered_map<quint64, quint32> &index = m_index[a.get ? 1 : 0];
        if (index.empty())
            return 0;
        // Every combination of "this number" and "any" per segment; "any" (0) never equals an attempt number.
        for (int op : {0, a.op})
            for (int b : {0, a.b})
                for (int w : {0, a.w})
                    for (int t : {0, a.t}) {
                        const auto it = index.find(key(op, b, w, t));
                        if (it != index.end())
                            found |= it->second;
                    }
        return found;
    }
    for (const Entry &c : m_entries) {
        if (c.get == a.get && (c.op == 0 || c.op == a.op) && (c.b == 0 || c.b == a.b) && (c.w == 0 || c.w == a.w)
            && (c.t == 0 || c.t == a.t))
            found |= c.bit;
    }
    return found;
}

namespace {

// The standard normal quantile, by Peter Acklam's rational approximation (relative error below
// 1.2e-9, far finer than the microsecond a draw is rounded to): one uniform per draw, and a
// logarithm only in the tails (p < 0.02425 or p > 0.97575). Box-Muller's log, sqrt and cos per
// draw took two thirds of a many-client run.
double normalQuantile(double p)
{
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                   1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                   6.680131188771972e+01,  -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                   -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                   3.754408661907416e+00};
    constexpr double low = 0.02425;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low) {
        const double q = std::sqrt(-2 * std::log(1 - p));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double q = p - 0.5;
    const double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
        / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}


// Acklam's quantile at 2048 equal steps of p, interpolated linearly, with a bound on how far the
// line can be from the formula in each step: when the drawn time is farther than that bound from
// a rounding boundary (half a microsecond), the line rounds to the same microsecond as the formula,
// so the shortcut changes no trace; otherwise, and in the tails, the formula decides. The rational
// function and its division were a sixth of the AWS figure's runs (four normal draws per write).
class NormalTable
{
public:
    static constexpr int Cells = 2048; // p * 2048 is exact: the step and its offset carry no rounding

    NormalTable()
    {
        constexpr double h = 1.0 / Cells;
        for (int i = 0; i <= Cells; ++i)
            m_z[i] = (i == 0 || i == Cells) ? 0 : normalQuantile(i * h);
        for (int i = 0; i < Cells; ++i) {
            // Linear interpolation of a smooth function is off by at most h^2 / 8 * max |z''| in the
            // step; z''(p) = z / phi(z)^2 grows with |z|, so its largest is at the end farther
            // from the middle. Twice that (the formula's own curvature differs from the exact
            // quantile's by far less), and only steps inside the formula's central branch.
            const double p0 = i * h;
            const double p1 = p0 + h;
            m_fast[i] = p0 >= CentralLow && p1 <= 1 - CentralLow;
            if (!m_fast[i])
                continue;
            const double far = std::max(std::fabs(m_z[i]), std::fabs(m_z[i + 1]));
            const double phi = std::exp(-far * far / 2) / 2.5066282746310002; // sqrt(2 pi)
            m_err[i] = 2 * h * h / 8 * far / (phi * phi) + 1e-12;
        }
    }
    // The microseconds of |N(mean, sd)| at p, or -1 when too close to a rounding boundary to tell.
    qint64 us(const Distribution &d, double p) const
    {
        const double x = p * Cells;
        const int i = int(x);
        if (!m_fast[i])
            return -1;
        const double z = m_z[i] + (x - i) * (m_z[i + 1] - m_z[i]);
        const double v = std::fabs(d.mean + d.sd * z) * 1000 + 0.5;
        // How far the formula's v can be: the line's bound in microseconds, and the rounding of
        // the arithmetic (far below 1e-9 relative).
        const double margin = m_err[i] * std::fabs(d.sd) * 1000 + 1e-9 * v;
        // v >= 0.5 and far below 2^63 (MaxDistributionMs), so truncation is floor, which is a
        // library call on baseline x86-64 (a tenth of this function).
        const double whole = double(qint64(v));
        if (v - whole > margin && whole + 1 - v > margin)
            return qint64(whole);
        return -1;
    }

private:
    static constexpr double CentralLow = 0.02425; // normalQuantile's central branch
    double m_z[Cells + 1];
    double m_err[Cells] = {};
    bool m_fast[Cells] = {};
};

const NormalTable Normal;

} // namespace

qint64 normalUs(const Distribution &d, double p)
{
    constexpr qint64 kMs = 1000;
    const double v = std::fabs(d.mean + d.sd * normalQuantile(p)) * kMs;
    return qint64(v + 0.5);
}

qint64 normalUsTabulated(const Distribution &d, double p)
{
    const qint64 fast = Normal.us(d, p);
    return fast >= 0 ? fast : normalUs(d, p);
}

double probabilityAt(const Scenario &s, FaultKind fault, double base, qint64 tUs)
{
    if (tUs < 0 || s.windows.isEmpty())
        return base;
    const double t = double(tUs) / 1e6;
    for (const FaultWindow &w : s.windows) {
        if (w.fault == fault && t >= w.fromS && t < w.toS)
            return w.probability;
    }
    return base;
}

quint32 postNetworkDice(const Scenario &s, const Attempt &a, qint64 tUs)
{
    // Keyed by the attempt, so each attempt sees the same dice in every variant.
    return postNetworkDice(s, attemptStream(s, RngStream::Network, a), tUs);
}

bool postNetworkDiceMayHit(const Scenario &s)
{
    const NetworkConfig &n = s.network;
    // Every "u < 0" is false: no draw can find anything (the result is the same as drawing).
    return !(n.connectFailure <= 0 && n.requestLoss <= 0 && n.latencySpike <= 0 && n.responseLoss <= 0
             && n.resetAfterCommit <= 0 && s.windows.isEmpty());
}

quint32 postNetworkDice(const Scenario &s, RngStream rng, qint64 tUs)
{
    const NetworkConfig &n = s.network;
    if (!postNetworkDiceMayHit(s))
        return 0;
    const auto p = [&](FaultKind kind, double base) { return probabilityAt(s, kind, base, tUs); };
    quint32 found = 0;
    if (rng.below(p(FaultKind::ConnectFailure, n.connectFailure)))
        found |= Connect;
    if (rng.below(p(FaultKind::RequestLost, n.requestLoss)))
        found |= RequestLost;
    if (rng.below(p(FaultKind::LatencySpike, n.latencySpike)))
        found |= Spike;
    if (rng.below(p(FaultKind::ResponseLost, n.responseLoss)))
        found |= ResponseLost;
    if (rng.below(p(FaultKind::ResetAfterCommit, n.resetAfterCommit)))
        found |= Reset;
    return found;
}

quint32 serverDice(const Scenario &s, const Attempt &a, qint64 tUs)
{
    return serverDice(s, attemptStream(s, RngStream::Server, a), tUs);
}

bool serverDiceMayHit(const Scenario &s)
{
    const ServerConfig &sc = s.server;
    return !(sc.throttle429 <= 0 && sc.error5xxBeforeCommit <= 0 && sc.error5xxAfterCommit <= 0 && s.windows.isEmpty());
}

quint32 serverDice(const Scenario &s, RngStream rng, qint64 tUs)
{
    const ServerConfig &sc = s.server;
    if (!serverDiceMayHit(s))
        return 0; // as above: nothing to find
    const auto p = [&](FaultKind kind, double base) { return probabilityAt(s, kind, base, tUs); };
    quint32 found = 0;
    if (rng.below(p(FaultKind::Throttle429, sc.throttle429)))
        found |= Throttle429;
    if (rng.below(p(FaultKind::Server5xxBeforeCommit, sc.error5xxBeforeCommit)))
        found |= Error5xxBefore;
    if (rng.below(p(FaultKind::Server5xxAfterCommit, sc.error5xxAfterCommit)))
        found |= Error5xxAfter;
    return found;
}

qint64 processingUs(const Scenario &s, const Attempt &a)
{
    return processingUs(s, attemptStream(s, RngStream::Server, a));
}

qint64 processingUs(const Scenario &s, const RngStream &server)
{
    const Distribution &d = s.server.processingMs;
    if (d.shape == DistributionShape::Uniform && d.jitter == 0)
        return qint64(d.base) * 1000; // the draw would add U(0, 0)
    RngStream rng = server.extended(9);
    return drawUs(s.server.processingMs, rng);
}

RngStream attemptStream(const Scenario &s, RngStream::Stream stream, const Attempt &a)
{
    return RngStream(s.seed, stream, {quint64(a.op), quint64(a.sub), quint64(a.b), quint64(a.w), quint64(a.t)});
}

quint32 queryDice(const Scenario &s, const Attempt &a, qint64 *latencyUs, qint64 tUs)
{
    // The first attempt keeps the draws a status query always had; each retry draws afresh.
    RngStream rng = a.t <= 1 ? RngStream(s.seed, RngStream::Query, {quint64(a.op), quint64(a.sub), quint64(a.b)})
                             : RngStream(s.seed, RngStream::Query, {quint64(a.op), quint64(a.sub), quint64(a.b), quint64(a.t)});
    const NetworkConfig &n = s.network;
    const auto p = [&](FaultKind kind, double base) { return probabilityAt(s, kind, base, tUs); };
    quint32 found = 0;
    if (rng.below(p(FaultKind::RequestLost, n.requestLoss)))
        found |= RequestLost;
    if (rng.below(p(FaultKind::ResponseLost, n.responseLoss)))
        found |= ResponseLost;
    const qint64 latency = drawUs(n.latencyMs, rng);
    if (latencyUs)
        *latencyUs = latency;
    // Drawn after the draws above, so a run without these faults keeps its trace.
    if (rng.below(p(FaultKind::ConnectFailure, n.connectFailure)))
        found |= Connect;
    if (rng.below(p(FaultKind::LatencySpike, n.latencySpike)))
        found |= Spike;
    if (rng.below(p(FaultKind::ResetAfterCommit, n.resetAfterCommit)))
        found |= Reset;
    return found;
}

QString restartText(const Scenario &s, const QString &prefix)
{
    const QString what = s.server.idempotency.store == KeyStore::Memory
        ? QStringLiteral("the server restarted (down %1 ms, in-memory idempotency keys forgotten)")
        : QStringLiteral("the server restarted (down %1 ms, durable idempotency keys kept)");
    return prefix + QLatin1Char(' ') + what.arg(s.server.restartDownMs);
}

TraceTyped restartTyped(const Scenario &s, CommitPhase phase)
{
    TraceTyped typed;
    typed.cause = s.server.idempotency.store == KeyStore::Memory ? TraceCause::KeysForgotten : TraceCause::KeysKept;
    typed.arg = s.server.restartDownMs;
    typed.phase = phase;
    return typed;
}

} // namespace faults
} // namespace retrylab
