#include "lesson.h"

#include "story.h"
#include "trace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {

// Teaching order of the built-in lessons; any other lesson file sorts after them by name.
const char *const LessonOrder[] = {
    "timeout-is-not-failure", "nested-layers",     "urllib3-post",       "where-the-key-is-minted",
    "new-key-on-retry",       "payload-fingerprint", "concurrent-race",  "key-expiry",
    "key-store-restart",      "single-use-tokens", "request-ids",        "query-before-retry",
    "reconciliation",         "retry-storms",      "jitter-and-budgets", "your-own-client",
};

QString describe(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    case QJsonValue::String: {
        QString s = v.toString();
        if (s.size() > scenario::MaxEchoChars)
            s = s.left(scenario::MaxEchoChars) + QStringLiteral("...");
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

// Reads one object key by key; reports keys nobody asked for when it goes out of scope.
class Reader
{
public:
    Reader(QStringList *errors, const QJsonObject &object, const QString &path)
        : m_errors(errors), m_object(object), m_path(path)
    {
    }
    ~Reader()
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it)
            if (!m_known.contains(it.key()))
                m_errors->append(QStringLiteral("%1: unknown key").arg(pathOf(it.key())));
    }
    Reader(const Reader &) = delete;
    Reader &operator=(const Reader &) = delete;

    QString pathOf(const QString &key) const
    {
        return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
    }
    void error(const QString &key, const QString &rule, const QJsonValue &got)
    {
        m_errors->append(QStringLiteral("%1: %2, got %3").arg(pathOf(key), rule, describe(got)));
    }
    void missing(const QString &key) { m_errors->append(QStringLiteral("%1: required").arg(pathOf(key))); }
    QJsonValue take(const char *key)
    {
        m_known.append(QLatin1String(key));
        return m_object.value(QLatin1String(key));
    }
    bool has(const char *key) const { return m_object.contains(QLatin1String(key)); }

    // A non-empty string of at most maxChars characters; false when absent or wrong.
    bool text(const char *key, int maxChars, QString *out, bool required = true)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined()) {
            if (required)
                missing(QLatin1String(key));
            return false;
        }
        if (!v.isString() || v.toString().trimmed().isEmpty()) {
            error(QLatin1String(key), QStringLiteral("expected a non-empty string"), v);
            return false;
        }
        if (v.toString().size() > maxChars) {
            m_errors->append(QStringLiteral("%1: longer than %2 characters").arg(pathOf(QLatin1String(key))).arg(maxChars));
            return false;
        }
        *out = v.toString();
        return true;
    }
    bool number(const char *key, double *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return false;
        if (!v.isDouble()) {
            error(QLatin1String(key), QStringLiteral("expected a number"), v);
            return false;
        }
        *out = v.toDouble();
        return true;
    }
    QStringList *errors() const { return m_errors; }
    const QString &path() const { return m_path; }

private:
    QStringList *m_errors;
    QJsonObject m_object;
    QString m_path;
    QStringList m_known;
};

bool isFieldPath(const QString &path)
{
    if (path == QLatin1String("seed"))
        return true;
    static const QStringList paths = [] {
        QStringList out;
        for (const FieldInfo &f : scenario::fields())
            out << f.path;
        return out;
    }();
    if (paths.contains(path))
        return true;
    // network.script[N]... is catalogued as "[N]".
    QString generic = path;
    generic.replace(QRegularExpression(QStringLiteral("\\[\\d+\\]")), QStringLiteral("[N]"));
    return paths.contains(generic);
}

// "path=value" for scenario::withSets: the value as JSON, strings quoted so "true" stays a string.
QString assignment(const QString &path, const QJsonValue &value)
{
    QJsonArray wrap{value};
    QByteArray json = QJsonDocument(wrap).toJson(QJsonDocument::Compact);
    json = json.mid(1, json.size() - 2); // strip the array brackets
    return path + QLatin1Char('=') + QString::fromUtf8(json);
}

