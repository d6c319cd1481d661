#pragma once

#include "simulator.h"
#include "trace.h"

namespace retrylab {

// What the traces of real exchanges share (the Watch view's serve, the proxy in front of someone's
// service, the fixture of other projects' tests): rows read from the events a request left.
namespace exchangetrace {

// The record a Committed event stands for: its number, operation, key, attempt path, request ID and
// time. The reference is left to the caller, who knows how it names an order.
RecordRow recordOf(const TraceEvent &committed, bool duplicate);

} // namespace exchangetrace
} // namespace retrylab
