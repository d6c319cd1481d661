// The verdicts of `retrylab check` on their own: exchanges in, verdict and evidence out, no
// socket. The expected statuses are the IETF draft's (draft-ietf-httpapi-idempotency-key-header,
// "Error Scenarios": 400 missing key, 409 in progress, 422 other payload; "Idempotency
// Enforcement": a key seen before replays the first answer).
#include "check/checkverdicts.h"

#include <QJsonArray>
#include <QTest>

using namespace retrylab;

namespace {

// An answered exchange: status, the resource it names (empty: none) and its body.
CheckExchange ex(int status, const char *resource = "", const char *body = "", const char *key = "k-1")
{
    CheckExchange e;
    e.key = key;
    e.status = status;
    e.resource = status >= 200 && status < 300 ? QString::fromLatin1(resource) : QString();
    e.body = !*body && *resource ? QByteArray("{\"id\":\"") + resource + "\"}" : QByteArray(body);
    return e;
}

CheckExchange unanswered()
{
    CheckExchange e;
    e.key = "k-1";
    e.error = QStringLiteral("timed out");
    return e;
}

// The first request of the ghost probe: the endpoint answered `upstream`, the proxy dropped it.
CheckExchange lost(int upstream, const char *resource)
{
    CheckExchange e;
    e.key = "k-1";
    e.fault = CheckFault::ResponseLost;
    e.upstreamStatus = upstream;
    e.upstreamResource = QString::fromLatin1(resource);
    return e;
}

CheckExchange timed(CheckExchange e, qint64 sent, qint64 answered)
{
    e.sentUs = sent;
    e.answeredUs = answered;
    return e;
}

ProbeObservation obs(Probe p, const QList<CheckExchange> &exchanges)
{
    ProbeObservation o;
    o.probe = p;
    o.exchanges = exchanges;
    return o;
}

} // namespace

Q_DECLARE_METATYPE(retrylab::ProbeObservation)
Q_DECLARE_METATYPE(retrylab::Verdict)
Q_DECLARE_METATYPE(retrylab::Finding)

class TestCheckVerdicts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void verdicts_data();
    void verdicts();
    void creationsPreferTheListCount();
    void roundsKeepTheWorst();
    void exitStatusFailsOnlyOnFail();
    void resourceFromIdOrLocation();
    void collectionCounts();
    void namesAreStable();
    void jsonKeepsTheEvidence();
};

