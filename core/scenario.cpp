#include "scenario.h"
#include "scenariovisit.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>

namespace retrylab {

namespace {

// Largest integer a JSON number (an IEEE double) carries exactly.
constexpr double MaxExactInteger = 9007199254740992.0; // 2^53

constexpr int MaxMs = 3600000; // one hour of virtual time

const char *const PresetOrder[] = {
    "ghost-request", "layered-fix",        "stable-key",   "rotating-key",
    "payload-mismatch", "concurrent-race", "key-expiry",   "query-before-retry",
    "server-token",  "reconciliation",     "retry-storm",  "correlation-ids",
};

const char *const HttpMethods[] = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "POST", "PATCH"};

// Enum <-> name tables; the index is the enum value.
template<typename E>
struct EnumNames;

template<>
struct EnumNames<BackoffKind>
{
    static constexpr const char *names[] = {"constant", "linear", "exponential"};
};
template<>
struct EnumNames<Jitter>
{
    static constexpr const char *names[] = {"none", "full", "equal", "decorrelated"};
};
template<>
struct EnumNames<KeyPlacement>
{
    static constexpr const char *names[] = {"none", "perOperation", "perBusinessAttempt", "perWrapperAttempt"};
};
template<>
struct EnumNames<IdempotencyMode>
{
    static constexpr const char *names[] = {"off", "naive", "atomic", "token"};
};
template<>
struct EnumNames<WrapperRetryOn>
{
    static constexpr const char *names[] = {"any", "transient"};
};
template<>
struct EnumNames<ReconcileAction>
{
    static constexpr const char *names[] = {"flag", "void"};
};
template<>
struct EnumNames<FaultKind>
{
    static constexpr const char *names[] = {"connectFailure",        "requestLost",          "responseLost",
                                            "resetAfterCommit",      "latencySpike",         "server5xxBeforeCommit",
                                            "server5xxAfterCommit",  "throttle429"};
};

template<typename E>
QString enumName(E value)
{
    const auto &names = EnumNames<E>::names;
    const int i = static_cast<int>(value);
    if (i < 0 || i >= int(std::size(names)))
        return QString();
    return QLatin1String(names[i]);
}

template<typename E>
bool enumFromName(const QString &name, E *out)
{
    const auto &names = EnumNames<E>::names;
    for (int i = 0; i < int(std::size(names)); ++i) {
        if (name == QLatin1String(names[i])) {
            *out = static_cast<E>(i);
            return true;
        }
    }
    return false;
}

template<typename E>
QString enumChoices()
{
    QStringList all;
    for (const char *n : EnumNames<E>::names)
        all << QLatin1String(n);
    return all.join(QLatin1Char('|'));
}

// Compact rendering of an offending value for error messages.
QString describe(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::floor(d) == d && std::fabs(d) < MaxExactInteger)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 17);
    }
    case QJsonValue::String: {
        QString s = v.toString();
        if (s.size() > 60)
            s = s.left(57) + QStringLiteral("...");
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    case QJsonValue::Array:
    case QJsonValue::Object: {
        const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
        QString s = QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
        if (s.size() > 60)
            s = s.left(57) + QStringLiteral("...");
        return s;
    }
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

int editDistance(const QString &a, const QString &b)
{
    QList<int> prev(b.size() + 1), cur(b.size() + 1);
    for (int j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (int i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (int j = 1; j <= b.size(); ++j) {
            const int cost = a.at(i - 1).toLower() == b.at(j - 1).toLower() ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

QString unknownKeyMessage(const QString &path, const QString &key, const QStringList &known)
{
    QString best;
    int bestDistance = 3; // suggest only close misspellings
    for (const QString &k : known) {
        const int d = editDistance(key, k);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    QString msg = path + QStringLiteral(": unknown key");
    if (!best.isEmpty())
        msg += QStringLiteral(" (did you mean \"%1\"?)").arg(best);
    return msg;
}

QString joinPath(const QString &prefix, const QString &key)
{
    return prefix.isEmpty() ? key : prefix + QLatin1Char('.') + key;
}

// "1000000" rather than QString::arg's "1e+06".
QString plainNumber(double v)
{
    if (std::floor(v) == v && std::fabs(v) < MaxExactInteger)
        return QString::number(qint64(v));
    return QString::number(v, 'g', 15);
}

// Set only while scenario::fields() runs the validator: each reader call notes its field here.
thread_local QList<FieldInfo> *t_catalogue = nullptr;

// Reads one JSON object field by field, records every error with its path and,
// at the end, reports the keys nobody asked for.
class ObjectReader
{
public:
    ObjectReader(QStringList *errors, const QJsonObject &object, const QString &path)
        : m_errors(errors), m_object(object), m_path(path)
    {
    }

    ~ObjectReader()
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
            if (!m_known.contains(it.key()))
                m_errors->append(unknownKeyMessage(joinPath(m_path, it.key()), it.key(), m_known));
        }
    }

    ObjectReader(const ObjectReader &) = delete;
    ObjectReader &operator=(const ObjectReader &) = delete;

    QString pathOf(const QString &key) const { return joinPath(m_path, key); }

    // Records the field in the catalogue when scenario::fields() is collecting it.
    void note(const char *key, const QString &type, const QString &allowed, const QStringList &choices = {}) const
    {
        noteRange(key, type, allowed, false, 0, 0, choices);
    }
    void noteRange(const char *key, const QString &type, const QString &allowed, bool bounded, double lo, double hi,
                   const QStringList &choices = {}) const
    {
        if (!t_catalogue)
            return;
        FieldInfo info;
        info.path = pathOf(QLatin1String(key));
        info.type = type;
        info.allowed = allowed;
        info.bounded = bounded;
        info.minimum = lo;
        info.maximum = hi;
        info.choices = choices;
        info.defaultValue = m_object.value(QLatin1String(key));
        t_catalogue->append(info);
    }

    void error(const QString &key, const QString &rule, const QJsonValue &got)
    {
        m_errors->append(QStringLiteral("%1: %2, got %3").arg(pathOf(key), rule, describe(got)));
    }

    // The value of key, or undefined; marks the key as known either way.
    QJsonValue take(const char *key)
    {
        const QString k = QLatin1String(key);
        m_known.append(k);
        return m_object.value(k);
    }

    void integer(const char *key, int lo, int hi, int *out)
    {
        noteRange(key, QStringLiteral("integer"), QStringLiteral("%1 to %2").arg(lo).arg(hi), true, lo, hi);
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < lo || d > hi) {
            error(QLatin1String(key), QStringLiteral("expected an integer from %1 to %2").arg(lo).arg(hi), v);
            return;
        }
        *out = int(d);
    }

    void number(const char *key, double lo, double hi, double *out)
    {
        noteRange(key, QStringLiteral("number"), QStringLiteral("%1 to %2").arg(plainNumber(lo), plainNumber(hi)), true,
                  lo, hi);
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            error(QLatin1String(key), QStringLiteral("expected a number from %1 to %2").arg(lo).arg(hi), v);
            return;
        }
        *out = d;
    }

    void boolean(const char *key, bool *out)
    {
        note(key, QStringLiteral("boolean"), QStringLiteral("true or false"));
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isBool()) {
            error(QLatin1String(key), QStringLiteral("expected true or false"), v);
            return;
        }
        *out = v.toBool();
    }

    void string(const char *key, QString *out, bool allowEmpty = true)
    {
        note(key, QStringLiteral("string"), allowEmpty ? QStringLiteral("any text") : QStringLiteral("non-empty text"));
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isString() || (!allowEmpty && v.toString().isEmpty())) {
            error(QLatin1String(key), allowEmpty ? QStringLiteral("expected a string")
                                                 : QStringLiteral("expected a non-empty string"),
                  v);
            return;
        }
        *out = v.toString();
    }

    template<typename E>
    void choice(const char *key, E *out)
    {
        if (t_catalogue) {
            const QStringList all = enumChoices<E>().split(QLatin1Char('|'));
            note(key, QStringLiteral("choice"), all.join(QStringLiteral(", ")), all);
        }
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isString() || !enumFromName(v.toString(), out))
            error(QLatin1String(key), QStringLiteral("expected one of %1").arg(enumChoices<E>()), v);
    }

    // The sub-object at key (empty when absent or of the wrong type).
    QJsonObject object(const char *key)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return QJsonObject();
        if (!v.isObject()) {
            error(QLatin1String(key), QStringLiteral("expected an object"), v);
            return QJsonObject();
        }
        return v.toObject();
    }

    bool array(const char *key, QJsonArray *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return false;
        if (!v.isArray()) {
            error(QLatin1String(key), QStringLiteral("expected an array"), v);
            return false;
        }
        *out = v.toArray();
        return true;
    }

    QStringList *errors() const { return m_errors; }

