#include "scenario.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(RETRYLAB_TEST_DATA "/scenarios/") + name;
}

QJsonValue json(const char *text)
{
    // Wrapped so scalars parse too.
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text + QByteArray("]"));
    return doc.array().at(0);
}

QStringList catalogue()
{
    return {QStringLiteral("ghost-request"),      QStringLiteral("layered-fix"),
            QStringLiteral("stable-key"),         QStringLiteral("rotating-key"),
            QStringLiteral("payload-mismatch"),   QStringLiteral("concurrent-race"),
            QStringLiteral("key-expiry"),         QStringLiteral("query-before-retry"),
            QStringLiteral("server-token"),       QStringLiteral("reconciliation"),
            QStringLiteral("retry-storm"),        QStringLiteral("correlation-ids")};
}

} // namespace

// Scenario JSON contract: defaults, validation messages, presets, --set editing.
class TestScenario : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emptyObjectGivesDefaults_data();
    void emptyObjectGivesDefaults();
    void contractKeysPresent_data();
    void contractKeysPresent();
    void presetNamesFollowCatalogue();
    void presetLoads_data();
    void presetLoads();
    void presetRoundTrip_data();
    void presetRoundTrip();
    void presetLesson_data();
    void presetLesson();
    void worstCase_data();
    void worstCase();
    void badFile_data();
    void badFile();
    void badValue_data();
    void badValue();
    void allErrorsReported();
    void validFileLoads();
    void seedBeyondDoublePrecision();
    void withSet_data();
    void withSet();
    void withSetRejects_data();
    void withSetRejects();
    void withSetKeepsOriginalOnError();
    void saveLoadRoundTrip();
    void saveToUnwritablePath();
    void loadMissingFile();
    void unknownPreset();
    void resolve();
    void enumNames_data();
    void enumNames();
    void faultNamesRoundTrip_data();
    void faultNamesRoundTrip();
};

void TestScenario::emptyObjectGivesDefaults_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonValue>("expected");
    QTest::addRow("schema") << QStringLiteral("schema") << json("1");
    QTest::addRow("name") << QStringLiteral("name") << json("\"custom\"");
    QTest::addRow("seed") << QStringLiteral("seed") << json("42");
    QTest::addRow("orders") << QStringLiteral("workload.orders") << json("20");
    QTest::addRow("double-submit-delay") << QStringLiteral("workload.doubleSubmitDelayMs") << json("5");
    QTest::addRow("key-placement") << QStringLiteral("client.keyPlacement") << json("\"none\"");
    QTest::addRow("request-id") << QStringLiteral("client.requestId") << json("true");
    QTest::addRow("business-attempts") << QStringLiteral("client.business.maxAttempts") << json("3");
    QTest::addRow("business-backoff") << QStringLiteral("client.business.backoff")
                                      << json(R"({"kind":"exponential","initialMs":1000,"multiplier":2,"maxMs":8000,"jitter":"full"})");
    QTest::addRow("wrapper-backoff") << QStringLiteral("client.wrapper.backoff")
                                     << json(R"({"kind":"exponential","initialMs":100,"multiplier":2,"maxMs":1000,"jitter":"none"})");
    QTest::addRow("wrapper-retry-on") << QStringLiteral("client.wrapperRetryOn") << json("\"any\"");
    QTest::addRow("transport-off") << QStringLiteral("client.transport.enabled") << json("false");
    QTest::addRow("transport-methods-exclude-post")
        << QStringLiteral("client.transport.allowedMethods") << json(R"(["GET","HEAD","PUT","DELETE","OPTIONS","TRACE"])");
    QTest::addRow("transport-forcelist") << QStringLiteral("client.transport.statusForcelist") << json("[500,502,503,504]");
    QTest::addRow("timeout") << QStringLiteral("client.timeoutMs") << json("3000");
    QTest::addRow("budget") << QStringLiteral("client.retryBudget")
                            << json(R"({"enabled":false,"ratio":0.1,"maxTokens":10})");
    QTest::addRow("breaker") << QStringLiteral("client.circuitBreaker")
                             << json(R"({"enabled":false,"failureThreshold":5,"openMs":5000})");
    QTest::addRow("latency") << QStringLiteral("network.latencyMs") << json(R"({"base":20,"jitter":10})");
    QTest::addRow("script-empty") << QStringLiteral("network.script") << json("[]");
    QTest::addRow("spike") << QStringLiteral("network.spikeMs") << json("5000");
    QTest::addRow("error-status") << QStringLiteral("server.errorStatus") << json("503");
    QTest::addRow("idempotency") << QStringLiteral("server.idempotency")
                                 << json(R"({"mode":"off","requireKey":false,"ttlS":86400,"fingerprint":true,"storeErrors":true})");
    QTest::addRow("reconciliation") << QStringLiteral("reconciliation")
                                    << json(R"({"enabled":false,"intervalS":60,"action":"flag"})");
}

