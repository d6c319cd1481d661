// The normal draw's tabulated shortcut (faults::drawUs) against the formula alone
// (faults::normalUs): every draw must give the same microsecond, or a trace would change.
#include "faults.h"
#include "rng.h"

#include <QTest>

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

// p walked in steps of 2^-40 across the table's steps (1/2048 wide) and its edges at the central
// branch (0.02425, 0.97575): many draws land within a hair of a half microsecond, where only the
// formula can tell which way the time rounds.
void TestNormalDraw::shortcutEqualsFormulaNearEveryBoundary()
{
    QFETCH(Distribution, d);
    const double starts[] = {0.02425 - 1e-7, 0.25 - 1e-7, 0.5 - 1e-7, 1.0 / 2048 * 1500 - 1e-7, 0.97575 - 1e-7};
    int differ = 0;
    for (const double start : starts) {
        for (int i = 0; i < 400000; ++i) {
            const double p = start + i * (1.0 / 1099511627776.0);
            // As drawUs makes p: 53 bits and a half.
            const double drawn = pOf(quint64(p * 9007199254740992.0) << 11);
            const qint64 exact = faults::normalUs(d, drawn);
            const qint64 fast = faults::normalUsTabulated(d, drawn);
            if (fast != exact && ++differ <= 3)
                qWarning("p=%.17g: shortcut %lld, formula %lld", drawn, static_cast<long long>(fast),
                         static_cast<long long>(exact));
        }
    }
    QCOMPARE(differ, 0);
}

QTEST_GUILESS_MAIN(TestNormalDraw)
#include "tst_normaldraw.moc"
