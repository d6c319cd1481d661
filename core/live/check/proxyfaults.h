#pragma once

#include "check/checkrunner.h"

#include <QString>
#include <QUrl>

#include <memory>

namespace retrylab {

class FaultProxy;

// The check's fault proxy: an in-process FaultProxy (core/live/proxy/) in front of the endpoint,
// that loses the answer of a committed request or answers a 5xx itself when the check asks, and
// whose ledger says what the endpoint answered a request whose answer was lost.
class ProxyFaults : public CheckFaults
{
public:
    ProxyFaults();
    ~ProxyFaults() override;

    // Starts the proxy on a free loopback port in front of `upstream` (its scheme, host and
    // port); returns an empty string or the reason.
    QString start(const QUrl &upstream, const QByteArray &keyHeader = QByteArrayLiteral("Idempotency-Key"));

    QUrl through(const QUrl &target) const override;
    void forceNext(CheckFault fault) override;
    Upstream upstreamFor(const QByteArray &key, int nth, int waitMs) override;

private:
    std::unique_ptr<FaultProxy> m_proxy;
};

} // namespace retrylab
