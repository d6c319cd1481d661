// Each preset teaches one lesson: the outcome of design section 4 must hold, and two presets
// are pinned to golden trace hashes so any change of behaviour is a deliberate one.
#include "simulator.h"
#include "story.h"
#include "trace.h"

#include <algorithm>

#include <QSet>
#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using retrylab::test::presetScenario;

namespace {


Scenario with(const Scenario &s, const char *path, const QJsonValue &v)
{
    const ScenarioParse p = scenario::withValue(s, QLatin1String(path), v);
    if (!p.ok())
        qFatal("%s: %s", path, qPrintable(p.errors.join(QLatin1Char('\n'))));
    return p.scenario;
}

int count(const Trace &t, EventKind k)
{
    int n = 0;
    for (const TraceEvent &e : t)
        n += e.kind == k;
    return n;
}

} // namespace

class TestPresets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyPresetRunsWithoutLoss_data();
    void everyPresetRunsWithoutLoss();
    void ghostRequest();
    void layeredFixAtAnyLossRate_data();
    void layeredFixAtAnyLossRate();
    void stableKey();
    void rotatingKey();
    void payloadMismatch();
    void concurrentRace();
    void keyExpiry();
    void queryBeforeRetry();
    void serverToken();
    void serverTokenQuery();
    void keyStoreRestart();
    void reconciliation();
    void retryStorm();
    void correlationIds();
    void goldenTraces_data();
    void goldenTraces();
    void storyOperation();
    void storyOperationCarriesTheLesson_data();
    void storyOperationCarriesTheLesson();
    void interestingOperations();
    void outcomeSaysWhatTheServerHolds();
    void jitterContention();
    void lessonsAboutLoad();
    void metastable();
};

void TestPresets::everyPresetRunsWithoutLoss_data()
{
    QTest::addColumn<QString>("name");
    const QStringList names = scenario::presetNames();
    QCOMPARE(names.size(), 16);
    for (const QString &n : names)
        QTest::addRow("%s", qPrintable(n)) << n;
}

void TestPresets::everyPresetRunsWithoutLoss()
{
    QFETCH(QString, name);
    const Scenario s = presetScenario(name);
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.lost, 0);
    QVERIFY(r.metrics.maxAttemptsPerOp <= r.metrics.worstCaseAttemptsPerOp);
    QVERIFY(!r.trace.isEmpty());
    QCOMPARE(trace::hash(simulate(s).trace), trace::hash(r.trace));
}

void TestPresets::ghostRequest()
{
    const Scenario s = presetScenario(QStringLiteral("ghost-request"));
    QCOMPARE(s.worstCaseAttemptsPerOp(), 9);
    QCOMPARE(s.worstCaseFormula(), QStringLiteral("3 x 3 = 9"));
    const RunResult r = simulate(s);
    QVERIFY(r.metrics.duplicates > 0);
    QCOMPARE(r.metrics.worstCaseAttemptsPerOp, 9);
    // The wrapper's retries alone make duplicates: switch it off and fewer orders double.
    const RunResult noWrapper = simulate(with(s, "client.wrapper.enabled", false));
    QVERIFY(noWrapper.metrics.httpAttempts < r.metrics.httpAttempts);
}

void TestPresets::layeredFixAtAnyLossRate_data()
{
    QTest::addColumn<double>("loss");
    for (double loss : {0.0, 0.3, 0.6, 0.9})
        QTest::addRow("loss-%.1f", loss) << loss;
}

void TestPresets::layeredFixAtAnyLossRate()
{
    QFETCH(double, loss);
    Scenario s = with(presetScenario(QStringLiteral("layered-fix")), "network.responseLoss", loss);
    for (quint64 seed = 1; seed <= 5; ++seed) {
        s.seed = seed;
        const RunResult r = simulate(s);
        QCOMPARE(r.metrics.duplicates, 0);
        if (loss > 0)
            QVERIFY(r.metrics.replays > 0);
    }
    // The same loss without the fix duplicates orders.
    if (loss >= 0.3) {
        s = with(s, "client.keyPlacement", QStringLiteral("none"));
        s = with(s, "server.idempotency.requireKey", false);
        QVERIFY(simulate(s).metrics.duplicates > 0);
    }
}

