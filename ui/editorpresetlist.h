#pragma once

#include <QListWidget>
#include <QStyledItemDelegate>

namespace retrylab {

// Draws a preset as its title in bold over its lesson text, wrapped to the list width.
class PresetItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

// The preset catalogue: one entry per embedded scenario, activated by a click.
class PresetList : public QListWidget
{
    Q_OBJECT
public:
    enum Role { NameRole = Qt::UserRole, DescriptionRole };

    explicit PresetList(QWidget *parent = nullptr);

    // Fills the list from scenario::presetNames(); unreadable presets are listed with their error.
    void reload();
    QStringList names() const;
    // Highlights the entry without emitting anything; an unknown name clears the selection.
    void setCurrentName(const QString &name);

Q_SIGNALS:
    void presetActivated(const QString &name);

protected:
    void resizeEvent(QResizeEvent *event) override;
};

} // namespace retrylab
