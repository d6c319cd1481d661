#include "charts/sweepfigure.h"

#include <QCoreApplication>

#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {

// Okabe-Ito: told apart by people with every common colour-vision deficiency, and on a projector.
const QColor LineColors[] = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73),
                             QColor(0xCC, 0x79, 0xA7), QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
                             QColor(0x00, 0x00, 0x00)};

// The figure's texts (axis titles, errors), in the translation context "SweepFigure".
struct SweepFigure
{
    Q_DECLARE_TR_FUNCTIONS(SweepFigure)
};

QString axisTitleOf(const QString &param)
{
    if (param == QLatin1String("workload.clients"))
        return SweepFigure::tr("Clients");
    return param;
}

double niceCeiling(double v)
{
    if (v <= 0)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (const double step : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (v <= step * magnitude)
            return step * magnitude;
    return 10 * magnitude;
}

QChartView *chartFor(const SweepSpec &spec, const QList<SweepPoint> &points, const QString &metric, int pointSize)
{
    auto *chart = new QChart;
    chart->setTitle(metricAxisTitle(metric));
    QFont titleFont = chart->titleFont();
    titleFont.setPointSize(pointSize + 3);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSize(pointSize);
    chart->legend()->setFont(legendFont);
    chart->setBackgroundRoundness(0);

    // One line per value of the second parameter, in the order the sweep made them.
    QStringList lines;
    for (const SweepPoint &p : points)
        if (!lines.contains(p.label2))
            lines << p.label2;
    double xMin = 0, xMax = 0, yMax = 0;
    bool first = true;
    for (int i = 0; i < lines.size(); ++i) {
        auto *series = new QLineSeries;
        series->setName(lines.at(i).isEmpty() ? metricAxisTitle(metric) : lines.at(i));
        QPen pen(LineColors[i % int(std::size(LineColors))]);
        pen.setWidthF(3);
        series->setPen(pen);
        auto *marks = new QScatterSeries;
        marks->setColor(pen.color());
        marks->setBorderColor(pen.color());
        marks->setMarkerSize(7);
        for (const SweepPoint &p : points) {
            if (p.label2 != lines.at(i))
                continue;
            const double y = p.stat(metric).mean;
            series->append(p.value, y);
            marks->append(p.value, y);
            xMin = first ? p.value : std::min(xMin, p.value);
            xMax = first ? p.value : std::max(xMax, p.value);
            yMax = std::max(yMax, y);
            first = false;
        }
        chart->addSeries(series);
        chart->addSeries(marks);
    }
    auto *x = new QValueAxis;
    x->setRange(xMin, xMax > xMin ? xMax : xMin + 1);
    x->setTitleText(axisTitleOf(spec.param));
    x->setLabelFormat(QStringLiteral("%g"));
    auto *y = new QValueAxis;
    y->setRange(0, niceCeiling(yMax * 1.05));
    y->setTitleText(metricAxisTitle(metric));
    y->setLabelFormat(QStringLiteral("%g"));
    QFont axisFont = x->labelsFont();
    axisFont.setPointSize(pointSize);
    for (QValueAxis *axis : {x, y}) {
        axis->setLabelsFont(axisFont);
        axis->setTitleFont(axisFont);
        axis->applyNiceNumbers();
    }
    y->setMin(0);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const QList<QAbstractSeries *> all = chart->series();
    for (QAbstractSeries *s : all) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    // The scatter series only mark the points: keep them out of the legend.
    const QList<QLegendMarker *> markers = chart->legend()->markers();
    for (QLegendMarker *m : markers)
        if (qobject_cast<QScatterSeries *>(m->series()))
            m->setVisible(false);
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

} // namespace

QString metricAxisTitle(const QString &metric)
{
    // Not static: the names follow the current language.
    const QHash<QString, QString> names{
        {QStringLiteral("writeAttempts"), SweepFigure::tr("Write calls")},
        {QStringLiteral("httpAttempts"), SweepFigure::tr("HTTP attempts")},
        {QStringLiteral("completionS"), SweepFigure::tr("Completion time (s)")},
        {QStringLiteral("durationS"), SweepFigure::tr("Duration (s)")},
        {QStringLiteral("duplicates"), SweepFigure::tr("Duplicate records")},
        {QStringLiteral("versionConflicts"), SweepFigure::tr("Version conflicts")},
        {QStringLiteral("goodputPerS"), SweepFigure::tr("Goodput (orders/s)")},
        {QStringLiteral("amplification"), SweepFigure::tr("Attempts per operation")},
    };
    return names.value(metric, metric);
}

QString saveSweepFigure(const SweepSpec &spec, const QList<SweepPoint> &points, const QStringList &metrics,
                        const QString &title, const QString &fileName, QSize size)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return SweepFigure::tr("expected a file name ending in .png or .svg, got '%1'").arg(fileName);
    if (points.isEmpty() || metrics.isEmpty())
        return SweepFigure::tr("nothing to draw");
    QWidget figure;
    figure.setAttribute(Qt::WA_DontShowOnScreen);
    figure.setAutoFillBackground(true);
    QPalette palette = figure.palette();
    palette.setColor(QPalette::Window, Qt::white);
    palette.setColor(QPalette::WindowText, Qt::black);
    figure.setPalette(palette);
    auto *column = new QVBoxLayout(&figure);
    if (!title.isEmpty()) {
        auto *heading = new QLabel(title);
        QFont font = heading->font();
        font.setPointSize(15);
        font.setBold(true);
        heading->setFont(font);
        heading->setAlignment(Qt::AlignCenter);
        column->addWidget(heading);
    }
    auto *row = new QHBoxLayout;
    for (const QString &metric : metrics)
        row->addWidget(chartFor(spec, points, metric, 11));
    column->addLayout(row, 1);
    figure.resize(size);
    figure.show(); // not on screen (WA_DontShowOnScreen): lays the charts out for rendering
    figure.layout()->activate();

    if (suffix == QLatin1String("svg")) {
        QSaveFile file(fileName);
        if (!file.open(QIODevice::WriteOnly))
            return file.errorString();
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        QPainter painter(&svg);
        figure.render(&painter);
        painter.end();
        return file.commit() ? QString() : file.errorString();
    }
    const QPixmap pixmap = figure.grab();
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    if (!pixmap.save(&file, "PNG"))
        return SweepFigure::tr("cannot write PNG data");
    return file.commit() ? QString() : file.errorString();
}

} // namespace retrylab
