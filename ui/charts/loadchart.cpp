#include "charts/loadchart.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QFontMetrics>
#include <QResizeEvent>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {

// Okabe-Ito, as on the other charts: attempts are the blue one everywhere.
const QColor okabeSkyBlue(0x56, 0xB4, 0xE9);
const QColor okabeBlue(0x00, 0x72, 0xB2);
const QColor okabeGreen(0x00, 0x9E, 0x73);
const QColor okabeReddishPurple(0xCC, 0x79, 0xA7);

QColor withAlpha(QColor c, float alpha)
{
    c.setAlphaF(alpha);
    return c;
}

// The smallest 1/2/5 x 10^n at or above x.
double niceStep(double x)
{
    if (x <= 0)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(x)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= x - 1e-9)
            return m * magnitude;
    }
    return 10 * magnitude;
}

// 0 .. a round number at or above max, with 4 to 7 ticks.
void setNiceRange(QValueAxis *axis, double max)
{
    const double step = niceStep(std::max(max, 1e-9) / 5.0);
    const double top = std::max(step, std::ceil(max / step - 1e-9) * step);
    axis->setRange(0, top);
    axis->setTickCount(int(std::lround(top / step)) + 1);
    const int decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

// Two points per bucket, so each bucket's rate is a flat step over its own time.
QList<QPointF> steps(const Series &s, qint64 SeriesBucket::*count, qint64 SeriesBucket::*minus = nullptr)
{
    QList<QPointF> points;
    points.reserve(2 * s.buckets.size());
    const double width = double(s.bucketUs) / 1e6;
    for (const SeriesBucket &b : s.buckets) {
        const double start = double(b.startUs) / 1e6;
        const double rate = double(b.*count - (minus ? b.*minus : 0)) / width;
        points.append({start, rate});
        points.append({start + width, rate});
    }
    return points;
}

} // namespace

LoadChart::LoadChart(QWidget *parent)
    : QChartView(parent)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);

    // The stack: first tries from 0, retries on top of them; its top edge is the offered line.
    m_firstUpper = new QLineSeries(this);
    m_firstArea = new QAreaSeries(m_firstUpper);
    m_firstArea->setName(tr("first tries"));
    m_retryLower = new QLineSeries(this);
    m_retryUpper = new QLineSeries(this);
    m_retryArea = new QAreaSeries(m_retryUpper, m_retryLower);
    m_retryArea->setName(tr("retries"));
    m_offered = new QLineSeries;
    m_served = new QLineSeries;
    m_goodput = new QLineSeries;
    m_playhead = new QLineSeries;
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_firstArea), static_cast<QAbstractSeries *>(m_retryArea),
                               static_cast<QAbstractSeries *>(m_offered), static_cast<QAbstractSeries *>(m_served),
                               static_cast<QAbstractSeries *>(m_goodput), static_cast<QAbstractSeries *>(m_playhead)})
        chart->addSeries(s);

    m_x = new QValueAxis;
    m_y = new QValueAxis;
    m_y->setTitleText(tr("requests per second"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    const QList<QAbstractSeries *> all = chart->series();
    for (QAbstractSeries *s : all) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    setNiceRange(m_x, 1);
    setNiceRange(m_y, 1);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 200);
    setSource(ResultSource::Simulation);
    m_subtitle = tr("requests per second; run a scenario to count them");
    updateTitle();
    applyStyle(false);
}

LoadChart::~LoadChart()
{
    // A counting in flight holds its own copy of the trace; nothing waits for it.
    ++m_generation;
}

void LoadChart::setSource(ResultSource source)
{
    m_x->setTitleText(source == ResultSource::Watch   ? tr("time since the server started (s)")
                      : source == ResultSource::Proxy ? tr("time since the proxy started (s)")
                      : source == ResultSource::Check ? tr("time since the check began (s)")
                                                      : tr("simulated time (s)"));
}

void LoadChart::applyStyle(bool compact)
{
    QChart *c = chart();
    const QPalette p = palette();
    const bool dark = p.color(QPalette::Window).lightness() < 128;
    const QColor text = p.color(QPalette::Text);
    const QColor offered = dark ? okabeSkyBlue : okabeBlue;

    m_firstArea->setBrush(withAlpha(dark ? okabeBlue : okabeSkyBlue, dark ? 0.55f : 0.35f));
    m_firstArea->setPen(Qt::NoPen);
    m_firstArea->setColor(withAlpha(dark ? okabeBlue : okabeSkyBlue, dark ? 0.55f : 0.35f));
    m_retryArea->setBrush(withAlpha(okabeReddishPurple, dark ? 0.6f : 0.45f));
    m_retryArea->setPen(Qt::NoPen);
    m_retryArea->setColor(withAlpha(okabeReddishPurple, dark ? 0.6f : 0.45f));
    m_offered->setPen(QPen(offered, compact ? 2 : 2.5));
    m_served->setPen(QPen(text, 2, Qt::DashLine));
    m_goodput->setPen(QPen(okabeGreen, compact ? 2.5 : 3.5));
    QPen playhead(withAlpha(text, 0.85f), 2);
    m_playhead->setPen(playhead);

    c->legend()->setVisible(true);
    for (QLegendMarker *marker : c->legend()->markers(m_playhead))
        marker->setVisible(false);
    updateLegendNames();
    updateTitle();
}

void LoadChart::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    updateLegendNames();
}

