// Parameter sweeps: job generation, validation, aggregation, determinism and cancel.
#include "sweep.h"
#include "testsupport.h"
#include "work.h"

#include <QFutureWatcher>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>

using namespace retrylab;

Q_DECLARE_METATYPE(SweepSpec)

namespace {

// Small and quick, with lost responses so that seeds actually differ.
Scenario base()
{
    Scenario s;
    s.name = QStringLiteral("sweep-test");
    s.seed = 100;
    s.workload.orders = 10;
    s.network.responseLoss = 0.3;
    return s;
}

SweepSpec spec(const char *param, double from, double to, int steps, int seeds)
{
    SweepSpec sp;
    sp.param = QLatin1String(param);
    sp.from = from;
    sp.to = to;
    sp.steps = steps;
    sp.seeds = seeds;
    return sp;
}

Metrics metricsWith(int duplicates, double amplification, int records)
{
    Metrics m;
    m.duplicates = duplicates;
    m.amplification = amplification;
    m.records = records;
    return m;
}

SweepJob job(int point, double value)
{
    auto cell = std::make_shared<SweepCell>();
    cell->point = point;
    cell->value = value;
    return SweepJob{cell, 0};
}

bool sameStats(const QList<SweepPoint> &a, const QList<SweepPoint> &b)
{
    if (a.size() != b.size())
        return false;
    for (int i = 0; i < a.size(); ++i) {
        if (a[i].value != b[i].value || a[i].stats.size() != b[i].stats.size())
            return false;
        for (int m = 0; m < a[i].stats.size(); ++m) {
            const SweepStat &x = a[i].stats[m].second;
            const SweepStat &y = b[i].stats[m].second;
            if (a[i].stats[m].first != b[i].stats[m].first || x.mean != y.mean || x.min != y.min || x.max != y.max
                || x.sd != y.sd)
                return false;
        }
    }
    return true;
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitValuesKeepsJson();
    void groupPathTakesObjects();
    void jobValues_data();
    void jobValues();
    void jobSeedsAndScenarios();
    void realFieldAtAWholeValueStaysReal_data();
    void realFieldAtAWholeValueStaysReal();
    void validateErrors_data();
    void validateErrors();
    void validateAcceptsGoodSpec();
    void aggregateMath();
    void aggregateIgnoresMissingResults();
    void runIsDeterministic();
    void runMatchesSequentialJobs();
    void startCanBeCancelled();
    void validateRefusesWrappingSeeds_data();
    void validateRefusesWrappingSeeds();
    void validateRefusesValuesNobodyTyped_data();
    void validateRefusesValuesNobodyTyped();
    void estimateIsTheWorstRun();
    void estimateNamesBothValues();
    void runCountIsCapped_data();
    void runCountIsCapped();
    void categoricalValuesApplied();
    void categoricalInvalidValueRefused_data();
    void categoricalInvalidValueRefused();
    void valueFromTextReadsJsonElseString();
    void twoDCellsCountAndOrder();
    void twoDRunFillsEveryCell();
    void sampleSdByHand();
    void foldedMatchesAggregate();
    // Issue 23 item 4: what a sweep will cost, said before it starts.
    void costIsExactForSmallCells();
    void costScalesAPilotAndStaysUnderTheWorstCase();
    void countAtLeastRoundsUp_data();
    void countAtLeastRoundsUp();
    void countsForPeople_data();
    void countsForPeople();
    void durationTextBoundaries_data();
    void durationTextBoundaries();
    void costRefusalSaysTimeAndFlag();
    void progressTextHasAnEta();
    void cancelledFoldKeepsAPrefix();
    // Item 5: shards.
    void parseShard_data();
    void parseShard();
    void shardsPartitionThePoints();
    void shardedJobsRunWholePoints();
};

void TestSweep::jobValues_data()
{
    QTest::addColumn<QString>("param");
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<int>("steps");
    QTest::addColumn<QList<double>>("expected");

    QTest::addRow("double-five-points") << QStringLiteral("network.responseLoss") << 0.0 << 0.4 << 5
                                        << QList<double>{0.0, 0.1, 0.2, 0.3, 0.4};
    QTest::addRow("double-descending") << QStringLiteral("network.responseLoss") << 0.5 << 0.1 << 3
                                       << QList<double>{0.5, 0.3, 0.1};
    QTest::addRow("single-step-is-from") << QStringLiteral("network.responseLoss") << 0.25 << 0.9 << 1
                                         << QList<double>{0.25};
    QTest::addRow("integer-rounded") << QStringLiteral("workload.orders") << 1.0 << 4.0 << 3
                                     << QList<double>{1.0, 3.0, 4.0};
    QTest::addRow("integer-fractional-bounds") << QStringLiteral("client.business.maxAttempts") << 1.4 << 3.6 << 4
                                               << QList<double>{1.0, 2.0, 3.0, 4.0};
}

void TestSweep::jobValues()
{
    QFETCH(QString, param);
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(int, steps);
    QFETCH(QList<double>, expected);

    SweepSpec sp = spec("", from, to, steps, 2);
    sp.param = param;
    const QList<SweepJob> all = sweep::jobs(base(), sp);
    QCOMPARE(all.size(), steps * 2);
    for (int i = 0; i < all.size(); ++i) {
        const int point = i / 2;
        QCOMPARE(all[i].point(), point);
        QVERIFY2(qAbs(all[i].cell->value - expected[point]) < 1e-9,
                 qPrintable(QStringLiteral("point %1: %2 != %3").arg(point).arg(all[i].cell->value).arg(expected[point])));
        // The value really lands in the job's scenario.
        QVERIFY(qAbs(scenario::valueAt(all[i].scenario(), param).toDouble() - expected[point]) < 1e-9);
    }
}

// A real field whose value is whole (retry-storm's network.responseLoss is 0) is still swept in
// real steps: its type comes from the field table, not from the JSON type its value reads back as
// (0.0 written is 0, an integer: the range 0..0.5 in 6 steps was swept as 0, 0, 0, 0, 0, 1).
void TestSweep::realFieldAtAWholeValueStaysReal_data()
{
    QTest::addColumn<double>("baseLoss");
    QTest::addRow("zero") << 0.0;
    QTest::addRow("one") << 1.0;
    QTest::addRow("fraction") << 0.3;
}

void TestSweep::realFieldAtAWholeValueStaysReal()
{
    QFETCH(double, baseLoss);
    Scenario b = base();
    b.network.responseLoss = baseLoss;
    const QList<SweepJob> all = sweep::jobs(b, spec("network.responseLoss", 0, 0.5, 6, 1));
    QCOMPARE(all.size(), 6);
    for (int i = 0; i < all.size(); ++i) {
        QVERIFY2(qAbs(all[i].cell->value - 0.1 * i) < 1e-9, qPrintable(QString::number(all[i].cell->value)));
        QVERIFY(qAbs(all[i].scenario().network.responseLoss - 0.1 * i) < 1e-9);
    }
    // The preset that showed it, through the same path as the window's sweep and the CLI.
    const QList<SweepJob> storm = sweep::jobs(test::presetScenario(QStringLiteral("retry-storm")),
                                              spec("network.responseLoss", 0, 0.5, 6, 1));
    QCOMPARE(storm.size(), 6);
    QVERIFY(qAbs(storm[1].scenario().network.responseLoss - 0.1) < 1e-9);
    QVERIFY(qAbs(storm[5].scenario().network.responseLoss - 0.5) < 1e-9);
    // An integer field at the same time still takes whole values.
    const QList<SweepJob> ints = sweep::jobs(b, spec("workload.orders", 1, 2, 3, 1));
    QCOMPARE(ints[1].scenario().workload.orders, 2); // 1.5 rounds half away from zero
}

void TestSweep::jobSeedsAndScenarios()
{
    const Scenario b = base();
    const QList<SweepJob> all = sweep::jobs(b, spec("client.business.maxAttempts", 2, 5, 4, 3));
    QCOMPARE(all.size(), 12);
    for (int i = 0; i < all.size(); ++i) {
        QCOMPARE(all[i].scenario().seed, b.seed + quint64(i % 3));
        QCOMPARE(all[i].scenario().client.business.maxAttempts, 2 + i / 3);
        // Everything else is left as it was.
        QCOMPARE(all[i].scenario().workload.orders, b.workload.orders);
        QCOMPARE(all[i].scenario().network.responseLoss, b.network.responseLoss);
        // The seeds of one cell share its scenario: no copy per job.
        QCOMPARE(all[i].cell.get(), all[i - i % 3].cell.get());
    }
}

void TestSweep::validateErrors_data()
{
    QTest::addColumn<SweepSpec>("sp");
    QTest::addColumn<QString>("needle");

    QTest::addRow("empty-param") << spec("", 0, 1, 3, 1) << QStringLiteral("--param");
    QTest::addRow("unknown-param") << spec("network.noSuchField", 0, 1, 3, 1) << QStringLiteral("network.noSuchField");
    QTest::addRow("boolean-param") << spec("client.requestId", 0, 1, 3, 1) << QStringLiteral("client.requestId");
    QTest::addRow("string-param") << spec("client.keyPlacement", 0, 1, 3, 1) << QStringLiteral("client.keyPlacement");
    QTest::addRow("object-param") << spec("client.business", 0, 1, 3, 1) << QStringLiteral("client.business");
    QTest::addRow("seed-param") << spec("seed", 1, 5, 3, 1) << QStringLiteral("--seeds");
    QTest::addRow("steps-zero") << spec("network.responseLoss", 0, 1, 0, 1) << QStringLiteral("--steps");
    QTest::addRow("steps-too-many") << spec("network.responseLoss", 0, 1, 1001, 1) << QStringLiteral("--steps");
    QTest::addRow("seeds-zero") << spec("network.responseLoss", 0, 1, 3, 0) << QStringLiteral("--seeds");
    QTest::addRow("seeds-too-many") << spec("network.responseLoss", 0, 1, 3, 10001) << QStringLiteral("--seeds");
    QTest::addRow("value-out-of-range") << spec("network.responseLoss", 0, 1.5, 4, 1)
                                        << QStringLiteral("network.responseLoss");
    QTest::addRow("negative-integer") << spec("workload.orders", -5, 10, 3, 1) << QStringLiteral("workload.orders");
    QTest::addRow("not-finite") << spec("network.responseLoss", 0, qInf(), 3, 1) << QStringLiteral("--to");
}

void TestSweep::validateErrors()
{
    QFETCH(SweepSpec, sp);
    QFETCH(QString, needle);
    const QStringList errors = sweep::validate(base(), sp);
    QVERIFY2(!errors.isEmpty(), "expected an error");
    QVERIFY2(errors.join(QLatin1Char('\n')).contains(needle), qPrintable(errors.join(QLatin1Char('\n'))));
}

void TestSweep::validateAcceptsGoodSpec()
{
    QCOMPARE(sweep::validate(base(), spec("network.responseLoss", 0, 1, 11, 5)), QStringList());
    QCOMPARE(sweep::validate(base(), spec("workload.orders", 1, 50, 1000, 1)), QStringList());
}

void TestSweep::aggregateMath()
{
    // Two points, three seeds each, deliberately interleaved to check grouping by point.
    const QList<SweepJob> jobs{job(0, 0.1), job(1, 0.2), job(0, 0.1), job(1, 0.2), job(0, 0.1), job(1, 0.2)};
    const QList<Metrics> results{metricsWith(1, 1.5, 11), metricsWith(10, 2.0, 30), metricsWith(2, 1.0, 12),
                                 metricsWith(20, 3.0, 40), metricsWith(6, 2.0, 16), metricsWith(30, 4.0, 50)};
    const QList<SweepPoint> points = sweep::aggregate(jobs, results);
    QCOMPARE(points.size(), 2);
    QCOMPARE(points[0].value, 0.1);
    QCOMPARE(points[1].value, 0.2);

    QCOMPARE(points[0].stat(QStringLiteral("duplicates")).mean, 3.0);
    QCOMPARE(points[0].stat(QStringLiteral("duplicates")).min, 1.0);
    QCOMPARE(points[0].stat(QStringLiteral("duplicates")).max, 6.0);
    QCOMPARE(points[0].stat(QStringLiteral("amplification")).mean, 1.5);
    QCOMPARE(points[0].stat(QStringLiteral("records")).max, 16.0);

    QCOMPARE(points[1].stat(QStringLiteral("duplicates")).mean, 20.0);
    QCOMPARE(points[1].stat(QStringLiteral("duplicates")).min, 10.0);
    QCOMPARE(points[1].stat(QStringLiteral("duplicates")).max, 30.0);
    QCOMPARE(points[1].stat(QStringLiteral("amplification")).mean, 3.0);
    QCOMPARE(points[1].stat(QStringLiteral("records")).min, 30.0);

    // Every metric of Metrics::flat() is there, in its order.
    const auto flat = Metrics().flat();
    QCOMPARE(points[0].stats.size(), flat.size());
    for (int i = 0; i < flat.size(); ++i)
        QCOMPARE(points[0].stats[i].first, flat[i].first);
}

void TestSweep::aggregateIgnoresMissingResults()
{
    // After a cancel, fewer results than jobs: the unfinished point is left out.
    const QList<SweepJob> jobs{job(0, 1), job(0, 1), job(1, 2), job(1, 2)};
    const QList<Metrics> results{metricsWith(4, 1, 1), metricsWith(8, 1, 1)};
    const QList<SweepPoint> points = sweep::aggregate(jobs, results);
    QCOMPARE(points.size(), 1);
    QCOMPARE(points[0].stat(QStringLiteral("duplicates")).mean, 6.0);
}

void TestSweep::runIsDeterministic()
{
    const SweepSpec sp = spec("network.responseLoss", 0, 0.6, 4, 6);
    const QList<SweepPoint> a = sweep::run(base(), sp);
    const QList<SweepPoint> b = sweep::run(base(), sp);
    QCOMPARE(a.size(), 4);
    QVERIFY(sameStats(a, b));
    // More loss, more duplicates on average: the sweep really varied the parameter.
    QCOMPARE(a.first().stat(QStringLiteral("duplicates")).max, 0.0);
    QVERIFY(a.last().stat(QStringLiteral("duplicates")).mean > 0);
    // The seeds differ, so the spread at a lossy point is not collapsed to one run.
    const SweepStat lossy = a.last().stat(QStringLiteral("httpAttempts"));
    QVERIFY(lossy.min <= lossy.mean && lossy.mean <= lossy.max);
    QVERIFY(lossy.min < lossy.max);
}

void TestSweep::runMatchesSequentialJobs()
{
    const Scenario b = base();
    const SweepSpec sp = spec("client.wrapper.maxAttempts", 1, 4, 4, 3);
    const QList<SweepJob> all = sweep::jobs(b, sp);
    QList<Metrics> results;
    for (const SweepJob &j : all)
        results << sweep::runJob(j);
    QVERIFY(sameStats(sweep::run(b, sp), sweep::aggregate(all, results)));
}

void TestSweep::startCanBeCancelled()
{
    Scenario heavy = base();
    heavy.workload.orders = 2000;
    const QList<SweepJob> all = sweep::jobs(heavy, spec("network.responseLoss", 0, 0.5, 20, 20));
    QCOMPARE(all.size(), 400);

    QFuture<Metrics> future = sweep::start(all);
    QFutureWatcher<Metrics> watcher;
    QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
    watcher.setFuture(future);
    future.cancel();
    QVERIFY(finished.count() > 0 || finished.wait(60000));
    QVERIFY(future.isCanceled());
    QVERIFY2(future.resultCount() < all.size(),
             qPrintable(QStringLiteral("%1 of %2 ran after cancel").arg(future.resultCount()).arg(all.size())));
}

void TestSweep::validateRefusesWrappingSeeds_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("seeds");
    QTest::addColumn<bool>("ok");
    const quint64 max = std::numeric_limits<quint64>::max();
    QTest::addRow("last-seed-alone") << max << 1 << true;
    QTest::addRow("last-three-seeds") << max - 2 << 3 << true;
    QTest::addRow("one-past-the-end") << max - 1 << 3 << false;
    QTest::addRow("issue-example") << max << 3 << false;
    QTest::addRow("many-seeds") << max - 9998 << 10000 << false;
}

