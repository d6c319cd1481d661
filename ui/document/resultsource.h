#pragma once

namespace retrylab {

// Where the result on show comes from: the simulation, the embedded server's Watch view (outside
// clients' requests arriving), a Live run (the lab's own client over real HTTP on loopback), or the
// Proxy view (File > Proxy…: requests to someone's own service through the lab's fault proxy).
enum class ResultSource { Simulation, Watch, LiveRun, Proxy };

// Requests someone else's client sent, on a real clock since the server or the proxy started: the
// Watch and Proxy views. Their operations are what arrived, not a scenario's orders.
inline bool isWatched(ResultSource source)
{
    return source == ResultSource::Watch || source == ResultSource::Proxy;
}

} // namespace retrylab
