// A check report written as JSON (`retrylab check --save FILE`), read back for the window, and
// drawn as a trace: every probe round an operation with its exchanges and its verdict. A bad file
// is refused with the field's path.
#include "check/checkreport.h"
#include "check/checktrace.h"
#include "check/checkverdicts.h"
#include "checkreportsample.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace retrylab;

namespace {

void compareExchange(const CheckExchange &a, const CheckExchange &b)
{
    QCOMPARE(a.batch, b.batch);
    QCOMPARE(a.key, b.key);
    QCOMPARE(a.otherBody, b.otherBody);
    QCOMPARE(a.fault, b.fault);
    QCOMPARE(a.sentUs, b.sentUs);
    QCOMPARE(a.answeredUs, b.answeredUs);
    QCOMPARE(a.status, b.status);
    QCOMPARE(a.error, b.error);
    QCOMPARE(a.connectFailed, b.connectFailed);
    QCOMPARE(a.body, b.body);
    QCOMPARE(a.location, b.location);
    QCOMPARE(a.replayedHeader, b.replayedHeader);
    QCOMPARE(a.resource, b.resource);
    QCOMPARE(a.problemType, b.problemType);
    QCOMPARE(a.upstreamStatus, b.upstreamStatus);
    QCOMPARE(a.upstreamResource, b.upstreamResource);
    QCOMPARE(a.upstreamAnsweredUs, b.upstreamAnsweredUs);
}

QByteArray bytesOf(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The sample's JSON with one value replaced; `path` is a list of keys and indexes.
QJsonObject edited(const QJsonObject &root, const QVariantList &path, const QJsonValue &value)
{
    if (path.isEmpty())
        return root;
    const std::function<QJsonValue(const QJsonValue &, int)> set = [&](const QJsonValue &at, int depth) -> QJsonValue {
        const QVariant step = path.at(depth);
        const bool last = depth == path.size() - 1;
        if (step.typeId() == QMetaType::Int) {
            QJsonArray a = at.toArray();
            a[step.toInt()] = last ? value : set(a.at(step.toInt()), depth + 1);
            return a;
        }
        QJsonObject o = at.toObject();
        if (last && value.isUndefined())
            o.remove(step.toString());
        else
            o[step.toString()] = last ? value : set(o.value(step.toString()), depth + 1);
        return o;
    };
    return set(root, 0).toObject();
}

} // namespace

class TestCheckReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripKeepsEveryExchange();
    void traceHasEachProbeWithItsVerdict();
    void ghostShowsTheLostAnswerAndOneRecord();
    void roundsAreOperationsOfTheirOwn();
    void narrationNamesWhatTheProbeSent();
    void replayNarratedAsTheServiceSentIt();
    void badFileIsRefusedNamingWhere_data();
    void badFileIsRefusedNamingWhere();
    void exchangesAtTheCapAndOneOver();
    void sizeAndFileChecks();
};

void TestCheckReport::roundTripKeepsEveryExchange()
{
    const CheckReport report = checksample::report();
    CheckReport back;
    const QStringList errors = check::readReport(bytesOf(report.toJson()), QStringLiteral("r.json"), &back);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(back.url, report.url);
    QCOMPARE(back.roundsAsked, report.roundsAsked);
    QCOMPARE(back.concurrency, report.concurrency);
    QCOMPARE(back.timeoutMs, 800);
    QCOMPARE(back.idField, QStringLiteral("data.id"));
    QCOMPARE(back.card.size(), ProbeCount);
    for (int i = 0; i < ProbeCount; ++i) {
        const ProbeVerdict &a = back.card.at(i), &b = report.card.at(i);
        QCOMPARE(a.probe, b.probe);
        QCOMPARE(a.verdict, b.verdict);
        QCOMPARE(a.finding, b.finding);
        QCOMPARE(a.round, b.round);
        QCOMPARE(a.statuses, b.statuses);
        QCOMPARE(a.resources, b.resources);
        QCOMPARE(a.creations, b.creations);
        QCOMPARE(a.problemType, b.problemType);
        QCOMPARE(back.rounds.at(i).size(), 1);
        const ProbeObservation &oa = back.rounds.at(i).at(0), &ob = report.rounds.at(i).at(0);
        QCOMPARE(oa.startUs, ob.startUs);
        QCOMPARE(oa.bodyVaries, ob.bodyVaries);
        QCOMPARE(oa.exchanges.size(), ob.exchanges.size());
        for (int e = 0; e < oa.exchanges.size(); ++e)
            compareExchange(oa.exchanges.at(e), ob.exchanges.at(e));
        // The verdict drawn again from what was read is the one the card says.
        QCOMPARE(check::evaluate(oa).verdict, b.verdict);
    }
    // Written again, the same bytes: nothing was lost or added on the way.
    QCOMPARE(bytesOf(back.toJson()), bytesOf(report.toJson()));
}