void TestSweep::validateRefusesWrappingSeeds()
{
    QFETCH(quint64, seed);
    QFETCH(int, seeds);
    QFETCH(bool, ok);
    Scenario s = base();
    s.seed = seed;
    const QStringList errors = sweep::validate(s, spec("network.responseLoss", 0, 0.5, 2, seeds));
    if (ok) {
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        const QList<SweepJob> all = sweep::jobs(s, spec("network.responseLoss", 0, 0.5, 2, seeds));
        QCOMPARE(all.last().scenario().seed, std::numeric_limits<quint64>::max());
    } else {
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().startsWith(QLatin1String("--seed/--seeds: ")), qPrintable(errors.first()));
    }
}

void TestSweep::validateRefusesValuesNobodyTyped_data()
{
    QTest::addColumn<SweepSpec>("sweepSpec");
    QTest::addColumn<QString>("flag");
    QTest::addRow("range-overflows-double") << spec("network.responseLoss", -1e308, 1e308, 5, 1)
                                            << QStringLiteral("--from/--to: ");
    QTest::addRow("integer-to-beyond-2-63") << spec("workload.orders", 1, 1e19, 5, 1) << QStringLiteral("--to: ");
    QTest::addRow("integer-from-far-below") << spec("workload.orders", -1e300, 5, 5, 1) << QStringLiteral("--from: ");
    QTest::addRow("integer-just-past-2-53") << spec("workload.orders", 1, 9007199254740994.0, 2, 1)
                                            << QStringLiteral("--to: ");
}

