#pragma once

#include "simulator.h"

#include <QString>

namespace retrylab {

class ChartsPanel;

// A handout for a class: a PDF (QPdfWriter) of the scenario on show. Page 1: the title, the lesson,
// the settings that matter and the metrics; page 2: the timeline of the story operation, laid out
// as a slide; then one page per chart (duplicates over time, attempts per operation, and load over
// time for a lesson about load). `charts` holds the result's charts. Returns an empty string or
// the error.
QString writeHandout(const RunResult &result, ChartsPanel *charts, const QString &fileName);

// The settings a handout lists for a scenario, as (label, value) rows in reading order.
QList<QPair<QString, QString>> handoutSettings(const Scenario &s);

} // namespace retrylab
