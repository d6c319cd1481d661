// One exchange of a probe, and how an answer names what it created.
#include "check/checkexchange.h"

#include "check/checkverdicts.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace retrylab {

QJsonObject CheckExchange::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("batch"), batch);
    o.insert(QStringLiteral("key"), key.isEmpty() ? QJsonValue() : QJsonValue(QString::fromUtf8(key)));
    o.insert(QStringLiteral("otherBody"), otherBody);
    o.insert(QStringLiteral("fault"), check::faultName(fault));
    o.insert(QStringLiteral("sentUs"), sentUs);
    o.insert(QStringLiteral("answeredUs"), answeredUs);
    o.insert(QStringLiteral("status"), status);
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error);
    if (connectFailed)
        o.insert(QStringLiteral("connectFailed"), true);
    if (!location.isEmpty())
        o.insert(QStringLiteral("location"), QString::fromUtf8(location));
    o.insert(QStringLiteral("replayed"), replayedHeader);
    o.insert(QStringLiteral("resource"), resource.isEmpty() ? QJsonValue() : QJsonValue(resource));
    if (!problemType.isEmpty())
        o.insert(QStringLiteral("problemType"), problemType);
    if (fault == CheckFault::ResponseLost) {
        o.insert(QStringLiteral("upstreamStatus"), upstreamStatus);
        o.insert(QStringLiteral("upstreamResource"), upstreamResource.isEmpty() ? QJsonValue() : QJsonValue(upstreamResource));
        if (upstreamAnsweredUs >= 0)
            o.insert(QStringLiteral("upstreamAnsweredUs"), upstreamAnsweredUs);
    }
    o.insert(QStringLiteral("body"), QString::fromUtf8(body));
    return o;
}

namespace check {

namespace {

QJsonValue valueAt(const QJsonObject &object, const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('.'));
    QJsonValue v = object;
    for (const QString &part : parts) {
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(part);
    }
    return v;
}

} // namespace

QString resourceOf(const QByteArray &body, const QByteArray &location, const QString &idField)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject() && !idField.isEmpty()) {
        const QJsonValue id = valueAt(doc.object(), idField);
        // An integral number prints without a decimal point, so 7 and 7.0 are one resource.
        if (id.isDouble())
            return QStringLiteral("id:") + QString::number(id.toDouble(), 'g', 17);
        if (id.isString() && !id.toString().isEmpty())
            return QStringLiteral("id:") + id.toString();
    }
    if (!location.trimmed().isEmpty())
        return QStringLiteral("location:") + QString::fromUtf8(location.trimmed());
    return QString();
}

QString problemTypeOf(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        return QString();
    const QString type = doc.object().value(QLatin1String("type")).toString();
    return type.mid(type.lastIndexOf(QLatin1Char('/')) + 1);
}

qint64 collectionCount(const QByteArray &body, const QString &countField)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isArray())
        return countField.isEmpty() ? doc.array().size() : -1;
    if (!doc.isObject())
        return -1;
    if (!countField.isEmpty()) {
        const QJsonValue v = valueAt(doc.object(), countField);
        if (v.isArray())
            return v.toArray().size();
        if (v.isDouble() && v.toDouble() >= 0 && v.toDouble() == double(qint64(v.toDouble())))
            return qint64(v.toDouble());
        return -1;
    }
    // Without a field: the one array member of the object ({"orders": [...]}), if there is exactly one.
    qint64 found = -1;
    const QJsonObject object = doc.object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().isArray())
            continue;
        if (found >= 0)
            return -1;
        found = it.value().toArray().size();
    }
    return found;
}

} // namespace check
} // namespace retrylab
