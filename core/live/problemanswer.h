#pragma once

#include "httpconnection.h"
#include "trace.h"

#include <QByteArray>
#include <QString>

namespace retrylab {

// An RFC 9457 problem details object as the order service writes it: "type" a ProblemType URI
// (by `type`, a slug, else by status and cause), "title" the status's reason phrase, "detail",
// and the extension members "requestId" and "cause" (trace::causeName, so that a client reads the
// typed reason without parsing the English detail) when given.
QByteArray problemJson(int status, const QString &detail, const QByteArray &requestId = QByteArray(),
                       TraceCause cause = TraceCause::None, const char *type = nullptr);

// The answer carrying problemJson(status, detail), with one extra header line ("Allow: GET")
// when given.
HttpAnswer problemAnswer(int status, const QString &detail, const QByteArray &extraHeader = QByteArray());

// GET /problems/<slug>: what a problem type means, as plain text (404 for no such type, 405 for a
// method other than GET).
HttpAnswer problemTypePage(const QString &path, bool get);

// A 200 answer of JSON.
HttpAnswer jsonAnswer(const QByteArray &body, const QByteArray &extraHeader = QByteArray());

} // namespace retrylab