void TestCheckReport::traceHasEachProbeWithItsVerdict()
{
    const CheckReport report = checksample::report();
    const CheckTrace t = CheckTrace::of(report);
    QCOMPARE(t.operations.size(), ProbeCount);
    for (int i = 0; i < ProbeCount; ++i) {
        const CheckOperation &o = t.operations.at(i);
        QCOMPARE(o.op, i + 1);
        QCOMPARE(o.probe, report.card.at(i).probe);
        QCOMPARE(o.verdict.verdict, report.card.at(i).verdict);
        QVERIFY(o.deciding);
        // One attempt on the Transport lane per exchange the probe sent, and what the check saw.
        int attempts = 0, seen = 0;
        for (const TraceEvent &e : t.result.trace) {
            if (e.op != o.op)
                continue;
            attempts += e.kind == EventKind::TransportAttempt ? 1 : 0;
            seen += e.kind == EventKind::ResponseReceived || e.kind == EventKind::Timeout ? 1 : 0;
        }
        QCOMPARE(attempts, int(report.rounds.at(i).at(0).exchanges.size()));
        QCOMPARE(seen, attempts);
    }
    // The mismatch probe sent nothing (no {n}): no operation in the run, still a row of the card.
    QCOMPARE(t.result.ops.size(), ProbeCount - 1);
    QCOMPARE(t.operations.at(1).verdict.finding, Finding::NoOtherBody);
    // The in-flight race: two resources for one key, the second a duplicate; no key twice: another.
    QCOMPARE(t.result.metrics.duplicates, 2);
    int duplicates = 0;
    for (const RecordRow &r : t.result.records)
        duplicates += r.duplicate ? 1 : 0;
    QCOMPARE(duplicates, 2);
    QCOMPARE(t.result.metrics.httpAttempts, 11);
    // One clock: a probe's events come after the previous probe's began.
    for (int i = 1; i < t.result.trace.size(); ++i)
        QVERIFY(t.result.trace.at(i - 1).t <= t.result.trace.at(i).t);
}

void TestCheckReport::ghostShowsTheLostAnswerAndOneRecord()
{
    const CheckTrace t = CheckTrace::of(checksample::report());
    const int ghost = 4;
    QCOMPARE(t.operations.at(ghost - 1).probe, Probe::Ghost);
    QList<EventKind> kinds;
    int records = 0;
    qint64 timeoutAt = -1;
    for (const TraceEvent &e : t.result.trace) {
        if (e.op != ghost)
            continue;
        kinds << e.kind;
        records += e.kind == EventKind::Committed ? 1 : 0;
        if (e.kind == EventKind::Timeout)
            timeoutAt = e.t;
    }
    QVERIFY(kinds.contains(EventKind::ResponseLost));
    QCOMPARE(records, 1); // the retry got the same id: replayed, not created again
    QVERIFY(kinds.contains(EventKind::Replayed));
    // The check gave up on the lost answer after its --timeout (800 ms) from the send.
    QCOMPARE(timeoutAt, 5000 + 10 + 800 * 1000);
    // The answer was lost where the proxy had read it from the endpoint (25 ms after the send, in
    // the sample), after the endpoint committed: not at the send.
    qint64 sentAt = -1, lostAt = -1, committedAt = -1;
    for (const TraceEvent &e : t.result.trace) {
        if (e.op != ghost || e.transport != 1)
            continue;
        sentAt = e.kind == EventKind::TransportAttempt ? e.t : sentAt;
        lostAt = e.kind == EventKind::ResponseLost ? e.t : lostAt;
        committedAt = e.kind == EventKind::Committed ? e.t : committedAt;
    }
    QCOMPARE(sentAt, 5000 + 10);
    QCOMPARE(lostAt, 5000 + 25010);
    QCOMPARE(committedAt, lostAt);
    // A report written before the time was kept: drawn at the send, as before.
    CheckReport old = checksample::report();
    old.rounds[3][0].exchanges[0].upstreamAnsweredUs = -1;
    for (const TraceEvent &e : CheckTrace::of(old).result.trace) {
        if (e.op == ghost && e.kind == EventKind::ResponseLost)
            QCOMPARE(e.t, 5000 + 10);
    }
    // The 5xx probe: the proxy's 503, never forwarded, then the retry created the order.
    int forwarded = 0;
    for (const TraceEvent &e : t.result.trace)
        forwarded += e.op == 7 && e.kind == EventKind::RequestArrived ? 1 : 0;
    QCOMPARE(forwarded, 1);
}

