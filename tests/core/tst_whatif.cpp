// The what-if variants: which alternatives are offered and what they show.
#include "whatif.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include "testsupport.h"

#include <QTest>

using namespace retrylab;
using retrylab::test::presetScenario;

namespace {


int indexOf(const QList<WhatIfVariant> &variants, const QString &label)
{
    for (int i = 0; i < variants.size(); ++i)
        if (variants.at(i).label == label)
            return i;
    return -1;
}

// The variant that changes exactly these settings (path=new value), or -1.
int indexOfChanges(const QList<WhatIfVariant> &variants, const QStringList &changes)
{
    for (int i = 0; i < variants.size(); ++i) {
        QStringList got;
        for (const ScenarioChange &c : variants.at(i).changes)
            got << c.path + QLatin1Char('=') + c.to;
        if (got == changes)
            return i;
    }
    return -1;
}

// Every leaf of the scenario JSON (arrays count as leaves), but not the texts.
void leafPaths(const QJsonObject &object, const QString &prefix, QStringList *out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            leafPaths(it.value().toObject(), path, out);
        else
            out->append(path);
    }
}

// Another valid value for the setting at path, or an undefined value.
QJsonValue otherValue(const Scenario &s, const QString &path)
{
    const QJsonValue now = scenario::valueAt(s, path);
    QList<QJsonValue> candidates;
    if (now.isNull()) {
        candidates << 2; // an unlimited urllib3 counter (null) limited
    } else if (now.isBool()) {
        candidates << !now.toBool();
    } else if (now.isDouble()) {
        const double v = now.toDouble();
        candidates << v + 1 << v - 1 << v * 2 << v / 2 << v + 0.25 << v - 0.25 << 0 << 1;
    } else if (now.isString()) {
        const QStringList names{
            scenario::toString(KeyPlacement::PerOperation), scenario::toString(KeyPlacement::None),
            scenario::toString(IdempotencyMode::Atomic),    scenario::toString(IdempotencyMode::Off),
            scenario::toString(BackoffKind::Linear),        scenario::toString(BackoffKind::Constant),
            scenario::toString(Jitter::Equal),              scenario::toString(Jitter::None),
            scenario::toString(WrapperRetryOn::Transient),  scenario::toString(WrapperRetryOn::Any),
            scenario::toString(ReconcileAction::Void),      scenario::toString(ReconcileAction::Flag),
            scenario::toString(TokenReuse::Replay),         scenario::toString(TokenReuse::Reject),
            scenario::toString(KeyStore::Memory),           scenario::toString(KeyStore::Durable),
            scenario::toString(UnknownQuery::Resend),       scenario::toString(UnknownQuery::Fail),
            scenario::toString(WorkloadMode::Closed),       scenario::toString(WorkloadMode::Open),
            scenario::toString(Arrivals::Poisson),          scenario::toString(Arrivals::Fixed),
            scenario::toString(ServerModel::Occ),           scenario::toString(ServerModel::Orders),
            scenario::toString(BudgetScope::Global),        scenario::toString(BudgetScope::PerClient),
            scenario::toString(BudgetKind::GrpcThrottling), scenario::toString(BudgetKind::TokenPerRetry),
            scenario::toString(BreakerMode::FailureRate),   scenario::toString(BreakerMode::Consecutive),
            scenario::toString(DistributionShape::Uniform), scenario::toString(DistributionShape::Normal),
            scenario::toString(OccRead::Wrapper),           scenario::toString(OccRead::Business),
            scenario::toString(RestartInFlight::Hang),      scenario::toString(RestartInFlight::Reset),
            QStringLiteral("7")};
        for (const QString &n : names)
            candidates << n;
    } else if (now.isArray()) {
        if (path.endsWith(QLatin1String("script"))) {
            candidates << QJsonArray{QJsonObject{{QStringLiteral("op"), 2},
                                                 {QStringLiteral("attempt"), QStringLiteral("*/*/*")},
                                                 {QStringLiteral("fault"), QStringLiteral("responseLost")}}};
            candidates << QJsonArray{};
        } else if (path.endsWith(QLatin1String("phases"))) {
            candidates << QJsonArray{QJsonObject{{QStringLiteral("fromS"), 0}, {QStringLiteral("toS"), 10},
                                                 {QStringLiteral("ratePerS"), 5}}}
                       << QJsonArray{};
        } else if (path == QLatin1String("windows")) {
            candidates << QJsonArray{QJsonObject{{QStringLiteral("fromS"), 2}, {QStringLiteral("toS"), 4},
                                                 {QStringLiteral("fault"), QStringLiteral("responseLost")},
                                                 {QStringLiteral("probability"), 0.5}}}
                       << QJsonArray{};
        } else if (path.endsWith(QLatin1String("restarts"))) {
            candidates << QJsonArray{QJsonObject{{QStringLiteral("atS"), 12}}} << QJsonArray{};
        } else if (path.endsWith(QLatin1String("allowedMethods"))) {
            candidates << QJsonArray{QStringLiteral("GET")} << QJsonArray{QStringLiteral("POST")};
        } else {
            candidates << QJsonArray{500} << QJsonArray{502};
        }
    }
    for (const QJsonValue &c : candidates)
        if (c != now && scenario::withValue(s, path, c).ok())
            return c;
    return QJsonValue(QJsonValue::Undefined);
}

} // namespace

