#pragma once

#include "document/resultsource.h"
#include "series.h"
#include "simulator.h"

#include <QChartView>
#include <QFutureWatcher>
#include <QList>
#include <QPointF>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace retrylab {

// "Load over time": requests per second offered to the server (first tries and retries stacked),
// served by it and completed for the clients (goodput), per bucket of the run's trace, with the
// timeline's playhead. The bucket is chosen from the run's length (series::autoBucket, 80 to 200
// buckets); a big trace is counted off the GUI thread.
class LoadChart : public QChartView
{
    Q_OBJECT
public:
    // Traces longer than this are counted in the background: fromTrace counts about 25 million
    // events per second, so the GUI thread spends at most about 4 ms on a smaller one.
    static constexpr int backgroundEvents = 100000;
    // The most buckets the chart draws.
    static constexpr int targetBuckets = 200;

    explicit LoadChart(QWidget *parent = nullptr);
    ~LoadChart() override;

    void setResult(const RunResult &result);
    // Microseconds of the run's clock, as TimelineWidget::playheadMoved gives them.
    void setPlayhead(qint64 t);
    // Where the result comes from: in the Watch view the clock is real time since the server started.
    void setSource(ResultSource source);
    // Colours and the legend, after the panel set the theme and fonts (a theme resets colours).
    void applyStyle(bool compact);

    // What is drawn: the series counted (empty buckets until the first result is counted).
    const Series &series() const { return m_series; }
    bool isPending() const { return m_pending; }
    qint64 playhead() const { return m_playheadUs; }
    // The playhead line's two points (x in seconds); empty while there is nothing to draw.
    QList<QPointF> playheadLine() const;
    // The names in the legend, in its order.
    QStringList legendNames() const;
    // "requests per second, counted in 0.5 s buckets"
    QString subtitle() const { return m_subtitle; }
    // Points drawn per line: rates in requests per second, two points (start, end) per bucket.
    QList<QPointF> offeredPoints() const;
    QList<QPointF> servedPoints() const;
    QList<QPointF> goodputPoints() const;
    QList<QPointF> firstTryPoints() const;

Q_SIGNALS:
    // The series of the last result is counted and drawn.
    void seriesReady();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // Whole names in the legend when they fit the width, else one word each ("offered").
    void updateLegendNames();
    void show(const Series &series);
    void updateTitle();
    void updatePlayhead();
    void seriesCounted(quint64 generation, QFutureWatcher<Series> *watcher);

    Series m_series;
    bool m_pending = false;
    bool m_hasData = false;
    quint64 m_generation = 0;
    qint64 m_playheadUs = 0;
    double m_yMax = 1;
    QString m_subtitle;
    QString m_titleText;

    QLineSeries *m_firstUpper = nullptr; // the first tries' area: 0 .. first tries
    QLineSeries *m_retryLower = nullptr; // the retries' area: first tries .. attempts
    QLineSeries *m_retryUpper = nullptr;
    QAreaSeries *m_firstArea = nullptr;
    QAreaSeries *m_retryArea = nullptr;
    QLineSeries *m_offered = nullptr;
    QLineSeries *m_served = nullptr;
    QLineSeries *m_goodput = nullptr;
    QLineSeries *m_playhead = nullptr;
    QValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
};

} // namespace retrylab
