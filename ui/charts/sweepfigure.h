#pragma once

#include "sweep.h"

#include <QSize>
#include <QString>
#include <QStringList>

namespace retrylab {

// A sweep drawn as a figure file (PNG or SVG, by the file's suffix): one chart per metric side by
// side, x = the first parameter, one line per value of the second (the AWS study's figure:
// calls and completion time against clients, one line per strategy). Needs a QApplication.
// Returns an empty string or the error.
QString saveSweepFigure(const SweepSpec &spec, const QList<SweepPoint> &points, const QStringList &metrics,
                        const QString &title, const QString &fileName, QSize size = QSize(1600, 640));

// "Write calls (mean)" for writeAttempts, ...: a metric as a chart axis names it.
QString metricAxisTitle(const QString &metric);

} // namespace retrylab
