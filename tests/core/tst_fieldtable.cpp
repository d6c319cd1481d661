// The field table (core/scenario/schema.h) is the one declaration of every scenario field. This
// test walks it and checks, field by field, that the places which use it agree with it: the
// reader (fromJson / --set refuse what lies outside the bounds and accept the bounds), the writer
// (toJson writes the member, and reads back the same), the catalogue (`retrylab fields`: type,
// bounds, choices, default), the --set paths (withSet, valueAt) and the visitor (whatif::changes,
// sameSettings). A field that one place misses fails here instead of compiling. The editor's half
// is tests/ui/tst_editorfields.cpp.
#include "scenario.h"
#include "scenario/schema.h"
#include "scenariovisit.h"
#include "whatif.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace retrylab;
using scenario::FieldSpec;
using scenario::FieldType;
using scenario::Role;
using scenario::Special;

namespace {

// The catalogue's "[N]" names one entry in an edit.
QString concretePath(const QString &path)
{
    QString out = path;
    return out.replace(QStringLiteral("[N]"), QStringLiteral("[0]"));
}

// The default scenario with one entry in each list, so the keys of an entry can be edited.
Scenario withEntries()
{
    const ScenarioParse parsed = scenario::withSets(
        Scenario(), {QStringLiteral("network.script[0].fault=\"responseLost\""), QStringLiteral("workload.phases[0].fromS=0"),
                     QStringLiteral("windows[0].fromS=0")});
    if (!parsed.ok())
        qFatal("%s", qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    return parsed.scenario;
}

// The settings a value of this field needs to be valid (cross-field rules, run after the table).
QStringList companions(const FieldSpec &f, const QJsonValue &value)
{
    QStringList out;
    if (f.special == Special::LowMeans && value.toDouble() == f.minimum && f.path.endsWith(QLatin1String(".maxAttempts")))
        out << f.path.section(QLatin1Char('.'), 0, 1) + QStringLiteral(".deadlineMs=1000");
    if (f.special == Special::NullQuiet && value.isNull())
        out << QStringLiteral("client.transport.connect=1") << QStringLiteral("client.transport.read=1")
            << QStringLiteral("client.transport.status=1");
    if (f.path == QLatin1String("workload.phases"))
        out << QStringLiteral("workload.mode=\"open\"");
    return out;
}

QString assignment(const QString &path, const QJsonValue &value)
{
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return path + QLatin1Char('=') + QString::fromUtf8(json.mid(1, json.size() - 2));
}

// --set path=value (with the settings the value needs), as the command line would.
ScenarioParse setField(const Scenario &base, const FieldSpec &f, const QJsonValue &value)
{
    return scenario::withSets(base, QStringList{assignment(concretePath(f.path), value)} + companions(f, value));
}

// Fields whose values the table walk reads and writes by type: the ones with bounds and choices to check.
bool plainSetting(const FieldSpec &f)
{
    return f.role == Role::Setting && !f.read;
}

// A valid value other than the default, or undefined when the field has none to offer here.
QJsonValue otherValue(const FieldSpec &f, const QJsonValue &current)
{
    switch (f.type) {
    case FieldType::Boolean:
        return !current.toBool();
    case FieldType::Choice:
        return f.choices.at((f.choices.indexOf(current.toString()) + 1) % f.choices.size());
    case FieldType::Integer:
    case FieldType::Number:
        return current.toDouble() == f.maximum ? f.minimum : f.maximum;
    case FieldType::Text:
    case FieldType::List:
        break;
    }
    return QJsonValue(QJsonValue::Undefined);
}

} // namespace

class TestFieldTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyPathOnce();
    void catalogueIsTheTable();
    void defaultsAgree();
    void readerAcceptsTheBounds();
    void readerRefusesBeyondTheBounds();
    void choicesAgree();
    void writerWritesEveryMember();
    void visitorSeesEverySetting();
    void editorRangeReachesPastTheBounds();
};

void TestFieldTable::everyPathOnce()
{
    QSet<QString> seen;
    for (const FieldSpec &f : scenario::schema()) {
        QVERIFY2(!seen.contains(f.path), qPrintable(f.path));
        seen.insert(f.path);
        QCOMPARE(scenario::fieldSpec(f.path), &f);
        const bool hasMember = !std::holds_alternative<std::monostate>(f.member);
        QVERIFY2(hasMember == (f.role == Role::Setting || f.role == Role::Metadata), qPrintable(f.path));
        QVERIFY2(!f.bounded || f.minimum <= f.maximum, qPrintable(f.path));
    }
}

