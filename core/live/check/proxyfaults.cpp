// The check's faults, struck by the lab's own fault proxy.
#include "check/proxyfaults.h"

#include "faultproxy.h"

#include <QEventLoop>
#include <QTimer>

namespace retrylab {

ProxyFaults::ProxyFaults() : m_proxy(std::make_unique<FaultProxy>()) {}

ProxyFaults::~ProxyFaults() = default;

QString ProxyFaults::start(const QUrl &upstream, const QByteArray &keyHeader)
{
    FaultProxy::Options options;
    QUrl base;
    base.setScheme(upstream.scheme());
    base.setHost(upstream.host());
    base.setPort(upstream.port(upstream.scheme() == QLatin1String("https") ? 443 : 80));
    options.upstream = base;
    options.keyHeader = keyHeader;
    // Faults strike only when the check forces one; the proxy's own metrics path is forwarded.
    options.metricsPath = QByteArray();
    return m_proxy->start(options);
}

QUrl ProxyFaults::through(const QUrl &target) const
{
    QUrl url = target;
    url.setScheme(QStringLiteral("http"));
    url.setHost(m_proxy->url().host());
    url.setPort(m_proxy->port());
    return url;
}

void ProxyFaults::forceNext(CheckFault fault)
{
    switch (fault) {
    case CheckFault::None:
        return;
    case CheckFault::ResponseLost:
        return m_proxy->forceNext(FaultKind::ResponseLost);
    case CheckFault::Error5xxBeforeCommit:
        return m_proxy->forceNext(FaultKind::Server5xxBeforeCommit);
    }
}

CheckFaults::Upstream ProxyFaults::upstreamFor(const QByteArray &key, int nth, int waitMs)
{
    // The proxy finishes an exchange whose answer it dropped only when the client has gone.
    const auto find = [&](Upstream *out) {
        int seen = 0;
        for (const ProxyExchange &e : m_proxy->exchanges()) {
            if (e.key != key || ++seen < nth)
                continue;
            if (e.upstream == ProxyUpstreamOutcome::Answered) {
                out->status = e.upstreamStatus;
                if (e.upstreamUs >= 0 && e.receivedUs >= 0)
                    out->afterUs = e.upstreamUs - e.receivedUs;
            }
            if (!e.resourceId.isEmpty())
                out->resource = QStringLiteral("id:") + e.resourceId;
            return true;
        }
        return false;
    };
    Upstream u;
    if (find(&u))
        return u;
    QEventLoop loop;
    QTimer::singleShot(waitMs, &loop, &QEventLoop::quit);
    QObject::connect(m_proxy.get(), &FaultProxy::exchangeFinished, &loop, [&] {
        if (find(&u))
            loop.quit();
    });
    loop.exec();
    return u;
}

} // namespace retrylab
