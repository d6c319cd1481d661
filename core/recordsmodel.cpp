#include "recordsmodel.h"

#include "release.h"

#include <algorithm>
#include <vector>

namespace retrylab {

RecordsModel::RecordsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RecordsModel::setResult(const RunResult &result)
{
    setRecords(result.records, result.trace);
}

void RecordsModel::setRecords(const QList<RecordRow> &records, const Trace &trace)
{
    setPrepared(prepare(records, trace));
}

void RecordsModel::setPrepared(Prepared prepared)
{
    beginResetModel();
    // The replaced rows are freed on a worker: tens of thousands of records take a while.
    std::swap(m_rows, prepared.rows);
    std::swap(m_rowByRecord, prepared.rowByRecord);
    std::swap(m_recordOfEvent, prepared.recordOfEvent);
    m_duplicates = prepared.duplicates;
    m_duplicateGroups = prepared.duplicateGroups;
    m_flagged = prepared.flagged;
    m_voided = prepared.voided;
    endResetModel();
    releaseInBackground(std::move(prepared));
}

RecordsModel::Prepared RecordsModel::prepare(const QList<RecordRow> &records, const Trace &trace)
{
    Prepared p;
    QHash<int, int> committedAt; // record number -> trace index
    p.recordOfEvent.reserve(trace.size());
    for (int i = 0; i < trace.size(); ++i) {
        const TraceEvent &e = trace.at(i);
        p.recordOfEvent.append(e.record);
        if (e.kind == EventKind::Committed && e.record > 0 && !committedAt.contains(e.record))
            committedAt.insert(e.record, i);
    }

    // Group by ref in the order each ref was first committed, so the table still reads
    // roughly chronologically while keeping duplicates adjacent. Sort indexes on
    // precomputed integer keys: a comparator that hashes strings made large runs crawl.
    QHash<int, int> firstIdOfOp; // the op is the business reference (ORD-0007 is op 7)
    QHash<int, int> countOfOp;
    firstIdOfOp.reserve(records.size());
    for (const RecordRow &r : records) {
        auto it = firstIdOfOp.find(r.op);
        if (it == firstIdOfOp.end())
            firstIdOfOp.insert(r.op, r.id);
        else
            it.value() = std::min(it.value(), r.id);
        countOfOp[r.op] += 1;
    }
    std::vector<int> groupKey(size_t(records.size()));
    std::vector<int> order(size_t(records.size()));
    for (int i = 0; i < records.size(); ++i) {
        groupKey[size_t(i)] = firstIdOfOp.value(records.at(i).op);
        order[size_t(i)] = i;
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const int ga = groupKey[size_t(a)];
        const int gb = groupKey[size_t(b)];
        return ga != gb ? ga < gb : records.at(a).id < records.at(b).id;
    });

    int currentOp = 0;
    int group = -1;
    p.rows.reserve(records.size());
    p.rowByRecord.reserve(records.size());
    for (int i : order) {
        const RecordRow &r = records.at(i);
        Row row;
        row.record = r;
        const bool first = group < 0 || r.op != currentOp;
        if (first) {
            ++group;
            currentOp = r.op;
            if (countOfOp.value(r.op) > 1)
                ++p.duplicateGroups;
        }
        row.group = group;
        row.groupHasDuplicates = countOfOp.value(r.op) > 1;
        p.voided += r.voided ? 1 : 0;
        p.flagged += r.flagged && !r.voided ? 1 : 0;
        if (r.voided)
            row.state = State::Voided;
        else if (r.flagged)
            row.state = State::Flagged;
        else
            row.state = r.duplicate ? State::Duplicate : State::First;
        row.duplicate = r.duplicate;
        if (r.duplicate)
            ++p.duplicates;
        row.traceIndex = committedAt.value(r.id, -1);
        p.rowByRecord.insert(r.id, p.rows.size());
        p.rows.append(row);
    }
    return p;
}

int RecordsModel::rowForTraceIndex(int traceIndex) const
{
    if (traceIndex < 0 || traceIndex >= m_recordOfEvent.size())
        return -1;
    const int record = m_recordOfEvent.at(traceIndex);
    return record > 0 ? rowForRecord(record) : -1;
}

int RecordsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RecordsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RecordsModel::stateName(State state)
{
    switch (state) {
    case State::First: return tr("first");
    case State::Duplicate: return tr("duplicate");
    case State::Flagged: return tr("flagged");
    case State::Voided: return tr("voided");
    }
    return {};
}

QVariant RecordsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const RecordRow &r = row.record;
    switch (role) {
    case StateRole:
        return int(row.state);
    case IsDuplicateRole:
        return row.duplicate;
    case GroupIndexRole:
        return row.group;
    case GroupHasDuplicatesRole:
        return row.groupHasDuplicates;
    case TraceIndexRole:
        return row.traceIndex;
    case RecordIdRole:
        return r.id;
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case IdColumn:
        case OpColumn:
        case TimeColumn:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (Column(index.column())) {
        case IdColumn: return r.id;
        case RefColumn: return r.ref;
        case OpColumn: return r.op;
        case KeyColumn: return r.key;
        case RequestIdColumn: return r.requestId;
        case TimeColumn:
            return role == Qt::EditRole ? QVariant(r.t) : QVariant(QString::number(double(r.t) / 1000.0, 'f', 3));
        case StatusColumn: return stateName(row.state);
        case ColumnCount: break;
        }
        return {};
    default:
        return {};
    }
}

QVariant RecordsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    switch (Column(section)) {
    case IdColumn: return tr("Record");
    case RefColumn: return tr("Business ref");
    case OpColumn: return tr("Op");
    case KeyColumn: return tr("Idempotency key");
    case RequestIdColumn: return tr("Request ID");
    case TimeColumn: return tr("Time (ms)");
    case StatusColumn: return tr("Status");
    case ColumnCount: break;
    }
    return {};
}

} // namespace retrylab