void readQuestion(Reader &step, LessonQuestion *q)
{
    const QJsonValue v = step.take("question");
    if (v.isUndefined())
        return;
    if (!v.isObject()) {
        step.error(QStringLiteral("question"), QStringLiteral("expected an object"), v);
        return;
    }
    Reader r(step.errors(), v.toObject(), step.pathOf(QStringLiteral("question")));
    r.text("text", lesson::MaxTextChars, &q->text);
    const QJsonValue kind = r.take("kind");
    if (kind == QJsonValue(QStringLiteral("number")))
        q->kind = LessonQuestion::Kind::Number;
    else if (kind == QJsonValue(QStringLiteral("choice")))
        q->kind = LessonQuestion::Kind::Choice;
    else if (kind.isUndefined())
        r.missing(QStringLiteral("kind"));
    else
        r.error(QStringLiteral("kind"), QStringLiteral("expected \"number\" or \"choice\""), kind);
    const QJsonValue metric = r.take("metric");
    if (metric.isUndefined())
        r.missing(QStringLiteral("metric"));
    else if (!metric.isString() || !lesson::metricNames().contains(metric.toString()))
        r.error(QStringLiteral("metric"), QStringLiteral("expected a metric name (%1)").arg(lesson::metricNames().join(QStringLiteral(", "))),
                metric);
    else
        q->metric = metric.toString();

    const QJsonValue choices = r.take("choices");
    const QJsonValue answer = r.take("answer");
    if (answer.isUndefined())
        r.missing(QStringLiteral("answer"));
    if (q->kind == LessonQuestion::Kind::Number) {
        if (!choices.isUndefined())
            r.error(QStringLiteral("choices"), QStringLiteral("only a choice question has choices"), choices);
        if (!answer.isUndefined() && !answer.isDouble())
            r.error(QStringLiteral("answer"), QStringLiteral("expected a number"), answer);
        q->answer = answer.toDouble();
        return;
    }
    if (q->kind != LessonQuestion::Kind::Choice)
        return;
    if (!choices.isArray() || choices.toArray().size() < 2 || choices.toArray().size() > lesson::MaxChoices) {
        r.error(QStringLiteral("choices"), QStringLiteral("expected an array of 2 to %1 choices").arg(lesson::MaxChoices),
                choices);
        return;
    }
    const QJsonArray list = choices.toArray();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = r.pathOf(QStringLiteral("choices[%1]").arg(i));
        if (!list.at(i).isObject()) {
            r.errors()->append(QStringLiteral("%1: expected an object {\"text\", \"value\" or \"min\"/\"max\"/\"above\"/\"below\"}, got %2")
                                   .arg(path, describe(list.at(i))));
            continue;
        }
        Reader c(r.errors(), list.at(i).toObject(), path);
        LessonChoice choice;
        c.text("text", lesson::MaxTextChars, &choice.text);
        double value = 0;
        if (c.number("value", &value)) {
            choice.min = choice.max = value;
            if (c.has("min") || c.has("max") || c.has("above") || c.has("below"))
                r.errors()->append(QStringLiteral("%1: \"value\" and a range exclude each other").arg(path));
        }
        c.number("min", &choice.min);
        c.number("max", &choice.max);
        c.number("above", &choice.above);
        c.number("below", &choice.below);
        if (choice.bounds().isEmpty())
            r.errors()->append(QStringLiteral("%1: needs \"value\", \"min\", \"max\", \"above\" or \"below\": the metric's "
                                              "values that select it")
                                   .arg(path));
        q->choices << choice;
    }
    if (!answer.isUndefined()) {
        const double a = answer.toDouble();
        if (!answer.isDouble() || std::floor(a) != a || a < 0 || a >= list.size())
            r.error(QStringLiteral("answer"), QStringLiteral("expected the index of a choice, 0 to %1").arg(list.size() - 1),
                    answer);
        else
            q->answerChoice = int(a);
    }
}

void readHighlight(Reader &step, LessonHighlight *h)
{
    const QJsonValue v = step.take("highlight");
    if (v.isUndefined())
        return;
    const QJsonObject o = v.toObject();
    const int chart = o.contains(QLatin1String("chart")) ? 1 : 0;
    if (!v.isObject() || o.size() < 1 || o.size() > 1 + chart) {
        step.error(QStringLiteral("highlight"),
                   QStringLiteral("expected one of {\"control\": path}, {\"lane\": name}, {\"event\": kind}, "
                                  "each with an optional \"chart\": name, or {\"chart\": name}"),
                   v);
        return;
    }
    Reader r(step.errors(), o, step.pathOf(QStringLiteral("highlight")));
    QString target;
    if (chart && r.text("chart", 200, &target)) {
        if (!lesson::chartNames().contains(target))
            r.error(QStringLiteral("chart"),
                    QStringLiteral("expected a chart (%1)").arg(lesson::chartNames().join(QStringLiteral(", "))), target);
        else
            h->chart = target;
    }
    if (r.has("control")) {
        if (r.text("control", 200, &target)) {
            if (!isFieldPath(target))
                r.error(QStringLiteral("control"), QStringLiteral("expected a scenario field path"), target);
            h->kind = LessonHighlight::Kind::Control;
            h->target = target;
        }
    } else if (r.has("lane")) {
        Lane lane;
        if (r.text("lane", 200, &target)) {
            if (!trace::laneFromName(target, &lane))
                r.error(QStringLiteral("lane"), QStringLiteral("expected a lane (business, wrapper, transport, network, "
                                                               "server, database)"),
                        target);
            h->kind = LessonHighlight::Kind::Lane;
            h->target = target;
        }
    } else if (r.has("event")) {
        EventKind kind;
        if (r.text("event", 200, &target)) {
            if (!trace::kindFromName(target, &kind))
                r.error(QStringLiteral("event"), QStringLiteral("expected an event kind"), target);
            h->kind = LessonHighlight::Kind::Event;
            h->target = target;
        }
    }
}