void TestSweep::validateRefusesValuesNobodyTyped()
{
    QFETCH(SweepSpec, sweepSpec);
    QFETCH(QString, flag);
    const QStringList errors = sweep::validate(base(), sweepSpec);
    QVERIFY(!errors.isEmpty());
    QVERIFY2(errors.first().startsWith(flag), qPrintable(errors.join(QLatin1Char('\n'))));
    for (const QString &error : errors) {
        for (const char *junk : {"nan", "inf", "e+18", "9223372036854775807", "-9223372036854775808"})
            QVERIFY2(!error.contains(QLatin1String(junk)), qPrintable(error));
    }
}

void TestSweep::estimateIsTheWorstRun()
{
    Scenario s = base(); // default client: 3 x 3 attempts at worst
    // 10, 20 and 30 orders: the work limit applies to one run, the biggest: 30 x 9.
    const work::Estimate orders = sweep::estimate(s, spec("workload.orders", 10, 30, 3, 2));
    QCOMPARE(orders.attempts, qint64(270));
    QVERIFY2(orders.drivers.startsWith(QLatin1String("at workload.orders=30: workload.orders 30 x")),
             qPrintable(orders.drivers));
    // A swept rate does not change the worst case, nor does the number of seeds: 10 x 9.
    QCOMPARE(sweep::estimate(s, spec("network.responseLoss", 0, 0.6, 4, 5)).attempts, qint64(90));
    QCOMPARE(sweep::estimate(s, spec("network.responseLoss", 0, 0.6, 4, 5000)).attempts, qint64(90));
    // The swept layer at its largest value counts: 5 business attempts x 3 wrapper attempts x 10 orders.
    QCOMPARE(sweep::estimate(s, spec("client.business.maxAttempts", 1, 5, 5, 1)).attempts, qint64(150));
    // Unlimited attempts bounded by a deadline: each run is big on paper, but a sweep of many of
    // them is judged run by run, not by their sum.
    s.client.business.maxAttempts = 0;
    s.client.business.deadlineMs = 1000;
    const qint64 one = work::estimate(s).attempts;
    QCOMPARE(sweep::estimate(s, spec("network.responseLoss", 0, 0.5, 10, 10000)).attempts, one);
}

