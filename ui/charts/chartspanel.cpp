#include "charts/chartspanel.h"
#include "series.h"

#include "common/documentfollower.h"
#include "document/labdocument.h"
#include "i18n.h"
#include "charts/loadchart.h"
#include "release.h"
#include "timeline/timelinelayout.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCheckBox>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QGraphicsSimpleTextItem>
#include <QHash>
#include <QHorizontalBarSeries>
#include <QCursor>
#include <QToolTip>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLegend>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMap>
#include <QPainter>
#include <QResizeEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {

// A sweep's bar, saying as much as its width holds: "12 of 60 · about 8 s left", else the time left
// alone (the fill already shows how far), else the count.
class SweepProgressBar : public QProgressBar
{
public:
    void setTexts(const QStringList &longestFirst)
    {
        m_texts = longestFirst;
        update();
    }
    QString text() const override
    {
        const int room = contentsRect().width() - fontMetrics().height();
        for (const QString &t : m_texts) {
            if (fontMetrics().horizontalAdvance(t) <= room)
                return t;
        }
        return m_texts.isEmpty() ? QProgressBar::text() : m_texts.constLast();
    }

private:
    QStringList m_texts;
};


// Okabe-Ito: distinguishable with the common colour-vision deficiencies.
const QColor okabeOrange(0xE6, 0x9F, 0x00);
const QColor okabeSkyBlue(0x56, 0xB4, 0xE9);
const QColor okabeGreen(0x00, 0x9E, 0x73);
const QColor okabeBlue(0x00, 0x72, 0xB2);
const QColor okabeVermillion(0xD5, 0x5E, 0x00);

struct ChartColors
{
    bool dark = false;
    QColor duplicates;
    QColor attempts;
    QColor text;
    QColor mutedText;
    QColor grid;
    QColor background;
};

ChartColors colorsFor(const QPalette &palette)
{
    ChartColors c;
    c.background = palette.color(QPalette::Base);
    c.dark = palette.color(QPalette::Window).lightness() < 128;
    c.duplicates = c.dark ? okabeOrange : okabeVermillion;
    c.attempts = c.dark ? okabeSkyBlue : okabeBlue;
    c.text = palette.color(QPalette::Text);
    c.mutedText = palette.color(QPalette::PlaceholderText);
    c.grid = c.text;
    c.grid.setAlphaF(c.dark ? 0.18f : 0.12f);
    return c;
}

QColor withAlpha(QColor c, float alpha)
{
    c.setAlphaF(alpha);
    return c;
}

QFont scaledFont(const QFont &base, qreal points, bool bold = false)
{
    QFont f = base;
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
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

// Whole-number ticks only: counts are never fractional.
void setCountRange(QValueAxis *axis, double max)
{
    int top = std::max(1, int(std::ceil(max)));
    if (top <= 8) {
        axis->setRange(0, top);
        axis->setTickCount(top + 1);
    } else {
        const int step = std::max(1, int(niceStep(top / 5.0)));
        top = (top + step - 1) / step * step;
        axis->setRange(0, top);
        axis->setTickCount(top / step + 1);
    }
    // Qt Charts (VerticalAxis::updateGeometry) gives a vertical axis's title the axis's width less
    // its widest label and less the width of "...": with one-digit labels that is less than a line
    // of the title, which shrinks to "\u22ee" (the sweep chart's "duplicate records" in zh_CN). Two
    // no-break spaces before each one-digit label (labels are HTML; plain spaces would collapse)
    // give the title its line back; the labels stay right-aligned at their ticks.
    const bool oneDigit = top < 10 && axis->orientation() == Qt::Vertical;
    axis->setLabelFormat(oneDigit ? QStringLiteral("&nbsp;&nbsp;%d") : QStringLiteral("%d"));
}

void setValueRange(QValueAxis *axis, double min, double max)
{
    if (max <= min)
        max = min + 1;
    const double step = niceStep((max - min) / 6.0);
    const double lo = std::floor(min / step + 1e-9) * step;
    const double hi = std::ceil(max / step - 1e-9) * step;
    axis->setRange(lo, hi);
    axis->setTickCount(int(std::lround((hi - lo) / step)) + 1);
    const int decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

QChartView *makeView(QChart *chart)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    // The charts page is at least about 600x380: keep a plot with whole labels.
    view->setMinimumSize(360, 200);
    return view;
}

void hideLegendFor(QChart *chart, QAbstractSeries *series)
{
    const QList<QLegendMarker *> markers = chart->legend()->markers(series);
    for (QLegendMarker *marker : markers)
        marker->setVisible(false);
}

// "1 record" / "12 records": the app ships no English plural forms for %n.
QString counted(qint64 n, const QString &one, const QString &many)
{
    return (n == 1 ? one : many).arg(n);
}

// The lines of a 2-D sweep, one per value of the second parameter: Okabe-Ito, then black.
QColor compareColor(int i, bool dark)
{
    static const QColor light[] = {okabeBlue, okabeVermillion, okabeGreen, okabeOrange, okabeSkyBlue,
                                   QColor(0xCC, 0x79, 0xA7), QColor(0xF0, 0xE4, 0x42), QColor(0x33, 0x33, 0x33)};
    QColor c = light[i % int(std::size(light))];
    if (dark && c == QColor(0x33, 0x33, 0x33))
        c = QColor(0xDD, 0xDD, 0xDD);
    return c;
}

// The choices of a catalogue field: an enum's names, false/true for a boolean; empty if neither
// or not in the catalogue (a field another branch has not added yet).
QStringList fieldChoices(const QString &path)
{
    static const QList<FieldInfo> fields = scenario::fields();
    for (const FieldInfo &field : fields) {
        if (field.path != path)
            continue;
        if (field.type == QLatin1String("boolean"))
            return {QStringLiteral("false"), QStringLiteral("true")};
        return field.choices;
    }
    return {};
}

// The metrics a 2-D sweep chart can draw: (name, axis title).
QList<QPair<QString, QString>> compareMetrics()
{
    QStringList known;
    const auto flat = Metrics().flat();
    for (const auto &entry : flat)
        known << entry.first;
    QList<QPair<QString, QString>> metrics{
            {QStringLiteral("httpAttempts"), ChartsPanel::tr("HTTP attempts")},
            {QStringLiteral("completionS"), ChartsPanel::tr("completion time (s)")},
            {QStringLiteral("duplicates"), ChartsPanel::tr("duplicate records")},
            {QStringLiteral("amplification"), ChartsPanel::tr("HTTP attempts per operation")},
            {QStringLiteral("clientFailed"), ChartsPanel::tr("failed operations")},
            {QStringLiteral("durationS"), ChartsPanel::tr("run duration (s)")},
    };
    QList<QPair<QString, QString>> present;
    for (const auto &metric : metrics) {
        if (known.contains(metric.first))
            present << metric;
    }
    return present;
}

// A series attached to exactly one of the two x axes.
void attachX(QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *other)
{
    if (series->attachedAxes().contains(other))
        series->detachAxis(other);
    if (!series->attachedAxes().contains(x))
        series->attachAxis(x);
}

} // namespace

QList<ChartsPanel::SweepParam> ChartsPanel::sweepParams()
{
    QList<SweepParam> params{
        {QStringLiteral("network.responseLoss"), tr("Response loss"), 0, 0.5, 2, {}},
        {QStringLiteral("network.requestLoss"), tr("Request loss"), 0, 0.5, 2, {}},
        {QStringLiteral("network.latencySpike"), tr("Latency spike rate"), 0, 0.5, 2, {}},
        {QStringLiteral("client.business.maxAttempts"), tr("Business max attempts"), 1, 6, 0, {}},
        {QStringLiteral("client.wrapper.maxAttempts"), tr("Wrapper max attempts"), 1, 6, 0, {}},
        {QStringLiteral("client.transport.total"), tr("Transport total retries"), 0, 10, 0, {}},
        {QStringLiteral("client.timeoutMs"), tr("Client timeout (ms)"), 100, 5000, 0, {}},
        {QStringLiteral("server.capacity"), tr("Server capacity"), 1, 20, 0, {}},
        {QStringLiteral("server.error5xxAfterCommit"), tr("5xx after commit"), 0, 0.5, 2, {}},
        {QStringLiteral("workload.doubleSubmitRate"), tr("Double-submit rate"), 0, 1, 2, {}},
        {QStringLiteral("workload.clients"), tr("Clients"), 10, 190, 0, {}},
    };
    return params + sweepCompareParams();
}

