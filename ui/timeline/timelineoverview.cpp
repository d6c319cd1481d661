#include "timeline/timelineoverview.h"

#include "release.h"
#include "timeline/timelinestyle.h"

#include <QFontMetrics>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <QHash>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <limits>
#include <vector>

namespace retrylab {

using timeline::Colors;
using timeline::Glyph;

namespace {
constexpr int kLabelWidth = 64;
constexpr int kRightPad = 10;
} // namespace

TimelineOverview::TimelineOverview(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(false);
    setCursor(Qt::PointingHandCursor);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Every operation of the run: ticks are HTTP attempts, dots are records "
                  "(orange = duplicate). Click a row to show that operation."));
}

TimelineOverview::Layout TimelineOverview::buildRows(const RunResult &result, const QSet<int> &duplicates)
{
    Layout layout;
    QList<Row> &m_rows = layout.rows;
    qint64 &m_t0 = layout.t0;
    qint64 &m_t1 = layout.t1;
    m_rows.reserve(result.ops.size());
    // Ops are small positive numbers: index rows by op directly (a hash lookup per
    // trace event was a large share of handing a big run to the window).
    std::vector<int> rowOf;
    auto rowFor = [&](int op) -> Row & {
        if (size_t(op) >= rowOf.size())
            rowOf.resize(std::max(size_t(op) + 1, rowOf.size() * 2), -1);
        int &index = rowOf[size_t(op)];
        if (index >= 0)
            return m_rows[index];
        Row r;
        r.op = op;
        r.start = std::numeric_limits<qint64>::max();
        r.end = std::numeric_limits<qint64>::min();
        index = int(m_rows.size());
        m_rows.append(r);
        return m_rows.last();
    };
    for (const OpSummary &s : result.ops) {
        Row &r = rowFor(s.op);
        r.start = qMin(r.start, s.start);
        r.end = qMax(r.end, s.end);
        r.succeeded = s.succeeded;
        r.failed = !s.succeeded;
    }
    for (const TraceEvent &e : result.trace) {
        if (e.op <= 0)
            continue;
        Row &r = rowFor(e.op);
        r.start = qMin(r.start, e.t);
        r.end = qMax(r.end, e.t);
        switch (e.kind) {
        case EventKind::TransportAttempt:
            r.attempts.append(e.t);
            break;
        case EventKind::Committed:
            r.records.append({e.t, duplicates.contains(e.record)});
            r.duplicates += duplicates.contains(e.record) ? 1 : 0;
            break;
        case EventKind::OpFailed:
            r.failed = true;
            break;
        case EventKind::OpSucceeded:
            r.succeeded = true;
            break;
        default:
            break;
        }
    }
    if (result.trace.isEmpty()) {
        // No trace: records still show where duplicates happened.
        for (const RecordRow &rec : result.records) {
            Row &r = rowFor(rec.op);
            r.records.append({rec.t, duplicates.contains(rec.id)});
            r.duplicates += duplicates.contains(rec.id) ? 1 : 0;
        }
    }
    std::sort(m_rows.begin(), m_rows.end(), [](const Row &a, const Row &b) { return a.op < b.op; });
    m_t0 = std::numeric_limits<qint64>::max();
    m_t1 = std::numeric_limits<qint64>::min();
    for (Row &r : m_rows) {
        if (r.start > r.end)
            r.start = r.end = 0;
        m_t0 = qMin(m_t0, r.start);
        m_t1 = qMax(m_t1, r.end);
    }
    if (m_rows.isEmpty()) {
        m_t0 = 0;
        m_t1 = 1;
    }
    if (m_t1 <= m_t0)
        m_t1 = m_t0 + 1;
    return layout;
}

