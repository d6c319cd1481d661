#pragma once

#include <QByteArray>
#include <QString>

namespace retrylab {

// What the client of `retrylab proxy` got for one request: an HTTP answer, or a typed failure.
enum class ProxyClientOutcome {
    Pending,  // not finished yet
    Answered, // an HTTP answer (clientStatus)
    NoAnswer, // nothing came: the connection was held silent until the client gave up (its timeout)
    Reset,    // the connection was reset (RST) after the request was read
    Refused,  // the connection was closed at once, nothing forwarded (connectFailure)
};

// What happened between the proxy and the upstream for one request.
enum class ProxyUpstreamOutcome {
    NotForwarded, // a fault kept it from the upstream, or the client left before it was sent
    Answered,     // the upstream answered (upstreamStatus)
    Unreachable,  // no connection, or the connection closed without an answer: 502 to the client
    TimedOut,     // no whole answer within the proxy's upstream timeout: 504 to the client
    Malformed,    // an answer the proxy cannot frame (or too large): 502 to the client
};

// One request through `retrylab proxy` and its answer, as the ledger, /metrics, the report and
// the window read it. Plain data: core/live/proxy/faultproxy.cpp fills it at the edge.
struct ProxyExchange
{
    quint64 id = 0;          // 1, 2, ... in arrival order
    QByteArray method;       // as sent: "POST"
    QByteArray target;       // the request target as sent: "/orders?x=1"
    QByteArray key;          // the idempotency key header's value (empty: none)
    QByteArray requestId;    // X-Request-ID (empty: none)
    QByteArray attempt;      // X-RetryLab-Attempt (empty: none)
    QByteArray bodyFingerprint; // SHA-256 of the request body, lowercase hex (empty body: empty)
    qint64 bodyBytes = 0;
    QString orderRef;        // the --order-field value of a JSON object body (empty: none)
    int op = 0;              // the logical request's number, 1-based, as the fault dice address it
    int arrival = 0;         // this request's arrival number within its logical request (1 = first)
    quint32 faults = 0;      // faults::Bit of every fault applied (0: none)
    ProxyUpstreamOutcome upstream = ProxyUpstreamOutcome::NotForwarded;
    int upstreamStatus = 0;  // the upstream's status (0: no answer)
    ProxyClientOutcome client = ProxyClientOutcome::Pending;
    int clientStatus = 0;    // the status the client saw (0: none, see `client`)
    QByteArray location;     // the upstream answer's Location
    QString resourceId;      // the last segment of Location, else the JSON answer's "id" (empty: none)
    bool replayedHeader = false; // the upstream's answer carried Idempotent-Replayed: true
    // Real microseconds since the proxy started, measured at the edge (-1: did not happen).
    qint64 receivedUs = -1;
    qint64 forwardedUs = -1;
    qint64 upstreamUs = -1; // the upstream's answer was read whole
    qint64 finishedUs = -1;

    bool finished() const { return client != ProxyClientOutcome::Pending; }
    bool has(quint32 faultBit) const { return (faults & faultBit) != 0; }
};

} // namespace retrylab