void LoadChart::updateLegendNames()
{
    const QStringList full{tr("offered: attempts sent"), tr("served: responses, 503s too"), tr("goodput: orders succeeded")};
    const QStringList brief{tr("offered"), tr("served"), tr("goodput")};
    // Qt Charts cuts a legend that does not fit to "goo...": measure it first.
    const QFontMetrics fm(chart()->legend()->font());
    int needed = 40; // the chart's margins
    for (const QString &name : full + QStringList{m_firstArea->name(), m_retryArea->name()})
        needed += fm.horizontalAdvance(name) + fm.height() + 16; // marker, gaps
    const QStringList &names = needed <= width() ? full : brief;
    QLineSeries *const lines[] = {m_offered, m_served, m_goodput};
    for (int i = 0; i < 3; ++i) {
        if (lines[i]->name() != names.at(i))
            lines[i]->setName(names.at(i));
    }
}

void LoadChart::updateTitle()
{
    // The bucket in a smaller, plain line under the title: the rates depend on it.
    const QFont legendFont = chart()->legend()->font();
    const qreal points = legendFont.pointSizeF() > 0 ? legendFont.pointSizeF() : 11;
    m_titleText = tr("Load over time");
    chart()->setTitle(QStringLiteral("%1<br><span style=\"font-size:%2pt; font-weight:normal\">%3</span>")
                          .arg(m_titleText.toHtmlEscaped())
                          .arg(points, 0, 'f', 1)
                          .arg(m_subtitle.toHtmlEscaped()));
}

void LoadChart::setResult(const RunResult &result)
{
    const quint64 generation = ++m_generation;
    const Trace trace = result.trace; // shared, not copied
    if (trace.isEmpty()) {
        m_pending = false;
        m_hasData = false;
        m_series = Series();
        m_subtitle = tr("run with tracing to see the load over time");
        show(m_series);
        return;
    }
    const qint64 bucketUs = series::autoBucket(trace.constLast().t, targetBuckets);
    if (trace.size() <= backgroundEvents) {
        m_pending = false;
        show(series::fromTrace(trace, bucketUs));
        return;
    }
    m_pending = true;
    auto *watcher = new QFutureWatcher<Series>(this);
    connect(watcher, &QFutureWatcher<Series>::finished, this,
            [this, generation, watcher] { seriesCounted(generation, watcher); });
    watcher->setFuture(QtConcurrent::run([trace, bucketUs] { return series::fromTrace(trace, bucketUs); }));
}

void LoadChart::seriesCounted(quint64 generation, QFutureWatcher<Series> *watcher)
{
    watcher->deleteLater();
    if (generation != m_generation || watcher->future().resultCount() == 0)
        return; // a newer result came meanwhile
    m_pending = false;
    show(watcher->result());
}

void LoadChart::show(const Series &s)
{
    m_series = s;
    m_hasData = !s.buckets.isEmpty();
    const QList<QPointF> first = steps(s, &SeriesBucket::firstTries);
    const QList<QPointF> offered = steps(s, &SeriesBucket::attempts);
    m_firstUpper->replace(first);
    m_retryLower->replace(first);
    m_retryUpper->replace(offered);
    m_offered->replace(offered);
    m_served->replace(steps(s, &SeriesBucket::served));
    m_goodput->replace(steps(s, &SeriesBucket::successes));

    double top = 0;
    const double width = double(s.bucketUs) / 1e6;
    for (const SeriesBucket &b : s.buckets)
        top = std::max({top, double(b.attempts) / width, double(b.served) / width, double(b.successes) / width});
    m_yMax = top > 0 ? top * 1.05 : 1;
    setNiceRange(m_y, m_yMax);
    m_yMax = m_y->max();
    // Up to the last bucket's end, not a round number past it (no empty strip at the right), with
    // ticks on round numbers from 0.
    const double end = s.buckets.isEmpty() ? 1 : double(s.buckets.size()) * width;
    const double step = niceStep(end / 8.0);
    m_x->setRange(0, end);
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(step);
    const int decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    m_x->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
    if (m_hasData)
        m_subtitle = tr("requests per second, counted in %1 buckets").arg(series::formatBucket(s.bucketUs));
    updateTitle();
    updatePlayhead();
    Q_EMIT seriesReady();
}

void LoadChart::setPlayhead(qint64 t)
{
    m_playheadUs = t;
    updatePlayhead();
}

void LoadChart::updatePlayhead()
{
    if (!m_hasData) {
        m_playhead->clear();
        return;
    }
    const double x = std::clamp(double(m_playheadUs) / 1e6, m_x->min(), m_x->max());
    m_playhead->replace(QList<QPointF>{{x, 0}, {x, m_yMax}});
}

QList<QPointF> LoadChart::playheadLine() const
{
    return m_playhead->points();
}

QStringList LoadChart::legendNames() const
{
    QStringList names;
    const QList<QLegendMarker *> markers = chart()->legend()->markers();
    for (QLegendMarker *marker : markers) {
        if (marker->isVisible())
            names << marker->label();
    }
    return names;
}

QList<QPointF> LoadChart::offeredPoints() const
{
    return m_offered->points();
}

QList<QPointF> LoadChart::servedPoints() const
{
    return m_served->points();
}

QList<QPointF> LoadChart::goodputPoints() const
{
    return m_goodput->points();
}

QList<QPointF> LoadChart::firstTryPoints() const
{
    return m_firstUpper->points();
}

} // namespace retrylab
