#include "editor/editorpresetlist.h"
#include "i18n.h"

#include "scenario.h"

#include <QApplication>
#include <QKeyEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QTextLayout>
#include <QTimer>

namespace retrylab {

namespace {
constexpr int Margin = 8;
constexpr int TitleGap = 3;

QFont titleFont(const QFont &base)
{
    QFont f = base;
    f.setBold(true);
    f.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() * 1.08 : base.pointSizeF());
    return f;
}

int textWidth(const QStyleOptionViewItem &option)
{
    int width = option.rect.width();
    if (const auto *view = qobject_cast<const QAbstractItemView *>(option.widget))
        width = view->viewport()->width();
    return qMax(80, width - 2 * Margin);
}

QRect wrappedRect(const QFont &font, int width, const QString &text)
{
    if (text.isEmpty())
        return QRect();
    return QFontMetrics(font).boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, text);
}
} // namespace

void PresetItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString title = opt.text;
    const QString description = index.data(PresetList::DescriptionRole).toString();
    opt.text.clear();
    const QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    QColor text = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);

    const int width = opt.rect.width() - 2 * Margin;
    const QFont tf = titleFont(opt.font);
    const QRect titleBox = wrappedRect(tf, width, title);
    painter->save();
    painter->setPen(text);
    painter->setFont(tf);
    QRect r(opt.rect.left() + Margin, opt.rect.top() + Margin, width, titleBox.height());
    painter->drawText(r, Qt::TextWordWrap, title);
    if (!description.isEmpty()) {
        // The lesson text is secondary: a softer tone of the same text colour.
        if (!selected)
            text.setAlphaF(0.78);
        painter->setPen(text);
        painter->setFont(opt.font);
        const QRect descBox = wrappedRect(opt.font, width, description);
        painter->drawText(QRect(r.left(), r.bottom() + 1 + TitleGap, width, descBox.height()), Qt::TextWordWrap,
                          description);
    }
    painter->restore();
}

QSize PresetItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int width = textWidth(option);
    const QString title = index.data(Qt::DisplayRole).toString();
    const QString description = index.data(PresetList::DescriptionRole).toString();
    int height = wrappedRect(titleFont(option.font), width, title).height();
    if (!description.isEmpty())
        height += TitleGap + wrappedRect(option.font, width, description).height();
    return QSize(width + 2 * Margin, height + 2 * Margin);
}

PresetList::PresetList(QWidget *parent)
    : QListWidget(parent)
{
    setItemDelegate(new PresetItemDelegate(this));
    setWordWrap(true);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(false);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAccessibleName(tr("Presets"));
    m_keyboardLoad = new QTimer(this);
    m_keyboardLoad->setSingleShot(true);
    m_keyboardLoad->setInterval(KeyboardLoadDelayMs);
    connect(m_keyboardLoad, &QTimer::timeout, this, &PresetList::activateCurrent);
    // A click loads at once (again, if the entry is already loaded: back to the preset's settings).
    connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        m_keyboardLoad->stop();
        Q_EMIT presetActivated(item->data(NameRole).toString());
    });
    // Only keyboard moves load here: a click has its own signal, and focusing the list or
    // setCurrentName (signals blocked) must not load anything.
    connect(this, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *current) {
        if (m_navigating && current)
            m_keyboardLoad->start();
    });
    reload();
}

void PresetList::reload()
{
    const QSignalBlocker blocker(this);
    clear();
    const QStringList presets = scenario::presetNames();
    for (const QString &name : presets) {
        const ScenarioParse parsed = scenario::preset(name);
        auto *item = new QListWidgetItem(this);
        item->setData(NameRole, name);
        if (parsed.ok()) {
            const QString title = parsed.scenario.title.isEmpty() ? name : i18n::content(parsed.scenario.title);
            item->setText(title);
            item->setData(DescriptionRole,
                          m_descriptionsShown ? i18n::content(parsed.scenario.description) : QString());
            item->setToolTip(name);
        } else {
            item->setText(name);
            item->setData(DescriptionRole, parsed.errors.join(QLatin1Char('\n')));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        }
    }
}

void PresetList::setDescriptionsShown(bool shown)
{
    if (shown == m_descriptionsShown)
        return;
    m_descriptionsShown = shown;
    const QString current = currentItem() ? currentItem()->data(NameRole).toString() : QString();
    reload();
    setCurrentName(current);
}

QStringList PresetList::names() const
{
    QStringList result;
    for (int i = 0; i < count(); ++i)
        result << item(i)->data(NameRole).toString();
    return result;
}

void PresetList::setCurrentName(const QString &name)
{
    const QSignalBlocker blocker(this);
    for (int i = 0; i < count(); ++i) {
        if (item(i)->data(NameRole).toString() == name) {
            setCurrentRow(i);
            scrollToItem(item(i), QAbstractItemView::PositionAtTop);
            return;
        }
    }
    clearSelection();
    setCurrentRow(-1);
}

void PresetList::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        m_keyboardLoad->stop();
        activateCurrent();
        event->accept();
        return;
    }
    m_navigating = true;
    QListWidget::keyPressEvent(event);
    m_navigating = false;
}

void PresetList::activateCurrent()
{
    if (QListWidgetItem *item = currentItem(); item && (item->flags() & Qt::ItemIsEnabled))
        Q_EMIT presetActivated(item->data(NameRole).toString());
}

void PresetList::resizeEvent(QResizeEvent *event)
{
    QListWidget::resizeEvent(event);
    // Wrapped heights depend on the width: ask the delegate again.
    if (event->oldSize().width() != event->size().width()) {
        doItemsLayout();
        // Heights changed, so the current lesson moved: keep it in sight.
        if (currentItem())
            scrollToItem(currentItem(), QAbstractItemView::PositionAtTop);
    }
}

} // namespace retrylab