class TestWhatIf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void changesFieldByField_data();
    void changesFieldByField();
    void textsAreNotSettings();
    void ghostRequestLabels();
    void variantsChangeSomething_data();
    void variantsChangeSomething();
    void labelsUnique_data();
    void labelsUnique();
    void ghostRequestKeyFix();
    void layerOffLowersWorstCase_data();
    void layerOffLowersWorstCase();
    void atomicVariantOnlyWhenServerIgnoresKeys();
    void runMatchesSimulate();
    void cancelledRunReturnsEmptyMetrics();
};

void TestWhatIf::changesFieldByField_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addRow("ghost-request") << QStringLiteral("ghost-request");
    QTest::addRow("layered-fix") << QStringLiteral("layered-fix");
    // Normal distributions: their distribution, mean and sd are in the file (uniform leaves them out).
    QTest::addRow("ghost-request-normal") << QStringLiteral("ghost-request-normal");
}

void TestWhatIf::changesFieldByField()
{
    // Every setting in the JSON is compared: a field added to Scenario but not to
    // whatif's field list fails here.
    QFETCH(QString, preset);
    Scenario s = presetScenario(preset.section(QStringLiteral("-normal"), 0, 0));
    if (preset.endsWith(QLatin1String("-normal"))) {
        const ScenarioParse normal = scenario::withSets(
            s, {QStringLiteral("network.latencyMs.distribution=normal"), QStringLiteral("server.processingMs.distribution=normal")});
        QVERIFY(normal.ok());
        s = normal.scenario;
        QVERIFY(s.toJson()[QLatin1String("network")][QLatin1String("latencyMs")][QLatin1String("mean")].isDouble());
    }
    QVERIFY(whatif::changes(s, s).isEmpty());
    QVERIFY(whatif::sameSettings(s, s));
    QStringList paths;
    leafPaths(s.toJson(), QString(), &paths);
    const QStringList texts{QStringLiteral("schema"), QStringLiteral("name"), QStringLiteral("title"),
                            QStringLiteral("description")};
    int checked = 0;
    for (const QString &path : qAsConst(paths)) {
        if (texts.contains(path))
            continue;
        const QJsonValue value = otherValue(s, path);
        QVERIFY2(!value.isUndefined(), qPrintable(path + QStringLiteral(": no other valid value")));
        const ScenarioParse changed = scenario::withValue(s, path, value);
        QVERIFY2(changed.ok(), qPrintable(path));
        const QList<ScenarioChange> diff = whatif::changes(s, changed.scenario);
        QVERIFY2(!diff.isEmpty(), qPrintable(path + QStringLiteral(": change not seen")));
        for (const ScenarioChange &c : diff)
            QVERIFY2(c.path == path || c.path.startsWith(path + QLatin1Char('[')),
                     qPrintable(path + QStringLiteral(" reported as ") + c.path));
        QVERIFY2(diff.constFirst().from != diff.constFirst().to, qPrintable(path));
        QVERIFY2(!whatif::sameSettings(s, changed.scenario), qPrintable(path));
        QVERIFY2(!whatif::sameSettings(changed.scenario, s), qPrintable(path));
        ++checked;
    }
    QVERIFY(checked >= 60);

    const Scenario ghost = presetScenario(QStringLiteral("ghost-request"));
    Scenario a = ghost;
    a.client.keyPlacement = KeyPlacement::PerOperation;
    a.server.idempotency.mode = IdempotencyMode::Atomic;
    const QList<ScenarioChange> diff = whatif::changes(ghost, a);
    QCOMPARE(diff.size(), 2);
    QCOMPARE(diff.at(0), (ScenarioChange{QStringLiteral("client.keyPlacement"), QStringLiteral("none"),
                                         QStringLiteral("perOperation")}));
    QCOMPARE(whatif::describe(diff), QStringLiteral("client.keyPlacement: none -> perOperation\n"
                                                    "server.idempotency.mode: off -> atomic"));
}

