#include "orderservicefixture.h"

#include "orderserver.h"
#include "scenario/schema.h"
#include "watchtrace.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace retrylab {

namespace {

// A client without X-RetryLab-Attempt numbers the POSTs of an order t1, t2, ...: the script can
// address up to the last the validator allows with the widest transport layer (total 20).
constexpr int MaxScriptedPost = 21;

// The scenario the server runs: the test's network.* and server.*, with a client and workload
// that let the script address any order (ORD-0001 .. ORD-1000000) and up to the 21st POST of each,
// since setFaults checks script entries against them. The server reads neither.
Scenario served(const Scenario &s)
{
    Scenario out = s;
    out.workload = WorkloadConfig();
    out.workload.orders = scenario::MaxScriptOp;
    out.client.transport = TransportConfig();
    out.client.transport.enabled = true;
    out.client.transport.total = MaxScriptedPost - 1;
    return out;
}

bool isPost(const FixtureAttempt &a)
{
    return a.method == TraceMethod::PostOrder;
}

// One handled request's events as the attempt a test reads.
FixtureAttempt attemptOf(const Trace &request)
{
    FixtureAttempt a;
    const TraceEvent &first = request.constFirst();
    a.method = first.method;
    a.ref = first.ref();
    a.key = first.key();
    a.path = first.path();
    a.requestId = first.requestId();
    a.t = first.t;
    for (const TraceEvent &e : request) {
        if (e.kind == EventKind::ResponseSent)
            a.status = e.status;
        else if (e.kind == EventKind::ResponseLost || e.kind == EventKind::ConnectionReset)
            a.answerLost = true;
        else if (e.kind == EventKind::Committed)
            a.committed = true;
        else if (e.kind == EventKind::Replayed)
            a.replayed = true;
    }
    return a;
}

// "k-1, (no key)": the keys a reference's POSTs carried, as a report shows them.
QString keyList(const QStringList &keys)
{
    QStringList shown;
    for (const QString &k : keys)
        shown << (k.isEmpty() ? QCoreApplication::translate("OrderServiceFixture", "(no key)") : scenario::printable(k));
    return shown.join(QStringLiteral(", "));
}

FixtureRecord recordOf(const RecordRow &r)
{
    return FixtureRecord{r.id, r.ref, r.key, r.path, r.requestId, r.t, r.duplicate};
}

} // namespace

// The server, the events it reported and the settings to go back to on reset().
class OrderServiceFixturePrivate
{
public:
    std::unique_ptr<OrderServer> server;
    Scenario started;  // what start() was given
    Scenario current;  // with every fault set since
    // One per handled request, in the order the server finished them; the oldest go first beyond
    // MaxRequests, as the WatchTrace drops its oldest events beyond its own cap.
    static constexpr qsizetype MaxRequests = 100000;
    QList<Trace> requests;
    WatchTrace watch;
    QString error;

    bool fail(const QString &why)
    {
        error = why;
        return false;
    }
    // The faults of the scenario started from, as a PUT /admin/faults body. The key store is
    // chosen at start-up and cannot be patched, so it is left out.
    QJsonObject startedFaults() const
    {
        const QJsonObject all = served(started).toJson();
        QJsonObject server = all.value(QLatin1String("server")).toObject();
        QJsonObject idempotency = server.value(QLatin1String("idempotency")).toObject();
        idempotency.remove(QLatin1String("store"));
        server.insert(QLatin1String("idempotency"), idempotency);
        return QJsonObject{{QStringLiteral("network"), all.value(QLatin1String("network"))},
                           {QStringLiteral("server"), server}};
    }
    // Applies a patch on the running server and mirrors it in `current`.
    QString patch(const QJsonObject &faults)
    {
        if (!server || !server->isRunning())
            return QCoreApplication::translate("OrderServiceFixture", "the order service is not running: call start() first");
        const QStringList errors = server->setFaults(faults);
        if (!errors.isEmpty())
            return errors.join(QLatin1Char('\n'));
        // Read back as the server validated it: with the served client and workload, then the test's.
        QJsonObject all = served(current).toJson();
        const QJsonObject now = server->faultsJson();
        for (auto it = now.begin(); it != now.end(); ++it)
            all.insert(it.key(), it.value());
        const ScenarioParse parsed = scenario::fromJson(all);
        if (!parsed.ok())
            return parsed.errors.join(QLatin1Char('\n'));
        Scenario next = parsed.scenario;
        next.client = current.client;
        next.workload = current.workload;
        current = next;
        return QString();
    }
    RunResult result() const { return watch.result(); }
};

OrderServiceFixture::OrderServiceFixture()
    : d(std::make_unique<OrderServiceFixturePrivate>())
{
}

OrderServiceFixture::~OrderServiceFixture()
{
    stop();
}

