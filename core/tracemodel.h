#pragma once

#include "trace.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

namespace retrylab {

// Table of the trace events of one run: the event log and its filters read from it.
class TraceModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, LaneColumn, KindColumn, OpColumn, PathColumn, RequestIdColumn, KeyColumn,
                  StatusColumn, RecordColumn, DetailColumn, ColumnCount };
    enum Role {
        TraceIndexRole = Qt::UserRole + 1, // int: index into RunResult::trace
        LaneRole,                          // int: Lane
        KindRole,                          // int: EventKind
        OpRole,                            // int: logical operation, 0 = none
        RequestIdRole,                     // QString
    };
    Q_ENUM(Column)

    explicit TraceModel(QObject *parent = nullptr);

    void setTrace(const Trace &trace);
    const Trace &trace() const { return m_trace; }
    const TraceEvent &event(int traceIndex) const { return m_trace.at(traceIndex); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Trace m_trace;
};

// Filters the trace by request ID (substring), operation, lanes and kinds.
class TraceFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TraceFilterModel(QObject *parent = nullptr);

    void setRequestIdFilter(const QString &substring);
    QString requestIdFilter() const { return m_requestId; }
    // 0 = every operation.
    void setOpFilter(int op);
    int opFilter() const { return m_op; }
    // Empty = every lane / kind.
    void setLaneFilter(const QList<Lane> &lanes);
    void setKindFilter(const QList<EventKind> &kinds);
    void clearFilters();

    // Proxy row showing this trace index, or -1 when filtered out.
    int rowForTraceIndex(int traceIndex) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_requestId;
    int m_op = 0;
    QSet<int> m_lanes;
    QSet<int> m_kinds;
};

} // namespace retrylab
