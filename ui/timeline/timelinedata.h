#pragma once

#include "simulator.h"

#include <QList>
#include <QPair>
#include <QSet>

namespace retrylab {

// One compact row of the timeline's overview strip: an operation's attempt ticks and record dots.
struct OverviewRow
{
    int op = 0;
    qint64 start = 0;
    qint64 end = 0;
    QList<qint64> attempts;
    QList<QPair<qint64, bool>> records; // time, duplicate
    int duplicates = 0;
    bool failed = false;
    bool succeeded = false;
};

// The overview's rows of a run: one pass over every event, a pure function of the run that a
// worker thread may compute.
struct OverviewLayout
{
    QList<OverviewRow> rows;
    qint64 t0 = 0;
    qint64 t1 = 1;
};

// What the timeline derives from a whole run: a pure function of it, for a worker thread. No
// widget here, so that the document holds it.
struct TimelineData
{
    QSet<int> duplicates; // timeline::duplicateRecords
    OverviewLayout overview;
};

// Thread-safe: reads the result only. (Defined beside TimelineWidget.)
TimelineData prepareTimeline(const RunResult &result);

} // namespace retrylab
