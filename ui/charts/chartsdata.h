#pragma once

#include "simulator.h"

#include <QList>
#include <QPair>
#include <QPointF>
#include <QStringList>

namespace retrylab {

// What the charts derive from a run before they touch a chart, a pure function of the run: a
// worker thread computes it (prepareCharts) and the GUI thread only hands the points to Qt Charts.
// No widget here, so that the document holds it.
struct ChartsData
{
    // Duplicates over time: every step, and the thinned lists drawn.
    QList<QPointF> duplicatePoints;
    QList<QPointF> outstandingPoints;
    QList<QPointF> drawnCreated;
    QList<QPointF> drawnOutstanding;
    // Records committed after their client had given up on that attempt (series::lateCommitEvents),
    // on the same chart: the ghosts that become duplicates when the client retries.
    QList<QPointF> latePoints;
    QList<QPointF> drawnLate;
    int duplicates = 0;
    int outstanding = 0;
    int voided = 0;
    int late = 0;
    double end = 1;
    // Attempts per operation: one bar per attempt count, empty ones too.
    QStringList attemptCategories;
    QList<qreal> attemptValues;
    int tallestBar = 0;
    int maxAttempts = 0;
    bool doubleSubmits = false;
    QList<QPair<int, int>> histogram;
    QList<QList<int>> attemptOps;
    QStringList attemptToolTips;
};

// Thread-safe: reads the result only. (Defined beside ChartsPanel, whose words its tool tips use.)
ChartsData prepareCharts(const RunResult &result);

} // namespace retrylab