private:
    QStringList *m_errors;
    QJsonObject m_object;
    QString m_path;
    QStringList m_known;
};

QJsonObject backoffToJson(const BackoffConfig &b)
{
    return QJsonObject{
        {QStringLiteral("kind"), enumName(b.kind)},
        {QStringLiteral("initialMs"), b.initialMs},
        {QStringLiteral("multiplier"), b.multiplier},
        {QStringLiteral("maxMs"), b.maxMs},
        {QStringLiteral("jitter"), enumName(b.jitter)},
    };
}

QJsonObject layerToJson(const LayerConfig &l)
{
    return QJsonObject{
        {QStringLiteral("enabled"), l.enabled},
        {QStringLiteral("maxAttempts"), l.maxAttempts},
        {QStringLiteral("backoff"), backoffToJson(l.backoff)},
        {QStringLiteral("deadlineMs"), l.deadlineMs},
    };
}

QJsonObject distributionToJson(const Distribution &d)
{
    return QJsonObject{{QStringLiteral("base"), d.base}, {QStringLiteral("jitter"), d.jitter}};
}

void readDistribution(ObjectReader &parent, const char *key, Distribution *d)
{
    ObjectReader r(parent.errors(), parent.object(key), parent.pathOf(QLatin1String(key)));
    r.integer("base", 0, MaxMs, &d->base);
    r.integer("jitter", 0, MaxMs, &d->jitter);
}

