// A check report on the timeline: each probe round an operation, drawn by ProxyTrace.
#include "check/checktrace.h"

#include "check/checkverdicts.h"
#include "faults.h"
#include "proxytrace.h"

#include <QUrl>

#include <algorithm>

namespace retrylab {

ProxyExchange CheckTrace::exchangeOf(const CheckExchange &e, const QString &target, int op, int arrival,
                                     qint64 startUs, int timeoutMs)
{
    using namespace faults::shortnames;
    ProxyExchange x;
    x.method = "POST";
    x.target = target.toUtf8();
    x.key = e.key;
    x.op = op;
    x.arrival = arrival;
    x.receivedUs = startUs + std::max<qint64>(0, e.sentUs);
    const qint64 gaveUp = x.receivedUs + qint64(timeoutMs) * 1000;
    x.finishedUs = e.answeredUs >= 0 ? startUs + e.answeredUs : gaveUp;
    x.clientStatus = e.status;
    x.client = e.answered()        ? ProxyClientOutcome::Answered
               : e.connectFailed ? ProxyClientOutcome::Refused
                                 : ProxyClientOutcome::NoAnswer;
    x.location = e.location;
    x.replayedHeader = e.replayedHeader;
    switch (e.fault) {
    case CheckFault::None:
        // Straight to the endpoint: what the check saw is what it answered. Without an answer
        // nothing says the endpoint saw the request, so none is drawn.
        if (e.answered()) {
            x.upstream = ProxyUpstreamOutcome::Answered;
            x.upstreamStatus = e.status;
            x.forwardedUs = x.receivedUs;
            x.upstreamUs = x.finishedUs;
            x.resourceId = e.resource;
        }
        break;
    case CheckFault::ResponseLost:
        // The proxy read the endpoint's answer, then dropped it: drawn when the proxy had read it
        // (before the check gave up); at the send in an older report that did not keep when.
        x.faults = FResponseLost;
        x.forwardedUs = x.receivedUs;
        if (e.upstreamStatus > 0) {
            x.upstream = ProxyUpstreamOutcome::Answered;
            x.upstreamStatus = e.upstreamStatus;
            x.upstreamUs = e.upstreamAnsweredUs >= 0
                ? std::max(x.receivedUs, std::min(startUs + e.upstreamAnsweredUs, x.finishedUs))
                : x.receivedUs;
            x.resourceId = e.upstreamResource;
        } else {
            x.upstream = ProxyUpstreamOutcome::TimedOut;
        }
        break;
    case CheckFault::Error5xxBeforeCommit:
        x.faults = F5xxBefore; // answered by the proxy itself, never forwarded
        break;
    }
    return x;
}

CheckTrace CheckTrace::of(const CheckReport &report)
{
    CheckTrace out;
    const QString target = QUrl(report.url).path(QUrl::FullyEncoded);
    int exchanges = 0;
    for (const QList<ProbeObservation> &rounds : report.rounds) {
        for (const ProbeObservation &o : rounds)
            exchanges += int(o.exchanges.size());
    }
    ProxyTrace trace(std::max(1, exchanges));
    Scenario subject;
    subject.name = QStringLiteral("check");
    trace.reset(subject);
    for (int p = 0; p < report.card.size(); ++p) {
        const QList<ProbeObservation> &rounds = report.rounds.value(p);
        for (const ProbeObservation &o : rounds) {
            CheckOperation operation;
            operation.op = int(out.operations.size()) + 1;
            operation.probe = report.card.at(p).probe;
            operation.round = o.round;
            operation.verdict = check::evaluate(o);
            operation.deciding = o.round == report.card.at(p).round;
            out.operations << operation;
            // The probe names the logical request: the ledger groups the round's exchanges by it,
            // whether or not they carry a key.
            const QString ref = rounds.size() > 1 ? QStringLiteral("%1 #%2").arg(check::probeName(operation.probe)).arg(o.round)
                                                  : check::probeName(operation.probe);
            for (int i = 0; i < o.exchanges.size(); ++i) {
                ProxyExchange x = exchangeOf(o.exchanges.at(i), target, operation.op, i + 1, o.startUs, report.timeoutMs);
                x.id = quint64(trace.exchanges()) + 1;
                x.orderRef = ref;
                trace.append(x);
            }
        }
    }
    out.result = trace.result();
    // The words name what the probe sent: its key. The probe's name only groups the ledger, and
    // stays where the probe sent no key.
    for (TraceEvent &ev : out.result.trace) {
        if (ev.kind == EventKind::Committed && !ev.key().isEmpty())
            ev.setRef(ev.key());
    }
    return out;
}

} // namespace retrylab
