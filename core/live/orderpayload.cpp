#include "orderpayload.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstring>

namespace retrylab {

namespace {

constexpr quint64 kFnvOffset = 1469598103934665603ull;
constexpr quint64 kFnvPrime = 1099511628211ull;

// FNV-1a, 64 bits: a payload fingerprint that is the same in every process (qHash is seeded).
void fnv(quint64 &h, const void *data, qsizetype size)
{
    const uchar *p = static_cast<const uchar *>(data);
    for (qsizetype i = 0; i < size; ++i) {
        h ^= p[i];
        h *= kFnvPrime;
    }
}

// Hashes the parsed value (object keys in sorted order), so whitespace and key order do not
// change the fingerprint while every field and value does. No serialisation on the way.
void fingerprintValue(quint64 &h, const QJsonValue &v)
{
    const uchar type = uchar(v.type());
    fnv(h, &type, 1);
    switch (v.type()) {
    case QJsonValue::Bool: {
        const uchar b = v.toBool();
        fnv(h, &b, 1);
        break;
    }
    case QJsonValue::Double: {
        const double d = v.toDouble();
        fnv(h, &d, sizeof d);
        break;
    }
    case QJsonValue::String: {
        const QString s = v.toString();
        const qint64 n = s.size();
        fnv(h, &n, sizeof n);
        fnv(h, s.constData(), s.size() * qsizetype(sizeof(QChar)));
        break;
    }
    case QJsonValue::Array: {
        const QJsonArray a = v.toArray();
        const qint64 n = a.size();
        fnv(h, &n, sizeof n);
        for (const QJsonValue &item : a)
            fingerprintValue(h, item);
        break;
    }
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        const qint64 n = o.size();
        fnv(h, &n, sizeof n);
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString key = it.key();
            const qint64 k = key.size();
            fnv(h, &k, sizeof k);
            fnv(h, key.constData(), key.size() * qsizetype(sizeof(QChar)));
            fingerprintValue(h, it.value());
        }
        break;
    }
    default:
        break;
    }
}

// fnv() of an ASCII text as the UTF-16 code units QString holds (little-endian, as above),
// preceded by its length: what fingerprintValue() hashes for a key or a string.
void fnvAscii(quint64 &h, const char *p, qsizetype n)
{
    const qint64 length = n;
    fnv(h, &length, sizeof length);
    for (qsizetype i = 0; i < n; ++i) {
        h ^= uchar(p[i]);
        h *= kFnvPrime;
        h *= kFnvPrime; // the high byte, 0: h ^= 0 changes nothing
    }
}

// One member of a flat object, as readFlat() found it.
struct Member
{
    const char *key;
    qsizetype keySize;
    QJsonValue::Type type;
    const char *text; // a string's characters
    qsizetype textSize;
    double number;
    bool flag;
};

constexpr int kMaxMembers = 16;

struct FlatReader
{
    const char *p;
    const char *end;

    void space()
    {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            ++p;
    }
    bool take(char c)
    {
        if (p == end || *p != c)
            return false;
        ++p;
        return true;
    }
    bool word(const char *w, size_t n)
    {
        if (size_t(end - p) < n || std::memcmp(p, w, n) != 0)
            return false;
        p += n;
        return true;
    }
    // A string of printable ASCII without escapes; its quotes are taken.
    bool string(const char **text, qsizetype *size)
    {
        if (!take('"'))
            return false;
        const char *from = p;
        while (p < end && *p != '"') {
            if (uchar(*p) < 0x20 || uchar(*p) > 0x7e || *p == '\\')
                return false;
            ++p;
        }
        if (p == end)
            return false;
        *text = from;
        *size = p - from;
        ++p;
        return true;
    }
    // An integer of at most 15 digits (exact as a double, as Qt stores it); not -0.
    bool integer(double *value)
    {
        const bool negative = take('-');
        const char *digits = p;
        qint64 n = 0;
        // Digits past the 15th are only counted (the number is refused): 19 or more would
        // overflow n, which is undefined behaviour (UBSan: "huge-integer" in tst_orderpayload).
        for (; p < end && *p >= '0' && *p <= '9'; ++p) {
            if (p - digits < 15)
                n = n * 10 + (*p - '0');
        }
        const qsizetype count = p - digits;
        if (count == 0 || count > 15 || (digits[0] == '0' && (count > 1 || negative)))
            return false;
        if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
            return false;
        *value = negative ? -double(n) : double(n);
        return true;
    }
    bool value(Member *m)
    {
        if (p == end)
            return false;
        switch (*p) {
        case '"':
            m->type = QJsonValue::String;
            return string(&m->text, &m->textSize);
        case 't':
            m->type = QJsonValue::Bool;
            m->flag = true;
            return word("true", 4);
        case 'f':
            m->type = QJsonValue::Bool;
            m->flag = false;
            return word("false", 5);
        case 'n':
            m->type = QJsonValue::Null;
            return word("null", 4);
        default:
            m->type = QJsonValue::Double;
            return integer(&m->number);
        }
    }
};

