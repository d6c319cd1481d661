#pragma once

#include "simulator.h"

#include <QList>
#include <QString>

namespace retrylab {

// Why an operation is worth showing a class. Ordered by how much of the lesson it carries.
enum class Highlight {
    Duplicate,   // the server committed the order more than once
    Orphan,      // the client gave up although a record exists
    Mismatch422, // same key, different payload
    Conflict409, // same key while the first request was in flight, or a used token
    Replay,      // the stored answer was replayed (Idempotent-Replayed: true)
    QueryFound,  // the client asked before resending and found the order
    Query,       // the client asked before resending
};

// One operation worth a look, with every reason that applies (most telling first).
struct InterestingOp
{
    int op = 0;
    QList<Highlight> reasons;
    bool operator==(const InterestingOp &o) const { return op == o.op && reasons == o.reasons; }
};

namespace story {
// Short label of a highlight ("duplicate", "replay", "409", ...).
QString label(Highlight h);
// "duplicate, 409": every reason of one op.
QString describe(const InterestingOp &op);
// What the server really holds for an operation, said after the client's verdict:
// "The server holds 3 records of ORD-0003: 2 are duplicates." Empty when it says nothing new
// (one record for a success, none for a failure).
QString outcome(const OpSummary &op);
} // namespace story

// Operations with a duplicate, an orphan, a 409, a 422, a replay or a status query, ascending.
QList<InterestingOp> interestingOperations(const RunResult &result);

// The operation whose timeline tells the run's lesson: the first with the most telling highlight
// (see Highlight), else the one that retried most, else 1.
int storyOperation(const RunResult &result);
// A lesson about load rather than one order: many clients or orders, closed-loop clients, Poisson or
// phased arrivals, fault windows, an OCC row. The window opens its charts on Load over time and a
// handout adds that chart.
bool isAboutLoad(const Scenario &scenario);
// The same, from interestingOperations(result) computed already.
int storyOperation(const RunResult &result, const QList<InterestingOp> &interesting);

} // namespace retrylab
