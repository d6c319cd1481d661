#pragma once

#include <QAbstractTableModel>
#include <QList>

#include <algorithm>
#include <functional>

namespace retrylab {

// The row list the editor's tables share (network.script, workload.phases, windows): rows of
// editable cells, whole-list replacement, append, and removal of any set of rows. A subclass
// adds its columns, data and setData.
template<class Row>
class EditorRowModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    Qt::ItemFlags flags(const QModelIndex &index) const override
    {
        return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable : Qt::NoItemFlags;
    }

    void setRows(QList<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    const QList<Row> &rows() const { return m_rows; }
    void appendRow(const Row &row)
    {
        const int at = int(m_rows.size());
        beginInsertRows(QModelIndex(), at, at);
        m_rows.append(row);
        endInsertRows();
    }
    // Any order, duplicates allowed; one removal signal per row.
    void removeRowList(QList<int> rows)
    {
        std::sort(rows.begin(), rows.end(), std::greater<int>());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        for (const int row : std::as_const(rows)) {
            if (row < 0 || row >= m_rows.size())
                continue;
            beginRemoveRows(QModelIndex(), row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
    }

protected:
    QList<Row> m_rows;
};

} // namespace retrylab
