#include "i18n.h"
#include "lessons/handout.h"

#include "charts/chartspanel.h"
#include "lessons/lessonplayer.h"
#include "charts/loadchart.h"
#include "story.h"
#include "timeline/timelinewidget.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <QBuffer>
#include <QFileInfo>
#include <QHash>
#include <QRawFont>
#include <QRegularExpression>
#include <QFontInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtConcurrent/QtConcurrentMap>

#include <memory>

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

// The run's numbers as (label, value) rows.
QList<QPair<QString, QString>> metricRows(const Metrics &m)
{
    return {
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
}

QString htmlRows(const QList<QPair<QString, QString>> &rows)
{
    QString html = QStringLiteral("<table cellpadding='3'>");
    for (const auto &[label, value] : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

// Rich text drawn from the top of `area`, shrunk to fit its height; returns the height used.
double drawHtml(QPainter &painter, const QRectF &area, const QString &html, double pointSize = 10)
{
    QTextDocument doc;
    QFont base = painter.font();
    base.setPointSizeF(pointSize);
    doc.setDefaultFont(base);
    doc.setTextWidth(area.width());
    doc.setHtml(html);
    const double fit = doc.size().height() > area.height() ? area.height() / doc.size().height() : 1.0;
    painter.save();
    painter.translate(area.topLeft());
    painter.scale(fit, fit);
    doc.drawContents(&painter);
    painter.restore();
    return doc.size().height() * fit;
}

// The timeline of one operation of a traced run, played to its end, as a 1080p picture.
QImage timelineImage(const RunResult &result, int op, QString *error, const QString &title = QString())
{
    QTemporaryDir images;
    if (!images.isValid()) {
        *error = Handout::tr("cannot make a temporary folder for the pictures");
        return QImage();
    }
    TimelineWidget timeline;
    showForHandout(timeline, result, op, title);
    const QString png = images.filePath(QStringLiteral("timeline.png"));
    if (!timeline.exportImage(png, error, QSize(1920, 1080)))
        return QImage();
    return QImage(png);
}

// Checked before any picture is drawn.
QString pdfNameError(const QString &fileName)
{
    if (QFileInfo(fileName).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) != 0)
        return Handout::tr("expected a file name ending in .pdf, got \"%1\"").arg(fileName);
    return QString();
}

// Qt's PDF writer maps each embedded glyph back to text through the lowest code point the font gives
// it. Noto Sans CJK draws the Kangxi radicals (U+2F00..) and the radicals supplement (U+2E80..) with
// the glyphs of the ideographs they look like, so "自" came back from the PDF as the radical "⾃"
// (copy, search and pdftotext all read the ToUnicode map). The ideograph each radical's glyph also
// draws, in the handout's Chinese face, measured from the font rather than listed.
QHash<ushort, ushort> radicalIdeographs()
{
    static const QHash<ushort, ushort> table = [] {
        QHash<ushort, ushort> out;
        const QRawFont raw = QRawFont::fromFont(QFont(QStringLiteral("Noto Sans CJK SC")));
        if (!raw.isValid())
            return out;
        QString unified;
        for (char16_t c = 0x4e00; c <= 0x9fff; ++c)
            unified.append(QChar(c));
        const QList<quint32> glyphs = raw.glyphIndexesForString(unified);
        QHash<quint32, ushort> ideographOf;
        for (int i = int(glyphs.size()) - 1; i >= 0; --i) {
            if (glyphs.at(i) != 0)
                ideographOf.insert(glyphs.at(i), ushort(0x4e00 + i));
        }
        for (char16_t c = 0x2e80; c <= 0x2fdf; ++c) {
            const QList<quint32> g = raw.glyphIndexesForString(QString(QChar(c)));
            if (!g.isEmpty() && g.first() != 0 && ideographOf.contains(g.first()))
                out.insert(ushort(c), ideographOf.value(g.first()));
        }
        return out;
    }();
    return table;
}

// Rewrites, in place and byte for byte (offsets stay valid), every radical a ToUnicode map gives as
// the text of a glyph into the ideograph that glyph draws. Only the maps' destinations are touched.
void repairToUnicode(QByteArray &pdf)
{
    const QHash<ushort, ushort> table = radicalIdeographs();
    if (table.isEmpty())
        return;
    static const QRegularExpression hex4(QStringLiteral("<([0-9A-Fa-f]{4})>"));
    for (const char *section : {"bfrange", "bfchar"}) {
        const QByteArray begin = QByteArray("begin") + section;
        const QByteArray end = QByteArray("end") + section;
        for (qsizetype at = pdf.indexOf(begin); at >= 0; at = pdf.indexOf(begin, at)) {
            const qsizetype stop = pdf.indexOf(end, at);
            if (stop < 0)
                break;
            // One mapping per line: the source code(s) first (two for a range, one for a char), then the text.
            qsizetype line = pdf.indexOf('\n', at) + 1;
            while (line > 0 && line < stop) {
                const qsizetype eol = qMin(stop, pdf.indexOf('\n', line) < 0 ? stop : pdf.indexOf('\n', line));
                const QString text = QString::fromLatin1(pdf.mid(line, eol - line));
                int token = 0;
                const int sources = qstrcmp(section, "bfrange") == 0 ? 2 : 1;
                for (auto it = hex4.globalMatch(text); it.hasNext(); ++token) {
                    const QRegularExpressionMatch m = it.next();
                    const ushort code = ushort(m.captured(1).toUInt(nullptr, 16));
                    if (token < sources || !table.contains(code))
                        continue;
                    const QByteArray to = QByteArray::number(table.value(code), 16).toUpper().rightJustified(4, '0');
                    pdf.replace(line + m.capturedStart(1), 4, to);
                }
                line = eol + 1;
            }
            at = stop;
        }
    }
}

// A landscape A4 PDF being written: begin() opens it and the painter, end() commits it.
class PdfFile
{
public:
    explicit PdfFile(const QString &fileName) : m_fileName(fileName), m_out(fileName) {}
    QString begin(const QString &title)
    {
        if (!m_out.open(QIODevice::WriteOnly))
            return Handout::tr("cannot write \"%1\": %2").arg(m_fileName, m_out.errorString());
        m_buffer.open(QIODevice::WriteOnly);
        m_pdf = std::make_unique<QPdfWriter>(&m_buffer);
        m_pdf->setPageSize(QPageSize(QPageSize::A4));
        m_pdf->setPageOrientation(QPageLayout::Landscape);
        m_pdf->setResolution(150);
        m_pdf->setTitle(title);
        m_pdf->setCreator(QStringLiteral("RetryLab"));
        if (!painter.begin(m_pdf.get()))
            return Handout::tr("cannot write \"%1\"").arg(m_fileName);
        painter.setFont(handoutFont());
        const QRectF page = m_pdf->pageLayout().paintRectPixels(m_pdf->resolution());
        area = QRectF(0, 0, page.width(), page.height());
        return QString();
    }
    void newPage() { m_pdf->newPage(); }
    QString end()
    {
        painter.end();
        QByteArray bytes = m_buffer.data();
        repairToUnicode(bytes);
        if (m_out.write(bytes) != bytes.size() || !m_out.commit())
            return Handout::tr("cannot write \"%1\": %2").arg(m_fileName, m_out.errorString());
        return QString();
    }

    QPainter painter;
    QRectF area;

private:
    QString m_fileName;
    QSaveFile m_out;
    QBuffer m_buffer;
    std::unique_ptr<QPdfWriter> m_pdf;
};

} // namespace

void showForHandout(TimelineWidget &timeline, const RunResult &result, int op, const QString &title)
{
    timeline.resize(1600, 900);
    if (title.isEmpty()) {
        timeline.setResult(result);
    } else {
        // The slide's title names the scenario: a lesson step's is the step, not the preset it starts from.
        RunResult titled = result;
        titled.scenario.title = title;
        timeline.setResult(titled);
    }
    timeline.setOperation(op);
    timeline.seekToEnd(); // the whole operation, played to its end
}

QString stepSlideTitle(const Lesson &lesson, int step)
{
    return Handout::tr("Step %1: %2").arg(step + 1).arg(i18n::content(lesson.steps.value(step).title));
}

QFont handoutFont()
{
    // The family the window's font resolves to (its name may be an alias such as "Sans Serif", which a
    // list of families would pass over), then the Chinese face. Digits and Latin letters set in the
    // CJK face come back from pdftotext as nothing at all.
    QFont font = QGuiApplication::font();
    const QString latin = QFontInfo(font).family();
    QStringList families{latin};
    if (latin != QLatin1String("Noto Sans CJK SC"))
        families << QStringLiteral("Noto Sans CJK SC");
    font.setFamilies(families);
    return font;
}

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
    if (const QString error = pdfNameError(fileName); !error.isEmpty())
        return error;

    // The story operation as a slide, and every chart of the result, as pictures first.
    QString error;
    const QImage timeline = timelineImage(result, storyOperation(result), &error);
    if (timeline.isNull())
        return error;
    if (!charts)
        return Handout::tr("cannot draw the charts");
    const bool aboutLoad = isAboutLoad(result.scenario);
    QList<QPair<int, QString>> chartPages; // (tab, title)
    const QList<QPair<int, QString>> tabs{{ChartsPanel::DuplicatesTab, Handout::tr("Duplicates over time")},
                                          {ChartsPanel::AttemptsTab, Handout::tr("Attempts per operation")},
                                          {ChartsPanel::LoadTab, Handout::tr("Load over time")}};
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

    const Scenario &s = result.scenario;
    PdfFile pdf(fileName);
    const QString title = s.title.isEmpty() ? s.name : i18n::content(s.title);
    error = pdf.begin(title);
    if (!error.isEmpty())
        return error;
    QPainter &painter = pdf.painter;
    const QRectF &area = pdf.area;

    // Page 1: the lesson, the settings and the metrics.
    QString html = QStringLiteral("<h1>%1</h1><p style='font-size:12pt'>%2</p>")
                       .arg(title.toHtmlEscaped(), i18n::content(s.description).toHtmlEscaped());
    html += QStringLiteral("<table width='100%' cellspacing='0' cellpadding='4'><tr><td width='55%' valign='top'>");
    html += QStringLiteral("<h3>%1</h3>").arg(Handout::tr("Settings")) + htmlRows(handoutSettings(s));
    html += QStringLiteral("</td><td valign='top'><h3>%1</h3>").arg(Handout::tr("What happened")) + htmlRows(metricRows(result.metrics));
    html += QStringLiteral("</td></tr></table>");
    drawHtml(painter, area, html);

    // Page 2: the story operation.
    pdf.newPage();
    drawHeading(painter, area, Handout::tr("The story operation: ORD-%1").arg(storyOperation(result), 4, 10, QLatin1Char('0')));
    drawImage(painter, timeline, area.adjusted(0, area.height() * 0.09, 0, 0));

    // Then one chart per page, drawn as vectors.
    for (const auto &[tab, title] : chartPages) {
        pdf.newPage();
        drawHeading(painter, area, title);
        charts->renderChart(tab, &painter, area.adjusted(0, area.height() * 0.09, 0, 0));
    }
    return pdf.end();
}

