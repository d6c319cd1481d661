#pragma once

#include "trace.h"

#include <QString>

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

// Writes the digits of v (at least 10) ending at `end`, two at a time, in `Word` arithmetic.
template<class Word>
inline void putDigitsBefore(char *end, Word v)
{
    while (v >= 100) {
        const Word pair = v % 100;
        v /= 100;
        end -= 2;
        std::memcpy(end, digitPairs.decimal + 2 * pair, 2);
    }
    if (v >= 10)
        std::memcpy(end - 2, digitPairs.decimal + 2 * v, 2);
    else
        end[-1] = char('0' + v);
}

// Writes `value` in decimal, as std::to_chars does (at most 20 bytes); returns the end.
inline char *putDecimal(char *out, qint64 value)
{
    quint64 v = value < 0 ? 0 - quint64(value) : quint64(value);
    if (value < 0)
        *out++ = '-';
    if (v < 10) {
        *out = char('0' + v);
        return out + 1;
    }
    static constexpr quint64 powers[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
        10000000ull, 100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};
    // The digits: log10 of the highest bit (1233 / 4096 ~ log10 2), then one compare.
    const int log = ((64 - __builtin_clzll(v)) * 1233) >> 12;
    char *const end = out + log + (v >= powers[log] ? 1 : 0);
    if (v <= 0xffffffffu)
        putDigitsBefore(end, quint32(v)); // most numbers: cheaper division
    else
        putDigitsBefore(end, v);
    return end;
}

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
    bool refMarker = false; // write RefMarker in place of the reference (TraceEvent::detail())
    bool plain = true;
};
// Composes the detail of a DetailSource::Typed event: the one place the words of the engine's
// and the server pipeline's events are. Returns the end of what it wrote.
char *composeDetail(DetailBytes &out, const TraceEvent &e);

} // namespace retrylab::trace
