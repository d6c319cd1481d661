#pragma once

#include "check/probeverdict.h"

#include <QString>

namespace retrylab {
namespace check {

// The words of a check's card, for the command line's table and the window's report panel alike
// (translated in the "check" context of retrylab_core_zh_CN.ts).

QString verdictWord(Verdict v);  // "pass", "n/a", "warn", "cannot tell", "FAIL"
QString probeTitle(Probe p);     // "same key, same body, twice", ...
// Why the probe got its verdict, with the deciding status ("refused with 403; the draft says 422");
// `idField` is where the answers were read for an id (--id-field).
QString findingText(const ProbeVerdict &v, const QString &idField);

} // namespace check
} // namespace retrylab
