#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace retrylab {

// The Idempotency-Key field as the IETF draft (draft-ietf-httpapi-idempotency-key-header, "Syntax")
// defines it: an RFC 8941 Item whose value is a String, "q-1". Clients that send the bare
// q-1 (as Stripe's do) are common, so an unquoted value of visible characters is taken as the
// same key: "q-1" and q-1 are one key. Pure, so every rule is tested without a socket.
struct IdempotencyKeyField
{
    bool present = false; // at least one field was sent
    QByteArray key;       // the key itself (quotes and escapes removed)
    QString error;        // not empty: the request gets 400 with this detail

    // `values`: the value of every Idempotency-Key field line of the request, in order.
    static IdempotencyKeyField parse(const QList<QByteArray> &values, int maxChars);
};

} // namespace retrylab
