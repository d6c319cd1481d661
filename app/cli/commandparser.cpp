#include "commandparser.h"

#include "options.h"
#include "output.h"

#include <QCoreApplication>

namespace retrylab {
namespace cli {

CommandParser::CommandParser(const QString &command, const QString &synopsis, const QString &description)
    : m_command(command), m_synopsis(synopsis), m_help(m_parser.addHelpOption())
{
    m_parser.setApplicationDescription(description);
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
}

int CommandParser::parse(const QStringList &arguments)
{
    QStringList list = arguments;
    list.prepend(QStringLiteral("retrylab"));
    if (!m_parser.parse(list)) {
        // Qt's text quotes the flag as typed: escaped and cut like every other echo.
        fail(QCoreApplication::translate("cli", "%1: %2 (see 'retrylab %1 --help')").arg(m_command, echo(sentence(m_parser.errorText()))));
        return ExitUsage;
    }
    if (m_parser.isSet(m_help)) {
        writeOut(helpText());
        return ExitOk;
    }
    const QStringList extra = m_parser.positionalArguments();
    if (!extra.isEmpty()) {
        fail(QCoreApplication::translate("cli", "%1: unexpected argument '%2' (see 'retrylab %1 --help')").arg(m_command, echo(extra.first())));
        return ExitUsage;
    }
    return Continue;
}

int CommandParser::parse(const QStringList &arguments, bool csvAllowed, Format *format)
{
    if (const int rc = parse(arguments); rc != Continue)
        return rc;
    return parseFormat(m_parser, m_command, csvAllowed, format);
}

QString CommandParser::helpText() const
{
    // Qt's first line names the executable's full path; ours shows the real synopsis.
    QString text = m_parser.helpText();
    const int newline = text.indexOf(QLatin1Char('\n'));
    return QCoreApplication::translate("cli", "Usage: retrylab %1 %2").arg(m_command, m_synopsis)
            + (newline >= 0 ? text.mid(newline) : QString());
}

} // namespace cli
} // namespace retrylab