void readLayer(ObjectReader &parent, const char *key, LayerConfig *l)
{
    ObjectReader r(parent.errors(), parent.object(key), parent.pathOf(QLatin1String(key)));
    r.boolean("enabled", &l->enabled);
    r.integer("maxAttempts", 1, 100, &l->maxAttempts);
    r.integer("deadlineMs", 0, MaxMs, &l->deadlineMs);
    ObjectReader b(r.errors(), r.object("backoff"), r.pathOf(QStringLiteral("backoff")));
    b.choice("kind", &l->backoff.kind);
    b.integer("initialMs", 0, MaxMs, &l->backoff.initialMs);
    b.number("multiplier", 0, 100, &l->backoff.multiplier);
    b.integer("maxMs", 0, MaxMs, &l->backoff.maxMs);
    b.choice("jitter", &l->backoff.jitter);
}

void readTransport(ObjectReader &parent, TransportConfig *t)
{
    ObjectReader r(parent.errors(), parent.object("transport"), parent.pathOf(QStringLiteral("transport")));
    r.boolean("enabled", &t->enabled);
    r.integer("total", 0, 20, &t->total);
    r.number("backoffFactor", 0, 3600, &t->backoffFactor);
    r.number("backoffMaxS", 0, 86400, &t->backoffMaxS);
    r.boolean("respectRetryAfter", &t->respectRetryAfter);

    r.note("statusForcelist", QStringLiteral("list"), QStringLiteral("HTTP statuses from 100 to 599"));
    QJsonArray statuses;
    if (r.array("statusForcelist", &statuses)) {
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
            t->statusForcelist = list;
    }

    if (t_catalogue) {
        QStringList all;
        for (const char *m : HttpMethods)
            all << QLatin1String(m);
        r.note("allowedMethods", QStringLiteral("list"), QStringLiteral("any of ") + all.join(QStringLiteral(", ")), all);
    }
    QJsonArray methods;
    if (r.array("allowedMethods", &methods)) {
        QStringList valid;
        for (const char *m : HttpMethods)
            valid << QLatin1String(m);
        QStringList list;
        bool ok = true;
        for (int i = 0; i < methods.size(); ++i) {
            const QJsonValue v = methods.at(i);
            const QString m = v.toString().toUpper();
            if (!v.isString() || !valid.contains(m)) {
                r.error(QStringLiteral("allowedMethods[%1]").arg(i),
                        QStringLiteral("expected one of %1").arg(valid.join(QLatin1Char('|'))), v);
                ok = false;
                continue;
            }
            if (!list.contains(m))
                list.append(m);
        }
        if (ok)
            t->allowedMethods = list;
    }
}

bool validAttemptPattern(const QString &attempt)
{
    static const QRegularExpression re(QStringLiteral(
        "^(?:\\*|b[1-9][0-9]{0,3})/(?:\\*|w[1-9][0-9]{0,3})/(?:\\*|t[1-9][0-9]{0,3})$"));
    return re.match(attempt).hasMatch();
}

void readScript(ObjectReader &parent, QList<ScriptEntry> *script)
{
    parent.note("script", QStringLiteral("list"), QStringLiteral("fault entries {op, attempt, fault}"));
    QJsonArray entries;
    if (!parent.array("script", &entries))
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
        r.noteRange("op", QStringLiteral("integer"), QStringLiteral("1 to 1000000, or \"*\" for every operation"),
                    true, 1, 1000000);
        r.note("attempt", QStringLiteral("string"), QStringLiteral("an attempt path bN/wN/tN, * for any in a segment"));
        const QJsonValue op = r.take("op");
        if (!op.isUndefined()) {
            const double d = op.toDouble();
            if (op.isString() && op.toString() == QLatin1String("*"))
                e.op = 0;
            else if (op.isDouble() && std::floor(d) == d && d >= 1 && d <= 1000000)
                e.op = int(d);
            else
                r.error(QStringLiteral("op"), QStringLiteral("expected an operation number from 1 to 1000000 or \"*\""), op);
        }
        const QJsonValue attempt = r.take("attempt");
        if (!attempt.isUndefined()) {
            if (attempt.isString() && validAttemptPattern(attempt.toString()))
                e.attempt = attempt.toString();
            else
                r.error(QStringLiteral("attempt"),
                        QStringLiteral("expected an attempt path \"bN/wN/tN\" (N >= 1, or * per segment)"), attempt);
        }
        r.choice("fault", &e.fault);
        list.append(e);
    }
    *script = list;
}

