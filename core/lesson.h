#pragma once

#include "scenario.h"
#include "simulator.h"

#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace retrylab {

// A guided lesson: ordered steps, each of which sets up a scenario, names the operation to show,
// says what to watch and may ask the class to predict a number before the answer is revealed.
//
// File format (JSON, schema 1; resources/lessons/<name>.json, embedded as ":/lessons/<name>.json"):
//
//   {
//     "schema": 1,                       optional, must be 1
//     "name": "ghost-request",           required, [a-z0-9-], at most 100 characters
//     "title": "...",                    required, at most 200 characters
//     "summary": "...",                  required, at most 2000 characters
//     "steps": [                         1 to MaxSteps steps, in order
//       {
//         "title": "...",                required
//         "scenario": "stable-key",      a preset name, or an inline scenario object (schema 1);
//                                        required in the first step. A step without it starts from
//                                        the previous step's scenario, its "set" and seed included,
//                                        so a step that only changes one toggle says just that.
//         "set": {"client.keyPlacement": "perOperation", ...}
//                                        field path -> JSON value, applied with scenario::withSets
//                                        after "scenario" (or the inherited one); validated there.
//         "seed": 7,                     optional, overrides the scenario's seed
//         "operation": "story" | 3,      the operation the timeline shows; "story" (the default)
//                                        is storyOperation() of the run
//         "watch": "...",                required, one or two sentences: what to look at
//         "highlight": {"control": "client.keyPlacement"}   a scenario field path (the editor)
//                    | {"lane": "wrapper"}                  a timeline lane (trace::laneName)
//                    | {"event": "committed"},              the first event of a kind (trace::kindName)
//                    each may add "chart": "load"           a chart opened once the answer is out
//                                                           (lesson::chartNames(); alone too:
//                                                           {"chart": "load"})
//         "question": {                  optional: a prediction before the answer is shown
//           "text": "...",
//           "kind": "number" | "choice",
//           "metric": "records",         a metric name (metricNames()): what the answer is
//           "answer": 20,                number: the metric's value; choice: the index of the choice
//           "choices": [                 choice only, 2 to MaxChoices; the metric's value selects
//             {"text": "...", "value": 1},          the choice whose range holds it: "value" exactly,
//             {"text": "...", "min": 2, "max": 5},  "min"/"max" inclusive,
//             {"text": "...", "above": 5}           "above"/"below" exclusive (each optional)
//           ]
//         },
//         "reveal": "...",               optional text shown after the answer
//         "facts": {"records": 1, "client.timeoutMs": 3000}
//                                        every number the step's texts state, keyed by a metric
//                                        name (checked against the run) or a scenario field path
//                                        (checked against the step's scenario), or "operation"
//                                        (the operation shown). tests/core/tst_lessons checks them.
//       }
//     ]
//   }
//
// Errors name the field path ("steps[2].question.answer: expected a number, got \"x\""); unknown
// keys are refused; texts, steps and choices are capped (the limits below).
struct LessonChoice
{
    QString text;
    // The range of the metric that selects this choice; NaN where unbounded.
    double min = qQNaN();     // inclusive ("min", or "value")
    double max = qQNaN();     // inclusive ("max", or "value")
    double above = qQNaN();   // exclusive
    double below = qQNaN();   // exclusive
    bool holds(double v) const;
    // The numbers that bound the choice ("value", "min", "max", "above", "below").
    QList<double> bounds() const;
};

struct LessonQuestion
{
    enum class Kind { None, Number, Choice };
    Kind kind = Kind::None;
    QString text;
    QString metric;
    double answer = 0;      // number: the expected value
    int answerChoice = -1;  // choice: the index of the correct choice
    QList<LessonChoice> choices;
};

struct LessonHighlight
{
    enum class Kind { None, Control, Lane, Event };
    Kind kind = Kind::None;
    QString target; // field path, lane name or event kind name
    // A chart the step opens (a lesson::chartNames() name) after its Reveal, or at once when the
    // step asks nothing: the chart would give the answer away before. Empty: none.
    QString chart;
};

struct LessonStep
{
    QString title;
    QString watch;
    QString reveal;
    Scenario scenario;          // resolved: preset or inline, inherited, "set" and "seed" applied
    QString scenarioSource;     // the preset name, "inline" or "inherited"
    QStringList sets;           // "path=value" as applied
    int operation = 0;          // 0 = the story operation
    LessonHighlight highlight;
    LessonQuestion question;
    QMap<QString, double> facts;
};

struct Lesson
{
    QString name;
    QString title;
    QString summary;
    QList<LessonStep> steps;
};

struct LessonParse
{
    Lesson lesson;
    QStringList errors;
    bool ok() const { return errors.isEmpty(); }
};

namespace lesson {
inline constexpr int MaxSteps = 30;
inline constexpr int MaxChoices = 6;
inline constexpr int MaxFacts = 40;
inline constexpr int MaxSets = 40;
inline constexpr int MaxNameChars = 100;
inline constexpr int MaxTitleChars = 200;
inline constexpr int MaxSummaryChars = 2000;
inline constexpr int MaxTextChars = 1000; // watch, question text, reveal, a choice
inline constexpr qint64 MaxFileBytes = 1024 * 1024;

LessonParse fromJson(const QJsonObject &object);
LessonParse fromJsonBytes(const QByteArray &bytes, const QString &source = QString());
LessonParse load(const QString &fileName);
// Lessons embedded as resources (":/lessons/<name>.json"), in teaching order.
QStringList builtinNames();
LessonParse builtin(const QString &name);
// A built-in lesson name or a file path.
LessonParse resolve(const QString &nameOrFile);

// The charts a step's "highlight" may open: "duplicates", "whatIf", "attempts", "load".
QStringList chartNames();

// The names a question's "metric" and a fact may use: every Metrics::flat() name, plus
// "op.attempts", "op.records", "op.submissions" (the operation the step shows).
QStringList metricNames();
// The value of a metric in a run; `op` is the operation the step shows (1-based). False when the
// name is unknown or needs the per-operation table and the run has none.
bool metricValue(const RunResult &run, int op, const QString &name, double *value);
// True when a step's question or facts need the run's per-operation tables (RunOptions::trace).
bool needsOperations(const LessonStep &step);
// The operation a step shows in a run: its "operation", or storyOperation(run).
int shownOperation(const LessonStep &step, const RunResult &run);
// The choice the metric's value selects, or -1 when none (or more than one) holds it.
int selectedChoice(const LessonQuestion &q, double value);

// Every text of a lesson a person reads, in file order, each once: title, summary, and per step
// the title, watch, question, choices and reveal. Shown through i18n::content (context "content");
// tst_translations checks that each has its translation.
QStringList translatableTexts(const Lesson &lesson);
} // namespace lesson

} // namespace retrylab
