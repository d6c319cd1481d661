// A check report as JSON, and read back with an error that names the field for a bad file.
#include "check/checkreport.h"

#include "check/checkverdicts.h"
#include "scenario/objectreader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab {

namespace {

constexpr const char *FormatName = "retrylab-check";

} // namespace

QJsonObject CheckReport::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("format"), QLatin1String(FormatName));
    o.insert(QStringLiteral("version"), Version);
    o.insert(QStringLiteral("url"), url);
    o.insert(QStringLiteral("rounds"), roundsAsked);
    o.insert(QStringLiteral("concurrency"), concurrency);
    o.insert(QStringLiteral("timeoutMs"), timeoutMs);
    o.insert(QStringLiteral("idField"), idField);
    if (!listUrl.isEmpty())
        o.insert(QStringLiteral("list"), listUrl);
    if (!listError.isEmpty())
        o.insert(QStringLiteral("listError"), listError);
    QJsonArray probes;
    for (int i = 0; i < card.size(); ++i) {
        QJsonObject p = card.at(i).toJson();
        QJsonArray r;
        for (const ProbeObservation &each : rounds.value(i))
            r.append(each.toJson());
        p.insert(QStringLiteral("rounds"), r);
        probes.append(p);
    }
    o.insert(QStringLiteral("probes"), probes);
    o.insert(QStringLiteral("exitStatus"), check::exitStatus(card));
    return o;
}

