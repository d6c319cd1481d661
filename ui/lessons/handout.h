#pragma once

#include "lesson.h"
#include "simulator.h"

#include <QFont>
#include <QFuture>
#include <QString>

namespace retrylab {

class ChartsPanel;
class TimelineWidget;

// A handout for a class: a PDF (QPdfWriter) of the scenario on show. Page 1: the title, the lesson,
// the settings that matter and the metrics; page 2: the timeline of the story operation, laid out
// as a slide; then one page per chart (duplicates over time, attempts per operation, and load over
// time for a lesson about load). `charts` holds the result's charts. Returns an empty string or
// the error.
QString writeHandout(const RunResult &result, ChartsPanel *charts, const QString &fileName);

// Who a lesson handout is for: the teacher's copy has the answers; the students' copy has each
// question with room for a prediction, and no answer, reveal, numbers of the run or timeline that
// would give one away (a step without a question keeps its timeline).
enum class HandoutCopy { Teacher, Student };

// A handout of a whole lesson, in the current language: page 1 the lesson and its steps, then one
// page per step (what to watch, the question with its answer and the reveal, the run's numbers and
// the timeline of the operation the step shows, titled with the step). `runs` holds each step's run
// in order, traced (lessonRuns). Returns an empty string or the error.
QString writeLessonHandout(const Lesson &lesson, const QList<RunResult> &runs, const QString &fileName,
                           HandoutCopy copy = HandoutCopy::Teacher);

// The font a handout's text is set in: the window's, with the Simplified Chinese face of Noto Sans
// CJK before any other for Chinese characters. (Left to fontconfig, Chinese fell to the Japanese
// face, whose glyphs a PDF reader maps back to Kangxi radicals: "\u2f83" for "\u81ea".)
QFont handoutFont();

// A handout's timeline picture: `timeline` shows operation `op` of `result` played to its end, at the
// handout's size, under `title` (empty: the scenario's own title).
void showForHandout(TimelineWidget &timeline, const RunResult &result, int op, const QString &title);
// The title over a lesson step's timeline in its handout: "Step 2: Late commits", not the preset's.
QString stepSlideTitle(const Lesson &lesson, int step);

// Each step's run of a lesson, traced, on the worker threads (results in step order).
QFuture<RunResult> startLessonRuns(const Lesson &lesson);

// The settings a handout lists for a scenario, as (label, value) rows in reading order.
QList<QPair<QString, QString>> handoutSettings(const Scenario &s);

} // namespace retrylab
