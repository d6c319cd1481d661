#include "engine/tracetext.h"

#include "engine/eventqueue.h"

#include <cstdarg>
#include <cstdio>

namespace retrylab::engine {

// printf-style ASCII formatting for the trace's hot paths: QString::arg and
// QString::number go through QLocale and dominated traced runs. Integers only
// (%d, %x), so the C locale question never arises.
QString ascii(const char *format, ...)
{
    char buffer[128];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return QString::fromLatin1(buffer, qBound(0, n, int(sizeof buffer) - 1));
}

namespace {

// The two formats of every attempt, written digit by digit (vsnprintf's parsing showed in traced runs).
char *putInt(char *out, int v)
{
    char digits[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - unsigned(v) : unsigned(v);
    do {
        digits[n++] = char('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *out++ = '-';
    while (n)
        *out++ = digits[--n];
    return out;
}

} // namespace

QString hex(quint64 v, int digits)
{
    char buffer[16];
    digits = qBound(1, digits, 16);
    for (int i = digits - 1; i >= 0; --i, v >>= 4)
        buffer[i] = "0123456789abcdef"[v & 0xF];
    return QString::fromLatin1(buffer, digits);
}

// "op7/b2/w1/t3", or "op7#2/b2/w1/t3" for a second submission.
QString attemptPath(int op, int sub, int b, int w, int t)
{
    char buffer[80];
    char *p = buffer;
    *p++ = 'o';
    *p++ = 'p';
    p = putInt(p, op);
    if (sub != 1) {
        *p++ = '#';
        p = putInt(p, sub);
    }
    *p++ = '/';
    *p++ = 'b';
    p = putInt(p, b);
    *p++ = '/';
    *p++ = 'w';
    p = putInt(p, w);
    *p++ = '/';
    *p++ = 't';
    p = putInt(p, t);
    return QString::fromLatin1(buffer, int(p - buffer));
}

QString waitText(qint64 us)
{
    if (us < kS)
        return QStringLiteral("wait %1 ms").arg(double(us) / kMs, 0, 'f', us % kMs ? 1 : 0);
    return QStringLiteral("wait %1 s").arg(double(us) / kS, 0, 'f', 2);
}

} // namespace retrylab::engine
