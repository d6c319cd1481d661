#include "metricsroutes.h"

#include "metricsformat.h"
#include "orderserver.h"
#include "problemanswer.h"

#include <QJsonDocument>

namespace retrylab {

bool MetricsRoutes::handles(const QString &path)
{
    return path == QLatin1String("/metrics") || path == QLatin1String("/healthz");
}

HttpAnswer MetricsRoutes::route(OrderServer &server, const LatencyHistogram &latency, const QString &path, bool get,
                                const QByteArray &accept)
{
    if (!get)
        return problemAnswer(405, QStringLiteral("use GET on %1").arg(path), "Allow: GET");
    if (path == QLatin1String("/healthz"))
        return jsonAnswer(QByteArrayLiteral("{\"status\":\"ok\"}"));
    // The lab's own client and scripts ask for JSON; Prometheus and curl get the text format.
    if (prefersJson(accept))
        return jsonAnswer(QJsonDocument(server.metricsJson()).toJson(QJsonDocument::Compact), "Vary: Accept");
    HttpAnswer a;
    a.contentType = QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
    a.body = prometheusText(server.metricsJson(), latency);
    a.extraHeader = QByteArrayLiteral("Vary: Accept");
    return a;
}

} // namespace retrylab
