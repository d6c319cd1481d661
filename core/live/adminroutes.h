#pragma once

#include "httpconnection.h"
#include "scenario.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace retrylab {

class OrderServer;

// The /admin/* endpoints of `serve` (GET/PUT /admin/faults, POST /admin/reset) on OrderServer's
// public API: who may use them is AdminAccess's decision; this class routes by path and method
// and composes the answer, which the server writes in its turn (no socket here).
class AdminRoutes
{
public:
    struct Request
    {
        QByteArray method; // "GET", "PUT", "POST" or any other name
        QString path;      // "/admin/faults"
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
    };
    struct Reply
    {
        HttpAnswer answer;
        bool reset = false; // reset the server once the answer is written (POST /admin/reset)
    };

    // The answer to `request` from `server` (setFaults already applied for a PUT).
    static Reply route(OrderServer &server, const QByteArray &adminToken, const Request &request);

    // GET /admin/faults: the seed and the network.* and server.* settings of `s`.
    static QJsonObject faultsJson(const Scenario &s);
    // PUT /admin/faults: `s` with a partial settings object applied ({"network": {"responseLoss":
    // 0.5}} or {"network.responseLoss": 0.5}) through the field table's validator. Only seed,
    // network.* and server.* may change, the key store not at all. On errors `s` is returned and
    // *errors names each wrong setting.
    static Scenario patched(const Scenario &s, const QJsonObject &patch, QStringList *errors);
    // Why POST /admin/reset with this body may not delete the records (empty: it may). A file
    // store (`dbFile` not empty) holds what may be a class's work: its reset is asked for in so
    // many words, {"confirm":"delete-records"}.
    static QString resetRefusal(const QByteArray &body, const QString &dbFile);
};

} // namespace retrylab
