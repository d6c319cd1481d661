// The words of a check's card: probe titles, verdicts and findings, through tr() at the edge.
#include "check/checkwords.h"

#include <QCoreApplication>

namespace retrylab {
namespace check {

QString verdictWord(Verdict v)
{
    switch (v) {
    case Verdict::Pass:
        return QCoreApplication::translate("check", "pass");
    case Verdict::NotApplicable:
        return QCoreApplication::translate("check", "n/a");
    case Verdict::Warn:
        return QCoreApplication::translate("check", "warn");
    case Verdict::CannotTell:
        return QCoreApplication::translate("check", "cannot tell");
    case Verdict::Fail:
        return QCoreApplication::translate("check", "FAIL");
    }
    return QString();
}

QString probeTitle(Probe p)
{
    switch (p) {
    case Probe::Replay:
        return QCoreApplication::translate("check", "same key, same body, twice");
    case Probe::Mismatch:
        return QCoreApplication::translate("check", "same key, other body");
    case Probe::InFlight:
        return QCoreApplication::translate("check", "same key while in flight");
    case Probe::Ghost:
        return QCoreApplication::translate("check", "answer lost, retry (ghost)");
    case Probe::MissingKey:
        return QCoreApplication::translate("check", "no key");
    case Probe::NoKeyTwice:
        return QCoreApplication::translate("check", "no key, same body, twice");
    case Probe::RetryAfter5xx:
        return QCoreApplication::translate("check", "5xx before commit, retry");
    }
    return QString();
}

// The answer that decided: "409" or "400 (key-required)".
namespace {

QString decidingStatus(const ProbeVerdict &v)
{
    int status = 0;
    for (int s : v.statuses) {
        if (s != 0)
            status = s;
    }
    return v.problemType.isEmpty() ? QString::number(status) : QStringLiteral("%1 (%2)").arg(status).arg(v.problemType);
}

} // namespace

QString findingText(const ProbeVerdict &v, const QString &idField)
{
    switch (v.finding) {
    case Finding::FirstRefused:
        return QCoreApplication::translate("check", "the first request got %1: nothing to compare with (check --body and -H)").arg(decidingStatus(v));
    case Finding::NoAnswer:
        return QCoreApplication::translate("check", "a request got no answer within --timeout");
    case Finding::ResourceUnseen:
        return QCoreApplication::translate("check", "the answers name no resource (no \"%1\", no Location) and there is no --list: the creations "
                  "cannot be counted").arg(idField);
    case Finding::Replayed:
        return QCoreApplication::translate("check", "replayed: same status, body and resource; created once");
    case Finding::CreatedTwice:
        return QCoreApplication::translate("check", "the same key created a second resource");
    case Finding::ReplayDiffers:
        return QCoreApplication::translate("check", "the second answer differs from the first (status or body): not a replay");
    case Finding::MismatchRejected:
        return QCoreApplication::translate("check", "422 for the key reused with another body");
    case Finding::MismatchReplayed:
        return QCoreApplication::translate("check", "the other body got the first answer: the body is not compared with the key's (expected 422)");
    case Finding::MismatchCreated:
        return QCoreApplication::translate("check", "the other body created a second resource under the same key");
    case Finding::MismatchOtherStatus:
        return QCoreApplication::translate("check", "refused with %1; the draft says 422").arg(decidingStatus(v));
    case Finding::NoOtherBody:
        return QCoreApplication::translate("check", "--body has no {n}: there is no other body to send");
    case Finding::InFlightConflict:
        return QCoreApplication::translate("check", "409 while the first was in flight; created once");
    case Finding::InFlightOneCreation:
        return QCoreApplication::translate("check", "created once; the others waited and replayed");
    case Finding::InFlightCreatedMany:
        return QCoreApplication::translate("check", "%n resources for one key sent at once: a check-then-insert race", nullptr, v.creations);
    case Finding::NotOverlapped:
        return QCoreApplication::translate("check", "an answer came before the last request was sent: nothing was in flight together");
    case Finding::GhostReplayed:
        return QCoreApplication::translate("check", "the retry got the resource the lost answer created; no second one");
    case Finding::GhostDuplicated:
        return QCoreApplication::translate("check", "the retry created a second resource: a duplicate after a lost answer");
    case Finding::GhostNotCommitted:
        return QCoreApplication::translate("check", "the endpoint answered the lost request with %1: nothing was committed").arg(decidingStatus(v));
    case Finding::GhostRetryRefused:
        return QCoreApplication::translate("check", "no duplicate, but the retry got %1: the client never learns its request succeeded").arg(decidingStatus(v));
    case Finding::KeyRequired:
        return QCoreApplication::translate("check", "400 without a key: keys are required");
    case Finding::KeylessAccepted:
        return QCoreApplication::translate("check", "accepts POST without a key");
    case Finding::KeylessOtherStatus:
        return QCoreApplication::translate("check", "refused with %1 without a key; the draft says 400").arg(decidingStatus(v));
    case Finding::NoKeyDeduplicated:
        return QCoreApplication::translate("check", "one resource: it deduplicates the same body without a key");
    case Finding::NoKeyDuplicated:
        return QCoreApplication::translate("check", "two resources: a client that retries without a key creates a duplicate");
    case Finding::NoKeyRefused:
        return QCoreApplication::translate("check", "refused without a key");
    case Finding::RetrySucceeded:
        return QCoreApplication::translate("check", "the retry succeeded. The proxy answered the 503 itself, so this shows that nothing holds the key "
                  "of a request the endpoint never saw, not whether it stores its own errors");
    case Finding::RetryFailed:
        return QCoreApplication::translate("check", "the retry got %1 although the endpoint never saw the first request (the proxy answered its 503)")
                .arg(decidingStatus(v));
    }
    return QString();
}

} // namespace check
} // namespace retrylab