void TestPresets::stableKey()
{
    const RunResult r = simulate(presetScenario(QStringLiteral("stable-key")));
    QCOMPARE(r.metrics.records, 1);
    QCOMPARE(r.metrics.replays, 1);
    QCOMPARE(r.metrics.clientSucceeded, 1);
    bool replayHeader = false;
    for (const TraceEvent &e : r.trace)
        replayHeader |= e.kind == EventKind::ResponseSent && e.detail().contains(QLatin1String("Idempotent-Replayed: true"));
    QVERIFY(replayHeader);
}

void TestPresets::rotatingKey()
{
    const RunResult r = simulate(presetScenario(QStringLiteral("rotating-key")));
    QCOMPARE(r.metrics.records, 2);
    QCOMPARE(r.metrics.duplicates, 1);
    QCOMPARE(r.metrics.replays, 0);
}

void TestPresets::payloadMismatch()
{
    const RunResult r = simulate(presetScenario(QStringLiteral("payload-mismatch")));
    QCOMPARE(r.metrics.mismatch422, 1);
    QCOMPARE(r.metrics.records, 1);
}

void TestPresets::concurrentRace()
{
    const Scenario naive = presetScenario(QStringLiteral("concurrent-race"));
    QCOMPARE(naive.server.idempotency.mode, IdempotencyMode::Naive);
    const RunResult n = simulate(naive);
    QCOMPARE(n.metrics.records, 2 * naive.workload.orders);
    const RunResult a = simulate(with(naive, "server.idempotency.mode", QStringLiteral("atomic")));
    QCOMPARE(a.metrics.records, naive.workload.orders);
    QVERIFY(a.metrics.conflicts409 >= 1);
}

void TestPresets::keyExpiry()
{
    const RunResult r = simulate(presetScenario(QStringLiteral("key-expiry")));
    QVERIFY(r.metrics.duplicates >= 1);
    QVERIFY(count(r.trace, EventKind::KeyExpired) >= 1);
}

void TestPresets::queryBeforeRetry()
{
    const Scenario s = presetScenario(QStringLiteral("query-before-retry"));
    for (quint64 seed = 1; seed <= 5; ++seed) {
        Scenario v = s;
        v.seed = seed;
        const RunResult r = simulate(v);
        QCOMPARE(r.metrics.duplicates, 0);
        QVERIFY(r.metrics.timeouts > 0);
        QVERIFY(r.metrics.queries > 0);
    }
    QVERIFY(simulate(with(s, "client.queryBeforeRetry", false)).metrics.duplicates > 0);
}

void TestPresets::serverToken()
{
    const Scenario s = presetScenario(QStringLiteral("server-token"));
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.duplicates, 0);
    QVERIFY(r.metrics.timeouts > 0);
    QVERIFY(count(r.trace, EventKind::TokenIssued) >= s.workload.orders);
    // Single use: a retry after a lost response gets 409, and the client gives up on an order
    // that exists.
    QVERIFY(r.metrics.conflicts409 > 0);
    QVERIFY(r.metrics.orphans > 0);
    QCOMPARE(r.metrics.replays, 0);
    // Replaying used tokens turns every orphan into a success.
    const RunResult replay = simulate(with(s, "server.idempotency.tokenReuse", QStringLiteral("replay")));
    QCOMPARE(replay.metrics.duplicates, 0);
    QCOMPARE(replay.metrics.orphans, 0);
    QCOMPARE(replay.metrics.conflicts409, 0);
    QVERIFY(replay.metrics.replays > 0);
}

void TestPresets::serverTokenQuery()
{
    // The same run as server-token, but a status query after each 409 finds the order.
    const Scenario s = presetScenario(QStringLiteral("server-token-query"));
    const RunResult r = simulate(s);
    const RunResult orphaned = simulate(presetScenario(QStringLiteral("server-token")));
    QCOMPARE(r.metrics.duplicates, 0);
    QCOMPARE(r.metrics.orphans, 0);
    QVERIFY(orphaned.metrics.orphans > 0);
    QVERIFY(r.metrics.conflicts409 > 0);
    QVERIFY(r.metrics.queries > 0);
    QCOMPARE(r.metrics.clientSucceeded, s.workload.orders);
}

