#pragma once

#include "editor/editorrowmodel.h"

#include <QAbstractTableModel>
#include <QJsonArray>
#include <QList>
#include <QStringList>
#include <QWidget>

class QTableView;
class QPushButton;

namespace retrylab {

// One column of an EntryTableEditor: a JSON key of each entry, edited as a number or a choice.
struct EntryColumn
{
    QString key;          // "fromS"
    QString header;       // "From s"
    QString toolTip;
    QStringList choices;  // empty: a number
    QString sample;       // text that sets the column's width ("86400"); empty: the column stretches
};

// The rows of a short list of objects (workload.phases, windows) as typed text, one QStringList per row.
class EntryTableModel : public EditorRowModel<QStringList>
{
    Q_OBJECT
public:
    EntryTableModel(QList<EntryColumn> columns, QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const QList<EntryColumn> &columns() const { return m_columns; }

Q_SIGNALS:
    void edited(); // a cell changed by setData (not by setRows)

private:
    QList<EntryColumn> m_columns;
};

// Edits a list setting of objects with an Add and a Remove button, as the script table does.
// Cells go to the core as typed (a number when the text is one), so the core names a bad one.
class EntryTableEditor : public QWidget
{
    Q_OBJECT
public:
    // newRow: the cells of a row that Add appends.
    EntryTableEditor(QList<EntryColumn> columns, QStringList newRow, const QString &addText,
                     QWidget *parent = nullptr);

    QJsonArray value() const;
    // Replaces the rows without emitting edited().
    void setValue(const QJsonArray &entries);
    int rowCount() const;
    QTableView *table() const { return m_table; }
    EntryTableModel *model() const { return m_model; }
    QPushButton *addButton() const { return m_add; }

public Q_SLOTS:
    void addRow();
    void removeSelectedRows();

Q_SIGNALS:
    void edited();

private:
    void updateButtons();

    EntryTableModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QStringList m_newRow;
};

} // namespace retrylab
