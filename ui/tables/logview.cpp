#include "tables/logview.h"

#include "common/documentfollower.h"
#include "document/labdocument.h"
#include "tracemodel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace retrylab {

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_model(new TraceModel(this))
    , m_filter(new TraceFilterModel(this))
{
    m_filter->setSourceModel(m_model);

    m_requestId = new QLineEdit;
    m_requestId->setObjectName(QStringLiteral("requestIdFilter"));
    m_requestId->setPlaceholderText(tr("Request ID contains…"));
    m_requestId->setClearButtonEnabled(true);
    m_op = new QSpinBox;
    m_op->setObjectName(QStringLiteral("opFilter"));
    m_op->setRange(0, 0);
    m_op->setSpecialValueText(tr("all ops"));
    m_op->setPrefix(tr("op "));
    m_lane = new QComboBox;
    m_lane->setObjectName(QStringLiteral("laneFilter"));
    m_lane->addItem(tr("All lanes"), -1);
    for (int lane = int(Lane::Business); lane <= int(Lane::Database); ++lane)
        m_lane->addItem(trace::laneName(Lane(lane)), lane);
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("kindFilter"));
    m_kind->addItem(tr("All events"), -1);
    for (int kind = int(EventKind::OpStart); kind < EventKindCount; ++kind)
        m_kind->addItem(trace::kindName(EventKind(kind)), kind);
    m_kind->setMaxVisibleItems(20);
    // As wide as their longest item where there is room, narrower beside the docks on a 1024 px
    // screen (their lists stay whole).
    for (QComboBox *combo : {m_lane, m_kind}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        combo->setMaximumWidth(combo->sizeHint().width());
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(4);
    }
    m_export = new QPushButton(tr("Export JSONL…"));
    m_count = new QLabel;
    m_count->setObjectName(QStringLiteral("eventCount"));

    auto *filters = new QHBoxLayout;
    filters->setContentsMargins(4, 4, 4, 0);
    filters->addWidget(m_requestId, 2);
    filters->addWidget(m_op);
    filters->addWidget(m_lane, 1);
    filters->addWidget(m_kind, 1);
    filters->addWidget(m_count, 1);
    filters->addWidget(m_export);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("logTable"));
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    // Fixed widths from the font: sizing to contents walks every row of a long trace.
    const QFontMetrics fm(font());
    const int digit = fm.horizontalAdvance(QLatin1Char('0'));
    m_table->setColumnWidth(TraceModel::TimeColumn, digit * 12);
    m_table->setColumnWidth(TraceModel::LaneColumn, digit * 11);
    m_table->setColumnWidth(TraceModel::KindColumn, digit * 18);
    m_table->setColumnWidth(TraceModel::OpColumn, digit * 5);
    m_table->setColumnWidth(TraceModel::PathColumn, digit * 14);
    m_table->setColumnWidth(TraceModel::RequestIdColumn, digit * 14);
    m_table->setColumnWidth(TraceModel::KeyColumn, digit * 14);
    m_table->setColumnWidth(TraceModel::StatusColumn, digit * 7);
    m_table->setColumnWidth(TraceModel::RecordColumn, digit * 7);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);

    connect(m_requestId, &QLineEdit::textChanged, this, &LogView::filtersEdited);
    connect(m_op, qOverload<int>(&QSpinBox::valueChanged), this, &LogView::filtersEdited);
    connect(m_lane, qOverload<int>(&QComboBox::currentIndexChanged), this, &LogView::filtersEdited);
    connect(m_kind, qOverload<int>(&QComboBox::currentIndexChanged), this, &LogView::filtersEdited);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &LogView::currentRowChanged);
    connect(m_export, &QPushButton::clicked, this, &LogView::exportWithDialog);
    updateCount();
}

void LogView::setDocument(LabDocument *document)
{
    new DocumentFollower(this, document, DocumentFollower::When::Shown, [this, document] { setResult(document->result()); });
}

void LogView::setResult(const RunResult &result)
{
    m_syncing = true;
    m_model->setTrace(result.trace);
    m_op->setMaximum(std::max<int>(result.scenario.workload.orders, int(result.ops.size())));
    m_syncing = false;
    updateCount();
}

void LogView::setRequestIdFilter(const QString &text)
{
    m_requestId->setText(text);
}

void LogView::setOpFilter(int op)
{
    m_op->setValue(op);
}

void LogView::setLaneFilter(int lane)
{
    m_lane->setCurrentIndex(std::max(0, m_lane->findData(lane)));
}

void LogView::setKindFilter(int kind)
{
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(kind)));
}

void LogView::filtersEdited()
{
    m_syncing = true;
    m_filter->setRequestIdFilter(m_requestId->text().trimmed());
    m_filter->setOpFilter(m_op->value());
    const int lane = m_lane->currentData().toInt();
    m_filter->setLaneFilter(lane < 0 ? QList<Lane>() : QList<Lane>{Lane(lane)});
    const int kind = m_kind->currentData().toInt();
    m_filter->setKindFilter(kind < 0 ? QList<EventKind>() : QList<EventKind>{EventKind(kind)});
    m_syncing = false;
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (current.isValid())
        m_table->scrollTo(current);
    updateCount();
}

int LogView::visibleEventCount() const
{
    return m_filter->rowCount();
}

void LogView::updateCount()
{
    const int shown = m_filter->rowCount();
    const int total = m_model->rowCount();
    const QString all = total == 1 ? tr("1 event") : tr("%1 events").arg(total);
    m_count->setText(shown == total ? all : tr("%1 of %2").arg(shown).arg(all));
}

void LogView::selectEvent(int traceIndex)
{
    const int row = m_filter->rowForTraceIndex(traceIndex);
    m_syncing = true;
    if (row < 0) {
        m_table->selectionModel()->clearSelection();
    } else {
        const QModelIndex index = m_filter->index(row, 0);
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    }
    m_syncing = false;
}

void LogView::currentRowChanged()
{
    if (m_syncing)
        return;
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (current.isValid())
        Q_EMIT eventSelected(current.data(TraceModel::TraceIndexRole).toInt());
}

bool LogView::exportJsonl(const QString &fileName, QString *error) const
{
    Trace shown;
    shown.reserve(m_filter->rowCount());
    for (int row = 0; row < m_filter->rowCount(); ++row)
        shown.append(m_model->event(m_filter->index(row, 0).data(TraceModel::TraceIndexRole).toInt()));
    const QString failure = trace::save(shown, fileName);
    if (!failure.isEmpty()) {
        if (error)
            *error = failure;
        return false;
    }
    return true;
}

void LogView::exportWithDialog()
{
    const QString fileName = QFileDialog::getSaveFileName(this, tr("Export events"), QStringLiteral("trace.jsonl"),
                                                          tr("JSON Lines (*.jsonl)"));
    if (fileName.isEmpty())
        return;
    QString error;
    if (!exportJsonl(fileName, &error))
        QMessageBox::warning(this, tr("Export events"), error);
}

} // namespace retrylab