void readStep(Reader &step, const LessonStep *previous, LessonStep *out)
{
    QStringList *errors = step.errors();
    step.text("title", lesson::MaxTitleChars, &out->title);
    step.text("watch", lesson::MaxTextChars, &out->watch);
    step.text("reveal", lesson::MaxTextChars, &out->reveal, false);

    // The scenario: a preset, an inline object, or the previous step's.
    bool haveScenario = false;
    const QJsonValue sc = step.take("scenario");
    if (sc.isString()) {
        const ScenarioParse p = scenario::preset(sc.toString());
        if (p.ok()) {
            out->scenario = p.scenario;
            out->scenarioSource = sc.toString();
            haveScenario = true;
        } else {
            step.error(QStringLiteral("scenario"),
                       QStringLiteral("expected a preset name (%1)").arg(scenario::presetNames().join(QStringLiteral(", "))),
                       sc);
        }
    } else if (sc.isObject()) {
        const ScenarioParse p = scenario::fromJson(sc.toObject());
        for (const QString &e : p.errors)
            errors->append(step.pathOf(QStringLiteral("scenario.")) + e);
        if (p.ok()) {
            out->scenario = p.scenario;
            out->scenarioSource = QStringLiteral("inline");
            haveScenario = true;
        }
    } else if (!sc.isUndefined()) {
        step.error(QStringLiteral("scenario"), QStringLiteral("expected a preset name or a scenario object"), sc);
    } else if (previous) {
        out->scenario = previous->scenario;
        out->scenarioSource = QStringLiteral("inherited");
        haveScenario = true;
    } else {
        errors->append(step.pathOf(QStringLiteral("scenario")) + QStringLiteral(": required in the first step"));
    }

    const QJsonValue set = step.take("set");
    if (set.isObject()) {
        const QJsonObject o = set.toObject();
        if (o.size() > lesson::MaxSets)
            step.error(QStringLiteral("set"), QStringLiteral("expected at most %1 fields").arg(lesson::MaxSets), set);
        else
            for (auto it = o.begin(); it != o.end(); ++it)
                out->sets << assignment(it.key(), it.value());
    } else if (!set.isUndefined()) {
        step.error(QStringLiteral("set"), QStringLiteral("expected an object {\"field.path\": value}"), set);
    }
    if (haveScenario && !out->sets.isEmpty()) {
        const ScenarioParse p = scenario::withSets(out->scenario, out->sets);
        for (const QString &e : p.errors)
            errors->append(step.pathOf(QStringLiteral("set: ")) + e);
        if (p.ok())
            out->scenario = p.scenario;
    }
    const QJsonValue seed = step.take("seed");
    if (!seed.isUndefined()) {
        const double d = seed.toDouble();
        if (!seed.isDouble() || std::floor(d) != d || d < 0 || d > 9007199254740992.0)
            step.error(QStringLiteral("seed"), QStringLiteral("expected a non-negative integer up to 2^53"), seed);
        else
            out->scenario.seed = quint64(d);
    }

    const QJsonValue op = step.take("operation");
    if (op.isDouble()) {
        const double d = op.toDouble();
        if (std::floor(d) != d || d < 1 || d > out->scenario.workload.operations())
            step.error(QStringLiteral("operation"),
                       QStringLiteral("expected \"story\" or an operation from 1 to %1").arg(out->scenario.workload.operations()), op);
        else
            out->operation = int(d);
    } else if (!op.isUndefined() && op != QJsonValue(QStringLiteral("story"))) {
        step.error(QStringLiteral("operation"), QStringLiteral("expected \"story\" or an operation number"), op);
    }

    readHighlight(step, &out->highlight);
    readQuestion(step, &out->question);

    const QJsonValue facts = step.take("facts");
    if (facts.isObject()) {
        const QJsonObject o = facts.toObject();
        if (o.size() > lesson::MaxFacts)
            step.error(QStringLiteral("facts"), QStringLiteral("expected at most %1 facts").arg(lesson::MaxFacts), facts);
        const QStringList metrics = lesson::metricNames();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString path = step.pathOf(QStringLiteral("facts.") + it.key());
            if (!it.value().isDouble())
                errors->append(QStringLiteral("%1: expected a number, got %2").arg(path, describe(it.value())));
            else if (it.key() != QLatin1String("operation") && !metrics.contains(it.key()) && !isFieldPath(it.key()))
                errors->append(QStringLiteral("%1: expected a metric name, a scenario field path or \"operation\"").arg(path));
            else
                out->facts.insert(it.key(), it.value().toDouble());
        }
    } else if (!facts.isUndefined()) {
        step.error(QStringLiteral("facts"), QStringLiteral("expected an object {\"metric or field\": number}"), facts);
    }
}

