// `retrylab lessons`: the guided lessons, their titles and number of steps.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "document/windowbudget.h"
#include "i18n.h"
#include "lesson.h"
#include "lessons/handout.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace retrylab {
namespace cli {

namespace {

// lessons --handout FILE --lesson NAME [--student]: the lesson's handout as a PDF, as the window's
// Lessons menu writes it (a student's copy without answers).
int writeHandoutFile(const QString &fileName, const QString &name, bool student)
{
    if (name.isEmpty()) {
        fail(QCoreApplication::translate("cli", "lessons: --handout needs --lesson NAME (see 'retrylab lessons')"));
        return ExitUsage;
    }
    const LessonParse parsed = lesson::resolve(name);
    if (!parsed.ok()) {
        fail(QCoreApplication::translate("cli", "lessons: %1").arg(echo(parsed.errors.value(0))));
        return ExitUsage;
    }
    // Every step's run is kept at once: the window's budgets (ui/document/windowbudget.h) apply.
    if (const QString refusal = windowbudget::lessonRefusal(parsed.lesson, true); !refusal.isEmpty()) {
        fail(QCoreApplication::translate("cli", "lessons: %1").arg(refusal)); // fail() escapes; ours is short
        return ExitUsage;
    }
    QFuture<RunResult> runs = startLessonRuns(parsed.lesson);
    runs.waitForFinished();
    const QString error = writeLessonHandout(parsed.lesson, runs.results(), fileName,
                                             student ? HandoutCopy::Student : HandoutCopy::Teacher);
    if (!error.isEmpty()) {
        fail(QCoreApplication::translate("cli", "lessons: %1").arg(echo(error)));
        return ExitRuntime;
    }
    return ExitOk;
}

} // namespace

int lessonsCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("lessons"),
                          QStringLiteral("[--format table|json] | --handout FILE.pdf --lesson NAME|FILE [--student]"),
                          QCoreApplication::translate("cli", "Lists the guided lessons: name, title and number of steps; "
                                                             "or writes one lesson's handout as a PDF."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption handout(QStringLiteral("handout"),
                                     QCoreApplication::translate("cli", "Write the handout of --lesson to this PDF file."),
                                     QStringLiteral("FILE.pdf"));
    const QCommandLineOption lessonName(QStringLiteral("lesson"),
                                        QCoreApplication::translate("cli", "The lesson of --handout: a name or a lesson file."),
                                        QStringLiteral("NAME|FILE"));
    const QCommandLineOption student(QStringLiteral("student"),
                                     QCoreApplication::translate("cli", "With --handout: the students' copy, without answers."));
    parser.addOptions({formatOption(QStringLiteral("table, json")), handout, lessonName, student});
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, false, &format); rc != Continue)
        return rc;
    if (parser.isSet(handout))
        return writeHandoutFile(parser.value(handout), parser.value(lessonName), parser.isSet(student));
    if (parser.isSet(lessonName) || parser.isSet(student)) {
        fail(QCoreApplication::translate("cli", "lessons: --lesson and --student go with --handout FILE.pdf"));
        return ExitUsage;
    }
    QJsonArray lessons;
    QList<QStringList> rows{{QCoreApplication::translate("cli", "LESSON"), QCoreApplication::translate("cli", "STEPS"),
                             QCoreApplication::translate("cli", "TITLE")}};
    const QStringList names = lesson::builtinNames();
    for (const QString &name : names) {
        const LessonParse parsed = lesson::builtin(name);
        const QString title = parsed.ok() ? parsed.lesson.title
                                          : QStringLiteral("(invalid lesson: %1)").arg(parsed.errors.value(0));
        // The table is for people (translated); the JSON keeps the file's English title.
        rows << QStringList{name, QString::number(parsed.lesson.steps.size()),
                            parsed.ok() ? i18n::content(title)
                                        : QCoreApplication::translate("cli", "(invalid lesson: %1)").arg(parsed.errors.value(0))};
        lessons.append(QJsonObject{{QStringLiteral("name"), name},
                                   {QStringLiteral("title"), title},
                                   {QStringLiteral("steps"), int(parsed.lesson.steps.size())}});
    }
    if (format == Format::Json) {
        writeOut(QString::fromUtf8(QJsonDocument(lessons).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }
    writeOut(wrappedTable(rows));
    writeOut(QLatin1Char('\n')
             + QCoreApplication::translate("cli", "Open one in the desktop lab with 'retrylab --lesson NAME [--step N]'.")
             + QLatin1Char('\n'));
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
