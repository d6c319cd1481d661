#pragma once

#include "charts/chartsdata.h"
#include "document/resultsource.h"
#include "simulator.h"
#include "sweep.h"
#include "whatif.h"

#include <QColor>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QList>
#include <QPair>
#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <memory>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractBarSeries;
class QAreaSeries;
class QBarCategoryAxis;
class QBarSeries;
class QBarSeries;
class QBarSet;
class QChart;
class QCheckBox;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineEdit;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QValueAxis;
QT_END_NAMESPACE

namespace retrylab {

class LabDocument;

class LoadChart;

// The charts of the lab: duplicates over time, what-if variants, parameter sweeps
// and the attempts histogram. Every Qt Charts dependency of the project lives in ui/charts*.
class ChartsPanel : public QWidget
{
    Q_OBJECT
public:
    enum Tab { DuplicatesTab, WhatIfTab, SweepTab, AttemptsTab, LoadTab, TabCount };

    // A scenario path the sweep tab offers, with a sensible default range, or (categorical: an
    // enum or a boolean) its values.
    struct SweepParam
    {
        QString path;
        QString label;
        double from = 0;
        double to = 1;
        int decimals = 0;
        QStringList choices; // not empty: categorical, these values by default
        bool categorical() const { return !choices.isEmpty(); }
    };
    // The "Parameter" combo: numeric fields, then categorical ones.
    static QList<SweepParam> sweepParams();
    // The "Compare by" combo (after "none"): categorical fields, one line per value.
    static QList<SweepParam> sweepCompareParams();

    explicit ChartsPanel(QWidget *parent = nullptr);
    ~ChartsPanel() override;

    // What setResult derives from a run before it touches a chart (chartsdata.h: the document holds it).
    using Prepared = ChartsData;
    static Prepared prepare(const RunResult &result);

    // Pulls the result of `document` when shown; its source at once.
    void setDocument(LabDocument *document);
    void setResult(const RunResult &result);
    // `prepared` must be prepare(result).
    void setResult(const RunResult &result, const Prepared &prepared);
    // Where the result comes from: in the Watch view the clock is real time since the server started.
    void setSource(ResultSource source);
    const RunResult &result() const { return m_result; }
    // The timeline's playhead (microseconds), for the charts that draw one.
    void setPlayhead(qint64 t);
    LoadChart *loadChart() const { return m_load; }

    // PNG (or any image format Qt writes) via grab, SVG by suffix via QSvgGenerator.
    bool exportChart(int tab, const QString &fileName, QString *error = nullptr);
    // Draws a chart tab into `target` of any painter (a PDF page stays vector), keeping its proportions.
    bool renderChart(int tab, QPainter *painter, const QRectF &target);
    int tabCount() const;
    QString tabTitle(int tab) const;
    int currentTab() const;
    void setCurrentTab(int tab);

    // Duplicate records created so far over simulated seconds (step line).
    QList<QPointF> duplicateSeries() const { return m_duplicatePoints; }
    // Duplicates still in the table: created minus those a reconciliation job voided.
    QList<QPointF> outstandingDuplicateSeries() const { return m_outstandingPoints; }
    // Records committed after their client gave up on that attempt, counted over simulated seconds
    // (step line; drawn only when there are some). Its last value is Metrics::lateCommits.
    QList<QPointF> lateCommitSeries() const { return m_latePoints; }
    bool isLateLineShown() const;
    // The outstanding line is drawn only when something was voided (else it is the created line).
    bool isOutstandingLineShown() const;
    // What the duplicates chart draws: the same curve, at most ~2,000 points.
    QList<QPointF> drawnDuplicateSeries() const;
    static QList<QPointF> thinnedForDrawing(const QList<QPointF> &points, double end);
    QStringList whatIfLabels() const { return m_whatIfLabels; }
    // Per bar: the label, its numbers and every setting changed ("path: old -> new").
    QStringList whatIfToolTips() const { return m_whatIfToolTips; }
    QList<double> whatIfDuplicates() const { return m_whatIfDuplicates; }
    QList<double> whatIfRecords() const { return m_whatIfRecords; }
    QList<double> whatIfAmplification() const { return m_whatIfAmplification; }
    bool isWhatIfPending() const { return m_whatIfPending; }
    // (attempts, operations with that many attempts), ascending attempts.
    QList<QPair<int, int>> attemptsHistogram() const { return m_histogram; }
    // Per bar of the attempts chart (every attempt count drawn, empty ones too): its ops
    // ascending, and its tooltip ("5 operations made 2 HTTP attempts: 1, 2, ...").
    // A click on a bar emits operationActivated(first of its ops).
    QList<QList<int>> attemptBarOps() const { return m_attemptOps; }
    QStringList attemptBarToolTips() const { return m_attemptToolTips; }