QList<ChartsPanel::SweepParam> ChartsPanel::sweepCompareParams()
{
    const QList<QPair<QString, QString>> candidates{
            {QStringLiteral("client.business.backoff.jitter"), tr("Backoff jitter (business loop)")},
            {QStringLiteral("client.keyPlacement"), tr("Idempotency key placement")},
            {QStringLiteral("server.idempotency.mode"), tr("Server idempotency mode")},
            {QStringLiteral("server.model"), tr("Server model")},
            {QStringLiteral("client.business.backoff.kind"), tr("Backoff kind (business loop)")},
            {QStringLiteral("client.queryBeforeRetry"), tr("Query before retry")},
            {QStringLiteral("client.retryBudget.enabled"), tr("Retry budget on")},
            {QStringLiteral("client.circuitBreaker.enabled"), tr("Circuit breaker on")},
    };
    QList<SweepParam> params;
    for (const auto &candidate : candidates) {
        QStringList choices = fieldChoices(candidate.first);
        if (candidate.first == QLatin1String("client.business.backoff.jitter"))
            choices.removeAll(QStringLiteral("proportional")); // the AWS study's four strategies
        if (choices.isEmpty())
            continue;
        SweepParam p;
        p.path = candidate.first;
        p.label = candidate.second;
        p.choices = choices;
        params << p;
    }
    return params;
}

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
{
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(buildDuplicatesTab(), tr("Duplicates over time"));
    m_tabs->addTab(buildWhatIfTab(), tr("What if?"));
    m_tabs->addTab(buildSweepTab(), tr("Sweep"));
    m_tabs->addTab(buildAttemptsTab(), tr("Attempts per operation"));
    m_load = new LoadChart;
    m_views[LoadTab] = m_load;
    m_tabs->addTab(m_load, tr("Load over time"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(&m_whatIfWatcher, &QFutureWatcherBase::finished, this, &ChartsPanel::whatIfFinished);
    connect(&m_sweepWatcher, &QFutureWatcherBase::finished, this, &ChartsPanel::sweepDone);
    connect(&m_sweepCostWatcher, &QFutureWatcherBase::finished, this, &ChartsPanel::sweepEstimateDone);
    connect(&m_sweepWatcher, &QFutureWatcherBase::progressValueChanged, this, [this](int value) {
        m_sweepProgress->setValue(value);
        // The time left, each run weighed by its expected requests (a heavy last value is not a quick end).
        const int at = std::clamp(value, 0, int(m_sweepWorkBefore.size()) - 1);
        QString left;
        if (m_sweepRunning && at > 0 && m_sweepWorkBefore.at(at) > 0 && value < m_sweepJobs.size()) {
            const double done = m_sweepWorkBefore.at(at);
            left = sweep::durationText(m_sweepClock.elapsed() / 1000.0 * (m_sweepWorkBefore.constLast() - done) / done);
        }
        setSweepProgressTexts(value, left);
        Q_EMIT sweepProgress(value, int(m_sweepJobs.size()));
    });

    applyStyle();
    updateSweepButtons();
}

ChartsPanel::~ChartsPanel()
{
    // Background work only holds copies, but do not leave threads running past the panel.
    if (m_whatIfCancel)
        m_whatIfCancel->store(true);
    m_whatIfWatcher.cancel();
    m_sweepWatcher.cancel();
    m_sweepWatcher.waitForFinished();
    m_sweepCostWatcher.waitForFinished();
    m_whatIfWatcher.waitForFinished();
}

QWidget *ChartsPanel::buildDuplicatesTab()
{
    auto *chart = new QChart;
    // The fill and the step lines are separate series: an area's outline would also
    // draw its closing edge back down to zero at the end of the run. The fill follows
    // the outstanding duplicates (still in the table), which equal the created ones
    // unless a reconciliation job voids some.
    m_dupUpper = new QLineSeries(this);
    m_dupArea = new QAreaSeries(m_dupUpper);
    chart->addSeries(m_dupArea);
    m_dupLine = new QLineSeries;
    m_dupLine->setName(tr("duplicates created"));
    chart->addSeries(m_dupLine);
    m_dupOutstandingLine = new QLineSeries;
    m_dupOutstandingLine->setName(tr("duplicates outstanding (not voided)"));
    chart->addSeries(m_dupOutstandingLine);
    m_dupLateLine = new QLineSeries;
    m_dupLateLine->setObjectName(QStringLiteral("lateCommitsLine"));
    m_dupLateLine->setName(tr("late commits (after the client gave up)"));
    chart->addSeries(m_dupLateLine);
    m_dupX = new QValueAxis;
    setSource(ResultSource::Simulation);
    m_dupY = new QValueAxis;
    m_dupY->setTitleText(tr("duplicate records"));
    chart->addAxis(m_dupX, Qt::AlignBottom);
    chart->addAxis(m_dupY, Qt::AlignLeft);
    for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(m_dupArea), static_cast<QAbstractSeries *>(m_dupLine),
                                    static_cast<QAbstractSeries *>(m_dupOutstandingLine),
                                    static_cast<QAbstractSeries *>(m_dupLateLine)}) {
        series->attachAxis(m_dupX);
        series->attachAxis(m_dupY);
    }
    hideLegendFor(chart, m_dupArea);
    m_dupOutstandingLine->setVisible(false);
    m_dupLateLine->setVisible(false);
    setCountRange(m_dupY, 1);
    setValueRange(m_dupX, 0, 1);
    chart->setTitle(tr("Duplicate records over time"));
    m_views[DuplicatesTab] = makeView(chart);
    return m_views[DuplicatesTab];
}

QWidget *ChartsPanel::buildWhatIfTab()
{
    auto *chart = new QChart;
    // One row per variant, its name on the left where a whole phrase fits ("key per op,
    // server ignores keys (mode off)"), first variant on top; the bar is its duplicates.
    m_whatIfDupSet = new QBarSet(tr("duplicate records"));
    auto *bars = new QHorizontalBarSeries;
    bars->append(m_whatIfDupSet);
    bars->setBarWidth(0.7);
    m_whatIfBars = bars;
    chart->addSeries(bars);
    m_whatIfCategories = new QBarCategoryAxis;
    m_whatIfValues = new QValueAxis;
    m_whatIfValues->setTitleText(tr("duplicate records (same seed, same orders)"));
    chart->addAxis(m_whatIfCategories, Qt::AlignLeft);
    chart->addAxis(m_whatIfValues, Qt::AlignBottom);
    bars->attachAxis(m_whatIfCategories);
    bars->attachAxis(m_whatIfValues);
    // Qt draws no value label on a bar of zero, and zero is the answer that matters:
    // the counts are drawn by the panel, next to each bar.
    bars->setLabelsVisible(false);
    connect(chart, &QChart::plotAreaChanged, this, &ChartsPanel::placeWhatIfCounts);
    m_whatIfCategories->setGridLineVisible(false);
    setCountRange(m_whatIfValues, 1);
    chart->setTitle(tr("What if? One change at a time, same seed"));
    m_views[WhatIfTab] = makeView(chart);
    connect(bars, &QAbstractBarSeries::hovered, this, [this](bool status, int index) {
        if (status && index >= 0 && index < m_whatIfToolTips.size())
            QToolTip::showText(QCursor::pos(), m_whatIfToolTips.at(index), m_views[WhatIfTab]);
        else
            QToolTip::hideText();
    });
    return m_views[WhatIfTab];
}

