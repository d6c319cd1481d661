// Guided lessons: the format's validation, and the rule that no lesson can state a wrong number.
// Every lesson step is simulated; its question's answer must be the metric it names, and every
// number in its texts must be a fact checked against the run or the step's scenario (or one of the
// few non-result numbers in NonResultNumbers below).
//
// Authoring aid: RETRYLAB_LESSON_DUMP=1 prints every metric of every step's run.
#include "i18n.h"
#include "lesson.h"
#include "story.h"

#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTranslator>
#include <QTest>

#include <cmath>

using namespace retrylab;

namespace {

// Numbers a lesson may state that are no result and no setting of the simulation: HTTP status
// codes, and 8080, the port `retrylab serve` listens on by default (app/cli.cpp), which the lesson
// your-own-client gives with its commands.
const double NonResultNumbers[] = {200, 201, 400, 404, 409, 422, 429, 500, 502, 503, 504, 8080};

struct Number
{
    double value;
    QString text; // as written, for messages
};

// Every number written in a text: "20", "0.3", "3.1", the 3 of "ORD-0003". Digits glued to letters
// ("urllib3", "5xx", "b2/w1/t3") are names, not numbers.
QList<Number> numbersIn(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("(?<![A-Za-z0-9_.])(\\d+(?:\\.\\d+)?)(?![A-Za-z0-9_]|\\.\\d)"));
    QList<Number> out;
    for (auto it = re.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out.append({m.captured(1).toDouble(), m.captured(1)});
    }
    return out;
}

// A fact written as a text says it ("3.1", "34") against the exact value: equal once rounded to
// the fact's decimals.
bool matchesRounded(double fact, double actual)
{
    const QString written = QString::number(fact, 'g', 15);
    const int dot = int(written.indexOf(QLatin1Char('.')));
    const int decimals = dot < 0 ? 0 : int(written.size()) - dot - 1;
    const double scale = std::pow(10.0, decimals);
    return std::llround(actual * scale) == std::llround(fact * scale);
}

// A scenario field as a text says it: the value itself, seconds for a "...Ms" field, percent for
// a probability.
bool matchesField(const QString &path, double fact, double actual)
{
    if (fact == actual)
        return true;
    if (path.endsWith(QLatin1String("Ms")) && fact * 1000 == actual)
        return true;
    if (actual >= 0 && actual <= 1 && std::fabs(fact / 100 - actual) < 1e-9)
        return true;
    return false;
}

RunResult runStep(const LessonStep &step)
{
    RunOptions options;
    options.trace = lesson::needsOperations(step) || step.scenario.workload.operations() <= 200;
    return simulate(step.scenario, options);
}

QJsonObject minimalLesson()
{
    QJsonObject step{{QStringLiteral("title"), QStringLiteral("One")},
                     {QStringLiteral("scenario"), QStringLiteral("stable-key")},
                     {QStringLiteral("watch"), QStringLiteral("Watch.")}};
    return QJsonObject{{QStringLiteral("schema"), 1},
                       {QStringLiteral("name"), QStringLiteral("t")},
                       {QStringLiteral("title"), QStringLiteral("T")},
                       {QStringLiteral("summary"), QStringLiteral("S")},
                       {QStringLiteral("steps"), QJsonArray{step}}};
}

// The lesson with steps[0] changed by `edit`.
QStringList errorsWithStep(const std::function<void(QJsonObject &)> &edit)
{
    QJsonObject l = minimalLesson();
    QJsonArray steps = l.value(QStringLiteral("steps")).toArray();
    QJsonObject s = steps.at(0).toObject();
    edit(s);
    steps[0] = s;
    l[QStringLiteral("steps")] = steps;
    return lesson::fromJson(l).errors;
}

bool anyContains(const QStringList &errors, const QString &needle)
{
    for (const QString &e : errors)
        if (e.contains(needle))
            return true;
    return false;
}

} // namespace

