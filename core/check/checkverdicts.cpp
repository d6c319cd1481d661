// The verdicts of `retrylab check`: what each probe's exchanges show about the endpoint, and what
// they cannot show. The expected answers follow the IETF draft "The Idempotency-Key HTTP Header
// Field" (draft-ietf-httpapi-idempotency-key-header, section "Error Scenarios"): 400 for a
// missing key where one is required, 409 for a request still in progress, 422 for a key reused
// with another payload, and the first answer replayed for a key seen before.
#include "check/checkverdicts.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace retrylab {
namespace check {

namespace {

ProbeVerdict verdict(const ProbeObservation &o, Verdict v, Finding f, const CheckExchange *deciding = nullptr)
{
    ProbeVerdict r;
    r.probe = o.probe;
    r.round = o.round;
    r.verdict = v;
    r.finding = f;
    QSet<QString> seen;
    for (const CheckExchange &e : o.exchanges) {
        r.statuses << e.endpointStatus();
        const int s = e.endpointStatus();
        const QString res = e.endpointResource();
        if (s >= 200 && s < 300 && !res.isEmpty() && !seen.contains(res)) {
            seen.insert(res);
            r.resources << res;
        }
    }
    r.creations = creations(o);
    if (deciding)
        r.problemType = deciding->problemType;
    return r;
}

// Bodies equal as JSON values (member order and spacing aside), or byte for byte.
bool sameBody(const QByteArray &a, const QByteArray &b)
{
    if (a == b)
        return true;
    const QJsonDocument da = QJsonDocument::fromJson(a);
    const QJsonDocument db = QJsonDocument::fromJson(b);
    return !da.isNull() && da == db;
}

// Nothing to compare against when the first request got no 2xx.
bool firstFailed(const ProbeObservation &o, ProbeVerdict *out)
{
    const CheckExchange &first = o.exchanges.at(0);
    if (!first.answered())
        *out = verdict(o, Verdict::CannotTell, Finding::NoAnswer, &first);
    else if (!first.success())
        *out = verdict(o, Verdict::CannotTell, Finding::FirstRefused, &first);
    else
        return false;
    return true;
}

// What a second resource means for each probe that may make one: one table, read by
// createdTooMany(). The no-key probe only warns: without a key, two creations are what the
// endpoint was told to do, and the harm is the client's retry.
struct SecondResource
{
    Probe probe;
    Verdict verdict;
    Finding finding;
};
constexpr SecondResource SecondResources[] = {
    {Probe::Replay, Verdict::Fail, Finding::CreatedTwice},
    {Probe::Mismatch, Verdict::Fail, Finding::MismatchCreated},
    {Probe::InFlight, Verdict::Fail, Finding::InFlightCreatedMany},
    {Probe::Ghost, Verdict::Fail, Finding::GhostDuplicated},
    {Probe::NoKeyTwice, Verdict::Warn, Finding::NoKeyDuplicated},
};

// More than one resource (the probe's verdict from the table), or none seen where one was
// expected (cannot tell). `made` is creations(o); `deciding` the exchange that names the finding.
bool createdTooMany(const ProbeObservation &o, int made, bool resourceExpected, const CheckExchange *deciding,
                    ProbeVerdict *out)
{
    if (made >= 2) {
        for (const SecondResource &rule : SecondResources) {
            if (rule.probe == o.probe) {
                *out = verdict(o, rule.verdict, rule.finding, deciding);
                return true;
            }
        }
    }
    if (made < 0 && resourceExpected) {
        *out = verdict(o, Verdict::CannotTell, Finding::ResourceUnseen, deciding);
        return true;
    }
    return false;
}

// What the probes of two requests in a row (replay, mismatch) need before they compare: the
// first got a 2xx, the second an answer, and no second resource was made. False with the verdict
// in *out otherwise; *made: creations(o).
bool secondComparable(const ProbeObservation &o, int *made, ProbeVerdict *out)
{
    if (firstFailed(o, out))
        return false;
    const CheckExchange &second = o.exchanges.at(1);
    if (!second.answered()) {
        *out = verdict(o, Verdict::CannotTell, Finding::NoAnswer, &second);
        return false;
    }
    *made = creations(o);
    return !createdTooMany(o, *made, false, &second, out);
}

ProbeVerdict replay(const ProbeObservation &o)
{
    ProbeVerdict r;
    int made = 0;
    if (!secondComparable(o, &made, &r))
        return r;
    const CheckExchange &first = o.exchanges.at(0), &second = o.exchanges.at(1);
    const bool same = second.status == first.status && sameBody(first.body, second.body);
    if (!same)
        return verdict(o, Verdict::Fail, Finding::ReplayDiffers, &second);
    // Two identical answers without an id could still be two resources.
    if (createdTooMany(o, made, true, &second, &r))
        return r;
    return verdict(o, Verdict::Pass, Finding::Replayed, &second);
}

ProbeVerdict mismatch(const ProbeObservation &o)
{
    if (!o.bodyVaries)
        return verdict(o, Verdict::CannotTell, Finding::NoOtherBody);
    ProbeVerdict r;
    int made = 0;
    if (!secondComparable(o, &made, &r))
        return r;
    const CheckExchange &first = o.exchanges.at(0), &second = o.exchanges.at(1);
    if (second.status == 422)
        return verdict(o, Verdict::Pass, Finding::MismatchRejected, &second);
    if (!second.success())
        return verdict(o, Verdict::Fail, Finding::MismatchOtherStatus, &second);
    // A 2xx for the other body: the first answer again (one resource), or a second one unseen.
    if (made == 1 || sameBody(first.body, second.body))
        return verdict(o, Verdict::Fail, Finding::MismatchReplayed, &second);
    return verdict(o, Verdict::CannotTell, Finding::ResourceUnseen, &second);
}

ProbeVerdict inFlight(const ProbeObservation &o)
{
    const int made = creations(o);
    // Two resources for one key fail whether or not the requests overlapped.
    ProbeVerdict r;
    if (createdTooMany(o, made, false, nullptr, &r))
        return r;
    qint64 lastSent = -1, firstAnswer = -1;
    bool allAnswered = true, anySuccess = false, anyConflict = false;
    for (const CheckExchange &e : o.exchanges) {
        lastSent = std::max(lastSent, e.sentUs);
        if (e.answered())
            firstAnswer = firstAnswer < 0 ? e.answeredUs : std::min(firstAnswer, e.answeredUs);
        allAnswered = allAnswered && e.answered();
        anySuccess = anySuccess || e.success();
        anyConflict = anyConflict || e.status == 409;
    }
    if (!allAnswered)
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer);
    if (!anySuccess)
        return verdict(o, Verdict::CannotTell, Finding::FirstRefused, &o.exchanges.at(0));
    if (createdTooMany(o, made, true, nullptr, &r))
        return r;
    // An answer before the last request left: they were not all in flight together.
    if (firstAnswer < lastSent)
        return verdict(o, Verdict::CannotTell, Finding::NotOverlapped);
    return verdict(o, Verdict::Pass, anyConflict ? Finding::InFlightConflict : Finding::InFlightOneCreation);
}

ProbeVerdict ghost(const ProbeObservation &o)
{
    const CheckExchange &lost = o.exchanges.at(0), &retry = o.exchanges.at(1);
    if (lost.upstreamStatus == 0)
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer, &lost);
    if (lost.upstreamStatus < 200 || lost.upstreamStatus >= 300)
        return verdict(o, Verdict::CannotTell, Finding::GhostNotCommitted, &lost);
    if (!retry.answered())
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer, &retry);
    ProbeVerdict r;
    if (createdTooMany(o, creations(o), true, &retry, &r))
        return r;
    if (!retry.success())
        return verdict(o, Verdict::Warn, Finding::GhostRetryRefused, &retry);
    return verdict(o, Verdict::Pass, Finding::GhostReplayed, &retry);
}

