// Hostile lesson files through the window (`retrylab --lesson FILE --screenshot x.png`, offscreen)
// and the handout (`retrylab lessons --lesson FILE --handout x.pdf`): every mutated lesson is either
// refused with exit 2 and short, escaped lines, or opens with exit 0 and nothing on stderr, within
// the fuzz budget (60 s per case, fuzzsupport.h's 2 GiB of address space and 1 GiB peak RSS).
#include "fuzzsupport.h"
#include "lesson.h"
#include "testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace retrylab;

namespace {

constexpr std::uint64_t FuzzSeed = 0x1e550a5f0022c0deULL;
constexpr int CaseCount = 104;
constexpr int KindCount = 13;
// A handout of 30 steps runs and draws every one: 7-13 s alone, more beside a loaded build.
constexpr int WindowTimeoutMs = 6 * fuzz::CaseTimeoutMs;

// Mutations of a lesson file, each a (kind, bytes) pair.
class LessonMutator
{
public:
    // The lesson with its step `at` replaced, as JSON text.
    static QByteArray replaced(QJsonObject lesson, QJsonArray steps, int at, const QJsonObject &step)
    {
        steps.replace(at, step);
        lesson.insert(QStringLiteral("steps"), steps);
        return QJsonDocument(lesson).toJson();
    }
    static const QList<QString> &stepTexts()
    {
        static const QList<QString> texts{QStringLiteral("title"), QStringLiteral("watch"), QStringLiteral("reveal")};
        return texts;
    }

    explicit LessonMutator(std::uint64_t seed) : m_rng(seed) {}

    int below(int n) { return int(m_rng() % std::uint64_t(n)); }
    template<typename T> const T &pick(const QList<T> &list) { return list.at(below(int(list.size()))); }