QWidget *ChartsPanel::buildSweepTab()
{
    auto *page = new QWidget;
    auto *paramRow = new QHBoxLayout;
    auto *compareRow = new QHBoxLayout;
    auto *countRow = new QHBoxLayout;
    m_sweepParam = new QComboBox;
    const QList<SweepParam> params = sweepParams();
    for (const SweepParam &p : params)
        m_sweepParam->addItem(p.label, p.path);
    m_sweepParam->setToolTip(tr("Scenario parameter to vary"));
    m_sweepFrom = new QDoubleSpinBox;
    m_sweepTo = new QDoubleSpinBox;
    for (QDoubleSpinBox *box : {m_sweepFrom, m_sweepTo}) {
        box->setRange(0, 1e6);
        box->setAccelerated(true);
    }
    m_sweepValues = new QLineEdit;
    m_sweepValues->setObjectName(QStringLiteral("sweepValues"));
    m_sweepValues->setToolTip(tr("The values to run, separated by commas"));
    m_sweepSteps = new QSpinBox;
    m_sweepSteps->setRange(2, 100);
    m_sweepSteps->setValue(6);
    m_sweepSeeds = new QSpinBox;
    m_sweepSeeds->setObjectName(QStringLiteral("sweepSeeds"));
    m_sweepSeeds->setRange(1, 1000);
    m_sweepSeeds->setValue(10);
    m_sweepSeeds->setToolTip(tr("Runs per point, seeds base seed + i: the band shows their min and max"));
    m_sweepCompare = new QComboBox;
    m_sweepCompare->setObjectName(QStringLiteral("sweepCompare"));
    m_sweepCompare->addItem(tr("none"), QString());
    const QList<SweepParam> compare = sweepCompareParams();
    for (const SweepParam &p : compare)
        m_sweepCompare->addItem(p.label, p.path);
    m_sweepCompare->setToolTip(tr("A second parameter: the chart draws one line per value"));
    m_sweepMetric = new QComboBox;
    m_sweepMetric->setObjectName(QStringLiteral("sweepMetric"));
    const QList<QPair<QString, QString>> metrics = compareMetrics();
    for (const auto &metric : metrics)
        m_sweepMetric->addItem(metric.second.left(1).toUpper() + metric.second.mid(1), metric.first);
    m_sweepMetric->setToolTip(tr("What the lines show, mean over the seeds"));
    // Long names must not widen the page past 500 px (beside both docks on a 1024 px screen): the
    // combos show as much as fits.
    // Wider pages show the whole names: each combo grows up to its longest item.
    for (QComboBox *combo : {m_sweepParam, m_sweepCompare, m_sweepMetric}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        combo->setMaximumWidth(combo->sizeHint().width());
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(combo == m_sweepParam ? 13 : 6);
    }
    m_sweepValues->setMinimumWidth(120);
    m_sweepBands = new QCheckBox(tr("min–max bands"));
    m_sweepBands->setToolTip(tr("Shade the range from the smallest to the largest result over the seeds"));
    m_sweepRun = new QPushButton(tr("Run sweep"));
    m_sweepCancel = new QPushButton(tr("Cancel"));
    m_sweepCancel->setObjectName(QStringLiteral("sweepCancel"));
    m_sweepProgress = new SweepProgressBar;
    m_sweepProgress->setObjectName(QStringLiteral("sweepProgress"));
    m_sweepProgress->setRange(0, 1);
    m_sweepProgress->setValue(0);
    // As wide as its longest words ("120 of 600 · 59 min left"), not the page: a calm bar in Run's
    // place, its Cancel right after it. Hidden while no sweep runs (an idle "0%" says nothing).
    const QFontMetrics barFont(m_sweepProgress->font());
    m_sweepProgress->setMinimumWidth(80);
    m_sweepProgress->setMaximumWidth(
            barFont.horizontalAdvance(sweepProgressText(888, 888, sweep::durationText(59 * 60))) + 4 * barFont.height());
    m_sweepProgress->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_sweepProgressBox = new QWidget;
    auto *progressRow = new QHBoxLayout(m_sweepProgressBox);
    progressRow->setContentsMargins(0, 0, 0, 0);
    progressRow->addWidget(m_sweepProgress, 1);
    progressRow->addWidget(m_sweepCancel);
    progressRow->addStretch(0); // the room the bar does not take stays empty, Cancel keeps its size
    m_sweepProgressBox->hide();
    // Three short rows rather than one long one: the page must work 500 px wide and 380 px high.
    paramRow->addWidget(new QLabel(tr("Parameter")));
    paramRow->addWidget(m_sweepParam, 10);
    m_sweepFromLabel = new QLabel(tr("from"));
    paramRow->addWidget(m_sweepFromLabel);
    paramRow->addWidget(m_sweepFrom);
    m_sweepToLabel = new QLabel(tr("to"));
    paramRow->addWidget(m_sweepToLabel);
    paramRow->addWidget(m_sweepTo);
    m_sweepValuesLabel = new QLabel(tr("values"));
    paramRow->addWidget(m_sweepValuesLabel);
    paramRow->addWidget(m_sweepValues, 10);
    paramRow->addStretch(1);
    compareRow->addWidget(new QLabel(tr("Compare by")));
    compareRow->addWidget(m_sweepCompare, 10);
    m_sweepMetricLabel = new QLabel(tr("show"));
    compareRow->addWidget(m_sweepMetricLabel);
    compareRow->addWidget(m_sweepMetric, 10);
    compareRow->addWidget(m_sweepBands);
    compareRow->addStretch(1);
    countRow->addWidget(new QLabel(tr("steps")));
    countRow->addWidget(m_sweepSteps);
    countRow->addWidget(new QLabel(tr("seeds")));
    countRow->addWidget(m_sweepSeeds);
    countRow->addWidget(m_sweepRun);
    countRow->addWidget(m_sweepProgressBox, 1);
    countRow->addStretch(0); // while no sweep runs, the controls keep their sizes
    m_sweepStatus = new QLabel;
    m_sweepStatus->setWordWrap(true);
    m_sweepStatus->setObjectName(QStringLiteral("sweepStatus"));

    auto *chart = new QChart;
    const auto band = [this, chart](QLineSeries **minSeries, QLineSeries **maxSeries) {
        *minSeries = new QLineSeries(this);
        *maxSeries = new QLineSeries(this);
        auto *area = new QAreaSeries(*maxSeries, *minSeries);
        chart->addSeries(area);
        return area;
    };
    m_sweepDupBand = band(&m_sweepDupMin, &m_sweepDupMax);
    m_sweepDupBand->setName(tr("duplicates min–max"));
    m_sweepAmpBand = band(&m_sweepAmpMin, &m_sweepAmpMax);
    m_sweepAmpBand->setName(tr("attempts min–max"));
    m_sweepDupMean = new QLineSeries;
    m_sweepDupMean->setName(tr("duplicate records (mean)"));
    m_sweepAmpMean = new QLineSeries;
    m_sweepAmpMean->setName(tr("HTTP attempts per operation (mean)"));
    for (QLineSeries *mean : {m_sweepDupMean, m_sweepAmpMean}) {
        mean->setPointsVisible(true);
        chart->addSeries(mean);
    }
    m_sweepX = new QValueAxis;
    m_sweepXCategories = new QBarCategoryAxis;
    m_sweepXCategories->setVisible(false);
    m_sweepY = new QValueAxis;
    m_sweepY->setTitleText(tr("duplicate records"));
    m_sweepY2 = new QValueAxis;
    m_sweepY2->setTitleText(tr("attempts per operation"));
    m_sweepY2->setGridLineVisible(false);
    chart->addAxis(m_sweepX, Qt::AlignBottom);
    chart->addAxis(m_sweepXCategories, Qt::AlignBottom);
    chart->addAxis(m_sweepY, Qt::AlignLeft);
    chart->addAxis(m_sweepY2, Qt::AlignRight);
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_sweepDupBand), static_cast<QAbstractSeries *>(m_sweepDupMean)}) {
        s->attachAxis(m_sweepX);
        s->attachAxis(m_sweepY);
    }
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_sweepAmpBand), static_cast<QAbstractSeries *>(m_sweepAmpMean)}) {
        s->attachAxis(m_sweepX);
        s->attachAxis(m_sweepY2);
    }
    hideLegendFor(chart, m_sweepDupBand);
    hideLegendFor(chart, m_sweepAmpBand);
    setCountRange(m_sweepY, 1);
    setValueRange(m_sweepY2, 0, 1);
    setValueRange(m_sweepX, 0, 1);
    // No sweep yet: the title says what to do, and no axis or legend pretends to a range of 0 to 1.
    for (QAbstractAxis *axis : chart->axes())
        axis->setVisible(false);
    chart->setTitle(tr("Sweep: choose a parameter and press Run"));
    m_views[SweepTab] = makeView(chart);
    connect(chart, &QChart::plotAreaChanged, this, &ChartsPanel::fitSweepCategoryLabels);

    auto *layout = new QVBoxLayout(page);
    layout->setSpacing(4);
    layout->addLayout(paramRow);
    layout->addLayout(compareRow);
    layout->addLayout(countRow);
    layout->addWidget(m_sweepStatus);
    layout->addWidget(m_views[SweepTab], 1);

    connect(m_sweepParam, qOverload<int>(&QComboBox::currentIndexChanged), this, &ChartsPanel::sweepParamChanged);
    connect(m_sweepCompare, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        const bool comparing = m_sweepCompare->currentIndex() > 0;
        m_sweepMetricLabel->setEnabled(comparing);
        m_sweepMetric->setEnabled(comparing);
        m_sweepBands->setEnabled(comparing);
    });
    // What a finished 2-D sweep shows changes without running it again.
    connect(m_sweepMetric, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (!m_sweepRunning && m_sweepSpec.twoD() && !m_sweepPoints.isEmpty())
            showSweep();
    });
    connect(m_sweepBands, &QCheckBox::toggled, this, [this] {
        if (!m_sweepRunning && m_sweepSpec.twoD() && !m_sweepPoints.isEmpty())
            showSweep();
    });
    connect(m_sweepRun, &QPushButton::clicked, this, [this] {
        QString error;
        if (!startSweep(sweepSpecFromControls(), &error))
            m_sweepStatus->setText(error);
    });
    connect(m_sweepCancel, &QPushButton::clicked, this, &ChartsPanel::cancelSweep);
    sweepParamChanged(0);
    m_sweepMetricLabel->setEnabled(false);
    m_sweepMetric->setEnabled(false);
    m_sweepBands->setEnabled(false);
    return page;
}

QWidget *ChartsPanel::buildAttemptsTab()
{
    auto *chart = new QChart;
    m_attemptSet = new QBarSet(tr("operations"));
    m_attemptBars = new QBarSeries;
    m_attemptBars->append(m_attemptSet);
    m_attemptBars->setBarWidth(0.8);
    m_attemptBars->setLabelsVisible(true);
    m_attemptBars->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    chart->addSeries(m_attemptBars);
    m_attemptX = new QBarCategoryAxis;
    m_attemptX->setTitleText(tr("HTTP attempts (POST) per operation"));
    m_attemptY = new QValueAxis;
    m_attemptY->setTitleText(tr("operations"));
    chart->addAxis(m_attemptX, Qt::AlignBottom);
    chart->addAxis(m_attemptY, Qt::AlignLeft);
    m_attemptBars->attachAxis(m_attemptX);
    m_attemptBars->attachAxis(m_attemptY);
    setCountRange(m_attemptY, 1);
    chart->legend()->setVisible(false);
    chart->setTitle(tr("HTTP attempts per operation"));
    m_views[AttemptsTab] = makeView(chart);
    connect(m_attemptBars, &QAbstractBarSeries::clicked, this, [this](int index) {
        if (index >= 0 && index < m_attemptOps.size() && !m_attemptOps.at(index).isEmpty())
            Q_EMIT operationActivated(m_attemptOps.at(index).constFirst());
    });
    connect(m_attemptBars, &QAbstractBarSeries::hovered, this, [this](bool status, int index) {
        if (status && index >= 0 && index < m_attemptToolTips.size())
            QToolTip::showText(QCursor::pos(), m_attemptToolTips.at(index), m_views[AttemptsTab]);
        else
            QToolTip::hideText();
    });
    return m_views[AttemptsTab];
}

QChartView *ChartsPanel::chartView(int tab) const
{
    return tab >= 0 && tab < TabCount ? m_views[tab] : nullptr;
}

int ChartsPanel::tabCount() const
{
    return m_tabs->count();
}

QString ChartsPanel::tabTitle(int tab) const
{
    return m_tabs->tabText(tab);
}

int ChartsPanel::currentTab() const
{
    return m_tabs->currentIndex();
}

void ChartsPanel::setCurrentTab(int tab)
{
    m_tabs->setCurrentIndex(tab);
}

void ChartsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyStyle();
}

void ChartsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const bool compact = event->size().height() < compactHeight;
    const bool narrow = event->size().width() < narrowWidth;
    if (compact == m_compact && narrow == m_narrow)
        return;
    m_compact = compact;
    m_narrow = narrow;
    applyStyle();
    if (!m_whatIfLabels.isEmpty())
        showWhatIf();
}

void ChartsPanel::applyStyle()
{
    const ChartColors c = colorsFor(palette());
    const QFont base = font();
    // Projector sizes when there is room; a short dock still gets whole labels.
    // Never smaller than the rest of the window, which may already use a large font.
    const qreal b = base.pointSizeF() > 0 ? base.pointSizeF() : 10;
    // A narrow page gets the smaller title too: a long title would be cut to "...".
    const bool smallTitle = m_compact || m_narrow;
    const QFont titleFont = scaledFont(base, smallTitle ? std::max(11.5, b * 1.1) : std::max(15.0, b * 1.4), true);
    const QFont axisTitleFont = scaledFont(base, m_compact ? std::max(10.0, b) : std::max(12.0, b * 1.1));
    const QFont labelFont = scaledFont(base, m_compact ? std::max(10.0, b * 0.95) : std::max(11.0, b));

    for (QChartView *view : m_views) {
        QChart *chart = view->chart();
        // setTheme resets series colours and fonts: everything below must come after it.
        chart->setTheme(c.dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setBackgroundBrush(c.background);
        chart->setBackgroundPen(Qt::NoPen);
        chart->setPlotAreaBackgroundVisible(false);
        chart->setMargins(m_compact ? QMargins(4, 0, 4, 0) : QMargins(12, 8, 12, 8));
        chart->layout()->setContentsMargins(0, m_compact ? 2 : 6, 0, 0);
        chart->legend()->setContentsMargins(0, 0, 0, 0);
        chart->setTitleFont(titleFont);
        chart->setTitleBrush(c.text);
        chart->legend()->setFont(labelFont);
        chart->legend()->setLabelColor(c.text);
        const QList<QAbstractAxis *> axes = chart->axes();
        for (QAbstractAxis *axis : axes) {
            axis->setLabelsFont(labelFont);
            axis->setLabelsColor(c.text);
            axis->setTitleFont(axisTitleFont);
            axis->setTitleBrush(c.text);
            axis->setGridLineColor(c.grid);
            axis->setLinePenColor(withAlpha(c.text, 0.4f));
            axis->setMinorGridLineVisible(false);
            // The chart title names the vertical quantity; the time axis keeps its unit.
            axis->setTitleVisible(!m_compact || axis->orientation() == Qt::Horizontal);
        }
        // One series needs no legend: the axis title names it.
        chart->legend()->setVisible(view == m_views[SweepTab] && !m_sweepPoints.isEmpty());
        view->setBackgroundBrush(c.background);
    }
    m_load->applyStyle(m_compact);
    m_whatIfCategories->setGridLineVisible(false);
    m_whatIfCategories->setTitleVisible(false);
    applyWhatIfCountStyle();
    m_sweepY2->setGridLineVisible(false);
    applySweepColors();
    fitSweepCategoryLabels();

    // Duplicates are always the warm colour, attempts the blue one, on every chart.
    m_dupArea->setBrush(withAlpha(c.duplicates, 0.2f));
    m_dupArea->setPen(Qt::NoPen);
    m_dupOutstandingLine->setPen(QPen(c.duplicates, 3));
    applyDuplicatesLegend();

    // Up to eight variant names share the width: a slightly smaller font keeps them whole.
    QFont categoryFont = labelFont;
    if (m_compact)
        categoryFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    m_whatIfCategories->setLabelsFont(categoryFont);

    m_whatIfDupSet->setColor(c.duplicates);
    m_whatIfDupSet->setBorderColor(c.duplicates);
    m_whatIfDupSet->setLabelColor(c.text);
    m_whatIfDupSet->setLabelFont(labelFont);


    m_attemptSet->setColor(c.attempts);
    m_attemptSet->setBorderColor(c.attempts);
    m_attemptSet->setLabelColor(c.text);
    m_attemptSet->setLabelFont(labelFont);

    QPalette statusPalette = m_sweepStatus->palette();
    statusPalette.setColor(QPalette::WindowText, c.text);
    m_sweepStatus->setPalette(statusPalette);
}

void ChartsPanel::applySweepColors()
{
    const ChartColors c = colorsFor(palette());
    // A sweep of earlier settings stays visible for comparison, but greyed.
    const QColor dup = m_sweepStale ? c.mutedText : c.duplicates;
    const QColor att = m_sweepStale ? c.mutedText : c.attempts;
    m_sweepDupMean->setPen(QPen(dup, 3));
    m_sweepDupMean->setColor(dup);
    m_sweepAmpMean->setPen(QPen(att, 3, Qt::DashLine));
    m_sweepAmpMean->setColor(att);
    m_sweepDupBand->setBrush(withAlpha(dup, 0.15f));
    m_sweepDupBand->setPen(Qt::NoPen);
    m_sweepAmpBand->setBrush(withAlpha(att, 0.15f));
    m_sweepAmpBand->setPen(Qt::NoPen);
    // Two value axes: each takes the colour of its line, so no one has to guess.
    m_sweepY->setLabelsColor(dup);
    m_sweepY->setTitleBrush(dup);
    m_sweepY2->setLabelsColor(att);
    m_sweepY2->setTitleBrush(att);
    // A 2-D sweep: one colour per line (the legend names them), one neutral value axis.
    for (int i = 0; i < m_sweepLines.size(); ++i) {
        const QColor color = m_sweepStale ? c.mutedText : compareColor(i, c.dark);
        m_sweepLines.at(i)->setPen(QPen(color, 3, i % 2 ? Qt::DashLine : Qt::SolidLine));
        m_sweepLines.at(i)->setColor(color);
        if (i < m_sweepLineBands.size()) {
            m_sweepLineBands.at(i)->setBrush(withAlpha(color, 0.12f));
            m_sweepLineBands.at(i)->setPen(Qt::NoPen);
        }
    }
    if (!m_sweepLines.isEmpty()) {
        m_sweepY->setLabelsColor(c.text);
        m_sweepY->setTitleBrush(c.text);
    }
}

void ChartsPanel::setSweepStale(bool stale)
{
    if (stale == m_sweepStale)
        return;
    m_sweepStale = stale;
    applySweepColors();
    if (stale) {
        m_sweepStatus->setText(tr("These results are for earlier settings - Run sweep again"));
        m_sweepProgress->setValue(0); // not "100%" for settings that are gone
    } else {
        m_sweepStatus->setText(m_sweepDoneText);
        m_sweepProgress->setValue(m_sweepProgress->maximum());
    }
}

void ChartsPanel::setResult(const RunResult &result)
{
    setResult(result, prepare(result));
}

void ChartsPanel::setResult(const RunResult &result, const Prepared &prepared)
{
    releaseInBackground(std::exchange(m_result, result)); // the last copy of a big run is slow to free
    m_hasResult = true;
    updateDuplicates(prepared);
    updateAttempts(prepared);
    m_load->setResult(m_result);
    startWhatIf();
    // A sweep in flight is marked when it finishes; compared field by field, never via JSON.
    if (!m_sweepRunning && !m_sweepPoints.isEmpty())
        setSweepStale(!whatif::sameSettings(m_sweepScenario, m_result.scenario));
    updateSweepButtons();
}

QList<QPointF> ChartsPanel::drawnDuplicateSeries() const
{
    return m_dupLine->points();
}

bool ChartsPanel::isOutstandingLineShown() const
{
    return m_dupOutstandingLine->isVisible();
}

bool ChartsPanel::isLateLineShown() const
{
    return m_dupLateLine->isVisible();
}

QList<QPointF> ChartsPanel::thinnedForDrawing(const QList<QPointF> &points, double end)
{
    constexpr int kBuckets = 1000;
    if (points.size() <= 2 * kBuckets || end <= 0)
        return points;
    QList<QPointF> out;
    out.reserve(2 * kBuckets + 2);
    int bucket = -1;
    for (int i = 0; i < points.size(); ++i) {
        const int b = std::min(kBuckets - 1, int(points.at(i).x() / end * kBuckets));
        const bool lastOfBucket = i + 1 == points.size()
            || std::min(kBuckets - 1, int(points.at(i + 1).x() / end * kBuckets)) != b;
        if (b != bucket || lastOfBucket)
            out.append(points.at(i));
        bucket = b;
    }
    return out;
}

namespace {
// Records committed after their client gave up, counted up to each commit: a step line to `end`.
QList<QPointF> lateCommitSteps(const Trace &trace, double end)
{
    QList<QPointF> late{{0, 0}};
    const QList<int> events = series::lateCommitEvents(trace);
    for (int i = 0; i < events.size(); ++i) {
        const double t = double(trace.at(events.at(i)).t) / 1e6;
        late.append({t, double(i)});
        late.append({t, double(i + 1)});
    }
    late.append({end, double(events.size())});
    return late;
}
} // namespace

ChartsData prepareCharts(const RunResult &result)
{
    return ChartsPanel::prepare(result);
}

ChartsPanel::Prepared ChartsPanel::prepare(const RunResult &result)
{
    Prepared p;
    // The engine marks each duplicate record; the trace says when it was committed
    // and when a reconciliation job voided it.
    if (!result.trace.isEmpty()) {
        QSet<int> duplicateRecords;
        for (const RecordRow &r : qAsConst(result.records))
            if (r.duplicate)
                duplicateRecords.insert(r.id);
        QList<QPointF> created{{0, 0}};
        QList<QPointF> outstanding{{0, 0}};
        int count = 0;
        int live = 0;
        int voided = 0;
        double lastT = 0;
        const auto step = [](QList<QPointF> &points, double t, int from, int to) {
            points.append({t, double(from)});
            points.append({t, double(to)});
        };
        for (const TraceEvent &e : qAsConst(result.trace)) {
            const bool committed = e.kind == EventKind::Committed;
            if (!committed && e.kind != EventKind::ReconcileVoided)
                continue;
            const double t = double(e.t) / 1e6;
            if (committed)
                lastT = std::max(lastT, t);
            if (!duplicateRecords.contains(e.record))
                continue;
            if (committed) {
                step(created, t, count, count + 1);
                ++count;
                step(outstanding, t, live, live + 1);
                ++live;
            } else {
                step(outstanding, t, live, live - 1);
                --live;
                ++voided;
            }
        }
        double end = std::max({lastT, result.metrics.durationS, result.metrics.lastCommitS,
                               double(result.trace.constLast().t) / 1e6});
        if (end <= 0)
            end = 1;
        created.append({end, double(count)});
        outstanding.append({end, double(live)});
        // A chart shows a few hundred pixels: hand Qt Charts the first and last point of
        // each of about 1,000 time buckets, not tens of thousands of steps, or a large run
        // stalls the GUI thread. duplicateSeries() keeps every step.
        p.drawnCreated = thinnedForDrawing(created, end);
        p.drawnOutstanding = voided > 0 ? thinnedForDrawing(outstanding, end) : p.drawnCreated;
        p.duplicatePoints = std::move(created);
        p.outstandingPoints = std::move(outstanding);
        p.duplicates = count;
        p.outstanding = live;
        p.voided = voided;
        p.end = end;
        p.latePoints = lateCommitSteps(result.trace, end);
        p.late = int(p.latePoints.constLast().y());
        p.drawnLate = p.late > 0 ? thinnedForDrawing(p.latePoints, end) : QList<QPointF>();
    }

    QMap<int, QList<int>> opsByAttempts; // ops ascending within each count
    for (const OpSummary &op : qAsConst(result.ops)) {
        opsByAttempts[op.attempts].append(op.op);
        p.doubleSubmits = p.doubleSubmits || op.submissions > 1;
    }
    for (QList<int> &ops : opsByAttempts)
        std::sort(ops.begin(), ops.end());
    p.maxAttempts = opsByAttempts.isEmpty() ? 0 : opsByAttempts.lastKey();
    // Up to the worst case when it fits: how far the run stayed from it is the lesson.
    const int worst = result.metrics.worstCaseAttemptsPerOp;
    const int last = std::max({1, p.maxAttempts, worst <= 40 ? worst : 0});
    const int first = opsByAttempts.isEmpty() ? 1 : std::min(1, opsByAttempts.firstKey());
    for (int a = first; a <= last; ++a) {
        const QList<int> ops = opsByAttempts.value(a);
        const int n = int(ops.size());
        p.attemptCategories.append(QString::number(a));
        p.attemptValues.append(n);
        p.tallestBar = std::max(p.tallestBar, n);
        if (n > 0)
            p.histogram.append({a, n});
        p.attemptOps.append(ops);
        p.attemptToolTips.append(attemptsToolTip(a, ops));
    }
    return p;
}

void ChartsPanel::updateDuplicates(const Prepared &prepared)
{
    QChart *chart = m_views[DuplicatesTab]->chart();
    if (m_result.trace.isEmpty()) {
        m_duplicatePoints.clear();
        m_outstandingPoints.clear();
        m_dupLine->clear();
        m_dupOutstandingLine->clear();
        m_dupOutstandingLine->setVisible(false);
        m_latePoints.clear();
        m_dupLateLine->clear();
        m_dupLateLine->setVisible(false);
        m_dupUpper->clear();
        // Ghost commits may land after the last operation ended: the axis reaches the last record.
        setValueRange(m_dupX, 0, std::max({1.0, m_result.metrics.durationS, m_result.metrics.lastCommitS}));
        setCountRange(m_dupY, m_result.metrics.duplicates + 1);
        chart->setTitle(counted(m_result.metrics.duplicates,
                                tr("%1 duplicate record: run with tracing to see when it happened"),
                                tr("%1 duplicate records: run with tracing to see when it happened")));
        applyDuplicatesLegend();
        return;
    }
    const int count = prepared.duplicates;
    const int live = prepared.outstanding;
    const int voided = prepared.voided;
    m_duplicatePoints = prepared.duplicatePoints;
    m_outstandingPoints = prepared.outstandingPoints;
    m_latePoints = prepared.latePoints;
    // Qt Charts lays every curve out again at each range change: empty the curves, set the
    // ranges, then hand the points over, so that each curve is laid out once.
    m_dupLine->clear();
    m_dupOutstandingLine->clear();
    m_dupLateLine->clear();
    m_dupUpper->clear();
    setValueRange(m_dupX, 0, prepared.end);
    const int highest = std::max(count, prepared.late);
    setCountRange(m_dupY, highest < 8 ? highest + 1 : highest * 1.1);
    m_dupY->setTitleText(prepared.late > 0 ? tr("records") : tr("duplicate records"));
    m_dupLine->replace(prepared.drawnCreated);
    m_dupOutstandingLine->replace(voided > 0 ? prepared.drawnOutstanding : QList<QPointF>());
    m_dupOutstandingLine->setVisible(voided > 0);
    m_dupLateLine->replace(prepared.drawnLate);
    m_dupLateLine->setVisible(prepared.late > 0);
    m_dupUpper->replace(prepared.drawnOutstanding);
    if (count == 0)
        chart->setTitle(tr("No duplicate records: one record per business reference"));
    else if (voided > 0)
        chart->setTitle(counted(count, tr("%1 duplicate created, %2 voided, %3 outstanding"),
                                tr("%1 duplicates created, %2 voided, %3 outstanding"))
                            .arg(voided)
                            .arg(live));
    else
        chart->setTitle(counted(count, tr("%1 duplicate record among %2 committed"),
                                tr("%1 duplicate records among %2 committed"))
                            .arg(m_result.metrics.records));
    applyDuplicatesLegend();
}

void ChartsPanel::applyDuplicatesLegend()
{
    // One line needs no legend; created and outstanding do, and so do duplicates and late commits.
    const bool two = m_dupOutstandingLine->isVisible();
    m_views[DuplicatesTab]->chart()->legend()->setVisible(two || m_dupLateLine->isVisible());
    hideLegendFor(m_views[DuplicatesTab]->chart(), m_dupArea);
    const ChartColors c = colorsFor(palette());
    // With voiding, "created" becomes the thin dashed history above the outstanding fill.
    m_dupLine->setPen(two ? QPen(c.text, 2, Qt::DashLine) : QPen(c.duplicates, 3));
    // Late commits: a dotted line in the palette's link colour, apart from the duplicates' fill.
    m_dupLateLine->setPen(QPen(palette().color(QPalette::Link), 2, Qt::DotLine));
}

void ChartsPanel::updateAttempts(const Prepared &prepared)
{
    const int maxAttempts = prepared.maxAttempts;
    const int maxCount = prepared.tallestBar;
    const int worst = m_result.metrics.worstCaseAttemptsPerOp;
    m_histogram = prepared.histogram;
    m_attemptOps = prepared.attemptOps;
    m_attemptToolTips = prepared.attemptToolTips;
    m_attemptX->clear();
    m_attemptX->append(prepared.attemptCategories);
    m_attemptSet->remove(0, m_attemptSet->count());
    m_attemptSet->append(prepared.attemptValues);
    setCountRange(m_attemptY, maxCount < 8 ? maxCount + 1 : maxCount * 1.1);
    // "worst case 3", not "3 = 3"; per submission when an order was submitted twice.
    const QString formula = m_result.scenario.worstCaseFormula();
    const QString worstText = formula.contains(QLatin1String(" x ")) ? formula : QString::number(worst);
    m_views[AttemptsTab]->chart()->setTitle(
        (prepared.doubleSubmits ? tr("HTTP attempts per operation: up to %1, worst case %2 per submission")
                                : tr("HTTP attempts per operation: up to %1, worst case %2"))
            .arg(maxAttempts)
            .arg(worstText));
}

QString ChartsPanel::attemptsToolTip(int attempts, const QList<int> &ops)
{
    const QString made = attempts == 1 ? tr("1 HTTP attempt") : tr("%1 HTTP attempts").arg(attempts);
    if (ops.isEmpty())
        return tr("No operation made %1.").arg(made);
    constexpr int kListed = 12;
    QStringList names;
    for (int i = 0; i < ops.size() && i < kListed; ++i)
        names << QString::number(ops.at(i));
    QString list = names.join(QStringLiteral(", "));
    if (ops.size() > kListed)
        list = tr("%1 and %2 more").arg(list).arg(ops.size() - kListed);
    if (ops.size() == 1)
        return tr("Operation %1 made %2.").arg(list, made) + QLatin1Char('\n')
            + tr("Click to open operation %1.").arg(ops.constFirst());
    return tr("%1 operations made %2: %3.").arg(ops.size()).arg(made, list) + QLatin1Char('\n')
        + tr("Click to open the first of them, operation %1.").arg(ops.constFirst());
}

void ChartsPanel::startWhatIf()
{
    if (m_whatIfCancel)
        m_whatIfCancel->store(true); // latest request wins
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_whatIfCancel = cancel;
    m_pendingVariants = whatif::variants(m_result.scenario);
    m_whatIfPending = true;
    m_views[WhatIfTab]->chart()->setTitle(tr("What if? Computing the variants"));
    m_whatIfWatcher.cancel();
    // Launched once the views have painted: the variants of a big run take both cores.
    QTimer::singleShot(0, this, [this, cancel] {
        if (!cancel->load()) // else a newer result took over
            m_whatIfWatcher.setFuture(whatif::start(m_pendingVariants, cancel));
    });
}

void ChartsPanel::whatIfFinished()
{
    if (m_whatIfWatcher.isCanceled() || !m_whatIfCancel || m_whatIfCancel->load())
        return;
    const QList<Metrics> metrics = m_whatIfWatcher.future().results();
    if (metrics.size() != m_pendingVariants.size())
        return;
    m_whatIfLabels.clear();
    m_whatIfChanges.clear();
    m_whatIfDuplicates.clear();
    m_whatIfRecords.clear();
    m_whatIfAmplification.clear();
    for (int i = 0; i < metrics.size(); ++i) {
        m_whatIfLabels.append(m_pendingVariants.at(i).label);
        m_whatIfChanges.append(whatif::describe(m_pendingVariants.at(i).changes));
        m_whatIfDuplicates.append(metrics.at(i).duplicates);
        m_whatIfRecords.append(metrics.at(i).records);
        m_whatIfAmplification.append(metrics.at(i).amplification);
    }
    m_whatIfPending = false;
    showWhatIf();
    Q_EMIT whatIfUpdated();
}

void ChartsPanel::applyWhatIfCountStyle()
{
    const ChartColors c = colorsFor(palette());
    for (QGraphicsSimpleTextItem *item : qAsConst(m_whatIfCountItems)) {
        item->setFont(m_whatIfCategories->labelsFont());
        item->setBrush(c.text);
    }
    placeWhatIfCounts();
}

void ChartsPanel::placeWhatIfCounts()
{
    QChart *chart = m_views[WhatIfTab]->chart();
    for (int row = 0; row < m_whatIfCountItems.size() && row < m_whatIfDupSet->count(); ++row) {
        QGraphicsSimpleTextItem *item = m_whatIfCountItems.at(row);
        const QPointF end = chart->mapToPosition(QPointF(m_whatIfDupSet->at(row), row), m_whatIfBars);
        item->setPos(end.x() + 6, end.y() - item->boundingRect().height() / 2);
    }
}

void ChartsPanel::showWhatIf()
{
    // Qt draws the first category at the bottom: hand the rows over bottom-up so the
    // current settings come first, on top.
    QStringList categories;
    QList<qreal> duplicates;
    double maxValue = 0;
    m_whatIfToolTips.clear();
    for (int i = 0; i < m_whatIfLabels.size(); ++i) {
        // "key per op, server ignores keys (mode off)": the change, then what it meets.
        QStringList parts = m_whatIfLabels.at(i).toHtmlEscaped().split(QStringLiteral(", "));
        parts.first() = QStringLiteral("<b>%1</b>").arg(parts.first());
        categories.prepend(parts.join(QStringLiteral(",<br>")));
        const int dups = int(m_whatIfDuplicates.at(i));
        duplicates.prepend(dups);
        maxValue = std::max(maxValue, m_whatIfDuplicates.at(i));
        const QString stats = tr("%1, %2 records, %3 HTTP attempts per operation")
                                  .arg(counted(dups, tr("%1 duplicate"), tr("%1 duplicates")))
                                  .arg(m_whatIfRecords.at(i))
                                  .arg(m_whatIfAmplification.at(i), 0, 'f', 2);
        const QString changed = i < m_whatIfChanges.size() && !m_whatIfChanges.at(i).isEmpty()
            ? tr("Changed from the current settings:") + QLatin1Char('\n') + m_whatIfChanges.at(i)
            : tr("The current settings, unchanged.");
        m_whatIfToolTips.append(m_whatIfLabels.at(i) + QLatin1Char('\n') + stats + QStringLiteral("\n\n") + changed);
    }
    m_whatIfCategories->clear();
    m_whatIfCategories->append(categories);
    QChart *chart = m_views[WhatIfTab]->chart();
    while (m_whatIfCountItems.size() > duplicates.size())
        delete m_whatIfCountItems.takeLast();
    while (m_whatIfCountItems.size() < duplicates.size())
        m_whatIfCountItems.append(new QGraphicsSimpleTextItem(chart));
    for (int row = 0; row < duplicates.size(); ++row)
        m_whatIfCountItems.at(row)->setText(QString::number(int(duplicates.at(row))));
    applyWhatIfCountStyle();
    m_whatIfDupSet->remove(0, m_whatIfDupSet->count());
    m_whatIfDupSet->append(duplicates);
    setCountRange(m_whatIfValues, maxValue * 1.12 + 1);
    const int current = m_whatIfDuplicates.isEmpty() ? 0 : int(m_whatIfDuplicates.constFirst());
    m_views[WhatIfTab]->chart()->setTitle(
        tr("What if? One change at a time (now %1)")
            .arg(counted(current, tr("%1 duplicate"), tr("%1 duplicates"))));
}

SweepSpec ChartsPanel::sweepSpecFromControls() const
{
    SweepSpec spec;
    spec.param = m_sweepParam->currentData().toString();
    const QList<SweepParam> params = sweepParams();
    const int index = m_sweepParam->currentIndex();
    if (index >= 0 && index < params.size() && params.at(index).categorical()) {
        spec.values = m_sweepValues->text().split(QLatin1Char(','));
        for (QString &value : spec.values)
            value = value.trimmed();
    } else {
        spec.from = m_sweepFrom->value();
        spec.to = m_sweepTo->value();
        spec.steps = m_sweepSteps->value();
    }
    const int compare = m_sweepCompare->currentIndex() - 1;
    const QList<SweepParam> compareParams = sweepCompareParams();
    if (compare >= 0 && compare < compareParams.size()) {
        spec.param2 = compareParams.at(compare).path;
        spec.values2 = compareParams.at(compare).choices;
    }
    spec.seeds = m_sweepSeeds->value();
    return spec;
}

void ChartsPanel::setSweepControls(const SweepSpec &spec)
{
    const int index = m_sweepParam->findData(spec.param);
    if (index >= 0)
        m_sweepParam->setCurrentIndex(index);
    if (!spec.values.isEmpty()) {
        m_sweepValues->setText(spec.values.join(QStringLiteral(",")));
        m_sweepValues->setCursorPosition(0);
    } else {
        m_sweepFrom->setValue(spec.from);
        m_sweepTo->setValue(spec.to);
        m_sweepSteps->setValue(spec.steps);
    }
    const int compare = spec.twoD() ? m_sweepCompare->findData(spec.param2.trimmed()) : 0;
    m_sweepCompare->setCurrentIndex(std::max(0, compare));
    m_sweepSeeds->setValue(spec.seeds);
}

void ChartsPanel::sweepParamChanged(int index)
{
    const QList<SweepParam> params = sweepParams();
    if (index < 0 || index >= params.size())
        return;
    const SweepParam &p = params.at(index);
    // A numeric parameter runs a range; a categorical one its values, given by name.
    const bool categorical = p.categorical();
    for (QWidget *w : {static_cast<QWidget *>(m_sweepFromLabel), static_cast<QWidget *>(m_sweepFrom),
                       static_cast<QWidget *>(m_sweepToLabel), static_cast<QWidget *>(m_sweepTo)})
        w->setVisible(!categorical);
    m_sweepValuesLabel->setVisible(categorical);
    m_sweepValues->setVisible(categorical);
    m_sweepSteps->setEnabled(!categorical);
    if (categorical) {
        m_sweepValues->setText(p.choices.join(QStringLiteral(",")));
        m_sweepValues->setCursorPosition(0); // the first values, not the tail, in a short field
        return;
    }
    for (QDoubleSpinBox *box : {m_sweepFrom, m_sweepTo}) {
        box->setDecimals(p.decimals);
        box->setSingleStep(p.decimals > 0 ? 0.05 : 1);
        box->setMaximum(p.decimals > 0 ? 1 : 1e6);
    }
    m_sweepFrom->setValue(p.from);
    m_sweepTo->setValue(p.to);
}

QString ChartsPanel::sweepProgressText(int done, int total, const QString &left)
{
    return left.isEmpty() ? tr("%1 of %2").arg(done).arg(total) : tr("%1 of %2 · %3 left").arg(done).arg(total).arg(left);
}

void ChartsPanel::setSweepProgressTexts(int done, const QString &left)
{
    const int total = int(m_sweepJobs.size());
    QStringList texts{sweepProgressText(done, total, left)};
    if (!left.isEmpty())
        texts << tr("%1 left").arg(left);
    texts << sweepProgressText(done, total, QString());
    static_cast<SweepProgressBar *>(m_sweepProgress)->setTexts(texts);
}

void ChartsPanel::updateSweepButtons()
{
    m_sweepRun->setEnabled(!m_sweepRunning && m_hasResult);
    m_sweepCancel->setEnabled(m_sweepRunning);
    // While a sweep runs its bar and Cancel take Run's place (room for the words on a 500 px page).
    m_sweepRun->setVisible(!m_sweepRunning);
    m_sweepProgressBox->setVisible(m_sweepRunning);
    m_sweepParam->setEnabled(!m_sweepRunning);
    m_sweepCompare->setEnabled(!m_sweepRunning);
}

bool ChartsPanel::startSweep(const SweepSpec &spec, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_sweepRunning)
        return fail(tr("A sweep is already running."));
    if (!m_hasResult)
        return fail(tr("Run a scenario first: the sweep varies the current scenario."));
    const QStringList errors = sweep::validate(m_result.scenario, spec);
    if (!errors.isEmpty())
        return fail(errors.join(QLatin1Char('\n')));

    setSweepControls(spec);
    m_sweepSpec = spec;
    m_sweepScenario = m_result.scenario;
    m_sweepJobs = sweep::jobs(m_result.scenario, spec);
    m_sweepRunning = true;
    m_sweepEstimating = true;
    m_sweepCancelledEarly = false;
    m_sweepProgress->setRange(0, 0); // busy until the estimate gives the runs their weights
    m_sweepStatus->setText(tr("Estimating the sweep's cost…"));
    updateSweepButtons();
    Q_EMIT sweepStarted();
    // The pilot runs up to 8 cells of 1,000 operations: seconds of CPU at the largest settings,
    // so on a worker thread, as the runs themselves.
    m_sweepCostWatcher.setFuture(QtConcurrent::run(
            [base = m_result.scenario, spec, jobs = m_sweepJobs] { return sweep::cost(base, spec, jobs); }));
    return true;
}

