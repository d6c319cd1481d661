// Validation bounds, generated from the field catalogue that defines them: for every bounded
// field its lowest and highest values are accepted and the first values outside are refused,
// through `--set` (scenario::withSet) and through a scenario file (scenario::fromJson), with an
// error naming the field. A field added to the validator is covered the day it is added.
#include "scenario.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace retrylab;

namespace {

// The catalogue writes "network.script[N].op" (also workload.phases[N], windows[N]); an edit names one entry.
QString concretePath(const QString &catalogPath)
{
    QString path = catalogPath;
    return path.replace(QStringLiteral("[N]"), QStringLiteral("[0]"));
}

// A value as `--set` reads it: a JSON literal. Integers in 64 bits: 2^53 + 1 has no double.
QString integerText(double bound, int offset)
{
    return QString::number(qint64(bound) + offset);
}

// A number a small step outside (or on) the bound: a millionth of the range, at least 1e-9.
QString numberText(const FieldInfo &f, double bound, int direction)
{
    const double step = std::max(1e-9, (f.maximum - f.minimum) * 1e-6);
    return QString::number(bound + direction * step, 'g', 17);
}

// The text after "path=", parsed as withSet parses it.
QJsonValue parsedText(const QString &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"));
    return doc.isArray() && doc.array().size() == 1 ? doc.array().at(0) : QJsonValue(text);
}

// The default scenario with one script entry, so the keys of an entry have something to edit.
QJsonObject baseJson()
{
    QJsonObject json = Scenario().toJson();
    QJsonObject network = json.value(QLatin1String("network")).toObject();
    network.insert(QStringLiteral("script"),
                   QJsonArray{QJsonObject{{QStringLiteral("op"), QStringLiteral("*")},
                                          {QStringLiteral("attempt"), QStringLiteral("*/*/*")},
                                          {QStringLiteral("fault"), QStringLiteral("responseLost")}}});
    json.insert(QStringLiteral("network"), network);
    return json;
}

// Sets a dotted path ("a.b[0].c") in a JSON object, as a file would hold it.
QJsonValue setIn(const QJsonValue &node, const QStringList &parts, int i, const QJsonValue &value)
{
    if (i == parts.size())
        return value;
    QString key = parts.at(i);
    int index = -1;
    if (key.endsWith(QLatin1Char(']'))) {
        const int open = int(key.indexOf(QLatin1Char('[')));
        index = key.mid(open + 1, key.size() - open - 2).toInt();
        key = key.left(open);
    }
    QJsonObject object = node.toObject();
    if (index < 0) {
        object.insert(key, setIn(object.value(key), parts, i + 1, value));
    } else {
        QJsonArray array = object.value(key).toArray();
        array.replace(index, setIn(array.at(index), parts, i + 1, value));
        object.insert(key, array);
    }
    return object;
}

// Settings a row needs besides its own value (a cross-field rule), as "path=value" assignments.
using Assignments = QStringList;

// A bounded field's lower bound is the special value 0 (unlimited) of maxAttempts: the
// catalogue states the plain range from 1, and 0 needs a deadline.
bool specialLow(const FieldInfo &f)
{
    return f.allowed.contains(QLatin1String(", or 0 for unlimited"));
}

// A field of a list entry needs the entry first: one phase (0 to 10 s at 10/s) or one window.
Assignments entryFor(const QString &path)
{
    if (path.startsWith(QLatin1String("workload.phases[0].")))
        return {QStringLiteral(R"(workload.phases=[{"fromS": 0, "toS": 10, "ratePerS": 10}])")};
    if (path.startsWith(QLatin1String("windows[0].")))
        return {QStringLiteral(R"(windows=[{"fromS": 0, "toS": 10, "fault": "responseLost", "probability": 1}])")};
    return {};
}

} // namespace

class TestBounds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void catalogueHasBounds();
    void boundsArePinned();
    void boundaries_data();
    void boundaries();
};