void TestScenario::emptyObjectGivesDefaults()
{
    QFETCH(QString, path);
    QFETCH(QJsonValue, expected);
    const ScenarioParse parsed = scenario::fromJson(QJsonObject());
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(scenario::valueAt(parsed.scenario, path), expected);
    QVERIFY(parsed.scenario == Scenario());
}

void TestScenario::contractKeysPresent_data()
{
    QTest::addColumn<QString>("path");
    // Design section 3: these names are relied on by --set, saved files and tests.
    const char *paths[] = {
        "schema", "name", "title", "seed", "description",
        "workload.orders", "workload.interArrivalMs", "workload.clients", "workload.doubleSubmitRate",
        "client.keyPlacement", "client.requestId", "client.queryBeforeRetry", "client.mutatePayloadOnRetry",
        "client.business.enabled", "client.business.maxAttempts", "client.business.backoff.kind",
        "client.business.backoff.initialMs", "client.business.backoff.multiplier", "client.business.backoff.maxMs",
        "client.business.backoff.jitter", "client.wrapper.enabled", "client.wrapper.maxAttempts",
        "client.wrapper.backoff.kind", "client.wrapper.deadlineMs", "client.transport.enabled",
        "client.transport.total", "client.transport.backoffFactor", "client.transport.statusForcelist",
        "client.transport.allowedMethods", "client.transport.respectRetryAfter", "client.transport.backoffMaxS",
        "client.timeoutMs", "client.connectFailMs", "client.wrapperRetryOn", "client.businessRespectRetryAfter",
        "client.retryBudget.enabled", "client.retryBudget.ratio", "client.retryBudget.maxTokens",
        "client.circuitBreaker.enabled", "client.circuitBreaker.failureThreshold", "client.circuitBreaker.openMs",
        "network.latencyMs.base", "network.latencyMs.jitter", "network.requestLoss", "network.responseLoss",
        "network.connectFailure", "network.resetAfterCommit", "network.latencySpike", "network.spikeMs",
        "network.script", "server.processingMs.base", "server.processingMs.jitter", "server.capacity",
        "server.queue", "server.errorStatus", "server.error5xxBeforeCommit", "server.error5xxAfterCommit",
        "server.throttle429", "server.retryAfterS", "server.idempotency.mode", "server.idempotency.requireKey",
        "server.idempotency.ttlS", "server.idempotency.fingerprint", "server.idempotency.storeErrors",
        "reconciliation.enabled", "reconciliation.intervalS", "reconciliation.action",
        "workload.doubleSubmitDelayMs",
    };
    for (const char *p : paths)
        QTest::addRow("%s", p) << QString::fromLatin1(p);
}

void TestScenario::contractKeysPresent()
{
    QFETCH(QString, path);
    QVERIFY2(!scenario::valueAt(Scenario(), path).isUndefined(), qPrintable(path));
}

void TestScenario::presetNamesFollowCatalogue()
{
    QCOMPARE(scenario::presetNames(), catalogue());
}

void TestScenario::presetLoads_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : catalogue())
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestScenario::presetLoads()
{
    QFETCH(QString, name);
    const ScenarioParse parsed = scenario::preset(name);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(parsed.scenario.name, name);
    QVERIFY(!parsed.scenario.title.isEmpty());
    // A lesson in two sentences.
    QCOMPARE(parsed.scenario.description.count(QLatin1String(". ")) + 1, 2);
    QVERIFY(parsed.scenario.description.endsWith(QLatin1Char('.')));
    // The file as written must not lean on keys the reader ignores.
    QFile file(QStringLiteral(":/scenarios/%1.json").arg(name));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("schema")).toInt(), 1);
}

void TestScenario::presetRoundTrip_data()
{
    presetLoads_data();
}

void TestScenario::presetRoundTrip()
{
    QFETCH(QString, name);
    const Scenario original = scenario::preset(name).scenario;
    QVERIFY(original != Scenario());

    const ScenarioParse viaObject = scenario::fromJson(original.toJson());
    QVERIFY2(viaObject.ok(), qPrintable(viaObject.errors.join(QLatin1Char('\n'))));
    QVERIFY(viaObject.scenario == original);

    const QByteArray bytes = QJsonDocument(original.toJson()).toJson(QJsonDocument::Compact);
    const ScenarioParse viaBytes = scenario::fromJsonBytes(bytes);
    QVERIFY(viaBytes.ok());
    QVERIFY(viaBytes.scenario == original);
    QCOMPARE(viaBytes.scenario.toJson(), original.toJson());
}

