#pragma once

#include "trace.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace retrylab {

// What happened in one bucket of virtual time [startUs, startUs + bucketUs), counted from the trace.
struct SeriesBucket
{
    qint64 startUs = 0;
    qint64 attempts = 0;       // POST attempts that went out (the run's httpAttempts)
    qint64 firstTries = 0;     // of them, an operation's first try (b1/w1/t1 of a submission)
    qint64 retries = 0;        // attempts - firstTries
    qint64 served = 0;         // responses the server sent (any status, POST and GET)
    qint64 commits = 0;        // records written
    qint64 successes = 0;      // operations that succeeded (as the client sees it)
    qint64 failures = 0;       // operations that failed
    qint64 timeouts = 0;       // client read timeouts
    qint64 conflicts = 0;      // 409 answers (version conflicts and idempotency conflicts)
    qint64 rejected503 = 0;    // 503 "server full" answers
    qint64 budgetRefusals = 0; // retries the retry budget refused
    int inFlight = 0;          // requests at the server (queued or processing) at the bucket's end
    int inFlightMax = 0;       // the most at any instant in the bucket
    bool operator==(const SeriesBucket &o) const;
};

struct Series
{
    qint64 bucketUs = 1000000;
    QList<SeriesBucket> buckets; // from t = 0 up to the bucket holding the last event; none missing
};

namespace series {
// "1s", "0.02s", "250ms" -> microseconds (at least 1 ms, at most 3600 s). False with a message
// naming the value otherwise.
bool parseBucket(const QString &text, qint64 *bucketUs, QString *error);
// The most buckets a series may hold; a finer bucket over a long run is refused (bounded memory).
inline constexpr int MaxBuckets = 1000000;

// Builds the series event by event (as a TraceSink would feed it), in bounded memory per bucket.
class Builder
{
public:
    explicit Builder(qint64 bucketUs);
    void add(const TraceEvent &e);
    // False once the trace passed MaxBuckets buckets (further events are ignored).
    bool ok() const { return m_ok; }
    Series finish() const;

private:
    Series m_series;
    int m_inFlight = 0;
    bool m_ok = true;
    SeriesBucket &bucketAt(qint64 t);
};

Series fromTrace(const Trace &trace, qint64 bucketUs);
QJsonObject toJson(const Series &series);
// One row per bucket; header "startS,attempts,firstTries,...".
QByteArray toCsv(const Series &series);
} // namespace series

} // namespace retrylab
