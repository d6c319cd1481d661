#pragma once

#include "trace.h"

#include <QString>

namespace retrylab::engine {

// The engine's trace texts on its hot paths, formatted without QString::arg or QLocale.

// printf-style ASCII formatting, integers only (%d, %x, %lld).
QString ascii(const char *format, ...) Q_ATTRIBUTE_FORMAT_PRINTF(1, 2);
// `prefix` and then v in `digits` lowercase hexadecimal digits ("req-0a1b2c3d"), one allocation.
QString hex(QLatin1StringView prefix, quint64 v, int digits);
// "op7/b2/w1/t3", or "op7#2/b2/w1/t3" for a second submission; "op7" with no attempt (0/0/0).
QString attemptPath(int op, int sub, int b, int w, int t);
// The same two texts written into a byte buffer (the JSONL writer's); each returns the end.
// putAttemptPath writes at most PathBound bytes ("op", "#" and "/b", "/w", "/t" around five
// integers of at most 11 characters), putHex its 4-letter prefix and `digits` (at most 16) digits.
inline constexpr qsizetype PathBound = 2 + 1 + 3 * 2 + 5 * 11;
char *putAttemptPath(char *out, int op, int sub, int b, int w, int t);
char *putHex(char *out, const char (&prefix)[5], quint64 v, int digits);

} // namespace retrylab::engine

namespace retrylab::trace {

// Writes a composed detail straight into a byte buffer (the JSONL writer's): at most
// DetailBound bytes plus the event's `ref`. `plain` turns false for text a JSON writer would
// escape (only a non-ASCII or quoted `ref` can bring it), and the caller then asks Qt's writer.
struct DetailBytes
{
    static constexpr qsizetype DetailBound = 256;
    static constexpr char RefMarker = '\x01'; // stands for `ref` when refMarker is set
    char *p;
    bool refMarker = false; // write RefMarker in place of the reference (trace::detailText)
    bool plain = true;
};
// Composes the detail of a DetailSource::Typed event: the one place the words of the engine's
// and the server pipeline's events are. Returns the end of what it wrote.
char *composeDetail(DetailBytes &out, const TraceEvent &e);

} // namespace retrylab::trace