namespace check {

namespace {

using scenario::detail::ObjectReader;

template<typename E>
QStringList namesOf(int count, QString (*name)(E))
{
    QStringList names;
    for (int i = 0; i < count; ++i)
        names << name(E(i));
    return names;
}

// A whole number from lo to hi (a qint64: microseconds outgrow an int).
void wholeNumber(ObjectReader &r, const char *key, qint64 lo, qint64 hi, qint64 *out)
{
    const QJsonValue v = r.take(key);
    if (v.isUndefined())
        return;
    const double d = v.toDouble();
    if (!v.isDouble() || std::floor(d) != d || d < double(lo) || d > double(hi)) {
        r.error(QLatin1String(key),
                QCoreApplication::translate("scenario", "expected an integer from %1 to %2").arg(lo).arg(hi), v);
        return;
    }
    *out = qint64(d);
}

// A string, or null for none.
void optionalText(ObjectReader &r, const char *key, int maxChars, QString *out)
{
    if (r.source().value(QLatin1String(key)).isNull()) {
        r.take(key);
        return;
    }
    r.string(key, maxChars, out);
}

void required(ObjectReader &r, const char *key)
{
    if (r.source().value(QLatin1String(key)).isUndefined())
        r.errors()->append(QCoreApplication::translate("check", "%1: missing").arg(r.pathOf(QLatin1String(key))));
}

// An element of a list that must be an object; else "path: expected an object, got ...".
bool isObject(const QJsonValue &v, const QString &path, QStringList *errors)
{
    if (v.isObject())
        return true;
    errors->append(QCoreApplication::translate("scenario", "%1: %2, got %3")
                       .arg(path, QCoreApplication::translate("scenario", "expected an object"), scenario::detail::describe(v)));
    return false;
}

constexpr qint64 MaxMicroseconds = 1000LL * 1000 * 1000 * 1000 * 1000; // 11.6 days: any check ends sooner
constexpr int MaxTextChars = 64 * 1024;

CheckExchange readExchange(const QJsonObject &object, const QString &path, QStringList *errors)
{
    CheckExchange e;
    ObjectReader r(errors, object, path);
    for (const char *key : {"sentUs", "status"})
        required(r, key);
    r.integer("batch", 0, CheckReport::MaxExchanges, &e.batch);
    QString text;
    optionalText(r, "key", MaxTextChars, &text);
    e.key = text.toUtf8();
    r.boolean("otherBody", &e.otherBody);
    int fault = 0;
    if (r.choiceIndex("fault", namesOf<CheckFault>(3, &faultName), &fault))
        e.fault = CheckFault(fault);
    wholeNumber(r, "sentUs", 0, MaxMicroseconds, &e.sentUs);
    wholeNumber(r, "answeredUs", -1, MaxMicroseconds, &e.answeredUs);
    r.integer("status", 0, 999, &e.status);
    r.string("error", MaxTextChars, &e.error);
    r.boolean("connectFailed", &e.connectFailed);
    text.clear();
    r.string("location", MaxTextChars, &text);
    e.location = text.toUtf8();
    r.boolean("replayed", &e.replayedHeader);
    optionalText(r, "resource", MaxTextChars, &e.resource);
    r.string("problemType", MaxTextChars, &e.problemType);
    r.integer("upstreamStatus", 0, 999, &e.upstreamStatus);
    optionalText(r, "upstreamResource", MaxTextChars, &e.upstreamResource);
    wholeNumber(r, "upstreamAnsweredUs", -1, MaxMicroseconds, &e.upstreamAnsweredUs);
    text.clear();
    r.string("body", MaxTextChars, &text);
    e.body = text.toUtf8().left(CheckExchange::MaxBodyBytes);
    return e;
}

ProbeObservation readObservation(const QJsonObject &object, const QString &path, Probe probe, QStringList *errors)
{
    ProbeObservation o;
    o.probe = probe;
    ObjectReader r(errors, object, path);
    required(r, "exchanges");
    r.integer("round", 1, CheckReport::MaxRounds, &o.round);
    wholeNumber(r, "startUs", 0, MaxMicroseconds, &o.startUs);
    r.boolean("bodyVaries", &o.bodyVaries);
    wholeNumber(r, "countBefore", 0, std::numeric_limits<int>::max(), &o.countBefore);
    wholeNumber(r, "countAfter", 0, std::numeric_limits<int>::max(), &o.countAfter);
    QJsonArray exchanges;
    if (r.array("exchanges", &exchanges) && r.withinCap("exchanges", exchanges.size(), CheckReport::MaxExchanges)) {
        for (int i = 0; i < exchanges.size(); ++i) {
            const QString at = r.pathOf(QStringLiteral("exchanges[%1]").arg(i));
            if (isObject(exchanges.at(i), at, errors))
                o.exchanges << readExchange(exchanges.at(i).toObject(), at, errors);
        }
    }
    return o;
}

// One probe's verdict and its rounds.
void readProbe(const QJsonObject &object, const QString &path, CheckReport *out, QStringList *errors)
{
    ProbeVerdict v;
    ObjectReader r(errors, object, path);
    for (const char *key : {"probe", "verdict", "finding", "rounds"})
        required(r, key);
    int index = 0;
    if (r.choiceIndex("probe", namesOf<Probe>(ProbeCount, &probeName), &index)) {
        v.probe = Probe(index);
        for (const ProbeVerdict &earlier : std::as_const(out->card)) {
            if (earlier.probe == v.probe)
                errors->append(QCoreApplication::translate("check", "%1: \"%2\" comes twice").arg(r.pathOf(QStringLiteral("probe")), probeName(v.probe)));
        }
    }
    if (r.choiceIndex("verdict", namesOf<Verdict>(int(Verdict::Fail) + 1, &verdictName), &index))
        v.verdict = Verdict(index);
    if (r.choiceIndex("finding", namesOf<Finding>(int(Finding::RetryFailed) + 1, &findingName), &index))
        v.finding = Finding(index);
    r.integer("creations", -1, CheckReport::MaxExchanges, &v.creations);
    r.string("problemType", MaxTextChars, &v.problemType);
    QJsonArray list;
    if (r.array("statuses", &list) && r.withinCap("statuses", list.size(), CheckReport::MaxExchanges)) {
        for (const QJsonValue &s : std::as_const(list))
            v.statuses << s.toInt();
    }
    if (r.array("resources", &list) && r.withinCap("resources", list.size(), CheckReport::MaxExchanges)) {
        for (const QJsonValue &s : std::as_const(list))
            v.resources << s.toString();
    }
    QList<ProbeObservation> rounds;
    if (r.array("rounds", &list) && r.withinCap("rounds", list.size(), CheckReport::MaxRounds)) {
        for (int i = 0; i < list.size(); ++i) {
            const QString at = r.pathOf(QStringLiteral("rounds[%1]").arg(i));
            if (isObject(list.at(i), at, errors))
                rounds << readObservation(list.at(i).toObject(), at, v.probe, errors);
        }
    }
    // The round that gave the verdict is one of the rounds.
    r.integer("round", 1, std::max(1, int(rounds.size())), &v.round);
    out->card << v;
    out->rounds << rounds;
}

void readTop(const QJsonObject &object, CheckReport *out, QStringList *errors)
{
    ObjectReader r(errors, object, QString());
    // What the file is, first: anything else would be a list of complaints about a scenario or a lesson.
    const QJsonValue format = r.take("format");
    if (format.toString() != QLatin1String(FormatName)) {
        errors->append(QCoreApplication::translate("check", "format: expected \"%1\" (a report of retrylab check --save), got %2")
                           .arg(QLatin1String(FormatName), format.isUndefined() ? QCoreApplication::translate("check", "nothing")
                                                                                : scenario::detail::describe(format)));
        for (auto it = object.begin(); it != object.end(); ++it)
            r.take(it.key().toLatin1().constData()); // no unknown-key noise under that error
        return;
    }
    int version = 0;
    required(r, "version");
    r.integer("version", 1, 1000000, &version);
    if (version > CheckReport::Version) {
        errors->append(QCoreApplication::translate("check", "version: %1 is newer than this RetryLab reads (%2)").arg(version).arg(CheckReport::Version));
        for (auto it = object.begin(); it != object.end(); ++it)
            r.take(it.key().toLatin1().constData());
        return;
    }
    required(r, "probes");
    r.string("url", MaxTextChars, &out->url);
    r.integer("rounds", 1, CheckReport::MaxRounds, &out->roundsAsked);
    r.integer("concurrency", 2, CheckReport::MaxExchanges, &out->concurrency);
    r.integer("timeoutMs", 1, 600000, &out->timeoutMs);
    r.string("idField", MaxTextChars, &out->idField);
    r.string("list", MaxTextChars, &out->listUrl);
    r.string("listError", MaxTextChars, &out->listError);
    int exitStatus = 0;
    r.integer("exitStatus", 0, 2, &exitStatus);
    QJsonArray probes;
    if (r.array("probes", &probes) && r.withinCap("probes", probes.size(), ProbeCount)) {
        for (int i = 0; i < probes.size(); ++i) {
            const QString at = QStringLiteral("probes[%1]").arg(i);
            if (isObject(probes.at(i), at, errors))
                readProbe(probes.at(i).toObject(), at, out, errors);
        }
    }
}

} // namespace

QStringList readReport(const QByteArray &json, const QString &source, CheckReport *out)
{
    const QString prefix = source.isEmpty() ? QString() : source + QStringLiteral(": ");
    QStringList errors;
    if (json.size() > MaxReportBytes)
        return {prefix + QCoreApplication::translate("check", "the file is larger than %1 bytes, the most a check report may hold").arg(MaxReportBytes)};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return {prefix + QCoreApplication::translate("check", "malformed JSON at byte %1: %2").arg(parseError.offset).arg(parseError.errorString())};
    if (!doc.isObject())
        return {prefix + QCoreApplication::translate("scenario", "expected a JSON object at the top level")};
    CheckReport report;
    readTop(doc.object(), &report, &errors);
    scenario::detail::capErrors(&errors);
    for (QString &e : errors)
        e.prepend(prefix);
    if (errors.isEmpty())
        *out = report;
    return errors;
}

QStringList loadReport(const QString &fileName, CheckReport *out)
{
    const QFileInfo info(fileName);
    // Opening a FIFO blocks until someone writes to it: only regular files are read.
    if (info.exists() && !info.isFile())
        return {QCoreApplication::translate("check", "%1: not a regular file").arg(fileName)};
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly))
        return {QCoreApplication::translate("check", "cannot read check report \"%1\": %2").arg(fileName, file.errorString())};
    return readReport(file.read(MaxReportBytes + 1), fileName, out);
}

} // namespace check
} // namespace retrylab
