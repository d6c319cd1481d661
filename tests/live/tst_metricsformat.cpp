// GET /metrics in the Prometheus text format (issue 21 item 12), without a socket: content
// negotiation, the histogram's bucket edges, and the lines the format requires. The format's
// rules come from the Prometheus documentation "Exposition formats" (text format 0.0.4) and
// are read back by the project's own parser in tst_serveprocess::prometheusParserReadsMetrics.
#include "metricsformat.h"

#include <QtTest>

using namespace retrylab;

class TestMetricsFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void negotiation_data();
    void negotiation();
    void bucketEdges_data();
    void bucketEdges();
    void uptimeKeepsItsLength();
    void textHasHelpTypeAndTotals();
};

void TestMetricsFormat::negotiation_data()
{
    QTest::addColumn<QByteArray>("accept");
    QTest::addColumn<bool>("json");
    QTest::addRow("none") << QByteArray() << false;
    QTest::addRow("curl-any") << QByteArray("*/*") << false;
    QTest::addRow("json") << QByteArray("application/json") << true;
    QTest::addRow("json-then-any") << QByteArray("application/json, */*") << true;
    QTest::addRow("any-then-json") << QByteArray("*/*, application/json") << true; // the specific range wins
    QTest::addRow("text-plain") << QByteArray("text/plain") << false;
    // What Prometheus 2.x sends when scraping.
    QTest::addRow("prometheus-scrape")
            << QByteArray("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                          "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
            << false;
    QTest::addRow("json-lower-q") << QByteArray("application/json;q=0.4, text/plain;q=0.5") << false;
    QTest::addRow("json-higher-q") << QByteArray("application/json;q=0.6, text/plain;q=0.5") << true;
    QTest::addRow("equal-q-first-listed") << QByteArray("application/json;q=0.5, text/plain;q=0.5") << true;
    QTest::addRow("json-refused") << QByteArray("application/json;q=0, */*") << false;
    QTest::addRow("both-refused") << QByteArray("application/json;q=0, text/plain;q=0") << false;
    QTest::addRow("text-refused") << QByteArray("text/plain;q=0, application/*") << true;
    QTest::addRow("application-any") << QByteArray("application/*") << true;
    QTest::addRow("case") << QByteArray("Application/JSON") << true;
}

void TestMetricsFormat::negotiation()
{
    QFETCH(QByteArray, accept);
    QFETCH(bool, json);
    QCOMPARE(prefersJson(accept), json);
}

void TestMetricsFormat::bucketEdges_data()
{
    // A bucket counts observations less than or equal to its upper bound ("le").
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<int>("firstBucket"); // index of the first bound that counts it; 14: only +Inf
    QTest::addRow("zero") << qint64(0) << 0;
    QTest::addRow("exactly-0.5ms") << qint64(500000) << 0;
    QTest::addRow("just-above-0.5ms") << qint64(500001) << 1;
    QTest::addRow("exactly-1ms") << qint64(1000000) << 1;
    QTest::addRow("exactly-10s") << qint64(10) * 1000000000 << 13;
    QTest::addRow("above-10s") << qint64(10) * 1000000000 + 1 << 14;
}

void TestMetricsFormat::bucketEdges()
{
    QFETCH(qint64, ns);
    QFETCH(int, firstBucket);
    LatencyHistogram h;
    h.observe(ns);
    for (size_t i = 0; i < LatencyHistogram::kBounds.size(); ++i)
        QCOMPARE(h.cumulative(i), quint64(int(i) >= firstBucket ? 1 : 0));
    QCOMPARE(h.count(), quint64(1));
    QCOMPARE(h.sumSeconds(), double(ns) / 1e9);
}

void TestMetricsFormat::uptimeKeepsItsLength()
{
    // A GET and a HEAD of /metrics a moment apart must name the same Content-Length
    // (tst_httpframing::headWhereverGet): the uptime is written with three decimals, so 0.16 s
    // and 0.161 s are one length (the shortest form wrote "0.16" and "0.161").
    const auto uptimeLine = [](double s) {
        const QJsonObject m{{QStringLiteral("server"), QJsonObject{{QStringLiteral("uptimeS"), s}}}};
        const QList<QByteArray> lines = prometheusText(m, LatencyHistogram()).split('\n');
        for (const QByteArray &line : lines)
            if (line.startsWith("retrylab_uptime_seconds "))
                return line;
        return QByteArray();
    };
    QCOMPARE(uptimeLine(0.16), QByteArray("retrylab_uptime_seconds 0.160"));
    QCOMPARE(uptimeLine(0.161), QByteArray("retrylab_uptime_seconds 0.161"));
    QCOMPARE(uptimeLine(0), QByteArray("retrylab_uptime_seconds 0.000"));
    QCOMPARE(uptimeLine(9.999).size(), uptimeLine(0.001).size());
}

void TestMetricsFormat::textHasHelpTypeAndTotals()
{
    QJsonObject m{{QStringLiteral("httpAttempts"), 7}, {QStringLiteral("replays"), 2}, {QStringLiteral("records"), 5},
                  {QStringLiteral("duplicates"), 1},
                  {QStringLiteral("server"), QJsonObject{{QStringLiteral("uptimeS"), 1.5},
                                                         {QStringLiteral("idempotency"), QStringLiteral("atomic")},
                                                         {QStringLiteral("keyStore"), QStringLiteral("dura\"ble")}}}};
    LatencyHistogram h;
    h.observe(2000000);   // 2 ms
    h.observe(300000000); // 300 ms
    const QByteArray text = prometheusText(m, h);
    const QList<QByteArray> lines = text.split('\n');
    QVERIFY(text.endsWith('\n'));
    QVERIFY(lines.contains("# TYPE retrylab_http_attempts_total counter"));
    QVERIFY(lines.contains("retrylab_http_attempts_total 7"));
    QVERIFY(lines.contains("retrylab_replays_total 2"));
    QVERIFY(lines.contains("# TYPE retrylab_records gauge"));
    QVERIFY(lines.contains("retrylab_records 5"));
    QVERIFY(lines.contains("retrylab_uptime_seconds 1.500"));
    QVERIFY(lines.contains("retrylab_info{idempotency=\"atomic\",key_store=\"dura\\\"ble\"} 1"));
    QVERIFY(lines.contains("# TYPE retrylab_request_duration_seconds histogram"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_bucket{le=\"0.001\"} 0"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_bucket{le=\"0.0025\"} 1"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_bucket{le=\"0.25\"} 1"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_bucket{le=\"0.5\"} 2"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_bucket{le=\"+Inf\"} 2"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_count 2"));
    QVERIFY(lines.contains("retrylab_request_duration_seconds_sum 0.302"));
    // Every family: HELP, then TYPE, then its samples; every counter ends in _total.
    int families = 0;
    for (int i = 0; i < lines.size(); ++i) {
        if (!lines[i].startsWith("# TYPE "))
            continue;
        ++families;
        const QList<QByteArray> parts = lines[i].split(' ');
        QVERIFY2(lines.value(i - 1).startsWith("# HELP " + parts.value(2) + ' '), lines[i].constData());
        if (parts.value(3) == "counter")
            QVERIFY2(parts.value(2).endsWith("_total"), lines[i].constData());
        QVERIFY2(lines.value(i + 1).startsWith(parts.value(2)), lines[i].constData());
    }
    QCOMPARE(families, 16);
}

QTEST_GUILESS_MAIN(TestMetricsFormat)
#include "tst_metricsformat.moc"
