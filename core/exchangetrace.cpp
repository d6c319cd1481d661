#include "exchangetrace.h"

namespace retrylab {
namespace exchangetrace {

RecordRow recordOf(const TraceEvent &committed, bool duplicate)
{
    // In RecordRow's order: id, op, ref (the caller's), key, path, requestId, t, duplicate.
    return RecordRow{committed.record, committed.op, QString(), committed.key(), committed.path(), committed.requestId(),
                     committed.t, duplicate};
}

} // namespace exchangetrace
} // namespace retrylab
