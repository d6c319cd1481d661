#pragma once

#include "check/checkexchange.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace retrylab {

// The probes of `retrylab check`, in the order they run.
enum class Probe {
    Replay,       // the same key and body twice in a row
    Mismatch,     // the same key with another body
    InFlight,     // the same key while the first request is still in flight
    Ghost,        // the answer of a committed request lost, then the retry with the same key
    MissingKey,   // no key on an endpoint that may require one
    NoKeyTwice,   // the same body twice without a key
    RetryAfter5xx // a 5xx before the endpoint saw anything, then the retry with the same key
};
constexpr int ProbeCount = 7;

enum class Verdict {
    Pass,
    NotApplicable,
    Warn,       // nothing broke, but a client can still come to harm (said in the finding)
    CannotTell, // the evidence cannot decide: never a guess
    Fail
};

// Why a probe got its verdict; the words are composed at the edge (app/cli/check.cpp).
enum class Finding {
    // any probe
    FirstRefused,   // the first request got no 2xx: nothing to compare against
    NoAnswer,       // a request that should have been answered was not
    ResourceUnseen, // a 2xx named no resource (no id, no Location) and there is no --list
    // replay
    Replayed,      // same status, same body, same resource, one creation
    CreatedTwice,  // a second resource
    ReplayDiffers, // one resource, but another status or body
    // mismatch
    MismatchRejected,    // 422
    MismatchReplayed,    // the other body got the first answer: the body is not compared
    MismatchCreated,     // the other body created a second resource
    MismatchOtherStatus, // refused, but not with 422
    NoOtherBody,         // the body template has no {n}: no other body to send
    // in flight
    InFlightConflict,    // 409 for the later ones, one creation
    InFlightOneCreation, // one creation, the later ones replayed or waited for
    InFlightCreatedMany, // more than one creation
    NotOverlapped,       // an answer came before the last request was sent: nothing was in flight together
    // ghost
    GhostReplayed,     // the retry got the committed resource
    GhostDuplicated,   // the retry created a second resource
    GhostNotCommitted, // the endpoint did not answer the lost request with a 2xx
    GhostRetryRefused, // no second resource, but the retry was refused: the client never learns of its order
    // missing key
    KeyRequired,        // 400
    KeylessAccepted,    // 2xx: keys are optional here
    KeylessOtherStatus, // refused, but not with 400
    // no key twice
    NoKeyDeduplicated, // one resource: it deduplicates on the body
    NoKeyDuplicated,   // two resources: a retry without a key creates a duplicate
    NoKeyRefused,      // refused (a key is required)
    // 5xx before commit
    RetrySucceeded, // the retry created the resource
    RetryFailed     // the retry got a 5xx again, or 409: the key held for a request never seen
};

// What a probe saw in one round: its exchanges in the order sent, and the collection's count
// before and after (--list; -1 unknown).
struct ProbeObservation
{
    Probe probe = Probe::Replay;
    int round = 1;
    QList<CheckExchange> exchanges;
    qint64 countBefore = -1;
    qint64 countAfter = -1;
    bool bodyVaries = true; // the body template has {n}: two fresh values give two bodies
    qint64 startUs = 0;     // when this round began, since the check began (its exchanges' times count from here)

    QJsonObject toJson() const;
};

// A probe's verdict with its evidence: the statuses in order (0: no answer; a dropped answer as
// the endpoint's status), the distinct resources created, and how many (-1: cannot tell).
struct ProbeVerdict
{
    Probe probe = Probe::Replay;
    Verdict verdict = Verdict::CannotTell;
    Finding finding = Finding::NoAnswer;
    int round = 1;
    QList<int> statuses;
    QStringList resources;
    int creations = -1;
    QString problemType; // of the answer that decided, when it was a problem

    QJsonObject toJson() const;
};

} // namespace retrylab
