#pragma once

#include "lessons/handout.h"

#include "lesson.h"

#include <QMetaObject>
#include <QObject>
#include <QtNumeric>

class QDockWidget;
class QMenu;
class QShortcut;
class QWidget;

namespace retrylab {

class LabFrame;
class LessonPlayer;

// Guided lessons: the Lessons menu, the lesson dock and its keys. The player says which step to
// show; the controller applies the step's scenario (seed included) through the frame, waits for
// its run, then shows the step's operation and highlight. A question hides the outcome (as
// prediction mode does) until Reveal has played the operation to its end.
class LessonController : public QObject
{
    Q_OBJECT
public:
    // Creates the dock (hidden) and the Lessons menu; `frame` outlives the controller.
    explicit LessonController(LabFrame *frame, QObject *parent = nullptr);
    ~LessonController() override;

    // The Lessons menu, for the frame's menu bar (before Help).
    QMenu *menu() const { return m_menu; }
    QDockWidget *dock() const { return m_dock; }
    LessonPlayer *player() const { return m_player; }
    // Page Down / Page Up on the timeline jump between interesting operations, except while a
    // lesson is open: then they step through it. The controller switches them.
    void setTimelineKeys(QShortcut *next, QShortcut *previous);

    // Opens a built-in lesson by name, or a lesson file, at `step` (0-based, clamped); the dock
    // shows it and each step applies its scenario, seed, operation and highlight. False with the errors.
    bool startLesson(const QString &nameOrFile, int step = 0, QString *error = nullptr);
    void startLesson(const Lesson &lesson, int step = 0);
    // Closes the lesson dock: highlights cleared, the outcome shown again.
    void closeLesson();
    bool isLessonOpen() const;
    // False from a step's change until its run is on show and its operation and highlight applied.
    bool isLessonStepReady() const { return !m_pending; }
    // The open lesson's question hides the outcome.
    bool hidesOutcome() const;
    // The open lesson's handout: every step run on the worker threads (progress and Cancel in a
    // dialog over `progressParent` when given), then written. Empty or the error.
    // A student's copy has no answers (HandoutCopy).
    QString writeHandout(const QString &fileName, QWidget *progressParent, HandoutCopy copy = HandoutCopy::Teacher);
    // The default width of the dock: a quarter of the window, readable from the back of a room.
    int defaultDockWidth(bool presenting = false) const;
    // Beside the Scenario dock on the right, or tabbed with it in a narrow window.
    void placeDock();
    // Narrower windows get the Lesson dock as a tab of the Scenario dock, not a third column.
    static constexpr int MinWidthBesideScenario = 1200;
    // The Scenario dock's width beside a lesson at the least: its form's fields readable.
    static constexpr int MinScenarioWidth = 320;
    // A reveal whose animation would take longer than this at the chosen speed plays faster, so
    // that it takes about this long; the lesson panel says so.
    static constexpr int longestRevealMs = 8000;
    // The speed a reveal plays at: `chosen` while what is left of it (`remainingMs` at `chosen`)
    // takes at most longestRevealMs, else fast enough to take exactly that long.
    static double revealSpeed(double chosen, qint64 remainingMs);
    // Step `step` of `lesson` as the window shows it: its scenario named and titled after the step,
    // its description the step's text, so that the title, the editor and the preset list tell the
    // step's story and never the base preset's (which may state the answer).
    static Scenario shownScenario(const Lesson &lesson, int step);

    // The language switch: the open lesson, its step, the class's guess and whether the answer was shown.
    struct State
    {
        Lesson lesson; // no steps: none open
        int step = 0;
        double guess = qQNaN();
        int choice = -1;
        bool revealed = false;
    };
    State saveState() const;
    void restoreState(const State &state);

public Q_SLOTS:
    // Lessons > Open lesson file…
    void openLessonFile();
    // Lessons ▸ Student handout: a file dialog, then writeHandout(…, HandoutCopy::Student).
    void exportStudentHandout();
    // The frame shows a new result (the step's run may be it).
    void onResultShown();
    // Presenting: the editor is hidden, so the lesson takes more of the width.
    void onPresentationChanged(bool presenting);

private:
    void createMenu();
    void applyStep(int step);
    void finishStep();
    void revealAnswer();
    // The reveal's animation was paused (Space, the Play button) or resumed.
    void onRevealAnimationState();
    void continueReveal();
    void finishReveal();
    // Ends the reveal's own connections and gives the timeline its speed back.
    void endRevealPlayback();
    // Opens the step's chart (LessonHighlight::chart: a lesson::chartNames() name); none when empty.
    void showChart(const QString &name);
    void updateKeys();

    LabFrame *m_frame;
    LessonPlayer *m_player = nullptr;
    QDockWidget *m_dock = nullptr;
    QMenu *m_menu = nullptr;
    QShortcut *m_nextKey = nullptr;         // Page Down anywhere while a lesson is open: next step
    QShortcut *m_previousKey = nullptr;     // Page Up: previous step
    QShortcut *m_timelineNextKey = nullptr; // the frame's, off while a lesson is open
    QShortcut *m_timelinePreviousKey = nullptr;
    bool m_pending = false;               // a step was applied, its run not yet shown
    QMetaObject::Connection m_revealDone; // the reveal's animation end, or the step's run
    QMetaObject::Connection m_revealState; // the reveal's animation paused or resumed
    double m_speedBeforeReveal = 0;        // > 0: a long reveal runs faster; this comes back after it
    bool m_revealAtOnce = false;           // the language switch: the answer was shown, show it again now
};

} // namespace retrylab
