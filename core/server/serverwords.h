#pragma once

#include <QString>

namespace retrylab::serverwords {

// The English words (trace details, problem details) that both ends of the wire say about a
// request: the engine's network and server models and the live server write them from here, so
// a simulated and a live trace read the same. Meaning lives in the typed fields (trace.h).

inline QString postOrders() { return QStringLiteral("POST /orders"); }
inline QString postOrderTokens() { return QStringLiteral("POST /order-tokens"); }
inline QString getOrders(const QString &ref) { return QStringLiteral("GET /orders?ref=") + ref; }
inline QString delayed(int spikeMs) { return QStringLiteral("delayed by %1 ms").arg(spikeMs); }
inline QString queryLost() { return QStringLiteral("the status query was lost"); }
inline QString queryFailed() { return QStringLiteral("the status query failed"); }
inline QString failedBeforeCommit() { return QStringLiteral("failed before commit"); }
inline QString failedAfterCommit() { return QStringLiteral("failed after commit"); }

} // namespace retrylab::serverwords
