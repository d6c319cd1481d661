#pragma once

#include "options.h"

#include "sweep.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace retrylab {
namespace cli {

// How `sweep` prints its points (table, JSON, CSV) and reads them back from JSON (--merge): one
// place, so that merged shards print exactly what one machine prints.

// The table's and CSV's metrics: --metrics, or the defaults.
QStringList chosenMetrics(const QStringList &requested, const SweepSpec &spec);
// Every metric name, Metrics::flat() order.
QStringList metricNames();
// --metrics m1,m2: known names only, each once, in the order given; false after printing the error.
bool readMetricNames(const QString &text, QStringList *requested);
QJsonObject sweepJson(const Scenario &s, const SweepSpec &spec, const QList<SweepPoint> &points);
void writeSweep(Format format, const Scenario &s, const SweepSpec &spec, const QList<SweepPoint> &points,
                const QStringList &requestedMetrics);
// The output's JSON object, as writeSweep prints it.
void writeSweepJson(const QJsonObject &object);
// Back from sweepJson(): the scenario's name, title and seed, the spec and the points.
bool sweepFromJson(const QJsonObject &object, Scenario *s, SweepSpec *spec, QList<SweepPoint> *points);

// `sweep --merge FILES`: the shards' JSON joined into what one machine prints (sweepmerge.cpp).
QCommandLineOption mergeOption();
int sweepMergeCommand(const QStringList &arguments);

} // namespace cli
} // namespace retrylab
