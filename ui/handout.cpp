#include "handout.h"

#include "chartspanel.h"
#include "loadchart.h"
#include "story.h"
#include "timelinewidget.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTextDocument>

namespace retrylab {

namespace {

// The handout's texts, in the translation context "Handout" (lupdate sees Handout::tr() calls; a free tr() here
// would land in the namespace's context).
struct Handout
{
    Q_DECLARE_TR_FUNCTIONS(Handout)
};

QString layerText(const LayerConfig &l)
{
    if (!l.enabled)
        return Handout::tr("off");
    const QString attempts = l.maxAttempts == 0 ? Handout::tr("until %1 ms").arg(l.deadlineMs)
                                                : (l.maxAttempts == 1 ? Handout::tr("1 attempt") : Handout::tr("%1 attempts").arg(l.maxAttempts));
    return Handout::tr("%1, %2 backoff from %3 ms (cap %4 ms), jitter %5")
        .arg(attempts, scenario::toString(l.backoff.kind))
        .arg(l.backoff.initialMs)
        .arg(l.backoff.maxMs)
        .arg(scenario::toString(l.backoff.jitter));
}

QString percent(double p)
{
    return QStringLiteral("%1%").arg(p * 100, 0, 'g', 3);
}

// One image scaled into `area`, keeping its proportions, centred at the top.
void drawImage(QPainter &painter, const QImage &image, const QRectF &area)
{
    if (image.isNull())
        return;
    QSizeF size = image.size();
    size.scale(area.size(), Qt::KeepAspectRatio);
    const QRectF target(area.left() + (area.width() - size.width()) / 2, area.top(), size.width(), size.height());
    painter.drawImage(target, image);
}

void drawHeading(QPainter &painter, const QRectF &page, const QString &text)
{
    QFont font = painter.font();
    font.setPointSizeF(16);
    font.setBold(true);
    painter.setFont(font);
    painter.drawText(QRectF(page.left(), page.top(), page.width(), page.height() * 0.08),
                     Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text);
}

} // namespace

QList<QPair<QString, QString>> handoutSettings(const Scenario &s)
{
    QList<QPair<QString, QString>> rows;
    const WorkloadConfig &w = s.workload;
    if (w.mode == WorkloadMode::Closed)
        rows << qMakePair(Handout::tr("Workload"), Handout::tr("%1 clients, %2 orders each, %3 ms between them")
                                              .arg(w.clients).arg(w.opsPerClient).arg(w.thinkTimeMs));
    else
        rows << qMakePair(Handout::tr("Workload"), Handout::tr("%1 orders, %2 ms apart per client, %3 clients (%4 arrivals)")
                                              .arg(w.orders).arg(w.interArrivalMs).arg(w.clients)
                                              .arg(scenario::toString(w.arrivals)));
    const ClientConfig &c = s.client;
    rows << qMakePair(Handout::tr("Idempotency key"), scenario::toString(c.keyPlacement));
    rows << qMakePair(Handout::tr("Business loop"), layerText(c.business));
    rows << qMakePair(Handout::tr("@retry wrapper"), layerText(c.wrapper));
    rows << qMakePair(Handout::tr("urllib3 transport"),
                      !c.transport.enabled ? Handout::tr("off")
                      : Handout::tr("total %1, POST %2")
                            .arg(c.transport.total == TransportConfig::Unlimited ? Handout::tr("unlimited") : QString::number(c.transport.total),
                                 c.transport.allowedMethods.isEmpty() || c.transport.allowedMethods.contains(QStringLiteral("POST"))
                                     ? Handout::tr("retried")
                                     : Handout::tr("not retried")));
    rows << qMakePair(Handout::tr("Timeout"), Handout::tr("%1 ms").arg(c.timeoutMs));
    if (c.retryBudget.enabled)
        rows << qMakePair(Handout::tr("Retry budget"), Handout::tr("%1, ratio %2, at most %3 tokens")
                                                  .arg(scenario::toString(c.retryBudget.scope))
                                                  .arg(c.retryBudget.ratio)
                                                  .arg(c.retryBudget.maxTokens));
    if (c.circuitBreaker.enabled)
        rows << qMakePair(Handout::tr("Circuit breaker"), scenario::toString(c.circuitBreaker.mode));
    const NetworkConfig &n = s.network;
    rows << qMakePair(Handout::tr("Network"),
                      n.latencyMs.shape == DistributionShape::Normal
                          ? Handout::tr("latency %1 \u00b1 %2 ms, responses lost %3, requests lost %4")
                                .arg(n.latencyMs.mean)
                                .arg(n.latencyMs.sd)
                                .arg(percent(n.responseLoss), percent(n.requestLoss))
                          : Handout::tr("latency %1-%2 ms, responses lost %3, requests lost %4")
                                .arg(n.latencyMs.base)
                                .arg(n.latencyMs.base + n.latencyMs.jitter)
                                .arg(percent(n.responseLoss), percent(n.requestLoss)));
    const ServerConfig &sv = s.server;
    rows << qMakePair(Handout::tr("Server"), sv.model == ServerModel::Occ
                                        ? (sv.occRows == 1 ? Handout::tr("optimistic concurrency on 1 row") : Handout::tr("optimistic concurrency on %1 rows").arg(sv.occRows))
                                        : Handout::tr("orders, idempotency %1").arg(scenario::toString(sv.idempotency.mode)));
    if (!s.windows.isEmpty())
        rows << qMakePair(Handout::tr("Fault windows"), Handout::tr("%1").arg(s.windows.size()));
    rows << qMakePair(Handout::tr("Seed"), QString::number(s.seed));
    return rows;
}

QString writeHandout(const RunResult &result, ChartsPanel *charts, const QString &fileName)
{
    if (QFileInfo(fileName).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) != 0)
        return Handout::tr("expected a file name ending in .pdf, got \"%1\"").arg(fileName);
    QTemporaryDir images;
    if (!images.isValid())
        return Handout::tr("cannot make a temporary folder for the pictures");

