// Pure retry decisions: urllib3 Retry semantics, tenacity-style wrapper, business loop, backoff.
#include "policy.h"

#include <QTest>

using namespace retrylab;

Q_DECLARE_METATYPE(retrylab::AttemptOutcome)

namespace {
AttemptOutcome status(int s, int retryAfter = -1)
{
    AttemptOutcome o;
    o.status = s;
    o.retryAfterS = retryAfter;
    return o;
}
AttemptOutcome failure(OutcomeKind k)
{
    AttemptOutcome o;
    o.kind = k;
    return o;
}
TransportConfig urllib3Defaults()
{
    TransportConfig t;
    t.enabled = true;
    t.total = 3;
    t.backoffFactor = 0.5;
    return t;
}
} // namespace

class TestPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void transportRetries_data();
    void transportRetries();
    void transportBackoff_data();
    void transportBackoff();
    void transportExhausted();
    void transportDisabled();
    void wrapperRetries_data();
    void wrapperRetries();
    void businessRetries_data();
    void businessRetries();
    void backoff_data();
    void backoff();
    void jitterBounds_data();
    void jitterBounds();
};

void TestPolicy::transportRetries_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<AttemptOutcome>("outcome");
    QTest::addColumn<bool>("allowPost");
    QTest::addColumn<bool>("retry");

    QTest::addRow("post-connect-error-retried") << "POST" << failure(OutcomeKind::ConnectError) << false << true;
    QTest::addRow("post-read-timeout-not-retried") << "POST" << failure(OutcomeKind::ReadTimeout) << false << false;
    QTest::addRow("post-reset-not-retried") << "POST" << failure(OutcomeKind::ConnectionReset) << false << false;
    QTest::addRow("post-503-not-retried") << "POST" << status(503) << false << false;
    QTest::addRow("post-503-retry-after-not-retried") << "POST" << status(503, 2) << false << false;
    QTest::addRow("post-allowed-503-retried") << "POST" << status(503) << true << true;
    QTest::addRow("post-allowed-timeout-retried") << "POST" << failure(OutcomeKind::ReadTimeout) << true << true;
    QTest::addRow("get-read-timeout-retried") << "GET" << failure(OutcomeKind::ReadTimeout) << false << true;
    QTest::addRow("get-503-retried") << "GET" << status(503) << false << true;
    QTest::addRow("get-429-with-retry-after") << "GET" << status(429, 1) << false << true;
    QTest::addRow("get-413-with-retry-after") << "GET" << status(413, 1) << false << true;
    QTest::addRow("get-429-without-retry-after") << "GET" << status(429) << false << false;
    QTest::addRow("get-404-not-retried") << "GET" << status(404) << false << false;
    QTest::addRow("get-200-not-retried") << "GET" << status(200) << false << false;
    QTest::addRow("get-circuit-open-not-retried") << "GET" << failure(OutcomeKind::CircuitOpen) << false << false;
    QTest::addRow("put-500-retried") << "PUT" << status(500) << false << true;
    QTest::addRow("get-501-not-in-forcelist") << "GET" << status(501) << false << false;
}

void TestPolicy::transportRetries()
{
    QFETCH(QString, method);
    QFETCH(AttemptOutcome, outcome);
    QFETCH(bool, allowPost);
    QFETCH(bool, retry);
    TransportConfig t = urllib3Defaults();
    if (allowPost)
        t.allowedMethods.append(QStringLiteral("POST"));
    QCOMPARE(policy::transport(t, method, outcome, 0).retry, retry);
}

void TestPolicy::transportBackoff_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<int>("retriesDone");
    QTest::addColumn<qint64>("delayUs");
    // urllib3 2.x: the first retry is immediate, then factor * 2^(n-1) for n consecutive errors.
    QTest::addRow("first-retry-immediate") << 0.5 << 0 << qint64(0);
    QTest::addRow("second-retry") << 0.5 << 1 << qint64(1000000);
    QTest::addRow("third-retry") << 0.5 << 2 << qint64(2000000);
    QTest::addRow("factor-0.1-third") << 0.1 << 2 << qint64(400000);
    QTest::addRow("capped-at-backoff-max") << 100.0 << 5 << qint64(120000000);
}

