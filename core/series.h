#pragma once

#include "trace.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <vector>

namespace retrylab {

// What happened in one bucket of virtual time [startUs, startUs + bucketUs), counted from the trace.
// Summed over a whole run's buckets, the counts equal the run's Metrics (see series::Builder).
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
    bool operator!=(const SeriesBucket &o) const { return !(*this == o); }
};

struct Series
{
    qint64 bucketUs = 1000000;
    QList<SeriesBucket> buckets; // from t = 0 up to the bucket holding the last event; none missing
    bool operator==(const Series &o) const { return bucketUs == o.bucketUs && buckets == o.buckets; }
};

namespace series {
// The bucket sizes a series accepts.
inline constexpr qint64 MinBucketUs = 1000;          // 1 ms
inline constexpr qint64 MaxBucketUs = 3600000000ll;  // 3600 s
// "1s", "0.02s", "250ms" -> microseconds (at least 1 ms, at most 3600 s). False with a message
// naming the value otherwise ("expected a duration like 1s, 0.02s or 250ms, got 'abc'").
bool parseBucket(const QString &text, qint64 *bucketUs, QString *error);
// The most buckets a series may hold; a finer bucket over a long run is refused (bounded memory).
inline constexpr int MaxBuckets = 1000000;

// A bucket size for people: "250 ms", "0.2 s", "1 s", "1.5 s" (below 200 ms in ms, else in s).
QString formatBucket(qint64 bucketUs);
// The same in the command line's own spelling, which parseBucket reads back: "250ms", "0.2s", "1s".
QString bucketArgument(qint64 bucketUs);
// The smallest readable bucket (1, 2, 5 x 10^n ms; at least 1 ms) that cuts [0, spanUs] into at
// most maxBuckets buckets: a chart of a run takes autoBucket(last event, 200), which gives 80 to
// 200 buckets (fewer only for runs under 80 ms); the CLI suggests autoBucket(last event, MaxBuckets).
qint64 autoBucket(qint64 spanUs, int maxBuckets);
// The number of buckets [0, spanUs] takes at this size: spanUs / bucketUs + 1.
qint64 bucketCount(qint64 spanUs, qint64 bucketUs);

// Builds the series event by event (as a TraceSink would feed it), in bounded memory: the buckets,
// and 4 bytes per operation to count each operation once (a double submit's two submissions
// are one operation, as Metrics counts them). Events come in trace order (time never goes back).
//
// The counts and the Metrics of the same run:
//   attempts      TransportAttempt, minus those the circuit breaker refused (CircuitOpen)
//   firstTries    of them, the ones whose path is b1/w1/t1
//   served        ResponseSent
//   commits       Committed                               == records
//   successes     an operation's first OpSucceeded        == clientSucceeded
//   failures      an operation's last OpFailed, if none of its submissions succeeded == clientFailed
//   timeouts      Timeout (POST and status query)         == timeouts
//   conflicts     Rejected with 409, and VersionConflict  == conflicts409 + versionConflicts
//   rejected503   Rejected with 503                       == rejected503
//   budgetRefusals BudgetExhausted                        == budgetRefusals
//   inFlight      RequestArrived +1; ResponseSent and ServerRestarted (the request is dropped) -1
class Builder
{
public:
    explicit Builder(qint64 bucketUs);
    void add(const TraceEvent &e);
    // False once the trace passed MaxBuckets buckets (further events are ignored).
    bool ok() const { return m_ok; }
    // The latest event time seen, ignored events included: what a bucket must cover (autoBucket).
    qint64 lastEventUs() const { return m_lastUs; }
    Series finish() const;

private:
    Series m_series;
    int m_inFlight = 0;
    bool m_ok = true;
    qint64 m_lastUs = 0;
    // Per operation: 0 not finished yet, -1 succeeded, k + 1 failed with the failure counted in bucket k.
    std::vector<int> m_opState;     // operations 1 .. 2^24
    QHash<int, int> m_bigOpState;   // beyond (a live client's own references may be huge)
    SeriesBucket &bucketAt(qint64 t);
    int &opState(int op);
};

Series fromTrace(const Trace &trace, qint64 bucketUs);
QJsonObject toJson(const Series &series);
// One row per bucket; header "startS,attempts,firstTries,...".
QByteArray toCsv(const Series &series);
// The pieces of both, for writers that stream a long series in bounded memory.
QByteArray csvHeader(); // with its '\n'
void appendCsvRow(QByteArray &out, const SeriesBucket &bucket); // with its '\n'
// One bucket as compact JSON, the members and values of toJson ({"startS":0.02,"attempts":3,...}).
void appendJsonBucket(QByteArray &out, const SeriesBucket &bucket);
// Microseconds as exact decimal seconds without trailing zeros: 20000 -> "0.02", 1000000 -> "1".
QByteArray secondsText(qint64 us);

// The indices in `trace` of the Committed events that came after their client had given up on that
// attempt: what Metrics::lateCommits counts, found from the trace's typed links (a Committed event
// answers its RequestArrived, which answers the TransportAttempt, through a RequestDelayed when the
// request was held; a client Timeout answers the TransportAttempt too). A commit is late when that
// attempt's Timeout came before it. A trace without ids (an old file) has none.
QList<int> lateCommitEvents(const Trace &trace);
} // namespace series

} // namespace retrylab