QJsonValue seedToJson(quint64 seed)
{
    // Beyond 2^53 a JSON number loses digits, so such seeds travel as strings.
    if (seed <= quint64(MaxExactInteger))
        return QJsonValue(qint64(seed));
    return QJsonValue(QString::number(seed));
}

void readSeed(ObjectReader &r, quint64 *seed)
{
    r.noteRange("seed", QStringLiteral("integer"),
                QStringLiteral("0 to 2^53, or a decimal string up to 2^64 - 1"), true, 0, MaxExactInteger);
    const QJsonValue v = r.take("seed");
    if (v.isUndefined())
        return;
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::floor(d) == d && d >= 0 && d <= MaxExactInteger) {
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

// One step of a dotted path: a key or an array index.
struct PathStep
{
    QString key;
    int index = -1; // >= 0 for "[n]"
};

bool parsePath(const QString &path, QList<PathStep> *steps)
{
    static const QRegularExpression segment(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)((?:\\[[0-9]+\\])*)$"));
    static const QRegularExpression index(QStringLiteral("\\[([0-9]+)\\]"));
    if (path.isEmpty())
        return false;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        const QRegularExpressionMatch m = segment.match(part);
        if (!m.hasMatch())
            return false;
        steps->append(PathStep{m.captured(1), -1});
        auto it = index.globalMatch(m.captured(2));
        while (it.hasNext()) {
            bool ok = false;
            const int n = it.next().captured(1).toInt(&ok);
            if (!ok)
                return false;
            steps->append(PathStep{QString(), n});
        }
    }
    return true;
}

QString stepsToPath(const QList<PathStep> &steps, int count)
{
    QString out;
    for (int i = 0; i < count && i < steps.size(); ++i) {
        if (steps.at(i).index >= 0)
            out += QStringLiteral("[%1]").arg(steps.at(i).index);
        else
            out = joinPath(out, steps.at(i).key);
    }
    return out;
}

// Objects merge key by key so "client.business={\"maxAttempts\":5}" keeps the rest.
QJsonValue merged(const QJsonValue &current, const QJsonValue &value)
{
    if (!current.isObject() || !value.isObject())
        return value;
    QJsonObject out = current.toObject();
    const QJsonObject add = value.toObject();
    for (auto it = add.constBegin(); it != add.constEnd(); ++it)
        out.insert(it.key(), merged(out.value(it.key()), it.value()));
    return out;
}

// Replaces the value at steps[i..] inside node; false + *error when the path does not exist.
bool setAt(QJsonValue *node, const QList<PathStep> &steps, int i, const QJsonValue &value, QString *error)
{
    if (i == steps.size()) {
        *node = merged(*node, value);
        return true;
    }
    const PathStep &step = steps.at(i);
    if (step.index >= 0) {
        if (!node->isArray()) {
            *error = QStringLiteral("%1: not an array").arg(stepsToPath(steps, i));
            return false;
        }
        QJsonArray array = node->toArray();
        if (step.index > array.size()) {
            *error = QStringLiteral("%1: index out of range (the array has %2 elements; use %2 to append)")
                         .arg(stepsToPath(steps, i + 1))
                         .arg(array.size());
            return false;
        }
        // Appending one element: an object if the path goes deeper, so defaults fill the rest.
        QJsonValue child;
        if (step.index < array.size()) {
            child = array.at(step.index);
        } else if (i + 1 < steps.size() && steps.at(i + 1).index < 0) {
            // A fresh element (a script entry): the key is checked later by fromJson.
            child = QJsonObject{{steps.at(i + 1).key, QJsonValue()}};
        }
        if (!setAt(&child, steps, i + 1, value, error))
            return false;
        if (step.index < array.size())
            array.replace(step.index, child);
        else
            array.append(child);
        *node = array;
        return true;
    }
    if (!node->isObject()) {
        *error = QStringLiteral("%1: unknown key").arg(stepsToPath(steps, i + 1));
        return false;
    }
    QJsonObject object = node->toObject();
    if (!object.contains(step.key)) {
        *error = unknownKeyMessage(stepsToPath(steps, i + 1), step.key, object.keys());
        return false;
    }
    QJsonValue child = object.value(step.key);
    if (!setAt(&child, steps, i + 1, value, error))
        return false;
    object.insert(step.key, child);
    *node = object;
    return true;
}

} // namespace

bool Scenario::operator==(const Scenario &o) const
{
    // Field by field: serialising both sides cost gigabytes on big scripts.
    return schema == o.schema && name == o.name && title == o.title && description == o.description
        && seed == o.seed && scenario::sameSettings(*this, o);
}

