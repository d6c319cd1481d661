#include "scenario.h"
#include "scenariovisit.h"

#include <limits>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace retrylab {

namespace {

// Largest integer a JSON number (an IEEE double) carries exactly.
constexpr double MaxExactInteger = 9007199254740992.0; // 2^53

constexpr int MaxMs = 3600000; // one hour of virtual time
constexpr int MaxOperations = 1000000; // workload.orders, and clients x opsPerClient in closed mode

const char *const PresetOrder[] = {
    "ghost-request", "layered-fix",        "stable-key",   "rotating-key",
    "payload-mismatch", "concurrent-race", "key-expiry",   "query-before-retry",
    "server-token",  "server-token-query", "key-store-restart", "reconciliation",
    "retry-storm",   "correlation-ids",    "jitter-contention", "metastable",
};

const char *const HttpMethods[] = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "POST", "PATCH"};

// Enum <-> name tables; the index is the enum value.
template<typename E>
struct EnumNames;

template<>
struct EnumNames<BackoffKind>
{
    static constexpr const char *names[] = {"constant", "linear", "exponential", "awsExponential"};
};
template<>
struct EnumNames<Jitter>
{
    static constexpr const char *names[] = {"none", "full", "equal", "decorrelated", "proportional"};
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
struct EnumNames<TokenReuse>
{
    static constexpr const char *names[] = {"reject", "replay"};
};
template<>
struct EnumNames<KeyStore>
{
    static constexpr const char *names[] = {"durable", "memory"};
};
template<>
struct EnumNames<UnknownQuery>
{
    static constexpr const char *names[] = {"fail", "resend"};
};
template<>
struct EnumNames<FaultKind>
{
    static constexpr const char *names[] = {"connectFailure",        "requestLost",          "responseLost",
                                            "resetAfterCommit",      "latencySpike",         "server5xxBeforeCommit",
                                            "server5xxAfterCommit",  "throttle429",          "serverRestart"};
};
template<>
struct EnumNames<ScriptMethod>
{
    static constexpr const char *names[] = {"POST", "GET"};
};
template<>
struct EnumNames<DistributionShape>
{
    static constexpr const char *names[] = {"uniform", "normal"};
};
template<>
struct EnumNames<BudgetScope>
{
    static constexpr const char *names[] = {"perClient", "global"};
};
template<>
struct EnumNames<BreakerMode>
{
    static constexpr const char *names[] = {"consecutive", "failureRate"};
};
template<>
struct EnumNames<ServerModel>
{
    static constexpr const char *names[] = {"orders", "occ"};
};
template<>
struct EnumNames<WorkloadMode>
{
    static constexpr const char *names[] = {"open", "closed"};
};
template<>
struct EnumNames<Arrivals>
{
    static constexpr const char *names[] = {"fixed", "poisson"};
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

// Characters that must not reach a terminal raw: C0 and C1 controls, DEL, and the invisible
// marks that reorder or hide text (bidi overrides and isolates, zero-width marks, BOM).
bool unsafeChar(char16_t u)
{
    return u < 0x20 || (u >= 0x7f && u <= 0x9f) || (u >= 0x200b && u <= 0x200f) || (u >= 0x202a && u <= 0x202e)
        || (u >= 0x2060 && u <= 0x2069) || u == 0xfeff;
}

QString escapedChar(char16_t u)
{
    return QStringLiteral("\\u%1").arg(uint(u), 4, 16, QLatin1Char('0'));
}

// Text from a file, made safe to echo: control characters escaped (ESC becomes \u001b),
// cut after MaxEchoChars characters with an ellipsis. quotes: also escape " and \ for a quoted echo.
QString printable(const QString &text, bool quotes = false)
{
    QString out;
    int shown = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (shown == scenario::MaxEchoChars) {
            out += QChar(0x2026);
            break;
        }
        ++shown;
        const QChar c = text.at(i);
        const char16_t u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            out += c;
            out += text.at(++i);
        } else if (unsafeChar(u) || c.isSurrogate()) {
            out += escapedChar(u);
        } else if (quotes && (u == '"' || u == '\\')) {
            out += QLatin1Char('\\');
            out += c;
        } else {
            out += c;
        }
    }
    return out;
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + printable(text, true) + QLatin1Char('"');
}

