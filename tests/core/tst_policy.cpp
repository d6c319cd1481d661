// Pure retry decisions: urllib3 Retry semantics, tenacity-style wrapper, business loop, backoff.
#include "policy.h"
#include "simulator.h"
#include "testsupport.h"

#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <limits>

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
    void getRetriesCountPerCause();
    void transportRetries_data();
    void transportRetries();
    void transportBackoff_data();
    void transportBackoff();
    void transportExhausted();
    void transportDisabled();
    void transportWordsOnlyWhenAsked_data();
    void transportWordsOnlyWhenAsked();
    void wrapperRetries_data();
    void wrapperRetries();
    void businessRetries_data();
    void businessRetries();
    void backoff_data();
    void backoff();
    void backoffRoundsAsLlround();
    void jitterBounds_data();
    void jitterBounds();
    void retryAfterZeroFallsBackToBackoff();
    void retryAfterCappedAtMax();
    void retryAfterHeaderParsing_data();
    void retryAfterHeaderParsing();
    void everyMethodWhenAllowedMethodsEmpty();
    void separateCounters();
    void totalUnlimitedWithCounters();
    void retryAfterNeedsTotalLeft();
    void backoffJitterAddedAndCapped();
    void statusExhaustedMarked();
    void breakerFailure_data();
    void breakerFailure();
    void retryAfterWithoutForcelist_data();
    void retryAfterWithoutForcelist();
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
    QTest::addRow("decorrelated-first") << int(BackoffKind::Exponential) << int(Jitter::AwsDecorrelated) << 1 << qint64(0) << 0.5 << qint64(200000);
    QTest::addRow("decorrelated-prev") << int(BackoffKind::Exponential) << int(Jitter::AwsDecorrelated) << 2 << qint64(200000) << 0.5 << qint64(350000);
    QTest::addRow("decorrelated-capped") << int(BackoffKind::Exponential) << int(Jitter::AwsDecorrelated) << 5 << qint64(900000) << 0.9 << qint64(1000000);
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

