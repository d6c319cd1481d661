#include "scenario.h"
#include "scenario/echo.h"
#include "scenario/enumnames.h"
#include "scenario/json.h"
#include "scenario/jsonscanner.h"
#include "scenario/objectreader.h"
#include "scenario/schema.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

// The scenario reader: the field table's walk, the readers of the fields with rules of their own,
// and the cross-field rules that run after the walk.
namespace retrylab::scenario {

namespace detail {

void readSchema(ObjectReader &r, const FieldSpec &, Scenario &)
{
    const QJsonValue schema = r.take("schema");
    if (!schema.isUndefined() && !(schema.isDouble() && schema.toDouble() == 1.0))
        r.error(QStringLiteral("schema"), QStringLiteral("expected 1 (the only schema version this build reads)"),
                schema);
}

// backoff.tenacity: tenacity's wait_exponential by its own names, in seconds. An input alias: when
// present it sets kind exponential, initialMs, multiplier, maxMs and minMs (names it omits keep
// those values), and files are written with those keys. wait = multiplier * expBase^(n-1),
// capped at max, at least min; jitter "full" is wait_random_exponential.
void readTenacity(ObjectReader &backoff, const FieldSpec &spec, Scenario &s)
{
    if (!backoff.source().contains(QLatin1String("tenacity")))
        return;
    BackoffConfig *b = spec.path.startsWith(QLatin1String("client.business."))
        ? &s.client.business.backoff : &s.client.wrapper.backoff;
    // The bounds of the alias's keys, from the table.
    const auto hi = [&spec](const char *key) {
        return fieldSpec(spec.path + QLatin1Char('.') + QLatin1String(key))->maximum;
    };
    const qsizetype before = backoff.errors()->size();
    ObjectReader t(backoff.errors(), backoff.object("tenacity"), backoff.pathOf(QStringLiteral("tenacity")));
    // The alias means what the tenacity call means: names left out take tenacity's defaults
    // (tenacity/wait.py wait_exponential.__init__: multiplier=1, max=MAX_WAIT, exp_base=2, min=0;
    // MAX_WAIT, sys.maxsize / 2 s, is held to the field's bound), never the layer's values, and
    // the layer's jitter does not leak in: wait_exponential has none, wait_random_exponential
    // draws U(min, wait) (full jitter from the floor).
    double multiplier = 1, expBase = 2, minS = 0, maxWaitS = hi("max");
    t.number("multiplier", 0, hi("multiplier"), &multiplier);
    t.number("expBase", 0, hi("expBase"), &expBase);
    t.number("min", 0, hi("min"), &minS);
    t.number("max", 0, hi("max"), &maxWaitS);
    const FieldSpec *waitSpec = fieldSpec(spec.path + QLatin1String(".wait"));
    int wait = 0;
    t.choiceIndex("wait", waitSpec->choices, &wait);
    if (backoff.errors()->size() != before)
        return;
    b->jitter = wait == 1 ? Jitter::Full : Jitter::None;
    const auto wholeMs = [&](const char *key, double seconds, int *out) {
        const double ms = seconds * 1000.0;
        if (std::abs(ms - std::round(ms)) > 1e-6) {
            backoff.errors()->append(QStringLiteral("%1: %2 s is not a whole number of milliseconds")
                                         .arg(t.pathOf(QLatin1String(key)), plainNumber(seconds)));
            return;
        }
        *out = int(std::llround(ms));
    };
    wholeMs("multiplier", multiplier, &b->initialMs);
    wholeMs("min", minS, &b->minMs);
    wholeMs("max", maxWaitS, &b->maxMs);
    b->multiplier = expBase;
    b->kind = BackoffKind::Exponential;
}
void readStatusForcelist(ObjectReader &r, const FieldSpec &, Scenario &s)
{
    QJsonArray statuses;
    if (r.array("statusForcelist", &statuses)
        && r.withinCap("statusForcelist", statuses.size(), scenario::MaxForcelistEntries)) {
        QList<int> list;
        bool ok = true;
        for (int i = 0; i < statuses.size(); ++i) {
            const QJsonValue v = statuses.at(i);
            const double d = v.toDouble();
            if (!v.isDouble() || std::floor(d) != d || d < 100 || d > 599) {
                r.error(QStringLiteral("statusForcelist[%1]").arg(i),
                        QStringLiteral("expected an HTTP status from 100 to 599"), v);
                ok = false;
                continue;
            }
            list.append(int(d));
        }
        if (ok)
            s.client.transport.statusForcelist = list;
    }
}

void readAllowedMethods(ObjectReader &r, const FieldSpec &spec, Scenario &s)
{
    QJsonArray methods;
    if (r.source().value(QLatin1String("allowedMethods")).isNull()) {
        r.take("allowedMethods"); // allowed_methods=None: every method
        s.client.transport.allowedMethods.clear();
    } else if (r.array("allowedMethods", &methods)
        && r.withinCap("allowedMethods", methods.size(), scenario::MaxMethodEntries)) {
        const QStringList valid = spec.choices;
        QStringList list;
        bool ok = true;
        for (int i = 0; i < methods.size(); ++i) {
            const QJsonValue v = methods.at(i);
            const QString m = v.toString().toUpper();
            if (!v.isString() || !valid.contains(m)) {
                r.error(QStringLiteral("allowedMethods[%1]").arg(i),
                        QCoreApplication::translate("scenario", "expected one of %1").arg(valid.join(QLatin1Char('|'))), v);
                ok = false;
                continue;
            }
            if (!list.contains(m))
                list.append(m);
        }
        if (ok)
            s.client.transport.allowedMethods = list;
    }
}

bool validAttemptPattern(const QString &attempt)
{
    static const QRegularExpression re(QStringLiteral(
        "^(?:\\*|b[1-9][0-9]{0,3})/(?:\\*|w[1-9][0-9]{0,3})/(?:\\*|t[1-9][0-9]{0,3})$"));
    return re.match(attempt).hasMatch();
}

void readScript(ObjectReader &parent, const FieldSpec &, Scenario &s)
{
    QJsonArray entries;
    if (!parent.array("script", &entries) || !parent.withinCap("script", entries.size(), scenario::MaxScriptEntries))
        return;
    QList<ScriptEntry> list;
    for (int i = 0; i < entries.size(); ++i) {
        const QString path = parent.pathOf(QStringLiteral("script[%1]").arg(i));
        const QJsonValue v = entries.at(i);
        if (!v.isObject()) {
            parent.errors()->append(
                QStringLiteral("%1: expected an object {\"op\", \"attempt\", \"fault\"}, got %2").arg(path, describe(v)));
            continue;
        }
        ScriptEntry e;
        ObjectReader r(parent.errors(), v.toObject(), path);
        const QJsonValue op = r.take("op");
        if (!op.isUndefined()) {
            const double d = op.toDouble();
            if (op.isString() && op.toString() == QLatin1String("*"))
                e.op = 0;
            else if (op.isDouble() && std::floor(d) == d && d >= 1 && d <= scenario::MaxScriptOp)
                e.op = int(d);
            else
                r.error(QStringLiteral("op"), QStringLiteral("expected an operation number from 1 to %1 or \"*\"").arg(scenario::MaxScriptOp), op);
        }
        const QJsonValue attempt = r.take("attempt");
        if (!attempt.isUndefined()) {
            if (attempt.isString() && validAttemptPattern(attempt.toString()))
                e.attempt = attempt.toString();
            else
                r.error(QStringLiteral("attempt"),
                        QStringLiteral("expected an attempt path \"bN/wN/tN\" (N >= 1, or * per segment)"), attempt);
        }
        // An entry without a fault used to mean "lose the response" silently; it must say what it forces.
        if (!r.source().contains(QLatin1String("fault")))
            parent.errors()->append(QStringLiteral("%1.fault: missing; every script entry names the fault it forces, "
                                                   "one of %2")
                                        .arg(path, enumChoices<FaultKind>()));
        r.choice("fault", &e.fault);
        r.choice("method", &e.method);
        if (e.method == ScriptMethod::Get) {
            // A status query commits nothing, and the wrapper never sends it.
            if (e.fault == FaultKind::ServerRestart)
                parent.errors()->append(QStringLiteral("%1.fault: serverRestart happens after a commit, so it addresses "
                                                       "POST attempts only (method \"POST\")")
                                            .arg(path));
            const QString wrapper = e.attempt.section(QLatin1Char('/'), 1, 1);
            if (wrapper != QLatin1String("*") && wrapper != QLatin1String("w1"))
                parent.errors()->append(QStringLiteral("%1.attempt: a GET status query is sent by the business layer, "
                                                       "so its wrapper segment is w1 or *, not %2")
                                            .arg(path, wrapper));
        }
        list.append(e);
    }
    s.network.script = list;
}

// server.restarts: [{"atS": 12}, ...], each a whole second from 0 to 3600.
void readRestarts(ObjectReader &parent, const FieldSpec &, Scenario &s)
{
    QJsonArray entries;
    if (!parent.array("restarts", &entries) || !parent.withinCap("restarts", entries.size(), scenario::MaxRestartEntries))
        return;
    QList<int> list;
    bool ok = true;
    for (int i = 0; i < entries.size(); ++i) {
        const QString path = parent.pathOf(QStringLiteral("restarts[%1]").arg(i));
        const QJsonValue v = entries.at(i);
        if (!v.isObject()) {
            parent.errors()->append(QStringLiteral("%1: expected an object {\"atS\"}, got %2").arg(path, describe(v)));
            ok = false;
            continue;
        }
        ObjectReader r(parent.errors(), v.toObject(), path);
        if (!r.source().contains(QLatin1String("atS"))) {
            parent.errors()->append(QStringLiteral("%1.atS: missing; every restart says when it happens").arg(path));
            ok = false;
            continue;
        }
        int atS = 0;
        const int before = int(parent.errors()->size());
        r.integer("atS", 0, MaxMs / 1000, &atS);
        ok = ok && int(parent.errors()->size()) == before;
        list.append(atS);
    }
    if (ok)
        s.server.restartsAtS = list;
}

// fromS and toS of a phase or window: 0 <= fromS < toS <= 86400; false when either is refused.
bool readPeriod(ObjectReader &r, double *fromS, double *toS)
{
    const qsizetype before = r.errors()->size();
    r.readNumber("fromS", 0, MaxDayS, fromS);
    r.readNumber("toS", 0, MaxDayS, toS);
    if (r.errors()->size() != before)
        return false;
    if (!(*toS > *fromS)) {
        r.errors()->append(QStringLiteral("%1: expected a time after fromS (%2 s), got %3")
                               .arg(r.pathOf(QStringLiteral("toS")), shortNumber(*fromS), shortNumber(*toS)));
        return false;
    }
    return true;
}

bool overlap(double aFrom, double aTo, double bFrom, double bTo)
{
    return aFrom < bTo && bFrom < aTo;
}

// workload.phases: [{fromS, toS, ratePerS}, ...], not overlapping, their arrivals bounded.
void readPhases(ObjectReader &parent, const FieldSpec &, Scenario &s)
{
    QJsonArray entries;
    if (!parent.array("phases", &entries) || !parent.withinCap("phases", entries.size(), scenario::MaxPhaseEntries))
        return;
    QList<LoadPhase> list;
    bool ok = true;
    for (int i = 0; i < entries.size(); ++i) {
        const QString path = parent.pathOf(QStringLiteral("phases[%1]").arg(i));
        const QJsonValue v = entries.at(i);
        if (!v.isObject()) {
            parent.errors()->append(
                QStringLiteral("%1: expected an object {\"fromS\", \"toS\", \"ratePerS\"}, got %2").arg(path, describe(v)));
            ok = false;
            continue;
        }
        LoadPhase phase;
        ObjectReader r(parent.errors(), v.toObject(), path);
        const qsizetype before = parent.errors()->size();
        const bool period = readPeriod(r, &phase.fromS, &phase.toS);
        r.number("ratePerS", 0, fieldSpec(QStringLiteral("workload.phases[N].ratePerS"))->maximum, &phase.ratePerS);
        ok = ok && period && parent.errors()->size() == before;
        list.append(phase);
    }
    if (!ok)
        return;
    double arrivals = 0;
    for (int i = 0; i < list.size(); ++i) {
        const LoadPhase &p = list.at(i);
        arrivals += (p.toS - p.fromS) * p.ratePerS;
        for (int j = 0; j < i; ++j) {
            const LoadPhase &q = list.at(j);
            if (overlap(p.fromS, p.toS, q.fromS, q.toS)) {
                parent.errors()->append(QStringLiteral("%1: %2 to %3 s overlaps %4 (%5 to %6 s); phases must not overlap")
                                            .arg(parent.pathOf(QStringLiteral("phases[%1]").arg(i)), shortNumber(p.fromS),
                                                 shortNumber(p.toS), parent.pathOf(QStringLiteral("phases[%1]").arg(j)),
                                                 shortNumber(q.fromS), shortNumber(q.toS)));
                ok = false;
                break;
            }
        }
    }
    if (ok && arrivals > MaxPhaseArrivals) {
        parent.errors()->append(QStringLiteral("%1: the phases bring %2 arrivals ((toS - fromS) x ratePerS, summed), "
                                               "at most %3")
                                    .arg(parent.pathOf(QStringLiteral("phases")), plainNumber(std::ceil(arrivals)),
                                         plainNumber(MaxPhaseArrivals)));
        ok = false;
    }
    if (ok)
        s.workload.phases = list;
}

// Top-level windows: [{fromS, toS, fault, probability}, ...]; any fault but serverRestart, and no
// two windows of one fault overlap.
void readWindows(ObjectReader &root, const FieldSpec &, Scenario &s)
{
    QJsonArray entries;
    if (!root.array("windows", &entries) || !root.withinCap("windows", entries.size(), scenario::MaxWindowEntries))
        return;
    const QStringList faults = windowFaults();
    QList<FaultWindow> list;
    bool ok = true;
    for (int i = 0; i < entries.size(); ++i) {
        const QString path = root.pathOf(QStringLiteral("windows[%1]").arg(i));
        const QJsonValue v = entries.at(i);
        if (!v.isObject()) {
            root.errors()->append(QStringLiteral("%1: expected an object {\"fromS\", \"toS\", \"fault\", "
                                                 "\"probability\"}, got %2")
                                      .arg(path, describe(v)));
            ok = false;
            continue;
        }
        FaultWindow w;
        ObjectReader r(root.errors(), v.toObject(), path);
        const qsizetype before = root.errors()->size();
        const bool period = readPeriod(r, &w.fromS, &w.toS);
        const QJsonValue fault = r.take("fault");
        if (fault.isUndefined()) {
            root.errors()->append(QStringLiteral("%1.fault: missing; every window names the fault it sets, one of %2")
                                      .arg(path, faults.join(QLatin1Char('|'))));
        } else if (!fault.isString() || !enumFromName(fault.toString(), &w.fault)) {
            r.error(QStringLiteral("fault"), QCoreApplication::translate("scenario", "expected one of %1").arg(faults.join(QLatin1Char('|'))), fault);
        } else if (w.fault == FaultKind::ServerRestart) {
            root.errors()->append(QStringLiteral("%1.fault: serverRestart has no probability; schedule restarts with "
                                                 "server.restarts (expected one of %2)")
                                      .arg(path, faults.join(QLatin1Char('|'))));
        }
        r.number("probability", 0, fieldSpec(QStringLiteral("windows[N].probability"))->maximum, &w.probability);
        ok = ok && period && root.errors()->size() == before;
        list.append(w);
    }
    if (!ok)
        return;
    for (int i = 0; i < list.size() && ok; ++i) {
        const FaultWindow &w = list.at(i);
        for (int j = 0; j < i; ++j) {
            const FaultWindow &e = list.at(j);
            if (e.fault == w.fault && overlap(w.fromS, w.toS, e.fromS, e.toS)) {
                root.errors()->append(QStringLiteral("%1: %2 to %3 s overlaps %4 (%5 to %6 s), a window of the same "
                                                     "fault %7; a fault has one probability at a time")
                                          .arg(root.pathOf(QStringLiteral("windows[%1]").arg(i)), shortNumber(w.fromS),
                                               shortNumber(w.toS), root.pathOf(QStringLiteral("windows[%1]").arg(j)),
                                               shortNumber(e.fromS), shortNumber(e.toS), enumName(w.fault)));
                ok = false;
                break;
            }
        }
    }
    if (ok)
        s.windows = list;
}
void readSeed(ObjectReader &r, const FieldSpec &, Scenario &s)
{
    quint64 *seed = &s.seed;
    const QJsonValue v = r.take("seed");
    if (v.isUndefined())
        return;
    if (v.isDouble()) {
        const double d = v.toDouble();
        // A file's integer is read exactly: as a double, 2^53 + 1 would round to 2^53 and pass.
        const qint64 exact = v.toInteger(-1);
        if (std::floor(d) == d && d >= 0 && d <= MaxExactInteger && exact >= 0 && exact <= qint64(MaxExactInteger)) {
            *seed = quint64(d);
            return;
        }
    } else if (v.isString()) {
        bool ok = false;
        const quint64 s = v.toString().toULongLong(&ok);
        if (ok && !v.toString().startsWith(QLatin1Char('+')) && !v.toString().startsWith(QLatin1Char('-'))) {
            *seed = s;
            return;
        }
    }
    r.error(QStringLiteral("seed"), QStringLiteral("expected a non-negative integer up to 2^53 (or a decimal string)"), v);
}

namespace {

// A script entry whose op or attempt index lies beyond what the workload and the retry layers can
// A script entry whose op or attempt index lies beyond what the workload and the retry layers can
// produce would never fire: most likely a typo or a setting changed after the script was written.
void checkScriptReachable(const Scenario &s, QStringList *errors)
{
    const ClientConfig &c = s.client;
    const auto layerLimit = [](const LayerConfig &l, const char *name, char letter, QString *why) {
        if (!l.enabled) {
            *why = QStringLiteral("client.%1.enabled is false, so every attempt is %2%3")
                       .arg(QLatin1String(name), QChar::fromLatin1(letter), QStringLiteral("1"));
            return 1;
        }
        if (l.maxAttempts == 0) {
            *why = QStringLiteral("client.%1.maxAttempts is 0 (unlimited) and client.%1.deadlineMs allows at most %2")
                       .arg(QLatin1String(name))
                       .arg(l.effectiveMaxAttempts());
            return l.effectiveMaxAttempts();
        }
        *why = QStringLiteral("client.%1.maxAttempts is %2").arg(QLatin1String(name)).arg(l.maxAttempts);
        return l.maxAttempts;
    };
    QString why[3];
    int limit[3];
    limit[0] = layerLimit(c.business, "business", 'b', &why[0]);
    limit[1] = layerLimit(c.wrapper, "wrapper", 'w', &why[1]);
    if (c.transport.enabled) {
        limit[2] = c.transport.worstCaseRetries() + 1;
        why[2] = c.transport.total == c.transport.worstCaseRetries()
            ? QStringLiteral("client.transport.total is %1, so the last attempt is t%2").arg(c.transport.total).arg(limit[2])
            : QStringLiteral("client.transport.connect + read + status allow %1 retries, so the last attempt is t%2")
                  .arg(limit[2] - 1)
                  .arg(limit[2]);
    } else {
        limit[2] = 1;
        why[2] = QStringLiteral("client.transport.enabled is false, so every attempt is t1");
    }
    for (qsizetype i = 0; i < s.network.script.size(); ++i) {
        const ScriptEntry &e = s.network.script.at(i);
        const QString path = QStringLiteral("network.script[%1]").arg(i);
        if (e.op > s.workload.operations()) {
            errors->append(QStringLiteral("%1.op: %2 can never happen: %3 is %4")
                               .arg(path)
                               .arg(e.op)
                               .arg(s.workload.mode == WorkloadMode::Closed
                                        ? QStringLiteral("workload.clients x workload.opsPerClient")
                                        : s.workload.phases.isEmpty()
                                        ? QStringLiteral("workload.orders")
                                        : QStringLiteral("the most workload.phases brings"))
                               .arg(s.workload.operations()));
            continue;
        }
        const QStringList segments = e.attempt.split(QLatin1Char('/'));
        for (int k = 0; k < 3 && k < segments.size(); ++k) {
            const QString &segment = segments.at(k);
            if (segment == QLatin1String("*"))
                continue;
            if (segment.mid(1).toInt() > limit[k]) {
                errors->append(QStringLiteral("%1.attempt: %2 can never happen: %3").arg(path, segment, why[k]));
                break;
            }
        }
    }
}

} // namespace

namespace {

// ---- cross-field rules, run after the table walk -------------------------------------------

// Unlimited attempts (tenacity stop_never) end only at the deadline. A backoff that may wait 0 ms
// (no backoff, full jitter) is allowed since issue 11 (the AWS study retries until success that
// way): effectiveMaxAttempts() bounds such a loop, and the engine guards against one that does
// not move the clock.
void unlimitedAttemptsNeedDeadline(const Scenario &s, QStringList *errors)
{
    const std::pair<const char *, const LayerConfig *> layers[] = {{"business", &s.client.business},
                                                                   {"wrapper", &s.client.wrapper}};
    for (const auto &[name, l] : layers) {
        if (l->enabled && l->maxAttempts == 0 && l->deadlineMs <= 0)
            errors->append(QStringLiteral("client.%1.maxAttempts: 0 (unlimited) needs client.%1.deadlineMs above 0, "
                                          "the deadline that ends the retries")
                               .arg(QLatin1String(name)));
    }
}

// The simulation raises connect, read and status errors only ("other" never happens here), so
// an unlimited total needs those three limited or a run of faults would retry forever.
void unlimitedTotalNeedsCounters(const TransportConfig &t, QStringList *errors)
{
    if (t.total == TransportConfig::Unlimited
        && (t.connect == TransportConfig::Unlimited || t.read == TransportConfig::Unlimited
            || t.status == TransportConfig::Unlimited))
        errors->append(QStringLiteral("client.transport.total: null (unlimited) needs client.transport.connect, read "
                                      "and status limited, else a run of faults retries forever"));
}

// The operations of a closed run are bounded as workload.orders is, and phases belong to open mode.
void closedWorkloadLimits(const WorkloadConfig &w, QStringList *errors)
{
    if (w.mode != WorkloadMode::Closed)
        return;
    const qint64 operations = qint64(w.clients) * w.opsPerClient;
    if (operations > MaxOperations)
        errors->append(QStringLiteral("workload.opsPerClient: closed mode runs workload.clients x "
                                      "opsPerClient operations, at most %1; got %2 x %3 = %4")
                           .arg(MaxOperations)
                           .arg(w.clients)
                           .arg(w.opsPerClient)
                           .arg(operations));
    if (!w.phases.isEmpty())
        errors->append(QStringLiteral("workload.phases: phases set the arrival rate of open mode; closed "
                                      "mode (workload.mode \"closed\") takes none, got %1")
                           .arg(w.phases.size() == 1 ? QStringLiteral("1 phase")
                                                     : QStringLiteral("%1 phases").arg(w.phases.size())));
}

// A token is fetched with a round trip of its own before the POST; an OCC write has none.
void occHasNoTokens(const ServerConfig &v, QStringList *errors)
{
    if (v.model == ServerModel::Occ && v.idempotency.mode == IdempotencyMode::Token)
        errors->append(QStringLiteral("server.model: occ has no token round trip, so it cannot serve "
                                      "server.idempotency.mode \"token\" (use orders, or another mode)"));
}

// ---- the table walk --------------------------------------------------------------------------

// One field by its type and bounds, or by its own reader.
void readField(ObjectReader &r, const FieldSpec &f, Scenario &s)
{
    if (f.read) {
        f.read(r, f, s);
        return;
    }
    const QByteArray key = f.key().toLatin1();
    const char *k = key.constData();
    const int lo = int(f.minimum), hi = int(f.maximum);
    switch (f.type) {
    case FieldType::Integer: {
        int *out = std::get<int *(*)(Scenario &)>(f.member)(s);
        if (f.special == Special::NullUnlimited || f.special == Special::NullQuiet)
            r.nullableInteger(k, lo, hi, out);
        else
            r.integer(k, lo, hi, out);
        return;
    }
    case FieldType::Number: {
        double *out = std::get<double *(*)(Scenario &)>(f.member)(s);
        if (f.special == Special::NullMeans)
            r.nullableNumber(k, f.minimum, f.maximum, f.specialText, out);
        else
            r.number(k, f.minimum, f.maximum, out);
        return;
    }
    case FieldType::Boolean:
        r.boolean(k, std::get<bool *(*)(Scenario &)>(f.member)(s));
        return;
    case FieldType::Choice: {
        int index = 0;
        if (r.choiceIndex(k, f.choices, &index, f.choiceAliases))
            std::get<ChoiceMember>(f.member).set(s, index);
        return;
    }
    case FieldType::Text:
        r.string(k, hi, std::get<QString *(*)(Scenario &)>(f.member)(s), lo == 0);
        return;
    case FieldType::List:
        break;
    }
}

// The fields [begin, end) of the table, all inside the object that r reads (their paths start with
// prefixLength characters of its path); a run of fields inside a sub-object is read by a reader of
// its own, which reports the sub-object's unknown keys when it goes out of scope.
void readFields(ObjectReader &r, qsizetype begin, qsizetype end, qsizetype prefixLength, Scenario &s)
{
    const QList<FieldSpec> &table = schema();
    for (qsizetype i = begin; i < end;) {
        const FieldSpec &f = table.at(i);
        if (f.role == Role::Item || (f.role == Role::Alias && !f.read)) {
            ++i; // read by their list's or alias's own reader
            continue;
        }
        const qsizetype dot = f.path.indexOf(QLatin1Char('.'), prefixLength);
        if (dot < 0) {
            readField(r, f, s);
            ++i;
            continue;
        }
        const QString object = f.path.left(dot + 1);
        qsizetype j = i + 1;
        while (j < end && table.at(j).path.startsWith(object))
            ++j;
        const QByteArray key = f.path.mid(prefixLength, dot - prefixLength).toLatin1();
        ObjectReader sub(r.errors(), r.object(key.constData()), f.path.left(dot));
        readFields(sub, i, j, dot + 1, s);
        i = j;
    }
}

} // namespace

ScenarioParse readObject(const QJsonObject &object)
{
    ScenarioParse result;
    Scenario &s = result.scenario;
    QStringList *errors = &result.errors;
    {
        ObjectReader root(errors, object, QString());
        readFields(root, 0, schema().size(), 0, s);
    } // readers report unknown keys when they go out of scope
    closedWorkloadLimits(s.workload, errors);
    unlimitedAttemptsNeedDeadline(s, errors);
    unlimitedTotalNeedsCounters(s.client.transport, errors);
    occHasNoTokens(s.server, errors);
    // Entries that can never fire, checked once the fields they depend on are valid.
    if (errors->isEmpty())
        checkScriptReachable(s, errors);
    return result;
}

} // namespace detail

using namespace detail;


ScenarioParse fromJson(const QJsonObject &object)
{
    ScenarioParse result = readObject(object);
    capErrors(&result.errors);
    return result;
}


ScenarioParse fromJsonBytes(const QByteArray &bytes, const QString &source)
{
    const QString prefix = source.isEmpty() ? QString() : source + QStringLiteral(": ");
    ScenarioParse refused;
    if (bytes.size() > MaxFileBytes) {
        refused.errors << prefix
                + QCoreApplication::translate("scenario", "the file is larger than %1 bytes, the most a scenario file may hold").arg(MaxFileBytes);
        return refused;
    }
    if (const QString problem = encodingProblem(bytes); !problem.isEmpty()) {
        refused.errors << prefix + problem;
        return refused;
    }
    // Our own pass first: it says where and what; QJsonDocument only says "unterminated object".
    JsonScanner scanner(bytes);
    if (!scanner.scan()) {
        refused.errors << prefix
                + QCoreApplication::translate("scenario", "malformed JSON at %1: %2").arg(lineColumn(bytes, scanner.errorOffset()), scanner.error());
        return refused;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        refused.errors << prefix
                + QCoreApplication::translate("scenario", "malformed JSON at %1: %2")
                      .arg(lineColumn(bytes, parseError.offset), parseError.errorString());
        return refused;
    }
    if (!doc.isObject()) {
        refused.errors << prefix + QCoreApplication::translate("scenario", "expected a JSON object at the top level");
        return refused;
    }
    ScenarioParse result = readObject(doc.object());
    // Duplicate keys first: the value read for such a key may not be the one the author looks at.
    result.errors = scanner.duplicates() + result.errors;
    capErrors(&result.errors, scanner.duplicateCount() - scanner.duplicates().size());
    return result;
}

ScenarioParse load(const QString &fileName)
{
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly)) {
        ScenarioParse result;
        result.errors << QCoreApplication::translate("scenario", "cannot read scenario file \"%1\": %2").arg(fileName, file.errorString());
        return result;
    }
    // One byte past the cap is enough to refuse, whatever the file's size.
    return fromJsonBytes(file.read(MaxFileBytes + 1), fileName);
}

} // namespace retrylab::scenario