void TestSweep::estimateNamesBothValues()
{
    SweepSpec sp = spec("workload.orders", 10, 30, 3, 2);
    sp.param2 = QStringLiteral("client.wrapper.maxAttempts");
    sp.values2 = QStringList{QStringLiteral("1"), QStringLiteral("4"), QStringLiteral("2")};
    const work::Estimate worst = sweep::estimate(base(), sp);
    QCOMPARE(worst.attempts, qint64(30 * 3 * 4));
    QVERIFY2(worst.drivers.startsWith(QLatin1String("at workload.orders=30, client.wrapper.maxAttempts=4: ")),
             qPrintable(worst.drivers));
}

void TestSweep::runCountIsCapped_data()
{
    QTest::addColumn<SweepSpec>("sweepSpec");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::addRow("1d-at-the-cap") << spec("network.responseLoss", 0, 0.5, 100, 10000) << QString();
    QTest::addRow("1d-one-run-over") << spec("network.responseLoss", 0, 0.5, 101, 9901)
                                     << QStringLiteral("--steps x --seeds: at most 1000000 runs per sweep, got 101 x 9901 = 1000001");
    SweepSpec at = spec("network.responseLoss", 0, 0.5, 10, 10000);
    at.param2 = QStringLiteral("client.keyPlacement");
    at.values2 = QStringList(10, QStringLiteral("perOperation"));
    QTest::addRow("2d-at-the-cap") << at << QString();
    SweepSpec over = at;
    over.values2 << QStringLiteral("none");
    QTest::addRow("2d-one-value-over") << over
                                       << QStringLiteral("--steps x --values2 x --seeds: at most 1000000 runs per sweep, "
                                                         "got 10 x 11 x 10000 = 1100000");
    SweepSpec cells = spec("network.responseLoss", 0, 0.5, 101, 1);
    cells.param2 = QStringLiteral("workload.orders");
    cells.from2 = 1;
    cells.to2 = 100;
    cells.steps2 = 100;
    QTest::addRow("2d-too-many-cells") << cells
                                       << QStringLiteral("--steps x --steps2: at most 10000 cells per sweep, got 101 x 100");
}

void TestSweep::runCountIsCapped()
{
    QFETCH(SweepSpec, sweepSpec);
    QFETCH(QString, error);
    const QStringList errors = sweep::validate(base(), sweepSpec);
    if (error.isEmpty()) {
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    } else {
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().startsWith(error), qPrintable(errors.first()));
    }
}

namespace {
// Lost responses and business retries with a long backoff: the jitter decides when retries go.
Scenario jitterScenario()
{
    Scenario s = base();
    s.workload.orders = 30;
    s.network.responseLoss = 0.5;
    s.client.business.maxAttempts = 4;
    s.client.business.backoff = {BackoffKind::Exponential, 500, 2.0, 8000, Jitter::None};
    return s;
}
} // namespace

void TestSweep::categoricalValuesApplied()
{
    SweepSpec sp = spec("client.business.backoff.jitter", 0, 0, 1, 5);
    sp.values = QStringList{QStringLiteral("none"), QStringLiteral(" full")};
    const Scenario s = jitterScenario();
    QCOMPARE(sweep::validate(s, sp), QStringList());
    const QList<SweepJob> all = sweep::jobs(s, sp);
    QCOMPARE(all.size(), 10);
    QCOMPARE(all.first().scenario().client.business.backoff.jitter, Jitter::None);
    QCOMPARE(all.last().scenario().client.business.backoff.jitter, Jitter::Full);

    const QList<SweepPoint> points = sweep::run(s, sp);
    QCOMPARE(points.size(), 2);
    // A value that is not a number: its index, and its text (trimmed) as the label.
    QCOMPARE(points[0].value, 0.0);
    QCOMPARE(points[0].label, QStringLiteral("none"));
    QCOMPARE(points[1].value, 1.0);
    QCOMPARE(points[1].label, QStringLiteral("full"));
    // Full jitter waits less on average than no jitter: the runs end sooner.
    const double none = points[0].stat(QStringLiteral("latencyP99Ms")).mean;
    const double full = points[1].stat(QStringLiteral("latencyP99Ms")).mean;
    QVERIFY2(full < none, qPrintable(QStringLiteral("none %1, full %2").arg(none).arg(full)));

    // Booleans and numbers from --values alike.
    SweepSpec flags = spec("client.requestId", 0, 0, 1, 1);
    flags.values = QStringList{QStringLiteral("false"), QStringLiteral("true")};
    const QList<SweepJob> flagJobs = sweep::jobs(base(), flags);
    QCOMPARE(flagJobs.size(), 2);
    QCOMPARE(flagJobs[0].scenario().client.requestId, false);
    QCOMPARE(flagJobs[1].scenario().client.requestId, true);
    SweepSpec numbers = spec("workload.orders", 0, 0, 1, 1);
    numbers.values = QStringList{QStringLiteral("7"), QStringLiteral("3")};
    const QList<SweepJob> numberJobs = sweep::jobs(base(), numbers);
    QCOMPARE(numberJobs[0].scenario().workload.orders, 7);
    QCOMPARE(numberJobs[1].scenario().workload.orders, 3);
    QCOMPARE(numberJobs[1].cell->value, 3.0); // a number keeps its value, not its index
}

