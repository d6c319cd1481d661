// The table models behind the event log and the records table, on real preset runs.
#include "recordsmodel.h"
#include "simulator.h"
#include "tracemodel.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include "testsupport.h"

#include <QTest>

#include <functional>

using namespace retrylab;
using retrylab::test::runPreset;

namespace {


void addPresetRows()
{
    QTest::addColumn<QString>("preset");
    const QStringList names = scenario::presetNames();
    for (const QString &name : names)
        QTest::addRow("%s", qPrintable(name)) << name;
}

int countIf(const Trace &trace, const std::function<bool(const TraceEvent &)> &pred)
{
    int n = 0;
    for (const TraceEvent &e : trace)
        n += pred(e) ? 1 : 0;
    return n;
}

} // namespace

class TestModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void traceModelTester_data() { addPresetRows(); }
    void traceModelTester();
    void traceModelColumns();
    void filters_data();
    void filters();
    void recordsModelTester_data() { addPresetRows(); }
    void recordsModelTester();
    void recordsGrouped_data();
    void recordsGrouped();
    void recordsTraceIndex_data() { addPresetRows(); }
    void recordsTraceIndex();
    void reconciliationStates();
};

void TestModels::traceModelTester()
{
    QFETCH(QString, preset);
    const RunResult r = runPreset(preset);
    QVERIFY(!r.trace.isEmpty());

    TraceModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    TraceFilterModel filter;
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    model.setTrace(r.trace);
    QCOMPARE(model.rowCount(), r.trace.size());
    QCOMPARE(filter.rowCount(), r.trace.size());

    // Filter changes and a second reset under the testers' eyes.
    filter.setOpFilter(1);
    filter.setLaneFilter({Lane::Server});
    filter.setRequestIdFilter(QStringLiteral("req-"));
    filter.sort(TraceModel::TimeColumn, Qt::DescendingOrder);
    filter.clearFilters();
    QCOMPARE(filter.rowCount(), r.trace.size());
    model.setTrace(Trace());
    QCOMPARE(filter.rowCount(), 0);
    model.setTrace(r.trace);
    QCOMPARE(filter.rowCount(), r.trace.size());
}

void TestModels::traceModelColumns()
{
    const RunResult r = runPreset(QStringLiteral("ghost-request"));
    TraceModel model;
    model.setTrace(r.trace);
    QCOMPARE(model.columnCount(), int(TraceModel::ColumnCount));
    int committed = -1;
    for (int i = 0; i < r.trace.size() && committed < 0; ++i)
        if (r.trace.at(i).kind == EventKind::Committed && r.trace.at(i).t > 0)
            committed = i;
    QVERIFY(committed >= 0);
    const TraceEvent &e = r.trace.at(committed);
    const auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(committed, column).data(role); };
    QCOMPARE(cell(TraceModel::TimeColumn).toString(), QString::number(double(e.t) / 1000.0, 'f', 3));
    QCOMPARE(cell(TraceModel::TimeColumn).toString().section(QLatin1Char('.'), 1).size(), 3);
    QCOMPARE(cell(TraceModel::LaneColumn).toString(), trace::laneName(e.lane));
    QCOMPARE(cell(TraceModel::KindColumn).toString(), trace::kindName(e.kind));
    QCOMPARE(cell(TraceModel::OpColumn).toInt(), e.op);
    QCOMPARE(cell(TraceModel::PathColumn).toString(), e.path());
    QCOMPARE(cell(TraceModel::RequestIdColumn).toString(), e.requestId());
    QCOMPARE(cell(TraceModel::RecordColumn).toInt(), e.record);
    QCOMPARE(cell(TraceModel::KindColumn, TraceModel::TraceIndexRole).toInt(), committed);
    // The tooltip is the event itself, as one JSON object.
    const QString tip = cell(TraceModel::DetailColumn, Qt::ToolTipRole).toString();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(tip.toUtf8(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QVERIFY(doc.isObject());
    QCOMPARE(TraceEvent::fromJson(doc.object()), e);
}

void TestModels::filters_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("op");
    QTest::addRow("ghost-request-op-2") << QStringLiteral("ghost-request") << 2;
    QTest::addRow("concurrent-race-op-1") << QStringLiteral("concurrent-race") << 1;
    QTest::addRow("correlation-ids-op-3") << QStringLiteral("correlation-ids") << 3;
    QTest::addRow("retry-storm-op-5") << QStringLiteral("retry-storm") << 5;
}