bool OrderServiceFixture::startPreset(const QString &name)
{
    const ScenarioParse parsed = scenario::preset(name);
    if (!parsed.ok()) {
        return d->fail(QCoreApplication::translate("OrderServiceFixture", "preset %1: %2 (presets: %3)")
                           .arg(scenario::printable(name), parsed.errors.join(QStringLiteral("; ")),
                                scenario::presetNames().join(QStringLiteral(", "))));
    }
    return start(parsed.scenario);
}

bool OrderServiceFixture::startFile(const QString &fileName)
{
    const ScenarioParse parsed = scenario::load(fileName);
    if (!parsed.ok())
        return d->fail(parsed.errors.join(QLatin1Char('\n')));
    return start(parsed.scenario);
}

bool OrderServiceFixture::start(const Scenario &scenario)
{
    stop();
    d->error.clear();
    d->server = std::make_unique<OrderServer>();
    // Connected before start(): the server builds its trace only while someone listens.
    QObject::connect(d->server.get(), &OrderServer::requestHandled, d->server.get(), [this](const Trace &events) {
        if (events.isEmpty())
            return;
        if (d->requests.size() >= OrderServiceFixturePrivate::MaxRequests)
            d->requests.remove(0, OrderServiceFixturePrivate::MaxRequests / 10);
        d->requests.append(events);
        d->watch.append(events);
    });
    ServeOptions options;
    options.scenario = served(scenario);
    const QString error = d->server->start(options);
    if (!error.isEmpty()) {
        d->server.reset();
        return d->fail(error);
    }
    d->started = scenario;
    d->current = scenario;
    d->requests.clear();
    d->watch.reset(scenario);
    return true;
}

Scenario OrderServiceFixture::serviceScenario()
{
    return ServeOptions::defaultScenario();
}

void OrderServiceFixture::stop()
{
    if (!d->server)
        return;
    d->server->stop();
    d->server.reset();
}

bool OrderServiceFixture::isRunning() const
{
    return d->server && d->server->isRunning();
}

QString OrderServiceFixture::errorString() const
{
    return d->error;
}

quint16 OrderServiceFixture::port() const
{
    return d->server ? d->server->port() : 0;
}

QUrl OrderServiceFixture::url() const
{
    return d->server ? d->server->url() : QUrl();
}

QUrl OrderServiceFixture::ordersUrl() const
{
    QUrl u = url();
    if (!u.isEmpty())
        u.setPath(QStringLiteral("/orders"));
    return u;
}

Scenario OrderServiceFixture::scenario() const
{
    return d->current;
}

QString OrderServiceFixture::scriptFault(FaultKind fault, int op, int post)
{
    if (op < 0 || op > scenario::MaxScriptOp || post < 0 || post > MaxScriptedPost) {
        return QCoreApplication::translate("OrderServiceFixture", "scriptFault: the order (%1) counts from 1 to %3 and the POST (%2) from 1 to %4; "
                                           "0 means every one")
            .arg(op)
            .arg(post)
            .arg(scenario::MaxScriptOp)
            .arg(MaxScriptedPost);
    }
    ScriptEntry e;
    e.op = op;
    e.fault = fault;
    e.attempt = post == 0 ? QStringLiteral("*/*/*") : QStringLiteral("*/*/t%1").arg(post);
    return scriptFault(e);
}

QString OrderServiceFixture::scriptFault(const ScriptEntry &entry)
{
    Scenario s = d->current;
    s.network.script.append(entry);
    const QJsonValue script = s.toJson().value(QLatin1String("network")).toObject().value(QLatin1String("script"));
    return d->patch(QJsonObject{{QStringLiteral("network.script"), script}});
}

QString OrderServiceFixture::setFaults(const QJsonObject &patch)
{
    return d->patch(patch);
}

void OrderServiceFixture::restartServer()
{
    if (d->server)
        d->server->restart();
}

void OrderServiceFixture::reset()
{
    if (!isRunning())
        return;
    d->server->reset();
    d->server->setFaults(d->startedFaults());
    d->current = d->started;
    d->requests.clear();
    d->watch.reset(d->started);
}

QList<FixtureRecord> OrderServiceFixture::records() const
{
    QList<FixtureRecord> out;
    for (const RecordRow &r : d->result().records)
        out.append(recordOf(r));
    return out;
}

QList<FixtureRecord> OrderServiceFixture::records(const QString &ref) const
{
    QList<FixtureRecord> out;
    for (const RecordRow &r : d->result().records) {
        if (r.ref == ref)
            out.append(recordOf(r));
    }
    return out;
}

int OrderServiceFixture::recordCount(const QString &ref) const
{
    return int(records(ref).size());
}

int OrderServiceFixture::duplicates() const
{
    return d->result().metrics.duplicates;
}