void TestCheckVerdicts::verdicts_data()
{
    QTest::addColumn<ProbeObservation>("observation");
    QTest::addColumn<Verdict>("verdict");
    QTest::addColumn<Finding>("finding");
    QTest::addColumn<int>("made");

    const char *a = "{\"id\":1,\"v\":\"a\"}";
    // replay
    QTest::addRow("replay-same-answer") << obs(Probe::Replay, {ex(201, "id:1", a), ex(201, "id:1", a)}) << Verdict::Pass
                                        << Finding::Replayed << 1;
    QTest::addRow("replay-json-reordered") << obs(Probe::Replay, {ex(201, "id:1", a), ex(201, "id:1", "{ \"v\":\"a\", \"id\":1 }")})
                                           << Verdict::Pass << Finding::Replayed << 1;
    QTest::addRow("replay-second-resource") << obs(Probe::Replay, {ex(201, "id:1"), ex(201, "id:2")}) << Verdict::Fail
                                            << Finding::CreatedTwice << 2;
    QTest::addRow("replay-other-status") << obs(Probe::Replay, {ex(201, "id:1", a), ex(200, "id:1", a)}) << Verdict::Fail
                                         << Finding::ReplayDiffers << 1;
    QTest::addRow("replay-other-body") << obs(Probe::Replay, {ex(201, "id:1", a), ex(201, "id:1", "{\"id\":1,\"v\":\"b\"}")})
                                       << Verdict::Fail << Finding::ReplayDiffers << 1;
    QTest::addRow("replay-409-after-completion") << obs(Probe::Replay, {ex(201, "id:1", a), ex(409)}) << Verdict::Fail
                                                 << Finding::ReplayDiffers << 1;
    QTest::addRow("replay-no-id-cannot-tell") << obs(Probe::Replay, {ex(201, "", "{}"), ex(201, "", "{}")})
                                              << Verdict::CannotTell << Finding::ResourceUnseen << -1;
    QTest::addRow("replay-first-refused") << obs(Probe::Replay, {ex(400), ex(400)}) << Verdict::CannotTell
                                          << Finding::FirstRefused << 0;
    QTest::addRow("replay-first-unanswered") << obs(Probe::Replay, {unanswered(), ex(201, "id:1")}) << Verdict::CannotTell
                                             << Finding::NoAnswer << 1;
    QTest::addRow("replay-second-unanswered") << obs(Probe::Replay, {ex(201, "id:1"), unanswered()}) << Verdict::CannotTell
                                              << Finding::NoAnswer << 1;
    // mismatch
    QTest::addRow("mismatch-422") << obs(Probe::Mismatch, {ex(201, "id:1"), ex(422)}) << Verdict::Pass << Finding::MismatchRejected << 1;
    QTest::addRow("mismatch-replayed") << obs(Probe::Mismatch, {ex(201, "id:1"), ex(201, "id:1")}) << Verdict::Fail
                                       << Finding::MismatchReplayed << 1;
    QTest::addRow("mismatch-created") << obs(Probe::Mismatch, {ex(201, "id:1"), ex(201, "id:2")}) << Verdict::Fail
                                      << Finding::MismatchCreated << 2;
    QTest::addRow("mismatch-409") << obs(Probe::Mismatch, {ex(201, "id:1"), ex(409)}) << Verdict::Fail
                                  << Finding::MismatchOtherStatus << 1;
    QTest::addRow("mismatch-400") << obs(Probe::Mismatch, {ex(201, "id:1"), ex(400)}) << Verdict::Fail
                                  << Finding::MismatchOtherStatus << 1;
    {
        ProbeObservation o = obs(Probe::Mismatch, {});
        o.bodyVaries = false;
        QTest::addRow("mismatch-no-placeholder") << o << Verdict::CannotTell << Finding::NoOtherBody << 0;
    }
    // in flight: times in microseconds; every request sent before the first answer
    QTest::addRow("in-flight-409") << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 50), timed(ex(409), 1, 20)}) << Verdict::Pass
                                   << Finding::InFlightConflict << 1;
    QTest::addRow("in-flight-waited-and-replayed")
            << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 50), timed(ex(201, "id:1"), 1, 60)}) << Verdict::Pass
            << Finding::InFlightOneCreation << 1;
    QTest::addRow("in-flight-two-created") << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 50), timed(ex(201, "id:2"), 1, 51)})
                                           << Verdict::Fail << Finding::InFlightCreatedMany << 2;
    QTest::addRow("in-flight-two-created-even-sequential")
            << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 50), timed(ex(201, "id:2"), 60, 90)}) << Verdict::Fail
            << Finding::InFlightCreatedMany << 2;
    // The boundary: an answer at the very moment the last request leaves still counts as overlap.
    QTest::addRow("in-flight-answer-as-last-sent")
            << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 40), timed(ex(201, "id:1"), 40, 90)}) << Verdict::Pass
            << Finding::InFlightOneCreation << 1;
    QTest::addRow("in-flight-answer-before-last-sent")
            << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 39), timed(ex(201, "id:1"), 40, 90)}) << Verdict::CannotTell
            << Finding::NotOverlapped << 1;
    QTest::addRow("in-flight-one-unanswered") << obs(Probe::InFlight, {timed(ex(201, "id:1"), 0, 50), timed(unanswered(), 1, -1)})
                                              << Verdict::CannotTell << Finding::NoAnswer << 1;
    QTest::addRow("in-flight-all-refused") << obs(Probe::InFlight, {timed(ex(400), 0, 5), timed(ex(400), 1, 6)})
                                           << Verdict::CannotTell << Finding::FirstRefused << 0;
    // ghost
    QTest::addRow("ghost-replayed") << obs(Probe::Ghost, {lost(201, "id:1"), ex(201, "id:1")}) << Verdict::Pass
                                    << Finding::GhostReplayed << 1;
    QTest::addRow("ghost-duplicated") << obs(Probe::Ghost, {lost(201, "id:1"), ex(201, "id:2")}) << Verdict::Fail
                                      << Finding::GhostDuplicated << 2;
    QTest::addRow("ghost-retry-409") << obs(Probe::Ghost, {lost(201, "id:1"), ex(409)}) << Verdict::Warn
                                     << Finding::GhostRetryRefused << 1;
    QTest::addRow("ghost-not-committed") << obs(Probe::Ghost, {lost(503, ""), ex(201, "id:1")}) << Verdict::CannotTell
                                         << Finding::GhostNotCommitted << 1;
    QTest::addRow("ghost-upstream-unknown") << obs(Probe::Ghost, {lost(0, ""), ex(201, "id:1")}) << Verdict::CannotTell
                                            << Finding::NoAnswer << 1;
    QTest::addRow("ghost-lost-answer-without-id") << obs(Probe::Ghost, {lost(201, ""), ex(201, "id:1")})
                                                  << Verdict::CannotTell << Finding::ResourceUnseen << -1;
    // missing key: exactly 400 passes; 2xx is not applicable; any other refusal fails
    QTest::addRow("missing-key-400") << obs(Probe::MissingKey, {ex(400, "", "", "")}) << Verdict::Pass
                                     << Finding::KeyRequired << 0;
    QTest::addRow("missing-key-201") << obs(Probe::MissingKey, {ex(201, "id:1", "", "")})
                                     << Verdict::NotApplicable << Finding::KeylessAccepted << 1;
    QTest::addRow("missing-key-299") << obs(Probe::MissingKey, {ex(299, "id:1", "", "")})
                                     << Verdict::NotApplicable << Finding::KeylessAccepted << 1;
    QTest::addRow("missing-key-422") << obs(Probe::MissingKey, {ex(422, "", "", "")}) << Verdict::Fail
                                     << Finding::KeylessOtherStatus << 0;
    QTest::addRow("missing-key-401") << obs(Probe::MissingKey, {ex(401, "", "", "")}) << Verdict::Fail
                                     << Finding::KeylessOtherStatus << 0;
    // no key twice
    QTest::addRow("no-key-duplicated") << obs(Probe::NoKeyTwice, {ex(201, "id:1"), ex(201, "id:2")}) << Verdict::Warn
                                       << Finding::NoKeyDuplicated << 2;
    QTest::addRow("no-key-deduplicated") << obs(Probe::NoKeyTwice, {ex(201, "id:1"), ex(200, "id:1")}) << Verdict::Pass
                                         << Finding::NoKeyDeduplicated << 1;
    QTest::addRow("no-key-refused") << obs(Probe::NoKeyTwice, {ex(400), ex(400)}) << Verdict::NotApplicable
                                    << Finding::NoKeyRefused << 0;
    QTest::addRow("no-key-first-5xx") << obs(Probe::NoKeyTwice, {ex(500), ex(201, "id:1")}) << Verdict::CannotTell
                                      << Finding::FirstRefused << 1;
    // 5xx before commit, then the retry
    {
        CheckExchange first = ex(503);
        first.fault = CheckFault::Error5xxBeforeCommit;
        QTest::addRow("retry-after-5xx-created") << obs(Probe::RetryAfter5xx, {first, ex(201, "id:1")}) << Verdict::Pass
                                                 << Finding::RetrySucceeded << 1;
        QTest::addRow("retry-after-5xx-stored-error") << obs(Probe::RetryAfter5xx, {first, ex(503)}) << Verdict::Fail
                                                      << Finding::RetryFailed << 0;
        QTest::addRow("retry-after-5xx-409") << obs(Probe::RetryAfter5xx, {first, ex(409)}) << Verdict::Fail
                                             << Finding::RetryFailed << 0;
        QTest::addRow("retry-after-5xx-500") << obs(Probe::RetryAfter5xx, {first, ex(500)}) << Verdict::Fail
                                             << Finding::RetryFailed << 0;
        QTest::addRow("retry-after-5xx-499") << obs(Probe::RetryAfter5xx, {first, ex(499)}) << Verdict::CannotTell
                                             << Finding::FirstRefused << 0;
        QTest::addRow("retry-after-5xx-unanswered") << obs(Probe::RetryAfter5xx, {first, unanswered()}) << Verdict::CannotTell
                                                    << Finding::NoAnswer << 0;
    }
    QTest::addRow("too-few-exchanges") << obs(Probe::Replay, {ex(201, "id:1")}) << Verdict::CannotTell << Finding::NoAnswer << 1;
}

