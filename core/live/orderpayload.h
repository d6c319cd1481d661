#pragma once

#include <QByteArray>
#include <QString>

namespace retrylab {

// The body of a POST /orders read once: is it a JSON object, its "ref", and the payload's
// fingerprint (FNV-1a over the parsed value, object keys in sorted order: whitespace and key
// order do not change it, every field and value does; the same in every process, so a --db file
// keeps it across restarts). Pure, so the fast path is tested against QJsonDocument's answer.
struct OrderPayload
{
    enum class Status { Object, NotJson, NotObject };
    Status status = Status::NotJson;
    QString parseError;   // NotJson: QJsonParseError's reason
    int errorOffset = 0;  // NotJson: where it stopped
    bool refIsString = false;
    QByteArray ref;       // "ref" in UTF-8 (when refIsString)
    qsizetype refLength = 0; // its length in UTF-16 code units, as QString counts it
    quint64 fingerprint = 0;

    // The flat object a client usually sends (printable ASCII keys and strings without escapes,
    // small integers, true, false, null) is read straight from the bytes; any other body goes to
    // QJsonDocument. Both give the same answer for every body (tst_orderpayload).
    static OrderPayload read(const QByteArray &body);
    // QJsonDocument::fromJson alone: the reference of read().
    static OrderPayload readWithQt(const QByteArray &body);
    // The fast path alone: false when the body is not that flat shape (nothing is decided then).
    static bool readFlat(const QByteArray &body, OrderPayload *out);
};

} // namespace retrylab
