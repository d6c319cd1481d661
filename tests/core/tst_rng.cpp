// The random streams' shortcuts give exactly the draws of the long way: an extended stream is the
// stream of the longer list, and a decided draw (probability 0 or 1) leaves the stream where a
// made draw would. Every trace depends on it (tst_golden); this names the broken piece.
#include "faults.h"
#include "rng.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace retrylab;

class TestRng : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void extendedEqualsTheLongerList();
    void belowEqualsTheDraw_data();
    void belowEqualsTheDraw();
    void attemptStreamFormsAgree();
};

void TestRng::extendedEqualsTheLongerList()
{
    for (quint64 id = 0; id < 20; ++id) {
        RngStream longWay(42, RngStream::Network, {7, 1, 2, 3, 4, id});
        RngStream shortWay = RngStream(42, RngStream::Network, {7, 1, 2, 3, 4}).extended(id);
        RngStream resumed = RngStream::resumed(RngStream(42, RngStream::Network, {7, 1, 2, 3, 4}).state()).extended(id);
        for (int i = 0; i < 5; ++i) {
            const quint64 expected = longWay.next();
            QCOMPARE(shortWay.next(), expected);
            QCOMPARE(resumed.next(), expected);
        }
    }
}

void TestRng::belowEqualsTheDraw_data()
{
    QTest::addColumn<double>("probability");
    QTest::addRow("never") << 0.0;
    QTest::addRow("negative") << -0.5;
    QTest::addRow("always") << 1.0;
    QTest::addRow("above-one") << 1.5;
    QTest::addRow("half") << 0.5;
    QTest::addRow("just-below-one") << std::nextafter(1.0, 0.0);
    QTest::addRow("smallest") << std::numeric_limits<double>::denorm_min();
    QTest::addRow("nan") << std::numeric_limits<double>::quiet_NaN();
}

// Three draws, the middle one with the probability: the same verdicts and the same third draw.
void TestRng::belowEqualsTheDraw()
{
    QFETCH(double, probability);
    for (quint64 op = 1; op <= 2000; ++op) {
        RngStream a(9, RngStream::Server, {op});
        RngStream b(9, RngStream::Server, {op});
        QCOMPARE(a.below(0.3), b.uniform() < 0.3);
        QCOMPARE(a.below(probability), b.uniform() < probability);
        QCOMPARE(a.next(), b.next());
    }
}

// The processing time from the attempt's server stream is the draw of the stream keyed by the
// attempt and 9 (how it was always keyed), for the engine's form and the live server's alike.
void TestRng::attemptStreamFormsAgree()
{
    Scenario s;
    s.seed = 1234;
    s.server.processingMs = {50, 20};
    for (int op = 1; op <= 500; ++op) {
        const faults::Attempt a{op, 1 + op % 2, 1 + op % 3, 1 + op % 5, 1 + op % 4, false};
        RngStream longWay(s.seed, RngStream::Server,
                          {quint64(a.op), quint64(a.sub), quint64(a.b), quint64(a.w), quint64(a.t), 9});
        const qint64 expected = faults::drawUs(s.server.processingMs, longWay);
        QCOMPARE(faults::processingUs(s, faults::attemptStream(s, RngStream::Server, a)), expected);
        QCOMPARE(faults::processingUs(s, a), expected);
    }
}

QTEST_GUILESS_MAIN(TestRng)
#include "tst_rng.moc"