void TestFieldTable::catalogueIsTheTable()
{
    QHash<QString, FieldInfo> catalogue;
    for (const FieldInfo &info : scenario::fields())
        catalogue.insert(info.path, info);
    int listed = 0;
    for (const FieldSpec &f : scenario::schema()) {
        if (f.role == Role::Alias && f.read)
            continue; // backoff.tenacity: its keys are listed
        ++listed;
        QVERIFY2(catalogue.contains(f.path), qPrintable(f.path));
        const FieldInfo info = catalogue.value(f.path);
        const char *types[] = {"integer", "number", "boolean", "choice", "string", "list"};
        QCOMPARE(info.type, QLatin1String(types[int(f.type)]));
        QCOMPARE(info.bounded, f.bounded && f.type != FieldType::Text);
        if (info.bounded) {
            QCOMPARE(info.minimum, f.special == Special::LowMeans ? f.minimum + 1 : f.minimum);
            QCOMPARE(info.maximum, f.maximum);
        }
        QCOMPARE(info.choices, f.choices);
        QVERIFY2(!info.allowed.isEmpty(), qPrintable(f.path));
    }
    QCOMPARE(catalogue.size(), listed);
}

void TestFieldTable::defaultsAgree()
{
    // The catalogue's default is what valueAt (--set's reading) and the writer give for a fresh
    // scenario: the member's initial value in struct Scenario.
    const Scenario fresh = withEntries();
    const QJsonObject complete = scenario::toCompleteJson(Scenario());
    for (const FieldInfo &info : scenario::fields()) {
        const FieldSpec *f = scenario::fieldSpec(info.path);
        QVERIFY(f);
        if (f->type == FieldType::List && f->role != Role::Item) {
            QCOMPARE(info.defaultValue, scenario::valueAt(Scenario(), info.path));
            continue;
        }
        QVERIFY2(!info.defaultValue.isUndefined(), qPrintable(info.path));
        QCOMPARE(scenario::valueAt(fresh, concretePath(info.path)), info.defaultValue);
        if (f->role == Role::Item || f->role == Role::Alias)
            continue;
        QJsonValue written = complete;
        for (const QString &key : info.path.split(QLatin1Char('.')))
            written = written.toObject().value(key);
        QCOMPARE(written, info.defaultValue);
    }
}

void TestFieldTable::readerAcceptsTheBounds()
{
    const Scenario base = withEntries();
    for (const FieldSpec &f : scenario::schema()) {
        if (!f.bounded || f.type == FieldType::Text || f.role == Role::Metadata)
            continue;
        if (f.path == QLatin1String("network.script[N].op"))
            continue; // bounded by workload.orders, which the next test checks
        for (const double bound : {f.minimum, f.maximum}) {
            if (f.path.endsWith(QLatin1String("].toS")) && bound == 0)
                continue;
            const QJsonValue value = f.type == FieldType::Integer ? QJsonValue(qint64(bound)) : QJsonValue(bound);
            const ScenarioParse parsed = setField(base, f, value);
            QVERIFY2(parsed.ok(), qPrintable(f.path + QStringLiteral(": ") + parsed.errors.join(QLatin1Char('\n'))));
            QCOMPARE(scenario::valueAt(parsed.scenario, concretePath(f.path)).toDouble(), bound);
            // The file reader agrees with --set: the written scenario reads back the same.
            const ScenarioParse reread = scenario::fromJson(scenario::toCompleteJson(parsed.scenario));
            QVERIFY2(reread.ok(), qPrintable(f.path));
            QVERIFY2(reread.scenario == parsed.scenario, qPrintable(f.path));
        }
        if (f.special == Special::NullUnlimited || f.special == Special::NullQuiet || f.special == Special::NullMeans) {
            const ScenarioParse parsed = setField(base, f, QJsonValue(QJsonValue::Null));
            QVERIFY2(parsed.ok(), qPrintable(f.path + QStringLiteral(": ") + parsed.errors.join(QLatin1Char('\n'))));
            QCOMPARE(scenario::valueAt(parsed.scenario, f.path), QJsonValue(QJsonValue::Null));
        }
    }
}

void TestFieldTable::readerRefusesBeyondTheBounds()
{
    const Scenario base = withEntries();
    for (const FieldSpec &f : scenario::schema()) {
        if (!f.bounded || f.type == FieldType::Text || f.role == Role::Metadata)
            continue;
        const QString path = concretePath(f.path);
        const double step = f.type == FieldType::Integer ? 1 : std::max(1e-9, (f.maximum - f.minimum) * 1e-6);
        const double above = f.path == QLatin1String("network.script[N].op") ? 1000001 : f.maximum + step;
        for (const double outside : {f.minimum - step, above}) {
            if (f.path == QLatin1String("seed") && outside > 0)
                continue; // a decimal string takes the seed up to 2^64 - 1
            const QJsonValue value = f.type == FieldType::Integer ? QJsonValue(qint64(outside)) : QJsonValue(outside);
            const ScenarioParse parsed = scenario::withSet(base, assignment(path, value));
            QVERIFY2(!parsed.ok(), qPrintable(assignment(path, value)));
            QVERIFY2(parsed.errors.first().startsWith(path + QLatin1Char(':')),
                     qPrintable(parsed.errors.first()));
        }
    }
}

