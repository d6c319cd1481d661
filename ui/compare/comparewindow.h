#pragma once

#include "compare.h"
#include "timeline/timelinelayout.h"
#include "whatif.h"

#include <QFutureWatcher>
#include <QList>
#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QSplitter;
class QSpinBox;
class QTableWidget;
class QToolButton;
class QVariantAnimation;

namespace retrylab {

class CompareChart;
class TimelineWidget;

// Compare mode: a scenario (A) and a copy with one toggle changed (B), run with the same seed,
// side by side: two timelines of the same operation under one playback, both runs' curves on
// one chart, and the difference summary. A top-level window of its own.
class CompareWindow : public QWidget
{
    Q_OBJECT
public:
    explicit CompareWindow(QWidget *parent = nullptr);
    ~CompareWindow() override;

    // A is `scenario`; B is compare::defaultVariant(scenario). Runs both (in the background);
    // the timelines then show `operation` (0: A's story operation).
    void setScenario(const Scenario &scenario, int operation = 0);
    const Scenario &scenarioA() const { return m_a; }
    Scenario scenarioB() const;
    // The toggles B can have: whatif::variants(A) that change something.
    const QList<WhatIfVariant> &variants() const { return m_variants; }
    int variantIndex() const;
    void setVariantIndex(int index); // runs again

    bool isRunning() const { return m_running; }
    bool hasResult() const { return m_hasResult; }
    const CompareResult &result() const { return m_result; }

    int operation() const;
    void setOperation(int op);
    // Virtual time (microseconds) of both playheads.
    qint64 playhead() const { return m_playhead; }
    void setPlayhead(qint64 t);
    bool isPlaying() const;
    // Distinct event times of the shown operation in A or B, ascending: where steps stop.
    const QList<qint64> &times() const { return m_times; }

    TimelineWidget *timelineA() const { return m_timelineA; }
    TimelineWidget *timelineB() const { return m_timelineB; }
    CompareChart *chart() const { return m_chart; }
    QTableWidget *summaryTable() const { return m_table; }
    QComboBox *variantBox() const { return m_variantBox; }
    QLabel *titleA() const { return m_titleA; }
    QLabel *titleB() const { return m_titleB; }

public Q_SLOTS:
    void play();
    void pause();
    void togglePlayback();
    void stepNext();
    void stepPrevious();
    // Runs A and B again; a run in flight is dropped.
    void rerun();
    void cancel();

Q_SIGNALS:
    // Both runs are shown (table, chart, timelines).
    void resultShown();
    void runningChanged(bool running);
    // A run ended without being shown: cancelled, or superseded by a newer one.
    void runDropped();
    void playheadMoved(qint64 t);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void buildUi();
    QHBoxLayout *buildTopRow();
    QWidget *buildTimelines();
    QSplitter *buildSummary();
    void connectPlayback();
    void createKeys();
    void startRun();
    void finishRun(quint64 generation);
    void showResult();
    void fillTable();
    void updateTitles();
    void setRunning(bool running);
    void onOperationShown();
    void rebuildTimes();
    void alignTimeAxes();
    void applyPlayhead(qint64 t);
    void followTimeline(TimelineWidget *from, qint64 t);
    void updatePlayButton();
    void applyFonts();
    // The height of the table's header and its first `rows` rows.
    int tableHeight(int rows) const;
    // Splits the height between the timelines and the chart and table (after the layouts ran).
    void placeRows();
    void placeRowsLater();

    // Rows of the difference table always in view (records, duplicates, orphans).
    static constexpr int MinTableRows = 3;

    Scenario m_a;
    QList<WhatIfVariant> m_variants;
    int m_requestedOperation = 0;
    CompareResult m_result;
    bool m_hasResult = false;
    bool m_running = false;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QFutureWatcher<CompareResult> *m_watcher = nullptr;

    QList<qint64> m_times;
    timeline::StoryClock m_clock; // the playback of m_times
    qint64 m_playhead = 0;
    bool m_syncing = false;
    bool m_alignQueued = false;
    bool m_placeQueued = false;
    bool m_rowsMovedByUser = false;

    QLabel *m_heading = nullptr;
    QComboBox *m_variantBox = nullptr;
    QSpinBox *m_opSpin = nullptr;
    QLabel *m_seedLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_titleA = nullptr;
    QLabel *m_titleB = nullptr;
    QLabel *m_changesA = nullptr;
    QLabel *m_changesB = nullptr;
    TimelineWidget *m_timelineA = nullptr;
    TimelineWidget *m_timelineB = nullptr;
    QToolButton *m_prevButton = nullptr;
    QToolButton *m_playButton = nullptr;
    QToolButton *m_nextButton = nullptr;
    QSlider *m_slider = nullptr;
    QLabel *m_timeLabel = nullptr;
    QVariantAnimation *m_anim = nullptr;
    CompareChart *m_chart = nullptr;
    QTableWidget *m_table = nullptr;
    QSplitter *m_rows = nullptr; // the timelines above, the chart and the table below
};

} // namespace retrylab