void TimelineOverview::setResult(const RunResult &result, const QSet<int> &duplicates)
{
    const quint64 generation = ++m_generation;
    if (result.trace.size() <= kAsyncEvents) {
        m_indexing = false;
        apply(buildRows(result, duplicates));
        return;
    }
    // One pass over every event of a big run (40,000 orders: 565k events, ~25 ms) stays off the
    // GUI thread; the strip is empty for the moment it takes.
    m_indexing = true;
    apply(Layout());
    auto *watcher = new QFutureWatcher<Layout>(this);
    connect(watcher, &QFutureWatcher<Layout>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer result took over
        m_indexing = false;
        apply(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([result, duplicates] { return buildRows(result, duplicates); }));
}

void TimelineOverview::setLayout(Layout layout)
{
    ++m_generation; // an older result still indexing must not replace these rows
    m_indexing = false;
    apply(std::move(layout));
}

void TimelineOverview::apply(Layout layout)
{
    std::swap(m_rows, layout.rows);
    releaseInBackground(std::move(layout.rows)); // one list per row: slow to free for a big run
    m_t0 = layout.t0;
    m_t1 = layout.t1;
    updateGeometryForRows();
    update();
    if (!m_indexing)
        Q_EMIT rowsReady();
}

void TimelineOverview::setCurrentOperation(int op)
{
    if (m_current == op)
        return;
    m_current = op;
    update();
}

void TimelineOverview::setVisibleHeight(int height)
{
    if (height == m_visibleHeight)
        return;
    m_visibleHeight = qMax(20, height);
    updateGeometryForRows();
}

void TimelineOverview::updateGeometryForRows()
{
    const int n = qMax(1, int(m_rows.size()));
    m_rowH = qBound(kMinRowHeight, m_visibleHeight / n, 16);
    setFixedHeight(qMax(m_visibleHeight, n * m_rowH));
    updateGeometry();
}

QSize TimelineOverview::sizeHint() const
{
    return QSize(400, qMax(m_visibleHeight, int(m_rows.size()) * m_rowH));
}

QSize TimelineOverview::minimumSizeHint() const
{
    return QSize(200, 20);
}

qreal TimelineOverview::xOf(qint64 t) const
{
    const qreal w = qMax(10, width() - kLabelWidth - kRightPad - 6);
    return kLabelWidth + 6 + w * qreal(t - m_t0) / qreal(m_t1 - m_t0);
}

int TimelineOverview::operationAt(const QPoint &pos) const
{
    if (m_rowH <= 0 || pos.y() < 0)
        return 0;
    const int row = pos.y() / m_rowH; // rows are painted at exactly [row * m_rowH, (row + 1) * m_rowH)
    if (row < 0 || row >= m_rows.size())
        return 0;
    return m_rows.at(row).op;
}

int TimelineOverview::rowCenter(int op) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).op == op)
            return i * m_rowH + m_rowH / 2;
    }
    return -1;
}

void TimelineOverview::paintEvent(QPaintEvent *event)
{
    const Colors c = Colors::fromPalette(palette());
    QPainter p(this);
    p.fillRect(event->rect(), c.base);
    if (m_rows.isEmpty()) {
        p.setPen(c.muted);
        p.drawText(rect(), Qt::AlignCenter, tr("No operations yet: run a scenario."));
        return;
    }
    const int first = qMax(0, event->rect().top() / m_rowH);
    const int last = qMin(int(m_rows.size()) - 1, event->rect().bottom() / m_rowH);
    QFont small = font();
    small.setPointSizeF(qMax(7.0, font().pointSizeF() * 0.85));
    p.setFont(small);
    const QFontMetrics fm(small);
    const int labelStride = qMax(1, (fm.height() + m_rowH - 1) / m_rowH);
    const qreal tickH = qMax(2.0, m_rowH * 0.7);
    const qreal dotR = qBound(1.5, m_rowH * 0.32, 4.5);
    for (int i = first; i <= last; ++i) {
        const Row &r = m_rows.at(i);
        const QRectF row(0, i * m_rowH, width(), m_rowH);
        const qreal cy = row.center().y();
        if (r.op == m_current) {
            QColor hl = c.highlight;
            hl.setAlphaF(0.28f);
            p.fillRect(row, hl);
        } else if (i % 2 == 1) {
            p.fillRect(row, c.alternate);
        }
        const bool nearCurrent = labelStride > 1 && r.op != m_current && qAbs(r.op - m_current) < labelStride;
        if ((i % labelStride == 0 && !nearCurrent) || r.op == m_current) {
            p.setPen(r.op == m_current ? c.text : c.muted);
            const qreal top = qBound(0.0, cy - fm.height() / 2.0, qMax(0.0, height() - fm.height() * 1.0));
            p.drawText(QRectF(4, top, kLabelWidth - 8, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                       tr("op %1").arg(r.op));
        }
        const qreal x0 = xOf(r.start);
        const qreal x1 = qMax(x0 + 1, xOf(r.end));
        p.fillRect(QRectF(x0, cy - 0.5, x1 - x0, 1.2), c.grid);
        p.setPen(QPen(c.transport, 1));
        for (const qint64 t : r.attempts) {
            const qreal x = xOf(t);
            p.drawLine(QPointF(x, cy - tickH / 2), QPointF(x, cy + tickH / 2));
        }
        p.setRenderHint(QPainter::Antialiasing, true);
        for (const auto &rec : r.records) {
            const QColor color = rec.second ? c.duplicate : c.ok;
            p.setPen(Qt::NoPen);
            p.setBrush(color);
            p.drawEllipse(QPointF(xOf(rec.first), cy), dotR, dotR);
        }
        if (r.failed && !r.succeeded && m_rowH >= 6)
            timeline::drawGlyph(&p, Glyph::Stop, QPointF(x1 + dotR + 3, cy), dotR + 0.5, c.duplicate, c.base);
        p.setRenderHint(QPainter::Antialiasing, false);
    }
}

void TimelineOverview::mousePressEvent(QMouseEvent *event)
{
    const int op = operationAt(event->position().toPoint());
    if (op > 0 && event->button() == Qt::LeftButton)
        Q_EMIT operationClicked(op);
    QWidget::mousePressEvent(event);
}

QString TimelineOverview::rowToolTip(int op) const
{
    auto it = std::find_if(m_rows.cbegin(), m_rows.cend(), [op](const Row &r) { return r.op == op; });
    if (it == m_rows.cend())
        return QString();
    const int attempts = int(it->attempts.size());
    const int records = int(it->records.size());
    QStringList parts;
    parts << (attempts == 1 ? tr("1 attempt") : tr("%1 attempts").arg(attempts));
    parts << (records == 1 ? tr("1 record") : tr("%1 records").arg(records));
    if (it->duplicates == 1)
        parts << tr("1 duplicate");
    else if (it->duplicates > 1)
        parts << tr("%1 duplicates").arg(it->duplicates);
    else
        parts << tr("no duplicate");
    const QString counts = parts.join(tr(", ", "between the counts of attempts, records, duplicates"));
    if (it->failed && !it->succeeded)
        return tr("Operation %1: %2; the client reported a failure. Click to show it.").arg(op).arg(counts);
    return tr("Operation %1: %2. Click to show it.").arg(op).arg(counts);
}

bool TimelineOverview::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int op = operationAt(help->pos());
        const QString text = op > 0 ? rowToolTip(op) : toolTip();
        const int row = op > 0 ? (help->pos().y() / m_rowH) : -1;
        // The tip belongs to the row: moving to the next row replaces it.
        QToolTip::showText(help->globalPos(), text, this,
                           row >= 0 ? QRect(0, row * m_rowH, width(), m_rowH) : QRect());
        return true;
    }
    return QWidget::event(event);
}

