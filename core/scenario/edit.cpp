#include "scenario.h"
#include "scenario/echo.h"
#include "scenario/json.h"
#include "scenario/schema.h"
#include "scenariovisit.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <algorithm>

// Editing a scenario by dotted paths: --set, the editor's withValue, valueAt, and "did you mean".
namespace retrylab::scenario {

using namespace detail;

namespace {

// Keys a file may give that a scenario is not written with: tenacity's names of a backoff.
bool isInputAlias(const QString &path)
{
    for (const FieldSpec &f : schema()) {
        if (f.role == Role::Alias && (path == f.path || path.startsWith(f.path + QLatin1Char('.'))))
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
                child = scriptEntryJson(ScriptEntry());
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

QString lastSegment(const QString &path)
{
    return path.mid(path.lastIndexOf(QLatin1Char('.')) + 1);
}

} // namespace

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

} // namespace retrylab::scenario