ProbeVerdict missingKey(const ProbeObservation &o)
{
    const CheckExchange &e = o.exchanges.at(0);
    if (!e.answered())
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer, &e);
    if (e.status == 400)
        return verdict(o, Verdict::Pass, Finding::KeyRequired, &e);
    if (e.success())
        return verdict(o, Verdict::NotApplicable, Finding::KeylessAccepted, &e);
    return verdict(o, Verdict::Fail, Finding::KeylessOtherStatus, &e);
}

ProbeVerdict noKeyTwice(const ProbeObservation &o)
{
    const CheckExchange &first = o.exchanges.at(0), &second = o.exchanges.at(1);
    if (!first.answered() || !second.answered())
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer, first.answered() ? &second : &first);
    if (first.status >= 400 && first.status < 500 && second.status >= 400 && second.status < 500)
        return verdict(o, Verdict::NotApplicable, Finding::NoKeyRefused, &first);
    if (!first.success())
        return verdict(o, Verdict::CannotTell, Finding::FirstRefused, &first);
    ProbeVerdict r;
    if (createdTooMany(o, creations(o), true, &second, &r))
        return r;
    return verdict(o, Verdict::Pass, Finding::NoKeyDeduplicated, &second);
}

ProbeVerdict retryAfter5xx(const ProbeObservation &o)
{
    const CheckExchange &retry = o.exchanges.at(1);
    if (!retry.answered())
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer, &retry);
    if (retry.success())
        return verdict(o, Verdict::Pass, Finding::RetrySucceeded, &retry);
    // A 5xx again (a stored error, or still failing) or 409 (the key held for a request the
    // endpoint never saw) fails; any other refusal is the endpoint's answer to the request itself.
    if (retry.status >= 500 || retry.status == 409)
        return verdict(o, Verdict::Fail, Finding::RetryFailed, &retry);
    return verdict(o, Verdict::CannotTell, Finding::FirstRefused, &retry);
}

// How many exchanges each probe's evaluation reads.
int exchangesNeeded(Probe p)
{
    return p == Probe::MissingKey ? 1 : 2;
}

