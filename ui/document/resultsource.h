#pragma once

namespace retrylab {

// Where the result on show comes from: the simulation, the embedded server's Watch view (outside
// clients' requests arriving), a Live run (the lab's own client over real HTTP on loopback), or the
// Proxy view (File > Proxy…: requests to someone's own service through the lab's fault proxy), or a
// report of `retrylab check` (File > Open check report…: each probe's requests to someone's service).
enum class ResultSource { Simulation, Watch, LiveRun, Proxy, Check };

// Requests to a real server on a real clock (since the server or the proxy started, or the check
// began): the Watch, Proxy and Check views. Their operations are what was sent, not a scenario's orders.
inline bool isWatched(ResultSource source)
{
    return source == ResultSource::Watch || source == ResultSource::Proxy || source == ResultSource::Check;
}

} // namespace retrylab
