#include "idempotencykey.h"

namespace retrylab {

namespace {

QString charName(uchar c)
{
    return c >= 0x21 && c <= 0x7e ? QStringLiteral("'%1'").arg(QLatin1Char(char(c)))
                                   : QStringLiteral("byte 0x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
}

// RFC 8941 section 4.2.5: DQUOTE *( unescaped / "\" ( DQUOTE / "\" ) ) DQUOTE, unescaped being
// %x20-21 / %x23-5B / %x5D-7E; then optional parameters, which the draft gives no meaning.
QString parseString(const QByteArray &v, QByteArray *out)
{
    qsizetype i = 1;
    for (; i < v.size(); ++i) {
        const uchar c = uchar(v.at(i));
        if (c == '"')
            break;
        if (c == '\\') {
            const uchar next = i + 1 < v.size() ? uchar(v.at(i + 1)) : 0;
            if (next != '"' && next != '\\')
                return QStringLiteral("Idempotency-Key: a backslash at position %1 may only escape '\"' or '\\' "
                                      "(an RFC 8941 string)").arg(i + 1);
            out->append(char(next));
            ++i;
            continue;
        }
        if (c < 0x20 || c > 0x7e)
            return QStringLiteral("Idempotency-Key: %1 at position %2 is not allowed in a string (printable ASCII only)")
                    .arg(charName(c)).arg(i + 1);
        out->append(char(c));
    }
    if (i >= v.size())
        return QStringLiteral("Idempotency-Key: the string has no closing '\"'");
    const QByteArray rest = v.mid(i + 1);
    if (!rest.isEmpty() && !rest.startsWith(';')) {
        if (rest.trimmed().startsWith(','))
            return QStringLiteral("Idempotency-Key holds a list (a ',' after the string): send one key in one field");
        return QStringLiteral("Idempotency-Key: unexpected %1 after the closing '\"'").arg(charName(uchar(rest.at(0))));
    }
    return QString();
}

// The bare form, q-1: visible ASCII, no quote, no backslash, no comma.
QString parseBare(const QByteArray &v, QByteArray *out)
{
    for (qsizetype i = 0; i < v.size(); ++i) {
        const uchar c = uchar(v.at(i));
        if (c == ',')
            return QStringLiteral("Idempotency-Key holds a list (a ',' at position %1): send one key in one field").arg(i + 1);
        if (c == ' ' || c == '\t')
            return QStringLiteral("Idempotency-Key: a space at position %1; a key with spaces is sent as a quoted "
                                  "string (\"my key\")").arg(i + 1);
        if (c < 0x21 || c > 0x7e || c == '"' || c == '\\')
            return QStringLiteral("Idempotency-Key: %1 at position %2 is not allowed (visible ASCII; quote the key as "
                                  "an RFC 8941 string)").arg(charName(c)).arg(i + 1);
    }
    *out = v;
    return QString();
}

} // namespace

IdempotencyKeyField IdempotencyKeyField::parse(const QList<QByteArray> &values, int maxChars)
{
    IdempotencyKeyField f;
    if (values.isEmpty())
        return f;
    f.present = true;
    if (values.size() > 1) {
        f.error = QStringLiteral("Idempotency-Key was sent %1 times: send exactly one").arg(values.size());
        return f;
    }
    // Optional white space around a field value is not part of it (RFC 9110 section 5.5).
    QByteArray v = values.first();
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v.remove(0, 1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    QByteArray key;
    f.error = v.startsWith('"') ? parseString(v, &key) : parseBare(v, &key);
    if (!f.error.isEmpty())
        return f;
    if (key.isEmpty())
        f.error = QStringLiteral("Idempotency-Key is empty: send a key (1 to %1 characters) or no field at all").arg(maxChars);
    else if (key.size() > maxChars)
        f.error = QStringLiteral("Idempotency-Key is longer than %1 characters").arg(maxChars);
    else
        f.key = key;
    return f;
}

} // namespace retrylab
