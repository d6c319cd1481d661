#pragma once

#include "editor/editorrowmodel.h"

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
struct ScriptTableRow
{
    QString op;
    QString attempt;
    QString fault;
    QString method = QStringLiteral("POST");
};

class ScriptTableModel : public EditorRowModel<ScriptTableRow>
{
    Q_OBJECT
public:
    enum Column { OpColumn, MethodColumn, AttemptColumn, FaultColumn, ColumnCount };
    using Row = ScriptTableRow;

    using EditorRowModel::EditorRowModel;

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void edited(); // a cell changed by setData (not by setRows)
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