void TestCheckVerdicts::verdicts()
{
    QFETCH(ProbeObservation, observation);
    QFETCH(Verdict, verdict);
    QFETCH(Finding, finding);
    QFETCH(int, made);
    const ProbeVerdict v = check::evaluate(observation);
    QCOMPARE(check::findingName(v.finding), check::findingName(finding));
    QCOMPARE(check::verdictName(v.verdict), check::verdictName(verdict));
    QCOMPARE(v.creations, made);
    QCOMPARE(v.statuses.size(), observation.exchanges.size());
    QCOMPARE(v.probe, observation.probe);
}

void TestCheckVerdicts::creationsPreferTheListCount()
{
    // Answers without ids, but the collection grew by one: one creation, a replay passes.
    ProbeObservation o = obs(Probe::Replay, {ex(201, "", "{}"), ex(201, "", "{}")});
    o.countBefore = 4;
    o.countAfter = 5;
    QCOMPARE(check::creations(o), 1);
    QCOMPARE(check::evaluate(o).verdict, Verdict::Pass);
    // Grew by two although the ids claim one resource: the count wins.
    ProbeObservation twice = obs(Probe::Replay, {ex(201, "id:1"), ex(201, "id:1")});
    twice.countBefore = 0;
    twice.countAfter = 2;
    QCOMPARE(check::evaluate(twice).finding, Finding::CreatedTwice);
    // A count that shrank (someone deleted) is no count: back to the ids.
    twice.countAfter = -1;
    QCOMPARE(check::creations(twice), 1);
    twice.countBefore = 3;
    twice.countAfter = 2;
    QCOMPARE(check::creations(twice), 1);
}

