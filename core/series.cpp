#include "series.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace retrylab {

bool SeriesBucket::operator==(const SeriesBucket &o) const
{
    return startUs == o.startUs && attempts == o.attempts && firstTries == o.firstTries && retries == o.retries
        && served == o.served && commits == o.commits && successes == o.successes && failures == o.failures
        && timeouts == o.timeouts && conflicts == o.conflicts && rejected503 == o.rejected503
        && budgetRefusals == o.budgetRefusals && inFlight == o.inFlight && inFlightMax == o.inFlightMax;
}

namespace series {

namespace {

constexpr qint64 kMs = 1000;
constexpr qint64 kS = 1000000;
// Operations up to here keep their state in a vector (4 bytes each); beyond, in a hash.
constexpr int kDenseOps = 1 << 24;

// value / unit as an exact decimal without trailing zeros: (1500, 1000) -> "1.5".
QString decimal(qint64 value, qint64 unit)
{
    const bool negative = value < 0;
    const quint64 v = negative ? quint64(-(value + 1)) + 1 : quint64(value);
    QString text = QString::number(v / quint64(unit));
    quint64 fraction = v % quint64(unit);
    if (fraction != 0) {
        int digits = 0;
        for (qint64 u = unit; u > 1; u /= 10)
            ++digits;
        while (fraction % 10 == 0) {
            fraction /= 10;
            --digits;
        }
        text += QLatin1Char('.') + QString::number(fraction).rightJustified(digits, QLatin1Char('0'));
    }
    return negative ? QLatin1Char('-') + text : text;
}

// An operation's first try: b1/w1/t1 of a submission. A business or wrapper retry starts at t1
// but is a retry. The attempt numbers, where the event has them (a file from before them: its path).
bool isFirstTry(const TraceEvent &e)
{
    if (e.transport > 0)
        return e.business <= 1 && e.wrapper <= 1 && e.transport == 1;
    return e.path().endsWith(QLatin1String("/b1/w1/t1"));
}

} // namespace

bool parseBucket(const QString &text, qint64 *bucketUs, QString *error)
{
    const QString value = text.trimmed();
    const QString shown = value.left(80);
    static const QRegularExpression re(QStringLiteral(R"(^([+-]?)(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)$)"));
    const QRegularExpressionMatch m = re.match(value);
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    if (!m.hasMatch())
        return fail(QCoreApplication::translate("series", "expected a duration like 1s, 0.02s or 250ms, got '%1'").arg(shown));
    bool ok = false;
    const double number = m.captured(2).toDouble(&ok);
    if (!ok || !std::isfinite(number))
        return fail(QCoreApplication::translate("series", "expected a duration like 1s, 0.02s or 250ms, got '%1'").arg(shown));
    const double us = (m.captured(1) == QLatin1String("-") ? -number : number)
        * (m.captured(3) == QLatin1String("ms") ? double(kMs) : double(kS));
    // Compared before rounding: 0.9999 ms is below the floor, not rounded up to it.
    if (us < double(MinBucketUs) - 1e-6)
        return fail(QCoreApplication::translate("series", "a bucket must be at least 1 ms, got '%1'").arg(shown));
    if (us > double(MaxBucketUs) + 1e-6)
        return fail(QCoreApplication::translate("series", "a bucket must be at most 3600 s, got '%1'").arg(shown));
    if (bucketUs)
        *bucketUs = std::clamp<qint64>(std::llround(us), MinBucketUs, MaxBucketUs);
    return true;
}

QString formatBucket(qint64 bucketUs)
{
    if (bucketUs < 200 * kMs)
        return decimal(bucketUs, kMs) + QStringLiteral(" ms");
    return decimal(bucketUs, kS) + QStringLiteral(" s");
}

QString bucketArgument(qint64 bucketUs)
{
    if (bucketUs < 200 * kMs)
        return decimal(bucketUs, kMs) + QStringLiteral("ms");
    return decimal(bucketUs, kS) + QStringLiteral("s");
}

qint64 bucketCount(qint64 spanUs, qint64 bucketUs)
{
    return std::max<qint64>(0, spanUs) / std::max<qint64>(1, bucketUs) + 1;
}

qint64 autoBucket(qint64 spanUs, int maxBuckets)
{
    const int most = std::max(1, maxBuckets);
    for (qint64 magnitude = MinBucketUs;; magnitude *= 10) {
        for (const qint64 m : {1, 2, 5}) {
            const qint64 b = m * magnitude;
            if (bucketCount(spanUs, b) <= most || b > std::numeric_limits<qint64>::max() / 100)
                return b;
        }
    }
}

Builder::Builder(qint64 bucketUs)
{
    m_series.bucketUs = std::max<qint64>(1, bucketUs);
}

SeriesBucket &Builder::bucketAt(qint64 t)
{
    const qint64 index = std::max<qint64>(0, t) / m_series.bucketUs;
    while (m_series.buckets.size() <= index) {
        SeriesBucket b;
        b.startUs = qint64(m_series.buckets.size()) * m_series.bucketUs;
        // Nothing happened yet in this bucket: the server holds what it held at the last one's end.
        b.inFlight = m_inFlight;
        b.inFlightMax = m_inFlight;
        m_series.buckets.append(b);
    }
    return m_series.buckets[index];
}

int &Builder::opState(int op)
{
    if (op >= 0 && op < kDenseOps) {
        if (size_t(op) >= m_opState.size())
            m_opState.resize(std::max(size_t(op) + 1, std::min(size_t(kDenseOps), m_opState.size() * 2)), 0);
        return m_opState[size_t(op)];
    }
    return m_bigOpState[op];
}

void Builder::add(const TraceEvent &e)
{
    m_lastUs = std::max(m_lastUs, e.t);
    if (!m_ok)
        return;
    const qint64 index = std::max<qint64>(0, e.t) / m_series.bucketUs;
    if (index >= MaxBuckets) {
        m_ok = false;
        return;
    }
    // Only the events that count open a bucket here; finish() fills the span up to the last event.
    switch (e.kind) {
    case EventKind::TransportAttempt: {
        SeriesBucket &b = bucketAt(e.t);
        b.attempts++;
        if (isFirstTry(e))
            b.firstTries++;
        else
            b.retries++;
        break;
    }
    case EventKind::CircuitOpen: {
        // Traced right after the TransportAttempt it refused (same instant, same path): that one
        // never went out, and Metrics::httpAttempts does not count it.
        SeriesBucket &b = bucketAt(e.t);
        b.attempts--;
        if (isFirstTry(e))
            b.firstTries--;
        else
            b.retries--;
        break;
    }
    case EventKind::RequestArrived: {
        SeriesBucket &b = bucketAt(e.t);
        ++m_inFlight;
        b.inFlight = m_inFlight;
        b.inFlightMax = std::max(b.inFlightMax, m_inFlight);
        break;
    }
    case EventKind::ResponseSent:
    case EventKind::ServerRestarted: {
        SeriesBucket &b = bucketAt(e.t);
        if (e.kind == EventKind::ResponseSent)
            b.served++;
        m_inFlight = std::max(0, m_inFlight - 1);
        b.inFlight = m_inFlight;
        break;
    }
    case EventKind::Committed:
        bucketAt(e.t).commits++;
        break;
    case EventKind::Timeout:
        bucketAt(e.t).timeouts++;
        break;
    case EventKind::Rejected:
        if (e.status == 409)
            bucketAt(e.t).conflicts++;
        else if (e.status == 503)
            bucketAt(e.t).rejected503++;
        break;
    case EventKind::VersionConflict:
        bucketAt(e.t).conflicts++;
        break;
    case EventKind::BudgetExhausted:
        bucketAt(e.t).budgetRefusals++;
        break;
    case EventKind::OpSucceeded:
    case EventKind::OpFailed: {
        // An operation succeeds once, however many of its submissions do, and fails at its last
        // failure unless one of its submissions succeeded: a failure counted earlier is taken back.
        SeriesBucket &b = bucketAt(e.t);
        int &state = opState(e.op); // -1 succeeded, 0 nothing yet, k: its failure is counted in bucket k - 1
        if (state == -1)
            break;
        if (state > 0)
            m_series.buckets[state - 1].failures--;
        if (e.kind == EventKind::OpSucceeded) {
            b.successes++;
            state = -1;
        } else {
            b.failures++;
            state = int(index) + 1;
        }
        break;
    }
    default:
        break;
    }
}

Series Builder::finish() const
{
    Series out = m_series;
    // Buckets up to the one holding the last event, even if only uncounted events fell there.
    const qint64 last = std::min<qint64>(MaxBuckets - 1, m_lastUs / m_series.bucketUs);
    while (out.buckets.size() <= last) {
        SeriesBucket b;
        b.startUs = qint64(out.buckets.size()) * out.bucketUs;
        b.inFlight = m_inFlight;
        b.inFlightMax = m_inFlight;
        out.buckets.append(b);
    }
    return out;
}

Series fromTrace(const Trace &trace, qint64 bucketUs)
{
    Builder builder(bucketUs);
    for (const TraceEvent &e : trace)
        builder.add(e);
    return builder.finish();
}

QJsonObject toJson(const Series &series)
{
    QJsonArray buckets;
    for (const SeriesBucket &b : series.buckets) {
        buckets.append(QJsonObject{
            {QStringLiteral("startS"), double(b.startUs) / kS},
            {QStringLiteral("attempts"), b.attempts},
            {QStringLiteral("firstTries"), b.firstTries},
            {QStringLiteral("retries"), b.retries},
            {QStringLiteral("served"), b.served},
            {QStringLiteral("commits"), b.commits},
            {QStringLiteral("successes"), b.successes},
            {QStringLiteral("failures"), b.failures},
            {QStringLiteral("timeouts"), b.timeouts},
            {QStringLiteral("conflicts"), b.conflicts},
            {QStringLiteral("rejected503"), b.rejected503},
            {QStringLiteral("budgetRefusals"), b.budgetRefusals},
            {QStringLiteral("inFlight"), b.inFlight},
            {QStringLiteral("inFlightMax"), b.inFlightMax},
        });
    }
    return QJsonObject{
        {QStringLiteral("bucketS"), double(series.bucketUs) / kS},
        {QStringLiteral("buckets"), buckets},
    };
}

QByteArray secondsText(qint64 us)
{
    return decimal(us, kS).toLatin1();
}

QByteArray csvHeader()
{
    return QByteArrayLiteral("startS,attempts,firstTries,retries,served,commits,successes,failures,timeouts,conflicts,"
                             "rejected503,budgetRefusals,inFlight,inFlightMax\n");
}

void appendCsvRow(QByteArray &out, const SeriesBucket &b)
{
    out += secondsText(b.startUs);
    for (const qint64 v : {b.attempts, b.firstTries, b.retries, b.served, b.commits, b.successes, b.failures,
                           b.timeouts, b.conflicts, b.rejected503, b.budgetRefusals, qint64(b.inFlight),
                           qint64(b.inFlightMax)}) {
        out += ',';
        out += QByteArray::number(v);
    }
    out += '\n';
}

void appendJsonBucket(QByteArray &out, const SeriesBucket &b)
{
    out += "{\"startS\":";
    out += secondsText(b.startUs);
    const std::pair<const char *, qint64> members[] = {
        {"attempts", b.attempts},     {"firstTries", b.firstTries}, {"retries", b.retries},
        {"served", b.served},         {"commits", b.commits},       {"successes", b.successes},
        {"failures", b.failures},     {"timeouts", b.timeouts},     {"conflicts", b.conflicts},
        {"rejected503", b.rejected503}, {"budgetRefusals", b.budgetRefusals}, {"inFlight", b.inFlight},
        {"inFlightMax", b.inFlightMax},
    };
    for (const auto &m : members) {
        out += ",\"";
        out += m.first;
        out += "\":";
        out += QByteArray::number(m.second);
    }
    out += '}';
}

QByteArray toCsv(const Series &series)
{
    QByteArray out = csvHeader();
    out.reserve(out.size() + series.buckets.size() * 48);
    for (const SeriesBucket &b : series.buckets)
        appendCsvRow(out, b);
    return out;
}

QList<int> lateCommitEvents(const Trace &trace)
{
    QHash<int, int> upstream; // RequestArrived and RequestDelayed: id -> the id it answers
    QSet<int> gaveUp;         // the TransportAttempt ids a client Timeout answered
    QList<int> late;
    for (int i = 0; i < trace.size(); ++i) {
        const TraceEvent &e = trace.at(i);
        if (e.id == 0 || e.answers == 0)
            continue;
        switch (e.kind) {
        case EventKind::RequestArrived:
        case EventKind::RequestDelayed:
            upstream.insert(e.id, e.answers);
            break;
        case EventKind::Timeout:
            gaveUp.insert(e.answers);
            break;
        case EventKind::Committed: {
            int sent = e.answers;
            // At most arrived -> delayed -> attempt: a bounded walk, whatever a file links.
            for (int hop = 0; hop < 3 && upstream.contains(sent); ++hop)
                sent = upstream.value(sent);
            if (gaveUp.contains(sent))
                late.append(i);
            break;
        }
        default:
            break;
        }
    }
    return late;
}

} // namespace series

} // namespace retrylab