    // The sweep runs on the scenario of the last result. Returns false (and says why)
    // when the spec is invalid or a sweep is already running.
    bool startSweep(const SweepSpec &spec, QString *error = nullptr);
    void cancelSweep();
    bool isSweepRunning() const { return m_sweepRunning; }
    // Below this height the charts drop axis titles and use smaller fonts.
    static constexpr int compactHeight = 480;
    // Below this width chart titles use the smaller font.
    static constexpr int narrowWidth = 800;
    bool isCompact() const { return m_compact; }
    SweepSpec sweepSpecFromControls() const;
    void setSweepControls(const SweepSpec &spec);
    QList<SweepPoint> sweepPoints() const { return m_sweepPoints; }
    // The sweep shown was run on settings other than the last result's: greyed, with
    // "These results are for earlier settings - Run sweep again" above it.
    bool isSweepStale() const { return m_sweepStale; }
    QString sweepStatusText() const;
    // What the sweep's bar says while it runs: "12 of 60 · 8 s left".
    static QString sweepProgressText(int done, int total, const QString &left);
    // The sweep chart as drawn: the names of its visible line series (one per value of the
    // second parameter in a 2-D sweep, legend order), their colours, and the labels of the
    // x axis when the first parameter is categorical (else empty).
    QStringList sweepLineNames() const;
    QList<QColor> sweepLineColors() const;
    QStringList sweepXLabels() const;
    // The metric a 2-D sweep chart draws (Metrics::flat() name) and whether min-max bands show.
    QString sweepMetric() const;
    void setSweepMetric(const QString &metric);
    void setSweepBandsShown(bool shown);

Q_SIGNALS:
    void whatIfUpdated();
    void sweepStarted();
    // The pilot's estimate of the whole sweep (computed off the GUI thread): its runs start now.
    void sweepEstimated(qint64 expectedAttempts);
    void sweepProgress(int done, int total);
    void sweepFinished(bool cancelled);
    // The user clicked a bar of "Attempts per operation": open this op (1-based).
    void operationActivated(int op);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *buildDuplicatesTab();
    QWidget *buildWhatIfTab();
    QWidget *buildSweepTab();
    // The bar's words for `done` of the sweep's runs and the time `left` (empty: not known yet).
    void setSweepProgressTexts(int done, const QString &left);
    QWidget *buildAttemptsTab();
    QChartView *chartView(int tab) const;

    void applyStyle();
    void updateDuplicates(const Prepared &prepared);
    void applyDuplicatesLegend();
    void updateAttempts(const Prepared &prepared);
    static QString attemptsToolTip(int attempts, const QList<int> &ops);
    void startWhatIf();
    void whatIfFinished();
    void showWhatIf();
    void applyWhatIfCountStyle();
    void placeWhatIfCounts();
    void sweepDone();
    void sweepEstimateDone();
    void showSweep();
    void sweepParamChanged(int index);
    void showSweepOneParameter();
    void showSweepCompared();
    void clearSweepCompareLines();
    void fitSweepCategoryLabels();
    void updateSweepButtons();
    void applySweepColors();
    void setSweepStale(bool stale);

    RunResult m_result;
    bool m_hasResult = false;
    bool m_compact = false; // a short page: smaller fonts, fewer words
    bool m_narrow = false;
    QTabWidget *m_tabs = nullptr;
    QChartView *m_views[TabCount] = {};

    // duplicates over time
    QLineSeries *m_dupLine = nullptr;  // drawn: duplicates created
    QLineSeries *m_dupOutstandingLine = nullptr; // drawn when reconciliation voided some
    QLineSeries *m_dupLateLine = nullptr; // drawn when records were committed for nobody
    QLineSeries *m_dupUpper = nullptr; // the fill's edge, not drawn
    QAreaSeries *m_dupArea = nullptr;
    QValueAxis *m_dupX = nullptr;
    QValueAxis *m_dupY = nullptr;
    QList<QPointF> m_duplicatePoints;
    QList<QPointF> m_outstandingPoints;
    QList<QPointF> m_latePoints;