void TestPresets::keyStoreRestart()
{
    const Scenario s = presetScenario(QStringLiteral("key-store-restart"));
    const RunResult r = simulate(s);
    // The one order committed before the restart is inserted again by its retry.
    QCOMPARE(r.metrics.duplicates, 1);
    QCOMPARE(r.records.size() > 0 ? r.ops.at(2).records : 0, 2); // ORD-0003
    // A durable store keeps the key: the retry is replayed.
    const RunResult durable = simulate(with(s, "server.idempotency.store", QStringLiteral("durable")));
    QCOMPARE(durable.metrics.duplicates, 0);
    QVERIFY(durable.metrics.replays > 0);
}

void TestPresets::reconciliation()
{
    const RunResult r = simulate(presetScenario(QStringLiteral("reconciliation")));
    QVERIFY(r.metrics.duplicates > 0);
    QCOMPARE(r.metrics.duplicatesOutstanding, 0);
    QCOMPARE(r.metrics.voided, r.metrics.duplicates);
    // Outstanding duplicates fall to 0 only after the job ran: before its first pass they exist.
    qint64 firstVoid = -1;
    for (const TraceEvent &e : r.trace)
        if (e.kind == EventKind::ReconcileVoided && firstVoid < 0)
            firstVoid = e.t;
    QVERIFY(firstVoid > 0);
}

void TestPresets::retryStorm()
{
    const Scenario s = presetScenario(QStringLiteral("retry-storm"));
    const Metrics storm = simulate(s).metrics;
    const Metrics budget = simulate(with(s, "client.retryBudget.enabled", true)).metrics;
    QVERIFY2(storm.amplification > 10, qPrintable(QString::number(storm.amplification)));
    QVERIFY(budget.amplification < 2);
    QVERIFY(budget.goodputPerS > 3 * storm.goodputPerS);
    QVERIFY(budget.budgetRefusals > 0);
    // The lesson's causes, each checked: arrivals above capacity (100 a second against 4 slots of
    // 40-60 ms) ...
    const double arrivalsPerS = 1000.0 * s.workload.clients / s.workload.interArrivalMs;
    const double capacityPerS = s.server.capacity * 1000.0 / (s.server.processingMs.base + s.server.processingMs.jitter / 2.0);
    QCOMPARE(arrivalsPerS, 100.0);
    QCOMPARE(capacityPerS, 80.0);
    // ... without any retries the same overload is over in about 7 s, a quarter of the orders failed ...
    Scenario none = s;
    none.client.business.enabled = none.client.wrapper.enabled = none.client.transport.enabled = false;
    const Metrics plain = simulate(none).metrics;
    QVERIFY2(plain.durationS < 8, qPrintable(QString::number(plain.durationS)));
    QVERIFY2(plain.clientFailed > 600 / 5 && plain.clientFailed < 600 / 3, qPrintable(QString::number(plain.clientFailed)));
    // ... the latency spikes are not the cause ...
    const Metrics noSpikes = simulate(with(s, "network.latencySpike", 0)).metrics;
    QVERIFY2(noSpikes.amplification > 10, qPrintable(QString::number(noSpikes.amplification)));
    QVERIFY(noSpikes.durationS > 45);
    // ... and a budget shared by every client stops it sooner than one per client.
    Scenario global = with(s, "client.retryBudget.enabled", true);
    global.client.retryBudget.scope = BudgetScope::Global;
    const Metrics shared = simulate(global).metrics;
    QVERIFY2(shared.amplification < budget.amplification && shared.durationS < budget.durationS,
             qPrintable(QStringLiteral("%1 %2 / %3 %4").arg(shared.amplification).arg(shared.durationS)
                            .arg(budget.amplification).arg(budget.durationS)));
}