bool plainKey(const QString &key)
{
    if (key.isEmpty() || key.at(0).isDigit())
        return false;
    for (const QChar c : key) {
        const char16_t u = c.unicode();
        if (!((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'))
            return false;
    }
    return true;
}

// A key as it appears in an error path: plain names as they are, anything else quoted and escaped,
// so " workload" cannot read like "workload" and an empty key is visible.
QString displayKey(const QString &key)
{
    if (key.isEmpty())
        return QStringLiteral("\"\" (an empty key)");
    return plainKey(key) && key.size() <= scenario::MaxEchoChars ? key : quoted(key);
}

void describeInto(const QJsonValue &v, QString *out);

// Compact rendering of an offending value for error messages, never much longer than MaxEchoChars.
QString describe(const QJsonValue &v)
{
    QString out;
    describeInto(v, &out);
    if (out.size() > scenario::MaxEchoChars + 1 && !v.isString())
        out = out.left(scenario::MaxEchoChars) + QChar(0x2026);
    return out;
}

void describeInto(const QJsonValue &v, QString *out)
{
    // Stops early on big arrays and objects: the text is cut at MaxEchoChars anyway.
    const auto full = [out] { return out->size() > scenario::MaxEchoChars; };
    switch (v.type()) {
    case QJsonValue::Null:
        *out += QStringLiteral("null");
        return;
    case QJsonValue::Bool:
        *out += v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        return;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::floor(d) == d && std::fabs(d) < MaxExactInteger)
            *out += QString::number(qint64(d));
        else
            *out += QString::number(d, 'g', 17);
        return;
    }
    case QJsonValue::String:
        *out += quoted(v.toString());
        return;
    case QJsonValue::Array: {
        const QJsonArray array = v.toArray();
        *out += QLatin1Char('[');
        for (qsizetype i = 0; i < array.size() && !full(); ++i) {
            if (i > 0)
                *out += QLatin1Char(',');
            describeInto(array.at(i), out);
        }
        *out += QLatin1Char(']');
        return;
    }
    case QJsonValue::Object: {
        const QJsonObject object = v.toObject();
        *out += QLatin1Char('{');
        bool first = true;
        for (auto it = object.constBegin(); it != object.constEnd() && !full(); ++it) {
            if (!first)
                *out += QLatin1Char(',');
            first = false;
            *out += quoted(it.key()) + QLatin1Char(':');
            describeInto(it.value(), out);
        }
        *out += QLatin1Char('}');
        return;
    }
    case QJsonValue::Undefined:
        break;
    }
    *out += QStringLiteral("nothing");
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

QString joinPath(const QString &prefix, const QString &key)
{
    return prefix.isEmpty() ? key : prefix + QLatin1Char('.') + key;
}

// "prefix.key: unknown key (did you mean ...)". Suggestions only for keys of sensible length and
// within two edits, so a megabyte key or a hundred thousand keys cost no spelling work.
QString unknownKeyMessage(const QString &prefix, const QString &key, const QStringList &known, bool suggest = true)
{
    QString best;
    if (suggest && key.size() <= scenario::MaxSuggestedKeyChars) {
        int bestDistance = 3; // suggest only close misspellings
        for (const QString &k : known) {
            if (std::abs(int(k.size()) - int(key.size())) >= bestDistance)
                continue;
            const int d = editDistance(key, k);
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
    }
    QString msg = joinPath(prefix, displayKey(key)) + QStringLiteral(": unknown key");
    if (!best.isEmpty())
        msg += QStringLiteral(" (did you mean \"%1\"?)").arg(best);
    return msg;
}

// At most MaxReportedErrors lines, then one "and N more errors" line.
void capErrors(QStringList *errors, qsizetype unlisted = 0)
{
    const qsizetype more = std::max<qsizetype>(0, errors->size() - scenario::MaxReportedErrors) + unlisted;
    if (more == 0)
        return;
    if (errors->size() > scenario::MaxReportedErrors)
        errors->erase(errors->begin() + scenario::MaxReportedErrors, errors->end());
    errors->append(more == 1 ? QCoreApplication::translate("scenario", "and 1 more error") : QCoreApplication::translate("scenario", "and %1 more errors").arg(more));
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
                m_errors->append(unknownKeyMessage(m_path, it.key(), m_known,
                                                   m_errors->size() < scenario::MaxReportedErrors));
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
        m_errors->append(QCoreApplication::translate("scenario", "%1: %2, got %3").arg(pathOf(key), rule, describe(got)));
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
        readInteger(key, lo, hi, out);
    }

    // An integer from lo to hi where lo is a special value with conditions of its own: the catalogue
    // states the plain range from lo + 1 and says what lo means.
    void integerWithSpecialLow(const char *key, int lo, int hi, const QString &lowMeaning, int *out)
    {
        noteRange(key, QStringLiteral("integer"), QStringLiteral("%1 to %2, or %3").arg(lo + 1).arg(hi).arg(lowMeaning),
                  true, lo + 1, hi);
        readInteger(key, lo, hi, out);
    }

    void readInteger(const char *key, int lo, int hi, int *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < lo || d > hi) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected an integer from %1 to %2").arg(lo).arg(hi), v);
            return;
        }
        *out = int(d);
    }

    // The value of a field that may be null (stored as -1, the catalogue's default null): undefined
    // when absent or null, both handled here.
    template<class T>
    QJsonValue takeNullable(const char *key, T *out)
    {
        if (t_catalogue && t_catalogue->constLast().defaultValue.isUndefined())
            t_catalogue->last().defaultValue = QJsonValue(QJsonValue::Null);
        const QJsonValue v = take(key);
        if (v.isNull()) {
            *out = T(-1);
            return QJsonValue(QJsonValue::Undefined);
        }
        return v;
    }

    // An integer, or null for "unlimited" (stored as -1), as urllib3's None.
    void nullableInteger(const char *key, int lo, int hi, int *out, bool nullHint = true)
    {
        noteRange(key, QStringLiteral("integer"),
                  QStringLiteral("%1 to %2%3").arg(lo).arg(hi).arg(nullHint ? QStringLiteral(", or null for unlimited") : QString()),
                  true, lo, hi);
        const QJsonValue v = takeNullable(key, out);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < lo || d > hi) {
            m_errors->append(QCoreApplication::translate("scenario", "%1: expected an integer from %2 to %3, got %4 (or null for unlimited)")
                                 .arg(pathOf(QLatin1String(key)))
                                 .arg(lo)
                                 .arg(hi)
                                 .arg(describe(v)));
            return;
        }
        *out = int(d);
    }

    void number(const char *key, double lo, double hi, double *out)
    {
        noteRange(key, QStringLiteral("number"), QStringLiteral("%1 to %2").arg(plainNumber(lo), plainNumber(hi)), true,
                  lo, hi);
        readNumber(key, lo, hi, out);
    }

    // A number, or null for `nullMeaning` (stored as -1), in the style of nullableInteger.
    void nullableNumber(const char *key, double lo, double hi, const QString &nullMeaning, double *out)
    {
        noteRange(key, QStringLiteral("number"),
                  QStringLiteral("%1 to %2, or null for %3").arg(plainNumber(lo), plainNumber(hi), nullMeaning), true,
                  lo, hi);
        const QJsonValue v = takeNullable(key, out);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            m_errors->append(QCoreApplication::translate("scenario", "%1: expected a number from %2 to %3, got %4 (or null for %5)")
                                 .arg(pathOf(QLatin1String(key)), plainNumber(lo), plainNumber(hi), describe(v),
                                      nullMeaning));
            return;
        }
        *out = d;
    }

    // The range check of number() without a catalogue entry (for fields whose bounds depend on
    // another field: the caller notes them with the words that say so).
    void readNumber(const char *key, double lo, double hi, double *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected a number from %1 to %2").arg(lo).arg(hi), v);
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
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected true or false"), v);
            return;
        }
        *out = v.toBool();
    }

    void string(const char *key, int maxChars, QString *out, bool allowEmpty = true)
    {
        note(key, QStringLiteral("string"),
             (allowEmpty ? QStringLiteral("any text") : QStringLiteral("non-empty text"))
                 + QStringLiteral(", at most %1 characters").arg(maxChars));
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isString() || (!allowEmpty && v.toString().isEmpty())) {
            error(QLatin1String(key), allowEmpty ? QCoreApplication::translate("scenario", "expected a string")
                                                 : QCoreApplication::translate("scenario", "expected a non-empty string"),
                  v);
            return;
        }
        const QString text = v.toString();
        if (text.size() > maxChars) {
            m_errors->append(QCoreApplication::translate("scenario", "%1: at most %2 characters, got %3")
                                 .arg(pathOf(QLatin1String(key)))
                                 .arg(maxChars)
                                 .arg(text.size()));
            return;
        }
        *out = text;
    }

    // "path: at most N entries, got M" when a list is longer than its cap.
    bool withinCap(const char *key, qsizetype size, int cap)
    {
        if (size <= cap)
            return true;
        m_errors->append(QCoreApplication::translate("scenario", "%1: at most %2 entries, got %3").arg(pathOf(QLatin1String(key))).arg(cap).arg(size));
        return false;
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
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected one of %1").arg(enumChoices<E>()), v);
    }

    // The sub-object at key (empty when absent or of the wrong type).
    QJsonObject object(const char *key)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return QJsonObject();
        if (!v.isObject()) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected an object"), v);
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
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected an array"), v);
            return false;
        }
        *out = v.toArray();
        return true;
    }

    QStringList *errors() const { return m_errors; }
    const QJsonObject &source() const { return m_object; }

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
        {QStringLiteral("minMs"), b.minMs},
        {QStringLiteral("jitterPercent"), b.jitterPercent},
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

// Saved files stay as they were for the uniform shape: distribution, mean and sd are written only
// when the shape is normal (or `complete`, for the catalogue, --set and valueAt, which name them all).
QJsonObject distributionToJson(const Distribution &d, bool complete)
{
    QJsonObject out{{QStringLiteral("base"), d.base}, {QStringLiteral("jitter"), d.jitter}};
    if (complete || d.shape == DistributionShape::Normal) {
        out.insert(QStringLiteral("distribution"), enumName(d.shape));
        out.insert(QStringLiteral("mean"), d.mean);
        out.insert(QStringLiteral("sd"), d.sd);
    }
    return out;
}

QJsonObject windowJson(const FaultWindow &w)
{
    return QJsonObject{{QStringLiteral("fromS"), w.fromS},
                       {QStringLiteral("toS"), w.toS},
                       {QStringLiteral("fault"), enumName(w.fault)},
                       {QStringLiteral("probability"), w.probability}};
}

QJsonObject phaseJson(const LoadPhase &p)
{
    return QJsonObject{{QStringLiteral("fromS"), p.fromS},
                       {QStringLiteral("toS"), p.toS},
                       {QStringLiteral("ratePerS"), p.ratePerS}};
}

constexpr double MaxDistributionMs = 600000; // mean and sd of a normal distribution: ten minutes

void readDistribution(ObjectReader &parent, const char *key, Distribution *d)
{
    ObjectReader r(parent.errors(), parent.object(key), parent.pathOf(QLatin1String(key)));
    r.choice("distribution", &d->shape);
    r.integer("base", 0, MaxMs, &d->base);
    r.integer("jitter", 0, MaxMs, &d->jitter);
    r.number("mean", 0, MaxDistributionMs, &d->mean);
    r.number("sd", 0, MaxDistributionMs, &d->sd);
}

// backoff.tenacity: tenacity's wait_exponential by its own names, in seconds. An input alias: when
// present it sets kind exponential, initialMs, multiplier, maxMs and minMs (names it omits keep
// those values), and files are written with those keys. wait = multiplier * expBase^(n-1),
// capped at max, at least min; jitter "full" is wait_random_exponential.
QJsonObject tenacityOf(const BackoffConfig &b)
{
    return QJsonObject{{QStringLiteral("multiplier"), b.initialMs / 1000.0},
                       {QStringLiteral("expBase"), b.multiplier},
                       {QStringLiteral("min"), b.minMs / 1000.0},
                       {QStringLiteral("max"), b.maxMs / 1000.0}};
}