void TestModels::filters()
{
    QFETCH(QString, preset);
    QFETCH(int, op);
    const RunResult r = runPreset(preset);
    TraceModel model;
    model.setTrace(r.trace);
    TraceFilterModel filter;
    filter.setSourceModel(&model);

    // By operation.
    filter.setOpFilter(op);
    const int opCount = countIf(r.trace, [&](const TraceEvent &e) { return e.op == op; });
    QVERIFY(opCount > 0);
    QVERIFY(opCount < r.trace.size());
    QCOMPARE(filter.rowCount(), opCount);
    for (int row = 0; row < filter.rowCount(); ++row)
        QCOMPARE(r.trace.at(filter.index(row, 0).data(TraceModel::TraceIndexRole).toInt()).op, op);
    filter.clearFilters();

    // By request ID: a substring of one event's ID, matched case-insensitively.
    QString requestId;
    for (const TraceEvent &e : r.trace)
        if (e.op == op && !e.requestId().isEmpty()) {
            requestId = e.requestId();
            break;
        }
    QVERIFY(!requestId.isEmpty());
    const QString needle = requestId.right(6).toUpper();
    filter.setRequestIdFilter(needle);
    const int idCount = countIf(r.trace, [&](const TraceEvent &e) { return e.requestId().contains(needle, Qt::CaseInsensitive); });
    QVERIFY(idCount > 0);
    QCOMPARE(filter.rowCount(), idCount);
    filter.clearFilters();

    // By lanes (a set) and kinds (a set).
    filter.setLaneFilter({Lane::Server, Lane::Database});
    const int laneCount = countIf(r.trace, [](const TraceEvent &e) { return e.lane == Lane::Server || e.lane == Lane::Database; });
    QCOMPARE(filter.rowCount(), laneCount);
    filter.setLaneFilter({});
    filter.setKindFilter({EventKind::Committed, EventKind::Timeout});
    const int kindCount = countIf(r.trace, [](const TraceEvent &e) {
        return e.kind == EventKind::Committed || e.kind == EventKind::Timeout;
    });
    QVERIFY(kindCount > 0);
    QCOMPARE(filter.rowCount(), kindCount);

    // Filters combine with AND.
    filter.setOpFilter(op);
    const int both = countIf(r.trace, [&](const TraceEvent &e) {
        return e.op == op && (e.kind == EventKind::Committed || e.kind == EventKind::Timeout);
    });
    QCOMPARE(filter.rowCount(), both);

    // rowForTraceIndex agrees with the rows shown.
    for (int row = 0; row < filter.rowCount(); ++row) {
        const int traceIndex = filter.index(row, 0).data(TraceModel::TraceIndexRole).toInt();
        QCOMPARE(filter.rowForTraceIndex(traceIndex), row);
    }
    int hidden = -1;
    for (int i = 0; i < r.trace.size() && hidden < 0; ++i)
        if (r.trace.at(i).op != op)
            hidden = i;
    QCOMPARE(filter.rowForTraceIndex(hidden), -1);
}

void TestModels::recordsModelTester()
{
    QFETCH(QString, preset);
    const RunResult r = runPreset(preset);
    RecordsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(r);
    QCOMPARE(model.rowCount(), r.records.size());
    model.setResult(RunResult());
    QCOMPARE(model.rowCount(), 0);
    model.setResult(r);
    QCOMPARE(model.rowCount(), r.records.size());
}

void TestModels::recordsGrouped_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("expectDuplicates");
    const QStringList names = scenario::presetNames();
    for (const QString &name : names)
        QTest::addRow("%s", qPrintable(name)) << name << false;
    // Presets whose lesson is a duplicate: the grouping must have something to show.
    QTest::addRow("ghost-request-must-duplicate") << QStringLiteral("ghost-request") << true;
    QTest::addRow("rotating-key-must-duplicate") << QStringLiteral("rotating-key") << true;
}

