#pragma once

#include "check/probeverdict.h"

#include <QList>

namespace retrylab {
namespace check {

// The pure half of `retrylab check`: given what a probe sent and what came back, its verdict
// and the evidence. No socket, no clock: tests/core/tst_checkverdicts.cpp feeds it exchanges.

ProbeVerdict evaluate(const ProbeObservation &observation);
// Rounds of one probe: the most severe verdict wins (fail, cannot tell, warn, pass, not
// applicable), the first round of that severity giving the evidence.
ProbeVerdict combine(const QList<ProbeVerdict> &rounds);
// Exit status of a card: 1 when a probe failed, else 0.
int exitStatus(const QList<ProbeVerdict> &card);

// How many resources the exchanges created: the --list count's growth when known, else the
// distinct resources named by the endpoint's 2xx answers (dropped ones included); -1 when a 2xx
// named none and there is no count.
int creations(const ProbeObservation &observation);

QString probeName(Probe probe);     // "replay", "mismatch", "in-flight", ...: JSON and table keys
QString verdictName(Verdict v);     // "pass", "not-applicable", "warn", "cannot-tell", "fail"
QString findingName(Finding f);     // "replayed", "created-twice", ...
QString faultName(CheckFault f);    // "none", "responseLost", "server5xxBeforeCommit"

} // namespace check
} // namespace retrylab