// ------------------------------------------------------------------ legend

TimelineLegend::TimelineLegend(QWidget *parent)
    : QWidget(parent)
{
    // As wide as it is given: a key too long for one line wraps to the next (heightForWidth()),
    // never cut ("wait befor" at 1920x1080 with a lesson open).
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QList<TimelineLegend::Entry> TimelineLegend::entries() const
{
    const Colors c = Colors::fromPalette(palette());
    return {
        {Glyph::Circle, c.ok, tr("record")},
        {Glyph::Circle, c.duplicate, tr("duplicate")},
        {Glyph::Diamond, c.ok, tr("replay")},
        {Glyph::Cross, c.fault, tr("lost / reset")},
        {Glyph::Triangle, c.fault, tr("timeout")},
        {Glyph::Square, c.rejection, tr("rejected / 5xx")},
        {Glyph::Key, c.business, tr("key")},
        {Glyph::Query, c.business, tr("status query")},
        {Glyph::None, c.business, tr("wait before retry")},
    };
}

QList<QPoint> TimelineLegend::placeEntries(const QList<Entry> &list, int width) const
{
    // Each entry: its glyph (a dashed line for the wait), the words, then a gap before the next.
    const QFontMetrics fm(font());
    const int line = fm.height() + 4;
    QList<QPoint> places;
    int x = kMargin, y = 0;
    for (const Entry &e : list) {
        const int w = (e.glyph == Glyph::None ? 28 : 18) + fm.horizontalAdvance(e.text);
        if (x > kMargin && x + w > width - kMargin) {
            x = kMargin;
            y += line;
        }
        places << QPoint(x, y);
        x += w + 18;
    }
    return places;
}

int TimelineLegend::heightForWidth(int width) const
{
    const QList<QPoint> places = placeEntries(entries(), width);
    return (places.isEmpty() ? 0 : places.last().y()) + fontMetrics().height() + 8;
}

bool TimelineLegend::hasHeightForWidth() const
{
    return true;
}

QSize TimelineLegend::sizeHint() const
{
    // One line: as wide as every entry side by side.
    const QList<Entry> list = entries();
    const QList<QPoint> places = placeEntries(list, std::numeric_limits<int>::max() / 2);
    const int last = places.last().x() + (list.last().glyph == Glyph::None ? 28 : 18)
                     + fontMetrics().horizontalAdvance(list.last().text);
    return QSize(last + kMargin, fontMetrics().height() + 8);
}

QSize TimelineLegend::minimumSizeHint() const
{
    return QSize(100, fontMetrics().height() + 8);
}

void TimelineLegend::paintEvent(QPaintEvent *)
{
    const Colors c = Colors::fromPalette(palette());
    const QList<Entry> list = entries();
    const QList<QPoint> places = placeEntries(list, width());
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    for (int i = 0; i < list.size(); ++i) {
        const Entry &e = list.at(i);
        qreal x = places.at(i).x();
        const qreal cy = places.at(i).y() + (fm.height() + 8) / 2.0;
        if (e.glyph == Glyph::None) {
            QPen pen(e.color, 1.8);
            pen.setDashPattern({3, 3});
            p.setPen(pen);
            p.drawLine(QPointF(x, cy), QPointF(x + 22, cy));
            x += 28;
        } else {
            timeline::drawGlyph(&p, e.glyph, QPointF(x + 7, cy), 6, e.color, c.base);
            x += 18;
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QPointF(x, cy + fm.ascent() / 2.0 - 1), e.text);
    }
}

} // namespace retrylab