void TestCheckVerdicts::roundsKeepTheWorst()
{
    ProbeVerdict pass, warn, cannot, fail, na;
    pass.verdict = Verdict::Pass;
    pass.round = 1;
    warn.verdict = Verdict::Warn;
    warn.round = 2;
    cannot.verdict = Verdict::CannotTell;
    cannot.round = 3;
    fail.verdict = Verdict::Fail;
    fail.round = 4;
    na.verdict = Verdict::NotApplicable;
    na.round = 5;
    QCOMPARE(check::combine({pass, fail, cannot}).round, 4);
    QCOMPARE(check::combine({pass, cannot, warn}).round, 3);
    QCOMPARE(check::combine({na, pass, warn}).round, 2);
    QCOMPARE(check::combine({na, pass}).round, 1);
    ProbeVerdict fail2 = fail;
    fail2.round = 6;
    QCOMPARE(check::combine({fail, fail2}).round, 4); // the first of equal severity
}

void TestCheckVerdicts::exitStatusFailsOnlyOnFail()
{
    ProbeVerdict v;
    QList<ProbeVerdict> card;
    for (Verdict each : {Verdict::Pass, Verdict::NotApplicable, Verdict::Warn, Verdict::CannotTell}) {
        v.verdict = each;
        card << v;
    }
    QCOMPARE(check::exitStatus(card), 0);
    v.verdict = Verdict::Fail;
    card << v;
    QCOMPARE(check::exitStatus(card), 1);
    QCOMPARE(check::exitStatus({}), 0);
}

void TestCheckVerdicts::resourceFromIdOrLocation()
{
    QCOMPARE(check::resourceOf("{\"id\":7}", QByteArray()), QStringLiteral("id:7"));
    QCOMPARE(check::resourceOf("{\"id\":7.0}", QByteArray()), QStringLiteral("id:7"));
    QCOMPARE(check::resourceOf("{\"id\":\"ord_1\"}", "/orders/9"), QStringLiteral("id:ord_1"));
    QCOMPARE(check::resourceOf("{\"id\":\"\"}", "/orders/9"), QStringLiteral("location:/orders/9"));
    QCOMPARE(check::resourceOf("not json", " /orders/9 "), QStringLiteral("location:/orders/9"));
    QCOMPARE(check::resourceOf("{\"data\":{\"id\":3}}", QByteArray(), QStringLiteral("data.id")), QStringLiteral("id:3"));
    QCOMPARE(check::resourceOf("{\"data\":{\"id\":3}}", QByteArray()), QString());
    QCOMPARE(check::resourceOf("{\"id\":null}", QByteArray()), QString());
    QCOMPARE(check::resourceOf("[1,2]", QByteArray()), QString());
    QCOMPARE(check::problemTypeOf("{\"type\":\"/problems/key-required\",\"status\":400}"), QStringLiteral("key-required"));
    QCOMPARE(check::problemTypeOf("{\"type\":\"about:blank\"}"), QStringLiteral("about:blank"));
    QCOMPARE(check::problemTypeOf("<html>"), QString());
}