    // The story operation as a slide, and every chart of the result, as pictures first.
    QString error;
    TimelineWidget timeline;
    timeline.resize(1600, 900);
    timeline.setResult(result);
    timeline.setOperation(storyOperation(result));
    timeline.seekToEnd(); // the whole operation, played to its end
    const QString timelinePng = images.filePath(QStringLiteral("timeline.png"));
    if (!timeline.exportImage(timelinePng, &error, QSize(1920, 1080)))
        return error;
    const bool aboutLoad = isAboutLoad(result.scenario);
    QList<QPair<int, QString>> chartPages; // (tab, title)
    const QList<QPair<int, QString>> tabs{{ChartsPanel::DuplicatesTab, Handout::tr("Duplicates over time")},
                                          {ChartsPanel::AttemptsTab, Handout::tr("Attempts per operation")},
                                          {ChartsPanel::LoadTab, Handout::tr("Load over time")}};
    if (!charts)
        return Handout::tr("cannot draw the charts");
    for (const auto &[tab, title] : tabs) {
        if (tab == ChartsPanel::LoadTab && !aboutLoad)
            continue;
        if (tab == ChartsPanel::LoadTab && charts->loadChart()->isPending()) {
            // A big trace is counted in the background: wait for it (bounded) rather than draw it empty.
            QEventLoop wait;
            QTimer::singleShot(60000, &wait, &QEventLoop::quit);
            QObject::connect(charts->loadChart(), &LoadChart::seriesReady, &wait, &QEventLoop::quit);
            if (charts->loadChart()->isPending())
                wait.exec();
            if (charts->loadChart()->isPending())
                return Handout::tr("the load over time is still being counted; try again in a moment");
        }
        chartPages << qMakePair(tab, title);
    }