void TestScenario::presetLesson_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonValue>("expected");
    QTest::addRow("ghost-request-no-key") << QStringLiteral("ghost-request") << QStringLiteral("client.keyPlacement") << json("\"none\"");
    QTest::addRow("ghost-request-loss") << QStringLiteral("ghost-request") << QStringLiteral("network.responseLoss") << json("0.3");
    QTest::addRow("ghost-request-mode-off") << QStringLiteral("ghost-request") << QStringLiteral("server.idempotency.mode") << json("\"off\"");
    QTest::addRow("layered-fix-post-excluded") << QStringLiteral("layered-fix") << QStringLiteral("client.transport.allowedMethods")
                                               << json(R"(["GET","HEAD","PUT","DELETE","OPTIONS","TRACE"])");
    QTest::addRow("layered-fix-wrapper-off") << QStringLiteral("layered-fix") << QStringLiteral("client.wrapper.enabled") << json("false");
    QTest::addRow("layered-fix-atomic") << QStringLiteral("layered-fix") << QStringLiteral("server.idempotency.mode") << json("\"atomic\"");
    QTest::addRow("layered-fix-require-key") << QStringLiteral("layered-fix") << QStringLiteral("server.idempotency.requireKey") << json("true");
    QTest::addRow("stable-key-script") << QStringLiteral("stable-key") << QStringLiteral("network.script")
                                       << json(R"([{"op":1,"attempt":"b1/w1/t1","fault":"responseLost"}])");
    QTest::addRow("stable-key-per-operation") << QStringLiteral("stable-key") << QStringLiteral("client.keyPlacement") << json("\"perOperation\"");
    QTest::addRow("rotating-key-per-wrapper-attempt") << QStringLiteral("rotating-key") << QStringLiteral("client.keyPlacement") << json("\"perWrapperAttempt\"");
    QTest::addRow("rotating-key-business-off") << QStringLiteral("rotating-key") << QStringLiteral("client.business.enabled") << json("false");
    QTest::addRow("payload-mismatch-mutates") << QStringLiteral("payload-mismatch") << QStringLiteral("client.mutatePayloadOnRetry") << json("true");
    QTest::addRow("concurrent-race-naive") << QStringLiteral("concurrent-race") << QStringLiteral("server.idempotency.mode") << json("\"naive\"");
    QTest::addRow("concurrent-race-double-submit") << QStringLiteral("concurrent-race") << QStringLiteral("workload.doubleSubmitRate") << json("1");
    QTest::addRow("key-expiry-ttl-below-wait") << QStringLiteral("key-expiry") << QStringLiteral("server.idempotency.ttlS") << json("2");
    QTest::addRow("key-expiry-wait") << QStringLiteral("key-expiry") << QStringLiteral("client.business.backoff.initialMs") << json("5000");
    QTest::addRow("query-before-retry-on") << QStringLiteral("query-before-retry") << QStringLiteral("client.queryBeforeRetry") << json("true");
    QTest::addRow("server-token-mode") << QStringLiteral("server-token") << QStringLiteral("server.idempotency.mode") << json("\"token\"");
    QTest::addRow("reconciliation-voids") << QStringLiteral("reconciliation") << QStringLiteral("reconciliation")
                                          << json(R"({"enabled":true,"intervalS":30,"action":"void"})");
    QTest::addRow("retry-storm-post-retried") << QStringLiteral("retry-storm") << QStringLiteral("client.transport.allowedMethods[6]") << json("\"POST\"");
    QTest::addRow("retry-storm-budget-off") << QStringLiteral("retry-storm") << QStringLiteral("client.retryBudget.enabled") << json("false");
    QTest::addRow("retry-storm-capacity") << QStringLiteral("retry-storm") << QStringLiteral("server.capacity") << json("4");
    QTest::addRow("correlation-ids-off") << QStringLiteral("correlation-ids") << QStringLiteral("client.requestId") << json("false");
}

void TestScenario::presetLesson()
{
    QFETCH(QString, name);
    QFETCH(QString, path);
    QFETCH(QJsonValue, expected);
    const ScenarioParse parsed = scenario::preset(name);
    QVERIFY(parsed.ok());
    QCOMPARE(scenario::valueAt(parsed.scenario, path), expected);
}