class TestLessons : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void builtinLessons();
    void everyLessonLoads_data();
    void everyLessonLoads();
    void everyNumberIsChecked_data();
    void everyNumberIsChecked();
    void inheritance();
    void errorsNameTheFieldPath();
    void limits();
    void choiceRanges();
    void choiceAnswerIndexBoundary();
    void numbersInText();
    void factRounding();
    void translatableTexts();
    void loadFromFile();
};

void TestLessons::builtinLessons()
{
    const QStringList names = lesson::builtinNames();
    QVERIFY2(names.size() >= 14, qPrintable(names.join(QLatin1Char(' '))));
    QCOMPARE(names.first(), QStringLiteral("timeout-is-not-failure"));
    QVERIFY(!lesson::builtin(QStringLiteral("nope")).ok());
    QVERIFY(lesson::builtin(QStringLiteral("nope")).errors.first().contains(QLatin1String("timeout-is-not-failure")));
}

void TestLessons::everyLessonLoads_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &n : lesson::builtinNames())
        QTest::addRow("%s", qPrintable(n)) << n;
}

void TestLessons::everyLessonLoads()
{
    QFETCH(QString, name);
    const LessonParse p = lesson::builtin(name);
    QVERIFY2(p.ok(), qPrintable(p.errors.join(QLatin1Char('\n'))));
    const Lesson &l = p.lesson;
    QCOMPARE(l.name, name);
    QVERIFY2(l.steps.size() >= 3 && l.steps.size() <= 6, qPrintable(QString::number(l.steps.size())));
    int questions = 0;
    for (const LessonStep &s : l.steps) {
        questions += s.question.kind != LessonQuestion::Kind::None;
        // "One or two sentences per watch": a class reads it at a glance.
        const int sentences = int(s.watch.count(QRegularExpression(QStringLiteral("[.!?](\\s|$)"))));
        QVERIFY2(sentences >= 1 && sentences <= 2, qPrintable(s.watch));
    }
    // Most steps ask the class to predict.
    QVERIFY2(questions * 2 >= l.steps.size(), qPrintable(QString::number(questions)));
}

void TestLessons::everyNumberIsChecked_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("step");
    for (const QString &n : lesson::builtinNames()) {
        const LessonParse p = lesson::builtin(n);
        for (int i = 0; i < p.lesson.steps.size(); ++i)
            QTest::addRow("%s-%d", qPrintable(n), i + 1) << n << i;
    }
}