QStringList OrderServiceFixture::duplicatedRefs() const
{
    QStringList out;
    for (const RecordRow &r : d->result().records) {
        if (r.duplicate && !out.contains(r.ref))
            out.append(r.ref);
    }
    return out;
}

QStringList OrderServiceFixture::orphans() const
{
    QStringList out;
    for (const OpSummary &o : d->result().ops) {
        if (o.records > 0 && !o.succeeded)
            out.append(o.ref);
    }
    return out;
}

QList<FixtureAttempt> OrderServiceFixture::attempts() const
{
    QList<Trace> requests = d->requests;
    // The server reports a request when it ends; a test reads them in the order they arrived.
    std::stable_sort(requests.begin(), requests.end(),
                     [](const Trace &a, const Trace &b) { return a.constFirst().t < b.constFirst().t; });
    QList<FixtureAttempt> out;
    for (const Trace &request : std::as_const(requests)) {
        if (request.constFirst().method != TraceMethod::None)
            out.append(attemptOf(request));
    }
    return out;
}

QList<FixtureAttempt> OrderServiceFixture::attempts(const QString &ref) const
{
    QList<FixtureAttempt> out = attempts();
    out.removeIf([&ref](const FixtureAttempt &a) { return a.ref != ref; });
    return out;
}

QStringList OrderServiceFixture::keysSeen(const QString &ref) const
{
    QStringList keys;
    for (const FixtureAttempt &a : attempts(ref)) {
        if (isPost(a) && !keys.contains(a.key))
            keys.append(a.key);
    }
    return keys;
}

Trace OrderServiceFixture::trace() const
{
    Trace events = d->watch.result().trace;
    // The server numbers its events as it emits them; it reports each request's whole when it ends.
    std::sort(events.begin(), events.end(), [](const TraceEvent &a, const TraceEvent &b) { return a.id < b.id; });
    return events;
}

QString OrderServiceFixture::timeline(const QString &ref) const
{
    Trace events = trace();
    events.removeIf([&ref](const TraceEvent &e) { return e.ref() != ref; });
    if (events.isEmpty())
        return QCoreApplication::translate("OrderServiceFixture", "%1: the order service received no request for it.").arg(scenario::printable(ref)) + QLatin1Char('\n');
    QString out;
    const qint64 origin = events.constFirst().t;
    for (const TraceEvent &e : std::as_const(events)) {
        QString words = trace::narrate(e);
        if (words.isEmpty())
            words = trace::kindName(e.kind);
        out += QCoreApplication::translate("OrderServiceFixture", "  +%1 ms  %2  %3").arg(QString::number(double(e.t - origin) / 1000.0, 'f', 1), e.path(), words)
            + QLatin1Char('\n');
    }
    return out;
}

QString OrderServiceFixture::duplicatesReport() const
{
    QString out;
    for (const QString &ref : duplicatedRefs()) {
        const QStringList keys = keysSeen(ref);
        const QString keyWords = keys == QStringList{QString()} ? QCoreApplication::translate("OrderServiceFixture", "none") : keyList(keys);
        const QList<FixtureAttempt> seen = attempts(ref);
        out += QCoreApplication::translate("OrderServiceFixture", "%1 was created %2 times: %3 POST /orders received, Idempotency-Key values sent: %4")
                   .arg(ref)
                   .arg(recordCount(ref))
                   .arg(std::count_if(seen.cbegin(), seen.cend(), isPost))
                   .arg(keyWords)
            + QLatin1Char('\n') + timeline(ref);
    }
    return out;
}

QString OrderServiceFixture::keysReport(const QString &ref) const
{
    const QStringList keys = keysSeen(ref);
    if (keys.size() == 1 && !keys.constFirst().isEmpty())
        return QString();
    QString head;
    if (keys.isEmpty()) {
        head = QCoreApplication::translate("OrderServiceFixture", "%1: the order service received no POST /orders for it").arg(scenario::printable(ref));
    } else if (keys == QStringList{QString()}) {
        head = QCoreApplication::translate("OrderServiceFixture", "%1: its POST /orders carried no Idempotency-Key").arg(ref);
    } else {
        head = QCoreApplication::translate("OrderServiceFixture", "%1: its POST /orders carried %2 different Idempotency-Key values: %3")
                   .arg(ref)
                   .arg(keys.size())
                   .arg(keyList(keys));
    }
    return head + QLatin1Char('\n') + timeline(ref);
}

QString OrderServiceFixture::recordsReport(const QString &ref, int expected) const
{
    const int n = recordCount(ref);
    if (n == expected)
        return QString();
    return QCoreApplication::translate("OrderServiceFixture", "%1 has %2 record(s), expected %3").arg(scenario::printable(ref)).arg(n).arg(expected) + QLatin1Char('\n')
        + timeline(ref);
}

} // namespace retrylab
