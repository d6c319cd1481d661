#pragma once

#include "simulator.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinestyle.h"

#include <QColor>
#include <QList>
#include <QPoint>
#include <QSet>
#include <QWidget>

namespace retrylab {

// One compact row per operation of the whole run: attempt ticks and record dots; a click picks the operation.
// Painted directly (no items) so hundreds of operations stay cheap.
class TimelineOverview : public QWidget
{
    Q_OBJECT
public:
    using Row = OverviewRow;
    // The rows of a run (timelinedata.h: no widget, so that the document holds them).
    using Layout = OverviewLayout;
    static Layout buildRows(const RunResult &result, const QSet<int> &duplicates);

    explicit TimelineOverview(QWidget *parent = nullptr);

    // Results of more than kAsyncEvents trace events are indexed off the GUI thread: the rows
    // appear when ready (rowsReady), a newer result supersedes an older one still indexing.
    void setResult(const RunResult &result, const QSet<int> &duplicates);
    // Rows built elsewhere (buildRows of the result on show): shown at once, rowsReady emitted.
    void setLayout(Layout layout);
    static constexpr qsizetype kAsyncEvents = 20000;
    bool isIndexing() const { return m_indexing; }
    void setCurrentOperation(int op);
    // Height available in the surrounding scroll area; rows shrink to fit it, down to a few pixels.
    void setVisibleHeight(int height);
    int rowCount() const { return int(m_rows.size()); }
    int rowHeight() const { return m_rowH; }
    int operationAt(const QPoint &pos) const;
    // Vertical centre of an operation's row, for tests and scrolling.
    int rowCenter(int op) const;
    // What hovering a row says: operation, attempts, records, duplicates. Empty for an unknown op.
    QString rowToolTip(int op) const;
    static constexpr int kMinRowHeight = 11; // a row stays a target a mouse can hit

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void operationClicked(int op);
    void rowsReady();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    void apply(Layout layout);
    void updateGeometryForRows();
    qreal xOf(qint64 t) const;

    quint64 m_generation = 0;
    bool m_indexing = false;
    QList<Row> m_rows;
    qint64 m_t0 = 0;
    qint64 m_t1 = 1;
    int m_current = 0;
    int m_rowH = 12;
    int m_visibleHeight = 96;
};

// The key to shapes and colours, drawn with the same glyphs as the timeline: one line where it
// fits, wrapped to more where it does not.
class TimelineLegend : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineLegend(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Entry
    {
        timeline::Glyph glyph;
        QColor color;
        QString text;
    };
    static constexpr int kMargin = 4;
    QList<Entry> entries() const;
    // Where each entry's glyph starts (top left of its line) in a key `width` wide.
    QList<QPoint> placeEntries(const QList<Entry> &list, int width) const;
};

} // namespace retrylab