int Scenario::worstCaseAttemptsPerOp() const
{
    const int b = client.business.enabled ? client.business.maxAttempts : 1;
    const int w = client.wrapper.enabled ? client.wrapper.maxAttempts : 1;
    const int t = client.transport.enabled ? client.transport.total + 1 : 1;
    return b * w * t;
}

QString Scenario::worstCaseFormula() const
{
    QStringList factors;
    if (client.business.enabled)
        factors << QString::number(client.business.maxAttempts);
    if (client.wrapper.enabled)
        factors << QString::number(client.wrapper.maxAttempts);
    if (client.transport.enabled)
        factors << QString::number(client.transport.total + 1);
    if (factors.isEmpty())
        factors << QStringLiteral("1");
    return factors.join(QStringLiteral(" x ")) + QStringLiteral(" = ") + QString::number(worstCaseAttemptsPerOp());
}

QJsonObject Scenario::toJson() const
{
    const QJsonObject workloadJson{
        {QStringLiteral("orders"), workload.orders},
        {QStringLiteral("interArrivalMs"), workload.interArrivalMs},
        {QStringLiteral("clients"), workload.clients},
        {QStringLiteral("doubleSubmitRate"), workload.doubleSubmitRate},
        {QStringLiteral("doubleSubmitDelayMs"), workload.doubleSubmitDelayMs},
    };

    const TransportConfig &t = client.transport;
    QJsonArray forcelist;
    for (int status : t.statusForcelist)
        forcelist.append(status);
    const QJsonObject transportJson{
        {QStringLiteral("enabled"), t.enabled},
        {QStringLiteral("total"), t.total},
        {QStringLiteral("backoffFactor"), t.backoffFactor},
        {QStringLiteral("backoffMaxS"), t.backoffMaxS},
        {QStringLiteral("statusForcelist"), forcelist},
        {QStringLiteral("allowedMethods"), QJsonArray::fromStringList(t.allowedMethods)},
        {QStringLiteral("respectRetryAfter"), t.respectRetryAfter},
    };
    const QJsonObject clientJson{
        {QStringLiteral("keyPlacement"), enumName(client.keyPlacement)},
        {QStringLiteral("requestId"), client.requestId},
        {QStringLiteral("queryBeforeRetry"), client.queryBeforeRetry},
        {QStringLiteral("mutatePayloadOnRetry"), client.mutatePayloadOnRetry},
        {QStringLiteral("businessRespectRetryAfter"), client.businessRespectRetryAfter},
        {QStringLiteral("wrapperRetryOn"), enumName(client.wrapperRetryOn)},
        {QStringLiteral("business"), layerToJson(client.business)},
        {QStringLiteral("wrapper"), layerToJson(client.wrapper)},
        {QStringLiteral("transport"), transportJson},
        {QStringLiteral("timeoutMs"), client.timeoutMs},
        {QStringLiteral("connectFailMs"), client.connectFailMs},
        {QStringLiteral("retryBudget"),
         QJsonObject{{QStringLiteral("enabled"), client.retryBudget.enabled},
                     {QStringLiteral("ratio"), client.retryBudget.ratio},
                     {QStringLiteral("maxTokens"), client.retryBudget.maxTokens}}},
        {QStringLiteral("circuitBreaker"),
         QJsonObject{{QStringLiteral("enabled"), client.circuitBreaker.enabled},
                     {QStringLiteral("failureThreshold"), client.circuitBreaker.failureThreshold},
                     {QStringLiteral("openMs"), client.circuitBreaker.openMs}}},
    };

    QJsonArray script;
    for (const ScriptEntry &e : network.script) {
        script.append(QJsonObject{
            {QStringLiteral("op"), e.op == 0 ? QJsonValue(QStringLiteral("*")) : QJsonValue(e.op)},
            {QStringLiteral("attempt"), e.attempt},
            {QStringLiteral("fault"), enumName(e.fault)},
        });
    }
    const QJsonObject networkJson{
        {QStringLiteral("latencyMs"), distributionToJson(network.latencyMs)},
        {QStringLiteral("connectFailure"), network.connectFailure},
        {QStringLiteral("requestLoss"), network.requestLoss},
        {QStringLiteral("responseLoss"), network.responseLoss},
        {QStringLiteral("resetAfterCommit"), network.resetAfterCommit},
        {QStringLiteral("latencySpike"), network.latencySpike},
        {QStringLiteral("spikeMs"), network.spikeMs},
        {QStringLiteral("script"), script},
    };

    const IdempotencyConfig &idem = server.idempotency;
    const QJsonObject serverJson{
        {QStringLiteral("processingMs"), distributionToJson(server.processingMs)},
        {QStringLiteral("capacity"), server.capacity},
        {QStringLiteral("queue"), server.queue},
        {QStringLiteral("errorStatus"), server.errorStatus},
        {QStringLiteral("error5xxBeforeCommit"), server.error5xxBeforeCommit},
        {QStringLiteral("error5xxAfterCommit"), server.error5xxAfterCommit},
        {QStringLiteral("throttle429"), server.throttle429},
        {QStringLiteral("retryAfterS"), server.retryAfterS},
        {QStringLiteral("idempotency"),
         QJsonObject{{QStringLiteral("mode"), enumName(idem.mode)},
                     {QStringLiteral("requireKey"), idem.requireKey},
                     {QStringLiteral("ttlS"), idem.ttlS},
                     {QStringLiteral("fingerprint"), idem.fingerprint},
                     {QStringLiteral("storeErrors"), idem.storeErrors}}},
    };

    const QJsonObject reconciliationJson{
        {QStringLiteral("enabled"), reconciliation.enabled},
        {QStringLiteral("intervalS"), reconciliation.intervalS},
        {QStringLiteral("action"), enumName(reconciliation.action)},
    };

    return QJsonObject{
        {QStringLiteral("schema"), schema},
        {QStringLiteral("name"), name},
        {QStringLiteral("title"), title},
        {QStringLiteral("description"), description},
        {QStringLiteral("seed"), seedToJson(seed)},
        {QStringLiteral("workload"), workloadJson},
        {QStringLiteral("client"), clientJson},
        {QStringLiteral("network"), networkJson},
        {QStringLiteral("server"), serverJson},
        {QStringLiteral("reconciliation"), reconciliationJson},
    };
}