void TestPresets::lessonsAboutLoad()
{
    QStringList aboutLoad;
    for (const QString &name : scenario::presetNames())
        if (isAboutLoad(presetScenario(name)))
            aboutLoad << name;
    QCOMPARE(aboutLoad, (QStringList{QStringLiteral("retry-storm"), QStringLiteral("jitter-contention"),
                                     QStringLiteral("metastable")}));
    // Each sign on its own.
    Scenario s;
    QVERIFY(!isAboutLoad(s));
    s.workload.mode = WorkloadMode::Closed;
    s.workload.clients = 2;
    QVERIFY(isAboutLoad(s));
    s = Scenario();
    s.workload.orders = 499;
    QVERIFY(!isAboutLoad(s));
    s.workload.orders = 500;
    QVERIFY(isAboutLoad(s));
    s = Scenario();
    s.windows = {FaultWindow{}};
    QVERIFY(isAboutLoad(s));
    s = Scenario();
    s.server.model = ServerModel::Occ;
    QVERIFY(isAboutLoad(s));
}

void TestPresets::jitterContention()
{
    // Every number of the lesson text, from the preset and the one setting it names.
    const Scenario s = presetScenario(QStringLiteral("jitter-contention"));
    QVERIFY(s.description.contains(QLatin1String("609 writes and 34 s")));
    const Metrics none = simulate(s).metrics;
    QCOMPARE(none.logicalOperations, 50);
    QCOMPARE(none.writeAttempts, 609);
    QCOMPARE(qRound(none.completionS), 34);
    QCOMPARE(none.clientFailed, 0);
    const Metrics full = simulate(with(s, "client.business.backoff.jitter", QStringLiteral("full"))).metrics;
    QCOMPARE(full.writeAttempts, 342);
    QCOMPARE(QString::number(full.completionS, 'f', 1), QStringLiteral("3.1"));
    Scenario noBackoff = with(s, "client.business.backoff.kind", QStringLiteral("constant"));
    noBackoff = with(noBackoff, "client.business.backoff.initialMs", 0);
    const Metrics fastest = simulate(noBackoff).metrics;
    QCOMPARE(fastest.writeAttempts, 676);
    QCOMPARE(QString::number(fastest.completionS, 'f', 1), QStringLiteral("1.1"));
    for (const char *number : {"(342)", "3.1 s", "(1.1 s)", "(676)"})
        QVERIFY2(s.description.contains(QLatin1String(number)), number);
}

void TestPresets::metastable()
{
    const Scenario s = presetScenario(QStringLiteral("metastable"));
    const Metrics down = simulate(s).metrics;
    QCOMPARE(down.logicalOperations, 3600);
    QCOMPARE(down.clientSucceeded, 670);
    const Metrics budget = simulate(with(s, "client.retryBudget.enabled", true)).metrics;
    QCOMPARE(budget.clientSucceeded, 3468);
    QVERIFY(s.description.contains(QLatin1String("(670 of 3600 orders succeed)")));
    QVERIFY(s.description.contains(QLatin1String("3468 orders succeed")));
}

void TestPresets::correlationIds()
{
    const Scenario off = presetScenario(QStringLiteral("correlation-ids"));
    QVERIFY(!off.client.requestId);
    const Scenario on = with(off, "client.requestId", true);
    const auto idsPerOp = [](const RunResult &r) {
        QHash<int, QSet<QString>> ids;
        for (const TraceEvent &e : r.trace)
            if (e.kind == EventKind::TransportAttempt)
                ids[e.op].insert(e.requestId());
        return ids;
    };
    const RunResult a = simulate(off);
    const RunResult b = simulate(on);
    QCOMPARE(a.metrics.httpAttempts, b.metrics.httpAttempts);
    QVERIFY(a.metrics.httpAttempts > a.metrics.logicalOperations);
    const auto offIds = idsPerOp(a);
    const auto onIds = idsPerOp(b);
    int scattered = 0;
    for (auto it = onIds.cbegin(); it != onIds.cend(); ++it) {
        QCOMPARE(it.value().size(), 1);
        scattered += offIds.value(it.key()).size() > 1;
    }
    QVERIFY(scattered > 0);
}

void TestPresets::goldenTraces_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("hash");
    QTest::addRow("stable-key") << "stable-key" << QByteArray("85eb1d1d81dd5b6054cb380623e1dbb0096ee4ad7dafcb9c250bfee9824c4cab");
    QTest::addRow("ghost-request") << "ghost-request" << QByteArray("80216870bfcd354221c98b4990b62fe5f86fde21226323064677cf59dba6a82a");
}

