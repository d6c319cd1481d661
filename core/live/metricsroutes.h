#pragma once

#include "httpconnection.h"

#include <QByteArray>
#include <QString>

namespace retrylab {

class LatencyHistogram;
class OrderServer;

// The read-only endpoints of `serve` for monitoring: GET /metrics (the Prometheus text format or
// JSON, by content negotiation) and GET /healthz. HEAD is routed here as GET (the connection drops
// the content).
class MetricsRoutes
{
public:
    static bool handles(const QString &path);
    // `get`: the method is GET (or HEAD); `accept`: the request's Accept field.
    static HttpAnswer route(OrderServer &server, const LatencyHistogram &latency, const QString &path, bool get,
                            const QByteArray &accept);
};

} // namespace retrylab