LessonParse readLesson(const QJsonObject &object)
{
    LessonParse result;
    Lesson &l = result.lesson;
    QStringList *errors = &result.errors;
    Reader root(errors, object, QString());
    const QJsonValue schema = root.take("schema");
    if (!schema.isUndefined() && schema != QJsonValue(1))
        root.error(QStringLiteral("schema"), QStringLiteral("expected 1 (the only lesson schema this build reads)"), schema);
    if (root.text("name", lesson::MaxNameChars, &l.name)
        && !QRegularExpression(QStringLiteral("^[a-z0-9][a-z0-9-]*$")).match(l.name).hasMatch())
        root.error(QStringLiteral("name"), QStringLiteral("expected lower-case letters, digits and dashes"), l.name);
    root.text("title", lesson::MaxTitleChars, &l.title);
    root.text("summary", lesson::MaxSummaryChars, &l.summary);
    const QJsonValue steps = root.take("steps");
    if (!steps.isArray() || steps.toArray().isEmpty() || steps.toArray().size() > lesson::MaxSteps) {
        root.error(QStringLiteral("steps"), QStringLiteral("expected an array of 1 to %1 steps").arg(lesson::MaxSteps), steps);
        return result;
    }
    const QJsonArray list = steps.toArray();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = QStringLiteral("steps[%1]").arg(i);
        if (!list.at(i).isObject()) {
            errors->append(QStringLiteral("%1: expected an object, got %2").arg(path, describe(list.at(i))));
            continue;
        }
        LessonStep step;
        {
            Reader r(errors, list.at(i).toObject(), path);
            readStep(r, l.steps.isEmpty() ? nullptr : &l.steps.constLast(), &step);
        }
        l.steps << step;
    }
    return result;
}

} // namespace

bool LessonChoice::holds(double v) const
{
    if (!std::isnan(min) && v < min)
        return false;
    if (!std::isnan(max) && v > max)
        return false;
    if (!std::isnan(above) && v <= above)
        return false;
    if (!std::isnan(below) && v >= below)
        return false;
    return true;
}

QList<double> LessonChoice::bounds() const
{
    QList<double> out;
    for (double d : {min, max, above, below})
        if (!std::isnan(d) && !out.contains(d))
            out << d;
    return out;
}

namespace lesson {

LessonParse fromJson(const QJsonObject &object)
{
    LessonParse result = readLesson(object);
    if (result.errors.size() > scenario::MaxReportedErrors) {
        const qsizetype more = result.errors.size() - scenario::MaxReportedErrors;
        result.errors.erase(result.errors.begin() + scenario::MaxReportedErrors, result.errors.end());
        result.errors << (more == 1 ? QStringLiteral("and 1 more error") : QStringLiteral("and %1 more errors").arg(more));
    }
    return result;
}

LessonParse fromJsonBytes(const QByteArray &bytes, const QString &source)
{
    const QString prefix = source.isEmpty() ? QString() : source + QStringLiteral(": ");
    LessonParse refused;
    if (bytes.size() > MaxFileBytes) {
        refused.errors << prefix + QStringLiteral("the file is larger than %1 bytes, the most a lesson file may hold").arg(MaxFileBytes);
        return refused;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        refused.errors << prefix + QStringLiteral("malformed JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return refused;
    }
    if (!doc.isObject()) {
        refused.errors << prefix + QStringLiteral("expected a JSON object at the top level");
        return refused;
    }
    LessonParse parsed = fromJson(doc.object());
    for (QString &e : parsed.errors)
        e.prepend(prefix);
    return parsed;
}

LessonParse load(const QString &fileName)
{
    // Opening a FIFO blocks until someone writes to it: only regular files are read.
    if (const QFileInfo info(fileName); info.exists() && !info.isFile()) {
        LessonParse result;
        result.errors << QStringLiteral("\"%1\" is not a regular lesson file (a directory, a FIFO or a device)")
                             .arg(scenario::printable(fileName));
        return result;
    }
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly)) {
        LessonParse result;
        result.errors << QStringLiteral("cannot read lesson file \"%1\": %2").arg(scenario::printable(fileName), file.errorString());
        return result;
    }
    return fromJsonBytes(file.read(MaxFileBytes + 1), fileName);
}