void TestScenario::worstCase_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<QString>("formula");
    QTest::addRow("defaults-business-and-wrapper") << QStringList() << 9 << QStringLiteral("3 x 3 = 9");
    QTest::addRow("all-three-layers") << QStringList{QStringLiteral("client.transport.enabled=true")} << 36
                                      << QStringLiteral("3 x 3 x 4 = 36");
    QTest::addRow("transport-only")
        << QStringList{QStringLiteral("client.business.enabled=false"), QStringLiteral("client.wrapper.enabled=false"),
                       QStringLiteral("client.transport.enabled=true"), QStringLiteral("client.transport.total=5")}
        << 6 << QStringLiteral("6 = 6");
    QTest::addRow("no-layer")
        << QStringList{QStringLiteral("client.business.enabled=false"), QStringLiteral("client.wrapper.enabled=false")}
        << 1 << QStringLiteral("1 = 1");
    QTest::addRow("transport-zero-retries")
        << QStringList{QStringLiteral("client.wrapper.enabled=false"), QStringLiteral("client.transport.enabled=true"),
                       QStringLiteral("client.transport.total=0"), QStringLiteral("client.business.maxAttempts=4")}
        << 4 << QStringLiteral("4 x 1 = 4");
    QTest::addRow("disabled-layer-ignores-its-count")
        << QStringList{QStringLiteral("client.wrapper.enabled=false"), QStringLiteral("client.wrapper.maxAttempts=50")}
        << 3 << QStringLiteral("3 = 3");
}

void TestScenario::worstCase()
{
    QFETCH(QStringList, sets);
    QFETCH(int, attempts);
    QFETCH(QString, formula);
    Scenario s;
    for (const QString &set : sets) {
        const ScenarioParse parsed = scenario::withSet(s, set);
        QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        s = parsed.scenario;
    }
    QCOMPARE(s.worstCaseAttemptsPerOp(), attempts);
    QCOMPARE(s.worstCaseFormula(), formula);
}

void TestScenario::badFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("malformed-json") << QStringLiteral("malformed.json")
                                    << QStringList{QStringLiteral("malformed.json: malformed JSON at offset ")};
    QTest::addRow("root-not-object") << QStringLiteral("not-object.json")
                                     << QStringList{QStringLiteral("not-object.json"), QStringLiteral("JSON object")};
    QTest::addRow("wrong-type") << QStringLiteral("wrong-type.json")
                                << QStringList{QStringLiteral(
                                       "client.transport.total: expected an integer from 0 to 20, got \"three\"")};
    QTest::addRow("out-of-range") << QStringLiteral("out-of-range.json")
                                  << QStringList{QStringLiteral("network.responseLoss: expected a number from 0 to 1, got 1.5")};
    QTest::addRow("unknown-enum") << QStringLiteral("unknown-enum.json")
                                  << QStringList{QStringLiteral(
                                         "server.idempotency.mode: expected one of off|naive|atomic|token, got \"atomc\"")};
    QTest::addRow("unknown-key") << QStringLiteral("unknown-key.json")
                                 << QStringList{QStringLiteral("client.timeoutMS: unknown key"),
                                                QStringLiteral("did you mean \"timeoutMs\"")};
    QTest::addRow("bad-script-attempt") << QStringLiteral("bad-script-attempt.json")
                                        << QStringList{QStringLiteral("network.script[2].attempt: expected"),
                                                       QStringLiteral("got \"b1/t1\"")};
}

void TestScenario::badFile()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    const ScenarioParse parsed = scenario::load(dataFile(file));
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.errors.size(), 1);
    for (const QString &text : expected)
        QVERIFY2(parsed.errors.first().contains(text), qPrintable(parsed.errors.first()));
}