void TestModels::recordsGrouped()
{
    QFETCH(QString, preset);
    QFETCH(bool, expectDuplicates);
    const RunResult r = runPreset(preset);
    RecordsModel model;
    model.setResult(r);
    if (expectDuplicates)
        QVERIFY(r.metrics.duplicates > 0);

    QSet<QString> closedRefs;
    QString currentRef;
    int previousGroup = -1;
    int previousId = 0;
    int duplicates = 0;
    QSet<int> ids;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row, 0);
        const QString ref = model.index(row, RecordsModel::RefColumn).data().toString();
        const int id = model.index(row, RecordsModel::IdColumn).data().toInt();
        const int group = index.data(RecordsModel::GroupIndexRole).toInt();
        const bool duplicate = index.data(RecordsModel::IsDuplicateRole).toBool();
        ids.insert(id);
        if (ref != currentRef) {
            // A new group: its ref never appeared before (all records of a ref are adjacent).
            QVERIFY2(!closedRefs.contains(ref), qPrintable(ref));
            if (row > 0)
                closedRefs.insert(currentRef);
            currentRef = ref;
            QCOMPARE(group, previousGroup + 1);
            QVERIFY(!duplicate);
        } else {
            QCOMPARE(group, previousGroup);
            QVERIFY(duplicate);
            QVERIFY(id > previousId); // the first of a ref is its earliest record
            QVERIFY(index.data(RecordsModel::GroupHasDuplicatesRole).toBool());
            QVERIFY(model.index(row - 1, 0).data(RecordsModel::GroupHasDuplicatesRole).toBool());
        }
        duplicates += duplicate ? 1 : 0;
        previousGroup = group;
        previousId = id;
    }
    QCOMPARE(ids.size(), r.records.size());
    QCOMPARE(duplicates, r.metrics.duplicates);
    QCOMPARE(model.duplicateCount(), r.metrics.duplicates);
}

void TestModels::recordsTraceIndex()
{
    QFETCH(QString, preset);
    const RunResult r = runPreset(preset);
    RecordsModel model;
    model.setResult(r);
    for (int row = 0; row < model.rowCount(); ++row) {
        const int id = model.index(row, 0).data(RecordsModel::RecordIdRole).toInt();
        const int traceIndex = model.index(row, 0).data(RecordsModel::TraceIndexRole).toInt();
        QVERIFY2(traceIndex >= 0 && traceIndex < r.trace.size(), qPrintable(QString::number(id)));
        QCOMPARE(r.trace.at(traceIndex).kind, EventKind::Committed);
        QCOMPARE(r.trace.at(traceIndex).record, id);
        QCOMPARE(model.rowForTraceIndex(traceIndex), row);
    }
    // Records without their trace (a loaded table, say): no event to point at.
    RunResult untraced = r;
    untraced.trace.clear();
    model.setResult(untraced);
    QCOMPARE(model.rowCount(), r.records.size());
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.index(row, 0).data(RecordsModel::TraceIndexRole).toInt(), -1);
    QCOMPARE(model.rowForTraceIndex(0), -1);
}

void TestModels::reconciliationStates()
{
    const RunResult r = runPreset(QStringLiteral("reconciliation"));
    RecordsModel model;
    model.setResult(r);
    int voided = 0;
    int flagged = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto state = RecordsModel::State(model.index(row, 0).data(RecordsModel::StateRole).toInt());
        const RecordRow &rec = model.record(row);
        QCOMPARE(state == RecordsModel::State::Voided, rec.voided);
        if (!rec.voided)
            QCOMPARE(state == RecordsModel::State::Flagged, rec.flagged);
        voided += rec.voided;
        flagged += rec.flagged;
        QCOMPARE(model.index(row, RecordsModel::StatusColumn).data().toString(), RecordsModel::stateName(state));
    }
    QVERIFY(voided + flagged > 0);
    QCOMPARE(voided, r.metrics.voided);
    QCOMPARE(model.voidedCount(), voided);
}

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
