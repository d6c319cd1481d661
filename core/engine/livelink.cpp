#include "engine/livelink.h"

#include "engine/engine.h"
#include "engine/tracetext.h"
#include "server/serverwords.h"

#include <algorithm>

namespace retrylab::engine {

LiveLink::LiveLink(Engine &engine, WireTransport *transport)
    : m_engine(engine)
    , m_transport(transport)
{
}

void LiveLink::fetchToken(int fi, quint8 resume, const char *where, quint64 mint, TraceCause cause)
{
    Q_UNUSED(where);
    Q_UNUSED(mint);
    Q_UNUSED(cause);
    Flow &f = m_engine.flow(fi);
    f.tokenResume = resume;
    m_transport->fetchToken(fi, m_engine.requestId(f, f.b, f.w, f.t));
}

void LiveLink::tokenReady(int fi)
{
    if (m_engine.tracing())
        m_engine.traceFlow(Lane::Server, EventKind::TokenIssued, m_engine.flow(fi), 201, 0,
                           serverwords::postOrderTokens(),
                           {TraceCause::None, 0, 0, 0, 0, TraceOutcome::None, CommitPhase::None, TraceMethod::PostToken});
}

void LiveLink::send(int ri)
{
    // Everything past a refused connection happens on the wire: the server reads the attempt
    // path and meets the same script and dice.
    const Request &r = m_engine.request(ri);
    Flow &f = m_engine.flow(r.flow);
    f.wire = ri;
    WireAttempt a;
    a.id = ri;
    a.query = r.query;
    a.op = f.op;
    a.client = f.client;
    a.ref = orderText(f.op);
    // A status query's own path is bN/w1/tQ, as the script addresses it.
    a.path = r.query ? m_engine.path(f, f.b, 1, f.qt) : m_engine.path(f, f.b, f.w, f.t);
    a.requestId = m_engine.requestId(f, r.b, r.w, r.t);
    a.key = r.query ? QString() : m_engine.keyText(f.key);
    a.payloadRevision = m_engine.scenario().client.mutatePayloadOnRetry ? f.b * 1000 + f.w : 0;
    m_transport->send(a);
}

void LiveLink::abandon(Flow &f)
{
    if (f.wire >= 0) {
        m_transport->abandon(f.wire); // a real client closes the connection it gave up on
        f.wire = -1;
    }
}

void LiveLink::reply(int ri, const WireReply &reply, qint64 t)
{
    if (ri < 0 || size_t(ri) >= m_engine.requestCount())
        return;
    Request &r = m_engine.request(ri);
    const qint64 when = std::max(t, m_engine.now());
    Flow &f = m_engine.flow(r.flow);
    if (f.wire == ri)
        f.wire = -1;
    switch (reply.kind) {
    case WireReply::Refused:
        m_engine.at(when, Ev::ConnectFail, r.flow, r.serial);
        return;
    case WireReply::Reset:
        r.record = reply.record;
        m_engine.at(when, Ev::ResetArrive, ri);
        return;
    case WireReply::Response:
        r.status = reply.status;
        r.retryAfterS = reply.retryAfterS;
        r.replayed = reply.replayed;
        r.tokenUsed = reply.tokenUsed;
        r.record = reply.record;
        m_engine.at(when, Ev::ResponseArrive, ri);
        return;
    }
}

void LiveLink::token(int fi, const QString &token, qint64 t)
{
    if (fi < 0 || fi >= m_engine.flowCount())
        return;
    const Flow &f = m_engine.flow(fi);
    m_engine.setKeyText(f.key, token);
    m_engine.at(std::max(t, m_engine.now()), Ev::TokenReady, fi, f.tokenResume, 1);
}

void LiveLink::tokenFailed(int fi, const QString &why, qint64 t)
{
    if (fi < 0 || fi >= m_engine.flowCount())
        return;
    m_engine.setTokenError(fi, QStringLiteral("no order token: %1").arg(why));
    m_engine.at(std::max(t, m_engine.now()), Ev::TokenFailed, fi);
}

} // namespace retrylab::engine