void TestSweep::categoricalInvalidValueRefused_data()
{
    QTest::addColumn<QString>("param");
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<bool>("second");
    QTest::addColumn<QString>("needle");
    QTest::addRow("unknown-jitter") << QStringLiteral("client.business.backoff.jitter")
                                    << QStringList{QStringLiteral("none"), QStringLiteral("sometimes")} << false
                                    << QStringLiteral("--values client.business.backoff.jitter=sometimes: ");
    QTest::addRow("unknown-jitter-second") << QStringLiteral("client.business.backoff.jitter")
                                           << QStringList{QStringLiteral("sometimes")} << true
                                           << QStringLiteral("--values2 client.business.backoff.jitter=sometimes: ");
    QTest::addRow("word-for-a-number") << QStringLiteral("workload.orders") << QStringList{QStringLiteral("many")}
                                       << false << QStringLiteral("--values workload.orders=many: ");
    QTest::addRow("empty-value") << QStringLiteral("client.keyPlacement")
                                 << QStringList{QStringLiteral("none"), QString()} << false
                                 << QStringLiteral("--values: an empty value");
    QTest::addRow("group-of-fields") << QStringLiteral("client.business") << QStringList{QStringLiteral("1")} << false
                                     << QStringLiteral("--param: \"client.business\" is a group of fields");
}

void TestSweep::categoricalInvalidValueRefused()
{
    QFETCH(QString, param);
    QFETCH(QStringList, values);
    QFETCH(bool, second);
    QFETCH(QString, needle);
    SweepSpec sp = spec("network.responseLoss", 0, 0.5, 2, 1);
    if (second) {
        sp.param2 = param;
        sp.values2 = values;
    } else {
        sp.param = param;
        sp.values = values;
    }
    const QStringList errors = sweep::validate(base(), sp);
    QVERIFY(!errors.isEmpty());
    QVERIFY2(errors.first().startsWith(needle), qPrintable(errors.join(QLatin1Char('\n'))));
}

void TestSweep::valueFromTextReadsJsonElseString()
{
    QCOMPARE(sweep::valueFromText(QStringLiteral("3")), QJsonValue(3));
    QCOMPARE(sweep::valueFromText(QStringLiteral("0.25")), QJsonValue(0.25));
    QCOMPARE(sweep::valueFromText(QStringLiteral("true")), QJsonValue(true));
    QCOMPARE(sweep::valueFromText(QStringLiteral("full")), QJsonValue(QStringLiteral("full")));
    QCOMPARE(sweep::valueFromText(QStringLiteral("\"full\"")), QJsonValue(QStringLiteral("full")));
}

void TestSweep::twoDCellsCountAndOrder()
{
    SweepSpec sp = spec("workload.orders", 2, 6, 3, 2);
    sp.param2 = QStringLiteral("client.keyPlacement");
    sp.values2 = QStringList{QStringLiteral("none"), QStringLiteral("perOperation")};
    QCOMPARE(sweep::validate(base(), sp), QStringList());
    const QList<SweepCell> cells = sweep::cells(base(), sp);
    QCOMPARE(cells.size(), 6);
    // The first parameter outer, the second inner.
    const int orders[] = {2, 2, 4, 4, 6, 6};
    for (int i = 0; i < cells.size(); ++i) {
        QCOMPARE(cells[i].point, i);
        QCOMPARE(cells[i].value, double(orders[i]));
        QCOMPARE(cells[i].label, QString::number(orders[i]));
        QCOMPARE(cells[i].value2, double(i % 2));
        QCOMPARE(cells[i].label2, i % 2 ? QStringLiteral("perOperation") : QStringLiteral("none"));
        QCOMPARE(cells[i].scenario.workload.orders, orders[i]);
        QCOMPARE(cells[i].scenario.client.keyPlacement, i % 2 ? KeyPlacement::PerOperation : KeyPlacement::None);
    }
    const QList<SweepJob> all = sweep::jobs(base(), sp);
    QCOMPARE(all.size(), 12);
    for (int i = 0; i < all.size(); ++i) {
        QCOMPARE(all[i].point(), i / 2);
        QCOMPARE(all[i].seed, base().seed + quint64(i % 2));
    }
}

void TestSweep::twoDRunFillsEveryCell()
{
    SweepSpec sp = spec("network.responseLoss", 0, 0.5, 2, 3);
    sp.param2 = QStringLiteral("client.wrapper.maxAttempts");
    sp.from2 = 1;
    sp.to2 = 3;
    sp.steps2 = 3;
    const QList<SweepPoint> points = sweep::run(base(), sp);
    QCOMPARE(points.size(), 6);
    for (int i = 0; i < points.size(); ++i) {
        QCOMPARE(points[i].value, i < 3 ? 0.0 : 0.5);
        QCOMPARE(points[i].value2, double(1 + i % 3));
        QCOMPARE(points[i].label2, QString::number(1 + i % 3));
    }
    // No loss: no retries whatever the wrapper allows; with loss, more wrapper attempts, more HTTP attempts.
    QCOMPARE(points[0].stat(QStringLiteral("httpAttempts")).mean, points[2].stat(QStringLiteral("httpAttempts")).mean);
    QVERIFY(points[5].stat(QStringLiteral("httpAttempts")).mean > points[3].stat(QStringLiteral("httpAttempts")).mean);
}

