#include "metricsformat.h"

#include <QList>
#include <QLocale>

namespace retrylab {

void LatencyHistogram::observe(qint64 ns)
{
    const double s = double(ns) / 1e9;
    size_t i = 0;
    while (i < kBounds.size() && s > kBounds[i])
        ++i;
    ++m_buckets[i];
    ++m_count;
    m_sumNs += ns;
}

quint64 LatencyHistogram::cumulative(size_t i) const
{
    quint64 n = 0;
    for (size_t b = 0; b <= i && b < m_buckets.size(); ++b)
        n += m_buckets[b];
    return n;
}

namespace {

// A sample value as the format writes it: integers without a fraction, others shortest.
QByteArray number(double v)
{
    if (v == double(qint64(v)) && qAbs(v) < 1e15)
        return QByteArray::number(qint64(v));
    return QString::number(v, 'g', QLocale::FloatingPointShortest).toLatin1();
}

void family(QByteArray &out, const char *name, const char *type, const char *help)
{
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

void sample(QByteArray &out, const char *name, double value)
{
    out += name;
    out += ' ';
    out += number(value);
    out += '\n';
}

// A label value: backslash, double quote and line feed escaped (the format's only escapes).
QByteArray labelValue(const QString &text)
{
    QByteArray v = text.toUtf8();
    v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    return v;
}

} // namespace

QByteArray prometheusText(const QJsonObject &m, const LatencyHistogram &latency)
{
    QByteArray out;
    out.reserve(4096);
    const auto counter = [&](const char *name, const char *field, const char *help) {
        family(out, name, "counter", help);
        sample(out, name, m.value(QLatin1String(field)).toDouble());
    };
    const QJsonObject server = m.value(QLatin1String("server")).toObject();
    const auto gauge = [&](const char *name, const QJsonObject &from, const char *field, const char *help) {
        family(out, name, "gauge", help);
        sample(out, name, from.value(QLatin1String(field)).toDouble());
    };
    counter("retrylab_http_attempts_total", "httpAttempts", "POST /orders requests that reached the service.");
    counter("retrylab_replays_total", "replays", "Answers replayed from a stored idempotency key.");
    counter("retrylab_conflicts_409_total", "conflicts409", "409 answers: a key in use, a used token, a version conflict.");
    counter("retrylab_mismatch_422_total", "mismatch422", "422 answers: a key reused with a different payload.");
    counter("retrylab_rejected_400_total", "rejected400", "400 answers to POST /orders.");
    counter("retrylab_throttled_429_total", "throttled429", "429 answers (throttle429).");
    counter("retrylab_rejected_503_total", "rejected503", "503 answers of a full server (capacity and queue).");
    counter("retrylab_server_errors_total", "serverErrors", "Injected 5xx answers, before and after commit.");
    gauge("retrylab_records", m, "records", "Orders in the store.");
    gauge("retrylab_duplicates", m, "duplicates", "Orders beyond the first of their reference.");
    // Milliseconds with a fixed three decimals: a HEAD right after a GET names the same length
    // (shortest form made 0.16 and 0.161 differ by a byte) until the uptime reaches 10 s.
    family(out, "retrylab_uptime_seconds", "gauge", "Seconds since the service started.");
    out += "retrylab_uptime_seconds ";
    out += QByteArray::number(server.value(QLatin1String("uptimeS")).toDouble(), 'f', 3);
    out += '\n';
    gauge("retrylab_connections", server, "connections", "Open connections.");
    gauge("retrylab_processing", server, "processing", "Requests being processed.");
    gauge("retrylab_queued", server, "queued", "Requests waiting for a processing slot.");
    family(out, "retrylab_info", "gauge", "The service's idempotency mode and key store (always 1).");
    out += "retrylab_info{idempotency=\"" + labelValue(server.value(QLatin1String("idempotency")).toString())
            + "\",key_store=\"" + labelValue(server.value(QLatin1String("keyStore")).toString()) + "\"} 1\n";
    appendPrometheusHistogram(out, "retrylab_request_duration_seconds",
                              "POST /orders and GET /orders?ref= from arrival to answer (held and lost answers excluded).",
                              latency);
    return out;
}

void appendPrometheusFamily(QByteArray &out, const char *name, const char *type, const char *help)
{
    family(out, name, type, help);
}

void appendPrometheusSample(QByteArray &out, const QByteArray &name, double value)
{
    sample(out, name.constData(), value);
}

void appendPrometheusHistogram(QByteArray &out, const char *h, const char *help, const LatencyHistogram &latency)
{
    family(out, h, "histogram", help);
    for (size_t i = 0; i < LatencyHistogram::kBounds.size(); ++i)
        out += QByteArray(h) + "_bucket{le=\"" + number(LatencyHistogram::kBounds[i]) + "\"} "
                + QByteArray::number(latency.cumulative(i)) + '\n';
    out += QByteArray(h) + "_bucket{le=\"+Inf\"} " + QByteArray::number(latency.count()) + '\n';
    out += QByteArray(h) + "_sum " + number(latency.sumSeconds()) + '\n';
    out += QByteArray(h) + "_count " + QByteArray::number(latency.count()) + '\n';
}

bool prefersJson(const QByteArray &accept)
{
    // The q of the best range matching each type: exact type, then type/*, then */*.
    double json = -1, text = -1;
    int jsonSpecific = -1, textSpecific = -1;
    int jsonOrder = 0, textOrder = 0, order = 0;
    for (const QByteArray &range : accept.split(',')) {
        const QList<QByteArray> parts = range.split(';');
        const QByteArray type = parts.value(0).trimmed().toLower();
        if (type.isEmpty())
            continue;
        ++order;
        double q = 1;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray p = parts.at(i).trimmed();
            if (p.startsWith("q=") || p.startsWith("Q="))
                q = p.mid(2).toDouble();
        }
        const auto consider = [&](const QByteArray &full, const QByteArray &major, double *best, int *specific, int *at) {
            const int s = type == full ? 2 : type == major + "/*" ? 1 : type == "*/*" ? 0 : -1;
            if (s > *specific) {
                *specific = s;
                *best = q;
                *at = order;
            }
        };
        consider("application/json", "application", &json, &jsonSpecific, &jsonOrder);
        consider("text/plain", "text", &text, &textSpecific, &textOrder);
    }
    if (json <= 0)
        return false;
    if (text <= 0)
        return true;
    return json > text || (json == text && jsonSpecific > textSpecific)
            || (json == text && jsonSpecific == textSpecific && jsonOrder < textOrder);
}

} // namespace retrylab