    QSaveFile out(fileName);
    if (!out.open(QIODevice::WriteOnly))
        return Handout::tr("cannot write \"%1\": %2").arg(fileName, out.errorString());
    QPdfWriter pdf(&out);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageOrientation(QPageLayout::Landscape);
    pdf.setResolution(150);
    const Scenario &s = result.scenario;
    pdf.setTitle(s.title.isEmpty() ? s.name : s.title);
    pdf.setCreator(QStringLiteral("RetryLab"));
    QPainter painter;
    if (!painter.begin(&pdf))
        return Handout::tr("cannot write \"%1\"").arg(fileName);
    const QRectF page = pdf.pageLayout().paintRectPixels(pdf.resolution());
    const QRectF area(0, 0, page.width(), page.height());

    // Page 1: the lesson, the settings and the metrics.
    const Metrics &m = result.metrics;
    QString html = QStringLiteral("<h1>%1</h1><p style='font-size:12pt'>%2</p>")
                       .arg((s.title.isEmpty() ? s.name : s.title).toHtmlEscaped(), s.description.toHtmlEscaped());
    html += QStringLiteral("<table width='100%' cellspacing='0' cellpadding='4'><tr><td width='55%' valign='top'>");
    html += QStringLiteral("<h3>%1</h3><table cellpadding='3'>").arg(Handout::tr("Settings"));
    for (const auto &[label, value] : handoutSettings(s))
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    html += QStringLiteral("</table></td><td valign='top'><h3>%1</h3><table cellpadding='3'>").arg(Handout::tr("What happened"));
    const QList<QPair<QString, QString>> metrics{
        {Handout::tr("Operations"), QString::number(m.logicalOperations)},
        {Handout::tr("HTTP attempts"), Handout::tr("%1 (%2 per operation)").arg(m.httpAttempts).arg(m.amplification, 0, 'f', 2)},
        {Handout::tr("Records"), QString::number(m.records)},
        {Handout::tr("Duplicates"), QString::number(m.duplicates)},
        {Handout::tr("Orphans"), QString::number(m.orphans)},
        {Handout::tr("Lost"), QString::number(m.lost)},
        {Handout::tr("Succeeded / failed"), Handout::tr("%1 / %2").arg(m.clientSucceeded).arg(m.clientFailed)},
        {Handout::tr("Latency p50 / p99"), Handout::tr("%1 / %2 ms").arg(m.latencyP50Ms, 0, 'f', 0).arg(m.latencyP99Ms, 0, 'f', 0)},
        {Handout::tr("Goodput"), Handout::tr("%1 orders/s").arg(m.goodputPerS, 0, 'f', 1)},
    };
    for (const auto &[label, value] : metrics)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    html += QStringLiteral("</table></td></tr></table>");
    QTextDocument doc;
    QFont base = painter.font();
    base.setPointSizeF(10);
    doc.setDefaultFont(base);
    doc.setPageSize(area.size());
    doc.setTextWidth(area.width());
    doc.setHtml(html);
    painter.save();
    const double fit = doc.size().height() > area.height() ? area.height() / doc.size().height() : 1.0;
    painter.scale(fit, fit);
    doc.drawContents(&painter);
    painter.restore();

    // Page 2: the story operation.
    pdf.newPage();
    drawHeading(painter, area, Handout::tr("The story operation: ORD-%1").arg(storyOperation(result), 4, 10, QLatin1Char('0')));
    drawImage(painter, QImage(timelinePng), area.adjusted(0, area.height() * 0.09, 0, 0));

    // Then one chart per page, drawn as vectors.
    for (const auto &[tab, title] : chartPages) {
        pdf.newPage();
        drawHeading(painter, area, title);
        charts->renderChart(tab, &painter, area.adjusted(0, area.height() * 0.09, 0, 0));
    }
    painter.end();
    if (!out.commit())
        return Handout::tr("cannot write \"%1\": %2").arg(fileName, out.errorString());
    return QString();
}

} // namespace retrylab
