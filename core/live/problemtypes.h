#pragma once

#include "trace.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace retrylab {

// The kinds of error the order service answers, each with a documentation URI as RFC 9457's
// "type" and the draft's examples have it: "/problems/key-in-use", relative to the service, so
// that GET on it explains the error (and docs/http-service.md#problem-types lists them all).
struct ProblemType
{
    const char *slug;  // "key-in-use"
    int status;        // the status it comes with (a 5xx: the one configured)
    const char *about; // one paragraph: what happened and what a client should do

    QString uri() const { return QStringLiteral("/problems/") + QLatin1String(slug); }
    // Every type, in the order of the docs' table.
    static const QList<ProblemType> &all();
    // The type of an answer: by its typed cause where it has one, else by status.
    static const ProblemType &of(int status, TraceCause cause = TraceCause::None);
    static const ProblemType *find(QStringView slug);
};

} // namespace retrylab
