#include "editorscripttable.h"

#include "scenario.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace retrylab {

namespace {
enum Column { OpColumn, AttemptColumn, FaultColumn };

QComboBox *faultCombo(QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    for (int i = 0; i <= int(FaultKind::Throttle429); ++i)
        combo->addItem(scenario::toString(FaultKind(i)));
    return combo;
}
} // namespace

ScriptTableEditor::ScriptTableEditor(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 3, this))
    , m_add(new QPushButton(tr("Add fault"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    m_table->setHorizontalHeaderLabels({tr("Op"), tr("Attempt"), tr("Fault")});
    m_table->horizontalHeaderItem(OpColumn)->setToolTip(tr("Operation number, or * for every operation"));
    m_table->horizontalHeaderItem(AttemptColumn)->setToolTip(tr("Attempt path b/w/t, e.g. b1/w1/t1; * matches any"));
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(OpColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(AttemptColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(FaultColumn, QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + 4 * m_table->fontMetrics().height() * 2);
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
    connect(m_table, &QTableWidget::itemChanged, this, [this] { Q_EMIT edited(); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ScriptTableEditor::updateButtons);
    updateButtons();
}

QJsonArray ScriptTableEditor::value() const
{
    QJsonArray entries;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString opText = m_table->item(row, OpColumn) ? m_table->item(row, OpColumn)->text().trimmed() : QString();
        bool isNumber = false;
        const int op = opText.toInt(&isNumber);
        const QString attempt = m_table->item(row, AttemptColumn) ? m_table->item(row, AttemptColumn)->text().trimmed()
                                                                  : QString();
        const auto *combo = qobject_cast<QComboBox *>(m_table->cellWidget(row, FaultColumn));
        entries.append(QJsonObject{
            {QStringLiteral("op"), isNumber ? QJsonValue(op) : QJsonValue(opText)},
            {QStringLiteral("attempt"), attempt},
            {QStringLiteral("fault"), combo ? combo->currentText() : QString()},
        });
    }
    return entries;
}

void ScriptTableEditor::setValue(const QJsonArray &entries)
{
    const QSignalBlocker blocker(this);
    const QSignalBlocker tableBlocker(m_table);
    m_table->setRowCount(0);
    for (const QJsonValue &v : entries) {
        const QJsonObject o = v.toObject();
        appendRow(o.value(QStringLiteral("op")), o.value(QStringLiteral("attempt")).toString(),
                  o.value(QStringLiteral("fault")).toString());
    }
    updateButtons();
}

int ScriptTableEditor::rowCount() const
{
    return m_table->rowCount();
}

void ScriptTableEditor::addRow()
{
    {
        const QSignalBlocker tableBlocker(m_table);
        appendRow(QJsonValue(1), QStringLiteral("b1/w1/t1"), scenario::toString(FaultKind::ResponseLost));
    }
    m_table->setCurrentCell(m_table->rowCount() - 1, OpColumn);
    updateButtons();
    Q_EMIT edited();
}

void ScriptTableEditor::removeSelectedRows()
{
    QList<int> rows;
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &index : selected)
        rows << index.row();
    if (rows.isEmpty() && m_table->currentRow() >= 0)
        rows << m_table->currentRow();
    if (rows.isEmpty())
        return;
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    {
        const QSignalBlocker tableBlocker(m_table);
        for (int row : rows)
            m_table->removeRow(row);
    }
    updateButtons();
    Q_EMIT edited();
}

void ScriptTableEditor::appendRow(const QJsonValue &op, const QString &attempt, const QString &fault)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QString opText = op.isDouble() ? QString::number(op.toInt()) : op.toString(QStringLiteral("*"));
    m_table->setItem(row, OpColumn, new QTableWidgetItem(opText));
    m_table->setItem(row, AttemptColumn, new QTableWidgetItem(attempt));
    QComboBox *combo = faultCombo(m_table);
    const int index = combo->findText(fault);
    combo->setCurrentIndex(index >= 0 ? index : 0);
    connect(combo, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT edited(); });
    m_table->setCellWidget(row, FaultColumn, combo);
}

void ScriptTableEditor::updateButtons()
{
    m_remove->setEnabled(m_table->rowCount() > 0);
}

} // namespace retrylab