// backoffUs rounds its wait to the microsecond as std::llround does (halves away from zero), without
// the library call; and doubles its exponential wait by a product with 2^e, not ldexp.
void TestPolicy::backoffRoundsAsLlround()
{
    // Full jitter from 1 ms: the wait is u x 1000 us, and with u = (k + 0.5) / 1000 it often lands
    // on a half exactly (k + 0.5), where truncating or rounding halves down would differ.
    BackoffConfig b{BackoffKind::Constant, 1, 2.0, 1000, Jitter::Full};
    int halves = 0;
    for (int k = 0; k < 1000; ++k) {
        for (const double u : {(k + 0.5) / 1000, (k + 0.49) / 1000, std::nextafter((k + 0.5) / 1000, 0.0)}) {
            const double v = u * 1000.0;
            halves += v == k + 0.5;
            QCOMPARE(policy::backoffUs(b, 1, 0, u), qint64(std::llround(v)));
        }
    }
    QVERIFY(halves > 100);
    // Exponential: x 2^(n - 1) up to where the cap (2^31 ms) stops it, and past 2^63.
    b = BackoffConfig{BackoffKind::Exponential, 3, 2.0, std::numeric_limits<int>::max(), Jitter::None};
    for (int n = 1; n <= 70; ++n)
        QCOMPARE(policy::backoffUs(b, n, 0, 0.5),
                 qint64(std::llround(std::min(std::ldexp(3000.0, n - 1), 1000.0 * std::numeric_limits<int>::max()))));
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

// urllib3 sleep_for_retry tests `if retry_after:`: a 0 waits the backoff, 0 / 1.0 / 2.0 s for
// backoff_factor 0.5 (0.5 * 2^1 = 1.0, 0.5 * 2^2 = 2.0); the 503 stays retryable because the
// header is present.
void TestPolicy::retryAfterZeroFallsBackToBackoff()
{
    TransportConfig t = urllib3Defaults();
    t.statusForcelist.clear(); // retryable only through Retry-After
    const qint64 expected[] = {0, 1000000, 2000000};
    for (int done = 0; done < 3; ++done) {
        const TransportVerdict v = policy::transport(t, QStringLiteral("GET"), status(503, 0), done);
        QVERIFY(v.retry);
        QVERIFY(!v.retryAfter);
        QCOMPARE(v.delayUs, expected[done]);
    }
    // A negative value is absent: 503 is then not retryable without the forcelist.
    QVERIFY(!policy::transport(t, QStringLiteral("GET"), status(503, -5), 0).retry);
}

void TestPolicy::retryAfterCappedAtMax()
{
    TransportConfig t = urllib3Defaults();
    QCOMPARE(t.retryAfterMaxS, 21600);
    TransportVerdict v = policy::transport(t, QStringLiteral("GET"), status(503, 30000), 0);
    QVERIFY(v.retry && v.retryAfter);
    QCOMPARE(v.delayUs, qint64(21600) * 1000000);
    t.retryAfterMaxS = 10;
    v = policy::transport(t, QStringLiteral("GET"), status(503, 11), 0);
    QCOMPARE(v.delayUs, qint64(10000000));
    v = policy::transport(t, QStringLiteral("GET"), status(503, 10), 0);
    QCOMPARE(v.delayUs, qint64(10000000));
    v = policy::transport(t, QStringLiteral("GET"), status(503, 9), 0);
    QCOMPARE(v.delayUs, qint64(9000000));
}

void TestPolicy::retryAfterHeaderParsing_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<double>("seconds");
    QTest::addRow("delta-seconds") << QStringLiteral("120") << 120.0;
    QTest::addRow("whitespace") << QStringLiteral("  7 ") << 7.0;
    QTest::addRow("zero") << QStringLiteral("0") << 0.0;
    QTest::addRow("capped") << QStringLiteral("90000") << 21600.0;
    // now is 06 Nov 1994 08:49:00 GMT: 37 s later, and 1 h 37 s later.
    QTest::addRow("http-date") << QStringLiteral("Sun, 06 Nov 1994 08:49:37 GMT") << 37.0;
    QTest::addRow("http-date-hour") << QStringLiteral("Sun, 06 Nov 1994 09:49:37 GMT") << 3637.0;
    QTest::addRow("http-date-past-is-zero") << QStringLiteral("Sun, 06 Nov 1994 08:48:00 GMT") << 0.0;
    QTest::addRow("http-date-capped") << QStringLiteral("Mon, 07 Nov 1994 08:49:00 GMT") << 21600.0;
    QTest::addRow("negative-absent") << QStringLiteral("-5") << -1.0;
    QTest::addRow("garbage-absent") << QStringLiteral("soon") << -1.0;
    QTest::addRow("empty-absent") << QString() << -1.0;
    QTest::addRow("fraction-absent") << QStringLiteral("1.5") << -1.0;
}

void TestPolicy::retryAfterHeaderParsing()
{
    QFETCH(QString, header);
    QFETCH(double, seconds);
    const QDateTime now(QDate(1994, 11, 6), QTime(8, 49, 0), QTimeZone::utc());
    QCOMPARE(policy::parseRetryAfter(header, now, 21600), seconds);
}

// allowed_methods=None retries every method: the classic retried POST.
void TestPolicy::everyMethodWhenAllowedMethodsEmpty()
{
    TransportConfig t = urllib3Defaults();
    QVERIFY(!policy::transport(t, QStringLiteral("POST"), status(503), 0).retry);
    QVERIFY(!policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ReadTimeout), 0).retry);
    t.allowedMethods.clear();
    QVERIFY(policy::transport(t, QStringLiteral("POST"), status(503), 0).retry);
    QVERIFY(policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ReadTimeout), 0).retry);
    QVERIFY(policy::transport(t, QStringLiteral("PATCH"), status(502), 0).retry);
}