QFuture<RunResult> startLessonRuns(const Lesson &lesson)
{
    return QtConcurrent::mapped(lesson.steps, [](const LessonStep &step) { return simulate(step.scenario); });
}

namespace {

// What a student's copy asks instead of giving the answer.
QString predictionLines()
{
    return QStringLiteral("<p style='font-size:12pt'><b>%1</b> ______________________________</p>"
                          "<p style='font-size:12pt'><b>%2</b> ______________________________</p>")
        .arg(Handout::tr("My prediction:"), Handout::tr("Why:"));
}

// The text of one step's page: what to watch, the question, and (the teacher's copy) its answer,
// the reveal and the run's numbers.
QString stepHtml(const Lesson &lesson, int i, const RunResult &run, HandoutCopy copy)
{
    const LessonStep &step = lesson.steps.at(i);
    const int op = lesson::shownOperation(step, run);
    const bool teacher = copy == HandoutCopy::Teacher;
    QString text = QStringLiteral("<h2>%1</h2><p style='font-size:13pt'>%2</p>")
                       .arg(Handout::tr("Step %1 of %2: %3").arg(i + 1).arg(lesson.steps.size())
                                .arg(i18n::content(step.title)).toHtmlEscaped(),
                            i18n::content(step.watch).toHtmlEscaped());
    const LessonQuestion &q = step.question;
    if (q.kind != LessonQuestion::Kind::None) {
        text += QStringLiteral("<p style='font-size:12pt'><b>%1</b> %2</p>")
                    .arg(Handout::tr("Question:"), i18n::content(q.text).toHtmlEscaped());
        if (q.kind == LessonQuestion::Kind::Choice) {
            text += QStringLiteral("<ol type='A'>");
            for (const LessonChoice &c : q.choices)
                text += QStringLiteral("<li>%1</li>").arg(i18n::content(c.text).toHtmlEscaped());
            text += QStringLiteral("</ol>");
        }
        double value = 0;
        QString answer;
        if (teacher && lesson::metricValue(run, op, q.metric, &value)) {
            answer = q.kind == LessonQuestion::Kind::Choice && q.answerChoice >= 0 && q.answerChoice < q.choices.size()
                         ? i18n::content(q.choices.at(q.answerChoice).text)
                         : LessonPlayer::formatNumber(value, q.answer);
        }
        if (!teacher)
            text += predictionLines();
        else if (!answer.isEmpty())
            text += QStringLiteral("<p style='font-size:12pt'><b>%1</b> %2</p>").arg(Handout::tr("Answer:"), answer.toHtmlEscaped());
    }
    if (!teacher)
        return text;
    if (!step.reveal.isEmpty())
        text += QStringLiteral("<p style='font-size:12pt'><i>%1</i></p>").arg(i18n::content(step.reveal).toHtmlEscaped());
    const Metrics &m = run.metrics;
    text += QStringLiteral("<p>%1</p>").arg(Handout::tr("ORD-%1 is shown below. The whole run: %2 operations, %3 HTTP attempts, %4 records, %5 duplicates, %6 orphans (seed %7).")
                                                 .arg(op, 4, 10, QLatin1Char('0'))
                                                 .arg(m.logicalOperations).arg(m.httpAttempts).arg(m.records)
                                                 .arg(m.duplicates).arg(m.orphans).arg(run.scenario.seed)
                                                 .toHtmlEscaped());
    return text;
}

// Whether a step's page shows its timeline: a student's copy leaves out those of steps with a
// question (played to its end, the operation shows the outcome asked about).
bool showsTimeline(const LessonStep &step, HandoutCopy copy)
{
    return copy == HandoutCopy::Teacher || step.question.kind == LessonQuestion::Kind::None;
}

} // namespace