void TestCheckReport::roundsAreOperationsOfTheirOwn()
{
    CheckReport report = checksample::report();
    report.roundsAsked = 2;
    // The in-flight probe passed its first round and failed its second: the card keeps round 2.
    ProbeObservation first = checksample::round(Probe::InFlight, 1, 3000, {checksample::answered(0, "k-3", 201, "id:3", 0, 400), checksample::answered(0, "k-3", 409, "", 5, 420)});
    ProbeObservation second = report.rounds[2][0];
    second.round = 2;
    second.startUs = 4000;
    report.rounds[2] = {first, second};
    report.card[2] = check::combine({check::evaluate(first), check::evaluate(second)});
    QCOMPARE(report.card.at(2).round, 2);
    for (int i = 0; i < report.card.size(); ++i) {
        if (i != 2)
            report.rounds[i] << report.rounds[i].constFirst();
    }
    CheckReport back;
    QVERIFY(check::readReport(bytesOf(report.toJson()), QString(), &back).isEmpty());
    const CheckTrace t = CheckTrace::of(back);
    QCOMPARE(t.operations.size(), 2 * ProbeCount);
    const CheckOperation &a = t.operations.at(4), &b = t.operations.at(5);
    QCOMPARE(a.probe, Probe::InFlight);
    QCOMPARE(a.round, 1);
    QCOMPARE(a.verdict.verdict, Verdict::Pass);
    QVERIFY(!a.deciding);
    QCOMPARE(b.round, 2);
    QCOMPARE(b.verdict.verdict, Verdict::Fail);
    QVERIFY(b.deciding);
    // Each round its own logical request: the pass round's records are not the fail round's.
    bool sawRef = false;
    for (const OpSummary &op : t.result.ops)
        sawRef = sawRef || op.ref == QStringLiteral("in-flight #2");
    QVERIFY(sawRef);
}

namespace {
// The narration of the first event of `kind` in operation `op`.
QString narrationOf(const CheckTrace &t, int op, EventKind kind)
{
    for (const TraceEvent &e : t.result.trace) {
        if (e.op == op && e.kind == kind)
            return trace::narrate(e);
    }
    return QString();
}
} // namespace

void TestCheckReport::narrationNamesWhatTheProbeSent()
{
    // The in-flight probe (operation 3) sent key k-3 twice and the endpoint created two records:
    // the words name that key, not the engine's "ORD-0003" of the operation's number.
    const CheckTrace t = CheckTrace::of(checksample::report());
    const QString committed = narrationOf(t, 3, EventKind::Committed);
    QVERIFY2(committed.contains(QStringLiteral(" for k-3")), qPrintable(committed));
    QVERIFY2(!committed.contains(QStringLiteral("ORD-")), qPrintable(committed));
    for (const TraceEvent &e : t.result.trace) {
        if (e.kind == EventKind::Committed && !e.key().isEmpty())
            QCOMPARE(e.ref(), e.key());
    }
}

