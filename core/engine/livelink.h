#pragma once

#include "engine/serverlink.h"
#include "engine/wiretransport.h"

#include <QString>

namespace retrylab::engine {

class Engine;

// The live path's side of the engine: each attempt goes over a WireTransport to a real order
// service, and its answers come back as events on the engine's clock (the driver maps the clock
// to real time). The network and the server are the real ones; nothing is simulated here.
class LiveLink final : public ServerLink
{
public:
    LiveLink(Engine &engine, WireTransport *transport);

    void start() override {} // reconciliation and restarts are the real server's business
    bool down() const override { return false; }
    void fetchToken(int fi, quint8 resume, const char *where, quint64 mint, TraceCause cause) override;
    void tokenReady(int fi) override;
    void send(int ri) override;
    void abandon(Flow &f) override;
    bool recyclesRequests() const override { return false; }
    const std::vector<StoredRecord> &records() const override { return m_none; }
    int firstRecord(int) const override { return 0; }
    void dispatch(const Event &) override {}

    // Answers of the transport, injected as events at t (never before the engine's now).
    void reply(int ri, const WireReply &reply, qint64 t);
    void token(int fi, const QString &token, qint64 t);
    void tokenFailed(int fi, const QString &why, qint64 t);

private:
    Engine &m_engine;
    WireTransport *m_transport;
    std::vector<StoredRecord> m_none;
};

} // namespace retrylab::engine