void TestLessons::everyNumberIsChecked()
{
    QFETCH(QString, name);
    QFETCH(int, step);
    const LessonParse p = lesson::builtin(name);
    QVERIFY2(p.ok(), qPrintable(p.errors.join(QLatin1Char('\n'))));
    const LessonStep &s = p.lesson.steps.at(step);
    const RunResult run = runStep(s);
    QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
    QCOMPARE(run.metrics.lost, 0);
    const int op = lesson::shownOperation(s, run);

    if (qEnvironmentVariableIsSet("RETRYLAB_LESSON_DUMP")) {
        QString dump = QStringLiteral("%1 step %2 (op %3):").arg(name).arg(step + 1).arg(op);
        for (const QString &m : lesson::metricNames()) {
            double v = 0;
            if (lesson::metricValue(run, op, m, &v) && v != 0)
                dump += QStringLiteral(" %1=%2").arg(m).arg(v);
        }
        qInfo("%s", qPrintable(dump));
    }

    // The question's answer is the metric it names.
    const LessonQuestion &q = s.question;
    if (q.kind != LessonQuestion::Kind::None) {
        double actual = 0;
        QVERIFY2(lesson::metricValue(run, op, q.metric, &actual), qPrintable(q.metric));
        if (q.kind == LessonQuestion::Kind::Number) {
            QVERIFY2(matchesRounded(q.answer, actual),
                     qPrintable(QStringLiteral("answer %1, but %2 = %3").arg(q.answer).arg(q.metric).arg(actual)));
        } else {
            QVERIFY2(lesson::selectedChoice(q, actual) == q.answerChoice,
                     qPrintable(QStringLiteral("answer choice %1, but %2 = %3 selects choice %4")
                                    .arg(q.answerChoice)
                                    .arg(q.metric)
                                    .arg(actual)
                                    .arg(lesson::selectedChoice(q, actual))));
        }
    }

    // Every fact holds.
    for (auto it = s.facts.begin(); it != s.facts.end(); ++it) {
        const QString &key = it.key();
        double actual = 0;
        bool ok = false;
        if (key == QLatin1String("operation")) {
            ok = it.value() == op;
            actual = op;
        } else if (lesson::metricValue(run, op, key, &actual)) {
            ok = matchesRounded(it.value(), actual);
        } else {
            const QJsonValue v = key == QLatin1String("seed") ? QJsonValue(double(s.scenario.seed))
                                                             : scenario::valueAt(s.scenario, key);
            QVERIFY2(v.isDouble(), qPrintable(key));
            actual = v.toDouble();
            ok = matchesField(key, it.value(), actual);
        }
        QVERIFY2(ok, qPrintable(QStringLiteral("fact %1 = %2, but the step has %3").arg(key).arg(it.value()).arg(actual)));
    }

    // Every number the step's texts state is a fact, the answer, or a choice's own bound.
    QList<double> known(std::begin(NonResultNumbers), std::end(NonResultNumbers));
    for (double v : s.facts)
        known << v;
    if (q.kind == LessonQuestion::Kind::Number)
        known << q.answer;
    QStringList texts{s.title, s.watch, q.text, s.reveal};
    if (step == 0)
        texts << p.lesson.title << p.lesson.summary;
    for (const QString &text : std::as_const(texts))
        for (const Number &n : numbersIn(text))
            QVERIFY2(known.contains(n.value),
                     qPrintable(QStringLiteral("\"%1\" in \"%2\" is no fact of the step").arg(n.text, text)));
    for (const LessonChoice &c : q.choices)
        for (const Number &n : numbersIn(c.text))
            QVERIFY2(known.contains(n.value) || c.bounds().contains(n.value),
                     qPrintable(QStringLiteral("\"%1\" in choice \"%2\" is neither a fact nor its bound").arg(n.text, c.text)));
}

void TestLessons::inheritance()
{
    QJsonObject l = minimalLesson();
    QJsonArray steps = l.value(QStringLiteral("steps")).toArray();
    QJsonObject first = steps.at(0).toObject();
    first[QStringLiteral("set")] = QJsonObject{{QStringLiteral("workload.orders"), 4}};
    first[QStringLiteral("seed")] = 9;
    steps[0] = first;
    steps.append(QJsonObject{{QStringLiteral("title"), QStringLiteral("Two")},
                             {QStringLiteral("watch"), QStringLiteral("W.")},
                             {QStringLiteral("set"), QJsonObject{{QStringLiteral("client.keyPlacement"), QStringLiteral("none")}}},
                             {QStringLiteral("operation"), 2}});
    l[QStringLiteral("steps")] = steps;
    const LessonParse p = lesson::fromJson(l);
    QVERIFY2(p.ok(), qPrintable(p.errors.join(QLatin1Char('\n'))));
    const Scenario base = test::presetScenario(QStringLiteral("stable-key"));
    QCOMPARE(p.lesson.steps.at(0).scenario.workload.orders, 4);
    QCOMPARE(p.lesson.steps.at(0).scenario.seed, quint64(9));
    QCOMPARE(p.lesson.steps.at(0).scenario.client.keyPlacement, base.client.keyPlacement);
    QVERIFY(base.client.keyPlacement != KeyPlacement::None);
    // The second step keeps the first's set and seed and adds its own.
    const LessonStep &second = p.lesson.steps.at(1);
    QCOMPARE(second.scenarioSource, QStringLiteral("inherited"));
    QCOMPARE(second.scenario.workload.orders, 4);
    QCOMPARE(second.scenario.seed, quint64(9));
    QCOMPARE(second.scenario.client.keyPlacement, KeyPlacement::None);
    QCOMPARE(second.operation, 2);
    QCOMPARE(p.lesson.steps.at(0).operation, 0);
}