void TestPolicy::transportBackoff()
{
    QFETCH(double, factor);
    QFETCH(int, retriesDone);
    QFETCH(qint64, delayUs);
    TransportConfig t = urllib3Defaults();
    t.total = 10;
    t.backoffFactor = factor;
    const TransportVerdict v = policy::transport(t, QStringLiteral("GET"), status(502), retriesDone);
    QVERIFY(v.retry);
    QCOMPARE(v.delayUs, delayUs);
}

void TestPolicy::transportExhausted()
{
    TransportConfig t = urllib3Defaults();
    QVERIFY(policy::transport(t, QStringLiteral("GET"), status(502), 2).retry);
    const TransportVerdict v = policy::transport(t, QStringLiteral("GET"), status(502), 3);
    QVERIFY(!v.retry);
    QVERIFY(v.reason.contains(QLatin1String("exhausted")));
    // Retry-After sets the wait instead of the backoff.
    const TransportVerdict ra = policy::transport(t, QStringLiteral("GET"), status(503, 7), 1);
    QVERIFY(ra.retry);
    QCOMPARE(ra.delayUs, qint64(7000000));
    t.respectRetryAfter = false;
    QCOMPARE(policy::transport(t, QStringLiteral("GET"), status(503, 7), 1).delayUs, qint64(1000000));
    QVERIFY(!policy::transport(t, QStringLiteral("GET"), status(429, 7), 1).retry);
}

void TestPolicy::transportDisabled()
{
    TransportConfig t = urllib3Defaults();
    t.enabled = false;
    QVERIFY(!policy::transport(t, QStringLiteral("GET"), failure(OutcomeKind::ConnectError), 0).retry);
}

void TestPolicy::wrapperRetries_data()
{
    QTest::addColumn<int>("on");
    QTest::addColumn<AttemptOutcome>("outcome");
    QTest::addColumn<bool>("retry");
    QTest::addRow("any-400") << int(WrapperRetryOn::Any) << status(400) << true;
    QTest::addRow("any-422") << int(WrapperRetryOn::Any) << status(422) << true;
    QTest::addRow("any-timeout") << int(WrapperRetryOn::Any) << failure(OutcomeKind::ReadTimeout) << true;
    QTest::addRow("any-201") << int(WrapperRetryOn::Any) << status(201) << false;
    QTest::addRow("transient-400") << int(WrapperRetryOn::Transient) << status(400) << false;
    QTest::addRow("transient-503") << int(WrapperRetryOn::Transient) << status(503) << true;
    QTest::addRow("transient-reset") << int(WrapperRetryOn::Transient) << failure(OutcomeKind::ConnectionReset) << true;
}

void TestPolicy::wrapperRetries()
{
    QFETCH(int, on);
    QFETCH(AttemptOutcome, outcome);
    QFETCH(bool, retry);
    QCOMPARE(policy::wrapperRetries(WrapperRetryOn(on), outcome), retry);
}

void TestPolicy::businessRetries_data()
{
    QTest::addColumn<AttemptOutcome>("outcome");
    QTest::addColumn<bool>("retry");
    QTest::addRow("timeout") << failure(OutcomeKind::ReadTimeout) << true;
    QTest::addRow("connect") << failure(OutcomeKind::ConnectError) << true;
    QTest::addRow("reset") << failure(OutcomeKind::ConnectionReset) << true;
    QTest::addRow("500") << status(500) << true;
    QTest::addRow("503") << status(503) << true;
    QTest::addRow("429") << status(429) << true;
    QTest::addRow("409-in-progress") << status(409) << true;
    QTest::addRow("400-never") << status(400) << false;
    QTest::addRow("422-never") << status(422) << false;
    QTest::addRow("404-never") << status(404) << false;
    QTest::addRow("201-success") << status(201) << false;
}