// Each error decrements total and its own counter; whichever goes below zero ends the loop.
void TestPolicy::separateCounters()
{
    TransportConfig t = urllib3Defaults();
    t.total = 10;
    t.connect = 1;
    t.read = 2;
    t.status = 0;
    t.allowedMethods.clear();
    TransportCounts done;
    QVERIFY(policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ConnectError), done).retry);
    done.add(TransportCause::Connect);
    TransportVerdict v = policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ConnectError), done);
    QVERIFY(!v.retry);
    QCOMPARE(v.reason, QStringLiteral("connect=1 retries exhausted"));
    // Reads have their own counter: two more retries after the connect retry.
    v = policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ReadTimeout), done);
    QVERIFY(v.retry);
    QCOMPARE(v.cause, TransportCause::Read);
    done.add(TransportCause::Read);
    QVERIFY(policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ConnectionReset), done).retry);
    done.add(TransportCause::Read);
    QVERIFY(!policy::transport(t, QStringLiteral("POST"), failure(OutcomeKind::ReadTimeout), done).retry);
    QCOMPARE(done.total, 3);
    // status=0: the first forcelisted status is not retried and is marked exhausted.
    v = policy::transport(t, QStringLiteral("POST"), status(503), done);
    QVERIFY(!v.retry);
    QVERIFY(v.statusExhausted);
    QCOMPARE(v.reason, QStringLiteral("status=0 retries exhausted"));
    // total runs out first when it is the smaller one.
    t.total = 2;
    t.status = 5;
    TransportCounts two;
    two.add(TransportCause::Status);
    two.add(TransportCause::Status);
    v = policy::transport(t, QStringLiteral("GET"), status(502), two);
    QVERIFY(!v.retry);
    QCOMPARE(v.reason, QStringLiteral("total=2 retries exhausted"));
}

void TestPolicy::totalUnlimitedWithCounters()
{
    TransportConfig t = urllib3Defaults();
    t.total = TransportConfig::Unlimited;
    t.connect = 2;
    t.read = 1;
    t.status = 3;
    QCOMPARE(t.worstCaseRetries(), 6); // 2 + 1 + 3
    t.total = 4;
    QCOMPARE(t.worstCaseRetries(), 4);
    t.total = 7;
    QCOMPARE(t.worstCaseRetries(), 6);
    t.read = TransportConfig::Unlimited;
    QCOMPARE(t.worstCaseRetries(), 7);
    t.total = TransportConfig::Unlimited;
    QCOMPARE(t.worstCaseRetries(), -1);
    // Unlimited total: 3 status retries (backoff 0, 1, 2 s), the 4th 502 is exhausted.
    t.read = 1;
    TransportCounts done;
    for (int i = 0; i < 3; ++i) {
        QVERIFY(policy::transport(t, QStringLiteral("GET"), status(502), done).retry);
        done.add(TransportCause::Status);
    }
    QVERIFY(!policy::transport(t, QStringLiteral("GET"), status(502), done).retry);
}

// is_retry: `self.total and ...`: with no retries left, or total=None, a Retry-After does not make
// 429 retryable, and the response is returned rather than raised.
void TestPolicy::retryAfterNeedsTotalLeft()
{
    TransportConfig t = urllib3Defaults();
    QVERIFY(policy::transport(t, QStringLiteral("GET"), status(429, 2), 2).retry);
    TransportVerdict v = policy::transport(t, QStringLiteral("GET"), status(429, 2), 3);
    QVERIFY(!v.retry);
    QVERIFY(!v.statusExhausted);
    t.total = TransportConfig::Unlimited;
    t.connect = t.read = t.status = 3;
    QVERIFY(!policy::transport(t, QStringLiteral("GET"), status(429, 2), 0).retry);
    // A forcelisted status is retried with total=None.
    QVERIFY(policy::transport(t, QStringLiteral("GET"), status(503, 2), 0).retry);
}

