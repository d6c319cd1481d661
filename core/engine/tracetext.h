#pragma once

#include "trace.h"

#include <QString>
#include <QtEndian>

#include <cstring>

namespace retrylab::engine {

// Digit pairs "00".."99" and "00".."ff": the number writers below write two digits per step
// (the JSONL writer's numbers and texts were a third of a traced run's instructions).
struct DigitPairs
{
    char decimal[200];
    char hex[512];
    constexpr DigitPairs()
        : decimal()
        , hex()
    {
        for (int i = 0; i < 100; ++i) {
            decimal[2 * i] = char('0' + i / 10);
            decimal[2 * i + 1] = char('0' + i % 10);
        }
        for (int i = 0; i < 256; ++i) {
            hex[2 * i] = "0123456789abcdef"[i >> 4];
            hex[2 * i + 1] = "0123456789abcdef"[i & 15];
        }
    }
};
inline constexpr DigitPairs digitPairs;

// Decimal digits from a fixed-point fraction, two per multiplication (no division): y holds
// n / 10^k with a 32-bit fraction, y >> 32 the leading one or two digits, and each multiplication
// of the fraction by 100 brings the next two up. The constants make y exact enough: with
// M = ceil(2^(32+s) / 10^k), y = (n * M >> s) + 1 lies in [n * 2^32 / 10^k, (n + 1) * 2^32 / 10^k)
// for every n below the range's end (its error n * (M - 2^(32+s) / 10^k) / 2^s, plus the 1, stays
// under 2^32 / 10^k), so no pair is one too low or too high; n * M never passes 2^64.
struct Fixed
{
    char *out;
    quint64 y;
    void lead(bool twoDigits)
    {
        const quint32 q = quint32(y >> 32);
        if (twoDigits) {
            std::memcpy(out, digitPairs.decimal + 2 * q, 2);
            out += 2;
        } else {
            *out++ = char('0' + q);
        }
    }
    void pair()
    {
        y = quint64(quint32(y)) * 100;
        std::memcpy(out, digitPairs.decimal + 2 * quint32(y >> 32), 2);
        out += 2;
    }
};

// Writes n (below 2^32) in decimal; returns the end.
inline char *putDecimal32(char *out, quint32 n)
{
    if (n < 100) {
        if (n < 10) {
            *out = char('0' + n);
            return out + 1;
        }
        std::memcpy(out, digitPairs.decimal + 2 * n, 2);
        return out + 2;
    }
    Fixed f{out, 0};
    if (n < 1000000) {
        if (n < 10000) { // k = 2
            f.y = quint64(n) * 42949673u + 1;
            f.lead(n >= 1000);
        } else { // k = 4
            f.y = quint64(n) * 429497u + 1;
            f.lead(n >= 100000);
            f.pair();
        }
    } else if (n < 100000000) { // k = 6, s = 16
        f.y = (quint64(n) * 281474977u >> 16) + 1;
        f.lead(n >= 10000000);
        f.pair();
        f.pair();
    } else { // k = 8, s = 25
        f.y = (quint64(n) * 1441151881u >> 25) + 1;
        f.lead(n >= 1000000000);
        f.pair();
        f.pair();
        f.pair();
    }
    f.pair();
    return f.out;
}

// Writes n (below 10^8) as exactly eight digits, zero-padded; returns the end.
inline char *putEightDigits(char *out, quint32 n)
{
    Fixed f{out, (quint64(n) * 281474977u >> 16) + 1};
    f.lead(true);
    f.pair();
    f.pair();
    f.pair();
    return f.out;
}

// Writes the eight lowercase hexadecimal digits of v at `out` (zero-padded): each nibble spread
// to a byte, '0' added, and 'a' - '0' - 10 more where a nibble is over 9, the first digit the
// highest nibble.
inline void putHexWord(char *out, quint32 v)
{
    quint64 x = v;
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    const quint64 letters = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
    qToBigEndian(x + 0x3030303030303030ull + letters * quint64('a' - '0' - 10), out);
}

// Writes `value` in decimal, as std::to_chars does (at most 20 bytes); returns the end.
inline char *putDecimal(char *out, qint64 value)
{
    quint64 v = value < 0 ? 0 - quint64(value) : quint64(value);
    if (value < 0)
        *out++ = '-';
    if (v <= 0xffffffffu)
        return putDecimal32(out, quint32(v));
    // Eight digits at a time from the right: at most three pieces.
    const quint64 high = v / 100000000;
    const quint32 low = quint32(v % 100000000);
    if (high <= 0xffffffffu) {
        out = putDecimal32(out, quint32(high));
    } else {
        out = putDecimal32(out, quint32(high / 100000000));
        out = putEightDigits(out, quint32(high % 100000000));
    }
    return putEightDigits(out, low);
}

// The engine's trace texts on its hot paths, formatted without QString::arg or QLocale.

// printf-style ASCII formatting, integers only (%d, %x, %lld).
QString ascii(const char *format, ...) Q_ATTRIBUTE_FORMAT_PRINTF(1, 2);
// `prefix` and then v in `digits` lowercase hexadecimal digits ("req-0a1b2c3d"), one allocation.
QString hex(QLatin1StringView prefix, quint64 v, int digits);
// "ORD-0007": the business reference of an operation (printf's "ORD-%04d"), in one allocation.
QString orderText(int op);
// "op7/b2/w1/t3", or "op7#2/b2/w1/t3" for a second submission; "op7" with no attempt (0/0/0).
QString attemptPath(int op, int sub, int b, int w, int t);
// The same two texts written into a byte buffer (the JSONL writer's); each returns the end.
// putAttemptPath writes at most PathBound bytes ("op", "#" and "/b", "/w", "/t" around five
// integers of at most 11 characters), putHex its 4-letter prefix and `digits` (at most 16) digits.
inline constexpr qsizetype PathBound = 2 + 1 + 3 * 2 + 5 * 11;
char *putAttemptPath(char *out, int op, int sub, int b, int w, int t);
// The path after "op7": "#2" of a second submission, then "/b2/w1/t3" (nothing with no attempt).
char *putAttemptTailSlow(char *out, int sub, int b, int w, int t);
inline char *putAttemptTail(char *p, int sub, int b, int w, int t)
{
    if (sub == 1 && unsigned(b - 1) < 9 && unsigned(w - 1) < 9 && unsigned(t - 1) < 9) {
        // The usual path, every attempt 1 to 9: "/b1/w2/t3" as one 8-byte word and a digit.
        qToLittleEndian(qFromLittleEndian<quint64>("/b0/w0/t") + (quint64(b) << 16 | quint64(w) << 40), p);
        p[8] = char('0' + t);
        return p + 9;
    }
    return putAttemptTailSlow(p, sub, b, w, t);
}
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
    bool refMarker = false; // write RefMarker in place of the reference (TraceEvent::detail())
    bool plain = true;
    // The event's op in decimal when the caller wrote it already (the line writer: 16 bytes
    // readable, and 16 writable past the detail's end), else null.
    const char *opText = nullptr;
    qsizetype opSize = 0;
};
// Composes the detail of a DetailSource::Typed event: the one place the words of the engine's
// and the server pipeline's events are. Returns the end of what it wrote.
char *composeDetail(DetailBytes &out, const TraceEvent &e);

} // namespace retrylab::trace
