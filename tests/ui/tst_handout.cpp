// Handouts of whole lessons: one page for the lesson, then one page per step with its question,
// the answer the run gives and the timeline of the step's operation.
#include "i18n.h"
#include "lessons/handout.h"
#include "timeline/timelinewidget.h"
#include "lesson.h"
#include "lessons/lessonplayer.h"
#include "shell/mainwindow.h"

#include <QProcess>
#include <QScopeGuard>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace retrylab;

namespace {

QString pdfTool(const char *name)
{
    return QStandardPaths::findExecutable(QString::fromLatin1(name));
}

int pageCount(const QString &file)
{
    QProcess info;
    info.start(pdfTool("pdfinfo"), {file});
    if (!info.waitForFinished(30000) || info.exitCode() != 0)
        return -1;
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(QString::fromUtf8(info.readAllStandardOutput()));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// The text of a page exactly as pdftotext gives it back (no normalisation: a Kangxi radical stays one).
QString rawPageText(const QString &file, int page)
{
    QProcess text;
    text.start(pdfTool("pdftotext"), {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                                      QString::number(page), file, QStringLiteral("-")});
    text.waitForFinished(30000);
    return QString::fromUtf8(text.readAllStandardOutput()).simplified();
}

QString pageText(const QString &file, int page)
{
    QProcess text;
    text.start(pdfTool("pdftotext"), {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                                      QString::number(page), file, QStringLiteral("-")});
    text.waitForFinished(30000);
    // NFKC: pdftotext gives the font's ligatures ("\ufb01" for "fi") as they are drawn.
    return QString::fromUtf8(text.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).simplified();
}

QList<RunResult> runsOf(const Lesson &lesson)
{
    QFuture<RunResult> runs = startLessonRuns(lesson);
    runs.waitForFinished();
    return runs.results();
}

} // namespace

class TestHandout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!pdfTool("pdfinfo").isEmpty() && !pdfTool("pdftotext").isEmpty(),
                 "pdfinfo/pdftotext are missing: scripts/lab installs poppler-utils");
    }

    // The runs come back in step order, each the step's own scenario, traced.
    void lessonRunsFollowTheSteps()
    {
        const LessonParse parsed = lesson::builtin(QStringLiteral("timeout-is-not-failure"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        const QList<RunResult> runs = runsOf(parsed.lesson);
        QCOMPARE(runs.size(), parsed.lesson.steps.size());
        RunOptions untraced;
        untraced.trace = false;
        for (int i = 0; i < runs.size(); ++i) {
            QCOMPARE(runs.at(i).scenario.client.business.enabled, parsed.lesson.steps.at(i).scenario.client.business.enabled);
            QCOMPARE(runs.at(i).scenario.client.timeoutMs, parsed.lesson.steps.at(i).scenario.client.timeoutMs);
            QCOMPARE(runs.at(i).metrics.records, simulate(parsed.lesson.steps.at(i).scenario, untraced).metrics.records);
            QVERIFY(!runs.at(i).trace.isEmpty());
        }
    }

    // One page for the lesson, then one per step; each step's page holds its title, its question
    // and the run's answer, and its reveal text.
    void lessonHandoutHasAPagePerStep_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString &name : lesson::builtinNames())
            QTest::newRow(qPrintable(name)) << name;
    }

    void lessonHandoutHasAPagePerStep()
    {
        QFETCH(QString, name);
        const LessonParse parsed = lesson::builtin(name);
        QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
        const Lesson &l = parsed.lesson;
        const QList<RunResult> runs = runsOf(l);
        QTemporaryDir dir;
        const QString file = dir.filePath(name + QStringLiteral(".pdf"));
        const QString error = writeLessonHandout(l, runs, file);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(pageCount(file), 1 + l.steps.size());
        QVERIFY2(pageText(file, 1).contains(l.title.simplified()), qPrintable(pageText(file, 1)));
        for (int i = 0; i < l.steps.size(); ++i) {
            const LessonStep &step = l.steps.at(i);
            const QString page = pageText(file, 2 + i);
            const QString heading = QStringLiteral("Step %1 of %2: %3").arg(i + 1).arg(l.steps.size()).arg(step.title);
            QVERIFY2(page.contains(heading.simplified()), qPrintable(page));
            QVERIFY2(page.contains(QStringLiteral("seed %1").arg(runs.at(i).scenario.seed)), qPrintable(page));
            const LessonQuestion &q = step.question;
            if (q.kind == LessonQuestion::Kind::Number) {
                double value = 0;
                QVERIFY(lesson::metricValue(runs.at(i), lesson::shownOperation(step, runs.at(i)), q.metric, &value));
                QCOMPARE(value, q.answer);
                QVERIFY2(page.contains(QStringLiteral("Answer: %1").arg(LessonPlayer::formatNumber(value, q.answer))), qPrintable(page));
            } else if (q.kind == LessonQuestion::Kind::Choice) {
                QVERIFY2(page.contains(QStringLiteral("Answer: %1").arg(q.choices.at(q.answerChoice).text.simplified().left(30))),
                         qPrintable(page));
            }
        }
    }

    // From the window: Lessons > Handout of this lesson writes the open lesson, every step; with no
    // lesson open it says so and writes nothing.
    void windowWritesTheOpenLesson()
    {
        MainWindow w(nullptr, false);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("lesson.pdf"));
        QString error;
        QVERIFY(!w.exporter()->exportTo(Exporter::Kind::LessonHandoutPdf, file, &error));
        QVERIFY2(error.contains(QLatin1String("no lesson is open")), qPrintable(error));
        QVERIFY(!QFile::exists(file));
        QVERIFY(w.lessons()->startLesson(QStringLiteral("key-expiry"), 2));
        QVERIFY2(w.exporter()->exportTo(Exporter::Kind::LessonHandoutPdf, file, &error), qPrintable(error));
        QCOMPARE(pageCount(file), 1 + w.lessons()->player()->stepCount());
        QVERIFY2(pageText(file, 2).contains(QLatin1String("Step 1 of")), qPrintable(pageText(file, 2)));
        QCOMPARE(w.lessons()->player()->step(), 2); // the class stays where it was
    }

    // Runs that do not match the lesson, or a file that is not a PDF, are refused before anything is written.
    void lessonHandoutRefusesBadInput()
    {
        const LessonParse parsed = lesson::builtin(QStringLiteral("timeout-is-not-failure"));
        QVERIFY(parsed.ok());
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("h.pdf"));
        QList<RunResult> runs = runsOf(parsed.lesson);
        runs.removeLast();
        QVERIFY(writeLessonHandout(parsed.lesson, runs, file).contains(QLatin1String("runs")));
        QVERIFY(!QFile::exists(file));
        const QString txt = dir.filePath(QStringLiteral("h.txt"));
        QVERIFY(writeLessonHandout(parsed.lesson, runsOf(parsed.lesson), txt).contains(QLatin1String("h.txt")));
        QVERIFY(!QFile::exists(txt));
    }

    // Issue 19 item 10: a students' copy asks every question and gives no answer: no "Answer:", no
    // reveal, no numbers of the run, no timeline of a step with a question; each question gets room
    // for a prediction.
    void studentCopyHasNoAnswers_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString &name : {QStringLiteral("jitter-and-budgets"), QStringLiteral("retry-storms"),
                                    QStringLiteral("timeout-is-not-failure")})
            QTest::newRow(qPrintable(name)) << name;
    }

    void studentCopyHasNoAnswers()
    {
        QFETCH(QString, name);
        const LessonParse parsed = lesson::builtin(name);
        QVERIFY(parsed.ok());
        const Lesson &l = parsed.lesson;
        const QList<RunResult> runs = runsOf(l);
        QTemporaryDir dir;
        const QString file = dir.filePath(name + QStringLiteral("-student.pdf"));
        const QString error = writeLessonHandout(l, runs, file, HandoutCopy::Student);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(pageCount(file), 1 + l.steps.size());
        QVERIFY2(pageText(file, 1).contains(QLatin1String("student's copy")), qPrintable(pageText(file, 1)));
        for (int i = 0; i < l.steps.size(); ++i) {
            const LessonStep &step = l.steps.at(i);
            const QString page = pageText(file, 2 + i);
            QVERIFY2(page.contains(step.title.simplified()), qPrintable(page));
            QVERIFY2(!page.contains(QLatin1String("Answer")), qPrintable(page));
            QVERIFY2(!page.contains(QLatin1String("seed")), qPrintable(page)); // the run's numbers
            if (!step.reveal.isEmpty())
                QVERIFY2(!page.contains(step.reveal.simplified().left(40)), qPrintable(page));
            const LessonQuestion &q = step.question;
            if (q.kind == LessonQuestion::Kind::None)
                continue;
            QVERIFY2(page.contains(q.text.simplified()), qPrintable(page));
            QVERIFY2(page.contains(QLatin1String("My prediction:")), qPrintable(page));
            if (q.kind == LessonQuestion::Kind::Number) {
                const QString answer = LessonPlayer::formatNumber(q.answer, q.answer);
                QVERIFY2(!page.contains(QRegularExpression(QStringLiteral("(^|\\D)%1(\\D|$)").arg(QRegularExpression::escape(answer)))),
                         qPrintable(answer + QStringLiteral(" in: ") + page));
            }
        }
        // The teacher's copy of the same lesson does give them.
        const QString teacher = dir.filePath(name + QStringLiteral(".pdf"));
        QVERIFY(writeLessonHandout(l, runs, teacher).isEmpty());
        QVERIFY(pageText(teacher, 2).contains(QLatin1String("seed")));
    }

    // Issue 19 item 10: the Chinese handout embedded the Japanese face of Noto Sans CJK, so copying
    // its text gave Kangxi radicals ("\u2f83\u52a8\u2f63\u6210" for "\u81ea\u52a8\u751f\u6210"). pdftotext gives back the Chinese as typed.
    void chineseTextComesBackAsTyped()
    {
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        const auto english = qScopeGuard([] { i18n::install(QStringLiteral("en")); });
        const LessonParse parsed = lesson::builtin(QStringLiteral("timeout-is-not-failure"));
        QVERIFY(parsed.ok());
        const Lesson &l = parsed.lesson;
        const QString title = i18n::content(l.title);
        QVERIFY2(title != l.title, "the lesson's title has no Chinese translation");
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("zh.pdf"));
        const QString error = writeLessonHandout(l, runsOf(l), file);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString first = rawPageText(file, 1);
        QVERIFY2(first.contains(title.simplified()), qPrintable(first));
        for (int page = 1; page <= 1 + l.steps.size(); ++page) {
            const QString text = rawPageText(file, page);
            for (const QChar c : text)
                QVERIFY2(c.unicode() < 0x2e80 || c.unicode() > 0x2fdf,
                         qPrintable(QStringLiteral("page %1 has the radical U+%2: %3").arg(page).arg(c.unicode(), 4, 16).arg(text)));
            const QString step = i18n::content(l.steps.at(qMax(0, page - 2)).title);
            if (page > 1)
                QVERIFY2(text.contains(step.simplified()), qPrintable(step + QStringLiteral(" not in: ") + text));
        }
    }

    // Issue 19 item 10: each step's timeline picture is titled with the step, not the preset it starts from.
    void stepTimelineIsTitledWithTheStep()
    {
        const LessonParse parsed = lesson::builtin(QStringLiteral("retry-storms"));
        QVERIFY(parsed.ok());
        const Lesson &l = parsed.lesson;
        const QList<RunResult> runs = runsOf(l);
        for (int i = 0; i < l.steps.size(); ++i) {
            TimelineWidget timeline;
            showForHandout(timeline, runs.at(i), lesson::shownOperation(l.steps.at(i), runs.at(i)), stepSlideTitle(l, i));
            const QString title = timeline.exportTitle();
            QVERIFY2(title.contains(QStringLiteral("Step %1: %2").arg(i + 1).arg(l.steps.at(i).title)), qPrintable(title));
            QVERIFY2(!title.contains(runs.at(i).scenario.title), qPrintable(title));
        }
    }
};

QTEST_MAIN(TestHandout)
#include "tst_handout.moc"
