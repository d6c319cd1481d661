// Handouts of whole lessons: one page for the lesson, then one page per step with its question,
// the answer the run gives and the timeline of the step's operation.
#include "lessons/handout.h"
#include "lesson.h"
#include "lessons/lessonplayer.h"
#include "shell/mainwindow.h"

#include <QProcess>
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
};

QTEST_MAIN(TestHandout)
#include "tst_handout.moc"
