// `retrylab list`: the built-in presets and what each one teaches.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "i18n.h"
#include "scenario.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace retrylab {
namespace cli {

int listCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("list"), QStringLiteral("[--long] [--format table|json]"),
                          QCoreApplication::translate("cli", "Lists the built-in scenario presets and what each one teaches."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption longOption(QStringLiteral("long"),
                                        QCoreApplication::translate("cli", "Also print each preset's whole lesson text."));
    parser.addOptions({longOption, formatOption(QStringLiteral("table, json"))});
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, false, &format); rc != Continue)
        return rc;
    const bool longForm = parser.isSet(longOption);

    QJsonArray presets;
    QList<QStringList> rows{{QCoreApplication::translate("cli", "PRESET"), QCoreApplication::translate("cli", "WHAT IT TEACHES")}};
    const QStringList names = scenario::presetNames();
    for (const QString &name : names) {
        const ScenarioParse parsed = scenario::preset(name);
        const QString title = parsed.ok() ? parsed.scenario.title
                                          : QCoreApplication::translate("cli", "(invalid preset: %1)").arg(parsed.errors.value(0));
        if (longForm && rows.size() > 1)
            rows << QStringList{QString(), QString()};
        rows << QStringList{name, parsed.ok() ? i18n::content(title) : title};
        if (longForm && parsed.ok())
            rows << QStringList{QString(), i18n::content(parsed.scenario.description)};
        presets.append(QJsonObject{{QStringLiteral("name"), name},
                                   {QStringLiteral("title"), title},
                                   {QStringLiteral("description"), parsed.scenario.description}});
    }
    if (format == Format::Json) {
        writeOut(QString::fromUtf8(QJsonDocument(presets).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }
    writeOut(wrappedTable(rows));
    writeOut(QStringLiteral("\n")
             + wrapped(longForm ? QCoreApplication::translate("cli", "Run one with 'retrylab run --scenario PRESET'; change it with "
                                                                     "--set (see 'retrylab fields').")
                                : QCoreApplication::translate("cli", "Run one with 'retrylab run --scenario PRESET', read every "
                                                                     "lesson with 'retrylab list --long'; change it with --set "
                                                                     "(see 'retrylab fields')."),
                       TerminalWidth)
                       .join(QLatin1Char('\n'))
             + QLatin1Char('\n'));
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