namespace scenario {

ScenarioParse fromJson(const QJsonObject &object)
{
    ScenarioParse result;
    Scenario &s = result.scenario;
    QStringList *errors = &result.errors;
    {
        ObjectReader root(errors, object, QString());
        root.noteRange("schema", QStringLiteral("integer"), QStringLiteral("1"), true, 1, 1);
        const QJsonValue schema = root.take("schema");
        if (!schema.isUndefined() && !(schema.isDouble() && schema.toDouble() == 1.0))
            root.error(QStringLiteral("schema"), QStringLiteral("expected 1 (the only schema version this build reads)"),
                       schema);
        root.string("name", &s.name, false);
        root.string("title", &s.title);
        root.string("description", &s.description);
        readSeed(root, &s.seed);

        {
            ObjectReader r(errors, root.object("workload"), QStringLiteral("workload"));
            WorkloadConfig &w = s.workload;
            r.integer("orders", 1, 1000000, &w.orders);
            r.integer("interArrivalMs", 0, MaxMs, &w.interArrivalMs);
            r.integer("clients", 1, 10000, &w.clients);
            r.number("doubleSubmitRate", 0, 1, &w.doubleSubmitRate);
            r.integer("doubleSubmitDelayMs", 0, MaxMs, &w.doubleSubmitDelayMs);
        }
        {
            ObjectReader r(errors, root.object("client"), QStringLiteral("client"));
            ClientConfig &c = s.client;
            r.choice("keyPlacement", &c.keyPlacement);
            r.boolean("requestId", &c.requestId);
            r.boolean("queryBeforeRetry", &c.queryBeforeRetry);
            r.boolean("mutatePayloadOnRetry", &c.mutatePayloadOnRetry);
            r.boolean("businessRespectRetryAfter", &c.businessRespectRetryAfter);
            r.choice("wrapperRetryOn", &c.wrapperRetryOn);
            readLayer(r, "business", &c.business);
            readLayer(r, "wrapper", &c.wrapper);
            readTransport(r, &c.transport);
            r.integer("timeoutMs", 1, MaxMs, &c.timeoutMs);
            r.integer("connectFailMs", 0, MaxMs, &c.connectFailMs);
            {
                ObjectReader b(errors, r.object("retryBudget"), QStringLiteral("client.retryBudget"));
                b.boolean("enabled", &c.retryBudget.enabled);
                b.number("ratio", 0, 100, &c.retryBudget.ratio);
                b.number("maxTokens", 0, 1000000, &c.retryBudget.maxTokens);
            }
            {
                ObjectReader b(errors, r.object("circuitBreaker"), QStringLiteral("client.circuitBreaker"));
                b.boolean("enabled", &c.circuitBreaker.enabled);
                b.integer("failureThreshold", 1, 1000, &c.circuitBreaker.failureThreshold);
                b.integer("openMs", 1, MaxMs, &c.circuitBreaker.openMs);
            }
        }
        {
            ObjectReader r(errors, root.object("network"), QStringLiteral("network"));
            NetworkConfig &n = s.network;
            readDistribution(r, "latencyMs", &n.latencyMs);
            r.number("connectFailure", 0, 1, &n.connectFailure);
            r.number("requestLoss", 0, 1, &n.requestLoss);
            r.number("responseLoss", 0, 1, &n.responseLoss);
            r.number("resetAfterCommit", 0, 1, &n.resetAfterCommit);
            r.number("latencySpike", 0, 1, &n.latencySpike);
            r.integer("spikeMs", 0, MaxMs, &n.spikeMs);
            readScript(r, &n.script);
        }
        {
            ObjectReader r(errors, root.object("server"), QStringLiteral("server"));
            ServerConfig &v = s.server;
            readDistribution(r, "processingMs", &v.processingMs);
            r.integer("capacity", 0, 100000, &v.capacity);
            r.integer("queue", 0, 1000000, &v.queue);
            r.integer("errorStatus", 500, 599, &v.errorStatus);
            r.number("error5xxBeforeCommit", 0, 1, &v.error5xxBeforeCommit);
            r.number("error5xxAfterCommit", 0, 1, &v.error5xxAfterCommit);
            r.number("throttle429", 0, 1, &v.throttle429);
            r.integer("retryAfterS", 0, 86400, &v.retryAfterS);
            ObjectReader i(errors, r.object("idempotency"), QStringLiteral("server.idempotency"));
            i.choice("mode", &v.idempotency.mode);
            i.boolean("requireKey", &v.idempotency.requireKey);
            i.integer("ttlS", 0, 31536000, &v.idempotency.ttlS);
            i.boolean("fingerprint", &v.idempotency.fingerprint);
            i.boolean("storeErrors", &v.idempotency.storeErrors);
        }
        {
            ObjectReader r(errors, root.object("reconciliation"), QStringLiteral("reconciliation"));
            r.boolean("enabled", &s.reconciliation.enabled);
            r.integer("intervalS", 1, 86400, &s.reconciliation.intervalS);
            r.choice("action", &s.reconciliation.action);
        }
    } // readers report unknown keys when they go out of scope
    return result;
}

ScenarioParse fromJsonBytes(const QByteArray &bytes, const QString &source)
{
    const QString prefix = source.isEmpty() ? QString() : source + QStringLiteral(": ");
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        ScenarioParse result;
        result.errors << prefix
                + QStringLiteral("malformed JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return result;
    }
    if (!doc.isObject()) {
        ScenarioParse result;
        result.errors << prefix + QStringLiteral("expected a JSON object at the top level");
        return result;
    }
    return fromJson(doc.object());
}

ScenarioParse load(const QString &fileName)
{
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly)) {
        ScenarioParse result;
        result.errors << QStringLiteral("cannot read scenario file \"%1\": %2").arg(fileName, file.errorString());
        return result;
    }
    return fromJsonBytes(file.readAll(), fileName);
}

