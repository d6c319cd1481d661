#pragma once

// A check report of every probe, shared by the tests of the report (tests/core/tst_checkreport.cpp)
// and of the window that opens it (tests/ui/tst_checkreportview.cpp).
#include "check/checkreport.h"
#include "check/checkverdicts.h"

namespace checksample {

using namespace retrylab;

inline CheckExchange answered(int batch, const char *key, int status, const char *resource, qint64 sent, qint64 answeredAt)
{
    CheckExchange e;
    e.batch = batch;
    e.key = key;
    e.status = status;
    e.sentUs = sent;
    e.answeredUs = answeredAt;
    e.resource = QString::fromLatin1(resource);
    e.body = *resource ? QByteArray("{\"id\":\"") + QByteArray(resource).mid(3) + "\"}" : QByteArray("{}");
    return e;
}

inline ProbeObservation round(Probe p, int r, qint64 start, const QList<CheckExchange> &exchanges)
{
    ProbeObservation o;
    o.probe = p;
    o.round = r;
    o.startUs = start;
    o.exchanges = exchanges;
    return o;
}

// A card of every probe, as an endpoint with a check-then-insert race would earn it: the in-flight
// probe created twice (two rounds, the second one failing), the ghost replayed.
inline CheckReport report()
{
    CheckReport report;
    report.url = QStringLiteral("http://127.0.0.1:5000/orders");
    report.roundsAsked = 1;
    report.concurrency = 2;
    report.timeoutMs = 800;
    report.idField = QStringLiteral("data.id");
    QList<ProbeObservation> all;
    all << round(Probe::Replay, 1, 0, {answered(0, "k-1", 201, "id:1", 10, 900), answered(1, "k-1", 201, "id:1", 1000, 1500)});
    ProbeObservation mismatch = round(Probe::Mismatch, 1, 2000, {});
    mismatch.bodyVaries = false;
    all << mismatch;
    all << round(Probe::InFlight, 1, 3000, {answered(0, "k-3", 201, "id:3", 0, 400), answered(0, "k-3", 201, "id:4", 5, 420)});
    CheckExchange lost;
    lost.key = "k-5";
    lost.fault = CheckFault::ResponseLost;
    lost.sentUs = 10;
    lost.upstreamStatus = 201;
    lost.upstreamResource = QStringLiteral("id:5");
    lost.upstreamAnsweredUs = 25010;
    lost.error = QStringLiteral("Operation canceled");
    all << round(Probe::Ghost, 1, 5000, {lost, answered(1, "k-5", 200, "id:5", 810000, 811000)});
    CheckExchange missing = answered(0, "", 400, "", 0, 100);
    missing.problemType = QStringLiteral("key-required");
    missing.location = "/problems";
    all << round(Probe::MissingKey, 1, 900000, {missing});
    all << round(Probe::NoKeyTwice, 1, 901000, {answered(0, "", 201, "id:6", 0, 50), answered(1, "", 201, "id:7", 60, 90)});
    CheckExchange refused = answered(0, "k-8", 503, "", 0, 30);
    refused.fault = CheckFault::Error5xxBeforeCommit;
    all << round(Probe::RetryAfter5xx, 1, 902000, {refused, answered(1, "k-8", 201, "id:8", 40, 90)});
    for (const ProbeObservation &o : std::as_const(all)) {
        report.card << check::evaluate(o);
        report.rounds << QList<ProbeObservation>{o};
    }
    return report;
}

} // namespace checksample
