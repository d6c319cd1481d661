#include "scenario.h"
#include "scenario/echo.h"
#include "scenario/enumnames.h"
#include "scenario/json.h"
#include "scenario/schema.h"
#include "scenariovisit.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

// The scenario writer: the field table's walk, and the writers of the lists.
namespace retrylab::scenario {

namespace detail {

QJsonObject phaseJson(const LoadPhase &p)
{
    return QJsonObject{{QStringLiteral("fromS"), p.fromS},
                       {QStringLiteral("toS"), p.toS},
                       {QStringLiteral("ratePerS"), p.ratePerS}};
}

QJsonObject windowJson(const FaultWindow &w)
{
    return QJsonObject{{QStringLiteral("fromS"), w.fromS},
                       {QStringLiteral("toS"), w.toS},
                       {QStringLiteral("fault"), enumName(w.fault)},
                       {QStringLiteral("probability"), w.probability}};
}

QJsonObject scriptEntryJson(const ScriptEntry &e)
{
    return QJsonObject{
        {QStringLiteral("op"), e.op == 0 ? QJsonValue(QStringLiteral("*")) : QJsonValue(e.op)},
        {QStringLiteral("attempt"), e.attempt},
        {QStringLiteral("fault"), enumName(e.fault)},
        {QStringLiteral("method"), enumName(e.method)},
    };
}

QJsonObject tenacityOf(const BackoffConfig &b)
{
    return QJsonObject{{QStringLiteral("multiplier"), b.initialMs / 1000.0},
                       {QStringLiteral("expBase"), b.multiplier},
                       {QStringLiteral("min"), b.minMs / 1000.0},
                       {QStringLiteral("max"), b.maxMs / 1000.0},
                       {QStringLiteral("wait"), b.jitter == Jitter::Full ? QStringLiteral("wait_random_exponential")
                                                                         : QStringLiteral("wait_exponential")}};
}

QStringList httpMethods()
{
    return {QStringLiteral("GET"),     QStringLiteral("HEAD"),  QStringLiteral("PUT"),  QStringLiteral("DELETE"),
            QStringLiteral("OPTIONS"), QStringLiteral("TRACE"), QStringLiteral("POST"), QStringLiteral("PATCH")};
}

QStringList windowFaults()
{
    QStringList faults;
    for (const char *name : EnumNames<FaultKind>::names) {
        if (QLatin1String(name) != QLatin1String("serverRestart"))
            faults << QLatin1String(name);
    }
    return faults;
}

QJsonValue writeSeed(const Scenario &s)
{
    return seedToJson(s.seed);
}

namespace {
// A list as a JSON array, one entry(x) per element.
template<class T, class Entry>
QJsonArray arrayOf(const QList<T> &list, Entry entry)
{
    QJsonArray out;
    for (const T &x : list)
        out.append(entry(x));
    return out;
}
} // namespace

QJsonValue writePhases(const Scenario &s)
{
    return arrayOf(s.workload.phases, phaseJson);
}

QJsonValue writeStatusForcelist(const Scenario &s)
{
    return arrayOf(s.client.transport.statusForcelist, [](int status) { return QJsonValue(status); });
}

QJsonValue writeAllowedMethods(const Scenario &s)
{
    return QJsonArray::fromStringList(s.client.transport.allowedMethods);
}

QJsonValue writeScript(const Scenario &s)
{
    return arrayOf(s.network.script, scriptEntryJson);
}

QJsonValue writeRestarts(const Scenario &s)
{
    return arrayOf(s.server.restartsAtS, [](int atS) { return QJsonObject{{QStringLiteral("atS"), atS}}; });
}

QJsonValue writeWindows(const Scenario &s)
{
    return arrayOf(s.windows, windowJson);
}

namespace {

// One field's value as a file holds it: null for an unlimited counter or a full bucket (-1).
QJsonValue fieldJson(const FieldSpec &f, const Scenario &s)
{
    if (f.write)
        return f.write(s);
    Scenario &m = const_cast<Scenario &>(s); // the accessors are shared by reader and writer; this one only reads
    switch (f.type) {
    case FieldType::Integer: {
        const int v = *std::get<int *(*)(Scenario &)>(f.member)(m);
        const bool nullable = f.special == Special::NullUnlimited || f.special == Special::NullQuiet;
        return nullable && v == TransportConfig::Unlimited ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
    }
    case FieldType::Number: {
        const double v = *std::get<double *(*)(Scenario &)>(f.member)(m);
        return f.special == Special::NullMeans && v < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
    }
    case FieldType::Boolean:
        return *std::get<bool *(*)(Scenario &)>(f.member)(m);
    case FieldType::Choice:
        return f.choices.at(std::get<ChoiceMember>(f.member).get(s));
    case FieldType::Text:
        return *std::get<QString *(*)(Scenario &)>(f.member)(m);
    case FieldType::List:
        break;
    }
    return QJsonValue();
}

// The fields [begin, end) of the table inside one object (their paths start with prefixLength
// characters of its path), a sub-object per run of fields inside one.
QJsonObject writeFields(const Scenario &s, bool complete, qsizetype begin, qsizetype end, qsizetype prefixLength)
{
    const QList<FieldSpec> &table = schema();
    QJsonObject out;
    for (qsizetype i = begin; i < end;) {
        const FieldSpec &f = table.at(i);
        const qsizetype dot = f.path.indexOf(QLatin1Char('.'), prefixLength);
        if (f.role == Role::Item || f.role == Role::Alias) {
            ++i; // written by their list, or not at all (an alias is input only)
        } else if (dot < 0) {
            if (complete || !f.writtenIf || f.writtenIf(s))
                out.insert(f.key(), fieldJson(f, s));
            ++i;
        } else {
            const QString object = f.path.left(dot + 1);
            qsizetype j = i + 1;
            while (j < end && table.at(j).path.startsWith(object))
                ++j;
            out.insert(f.path.mid(prefixLength, dot - prefixLength), writeFields(s, complete, i, j, dot + 1));
            i = j;
        }
    }
    return out;
}

} // namespace

QJsonObject scenarioJson(const Scenario &s, bool complete)
{
    return writeFields(s, complete, 0, schema().size(), 0);
}

} // namespace detail

using namespace detail;

QJsonValue seedToJson(quint64 seed)
{
    // Beyond 2^53 a JSON number loses digits, so such seeds travel as strings.
    if (seed <= quint64(MaxExactInteger))
        return QJsonValue(qint64(seed));
    return QJsonValue(QString::number(seed));
}

QJsonObject toCompleteJson(const Scenario &s)
{
    return scenarioJson(s, true);
}

QString save(const Scenario &s, const QString &fileName)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("scenario", "cannot write scenario file \"%1\": %2").arg(fileName, file.errorString());
    const QByteArray bytes = QJsonDocument(s.toJson()).toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return QCoreApplication::translate("scenario", "cannot write scenario file \"%1\": %2").arg(fileName, error);
    }
    if (!file.commit())
        return QCoreApplication::translate("scenario", "cannot write scenario file \"%1\": %2").arg(fileName, file.errorString());
    return QString();
}

} // namespace retrylab::scenario

namespace retrylab {

QJsonObject Scenario::toJson() const
{
    return scenario::detail::scenarioJson(*this, false);
}

} // namespace retrylab