void readTenacity(ObjectReader &backoff, BackoffConfig *b)
{
    const double maxS = MaxMs / 1000.0;
    if (!backoff.source().contains(QLatin1String("tenacity"))) {
        // Listed in the catalogue all the same, so that --set and `fields` know them.
        ObjectReader listed(backoff.errors(), tenacityOf(*b), backoff.pathOf(QStringLiteral("tenacity")));
        double ignored = 0;
        listed.number("multiplier", 0, maxS, &ignored);
        listed.number("expBase", 0, 100, &ignored);
        listed.number("min", 0, maxS, &ignored);
        listed.number("max", 0, maxS, &ignored);
        return;
    }
    const qsizetype before = backoff.errors()->size();
    ObjectReader t(backoff.errors(), backoff.object("tenacity"), backoff.pathOf(QStringLiteral("tenacity")));
    // Names left out keep the backoff's values, as any partial object does.
    double multiplier = b->initialMs / 1000.0, expBase = b->multiplier, minS = b->minMs / 1000.0,
           maxWaitS = b->maxMs / 1000.0;
    t.number("multiplier", 0, maxS, &multiplier);
    t.number("expBase", 0, 100, &expBase);
    t.number("min", 0, maxS, &minS);
    t.number("max", 0, maxS, &maxWaitS);
    if (backoff.errors()->size() != before)
        return;
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

void readLayer(ObjectReader &parent, const char *key, LayerConfig *l)
{
    ObjectReader r(parent.errors(), parent.object(key), parent.pathOf(QLatin1String(key)));
    r.boolean("enabled", &l->enabled);
    r.integerWithSpecialLow("maxAttempts", 0, 100,
                            QStringLiteral("0 for unlimited until %1").arg(r.pathOf(QStringLiteral("deadlineMs"))),
                            &l->maxAttempts);
    r.integer("deadlineMs", 0, MaxMs, &l->deadlineMs);
    {
        ObjectReader b(r.errors(), r.object("backoff"), r.pathOf(QStringLiteral("backoff")));
        b.choice("kind", &l->backoff.kind);
        b.integer("initialMs", 0, MaxMs, &l->backoff.initialMs);
        b.number("multiplier", 0, 100, &l->backoff.multiplier);
        b.integer("maxMs", 0, MaxMs, &l->backoff.maxMs);
        b.choice("jitter", &l->backoff.jitter);
        b.integer("minMs", 0, MaxMs, &l->backoff.minMs);
        b.integer("jitterPercent", 0, 100, &l->backoff.jitterPercent);
        readTenacity(b, &l->backoff);
    }
    // Unlimited attempts (tenacity stop_never) end only at the deadline. A backoff that may wait 0 ms
    // (no backoff, full jitter) is allowed since issue 11 (the AWS study retries until success that
    // way): effectiveMaxAttempts() bounds such a loop, and the engine guards against one that does
    // not move the clock.
    if (l->enabled && l->maxAttempts == 0 && l->deadlineMs <= 0)
        r.errors()->append(QStringLiteral("%1: 0 (unlimited) needs %2 above 0, the deadline that ends the retries")
                               .arg(r.pathOf(QStringLiteral("maxAttempts")), r.pathOf(QStringLiteral("deadlineMs"))));
}

void readTransport(ObjectReader &parent, TransportConfig *t)
{
    ObjectReader r(parent.errors(), parent.object("transport"), parent.pathOf(QStringLiteral("transport")));
    r.boolean("enabled", &t->enabled);
    r.nullableInteger("total", 0, 20, &t->total, false); // null allowed: see below
    r.nullableInteger("connect", 0, 20, &t->connect);
    r.nullableInteger("read", 0, 20, &t->read);
    r.nullableInteger("status", 0, 20, &t->status);
    r.nullableInteger("other", 0, 20, &t->other);
    r.number("backoffFactor", 0, 3600, &t->backoffFactor);
    r.number("backoffMaxS", 0, 86400, &t->backoffMaxS);
    r.number("backoffJitter", 0, 3600, &t->backoffJitterS);
    r.boolean("respectRetryAfter", &t->respectRetryAfter);
    r.integer("retryAfterMaxS", 0, 86400, &t->retryAfterMaxS);
    r.boolean("raiseOnStatus", &t->raiseOnStatus);
    // The simulation raises connect, read and status errors only ("other" never happens here), so
    // an unlimited total needs those three limited or a run of faults would retry forever.
    if (t->total == TransportConfig::Unlimited
        && (t->connect == TransportConfig::Unlimited || t->read == TransportConfig::Unlimited
            || t->status == TransportConfig::Unlimited))
        r.errors()->append(QStringLiteral("%1: null (unlimited) needs client.transport.connect, read and status "
                                          "limited, else a run of faults retries forever")
                               .arg(r.pathOf(QStringLiteral("total"))));

    r.note("statusForcelist", QStringLiteral("list"),
           QStringLiteral("HTTP statuses from 100 to 599, at most %1 entries").arg(scenario::MaxForcelistEntries));
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
            t->statusForcelist = list;
    }

    if (t_catalogue) {
        QStringList all;
        for (const char *m : HttpMethods)
            all << QLatin1String(m);
        r.note("allowedMethods", QStringLiteral("list"),
               QStringLiteral("any of %1 (null or [] retries every method, POST included), at most %2 entries")
                   .arg(all.join(QStringLiteral(", ")))
                   .arg(scenario::MaxMethodEntries),
               all);
    }
    QJsonArray methods;
    if (r.source().value(QLatin1String("allowedMethods")).isNull()) {
        r.take("allowedMethods"); // allowed_methods=None: every method
        t->allowedMethods.clear();
    } else if (r.array("allowedMethods", &methods)
        && r.withinCap("allowedMethods", methods.size(), scenario::MaxMethodEntries)) {
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
                        QCoreApplication::translate("scenario", "expected one of %1").arg(valid.join(QLatin1Char('|'))), v);
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

// orders: workload.orders of the scenario being read, the highest op an entry can name.
void readScript(ObjectReader &parent, int orders, QList<ScriptEntry> *script)
{
    parent.note("script", QStringLiteral("list"),
                QStringLiteral("fault entries {op, attempt, fault}, at most %1 entries").arg(scenario::MaxScriptEntries));
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
        r.noteRange("op", QStringLiteral("integer"), QStringLiteral("1 to workload.orders, or \"*\" for every operation"),
                    true, 1, orders);
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
    *script = list;
}

// server.restarts: [{"atS": 12}, ...], each a whole second from 0 to 3600.
void readRestarts(ObjectReader &parent, QList<int> *restarts)
{
    parent.note("restarts", QStringLiteral("list"),
                QStringLiteral("restarts {atS} with atS a whole second from 0 to 3600, at most %1 entries")
                    .arg(scenario::MaxRestartEntries));
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
        *restarts = list;
}

constexpr double MaxDayS = 86400; // phases and windows lie within one day of virtual time
constexpr double MaxPhaseArrivals = 1000000; // the operations that workload.phases may bring, summed

// "3.5" / "10": a number of a file echoed in an error, as short as it round-trips.
QString shortNumber(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

// fromS and toS of a phase or window: 0 <= fromS < toS <= 86400. The catalogue states the range in
// words (their bounds depend on each other); false when either is refused.
bool readPeriod(ObjectReader &r, double *fromS, double *toS)
{
    r.note("fromS", QStringLiteral("number"), QStringLiteral("0 to 86400 (seconds), before toS"));
    r.note("toS", QStringLiteral("number"), QStringLiteral("after fromS, up to 86400 (seconds)"));
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
void readPhases(ObjectReader &parent, QList<LoadPhase> *phases)
{
    parent.note("phases", QStringLiteral("list"),
                QStringLiteral("load phases {fromS, toS, ratePerS} of open mode, not overlapping, at most %1 entries "
                               "and %2 arrivals in all")
                    .arg(scenario::MaxPhaseEntries)
                    .arg(plainNumber(MaxPhaseArrivals)));
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
        r.number("ratePerS", 0, 100000, &phase.ratePerS);
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
        *phases = list;
}

// Top-level windows: [{fromS, toS, fault, probability}, ...]; any fault but serverRestart, and no
// two windows of one fault overlap.
void readWindows(ObjectReader &root, QList<FaultWindow> *windows)
{
    root.note("windows", QStringLiteral("list"),
              QStringLiteral("fault windows {fromS, toS, fault, probability}, at most %1 entries")
                  .arg(scenario::MaxWindowEntries));
    QJsonArray entries;
    if (!root.array("windows", &entries) || !root.withinCap("windows", entries.size(), scenario::MaxWindowEntries))
        return;
    QStringList faults;
    for (const char *name : EnumNames<FaultKind>::names) {
        if (QLatin1String(name) != QLatin1String("serverRestart"))
            faults << QLatin1String(name);
    }
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
        r.note("fault", QStringLiteral("choice"), faults.join(QStringLiteral(", ")), faults);
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
        r.number("probability", 0, 1, &w.probability);
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
        *windows = list;
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
                                        : QStringLiteral("workload.orders"))
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

// Keys a file may give that a scenario is not written with: tenacity's names of a backoff.
bool isInputAlias(const QString &path)
{
    for (const QLatin1String alias : {QLatin1String("client.business.backoff.tenacity"),
                                      QLatin1String("client.wrapper.backoff.tenacity")}) {
        if (path == alias || (path.startsWith(alias) && path.at(alias.size()) == QLatin1Char('.')))
            return true;
    }
    return false;
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
            // A fresh element: a script entry starts from the defaults, written out, so that
            // "network.script[0].op=1" names its fault; other keys are checked later by fromJson.
            if (i > 0 && steps.at(i - 1).key == QLatin1String("script")) {
                const ScriptEntry entry;
                child = QJsonObject{{QStringLiteral("op"), QStringLiteral("*")},
                                    {QStringLiteral("attempt"), entry.attempt},
                                    {QStringLiteral("fault"), enumName(entry.fault)},
                                    {QStringLiteral("method"), enumName(entry.method)}};
            } else if (i == 1 && steps.at(0).key == QLatin1String("windows")) {
                // A fresh fault window names its fault too, as a script entry does.
                child = windowJson(FaultWindow());
            } else {
                child = QJsonObject{{steps.at(i + 1).key, QJsonValue()}};
            }
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
    if (!object.contains(step.key) && !isInputAlias(stepsToPath(steps, i + 1))) {
        *error = unknownKeyMessage(stepsToPath(steps, i), step.key, object.keys());
        return false;
    }
    // An input alias (backoff.tenacity) is not written out: it starts empty.
    QJsonValue child = object.contains(step.key) || i + 1 == steps.size() ? object.value(step.key) : QJsonValue(QJsonObject());
    if (!setAt(&child, steps, i + 1, value, error))
        return false;
    object.insert(step.key, child);
    *node = object;
    return true;
}

// "line 3, column 14" for a byte offset: lines count \n, columns count characters (UTF-8 lead bytes).
QString lineColumn(const QByteArray &text, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    qsizetype line = 1, column = 1;
    for (qsizetype i = 0; i < offset; ++i) {
        const uchar c = uchar(text.at(i));
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xc0) != 0x80) {
            ++column;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

// Reads JSON text (RFC 8259) for what QJsonDocument cannot say: where a syntax error is and what is
// wrong there ("007", "0x10", a trailing comma), and keys that appear twice in one object, which
// QJsonDocument resolves silently by keeping the last. Iterative, so deep nesting costs no stack.
class JsonScanner
{
public:
    explicit JsonScanner(const QByteArray &text) : m_text(text) {}

    // True when the text is one JSON value; else errorOffset() and error() say where and what.
    bool scan();
    qsizetype errorOffset() const { return m_errorOffset; }
    QString error() const { return m_error; }
    // "path: the key appears twice ..." for the first duplicates; duplicateCount() counts them all.
    QStringList duplicates() const { return m_duplicates; }
    qsizetype duplicateCount() const { return m_duplicateCount; }

private:
    struct Frame
    {
        bool object = false;
        qsizetype start = 0;
        QString path;
        QSet<QString> keys;
        QString key;
        int index = 0;
    };

    bool atEnd() const { return m_pos >= m_text.size(); }
    char cur() const { return m_text.at(m_pos); }
    void skipSpace()
    {
        while (!atEnd() && (cur() == ' ' || cur() == '\t' || cur() == '\n' || cur() == '\r'))
            ++m_pos;
    }
    bool fail(qsizetype offset, const QString &what)
    {
        m_errorOffset = offset;
        m_error = what;
        return false;
    }
    bool failEnd();
    QString childPath() const;
    QString token(qsizetype from) const;
    bool key();
    bool string(QString *out);
    bool number();
    bool scalar();
    int utf8Length(qsizetype at) const;

    const QByteArray &m_text;
    qsizetype m_pos = 0;
    std::vector<Frame> m_stack;
    qsizetype m_errorOffset = -1;
    QString m_error;
    QStringList m_duplicates;
    qsizetype m_duplicateCount = 0;
};

bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool JsonScanner::scan()
{
    if (m_text.startsWith("\xef\xbb\xbf")) // a UTF-8 byte order mark, which QJsonDocument skips too
        m_pos = 3;
    skipSpace();
    if (atEnd())
        return fail(m_pos, QStringLiteral("the file holds no JSON value (it is empty)"));
    bool expectValue = true;
    for (;;) {
        if (expectValue) {
            skipSpace();
            if (atEnd())
                return failEnd();
            const char c = cur();
            if (c == '{' || c == '[') {
                if (int(m_stack.size()) >= scenario::MaxNesting)
                    return fail(m_pos, QStringLiteral("objects and arrays nested deeper than %1 levels "
                                                      "(a scenario needs 4)")
                                           .arg(scenario::MaxNesting));
                Frame frame;
                frame.object = c == '{';
                frame.start = m_pos;
                frame.path = childPath();
                m_stack.push_back(std::move(frame));
                ++m_pos;
                skipSpace();
                if (!atEnd() && cur() == (c == '{' ? '}' : ']')) {
                    ++m_pos;
                    m_stack.pop_back();
                    expectValue = false;
                } else if (c == '{' && !key()) {
                    return false;
                }
                continue;
            }
            if (!scalar())
                return false;
            expectValue = false;
            continue;
        }
        skipSpace();
        if (m_stack.empty()) {
            if (!atEnd())
                return fail(m_pos, QStringLiteral("unexpected text after the end of the JSON value: %1")
                                       .arg(quoted(QString::fromUtf8(m_text.mid(m_pos, 20)))));
            return true;
        }
        if (atEnd())
            return failEnd();
        Frame &top = m_stack.back();
        const char close = top.object ? '}' : ']';
        const char c = cur();
        if (c == close) {
            ++m_pos;
            m_stack.pop_back();
            continue;
        }
        if (c == ',') {
            const qsizetype comma = m_pos++;
            skipSpace();
            if (!atEnd() && cur() == close)
                return fail(comma, QStringLiteral("a comma before %1 (JSON allows no trailing comma)").arg(QLatin1Char(close)));
            if (top.object) {
                if (!key())
                    return false;
            } else {
                ++top.index;
            }
            expectValue = true;
            continue;
        }
        if (c == '/')
            return fail(m_pos, QStringLiteral("a comment (JSON has no comments)"));
        return fail(m_pos, top.object ? QStringLiteral("expected , or } after a value (a missing comma?)")
                                      : QStringLiteral("expected , or ] after a value (a missing comma?)"));
    }
}

bool JsonScanner::failEnd()
{
    if (m_stack.empty())
        return fail(m_text.size(), QStringLiteral("the file ends where a value should follow"));
    const Frame &top = m_stack.back();
    return fail(m_text.size(), QStringLiteral("the file ends inside the %1 that opens at %2 (a missing %3?)")
                                   .arg(top.object ? QStringLiteral("object") : QStringLiteral("array"),
                                        lineColumn(m_text, top.start),
                                        top.object ? QStringLiteral("}") : QStringLiteral("]")));
}

QString JsonScanner::childPath() const
{
    if (m_stack.empty())
        return QString();
    const Frame &top = m_stack.back();
    if (top.object)
        return joinPath(top.path, displayKey(top.key));
    return top.path + QStringLiteral("[%1]").arg(top.index);
}

// The word at from (letters, digits, signs, dots), for "invalid number 0x10".
QString JsonScanner::token(qsizetype from) const
{
    qsizetype end = from;
    while (end < m_text.size() && end - from < 24) {
        const char c = m_text.at(end);
        if (!(isAsciiLetter(c) || isAsciiDigit(c) || c == '.' || c == '+' || c == '-' || c == '_'))
            break;
        ++end;
    }
    if (end == from) {
        if (from >= m_text.size())
            return QStringLiteral("the end of the file");
        const int length = utf8Length(from);
        if (length == 0)
            return QStringLiteral("the byte 0x%1 (not UTF-8)").arg(uint(uchar(m_text.at(from))), 2, 16, QLatin1Char('0'));
        return quoted(QString::fromUtf8(m_text.mid(from, length)));
    }
    return printable(QString::fromUtf8(m_text.mid(from, end - from)));
}

bool JsonScanner::key()
{
    skipSpace();
    if (atEnd())
        return failEnd();
    const char c = cur();
    if (c != '"') {
        if (c == '\'')
            return fail(m_pos, QStringLiteral("a key in single quotes (JSON needs double quotes)"));
        if (isAsciiLetter(c) || c == '_')
            return fail(m_pos, QStringLiteral("the key %1 has no quotes (JSON needs \"%1\")").arg(token(m_pos)));
        if (c == '/')
            return fail(m_pos, QStringLiteral("a comment (JSON has no comments)"));
        return fail(m_pos, QStringLiteral("expected a key in double quotes, got %1").arg(token(m_pos)));
    }
    const qsizetype at = m_pos;
    QString name;
    if (!string(&name))
        return false;
    Frame &top = m_stack.back();
    if (top.keys.contains(name)) {
        // Line and column cost a pass over the text: only for the duplicates that are listed.
        if (m_duplicates.size() < scenario::MaxReportedErrors)
            m_duplicates << QStringLiteral("%1: the key appears twice in one object (again at %2); JSON keeps "
                                           "only the last, so write it once")
                                .arg(joinPath(top.path, displayKey(name)), lineColumn(m_text, at));
        ++m_duplicateCount;
    } else {
        top.keys.insert(name);
    }
    top.key = name;
    skipSpace();
    if (atEnd())
        return failEnd();
    if (cur() != ':')
        return fail(m_pos, QStringLiteral("expected : after the key %1").arg(quoted(name)));
    ++m_pos;
    return true;
}

// Bytes in the well-formed UTF-8 sequence at at, or 0 (RFC 3629: no overlongs, surrogates or > U+10FFFF).
int JsonScanner::utf8Length(qsizetype at) const
{
    const auto byte = [this](qsizetype i) { return i < m_text.size() ? uchar(m_text.at(i)) : uchar(0); };
    const uchar c = byte(at);
    const auto cont = [&](qsizetype i) { return (byte(i) & 0xc0) == 0x80; };
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return cont(at + 1) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        const uchar c1 = byte(at + 1);
        if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f))
            return 0;
        return cont(at + 1) && cont(at + 2) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        const uchar c1 = byte(at + 1);
        if ((c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f))
            return 0;
        return cont(at + 1) && cont(at + 2) && cont(at + 3) ? 4 : 0;
    }
    return 0;
}

bool JsonScanner::string(QString *out)
{
    const qsizetype start = m_pos++;
    for (;;) {
        if (atEnd())
            return fail(start, QStringLiteral("a string that never ends (no closing \")"));
        const uchar c = uchar(cur());
        if (c == '"') {
            ++m_pos;
            return true;
        }
        if (c == '\\') {
            if (m_pos + 1 >= m_text.size())
                return fail(start, QStringLiteral("a string that never ends (no closing \")"));
            const char e = m_text.at(m_pos + 1);
            char16_t decoded = 0;
            switch (e) {
            case '"': case '\\': case '/': decoded = char16_t(e); break;
            case 'b': decoded = 0x08; break;
            case 'f': decoded = 0x0c; break;
            case 'n': decoded = 0x0a; break;
            case 'r': decoded = 0x0d; break;
            case 't': decoded = 0x09; break;
            case 'u': {
                bool ok = m_pos + 6 <= m_text.size();
                if (ok)
                    decoded = char16_t(m_text.mid(m_pos + 2, 4).toUInt(&ok, 16));
                for (qsizetype i = m_pos + 2; ok && i < m_pos + 6; ++i)
                    ok = isAsciiDigit(m_text.at(i)) || (m_text.at(i) >= 'a' && m_text.at(i) <= 'f')
                        || (m_text.at(i) >= 'A' && m_text.at(i) <= 'F');
                if (!ok)
                    return fail(m_pos, QStringLiteral("\\u in a string must be followed by four hex digits"));
                m_pos += 4;
                break;
            }
            default:
                return fail(m_pos, QStringLiteral("a backslash before %1, which is not a JSON escape (allowed: "
                                                  "\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                                       .arg(isAsciiLetter(e) || isAsciiDigit(e) ? QString(QLatin1Char(e)) : token(m_pos + 1)));
            }
            if (out)
                out->append(QChar(decoded));
            m_pos += 2;
            continue;
        }
        if (c < 0x20)
            return fail(m_pos, QStringLiteral("a raw control character (%1) inside a string; write it as an escape "
                                              "such as \\n")
                                   .arg(escapedChar(c)));
        const int length = utf8Length(m_pos);
        if (length == 0)
            return fail(m_pos, QStringLiteral("invalid UTF-8 inside a string (the file must be UTF-8 text)"));
        if (out)
            out->append(QString::fromUtf8(m_text.constData() + m_pos, length));
        m_pos += length;
    }
}

bool JsonScanner::number()
{
    const qsizetype start = m_pos;
    const auto invalid = [&](const QString &why) {
        return fail(start, QStringLiteral("invalid number %1 (%2)").arg(token(start), why));
    };
    if (cur() == '-')
        ++m_pos;
    if (atEnd() || !isAsciiDigit(cur())) {
        if (m_text.mid(m_pos, 8) == "Infinity")
            return fail(start, QStringLiteral("-Infinity is not a JSON number"));
        return invalid(QStringLiteral("a minus sign must be followed by a digit"));
    }
    if (cur() == '0') {
        ++m_pos;
        if (!atEnd() && (cur() == 'x' || cur() == 'X'))
            return invalid(QStringLiteral("hexadecimal is not JSON; write the number in decimal"));
        if (!atEnd() && isAsciiDigit(cur()))
            return invalid(QStringLiteral("JSON numbers have no leading zeros"));
    } else {
        while (!atEnd() && isAsciiDigit(cur()))
            ++m_pos;
    }
    if (!atEnd() && cur() == '.') {
        ++m_pos;
        if (atEnd() || !isAsciiDigit(cur()))
            return invalid(QStringLiteral("a digit must follow the decimal point"));
        while (!atEnd() && isAsciiDigit(cur()))
            ++m_pos;
    }
    if (!atEnd() && (cur() == 'e' || cur() == 'E')) {
        ++m_pos;
        if (!atEnd() && (cur() == '+' || cur() == '-'))
            ++m_pos;
        if (atEnd() || !isAsciiDigit(cur()))
            return invalid(QStringLiteral("the exponent needs digits"));
        while (!atEnd() && isAsciiDigit(cur()))
            ++m_pos;
    }
    if (!atEnd() && (isAsciiLetter(cur()) || cur() == '_' || cur() == '.'))
        return invalid(QStringLiteral("JSON numbers are plain decimals such as 10, 0.5 or 1e6"));
    bool ok = false;
    const double value = m_text.mid(start, m_pos - start).toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return invalid(QStringLiteral("too large to be a number"));
    return true;
}

bool JsonScanner::scalar()
{
    const char c = cur();
    if (c == '"')
        return string(nullptr);
    if (c == '-' || isAsciiDigit(c))
        return number();
    for (const char *literal : {"true", "false", "null"}) {
        const qsizetype n = qsizetype(qstrlen(literal));
        if (m_text.mid(m_pos, n) == literal
            && (m_pos + n >= m_text.size() || !(isAsciiLetter(m_text.at(m_pos + n)) || isAsciiDigit(m_text.at(m_pos + n))))) {
            m_pos += n;
            return true;
        }
    }
    if (c == '\'')
        return fail(m_pos, QStringLiteral("a string in single quotes (JSON needs double quotes)"));
    if (c == '+')
        return fail(m_pos, QStringLiteral("invalid number %1 (JSON numbers cannot start with +)").arg(token(m_pos)));
    if (c == '.')
        return fail(m_pos, QStringLiteral("invalid number %1 (write a digit before the decimal point, e.g. 0.5)")
                               .arg(token(m_pos)));
    if (c == '/')
        return fail(m_pos, QStringLiteral("a comment (JSON has no comments)"));
    if (isAsciiLetter(c) || c == '_') {
        const QString word = token(m_pos);
        if (word == QLatin1String("NaN") || word == QLatin1String("Infinity"))
            return fail(m_pos, QStringLiteral("%1 is not a JSON number").arg(word));
        for (const char *literal : {"true", "false", "null"}) {
            if (word.compare(QLatin1String(literal), Qt::CaseInsensitive) == 0)
                return fail(m_pos, QStringLiteral("%1 is not JSON (write %2 in lower case)").arg(word, QLatin1String(literal)));
        }
        return fail(m_pos, QStringLiteral("the word %1 has no quotes (text values need double quotes: \"%1\")").arg(word));
    }
    if (c == ',' || c == '}' || c == ']' || c == ':')
        return fail(m_pos, QStringLiteral("expected a value before %1").arg(QLatin1Char(c)));
    return fail(m_pos, QStringLiteral("unexpected %1 where a value should be").arg(token(m_pos)));
}

// A file in UTF-16 or UTF-32 (as some Windows editors save) gets a hint rather than "unexpected character".
QString encodingProblem(const QByteArray &bytes)
{
    if (bytes.startsWith("\xff\xfe") || bytes.startsWith("\xfe\xff"))
        return QStringLiteral("the file is UTF-16 or UTF-32 text (it starts with a byte order mark); save it as UTF-8");
    if (bytes.left(4).contains('\0'))
        return QStringLiteral("the file holds zero bytes near its start (UTF-16 or UTF-32 text?); save it as UTF-8");
    return QString();
}

} // namespace

QJsonValue scenario::seedToJson(quint64 seed)
{
    // Beyond 2^53 a JSON number loses digits, so such seeds travel as strings.
    if (seed <= quint64(MaxExactInteger))
        return QJsonValue(qint64(seed));
    return QJsonValue(QString::number(seed));
}

bool Scenario::operator==(const Scenario &o) const
{
    // Field by field: serialising both sides cost gigabytes on big scripts.
    return schema == o.schema && name == o.name && title == o.title && description == o.description
        && seed == o.seed && scenario::sameSettings(*this, o);
}

int LayerConfig::minimumWaitMs() const
{
    // backoffUs over n >= 1: constant and linear start at initialMs, exponential too unless it
    // shrinks (multiplier < 1); the cap applies first, then the jitter.
    double v = backoff.initialMs;
    if (backoff.kind == BackoffKind::AwsExponential)
        v = backoff.initialMs * backoff.multiplier; // retry 1 already doubles
    if ((backoff.kind == BackoffKind::Exponential || backoff.kind == BackoffKind::AwsExponential)
        && backoff.multiplier < 1)
        v = 0;
    v = std::min(v, double(backoff.maxMs));
    switch (backoff.jitter) {
    case Jitter::None:
        break;
    case Jitter::Full:
        v = 0;
        break;
    case Jitter::Equal:
        v = v / 2;
        break;
    case Jitter::Decorrelated:
        v = std::min(backoff.initialMs, backoff.maxMs);
        break;
    case Jitter::Proportional:
        v = v * (1.0 - backoff.jitterPercent / 100.0);
        break;
    }
    return int(std::floor(std::max(v, double(backoff.minMs))));
}

int LayerConfig::effectiveMaxAttempts() const
{
    if (maxAttempts > 0)
        return maxAttempts;
    if (deadlineMs <= 0)
        return 1; // refused by the validator; never loop without a bound
    // A backoff that can wait 0 ms counts as 1 ms per retry: since issue 11 such a backoff is
    // allowed with unlimited attempts (retry until success, the AWS study), and this stays a bound.
    return 1 + deadlineMs / std::max(1, minimumWaitMs());
}

int TransportConfig::worstCaseRetries() const
{
    // Each error decrements total and its own counter; the loop ends when either runs out.
    // Errors of different kinds can each use their own counter first, so the counters add up:
    // the most retries are min(total, connect + read + status) ("other" never happens here).
    int counters = -1;
    if (connect != Unlimited && read != Unlimited && status != Unlimited)
        counters = connect + read + status;
    if (total == Unlimited)
        return counters;
    return counters == -1 ? total : std::min(total, counters);
}

int Scenario::worstCaseAttemptsPerOp() const
{
    const qint64 b = client.business.enabled ? client.business.effectiveMaxAttempts() : 1;
    const qint64 w = client.wrapper.enabled ? client.wrapper.effectiveMaxAttempts() : 1;
    const qint64 t = client.transport.enabled ? std::max(0, client.transport.worstCaseRetries()) + 1 : 1;
    return int(std::min<qint64>(b * w * t, std::numeric_limits<int>::max()));
}

namespace {
// The attempt count of each enabled layer, outermost first ("1" when none retries).
QStringList worstCaseFactors(const ClientConfig &client)
{
    QStringList factors;
    if (client.business.enabled)
        factors << QString::number(client.business.effectiveMaxAttempts());
    if (client.wrapper.enabled)
        factors << QString::number(client.wrapper.effectiveMaxAttempts());
    if (client.transport.enabled)
        factors << QString::number(std::max(0, client.transport.worstCaseRetries()) + 1);
    if (factors.isEmpty())
        factors << QStringLiteral("1");
    return factors;
}
} // namespace

QString Scenario::worstCaseFormula() const
{
    return worstCaseFactors(client).join(QStringLiteral(" x ")) + QStringLiteral(" = ")
        + QString::number(worstCaseAttemptsPerOp());
}

QString Scenario::worstCaseText() const
{
    return worstCaseFactors(client).size() > 1 ? worstCaseFormula() : QString::number(worstCaseAttemptsPerOp());
}

namespace {
// Every setting as JSON; complete: also the keys a saved file leaves out (a uniform distribution's
// distribution, mean and sd).
QJsonObject scenarioJson(const Scenario &sc, bool complete);
} // namespace

QJsonObject Scenario::toJson() const
{
    return scenarioJson(*this, false);
}

QJsonObject scenario::toCompleteJson(const Scenario &s)
{
    return scenarioJson(s, true);
}

namespace {

QJsonObject scenarioJson(const Scenario &sc, bool complete)
{
    const WorkloadConfig &workload = sc.workload;
    const ClientConfig &client = sc.client;
    const NetworkConfig &network = sc.network;
    const ServerConfig &server = sc.server;
    const ReconciliationConfig &reconciliation = sc.reconciliation;
    QJsonArray phasesJson;
    for (const LoadPhase &p : workload.phases)
        phasesJson.append(phaseJson(p));
    const QJsonObject workloadJson{
        {QStringLiteral("orders"), workload.orders},
        {QStringLiteral("interArrivalMs"), workload.interArrivalMs},
        {QStringLiteral("clients"), workload.clients},
        {QStringLiteral("doubleSubmitRate"), workload.doubleSubmitRate},
        {QStringLiteral("doubleSubmitDelayMs"), workload.doubleSubmitDelayMs},
        {QStringLiteral("mode"), enumName(workload.mode)},
        {QStringLiteral("arrivals"), enumName(workload.arrivals)},
        {QStringLiteral("phases"), phasesJson},
        {QStringLiteral("opsPerClient"), workload.opsPerClient},
        {QStringLiteral("thinkTimeMs"), workload.thinkTimeMs},
        {QStringLiteral("startTogether"), workload.startTogether},
    };

    const TransportConfig &t = client.transport;
    QJsonArray forcelist;
    for (int status : t.statusForcelist)
        forcelist.append(status);
    QJsonObject transportJson{
        {QStringLiteral("enabled"), t.enabled},
        {QStringLiteral("total"), t.total == TransportConfig::Unlimited ? QJsonValue() : QJsonValue(t.total)},
        {QStringLiteral("backoffFactor"), t.backoffFactor},
        {QStringLiteral("backoffMaxS"), t.backoffMaxS},
        {QStringLiteral("backoffJitter"), t.backoffJitterS},
        {QStringLiteral("statusForcelist"), forcelist},
        {QStringLiteral("allowedMethods"), QJsonArray::fromStringList(t.allowedMethods)},
        {QStringLiteral("respectRetryAfter"), t.respectRetryAfter},
        {QStringLiteral("retryAfterMaxS"), t.retryAfterMaxS},
        {QStringLiteral("raiseOnStatus"), t.raiseOnStatus},
    };
    // urllib3's None is null: unlimited.
    const std::pair<const char *, int> counters[] = {
        {"connect", t.connect}, {"read", t.read}, {"status", t.status}, {"other", t.other}};
    for (const auto &c : counters)
        transportJson.insert(QLatin1String(c.first),
                             c.second == TransportConfig::Unlimited ? QJsonValue() : QJsonValue(c.second));
    const QJsonObject clientJson{
        {QStringLiteral("keyPlacement"), enumName(client.keyPlacement)},
        {QStringLiteral("requestId"), client.requestId},
        {QStringLiteral("queryBeforeRetry"), client.queryBeforeRetry},
        {QStringLiteral("onUnknownQuery"), enumName(client.onUnknownQuery)},
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
                     {QStringLiteral("maxTokens"), client.retryBudget.maxTokens},
                     {QStringLiteral("scope"), enumName(client.retryBudget.scope)},
                     // null: the bucket starts full
                     {QStringLiteral("initialTokens"), client.retryBudget.initialTokens < 0
                          ? QJsonValue(QJsonValue::Null)
                          : QJsonValue(client.retryBudget.initialTokens)}}},
        {QStringLiteral("circuitBreaker"),
         QJsonObject{{QStringLiteral("enabled"), client.circuitBreaker.enabled},
                     {QStringLiteral("failureThreshold"), client.circuitBreaker.failureThreshold},
                     {QStringLiteral("openMs"), client.circuitBreaker.openMs},
                     {QStringLiteral("mode"), enumName(client.circuitBreaker.mode)},
                     {QStringLiteral("window"), client.circuitBreaker.window},
                     {QStringLiteral("failureRatePercent"), client.circuitBreaker.failureRatePercent},
                     {QStringLiteral("retriesOnly"), client.circuitBreaker.retriesOnly}}},
    };

    QJsonArray script;
    for (const ScriptEntry &e : network.script) {
        script.append(QJsonObject{
            {QStringLiteral("op"), e.op == 0 ? QJsonValue(QStringLiteral("*")) : QJsonValue(e.op)},
            {QStringLiteral("attempt"), e.attempt},
            {QStringLiteral("fault"), enumName(e.fault)},
            {QStringLiteral("method"), enumName(e.method)},
        });
    }
    const QJsonObject networkJson{
        {QStringLiteral("latencyMs"), distributionToJson(network.latencyMs, complete)},
        {QStringLiteral("connectFailure"), network.connectFailure},
        {QStringLiteral("requestLoss"), network.requestLoss},
        {QStringLiteral("responseLoss"), network.responseLoss},
        {QStringLiteral("resetAfterCommit"), network.resetAfterCommit},
        {QStringLiteral("latencySpike"), network.latencySpike},
        {QStringLiteral("spikeMs"), network.spikeMs},
        {QStringLiteral("script"), script},
    };

    const IdempotencyConfig &idem = server.idempotency;
    QJsonArray restartsJson;
    for (const int atS : server.restartsAtS)
        restartsJson.append(QJsonObject{{QStringLiteral("atS"), atS}});
    const QJsonObject serverJson{
        {QStringLiteral("processingMs"), distributionToJson(server.processingMs, complete)},
        {QStringLiteral("model"), enumName(server.model)},
        {QStringLiteral("occ"), QJsonObject{{QStringLiteral("rows"), server.occRows}}},
        {QStringLiteral("latencyPerInFlightMs"), server.latencyPerInFlightMs},
        {QStringLiteral("capacity"), server.capacity},
        {QStringLiteral("queue"), server.queue},
        {QStringLiteral("errorStatus"), server.errorStatus},
        {QStringLiteral("error5xxBeforeCommit"), server.error5xxBeforeCommit},
        {QStringLiteral("error5xxAfterCommit"), server.error5xxAfterCommit},
        {QStringLiteral("throttle429"), server.throttle429},
        {QStringLiteral("retryAfterS"), server.retryAfterS},
        {QStringLiteral("restarts"), restartsJson},
        {QStringLiteral("restartDownMs"), server.restartDownMs},
        {QStringLiteral("idempotency"),
         QJsonObject{{QStringLiteral("mode"), enumName(idem.mode)},
                     {QStringLiteral("requireKey"), idem.requireKey},
                     {QStringLiteral("ttlS"), idem.ttlS},
                     {QStringLiteral("fingerprint"), idem.fingerprint},
                     {QStringLiteral("storeErrors"), idem.storeErrors},
                     {QStringLiteral("tokenReuse"), enumName(idem.tokenReuse)},
                     {QStringLiteral("store"), enumName(idem.store)}}},
    };

    const QJsonObject reconciliationJson{
        {QStringLiteral("enabled"), reconciliation.enabled},
        {QStringLiteral("intervalS"), reconciliation.intervalS},
        {QStringLiteral("action"), enumName(reconciliation.action)},
    };

    QJsonArray windowsJson;
    for (const FaultWindow &w : sc.windows)
        windowsJson.append(windowJson(w));

    return QJsonObject{
        {QStringLiteral("schema"), sc.schema},
        {QStringLiteral("name"), sc.name},
        {QStringLiteral("title"), sc.title},
        {QStringLiteral("description"), sc.description},
        {QStringLiteral("seed"), scenario::seedToJson(sc.seed)},
        {QStringLiteral("workload"), workloadJson},
        {QStringLiteral("client"), clientJson},
        {QStringLiteral("network"), networkJson},
        {QStringLiteral("server"), serverJson},
        {QStringLiteral("reconciliation"), reconciliationJson},
        {QStringLiteral("windows"), windowsJson},
    };
}

} // namespace

