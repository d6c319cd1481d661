#pragma once

#include <QApplication>
#include <QComboBox>
#include <QPainter>
#include <QStyledItemDelegate>

namespace retrylab {

// A column of choices (a script entry's fault and method, a fault window's fault): drawn like a
// drop-down list, edited with a real one that exists only while editing. Choosing an entry applies
// it at once, like the combo boxes in the rest of the form.
class ChoiceDelegate : public QStyledItemDelegate
{
public:
    ChoiceDelegate(QStringList choices, QString editorName, QObject *parent)
        : QStyledItemDelegate(parent)
        , m_choices(std::move(choices))
        , m_editorName(std::move(editorName))
    {
    }

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &) const override
    {
        auto *combo = new QComboBox(parent);
        combo->setObjectName(m_editorName);
        combo->addItems(m_choices);
        auto *self = const_cast<ChoiceDelegate *>(this);
        connect(combo, &QComboBox::activated, self, [self, combo] { Q_EMIT self->commitData(combo); });
        return combo;
    }

    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        auto *combo = static_cast<QComboBox *>(editor);
        combo->setCurrentIndex(qMax(0, combo->findText(index.data(Qt::EditRole).toString())));
    }

    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override
    {
        model->setData(index, static_cast<QComboBox *>(editor)->currentText());
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        const QWidget *widget = option.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        // Selection and focus as for any cell, then a flat combo box with the fault's name.
        item.text.clear();
        style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);
        QStyleOptionComboBox combo;
        combo.rect = option.rect.adjusted(1, 1, -1, -1);
        combo.state = option.state & (QStyle::State_Enabled | QStyle::State_Active);
        combo.palette = option.palette;
        combo.fontMetrics = option.fontMetrics;
        combo.currentText = index.data().toString();
        combo.frame = false;
        combo.editable = false;
        combo.subControls = QStyle::SC_ComboBoxArrow | QStyle::SC_ComboBoxEditField;
        style->drawComplexControl(QStyle::CC_ComboBox, &combo, painter, widget);
        if (option.state & QStyle::State_Selected)
            combo.palette.setBrush(QPalette::ButtonText, option.palette.highlightedText());
        style->drawControl(QStyle::CE_ComboBoxLabel, &combo, painter, widget);
    }

private:
    QStringList m_choices;
    QString m_editorName;
};

} // namespace retrylab
