#include "compare/comparechart.h"

#include <QEvent>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {
// Colour-blind safe pair (Okabe-Ito blue and orange), the same for A and B everywhere in the window.
const QColor ColorA(0, 114, 178);
const QColor ColorB(213, 94, 0);

QLineSeries *makeSeries(const QColor &color, Qt::PenStyle style, QObject *parent)
{
    auto *s = new QLineSeries(parent);
    QPen pen(color);
    pen.setWidthF(style == Qt::SolidLine ? 3 : 2.5);
    pen.setStyle(style);
    s->setPen(pen);
    return s;
}

// A tick step of 1, 2 or 5 x 10^n giving about four intervals up to v (at least 1).
double niceStep(double v)
{
    const double raw = std::max(1.0, v / 4);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * p >= raw)
            return m * p;
    }
    return 10 * p;
}
} // namespace

CompareChart::CompareChart(QWidget *parent)
    : QWidget(parent)
{
    m_chart = new QChart;
    m_chart->setTitle(tr("Records and duplicates over time"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_recordsA = makeSeries(ColorA, Qt::SolidLine, m_chart);
    m_recordsB = makeSeries(ColorB, Qt::SolidLine, m_chart);
    m_duplicatesA = makeSeries(ColorA, Qt::DashLine, m_chart);
    m_duplicatesB = makeSeries(ColorB, Qt::DashLine, m_chart);
    m_x = new QValueAxis(m_chart);
    m_x->setTitleText(tr("simulated time (s)"));
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y = new QValueAxis(m_chart);
    m_y->setTitleText(tr("records"));
    m_y->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (QLineSeries *s : series()) {
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("compareChart"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(200, 160);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    applyFonts();
    clear();
}

QList<QLineSeries *> CompareChart::series() const
{
    return {m_recordsA, m_recordsB, m_duplicatesA, m_duplicatesB};
}

void CompareChart::clear()
{
    for (QLineSeries *s : series())
        s->clear();
    m_x->setRange(0, 1);
    m_y->setRange(0, 5);
}

void CompareChart::setCurves(const compare::Curves &a, const compare::Curves &b, const QString &nameA,
                             const QString &nameB)
{
    m_recordsA->setName(tr("%1: records").arg(nameA));
    m_recordsB->setName(tr("%1: records").arg(nameB));
    m_duplicatesA->setName(tr("%1: duplicates").arg(nameA));
    m_duplicatesB->setName(tr("%1: duplicates").arg(nameB));
    m_recordsA->replace(a.records);
    m_recordsB->replace(b.records);
    m_duplicatesA->replace(a.duplicates);
    m_duplicatesB->replace(b.duplicates);
    const double end = std::max(a.end, b.end);
    m_x->setRange(0, end);
    m_x->applyNiceNumbers();
    const double top = std::max(a.records.isEmpty() ? 0 : a.records.constLast().y(),
                                b.records.isEmpty() ? 0 : b.records.constLast().y());
    // Whole numbers only, on ticks of 1, 2 or 5 x 10^n, the top tick just above the highest line.
    const double step = niceStep(std::max(top, 4.0));
    const double ceiling = std::max(step, std::ceil(top * 1.02 / step) * step);
    m_y->setRange(0, ceiling);
    m_y->setTickCount(int(std::lround(ceiling / step)) + 1);
}

void CompareChart::applyFonts()
{
    QFont title = font();
    title.setPointSizeF(font().pointSizeF() * 1.2);
    title.setBold(true);
    m_chart->setTitleFont(title);
    QFont legend = font();
    legend.setPointSizeF(font().pointSizeF() * 1.1);
    m_chart->legend()->setFont(legend);
    m_x->setLabelsFont(font());
    m_y->setLabelsFont(font());
    m_x->setTitleFont(font());
    m_y->setTitleFont(font());
    const QPalette p = palette();
    m_chart->setBackgroundBrush(p.color(QPalette::Base));
    m_chart->setTitleBrush(p.color(QPalette::Text));
    m_chart->legend()->setLabelColor(p.color(QPalette::Text));
    for (QValueAxis *axis : {m_x, m_y}) {
        axis->setLabelsColor(p.color(QPalette::Text));
        axis->setTitleBrush(p.color(QPalette::Text));
    }
}

void CompareChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        applyFonts();
}

} // namespace retrylab
