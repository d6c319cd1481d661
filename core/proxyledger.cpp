#include "proxyledger.h"

#include <QJsonArray>

namespace retrylab {

bool ProxyLedger::isRead(const QByteArray &method)
{
    return method == "GET" || method == "HEAD" || method == "OPTIONS" || method == "TRACE";
}

ProxyLedger::Row *ProxyLedger::rowFor(const ProxyExchange &e)
{
    Row fresh;
    QString index;
    if (!e.orderRef.isEmpty()) {
        fresh.by = GroupBy::OrderRef;
        fresh.group = e.orderRef;
        index = QLatin1String("r:") + e.orderRef;
    } else if (!e.key.isEmpty()) {
        fresh.by = GroupBy::Key;
        fresh.group = QString::fromLatin1(e.key);
        index = QLatin1String("k:") + fresh.group;
    } else {
        fresh.group = QLatin1Char('#') + QString::number(e.id);
    }
    if (!index.isEmpty()) {
        const auto it = m_index.constFind(index);
        if (it != m_index.constEnd())
            return &m_rows[size_t(it.value())];
    }
    ++m_totals.logicalRequests;
    if (int(m_rows.size()) >= m_maxRows) {
        ++m_totals.rowsDropped;
        return nullptr;
    }
    fresh.op = e.op;
    if (!index.isEmpty())
        m_index.insert(index, int(m_rows.size()));
    m_rows.push_back(fresh);
    return &m_rows.back();
}

void ProxyLedger::add(const ProxyExchange &e)
{
    ++m_totals.exchanges;
    if (e.faults != 0)
        ++m_totals.faulted;
    if (isRead(e.method) && e.orderRef.isEmpty() && e.key.isEmpty()) {
        ++m_totals.reads;
        return;
    }
    const bool answered = e.client == ProxyClientOutcome::Answered;
    const bool success = answered && e.clientStatus >= 200 && e.clientStatus < 300;
    const bool created = e.upstream == ProxyUpstreamOutcome::Answered && e.upstreamStatus >= 200
                         && e.upstreamStatus < 300 && !isRead(e.method);
    ++m_totals.attempts;
    m_totals.answers += answered ? 1 : 0;
    m_totals.successes += success ? 1 : 0;
    m_totals.failures += success ? 0 : 1;
    Row *row = rowFor(e);
    if (!row) {
        // Past the cap: counted as a logical request of its own.
        if (created && !e.resourceId.isEmpty())
            ++m_totals.created;
        else if (created)
            ++m_totals.unidentified;
        return;
    }
    ++row->attempts;
    row->answers += answered ? 1 : 0;
    row->successes += success ? 1 : 0;
    row->failures += success ? 0 : 1;
    row->clientStatuses.append(answered ? e.clientStatus : 0);
    if (created && e.resourceId.isEmpty())
        ++row->unidentified;
    else if (created && !row->resources.contains(e.resourceId))
        row->resources.append(e.resourceId);
}

ProxyLedger::Totals ProxyLedger::totals() const
{
    Totals t = m_totals;
    // Rows change with later exchanges (a success after a failure ends an orphan): summed now.
    for (const Row &r : m_rows) {
        t.created += r.created();
        t.duplicates += r.duplicates();
        t.orphans += r.orphan() ? 1 : 0;
        t.unidentified += r.unidentified;
    }
    return t;
}

QString ProxyLedger::groupByName(GroupBy by)
{
    switch (by) {
    case GroupBy::OrderRef: return QStringLiteral("orderRef");
    case GroupBy::Key: return QStringLiteral("key");
    case GroupBy::Single: return QStringLiteral("single");
    }
    return QString();
}

QJsonObject ProxyLedger::totalsJson() const
{
    const Totals t = totals();
    return QJsonObject{{QStringLiteral("exchanges"), double(t.exchanges)},
                       {QStringLiteral("reads"), double(t.reads)},
                       {QStringLiteral("logicalRequests"), double(t.logicalRequests)},
                       {QStringLiteral("attempts"), double(t.attempts)},
                       {QStringLiteral("answers"), double(t.answers)},
                       {QStringLiteral("successes"), double(t.successes)},
                       {QStringLiteral("failures"), double(t.failures)},
                       {QStringLiteral("created"), double(t.created)},
                       {QStringLiteral("duplicates"), double(t.duplicates)},
                       {QStringLiteral("orphans"), double(t.orphans)},
                       {QStringLiteral("unidentified"), double(t.unidentified)},
                       {QStringLiteral("faulted"), double(t.faulted)},
                       {QStringLiteral("rowsDropped"), double(t.rowsDropped)}};
}

QJsonObject ProxyLedger::toJson(int limit) const
{
    QJsonArray rows;
    const size_t first = m_rows.size() > size_t(qMax(0, limit)) ? m_rows.size() - size_t(qMax(0, limit)) : 0;
    for (size_t i = first; i < m_rows.size(); ++i) {
        const Row &r = m_rows[i];
        QJsonArray statuses;
        for (const int s : r.clientStatuses)
            statuses.append(s);
        rows.append(QJsonObject{{QStringLiteral("op"), r.op},
                                {QStringLiteral("groupBy"), groupByName(r.by)},
                                {QStringLiteral("group"), r.group},
                                {QStringLiteral("attempts"), r.attempts},
                                {QStringLiteral("answers"), r.answers},
                                {QStringLiteral("successes"), r.successes},
                                {QStringLiteral("failures"), r.failures},
                                {QStringLiteral("clientStatuses"), statuses},
                                {QStringLiteral("resources"), QJsonArray::fromStringList(r.resources)},
                                {QStringLiteral("created"), r.created()},
                                {QStringLiteral("duplicates"), r.duplicates()},
                                {QStringLiteral("orphan"), r.orphan()},
                                {QStringLiteral("unidentified"), r.unidentified}});
    }
    return QJsonObject{{QStringLiteral("totals"), totalsJson()},
                       {QStringLiteral("requests"), rows},
                       {QStringLiteral("requestsOmitted"), double(first)}};
}

} // namespace retrylab
