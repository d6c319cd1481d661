#include "story.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace retrylab {

namespace story {

QString label(Highlight h)
{
    switch (h) {
    case Highlight::Duplicate:
        return QCoreApplication::translate("story", "duplicate");
    case Highlight::Orphan:
        return QCoreApplication::translate("story", "orphan");
    case Highlight::Mismatch422:
        return QCoreApplication::translate("story", "422 payload mismatch");
    case Highlight::Conflict409:
        return QCoreApplication::translate("story", "409 conflict");
    case Highlight::Replay:
        return QCoreApplication::translate("story", "replay");
    case Highlight::QueryFound:
        return QCoreApplication::translate("story", "query found the order");
    case Highlight::Query:
        return QCoreApplication::translate("story", "status query");
    }
    return QString();
}

QString describe(const InterestingOp &op)
{
    QStringList parts;
    for (const Highlight h : op.reasons)
        parts << label(h);
    return parts.join(QCoreApplication::translate("story", ", "));
}

QString outcome(const OpSummary &op)
{
    if (op.succeeded && op.records == 1)
        return QString();
    if (!op.succeeded && op.records == 0)
        return QCoreApplication::translate("story", "The server holds no record of %1: nothing to clean up.").arg(op.ref);
    if (op.records == 0)
        return QString(); // lost: reported elsewhere, must never happen
    if (op.records == 1)
        return QCoreApplication::translate("story", "Yet the server holds a record of %1: an orphan the client will not know about.").arg(op.ref);
    // Whole sentences, so that a translation can order them freely.
    if (op.records == 2) {
        return (op.succeeded ? QCoreApplication::translate("story", "The server holds 2 records of %1: 1 is a duplicate.")
                             : QCoreApplication::translate("story", "Yet the server holds 2 records of %1: 1 is a duplicate."))
            .arg(op.ref);
    }
    return (op.succeeded ? QCoreApplication::translate("story", "The server holds %1 records of %2: %3 are duplicates.")
                         : QCoreApplication::translate("story", "Yet the server holds %1 records of %2: %3 are duplicates."))
        .arg(op.records)
        .arg(op.ref)
        .arg(op.records - 1);
}

} // namespace story

QList<InterestingOp> interestingOperations(const RunResult &result)
{
    // One bit per Highlight, per op; the trace is scanned once.
    QHash<int, unsigned> bits;
    auto mark = [&bits](int op, Highlight h) {
        if (op > 0)
            bits[op] |= 1u << unsigned(h);
    };
    for (const OpSummary &s : result.ops) {
        if (s.records > 1)
            mark(s.op, Highlight::Duplicate);
        if (!s.succeeded && s.records > 0)
            mark(s.op, Highlight::Orphan);
    }
    for (const TraceEvent &e : result.trace) {
        switch (e.kind) {
        case EventKind::Rejected:
            if (e.status == 409)
                mark(e.op, Highlight::Conflict409);
            else if (e.status == 422)
                mark(e.op, Highlight::Mismatch422);
            break;
        case EventKind::VersionConflict: // occ: another client wrote the row first
            mark(e.op, Highlight::Conflict409);
            break;
        case EventKind::Replayed:
            mark(e.op, Highlight::Replay);
            break;
        case EventKind::QuerySent:
            mark(e.op, Highlight::Query);
            break;
        case EventKind::QueryResult:
            if (e.status == 200)
                mark(e.op, Highlight::QueryFound);
            break;
        default:
            break;
        }
    }
    QList<InterestingOp> out;
    out.reserve(bits.size());
    for (auto it = bits.cbegin(); it != bits.cend(); ++it) {
        InterestingOp op;
        op.op = it.key();
        for (unsigned h = 0; h <= unsigned(Highlight::Query); ++h) {
            if (it.value() & (1u << h))
                op.reasons << Highlight(h);
        }
        // "query found" says more than "query": keep only the first.
        if (op.reasons.contains(Highlight::QueryFound))
            op.reasons.removeAll(Highlight::Query);
        out << op;
    }
    std::sort(out.begin(), out.end(), [](const InterestingOp &a, const InterestingOp &b) { return a.op < b.op; });
    return out;
}

bool isAboutLoad(const Scenario &scenario)
{
    const WorkloadConfig &w = scenario.workload;
    return w.clients >= 10 || w.operations() >= 500 || (w.mode == WorkloadMode::Closed && w.clients > 1)
        || w.arrivals == Arrivals::Poisson || !w.phases.isEmpty() || !scenario.windows.isEmpty()
        || scenario.server.model == ServerModel::Occ;
}

int storyOperation(const RunResult &result)
{
    return storyOperation(result, interestingOperations(result));
}

int storyOperation(const RunResult &result, const QList<InterestingOp> &ops)
{
    // The most telling highlight wins; among equals, the earliest op.
    int best = 0;
    Highlight bestReason = Highlight::Query;
    for (const InterestingOp &op : ops) {
        const Highlight first = op.reasons.first();
        if (best == 0 || int(first) < int(bestReason)) {
            best = op.op;
            bestReason = first;
        }
    }
    if (best > 0)
        return best;
    int most = 1;
    best = result.ops.isEmpty() ? 1 : result.ops.first().op;
    for (const OpSummary &op : result.ops) {
        if (op.attempts > most) {
            most = op.attempts;
            best = op.op;
        }
    }
    return best;
}

} // namespace retrylab