QString save(const Scenario &s, const QString &fileName)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write scenario file \"%1\": %2").arg(fileName, file.errorString());
    const QByteArray bytes = QJsonDocument(s.toJson()).toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return QStringLiteral("cannot write scenario file \"%1\": %2").arg(fileName, error);
    }
    if (!file.commit())
        return QStringLiteral("cannot write scenario file \"%1\": %2").arg(fileName, file.errorString());
    return QString();
}

ScenarioParse withValue(const Scenario &s, const QString &path, const QJsonValue &value)
{
    ScenarioParse result;
    result.scenario = s;
    QList<PathStep> steps;
    if (!parsePath(path.trimmed(), &steps)) {
        result.errors << QStringLiteral("\"%1\": not a valid path (expected names separated by dots, "
                                        "e.g. client.transport.total or network.script[0].fault)")
                             .arg(path);
        return result;
    }
    QJsonValue root = s.toJson();
    QString error;
    if (!setAt(&root, steps, 0, value, &error)) {
        result.errors << error;
        return result;
    }
    ScenarioParse parsed = fromJson(root.toObject());
    if (!parsed.ok()) {
        result.errors = parsed.errors;
        return result;
    }
    return parsed;
}

ScenarioParse withSet(const Scenario &s, const QString &assignment)
{
    const int eq = assignment.indexOf(QLatin1Char('='));
    if (eq < 0) {
        ScenarioParse result;
        result.scenario = s;
        result.errors << QStringLiteral("\"%1\": expected path=value, e.g. client.transport.total=5").arg(assignment);
        return result;
    }
    const QString path = assignment.left(eq).trimmed();
    const QString text = assignment.mid(eq + 1);

    // Wrapping in [] lets a bare number, bool, string literal or object parse as one JSON value.
    QJsonValue value(text);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"), &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isArray() && doc.array().size() == 1)
        value = doc.array().at(0);
    return withValue(s, path, value);
}

QJsonValue valueAt(const Scenario &s, const QString &path)
{
    QList<PathStep> steps;
    if (!parsePath(path.trimmed(), &steps))
        return QJsonValue(QJsonValue::Undefined);
    QJsonValue node = s.toJson();
    for (const PathStep &step : steps) {
        if (step.index >= 0) {
            if (!node.isArray() || step.index >= node.toArray().size())
                return QJsonValue(QJsonValue::Undefined);
            node = node.toArray().at(step.index);
        } else {
            if (!node.isObject() || !node.toObject().contains(step.key))
                return QJsonValue(QJsonValue::Undefined);
            node = node.toObject().value(step.key);
        }
    }
    return node;
}