void TestLessons::errorsNameTheFieldPath()
{
    using Edit = std::function<void(QJsonObject &)>;
    const QList<QPair<Edit, QString>> cases = {
        {[](QJsonObject &s) { s[QStringLiteral("bogus")] = 1; }, QStringLiteral("steps[0].bogus: unknown key")},
        {[](QJsonObject &s) { s.remove(QStringLiteral("watch")); }, QStringLiteral("steps[0].watch: required")},
        {[](QJsonObject &s) { s[QStringLiteral("scenario")] = QStringLiteral("no-such"); },
         QStringLiteral("steps[0].scenario: expected a preset name")},
        {[](QJsonObject &s) { s[QStringLiteral("set")] = QJsonObject{{QStringLiteral("client.nope"), 1}}; },
         QStringLiteral("client.nope")},
        {[](QJsonObject &s) { s[QStringLiteral("set")] = QJsonObject{{QStringLiteral("workload.orders"), -3}}; },
         QStringLiteral("workload.orders")},
        {[](QJsonObject &s) { s[QStringLiteral("operation")] = 5; },
         QStringLiteral("steps[0].operation: expected \"story\" or an operation from 1 to 1")},
        {[](QJsonObject &s) { s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("lane"), QStringLiteral("kitchen")}}; },
         QStringLiteral("steps[0].highlight.lane: expected a lane")},
        {[](QJsonObject &s) { s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("control"), QStringLiteral("client.x")}}; },
         QStringLiteral("steps[0].highlight.control: expected a scenario field path")},
        {[](QJsonObject &s) { s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("event"), QStringLiteral("boom")}}; },
         QStringLiteral("steps[0].highlight.event: expected an event kind")},
        {[](QJsonObject &s) { s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("chart"), QStringLiteral("sweep")}}; },
         QStringLiteral("steps[0].highlight.chart: expected a chart (duplicates, whatIf, attempts, load), got \"sweep\"")},
        // A number is echoed whole (shortest round trip), never rounded to a value that was not written.
        {[](QJsonObject &s) { s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("chart"), 0.1 + 0.2}}; },
         QStringLiteral("steps[0].highlight.chart: expected a non-empty string, got 0.30000000000000004")},
        {[](QJsonObject &s) {
             s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("lane"), QStringLiteral("server")},
                                                           {QStringLiteral("event"), QStringLiteral("committed")}};
         },
         QStringLiteral("steps[0].highlight: expected one of")},
        {[](QJsonObject &s) {
             s[QStringLiteral("highlight")] = QJsonObject{{QStringLiteral("chart"), QStringLiteral("load")},
                                                           {QStringLiteral("chart2"), QStringLiteral("load")}};
         },
         QStringLiteral("steps[0].highlight.chart2: unknown key")},
        {[](QJsonObject &s) {
             s[QStringLiteral("question")] = QJsonObject{{QStringLiteral("text"), QStringLiteral("Q?")},
                                                          {QStringLiteral("kind"), QStringLiteral("number")},
                                                          {QStringLiteral("metric"), QStringLiteral("records")},
                                                          {QStringLiteral("answer"), QStringLiteral("x")}};
         },
         QStringLiteral("steps[0].question.answer: expected a number, got \"x\"")},
        {[](QJsonObject &s) {
             s[QStringLiteral("question")] = QJsonObject{{QStringLiteral("text"), QStringLiteral("Q?")},
                                                          {QStringLiteral("kind"), QStringLiteral("number")},
                                                          {QStringLiteral("metric"), QStringLiteral("orders")},
                                                          {QStringLiteral("answer"), 1}};
         },
         QStringLiteral("steps[0].question.metric: expected a metric name")},
        {[](QJsonObject &s) {
             s[QStringLiteral("question")] = QJsonObject{
                 {QStringLiteral("text"), QStringLiteral("Q?")},
                 {QStringLiteral("kind"), QStringLiteral("choice")},
                 {QStringLiteral("metric"), QStringLiteral("records")},
                 {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("text"), QStringLiteral("a")},
                                                                    {QStringLiteral("value"), 1}},
                                                        QJsonObject{{QStringLiteral("text"), QStringLiteral("b")}}}},
                 {QStringLiteral("answer"), 2}};
         },
         QStringLiteral("steps[0].question.choices[1]: needs \"value\"")},
        {[](QJsonObject &s) { s[QStringLiteral("facts")] = QJsonObject{{QStringLiteral("records"), QStringLiteral("1")}}; },
         QStringLiteral("steps[0].facts.records: expected a number")},
        {[](QJsonObject &s) { s[QStringLiteral("facts")] = QJsonObject{{QStringLiteral("recordz"), 1}}; },
         QStringLiteral("steps[0].facts.recordz: expected a metric name, a scenario field path or \"operation\"")},
        {[](QJsonObject &s) {
             s[QStringLiteral("scenario")] = QJsonObject{{QStringLiteral("workload"), QJsonObject{{QStringLiteral("orders"), 0}}}};
         },
         QStringLiteral("steps[0].scenario.workload.orders")},
    };
    for (const auto &c : cases) {
        const QStringList errors = errorsWithStep(c.first);
        QVERIFY2(anyContains(errors, c.second), qPrintable(c.second + QStringLiteral(" not in: ") + errors.join(QLatin1Char('|'))));
    }
    // The first step must name its scenario; the index of a choice answer is checked.
    QVERIFY(anyContains(errorsWithStep([](QJsonObject &s) { s.remove(QStringLiteral("scenario")); }),
                        QStringLiteral("steps[0].scenario: required in the first step")));
    QJsonObject l = minimalLesson();
    l[QStringLiteral("extra")] = true;
    l[QStringLiteral("name")] = QStringLiteral("Bad Name");
    const QStringList errors = lesson::fromJson(l).errors;
    QVERIFY(errors.contains(QStringLiteral("extra: unknown key")));
    QVERIFY(anyContains(errors, QStringLiteral("name: expected lower-case letters")));
    QVERIFY(lesson::fromJson(minimalLesson()).ok());

    // A chart beside another highlight, or alone (retry-storms step 3 opens the Load chart).
    const auto highlightOf = [](const QJsonObject &highlight) {
        QJsonObject withChart = minimalLesson();
        QJsonArray steps = withChart.value(QStringLiteral("steps")).toArray();
        QJsonObject s = steps.at(0).toObject();
        s[QStringLiteral("highlight")] = highlight;
        steps[0] = s;
        withChart[QStringLiteral("steps")] = steps;
        const LessonParse p = lesson::fromJson(withChart);
        return p.ok() ? p.lesson.steps.at(0).highlight : LessonHighlight{LessonHighlight::Kind::None, p.errors.join(QLatin1Char('|')), QStringLiteral("error")};
    };
    const LessonHighlight both = highlightOf(QJsonObject{{QStringLiteral("control"), QStringLiteral("client.retryBudget.enabled")},
                                                         {QStringLiteral("chart"), QStringLiteral("load")}});
    QCOMPARE(both.kind, LessonHighlight::Kind::Control);
    QCOMPARE(both.target, QStringLiteral("client.retryBudget.enabled"));
    QCOMPARE(both.chart, QStringLiteral("load"));
    const LessonHighlight alone = highlightOf(QJsonObject{{QStringLiteral("chart"), QStringLiteral("attempts")}});
    QCOMPARE(alone.kind, LessonHighlight::Kind::None);
    QCOMPARE(alone.chart, QStringLiteral("attempts"));
    QCOMPARE(highlightOf(QJsonObject{{QStringLiteral("lane"), QStringLiteral("server")}}).chart, QString());
    QCOMPARE(lesson::builtin(QStringLiteral("retry-storms")).lesson.steps.at(2).highlight.chart, QStringLiteral("load"));
}