void ChartsPanel::sweepEstimateDone()
{
    m_sweepEstimating = false;
    if (!m_sweepRunning)
        return;
    if (m_sweepCancelledEarly) {
        m_sweepProgress->setRange(0, std::max<int>(1, int(m_sweepJobs.size())));
        m_sweepProgress->setValue(0);
        m_sweepStatus->setText(tr("Cancelled before the first simulation."));
        m_sweepRunning = false;
        updateSweepButtons();
        Q_EMIT sweepFinished(true);
        return;
    }
    const SweepCost cost = m_sweepCostWatcher.result();
    m_sweepProgress->setRange(0, std::max<int>(1, int(m_sweepJobs.size())));
    m_sweepProgress->setValue(0);
    setSweepProgressTexts(0, QString());
    m_sweepWorkBefore = {0};
    for (const qint64 w : cost.perJob)
        m_sweepWorkBefore << m_sweepWorkBefore.constLast() + double(w);
    m_sweepClock.start();
    m_sweepStatus->setText(counted(m_sweepJobs.size(), tr("Running %1 simulation…"), tr("Running %1 simulations…"))
                           + QLatin1Char(' ') + tr("(about %1 HTTP requests)")
                                                     .arg(work::formatCountForPeople(cost.expectedAttempts, i18n::currentLanguage())));
    Q_EMIT sweepEstimated(cost.expectedAttempts);
    m_sweepWatcher.setFuture(sweep::startFolded(m_sweepJobs));
}