namespace {

// Every field of a scenario object, with all errors (uncapped).
ScenarioParse readObject(const QJsonObject &object)
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
        root.string("name", scenario::MaxNameChars, &s.name, false);
        root.string("title", scenario::MaxTitleChars, &s.title);
        root.string("description", scenario::MaxDescriptionChars, &s.description);
        readSeed(root, &s.seed);

        {
            ObjectReader r(errors, root.object("workload"), QStringLiteral("workload"));
            WorkloadConfig &w = s.workload;
            r.integer("orders", 1, MaxOperations, &w.orders);
            r.integer("interArrivalMs", 0, MaxMs, &w.interArrivalMs);
            r.integer("clients", 1, 10000, &w.clients);
            r.number("doubleSubmitRate", 0, 1, &w.doubleSubmitRate);
            r.integer("doubleSubmitDelayMs", 0, MaxMs, &w.doubleSubmitDelayMs);
            r.choice("mode", &w.mode);
            r.choice("arrivals", &w.arrivals);
            readPhases(r, &w.phases);
            r.integer("opsPerClient", 1, 100000, &w.opsPerClient);
            r.integer("thinkTimeMs", 0, MaxMs, &w.thinkTimeMs);
            r.boolean("startTogether", &w.startTogether);
            if (w.mode == WorkloadMode::Closed) {
                // The operations of a closed run are bounded as workload.orders is.
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
        }
        {
            ObjectReader r(errors, root.object("client"), QStringLiteral("client"));
            ClientConfig &c = s.client;
            r.choice("keyPlacement", &c.keyPlacement);
            r.boolean("requestId", &c.requestId);
            r.boolean("queryBeforeRetry", &c.queryBeforeRetry);
            r.choice("onUnknownQuery", &c.onUnknownQuery);
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
                b.choice("scope", &c.retryBudget.scope);
                b.nullableNumber("initialTokens", 0, 1000000, QStringLiteral("a full bucket (maxTokens)"),
                                 &c.retryBudget.initialTokens);
            }
            {
                ObjectReader b(errors, r.object("circuitBreaker"), QStringLiteral("client.circuitBreaker"));
                b.boolean("enabled", &c.circuitBreaker.enabled);
                b.integer("failureThreshold", 1, 1000, &c.circuitBreaker.failureThreshold);
                b.integer("openMs", 1, MaxMs, &c.circuitBreaker.openMs);
                b.choice("mode", &c.circuitBreaker.mode);
                b.integer("window", 1, 10000, &c.circuitBreaker.window);
                b.integer("failureRatePercent", 1, 100, &c.circuitBreaker.failureRatePercent);
                b.boolean("retriesOnly", &c.circuitBreaker.retriesOnly);
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
            readScript(r, s.workload.orders, &n.script);
        }
        {
            ObjectReader r(errors, root.object("server"), QStringLiteral("server"));
            ServerConfig &v = s.server;
            r.choice("model", &v.model);
            {
                ObjectReader o(errors, r.object("occ"), QStringLiteral("server.occ"));
                o.integer("rows", 1, 100000, &v.occRows);
            }
            readDistribution(r, "processingMs", &v.processingMs);
            r.number("latencyPerInFlightMs", 0, 10000, &v.latencyPerInFlightMs);
            r.integer("capacity", 0, 100000, &v.capacity);
            r.integer("queue", 0, 1000000, &v.queue);
            r.integer("errorStatus", 500, 599, &v.errorStatus);
            r.number("error5xxBeforeCommit", 0, 1, &v.error5xxBeforeCommit);
            r.number("error5xxAfterCommit", 0, 1, &v.error5xxAfterCommit);
            r.number("throttle429", 0, 1, &v.throttle429);
            r.integer("retryAfterS", 0, 86400, &v.retryAfterS);
            readRestarts(r, &v.restartsAtS);
            r.integer("restartDownMs", 0, MaxMs, &v.restartDownMs);
            ObjectReader i(errors, r.object("idempotency"), QStringLiteral("server.idempotency"));
            i.choice("mode", &v.idempotency.mode);
            i.boolean("requireKey", &v.idempotency.requireKey);
            i.integer("ttlS", 0, 31536000, &v.idempotency.ttlS);
            i.boolean("fingerprint", &v.idempotency.fingerprint);
            i.boolean("storeErrors", &v.idempotency.storeErrors);
            i.choice("tokenReuse", &v.idempotency.tokenReuse);
            i.choice("store", &v.idempotency.store);
            // A token is fetched with a round trip of its own before the POST; an OCC write has none.
            if (v.model == ServerModel::Occ && v.idempotency.mode == IdempotencyMode::Token)
                errors->append(QStringLiteral("server.model: occ has no token round trip, so it cannot serve "
                                              "server.idempotency.mode \"token\" (use orders, or another mode)"));
        }
        {
            ObjectReader r(errors, root.object("reconciliation"), QStringLiteral("reconciliation"));
            r.boolean("enabled", &s.reconciliation.enabled);
            r.integer("intervalS", 1, 86400, &s.reconciliation.intervalS);
            r.choice("action", &s.reconciliation.action);
        }
        readWindows(root, &s.windows);
    } // readers report unknown keys when they go out of scope
    // Entries that can never fire, checked once the fields they depend on are valid.
    if (errors->isEmpty())
        checkScriptReachable(s, errors);
    return result;
}

} // namespace

