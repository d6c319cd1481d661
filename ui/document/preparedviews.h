#pragma once

#include "charts/chartsdata.h"
#include "recordsmodel.h"
#include "story.h"
#include "timeline/timelinedata.h"

#include <QList>

namespace retrylab {

// What the views derive from a run without a widget: the records table, the chart points, the
// timeline's duplicate set and overview rows, the interesting operations. A background run
// computes them on its worker thread, next to the run, so handing a big result to the window
// only swaps ready data in on the GUI thread. Every part indexes the same RunResult::trace.
struct PreparedViews
{
    // False: only `interesting` is filled; each view computes its part from the result when shown.
    bool ready = false;
    QList<InterestingOp> interesting;
    RecordsModel::Prepared records;
    ChartsData charts;
    TimelineData timeline;

    // Thread-safe: reads the result only.
    static PreparedViews prepare(const RunResult &result);
};

} // namespace retrylab