QStringList builtinNames()
{
    const QDir dir(QStringLiteral(":/lessons"));
    QStringList names;
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files))
        names << info.completeBaseName();
    auto rank = [](const QString &name) {
        for (int i = 0; i < int(std::size(LessonOrder)); ++i)
            if (name == QLatin1String(LessonOrder[i]))
                return i;
        return int(std::size(LessonOrder));
    };
    std::sort(names.begin(), names.end(), [&](const QString &a, const QString &b) {
        const int ra = rank(a), rb = rank(b);
        return ra != rb ? ra < rb : a < b;
    });
    return names;
}

LessonParse builtin(const QString &name)
{
    const QString fileName = QStringLiteral(":/lessons/%1.json").arg(name);
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || !QFile::exists(fileName)) {
        LessonParse result;
        result.errors << QStringLiteral("unknown lesson \"%1\"; available lessons: %2")
                             .arg(scenario::printable(name), builtinNames().join(QStringLiteral(", ")));
        return result;
    }
    return load(fileName);
}

LessonParse resolve(const QString &nameOrFile)
{
    if (!nameOrFile.contains(QLatin1Char('/')) && !nameOrFile.endsWith(QLatin1String(".json")))
        return builtin(nameOrFile);
    return load(nameOrFile);
}

QStringList chartNames()
{
    // The chart tabs of the window (ui/charts/chartspanel.h) that show one run; a sweep runs many.
    return {QStringLiteral("duplicates"), QStringLiteral("whatIf"), QStringLiteral("attempts"), QStringLiteral("load")};
}

QStringList metricNames()
{
    static const QStringList names = [] {
        QStringList out;
        for (const auto &p : Metrics().flat())
            out << p.first;
        out << QStringLiteral("op.attempts") << QStringLiteral("op.records") << QStringLiteral("op.submissions");
        return out;
    }();
    return names;
}

bool metricValue(const RunResult &run, int op, const QString &name, double *value)
{
    if (name.startsWith(QLatin1String("op."))) {
        if (op < 1 || op > run.ops.size())
            return false;
        const OpSummary &s = run.ops.at(op - 1);
        if (name == QLatin1String("op.attempts"))
            *value = s.attempts;
        else if (name == QLatin1String("op.records"))
            *value = s.records;
        else if (name == QLatin1String("op.submissions"))
            *value = s.submissions;
        else
            return false;
        return true;
    }
    for (const auto &p : run.metrics.flat()) {
        if (p.first == name) {
            *value = p.second;
            return true;
        }
    }
    return false;
}

bool needsOperations(const LessonStep &step)
{
    if (step.question.metric.startsWith(QLatin1String("op.")))
        return true;
    for (auto it = step.facts.begin(); it != step.facts.end(); ++it)
        if (it.key().startsWith(QLatin1String("op.")) || it.key() == QLatin1String("operation"))
            return true;
    return false;
}

int shownOperation(const LessonStep &step, const RunResult &run)
{
    return step.operation > 0 ? step.operation : storyOperation(run);
}

int selectedChoice(const LessonQuestion &q, double value)
{
    int found = -1;
    for (int i = 0; i < q.choices.size(); ++i) {
        if (q.choices.at(i).holds(value)) {
            if (found >= 0)
                return -1;
            found = i;
        }
    }
    return found;
}

QStringList translatableTexts(const Lesson &lesson)
{
    QStringList out;
    const auto add = [&out](const QString &t) {
        if (!t.isEmpty() && !out.contains(t))
            out << t;
    };
    add(lesson.title);
    add(lesson.summary);
    for (const LessonStep &s : lesson.steps) {
        add(s.title);
        add(s.watch);
        add(s.question.text);
        for (const LessonChoice &c : s.question.choices)
            add(c.text);
        add(s.reveal);
    }
    return out;
}

} // namespace lesson

} // namespace retrylab