void TestFieldTable::choicesAgree()
{
    const Scenario base = withEntries();
    for (const FieldSpec &f : scenario::schema()) {
        if (f.type != FieldType::Choice)
            continue;
        const QString path = concretePath(f.path);
        for (const QString &name : f.choices) {
            const ScenarioParse parsed = scenario::withValue(base, path, name);
            if (!parsed.ok())
                continue; // a choice refused by a rule of its entry (a GET serverRestart)
            QCOMPARE(scenario::valueAt(parsed.scenario, path).toString(), name);
            if (plainSetting(f))
                QCOMPARE(f.choices.at(std::get<scenario::ChoiceMember>(f.member).get(parsed.scenario)), name);
        }
        const ScenarioParse refused = scenario::withValue(base, path, QStringLiteral("noSuchChoice"));
        QVERIFY2(!refused.ok(), qPrintable(path));
        QVERIFY2(refused.errors.join(QLatin1Char('\n')).contains(f.choices.join(QLatin1Char('|'))),
                 qPrintable(refused.errors.join(QLatin1Char('\n'))));
    }
}

void TestFieldTable::writerWritesEveryMember()
{
    // Every plain setting: a new value set through its member reaches the file, and back.
    for (const FieldSpec &f : scenario::schema()) {
        if (!plainSetting(f))
            continue;
        const QJsonValue value = otherValue(f, scenario::valueAt(Scenario(), f.path));
        QVERIFY2(!value.isUndefined(), qPrintable(f.path));
        Scenario s;
        std::visit(
            [&](auto at) {
                using At = decltype(at);
                if constexpr (std::is_same_v<At, int *(*)(Scenario &)>)
                    *at(s) = value.toInt();
                else if constexpr (std::is_same_v<At, double *(*)(Scenario &)>)
                    *at(s) = value.toDouble();
                else if constexpr (std::is_same_v<At, bool *(*)(Scenario &)>)
                    *at(s) = value.toBool();
                else if constexpr (std::is_same_v<At, scenario::ChoiceMember>)
                    at.set(s, int(f.choices.indexOf(value.toString())));
                else
                    QFAIL(qPrintable(f.path + QStringLiteral(": a plain setting of an unexpected type")));
            },
            f.member);
        QCOMPARE(scenario::valueAt(s, f.path), value);
        const ScenarioParse reread = scenario::fromJson(scenario::toCompleteJson(s));
        if (!reread.ok())
            continue; // a cross-field rule refuses this one value alone (e.g. an unlimited total)
        QVERIFY2(reread.scenario == s, qPrintable(f.path));
    }
}

void TestFieldTable::visitorSeesEverySetting()
{
    // Changing one setting alone changes what whatif::changes reports, under that setting's path.
    const Scenario base;
    for (const FieldSpec &f : scenario::schema()) {
        if (f.role != Role::Setting || f.type == FieldType::List || f.path.contains(QLatin1Char('[')))
            continue;
        const QJsonValue value = f.path == QLatin1String("seed") ? QJsonValue(7)
                                                                  : otherValue(f, scenario::valueAt(base, f.path));
        const ScenarioParse changed = setField(base, f, value);
        QVERIFY2(changed.ok(), qPrintable(f.path + QStringLiteral(": ") + changed.errors.join(QLatin1Char('\n'))));
        QStringList paths;
        for (const ScenarioChange &c : whatif::changes(base, changed.scenario))
            paths << c.path;
        QVERIFY2(paths.contains(f.path), qPrintable(f.path + QStringLiteral(" -> ") + paths.join(QLatin1Char(' '))));
        QCOMPARE(scenario::sameSettings(base, changed.scenario), f.path == QLatin1String("seed"));
        QVERIFY(!(base == changed.scenario));
    }
}

void TestFieldTable::editorRangeReachesPastTheBounds()
{
    // The one rule for the editor's spin boxes: wider than the validator's bounds, so the validator
    // names an out-of-range value; the lowest value is null where null has a meaning.
    for (const FieldSpec &f : scenario::schema()) {
        if (!f.bounded || (f.type != FieldType::Integer && f.type != FieldType::Number))
            continue;
        const scenario::EditorRange range = scenario::editorRange(f);
        QVERIFY2(range.minimum <= std::min(f.minimum, 0.0), qPrintable(f.path));
        QVERIFY2(range.maximum > f.maximum || range.maximum == INT_MAX, qPrintable(f.path));
        const bool nullable =
            f.special == Special::NullUnlimited || f.special == Special::NullQuiet || f.special == Special::NullMeans;
        QCOMPARE(range.nullAtMinimum, nullable);
        if (nullable)
            QCOMPARE(range.minimum, std::min(f.minimum, 0.0) - 1);
    }
}

QTEST_GUILESS_MAIN(TestFieldTable)
#include "tst_fieldtable.moc"
