#include "compare.h"

#include "story.h"

#include <QCoreApplication>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("retrylab::compare", text);
}

const QChar Minus(0x2212);
} // namespace

std::optional<double> CompareRow::relative() const
{
    if (a == 0)
        return b == 0 ? std::optional<double>(0.0) : std::nullopt;
    return (b - a) / std::abs(a);
}

int CompareRow::verdict() const
{
    if (better == 0 || a == b)
        return 0;
    return (b > a) == (better > 0) ? 1 : -1;
}

bool CompareRow::operator==(const CompareRow &o) const
{
    return key == o.key && label == o.label && unit == o.unit && better == o.better && a == o.a && b == o.b;
}

bool CompareSummary::isZero() const
{
    return std::all_of(rows.cbegin(), rows.cend(), [](const CompareRow &r) { return r.a == r.b; });
}

const CompareRow *CompareSummary::row(const QString &key) const
{
    for (const CompareRow &r : rows) {
        if (r.key == key)
            return &r;
    }
    return nullptr;
}

namespace compare {

CompareSummary summarize(const Metrics &a, const Metrics &b)
{
    using Unit = CompareRow::Unit;
    CompareSummary s;
    s.a = a;
    s.b = b;
    const auto add = [&s](const char *key, const QString &label, Unit unit, int better, double va, double vb) {
        s.rows.append(CompareRow{QLatin1String(key), label, unit, better, va, vb});
    };
    add("records", tr("Records on the server"), Unit::Count, 0, a.records, b.records);
    add("duplicates", tr("Duplicate records"), Unit::Count, -1, a.duplicates, b.duplicates);
    add("orphans", tr("Orphans (record, but the client gave up)"), Unit::Count, -1, a.orphans, b.orphans);
    add("httpAttempts", tr("POST attempts"), Unit::Count, -1, double(a.httpAttempts), double(b.httpAttempts));
    add("clientSucceeded", tr("Operations succeeded"), Unit::Count, 1, a.clientSucceeded, b.clientSucceeded);
    add("clientFailed", tr("Operations failed"), Unit::Count, -1, a.clientFailed, b.clientFailed);
    add("latencyP50Ms", tr("Latency p50 (ms)"), Unit::Milliseconds, -1, a.latencyP50Ms, b.latencyP50Ms);
    add("latencyP99Ms", tr("Latency p99 (ms)"), Unit::Milliseconds, -1, a.latencyP99Ms, b.latencyP99Ms);
    add("goodputPerS", tr("Goodput (successful orders per second)"), Unit::PerSecond, 1, a.goodputPerS,
        b.goodputPerS);
    return s;
}

QList<WhatIfVariant> variants(const Scenario &s)
{
    QList<WhatIfVariant> out = whatif::variants(s);
    if (!(isAboutLoad(s) || s.server.model == ServerModel::Occ))
        return out;
    const auto add = [&](const QString &label, const Scenario &b) {
        const QList<ScenarioChange> changes = whatif::changes(s, b);
        if (!changes.isEmpty())
            out << WhatIfVariant{label, changes, b};
    };
    if (s.client.business.enabled && s.client.business.backoff.jitter == Jitter::None) {
        Scenario b = s;
        b.client.business.backoff.jitter = Jitter::Full;
        add(tr("full jitter"), b);
    }
    if (!s.client.retryBudget.enabled) {
        Scenario b = s;
        b.client.retryBudget.enabled = true;
        b.client.retryBudget.scope = BudgetScope::Global;
        add(tr("global retry budget"), b);
    }
    return out;
}

WhatIfVariant defaultVariant(const Scenario &s)
{
    const QList<WhatIfVariant> variants = compare::variants(s);
    if (isAboutLoad(s) || s.server.model == ServerModel::Occ) {
        // The lesson is the load, not the key: the fixes of the AWS study and the metastable lesson.
        for (const QString &label : {tr("full jitter"), tr("global retry budget")}) {
            for (const WhatIfVariant &v : variants) {
                if (v.label == label)
                    return v;
            }
        }
    }
    const bool keyMissing = s.client.keyPlacement != KeyPlacement::PerOperation;
    const bool keysIgnored = s.server.idempotency.mode == IdempotencyMode::Off;
    if (keyMissing || keysIgnored) {
        // The fix the lessons teach: one key per operation that the server honours.
        for (const WhatIfVariant &v : variants) {
            if (!v.changes.isEmpty() && v.scenario.client.keyPlacement == KeyPlacement::PerOperation
                && v.scenario.server.idempotency.mode != IdempotencyMode::Off)
                return v;
        }
    }
    for (const WhatIfVariant &v : variants) {
        if (!v.changes.isEmpty())
            return v;
    }
    return variants.constFirst(); // the current settings
}

QString toggleLabel(const QList<ScenarioChange> &changes)
{
    QStringList parts;
    for (const ScenarioChange &c : changes)
        parts << tr("%1: %2 \u2192 %3").arg(c.path, c.from, c.to);
    return parts.join(QStringLiteral("; "));
}

Scenario withSeedOf(const Scenario &a, Scenario b)
{
    b.seed = a.seed;
    return b;
}

namespace {
RunResult runSide(const Scenario &s, bool trace, const std::atomic_bool *cancel)
{
    RunOptions options;
    options.trace = trace;
    options.cancel = cancel;
    return simulate(s, options);
}

bool stopped(const std::atomic_bool *cancel)
{
    return cancel && cancel->load();
}
} // namespace

CompareResult run(const Scenario &a, const Scenario &b, bool trace, const std::atomic_bool *cancel)
{
    CompareResult out;
    out.a = runSide(a, trace, cancel);
    if (out.a.cancelled || stopped(cancel)) {
        out.cancelled = true;
        return out;
    }
    out.b = runSide(withSeedOf(a, b), trace, cancel);
    if (out.b.cancelled || stopped(cancel)) {
        out.cancelled = true;
        return out;
    }
    out.summary = summarize(out.a.metrics, out.b.metrics);
    return out;
}

QFuture<CompareResult> start(const Scenario &a, const Scenario &b, bool trace, std::shared_ptr<std::atomic_bool> cancel)
{
    if (!cancel)
        cancel = std::make_shared<std::atomic_bool>(false);
    // The shared flag lives as long as the job that reads it.
    return QtConcurrent::run([a, b, trace, cancel](QPromise<CompareResult> &promise) {
        promise.setProgressRange(0, 2);
        promise.setProgressValue(0);
        CompareResult out;
        out.a = runSide(a, trace, cancel.get());
        if (out.a.cancelled || cancel->load() || promise.isCanceled()) {
            out.cancelled = true;
            promise.addResult(std::move(out));
            return;
        }
        promise.setProgressValue(1);
        out.b = runSide(withSeedOf(a, b), trace, cancel.get());
        out.cancelled = out.b.cancelled || cancel->load() || promise.isCanceled();
        if (!out.cancelled)
            out.summary = summarize(out.a.metrics, out.b.metrics);
        promise.setProgressValue(2);
        promise.addResult(std::move(out));
    });
}

QString formatValue(const CompareRow &row, double value)
{
    QString text;
    switch (row.unit) {
    case CompareRow::Unit::Count:
        text = QString::number(qint64(std::llround(value)));
        break;
    case CompareRow::Unit::Milliseconds:
        text = QString::number(value, 'f', 1);
        break;
    case CompareRow::Unit::PerSecond:
        text = QString::number(value, 'f', 2);
        break;
    }
    if (text.startsWith(QLatin1Char('-')))
        text.replace(0, 1, Minus);
    return text;
}

QString formatDifference(const CompareRow &row)
{
    const double d = row.difference();
    const QString magnitude = formatValue(row, std::abs(d));
    // A difference that rounds to zero is written as zero, without a sign.
    if (d == 0 || magnitude.count(QLatin1Char('0')) + magnitude.count(QLatin1Char('.')) == magnitude.size())
        return magnitude;
    return (d > 0 ? QStringLiteral("+") : QString(Minus)) + magnitude;
}

QString formatRelative(const CompareRow &row)
{
    const std::optional<double> r = row.relative();
    if (!r)
        return QStringLiteral("\u2014");
    // Whole percents from 10% on; below, one decimal, so a small change does not read as none.
    const double percent = *r * 100;
    const double shown = std::abs(percent) < 9.95 ? std::round(percent * 10) / 10 : std::round(percent);
    if (shown == 0)
        return QStringLiteral("0%");
    const QString digits = std::abs(shown) < 9.95 ? QString::number(std::abs(shown), 'f', 1)
                                                  : QString::number(qint64(std::abs(shown)));
    return (shown > 0 ? QStringLiteral("+") : QString(Minus)) + digits + QLatin1Char('%');
}

Curves curves(const RunResult &result)
{
    Curves c;
    QList<const RecordRow *> rows;
    rows.reserve(result.records.size());
    for (const RecordRow &r : result.records)
        rows.append(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const RecordRow *x, const RecordRow *y) { return x->t < y->t; });
    int records = 0;
    int duplicates = 0;
    c.records.append(QPointF(0, 0));
    c.duplicates.append(QPointF(0, 0));
    for (const RecordRow *r : std::as_const(rows)) {
        const double s = r->t / 1e6;
        c.records.append(QPointF(s, records));
        c.records.append(QPointF(s, ++records));
        if (r->duplicate) {
            c.duplicates.append(QPointF(s, duplicates));
            c.duplicates.append(QPointF(s, ++duplicates));
        }
    }
    double end = std::max(result.metrics.durationS, result.metrics.lastCommitS);
    for (const OpSummary &op : result.ops)
        end = std::max(end, op.end / 1e6);
    c.end = end > 0 ? end : 1;
    c.records.append(QPointF(c.end, records));
    c.duplicates.append(QPointF(c.end, duplicates));
    return c;
}

} // namespace compare

} // namespace retrylab