void TestCheckReport::replayNarratedAsTheServiceSentIt()
{
    // The replay probe (operation 1): the endpoint answered the second request with id:1 again.
    // The sample's endpoint sent no Idempotent-Replayed header, so the words do not claim one.
    CheckReport report = checksample::report();
    const QString bare = narrationOf(CheckTrace::of(report), 1, EventKind::Replayed);
    QVERIFY2(!bare.isEmpty(), "the second answer with the same resource is a replay");
    QVERIFY2(!bare.contains(QStringLiteral("Idempotent-Replayed: true")), qPrintable(bare));
    QVERIFY2(bare.contains(QStringLiteral("without an Idempotent-Replayed header")), qPrintable(bare));
    // An endpoint that sends it is narrated with it.
    report.rounds[0][0].exchanges[1].replayedHeader = true;
    const QString marked = narrationOf(CheckTrace::of(report), 1, EventKind::Replayed);
    QVERIFY2(marked.contains(QStringLiteral("Idempotent-Replayed: true")), qPrintable(marked));
}

void TestCheckReport::badFileIsRefusedNamingWhere_data()
{
    QTest::addColumn<QVariantList>("path");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    const QString arrow = QStringLiteral("r.json: ");
    QTest::addRow("no-format") << QVariantList{QStringLiteral("format")} << QJsonValue(QJsonValue::Undefined)
                               << arrow + QStringLiteral("format: expected \"retrylab-check\" (a report of retrylab check --save), got nothing");
    QTest::addRow("a-scenario") << QVariantList{QStringLiteral("format")} << QJsonValue(QStringLiteral("scenario"))
                                << arrow + QStringLiteral("format: expected \"retrylab-check\" (a report of retrylab check --save), got \"scenario\"");
    QTest::addRow("newer-version") << QVariantList{QStringLiteral("version")} << QJsonValue(2)
                                   << arrow + QStringLiteral("version: 2 is newer than this RetryLab reads (1)");
    QTest::addRow("status-as-text") << QVariantList{QStringLiteral("probes"), 3, QStringLiteral("rounds"), 0, QStringLiteral("exchanges"), 1, QStringLiteral("status")}
                                    << QJsonValue(QStringLiteral("abc"))
                                    << arrow + QStringLiteral("probes[3].rounds[0].exchanges[1].status: expected an integer from 0 to 999, got \"abc\"");
    QTest::addRow("status-1000") << QVariantList{QStringLiteral("probes"), 0, QStringLiteral("rounds"), 0, QStringLiteral("exchanges"), 0, QStringLiteral("status")}
                                 << QJsonValue(1000)
                                 << arrow + QStringLiteral("probes[0].rounds[0].exchanges[0].status: expected an integer from 0 to 999, got 1000");
    QTest::addRow("unknown-probe") << QVariantList{QStringLiteral("probes"), 0, QStringLiteral("probe")} << QJsonValue(QStringLiteral("replays"))
                                   << arrow + QStringLiteral("probes[0].probe: expected one of replay|mismatch|in-flight|ghost|missing-key|no-key-twice|retry-after-5xx, got \"replays\"");
    QTest::addRow("probe-twice") << QVariantList{QStringLiteral("probes"), 1, QStringLiteral("probe")} << QJsonValue(QStringLiteral("replay"))
                                 << arrow + QStringLiteral("probes[1].probe: \"replay\" comes twice");
    QTest::addRow("missing-exchanges") << QVariantList{QStringLiteral("probes"), 2, QStringLiteral("rounds"), 0, QStringLiteral("exchanges")}
                                       << QJsonValue(QJsonValue::Undefined)
                                       << arrow + QStringLiteral("probes[2].rounds[0].exchanges: missing");
    QTest::addRow("round-past-rounds") << QVariantList{QStringLiteral("probes"), 5, QStringLiteral("round")} << QJsonValue(2)
                                       << arrow + QStringLiteral("probes[5].round: expected an integer from 1 to 1, got 2");
    QTest::addRow("exchange-not-object") << QVariantList{QStringLiteral("probes"), 0, QStringLiteral("rounds"), 0, QStringLiteral("exchanges"), 0}
                                         << QJsonValue(7)
                                         << arrow + QStringLiteral("probes[0].rounds[0].exchanges[0]: expected an object, got 7");
    QTest::addRow("bad-fault") << QVariantList{QStringLiteral("probes"), 3, QStringLiteral("rounds"), 0, QStringLiteral("exchanges"), 0, QStringLiteral("fault")}
                               << QJsonValue(QStringLiteral("lost"))
                               << arrow + QStringLiteral("probes[3].rounds[0].exchanges[0].fault: expected one of none|responseLost|server5xxBeforeCommit, got \"lost\"");
    QTest::addRow("negative-sent") << QVariantList{QStringLiteral("probes"), 0, QStringLiteral("rounds"), 0, QStringLiteral("exchanges"), 0, QStringLiteral("sentUs")}
                                   << QJsonValue(-1)
                                   << arrow + QStringLiteral("probes[0].rounds[0].exchanges[0].sentUs: expected an integer from 0 to 1000000000000000, got -1");
}