void TestScenario::badValue_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::addRow("schema-2") << QByteArray(R"({"schema": 2})") << QStringLiteral("schema: expected 1");
    QTest::addRow("seed-negative") << QByteArray(R"({"seed": -3})") << QStringLiteral("seed: expected a non-negative integer");
    QTest::addRow("seed-fraction") << QByteArray(R"({"seed": 1.5})") << QStringLiteral("seed: expected a non-negative integer");
    QTest::addRow("seed-too-big-number") << QByteArray(R"({"seed": 1e300})") << QStringLiteral("seed: expected");
    QTest::addRow("name-empty") << QByteArray(R"({"name": ""})") << QStringLiteral("name: expected a non-empty string");
    QTest::addRow("orders-zero") << QByteArray(R"({"workload": {"orders": 0}})")
                                 << QStringLiteral("workload.orders: expected an integer from 1 to 1000000, got 0");
    QTest::addRow("orders-fraction") << QByteArray(R"({"workload": {"orders": 2.5}})")
                                     << QStringLiteral("workload.orders: expected an integer from 1 to 1000000, got 2.5");
    QTest::addRow("workload-not-object") << QByteArray(R"({"workload": 3})") << QStringLiteral("workload: expected an object, got 3");
    QTest::addRow("bool-as-number") << QByteArray(R"({"client": {"requestId": 1}})")
                                    << QStringLiteral("client.requestId: expected true or false, got 1");
    QTest::addRow("max-attempts-zero") << QByteArray(R"({"client": {"wrapper": {"maxAttempts": 0}}})")
                                       << QStringLiteral("client.wrapper.maxAttempts: expected an integer from 1 to 100");
    QTest::addRow("backoff-kind") << QByteArray(R"({"client": {"business": {"backoff": {"kind": "fibonacci"}}}})")
                                  << QStringLiteral("client.business.backoff.kind: expected one of constant|linear|exponential");
    QTest::addRow("jitter") << QByteArray(R"({"client": {"wrapper": {"backoff": {"jitter": "lots"}}}})")
                            << QStringLiteral("client.wrapper.backoff.jitter: expected one of none|full|equal|decorrelated");
    QTest::addRow("timeout-zero") << QByteArray(R"({"client": {"timeoutMs": 0}})")
                                  << QStringLiteral("client.timeoutMs: expected an integer from 1 to 3600000");
    QTest::addRow("key-placement") << QByteArray(R"({"client": {"keyPlacement": "perRequest"}})")
                                   << QStringLiteral("client.keyPlacement: expected one of none|perOperation|perBusinessAttempt|perWrapperAttempt");
    QTest::addRow("forcelist-status") << QByteArray(R"({"client": {"transport": {"statusForcelist": [500, 99]}}})")
                                      << QStringLiteral("client.transport.statusForcelist[1]: expected an HTTP status from 100 to 599, got 99");
    QTest::addRow("forcelist-not-array") << QByteArray(R"({"client": {"transport": {"statusForcelist": 503}}})")
                                         << QStringLiteral("client.transport.statusForcelist: expected an array, got 503");
    QTest::addRow("method") << QByteArray(R"({"client": {"transport": {"allowedMethods": ["GET", "FETCH"]}}})")
                            << QStringLiteral("client.transport.allowedMethods[1]: expected one of GET|");
    QTest::addRow("budget-unknown-key") << QByteArray(R"({"client": {"retryBudget": {"tokens": 3}}})")
                                        << QStringLiteral("client.retryBudget.tokens: unknown key");
    QTest::addRow("probability-negative") << QByteArray(R"({"network": {"requestLoss": -0.1}})")
                                          << QStringLiteral("network.requestLoss: expected a number from 0 to 1, got -0.1");
    QTest::addRow("probability-string") << QByteArray(R"({"server": {"throttle429": "often"}})")
                                        << QStringLiteral("server.throttle429: expected a number from 0 to 1, got \"often\"");
    QTest::addRow("script-op-zero") << QByteArray(R"({"network": {"script": [{"op": 0}]}})")
                                    << QStringLiteral("network.script[0].op: expected an operation number from 1 to 1000000 or \"*\", got 0");
    QTest::addRow("script-attempt-order") << QByteArray(R"({"network": {"script": [{"attempt": "w1/b1/t1"}]}})")
                                          << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-attempt-four-segments") << QByteArray(R"({"network": {"script": [{"attempt": "b1/w1/t1/x1"}]}})")
                                                  << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-attempt-zero") << QByteArray(R"({"network": {"script": [{"attempt": "b0/w1/t1"}]}})")
                                         << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-fault") << QByteArray(R"({"network": {"script": [{"fault": "meteor"}]}})")
                                  << QStringLiteral("network.script[0].fault: expected one of connectFailure|requestLost|responseLost|"
                                                    "resetAfterCommit|latencySpike|server5xxBeforeCommit|server5xxAfterCommit|throttle429, got \"meteor\"");
    QTest::addRow("script-entry-unknown-key") << QByteArray(R"({"network": {"script": [{"layer": "b"}]}})")
                                              << QStringLiteral("network.script[0].layer: unknown key");
    QTest::addRow("script-entry-not-object") << QByteArray(R"({"network": {"script": ["responseLost"]}})")
                                             << QStringLiteral("network.script[0]: expected an object");
    QTest::addRow("error-status-not-5xx") << QByteArray(R"({"server": {"errorStatus": 200}})")
                                          << QStringLiteral("server.errorStatus: expected an integer from 500 to 599, got 200");
    QTest::addRow("capacity-negative") << QByteArray(R"({"server": {"capacity": -1}})")
                                       << QStringLiteral("server.capacity: expected an integer from 0 to");
    QTest::addRow("processing-jitter") << QByteArray(R"({"server": {"processingMs": {"jitter": null}}})")
                                       << QStringLiteral("server.processingMs.jitter: expected an integer from 0 to 3600000, got null");
    QTest::addRow("reconcile-action") << QByteArray(R"({"reconciliation": {"action": "delete"}})")
                                      << QStringLiteral("reconciliation.action: expected one of flag|void, got \"delete\"");
    QTest::addRow("top-level-unknown-key") << QByteArray(R"({"seeds": 3})") << QStringLiteral("seeds: unknown key (did you mean \"seed\"?)");
    QTest::addRow("trailing-garbage") << QByteArray(R"({"seed": 3} x)") << QStringLiteral("malformed JSON at offset");
}

