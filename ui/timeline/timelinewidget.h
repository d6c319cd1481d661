#pragma once

#include "document/resultsource.h"
#include "simulator.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelineoverview.h"

#include <QList>
#include <QSet>
#include <QSize>
#include <QString>
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QGraphicsScene;
class QLabel;
class QScrollArea;
class QSlider;
class QSpinBox;
class QToolButton;
class QVariantAnimation;

namespace retrylab {

class LabDocument;
class TimelineLegend;
class TimelineOverview;
class TimelineScene;
class TimelineView;

// The animated attempt timeline: swimlanes of one operation, a playback bar, a narrated
// caption and an overview strip of every operation of the run.
class TimelineWidget : public QWidget
{
    Q_OBJECT
public:
    // The caption is CaptionScales.first() times the window's font, smaller (down to the last) where
    // that would take more than CaptionLines lines: at 1024x640 five lines of it squeezed the swimlanes
    // behind a scroll bar.
    static constexpr qreal CaptionScales[] = {1.6, 1.45, 1.3, 1.15};
    static constexpr int CaptionLines = 3;

    explicit TimelineWidget(QWidget *parent = nullptr);
    // The caption's largest size, times the font (CaptionScales.first() unless a host wants it smaller:
    // compare mode's two timelines on a short screen); it still shrinks to fit CaptionLines lines.
    void setCaptionScale(qreal largest);
    ~TimelineWidget() override;

    // What setResult derives from a whole run (timelinedata.h: the document holds it).
    using Prepared = TimelineData;
    static Prepared prepare(const RunResult &result);

    void setResult(const RunResult &result); // keeps the current op if it still exists, else op 1
    // The same with prepare(result) computed elsewhere: the overview shows its rows at once.
    void setResult(const RunResult &result, Prepared prepared);
    void setOperation(int op);               // which logical operation the swimlanes show
    int operation() const;
    void selectEvent(int traceIndex); // index into result.trace; highlights + scrolls; no signal loop
    qint64 playhead() const;          // microseconds of virtual time
    void setPlayhead(qint64 t);
    void stepNext();
    void stepPrevious();
    void seekToEnd();
    // What opens a result: the whole operation drawn (the playhead at its end, the caption its
    // verdict) with the view on its start, the first attempt, where an operation wider than the
    // view would otherwise open scrolled to its end. The view follows the playhead again once it
    // moves (a step, Play, the slider).
    void showWhole();
    void play();
    void pause();
    bool isPlaying() const;
    void setSpeed(double factor); // 0.25 .. 16
    // Hides the timeline's own operation picker when a host window offers one.
    void setOperationPickerVisible(bool visible);
    // A host that drives several timelines with one playback bar, one zoom and one key hides their
    // own: the row of playback and zoom controls, and the key to the symbols.
    void setControlBarVisible(bool visible);
    void setLegendAllowed(bool allowed);
    // Where the result comes from; takes effect at the next setResult(). Watch: the client lanes
    // belong to an outside client the server cannot see, so they are greyed with a note saying so.
    // LiveRun: the lab's own client ran over real HTTP, so the network lane is loopback, not the model.
    void setSource(ResultSource source) { m_source = source; }
    // Follows every result of `document` (with its source): the frame reads the timeline's
    // operation and playhead as soon as a result arrives.
    void setDocument(LabDocument *document);
    ResultSource source() const { return m_source; }
    double speed() const { return m_speed; }
    QString caption() const;   // the narrated sentence of the current event
    int itemCount() const;     // trace events of the shown operation (each drawn by one item while in view)
    int liveItemCount() const; // items that exist now: all of them, or those in and near the view for long operations
    QGraphicsScene *scene() const;
    TimelineView *view() const { return m_view; }
    TimelineOverview *overview() const { return m_overview; }
    QVariantAnimation *animation() const { return m_anim; }
    QString detailsText() const;
    void zoomBy(double factor);
    // Widths of the drawn strokes times this: presentation mode draws thicker lines for a projector.
    void setStrokeScale(qreal scale);
    qreal strokeScale() const;
    // Presentation mode leaves out the overview strip of every operation: the clicker picks operations.
    void setOverviewAllowed(bool allowed);
    bool isOverviewAllowed() const { return m_overviewAllowed; }
    void fitToView();
    // The view's height that shows every lane at the smallest lane height (the horizontal scroll
    // bar's room included when the operation is wider than the view): what a window that must keep
    // all six lanes in view gives it.
    int viewHeightForLanes() const;
    // Lesson highlights. A lane drawn tinted and outlined until cleared (-1), kept across operations.
    void emphasiseLane(int lane);
    int emphasisedLane() const;
    // A lesson question before its reveal: the timeline states no answer. What the playhead has not
    // reached is not drawn (not even faded), the axis has no ticks or breaks beyond the playhead, the
    // time readout has no total, events not yet reached cannot be clicked or hovered, and repeated
    // waits are not summarised. The lesson controller sets it; Reveal clears it.
    void setAnswerHidden(bool hidden);
    bool isAnswerHidden() const;
    // The time readout beside the slider ("1.2 s / 11.110 s", or "1.2 s" while the answer is hidden).
    QString timeText() const;
    // Selects the first event of `kind` in the shown operation (as a click would, without the signal;
    // the playhead stays); false when the operation has none.
    bool selectFirstEvent(EventKind kind);
    // The trace index of the selected event, or -1.
    int selectedEvent() const { return m_selected; }
    // .png or .svg. Without a slide size: the scene as shown (its current zoom). With one (e.g. 1920x1080):
    // the whole operation laid out to fill exactly that size, under a title, with fonts scaled for a projector.
    bool exportImage(const QString &fileName, QString *error = nullptr, const QSize &slideSize = QSize()) const;
    // The title over an exported image: the scenario's title (a lesson step's handout puts the step's
    // there) and the operation.
    QString exportTitle() const;

Q_SIGNALS:
    void eventSelected(int traceIndex); // user clicked an item
    void playheadMoved(qint64 t);
    void operationChanged(int op);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitCaption();
    qreal m_captionScale = CaptionScales[0];
    QHBoxLayout *createControls();
    void createOverview();
    void connectControls();
    void applyResult(const RunResult &result, QSet<int> duplicates, TimelineOverview::Layout *overview);
    void rebuild();
    void applyPlayhead(qint64 t);
    void updateCaption();
    void updateTimeLabel();
    void updatePlayButton();
    void updateSliderRange();
    void followPlayhead();
    void showDetails(int traceIndex);
    void zoomAround(double factor, const QPoint &viewportAnchor);
    void applyFit();
    void updateExposed() const; // tells the scene which x range the view shows
    void adaptToView(); // lane height and (unless zoomed by hand) zoom for the view's size
    void updateOverviewHeight();
    int operationCount() const;
    bool hasOperation(int op) const;

