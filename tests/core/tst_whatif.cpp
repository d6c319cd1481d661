// The what-if variants: which alternatives are offered and what they show.
#include "whatif.h"

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

} // namespace

class TestWhatIf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labelsUnique_data();
    void labelsUnique();
    void ghostRequestKeyFix();
    void layerOffLowersWorstCase_data();
    void layerOffLowersWorstCase();
    void atomicVariantOnlyWhenServerIgnoresKeys();
    void runMatchesSimulate();
    void cancelledRunReturnsEmptyMetrics();
};

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

    const int noKey = indexOf(variants, QStringLiteral("no key"));
    const int fixed = indexOf(variants, QStringLiteral("key per operation + atomic"));
    const int keyOnly = indexOf(variants, QStringLiteral("key per operation"));
    QVERIFY(noKey >= 0);
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
        {QStringLiteral("business retry off"), &s.client.business},
        {QStringLiteral("wrapper retry off"), &s.client.wrapper},
    };
    QList<WhatIfVariant> layerOff;
    for (const auto &layer : layers) {
        const int i = indexOf(variants, layer.first);
        QCOMPARE(i >= 0, layer.second->enabled);
        if (i >= 0 && layer.second->maxAttempts > 1)
            layerOff.append(variants.at(i));
    }
    const int transport = indexOf(variants, QStringLiteral("transport retry off"));
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
    const QString label = QStringLiteral("key per operation + atomic");
    Scenario s = presetScenario(QStringLiteral("ghost-request"));
    s.server.idempotency.mode = IdempotencyMode::Off;
    QVERIFY(indexOf(whatif::variants(s), label) >= 0);
    s.server.idempotency.mode = IdempotencyMode::Naive;
    QCOMPARE(indexOf(whatif::variants(s), label), -1);
    s.server.idempotency.mode = IdempotencyMode::Atomic;
    QCOMPARE(indexOf(whatif::variants(s), label), -1);
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
