#include "adminroutes.h"

#include "adminaccess.h"
#include "orderserver.h"
#include "problemanswer.h"

#include <QJsonDocument>

namespace retrylab {

namespace {

void flatten(const QString &prefix, const QJsonValue &value, QList<QPair<QString, QJsonValue>> *out)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flatten(prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key(), it.value(), out);
        return;
    }
    out->append({prefix, value});
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

AdminRoutes::Reply faultsRoute(OrderServer &server, const AdminRoutes::Request &request)
{
    if (request.method == "GET")
        return {jsonAnswer(compact(server.faultsJson())), false};
    if (request.method != "PUT")
        return {problemAnswer(405, QStringLiteral("use GET or PUT on /admin/faults"), "Allow: GET, PUT"), false};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return {problemAnswer(400, QStringLiteral("expected a JSON object of settings")), false};
    const QStringList errors = server.setFaults(doc.object());
    if (!errors.isEmpty())
        return {problemAnswer(400, errors.mid(0, 10).join(QStringLiteral("; "))), false};
    return {jsonAnswer(compact(server.faultsJson())), false};
}

} // namespace

AdminRoutes::Reply AdminRoutes::route(OrderServer &server, const QByteArray &adminToken, const Request &request)
{
    const AdminAccess::Verdict verdict = AdminAccess(adminToken).check(AdminAccess::fromHeaders(request.method, request.headers));
    if (!verdict.allowed())
        return {problemAnswer(verdict.status, verdict.detail, verdict.header), false};
    if (request.path == QLatin1String("/admin/faults"))
        return faultsRoute(server, request);
    if (request.path == QLatin1String("/admin/reset")) {
        if (request.method != "POST")
            return {problemAnswer(405, QStringLiteral("use POST on /admin/reset"), "Allow: POST"), false};
        const QString refusal = resetRefusal(request.body, server.options().dbFile);
        if (!refusal.isEmpty())
            return {problemAnswer(400, refusal), false};
        return {jsonAnswer(QByteArrayLiteral("{\"status\":\"reset\"}")), true};
    }
    return {problemAnswer(404, QStringLiteral("no such endpoint: %1").arg(request.path.left(100))), false};
}

QJsonObject AdminRoutes::faultsJson(const Scenario &s)
{
    const QJsonObject all = s.toJson();
    return QJsonObject{{QStringLiteral("seed"), all.value(QLatin1String("seed"))},
                       {QStringLiteral("network"), all.value(QLatin1String("network"))},
                       {QStringLiteral("server"), all.value(QLatin1String("server"))}};
}

Scenario AdminRoutes::patched(const Scenario &s, const QJsonObject &patch, QStringList *errors)
{
    QList<QPair<QString, QJsonValue>> leaves;
    flatten(QString(), patch, &leaves);
    if (leaves.size() > 200) {
        *errors << QStringLiteral("at most 200 settings at once");
        return s;
    }
    Scenario out = s;
    for (const auto &leaf : std::as_const(leaves)) {
        const QString &path = leaf.first;
        if (path != QLatin1String("seed") && !path.startsWith(QLatin1String("network."))
            && !path.startsWith(QLatin1String("server."))) {
            *errors << QStringLiteral("%1: only seed, network.* and server.* can change here").arg(path.left(80));
            continue;
        }
        if (path == QLatin1String("server.idempotency.store")) {
            *errors << QStringLiteral("%1: the key store is chosen at start-up (--key-store)").arg(path);
            continue;
        }
        const ScenarioParse parsed = scenario::withValue(out, path, leaf.second);
        if (!parsed.ok()) {
            *errors << parsed.errors;
            continue;
        }
        out = parsed.scenario;
    }
    return errors->isEmpty() ? out : s;
}

QString AdminRoutes::resetRefusal(const QByteArray &body, const QString &dbFile)
{
    QJsonParseError error;
    const QJsonDocument doc = body.trimmed().isEmpty() ? QJsonDocument(QJsonObject()) : QJsonDocument::fromJson(body, &error);
    if (!doc.isObject())
        return QStringLiteral("POST /admin/reset takes a JSON object, e.g. {\"confirm\":\"delete-records\"}");
    const QJsonValue confirm = doc.object().value(QLatin1String("confirm"));
    if (!dbFile.isEmpty() && confirm.toString() != QLatin1String("delete-records"))
        return QStringLiteral("the records are in the file %1: send {\"confirm\":\"delete-records\"} to delete them")
                .arg(dbFile.right(120));
    if (!confirm.isUndefined() && confirm.toString() != QLatin1String("delete-records"))
        return QStringLiteral("\"confirm\" must be \"delete-records\"");
    return QString();
}

} // namespace retrylab
