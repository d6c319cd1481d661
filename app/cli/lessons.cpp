// `retrylab lessons`: the guided lessons, their titles and number of steps.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "i18n.h"
#include "lesson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace retrylab {
namespace cli {

int lessonsCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("lessons"), QStringLiteral("[--format table|json]"),
                          QCoreApplication::translate("cli", "Lists the guided lessons: name, title and number of steps."));
    QCommandLineParser &parser = command.parser();
    parser.addOptions({formatOption(QStringLiteral("table, json"))});
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, false, &format); rc != Continue)
        return rc;
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