bool keyBefore(const Member &a, const Member &b)
{
    const int c = std::memcmp(a.key, b.key, size_t(qMin(a.keySize, b.keySize)));
    return c < 0 || (c == 0 && a.keySize < b.keySize);
}

} // namespace

bool OrderPayload::readFlat(const QByteArray &body, OrderPayload *out)
{
    FlatReader r{body.constData(), body.constData() + body.size()};
    Member members[kMaxMembers];
    int count = 0;
    r.space();
    if (!r.take('{'))
        return false;
    r.space();
    if (!r.take('}')) {
        for (;;) {
            if (count == kMaxMembers)
                return false;
            Member &m = members[count++];
            if (!r.string(&m.key, &m.keySize))
                return false;
            r.space();
            if (!r.take(':'))
                return false;
            r.space();
            if (!r.value(&m))
                return false;
            r.space();
            if (r.take('}'))
                break;
            if (!r.take(','))
                return false;
            r.space();
        }
    }
    r.space();
    if (r.p != r.end)
        return false;
    // QJsonObject holds its keys sorted (code units, which for ASCII is byte order); a repeated
    // key is left to Qt's own rule.
    for (int i = 1; i < count; ++i) {
        for (int j = i; j > 0 && keyBefore(members[j], members[j - 1]); --j)
            std::swap(members[j], members[j - 1]);
    }
    quint64 h = kFnvOffset;
    const uchar objectType = QJsonValue::Object;
    fnv(h, &objectType, 1);
    const qint64 n = count;
    fnv(h, &n, sizeof n);
    OrderPayload result;
    result.status = Status::Object;
    for (int i = 0; i < count; ++i) {
        const Member &m = members[i];
        if (i > 0 && m.keySize == members[i - 1].keySize && std::memcmp(m.key, members[i - 1].key, size_t(m.keySize)) == 0)
            return false;
        fnvAscii(h, m.key, m.keySize);
        const uchar type = uchar(m.type);
        fnv(h, &type, 1);
        if (m.type == QJsonValue::Bool) {
            const uchar b = m.flag;
            fnv(h, &b, 1);
        } else if (m.type == QJsonValue::Double) {
            fnv(h, &m.number, sizeof m.number);
        } else if (m.type == QJsonValue::String) {
            fnvAscii(h, m.text, m.textSize);
            if (m.keySize == 3 && std::memcmp(m.key, "ref", 3) == 0) {
                result.refIsString = true;
                result.ref = QByteArray(m.text, m.textSize);
                result.refLength = m.textSize;
            }
        }
    }
    result.fingerprint = h ? h : 1;
    *out = std::move(result);
    return true;
}

OrderPayload OrderPayload::readWithQt(const QByteArray &body)
{
    OrderPayload result;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        result.parseError = error.errorString();
        result.errorOffset = error.offset;
        return result;
    }
    if (!doc.isObject()) {
        result.status = Status::NotObject;
        return result;
    }
    result.status = Status::Object;
    const QJsonObject payload = doc.object();
    const QJsonValue refValue = payload.value(QLatin1String("ref"));
    if (refValue.isString()) {
        const QString refText = refValue.toString();
        result.refIsString = true;
        result.ref = refText.toUtf8();
        result.refLength = refText.size();
    }
    quint64 h = kFnvOffset;
    fingerprintValue(h, payload);
    result.fingerprint = h ? h : 1;
    return result;
}

OrderPayload OrderPayload::read(const QByteArray &body)
{
    // QJsonDocument::fromJson and the walk over its object cost about 9,000 instructions for a
    // 45-byte order (callgrind, round eight): a sixth of an order's whole cost in serve.
    OrderPayload result;
    if (readFlat(body, &result))
        return result;
    return readWithQt(body);
}

} // namespace retrylab
