#pragma once

#include <QAbstractTableModel>
#include <QJsonArray>
#include <QList>
#include <QWidget>

class QTableView;
class QPushButton;

namespace retrylab {

// The rows of network.script as typed: (op, request method, attempt path, fault), one small struct
// per row, no widgets, so a script of 10,000 entries loads in milliseconds. The method and fault
// columns are edited with a combo box that exists only while a cell is being edited.
class ScriptTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { OpColumn, MethodColumn, AttemptColumn, FaultColumn, ColumnCount };
    struct Row
    {
        QString op;
        QString attempt;
        QString fault;
        QString method = QStringLiteral("POST");
    };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    void setRows(QList<Row> rows);
    const QList<Row> &rows() const { return m_rows; }
    void appendRow(const Row &row);
    void removeRowList(QList<int> rows); // any order; one signal per row

Q_SIGNALS:
    void edited(); // a cell changed by setData (not by setRows)

private:
    QList<Row> m_rows;
};

// Edits network.script: rows of (op, method, attempt path, fault) that force a fault on exact attempts.
class ScriptTableEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ScriptTableEditor(QWidget *parent = nullptr);

    // The rows as JSON; cells are passed through as typed so the core reports bad ones.
    QJsonArray value() const;
    // Replaces the rows without emitting edited().
    void setValue(const QJsonArray &entries);
    int rowCount() const;
    QTableView *table() const { return m_table; }
    ScriptTableModel *model() const { return m_model; }

public Q_SLOTS:
    void addRow();
    void removeSelectedRows();

Q_SIGNALS:
    void edited();

private:
    void updateButtons();

    ScriptTableModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
};

} // namespace retrylab
