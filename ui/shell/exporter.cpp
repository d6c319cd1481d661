#include "shell/exporter.h"

#include "charts/chartspanel.h"
#include "document/labdocument.h"
#include "lessons/handout.h"
#include "tables/recordsview.h"
#include "timeline/timelinewidget.h"
#include "trace.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>

namespace retrylab {

Exporter::Exporter(QMainWindow *window, LabDocument *document, TimelineWidget *timeline, ChartsPanel *charts,
                   RecordsView *records)
    : QObject(window)
    , m_window(window)
    , m_document(document)
    , m_timeline(timeline)
    , m_charts(charts)
    , m_records(records)
{
}

void Exporter::setLessonHandout(std::function<QString()> lessonName,
                                std::function<QString(const QString &, QWidget *)> writer)
{
    m_lessonName = std::move(lessonName);
    m_lessonHandout = std::move(writer);
}

QString Exporter::suffix(Kind kind)
{
    switch (kind) {
    case Kind::TimelinePng:
    case Kind::TimelineSlide:
    case Kind::ChartsPng:
        return QStringLiteral("png");
    case Kind::TimelineSvg:
    case Kind::ChartsSvg:
        return QStringLiteral("svg");
    case Kind::RecordsCsv:
        return QStringLiteral("csv");
    case Kind::TraceJsonl:
        return QStringLiteral("jsonl");
    case Kind::HandoutPdf:
    case Kind::LessonHandoutPdf:
        return QStringLiteral("pdf");
    }
    return QString();
}

bool Exporter::exportTo(Kind kind, const QString &fileName, QString *error)
{
    if (m_bringUpToDate)
        m_bringUpToDate(); // an export writes what the current result shows
    QString message;
    bool ok = false;
    switch (kind) {
    case Kind::TimelinePng:
    case Kind::TimelineSvg:
        ok = m_timeline->exportImage(fileName, &message);
        break;
    case Kind::TimelineSlide:
        ok = m_timeline->exportImage(fileName, &message, SlideSize);
        break;
    case Kind::ChartsPng:
    case Kind::ChartsSvg:
        ok = m_charts->exportChart(m_charts->currentTab(), fileName, &message);
        break;
    case Kind::RecordsCsv:
        ok = m_records->exportCsv(fileName, &message);
        break;
    case Kind::TraceJsonl:
        message = trace::save(m_document->result().trace, fileName);
        ok = message.isEmpty();
        break;
    case Kind::HandoutPdf:
        message = writeHandout(m_document->result(), m_charts, fileName);
        ok = message.isEmpty();
        break;
    case Kind::LessonHandoutPdf:
        message = m_lessonHandout ? m_lessonHandout(fileName, nullptr) : QString();
        ok = message.isEmpty();
        break;
    }
    if (!ok && error)
        *error = message.isEmpty() ? tr("cannot write \"%1\"").arg(fileName) : message;
    return ok;
}

QString Exporter::suggestedName(Kind kind) const
{
    const QString fileName = m_document->fileName();
    const QString lesson = m_lessonName ? m_lessonName() : QString();
    const QString base = kind == Kind::LessonHandoutPdf && !lesson.isEmpty() ? lesson
                         : fileName.isEmpty()                                 ? m_document->scenario().name
                                                                              : QFileInfo(fileName).completeBaseName();
    QString part;
    switch (kind) {
    case Kind::TimelinePng:
    case Kind::TimelineSvg:
        part = QStringLiteral("-op%1").arg(m_timeline->operation());
        break;
    case Kind::TimelineSlide:
        part = QStringLiteral("-op%1-slide").arg(m_timeline->operation());
        break;
    case Kind::ChartsPng:
    case Kind::ChartsSvg:
        part = QStringLiteral("-chart");
        break;
    case Kind::RecordsCsv:
        part = QStringLiteral("-records");
        break;
    case Kind::TraceJsonl:
        part = QStringLiteral("-trace");
        break;
    case Kind::HandoutPdf:
    case Kind::LessonHandoutPdf:
        part = QStringLiteral("-handout");
        break;
    }
    const QString dir = fileName.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                           : QFileInfo(fileName).absolutePath();
    return QDir(dir).filePath(base + part + QLatin1Char('.') + suffix(kind));
}

void Exporter::exportWithDialog(Kind kind)
{
    const QString ext = suffix(kind);
    QString fileName = QFileDialog::getSaveFileName(m_window, tr("Export"), suggestedName(kind),
                                                    tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (fileName.isEmpty())
        return;
    if (QFileInfo(fileName).suffix().isEmpty())
        fileName += QLatin1Char('.') + ext;
    QString error;
    const bool ok = kind == Kind::LessonHandoutPdf
        ? (error = m_lessonHandout ? m_lessonHandout(fileName, m_window) : QString()).isEmpty()
        : exportTo(kind, fileName, &error);
    if (!ok)
        QMessageBox::warning(m_window, tr("Export failed"), error);
    else
        m_window->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(fileName)), 4000);
}

} // namespace retrylab
