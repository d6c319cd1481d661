#pragma once

#include "lesson.h"
#include "simulator.h"

#include <QFuture>
#include <QString>

namespace retrylab {

class ChartsPanel;

// A handout for a class: a PDF (QPdfWriter) of the scenario on show. Page 1: the title, the lesson,
// the settings that matter and the metrics; page 2: the timeline of the story operation, laid out
// as a slide; then one page per chart (duplicates over time, attempts per operation, and load over
// time for a lesson about load). `charts` holds the result's charts. Returns an empty string or
// the error.
QString writeHandout(const RunResult &result, ChartsPanel *charts, const QString &fileName);

// A handout of a whole lesson, in the current language: page 1 the lesson and its steps, then one
// page per step (what to watch, the question with its answer and the reveal, the run's numbers and
// the timeline of the operation the step shows). `runs` holds each step's run in order, traced
// (lessonRuns). Returns an empty string or the error.
QString writeLessonHandout(const Lesson &lesson, const QList<RunResult> &runs, const QString &fileName);

// Each step's run of a lesson, traced, on the worker threads (results in step order).
QFuture<RunResult> startLessonRuns(const Lesson &lesson);

// The settings a handout lists for a scenario, as (label, value) rows in reading order.
QList<QPair<QString, QString>> handoutSettings(const Scenario &s);

} // namespace retrylab