// The generator below is only as good as the catalogue: make sure it is not empty and that the
// fields the issue names are among the bounded ones.
void TestBounds::catalogueHasBounds()
{
    int bounded = 0, choices = 0;
    QStringList paths;
    for (const FieldInfo &f : scenario::fields()) {
        bounded += f.bounded;
        choices += f.type == QLatin1String("choice");
        if (f.bounded)
            paths << f.path;
    }
    QVERIFY2(bounded >= 50, qPrintable(QString::number(bounded)));
    QVERIFY2(choices >= 12, qPrintable(QString::number(choices)));
    for (const char *path : {"reconciliation.intervalS", "workload.clients", "server.idempotency.ttlS",
                             "client.business.maxAttempts", "client.transport.total", "network.script[N].op", "seed"})
        QVERIFY2(paths.contains(QLatin1String(path)), path);
}

// The generated rows follow the catalogue, so a bound widened in the validator widens its rows
// too: the ranges themselves are pinned here, by hand. A new field needs no line here to be
// covered by the generated rows; a changed range must be changed here on purpose.
void TestBounds::boundsArePinned()
{
    struct Bound
    {
        const char *path;
        double minimum;
        double maximum;
    };
    const Bound pinned[] = {
        {"schema", 1, 1},
        {"seed", 0, 9007199254740992.0},
        {"workload.orders", 1, 100000000}, // issue 23: the work budget bounds a run, not memory
        {"workload.interArrivalMs", 0, 3600000},
        {"workload.clients", 1, 10000},
        {"workload.doubleSubmitRate", 0, 1},
        {"workload.doubleSubmitDelayMs", 0, 3600000},
        {"workload.phases[N].ratePerS", 0, 100000},
        {"workload.opsPerClient", 1, 100000},
        {"workload.thinkTimeMs", 0, 3600000},
        {"client.business.maxAttempts", 1, 100}, // and 0 for unlimited, with a deadline
        {"client.business.deadlineMs", 0, 3600000},
        {"client.business.backoff.initialMs", 0, 3600000},
        {"client.business.backoff.multiplier", 0, 100},
        {"client.business.backoff.maxMs", 0, 3600000},
        {"client.wrapper.maxAttempts", 1, 100},
        {"client.wrapper.deadlineMs", 0, 3600000},
        {"client.wrapper.backoff.initialMs", 0, 3600000},
        {"client.wrapper.backoff.multiplier", 0, 100},
        {"client.wrapper.backoff.maxMs", 0, 3600000},
        {"client.transport.total", 0, 20},
        {"client.transport.connect", 0, 20},
        {"client.transport.read", 0, 20},
        {"client.transport.status", 0, 20},
        {"client.transport.other", 0, 20},
        {"client.transport.backoffFactor", 0, 3600},
        {"client.transport.backoffMaxS", 0, 86400},
        {"client.transport.backoffJitter", 0, 3600},
        {"client.transport.retryAfterMaxS", 0, 86400},
        {"client.timeoutMs", 1, 3600000},
        {"client.connectFailMs", 0, 3600000},
        {"client.retryBudget.ratio", 0, 100},
        {"client.retryBudget.maxTokens", 0, 1000000},
        {"client.retryBudget.initialTokens", 0, 1000000}, // and null for a full bucket
        {"client.circuitBreaker.failureThreshold", 1, 1000},
        {"client.circuitBreaker.openMs", 1, 3600000},
        {"client.circuitBreaker.window", 1, 10000},
        {"client.circuitBreaker.failureRatePercent", 1, 100},
        {"network.latencyMs.base", 0, 3600000},
        {"network.latencyMs.jitter", 0, 3600000},
        {"network.latencyMs.mean", 0, 600000},
        {"network.latencyMs.sd", 0, 600000},
        {"network.connectFailure", 0, 1},
        {"network.requestLoss", 0, 1},
        {"network.responseLoss", 0, 1},
        {"network.resetAfterCommit", 0, 1},
        {"network.latencySpike", 0, 1},
        {"network.spikeMs", 0, 3600000},
        {"network.script[N].op", 1, 20}, // 1 to workload.orders (20 by default)
        {"server.occ.rows", 1, 100000},
        {"server.processingMs.base", 0, 3600000},
        {"server.processingMs.jitter", 0, 3600000},
        {"server.processingMs.mean", 0, 600000},
        {"server.processingMs.sd", 0, 600000},
        {"server.latencyPerInFlightMs", 0, 10000},
        {"server.capacity", 0, 100000},
        {"server.queue", 0, 1000000},
        {"server.errorStatus", 500, 599},
        {"server.error5xxBeforeCommit", 0, 1},
        {"server.error5xxAfterCommit", 0, 1},
        {"server.throttle429", 0, 1},
        {"server.retryAfterS", 0, 86400},
        {"server.restartDownMs", 0, 3600000},
        {"server.idempotency.ttlS", 0, 31536000},
        {"reconciliation.intervalS", 1, 86400}, // 0 would schedule the pass at the same instant forever
        {"windows[N].probability", 0, 1},
    };
    QHash<QString, FieldInfo> catalogue;
    for (const FieldInfo &f : scenario::fields())
        catalogue.insert(f.path, f);
    for (const Bound &b : pinned) {
        const QString path = QLatin1String(b.path);
        QVERIFY2(catalogue.contains(path), b.path);
        const FieldInfo f = catalogue.value(path);
        QVERIFY2(f.bounded, b.path);
        QVERIFY2(f.minimum == b.minimum && f.maximum == b.maximum,
                 qPrintable(QStringLiteral("%1: %2 to %3").arg(path).arg(f.minimum).arg(f.maximum)));
    }
}