void TestLessons::limits()
{
    QJsonObject l = minimalLesson();
    QJsonArray steps;
    for (int i = 0; i <= lesson::MaxSteps; ++i)
        steps.append(l.value(QStringLiteral("steps")).toArray().at(0));
    l[QStringLiteral("steps")] = steps;
    QVERIFY(anyContains(lesson::fromJson(l).errors, QStringLiteral("steps: expected an array of 1 to 30 steps")));
    steps.removeLast();
    l[QStringLiteral("steps")] = steps;
    QVERIFY(lesson::fromJson(l).ok()); // exactly MaxSteps

    l = minimalLesson();
    l[QStringLiteral("title")] = QString(lesson::MaxTitleChars + 1, QLatin1Char('x'));
    QVERIFY(anyContains(lesson::fromJson(l).errors, QStringLiteral("title: longer than 200 characters")));
    l[QStringLiteral("title")] = QString(lesson::MaxTitleChars, QLatin1Char('x'));
    QVERIFY(lesson::fromJson(l).ok());

    const QByteArray big(lesson::MaxFileBytes + 1, ' ');
    QVERIFY(anyContains(lesson::fromJsonBytes(big).errors, QStringLiteral("larger than")));
    QVERIFY(anyContains(lesson::fromJsonBytes("[1]").errors, QStringLiteral("JSON object at the top level")));
    QVERIFY(anyContains(lesson::fromJsonBytes("{\"name\":").errors, QStringLiteral("malformed JSON")));
}