void TestWhatIf::textsAreNotSettings()
{
    const Scenario s = presetScenario(QStringLiteral("ghost-request"));
    Scenario renamed = s;
    renamed.name = QStringLiteral("mine");
    renamed.title = QStringLiteral("My title");
    renamed.description = QStringLiteral("My text");
    QVERIFY(whatif::sameSettings(s, renamed));
    QVERIFY(whatif::changes(s, renamed).isEmpty());
    renamed.seed += 1; // another seed is another run
    QVERIFY(!whatif::sameSettings(s, renamed));
}

void TestWhatIf::ghostRequestLabels()
{
    // The ghost request sends no key to a server that ignores keys: the labels say so.
    const Scenario s = presetScenario(QStringLiteral("ghost-request"));
    QCOMPARE(s.client.keyPlacement, KeyPlacement::None);
    QCOMPARE(s.server.idempotency.mode, IdempotencyMode::Off);
    const QList<WhatIfVariant> variants = whatif::variants(s);
    QStringList labels;
    QStringList tips;
    for (const WhatIfVariant &v : variants) {
        labels << v.label;
        tips << whatif::describe(v.changes);
    }
    QCOMPARE(labels, (QStringList{QStringLiteral("current settings"),
                                  QStringLiteral("key per op, server ignores keys (mode off)"),
                                  QStringLiteral("key per op + atomic server"),
                                  QStringLiteral("new key per @retry attempt, server ignores keys (mode off)"),
                                  QStringLiteral("no business retry loop"), QStringLiteral("no @retry wrapper")}));
    QCOMPARE(tips, (QStringList{QString(), QStringLiteral("client.keyPlacement: none -> perOperation"),
                                QStringLiteral("client.keyPlacement: none -> perOperation\n"
                                               "server.idempotency.mode: off -> atomic"),
                                QStringLiteral("client.keyPlacement: none -> perWrapperAttempt"),
                                QStringLiteral("client.business.enabled: true -> false"),
                                QStringLiteral("client.wrapper.enabled: true -> false")}));

    // With a key already per op, the fix is the server alone; "no key" appears.
    Scenario keyed = s;
    keyed.client.keyPlacement = KeyPlacement::PerOperation;
    const QList<WhatIfVariant> keyedVariants = whatif::variants(keyed);
    QVERIFY(indexOf(keyedVariants, QStringLiteral("no key")) >= 0);
    QCOMPARE(indexOf(keyedVariants, QStringLiteral("key per op, server ignores keys (mode off)")), -1);
    const int atomic = indexOf(keyedVariants, QStringLiteral("atomic server (same key per op)"));
    QVERIFY(atomic >= 0);
    QCOMPARE(whatif::describe(keyedVariants.at(atomic).changes),
             QStringLiteral("server.idempotency.mode: off -> atomic"));

    // A server that honours keys: no "ignores keys" hint, a required key is named.
    keyed.server.idempotency.mode = IdempotencyMode::Atomic;
    keyed.server.idempotency.requireKey = true;
    const QList<WhatIfVariant> honoured = whatif::variants(keyed);
    QVERIFY(indexOf(honoured, QStringLiteral("no key, server requires one (400)")) >= 0);
    QVERIFY(indexOf(honoured, QStringLiteral("new key per @retry attempt")) >= 0);
}

