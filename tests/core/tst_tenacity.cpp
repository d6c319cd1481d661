// backoff.tenacity means what the tenacity call means, and the jitter names say whose formula.
//
// tenacity: jd/tenacity tenacity/wait.py. wait_exponential.__init__(multiplier=1, max=MAX_WAIT,
// exp_base=2, min=0); __call__: multiplier x exp_base ** (attempt_number - 1), then
// max(max(0, min), min(result, max)). wait_random_exponential.__call__: uniform(min, that wait).
// The AWS study's decorrelated jitter: aws-samples/aws-arch-backoff-simulator
// src/backoff_simulator.py, DecorrelatedJitterBackoff: min(cap, uniform(base, 3 x sleep)).
#include "policy.h"
#include "scenario.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace retrylab;

namespace {

// The layer's backoff after reading `tenacity` into it (the rest of the file is the defaults).
BackoffConfig readTenacity(const char *layer, const QJsonObject &tenacity, QString *error = nullptr)
{
    const QJsonObject backoff{{QStringLiteral("tenacity"), tenacity}};
    const QJsonObject client{{QLatin1String(layer), QJsonObject{{QStringLiteral("backoff"), backoff}}}};
    const QJsonObject file{{QStringLiteral("schema"), 1}, {QStringLiteral("client"), client}};
    const ScenarioParse p = scenario::fromJson(file);
    if (error)
        *error = p.errors.join(QLatin1Char('\n'));
    return QLatin1String(layer) == QLatin1String("business") ? p.scenario.client.business.backoff
                                                                : p.scenario.client.wrapper.backoff;
}

// Waits 1..n in seconds, each drawn with `u`.
QList<double> waitsS(const BackoffConfig &b, int n, double u)
{
    QList<double> out;
    for (int i = 1; i <= n; ++i)
        out << double(policy::backoffUs(b, i, 0, u)) / 1e6;
    return out;
}

} // namespace

class TestTenacity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesLeftOutTakeTenacityDefaults();
    void layerJitterDoesNotLeakIn();
    void randomExponentialByName();
    void unknownWaitRefused();
    void decorrelatedIsTheAwsFormula();
};

void TestTenacity::namesLeftOutTakeTenacityDefaults()
{
    // wait_exponential(multiplier=1): 1, 2, 4, 8, 16, 32 s, whatever the wrapper's own initialMs
    // (100), multiplier (2) and maxMs (1000) were.
    QString error;
    const BackoffConfig b = readTenacity("wrapper", QJsonObject{{QStringLiteral("multiplier"), 1}}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(waitsS(b, 6, 0.5), (QList<double>{1, 2, 4, 8, 16, 32}));
    // An empty call is wait_exponential(): the same.
    QCOMPARE(waitsS(readTenacity("wrapper", QJsonObject()), 6, 0.5), (QList<double>{1, 2, 4, 8, 16, 32}));
}

void TestTenacity::layerJitterDoesNotLeakIn()
{
    // The business layer's own jitter is full; wait_exponential(multiplier=1, min=4, max=10) has
    // none: 4, 4, 4, 8, 10, 10 s at any draw.
    const BackoffConfig b = readTenacity("business", QJsonObject{{QStringLiteral("multiplier"), 1},
                                                                 {QStringLiteral("min"), 4},
                                                                 {QStringLiteral("max"), 10}});
    QCOMPARE(b.jitter, Jitter::None);
    QCOMPARE(waitsS(b, 6, 0.3), (QList<double>{4, 4, 4, 8, 10, 10}));
    QCOMPARE(waitsS(b, 6, 0.9), (QList<double>{4, 4, 4, 8, 10, 10}));
}

void TestTenacity::randomExponentialByName()
{
    // wait_random_exponential(multiplier=1, max=10): uniform(0, min(2 ** (n-1), 10)); a draw of
    // 0.5 gives half of 1, 2, 4, 8, 10, 10. With min=1: uniform(1, wait), a draw of 0.5 gives
    // 1, 1.5, 2.5, 4.5, 5.5, 5.5.
    const BackoffConfig b = readTenacity("wrapper", QJsonObject{{QStringLiteral("wait"), QStringLiteral("wait_random_exponential")},
                                                                {QStringLiteral("max"), 10}});
    QCOMPARE(b.jitter, Jitter::Full);
    QCOMPARE(waitsS(b, 6, 0.5), (QList<double>{0.5, 1, 2, 4, 5, 5}));
    const BackoffConfig floor = readTenacity("wrapper", QJsonObject{{QStringLiteral("wait"), QStringLiteral("wait_random_exponential")},
                                                                    {QStringLiteral("min"), 1},
                                                                    {QStringLiteral("max"), 10}});
    QCOMPARE(waitsS(floor, 6, 0.5), (QList<double>{1, 1.5, 2.5, 4.5, 5.5, 5.5}));
}

void TestTenacity::unknownWaitRefused()
{
    QString error;
    readTenacity("wrapper", QJsonObject{{QStringLiteral("wait"), QStringLiteral("wait_fixed")}}, &error);
    QVERIFY(error.contains(QLatin1String("client.wrapper.backoff.tenacity.wait")));
    QVERIFY(error.contains(QLatin1String("wait_random_exponential")));
}

void TestTenacity::decorrelatedIsTheAwsFormula()
{
    // The name says whose formula, "awsDecorrelated"; files written before ("decorrelated") still load.
    Scenario s;
    const ScenarioParse old = scenario::withSet(s, QStringLiteral("client.business.backoff.jitter=decorrelated"));
    QVERIFY2(old.ok(), qPrintable(old.errors.join(QLatin1Char('\n'))));
    QCOMPARE(old.scenario.client.business.backoff.jitter, Jitter::AwsDecorrelated);
    QCOMPARE(scenario::toString(Jitter::AwsDecorrelated), QStringLiteral("awsDecorrelated"));
    const QByteArray written = QJsonDocument(old.scenario.toJson()).toJson();
    QVERIFY(written.contains("\"awsDecorrelated\""));
    QVERIFY(!written.contains("\"decorrelated\""));
    const ScenarioParse unknown = scenario::withSet(s, QStringLiteral("client.business.backoff.jitter=decorelated"));
    QVERIFY(!unknown.ok());
    QVERIFY(unknown.errors.first().contains(QLatin1String("awsDecorrelated")));
    // min(cap, U(base, 3 x previous)): base 1 s, cap 8 s, previous 2 s, draw 0.5 -> 1 + 0.5 x 5 = 3.5 s;
    // previous 4 s, draw 0.75 -> min(8, 1 + 0.75 x 11) = 8 s.
    BackoffConfig b{BackoffKind::Exponential, 1000, 2.0, 8000, Jitter::AwsDecorrelated};
    QCOMPARE(policy::backoffUs(b, 3, 2000000, 0.5), qint64(3500000));
    QCOMPARE(policy::backoffUs(b, 4, 4000000, 0.75), qint64(8000000));
}

QTEST_GUILESS_MAIN(TestTenacity)
#include "tst_tenacity.moc"
