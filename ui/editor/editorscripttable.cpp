#include "editor/editorscripttable.h"
#include "scenario/schema.h"

#include "editor/editorchoicedelegate.h"
#include "scenario.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace retrylab {

namespace {

// The choices of a script entry's keys, from the field table.
QStringList faultNames()
{
    return scenario::fieldSpec(QStringLiteral("network.script[N].fault"))->choices;
}

QStringList methodNames()
{
    return scenario::fieldSpec(QStringLiteral("network.script[N].method"))->choices;
}

} // namespace

// ------------------------------------------------------------------ model

int ScriptTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScriptTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size() || (role != Qt::DisplayRole && role != Qt::EditRole))
        return QVariant();
    const Row &row = m_rows.at(index.row());
    switch (index.column()) {
    case OpColumn:
        return row.op;
    case MethodColumn:
        return row.method;
    case AttemptColumn:
        return row.attempt;
    case FaultColumn:
        return row.fault;
    default:
        return QVariant();
    }
}

bool ScriptTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.row() >= m_rows.size() || role != Qt::EditRole)
        return false;
    Row &row = m_rows[index.row()];
    QString *cell = &row.fault;
    if (index.column() == OpColumn)
        cell = &row.op;
    else if (index.column() == MethodColumn)
        cell = &row.method;
    else if (index.column() == AttemptColumn)
        cell = &row.attempt;
    const QString text = value.toString();
    if (*cell == text)
        return true;
    *cell = text;
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    Q_EMIT edited();
    return true;
}

QVariant ScriptTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QVariant();
    if (role == Qt::DisplayRole) {
        switch (section) {
        case OpColumn:
            return tr("Op");
        case MethodColumn:
            return tr("Request");
        case AttemptColumn:
            return tr("Attempt");
        case FaultColumn:
            return tr("Fault");
        default:
            return QVariant();
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case OpColumn:
            return tr("Operation number, or * for every operation");
        case MethodColumn:
            return tr("POST: the order's attempts. GET: the status query before business attempt b "
                      "(path bN/w1/tQ, Q counting the query's own HTTP attempts)");
        case AttemptColumn:
            return tr("Attempt path b/w/t, e.g. b1/w1/t1; * matches any");
        case FaultColumn:
            return tr("The fault forced on that attempt; double-click to choose another");
        default:
            return QVariant();
        }
    }
    return QVariant();
}

// ------------------------------------------------------------------ editor

ScriptTableEditor::ScriptTableEditor(QWidget *parent)
    : QWidget(parent)
    , m_model(new ScriptTableModel(this))
    , m_table(new QTableView(this))
    , m_add(new QPushButton(tr("Add fault"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    m_table->setModel(m_model);
    m_table->setItemDelegateForColumn(ScriptTableModel::FaultColumn,
                                      new ChoiceDelegate(faultNames(), QStringLiteral("faultEditor"), m_table));
    m_table->setItemDelegateForColumn(ScriptTableModel::MethodColumn,
                                      new ChoiceDelegate(methodNames(), QStringLiteral("methodEditor"), m_table));
    m_table->verticalHeader()->setVisible(false);
    // Fixed widths from the font: sizing columns to their contents would measure every row.
    QHeaderView *header = m_table->horizontalHeader();
    const QFontMetrics fm = m_table->fontMetrics();
    header->setSectionResizeMode(ScriptTableModel::OpColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(ScriptTableModel::MethodColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(ScriptTableModel::AttemptColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(ScriptTableModel::FaultColumn, QHeaderView::Stretch);
    header->resizeSection(ScriptTableModel::OpColumn,
                          qMax(fm.horizontalAdvance(QStringLiteral("0000")), header->sectionSizeHint(0)) + 8);
    header->resizeSection(ScriptTableModel::MethodColumn,
                          qMax(fm.horizontalAdvance(QStringLiteral("POST")) + 32, header->sectionSizeHint(1) + 8));
    header->resizeSection(ScriptTableModel::AttemptColumn, fm.horizontalAdvance(QStringLiteral("b10/w10/t10")) + 12);
    // The fault takes the rest.
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked
                             | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_table->setMinimumHeight(header->sizeHint().height() + 4 * fm.height() * 2);
    m_table->setAccessibleName(tr("Scripted faults"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addLayout(buttons);

    connect(m_add, &QPushButton::clicked, this, &ScriptTableEditor::addRow);
    connect(m_remove, &QPushButton::clicked, this, &ScriptTableEditor::removeSelectedRows);
    connect(m_model, &ScriptTableModel::edited, this, &ScriptTableEditor::edited);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ScriptTableEditor::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &ScriptTableEditor::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &ScriptTableEditor::updateButtons);
    updateButtons();
}

QJsonArray ScriptTableEditor::value() const
{
    QJsonArray entries;
    for (const ScriptTableModel::Row &row : m_model->rows()) {
        const QString opText = row.op.trimmed();
        bool isNumber = false;
        const int op = opText.toInt(&isNumber);
        entries.append(QJsonObject{
            {QStringLiteral("op"), isNumber ? QJsonValue(op) : QJsonValue(opText)},
            {QStringLiteral("attempt"), row.attempt.trimmed()},
            {QStringLiteral("fault"), row.fault},
            {QStringLiteral("method"), row.method},
        });
    }
    return entries;
}

void ScriptTableEditor::setValue(const QJsonArray &entries)
{
    const QStringList faults = faultNames();
    QList<ScriptTableModel::Row> rows;
    rows.reserve(entries.size());
    for (const QJsonValue &v : entries) {
        const QJsonObject o = v.toObject();
        const QJsonValue op = o.value(QStringLiteral("op"));
        const QString fault = o.value(QStringLiteral("fault")).toString();
        rows.append({op.isDouble() ? QString::number(op.toInt()) : op.toString(QStringLiteral("*")),
                     o.value(QStringLiteral("attempt")).toString(), faults.contains(fault) ? fault : faults.value(0),
                     o.value(QStringLiteral("method")).toString(scenario::toString(ScriptMethod::Post))});
    }
    m_model->setRows(std::move(rows));
}

int ScriptTableEditor::rowCount() const
{
    return m_model->rowCount();
}

void ScriptTableEditor::addRow()
{
    m_model->appendRow({QStringLiteral("1"), QStringLiteral("b1/w1/t1"), scenario::toString(FaultKind::ResponseLost),
                        scenario::toString(ScriptMethod::Post)});
    const QModelIndex added = m_model->index(m_model->rowCount() - 1, ScriptTableModel::OpColumn);
    m_table->setCurrentIndex(added);
    m_table->scrollTo(added);
    Q_EMIT edited();
}

void ScriptTableEditor::removeSelectedRows()
{
    QList<int> rows;
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &index : selected)
        rows << index.row();
    if (rows.isEmpty() && m_table->currentIndex().isValid())
        rows << m_table->currentIndex().row();
    if (rows.isEmpty())
        return;
    m_model->removeRowList(rows);
    Q_EMIT edited();
}

void ScriptTableEditor::updateButtons()
{
    m_remove->setEnabled(m_model->rowCount() > 0);
}

} // namespace retrylab