void TestPresets::goldenTraces()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, hash);
    const RunResult r = simulate(presetScenario(name));
    const QByteArray actual = trace::hash(r.trace);
    QVERIFY2(actual == hash, qPrintable(QStringLiteral("%1: trace hash %2 (update the golden value only for a deliberate change of behaviour)")
                                           .arg(name, QString::fromLatin1(actual))));
}

void TestPresets::storyOperation()
{
    // The screenshot and the first view show the op that carries the lesson.
    const RunResult ghost = simulate(presetScenario(QStringLiteral("ghost-request")));
    const int ghostOp = retrylab::storyOperation(ghost);
    int firstDuplicated = 0;
    for (const OpSummary &op : ghost.ops)
        if (op.records > 1 && firstDuplicated == 0)
            firstDuplicated = op.op;
    QVERIFY(firstDuplicated > 0);
    QCOMPARE(ghostOp, firstDuplicated);

    const RunResult fix = simulate(presetScenario(QStringLiteral("layered-fix")));
    const int fixOp = retrylab::storyOperation(fix);
    bool replayed = false;
    for (const TraceEvent &e : fix.trace)
        replayed |= e.op == fixOp && e.kind == EventKind::Replayed;
    QVERIFY(replayed);

    const RunResult mismatch = simulate(presetScenario(QStringLiteral("payload-mismatch")));
    QCOMPARE(retrylab::storyOperation(mismatch), 1); // the orphan: failed, yet recorded
    QCOMPARE(retrylab::storyOperation(RunResult()), 1);
}

void TestPresets::storyOperationCarriesTheLesson_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("lesson"); // the Highlight the story op must lead with
    QTest::addColumn<QList<EventKind>>("shows"); // events the story op must contain
    const auto row = [](const char *name, Highlight h, QList<EventKind> kinds) {
        QTest::addRow("%s", name) << QString::fromLatin1(name) << int(h) << kinds;
    };
    row("ghost-request", Highlight::Duplicate, {EventKind::ResponseLost});
    row("layered-fix", Highlight::Replay, {EventKind::Replayed});
    row("stable-key", Highlight::Replay, {EventKind::Replayed});
    row("rotating-key", Highlight::Duplicate, {EventKind::KeyMinted});
    row("payload-mismatch", Highlight::Orphan, {EventKind::Rejected});
    row("concurrent-race", Highlight::Duplicate, {EventKind::Committed});
    row("key-expiry", Highlight::Duplicate, {EventKind::KeyExpired});
    row("query-before-retry", Highlight::QueryFound, {EventKind::QuerySent, EventKind::QueryResult});
    row("server-token", Highlight::Orphan, {EventKind::TokenIssued, EventKind::Rejected});
    row("server-token-query", Highlight::Conflict409, {EventKind::Rejected, EventKind::QueryResult});
    row("key-store-restart", Highlight::Duplicate, {EventKind::ServerRestarted, EventKind::Committed});
    row("reconciliation", Highlight::Duplicate, {EventKind::ReconcileVoided});
    row("retry-storm", Highlight::Duplicate, {EventKind::Timeout});
    row("correlation-ids", Highlight::Duplicate, {EventKind::ResponseLost});
    row("jitter-contention", Highlight::Conflict409, {EventKind::RowRead, EventKind::VersionConflict});
    row("metastable", Highlight::Duplicate, {EventKind::Timeout});
}

void TestPresets::storyOperationCarriesTheLesson()
{
    QFETCH(QString, preset);
    QFETCH(int, lesson);
    QFETCH(QList<EventKind>, shows);
    const RunResult r = simulate(presetScenario(preset));
    const int op = retrylab::storyOperation(r);
    const QList<InterestingOp> ops = retrylab::interestingOperations(r);
    const auto it = std::find_if(ops.cbegin(), ops.cend(), [op](const InterestingOp &i) { return i.op == op; });
    QVERIFY2(it != ops.cend(), qPrintable(QStringLiteral("story op %1 is not an interesting one").arg(op)));
    QCOMPARE(int(it->reasons.first()), lesson);
    for (const EventKind kind : shows) {
        const bool found = std::any_of(r.trace.cbegin(), r.trace.cend(),
                                       [&](const TraceEvent &e) { return e.op == op && e.kind == kind; });
        QVERIFY2(found, qPrintable(QStringLiteral("op %1 has no %2 event").arg(op).arg(trace::kindName(kind))));
    }
    // No other op leads with a more telling highlight, and none before it with the same one.
    for (const InterestingOp &i : ops) {
        QVERIFY(int(i.reasons.first()) >= lesson);
        if (int(i.reasons.first()) == lesson)
            QVERIFY(i.op >= op);
    }
}