namespace scenario {

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

QString save(const Scenario &s, const QString &fileName)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("scenario", "cannot write scenario file \"%1\": %2").arg(fileName, file.errorString());
    const QByteArray bytes = QJsonDocument(s.toJson()).toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return QCoreApplication::translate("scenario", "cannot write scenario file \"%1\": %2").arg(fileName, error);
    }
    if (!file.commit())
        return QCoreApplication::translate("scenario", "cannot write scenario file \"%1\": %2").arg(fileName, file.errorString());
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
    QJsonValue root = toCompleteJson(s);
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

namespace {
// "path=value" split, the value read as JSON when it is one (a bare number, bool, string literal,
// list or object), else as the text itself.
bool splitAssignment(const QString &assignment, QString *path, QJsonValue *value)
{
    const int eq = assignment.indexOf(QLatin1Char('='));
    if (eq < 0)
        return false;
    *path = assignment.left(eq).trimmed();
    const QString text = assignment.mid(eq + 1);
    *value = QJsonValue(text);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"), &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isArray() && doc.array().size() == 1)
        *value = doc.array().at(0);
    return true;
}

QString missingEquals(const QString &assignment)
{
    return QStringLiteral("\"%1\": expected path=value, e.g. client.transport.total=5").arg(assignment);
}
} // namespace