QStringList presetNames()
{
    const QDir dir(QStringLiteral(":/scenarios"));
    QStringList names;
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files))
        names << info.completeBaseName();
    auto rank = [](const QString &name) {
        for (int i = 0; i < int(std::size(PresetOrder)); ++i) {
            if (name == QLatin1String(PresetOrder[i]))
                return i;
        }
        return int(std::size(PresetOrder));
    };
    std::sort(names.begin(), names.end(), [&](const QString &a, const QString &b) {
        const int ra = rank(a), rb = rank(b);
        return ra != rb ? ra < rb : a < b;
    });
    return names;
}

ScenarioParse preset(const QString &name)
{
    const QString fileName = QStringLiteral(":/scenarios/%1.json").arg(name);
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || !QFile::exists(fileName)) {
        ScenarioParse result;
        result.errors << QStringLiteral("unknown preset \"%1\"; available presets: %2")
                             .arg(name, presetNames().join(QStringLiteral(", ")));
        return result;
    }
    return load(fileName);
}

ScenarioParse resolve(const QString &nameOrFile)
{
    const QFileInfo info(nameOrFile);
    if (info.exists() && info.isFile())
        return load(nameOrFile);
    if (presetNames().contains(nameOrFile))
        return preset(nameOrFile);
    ScenarioParse result;
    result.errors << QStringLiteral("\"%1\" is neither a scenario file nor a preset; available presets: %2")
                         .arg(nameOrFile, presetNames().join(QStringLiteral(", ")));
    return result;
}

QString toString(BackoffKind v) { return enumName(v); }
QString toString(Jitter v) { return enumName(v); }
QString toString(KeyPlacement v) { return enumName(v); }
QString toString(IdempotencyMode v) { return enumName(v); }
QString toString(WrapperRetryOn v) { return enumName(v); }
QString toString(ReconcileAction v) { return enumName(v); }
QString toString(FaultKind v) { return enumName(v); }

} // namespace scenario

// ---- settings comparison and field catalogue -------------------------------

namespace {

QString lastSegment(const QString &path)
{
    return path.mid(path.lastIndexOf(QLatin1Char('.')) + 1);
}

} // namespace

namespace scenario {

bool sameSettings(const Scenario &a, const Scenario &b)
{
    // Every field but the seed (a new seed tells the same lesson), compared value by value.
    bool same = true;
    auto visitor = [&same](const char *path, const auto &x, const auto &y) {
        if (same && qstrcmp(path, "seed") != 0)
            same = x == y;
    };
    visitSettings(a, b, visitor);
    return same;
}QList<FieldInfo> fields()
{
    static const QList<FieldInfo> catalogue = [] {
        // One script entry, so the reader also visits the keys of an entry.
        QJsonObject json = Scenario().toJson();
        QJsonObject network = json.value(QLatin1String("network")).toObject();
        const ScriptEntry entry;
        network.insert(QStringLiteral("script"),
                       QJsonArray{QJsonObject{{QStringLiteral("op"), QStringLiteral("*")},
                                              {QStringLiteral("attempt"), entry.attempt},
                                              {QStringLiteral("fault"), enumName(entry.fault)}}});
        json.insert(QStringLiteral("network"), network);

        QList<FieldInfo> list;
        t_catalogue = &list;
        fromJson(json);
        t_catalogue = nullptr;
        const QString entryPrefix = QStringLiteral("network.script[0].");
        for (FieldInfo &info : list) {
            if (info.path.startsWith(entryPrefix))
                info.path = QStringLiteral("network.script[N].") + info.path.mid(entryPrefix.size());
            else if (info.path == QLatin1String("network.script"))
                info.defaultValue = QJsonArray();
        }
        return list;
    }();
    return catalogue;
}

QStringList closestFields(const QString &path, int max)
{
    static const QRegularExpression index(QStringLiteral("\\[[0-9]+\\]"));
    QString wanted = path.trimmed();
    wanted.replace(index, QStringLiteral("[N]"));
    const bool bare = !wanted.contains(QLatin1Char('.'));
    // A typo costs about one edit in five characters; a bare key is matched against each path's last key.
    const int limit = std::max(2, int(wanted.size()) / 5);
    QList<QPair<int, QString>> scored;
    const QList<FieldInfo> all = fields();
    for (const FieldInfo &info : all) {
        int d = editDistance(wanted, info.path);
        if (bare)
            d = std::min(d, editDistance(wanted, lastSegment(info.path)));
        if (d <= limit && info.path != wanted)
            scored.append({d, info.path});
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const QPair<int, QString> &a, const QPair<int, QString> &b) { return a.first < b.first; });
    QStringList result;
    for (const auto &entry : std::as_const(scored)) {
        if (result.size() >= max)
            break;
        result << entry.second;
    }
    return result;
}

} // namespace scenario

} // namespace retrylab