QString ChartsPanel::sweepStatusText() const
{
    return m_sweepStatus->text();
}

void ChartsPanel::cancelSweep()
{
    if (!m_sweepRunning)
        return;
    if (m_sweepEstimating) {
        // The pilot finishes on its own (at most 8 short runs); its runs then never start.
        m_sweepCancelledEarly = true;
        m_sweepCancel->setEnabled(false);
        m_sweepStatus->setText(tr("Cancelling…"));
        return;
    }
    // Finishing is reported by the watcher once the jobs in flight return.
    m_sweepWatcher.cancel();
    m_sweepCancel->setEnabled(false);
    m_sweepStatus->setText(tr("Cancelling…"));
}

void ChartsPanel::sweepDone()
{
    if (!m_sweepRunning)
        return;
    const bool cancelled = m_sweepWatcher.isCanceled();
    const int total = int(m_sweepJobs.size());
    if (!cancelled) {
        const QList<SweepPoint> points = m_sweepWatcher.future().resultCount() > 0
                ? m_sweepWatcher.future().result().points()
                : QList<SweepPoint>();
        if (points.size() == qsizetype(m_sweepSpec.count()) * m_sweepSpec.count2()) {
            m_sweepPoints = points;
            m_sweepStale = false;
            applySweepColors();
            showSweep();
            // Two sentences as the caption joins them: no space after a Chinese full stop.
            m_sweepDoneText = timeline::joinSentences(
                    counted(total, tr("%1 simulation done."), tr("%1 simulations done.")),
                    m_sweepSpec.twoD() ? tr("Lines: mean over %1, one per value of %2.")
                                                 .arg(counted(m_sweepSpec.seeds, tr("%1 seed"), tr("%1 seeds")))
                                                 .arg(m_sweepCompare->itemText(
                                                         std::max(0, m_sweepCompare->findData(m_sweepSpec.param2))))
                                       : tr("Lines: mean over the seeds; shaded bands: min to max."));
            m_sweepStatus->setText(m_sweepDoneText);
        } else {
            m_sweepStatus->setText(tr("The sweep returned %1 of %2 points.")
                                           .arg(points.size())
                                           .arg(qsizetype(m_sweepSpec.count()) * m_sweepSpec.count2()));
        }
        m_sweepProgress->setValue(m_sweepProgress->maximum());
    } else {
        m_sweepStatus->setText(tr("Cancelled after %1 of %2 simulations.")
                                   .arg(m_sweepWatcher.progressValue())
                                   .arg(total));
    }
    m_sweepRunning = false;
    // The settings may have changed while it ran.
    if (!cancelled && !m_sweepPoints.isEmpty() && !whatif::sameSettings(m_sweepScenario, m_result.scenario))
        setSweepStale(true);
    updateSweepButtons();
    Q_EMIT sweepFinished(cancelled);
}