void TestSweep::sampleSdByHand()
{
    // One point, three seeds: duplicates 1, 2, 6 -> mean 3, sample sd sqrt(((1-3)^2 + (2-3)^2 + (6-3)^2) / 2) = sqrt(7).
    const SweepJob j = job(0, 0.1);
    const QList<SweepJob> jobs{j, j, j};
    const QList<Metrics> results{metricsWith(1, 1.5, 11), metricsWith(2, 1.0, 12), metricsWith(6, 2.0, 16)};
    const QList<SweepPoint> points = sweep::aggregate(jobs, results);
    QCOMPARE(points.size(), 1);
    const SweepStat d = points[0].stat(QStringLiteral("duplicates"));
    QCOMPARE(d.mean, 3.0);
    QVERIFY2(qAbs(d.sd - std::sqrt(7.0)) < 1e-12, qPrintable(QString::number(d.sd, 'g', 17)));
    // amplification 1.5, 1.0, 2.0: mean 1.5, sd sqrt((0 + 0.25 + 0.25) / 2) = 0.5.
    QVERIFY(qAbs(points[0].stat(QStringLiteral("amplification")).sd - 0.5) < 1e-12);
    // A metric that never varies has sd 0; one seed alone has sd 0.
    QCOMPARE(points[0].stat(QStringLiteral("orphans")).sd, 0.0);
    const QList<SweepPoint> single = sweep::aggregate({j}, {metricsWith(5, 1, 1)});
    QCOMPARE(single[0].stat(QStringLiteral("duplicates")).sd, 0.0);
}

void TestSweep::foldedMatchesAggregate()
{
    SweepSpec sp = spec("network.responseLoss", 0.1, 0.4, 3, 4);
    sp.param2 = QStringLiteral("client.business.backoff.jitter");
    sp.values2 = QStringList{QStringLiteral("none"), QStringLiteral("full")};
    const Scenario s = jitterScenario();
    const QList<SweepJob> all = sweep::jobs(s, sp);
    QFuture<SweepAccumulator> future = sweep::startFolded(all);
    future.waitForFinished();
    QList<Metrics> results;
    for (const SweepJob &j : all)
        results << sweep::runJob(j);
    QVERIFY(sameStats(future.result().points(), sweep::aggregate(all, results)));
}

void TestSweep::splitValuesKeepsJson()
{
    QCOMPARE(sweep::splitValues(QStringLiteral("none,full")), (QStringList{QStringLiteral("none"), QStringLiteral("full")}));
    QCOMPARE(sweep::splitValues(QStringLiteral("{\"kind\":\"constant\",\"initialMs\":0},{\"jitter\":\"full\"}")),
             (QStringList{QStringLiteral("{\"kind\":\"constant\",\"initialMs\":0}"), QStringLiteral("{\"jitter\":\"full\"}")}));
    QCOMPARE(sweep::splitValues(QStringLiteral("[1,2],\"a,b\",3")),
             (QStringList{QStringLiteral("[1,2]"), QStringLiteral("\"a,b\""), QStringLiteral("3")}));
    QCOMPARE(sweep::splitValues(QStringLiteral("\"a\\\",b\",c")), (QStringList{QStringLiteral("\"a\\\",b\""), QStringLiteral("c")}));
    QCOMPARE(sweep::splitValues(QStringLiteral("a,,b")).size(), 3); // the empty value is refused later
    const QString object = QStringLiteral("{\"kind\":\"constant\",\"initialMs\":0}");
    QCOMPARE(sweep::valueLabel(object, sweep::valueFromText(object)), QStringLiteral("initialMs 0, kind constant"));
    QCOMPARE(sweep::valueLabel(QStringLiteral("full"), sweep::valueFromText(QStringLiteral("full"))), QStringLiteral("full"));
}

void TestSweep::groupPathTakesObjects()
{
    // The AWS study's "no backoff" next to a jitter, as one second parameter.
    Scenario s = base();
    SweepSpec sp = spec("workload.orders", 5, 5, 1, 2);
    sp.param2 = QStringLiteral("client.business.backoff");
    sp.values2 = sweep::splitValues(QStringLiteral("{\"kind\":\"constant\",\"initialMs\":0},{\"jitter\":\"none\"}"));
    QVERIFY2(sweep::validate(s, sp).isEmpty(), qPrintable(sweep::validate(s, sp).join(QLatin1Char('\n'))));
    const QList<SweepJob> jobs = sweep::jobs(s, sp);
    QCOMPARE(jobs.size(), 4);
    QCOMPARE(jobs.at(0).scenario().client.business.backoff.kind, BackoffKind::Constant);
    QCOMPARE(jobs.at(0).scenario().client.business.backoff.initialMs, 0);
    // Names left out keep the scenario's values.
    QCOMPARE(jobs.at(0).scenario().client.business.backoff.maxMs, s.client.business.backoff.maxMs);
    QCOMPARE(jobs.at(2).scenario().client.business.backoff.kind, s.client.business.backoff.kind);
    QCOMPARE(jobs.at(2).scenario().client.business.backoff.jitter, Jitter::None);
    // A value's label is its members, or the name given for it.
    QCOMPARE(jobs.at(0).cell->label2, QStringLiteral("initialMs 0, kind constant"));
    sp.labels2 = QStringList{QStringLiteral("No backoff"), QStringLiteral(" Exponential ")};
    const QList<SweepJob> named = sweep::jobs(s, sp);
    QCOMPARE(named.at(0).cell->label2, QStringLiteral("No backoff"));
    QCOMPARE(named.at(2).cell->label2, QStringLiteral("Exponential"));
    sp.labels2.clear();
    // Plain values for a group are refused, naming the flag.
    sp.values2 = QStringList{QStringLiteral("1"), QStringLiteral("{\"jitter\":\"none\"}")};
    const QStringList errors = sweep::validate(s, sp);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.first().startsWith(QLatin1String("--param2: \"client.business.backoff\" is a group")), qPrintable(errors.first()));
}

void TestSweep::costIsExactForSmallCells()
{
    // Every cell has at most sweep::PilotOperations operations, there are at most
    // sweep::MaxPilotCells cells and one seed: the pilot IS the run, so the estimate is the
    // requests the sweep makes, exactly.
    const Scenario b = base();
    SweepSpec sp = spec("network.responseLoss", 0, 0.6, 4, 1);
    sp.param2 = QStringLiteral("client.queryBeforeRetry");
    sp.values2 = QStringList{QStringLiteral("false"), QStringLiteral("true")};
    QVERIFY(sweep::validate(b, sp).isEmpty());
    const QList<SweepJob> all = sweep::jobs(b, sp);
    qint64 made = 0;
    QList<qint64> perJob;
    for (const SweepJob &j : all) {
        const Metrics m = sweep::runJob(j);
        made += m.httpAttempts + m.queryAttempts; // status queries count: the budget counts them
        perJob << m.httpAttempts + m.queryAttempts;
    }
    const SweepCost cost = sweep::cost(b, sp, all);
    QCOMPARE(cost.runs, qint64(8));
    QCOMPARE(cost.pilotRuns, 8);
    QCOMPARE(cost.perJob, perJob);
    QCOMPARE(cost.expectedAttempts, made);
    QVERIFY(made > 80); // lossy cells and queries: not a trivial count
}

