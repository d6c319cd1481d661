#pragma once

#include <QJsonArray>
#include <QWidget>

class QTableWidget;
class QPushButton;

namespace retrylab {

// Edits network.script: rows of (op, attempt path, fault) that force a fault on exact attempts.
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
    QTableWidget *table() const { return m_table; }

public Q_SLOTS:
    void addRow();
    void removeSelectedRows();

Q_SIGNALS:
    void edited();

private:
    void appendRow(const QJsonValue &op, const QString &attempt, const QString &fault);
    void updateButtons();

    QTableWidget *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
};

} // namespace retrylab
