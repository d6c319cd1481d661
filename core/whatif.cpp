#include "whatif.h"

#include "scenariovisit.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <type_traits>

namespace retrylab {

namespace {
QString text(bool v) { return v ? QStringLiteral("true") : QStringLiteral("false"); }
QString text(int v) { return QString::number(v); }
QString text(quint64 v) { return QString::number(v); }
QString text(double v) { return QString::number(v); }
QString text(const QString &v) { return v; } // a choice, by its name
QString text(const QStringList &v) { return QLatin1Char('[') + v.join(QStringLiteral(", ")) + QLatin1Char(']'); }
QString text(const QList<int> &v)
{
    QStringList parts;
    for (int i : v)
        parts << QString::number(i);
    return text(parts);
}
template<class E, class = std::enable_if_t<std::is_enum_v<E>>>
QString text(E v)
{
    return scenario::toString(v);
}
QString text(const ScriptEntry &e)
{
    return QStringLiteral("op %1, %2attempt %3, %4")
        .arg(e.op == 0 ? QStringLiteral("*") : QString::number(e.op),
             e.method == ScriptMethod::Get ? QStringLiteral("GET ") : QString(), e.attempt, scenario::toString(e.fault));
}

struct ChangesVisitor
{
    QList<ScenarioChange> out;
    template<class T>
    void operator()(const char *path, const T &a, const T &b)
    {
        if (!(a == b))
            out.append({QLatin1String(path), text(a), text(b)});
    }
    void operator()(const char *path, const QList<ScriptEntry> &a, const QList<ScriptEntry> &b)
    {
        const QString none = QCoreApplication::translate("retrylab::whatif", "(none)");
        for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
            const bool inA = i < a.size();
            const bool inB = i < b.size();
            if (inA && inB && a.at(i) == b.at(i))
                continue;
            out.append({QStringLiteral("%1[%2]").arg(QLatin1String(path)).arg(i), inA ? text(a.at(i)) : none,
                        inB ? text(b.at(i)) : none});
        }
    }
};

} // namespace

namespace whatif {

QList<ScenarioChange> changes(const Scenario &from, const Scenario &to)
{
    ChangesVisitor v;
    scenario::visitSettings(from, to, v);
    return v.out;
}

bool sameSettings(const Scenario &a, const Scenario &b)
{
    return a.seed == b.seed && scenario::sameSettings(a, b);
}

QString describe(const QList<ScenarioChange> &changes)
{
    QStringList lines;
    for (const ScenarioChange &c : changes)
        lines << QStringLiteral("%1: %2 -> %3").arg(c.path, c.from, c.to);
    return lines.join(QLatin1Char('\n'));
}

QList<WhatIfVariant> variants(const Scenario &s)
{
    QList<WhatIfVariant> out;
    out.append({QCoreApplication::translate("retrylab::whatif", "current settings"), {}, s});
    const auto add = [&](const QString &label, const Scenario &v) {
        const QList<ScenarioChange> changed = changes(s, v);
        if (!changed.isEmpty()) // "one change at a time": a variant without one says nothing
            out.append({label, changed, v});
    };

    // What the server does with a key decides whether a key placement helps at all.
    const IdempotencyMode mode = s.server.idempotency.mode;
    const QString ignored = QCoreApplication::translate("retrylab::whatif", "server ignores keys (mode off)");
    const auto withKey = [&](KeyPlacement placement) {
        Scenario v = s;
        v.client.keyPlacement = placement;
        return v;
    };
    add(s.server.idempotency.requireKey && mode != IdempotencyMode::Off
            ? QCoreApplication::translate("retrylab::whatif", "no key, server requires one (400)")
            : QCoreApplication::translate("retrylab::whatif", "no key"),
        withKey(KeyPlacement::None));
    add(mode == IdempotencyMode::Off ? QCoreApplication::translate("retrylab::whatif", "key per op, %1").arg(ignored) : QCoreApplication::translate("retrylab::whatif", "key per op"),
        withKey(KeyPlacement::PerOperation));
    if (mode == IdempotencyMode::Off) {
        // A key alone does nothing while the server ignores it: show the complete fix too.
        Scenario v = withKey(KeyPlacement::PerOperation);
        v.server.idempotency.mode = IdempotencyMode::Atomic;
        add(s.client.keyPlacement == KeyPlacement::PerOperation ? QCoreApplication::translate("retrylab::whatif", "atomic server (same key per op)")
                                                                 : QCoreApplication::translate("retrylab::whatif", "key per op + atomic server"),
            v);
    }
    add(mode == IdempotencyMode::Off ? QCoreApplication::translate("retrylab::whatif", "new key per @retry attempt, %1").arg(ignored)
                                     : QCoreApplication::translate("retrylab::whatif", "new key per @retry attempt"),
        withKey(KeyPlacement::PerWrapperAttempt));

    if (s.client.business.enabled) {
        Scenario v = s;
        v.client.business.enabled = false;
        add(QCoreApplication::translate("retrylab::whatif", "no business retry loop"), v);
    }
    if (s.client.wrapper.enabled) {
        Scenario v = s;
        v.client.wrapper.enabled = false;
        add(QCoreApplication::translate("retrylab::whatif", "no @retry wrapper"), v);
    }
    if (s.client.transport.enabled) {
        Scenario v = s;
        v.client.transport.enabled = false;
        add(QCoreApplication::translate("retrylab::whatif", "no transport retries (urllib3)"), v);
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
