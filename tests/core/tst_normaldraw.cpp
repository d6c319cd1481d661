// The normal draw's tabulated shortcut (faults::drawUs) against the formula alone
// (faults::normalUs): every draw must give the same microsecond, or a trace would change.
#include "faults.h"
#include "rng.h"

#include <QTest>

#include <cmath>

using namespace retrylab;

Q_DECLARE_METATYPE(retrylab::Distribution)

namespace {

Distribution normal(double mean, double sd)
{
    Distribution d;
    d.shape = DistributionShape::Normal;
    d.mean = mean;
    d.sd = sd;
    return d;
}

// The p drawUs makes of a stream's next number (its own words: "(0, 1): the quantile stays finite").
double pOf(quint64 next)
{
    return (double(next >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

} // namespace

class TestNormalDraw : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shortcutEqualsFormula_data();
    void shortcutEqualsFormula();
    void shortcutEqualsFormulaNearEveryBoundary_data();
    void shortcutEqualsFormulaNearEveryBoundary();
};

void TestNormalDraw::shortcutEqualsFormula_data()
{
    QTest::addColumn<Distribution>("d");
    // The AWS study's network (jitter-contention: mean 10 ms, sd 2 ms), a wide and a narrow one,
    // one whose absolute value folds often (mean 0), and a tiny sd where a microsecond is coarse.
    QTest::addRow("aws-network") << normal(10, 2);
    QTest::addRow("wide") << normal(100, 30);
    QTest::addRow("folded") << normal(0, 1);
    QTest::addRow("narrow") << normal(3, 0.05);
    QTest::addRow("tiny-sd") << normal(7, 0.0004);
}

// Two million draws of one stream each: drawUs equals the formula at the same p.
void TestNormalDraw::shortcutEqualsFormula()
{
    QFETCH(Distribution, d);
    RngStream a(42, RngStream::Network, {1, 2, 3});
    RngStream b(42, RngStream::Network, {1, 2, 3});
    int differ = 0;
    for (int i = 0; i < 2000000; ++i) {
        const qint64 fast = faults::drawUs(d, a);
        const double p = pOf(b.next());
        const qint64 exact = faults::normalUs(d, p);
        if (fast != exact && ++differ <= 3)
            qWarning("p=%.17g: drawUs %lld, formula %lld", p, static_cast<long long>(fast), static_cast<long long>(exact));
    }
    QCOMPARE(differ, 0);
}

void TestNormalDraw::shortcutEqualsFormulaNearEveryBoundary_data()
{
    shortcutEqualsFormula_data();
}

// Draws aimed at the rounding boundaries, where only the formula can tell which way a time rounds:
// for 400 times k + 0.5 microseconds across the central quantiles (0.03 .. 0.97), the p that
// gives it (by erfc, which the formula matches to about 1e-9) and 2,001 values of p around it,
// each moving the time by 1e-8 microseconds: both sides of the boundary, at any table step.
void TestNormalDraw::shortcutEqualsFormulaNearEveryBoundary()
{
    QFETCH(Distribution, d);
    int differ = 0;
    int tried = 0;
    for (int q = 0; q < 400; ++q) {
        // A time in the central quantiles (z from -1.9 to 1.9: p from about 0.03 to 0.97) and
        // the half microsecond nearest to it.
        const double x = d.mean + d.sd * (-1.9 + 3.8 * q / 399.0);
        const double boundaryUs = std::floor(std::fabs(x) * 1000) + 0.5;
        const double xStar = (x < 0 ? -boundaryUs : boundaryUs) / 1000;
        const double zStar = (xStar - d.mean) / d.sd;
        const double pStar = 0.5 * std::erfc(-zStar / std::sqrt(2.0));
        if (pStar <= 0.02425 || pStar >= 0.97575)
            continue;
        const double density = std::exp(-zStar * zStar / 2) / std::sqrt(2 * 3.14159265358979323846);
        const double step = 1e-8 / (1000 * d.sd / density); // dp moving the time by 1e-8 us
        for (int j = -1000; j <= 1000; ++j) {
            const double p = pStar + j * step;
            ++tried;
            const qint64 exact = faults::normalUs(d, p);
            const qint64 fast = faults::normalUsTabulated(d, p);
            if (fast != exact && ++differ <= 3)
                qWarning("p=%.17g: shortcut %lld, formula %lld", p, static_cast<long long>(fast),
                         static_cast<long long>(exact));
        }
    }
    QVERIFY(tried > 100000);
    QCOMPARE(differ, 0);
}

QTEST_GUILESS_MAIN(TestNormalDraw)
#include "tst_normaldraw.moc"