// backoff_jitter adds U(0, jitter) after the first retry, then backoff_max caps the sum.
void TestPolicy::backoffJitterAddedAndCapped()
{
    TransportConfig t = urllib3Defaults();
    t.total = 10;
    t.backoffJitterS = 0.4;
    TransportCounts done;
    // First retry: immediate, no jitter.
    QCOMPARE(policy::transport(t, QStringLiteral("GET"), status(502), done, 0.5).delayUs, qint64(0));
    done.add(TransportCause::Status);
    // Second: 0.5 * 2 + 0.5 * 0.4 = 1.2 s.
    QCOMPARE(policy::transport(t, QStringLiteral("GET"), status(502), done, 0.5).delayUs, qint64(1200000));
    done.add(TransportCause::Status);
    // Third: 2.0 + 0.75 * 0.4 = 2.3 s, capped at backoff_max 2.1 s.
    t.backoffMaxS = 2.1;
    QCOMPARE(policy::transport(t, QStringLiteral("GET"), status(502), done, 0.75).delayUs, qint64(2100000));
}

void TestPolicy::statusExhaustedMarked()
{
    TransportConfig t = urllib3Defaults();
    TransportVerdict v = policy::transport(t, QStringLiteral("GET"), status(502), 3);
    QVERIFY(!v.retry);
    QVERIFY(v.statusExhausted);
    v = policy::transport(t, QStringLiteral("GET"), failure(OutcomeKind::ConnectError), 3);
    QVERIFY(!v.retry);
    QVERIFY(!v.statusExhausted);
    AttemptOutcome raised = status(503);
    raised.raised = true;
    QCOMPARE(raised.describe(), QStringLiteral("MaxRetryError (too many 503 error responses)"));
}

// Which outcomes the circuit breaker counts as a failure (the server or the network is in
// trouble), which ones show a healthy server and reset the count, and the one it ignores.
void TestPolicy::breakerFailure_data()
{
    QTest::addColumn<AttemptOutcome>("outcome");
    QTest::addColumn<bool>("records");
    QTest::addColumn<bool>("failure");
    AttemptOutcome replayed = status(201);
    replayed.replayed = true;
    AttemptOutcome replayedError = status(503);
    replayedError.replayed = true;
    AttemptOutcome raised = status(503);
    raised.raised = true;
    QTest::addRow("500") << status(500) << true << true;
    QTest::addRow("502") << status(502) << true << true;
    QTest::addRow("503") << status(503) << true << true;
    QTest::addRow("503-retry-after") << status(503, 2) << true << true;
    QTest::addRow("504") << status(504) << true << true;
    QTest::addRow("599") << status(599) << true << true;
    QTest::addRow("429") << status(429, 1) << true << true;
    QTest::addRow("timeout") << failure(OutcomeKind::ReadTimeout) << true << true;
    QTest::addRow("reset") << failure(OutcomeKind::ConnectionReset) << true << true;
    QTest::addRow("connect-error") << failure(OutcomeKind::ConnectError) << true << true;
    QTest::addRow("max-retry-error-503") << raised << true << true;
    // The client cannot tell a replayed 5xx from a fresh one without reading the header.
    QTest::addRow("replayed-503") << replayedError << true << true;
    // Boundaries of the two status rules: 499 and 428/430 are healthy answers.
    QTest::addRow("499") << status(499) << true << false;
    QTest::addRow("428") << status(428) << true << false;
    QTest::addRow("430") << status(430) << true << false;
    QTest::addRow("400") << status(400) << true << false;
    QTest::addRow("404") << status(404) << true << false;
    QTest::addRow("409") << status(409) << true << false;
    QTest::addRow("422") << status(422) << true << false;
    QTest::addRow("201") << status(201) << true << false;
    QTest::addRow("200") << status(200) << true << false;
    QTest::addRow("201-replayed") << replayed << true << false;
    // Rejected by the open breaker itself: no answer from anyone, neither counted nor resetting.
    QTest::addRow("circuit-open") << failure(OutcomeKind::CircuitOpen) << false << false;
}

void TestPolicy::breakerFailure()
{
    QFETCH(AttemptOutcome, outcome);
    QFETCH(bool, records);
    QFETCH(bool, failure);
    QCOMPARE(policy::breakerRecords(outcome), records);
    QCOMPARE(policy::breakerFailure(outcome), failure);
}