void TestBounds::boundaries_data()
{
    QTest::addColumn<Assignments>("before"); // applied first: the dependencies of a cross-field rule
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("accepted");

    for (const FieldInfo &f : scenario::fields()) {
        const QString path = concretePath(f.path);
        const QByteArray tag = f.path.toUtf8();
        const Assignments entry = entryFor(path);
        if (f.bounded) {
            const bool integer = f.type == QLatin1String("integer");
            const auto text = [&](double bound, int direction) {
                return integer ? integerText(bound, direction) : numberText(f, bound, direction);
            };
            QTest::addRow("%s-minimum-accepted", tag.constData()) << entry << path << text(f.minimum, 0) << true;
            QTest::addRow("%s-maximum-accepted", tag.constData()) << entry << path << text(f.maximum, 0) << true;
            QTest::addRow("%s-below-rejected", tag.constData()) << entry << path << text(f.minimum, -1) << false;
            QTest::addRow("%s-above-rejected", tag.constData()) << entry << path << text(f.maximum, 1) << false;
            if (specialLow(f)) {
                // 0 (unlimited) is refused without a deadline and accepted with one, whatever the
                // backoff (since issue 11 a backoff that may wait 0 ms is allowed too).
                const QString layer = path.section(QLatin1Char('.'), 0, -2);
                const Assignments unlimited{layer + QStringLiteral(".deadlineMs=1000")};
                QTest::addRow("%s-zero-with-deadline-accepted", tag.constData())
                    << unlimited << path << QStringLiteral("0") << true;
                QTest::addRow("%s-below-zero-with-deadline-rejected", tag.constData())
                    << unlimited << path << QStringLiteral("-1") << false;
            }
        }
        if (f.type == QLatin1String("choice")) {
            for (const QString &choice : f.choices)
                QTest::addRow("%s-%s-accepted", tag.constData(), qPrintable(choice))
                    << entry << path << QLatin1Char('"') + choice + QLatin1Char('"') << true;
            QTest::addRow("%s-unknown-rejected", tag.constData())
                << entry << path << QStringLiteral("\"bogus\"") << false;
        }
    }

    // The rows the issue names, spelled out: each also appears above, generated.
    QTest::addRow("reconciliation-interval-zero-rejected")
        << Assignments() << QStringLiteral("reconciliation.intervalS") << QStringLiteral("0") << false;
    QTest::addRow("reconciliation-interval-one-accepted")
        << Assignments() << QStringLiteral("reconciliation.intervalS") << QStringLiteral("1") << true;
    QTest::addRow("workload-clients-zero-rejected")
        << Assignments() << QStringLiteral("workload.clients") << QStringLiteral("0") << false;
    QTest::addRow("ttl-lower-bound-accepted")
        << Assignments() << QStringLiteral("server.idempotency.ttlS") << QStringLiteral("0") << true;
    QTest::addRow("ttl-below-lower-bound-rejected")
        << Assignments() << QStringLiteral("server.idempotency.ttlS") << QStringLiteral("-1") << false;
    // statusForcelist is a list: each entry an HTTP status from 100 to 599.
    QTest::addRow("forcelist-600-rejected")
        << Assignments() << QStringLiteral("client.transport.statusForcelist") << QStringLiteral("[503, 600]") << false;
    QTest::addRow("forcelist-599-accepted")
        << Assignments() << QStringLiteral("client.transport.statusForcelist") << QStringLiteral("[503, 599]") << true;
    QTest::addRow("forcelist-100-accepted")
        << Assignments() << QStringLiteral("client.transport.statusForcelist") << QStringLiteral("[100]") << true;
    QTest::addRow("forcelist-99-rejected")
        << Assignments() << QStringLiteral("client.transport.statusForcelist") << QStringLiteral("[99]") << false;
    // A script entry names an op of the workload: op 20 of 20 can fire, 21 never.
    QTest::addRow("script-op-beyond-orders-rejected")
        << Assignments{QStringLiteral("workload.orders=5")} << QStringLiteral("network.script[0].op")
        << QStringLiteral("6") << false;
    QTest::addRow("script-op-last-order-accepted")
        << Assignments{QStringLiteral("workload.orders=5")} << QStringLiteral("network.script[0].op")
        << QStringLiteral("5") << true;
    // Unlimited attempts need a deadline. A deliberate change of issue 11: a backoff that may wait
    // 0 ms (full jitter, no backoff at all) used to be refused; the AWS study retries that way.
    QTest::addRow("unlimited-attempts-full-jitter-accepted")
        << Assignments{QStringLiteral("client.wrapper.deadlineMs=1000"), QStringLiteral("client.wrapper.backoff.jitter=\"full\"")}
        << QStringLiteral("client.wrapper.maxAttempts") << QStringLiteral("0") << true;
    QTest::addRow("unlimited-attempts-no-backoff-accepted")
        << Assignments{QStringLiteral("client.business.deadlineMs=1000"), QStringLiteral("client.business.backoff.initialMs=0"),
                       QStringLiteral("client.business.backoff.jitter=\"none\"")}
        << QStringLiteral("client.business.maxAttempts") << QStringLiteral("0") << true;
    QTest::addRow("unlimited-attempts-no-deadline-rejected")
        << Assignments{QStringLiteral("client.business.backoff.initialMs=0")}
        << QStringLiteral("client.business.maxAttempts") << QStringLiteral("0") << false;
    // A phase or window lies within one day, toS after fromS (their bounds depend on each other,
    // so the catalogue states them in words and these rows pin them).
    const Assignments phase = entryFor(QStringLiteral("workload.phases[0].fromS"));
    const Assignments window = entryFor(QStringLiteral("windows[0].fromS"));
    for (const QString &list : {QStringLiteral("workload.phases[0]"), QStringLiteral("windows[0]")}) {
        const Assignments entry = entryFor(list + QStringLiteral(".fromS"));
        const QByteArray tag = list.toUtf8();
        QTest::addRow("%s-fromS-zero-accepted", tag.constData()) << entry << list + QStringLiteral(".fromS") << QStringLiteral("0") << true;
        QTest::addRow("%s-fromS-negative-rejected", tag.constData())
            << entry << list + QStringLiteral(".fromS") << QStringLiteral("-1e-9") << false;
        QTest::addRow("%s-fromS-just-before-toS-accepted", tag.constData())
            << entry << list + QStringLiteral(".fromS") << QStringLiteral("9.999999") << true;
        QTest::addRow("%s-toS-at-fromS-rejected", tag.constData())
            << entry + Assignments{list + QStringLiteral(".fromS=5")} << list + QStringLiteral(".toS") << QStringLiteral("5") << false;
        QTest::addRow("%s-toS-just-after-fromS-accepted", tag.constData())
            << entry + Assignments{list + QStringLiteral(".fromS=5")} << list + QStringLiteral(".toS") << QStringLiteral("5.000001") << true;
        QTest::addRow("%s-toS-one-day-accepted", tag.constData()) << entry << list + QStringLiteral(".toS") << QStringLiteral("86400") << true;
        QTest::addRow("%s-toS-beyond-one-day-rejected", tag.constData())
            << entry << list + QStringLiteral(".toS") << QStringLiteral("86400.000001") << false;
    }
    // The phases bring at most 1000000 arrivals: 10 s at 100000/s is the most.
    QTest::addRow("phase-arrivals-at-limit-accepted")
        << phase << QStringLiteral("workload.phases") << QStringLiteral(R"([{"fromS": 0, "toS": 10, "ratePerS": 100000}])") << true;
    QTest::addRow("phase-arrivals-beyond-limit-rejected")
        << phase << QStringLiteral("workload.phases")
        << QStringLiteral(R"([{"fromS": 0, "toS": 10.001, "ratePerS": 100000}])") << false;
    // A closed workload runs clients x opsPerClient operations, at most 100000000 (as workload.orders).
    QTest::addRow("closed-operations-at-limit-accepted")
        << Assignments{QStringLiteral("workload.mode=\"closed\""), QStringLiteral("workload.clients=1000")}
        << QStringLiteral("workload.opsPerClient") << QStringLiteral("100000") << true;
    QTest::addRow("closed-operations-beyond-limit-rejected")
        << Assignments{QStringLiteral("workload.mode=\"closed\""), QStringLiteral("workload.clients=1001")}
        << QStringLiteral("workload.opsPerClient") << QStringLiteral("100000") << false;
    // serverRestart is scheduled (server.restarts), never a window's probability.
    QTest::addRow("window-server-restart-rejected")
        << window << QStringLiteral("windows[0].fault") << QStringLiteral("\"serverRestart\"") << false;
    // transport.total null (unlimited) needs connect, read and status limited.
    QTest::addRow("transport-total-null-rejected")
        << Assignments() << QStringLiteral("client.transport.total") << QStringLiteral("null") << false;
    QTest::addRow("transport-total-null-with-counters-accepted")
        << Assignments{QStringLiteral("client.transport.connect=1"), QStringLiteral("client.transport.read=1"),
                       QStringLiteral("client.transport.status=1")}
        << QStringLiteral("client.transport.total") << QStringLiteral("null") << true;
}

