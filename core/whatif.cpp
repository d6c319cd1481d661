#include "whatif.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentMap>

namespace retrylab {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("retrylab::whatif", text);
}
} // namespace

namespace whatif {

QList<WhatIfVariant> variants(const Scenario &s)
{
    QList<WhatIfVariant> out;
    out.append({tr("current"), s});

    const auto withKey = [&](KeyPlacement placement) {
        Scenario v = s;
        v.client.keyPlacement = placement;
        return v;
    };
    out.append({tr("no key"), withKey(KeyPlacement::None)});
    out.append({tr("key per operation"), withKey(KeyPlacement::PerOperation)});
    if (s.server.idempotency.mode == IdempotencyMode::Off) {
        // A key alone does nothing while the server ignores it: show the complete fix too.
        Scenario v = withKey(KeyPlacement::PerOperation);
        v.server.idempotency.mode = IdempotencyMode::Atomic;
        out.append({tr("key per operation + atomic"), v});
    }
    out.append({tr("key per wrapper attempt"), withKey(KeyPlacement::PerWrapperAttempt)});

    if (s.client.business.enabled) {
        Scenario v = s;
        v.client.business.enabled = false;
        out.append({tr("business retry off"), v});
    }
    if (s.client.wrapper.enabled) {
        Scenario v = s;
        v.client.wrapper.enabled = false;
        out.append({tr("wrapper retry off"), v});
    }
    if (s.client.transport.enabled) {
        Scenario v = s;
        v.client.transport.enabled = false;
        out.append({tr("transport retry off"), v});
    }
    return out;
}

Metrics runOne(const WhatIfVariant &variant, const std::atomic_bool *cancel)
{
    if (cancel && cancel->load())
        return Metrics{};
    RunOptions options;
    options.trace = false;
    options.cancel = cancel;
    return simulate(variant.scenario, options).metrics;
}

QList<Metrics> run(const QList<WhatIfVariant> &variants, const std::atomic_bool *cancel)
{
    const std::function<Metrics(const WhatIfVariant &)> one = [cancel](const WhatIfVariant &v) {
        return runOne(v, cancel);
    };
    return QtConcurrent::blockingMapped<QList<Metrics>>(variants, one);
}

QFuture<Metrics> start(const QList<WhatIfVariant> &variants, std::shared_ptr<std::atomic_bool> cancel)
{
    // The shared flag lives as long as the jobs that read it.
    const std::function<Metrics(const WhatIfVariant &)> one = [cancel](const WhatIfVariant &v) {
        return runOne(v, cancel.get());
    };
    return QtConcurrent::mapped(variants, one);
}

} // namespace whatif

} // namespace retrylab