void TestCheckVerdicts::collectionCounts()
{
    QCOMPARE(check::collectionCount("[]"), 0);
    QCOMPARE(check::collectionCount("[{},{},{}]"), 3);
    QCOMPARE(check::collectionCount("{\"orders\":[1,2],\"next\":null}"), 2);
    QCOMPARE(check::collectionCount("{\"a\":[1],\"b\":[2]}"), -1); // which one? cannot tell
    QCOMPARE(check::collectionCount("{\"ref\":\"x\",\"count\":5,\"orders\":[1]}", QStringLiteral("count")), 5);
    QCOMPARE(check::collectionCount("{\"page\":{\"items\":[1,2,3]}}", QStringLiteral("page.items")), 3);
    QCOMPARE(check::collectionCount("{\"count\":-1}", QStringLiteral("count")), -1);
    QCOMPARE(check::collectionCount("{\"count\":1.5}", QStringLiteral("count")), -1);
    QCOMPARE(check::collectionCount("{\"count\":\"5\"}", QStringLiteral("count")), -1);
    QCOMPARE(check::collectionCount("[1]", QStringLiteral("count")), -1);
    QCOMPARE(check::collectionCount("oops"), -1);
}

void TestCheckVerdicts::namesAreStable()
{
    // The JSON keys scripts read: renaming one breaks them.
    QCOMPARE(check::probeName(Probe::InFlight), QStringLiteral("in-flight"));
    QCOMPARE(check::probeName(Probe::RetryAfter5xx), QStringLiteral("retry-after-5xx"));
    QCOMPARE(check::verdictName(Verdict::CannotTell), QStringLiteral("cannot-tell"));
    QCOMPARE(check::findingName(Finding::FirstRefused), QStringLiteral("first-refused"));
    QCOMPARE(check::findingName(Finding::GhostDuplicated), QStringLiteral("ghost-duplicated"));
    QCOMPARE(check::findingName(Finding::RetryFailed), QStringLiteral("retry-failed"));
    QCOMPARE(check::faultName(CheckFault::ResponseLost), QStringLiteral("responseLost"));
}

void TestCheckVerdicts::jsonKeepsTheEvidence()
{
    const ProbeObservation o = obs(Probe::Ghost, {lost(201, "id:1"), ex(201, "id:2")});
    const QJsonObject v = check::evaluate(o).toJson();
    QCOMPARE(v.value(QLatin1String("verdict")).toString(), QStringLiteral("fail"));
    QCOMPARE(v.value(QLatin1String("creations")).toInt(), 2);
    QCOMPARE(v.value(QLatin1String("statuses")).toArray().size(), 2);
    QCOMPARE(v.value(QLatin1String("statuses")).toArray().at(0).toInt(), 201); // the dropped answer as the endpoint gave it
    QCOMPARE(v.value(QLatin1String("resources")).toArray().size(), 2);
    const QJsonObject first = o.toJson().value(QLatin1String("exchanges")).toArray().at(0).toObject();
    QCOMPARE(first.value(QLatin1String("fault")).toString(), QStringLiteral("responseLost"));
    QCOMPARE(first.value(QLatin1String("status")).toInt(), 0);
    QCOMPARE(first.value(QLatin1String("upstreamStatus")).toInt(), 201);
    QCOMPARE(first.value(QLatin1String("upstreamResource")).toString(), QStringLiteral("id:1"));
}

QTEST_GUILESS_MAIN(TestCheckVerdicts)
#include "tst_checkverdicts.moc"