void TestWhatIf::variantsChangeSomething_data()
{
    QTest::addColumn<QString>("preset");
    const QStringList names = scenario::presetNames();
    for (const QString &name : names)
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestWhatIf::variantsChangeSomething()
{
    QFETCH(QString, preset);
    const Scenario s = presetScenario(preset);
    const QList<WhatIfVariant> variants = whatif::variants(s);
    QVERIFY(variants.constFirst().changes.isEmpty());
    for (int i = 1; i < variants.size(); ++i) {
        QVERIFY2(!variants.at(i).changes.isEmpty(), qPrintable(variants.at(i).label));
        QCOMPARE(variants.at(i).changes, whatif::changes(s, variants.at(i).scenario));
    }
}

void TestWhatIf::labelsUnique_data()
{
    QTest::addColumn<QString>("preset");
    const QStringList names = scenario::presetNames();
    for (const QString &name : names)
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestWhatIf::labelsUnique()
{
    QFETCH(QString, preset);
    const Scenario s = presetScenario(preset);
    const QList<WhatIfVariant> variants = whatif::variants(s);
    QVERIFY(variants.size() >= 4);
    QCOMPARE(variants.constFirst().scenario, s);
    QSet<QString> labels;
    for (const WhatIfVariant &v : variants) {
        QVERIFY(!v.label.isEmpty());
        labels.insert(v.label);
        QCOMPARE(v.scenario.seed, s.seed); // one change at a time, same dice
    }
    QCOMPARE(labels.size(), variants.size());
}

void TestWhatIf::ghostRequestKeyFix()
{
    const ScenarioParse set = scenario::withValue(presetScenario(QStringLiteral("ghost-request")),
                                                  QStringLiteral("network.responseLoss"), 0.3);
    QVERIFY2(set.ok(), qPrintable(set.errors.join(QLatin1Char('\n'))));
    const QList<WhatIfVariant> variants = whatif::variants(set.scenario);
    const QList<Metrics> metrics = whatif::run(variants);
    QCOMPARE(metrics.size(), variants.size());

    const int noKey = 0; // the preset sends no key
    QCOMPARE(variants.at(noKey).scenario.client.keyPlacement, KeyPlacement::None);
    const int fixed = indexOfChanges(variants, {QStringLiteral("client.keyPlacement=perOperation"),
                                                QStringLiteral("server.idempotency.mode=atomic")});
    const int keyOnly = indexOfChanges(variants, {QStringLiteral("client.keyPlacement=perOperation")});
    QVERIFY(fixed >= 0);
    QVERIFY(keyOnly >= 0);
    QCOMPARE(variants.at(fixed).scenario.client.keyPlacement, KeyPlacement::PerOperation);
    QCOMPARE(variants.at(fixed).scenario.server.idempotency.mode, IdempotencyMode::Atomic);
    QVERIFY(metrics.at(noKey).duplicates > 0);
    QCOMPARE(metrics.at(fixed).duplicates, 0);
    // A key alone does nothing on a server that ignores it.
    QCOMPARE(metrics.at(keyOnly).duplicates, metrics.at(noKey).duplicates);
}

void TestWhatIf::layerOffLowersWorstCase_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addRow("ghost-request") << QStringLiteral("ghost-request");
    QTest::addRow("layered-fix") << QStringLiteral("layered-fix");
    QTest::addRow("retry-storm") << QStringLiteral("retry-storm");
}

void TestWhatIf::layerOffLowersWorstCase()
{
    QFETCH(QString, preset);
    const Scenario s = presetScenario(preset);
    const QList<WhatIfVariant> variants = whatif::variants(s);
    const QList<QPair<QString, const LayerConfig *>> layers{
        {QStringLiteral("client.business.enabled=false"), &s.client.business},
        {QStringLiteral("client.wrapper.enabled=false"), &s.client.wrapper},
    };
    QList<WhatIfVariant> layerOff;
    for (const auto &layer : layers) {
        const int i = indexOfChanges(variants, {layer.first});
        QCOMPARE(i >= 0, layer.second->enabled);
        if (i >= 0 && layer.second->maxAttempts > 1)
            layerOff.append(variants.at(i));
    }
    const int transport = indexOfChanges(variants, {QStringLiteral("client.transport.enabled=false")});
    QCOMPARE(transport >= 0, s.client.transport.enabled);
    if (transport >= 0 && s.client.transport.total > 0)
        layerOff.append(variants.at(transport));
    QVERIFY(!layerOff.isEmpty());

    const QList<Metrics> current = whatif::run({variants.constFirst()});
    const QList<Metrics> metrics = whatif::run(layerOff);
    for (int i = 0; i < layerOff.size(); ++i) {
        QVERIFY2(metrics.at(i).worstCaseAttemptsPerOp < current.constFirst().worstCaseAttemptsPerOp,
                 qPrintable(layerOff.at(i).label));
        QVERIFY(metrics.at(i).maxAttemptsPerOp <= metrics.at(i).worstCaseAttemptsPerOp);
    }
}

void TestWhatIf::atomicVariantOnlyWhenServerIgnoresKeys()
{
    const QStringList fix{QStringLiteral("client.keyPlacement=perOperation"),
                          QStringLiteral("server.idempotency.mode=atomic")};
    Scenario s = presetScenario(QStringLiteral("ghost-request"));
    s.server.idempotency.mode = IdempotencyMode::Off;
    QVERIFY(indexOfChanges(whatif::variants(s), fix) >= 0);
    s.server.idempotency.mode = IdempotencyMode::Naive;
    for (const WhatIfVariant &v : whatif::variants(s))
        for (const ScenarioChange &c : v.changes)
            QVERIFY(c.path != QLatin1String("server.idempotency.mode"));
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    for (const WhatIfVariant &v : whatif::variants(s))
        for (const ScenarioChange &c : v.changes)
            QVERIFY(c.path != QLatin1String("server.idempotency.mode"));
}

void TestWhatIf::runMatchesSimulate()
{
    const QList<WhatIfVariant> variants = whatif::variants(presetScenario(QStringLiteral("rotating-key")));
    const QList<Metrics> metrics = whatif::run(variants);
    QCOMPARE(metrics.size(), variants.size());
    RunOptions options;
    options.trace = false;
    for (int i = 0; i < variants.size(); ++i)
        QCOMPARE(metrics.at(i), simulate(variants.at(i).scenario, options).metrics);
}

void TestWhatIf::cancelledRunReturnsEmptyMetrics()
{
    const QList<WhatIfVariant> variants = whatif::variants(presetScenario(QStringLiteral("ghost-request")));
    const std::atomic_bool cancel{true};
    const QList<Metrics> metrics = whatif::run(variants, &cancel);
    QCOMPARE(metrics.size(), variants.size());
    for (const Metrics &m : metrics)
        QCOMPARE(m.logicalOperations, 0);
}

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