QString writeLessonHandout(const Lesson &lesson, const QList<RunResult> &runs, const QString &fileName, HandoutCopy copy)
{
    if (runs.size() != lesson.steps.size())
        return Handout::tr("the lesson has %1 steps but %2 runs were given").arg(lesson.steps.size()).arg(runs.size());
    if (const QString error = pdfNameError(fileName); !error.isEmpty())
        return error;
    QString error;
    QList<QImage> timelines;
    for (int i = 0; i < runs.size(); ++i) {
        if (!runs.at(i).error.isEmpty())
            return Handout::tr("step %1: %2").arg(i + 1).arg(runs.at(i).error);
        const LessonStep &step = lesson.steps.at(i);
        if (!showsTimeline(step, copy)) {
            timelines << QImage();
            continue;
        }
        timelines << timelineImage(runs.at(i), lesson::shownOperation(step, runs.at(i)), &error, stepSlideTitle(lesson, i));
        if (timelines.last().isNull())
            return error;
    }

    PdfFile pdf(fileName);
    const QString title = copy == HandoutCopy::Student
                              ? Handout::tr("%1 (student's copy)").arg(i18n::content(lesson.title))
                              : i18n::content(lesson.title);
    error = pdf.begin(title);
    if (!error.isEmpty())
        return error;
    QPainter &painter = pdf.painter;
    const QRectF &area = pdf.area;

    // Page 1: the lesson and its steps.
    QString html = QStringLiteral("<h1>%1</h1><p style='font-size:13pt'>%2</p><h3>%3</h3><ol>")
                       .arg(title.toHtmlEscaped(), i18n::content(lesson.summary).toHtmlEscaped(),
                            Handout::tr("Steps"));
    for (const LessonStep &step : lesson.steps)
        html += QStringLiteral("<li style='font-size:12pt'>%1</li>").arg(i18n::content(step.title).toHtmlEscaped());
    html += QStringLiteral("</ol>");
    drawHtml(painter, area, html);

    // Then one step per page: what to watch, the question (and its answer), and the timeline.
    for (int i = 0; i < lesson.steps.size(); ++i) {
        pdf.newPage();
        const QString text = stepHtml(lesson, i, runs.at(i), copy);
        const double used = drawHtml(painter, QRectF(area.topLeft(), QSizeF(area.width(), area.height() * 0.5)), text);
        drawImage(painter, timelines.at(i), area.adjusted(0, used + area.height() * 0.02, 0, 0));
    }
    return pdf.end();
}

} // namespace retrylab