void TestPolicy::businessRetries()
{
    QFETCH(AttemptOutcome, outcome);
    QFETCH(bool, retry);
    QCOMPARE(policy::businessRetries(outcome), retry);
}

void TestPolicy::backoff_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("jitter");
    QTest::addColumn<int>("n");
    QTest::addColumn<qint64>("prev");
    QTest::addColumn<double>("u");
    QTest::addColumn<qint64>("expected");
    // initial 100 ms, multiplier 2, cap 1000 ms
    QTest::addRow("constant") << int(BackoffKind::Constant) << int(Jitter::None) << 3 << qint64(0) << 0.5 << qint64(100000);
    QTest::addRow("linear-3") << int(BackoffKind::Linear) << int(Jitter::None) << 3 << qint64(0) << 0.5 << qint64(300000);
    QTest::addRow("exponential-1") << int(BackoffKind::Exponential) << int(Jitter::None) << 1 << qint64(0) << 0.5 << qint64(100000);
    QTest::addRow("exponential-3") << int(BackoffKind::Exponential) << int(Jitter::None) << 3 << qint64(0) << 0.5 << qint64(400000);
    QTest::addRow("exponential-capped") << int(BackoffKind::Exponential) << int(Jitter::None) << 8 << qint64(0) << 0.5 << qint64(1000000);
    QTest::addRow("full-jitter") << int(BackoffKind::Exponential) << int(Jitter::Full) << 3 << qint64(0) << 0.25 << qint64(100000);
    QTest::addRow("equal-jitter") << int(BackoffKind::Exponential) << int(Jitter::Equal) << 3 << qint64(0) << 0.5 << qint64(300000);
    QTest::addRow("decorrelated-first") << int(BackoffKind::Exponential) << int(Jitter::Decorrelated) << 1 << qint64(0) << 0.5 << qint64(200000);
    QTest::addRow("decorrelated-prev") << int(BackoffKind::Exponential) << int(Jitter::Decorrelated) << 2 << qint64(200000) << 0.5 << qint64(350000);
    QTest::addRow("decorrelated-capped") << int(BackoffKind::Exponential) << int(Jitter::Decorrelated) << 5 << qint64(900000) << 0.9 << qint64(1000000);
}

void TestPolicy::backoff()
{
    QFETCH(int, kind);
    QFETCH(int, jitter);
    QFETCH(int, n);
    QFETCH(qint64, prev);
    QFETCH(double, u);
    QFETCH(qint64, expected);
    BackoffConfig b{BackoffKind(kind), 100, 2.0, 1000, Jitter(jitter)};
    QCOMPARE(policy::backoffUs(b, n, prev, u), expected);
}

void TestPolicy::jitterBounds_data()
{
    QTest::addColumn<int>("jitter");
    QTest::addColumn<qint64>("lo");
    QTest::addColumn<qint64>("hi");
    QTest::addRow("none") << int(Jitter::None) << qint64(400000) << qint64(400000);
    QTest::addRow("full") << int(Jitter::Full) << qint64(0) << qint64(400000);
    QTest::addRow("equal") << int(Jitter::Equal) << qint64(200000) << qint64(400000);
}

void TestPolicy::jitterBounds()
{
    QFETCH(int, jitter);
    QFETCH(qint64, lo);
    QFETCH(qint64, hi);
    BackoffConfig b{BackoffKind::Exponential, 100, 2.0, 1000, Jitter(jitter)};
    for (int i = 0; i < 100; ++i) {
        const qint64 v = policy::backoffUs(b, 3, 0, i / 100.0);
        QVERIFY2(v >= lo && v <= hi, qPrintable(QString::number(v)));
    }
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