void TestSweep::costScalesAPilotAndStaysUnderTheWorstCase()
{
    // 20,000 orders: the pilot runs 1,000 and scales its requests per operation by 20.
    Scenario b = base();
    b.workload.orders = 20000;
    const SweepSpec sp = spec("network.responseLoss", 0.3, 0.3, 1, 1);
    const QList<SweepJob> all = sweep::jobs(b, sp);
    const SweepCost cost = sweep::cost(b, sp, all);
    QCOMPARE(cost.pilotRuns, 1);
    QVERIFY2(cost.pilotAttempts < 2000, qPrintable(QString::number(cost.pilotAttempts)));
    const Metrics m = sweep::runJob(all.first());
    const double actual = double(m.httpAttempts + m.queryAttempts);
    // Responses lost at 30%: ~1.43 attempts per order; a 1,000-order sample is within 5%.
    QVERIFY2(std::fabs(double(cost.expectedAttempts) - actual) < 0.05 * actual,
             qPrintable(QStringLiteral("%1 vs %2").arg(cost.expectedAttempts).arg(actual)));
    // Every request lost: the pilot's rate times the orders would pass the worst case's
    // product only by rounding; the estimate never passes it.
    b.network.responseLoss = 1;
    const QList<SweepJob> lost = sweep::jobs(b, spec("workload.orders", 20000, 20000, 1, 1));
    QCOMPARE(sweep::cost(b, spec("workload.orders", 20000, 20000, 1, 1), lost).expectedAttempts,
             work::estimate(lost.first().scenario()).attempts);
}

void TestSweep::countAtLeastRoundsUp_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<QString>("text");
    QTest::addRow("below-a-million-digits") << qint64(999999) << QStringLiteral("999999");
    QTest::addRow("exactly-a-million") << qint64(1000000) << QStringLiteral("1e6");
    QTest::addRow("one-over-a-million") << qint64(1000001) << QStringLiteral("1.1e6");
    QTest::addRow("issue-sweep") << qint64(286000000000) << QStringLiteral("2.9e11");
    QTest::addRow("rounds-up-to-ten") << qint64(9950000) << QStringLiteral("1e7");
    QTest::addRow("exact-two-digits") << qint64(99000000) << QStringLiteral("9.9e7");
    QTest::addRow("one-over-two-digits") << qint64(99000001) << QStringLiteral("1e8");
}

void TestSweep::countAtLeastRoundsUp()
{
    QFETCH(qint64, n);
    QFETCH(QString, text);
    QCOMPARE(sweep::countAtLeast(n), text);
    // What it says allows n: read back as --max-attempts reads it, it is n or more.
    QVERIFY(text.toDouble() >= double(n));
}

void TestSweep::countsForPeople_data()
{
    // The window's sweep status said "about 3e7 HTTP requests": people read digits, grouped the
    // way their language counts.
    QTest::addColumn<QString>("language");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<QString>("text");
    QTest::addRow("en-small") << QStringLiteral("en") << qint64(999) << QStringLiteral("999");
    QTest::addRow("en-thousand") << QStringLiteral("en") << qint64(1000) << QStringLiteral("1,000");
    QTest::addRow("en-window-sweep") << QStringLiteral("en") << qint64(30000000) << QStringLiteral("30,000,000");
    QTest::addRow("zh-below-wan") << QStringLiteral("zh_CN") << qint64(9999) << QStringLiteral("9999");
    QTest::addRow("zh-one-wan") << QStringLiteral("zh_CN") << qint64(10000) << QStringLiteral("1 \u4e07");
    QTest::addRow("zh-window-sweep") << QStringLiteral("zh_CN") << qint64(30000000) << QStringLiteral("3000 \u4e07");
    QTest::addRow("zh-four-digits") << QStringLiteral("zh_CN") << qint64(123456789) << QStringLiteral("1.235 \u4ebf");
    QTest::addRow("zh-rounds-into-yi") << QStringLiteral("zh_CN") << qint64(99996000) << QStringLiteral("1 \u4ebf");
    QTest::addRow("zh-last-wan") << QStringLiteral("zh_CN") << qint64(99994000) << QStringLiteral("9999 \u4e07");
    QTest::addRow("zh-issue-sweep") << QStringLiteral("zh_CN") << qint64(210000000000) << QStringLiteral("2100 \u4ebf");
    QTest::addRow("zh-wan-yi") << QStringLiteral("zh_CN") << qint64(3000000000000) << QStringLiteral("3 \u4e07\u4ebf");
}

void TestSweep::countsForPeople()
{
    QFETCH(QString, language);
    QFETCH(qint64, n);
    QFETCH(QString, text);
    QCOMPARE(work::formatCountForPeople(n, language), text);
}

void TestSweep::durationTextBoundaries_data()
{
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("text");
    QTest::addRow("under-a-second") << 0.999 << QStringLiteral("under a second");
    QTest::addRow("one-second") << 1.0 << QStringLiteral("about 1 s");
    QTest::addRow("last-seconds") << 89.4 << QStringLiteral("about 89 s");
    QTest::addRow("first-minutes") << 90.0 << QStringLiteral("about 2 min");
    QTest::addRow("last-minutes") << 5399.0 << QStringLiteral("about 90 min");
    QTest::addRow("first-hours") << 5400.0 << QStringLiteral("about 2 h");
    QTest::addRow("issue-28-hours") << 100000.0 << QStringLiteral("about 28 h");
    QTest::addRow("first-days") << 172800.0 << QStringLiteral("about 2 days");
}

void TestSweep::durationTextBoundaries()
{
    QFETCH(double, seconds);
    QFETCH(QString, text);
    QCOMPARE(sweep::durationText(seconds), text);
}

