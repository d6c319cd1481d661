#pragma once

#include "scenario.h"

class QDockWidget;
class QMainWindow;

namespace retrylab {

class ChartsPanel;
class LabDocument;
class ScenarioEditor;
class TimelineWidget;

// An action's property: its toolbar button shows the action's own iconText (a short word set by the
// feature), not the toolbar's text derived from the action's text.
inline constexpr char OwnIconTextProperty[] = "retrylabOwnIconText";

// What a feature's controller (lessons, Watch and Live run, presentation, export) may ask of the
// window that holds it: the frame's few services, so that a controller never reaches into the
// window's members nor into another controller. MainWindow implements it.
class LabFrame
{
public:
    // Pages of the central area, in tab order.
    enum class Page { Timeline, Charts, Records, Log };

    virtual ~LabFrame() = default;
    virtual QMainWindow *frameWindow() = 0;
    virtual LabDocument *document() const = 0;
    virtual TimelineWidget *timeline() const = 0;
    virtual ChartsPanel *charts() const = 0;
    virtual ScenarioEditor *editor() const = 0;
    virtual QDockWidget *scenarioDock() const = 0;

    // Asks about unsaved changes; false: the user cancelled.
    virtual bool maybeSave() = 0;
    // Loads `scenario` as if opened (fileName empty: a preset or lesson step).
    virtual void applyScenario(const Scenario &scenario, const QString &fileName) = 0;
    virtual void showPage(Page page) = 0;
    virtual Page currentPage() const = 0;
    // The operation on the timeline and in the toolbar's box.
    virtual void setOperation(int op) = 0;
    // Something changed whether the outcome is hidden (a lesson question, prediction mode).
    virtual void applyOutcomeHiding() = 0;
    // True while anything hides the outcome: prediction mode, or a lesson question not yet revealed.
    virtual bool outcomeHidden() const = 0;
    virtual void updatePlaybackActions() = 0;
    virtual void stepNext() = 0;
    virtual void stepPrevious() = 0;
    // Prediction mode off (a lesson asks its own questions).
    virtual void stopPredicting() = 0;
    // Back to the simulation: no Live run, no serving (a lesson's numbers are the simulation's).
    virtual void stopOutsideSources() = 0;
    // While serving, the scenario on show is the one served: no edit, load, seed or re-run.
    virtual void setScenarioLocked(bool locked) = 0;
    // Live on: Re-run runs over real HTTP (its tool tip says so).
    virtual void setRerunLive(bool live) = 0;
    // Writes the open lesson's handout (Exporter: File > Export and Lessons > Handout).
    virtual void exportLessonHandout() = 0;
    // What the window shows instead of a scenario (the proxied service, a check report), named in
    // its title in place of the scenario's; empty: the scenario again.
    virtual void setSubject(const QString &subject) = 0;
};

} // namespace retrylab
