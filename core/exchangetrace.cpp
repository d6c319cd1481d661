#include "exchangetrace.h"

namespace retrylab {
namespace exchangetrace {

RecordRow recordOf(const TraceEvent &committed, bool duplicate)
{
    RecordRow r;
    r.id = committed.record;
    r.op = committed.op;
    r.key = committed.key;
    r.path = committed.path;
    r.requestId = committed.requestId;
    r.t = committed.t;
    r.duplicate = duplicate;
    return r;
}

} // namespace exchangetrace
} // namespace retrylab