    QPair<QString, QByteArray> mutate(const QJsonObject &lesson, const QByteArray &text, int kind)
    {
        QJsonObject o = lesson;
        QJsonArray steps = o.value(QLatin1String("steps")).toArray();
        const int at = below(int(steps.size()));
        QJsonObject step = steps.at(at).toObject();
        const auto withStep = [&](const QJsonObject &changed) { return replaced(o, steps, at, changed); };
        const QList<QString> &texts = stepTexts();
        switch (kind) {
        case 0:
            return {QStringLiteral("truncated"), text.left(below(int(text.size())))};
        case 1: {
            QByteArray out = text;
            for (int i = 1 + below(6); i > 0; --i)
                out[below(int(out.size()))] = char(below(256));
            return {QStringLiteral("byte-flips"), out};
        }
        case 2: {
            static const QList<double> huge{1e308, -1e308, 2147483648.0, -1, 0, 1e20, 9007199254740993.0, 2.5};
            static const QList<QString> where{QStringLiteral("operation"), QStringLiteral("step")};
            step.insert(pick(where), pick(huge));
            QJsonObject question = step.value(QLatin1String("question")).toObject();
            if (!question.isEmpty()) {
                question.insert(QStringLiteral("answer"), pick(huge));
                step.insert(QStringLiteral("question"), question);
            }
            return {QStringLiteral("huge-number"), withStep(step)};
        }
        case 3: {
            QByteArray nested;
            const int depth = 1 + below(5000);
            const bool arrays = below(2) == 0;
            for (int i = 0; i < depth; ++i)
                nested += arrays ? "[" : "{\"a\":";
            nested += "1";
            for (int i = 0; i < depth; ++i)
                nested += arrays ? "]" : "}";
            step.insert(pick(texts), QStringLiteral("@@NEST@@"));
            QByteArray out = withStep(step);
            out.replace("\"@@NEST@@\"", nested);
            return {QStringLiteral("deep-nesting"), out};
        }
        case 4: {
            static const QList<QString> keys{QStringLiteral("title"), QStringLiteral("steps"), QStringLiteral("schema"),
                                             QStringLiteral("name"), QStringLiteral("summary")};
            const QList<QJsonValue> wrong{QJsonValue(5), QJsonValue(true), QJsonValue(QJsonValue::Null), QJsonArray{1},
                                          QJsonObject{{QStringLiteral("x"), 1}}, QJsonValue(QStringLiteral("x"))};
            if (below(2) == 0) {
                o.insert(pick(keys), pick(wrong));
                return {QStringLiteral("wrong-type"), QJsonDocument(o).toJson()};
            }
            static const QList<QString> stepKeys{QStringLiteral("set"),      QStringLiteral("question"), QStringLiteral("highlight"),
                                                 QStringLiteral("scenario"), QStringLiteral("facts"),    QStringLiteral("operation"),
                                                 QStringLiteral("title")};
            step.insert(pick(stepKeys), pick(wrong));
            return {QStringLiteral("wrong-type"), withStep(step)};
        }
        case 5: {
            QByteArray out = text;
            static const QList<QByteArray> keys{"\"title\":", "\"steps\":", "\"set\":", "\"name\":", "\"watch\":"};
            const QByteArray key = pick(keys);
            const qsizetype where = out.indexOf(key);
            if (where >= 0)
                out.insert(where, key + (key == "\"steps\":" ? " [], " : " \"twice\", "));
            return {QStringLiteral("duplicate-key"), out};
        }
        case 6: {
            static const QList<QString> hostile{QStringLiteral("\u001b]0;pwned\u0007 title"), QStringLiteral("a\u202eb\u2066c\u2069"),
                                                QStringLiteral("\u0085x\u009b2J\u0000nul"), QStringLiteral("\r\n\t\u007f\u200b")};
            if (below(2) == 0)
                o.insert(pick(QList<QString>{QStringLiteral("title"), QStringLiteral("summary")}), pick(hostile));
            step.insert(pick(texts), pick(hostile));
            return {QStringLiteral("control-bidi"), withStep(step)};
        }
        default:
            return mutateSteps(o, steps, at, text, kind);
        }
    }

private:
    // Kinds 7 and up: what a step asks of the window (texts, steps, settings, its scenario).
    QPair<QString, QByteArray> mutateSteps(QJsonObject o, QJsonArray steps, int at, const QByteArray &text, int kind)
    {
        QJsonObject step = steps.at(at).toObject();
        const auto withStep = [&](const QJsonObject &changed) { return replaced(o, steps, at, changed); };
        const QList<QString> &texts = stepTexts();
        switch (kind) {
        case 7: {
            // 10 MB in one text: over the file's own limit, and (cut to fit) over a text's.
            const int size = below(2) == 0 ? 10 * 1024 * 1024 : 200000;
            step.insert(pick(texts), QString(size, QChar(below(2) == 0 ? 0x0078 : 0x4e2d)));
            return {QStringLiteral("huge-string"), withStep(step)};
        }
        case 8: {
            const int count = pick(QList<int>{lesson::MaxSteps, lesson::MaxSteps + 1, 5000});
            QJsonArray many;
            for (int i = 0; i < count; ++i)
                many.append(steps.at(i % steps.size()));
            o.insert(QStringLiteral("steps"), many);
            return {QStringLiteral("many-steps"), QJsonDocument(o).toJson()};
        }
        case 9: {
            // Work past the window's budgets: time (attempts) or memory (kept events).
            QJsonObject set = step.value(QLatin1String("set")).toObject();
            if (below(2) == 0) {
                set.insert(QStringLiteral("workload.orders"), pick(QList<int>{1000000, 100000000, 100000001}));
            } else {
                set.insert(QStringLiteral("workload.orders"), pick(QList<int>{5000, 40000}));
                set.insert(QStringLiteral("network.responseLoss"), 1.0);
            }
            step.insert(QStringLiteral("set"), set);
            return {QStringLiteral("over-budget"), withStep(step)};
        }
        case 10: {
            QJsonObject set = step.value(QLatin1String("set")).toObject();
            static const QList<QPair<QString, QJsonValue>> odd{
                    {QStringLiteral("no.such.field"), 1},
                    {QStringLiteral("client.transport.total"), QStringLiteral("three")},
                    {QStringLiteral("network.script"), QJsonArray{QJsonObject{{QStringLiteral("op"), 1e300}}}},
                    {QString(5000, QLatin1Char('k')), 1},
                    {QStringLiteral("seed"), -1}};
            const auto &entry = pick(odd);
            set.insert(entry.first, entry.second);
            step.insert(QStringLiteral("set"), set);
            return {QStringLiteral("bad-set"), withStep(step)};
        }
        case 11: {
            static const QList<QString> scenarios{QStringLiteral("no-such-preset"), QStringLiteral("/etc/passwd"),
                                                  QStringLiteral("../../../../dev/zero"), QStringLiteral("\u001b[2J"),
                                                  QStringLiteral("/dev/stdin")};
            step.insert(QStringLiteral("scenario"), pick(scenarios));
            return {QStringLiteral("bad-scenario"), withStep(step)};
        }
        default: {
            QByteArray out = text;
            static const QList<QByteArray> bytes{QByteArray("\x00", 1), QByteArray("\xff\xfe"), QByteArray("\xed\xa0\x80"),
                                                 QByteArray("\xef\xbb\xbf"), QByteArray("\x1b")};
            for (int i = 1 + below(3); i > 0; --i)
                out.insert(below(int(out.size())), pick(bytes));
            return {QStringLiteral("raw-bytes"), out};
        }
        }
    }

    std::mt19937_64 m_rng;
};

} // namespace

class TestFuzzLessons : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mutatedLessonsAreRefusedOrOpen();
};