void ChartsPanel::showSweep()
{
    const bool categorical = !m_sweepSpec.values.isEmpty();
    m_views[SweepTab]->chart()->legend()->setVisible(true);
    m_sweepY->setVisible(true);
    m_sweepX->setVisible(!categorical);
    m_sweepXCategories->setVisible(categorical);
    QAbstractAxis *x = categorical ? static_cast<QAbstractAxis *>(m_sweepXCategories) : m_sweepX;
    QAbstractAxis *otherX = categorical ? static_cast<QAbstractAxis *>(m_sweepX) : m_sweepXCategories;
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_sweepDupBand), static_cast<QAbstractSeries *>(m_sweepDupMean),
                               static_cast<QAbstractSeries *>(m_sweepAmpBand), static_cast<QAbstractSeries *>(m_sweepAmpMean)})
        attachX(s, x, otherX);
    const QString label = m_sweepParam->itemText(std::max(0, m_sweepParam->findData(m_sweepSpec.param)));
    if (categorical) {
        // The value names under their points, at 0, 1, 2, ...
        QStringList names;
        const int count2 = m_sweepSpec.count2();
        for (int i = 0; i * count2 < m_sweepPoints.size(); ++i)
            names << m_sweepPoints.at(i * count2).label;
        m_sweepXCategories->clear();
        m_sweepXCategories->append(names);
        m_sweepXCategories->setTitleText(QStringLiteral("%1 (%2)").arg(label, m_sweepSpec.param));
    } else {
        const double lo = std::min(m_sweepSpec.from, m_sweepSpec.to);
        const double hi = std::max(m_sweepSpec.from, m_sweepSpec.to);
        setValueRange(m_sweepX, lo, hi);
        m_sweepX->setTitleText(QStringLiteral("%1 (%2)").arg(label, m_sweepSpec.param));
    }
    clearSweepCompareLines();
    if (m_sweepSpec.twoD())
        showSweepCompared();
    else
        showSweepOneParameter();
    applySweepColors();
    fitSweepCategoryLabels();
}

void ChartsPanel::showSweepOneParameter()
{
    QChart *chart = m_views[SweepTab]->chart();
    QList<QPointF> dupMean, dupMin, dupMax, ampMean, ampMin, ampMax;
    double maxDup = 0;
    double maxAmp = 0;
    for (const SweepPoint &p : qAsConst(m_sweepPoints)) {
        const SweepStat d = p.stat(QStringLiteral("duplicates"));
        const SweepStat a = p.stat(QStringLiteral("amplification"));
        dupMean.append({p.value, d.mean});
        dupMin.append({p.value, d.min});
        dupMax.append({p.value, d.max});
        ampMean.append({p.value, a.mean});
        ampMin.append({p.value, a.min});
        ampMax.append({p.value, a.max});
        maxDup = std::max(maxDup, d.max);
        maxAmp = std::max(maxAmp, a.max);
    }
    m_sweepDupMean->replace(dupMean);
    m_sweepDupMin->replace(dupMin);
    m_sweepDupMax->replace(dupMax);
    m_sweepAmpMean->replace(ampMean);
    m_sweepAmpMin->replace(ampMin);
    m_sweepAmpMax->replace(ampMax);
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_sweepDupBand), static_cast<QAbstractSeries *>(m_sweepDupMean),
                               static_cast<QAbstractSeries *>(m_sweepAmpBand), static_cast<QAbstractSeries *>(m_sweepAmpMean)})
        s->setVisible(true);
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_sweepDupMean), static_cast<QAbstractSeries *>(m_sweepAmpMean)}) {
        const QList<QLegendMarker *> markers = chart->legend()->markers(s);
        for (QLegendMarker *marker : markers)
            marker->setVisible(true);
    }
    m_sweepY2->setVisible(true);
    m_sweepY->setTitleText(tr("duplicate records"));
    setCountRange(m_sweepY, maxDup < 8 ? maxDup + 1 : maxDup * 1.1);
    setValueRange(m_sweepY2, 0, std::max(1.0, maxAmp * 1.1));
    const QString label = m_sweepParam->itemText(std::max(0, m_sweepParam->findData(m_sweepSpec.param)));
    chart->setTitle(tr("Duplicates and attempts vs %1 (%2 per point)")
                            .arg(label, counted(m_sweepSpec.seeds, tr("%1 seed"), tr("%1 seeds"))));
}

