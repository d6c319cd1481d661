#include "tracemodel.h"

#include "release.h"

#include <QJsonDocument>

namespace retrylab {

TraceModel::TraceModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TraceModel::setTrace(const Trace &trace)
{
    beginResetModel();
    Trace previous = std::exchange(m_trace, trace);
    endResetModel();
    releaseInBackground(std::move(previous)); // a big run's events take long to free
}

int TraceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_trace.size());
}

int TraceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TraceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TraceEvent &e = m_trace.at(index.row());
    switch (role) {
    case TraceIndexRole:
        return index.row();
    case LaneRole:
        return int(e.lane);
    case KindRole:
        return int(e.kind);
    case OpRole:
        return e.op;
    case RequestIdRole:
        return e.requestId();
    case Qt::ToolTipRole:
        return QString::fromUtf8(QJsonDocument(e.toJson()).toJson(QJsonDocument::Indented));
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case TimeColumn:
        case OpColumn:
        case StatusColumn:
        case RecordColumn:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::DisplayRole:
    case Qt::EditRole: {
        // Edit role returns sortable raw values; display role the text.
        const bool raw = role == Qt::EditRole;
        switch (Column(index.column())) {
        case TimeColumn:
            return raw ? QVariant(e.t) : QVariant(QString::number(double(e.t) / 1000.0, 'f', 3));
        case LaneColumn:
            return trace::laneName(e.lane);
        case KindColumn:
            return trace::kindName(e.kind);
        case OpColumn:
            return raw || e.op > 0 ? QVariant(e.op) : QVariant(QString());
        case PathColumn:
            return e.path();
        case RequestIdColumn:
            return e.requestId();
        case KeyColumn:
            return e.key();
        case StatusColumn:
            return raw || e.status > 0 ? QVariant(e.status) : QVariant(QString());
        case RecordColumn:
            return raw || e.record > 0 ? QVariant(e.record) : QVariant(QString());
        case DetailColumn:
            return e.detail();
        case ColumnCount:
            break;
        }
        return {};
    }
    default:
        return {};
    }
}

QVariant TraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    switch (Column(section)) {
    case TimeColumn: return tr("Time (ms)");
    case LaneColumn: return tr("Lane");
    case KindColumn: return tr("Event");
    case OpColumn: return tr("Op");
    case PathColumn: return tr("Attempt");
    case RequestIdColumn: return tr("Request ID");
    case KeyColumn: return tr("Idempotency key");
    case StatusColumn: return tr("Status");
    case RecordColumn: return tr("Record");
    case DetailColumn: return tr("Detail");
    case ColumnCount: break;
    }
    return {};
}

TraceFilterModel::TraceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(Qt::EditRole);
}

void TraceFilterModel::setRequestIdFilter(const QString &substring)
{
    if (substring == m_requestId)
        return;
    m_requestId = substring;
    invalidateRowsFilter();
}

void TraceFilterModel::setOpFilter(int op)
{
    if (op == m_op)
        return;
    m_op = op;
    invalidateRowsFilter();
}

void TraceFilterModel::setLaneFilter(const QList<Lane> &lanes)
{
    QSet<int> set;
    for (Lane lane : lanes)
        set.insert(int(lane));
    if (set == m_lanes)
        return;
    m_lanes = set;
    invalidateRowsFilter();
}

void TraceFilterModel::setKindFilter(const QList<EventKind> &kinds)
{
    QSet<int> set;
    for (EventKind kind : kinds)
        set.insert(int(kind));
    if (set == m_kinds)
        return;
    m_kinds = set;
    invalidateRowsFilter();
}

void TraceFilterModel::clearFilters()
{
    m_requestId.clear();
    m_op = 0;
    m_lanes.clear();
    m_kinds.clear();
    invalidateRowsFilter();
}

int TraceFilterModel::rowForTraceIndex(int traceIndex) const
{
    if (!sourceModel() || traceIndex < 0 || traceIndex >= sourceModel()->rowCount())
        return -1;
    const QModelIndex proxy = mapFromSource(sourceModel()->index(traceIndex, 0));
    return proxy.isValid() ? proxy.row() : -1;
}

bool TraceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    // Called for every event of the run when the trace is reset: without a filter, ask nothing.
    if (m_op == 0 && m_lanes.isEmpty() && m_kinds.isEmpty() && m_requestId.isEmpty())
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_op != 0 && index.data(TraceModel::OpRole).toInt() != m_op)
        return false;
    if (!m_lanes.isEmpty() && !m_lanes.contains(index.data(TraceModel::LaneRole).toInt()))
        return false;
    if (!m_kinds.isEmpty() && !m_kinds.contains(index.data(TraceModel::KindRole).toInt()))
        return false;
    if (!m_requestId.isEmpty()
        && !index.data(TraceModel::RequestIdRole).toString().contains(m_requestId, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace retrylab
