#pragma once

namespace retrylab {

// Where the result on show comes from: the simulation, the embedded server's Watch view (outside
// clients' requests arriving), or a Live run (the lab's own client over real HTTP on loopback).
enum class ResultSource { Simulation, Watch, LiveRun };

} // namespace retrylab
