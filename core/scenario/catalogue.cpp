#include "scenario.h"
#include "scenario/echo.h"
#include "scenario/json.h"
#include "scenario/schema.h"
#include "scenariovisit.h"

#include <QJsonArray>
#include <QJsonObject>

// The field catalogue (`retrylab fields`, sweep --param, the editor's checks) and the settings
// comparison, both read off the field table.
namespace retrylab::scenario {

using namespace detail;

namespace {

QString typeName(FieldType type)
{
    switch (type) {
    case FieldType::Integer:
        return QStringLiteral("integer");
    case FieldType::Number:
        return QStringLiteral("number");
    case FieldType::Boolean:
        return QStringLiteral("boolean");
    case FieldType::Choice:
        return QStringLiteral("choice");
    case FieldType::Text:
        return QStringLiteral("string");
    case FieldType::List:
        break;
    }
    return QStringLiteral("list");
}

// What a field accepts, in the words `retrylab fields` prints.
QString allowedText(const FieldSpec &f)
{
    if (!f.allowed.isEmpty())
        return f.allowed;
    switch (f.type) {
    case FieldType::Integer:
        if (f.special == Special::LowMeans)
            return QStringLiteral("%1 to %2, or %3").arg(int(f.minimum) + 1).arg(int(f.maximum)).arg(f.specialText);
        return QStringLiteral("%1 to %2%3")
            .arg(int(f.minimum))
            .arg(int(f.maximum))
            .arg(f.special == Special::NullUnlimited ? QStringLiteral(", or null for unlimited") : QString());
    case FieldType::Number:
        if (f.special == Special::NullMeans)
            return QStringLiteral("%1 to %2, or null for %3")
                .arg(plainNumber(f.minimum), plainNumber(f.maximum), f.specialText);
        return QStringLiteral("%1 to %2").arg(plainNumber(f.minimum), plainNumber(f.maximum));
    case FieldType::Boolean:
        return QStringLiteral("true or false");
    case FieldType::Choice:
        return f.choices.join(QStringLiteral(", "));
    case FieldType::Text:
        return (f.minimum > 0 ? QStringLiteral("non-empty text") : QStringLiteral("any text"))
            + QStringLiteral(", at most %1 characters").arg(int(f.maximum));
    case FieldType::List:
        break;
    }
    return QString();
}

// The default scenario as complete JSON with the tenacity alias written out; entries: with one
// default entry in each list, for the keys of a list's entries.
QJsonObject defaultsJson(bool entries)
{
    const Scenario d;
    QJsonObject json = toCompleteJson(d);
    const auto edit = [&json](const QString &object, const QString &key, const QJsonValue &value) {
        QJsonObject o = json.value(object).toObject();
        o.insert(key, value);
        json.insert(object, o);
    };
    if (entries) {
        edit(QStringLiteral("network"), QStringLiteral("script"), QJsonArray{scriptEntryJson(ScriptEntry())});
        edit(QStringLiteral("workload"), QStringLiteral("phases"), QJsonArray{phaseJson(LoadPhase())});
        json.insert(QStringLiteral("windows"), QJsonArray{windowJson(FaultWindow())});
    }
    QJsonObject client = json.value(QLatin1String("client")).toObject();
    for (const auto &[name, layer] : {std::pair(QStringLiteral("business"), d.client.business),
                                      std::pair(QStringLiteral("wrapper"), d.client.wrapper)}) {
        QJsonObject l = client.value(name).toObject();
        QJsonObject backoff = l.value(QLatin1String("backoff")).toObject();
        backoff.insert(QStringLiteral("tenacity"), tenacityOf(layer.backoff));
        l.insert(QStringLiteral("backoff"), backoff);
        client.insert(name, l);
    }
    json.insert(QStringLiteral("client"), client);
    return json;
}

QJsonValue lookup(const QJsonObject &root, QString path)
{
    path.replace(QStringLiteral("[N]"), QStringLiteral(".[0]"));
    QJsonValue node = root;
    for (const QString &step : path.split(QLatin1Char('.'))) {
        if (step == QLatin1String("[0]"))
            node = node.toArray().at(0);
        else
            node = node.toObject().value(step);
    }
    return node;
}

} // namespace

QList<FieldInfo> fields()
{
    static const QList<FieldInfo> catalogue = [] {
        const QJsonObject defaults = defaultsJson(false);
        const QJsonObject withEntries = defaultsJson(true);
        QList<FieldInfo> list;
        for (const FieldSpec &f : schema()) {
            if (f.role == Role::Alias && f.read)
                continue; // backoff.tenacity itself: its keys are listed
            FieldInfo info;
            info.path = f.path;
            info.type = typeName(f.type);
            info.allowed = allowedText(f);
            info.bounded = f.bounded && f.type != FieldType::Text;
            if (info.bounded) {
                info.minimum = f.special == Special::LowMeans ? f.minimum + 1 : f.minimum;
                info.maximum = f.maximum;
            }
            if (f.type == FieldType::Choice || !f.choices.isEmpty())
                info.choices = f.choices;
            info.defaultValue = lookup(f.role == Role::Item ? withEntries : defaults, f.path);
            list.append(info);
        }
        return list;
    }();
    return catalogue;
}

bool sameSettings(const Scenario &a, const Scenario &b)
{
    // Every field but the seed (a new seed tells the same lesson), compared value by value.
    bool same = true;
    auto visitor = [&same](const char *path, const auto &x, const auto &y) {
        if (same && qstrcmp(path, "seed") != 0)
            same = x == y;
    };
    visitSettings(a, b, visitor);
    return same;
}

} // namespace retrylab::scenario
