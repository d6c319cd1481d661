#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace retrylab {

// What the check had the proxy do to one request on its way to the endpoint.
enum class CheckFault {
    None,               // sent straight through
    ResponseLost,       // forwarded, answered and committed upstream; the answer dropped (the ghost)
    Error5xxBeforeCommit // answered 503 by the proxy itself; never forwarded
};

// One request a probe sent and what came back: the evidence a verdict is drawn from.
struct CheckExchange
{
    int batch = 0;          // requests of one batch were sent together (the in-flight probe)
    QByteArray key;         // the Idempotency-Key sent; empty: none
    bool otherBody = false; // the probe's second body (same key, other body)
    CheckFault fault = CheckFault::None;
    qint64 sentUs = -1;     // since the probe began
    qint64 answeredUs = -1; // -1: no answer
    int status = 0;         // 0: no answer (time-out, reset, refused, or dropped by the proxy)
    QString error;          // the transport's error when status is 0 (an English detail for the JSON)
    bool connectFailed = false; // no connection could be made (refused, no such host)
    QByteArray body;        // at most CheckExchange::MaxBodyBytes kept
    QByteArray location;    // the Location header
    bool replayedHeader = false; // Idempotent-Replayed: true
    QString resource;       // what the answer names as created: see resourceOf()
    QString problemType;    // the "type" of an RFC 9457 answer
    // When the proxy dropped the answer: what the endpoint had answered (from the proxy's ledger;
    // 0: unknown) and the resource it named.
    int upstreamStatus = 0;
    QString upstreamResource;
    // And when the proxy had read that answer whole, since the probe began (-1: unknown, as in
    // reports written before it was kept): where the timeline draws the answer's loss.
    qint64 upstreamAnsweredUs = -1;

    static constexpr int MaxBodyBytes = 4096;

    bool answered() const { return status > 0; }
    bool success() const { return status >= 200 && status < 300; }
    // The status the endpoint gave, whether or not the client saw it.
    int endpointStatus() const { return fault == CheckFault::ResponseLost ? upstreamStatus : status; }
    // The resource the endpoint named, whether or not the client saw it.
    QString endpointResource() const { return fault == CheckFault::ResponseLost ? upstreamResource : resource; }

    QJsonObject toJson() const;
};

namespace check {

// The created resource an answer names: "id:<value>" from a JSON object's `idField` (a top-level
// member, or a dotted path such as data.id), else "location:<value>" from the Location header;
// empty when it names none.
QString resourceOf(const QByteArray &body, const QByteArray &location, const QString &idField = QStringLiteral("id"));
// The `type` of a problem-details body ("/problems/key-required" -> "key-required"); empty if none.
QString problemTypeOf(const QByteArray &body);
// The number a collection answer holds: the length of a top-level JSON array, or of the array
// `countField` names (then a number there is taken as it is); -1 when it holds none.
qint64 collectionCount(const QByteArray &body, const QString &countField = QString());

} // namespace check

} // namespace retrylab