void TestLessons::choiceAnswerIndexBoundary()
{
    // Issue 20 edge: a choice answer is an index, 0 to choices - 1. With two choices, 1 is the last
    // one; 2, the number of choices, is refused naming the field.
    const auto withAnswer = [](int answer) {
        return errorsWithStep([answer](QJsonObject &s) {
            const auto choice = [](const char *text, int value) {
                return QJsonObject{{QStringLiteral("text"), QLatin1String(text)}, {QStringLiteral("value"), value}};
            };
            s[QStringLiteral("question")] = QJsonObject{{QStringLiteral("text"), QStringLiteral("Q?")},
                                                         {QStringLiteral("kind"), QStringLiteral("choice")},
                                                         {QStringLiteral("metric"), QStringLiteral("records")},
                                                         {QStringLiteral("choices"), QJsonArray{choice("one", 1), choice("two", 2)}},
                                                         {QStringLiteral("answer"), answer}};
        });
    };
    QVERIFY2(withAnswer(1).isEmpty(), qPrintable(withAnswer(1).join(QLatin1Char('|'))));
    QVERIFY2(withAnswer(0).isEmpty(), qPrintable(withAnswer(0).join(QLatin1Char('|'))));
    const QStringList errors = withAnswer(2);
    QVERIFY2(anyContains(errors, QStringLiteral("steps[0].question.answer: expected the index of a choice, 0 to 1")),
             qPrintable(errors.join(QLatin1Char('|'))));
    QVERIFY(anyContains(withAnswer(-1), QStringLiteral("steps[0].question.answer")));
}

