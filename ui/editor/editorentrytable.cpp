#include "editor/editorentrytable.h"

#include "editor/editorchoicedelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace retrylab {

// ------------------------------------------------------------------ model

EntryTableModel::EntryTableModel(QList<EntryColumn> columns, QObject *parent)
    : EditorRowModel(parent), m_columns(std::move(columns))
{
}

int EntryTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant EntryTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size()
        || (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole))
        return QVariant();
    return m_rows.at(index.row()).value(index.column()); // the tool tip: a cell's whole text, when cut off
}

bool EntryTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= m_columns.size() || role != Qt::EditRole)
        return false;
    QString &cell = m_rows[index.row()][index.column()];
    const QString text = value.toString();
    if (cell == text)
        return true;
    cell = text;
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    Q_EMIT edited();
    return true;
}

QVariant EntryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
        return QVariant();
    if (role == Qt::DisplayRole)
        return m_columns.at(section).header;
    if (role == Qt::ToolTipRole)
        return m_columns.at(section).toolTip;
    return QVariant();
}

// ------------------------------------------------------------------ editor

EntryTableEditor::EntryTableEditor(QList<EntryColumn> columns, QStringList newRow, const QString &addText,
                                   QWidget *parent)
    : QWidget(parent)
    , m_model(new EntryTableModel(std::move(columns), this))
    , m_table(new QTableView(this))
    , m_add(new QPushButton(addText, this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_newRow(std::move(newRow))
{
    m_table->setModel(m_model);
    m_table->verticalHeader()->setVisible(false);
    QHeaderView *header = m_table->horizontalHeader();
    const QFontMetrics fm = m_table->fontMetrics();
    const QList<EntryColumn> &cols = m_model->columns();
    for (int c = 0; c < cols.size(); ++c) {
        const EntryColumn &column = cols.at(c);
        if (!column.choices.isEmpty())
            m_table->setItemDelegateForColumn(c, new ChoiceDelegate(column.choices, column.key + QStringLiteral("Editor"),
                                                                    m_table));
        if (column.sample.isEmpty()) {
            header->setSectionResizeMode(c, QHeaderView::Stretch);
        } else {
            header->setSectionResizeMode(c, QHeaderView::Interactive);
            header->resizeSection(c, qMax(fm.horizontalAdvance(column.sample) + 12, header->sectionSizeHint(c) + 4));
        }
    }
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked
                             | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    // Room for three rows: phases and windows are short lists.
    m_table->setMinimumHeight(header->sizeHint().height() + 3 * (fm.height() + 10));
    m_table->setMaximumHeight(header->sizeHint().height() + 6 * (fm.height() + 10));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addLayout(buttons);

    connect(m_add, &QPushButton::clicked, this, &EntryTableEditor::addRow);
    connect(m_remove, &QPushButton::clicked, this, &EntryTableEditor::removeSelectedRows);
    connect(m_model, &EntryTableModel::edited, this, &EntryTableEditor::edited);
    connect(m_model, &QAbstractItemModel::modelReset, this, &EntryTableEditor::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &EntryTableEditor::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &EntryTableEditor::updateButtons);
    updateButtons();
}

QJsonArray EntryTableEditor::value() const
{
    QJsonArray entries;
    const QList<EntryColumn> &columns = m_model->columns();
    for (const QStringList &row : m_model->rows()) {
        QJsonObject entry;
        for (int c = 0; c < columns.size(); ++c) {
            const QString text = row.value(c).trimmed();
            if (!columns.at(c).choices.isEmpty()) {
                entry.insert(columns.at(c).key, text);
                continue;
            }
            bool isNumber = false;
            const double number = text.toDouble(&isNumber);
            entry.insert(columns.at(c).key, isNumber ? QJsonValue(number) : QJsonValue(text));
        }
        entries.append(entry);
    }
    return entries;
}

void EntryTableEditor::setValue(const QJsonArray &entries)
{
    const QList<EntryColumn> &columns = m_model->columns();
    QList<QStringList> rows;
    rows.reserve(entries.size());
    for (const QJsonValue &v : entries) {
        const QJsonObject o = v.toObject();
        QStringList row;
        for (const EntryColumn &column : columns) {
            const QJsonValue cell = o.value(column.key);
            row << (cell.isDouble() ? QString::number(cell.toDouble(), 'g', QLocale::FloatingPointShortest)
                                    : cell.toString());
        }
        rows << row;
    }
    m_model->setRows(std::move(rows));
}

int EntryTableEditor::rowCount() const
{
    return m_model->rowCount();
}

void EntryTableEditor::addRow()
{
    // A new row starts where the last one ends, so two rows never overlap by default.
    QStringList row = m_newRow;
    const QList<EntryColumn> &columns = m_model->columns();
    const int from = int(std::find_if(columns.begin(), columns.end(), [](const EntryColumn &c) {
                             return c.key == QLatin1String("fromS");
                         }) - columns.begin());
    const int to = int(std::find_if(columns.begin(), columns.end(), [](const EntryColumn &c) {
                           return c.key == QLatin1String("toS");
                       }) - columns.begin());
    if (m_model->rowCount() > 0 && from < columns.size() && to < columns.size()) {
        bool okFrom = false, okTo = false, okLast = false;
        const double length = row.value(to).toDouble(&okTo) - row.value(from).toDouble(&okFrom);
        const double last = m_model->rows().constLast().value(to).toDouble(&okLast);
        if (okFrom && okTo && okLast) {
            row[from] = QString::number(last, 'g', QLocale::FloatingPointShortest);
            row[to] = QString::number(last + length, 'g', QLocale::FloatingPointShortest);
        }
    }
    m_model->appendRow(row);
    const QModelIndex added = m_model->index(m_model->rowCount() - 1, 0);
    m_table->setCurrentIndex(added);
    m_table->scrollTo(added);
    Q_EMIT edited();
}

void EntryTableEditor::removeSelectedRows()
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

void EntryTableEditor::updateButtons()
{
    m_remove->setEnabled(m_model->rowCount() > 0);
}

} // namespace retrylab
