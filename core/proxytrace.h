#pragma once

#include "proxyexchange.h"
#include "proxyledger.h"
#include "simulator.h"

#include <QList>

namespace retrylab {

// The window's Proxy view (File > Proxy…): the exchanges a FaultProxy finished, as a RunResult that
// the timeline, records, log and charts read as they read a simulated run. Each exchange becomes the
// events of one HTTP attempt on the lanes it crossed: the client's send and what it saw (Transport),
// the proxy's fault (Network), the upstream's answer (Server), and a Committed record (Database)
// for each resource the upstream created that its logical request had not created before. The
// logical requests are ProxyLedger's (by --order-field reference, else by key), one operation each
// (its ProxyExchange::op); records and duplicates are the ledger's own count. Keeps the last
// maxExchanges exchanges for the views; the metrics count every exchange appended.
class ProxyTrace
{
public:
    static constexpr int DefaultMaxExchanges = 20000;

    explicit ProxyTrace(int maxExchanges = DefaultMaxExchanges);

    // Forgets everything; the scenario is what the result says it ran (the proxy's faults).
    void reset(const Scenario &scenario);
    // A finished exchange (FaultProxy::exchangeFinished).
    void append(const ProxyExchange &exchange);

    int maxExchanges() const { return m_maxExchanges; }
    qint64 exchanges() const { return m_appended; }
    // Exchanges no longer on show (past maxExchanges); their counts stay in the metrics.
    qint64 droppedExchanges() const { return m_appended - m_kept.size(); }
    // The op of the last exchange that belonged to a logical request (0: none yet).
    int lastOperation() const { return m_lastOp; }
    const ProxyLedger &ledger() const { return m_ledger; }

    RunResult result() const;

    // The events of one exchange; `record` is the record number a new resource gets (0: none is
    // new), `firstRecord` the first record of its logical request (a duplicate names it). `nextId`
    // numbers the events and is advanced past them.
    static Trace events(const ProxyExchange &exchange, int record, int firstRecord, int *nextId);

private:
    struct Kept
    {
        ProxyExchange exchange;
        int record = 0;      // the record this exchange created, 0: none
        int firstRecord = 0; // the first record of its logical request when this one is a duplicate
    };

    int m_maxExchanges;
    Scenario m_scenario;
    ProxyLedger m_ledger;
    QList<Kept> m_kept;
    QHash<int, QStringList> m_resourcesOfOp; // every resource each op created, in order (all appended)
    QHash<int, int> m_firstRecordOfOp;
    int m_records = 0;
    qint64 m_appended = 0;
    int m_lastOp = 0;
};

} // namespace retrylab