void TestScenario::badValue()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    QCOMPARE(parsed.errors.size(), 1);
    QVERIFY2(parsed.errors.first().contains(expected), qPrintable(parsed.errors.first()));
}

void TestScenario::allErrorsReported()
{
    const ScenarioParse parsed = scenario::load(dataFile(QStringLiteral("multiple-errors.json")));
    const QStringList paths{
        QStringLiteral("schema: "),
        QStringLiteral("seed: "),
        QStringLiteral("workload.orders: "),
        QStringLiteral("workload.clients: "),
        QStringLiteral("client.keyPlacement: "),
        QStringLiteral("client.business.maxAttempts: "),
        QStringLiteral("client.business.backoff.jitter: "),
        QStringLiteral("network.script[0].op: "),
        QStringLiteral("network.script[0].attempt: "),
        QStringLiteral("network.script[0].fault: "),
        QStringLiteral("server.errorStatus: "),
        QStringLiteral("server.idempotency.ttl: unknown key"),
        QStringLiteral("reconciliation.action: "),
    };
    QCOMPARE(parsed.errors.size(), paths.size());
    for (const QString &path : paths) {
        const auto hit = std::find_if(parsed.errors.cbegin(), parsed.errors.cend(),
                                      [&](const QString &e) { return e.startsWith(path); });
        QVERIFY2(hit != parsed.errors.cend(), qPrintable(path + QStringLiteral(" missing in:\n")
                                                         + parsed.errors.join(QLatin1Char('\n'))));
    }
}

void TestScenario::validFileLoads()
{
    const ScenarioParse parsed = scenario::load(dataFile(QStringLiteral("valid-custom.json")));
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    const Scenario &s = parsed.scenario;
    QCOMPARE(s.seed, quint64(7));
    QCOMPARE(s.workload.orders, 3);
    QCOMPARE(s.client.keyPlacement, KeyPlacement::PerBusinessAttempt);
    QCOMPARE(s.client.transport.total, 2);
    QCOMPARE(s.client.timeoutMs, 3000); // omitted: default
    QCOMPARE(s.network.script.size(), 1);
    QCOMPARE(s.network.script.first().op, 0);
    QCOMPARE(s.network.script.first().attempt, QStringLiteral("b2/*/t1"));
    QCOMPARE(s.network.script.first().fault, FaultKind::Throttle429);
    QCOMPARE(s.worstCaseFormula(), QStringLiteral("3 x 3 x 3 = 27"));
}

void TestScenario::seedBeyondDoublePrecision()
{
    Scenario s;
    s.seed = Q_UINT64_C(18446744073709551557);
    const QByteArray bytes = QJsonDocument(s.toJson()).toJson();
    const ScenarioParse parsed = scenario::fromJsonBytes(bytes);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(parsed.scenario.seed, s.seed);

    s.seed = Q_UINT64_C(9007199254740992); // 2^53: still a plain number
    QVERIFY(s.toJson().value(QLatin1String("seed")).isDouble());
    QCOMPARE(scenario::fromJson(s.toJson()).scenario.seed, s.seed);
}