void TestBounds::boundaries()
{
    QFETCH(Assignments, before);
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(bool, accepted);

    // The starting point, through the same reader.
    ScenarioParse start = scenario::fromJson(baseJson());
    QVERIFY2(start.ok(), qPrintable(start.errors.join(QLatin1Char('\n'))));
    for (const QString &assignment : before) {
        start = scenario::withSet(start.scenario, assignment);
        QVERIFY2(start.ok(), qPrintable(assignment + QStringLiteral(": ") + start.errors.join(QLatin1Char('\n'))));
    }
    const QJsonValue value = parsedText(text);

    // --set path=text
    const ScenarioParse set = scenario::withSet(start.scenario, path + QLatin1Char('=') + text);
    // A scenario file holding the value.
    const ScenarioParse file =
        scenario::fromJson(setIn(start.scenario.toJson(), path.split(QLatin1Char('.')), 0, value).toObject());

    for (const ScenarioParse *parsed : {&set, &file}) {
        const char *how = parsed == &set ? "--set" : "file";
        if (accepted) {
            QVERIFY2(parsed->ok(), qPrintable(QLatin1String(how) + QStringLiteral(": ") + parsed->errors.join(QLatin1Char('\n'))));
            // Stored as given, not clamped or rounded.
            const QJsonValue stored = scenario::valueAt(parsed->scenario, path);
            if (value.isDouble())
                QCOMPARE(stored.toDouble(), value.toDouble());
            else
                QCOMPARE(stored, value);
        } else {
            QVERIFY2(!parsed->ok(), how);
            // The first error names the field (for a list, one of its entries).
            const QString first = parsed->errors.value(0);
            QVERIFY2(first.startsWith(path + QLatin1Char(':')) || first.startsWith(path + QLatin1Char('[')),
                     qPrintable(QLatin1String(how) + QStringLiteral(": ") + first));
        }
    }
}

QTEST_GUILESS_MAIN(TestBounds)
#include "tst_bounds.moc"