void ChartsPanel::showSweepCompared()
{
    QChart *chart = m_views[SweepTab]->chart();
    // The one-parameter lines step aside: one line per value of the second parameter instead.
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_sweepDupBand), static_cast<QAbstractSeries *>(m_sweepDupMean),
                               static_cast<QAbstractSeries *>(m_sweepAmpBand), static_cast<QAbstractSeries *>(m_sweepAmpMean)}) {
        s->setVisible(false);
        hideLegendFor(chart, s);
    }
    m_sweepY2->setVisible(false);
    QAbstractAxis *x = m_sweepXCategories->isVisible() ? static_cast<QAbstractAxis *>(m_sweepXCategories) : m_sweepX;
    const QString metric = sweepMetric();
    const bool bands = m_sweepBands->isChecked();
    const QString compareLabel = m_sweepCompare->itemText(std::max(0, m_sweepCompare->findData(m_sweepSpec.param2)));
    const int count2 = m_sweepSpec.count2();
    double top = 0;
    bool whole = true; // counts get whole-number ticks
    for (int j = 0; j < count2 && j < m_sweepPoints.size(); ++j) {
        QList<QPointF> mean, low, high;
        for (int i = j; i < m_sweepPoints.size(); i += count2) {
            const SweepPoint &p = m_sweepPoints.at(i);
            const SweepStat stat = p.stat(metric);
            mean.append({p.value, stat.mean});
            low.append({p.value, stat.min});
            high.append({p.value, stat.max});
            top = std::max(top, bands ? stat.max : stat.mean);
            whole = whole && stat.min == std::floor(stat.min) && stat.max == std::floor(stat.max);
        }
        if (bands) {
            auto *upper = new QLineSeries(chart);
            auto *lower = new QLineSeries(chart);
            upper->replace(high);
            lower->replace(low);
            auto *area = new QAreaSeries(upper, lower);
            area->setName(tr("%1 min–max").arg(m_sweepPoints.at(j).label2));
            chart->addSeries(area);
            area->attachAxis(x);
            area->attachAxis(m_sweepY);
            hideLegendFor(chart, area);
            m_sweepLineBands << area;
        }
        auto *line = new QLineSeries;
        // "none", "full"; a boolean says what is true or false: "Retry budget on: true".
        const QString value2 = m_sweepPoints.at(j).label2;
        const bool boolean = value2 == QLatin1String("true") || value2 == QLatin1String("false");
        line->setName(boolean ? QStringLiteral("%1: %2").arg(compareLabel, value2) : value2);
        line->setPointsVisible(true);
        line->replace(mean);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(m_sweepY);
        m_sweepLines << line;
    }
    const QList<QPair<QString, QString>> metrics = compareMetrics();
    QString title = metric;
    for (const auto &entry : metrics) {
        if (entry.first == metric)
            title = entry.second;
    }
    m_sweepY->setTitleText(title);
    if (whole)
        setCountRange(m_sweepY, top < 8 ? top + 1 : top * 1.1);
    else
        setValueRange(m_sweepY, 0, std::max(top * 1.1, 1e-9));
    const QString label = m_sweepParam->itemText(std::max(0, m_sweepParam->findData(m_sweepSpec.param)));
    const QString &compare = compareLabel;
    // The x axis names the first parameter and the status line the seeds: the title stays short
    // enough to read whole on a narrow page ("HTTP attempts by backoff jitter").
    QString by = compare;
    if (const int paren = by.indexOf(QStringLiteral(" (")); paren > 0)
        by.truncate(paren);
    chart->setTitle(tr("%1 by %2").arg(title.left(1).toUpper() + title.mid(1), by.left(1).toLower() + by.mid(1)));
    Q_UNUSED(label);
    // The new series take the chart's fonts and colours.
    applyStyle();
}

void ChartsPanel::clearSweepCompareLines()
{
    QChart *chart = m_views[SweepTab]->chart();
    for (QLineSeries *line : qAsConst(m_sweepLines)) {
        chart->removeSeries(line);
        delete line;
    }
    for (QAreaSeries *area : qAsConst(m_sweepLineBands)) {
        chart->removeSeries(area);
        delete area;
    }
    m_sweepLines.clear();
    m_sweepLineBands.clear();
}

// Value names that do not fit side by side under the plot get a smaller font, down to 70%.
// Qt Charts gives each name of a bar-category axis the plot width / (names + 2), less padding.
void ChartsPanel::fitSweepCategoryLabels()
{
    const QStringList labels = m_sweepXCategories->categories();
    if (!m_sweepXCategories->isVisible() || labels.isEmpty())
        return;
    const QRectF plot = m_views[SweepTab]->chart()->plotArea();
    const QFont base = m_sweepX->labelsFont(); // the style's label font, never shrunk
    const QFontMetrics metrics(base);
    int widest = 0;
    for (const QString &text : labels)
        widest = std::max(widest, metrics.horizontalAdvance(text) + metrics.averageCharWidth());
    const double room = plot.width() / (labels.size() + 2) - 2 * metrics.averageCharWidth();
    const double scale = std::clamp(room / std::max(1, widest), 0.7, 1.0);
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * scale);
    if (m_sweepXCategories->labelsFont() != font)
        m_sweepXCategories->setLabelsFont(font);
}

QStringList ChartsPanel::sweepLineNames() const
{
    QStringList names;
    const QList<QAbstractSeries *> series = m_views[SweepTab]->chart()->series();
    for (QAbstractSeries *s : series) {
        if (s->type() == QAbstractSeries::SeriesTypeLine && s->isVisible())
            names << s->name();
    }
    return names;
}

QList<QColor> ChartsPanel::sweepLineColors() const
{
    QList<QColor> colors;
    const QList<QAbstractSeries *> series = m_views[SweepTab]->chart()->series();
    for (QAbstractSeries *s : series) {
        if (s->type() == QAbstractSeries::SeriesTypeLine && s->isVisible())
            colors << static_cast<QLineSeries *>(s)->color();
    }
    return colors;
}

QStringList ChartsPanel::sweepXLabels() const
{
    return m_sweepXCategories->isVisible() ? m_sweepXCategories->categories() : QStringList();
}

QString ChartsPanel::sweepMetric() const
{
    return m_sweepMetric->currentData().toString();
}

void ChartsPanel::setSweepMetric(const QString &metric)
{
    const int index = m_sweepMetric->findData(metric);
    if (index >= 0)
        m_sweepMetric->setCurrentIndex(index);
}

void ChartsPanel::setSweepBandsShown(bool shown)
{
    m_sweepBands->setChecked(shown);
}

bool ChartsPanel::renderChart(int tab, QPainter *painter, const QRectF &target)
{
    QChartView *view = chartView(tab);
    if (!view || !painter)
        return false;
    if (!view->isVisible() && (view->width() < 480 || view->height() < 320))
        view->resize(1280, 720); // a never-shown tab has no useful size yet
    const double scale = std::min(target.width() / view->width(), target.height() / view->height());
    painter->save();
    painter->translate(target.left() + (target.width() - view->width() * scale) / 2, target.top());
    painter->scale(scale, scale);
    static_cast<QWidget *>(view)->render(painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter->restore();
    return true;
}

bool ChartsPanel::exportChart(int tab, const QString &fileName, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    QChartView *view = chartView(tab);
    if (!view)
        return fail(tr("There is no chart tab %1.").arg(tab));
    if (!view->isVisible() && (view->width() < 480 || view->height() < 320))
        view->resize(1280, 720); // a never-shown tab has no useful size yet

    if (QFileInfo(fileName).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator generator;
        generator.setFileName(fileName);
        generator.setSize(view->size());
        generator.setViewBox(QRect(QPoint(0, 0), view->size()));
        // A chart title is rich text (the load chart's has a subtitle line); the SVG's is plain.
        generator.setTitle(QTextDocumentFragment::fromHtml(view->chart()->title()).toPlainText());
        generator.setDescription(tr("RetryLab chart: %1").arg(tabTitle(tab)));
        QPainter painter;
        if (!painter.begin(&generator))
            return fail(tr("Cannot write %1.").arg(fileName));
        static_cast<QWidget *>(view)->render(&painter);
        painter.end();
        if (QFileInfo(fileName).size() <= 0)
            return fail(tr("Cannot write %1.").arg(fileName));
        return true;
    }
    const QImage image = view->grab().toImage();
    if (image.isNull())
        return fail(tr("The chart could not be drawn."));
    if (!image.save(fileName))
        return fail(tr("Cannot write %1 (unknown image type or no permission).").arg(fileName));
    return true;
}

void ChartsPanel::setPlayhead(qint64 t)
{
    m_load->setPlayhead(t);
}

void ChartsPanel::setDocument(LabDocument *document)
{
    // Before the follower: the axis titles say the source even while the page is a result behind.
    connect(document, &LabDocument::resultChanged, this, [this, document] { setSource(document->source()); });
    new DocumentFollower(this, document, DocumentFollower::When::Shown,
                         [this, document] { document->showCharts(this); });
}

void ChartsPanel::setSource(ResultSource source)
{
    m_dupX->setTitleText(source == ResultSource::Watch   ? tr("time since the server started (s)")
                         : source == ResultSource::Proxy ? tr("time since the proxy started (s)")
                         : source == ResultSource::Check ? tr("time since the check began (s)")
                                                         : tr("simulated time (s)"));
    if (m_load)
        m_load->setSource(source);
}

} // namespace retrylab