// urllib3 is_retry: a status outside status_forcelist is still retried when the method is
// allowed, respect_retry_after_header is on, total has retries left, the response carries
// Retry-After and the status is 413, 429 or 503; the wait is then the header's.
void TestPolicy::retryAfterWithoutForcelist_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<bool>("allowAll");
    QTest::addColumn<bool>("respect");
    QTest::addColumn<AttemptOutcome>("outcome");
    QTest::addColumn<bool>("retry");
    QTest::addColumn<qint64>("delayUs");
    const QString post = QStringLiteral("POST");
    QTest::addRow("post-default-methods-503-retry-after") << post << false << true << status(503, 3) << false << qint64(0);
    QTest::addRow("post-allowed-503-retry-after") << post << true << true << status(503, 3) << true << qint64(3000000);
    QTest::addRow("post-allowed-413-retry-after") << post << true << true << status(413, 4) << true << qint64(4000000);
    QTest::addRow("post-allowed-503-no-header") << post << true << true << status(503) << false << qint64(0);
    QTest::addRow("post-allowed-500-retry-after") << post << true << true << status(500, 3) << false << qint64(0);
    QTest::addRow("post-allowed-504-retry-after") << post << true << true << status(504, 3) << false << qint64(0);
    QTest::addRow("post-allowed-503-not-respected") << post << true << false << status(503, 3) << false << qint64(0);
}

void TestPolicy::retryAfterWithoutForcelist()
{
    QFETCH(QString, method);
    QFETCH(bool, allowAll);
    QFETCH(bool, respect);
    QFETCH(AttemptOutcome, outcome);
    QFETCH(bool, retry);
    QFETCH(qint64, delayUs);
    TransportConfig t = urllib3Defaults();
    t.statusForcelist = {502}; // neither 413, 500, 503 nor 504
    if (allowAll)
        t.allowedMethods.clear();
    t.respectRetryAfter = respect;
    const TransportVerdict v = policy::transport(t, method, outcome, 0);
    QCOMPARE(v.retry, retry);
    if (retry) {
        QVERIFY(v.retryAfter);
        QCOMPARE(v.delayUs, delayUs);
    }
}

void TestPolicy::getRetriesCountPerCause()
{
    // Item 9. The first POST's response is lost (timeout at 3,090 ms); the business loop waits
    // 1 s and asks GET /orders?ref= first. Its GET is refused (connect), then times out twice.
    // urllib3 (util/retry.py Retry.increment) charges each error to its own counter: with
    // total=10, read=1 the refusal takes connect, the first timeout read (1 left -> 0), the second
    // exhausts read: 3 GET attempts, the second after backoff 0 (the first retry is immediate),
    // the third after backoff_factor x 2^(2-1) = 1 s plus backoff_jitter x U.
    // (RetryLab before: the second timeout was charged 2 read retries: 2 GET attempts.)
    Scenario s = retrylab::test::quietScenario();
    s.client.business.enabled = true;
    s.client.business.maxAttempts = 2;
    s.client.queryBeforeRetry = true;
    s.client.transport.enabled = true;
    s.client.transport.total = 10;
    s.client.transport.read = 1;
    s.client.transport.backoffFactor = 0.5;
    s.client.transport.backoffJitterS = 2;
    s.network.script << retrylab::test::scriptEntry(1, "b1/w1/t1", FaultKind::ResponseLost);
    for (const char *attempt : {"b2/w1/t1", "b2/w1/t2", "b2/w1/t3"}) {
        ScriptEntry e = retrylab::test::scriptEntry(1, attempt,
            QLatin1String(attempt).endsWith(QLatin1String("t1")) ? FaultKind::ConnectFailure : FaultKind::RequestLost);
        e.method = ScriptMethod::Get;
        s.network.script << e;
    }
    const RunResult r = simulate(s);
    QCOMPARE(r.metrics.queryAttempts, 3);
    // backoffJitter is honoured: the third GET waits more than the bare 1 s backoff.
    QList<qint64> getWaits;
    for (const TraceEvent &e : r.trace) {
        if (e.kind == EventKind::RetryScheduled && e.method == TraceMethod::GetOrder)
            getWaits << e.arg;
    }
    QCOMPARE(getWaits.size(), 2);
    QCOMPARE(getWaits.at(0), 0);
    QVERIFY2(getWaits.at(1) > 1000000 && getWaits.at(1) < 3000000, qPrintable(QString::number(getWaits.at(1))));
}

