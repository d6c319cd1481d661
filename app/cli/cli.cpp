// The command line's entry: which words mean a command, and which file runs each one.
#include "cli.h"

#include "commands.h"
#include "options.h"
#include "output.h"

#include "i18n.h"
#include "shell/gui.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstring>
#include <memory>

namespace retrylab {
namespace cli {

namespace {

const char *const Commands[] = {"run", "sweep", "compare", "list", "lessons", "fields", "serve", "proxy", "check", "help"};

int dispatch(const QString &command, const QStringList &arguments)
{
    if (command == QLatin1String("run"))
        return runCommand(arguments);
    if (command == QLatin1String("sweep"))
        return sweepCommand(arguments);
    if (command == QLatin1String("compare"))
        return compareCommand(arguments);
    if (command == QLatin1String("list"))
        return listCommand(arguments);
    if (command == QLatin1String("lessons"))
        return lessonsCommand(arguments);
    if (command == QLatin1String("fields"))
        return fieldsCommand(arguments);
    if (command == QLatin1String("serve"))
        return serveCommand(arguments);
    if (command == QLatin1String("proxy"))
        return proxyCommand(arguments);
    if (command == QLatin1String("check"))
        return checkCommand(arguments);
    if (command == QLatin1String("help") || command == QLatin1String("--help") || command == QLatin1String("-h")) {
        // `help run` is `run --help`; an unknown topic gets dispatch's unknown-command error.
        if (command == QLatin1String("help") && !arguments.isEmpty()
            && arguments.constFirst() != QLatin1String("help"))
            return dispatch(arguments.constFirst(), {QStringLiteral("--help")});
        writeOut(generalHelp());
        return ExitOk;
    }
    if (command == QLatin1String("--version")) {
        writeOut(QStringLiteral("retrylab %1\n").arg(QCoreApplication::applicationVersion()));
        return ExitOk;
    }
    fail(QCoreApplication::translate("cli", "unknown command '%1' (expected run, sweep, compare, list, lessons, fields, serve, proxy, check or help)").arg(echo(command)));
    return ExitUsage;
}

} // namespace

bool wanted(int argc, char *argv[])
{
    if (argc < 2 || !argv[1])
        return false;
    const char *first = argv[1];
    if (!std::strcmp(first, "--help") || !std::strcmp(first, "-h") || !std::strcmp(first, "--version"))
        return true;
    for (const char *command : Commands) {
        if (!std::strcmp(first, command))
            return true;
    }
    // A bare word is meant as a command: a typo gets a usage error, not a window.
    return first[0] != '-' && first[0] != '\0';
}

int run(int argc, char *argv[], const QString &language)
{
    // serve spends its time in the event loop: Qt's own Unix dispatcher is lighter than GLib's.
    if (argc >= 2 && argv[1] && (!std::strcmp(argv[1], "serve") || !std::strcmp(argv[1], "proxy")) && !qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    // sweep --chart draws with Qt Charts, which needs a QApplication (offscreen without a display).
    bool chart = false;
    for (int i = 2; i < argc && argv[1] && !std::strcmp(argv[1], "sweep"); ++i)
        chart = chart || !std::strcmp(argv[i], "--chart") || !std::strncmp(argv[i], "--chart=", 8);
    // So does lessons --handout: the handout draws each step's timeline with the desktop lab's widget.
    for (int i = 2; i < argc && argv[1] && !std::strcmp(argv[1], "lessons"); ++i)
        chart = chart || !std::strcmp(argv[i], "--handout") || !std::strncmp(argv[i], "--handout=", 10);
    if (chart && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (chart)
        quietenQtWarnings(); // widgets offscreen: Qt's two warnings of a clean run stay off stderr
    std::unique_ptr<QCoreApplication> application = chart ? std::make_unique<QApplication>(argc, argv)
                                                          : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("retrylab"));
    QCoreApplication::setApplicationVersion(QStringLiteral("1.0.0"));
    i18n::install(language.isEmpty() ? i18n::systemLanguage() : language);
    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    if (arguments.isEmpty()) {
        writeOut(generalHelp());
        return ExitUsage;
    }
    const QString command = arguments.takeFirst();
    return dispatch(command, arguments);
}

} // namespace cli
} // namespace retrylab