    RunResult m_result;
    QSet<int> m_duplicates;
    int m_op = 1;
    double m_speed = 1.0;
    timeline::StoryClock m_clock; // playback milliseconds (at 1x) of each distinct event time
    QList<int> m_byTime;   // plan indices sorted by time
    QString m_caption;
    int m_selected = -1;
    bool m_syncing = false;
    ResultSource m_source = ResultSource::Simulation;
    bool m_overviewAllowed = true;
    enum class Fit { None, Readable, Exact };
    Fit m_fit = Fit::Readable; // how zoom follows resizes until the user zooms by hand
    bool m_viewAtStart = false; // showWhole(): the view stays on the start until the playhead moves
    QSize m_viewInput;         // the view's maximumViewportSize() the layout was computed for

    TimelineScene *m_scene = nullptr;
    TimelineView *m_view = nullptr;
    QVariantAnimation *m_anim = nullptr;
    QToolButton *m_prevButton = nullptr;
    QToolButton *m_playButton = nullptr;
    QToolButton *m_nextButton = nullptr;
    QComboBox *m_speedCombo = nullptr;
    QSlider *m_slider = nullptr;
    QLabel *m_timeLabel = nullptr;
    QToolButton *m_zoomOutButton = nullptr;
    QToolButton *m_zoomInButton = nullptr;
    QToolButton *m_fitButton = nullptr;
    QSpinBox *m_opSpin = nullptr;
    QLabel *m_captionLabel = nullptr;
    QLabel *m_detailsLabel = nullptr;
    QLabel *m_overviewTitle = nullptr;
    TimelineLegend *m_legend = nullptr;
    bool m_legendAllowed = true;
    TimelineOverview *m_overview = nullptr;
    QScrollArea *m_overviewArea = nullptr;
};

} // namespace retrylab
