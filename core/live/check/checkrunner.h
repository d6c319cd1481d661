#pragma once

#include "check/checkreport.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>

#include <memory>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace retrylab {

// How `retrylab check` probes one endpoint.
struct CheckOptions
{
    QUrl url;                 // the endpoint that takes POST (http://host:port/path)
    // The request body; {n} becomes a fresh number for every logical request of the run.
    QByteArray bodyTemplate = "{\"ref\":\"CHK-{n}\",\"item\":\"book\",\"qty\":1}";
    QByteArray keyHeader = "Idempotency-Key";
    QList<QPair<QByteArray, QByteArray>> headers; // -H, e.g. Authorization
    int rounds = 1;           // every probe this many times; the worst round gives its verdict
    int concurrency = 2;      // requests sent at once by the in-flight probe (2 to MaxConcurrency)
    int timeoutMs = 5000;     // a request unanswered this long counts as no answer
    QUrl listUrl;             // GET: the collection (may hold {n}); empty: ids and Location only
    QString countField;       // the collection's count or array in the list's answer (a dotted path)
    QString idField = QStringLiteral("id"); // the created resource's id in a JSON answer
    // The fresh numbers of {n} and the keys start here (0: from the time, so reruns against a
    // persistent service never meet an old key).
    qint64 firstNumber = 0;

    static constexpr int MaxConcurrency = CheckReport::MaxExchanges;
    static constexpr int MaxRounds = CheckReport::MaxRounds;
};

// What the check needs of a fault proxy in front of the endpoint: to send a request through it
// with a fault, and to read what the endpoint answered a request whose answer it dropped.
// check/proxyfaults.h implements it with the in-process FaultProxy; tests may fake it.
class CheckFaults
{
public:
    virtual ~CheckFaults() = default;
    // The URL that reaches `target` through the proxy.
    virtual QUrl through(const QUrl &target) const = 0;
    // The next request through the proxy gets this fault.
    virtual void forceNext(CheckFault fault) = 0;
    // What the endpoint answered the `nth` (1-based) request through the proxy that carried `key`
    // (status 0: not answered, or not finished within waitMs), and the resource it named
    // ("id:..."; empty: none). Waits in a local event loop until the proxy has finished it.
    struct Upstream
    {
        int status = 0;
        QString resource;
        qint64 afterUs = -1; // from the proxy's receiving the request to its reading the answer whole
    };
    virtual Upstream upstreamFor(const QByteArray &key, int nth, int waitMs) = 0;
};

// Sends the probes of `retrylab check` with QNetworkAccessManager, straight to the endpoint, or
// through the fault proxy where a fault is needed (the ghost and the 5xx before commit), and
// hands what came back to the pure verdicts (core/check/checkverdicts.h). run() spins local
// event loops, so a server or proxy living in this thread keeps serving.
class CheckRunner : public QObject
{
    Q_OBJECT
public:
    // `faults` may be null: the probes that need the proxy are left out.
    CheckRunner(const CheckOptions &options, CheckFaults *faults, QObject *parent = nullptr);
    ~CheckRunner() override;

    CheckReport run();

Q_SIGNALS:
    // After each probe (all its rounds): for progress on stderr.
    void probeDone(const retrylab::ProbeVerdict &verdict);

private:
    // One request a probe means to send.
    struct Planned
    {
        QUrl url;
        QByteArray key;
        qint64 n = 0;
        bool otherBody = false;
        CheckFault fault = CheckFault::None;
    };
    QList<CheckExchange> send(const QList<Planned> &batch, int batchIndex);
    CheckExchange exchangeOf(QNetworkReply *reply, const Planned &planned) const;
    CheckExchange sendOne(const Planned &planned, int batchIndex);
    ProbeObservation probe(Probe probe, int round);
    ProbeObservation twoInARow(Probe probe, bool key, bool otherBody);
    ProbeObservation inFlight();
    ProbeObservation throughProxy(Probe probe, CheckFault fault);
    qint64 count(const QList<qint64> &numbers);
    qint64 fresh() { return m_next++; }
    QByteArray keyFor(qint64 n) const;
    QByteArray bodyFor(qint64 n) const;
    bool unreachable(const CheckExchange &e) const;

    CheckOptions m_options;
    CheckFaults *m_faults;
    std::vector<std::unique_ptr<QNetworkAccessManager>> m_managers;
    qint64 m_next = 1;
    qint64 m_checkStartNs = 0;
    qint64 m_probeStartNs = 0;
    QString m_error;
    QString m_listError;
};

} // namespace retrylab
