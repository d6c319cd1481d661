#include "work.h"

#include <QLocale>
#include <QStringList>

#include <limits>

namespace retrylab {

namespace work {

namespace {

QString factor(const char *field, qint64 value)
{
    return QStringLiteral("%1 %2").arg(QLatin1String(field)).arg(value);
}

} // namespace

qint64 saturatedProduct(qint64 a, qint64 b)
{
    if (a <= 0 || b <= 0)
        return 0;
    if (a > std::numeric_limits<qint64>::max() / b)
        return std::numeric_limits<qint64>::max();
    return a * b;
}

Estimate estimate(const Scenario &s)
{
    const ClientConfig &c = s.client;
    // Unlimited layers (maxAttempts 0) count the attempts their deadline lets through.
    const qint64 business = c.business.enabled ? qMax(1, c.business.effectiveMaxAttempts()) : 1;
    const qint64 wrapper = c.wrapper.enabled ? qMax(1, c.wrapper.effectiveMaxAttempts()) : 1;
    const qint64 transport = c.transport.enabled ? qMax(0, c.transport.worstCaseRetries()) + 1 : 1;
    const qint64 submissionsPerOrder = s.workload.doubleSubmitRate > 0 ? 2 : 1;

    // Requests of one submission that exhausts every layer.
    qint64 perSubmission = business * wrapper * transport;
    QStringList extras;
    if (c.queryBeforeRetry && business > 1) {
        // GET /orders?ref= before each business retry, each retried by the transport like any GET.
        perSubmission += (business - 1) * transport;
        extras << (transport > 1 ? QStringLiteral("a status query before each business retry, retried by the transport "
                                                  "(client.queryBeforeRetry)")
                                 : QStringLiteral("a status query before each business retry (client.queryBeforeRetry)"));
    }
    if (s.server.idempotency.mode == IdempotencyMode::Token && c.keyPlacement != KeyPlacement::None) {
        qint64 tokens = 1;
        if (c.keyPlacement == KeyPlacement::PerBusinessAttempt)
            tokens = business;
        else if (c.keyPlacement == KeyPlacement::PerWrapperAttempt)
            tokens = business * wrapper;
        perSubmission += tokens;
        extras << QStringLiteral("a token round trip per key (server.idempotency.mode token)");
    }

    QStringList factors;
    if (s.workload.mode == WorkloadMode::Closed)
        factors << QStringLiteral("workload.clients %1 x workload.opsPerClient %2").arg(s.workload.clients).arg(s.workload.opsPerClient);
    else
        factors << factor("workload.orders", s.workload.orders);
    if (submissionsPerOrder > 1)
        factors << QStringLiteral("2 submissions (workload.doubleSubmitRate %1)").arg(s.workload.doubleSubmitRate);
    if (c.business.enabled)
        factors << factor(c.business.maxAttempts == 0 ? "client.business.deadlineMs / max(1, minimum wait) + 1"
                                                      : "client.business.maxAttempts",
                          business);
    if (c.wrapper.enabled)
        factors << factor(c.wrapper.maxAttempts == 0 ? "client.wrapper.deadlineMs / max(1, minimum wait) + 1"
                                                     : "client.wrapper.maxAttempts",
                          wrapper);
    if (c.transport.enabled)
        factors << (c.transport.total == c.transport.worstCaseRetries()
                        ? factor("client.transport.total+1", transport)
                        : factor("client.transport retries (total, connect, read, status)+1", transport));

    Estimate e;
    e.attempts = saturatedProduct(saturatedProduct(qMax(0, s.workload.operations()), submissionsPerOrder), perSubmission);
    e.drivers = factors.join(QStringLiteral(" x "));
    if (!extras.isEmpty())
        e.drivers += QStringLiteral(", plus ") + extras.join(QStringLiteral(" and "));
    return e;
}

QString formatCount(qint64 count)
{
    if (count < 1000000)
        return QString::number(count);
    // Two significant digits read at a glance: 2.1e11, 2e8.
    QString text = QString::number(double(count), 'e', 1); // "2.1e+11"
    const int e = text.indexOf(QLatin1Char('e'));
    QString mantissa = text.left(e);
    if (mantissa.endsWith(QLatin1String(".0")))
        mantissa.chop(2);
    const int exponent = text.mid(e + 1).toInt();
    return mantissa + QLatin1Char('e') + QString::number(exponent);
}

QString formatCountForPeople(qint64 count, const QString &language)
{
    if (!language.startsWith(QLatin1String("zh")))
        return QLocale(QLocale::English).toString(count);
    // 万 (1e4), 亿 (1e8), 万亿 (1e12): the units a Chinese reader counts in.
    struct Unit
    {
        double size;
        const char16_t *name;
    };
    static const Unit units[] = {{1e12, u"\u4e07\u4ebf"}, {1e8, u"\u4ebf"}, {1e4, u"\u4e07"}};
    for (const Unit &unit : units) {
        // From where four significant digits round up to one of this unit: 9,999.6 万 reads 1 亿.
        if (double(count) < unit.size * (1 - 5e-5))
            continue;
        const double value = double(count) / unit.size;
        const int decimals = value >= 1000 ? 0 : value >= 100 ? 1 : value >= 10 ? 2 : 3;
        QString number = QString::number(value, 'f', decimals);
        if (number.contains(QLatin1Char('.'))) {
            while (number.endsWith(QLatin1Char('0')))
                number.chop(1);
            if (number.endsWith(QLatin1Char('.')))
                number.chop(1);
        }
        return number + QLatin1Char(' ') + QString::fromUtf16(unit.name);
    }
    return QString::number(count);
}

QString refusal(const QString &what, const Estimate &estimate, qint64 limit)
{
    QString amount = formatCount(estimate.attempts);
    QString cap = formatCount(limit);
    if (amount == cap) {
        // Rounded alike ("2e8 ... over the limit of 2e8"): show the digits.
        amount = QString::number(estimate.attempts);
        cap = QString::number(limit);
    }
    return QStringLiteral("%1 could make up to %2 HTTP attempts (%3), over the limit of %4; "
                          "raise it with --max-attempts N")
            .arg(what, amount, estimate.drivers, cap);
}

} // namespace work

} // namespace retrylab