void TestLessons::choiceRanges()
{
    LessonQuestion q;
    LessonChoice none, few, many;
    none.min = none.max = 0;
    few.min = 1;
    few.max = 5;
    many.above = 5;
    q.choices = {none, few, many};
    QCOMPARE(lesson::selectedChoice(q, 0), 0);
    QCOMPARE(lesson::selectedChoice(q, 1), 1);
    QCOMPARE(lesson::selectedChoice(q, 5), 1);
    QCOMPARE(lesson::selectedChoice(q, 5.5), 2);
    QCOMPARE(lesson::selectedChoice(q, -1), -1);
    // Overlapping choices select nothing: the answer must be unambiguous.
    q.choices[2].above = 4;
    QCOMPARE(lesson::selectedChoice(q, 5), -1);
}

void TestLessons::numbersInText()
{
    const auto values = [](const QString &t) {
        QList<double> out;
        for (const Number &n : numbersIn(t))
            out << n.value;
        return out;
    };
    QCOMPARE(values(QStringLiteral("3 x 3 = 9 POSTs, 30% lost, 3.1 s.")), (QList<double>{3, 3, 9, 30, 3.1}));
    QCOMPARE(values(QStringLiteral("urllib3 retries 5xx on b2/w1/t3")), QList<double>{});
    QCOMPARE(values(QStringLiteral("ORD-0003 ends at 20.")), (QList<double>{3, 20}));
}

void TestLessons::factRounding()
{
    QVERIFY(matchesRounded(3.1, 3.08));
    QVERIFY(!matchesRounded(3.1, 3.2));
    QVERIFY(matchesRounded(34, 33.6));
    QVERIFY(!matchesRounded(34, 33.4));
    QVERIFY(matchesRounded(20, 20));
    QVERIFY(!matchesRounded(20, 21));
    QVERIFY(matchesField(QStringLiteral("client.timeoutMs"), 3, 3000));
    QVERIFY(matchesField(QStringLiteral("network.responseLoss"), 30, 0.3));
    QVERIFY(!matchesField(QStringLiteral("workload.orders"), 2, 2000));
}

void TestLessons::translatableTexts()
{
    for (const QString &n : lesson::builtinNames()) {
        const Lesson l = lesson::builtin(n).lesson;
        const QStringList texts = lesson::translatableTexts(l);
        QVERIFY(texts.contains(l.title));
        QVERIFY(texts.contains(l.summary));
        for (const LessonStep &s : l.steps) {
            QVERIFY(texts.contains(s.title));
            QVERIFY(texts.contains(s.watch));
            if (!s.question.text.isEmpty())
                QVERIFY(texts.contains(s.question.text));
            for (const LessonChoice &c : s.question.choices)
                QVERIFY(texts.contains(c.text));
            if (!s.reveal.isEmpty())
                QVERIFY(texts.contains(s.reveal));
        }
        QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
    }
    // Every text a person reads has its Simplified Chinese translation (this catches a text the
    // content extraction for lupdate misses; a translation may equal its source, as for
    // "allowed_methods=None"), and untranslated a text shows as written.
    QCOMPARE(i18n::content(QStringLiteral("Watch the wrapper.")), QStringLiteral("Watch the wrapper."));
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/retrylab_content_zh_CN.qm")));
    QStringList untranslated;
    for (const QString &name : lesson::builtinNames()) {
        for (const QString &text : lesson::translatableTexts(lesson::builtin(name).lesson)) {
            if (zh.translate("content", text.toUtf8().constData()).isNull())
                untranslated << name + QStringLiteral(": ") + text;
        }
    }
    QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(QLatin1Char('\n'))));
}

void TestLessons::loadFromFile()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("mine.json"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(minimalLesson()).toJson());
    f.close();
    const LessonParse p = lesson::resolve(file);
    QVERIFY2(p.ok(), qPrintable(p.errors.join(QLatin1Char('\n'))));
    QCOMPARE(p.lesson.title, QStringLiteral("T"));
    const LessonParse missing = lesson::load(dir.filePath(QStringLiteral("none.json")));
    QVERIFY(missing.errors.first().startsWith(QStringLiteral("cannot read lesson file")));
    QVERIFY(lesson::resolve(QStringLiteral("timeout-is-not-failure")).ok());
}

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
