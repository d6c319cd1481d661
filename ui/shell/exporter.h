#pragma once

#include <QObject>
#include <QSize>
#include <QString>

#include <functional>

class QMainWindow;

namespace retrylab {

class ChartsPanel;
class LabDocument;
class RecordsView;
class TimelineWidget;

// File > Export and Lessons > Handout: writes a view of the result on show (or the open lesson's
// handout) to a file, with or without asking for the file name.
class Exporter : public QObject
{
    Q_OBJECT
public:
    // LessonHandoutPdf: the open lesson, one step per page (Lessons > Handout of this lesson).
    enum class Kind { TimelinePng, TimelineSvg, TimelineSlide, ChartsPng, ChartsSvg, RecordsCsv, TraceJsonl, HandoutPdf,
                      LessonHandoutPdf };
    // The size of a slide export: a projector's 1080p.
    static constexpr QSize SlideSize{1920, 1080};

    // The views outlive the exporter.
    Exporter(QMainWindow *window, LabDocument *document, TimelineWidget *timeline, ChartsPanel *charts,
             RecordsView *records);

    // Brings every view up to date before an export (hidden pages are a result behind).
    void setBringUpToDate(std::function<void()> update) { m_bringUpToDate = std::move(update); }
    // The open lesson's name (empty: none open) and its handout writer (empty or the error; a
    // progress dialog over the widget when given).
    void setLessonHandout(std::function<QString()> lessonName,
                          std::function<QString(const QString &fileName, QWidget *progressParent)> writer);

    // Writes the chosen view to a file; the suffix picks nothing, the kind does.
    bool exportTo(Kind kind, const QString &fileName, QString *error = nullptr);
    static QString suffix(Kind kind);

public Q_SLOTS:
    // Asks for the file name (beside the scenario's file, named after it), then writes.
    void exportWithDialog(retrylab::Exporter::Kind kind);

private:
    QString suggestedName(Kind kind) const;

    QMainWindow *m_window;
    LabDocument *m_document;
    TimelineWidget *m_timeline;
    ChartsPanel *m_charts;
    RecordsView *m_records;
    std::function<void()> m_bringUpToDate;
    std::function<QString()> m_lessonName;
    std::function<QString(const QString &, QWidget *)> m_lessonHandout;
};

} // namespace retrylab