void TestFuzzLessons::mutatedLessonsAreRefusedOrOpen()
{
    const QDir lessons(retrylab::test::sourcePath(QStringLiteral("resources/lessons")));
    const QStringList names = lessons.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY2(names.size() >= 10, qPrintable(lessons.path()));
    QList<QJsonObject> objects;
    QList<QByteArray> texts;
    for (const QString &name : names) {
        QFile file(lessons.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        texts << file.readAll();
        objects << QJsonDocument::fromJson(texts.last()).object();
        QVERIFY(!objects.last().value(QLatin1String("steps")).toArray().isEmpty());
    }

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (qEnvironmentVariableIntValue("RETRYLAB_FUZZ_KEEP") == 1) {
        dir.setAutoRemove(false);
        qInfo("cases in %s", qPrintable(dir.path()));
    }
    LessonMutator mutator(FuzzSeed);
    QList<QPair<QString, QString>> cases; // file, kind
    for (int i = 0; i < CaseCount; ++i) {
        const int which = mutator.below(int(objects.size()));
        const auto [kind, bytes] = mutator.mutate(objects.at(which), texts.at(which), i % KindCount);
        const QString fileName = dir.filePath(QStringLiteral("lesson-%1-%2.json").arg(i, 3, 10, QLatin1Char('0')).arg(kind));
        QFile file(fileName);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(bytes), bytes.size());
        cases.append({fileName, kind});
    }

    static const QRegularExpression unsafe(QStringLiteral("[\\x00-\\x08\\x0b-\\x1f\\x7f\\x{80}-\\x{9f}\\x{202a}-\\x{202e}\\x{2066}-\\x{2069}]"));
    QStringList failures;
    QMap<QString, QPair<int, int>> byKind; // kind -> (refused, opened)
    const auto check = [&](int i, QProcess *process) {
        const QString name = QFileInfo(cases.at(i).first).fileName() + (i % 2 ? QStringLiteral(" (handout)") : QString());
        const QByteArray err = process->readAllStandardError();
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished();
            failures << name + QStringLiteral(": still running after %1 ms").arg(WindowTimeoutMs);
            return;
        }
        if (process->exitStatus() != QProcess::NormalExit) {
            failures << name + QStringLiteral(": crashed: ") + QString::fromUtf8(err.right(300));
            return;
        }
        if (process->exitCode() == 0) {
            ++byKind[cases.at(i).second].second;
            if (!err.isEmpty())
                failures << name + QStringLiteral(": exit 0 with stderr: ") + QString::fromUtf8(err.left(200)).toHtmlEscaped();
            return;
        }
        if (process->exitCode() != 2) {
            failures << name + QStringLiteral(": exit %1: ").arg(process->exitCode()) + QString::fromUtf8(err.left(300));
            return;
        }
        ++byKind[cases.at(i).second].first;
        QStringList lines = QString::fromUtf8(err).split(QLatin1Char('\n'));
        if (lines.last().isEmpty())
            lines.removeLast();
        if (lines.isEmpty() || lines.size() > 5)
            failures << name + QStringLiteral(": %1 error lines").arg(lines.size());
        for (const QString &line : std::as_const(lines)) {
            if (!line.startsWith(QLatin1String("retrylab: ")))
                failures << name + QStringLiteral(": a line not of ours: ") + line.left(200).toHtmlEscaped();
            else if (line.size() > 600)
                failures << name + QStringLiteral(": error line of %1 characters").arg(line.size());
            else if (line.contains(unsafe))
                failures << name + QStringLiteral(": raw control or bidi character in: ")
                                + QString::fromLatin1(line.left(200).toUtf8().toPercentEncoding());
        }
    };
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    // Even cases open the window, odd ones write the handout.
    fuzz::runInBatches(
            int(cases.size()), WindowTimeoutMs, env,
            [&](int i) {
                const QString out = dir.filePath(QStringLiteral("out-%1").arg(i));
                return i % 2 == 0 ? QStringList{QStringLiteral("--lesson"), cases.at(i).first, QStringLiteral("--screenshot"), out + QStringLiteral(".png")}
                                  : QStringList{QStringLiteral("lessons"), QStringLiteral("--lesson"), cases.at(i).first,
                                                QStringLiteral("--handout"), out + QStringLiteral(".pdf")};
            },
            check);

    QStringList kinds;
    int refused = 0, opened = 0;
    for (auto it = byKind.cbegin(); it != byKind.cend(); ++it) {
        kinds << QStringLiteral("%1 %2/%3").arg(it.key()).arg(it.value().first).arg(it.value().second);
        refused += it.value().first;
        opened += it.value().second;
    }
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    qInfo("%d lesson cases: %d refused with exit 2, %d opened; largest peak RSS %ld KiB", int(cases.size()), refused,
          opened, long(usage.ru_maxrss));
    qInfo("refused/opened by mutation: %s", qPrintable(kinds.join(QStringLiteral(", "))));
    if (!failures.isEmpty()) {
        dir.setAutoRemove(false);
        QFAIL(qPrintable(QStringLiteral("%1 of %2 cases broke the contract (files kept in %3):\n")
                                 .arg(failures.size())
                                 .arg(cases.size())
                                 .arg(dir.path())
                         + failures.mid(0, 30).join(QLatin1Char('\n'))));
    }
    QVERIFY2(refused > 0 && opened > 0, "the mutations should produce both refusals and lessons that open");
    QVERIFY2(usage.ru_maxrss < fuzz::PeakRssLimitKb, qPrintable(QString::number(usage.ru_maxrss)));
}

QTEST_GUILESS_MAIN(TestFuzzLessons)
#include "tst_fuzzlessons.moc"