void TestScenario::withSet_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonValue>("expected");
    QTest::addRow("integer") << QStringLiteral("client.transport.total=5") << QStringLiteral("client.transport.total") << json("5");
    QTest::addRow("double") << QStringLiteral("network.responseLoss=0.25") << QStringLiteral("network.responseLoss") << json("0.25");
    QTest::addRow("bool") << QStringLiteral("client.transport.enabled=true") << QStringLiteral("client.transport.enabled") << json("true");
    QTest::addRow("bare-string") << QStringLiteral("server.idempotency.mode=atomic") << QStringLiteral("server.idempotency.mode") << json("\"atomic\"");
    QTest::addRow("quoted-string") << QStringLiteral("client.keyPlacement=\"perOperation\"") << QStringLiteral("client.keyPlacement") << json("\"perOperation\"");
    QTest::addRow("string-with-spaces") << QStringLiteral("title=Two words") << QStringLiteral("title") << json("\"Two words\"");
    QTest::addRow("string-with-equals") << QStringLiteral("description=a=b") << QStringLiteral("description") << json("\"a=b\"");
    QTest::addRow("array") << QStringLiteral("client.transport.statusForcelist=[429,503]") << QStringLiteral("client.transport.statusForcelist") << json("[429,503]");
    QTest::addRow("array-of-strings") << QStringLiteral(R"(client.transport.allowedMethods=["GET","POST"])") << QStringLiteral("client.transport.allowedMethods") << json(R"(["GET","POST"])");
    QTest::addRow("object-merges") << QStringLiteral(R"(client.business={"maxAttempts":5})") << QStringLiteral("client.business.backoff.initialMs") << json("1000");
    QTest::addRow("object-sets") << QStringLiteral(R"(client.business={"maxAttempts":5})") << QStringLiteral("client.business.maxAttempts") << json("5");
    QTest::addRow("script-array") << QStringLiteral(R"(network.script=[{"op":"*","attempt":"*/*/t1","fault":"connectFailure"}])")
                                  << QStringLiteral("network.script[0].fault") << json("\"connectFailure\"");
    QTest::addRow("script-append-by-index") << QStringLiteral("network.script[0].fault=requestLost")
                                            << QStringLiteral("network.script[0]") << json(R"({"op":"*","attempt":"*/*/*","fault":"requestLost"})");
    QTest::addRow("list-element") << QStringLiteral("client.transport.statusForcelist[1]=429")
                                  << QStringLiteral("client.transport.statusForcelist") << json("[500,429,503,504]");
    QTest::addRow("seed") << QStringLiteral("seed=123") << QStringLiteral("seed") << json("123");
    QTest::addRow("spaces-around-path") << QStringLiteral(" workload.orders =7") << QStringLiteral("workload.orders") << json("7");
}

void TestScenario::withSet()
{
    QFETCH(QString, assignment);
    QFETCH(QString, path);
    QFETCH(QJsonValue, expected);
    const ScenarioParse parsed = scenario::withSet(Scenario(), assignment);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(scenario::valueAt(parsed.scenario, path), expected);
    QVERIFY(parsed.scenario != Scenario());
}

void TestScenario::withSetRejects_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<QString>("expected");
    QTest::addRow("unknown-path") << QStringLiteral("client.transport.retries=3") << QStringLiteral("client.transport.retries: unknown key");
    QTest::addRow("unknown-top-level") << QStringLiteral("speed=3") << QStringLiteral("speed: unknown key");
    QTest::addRow("path-below-leaf") << QStringLiteral("client.timeoutMs.value=3") << QStringLiteral("client.timeoutMs.value: unknown key");
    QTest::addRow("no-equals") << QStringLiteral("client.timeoutMs") << QStringLiteral("expected path=value");
    QTest::addRow("bad-path-syntax") << QStringLiteral("client..timeoutMs=3") << QStringLiteral("not a valid path");
    QTest::addRow("string-for-integer") << QStringLiteral("client.transport.total=three")
                                        << QStringLiteral("client.transport.total: expected an integer from 0 to 20, got \"three\"");
    QTest::addRow("out-of-range") << QStringLiteral("client.transport.total=21") << QStringLiteral("client.transport.total: expected an integer from 0 to 20, got 21");
    QTest::addRow("bad-enum") << QStringLiteral("server.idempotency.mode=atomc")
                              << QStringLiteral("server.idempotency.mode: expected one of off|naive|atomic|token, got \"atomc\"");
    QTest::addRow("index-gap") << QStringLiteral("network.script[3].fault=requestLost") << QStringLiteral("network.script[3]: index out of range");
    QTest::addRow("script-bad-attempt") << QStringLiteral("network.script[0].attempt=b1") << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-unknown-key") << QStringLiteral("network.script[0].fautl=requestLost") << QStringLiteral("network.script[0].fautl: unknown key");
    QTest::addRow("object-with-unknown-key") << QStringLiteral(R"(client.business={"attempts":5})") << QStringLiteral("client.business.attempts: unknown key");
    QTest::addRow("null") << QStringLiteral("workload.orders=null") << QStringLiteral("workload.orders: expected an integer from 1 to 1000000, got null");
    QTest::addRow("schema") << QStringLiteral("schema=2") << QStringLiteral("schema: expected 1");
}

void TestScenario::withSetRejects()
{
    QFETCH(QString, assignment);
    QFETCH(QString, expected);
    const ScenarioParse parsed = scenario::withSet(Scenario(), assignment);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errors.join(QLatin1Char('\n')).contains(expected), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
}

void TestScenario::withSetKeepsOriginalOnError()
{
    Scenario s;
    s.workload.orders = 9;
    const ScenarioParse parsed = scenario::withSet(s, QStringLiteral("workload.orders=-1"));
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.scenario.workload.orders, 9);
}

void TestScenario::saveLoadRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s = scenario::preset(QStringLiteral("retry-storm")).scenario;
    s.network.script.append(ScriptEntry{3, QStringLiteral("b2/*/t1"), FaultKind::ResetAfterCommit});
    s.description = QStringLiteral("Umlauts survive: \u00e4\u00f6\u00fc, and \"quotes\".");
    const QString fileName = dir.filePath(QStringLiteral("storm.json"));
    QCOMPARE(scenario::save(s, fileName), QString());

    QFile file(fileName);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("\n    \"client\"")); // indented for humans and diffs
    file.close();

    const ScenarioParse loaded = scenario::load(fileName);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
    QVERIFY(loaded.scenario == s);
    QVERIFY(scenario::resolve(fileName).scenario == s);
}

