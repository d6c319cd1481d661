#include "compare/comparechart.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
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

// A's lines are drawn wide and B's narrow on top of them: where the runs agree, A shows as a band
// around B instead of vanishing under it.
QLineSeries *makeSeries(const QColor &color, Qt::PenStyle style, qreal width, QObject *parent)
{
    auto *s = new QLineSeries(parent);
    QPen pen(color);
    pen.setWidthF(width);
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
    // The key is a grid of labels under the chart: the chart's own legend cuts its names to one row.
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_recordsA = makeSeries(ColorA, Qt::SolidLine, WideLine, m_chart);
    m_recordsB = makeSeries(ColorB, Qt::SolidLine, NarrowLine, m_chart);
    m_duplicatesA = makeSeries(ColorA, Qt::DashLine, WideLine, m_chart);
    m_duplicatesB = makeSeries(ColorB, Qt::DashLine, NarrowLine, m_chart);
    m_x = new QValueAxis(m_chart);
    m_x->setTitleText(tr("simulated time (s)"));
    // The chart's title says "over time" and each label carries its unit: under the timelines the
    // chart has a few lines, and in zh_CN the axis title's taller line left the labels none (Qt Charts
    // drew them and the title as "...").
    m_x->setTitleVisible(false);
    m_x->setLabelFormat(QStringLiteral("%g s"));
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
    // Short enough for its key to keep its lines on a 720-line screen.
    m_view->setMinimumSize(200, 120);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 1);
    auto *key = new QGridLayout;
    key->setContentsMargins(6, 0, 6, 2);
    key->setHorizontalSpacing(12);
    key->setVerticalSpacing(0);
    for (int i = 0; i < 4; ++i) {
        auto *sample = new QLabel(this);
        auto *label = new QLabel(this);
        label->setObjectName(QStringLiteral("compareKey%1").arg(i));
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        m_keySamples << sample;
        m_key << label;
        // A and B side by side, records over duplicates: as the series are paired.
        key->addWidget(sample, i / 2, (i % 2) * 2, Qt::AlignTop);
        key->addWidget(label, i / 2, (i % 2) * 2 + 1);
    }
    key->setColumnStretch(1, 1);
    key->setColumnStretch(3, 1);
    layout->addLayout(key);
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
    // Lines that coincide are drawn one on the other: the key says so.
    m_recordsA->setName(tr("%1: records").arg(nameA));
    m_recordsB->setName(a.records == b.records ? tr("%1: records, the same as %2").arg(nameB, nameA)
                                               : tr("%1: records").arg(nameB));
    m_duplicatesA->setName(tr("%1: duplicates").arg(nameA));
    m_duplicatesB->setName(a.duplicates == b.duplicates ? tr("%1: duplicates, the same as %2").arg(nameB, nameA)
                                                        : tr("%1: duplicates").arg(nameB));
    updateKey();
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

void CompareChart::updateKey()
{
    // The order of series(): A records, B records, A duplicates, B duplicates.
    const QList<QLineSeries *> all = series();
    if (m_key.size() != all.size())
        return; // still being built
    const int h = fontMetrics().height();
    for (int i = 0; i < all.size(); ++i) {
        QPixmap sample(QSize(h * 2, h) * devicePixelRatioF());
        sample.setDevicePixelRatio(devicePixelRatioF());
        sample.fill(Qt::transparent);
        QPainter p(&sample);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(all.at(i)->pen());
        p.drawLine(QPointF(1, h / 2.0), QPointF(h * 2 - 1, h / 2.0));
        p.end();
        m_keySamples.at(i)->setPixmap(sample);
        m_key.at(i)->setText(all.at(i)->name());
    }
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
    for (QLabel *label : std::as_const(m_key))
        label->setFont(legend);
    updateKey();
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
