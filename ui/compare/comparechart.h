#pragma once

#include "compare.h"

#include <QWidget>

class QChart;
class QLabel;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace retrylab {

// Compare mode's chart: records and duplicates over simulated time of run A and run B, four
// lines on one pair of axes (A blue, B orange; duplicates dashed) with a legend.
class CompareChart : public QWidget
{
    Q_OBJECT
public:
    explicit CompareChart(QWidget *parent = nullptr);

    void setCurves(const compare::Curves &a, const compare::Curves &b, const QString &nameA, const QString &nameB);
    void clear();
    QChart *chart() const { return m_chart; }
    QChartView *view() const { return m_view; }
    // Every series of the chart in legend order: A records, B records, A duplicates, B duplicates.
    QList<QLineSeries *> series() const;
    QValueAxis *timeAxis() const { return m_x; }
    QValueAxis *countAxis() const { return m_y; }
    // The key under the chart, in the order of series(): wrapped, never cut.
    const QList<QLabel *> &keyLabels() const { return m_key; }
    // Widths of A's lines and of B's, drawn over A's.
    static constexpr qreal WideLine = 6;
    static constexpr qreal NarrowLine = 2.5;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyFonts();
    void updateKey();

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QLineSeries *m_recordsA = nullptr;
    QLineSeries *m_recordsB = nullptr;
    QLineSeries *m_duplicatesA = nullptr;
    QLineSeries *m_duplicatesB = nullptr;
    QList<QLabel *> m_keySamples;
    QList<QLabel *> m_key;
};

} // namespace retrylab
