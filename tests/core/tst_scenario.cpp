#include "scenario.h"
#include "policy.h"
#include "testpaths.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace retrylab;

namespace {

QString dataFile(const QString &name)
{
    return retrylab::test::dataPath(QStringLiteral("scenarios/")) + name;
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
            QStringLiteral("server-token"),       QStringLiteral("server-token-query"),
            QStringLiteral("key-store-restart"),  QStringLiteral("reconciliation"),
            QStringLiteral("retry-storm"),        QStringLiteral("correlation-ids"),
            QStringLiteral("jitter-contention"),  QStringLiteral("metastable")};
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
    void setsAreValidatedTogether();
    void offendingNumbersAsWritten_data();
    void offendingNumbersAsWritten();
    void tenacityNames_data();
    void tenacityNames();
    void tenacityNamesRejected_data();
    void tenacityNamesRejected();
    void minimumWaitFloorsTheBackoff();
    void awsIndexingAndProportionalJitter();
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
    void listCaps_data();
    void listCaps();
    void catalogueStatesCaps();
    void fileSizeCap();
    void scriptEntryNeedsFault();
    void scriptEntryThatCanNeverFire_data();
    void scriptEntryThatCanNeverFire();
    void lowerLimitOrphansScriptEntry();
    void duplicateKeys_data();
    void duplicateKeys();
    void errorListIsCapped();
    void echoedTextIsShortAndEscaped_data();
    void echoedTextIsShortAndEscaped();
    void syntaxErrorSaysWhatAndWhere_data();
    void syntaxErrorSaysWhatAndWhere();
    void validJsonStillParses();
    void valueAtReadsScriptEntries();
    void transportUrllib3Keys();
    void transportUrllib3KeysRejected_data();
    void transportUrllib3KeysRejected();
    void unlimitedAttempts_data();
    void unlimitedAttempts();
    void issue11FieldsRoundTrip_data();
    void issue11FieldsRoundTrip();
    void issue11FieldsReachTheStruct();
    void savedFileWritesNormalShapeOnly();
    void issue11Refusals_data();
    void issue11Refusals();
    void initialTokensNullOrNumber();
    void phaseAndWindowCaps();
    void catalogueListsIssue11Fields();
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
                                      << json(R"({"kind":"exponential","initialMs":1000,"multiplier":2,"maxMs":8000,"jitter":"full","minMs":0,"jitterPercent":10})");
    QTest::addRow("wrapper-backoff") << QStringLiteral("client.wrapper.backoff")
                                     << json(R"({"kind":"exponential","initialMs":100,"multiplier":2,"maxMs":1000,"jitter":"none","minMs":0,"jitterPercent":10})");
    QTest::addRow("wrapper-retry-on") << QStringLiteral("client.wrapperRetryOn") << json("\"any\"");
    QTest::addRow("transport-off") << QStringLiteral("client.transport.enabled") << json("false");
    QTest::addRow("transport-methods-exclude-post")
        << QStringLiteral("client.transport.allowedMethods") << json(R"(["GET","HEAD","PUT","DELETE","OPTIONS","TRACE"])");
    QTest::addRow("transport-forcelist") << QStringLiteral("client.transport.statusForcelist") << json("[500,502,503,504]");
    QTest::addRow("timeout") << QStringLiteral("client.timeoutMs") << json("3000");
    QTest::addRow("budget") << QStringLiteral("client.retryBudget")
                            << json(R"({"enabled":false,"ratio":0.1,"maxTokens":10,"scope":"perClient","initialTokens":null,)"
                                    R"("kind":"tokenPerRetry","percentCanRetry":20,"minRetriesPerSec":10,"ttlS":10})");
    QTest::addRow("breaker") << QStringLiteral("client.circuitBreaker")
                             << json(R"({"enabled":false,"failureThreshold":5,"openMs":5000,"mode":"consecutive",)"
                                     R"("window":20,"failureRatePercent":50,"retriesOnly":false,"halfOpenCalls":0})");
    // valueAt names every key; a saved file leaves distribution, mean and sd out for uniform.
    QTest::addRow("latency") << QStringLiteral("network.latencyMs")
                             << json(R"({"base":20,"jitter":10,"distribution":"uniform","mean":10,"sd":2})");
    QTest::addRow("workload-mode") << QStringLiteral("workload.mode") << json("\"open\"");
    QTest::addRow("workload-arrivals") << QStringLiteral("workload.arrivals") << json("\"fixed\"");
    QTest::addRow("workload-phases") << QStringLiteral("workload.phases") << json("[]");
    QTest::addRow("workload-ops-per-client") << QStringLiteral("workload.opsPerClient") << json("1");
    QTest::addRow("workload-think-time") << QStringLiteral("workload.thinkTimeMs") << json("0");
    QTest::addRow("workload-start-together") << QStringLiteral("workload.startTogether") << json("true");
    QTest::addRow("server-model") << QStringLiteral("server.model") << json("\"orders\"");
    QTest::addRow("server-occ") << QStringLiteral("server.occ") << json(R"({"rows":1})");
    QTest::addRow("server-latency-per-in-flight") << QStringLiteral("server.latencyPerInFlightMs") << json("0");
    QTest::addRow("processing") << QStringLiteral("server.processingMs")
                                << json(R"({"base":50,"jitter":20,"distribution":"uniform","mean":10,"sd":2})");
    QTest::addRow("windows") << QStringLiteral("windows") << json("[]");
    QTest::addRow("script-empty") << QStringLiteral("network.script") << json("[]");
    QTest::addRow("spike") << QStringLiteral("network.spikeMs") << json("5000");
    QTest::addRow("error-status") << QStringLiteral("server.errorStatus") << json("503");
    QTest::addRow("idempotency") << QStringLiteral("server.idempotency")
                                 << json(R"({"mode":"off","requireKey":false,"ttlS":86400,"fingerprint":true,"storeErrors":true,"tokenReuse":"reject","store":"durable"})");
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
                                       << json(R"([{"op":1,"attempt":"b1/w1/t1","fault":"responseLost","method":"POST"}])");
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
                                    << QStringList{QStringLiteral("malformed.json: malformed JSON at line 4, column 1: the file ends inside "
                                                                   "the object that opens at line 3, column 17 (a missing }?)")};
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
                                 << QStringLiteral("workload.orders: expected an integer from 1 to 100000000, got 0");
    QTest::addRow("orders-fraction") << QByteArray(R"({"workload": {"orders": 2.5}})")
                                     << QStringLiteral("workload.orders: expected an integer from 1 to 100000000, got 2.5");
    QTest::addRow("workload-not-object") << QByteArray(R"({"workload": 3})") << QStringLiteral("workload: expected an object, got 3");
    QTest::addRow("bool-as-number") << QByteArray(R"({"client": {"requestId": 1}})")
                                    << QStringLiteral("client.requestId: expected true or false, got 1");
    // 0 is unlimited since issue 8: without a deadline it is refused, naming both fields.
    QTest::addRow("max-attempts-zero") << QByteArray(R"({"client": {"wrapper": {"maxAttempts": 0}}})")
                                       << QStringLiteral("client.wrapper.maxAttempts: 0 (unlimited) needs client.wrapper.deadlineMs above 0");
    QTest::addRow("max-attempts-negative") << QByteArray(R"({"client": {"wrapper": {"maxAttempts": -1}}})")
                                           << QStringLiteral("client.wrapper.maxAttempts: expected an integer from 0 to 100");
    QTest::addRow("backoff-kind") << QByteArray(R"({"client": {"business": {"backoff": {"kind": "fibonacci"}}}})")
                                  << QStringLiteral("client.business.backoff.kind: expected one of constant|linear|exponential");
    QTest::addRow("jitter") << QByteArray(R"({"client": {"wrapper": {"backoff": {"jitter": "lots"}}}})")
                            << QStringLiteral("client.wrapper.backoff.jitter: expected one of none|full|equal|awsDecorrelated");
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
    QTest::addRow("script-op-zero") << QByteArray(R"({"network": {"script": [{"op": 0, "fault": "responseLost"}]}})")
                                    << QStringLiteral("network.script[0].op: expected an operation number from 1 to 1000000 or \"*\", got 0");
    QTest::addRow("script-attempt-order") << QByteArray(R"({"network": {"script": [{"attempt": "w1/b1/t1", "fault": "responseLost"}]}})")
                                          << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-attempt-four-segments") << QByteArray(R"({"network": {"script": [{"attempt": "b1/w1/t1/x1", "fault": "responseLost"}]}})")
                                                  << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-attempt-zero") << QByteArray(R"({"network": {"script": [{"attempt": "b0/w1/t1", "fault": "responseLost"}]}})")
                                         << QStringLiteral("network.script[0].attempt: expected");
    QTest::addRow("script-fault") << QByteArray(R"({"network": {"script": [{"fault": "meteor"}]}})")
                                  << QStringLiteral("network.script[0].fault: expected one of connectFailure|requestLost|responseLost|"
                                                    "resetAfterCommit|latencySpike|server5xxBeforeCommit|server5xxAfterCommit|throttle429|serverRestart, got \"meteor\"");
    QTest::addRow("script-entry-unknown-key") << QByteArray(R"({"network": {"script": [{"layer": "b", "fault": "responseLost"}]}})")
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
    QTest::addRow("trailing-garbage") << QByteArray(R"({"seed": 3} x)")
                                      << QStringLiteral("malformed JSON at line 1, column 13: unexpected text after the end of the JSON value: \"x\"");
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
                                            << QStringLiteral("network.script[0]") << json(R"({"op":"*","attempt":"*/*/*","fault":"requestLost","method":"POST"})");
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
    QTest::addRow("null") << QStringLiteral("workload.orders=null") << QStringLiteral("workload.orders: expected an integer from 1 to 100000000, got null");
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
    QTest::addRow("jitter-decorrelated") << scenario::toString(Jitter::AwsDecorrelated) << QStringLiteral("awsDecorrelated");
    QTest::addRow("key-per-wrapper-attempt") << scenario::toString(KeyPlacement::PerWrapperAttempt) << QStringLiteral("perWrapperAttempt");
    QTest::addRow("key-per-business-attempt") << scenario::toString(KeyPlacement::PerBusinessAttempt) << QStringLiteral("perBusinessAttempt");
    QTest::addRow("mode-token") << scenario::toString(IdempotencyMode::Token) << QStringLiteral("token");
    QTest::addRow("retry-on-transient") << scenario::toString(WrapperRetryOn::Transient) << QStringLiteral("transient");
    QTest::addRow("reconcile-void") << scenario::toString(ReconcileAction::Void) << QStringLiteral("void");
    QTest::addRow("fault-5xx-before") << scenario::toString(FaultKind::Server5xxBeforeCommit) << QStringLiteral("server5xxBeforeCommit");
    QTest::addRow("fault-429") << scenario::toString(FaultKind::Throttle429) << QStringLiteral("throttle429");
    QTest::addRow("fault-connect") << scenario::toString(FaultKind::ConnectFailure) << QStringLiteral("connectFailure");
    QTest::addRow("shape-uniform") << scenario::toString(DistributionShape::Uniform) << QStringLiteral("uniform");
    QTest::addRow("shape-normal") << scenario::toString(DistributionShape::Normal) << QStringLiteral("normal");
    QTest::addRow("scope-per-client") << scenario::toString(BudgetScope::PerClient) << QStringLiteral("perClient");
    QTest::addRow("scope-global") << scenario::toString(BudgetScope::Global) << QStringLiteral("global");
    QTest::addRow("breaker-consecutive") << scenario::toString(BreakerMode::Consecutive) << QStringLiteral("consecutive");
    QTest::addRow("breaker-failure-rate") << scenario::toString(BreakerMode::FailureRate) << QStringLiteral("failureRate");
    QTest::addRow("model-orders") << scenario::toString(ServerModel::Orders) << QStringLiteral("orders");
    QTest::addRow("model-occ") << scenario::toString(ServerModel::Occ) << QStringLiteral("occ");
    QTest::addRow("workload-open") << scenario::toString(WorkloadMode::Open) << QStringLiteral("open");
    QTest::addRow("workload-closed") << scenario::toString(WorkloadMode::Closed) << QStringLiteral("closed");
    QTest::addRow("arrivals-fixed") << scenario::toString(Arrivals::Fixed) << QStringLiteral("fixed");
    QTest::addRow("arrivals-poisson") << scenario::toString(Arrivals::Poisson) << QStringLiteral("poisson");
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

namespace {

// {"a": {"b": [item, item, ...]}} for a dotted path of objects ending in a list of count items.
QByteArray listAt(const QByteArray &prefix, const QByteArray &item, int count, const QByteArray &suffix)
{
    QByteArray text = prefix + '[';
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            text += ',';
        text += item;
    }
    return text + ']' + suffix;
}

} // namespace

void TestScenario::listCaps_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected"); // empty: accepted
    const QByteArray entry(R"({"op": "*", "attempt": "*/*/*", "fault": "responseLost"})");
    const QByteArray script(R"({"network": {"script": )");
    const QByteArray forcelist(R"({"client": {"transport": {"statusForcelist": )");
    const QByteArray methods(R"({"client": {"transport": {"allowedMethods": )");
    QTest::addRow("script-at-cap") << listAt(script, entry, scenario::MaxScriptEntries, "}}") << QString();
    QTest::addRow("script-over-cap") << listAt(script, entry, scenario::MaxScriptEntries + 1, "}}")
                                     << QStringLiteral("network.script: at most 1000 entries, got 1001");
    QTest::addRow("script-100000") << listAt(script, "{}", 100000, "}}")
                                   << QStringLiteral("network.script: at most 1000 entries, got 100000");
    QTest::addRow("forcelist-at-cap") << listAt(forcelist, "503", scenario::MaxForcelistEntries, "}}}") << QString();
    QTest::addRow("forcelist-over-cap") << listAt(forcelist, "503", scenario::MaxForcelistEntries + 1, "}}}")
                                        << QStringLiteral("client.transport.statusForcelist: at most 64 entries, got 65");
    QTest::addRow("methods-at-cap") << listAt(methods, "\"GET\"", scenario::MaxMethodEntries, "}}}") << QString();
    QTest::addRow("methods-over-cap") << listAt(methods, "\"GET\"", scenario::MaxMethodEntries + 1, "}}}")
                                      << QStringLiteral("client.transport.allowedMethods: at most 16 entries, got 17");
    const auto text = [](const char *key, int size) {
        return QByteArray("{\"") + key + "\": \"" + QByteArray(size, 'x') + "\"}";
    };
    QTest::addRow("name-at-cap") << text("name", scenario::MaxNameChars) << QString();
    QTest::addRow("name-over-cap") << text("name", scenario::MaxNameChars + 1)
                                   << QStringLiteral("name: at most 100 characters, got 101");
    QTest::addRow("title-at-cap") << text("title", scenario::MaxTitleChars) << QString();
    QTest::addRow("title-over-cap") << text("title", scenario::MaxTitleChars + 1)
                                    << QStringLiteral("title: at most 200 characters, got 201");
    QTest::addRow("description-at-cap") << text("description", scenario::MaxDescriptionChars) << QString();
    QTest::addRow("description-over-cap") << text("description", 1000000)
                                          << QStringLiteral("description: at most 10000 characters, got 1000000");
}

void TestScenario::listCaps()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    if (expected.isEmpty()) {
        QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        return;
    }
    QCOMPARE(parsed.errors, QStringList{expected});
}

void TestScenario::catalogueStatesCaps()
{
    // `retrylab fields` prints these texts: the one place where the caps are documented per field.
    QHash<QString, QString> allowed;
    const QList<FieldInfo> fields = scenario::fields();
    for (const FieldInfo &f : fields)
        allowed.insert(f.path, f.allowed);
    QVERIFY2(allowed.value(QStringLiteral("network.script")).endsWith(QLatin1String("at most 1000 entries")),
             qPrintable(allowed.value(QStringLiteral("network.script"))));
    QVERIFY(allowed.value(QStringLiteral("client.transport.statusForcelist")).endsWith(QLatin1String("at most 64 entries")));
    QVERIFY(allowed.value(QStringLiteral("client.transport.allowedMethods")).endsWith(QLatin1String("at most 16 entries")));
    QVERIFY(allowed.value(QStringLiteral("name")).endsWith(QLatin1String("at most 100 characters")));
    QVERIFY(allowed.value(QStringLiteral("title")).endsWith(QLatin1String("at most 200 characters")));
    QVERIFY(allowed.value(QStringLiteral("description")).endsWith(QLatin1String("at most 10000 characters")));
}

void TestScenario::fileSizeCap()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray object(R"({"seed": 7})");
    // Padding with spaces keeps the file valid JSON: only its size differs.
    const QByteArray atCap = object + QByteArray(int(scenario::MaxFileBytes) - object.size(), ' ');
    QFile file(dir.filePath(QStringLiteral("at-cap.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(atCap);
    file.close();
    const ScenarioParse ok = scenario::load(file.fileName());
    QVERIFY2(ok.ok(), qPrintable(ok.errors.join(QLatin1Char('\n'))));
    QCOMPARE(ok.scenario.seed, quint64(7));

    QVERIFY(file.open(QIODevice::Append));
    file.write(" ");
    file.close();
    const ScenarioParse big = scenario::load(file.fileName());
    QCOMPARE(big.errors, QStringList{file.fileName() + QStringLiteral(": the file is larger than 4194304 bytes, the most "
                                                                       "a scenario file may hold")});
}

void TestScenario::scriptEntryNeedsFault()
{
    // {} used to mean "lose every response" without saying so.
    const ScenarioParse parsed = scenario::fromJsonBytes(R"({"network": {"script": [{"op": 1, "attempt": "b1/w1/t1", "fault": "requestLost"}, {}]}})");
    QCOMPARE(parsed.errors,
             QStringList{QStringLiteral("network.script[1].fault: missing; every script entry names the fault it forces, "
                                        "one of connectFailure|requestLost|responseLost|resetAfterCommit|latencySpike|"
                                        "server5xxBeforeCommit|server5xxAfterCommit|throttle429|serverRestart")});
    // The same through --set with a whole list; appending by index starts from a complete default entry.
    const ScenarioParse set = scenario::withSet(Scenario(), QStringLiteral("network.script=[{\"op\": 1}]"));
    QVERIFY(!set.ok());
    QVERIFY2(set.errors.value(0).startsWith(QLatin1String("network.script[0].fault: missing")), qPrintable(set.errors.value(0)));
    const ScenarioParse appended = scenario::withSet(Scenario(), QStringLiteral("network.script[0].op=1"));
    QVERIFY2(appended.ok(), qPrintable(appended.errors.join(QLatin1Char('\n'))));
    QCOMPARE(scenario::valueAt(appended.scenario, QStringLiteral("network.script[0]")),
             json(R"({"op": 1, "attempt": "*/*/*", "fault": "responseLost", "method": "POST"})"));
}

void TestScenario::scriptEntryThatCanNeverFire_data()
{
    QTest::addColumn<QByteArray>("settings"); // inside the top-level object, before "network"
    QTest::addColumn<QByteArray>("entry");
    QTest::addColumn<QString>("expected"); // empty: accepted
    QTest::addRow("business-beyond-max") << QByteArray() << QByteArray(R"("op": 1, "attempt": "b9999/w9999/t9999")")
                                         << QStringLiteral("network.script[0].attempt: b9999 can never happen: "
                                                           "client.business.maxAttempts is 3");
    QTest::addRow("business-at-max") << QByteArray() << QByteArray(R"("attempt": "b3/*/*")") << QString();
    QTest::addRow("business-max-plus-one") << QByteArray() << QByteArray(R"("attempt": "b4/*/*")")
                                           << QStringLiteral("network.script[0].attempt: b4 can never happen: "
                                                             "client.business.maxAttempts is 3");
    QTest::addRow("business-disabled") << QByteArray(R"("client": {"business": {"enabled": false}},)")
                                       << QByteArray(R"("attempt": "b2/*/*")")
                                       << QStringLiteral("network.script[0].attempt: b2 can never happen: "
                                                         "client.business.enabled is false, so every attempt is b1");
    QTest::addRow("business-disabled-b1") << QByteArray(R"("client": {"business": {"enabled": false}},)")
                                          << QByteArray(R"("attempt": "b1/*/*")") << QString();
    QTest::addRow("wrapper-beyond-max") << QByteArray(R"("client": {"wrapper": {"maxAttempts": 5}},)")
                                        << QByteArray(R"("attempt": "*/w6/*")")
                                        << QStringLiteral("network.script[0].attempt: w6 can never happen: "
                                                          "client.wrapper.maxAttempts is 5");
    QTest::addRow("transport-disabled") << QByteArray() << QByteArray(R"("attempt": "*/*/t2")")
                                        << QStringLiteral("network.script[0].attempt: t2 can never happen: "
                                                          "client.transport.enabled is false, so every attempt is t1");
    QTest::addRow("transport-last") << QByteArray(R"("client": {"transport": {"enabled": true, "total": 3}},)")
                                    << QByteArray(R"("attempt": "*/*/t4")") << QString();
    QTest::addRow("transport-beyond-last") << QByteArray(R"("client": {"transport": {"enabled": true, "total": 3}},)")
                                           << QByteArray(R"("attempt": "*/*/t5")")
                                           << QStringLiteral("network.script[0].attempt: t5 can never happen: "
                                                             "client.transport.total is 3, so the last attempt is t4");
    QTest::addRow("op-at-orders") << QByteArray(R"("workload": {"orders": 20},)") << QByteArray(R"("op": 20)") << QString();
    QTest::addRow("op-beyond-orders") << QByteArray(R"("workload": {"orders": 20},)") << QByteArray(R"("op": 21)")
                                      << QStringLiteral("network.script[0].op: 21 can never happen: workload.orders is 20");
}