void TestPolicy::transportWordsOnlyWhenAsked_data()
{
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<QString>("method");
    QTest::addColumn<AttemptOutcome>("outcome");
    QTest::addColumn<int>("retriesDone");
    QTest::addColumn<int>("retryAfterMaxS");
    QTest::addColumn<QString>("reason");
    const QString get = QStringLiteral("GET");
    const QString post = QStringLiteral("POST");
    // Each branch of urllib3's Retry (policy.cpp transportVerdict), worded as transport() words it.
    QTest::addRow("off") << false << get << status(502) << 0 << 21600 << QStringLiteral("transport retries off");
    QTest::addRow("success") << true << get << status(201) << 0 << 21600 << QStringLiteral("success");
    QTest::addRow("read-not-allowed") << true << post << failure(OutcomeKind::ReadTimeout) << 0 << 21600
                                      << QStringLiteral("read error on POST, which is not in allowed_methods");
    QTest::addRow("circuit") << true << get << failure(OutcomeKind::CircuitOpen) << 0 << 21600 << QStringLiteral("circuit open");
    QTest::addRow("method") << true << post << status(503) << 0 << 21600 << QStringLiteral("POST is not in allowed_methods");
    QTest::addRow("status") << true << get << status(400) << 0 << 21600 << QStringLiteral("status 400 is not retryable");
    QTest::addRow("total-exhausted") << true << get << status(502) << 3 << 21600 << QStringLiteral("total=3 retries exhausted");
    QTest::addRow("retry-after") << true << get << status(503, 7) << 1 << 21600 << QStringLiteral("Retry-After 7 s");
    QTest::addRow("retry-after-capped") << true << get << status(503, 9) << 1 << 5
                                        << QStringLiteral("Retry-After 9 s, capped at 5 s");
    QTest::addRow("retry-after-at-cap") << true << get << status(503, 5) << 1 << 5 << QStringLiteral("Retry-After 5 s");
    QTest::addRow("backoff") << true << get << failure(OutcomeKind::ConnectError) << 0 << 21600 << QStringLiteral("backoff");
}

void TestPolicy::transportWordsOnlyWhenAsked()
{
    // The engine decides with transportVerdict, which builds no words (a tenth of a run of 503s
    // went to formatting reasons nobody read); transport() words the same verdict.
    QFETCH(bool, enabled);
    QFETCH(QString, method);
    QFETCH(AttemptOutcome, outcome);
    QFETCH(int, retriesDone);
    QFETCH(int, retryAfterMaxS);
    QFETCH(QString, reason);
    TransportConfig t = urllib3Defaults();
    t.enabled = enabled;
    t.statusForcelist = {500, 502, 504};
    t.retryAfterMaxS = retryAfterMaxS;
    const TransportVerdict worded = policy::transport(t, method, outcome, retriesDone);
    QCOMPARE(worded.reason, reason);
    TransportCounts done;
    done.total = retriesDone;
    done.status = outcome.kind == OutcomeKind::Response ? retriesDone : 0;
    done.connect = outcome.kind == OutcomeKind::ConnectError ? retriesDone : 0;
    const TransportVerdict bare = policy::transportVerdict(t, policy::methodAllowed(t, method), outcome, done);
    QVERIFY(bare.reason.isNull());
    QCOMPARE(bare.retry, worded.retry);
    QCOMPARE(bare.delayUs, worded.delayUs);
    QCOMPARE(int(bare.why), int(worded.why));
    QCOMPARE(bare.limit, worded.limit);
    QCOMPARE(bare.counter, worded.counter);
    QCOMPARE(bare.retryAfter, worded.retryAfter);
    QCOMPARE(bare.statusExhausted, worded.statusExhausted);
    QCOMPARE(policy::transportReason(bare, method, outcome), reason);
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
