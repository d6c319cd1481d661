#include "document/preparedviews.h"

namespace retrylab {

PreparedViews PreparedViews::prepare(const RunResult &result)
{
    PreparedViews views;
    views.ready = true;
    views.interesting = interestingOperations(result);
    views.records = RecordsModel::prepare(result.records, result.trace);
    views.charts = prepareCharts(result);
    views.timeline = prepareTimeline(result);
    return views;
}

} // namespace retrylab
