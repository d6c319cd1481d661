#pragma once

#include <QString>

namespace retrylab::engine {

// The engine's trace texts on its hot paths, formatted without QString::arg or QLocale.

// printf-style ASCII formatting, integers only (%d, %x, %lld).
QString ascii(const char *format, ...) Q_ATTRIBUTE_FORMAT_PRINTF(1, 2);
// v in `digits` lowercase hexadecimal digits.
QString hex(quint64 v, int digits);
// "op7/b2/w1/t3", or "op7#2/b2/w1/t3" for a second submission.
QString attemptPath(int op, int sub, int b, int w, int t);
// "wait 250 ms", "wait 1.50 s".
QString waitText(qint64 us);

} // namespace retrylab::engine