void TestPresets::interestingOperations()
{
    RunResult r;
    auto addOp = [&r](int op, int records, bool ok) {
        OpSummary s;
        s.op = op;
        s.records = records;
        s.succeeded = ok;
        s.attempts = 1;
        r.ops << s;
    };
    auto addEvent = [&r](int op, EventKind kind, int status) {
        TraceEvent e;
        e.op = op;
        e.kind = kind;
        e.status = status;
        r.trace << e;
    };
    for (int op = 1; op <= 9; ++op)
        addOp(op, 1, true);
    r.ops[8].records = 2;         // op 9: duplicate
    r.ops[1].succeeded = false;   // op 2: orphan (failed, recorded)
    r.ops[6].succeeded = false;   // op 7: failed without a record: not an orphan
    r.ops[6].records = 0;
    addEvent(3, EventKind::Rejected, 409);
    addEvent(4, EventKind::Rejected, 422);
    addEvent(4, EventKind::Rejected, 429); // throttling is no highlight
    addEvent(5, EventKind::Replayed, 201);
    addEvent(6, EventKind::QuerySent, 0);
    addEvent(6, EventKind::QueryResult, 200);
    addEvent(8, EventKind::QuerySent, 0);
    addEvent(8, EventKind::QueryResult, 404);
    addEvent(0, EventKind::Replayed, 201); // op 0 is no operation
    addEvent(1, EventKind::Rejected, 503);

    const QList<InterestingOp> ops = retrylab::interestingOperations(r);
    const QList<InterestingOp> expected{
        {2, {Highlight::Orphan}},      {3, {Highlight::Conflict409}}, {4, {Highlight::Mismatch422}},
        {5, {Highlight::Replay}},      {6, {Highlight::QueryFound}},  {8, {Highlight::Query}},
        {9, {Highlight::Duplicate}},
    };
    QCOMPARE(ops, expected);
    QCOMPARE(retrylab::storyOperation(r), 9); // a duplicate beats an earlier orphan
    r.ops[8].records = 1;
    QCOMPARE(retrylab::storyOperation(r), 2);
    r.ops[1].succeeded = true;
    QCOMPARE(retrylab::storyOperation(r), 4); // 422 before 409
    QCOMPARE(story::describe({4, {Highlight::Orphan, Highlight::Mismatch422}}),
             QStringLiteral("orphan, 422 payload mismatch"));
    // Nothing stands out: the op that retried most, else the first.
    RunResult quiet;
    quiet.ops = r.ops;
    for (OpSummary &s : quiet.ops)
        s.succeeded = true;
    QCOMPARE(retrylab::storyOperation(quiet), 1);
    quiet.ops[4].attempts = 3;
    QCOMPARE(retrylab::storyOperation(quiet), 5);
}

void TestPresets::outcomeSaysWhatTheServerHolds()
{
    OpSummary op;
    op.ref = QStringLiteral("ORD-0003");
    op.succeeded = true;
    op.records = 1;
    QCOMPARE(story::outcome(op), QString()); // nothing to add to "succeeded"
    op.records = 2;
    QCOMPARE(story::outcome(op), QStringLiteral("The server holds 2 records of ORD-0003: 1 is a duplicate."));
    op.records = 3;
    QCOMPARE(story::outcome(op), QStringLiteral("The server holds 3 records of ORD-0003: 2 are duplicates."));
    op.succeeded = false;
    op.records = 1;
    QCOMPARE(story::outcome(op),
             QStringLiteral("Yet the server holds a record of ORD-0003: an orphan the client will not know about."));
    op.records = 2;
    QCOMPARE(story::outcome(op), QStringLiteral("Yet the server holds 2 records of ORD-0003: 1 is a duplicate."));
    op.records = 0;
    QCOMPARE(story::outcome(op), QStringLiteral("The server holds no record of ORD-0003: nothing to clean up."));
}

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