void TestSweep::costRefusalSaysTimeAndFlag()
{
    // The sweep: 1,000 values x 200 seeds of a 1e6-order ghost request, ~1.43e6 requests each.
    SweepCost cost;
    cost.runs = 200000;
    cost.expectedAttempts = qint64(200000) * 1430000;
    const QString text = sweep::costRefusal(cost, sweep::DefaultMaxTotalAttempts, 2.86e6);
    QCOMPARE(text, QStringLiteral("this sweep is expected to make about 2.9e11 HTTP requests (200000 runs, about 1.4e6 each), "
                                  "about 28 h at this machine's measured rate (2.9e6 requests/s); over the limit of 1e9: "
                                  "--max-attempts 2.9e11 to allow"));
    // Without a measured rate, no time.
    QVERIFY(!sweep::costRefusal(cost, 1000, 0).contains(QLatin1String(" h ")));
}

void TestSweep::progressTextHasAnEta()
{
    QCOMPARE(sweep::progressText(0, 100, 0, 0, 1000), QStringLiteral("sweep: 0/100 runs (0%)"));
    // Half the runs but a tenth of the work after 10 s: 90 s of work remain, not 10 s.
    QCOMPARE(sweep::progressText(50, 100, 10, 100, 1000), QStringLiteral("sweep: 50/100 runs (50%), about 2 min left"));
    QCOMPARE(sweep::progressText(100, 100, 10, 1000, 1000), QStringLiteral("sweep: 100/100 runs (100%)"));
}

void TestSweep::cancelledFoldKeepsAPrefix()
{
    Scenario heavy = base();
    heavy.workload.orders = 3000;
    const SweepSpec sp = spec("network.responseLoss", 0, 0.5, 30, 4);
    const QList<SweepJob> all = sweep::jobs(heavy, sp);
    auto into = std::make_shared<SweepAccumulator>();
    auto cancel = std::make_shared<std::atomic_bool>(false);
    QFuture<SweepFolded> future = sweep::startInto(all, into, cancel);
    QFutureWatcher<SweepFolded> watcher;
    QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
    // Cancel once a few runs are through, as Ctrl+C does.
    QObject::connect(&watcher, &QFutureWatcherBase::progressValueChanged, &watcher, [&](int done) {
        if (done >= 10 && !cancel->load()) {
            cancel->store(true);
            future.cancel();
        }
    });
    watcher.setFuture(future);
    QVERIFY(finished.count() > 0 || finished.wait(120000));
    QVERIFY(cancel->load());
    QVERIFY2(into->runs() < all.size(), qPrintable(QString::number(into->runs())));
    // The complete points are the first points of the whole sweep, number for number.
    const QList<SweepPoint> partial = into->completePoints(sp.seeds);
    QCOMPARE(partial.size(), into->runs() / sp.seeds);
    const QList<SweepPoint> whole = sweep::run(heavy, sp);
    QVERIFY(sameStats(partial, whole.mid(0, partial.size())));
}

void TestSweep::parseShard_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::addRow("third-of-seven") << QStringLiteral("3/7") << 3 << 7;
    QTest::addRow("whole") << QStringLiteral(" 1 / 1 ") << 1 << 1;
    QTest::addRow("last-of-most") << QStringLiteral("10000/10000") << 10000 << 10000;
    QTest::addRow("zero-k") << QStringLiteral("0/3") << 0 << 0;
    QTest::addRow("k-past-n") << QStringLiteral("4/3") << 0 << 0;
    QTest::addRow("zero-n") << QStringLiteral("1/0") << 0 << 0;
    QTest::addRow("n-past-most") << QStringLiteral("1/10001") << 0 << 0;
    QTest::addRow("no-slash") << QStringLiteral("3") << 0 << 0;
    QTest::addRow("words") << QStringLiteral("a/b") << 0 << 0;
    QTest::addRow("negative") << QStringLiteral("-1/3") << 0 << 0;
}

void TestSweep::parseShard()
{
    QFETCH(QString, text);
    QFETCH(int, k);
    QFETCH(int, n);
    SweepShard shard;
    QString error;
    QCOMPARE(sweep::parseShard(text, &shard, &error), k > 0);
    if (k > 0) {
        QCOMPARE(shard.index, k);
        QCOMPARE(shard.count, n);
    } else {
        QVERIFY2(error.startsWith(QLatin1String("--shard: expected K/N")) && error.contains(QLatin1String("got '")),
                 qPrintable(error));
    }
    // What it repeats is escaped.
    QVERIFY(!sweep::parseShard(QStringLiteral("\x1b[2J/1"), &shard, &error));
    QVERIFY2(error.contains(QLatin1String("\\u001b[2J/1")), qPrintable(error));
}

void TestSweep::shardsPartitionThePoints()
{
    for (const int total : {1, 10, 23}) {
        for (const int n : {1, 2, 3, 7, 30}) {
            QList<int> owner(total, 0);
            for (int k = 1; k <= n; ++k) {
                const SweepShard shard{k, n};
                int mine = 0;
                for (int i = 0; i < total; ++i) {
                    if (shard.contains(i)) {
                        ++owner[i];
                        ++mine;
                    }
                }
                QCOMPARE(shard.pointsOf(total), mine);
            }
            QCOMPARE(owner, QList<int>(total, 1)); // every point in exactly one shard
        }
    }
}

void TestSweep::shardedJobsRunWholePoints()
{
    const Scenario b = base();
    const SweepSpec sp = spec("network.responseLoss", 0, 0.5, 7, 3);
    const QList<SweepJob> whole = sweep::jobs(b, sp);
    const QList<SweepJob> second = sweep::jobs(b, sp, SweepShard{2, 3});
    QCOMPARE(second.size(), 2 * 3); // points 1 and 4, three seeds each
    QCOMPARE(second.at(0).point(), 1);
    QCOMPARE(second.at(3).point(), 4);
    for (int i = 0; i < second.size(); ++i) {
        QCOMPARE(second.at(i).index, qint64(i));
        QCOMPARE(second.at(i).seed, whole.at(second.at(i).point() * 3 + i % 3).seed);
    }
    // A shard's points are the whole sweep's, bit for bit.
    auto into = std::make_shared<SweepAccumulator>();
    QFuture<SweepFolded> future = sweep::startInto(second, into, std::make_shared<std::atomic_bool>(false));
    future.waitForFinished();
    const QList<SweepPoint> all = sweep::run(b, sp);
    QVERIFY(sameStats(into->points(), {all.at(1), all.at(4)}));
}

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
