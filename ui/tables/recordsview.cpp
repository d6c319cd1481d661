#include "tables/recordsview.h"

#include "common/documentfollower.h"
#include "document/labdocument.h"
#include "recordsmodel.h"

#include <QApplication>
#include <QEvent>
#include <QFileDialog>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QVBoxLayout>

namespace retrylab {

namespace {

QColor blend(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

// A warning sign: the shape carries the meaning for readers who cannot tell the tint.
QIcon warningIcon(const QColor &fill, const QColor &mark)
{
    QIcon icon;
    for (int size : {16, 24, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        const qreal s = size;
        QPainterPath triangle;
        triangle.moveTo(s / 2, s * 0.06);
        triangle.lineTo(s * 0.97, s * 0.92);
        triangle.lineTo(s * 0.03, s * 0.92);
        triangle.closeSubpath();
        p.fillPath(triangle, fill);
        p.setPen(QPen(mark, std::max(1.5, s / 9), Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(s / 2, s * 0.36), QPointF(s / 2, s * 0.62));
        p.drawPoint(QPointF(s / 2, s * 0.78));
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

QString csvField(const QString &value)
{
    if (!value.contains(QLatin1Char(',')) && !value.contains(QLatin1Char('"')) && !value.contains(QLatin1Char('\n'))
        && !value.contains(QLatin1Char('\r')))
        return value;
    QString quoted = value;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

// Turns the model's record states into colours, fonts and icons from the current palette.
class RecordsStyleProxy : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    void setPalette(const QPalette &palette, const QFont &font)
    {
        const bool dark = palette.color(QPalette::Window).lightness() < 128;
        const QColor orange(0xE6, 0x9F, 0x00);
        m_warningTint = blend(palette.color(QPalette::Base), orange, dark ? 0.30 : 0.28);
        m_mutedText = palette.color(QPalette::PlaceholderText);
        m_icon = warningIcon(orange, QColor(0x20, 0x20, 0x20));
        m_bold = font;
        m_bold.setBold(true);
        m_struck = font;
        m_struck.setStrikeOut(true);
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid())
            return {};
        const QModelIndex source = mapToSource(index);
        const auto state = RecordsModel::State(source.data(RecordsModel::StateRole).toInt());
        const bool duplicate = source.data(RecordsModel::IsDuplicateRole).toBool();
        switch (role) {
        case Qt::BackgroundRole:
            if (duplicate)
                return m_warningTint;
            break;
        case Qt::ForegroundRole:
            if (state == RecordsModel::State::Voided)
                return m_mutedText;
            break;
        case Qt::FontRole:
            if (state == RecordsModel::State::Voided)
                return m_struck;
            if (source.data(RecordsModel::GroupHasDuplicatesRole).toBool())
                return m_bold;
            break;
        case Qt::DecorationRole:
            if (duplicate && index.column() == RecordsModel::StatusColumn)
                return m_icon;
            break;
        case Qt::ToolTipRole:
            if (duplicate)
                return RecordsView::tr("A second record for %1: the service committed this order again.")
                    .arg(source.siblingAtColumn(RecordsModel::RefColumn).data().toString());
            break;
        default:
            break;
        }
        return QIdentityProxyModel::data(index, role);
    }

private:
    QColor m_warningTint;
    QColor m_mutedText;
    QIcon m_icon;
    QFont m_bold;
    QFont m_struck;
};

RecordsView::RecordsView(QWidget *parent)
    : QWidget(parent)
    , m_model(new RecordsModel(this))
    , m_proxy(new RecordsStyleProxy(this))
{
    m_proxy->setSourceModel(m_model);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("recordsTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("recordsSummary"));
    m_export = new QPushButton(tr("Export CSV…"));
    auto *top = new QHBoxLayout;
    top->setContentsMargins(6, 4, 4, 0);
    top->addWidget(m_summary, 1);
    top->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &RecordsView::currentRowChanged);
    connect(m_export, &QPushButton::clicked, this, &RecordsView::exportWithDialog);
    m_proxy->setPalette(palette(), font());

    // Fixed widths from the font: sizing to contents walks every row.
    const QFontMetrics fm(font());
    const int digit = fm.horizontalAdvance(QLatin1Char('0'));
    m_table->setColumnWidth(RecordsModel::IdColumn, digit * 8);
    m_table->setColumnWidth(RecordsModel::RefColumn, digit * 14);
    m_table->setColumnWidth(RecordsModel::OpColumn, digit * 6);
    m_table->setColumnWidth(RecordsModel::KeyColumn, digit * 22);
    m_table->setColumnWidth(RecordsModel::RequestIdColumn, digit * 18);
    m_table->setColumnWidth(RecordsModel::TimeColumn, digit * 13);
    updateSummary();
}

RecordsView::~RecordsView() = default;

void RecordsView::setDocument(LabDocument *document)
{
    new DocumentFollower(this, document, DocumentFollower::When::Shown, [this, document] { document->showRecords(this); });
}

void RecordsView::setResult(const RunResult &result)
{
    setPrepared(RecordsModel::prepare(result.records, result.trace));
}

void RecordsView::setPrepared(RecordsModel::Prepared prepared)
{
    m_syncing = true;
    m_model->setPrepared(std::move(prepared));
    m_syncing = false;
    updateSummary();
}

void RecordsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        m_proxy->setPalette(palette(), font());
}

QString RecordsView::summary() const
{
    // Spelled out: the app ships no English plural forms for %n.
    const auto counted = [](int n, const QString &one, const QString &many) { return (n == 1 ? one : many).arg(n); };
    const int records = m_model->rowCount();
    const QString text = counted(records, tr("%1 record"), tr("%1 records"));
    const int duplicates = m_model->duplicateCount();
    if (duplicates == 0)
        return records > 0 ? tr("%1, no duplicates").arg(text) : text;
    const QString dups = counted(duplicates, tr("%1 duplicate"), tr("%1 duplicates"));
    const QString refs = counted(m_model->duplicateGroupCount(), tr("%1 ref"), tr("%1 refs"));
    if (m_model->voidedCount() > 0 || m_model->flaggedCount() > 0)
        return tr("%1, %2 in %3 (reconciliation: %4 voided, %5 flagged)")
            .arg(text, dups, refs)
            .arg(m_model->voidedCount())
            .arg(m_model->flaggedCount());
    return tr("%1, %2 in %3").arg(text, dups, refs);
}

void RecordsView::updateSummary()
{
    m_summary->setText(summary());
}

void RecordsView::selectEvent(int traceIndex)
{
    const int row = m_model->rowForTraceIndex(traceIndex);
    m_syncing = true;
    if (row < 0) {
        m_table->selectionModel()->clearSelection();
    } else {
        const QModelIndex index = m_proxy->index(row, 0);
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    }
    m_syncing = false;
}

void RecordsView::currentRowChanged()
{
    if (m_syncing)
        return;
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    const int traceIndex = current.data(RecordsModel::TraceIndexRole).toInt();
    if (traceIndex >= 0)
        Q_EMIT eventSelected(traceIndex);
}

bool RecordsView::exportCsv(const QString &fileName, QString *error) const
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(fileName, file.errorString());
        return false;
    }
    QString out = QStringLiteral("id,ref,op,key,requestId,timeMs,status\n");
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const RecordRow &r = m_model->record(row);
        const QStringList fields{
            QString::number(r.id),
            csvField(r.ref),
            QString::number(r.op),
            csvField(r.key),
            csvField(r.requestId),
            QString::number(double(r.t) / 1000.0, 'f', 3),
            RecordsModel::stateName(m_model->state(row)),
        };
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    file.write(out.toUtf8());
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(fileName, file.errorString());
        return false;
    }
    return true;
}

void RecordsView::exportWithDialog()
{
    const QString fileName = QFileDialog::getSaveFileName(this, tr("Export records"), QStringLiteral("records.csv"),
                                                          tr("CSV files (*.csv)"));
    if (fileName.isEmpty())
        return;
    QString error;
    if (!exportCsv(fileName, &error))
        QMessageBox::warning(this, tr("Export records"), error);
}

} // namespace retrylab