void TestScenario::scriptEntryThatCanNeverFire()
{
    QFETCH(QByteArray, settings);
    QFETCH(QByteArray, entry);
    QFETCH(QString, expected);
    const QByteArray text = "{" + settings + R"("network": {"script": [{"fault": "responseLost", )" + entry + "}]}}";
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    if (expected.isEmpty())
        QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    else
        QCOMPARE(parsed.errors, QStringList{expected});
}

void TestScenario::lowerLimitOrphansScriptEntry()
{
    // --set and the editor go through the same check: lowering a limit below a scripted index is refused.
    const ScenarioParse base = scenario::fromJsonBytes(R"({"network": {"script": [{"attempt": "b3/*/*", "fault": "requestLost"}]}})");
    QVERIFY(base.ok());
    const ScenarioParse lowered = scenario::withSet(base.scenario, QStringLiteral("client.business.maxAttempts=2"));
    QCOMPARE(lowered.errors, QStringList{QStringLiteral("network.script[0].attempt: b3 can never happen: "
                                                        "client.business.maxAttempts is 2")});
}

void TestScenario::duplicateKeys_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("expected"); // empty: accepted
    QTest::addRow("top-level") << QByteArray(R"({"seed": 1, "seed": 2})")
                               << QStringList{QStringLiteral("seed: the key appears twice in one object (again at line 1, "
                                                             "column 13); JSON keeps only the last, so write it once")};
    QTest::addRow("nested") << QByteArray("{\"workload\": {\n  \"orders\": 3,\n  \"orders\": 4}}")
                            << QStringList{QStringLiteral("workload.orders: the key appears twice in one object (again at "
                                                          "line 3, column 3); JSON keeps only the last, so write it once")};
    QTest::addRow("script-entry") << QByteArray(R"({"network": {"script": [{"fault": "requestLost"}, {"fault": "requestLost", "fault": "responseLost"}]}})")
                                  << QStringList{QStringLiteral("network.script[1].fault: the key appears twice in one "
                                                                "object (again at line 1, column 76); JSON keeps only "
                                                                "the last, so write it once")};
    QTest::addRow("escaped-spelling") << QByteArray(R"({"seed": 1, "se\u0065d": 2})")
                                      << QStringList{QStringLiteral("seed: the key appears twice in one object (again at "
                                                                    "line 1, column 13); JSON keeps only the last, so "
                                                                    "write it once")};
    QTest::addRow("with-other-errors") << QByteArray(R"({"seed": 1, "seed": 2, "workload": {"orders": 0}})")
                                       << QStringList{QStringLiteral("seed: the key appears twice in one object (again "
                                                                     "at line 1, column 13); JSON keeps only the last, "
                                                                     "so write it once"),
                                                      QStringLiteral("workload.orders: expected an integer from 1 to "
                                                                     "100000000, got 0")};
    QTest::addRow("same-key-in-sibling-objects")
        << QByteArray(R"({"client": {"business": {"maxAttempts": 3}, "wrapper": {"maxAttempts": 3}}, "network": {"script": [{"fault": "requestLost"}, {"fault": "requestLost"}]}})")
        << QStringList();
}

void TestScenario::duplicateKeys()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, expected);
    QCOMPARE(scenario::fromJsonBytes(text).errors, expected);
}

void TestScenario::errorListIsCapped()
{
    QByteArray text = "{";
    for (int i = 0; i < 100000; ++i)
        text += (i > 0 ? ",\"k" : "\"k") + QByteArray::number(i) + "\": 1";
    text += "}";
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    QCOMPARE(parsed.errors.size(), scenario::MaxReportedErrors + 1);
    QCOMPARE(parsed.errors.first(), QStringLiteral("k0: unknown key"));
    QCOMPARE(parsed.errors.last(), QStringLiteral("and 99980 more errors"));

    // The cap covers duplicates and field errors together, and counts one in the singular.
    QByteArray mixed = R"({"seed": 1, "seed": 2)";
    for (int i = 0; i < scenario::MaxReportedErrors; ++i)
        mixed += ", \"x" + QByteArray::number(i) + "\": 1";
    mixed += "}";
    const ScenarioParse both = scenario::fromJsonBytes(mixed);
    QCOMPARE(both.errors.size(), scenario::MaxReportedErrors + 1);
    QVERIFY(both.errors.first().startsWith(QLatin1String("seed: the key appears twice")));
    QCOMPARE(both.errors.last(), QStringLiteral("and 1 more error"));
}

void TestScenario::echoedTextIsShortAndEscaped_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::addRow("space-in-key") << QByteArray(R"({" workload": {}})")
                                  << QStringLiteral("\" workload\": unknown key (did you mean \"workload\"?)");
    QTest::addRow("empty-key") << QByteArray(R"({"client": {"": 1}})")
                               << QStringLiteral("client.\"\" (an empty key): unknown key");
    QTest::addRow("escape-in-key") << QByteArray(R"({"\u001b[2Jseed": 1})")
                                   << QStringLiteral("\"\\u001b[2Jseed\": unknown key");
    QTest::addRow("quote-in-key") << QByteArray(R"({"a\"b": 1})") << QStringLiteral("\"a\\\"b\": unknown key");
    QTest::addRow("escape-in-value") << QByteArray(R"({"client": {"keyPlacement": "\u001b[31mred\u0007"}})")
                                     << QStringLiteral("client.keyPlacement: expected one of none|perOperation|"
                                                       "perBusinessAttempt|perWrapperAttempt, got \"\\u001b[31mred\\u0007\"");
    QTest::addRow("bidi-override-in-value") << QByteArray(R"({"server": {"idempotency": {"mode": "\u202eatomic"}}})")
                                            << QStringLiteral("server.idempotency.mode: expected one of off|naive|atomic|"
                                                              "token, got \"\\u202eatomic\"");
    const QString sixty(60, QLatin1Char('k'));
    QTest::addRow("long-key") << QByteArray("{\"" + QByteArray(1000000, 'k') + "\": 1}")
                              << QStringLiteral("\"%1\u2026\": unknown key").arg(sixty);
    QTest::addRow("long-value") << QByteArray("{\"client\": {\"keyPlacement\": \"" + QByteArray(100000, 'v') + "\"}}")
                                << QStringLiteral("client.keyPlacement: expected one of none|perOperation|"
                                                  "perBusinessAttempt|perWrapperAttempt, got \"%1\u2026\"")
                                       .arg(QString(60, QLatin1Char('v')));
    QTest::addRow("long-key-no-suggestion") << QByteArray("{\"" + QByteArray(65, 's') + "\": 1}")
                                            << QStringLiteral("\"%1\u2026\": unknown key").arg(QString(60, QLatin1Char('s')));
    QTest::addRow("big-array-value") << listAt(R"({"workload": {"orders": )", "12345", 100000, "}}")
                                     << QStringLiteral("workload.orders: expected an integer from 1 to 100000000, got "
                                                       "[12345,12345,12345,12345,12345,12345,12345,12345,12345,12345\u2026");
}

void TestScenario::echoedTextIsShortAndEscaped()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QCOMPARE(scenario::fromJsonBytes(text).errors, QStringList{expected});
}

void TestScenario::syntaxErrorSaysWhatAndWhere_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::addRow("leading-zeros") << QByteArray("{\n  \"workload\": {\n    \"orders\": 007\n  }\n}")
                                   << QStringLiteral("malformed JSON at line 3, column 15: invalid number 007 (JSON "
                                                     "numbers have no leading zeros)");
    QTest::addRow("hex") << QByteArray(R"({"seed": 0x10})")
                         << QStringLiteral("malformed JSON at line 1, column 10: invalid number 0x10 (hexadecimal is not "
                                           "JSON; write the number in decimal)");
    QTest::addRow("plus-sign") << QByteArray(R"({"seed": +1})")
                               << QStringLiteral("malformed JSON at line 1, column 10: invalid number +1 (JSON numbers "
                                                 "cannot start with +)");
    QTest::addRow("leading-point") << QByteArray(R"({"network": {"responseLoss": .5}})")
                                   << QStringLiteral("malformed JSON at line 1, column 30: invalid number .5 (write a "
                                                     "digit before the decimal point, e.g. 0.5)");
    QTest::addRow("trailing-point") << QByteArray(R"({"seed": 1.})")
                                    << QStringLiteral("malformed JSON at line 1, column 10: invalid number 1. (a digit "
                                                      "must follow the decimal point)");
    QTest::addRow("unit-suffix") << QByteArray(R"({"client": {"timeoutMs": 10ms}})")
                                 << QStringLiteral("malformed JSON at line 1, column 26: invalid number 10ms (JSON "
                                                   "numbers are plain decimals such as 10, 0.5 or 1e6)");
    QTest::addRow("overflow") << QByteArray(R"({"seed": 1e999})")
                              << QStringLiteral("malformed JSON at line 1, column 10: invalid number 1e999 (too large to "
                                                "be a number)");
    QTest::addRow("nan") << QByteArray(R"({"seed": NaN})")
                         << QStringLiteral("malformed JSON at line 1, column 10: NaN is not a JSON number");
    QTest::addRow("minus-infinity") << QByteArray(R"({"seed": -Infinity})")
                                    << QStringLiteral("malformed JSON at line 1, column 10: -Infinity is not a JSON number");
    QTest::addRow("capital-true") << QByteArray(R"({"client": {"requestId": True}})")
                                  << QStringLiteral("malformed JSON at line 1, column 26: True is not JSON (write true "
                                                    "in lower case)");
    QTest::addRow("bare-word") << QByteArray(R"({"server": {"idempotency": {"mode": atomic}}})")
                               << QStringLiteral("malformed JSON at line 1, column 37: the word atomic has no quotes "
                                                 "(text values need double quotes: \"atomic\")");
    QTest::addRow("single-quotes") << QByteArray(R"({'seed': 1})")
                                   << QStringLiteral("malformed JSON at line 1, column 2: a key in single quotes (JSON "
                                                     "needs double quotes)");
    QTest::addRow("unquoted-key") << QByteArray(R"({seed: 1})")
                                  << QStringLiteral("malformed JSON at line 1, column 2: the key seed has no quotes (JSON "
                                                    "needs \"seed\")");
    QTest::addRow("trailing-comma") << QByteArray("{\"seed\": 1,\n}")
                                    << QStringLiteral("malformed JSON at line 1, column 11: a comma before } (JSON allows "
                                                      "no trailing comma)");
    QTest::addRow("trailing-comma-array") << QByteArray(R"({"client": {"transport": {"statusForcelist": [500,]}}})")
                                          << QStringLiteral("malformed JSON at line 1, column 50: a comma before ] "
                                                            "(JSON allows no trailing comma)");
    QTest::addRow("missing-comma") << QByteArray("{\"seed\": 1\n \"name\": \"x\"}")
                                   << QStringLiteral("malformed JSON at line 2, column 2: expected , or } after a value "
                                                     "(a missing comma?)");
    QTest::addRow("comment") << QByteArray("{\n// the seed\n\"seed\": 1}")
                             << QStringLiteral("malformed JSON at line 2, column 1: a comment (JSON has no comments)");
    QTest::addRow("raw-newline-in-string") << QByteArray("{\"title\": \"two\nlines\"}")
                                           << QStringLiteral("malformed JSON at line 1, column 15: a raw control "
                                                             "character (\\u000a) inside a string; write it as an "
                                                             "escape such as \\n");
    QTest::addRow("bad-escape") << QByteArray(R"({"title": "a\qb"})")
                                << QStringLiteral("malformed JSON at line 1, column 13: a backslash before q, which is "
                                                  "not a JSON escape (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
    QTest::addRow("unterminated-string") << QByteArray(R"({"title": "abc)")
                                         << QStringLiteral("malformed JSON at line 1, column 11: a string that never "
                                                           "ends (no closing \")");
    QTest::addRow("truncated") << QByteArray("{\n  \"workload\": {\"orders\": 5,")
                               << QStringLiteral("malformed JSON at line 2, column 28: the file ends inside the object "
                                                 "that opens at line 2, column 15 (a missing }?)");
    QTest::addRow("empty") << QByteArray(" \n ")
                           << QStringLiteral("malformed JSON at line 2, column 2: the file holds no JSON value (it is "
                                             "empty)");
    QTest::addRow("latin1-in-string") << QByteArray("{\"title\": \"caf\xe9\"}")
                                      << QStringLiteral("malformed JSON at line 1, column 15: invalid UTF-8 inside a "
                                                        "string (the file must be UTF-8 text)");
    QTest::addRow("utf16") << QByteArray("\xff\xfe{\0}\0", 6)
                           << QStringLiteral("the file is UTF-16 or UTF-32 text (it starts with a byte order mark); save "
                                             "it as UTF-8");
    QTest::addRow("deep-nesting") << (QByteArray("{\"title\": ") + QByteArray(100, '[') + QByteArray(100, ']') + "}")
                                  << QStringLiteral("malformed JSON at line 1, column 74: objects and arrays nested "
                                                    "deeper than 64 levels (a scenario needs 4)");
    QTest::addRow("control-byte-outside-string") << QByteArray("{\"seed\": \x1b[31m}")
                                                 << QStringLiteral("malformed JSON at line 1, column 10: unexpected "
                                                                   "\"\\u001b\" where a value should be");
}

void TestScenario::syntaxErrorSaysWhatAndWhere()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QCOMPARE(scenario::fromJsonBytes(text).errors, QStringList{expected});
}

void TestScenario::validJsonStillParses()
{
    // Everything RFC 8259 allows must pass the syntax pass: a BOM, escapes, surrogate pairs, exponents.
    const QByteArray text("\xef\xbb\xbf \t\r\n{\"title\": \"caf\\u00e9 \xc3\xa9 \xf0\x9f\x98\x80 \\ud83d\\ude00 "
                          "\\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\", \"network\": {\"responseLoss\": 1e-1, "
                          "\"requestLoss\": 0.0E+0, \"connectFailure\": -0, \"script\": []}, "
                          "\"workload\": {\"orders\": 2E1}, \"reconciliation\": {}}\n");
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(parsed.scenario.workload.orders, 20);
    QCOMPARE(parsed.scenario.network.responseLoss, 0.1);
    QVERIFY(parsed.scenario.title.startsWith(QStringLiteral("caf\u00e9 \u00e9 ")));
}

void TestScenario::valueAtReadsScriptEntries()
{
    const ScenarioParse parsed = scenario::fromJsonBytes(
        R"({"network": {"responseLoss": 0.5, "script": [{"fault": "requestLost"}, {"op": 2, "fault": "throttle429"}]}})");
    QVERIFY(parsed.ok());
    const Scenario &s = parsed.scenario;
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.script[1].fault")), json("\"throttle429\""));
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.script[1].op")), json("2"));
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.script[1]")),
             json(R"({"op": 2, "attempt": "*/*/*", "fault": "throttle429", "method": "POST"})"));
    QVERIFY(scenario::valueAt(s, QStringLiteral("network.script[2].op")).isUndefined());
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.script")).toArray().size(), 2);
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network")).toObject().value(QLatin1String("script")).toArray().size(), 2);
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.responseLoss")), json("0.5"));
    QCOMPARE(scenario::seedToJson(42), json("42"));
    QCOMPARE(scenario::seedToJson(18446744073709551615ULL), json("\"18446744073709551615\""));
}

// The urllib3 Retry keys: counters with null, allowedMethods null/[], jitter, Retry-After cap,
// raiseOnStatus; they round-trip and old files get urllib3's defaults.
void TestScenario::transportUrllib3Keys()
{
    const Scenario defaults;
    QCOMPARE(defaults.client.transport.connect, TransportConfig::Unlimited);
    QCOMPARE(defaults.client.transport.retryAfterMaxS, 21600);
    QCOMPARE(defaults.client.transport.backoffJitterS, 0.0);
    QVERIFY(defaults.client.transport.raiseOnStatus);

    const QByteArray text = R"({"client": {"transport": {"enabled": true, "total": null, "connect": 1, "read": 2,
        "status": 3, "other": null, "backoffJitter": 0.25, "retryAfterMaxS": 60, "raiseOnStatus": false,
        "allowedMethods": null}}})";
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    const TransportConfig &t = parsed.scenario.client.transport;
    QCOMPARE(t.total, TransportConfig::Unlimited);
    QCOMPARE(t.connect, 1);
    QCOMPARE(t.read, 2);
    QCOMPARE(t.status, 3);
    QCOMPARE(t.other, TransportConfig::Unlimited);
    QCOMPARE(t.backoffJitterS, 0.25);
    QCOMPARE(t.retryAfterMaxS, 60);
    QVERIFY(!t.raiseOnStatus);
    QVERIFY(t.allowedMethods.isEmpty());
    // 1 + 2 + 3 retries + the first attempt; business and wrapper 3 each: 3 x 3 x 7.
    QCOMPARE(parsed.scenario.worstCaseAttemptsPerOp(), 63);
    QCOMPARE(parsed.scenario.worstCaseFormula(), QStringLiteral("3 x 3 x 7 = 63"));

    const QJsonObject json = parsed.scenario.toJson();
    const QJsonObject tj = json.value(QStringLiteral("client")).toObject().value(QStringLiteral("transport")).toObject();
    QVERIFY(tj.value(QStringLiteral("total")).isNull());
    QVERIFY(tj.value(QStringLiteral("other")).isNull());
    QCOMPARE(tj.value(QStringLiteral("allowedMethods")).toArray().size(), 0);
    const ScenarioParse again = scenario::fromJson(json);
    QVERIFY(again.ok());
    QVERIFY(again.scenario == parsed.scenario);

    // total 4 runs out before the counters (6): 3 x 3 x 5.
    const ScenarioParse four = scenario::withSet(parsed.scenario, QStringLiteral("client.transport.total=4"));
    QVERIFY(four.ok());
    QCOMPARE(four.scenario.worstCaseAttemptsPerOp(), 45);
    // An empty list is the same as null.
    const ScenarioParse empty = scenario::withSet(defaults, QStringLiteral("client.transport.allowedMethods=[]"));
    QVERIFY(empty.ok());
    QVERIFY(empty.scenario.client.transport.allowedMethods.isEmpty());
}

void TestScenario::transportUrllib3KeysRejected_data()
{
    QTest::addColumn<QString>("set");
    QTest::addColumn<QString>("error");
    QTest::addRow("total-null-without-counters")
        << QStringLiteral("client.transport.total=null")
        << QStringLiteral("client.transport.total: null (unlimited) needs client.transport.connect, read and status limited");
    QTest::addRow("connect-above-range") << QStringLiteral("client.transport.connect=21")
                                         << QStringLiteral("client.transport.connect: expected an integer from 0 to 20");
    QTest::addRow("read-string") << QStringLiteral("client.transport.read=\"x\"")
                                 << QStringLiteral("client.transport.read: expected an integer from 0 to 20");
    QTest::addRow("jitter-negative") << QStringLiteral("client.transport.backoffJitter=-1")
                                     << QStringLiteral("client.transport.backoffJitter: expected a number from 0 to 3600");
    QTest::addRow("retry-after-max-above") << QStringLiteral("client.transport.retryAfterMaxS=86401")
                                           << QStringLiteral("client.transport.retryAfterMaxS: expected an integer from 0 to 86400");
    QTest::addRow("raise-not-bool") << QStringLiteral("client.transport.raiseOnStatus=1")
                                    << QStringLiteral("client.transport.raiseOnStatus: expected true or false");
}

void TestScenario::transportUrllib3KeysRejected()
{
    QFETCH(QString, set);
    QFETCH(QString, error);
    const ScenarioParse parsed = scenario::withSet(Scenario(), set);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errors.join(QLatin1Char('\n')).contains(error), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
}

// maxAttempts 0 = unlimited, bounded by the deadline: at most 1 + deadlineMs / minimum wait.
void TestScenario::unlimitedAttempts_data()
{
    QTest::addColumn<QString>("layer");
    QTest::addColumn<QString>("backoff");
    QTest::addColumn<int>("deadlineMs");
    QTest::addColumn<int>("bound");    // effective attempts, 0 when refused
    QTest::addColumn<QString>("error");
    // constant 1000 ms, deadline 10 s: 1 + 10000 / 1000 = 11 attempts.
    QTest::addRow("business-constant") << "business" << R"({"kind": "constant", "initialMs": 1000, "jitter": "none"})"
                                       << 10000 << 11 << QString();
    // equal jitter halves the smallest wait: 100 / 2 = 50 ms; 1 + 1000 / 50 = 21.
    QTest::addRow("wrapper-equal") << "wrapper" << R"({"kind": "exponential", "initialMs": 100, "jitter": "equal"})"
                                   << 1000 << 21 << QString();
    // decorrelated never waits under initialMs: 1 + 1000 / 300 = 4.
    QTest::addRow("wrapper-decorrelated") << "wrapper" << R"({"initialMs": 300, "maxMs": 5000, "jitter": "decorrelated"})"
                                          << 1000 << 4 << QString();
    QTest::addRow("no-deadline") << "business" << R"({"kind": "constant"})" << 0 << 0
                                 << QStringLiteral("client.business.maxAttempts: 0 (unlimited) needs client.business.deadlineMs above 0");
    // A deliberate change of issue 11: a backoff that may wait 0 ms used to be refused with
    // unlimited attempts; the AWS study retries until success with no backoff and with full
    // jitter. Such a wait counts as 1 ms in the bound: 1 + deadlineMs / max(1, minimum wait).
    QTest::addRow("full-jitter") << "wrapper" << R"({"jitter": "full"})" << 5000 << 5001 << QString();
    QTest::addRow("zero-initial") << "business" << R"({"initialMs": 0, "jitter": "none"})" << 5000 << 5001 << QString();
    QTest::addRow("shrinking") << "business" << R"({"kind": "exponential", "multiplier": 0.5, "jitter": "none"})" << 5000
                               << 5001 << QString();
    // The AWS study's "no backoff": constant 0 ms, no jitter, deadline 1 s: 1 + 1000 / 1 = 1001.
    QTest::addRow("no-backoff") << "business" << R"({"kind": "constant", "initialMs": 0, "jitter": "none"})" << 1000
                                << 1001 << QString();
    // A wait of 1 ms gives the same bound as 0 ms: the smallest wait that counts.
    QTest::addRow("one-ms") << "business" << R"({"kind": "constant", "initialMs": 1, "jitter": "none"})" << 1000
                            << 1001 << QString();
    QTest::addRow("two-ms") << "business" << R"({"kind": "constant", "initialMs": 2, "jitter": "none"})" << 1000
                            << 501 << QString();
}

void TestScenario::unlimitedAttempts()
{
    QFETCH(QString, layer);
    QFETCH(QString, backoff);
    QFETCH(int, deadlineMs);
    QFETCH(int, bound);
    QFETCH(QString, error);
    const QByteArray text = QStringLiteral(R"({"client": {"%1": {"enabled": true, "maxAttempts": 0, "deadlineMs": %2, "backoff": %3}}})")
                                .arg(layer)
                                .arg(deadlineMs)
                                .arg(backoff)
                                .toUtf8();
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    if (bound == 0) {
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.errors.join(QLatin1Char('\n')).contains(error), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        return;
    }
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    const LayerConfig &l = layer == QLatin1String("business") ? parsed.scenario.client.business : parsed.scenario.client.wrapper;
    QCOMPARE(l.maxAttempts, 0);
    QCOMPARE(l.effectiveMaxAttempts(), bound);
    // The other layer keeps its 3 attempts; transport is off.
    QCOMPARE(parsed.scenario.worstCaseAttemptsPerOp(), 3 * bound);
}

// Each new setting of issue 11, set as --set sets it: read back by valueAt, different from the
// default for operator== and sameSettings, and through a saved file unchanged.
void TestScenario::issue11FieldsRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value"); // as --set takes it
    QTest::addRow("latency-normal") << QStringLiteral("network.latencyMs")
                                    << QStringLiteral(R"({"distribution": "normal", "mean": 12.5, "sd": 3})");
    // mean and sd are saved with the normal shape only (a uniform one never reads them).
    QTest::addRow("latency-mean") << QStringLiteral("network.latencyMs.mean") << QStringLiteral("7.25");
    QTest::addRow("latency-normal-alone") << QStringLiteral("network.latencyMs.distribution") << QStringLiteral("\"normal\"");
    QTest::addRow("processing-normal") << QStringLiteral("server.processingMs")
                                       << QStringLiteral(R"({"distribution": "normal", "mean": 40, "sd": 0})");
    QTest::addRow("processing-sd") << QStringLiteral("server.processingMs.sd") << QStringLiteral("600000");
    QTest::addRow("workload-closed") << QStringLiteral("workload.mode") << QStringLiteral("\"closed\"");
    QTest::addRow("workload-poisson") << QStringLiteral("workload.arrivals") << QStringLiteral("\"poisson\"");
    QTest::addRow("workload-phases") << QStringLiteral("workload.phases")
                                     << QStringLiteral(R"([{"fromS": 0, "toS": 10, "ratePerS": 5}, )"
                                                       R"({"fromS": 10, "toS": 12.5, "ratePerS": 400}])");
    QTest::addRow("workload-phase-entry") << QStringLiteral("workload.phases[0].ratePerS") << QStringLiteral("0.5");
    QTest::addRow("workload-ops") << QStringLiteral("workload.opsPerClient") << QStringLiteral("100000");
    QTest::addRow("workload-think") << QStringLiteral("workload.thinkTimeMs") << QStringLiteral("250");
    QTest::addRow("workload-spread") << QStringLiteral("workload.startTogether") << QStringLiteral("false");
    QTest::addRow("server-occ") << QStringLiteral("server.model") << QStringLiteral("\"occ\"");
    QTest::addRow("server-rows") << QStringLiteral("server.occ.rows") << QStringLiteral("100000");
    QTest::addRow("server-in-flight") << QStringLiteral("server.latencyPerInFlightMs") << QStringLiteral("2.5");
    QTest::addRow("windows") << QStringLiteral("windows")
                             << QStringLiteral(R"([{"fromS": 5, "toS": 8, "fault": "responseLost", "probability": 1}, )"
                                               R"({"fromS": 6, "toS": 7, "fault": "latencySpike", "probability": 0.25}])");
    QTest::addRow("window-entry-fault") << QStringLiteral("windows[0].fault") << QStringLiteral("\"throttle429\"");
    QTest::addRow("budget-global") << QStringLiteral("client.retryBudget.scope") << QStringLiteral("\"global\"");
    QTest::addRow("budget-initial") << QStringLiteral("client.retryBudget.initialTokens") << QStringLiteral("0");
    QTest::addRow("breaker-rate") << QStringLiteral("client.circuitBreaker.mode") << QStringLiteral("\"failureRate\"");
    QTest::addRow("breaker-window") << QStringLiteral("client.circuitBreaker.window") << QStringLiteral("10000");
    QTest::addRow("breaker-percent") << QStringLiteral("client.circuitBreaker.failureRatePercent") << QStringLiteral("1");
    QTest::addRow("breaker-retries-only") << QStringLiteral("client.circuitBreaker.retriesOnly") << QStringLiteral("true");
}

void TestScenario::issue11FieldsRoundTrip()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QStringList sets{path + QLatin1Char('=') + value};
    if (path.endsWith(QLatin1String(".mean")) || path.endsWith(QLatin1String(".sd")))
        sets.prepend(path.section(QLatin1Char('.'), 0, -2) + QStringLiteral(".distribution=\"normal\""));
    const ScenarioParse set = scenario::withSets(Scenario(), sets);
    QVERIFY2(set.ok(), qPrintable(set.errors.join(QLatin1Char('\n'))));
    const QJsonValue expected = json(value.toUtf8().constData());
    const QJsonValue stored = scenario::valueAt(set.scenario, path);
    if (expected.isObject()) {
        const QJsonObject want = expected.toObject();
        for (auto it = want.begin(); it != want.end(); ++it)
            QCOMPARE(stored[it.key()], it.value());
    } else {
        QCOMPARE(stored, expected);
    }
    QVERIFY(set.scenario != Scenario());
    QVERIFY(!scenario::sameSettings(set.scenario, Scenario()));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("issue11.json"));
    QCOMPARE(scenario::save(set.scenario, fileName), QString());
    const ScenarioParse loaded = scenario::load(fileName);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
    QCOMPARE(loaded.scenario, set.scenario);
    QCOMPARE(scenario::valueAt(loaded.scenario, path), stored);
}

void TestScenario::issue11FieldsReachTheStruct()
{
    const ScenarioParse parsed = scenario::fromJsonBytes(R"({
        "workload": {"mode": "closed", "arrivals": "poisson", "clients": 7, "opsPerClient": 3,
                     "thinkTimeMs": 40, "startTogether": false},
        "client": {"retryBudget": {"scope": "global", "initialTokens": 2.5},
                   "circuitBreaker": {"mode": "failureRate", "window": 30, "failureRatePercent": 60,
                                      "retriesOnly": true}},
        "network": {"latencyMs": {"distribution": "normal", "mean": 10, "sd": 2}},
        "server": {"model": "occ", "occ": {"rows": 4}, "latencyPerInFlightMs": 1.5,
                   "processingMs": {"distribution": "normal", "mean": 30.5, "sd": 4}},
        "windows": [{"fromS": 1, "toS": 2.5, "fault": "connectFailure", "probability": 0.75}]
    })");
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    const Scenario &s = parsed.scenario;
    QCOMPARE(s.workload.mode, WorkloadMode::Closed);
    QCOMPARE(s.workload.arrivals, Arrivals::Poisson);
    QCOMPARE(s.workload.opsPerClient, 3);
    QCOMPARE(s.workload.operations(), 21);
    QCOMPARE(s.workload.thinkTimeMs, 40);
    QCOMPARE(s.workload.startTogether, false);
    QCOMPARE(s.client.retryBudget.scope, BudgetScope::Global);
    QCOMPARE(s.client.retryBudget.initialTokens, 2.5);
    QCOMPARE(s.client.circuitBreaker.mode, BreakerMode::FailureRate);
    QCOMPARE(s.client.circuitBreaker.window, 30);
    QCOMPARE(s.client.circuitBreaker.failureRatePercent, 60);
    QCOMPARE(s.client.circuitBreaker.retriesOnly, true);
    QCOMPARE(s.network.latencyMs.shape, DistributionShape::Normal);
    QCOMPARE(s.network.latencyMs.mean, 10.0);
    QCOMPARE(s.network.latencyMs.sd, 2.0);
    QCOMPARE(s.network.latencyMs.base, 20); // untouched
    QCOMPARE(s.server.model, ServerModel::Occ);
    QCOMPARE(s.server.occRows, 4);
    QCOMPARE(s.server.latencyPerInFlightMs, 1.5);
    QCOMPARE(s.server.processingMs.shape, DistributionShape::Normal);
    QCOMPARE(s.server.processingMs.mean, 30.5);
    QCOMPARE(s.windows.size(), 1);
    QCOMPARE(s.windows.first(), (FaultWindow{1, 2.5, FaultKind::ConnectFailure, 0.75}));

    const ScenarioParse phased = scenario::fromJsonBytes(
        R"({"workload": {"phases": [{"fromS": 0, "toS": 10, "ratePerS": 2}, {"fromS": 20, "toS": 30}]}})");
    QVERIFY2(phased.ok(), qPrintable(phased.errors.join(QLatin1Char('\n'))));
    QCOMPARE(phased.scenario.workload.phases,
             (QList<LoadPhase>{LoadPhase{0, 10, 2}, LoadPhase{20, 30, 10}})); // ratePerS defaults to 10
}

// Saved files stay stable: distribution, mean and sd are written for the normal shape only.
void TestScenario::savedFileWritesNormalShapeOnly()
{
    Scenario s;
    s.network.latencyMs.mean = 99; // kept in memory (--set, valueAt), but a uniform shape never reads it
    QJsonObject latency = s.toJson()[QLatin1String("network")][QLatin1String("latencyMs")].toObject();
    QCOMPARE(latency, (QJsonObject{{QStringLiteral("base"), 20}, {QStringLiteral("jitter"), 10}}));
    QJsonObject processing = s.toJson()[QLatin1String("server")][QLatin1String("processingMs")].toObject();
    QCOMPARE(processing, (QJsonObject{{QStringLiteral("base"), 50}, {QStringLiteral("jitter"), 20}}));
    // --set and valueAt know the keys all the same.
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.latencyMs.mean")).toDouble(), 99.0);
    QCOMPARE(scenario::valueAt(s, QStringLiteral("network.latencyMs.distribution")).toString(), QStringLiteral("uniform"));

    s.network.latencyMs.shape = DistributionShape::Normal;
    latency = s.toJson()[QLatin1String("network")][QLatin1String("latencyMs")].toObject();
    QCOMPARE(latency, (QJsonObject{{QStringLiteral("base"), 20},
                                   {QStringLiteral("jitter"), 10},
                                   {QStringLiteral("distribution"), QStringLiteral("normal")},
                                   {QStringLiteral("mean"), 99},
                                   {QStringLiteral("sd"), 2}}));
    // base and jitter stay in the file for normal too.
    const ScenarioParse back = scenario::fromJson(s.toJson());
    QVERIFY(back.ok());
    QCOMPARE(back.scenario, s);
}

void TestScenario::issue11Refusals_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected"); // the first error, from its start; empty: accepted
    QTest::addRow("distribution-unknown") << QByteArray(R"({"network": {"latencyMs": {"distribution": "lognormal"}}})")
                                          << QStringLiteral("network.latencyMs.distribution: expected one of uniform|normal, got \"lognormal\"");
    QTest::addRow("mean-too-big") << QByteArray(R"({"server": {"processingMs": {"mean": 600001}}})")
                                  << QStringLiteral("server.processingMs.mean: expected a number from 0 to 600000, got 600001");
    QTest::addRow("sd-negative") << QByteArray(R"({"network": {"latencyMs": {"sd": -1}}})")
                                 << QStringLiteral("network.latencyMs.sd: expected a number from 0 to 600000, got -1");
    QTest::addRow("mode-unknown") << QByteArray(R"({"workload": {"mode": "batch"}})")
                                  << QStringLiteral("workload.mode: expected one of open|closed, got \"batch\"");
    QTest::addRow("arrivals-unknown") << QByteArray(R"({"workload": {"arrivals": "burst"}})")
                                      << QStringLiteral("workload.arrivals: expected one of fixed|poisson");
    QTest::addRow("phase-to-before-from") << QByteArray(R"({"workload": {"phases": [{"fromS": 5, "toS": 5}]}})")
                                          << QStringLiteral("workload.phases[0].toS: expected a time after fromS (5 s), got 5");
    QTest::addRow("phase-third-beyond-day")
        << QByteArray(R"({"workload": {"phases": [{"fromS": 0, "toS": 1}, {"fromS": 1, "toS": 2}, {"fromS": 2, "toS": 90000}]}})")
        << QStringLiteral("workload.phases[2].toS: expected a number from 0 to 86400, got 90000");
    QTest::addRow("phase-rate-negative") << QByteArray(R"({"workload": {"phases": [{"ratePerS": -1}]}})")
                                         << QStringLiteral("workload.phases[0].ratePerS: expected a number from 0 to 100000, got -1");
    QTest::addRow("phase-unknown-key") << QByteArray(R"({"workload": {"phases": [{"rate": 3}]}})")
                                       << QStringLiteral("workload.phases[0].rate: unknown key");
    QTest::addRow("phase-not-object") << QByteArray(R"({"workload": {"phases": [3]}})")
                                      << QStringLiteral("workload.phases[0]: expected an object");
    QTest::addRow("phases-overlap")
        << QByteArray(R"({"workload": {"phases": [{"fromS": 0, "toS": 10}, {"fromS": 20, "toS": 30}, {"fromS": 9.5, "toS": 12}]}})")
        << QStringLiteral("workload.phases[2]: 9.5 to 12 s overlaps workload.phases[0] (0 to 10 s); phases must not overlap");
    QTest::addRow("phases-touching") << QByteArray(R"({"workload": {"phases": [{"fromS": 0, "toS": 10}, {"fromS": 10, "toS": 20}]}})")
                                     << QString();
    QTest::addRow("phases-arrivals")
        << QByteArray(R"({"workload": {"phases": [{"fromS": 0, "toS": 10, "ratePerS": 50000}, {"fromS": 10, "toS": 20, "ratePerS": 50001}]}})")
        << QStringLiteral("workload.phases: the phases bring 1000010 arrivals ((toS - fromS) x ratePerS, summed), at most 1000000");
    QTest::addRow("closed-with-phases") << QByteArray(R"({"workload": {"mode": "closed", "phases": [{"fromS": 0, "toS": 10}]}})")
                                        << QStringLiteral("workload.phases: phases set the arrival rate of open mode; closed mode "
                                                          "(workload.mode \"closed\") takes none, got 1 phase");
    QTest::addRow("closed-too-many-operations")
        << QByteArray(R"({"workload": {"mode": "closed", "clients": 10000, "opsPerClient": 10001}})")
        << QStringLiteral("workload.opsPerClient: closed mode runs workload.clients x opsPerClient operations, at most "
                          "100000000; got 10000 x 10001 = 100010000");
    QTest::addRow("closed-at-limit") << QByteArray(R"({"workload": {"mode": "closed", "clients": 10000, "opsPerClient": 10000}})")
                                     << QString();
    QTest::addRow("open-ignores-ops-limit") << QByteArray(R"({"workload": {"clients": 10000, "opsPerClient": 101}})")
                                            << QString();
    QTest::addRow("ops-zero") << QByteArray(R"({"workload": {"opsPerClient": 0}})")
                              << QStringLiteral("workload.opsPerClient: expected an integer from 1 to 100000, got 0");
    QTest::addRow("think-negative") << QByteArray(R"({"workload": {"thinkTimeMs": -1}})")
                                    << QStringLiteral("workload.thinkTimeMs: expected an integer from 0 to 3600000");
    QTest::addRow("start-together-number") << QByteArray(R"({"workload": {"startTogether": 1}})")
                                           << QStringLiteral("workload.startTogether: expected true or false, got 1");
    // A script entry addresses the operations of the run: clients x opsPerClient when closed.
    QTest::addRow("closed-script-last-op")
        << QByteArray(R"({"workload": {"mode": "closed", "clients": 5, "opsPerClient": 5}, "network": {"script": [{"op": 25, "fault": "requestLost"}]}})")
        << QString();
    QTest::addRow("closed-script-beyond")
        << QByteArray(R"({"workload": {"mode": "closed", "clients": 5, "opsPerClient": 5}, "network": {"script": [{"op": 26, "fault": "requestLost"}]}})")
        << QStringLiteral("network.script[0].op: 26 can never happen: workload.clients x workload.opsPerClient is 25");
    QTest::addRow("model-unknown") << QByteArray(R"({"server": {"model": "mvcc"}})")
                                   << QStringLiteral("server.model: expected one of orders|occ, got \"mvcc\"");
    QTest::addRow("occ-token") << QByteArray(R"({"server": {"model": "occ", "idempotency": {"mode": "token"}}})")
                               << QStringLiteral("server.model: occ has no token round trip, so it cannot serve "
                                                 "server.idempotency.mode \"token\"");
    QTest::addRow("occ-atomic") << QByteArray(R"({"server": {"model": "occ", "idempotency": {"mode": "atomic"}}})") << QString();
    QTest::addRow("orders-token") << QByteArray(R"({"server": {"idempotency": {"mode": "token"}}})") << QString();
    QTest::addRow("occ-rows-zero") << QByteArray(R"({"server": {"occ": {"rows": 0}}})")
                                   << QStringLiteral("server.occ.rows: expected an integer from 1 to 100000, got 0");
    QTest::addRow("occ-unknown-key") << QByteArray(R"({"server": {"occ": {"row": 2}}})")
                                     << QStringLiteral("server.occ.row: unknown key (did you mean \"rows\"?)");
    QTest::addRow("in-flight-too-big") << QByteArray(R"({"server": {"latencyPerInFlightMs": 10000.5}})")
                                       << QStringLiteral("server.latencyPerInFlightMs: expected a number from 0 to 10000");
    QTest::addRow("window-server-restart")
        << QByteArray(R"({"windows": [{"fromS": 0, "toS": 1, "fault": "serverRestart"}]})")
        << QStringLiteral("windows[0].fault: serverRestart has no probability; schedule restarts with server.restarts");
    QTest::addRow("window-fault-missing") << QByteArray(R"({"windows": [{"fromS": 0, "toS": 1}]})")
                                          << QStringLiteral("windows[0].fault: missing; every window names the fault it sets");
    QTest::addRow("window-fault-unknown") << QByteArray(R"({"windows": [{"fault": "meteor"}]})")
                                          << QStringLiteral("windows[0].fault: expected one of connectFailure|");
    QTest::addRow("window-probability") << QByteArray(R"({"windows": [{"fault": "requestLost", "probability": 1.5}]})")
                                        << QStringLiteral("windows[0].probability: expected a number from 0 to 1, got 1.5");
    QTest::addRow("window-to-before-from")
        << QByteArray(R"({"windows": [{"fromS": 3, "toS": 2, "fault": "requestLost"}]})")
        << QStringLiteral("windows[0].toS: expected a time after fromS (3 s), got 2");
    QTest::addRow("windows-overlap-same-fault")
        << QByteArray(R"({"windows": [{"fromS": 0, "toS": 10, "fault": "responseLost"},
                                      {"fromS": 5, "toS": 15, "fault": "latencySpike"},
                                      {"fromS": 9, "toS": 11, "fault": "responseLost"}]})")
        << QStringLiteral("windows[2]: 9 to 11 s overlaps windows[0] (0 to 10 s), a window of the same fault responseLost");
    QTest::addRow("windows-overlap-other-fault")
        << QByteArray(R"({"windows": [{"fromS": 0, "toS": 10, "fault": "responseLost"}, {"fromS": 5, "toS": 15, "fault": "latencySpike"}]})")
        << QString();
    QTest::addRow("windows-not-array") << QByteArray(R"({"windows": {}})") << QStringLiteral("windows: expected an array, got {}");
    QTest::addRow("scope-unknown") << QByteArray(R"({"client": {"retryBudget": {"scope": "perServer"}}})")
                                   << QStringLiteral("client.retryBudget.scope: expected one of perClient|global");
    QTest::addRow("initial-tokens-negative") << QByteArray(R"({"client": {"retryBudget": {"initialTokens": -1}}})")
                                             << QStringLiteral("client.retryBudget.initialTokens: expected a number from 0 to "
                                                               "1000000, got -1 (or null for a full bucket (maxTokens))");
    QTest::addRow("initial-tokens-text") << QByteArray(R"({"client": {"retryBudget": {"initialTokens": "full"}}})")
                                         << QStringLiteral("client.retryBudget.initialTokens: expected a number from 0 to "
                                                           "1000000, got \"full\"");
    QTest::addRow("breaker-mode-unknown") << QByteArray(R"({"client": {"circuitBreaker": {"mode": "adaptive"}}})")
                                          << QStringLiteral("client.circuitBreaker.mode: expected one of consecutive|failureRate");
    QTest::addRow("breaker-window-zero") << QByteArray(R"({"client": {"circuitBreaker": {"window": 0}}})")
                                         << QStringLiteral("client.circuitBreaker.window: expected an integer from 1 to 10000, got 0");
    QTest::addRow("breaker-percent-over") << QByteArray(R"({"client": {"circuitBreaker": {"failureRatePercent": 101}}})")
                                          << QStringLiteral("client.circuitBreaker.failureRatePercent: expected an integer from 1 to 100, got 101");
    QTest::addRow("breaker-retries-only-text") << QByteArray(R"({"client": {"circuitBreaker": {"retriesOnly": "yes"}}})")
                                               << QStringLiteral("client.circuitBreaker.retriesOnly: expected true or false");
}

void TestScenario::issue11Refusals()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const ScenarioParse parsed = scenario::fromJsonBytes(text);
    if (expected.isEmpty()) {
        QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        return;
    }
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errors.first().startsWith(expected), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    // --set gives the same first error for the same settings.
    const QJsonObject object = QJsonDocument::fromJson(text).object();
    QStringList sets;
    for (auto it = object.begin(); it != object.end(); ++it)
        sets << it.key() + QLatin1Char('=') + QString::fromUtf8(QJsonDocument::fromVariant(it.value().toVariant()).toJson(QJsonDocument::Compact));
    const ScenarioParse viaSet = scenario::withSets(Scenario(), sets);
    QVERIFY(!viaSet.ok());
    QVERIFY2(viaSet.errors.first().startsWith(expected), qPrintable(viaSet.errors.join(QLatin1Char('\n'))));
}

void TestScenario::initialTokensNullOrNumber()
{
    // null (the default) starts the bucket full; a number starts it there, capped by maxTokens.
    ScenarioParse parsed = scenario::fromJsonBytes(R"({"client": {"retryBudget": {"maxTokens": 10, "initialTokens": null}}})");
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.scenario.client.retryBudget.initialTokens, -1.0);
    QCOMPARE(parsed.scenario.client.retryBudget.startTokens(), 10.0);
    QCOMPARE(parsed.scenario.toJson()[QLatin1String("client")][QLatin1String("retryBudget")][QLatin1String("initialTokens")],
             QJsonValue(QJsonValue::Null));
    QCOMPARE(parsed.scenario, Scenario());

    parsed = scenario::fromJsonBytes(R"({"client": {"retryBudget": {"maxTokens": 10, "initialTokens": 0}}})");
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.scenario.client.retryBudget.initialTokens, 0.0);
    QCOMPARE(parsed.scenario.client.retryBudget.startTokens(), 0.0);
    QCOMPARE(parsed.scenario.toJson()[QLatin1String("client")][QLatin1String("retryBudget")][QLatin1String("initialTokens")],
             QJsonValue(0));
    QVERIFY(parsed.scenario != Scenario()); // 0 is not null

    parsed = scenario::fromJsonBytes(R"({"client": {"retryBudget": {"maxTokens": 10, "initialTokens": 25}}})");
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.scenario.client.retryBudget.startTokens(), 10.0);

    // --set takes null back to a full bucket.
    const ScenarioParse reset = scenario::withSet(parsed.scenario, QStringLiteral("client.retryBudget.initialTokens=null"));
    QVERIFY(reset.ok());
    QCOMPARE(reset.scenario.client.retryBudget.initialTokens, -1.0);
    QCOMPARE(scenario::valueAt(reset.scenario, QStringLiteral("client.retryBudget.initialTokens")), QJsonValue(QJsonValue::Null));
}

void TestScenario::phaseAndWindowCaps()
{
    const auto phases = [](int count) {
        QJsonArray list;
        for (int i = 0; i < count; ++i)
            list.append(QJsonObject{{QStringLiteral("fromS"), i}, {QStringLiteral("toS"), i + 1}, {QStringLiteral("ratePerS"), 1}});
        return QJsonObject{{QStringLiteral("workload"), QJsonObject{{QStringLiteral("phases"), list}}}};
    };
    const auto windows = [](int count) {
        QJsonArray list;
        for (int i = 0; i < count; ++i)
            list.append(QJsonObject{{QStringLiteral("fromS"), i}, {QStringLiteral("toS"), i + 1},
                                    {QStringLiteral("fault"), QStringLiteral("requestLost")}});
        return QJsonObject{{QStringLiteral("windows"), list}};
    };
    QVERIFY(scenario::fromJson(phases(scenario::MaxPhaseEntries)).ok());
    QCOMPARE(scenario::fromJson(phases(scenario::MaxPhaseEntries + 1)).errors,
             QStringList{QStringLiteral("workload.phases: at most 100 entries, got 101")});
    QVERIFY(scenario::fromJson(windows(scenario::MaxWindowEntries)).ok());
    QCOMPARE(scenario::fromJson(windows(scenario::MaxWindowEntries + 1)).errors,
             QStringList{QStringLiteral("windows: at most 100 entries, got 101")});
}

// `retrylab fields` lists every new path with its type, range or choices, and default.
void TestScenario::catalogueListsIssue11Fields()
{
    QHash<QString, FieldInfo> catalogue;
    for (const FieldInfo &f : scenario::fields())
        catalogue.insert(f.path, f);
    struct Expected
    {
        const char *path;
        const char *type;
        const char *allowed;
        const char *defaultJson;
    };
    const Expected expected[] = {
        {"network.latencyMs.distribution", "choice", "uniform, normal", "\"uniform\""},
        {"network.latencyMs.mean", "number", "0 to 600000", "10"},
        {"network.latencyMs.sd", "number", "0 to 600000", "2"},
        {"server.processingMs.distribution", "choice", "uniform, normal", "\"uniform\""},
        {"server.processingMs.mean", "number", "0 to 600000", "10"},
        {"server.processingMs.sd", "number", "0 to 600000", "2"},
        {"workload.mode", "choice", "open, closed", "\"open\""},
        {"workload.arrivals", "choice", "fixed, poisson", "\"fixed\""},
        {"workload.phases", "list", "load phases {fromS, toS, ratePerS} of open mode, not overlapping, at most 100 entries and 1000000 arrivals in all; they define the arrivals (workload.orders counts only without them)", "[]"},
        {"workload.phases[N].fromS", "number", "0 to 86400 (seconds), before toS", "0"},
        {"workload.phases[N].toS", "number", "after fromS, up to 86400 (seconds)", "10"},
        {"workload.phases[N].ratePerS", "number", "0 to 100000", "10"},
        {"workload.opsPerClient", "integer", "1 to 100000", "1"},
        {"workload.thinkTimeMs", "integer", "0 to 3600000", "0"},
        {"workload.startTogether", "boolean", "true or false", "true"},
        {"server.model", "choice", "orders, occ", "\"orders\""},
        {"server.occ.rows", "integer", "1 to 100000", "1"},
        {"server.latencyPerInFlightMs", "number", "0 to 10000", "0"},
        {"windows", "list", "fault windows {fromS, toS, fault, probability}, at most 100 entries", "[]"},
        {"windows[N].fromS", "number", "0 to 86400 (seconds), before toS", "0"},
        {"windows[N].toS", "number", "after fromS, up to 86400 (seconds)", "10"},
        {"windows[N].fault", "choice",
         "connectFailure, requestLost, responseLost, resetAfterCommit, latencySpike, server5xxBeforeCommit, "
         "server5xxAfterCommit, throttle429",
         "\"connectFailure\""},
        {"windows[N].probability", "number", "0 to 1", "1"},
        {"client.retryBudget.scope", "choice", "perClient, global", "\"perClient\""},
        {"client.retryBudget.initialTokens", "number", "0 to 1000000, or null for a full bucket (maxTokens)", "null"},
        {"client.circuitBreaker.mode", "choice", "consecutive, failureRate", "\"consecutive\""},
        {"client.circuitBreaker.window", "integer", "1 to 10000", "20"},
        {"client.circuitBreaker.failureRatePercent", "integer", "1 to 100", "50"},
        {"client.circuitBreaker.retriesOnly", "boolean", "true or false", "false"},
    };
    for (const Expected &e : expected) {
        const QString path = QLatin1String(e.path);
        QVERIFY2(catalogue.contains(path), e.path);
        const FieldInfo f = catalogue.value(path);
        QCOMPARE(f.type, QLatin1String(e.type));
        QCOMPARE(f.allowed, QLatin1String(e.allowed));
        QCOMPARE(f.defaultValue, json(e.defaultJson));
        if (f.type == QLatin1String("choice"))
            QCOMPARE(f.choices.join(QStringLiteral(", ")), f.allowed);
    }
    // fromS and toS bound each other: stated in words, not as a fixed range.
    QVERIFY(!catalogue.value(QStringLiteral("workload.phases[N].fromS")).bounded);
    QVERIFY(!catalogue.value(QStringLiteral("windows[N].toS")).bounded);
    QVERIFY(catalogue.value(QStringLiteral("client.retryBudget.initialTokens")).bounded);
    // The catalogue lists no serverRestart window.
    QVERIFY(!catalogue.value(QStringLiteral("windows[N].fault")).choices.contains(QStringLiteral("serverRestart")));
}

void TestScenario::setsAreValidatedTogether()
{
    const Scenario base = test::presetScenario(QStringLiteral("ghost-request"));
    const QStringList unlimited{QStringLiteral("client.business.maxAttempts=0"),
                                QStringLiteral("client.business.deadlineMs=30000"),
                                QStringLiteral("client.business.backoff.jitter=none")};
    // One at a time, the first is refused: unlimited needs a deadline.
    QVERIFY(!scenario::withSet(base, unlimited.first()).ok());
    // Together, in either order, they make the same scenario.
    QStringList sources;
    const ScenarioParse forward = scenario::withSets(base, unlimited, &sources);
    QVERIFY2(forward.ok(), qPrintable(forward.errors.join(QLatin1Char('\n'))));
    QVERIFY(sources.isEmpty());
    QCOMPARE(forward.scenario.client.business.maxAttempts, 0);
    QCOMPARE(forward.scenario.client.business.deadlineMs, 30000);
    QStringList reversed = unlimited;
    std::reverse(reversed.begin(), reversed.end());
    const ScenarioParse backward = scenario::withSets(base, reversed);
    QVERIFY(backward.ok());
    QCOMPARE(backward.scenario, forward.scenario);

    // Each error is given to the assignment of the field it names; the last one wins.
    const ScenarioParse bad = scenario::withSets(
        base, {QStringLiteral("workload.orders=0"), QStringLiteral("client.business.maxAttempts=0"),
               QStringLiteral("network.responseLoss=0.5"), QStringLiteral("workload.orders=-1")},
        &sources);
    QVERIFY(!bad.ok());
    QCOMPARE(sources.size(), bad.errors.size());
    for (qsizetype i = 0; i < bad.errors.size(); ++i) {
        if (bad.errors.at(i).startsWith(QLatin1String("workload.orders")))
            QCOMPARE(sources.at(i), QStringLiteral("workload.orders=-1"));
        else if (bad.errors.at(i).startsWith(QLatin1String("client.business.maxAttempts")))
            QCOMPARE(sources.at(i), QStringLiteral("client.business.maxAttempts=0"));
        else
            QFAIL(qPrintable(bad.errors.at(i)));
    }
    QCOMPARE(bad.errors.size(), 2);
    // A path error stops at its assignment.
    sources.clear();
    const ScenarioParse path = scenario::withSets(base, {QStringLiteral("workload.orders=3"), QStringLiteral("nope..x=1")},
                                                  &sources);
    QCOMPARE(path.errors.size(), 1);
    QCOMPARE(sources, QStringList{QStringLiteral("nope..x=1")});
    QCOMPARE(path.scenario, base);
}

// A refused number is echoed as the user wrote it (the shortest text that reads back as the same
// double), not with 17 digits ("got 1.0000001000000001" for 1.0000001).
void TestScenario::offendingNumbersAsWritten_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<QString>("expected");
    QTest::addRow("just-over-one") << QStringLiteral("network.responseLoss=1.0000001")
                                   << QStringLiteral("network.responseLoss: expected a number from 0 to 1, got 1.0000001");
    QTest::addRow("below-zero") << QStringLiteral("network.responseLoss=-0.1")
                                << QStringLiteral("network.responseLoss: expected a number from 0 to 1, got -0.1");
    QTest::addRow("sum-of-tenths") << QStringLiteral("network.responseLoss=1.1000000000000001")
                                   << QStringLiteral("network.responseLoss: expected a number from 0 to 1, got 1.1");
    QTest::addRow("needs-17-digits") << QStringLiteral("network.responseLoss=1.0000000000000002")
                                     << QStringLiteral("network.responseLoss: expected a number from 0 to 1, got 1.0000000000000002");
    QTest::addRow("huge") << QStringLiteral("network.responseLoss=1e300")
                          << QStringLiteral("network.responseLoss: expected a number from 0 to 1, got 1e+300");
}

void TestScenario::offendingNumbersAsWritten()
{
    QFETCH(QString, assignment);
    QFETCH(QString, expected);
    const ScenarioParse parsed = scenario::withSets(test::presetScenario(QStringLiteral("ghost-request")), {assignment});
    QCOMPARE(parsed.errors, QStringList{expected});
}

void TestScenario::tenacityNames_data()
{
    // wait_exponential(multiplier, max, exp_base, min) in seconds: wait n = multiplier * expBase^(n-1),
    // capped at max, at least min.
    QTest::addColumn<QString>("tenacity");
    QTest::addColumn<QList<qint64>>("waitsMs"); // retries 1 to 4, jitter none
    QTest::addColumn<int>("initialMs");
    QTest::addColumn<double>("multiplier");
    QTest::addColumn<int>("minMs");
    QTest::addColumn<int>("maxMs");
    // 0.5, 1.5, 4.5, 13.5 -> floored at 1 s, capped at 10 s.
    QTest::addRow("all-four") << R"({"multiplier": 0.5, "expBase": 3, "min": 1, "max": 10})"
                              << QList<qint64>{1000, 1500, 4500, 10000} << 500 << 3.0 << 1000 << 10000;
    // Names left out take tenacity's defaults (tenacity/wait.py wait_exponential.__init__: multiplier=1,
    // exp_base=2, min=0), not the wrapper's values (issue 20 item 7): 1 s, 2 s, ... capped at 0.25 s.
    QTest::addRow("max-only") << R"({"max": 0.25})" << QList<qint64>{250, 250, 250, 250} << 1000 << 2.0 << 0 << 250;
    // tenacity's own example: wait_exponential(multiplier=1, min=4, max=10): 4, 4, 4, 8.
    QTest::addRow("readme-example") << R"({"multiplier": 1, "min": 4, "max": 10})" << QList<qint64>{4000, 4000, 4000, 8000}
                                    << 1000 << 2.0 << 4000 << 10000;
}

void TestScenario::tenacityNames()
{
    QFETCH(QString, tenacity);
    QFETCH(QList<qint64>, waitsMs);
    QFETCH(int, initialMs);
    QFETCH(double, multiplier);
    QFETCH(int, minMs);
    QFETCH(int, maxMs);
    // From a file: the constant kind of the preset is replaced, as wait_exponential is exponential.
    QJsonObject file = Scenario().toJson();
    QJsonObject client = file.value(QLatin1String("client")).toObject();
    QJsonObject wrapper = client.value(QLatin1String("wrapper")).toObject();
    wrapper.insert(QStringLiteral("backoff"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("constant")},
                                                         {QStringLiteral("tenacity"), json(qPrintable(tenacity))}});
    client.insert(QStringLiteral("wrapper"), wrapper);
    file.insert(QStringLiteral("client"), client);
    const ScenarioParse parsed = scenario::fromJson(file);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    const BackoffConfig &b = parsed.scenario.client.wrapper.backoff;
    QCOMPARE(int(b.kind), int(BackoffKind::Exponential));
    QCOMPARE(b.initialMs, initialMs);
    QCOMPARE(b.multiplier, multiplier);
    QCOMPARE(b.minMs, minMs);
    QCOMPARE(b.maxMs, maxMs);
    for (int n = 1; n <= 4; ++n)
        QCOMPARE(policy::backoffUs(b, n, 0, 0.5), waitsMs.at(n - 1) * 1000);
    // Written back with the keys they stand for, and read the same.
    const QJsonObject written = parsed.scenario.toJson();
    QVERIFY(!QJsonDocument(written).toJson().contains("tenacity"));
    QCOMPARE(scenario::fromJson(written).scenario, parsed.scenario);
    // The same through --set, and readable back by tenacity's names.
    QStringList sets;
    const QJsonObject t = json(qPrintable(tenacity)).toObject();
    for (auto it = t.begin(); it != t.end(); ++it)
        sets << QStringLiteral("client.wrapper.backoff.tenacity.%1=%2").arg(it.key()).arg(it.value().toDouble());
    const ScenarioParse viaSet = scenario::withSets(Scenario(), sets);
    QVERIFY2(viaSet.ok(), qPrintable(viaSet.errors.join(QLatin1Char('\n'))));
    QCOMPARE(viaSet.scenario.client.wrapper.backoff.initialMs, initialMs);
    QCOMPARE(viaSet.scenario.client.wrapper.backoff.maxMs, maxMs);
    QCOMPARE(scenario::valueAt(viaSet.scenario, QStringLiteral("client.wrapper.backoff.tenacity.max")).toDouble(),
             maxMs / 1000.0);
    QCOMPARE(scenario::valueAt(viaSet.scenario, QStringLiteral("client.wrapper.backoff.tenacity.expBase")).toDouble(),
             multiplier);
}

void TestScenario::tenacityNamesRejected_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<QString>("error");
    QTest::addRow("sub-millisecond") << "client.wrapper.backoff.tenacity.multiplier=0.0005"
                                     << "client.wrapper.backoff.tenacity.multiplier: 0.0005 s is not a whole number of milliseconds";
    QTest::addRow("negative-min") << "client.business.backoff.tenacity.min=-1"
                                  << "client.business.backoff.tenacity.min: expected a number from 0 to 3600";
    QTest::addRow("max-past-an-hour") << "client.wrapper.backoff.tenacity.max=3601"
                                      << "client.wrapper.backoff.tenacity.max: expected a number from 0 to 3600";
    QTest::addRow("unknown-name") << "client.wrapper.backoff.tenacity.exp_base=3"
                                  << "client.wrapper.backoff.tenacity.exp_base: unknown key";
    QTest::addRow("not-an-object") << "client.wrapper.backoff.tenacity=5"
                                   << "client.wrapper.backoff.tenacity: expected an object";
}

void TestScenario::tenacityNamesRejected()
{
    QFETCH(QString, assignment);
    QFETCH(QString, error);
    const ScenarioParse p = scenario::withSet(Scenario(), assignment);
    QVERIFY(!p.ok());
    QVERIFY2(p.errors.first().startsWith(error), qPrintable(p.errors.join(QLatin1Char('\n'))));
}

void TestScenario::minimumWaitFloorsTheBackoff()
{
    // initialMs 100, multiplier 2, cap 1000, floor 300: 300, 300, 400, 800, 1000 without jitter.
    BackoffConfig b{BackoffKind::Exponential, 100, 2.0, 1000, Jitter::None, 300};
    const QList<qint64> plain{300, 300, 400, 800, 1000};
    for (int n = 1; n <= 5; ++n)
        QCOMPARE(policy::backoffUs(b, n, 0, 0.5), plain.at(n - 1) * 1000);
    // Full jitter draws from [floor, wait] (wait_random_exponential): retry 3 with u = 0.5 is
    // 300 + 0.5 x (400 - 300) = 350 ms; u = 0 gives the floor, u = 1 the wait.
    b.jitter = Jitter::Full;
    QCOMPARE(policy::backoffUs(b, 3, 0, 0.5), qint64(350000));
    QCOMPARE(policy::backoffUs(b, 3, 0, 0.0), qint64(300000));
    QCOMPARE(policy::backoffUs(b, 3, 0, 1.0), qint64(400000));
    QCOMPARE(policy::backoffUs(b, 1, 0, 0.7), qint64(300000)); // wait 100 < floor: the floor
    // Equal jitter, floored: retry 1 is 50 + u x 50 = at most 100 ms, so the floor of 300.
    b.jitter = Jitter::Equal;
    QCOMPARE(policy::backoffUs(b, 1, 0, 1.0), qint64(300000));
    // The floor makes an unlimited layer valid even with full jitter: every wait is >= 300 ms.
    LayerConfig l;
    l.maxAttempts = 0;
    l.deadlineMs = 3000;
    l.backoff = b;
    l.backoff.jitter = Jitter::Full;
    QCOMPARE(l.minimumWaitMs(), 300);
    QCOMPARE(l.effectiveMaxAttempts(), 11);
    l.backoff.minMs = 0;
    QCOMPARE(l.minimumWaitMs(), 0);
}

void TestScenario::awsIndexingAndProportionalJitter()
{
    // The AWS study's Backoff(base 5, cap 2000): expo(n) = min(cap, base x 2^n), n from 1.
    BackoffConfig aws{BackoffKind::AwsExponential, 5, 2.0, 2000, Jitter::None};
    const QList<qint64> waitsMs{10, 20, 40, 80, 160, 320, 640, 1280, 2000};
    for (int n = 1; n <= 9; ++n)
        QCOMPARE(policy::backoffUs(aws, n, 0, 0.5), waitsMs.at(n - 1) * 1000);
    // urllib3/tenacity indexing of the same numbers starts one step lower.
    BackoffConfig plain = aws;
    plain.kind = BackoffKind::Exponential;
    QCOMPARE(policy::backoffUs(plain, 1, 0, 0.5), qint64(5000));
    // The study's full jitter: U(0, expo(n)); retry 3 with u = 0.25 is 10 ms.
    aws.jitter = Jitter::Full;
    QCOMPARE(policy::backoffUs(aws, 3, 0, 0.25), qint64(10000));
    LayerConfig l;
    l.backoff = {BackoffKind::AwsExponential, 5, 2.0, 2000, Jitter::None};
    QCOMPARE(l.minimumWaitMs(), 10);

    // Proportional jitter of 20 %: retry 2 of 100 ms x 2^(n-1) is 200 ms times 1 + U(-0.2, +0.2).
    BackoffConfig p{BackoffKind::Exponential, 100, 2.0, 1000, Jitter::Proportional};
    p.jitterPercent = 20;
    QCOMPARE(policy::backoffUs(p, 2, 0, 0.0), qint64(160000));
    QCOMPARE(policy::backoffUs(p, 2, 0, 0.5), qint64(200000));
    QCOMPARE(policy::backoffUs(p, 2, 0, 1.0), qint64(240000));
    // After the cap: retry 5 (1600 ms) is capped at 1000 ms, then varied: 800 to 1200 ms.
    QCOMPARE(policy::backoffUs(p, 5, 0, 0.0), qint64(800000));
    QCOMPARE(policy::backoffUs(p, 5, 0, 1.0), qint64(1200000));
    l.backoff = p;
    QCOMPARE(l.minimumWaitMs(), 80);
    l.backoff.jitterPercent = 100;
    QCOMPARE(l.minimumWaitMs(), 0);

    // Both by name in a file.
    const ScenarioParse parsed = scenario::withSets(
        Scenario(), {QStringLiteral("client.wrapper.backoff.kind=awsExponential"),
                     QStringLiteral("client.wrapper.backoff.jitter=proportional"),
                     QStringLiteral("client.wrapper.backoff.jitterPercent=15")});
    QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    QCOMPARE(parsed.scenario.client.wrapper.backoff.kind, BackoffKind::AwsExponential);
    QCOMPARE(parsed.scenario.client.wrapper.backoff.jitter, Jitter::Proportional);
    QCOMPARE(parsed.scenario.client.wrapper.backoff.jitterPercent, 15);
    QCOMPARE(scenario::fromJson(parsed.scenario.toJson()).scenario, parsed.scenario);
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
