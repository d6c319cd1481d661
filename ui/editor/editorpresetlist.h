#pragma once

#include <QListWidget>
#include <QStyledItemDelegate>

class QTimer;

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

// The preset catalogue: one entry per embedded scenario, loaded by a click, Enter, or by moving
// to it with the arrow keys (after a short pause, so holding a key does not load every preset).
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
    // A lesson open: the presets' stories (which state some lessons' answers) give way to their titles.
    void setDescriptionsShown(bool shown);
    bool descriptionsShown() const { return m_descriptionsShown; }

    // How long keyboard navigation rests on an entry before it is loaded.
    static constexpr int KeyboardLoadDelayMs = 150;

Q_SIGNALS:
    void presetActivated(const QString &name);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void activateCurrent();

    QTimer *m_keyboardLoad = nullptr;
    bool m_navigating = false;
    bool m_descriptionsShown = true;
};

} // namespace retrylab