    // what-if
    QAbstractBarSeries *m_whatIfBars = nullptr;
    QBarSet *m_whatIfDupSet = nullptr;
    QBarCategoryAxis *m_whatIfCategories = nullptr;
    QList<QGraphicsSimpleTextItem *> m_whatIfCountItems; // the count at each bar's end, bottom row first
    QValueAxis *m_whatIfValues = nullptr;
    QStringList m_whatIfLabels;
    QStringList m_whatIfChanges; // whatif::describe() of each variant's changes
    QStringList m_whatIfToolTips;
    QList<double> m_whatIfDuplicates;
    QList<double> m_whatIfRecords;
    QList<double> m_whatIfAmplification;
    QFutureWatcher<Metrics> m_whatIfWatcher;
    QList<WhatIfVariant> m_pendingVariants;
    std::shared_ptr<std::atomic_bool> m_whatIfCancel;
    bool m_whatIfPending = false;

    // sweep
    QComboBox *m_sweepParam = nullptr;
    QDoubleSpinBox *m_sweepFrom = nullptr;
    QDoubleSpinBox *m_sweepTo = nullptr;
    QLabel *m_sweepFromLabel = nullptr;
    QLabel *m_sweepToLabel = nullptr;
    QLabel *m_sweepValuesLabel = nullptr;
    QLineEdit *m_sweepValues = nullptr; // a categorical parameter's values, comma-separated
    QComboBox *m_sweepCompare = nullptr; // "none", then sweepCompareParams()
    QLabel *m_sweepMetricLabel = nullptr;
    QComboBox *m_sweepMetric = nullptr;  // what a 2-D sweep draws
    QCheckBox *m_sweepBands = nullptr;   // min-max bands around a 2-D sweep's lines
    QBarCategoryAxis *m_sweepXCategories = nullptr; // x axis of a categorical first parameter
    QList<QLineSeries *> m_sweepLines;   // 2-D: one per value of the second parameter
    QList<QAreaSeries *> m_sweepLineBands;
    QSpinBox *m_sweepSteps = nullptr;
    QSpinBox *m_sweepSeeds = nullptr;
    QPushButton *m_sweepRun = nullptr;
    QPushButton *m_sweepCancel = nullptr;
    QProgressBar *m_sweepProgress = nullptr;
    QWidget *m_sweepProgressBox = nullptr; // the bar and Cancel, side by side: shown while a sweep runs
    QLabel *m_sweepStatus = nullptr;
    QLineSeries *m_sweepDupMean = nullptr;
    QLineSeries *m_sweepDupMin = nullptr;
    QLineSeries *m_sweepDupMax = nullptr;
    QAreaSeries *m_sweepDupBand = nullptr;
    QLineSeries *m_sweepAmpMean = nullptr;
    QLineSeries *m_sweepAmpMin = nullptr;
    QLineSeries *m_sweepAmpMax = nullptr;
    QAreaSeries *m_sweepAmpBand = nullptr;
    QValueAxis *m_sweepX = nullptr;
    QValueAxis *m_sweepY = nullptr;
    QValueAxis *m_sweepY2 = nullptr;
    QFutureWatcher<SweepAccumulator> m_sweepWatcher; // folds the runs as they finish
    // The pilot's estimate (sweep::cost: up to 8 runs of 1,000 operations), on a worker thread.
    QFutureWatcher<SweepCost> m_sweepCostWatcher;
    bool m_sweepEstimating = false;
    bool m_sweepCancelledEarly = false; // cancelled while the pilot ran: its runs never start
    SweepSpec m_sweepSpec;
    QList<SweepJob> m_sweepJobs;
    QList<double> m_sweepWorkBefore; // expected requests of the first i jobs (sweep::cost), for the ETA
    QElapsedTimer m_sweepClock;
    QList<SweepPoint> m_sweepPoints;
    bool m_sweepRunning = false;
    bool m_sweepStale = false;
    Scenario m_sweepScenario; // what the sweep shown was run on
    QString m_sweepDoneText;

    // attempts histogram
    QBarSeries *m_attemptBars = nullptr;
    QBarSet *m_attemptSet = nullptr;
    QBarCategoryAxis *m_attemptX = nullptr;
    QValueAxis *m_attemptY = nullptr;
    QList<QPair<int, int>> m_histogram;
    QList<QList<int>> m_attemptOps;
    QStringList m_attemptToolTips;

    LoadChart *m_load = nullptr;
};

} // namespace retrylab