ScenarioParse withSet(const Scenario &s, const QString &assignment)
{
    QString path;
    QJsonValue value;
    if (!splitAssignment(assignment, &path, &value)) {
        ScenarioParse result;
        result.scenario = s;
        result.errors << missingEquals(assignment);
        return result;
    }
    return withValue(s, path, value);
}

ScenarioParse withSets(const Scenario &s, const QStringList &assignments, QStringList *sources)
{
    ScenarioParse result;
    result.scenario = s;
    QJsonValue root = toCompleteJson(s);
    QStringList paths;
    const auto failOn = [&](const QString &assignment, const QString &error) {
        result.errors << error;
        if (sources)
            *sources << assignment;
        return result;
    };
    for (const QString &assignment : assignments) {
        QString path;
        QJsonValue value;
        QList<PathStep> steps;
        if (!splitAssignment(assignment, &path, &value))
            return failOn(assignment, missingEquals(assignment));
        if (!parsePath(path, &steps))
            return failOn(assignment, QStringLiteral("\"%1\": not a valid path (expected names separated by dots, "
                                                     "e.g. client.transport.total or network.script[0].fault)")
                                          .arg(path));
        QString error;
        if (!setAt(&root, steps, 0, value, &error))
            return failOn(assignment, error);
        paths << path;
    }
    // Validated once, after every assignment: the order of the flags does not matter
    // (maxAttempts=0 before or after the deadline it needs).
    ScenarioParse parsed = fromJson(root.toObject());
    if (parsed.ok())
        return parsed;
    result.errors = parsed.errors;
    if (sources) {
        // Each error goes to the last assignment of the field it names (or of an enclosing or
        // enclosed path), else to none.
        for (const QString &error : std::as_const(result.errors)) {
            const QString field = error.section(QLatin1Char(':'), 0, 0);
            QString source;
            for (qsizetype i = paths.size() - 1; i >= 0 && source.isEmpty(); --i) {
                const QString &p = paths.at(i);
                if (field == p || field.startsWith(p + QLatin1Char('.')) || field.startsWith(p + QLatin1Char('['))
                    || p.startsWith(field + QLatin1Char('.')) || p.startsWith(field + QLatin1Char('[')))
                    source = assignments.at(i);
            }
            *sources << source;
        }
    }
    return result;
}

