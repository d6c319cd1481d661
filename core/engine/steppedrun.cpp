#include "engine/steppedrun.h"

#include "engine/engine.h"
#include "engine/livelink.h"

namespace retrylab {

struct SteppedRun::Private
{
    Private(const Scenario &s, const RunOptions &o, WireTransport *t) : engine(s, o, t) {}
    engine::Engine engine;
    // Always a LiveLink: the engine was given a transport.
    engine::LiveLink &link() { return static_cast<engine::LiveLink &>(engine.link()); }
};

SteppedRun::SteppedRun(const Scenario &scenario, const RunOptions &options, WireTransport *transport)
    : d(std::make_unique<Private>(scenario, options, transport))
{
    d->engine.prepare();
}

SteppedRun::~SteppedRun() = default;

bool SteppedRun::advanceTo(qint64 t)
{
    return d->engine.advance(t);
}

qint64 SteppedRun::nextDue() const
{
    return d->engine.nextDue();
}

qint64 SteppedRun::now() const
{
    return d->engine.now();
}

bool SteppedRun::clientDone() const
{
    return d->engine.clientDone();
}

QString SteppedRun::error() const
{
    return d->engine.stopError();
}

void SteppedRun::reply(int id, const WireReply &reply, qint64 t)
{
    d->link().reply(id, reply, t);
}

void SteppedRun::tokenIssued(int id, const QString &token, qint64 t)
{
    d->link().token(id, token, t);
}

void SteppedRun::tokenFailed(int id, const QString &why, qint64 t)
{
    d->link().tokenFailed(id, why, t);
}

RunResult SteppedRun::result(const ServerCounts &server)
{
    return d->engine.finishRun(&server);
}

} // namespace retrylab
