#pragma once

#include "simulator.h"

#include <QAbstractTableModel>
#include <QHash>

namespace retrylab {

// The committed order records of one run, grouped by business reference so that
// duplicates sit next to the record they duplicate. Views pick the colours.
class RecordsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IdColumn, RefColumn, OpColumn, KeyColumn, RequestIdColumn, TimeColumn, StatusColumn,
                  ColumnCount };
    // first: the earliest record of its ref; duplicate: a later one; flagged / voided:
    // a duplicate that reconciliation found (and voided).
    enum class State { First, Duplicate, Flagged, Voided };
    enum Role {
        StateRole = Qt::UserRole + 1,  // int: State
        IsDuplicateRole,               // bool: not the first record of its ref
        GroupIndexRole,                // int: 0-based index of the ref group (row order)
        GroupHasDuplicatesRole,        // bool: the ref has more than one record
        TraceIndexRole,                // int: index of the Committed event in the trace, -1 if none
        RecordIdRole,                  // int: record number
    };
    Q_ENUM(Column)

private:
    struct Row
    {
        RecordRow record;
        State state = State::First;
        int group = 0;
        bool duplicate = false;
        bool groupHasDuplicates = false;
        int traceIndex = -1;
    };

public:
    // The table of one run, computed without the model: prepare() is a pure function that
    // a worker thread may call, setPrepared() swaps the rows in (no pass over the run).
    struct Prepared
    {
        QList<Row> rows;
        QHash<int, int> rowByRecord;
        QList<int> recordOfEvent; // trace index -> record number (0 = none)
        int duplicates = 0;
        int duplicateGroups = 0;
        int flagged = 0;
        int voided = 0;
    };
    static Prepared prepare(const QList<RecordRow> &records, const Trace &trace);

    explicit RecordsModel(QObject *parent = nullptr);

    void setResult(const RunResult &result);
    void setRecords(const QList<RecordRow> &records, const Trace &trace);
    void setPrepared(Prepared prepared);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const RecordRow &record(int row) const { return m_rows.at(row).record; }
    State state(int row) const { return m_rows.at(row).state; }
    int traceIndex(int row) const { return m_rows.at(row).traceIndex; }
    // Row of the record a trace event refers to (its record number), or -1.
    int rowForTraceIndex(int traceIndex) const;
    int rowForRecord(int recordId) const { return m_rowByRecord.value(recordId, -1); }

    int duplicateCount() const { return m_duplicates; }
    int duplicateGroupCount() const { return m_duplicateGroups; }
    int flaggedCount() const { return m_flagged; }
    int voidedCount() const { return m_voided; }

    static QString stateName(State state);

private:
    QList<Row> m_rows;
    QHash<int, int> m_rowByRecord;
    QList<int> m_recordOfEvent; // trace index -> record number (0 = none)
    int m_duplicates = 0;
    int m_duplicateGroups = 0;
    int m_flagged = 0;
    int m_voided = 0;
};

} // namespace retrylab