QJsonValue valueAt(const Scenario &s, const QString &path)
{
    QList<PathStep> steps;
    if (!parsePath(path.trimmed(), &steps))
        return QJsonValue(QJsonValue::Undefined);
    if (isInputAlias(path.trimmed())) {
        // tenacity's names of a backoff, computed from the keys they stand for.
        const bool business = steps.at(1).key == QLatin1String("business");
        const QJsonObject t = tenacityOf(business ? s.client.business.backoff : s.client.wrapper.backoff);
        return steps.size() == 4 ? QJsonValue(t) : t.value(steps.at(4).key);
    }
    // Never the whole scenario for one field: a script of many entries is serialised only when the
    // path asks for the script, and then only the entry it names.
    Scenario light = s;
    QJsonValue node;
    if (steps.first().key == QLatin1String("network") && steps.size() > 2 && steps.at(1).key == QLatin1String("script")
        && steps.at(2).index >= 0) {
        if (steps.at(2).index >= s.network.script.size())
            return QJsonValue(QJsonValue::Undefined);
        light.network.script = {s.network.script.at(steps.at(2).index)};
        steps[2].index = 0;
    } else if (steps.first().key != QLatin1String("network")
               || (steps.size() > 1 && steps.at(1).key != QLatin1String("script"))) {
        light.network.script.clear();
    }
    node = toCompleteJson(light);
    for (const PathStep &step : std::as_const(steps)) {
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
        result.errors << QCoreApplication::translate("scenario", "unknown preset \"%1\"; available presets: %2")
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
    result.errors << QCoreApplication::translate("scenario", "\"%1\" is neither a scenario file nor a preset; available presets: %2")
                         .arg(nameOrFile, presetNames().join(QStringLiteral(", ")));
    return result;
}

QString toString(BackoffKind v) { return enumName(v); }
QString toString(Jitter v) { return enumName(v); }
QString toString(KeyPlacement v) { return enumName(v); }
QString toString(IdempotencyMode v) { return enumName(v); }
QString toString(WrapperRetryOn v) { return enumName(v); }
QString toString(ReconcileAction v) { return enumName(v); }
QString toString(TokenReuse v) { return enumName(v); }
QString toString(KeyStore v) { return enumName(v); }
QString toString(UnknownQuery v) { return enumName(v); }
QString toString(FaultKind v) { return enumName(v); }
QString toString(ScriptMethod v) { return enumName(v); }
QString toString(DistributionShape v) { return enumName(v); }
QString toString(BudgetScope v) { return enumName(v); }
QString toString(BreakerMode v) { return enumName(v); }
QString toString(ServerModel v) { return enumName(v); }
QString toString(WorkloadMode v) { return enumName(v); }
QString toString(Arrivals v) { return enumName(v); }

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
}

