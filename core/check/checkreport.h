#pragma once

#include "check/probeverdict.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace retrylab {

// The card of one `retrylab check`: what was checked, a verdict per probe, and every round's
// exchanges. Written as JSON by `check --format json` and `check --save FILE`; read back by
// check::readReport() for the window (File > Open check report…).
struct CheckReport
{
    // The "version" of the JSON; a reader refuses a newer one.
    static constexpr int Version = 1;
    // Requests one in-flight round sends at most, and rounds of one probe at most: `check`'s own
    // bounds (--concurrency, --rounds), declared here for the runner and the reader alike.
    static constexpr int MaxExchanges = 64;
    static constexpr int MaxRounds = 100;

    QString url;          // the endpoint checked
    int roundsAsked = 1;  // --rounds
    int concurrency = 2;  // --concurrency
    int timeoutMs = 5000; // --timeout: a request unanswered this long got no answer
    QString listUrl;      // --list (empty: none)
    QString idField = QStringLiteral("id"); // --id-field: where the answers name a created resource
    QList<ProbeVerdict> card;
    QList<QList<ProbeObservation>> rounds; // rounds[i]: every round of card[i]'s probe
    QString error;     // not empty: the endpoint could not be checked (unreachable, refused)
    QString listError; // not empty: --list gave no count (the check went on with ids only)

    QJsonObject toJson() const;
};

namespace check {

// A check report file is refused past this size (7 probes x 100 rounds x 64 exchanges of 4 KiB
// bodies stay well below it).
constexpr qint64 MaxReportBytes = 64 * 1024 * 1024;

// Reads what CheckReport::toJson() wrote. Returns the errors, each naming where (`source: path:
// rule, got value`, as the scenario reader words them); empty when `out` was filled.
QStringList readReport(const QByteArray &json, const QString &source, CheckReport *out);
// The same from a file (regular files only, at most MaxReportBytes).
QStringList loadReport(const QString &fileName, CheckReport *out);

} // namespace check
} // namespace retrylab