int severity(Verdict v)
{
    switch (v) {
    case Verdict::NotApplicable:
        return 0;
    case Verdict::Pass:
        return 1;
    case Verdict::Warn:
        return 2;
    case Verdict::CannotTell:
        return 3;
    case Verdict::Fail:
        return 4;
    }
    return 4;
}

} // namespace

int creations(const ProbeObservation &o)
{
    if (o.countBefore >= 0 && o.countAfter >= o.countBefore)
        return int(o.countAfter - o.countBefore);
    QSet<QString> resources;
    for (const CheckExchange &e : o.exchanges) {
        const int s = e.endpointStatus();
        if (s < 200 || s >= 300)
            continue;
        const QString res = e.endpointResource();
        if (res.isEmpty())
            return -1;
        resources.insert(res);
    }
    return int(resources.size());
}

ProbeVerdict evaluate(const ProbeObservation &o)
{
    // The mismatch probe sends nothing without {n}; the others need their exchanges.
    if (o.exchanges.size() < exchangesNeeded(o.probe) && !(o.probe == Probe::Mismatch && !o.bodyVaries))
        return verdict(o, Verdict::CannotTell, Finding::NoAnswer);
    switch (o.probe) {
    case Probe::Replay:
        return replay(o);
    case Probe::Mismatch:
        return mismatch(o);
    case Probe::InFlight:
        return inFlight(o);
    case Probe::Ghost:
        return ghost(o);
    case Probe::MissingKey:
        return missingKey(o);
    case Probe::NoKeyTwice:
        return noKeyTwice(o);
    case Probe::RetryAfter5xx:
        return retryAfter5xx(o);
    }
    return verdict(o, Verdict::CannotTell, Finding::NoAnswer);
}

ProbeVerdict combine(const QList<ProbeVerdict> &rounds)
{
    Q_ASSERT(!rounds.isEmpty());
    ProbeVerdict worst = rounds.constFirst();
    for (const ProbeVerdict &r : rounds) {
        if (severity(r.verdict) > severity(worst.verdict))
            worst = r;
    }
    return worst;
}

int exitStatus(const QList<ProbeVerdict> &card)
{
    for (const ProbeVerdict &v : card) {
        if (v.verdict == Verdict::Fail)
            return 1;
    }
    return 0;
}

QString probeName(Probe p)
{
    static const char *const names[ProbeCount] = {"replay", "mismatch", "in-flight", "ghost", "missing-key", "no-key-twice",
                                                  "retry-after-5xx"};
    return QLatin1String(names[int(p)]);
}

QString verdictName(Verdict v)
{
    static const char *const names[] = {"pass", "not-applicable", "warn", "cannot-tell", "fail"};
    return QLatin1String(names[int(v)]);
}

QString findingName(Finding f)
{
    static const char *const names[] = {
            "first-refused",     "no-answer",           "resource-unseen",        "replayed",         "created-twice",
            "replay-differs",    "mismatch-rejected",   "mismatch-replayed",      "mismatch-created", "mismatch-other-status",
            "no-other-body",     "in-flight-conflict",  "in-flight-one-creation", "in-flight-created-many",
            "not-overlapped",    "ghost-replayed",      "ghost-duplicated",       "ghost-not-committed",
            "ghost-retry-refused", "key-required",      "keyless-accepted",       "keyless-other-status",
            "no-key-deduplicated", "no-key-duplicated", "no-key-refused",         "retry-succeeded", "retry-failed"};
    static_assert(sizeof(names) / sizeof(names[0]) == int(Finding::RetryFailed) + 1, "one name per finding");
    return QLatin1String(names[int(f)]);
}

QString faultName(CheckFault f)
{
    switch (f) {
    case CheckFault::None:
        return QStringLiteral("none");
    case CheckFault::ResponseLost:
        return QStringLiteral("responseLost");
    case CheckFault::Error5xxBeforeCommit:
        return QStringLiteral("server5xxBeforeCommit");
    }
    return QString();
}

} // namespace check

QJsonObject ProbeObservation::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("round"), round);
    o.insert(QStringLiteral("startUs"), startUs);
    o.insert(QStringLiteral("bodyVaries"), bodyVaries);
    if (countBefore >= 0)
        o.insert(QStringLiteral("countBefore"), countBefore);
    if (countAfter >= 0)
        o.insert(QStringLiteral("countAfter"), countAfter);
    QJsonArray list;
    for (const CheckExchange &e : exchanges)
        list.append(e.toJson());
    o.insert(QStringLiteral("exchanges"), list);
    return o;
}

QJsonObject ProbeVerdict::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("probe"), check::probeName(probe));
    o.insert(QStringLiteral("verdict"), check::verdictName(verdict));
    o.insert(QStringLiteral("finding"), check::findingName(finding));
    o.insert(QStringLiteral("round"), round);
    QJsonArray s;
    for (int status : statuses)
        s.append(status);
    o.insert(QStringLiteral("statuses"), s);
    o.insert(QStringLiteral("resources"), QJsonArray::fromStringList(resources));
    o.insert(QStringLiteral("creations"), creations);
    if (!problemType.isEmpty())
        o.insert(QStringLiteral("problemType"), problemType);
    return o;
}

} // namespace retrylab