QList<FieldInfo> fields()
{
    static const QList<FieldInfo> catalogue = [] {
        // One entry in each list, so the reader also visits the keys of an entry.
        QJsonObject json = toCompleteJson(Scenario());
        QJsonObject network = json.value(QLatin1String("network")).toObject();
        const ScriptEntry entry;
        network.insert(QStringLiteral("script"),
                       QJsonArray{QJsonObject{{QStringLiteral("op"), QStringLiteral("*")},
                                              {QStringLiteral("attempt"), entry.attempt},
                                              {QStringLiteral("fault"), enumName(entry.fault)},
                                              {QStringLiteral("method"), enumName(entry.method)}}});
        json.insert(QStringLiteral("network"), network);
        QJsonObject workload = json.value(QLatin1String("workload")).toObject();
        workload.insert(QStringLiteral("phases"), QJsonArray{phaseJson(LoadPhase())});
        json.insert(QStringLiteral("workload"), workload);
        json.insert(QStringLiteral("windows"), QJsonArray{windowJson(FaultWindow())});

        QList<FieldInfo> list;
        t_catalogue = &list;
        fromJson(json);
        t_catalogue = nullptr;
        const QLatin1String lists[] = {QLatin1String("network.script"), QLatin1String("workload.phases"),
                                       QLatin1String("windows")};
        for (FieldInfo &info : list) {
            for (const QLatin1String &listPath : lists) {
                const QString entryPrefix = listPath + QStringLiteral("[0].");
                if (info.path.startsWith(entryPrefix))
                    info.path = listPath + QStringLiteral("[N].") + info.path.mid(entryPrefix.size());
                else if (info.path == listPath)
                    info.defaultValue = QJsonArray();
            }
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
    // Catalogue paths are short: a long path is no typo of one, and measuring it would cost seconds.
    if (wanted.size() > 4 * scenario::MaxSuggestedKeyChars)
        return QStringList();
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
