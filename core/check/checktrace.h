#pragma once

#include "check/checkreport.h"
#include "proxyexchange.h"
#include "simulator.h"

#include <QList>

namespace retrylab {

// One round of one probe, as the window shows it: an operation of its own.
struct CheckOperation
{
    int op = 0;
    Probe probe = Probe::Replay;
    int round = 1;
    ProbeVerdict verdict; // check::evaluate() of this round alone
    bool deciding = false; // the round that gave the probe its verdict on the card
};

// The window's view of a check report (File > Open check report…, `retrylab --check-report`):
// every round of every probe becomes one operation, numbered in the report's order, and its
// exchanges the attempts of that operation, drawn by ProxyTrace as the Proxy view draws the
// traffic through `retrylab proxy`: the check's send and what it saw (Transport), the fault the
// check had its proxy apply (Network), the endpoint's answer (Server) and the resources it
// created (Database; a second one for the same round is a duplicate). Times are the check's own:
// a round's startUs plus each exchange's sentUs and answeredUs.
struct CheckTrace
{
    RunResult result;
    QList<CheckOperation> operations; // one per operation, operations[i].op == i + 1

    static CheckTrace of(const CheckReport &report);
    // One exchange of operation `op` as the proxy would have recorded it (`timeoutMs`: when a
    // request that got no answer was given up).
    static ProxyExchange exchangeOf(const CheckExchange &e, const QString &target, int op, int arrival,
                                    qint64 startUs, int timeoutMs);
};

} // namespace retrylab
