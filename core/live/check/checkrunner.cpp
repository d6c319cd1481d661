// The live half of `retrylab check`: sends each probe's requests and collects what came back.
#include "check/checkrunner.h"

#include "check/checkverdicts.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>

namespace retrylab {

namespace {

const QByteArray Placeholder = QByteArrayLiteral("{n}");

QElapsedTimer &clock()
{
    static QElapsedTimer timer;
    if (!timer.isValid())
        timer.start();
    return timer;
}

QUrl withNumber(const QUrl &url, qint64 n)
{
    QString text = url.toString();
    text.replace(QStringLiteral("{n}"), QString::number(n));
    text.replace(QStringLiteral("%7Bn%7D"), QString::number(n), Qt::CaseInsensitive);
    return QUrl(text);
}

} // namespace

CheckRunner::CheckRunner(const CheckOptions &options, CheckFaults *faults, QObject *parent)
    : QObject(parent), m_options(options), m_faults(faults)
{
    // Microseconds of the wall clock: a rerun against a service that keeps its keys never
    // sends a key or a fresh value it has seen.
    m_next = options.firstNumber > 0 ? options.firstNumber : QDateTime::currentMSecsSinceEpoch() * 1000;
    // One manager per in-flight sender: a manager opens at most six connections to a host.
    const int managers = qBound(1, options.concurrency, CheckOptions::MaxConcurrency);
    for (int i = 0; i < managers; ++i) {
        m_managers.push_back(std::make_unique<QNetworkAccessManager>());
        m_managers.back()->setAutoDeleteReplies(false);
    }
}

CheckRunner::~CheckRunner() = default;

QByteArray CheckRunner::keyFor(qint64 n) const
{
    return QByteArrayLiteral("check-") + QByteArray::number(n);
}

QByteArray CheckRunner::bodyFor(qint64 n) const
{
    QByteArray body = m_options.bodyTemplate;
    return body.replace(Placeholder, QByteArray::number(n));
}

CheckExchange CheckRunner::exchangeOf(QNetworkReply *reply, const Planned &planned) const
{
    CheckExchange e;
    e.key = planned.key;
    e.otherBody = planned.otherBody;
    e.fault = planned.fault;
    e.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (e.status == 0) {
        e.error = reply->errorString().left(200);
        const QNetworkReply::NetworkError code = reply->error();
        e.connectFailed = code == QNetworkReply::ConnectionRefusedError || code == QNetworkReply::HostNotFoundError
                || code == QNetworkReply::ProtocolUnknownError || code == QNetworkReply::ProtocolInvalidOperationError;
    }
    if (reply->isOpen())
        e.body = reply->read(CheckExchange::MaxBodyBytes);
    e.location = reply->rawHeader("Location");
    e.replayedHeader = reply->rawHeader("Idempotent-Replayed").trimmed().compare("true", Qt::CaseInsensitive) == 0;
    if (e.success())
        e.resource = check::resourceOf(e.body, e.location, m_options.idField);
    if (e.status >= 400)
        e.problemType = check::problemTypeOf(e.body);
    return e;
}

QList<CheckExchange> CheckRunner::send(const QList<Planned> &batch, int batchIndex)
{
    QList<CheckExchange> out(batch.size());
    QList<QNetworkReply *> replies;
    QEventLoop loop;
    int remaining = int(batch.size());
    for (int i = 0; i < batch.size(); ++i) {
        const Planned &p = batch.at(i);
        QNetworkRequest request(p.url);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        request.setTransferTimeout(m_options.timeoutMs);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        for (const auto &h : m_options.headers)
            request.setRawHeader(h.first, h.second);
        if (!p.key.isEmpty())
            request.setRawHeader(m_options.keyHeader, p.key);
        out[i].sentUs = (clock().nsecsElapsed() - m_probeStartNs) / 1000;
        QNetworkReply *reply = m_managers.at(size_t(i) % m_managers.size())->post(request, bodyFor(p.n));
        replies << reply;
        connect(reply, &QNetworkReply::finished, &loop, [&, i, reply] {
            const qint64 sent = out[i].sentUs;
            out[i] = exchangeOf(reply, batch.at(i));
            out[i].sentUs = sent;
            out[i].answeredUs = out[i].answered() ? (clock().nsecsElapsed() - m_probeStartNs) / 1000 : -1;
            out[i].batch = batchIndex;
            if (--remaining == 0)
                loop.quit();
        });
    }
    if (remaining > 0)
        loop.exec();
    qDeleteAll(replies);
    return out;
}

CheckExchange CheckRunner::sendOne(const Planned &planned, int batchIndex)
{
    return send({planned}, batchIndex).constFirst();
}

bool CheckRunner::unreachable(const CheckExchange &e) const
{
    return e.connectFailed && e.fault == CheckFault::None;
}

qint64 CheckRunner::count(const QList<qint64> &numbers)
{
    if (m_options.listUrl.isEmpty() || !m_listError.isEmpty())
        return -1;
    // A list URL with {n} counts each logical request's own resources; without it, the whole collection.
    const bool perRequest = m_options.listUrl.toString().contains(QStringLiteral("{n}"))
            || m_options.listUrl.toString().contains(QStringLiteral("%7Bn%7D"), Qt::CaseInsensitive);
    QList<qint64> targets = perRequest ? numbers : QList<qint64>{0};
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    qint64 total = 0;
    for (qint64 n : targets) {
        QNetworkRequest request(perRequest ? withNumber(m_options.listUrl, n) : m_options.listUrl);
        request.setTransferTimeout(m_options.timeoutMs);
        request.setRawHeader("Accept", "application/json");
        for (const auto &h : m_options.headers)
            request.setRawHeader(h.first, h.second);
        std::unique_ptr<QNetworkReply> reply(m_managers.front()->get(request));
        QEventLoop loop;
        connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const qint64 c = check::collectionCount(reply->readAll(), m_options.countField);
        // A per-request list may answer 404 while nothing of that request exists.
        if (perRequest && status == 404)
            continue;
        if (status != 200 || c < 0) {
            m_listError = status != 200 ? QStringLiteral("GET %1 answered %2").arg(request.url().toString()).arg(status)
                                        : QStringLiteral("GET %1: no count in the answer").arg(request.url().toString());
            return -1;
        }
        total += c;
    }
    return total;
}

// replay (key, same body), mismatch (key, other body), no key twice (no key, same body).
ProbeObservation CheckRunner::twoInARow(Probe probe, bool key, bool otherBody)
{
    ProbeObservation o;
    o.probe = probe;
    o.bodyVaries = m_options.bodyTemplate.contains(Placeholder);
    if (otherBody && !o.bodyVaries)
        return o;
    const qint64 n = fresh();
    const qint64 other = otherBody ? fresh() : n;
    o.countBefore = count({n, other});
    const QByteArray k = key ? keyFor(n) : QByteArray();
    o.exchanges << sendOne(Planned{m_options.url, k, n, false, CheckFault::None}, 0);
    if (unreachable(o.exchanges.constFirst()))
        return o;
    o.exchanges << sendOne(Planned{m_options.url, k, other, otherBody, CheckFault::None}, 1);
    o.countAfter = count({n, other});
    return o;
}

ProbeObservation CheckRunner::inFlight()
{
    ProbeObservation o;
    o.probe = Probe::InFlight;
    const qint64 n = fresh();
    o.countBefore = count({n});
    QList<Planned> batch;
    for (int i = 0; i < qBound(2, m_options.concurrency, CheckOptions::MaxConcurrency); ++i)
        batch << Planned{m_options.url, keyFor(n), n, false, CheckFault::None};
    o.exchanges = send(batch, 0);
    o.countAfter = count({n});
    return o;
}

// The first request through the proxy with a fault, then the retry with the same key and body.
ProbeObservation CheckRunner::throughProxy(Probe probe, CheckFault fault)
{
    ProbeObservation o;
    o.probe = probe;
    const qint64 n = fresh();
    const QByteArray k = keyFor(n);
    const QUrl via = m_faults->through(m_options.url);
    o.countBefore = count({n});
    m_faults->forceNext(fault);
    CheckExchange first = sendOne(Planned{via, k, n, false, fault}, 0);
    const CheckFaults::Upstream upstream = m_faults->upstreamFor(k, 1, m_options.timeoutMs);
    first.upstreamStatus = upstream.status;
    first.upstreamResource = upstream.resource;
    if (upstream.afterUs >= 0 && first.sentUs >= 0)
        first.upstreamAnsweredUs = first.sentUs + upstream.afterUs;
    // The retry goes through the proxy as well, so that its resource is read as the lost one's was.
    CheckExchange retry = sendOne(Planned{via, k, n, false, CheckFault::None}, 1);
    const CheckFaults::Upstream seen = m_faults->upstreamFor(k, 2, m_options.timeoutMs);
    if (!upstream.resource.isEmpty() && retry.success())
        retry.resource = seen.resource;
    o.exchanges << first << retry;
    o.countAfter = count({n});
    return o;
}

ProbeObservation CheckRunner::probe(Probe p, int round)
{
    m_probeStartNs = clock().nsecsElapsed();
    ProbeObservation o;
    switch (p) {
    case Probe::Replay:
        o = twoInARow(p, true, false);
        break;
    case Probe::Mismatch:
        o = twoInARow(p, true, true);
        break;
    case Probe::InFlight:
        o = inFlight();
        break;
    case Probe::Ghost:
        o = throughProxy(p, CheckFault::ResponseLost);
        break;
    case Probe::MissingKey: {
        o.probe = p;
        const qint64 n = fresh();
        o.countBefore = count({n});
        o.exchanges << sendOne(Planned{m_options.url, QByteArray(), n, false, CheckFault::None}, 0);
        o.countAfter = count({n});
        break;
    }
    case Probe::NoKeyTwice:
        o = twoInARow(p, false, false);
        break;
    case Probe::RetryAfter5xx:
        o = throughProxy(p, CheckFault::Error5xxBeforeCommit);
        break;
    }
    o.round = round;
    o.startUs = (m_probeStartNs - m_checkStartNs) / 1000;
    return o;
}

CheckReport CheckRunner::run()
{
    CheckReport report;
    report.url = m_options.url.toString();
    report.roundsAsked = m_options.rounds;
    report.concurrency = m_options.concurrency;
    report.timeoutMs = m_options.timeoutMs;
    report.listUrl = m_options.listUrl.toString();
    report.idField = m_options.idField;
    m_checkStartNs = clock().nsecsElapsed();
    // Every sender's connection opened before the first probe, so that the in-flight probe's
    // requests leave together rather than one behind a TCP handshake.
    for (const auto &manager : m_managers)
        manager->connectToHost(m_options.url.host(), quint16(m_options.url.port(80)));
    const int rounds = qBound(1, m_options.rounds, CheckOptions::MaxRounds);
    for (int i = 0; i < ProbeCount; ++i) {
        const Probe p = Probe(i);
        if (!m_faults && (p == Probe::Ghost || p == Probe::RetryAfter5xx))
            continue;
        QList<ProbeObservation> observations;
        QList<ProbeVerdict> verdicts;
        for (int r = 1; r <= rounds; ++r) {
            observations << probe(p, r);
            const ProbeObservation &o = observations.constLast();
            if (!o.exchanges.isEmpty() && unreachable(o.exchanges.constFirst())) {
                report.error = QStringLiteral("cannot reach %1: %2").arg(m_options.url.toString(), o.exchanges.constFirst().error);
                return report;
            }
            verdicts << check::evaluate(o);
        }
        report.card << check::combine(verdicts);
        report.rounds << observations;
        Q_EMIT probeDone(report.card.constLast());
    }
    report.listError = m_listError;
    return report;
}

} // namespace retrylab