void TestScenario::saveToUnwritablePath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("missing-dir/sub/x.json"));
    const QString error = scenario::save(Scenario(), fileName);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(fileName), qPrintable(error));
    QVERIFY(!QFile::exists(fileName));
}

void TestScenario::loadMissingFile()
{
    const QString fileName = dataFile(QStringLiteral("does-not-exist.json"));
    const ScenarioParse parsed = scenario::load(fileName);
    QCOMPARE(parsed.errors.size(), 1);
    QVERIFY2(parsed.errors.first().contains(fileName), qPrintable(parsed.errors.first()));
}

void TestScenario::unknownPreset()
{
    const ScenarioParse parsed = scenario::preset(QStringLiteral("ghost-requests"));
    QCOMPARE(parsed.errors.size(), 1);
    QVERIFY(parsed.errors.first().contains(QLatin1String("\"ghost-requests\"")));
    for (const QString &name : catalogue())
        QVERIFY2(parsed.errors.first().contains(name), qPrintable(parsed.errors.first()));
}

void TestScenario::resolve()
{
    const ScenarioParse byName = scenario::resolve(QStringLiteral("key-expiry"));
    QVERIFY(byName.ok());
    QCOMPARE(byName.scenario.name, QStringLiteral("key-expiry"));

    const ScenarioParse byFile = scenario::resolve(dataFile(QStringLiteral("valid-custom.json")));
    QVERIFY(byFile.ok());
    QCOMPARE(byFile.scenario.name, QStringLiteral("valid-custom"));

    const ScenarioParse badFile = scenario::resolve(dataFile(QStringLiteral("unknown-enum.json")));
    QVERIFY(!badFile.ok());

    const ScenarioParse neither = scenario::resolve(QStringLiteral("no-such-thing"));
    QCOMPARE(neither.errors.size(), 1);
    QVERIFY(neither.errors.first().contains(QLatin1String("no-such-thing")));
    QVERIFY(neither.errors.first().contains(QLatin1String("ghost-request")));
}

void TestScenario::enumNames_data()
{
    QTest::addColumn<QString>("actual");
    QTest::addColumn<QString>("expected");
    QTest::addRow("backoff-exponential") << scenario::toString(BackoffKind::Exponential) << QStringLiteral("exponential");
    QTest::addRow("backoff-linear") << scenario::toString(BackoffKind::Linear) << QStringLiteral("linear");
    QTest::addRow("jitter-decorrelated") << scenario::toString(Jitter::Decorrelated) << QStringLiteral("decorrelated");
    QTest::addRow("key-per-wrapper-attempt") << scenario::toString(KeyPlacement::PerWrapperAttempt) << QStringLiteral("perWrapperAttempt");
    QTest::addRow("key-per-business-attempt") << scenario::toString(KeyPlacement::PerBusinessAttempt) << QStringLiteral("perBusinessAttempt");
    QTest::addRow("mode-token") << scenario::toString(IdempotencyMode::Token) << QStringLiteral("token");
    QTest::addRow("retry-on-transient") << scenario::toString(WrapperRetryOn::Transient) << QStringLiteral("transient");
    QTest::addRow("reconcile-void") << scenario::toString(ReconcileAction::Void) << QStringLiteral("void");
    QTest::addRow("fault-5xx-before") << scenario::toString(FaultKind::Server5xxBeforeCommit) << QStringLiteral("server5xxBeforeCommit");
    QTest::addRow("fault-429") << scenario::toString(FaultKind::Throttle429) << QStringLiteral("throttle429");
    QTest::addRow("fault-connect") << scenario::toString(FaultKind::ConnectFailure) << QStringLiteral("connectFailure");
}

void TestScenario::enumNames()
{
    QFETCH(QString, actual);
    QFETCH(QString, expected);
    QCOMPARE(actual, expected);
}

void TestScenario::faultNamesRoundTrip_data()
{
    QTest::addColumn<int>("fault");
    for (int f = int(FaultKind::ConnectFailure); f <= int(FaultKind::Throttle429); ++f)
        QTest::addRow("%s", qPrintable(scenario::toString(FaultKind(f)))) << f;
}

void TestScenario::faultNamesRoundTrip()
{
    QFETCH(int, fault);
    Scenario s;
    s.network.script.append(ScriptEntry{fault + 1, QStringLiteral("*/w2/*"), FaultKind(fault)});
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.script[0].fault")).toString(),
             scenario::toString(FaultKind(fault)));
    const ScenarioParse parsed = scenario::fromJson(s.toJson());
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(int(parsed.scenario.network.script.first().fault), fault);
    QCOMPARE(parsed.scenario.network.script.first().op, fault + 1);
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
