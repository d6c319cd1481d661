#pragma once

#include "proxyexchange.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace retrylab {

// What `retrylab proxy` counts on a service it does not touch: the finished exchanges grouped into
// logical requests, with the definitions of design.md section 1.5 (duplicate, orphan). Pure and
// incremental: add() each finished exchange, read rows() and totals() at any time.
//
// A logical request is the exchanges that share the --order-field value of their JSON body (the
// business reference names the order the user meant, so a key rotated on retry still counts as
// one), else their idempotency key, else the exchange alone. Reads (GET, HEAD, OPTIONS, TRACE
// without a key or reference) are counted only in the totals: they create nothing.
class ProxyLedger
{
public:
    enum class GroupBy { OrderRef, Key, Single };

    // One logical request.
    struct Row
    {
        GroupBy by = GroupBy::Single;
        QString group;          // the reference, the key, or "#<exchange id>"
        int op = 0;             // the logical request's number (ProxyExchange::op of its first exchange)
        int attempts = 0;       // exchanges
        int answers = 0;        // HTTP answers the client saw
        int successes = 0;      // 2xx answers the client saw
        int failures = 0;       // attempts the client saw fail: a non-2xx answer, no answer, a reset, a refusal
        QStringList resources;  // distinct ids of 2xx upstream answers, in the order first seen
        int unidentified = 0;   // 2xx upstream answers without an id (Location or JSON "id")
        QList<int> clientStatuses; // each attempt's client status, 0 for no answer/reset/refused

        int created() const { return int(resources.size()); }
        int duplicates() const { return created() > 1 ? created() - 1 : 0; }
        // Committed upstream, the client saw a failure and never a success.
        bool orphan() const { return created() > 0 && successes == 0 && failures > 0; }
    };

    struct Totals
    {
        qint64 exchanges = 0;
        qint64 reads = 0;           // exchanges outside every logical request
        qint64 logicalRequests = 0;
        qint64 attempts = 0;
        qint64 answers = 0;
        qint64 successes = 0;
        qint64 failures = 0;
        qint64 created = 0;
        qint64 duplicates = 0;
        qint64 orphans = 0;
        qint64 unidentified = 0;
        qint64 faulted = 0;         // exchanges a fault struck
        qint64 rowsDropped = 0;     // logical requests past maxRows: in the totals, without a row
    };

    explicit ProxyLedger(int maxRows = 100000) : m_maxRows(maxRows) {}

    static bool isRead(const QByteArray &method);
    void add(const ProxyExchange &e);
    const std::vector<Row> &rows() const { return m_rows; }
    Totals totals() const;

    QJsonObject totalsJson() const;
    // Every row (at most `limit`, the last ones when there are more) and the totals.
    QJsonObject toJson(int limit = 1000) const;
    static QString groupByName(GroupBy by);

private:
    Row *rowFor(const ProxyExchange &e);

    int m_maxRows;
    std::vector<Row> m_rows;
    QHash<QString, int> m_index; // "r:"/"k:" + group -> row
    Totals m_totals;             // the counters that do not depend on a row's later exchanges
};

} // namespace retrylab