void TestCheckReport::badFileIsRefusedNamingWhere()
{
    QFETCH(QVariantList, path);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    CheckReport out;
    out.url = QStringLiteral("untouched");
    const QStringList errors = check::readReport(bytesOf(edited(checksample::report().toJson(), path, value)), QStringLiteral("r.json"), &out);
    QVERIFY(!errors.isEmpty());
    QCOMPARE(errors.constFirst(), message);
    QCOMPARE(out.url, QStringLiteral("untouched")); // a refused file leaves nothing half read
}

void TestCheckReport::exchangesAtTheCapAndOneOver()
{
    CheckReport report = checksample::report();
    QList<CheckExchange> many;
    for (int i = 0; i < CheckReport::MaxExchanges; ++i)
        many << checksample::answered(0, "k-3", 201, "id:3", i, 1000 + i);
    report.rounds[2][0].exchanges = many;
    CheckReport back;
    QVERIFY(check::readReport(bytesOf(report.toJson()), QString(), &back).isEmpty());
    QCOMPARE(back.rounds.at(2).at(0).exchanges.size(), 64);
    report.rounds[2][0].exchanges << many.constFirst();
    const QStringList errors = check::readReport(bytesOf(report.toJson()), QString(), &back);
    QCOMPARE(errors, QStringList{QStringLiteral("probes[2].rounds[0].exchanges: at most 64 entries, got 65")});
}

void TestCheckReport::sizeAndFileChecks()
{
    CheckReport out;
    QStringList errors = check::readReport(QByteArray(check::MaxReportBytes + 1, ' '), QStringLiteral("big.json"), &out);
    QCOMPARE(errors, QStringList{QStringLiteral("big.json: the file is larger than 67108864 bytes, the most a check report may hold")});
    // At the limit itself the size is fine; what is wrong is that it holds no JSON.
    errors = check::readReport(QByteArray(check::MaxReportBytes, ' '), QStringLiteral("big.json"), &out);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.constFirst().startsWith(QStringLiteral("big.json: malformed JSON at byte ")), qPrintable(errors.constFirst()));
    errors = check::readReport("{\"format\": \"retrylab-check\", ", QStringLiteral("cut.json"), &out);
    QVERIFY2(errors.constFirst().startsWith(QStringLiteral("cut.json: malformed JSON at byte 29: ")), qPrintable(errors.constFirst()));
    errors = check::readReport("[1]", QStringLiteral("a.json"), &out);
    QCOMPARE(errors, QStringList{QStringLiteral("a.json: expected a JSON object at the top level")});

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    errors = check::loadReport(dir.path(), &out);
    QCOMPARE(errors, QStringList{QStringLiteral("%1: not a regular file").arg(dir.path())});
    const QString none = dir.filePath(QStringLiteral("none.json"));
    errors = check::loadReport(none, &out);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.constFirst().startsWith(QStringLiteral("cannot read check report \"%1\": ").arg(none)), qPrintable(errors.constFirst()));
    // A file written whole reads back whole.
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QFile file(saved);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(checksample::report().toJson()).toJson());
    file.close();
    QVERIFY(check::loadReport(saved, &out).isEmpty());
    QCOMPARE(out.card.size(), ProbeCount);
}

QTEST_GUILESS_MAIN(TestCheckReport)
#include "tst_checkreport.moc"
