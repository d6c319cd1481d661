// `retrylab serve`: the order service over real HTTP/1.1 until Ctrl+C or SIGTERM.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "adminaccess.h"
#include "orderserver.h"
#include "scenario.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QNetworkInterface>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <malloc.h>
#include <unistd.h>

namespace retrylab {
namespace cli {

namespace {

// The options of `serve` beyond the shared ones.
struct ServeFlags
{
    QCommandLineOption port;
    QCommandLineOption listen;
    QCommandLineOption db;
    QCommandLineOption keyStore;
    QCommandLineOption adminToken;
};

ServeFlags serveFlags()
{
    return ServeFlags{
        QCommandLineOption(QStringLiteral("port"),
                           QCoreApplication::translate("cli", "TCP port (default 8080; 0 picks a free port and prints it)."),
                           QStringLiteral("P"), QStringLiteral("8080")),
        QCommandLineOption(QStringLiteral("listen"),
                           QCoreApplication::translate("cli", "Address to listen on (default 127.0.0.1). Any other address "
                                          "protects the admin endpoints with a bearer token printed at "
                                          "start-up."),
                           QStringLiteral("ADDR"), QStringLiteral("127.0.0.1")),
        QCommandLineOption(QStringLiteral("db"),
                           QCoreApplication::translate("cli", "SQLite file for orders and keys (default: in memory). Records and "
                                          "keys survive kill -9 and a restart."),
                           QStringLiteral("FILE")),
        QCommandLineOption(QStringLiteral("key-store"),
                           QCoreApplication::translate("cli", "Where idempotency keys live: durable (in the database, the "
                                          "default) or memory (forgotten when the server restarts)."),
                           QStringLiteral("memory|durable")),
        QCommandLineOption(QStringLiteral("admin-token"),
                           QCoreApplication::translate("cli", "Bearer token for /admin/* (16 to 200 letters, digits or - . _ ~ + /), "
                                          "required on every address when given; default: the environment "
                                          "variable RETRYLAB_ADMIN_TOKEN, else none on loopback and a fresh one "
                                          "printed at start-up elsewhere."),
                           QStringLiteral("TOKEN")),
    };
}

// --port and --listen.
int readAddress(const QCommandLineParser &parser, const ServeFlags &flags, ServeOptions *options)
{
    qint64 port = 0; // worded as every other whole-number flag ("an integer from 0 to 65535")
    if (const int rc = readWholeFlag(parser, flags.port, QStringLiteral("serve"), 0, 65535, &port); rc != Continue)
        return rc;
    options->port = quint16(port);
    const QString address = parser.value(flags.listen).trimmed();
    if (address == QLatin1String("localhost"))
        options->address = QHostAddress(QHostAddress::LocalHost);
    else if (!options->address.setAddress(address)) {
        fail(QCoreApplication::translate("cli", "serve: --listen: expected an IP address such as 127.0.0.1, 0.0.0.0 or ::1, got '%1'")
                     .arg(echo(address)));
        return ExitUsage;
    }
    return Continue;
}

// --key-store and --db.
int readStorage(const QCommandLineParser &parser, const ServeFlags &flags, ServeOptions *options)
{
    if (parser.isSet(flags.keyStore)) {
        const QString value = parser.value(flags.keyStore);
        if (value == QLatin1String("memory"))
            options->scenario.server.idempotency.store = KeyStore::Memory;
        else if (value == QLatin1String("durable"))
            options->scenario.server.idempotency.store = KeyStore::Durable;
        else {
            fail(QCoreApplication::translate("cli", "serve: --key-store: expected memory or durable, got '%1'").arg(echo(value)));
            return ExitUsage;
        }
    }
    if (parser.isSet(flags.db)) {
        options->dbFile = parser.value(flags.db);
        const QFileInfo info(options->dbFile);
        if (options->dbFile.trimmed().isEmpty() || info.isDir()) {
            fail(QCoreApplication::translate("cli", "serve: --db: expected a file name, got '%1'").arg(echo(options->dbFile)));
            return ExitUsage;
        }
    }
    return Continue;
}

// --admin-token, else RETRYLAB_ADMIN_TOKEN.
int readAdminToken(const QCommandLineParser &parser, const ServeFlags &flags, ServeOptions *options)
{
    const bool given = parser.isSet(flags.adminToken);
    const QByteArray token = given ? parser.value(flags.adminToken).toUtf8() : qgetenv("RETRYLAB_ADMIN_TOKEN");
    if (!given && token.isEmpty())
        return Continue;
    const QString problem = AdminAccess::tokenProblem(token);
    if (!problem.isEmpty()) {
        fail(QCoreApplication::translate("cli", "serve: %1: %2")
                     .arg(given ? QStringLiteral("--admin-token") : QStringLiteral("RETRYLAB_ADMIN_TOKEN"), problem));
        return ExitUsage;
    }
    options->adminToken = token;
    return Continue;
}

// The faults in effect, named as in the scenario ("network.responseLoss 0.3, 1 script entry"); empty: none.
QString activeFaults(const Scenario &s)
{
    QStringList on;
    const auto add = [&on](const char *name, double value) {
        if (value > 0)
            on << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(value);
    };
    add("network.requestLoss", s.network.requestLoss);
    add("network.responseLoss", s.network.responseLoss);
    add("network.resetAfterCommit", s.network.resetAfterCommit);
    add("network.latencySpike", s.network.latencySpike);
    add("server.error5xxBeforeCommit", s.server.error5xxBeforeCommit);
    add("server.error5xxAfterCommit", s.server.error5xxAfterCommit);
    add("server.throttle429", s.server.throttle429);
    add("server.capacity", s.server.capacity);
    add("server.processingMs", s.server.processingMs.base + s.server.processingMs.jitter);
    if (!s.server.restartsAtS.isEmpty())
        on << QCoreApplication::translate("cli", "%n scheduled restart(s)", nullptr, int(s.server.restartsAtS.size()));
    if (!s.network.script.isEmpty())
        on << QCoreApplication::translate("cli", "%n script entry(s) (network.script)", nullptr, int(s.network.script.size()));
    return on.join(QStringLiteral(", "));
}

// The request to try, as the server's mode needs it; --max-time because a fault may hold the answer.
QString trySteps(const Scenario &s, const QString &url)
{
    const auto tryLine = [](const QString &command) {
        return QCoreApplication::translate("cli", "  try: %1\n").arg(command);
    };
    const QString post = QStringLiteral("curl -i --max-time 5 -X POST %1/orders -H 'Content-Type: application/json' "
                                        "-H 'Idempotency-Key: %2' -d '{\"ref\":\"ORD-0001\",\"item\":\"book\",\"qty\":1}'");
    switch (s.server.idempotency.mode) {
    case IdempotencyMode::Token:
        return QCoreApplication::translate("cli", "  tokens: first get one, then send it as the key:\n")
                + tryLine(QStringLiteral("curl -s --max-time 5 -X POST %1/order-tokens").arg(url))
                + tryLine(post.arg(url, QStringLiteral("<token>")));
    case IdempotencyMode::Off:
        return QCoreApplication::translate("cli", "  idempotency is off: the server ignores Idempotency-Key (every POST "
                                                  "that commits is a new order)\n")
                + tryLine(post.arg(url, QStringLiteral("k-1")));
    default:
        return tryLine(post.arg(url, QStringLiteral("k-1")));
    }
}

// What the server says once it listens: where, with which settings, and a request to try.
QString banner(const OrderServer &server, const ServeOptions &options, bool fromScenario)
{
    const Scenario &s = options.scenario;
    const QString url = server.url().toString();
    const bool everywhere = options.address == QHostAddress::Any || options.address == QHostAddress::AnyIPv4
            || options.address == QHostAddress::AnyIPv6;
    QString text = everywhere ? QCoreApplication::translate("cli", "RetryLab order service listening on http://%1:%2 "
                                                                   "(every address of this machine; here: %3)\n")
                                        .arg(options.address.toString())
                                        .arg(server.port())
                                        .arg(url)
                              : QCoreApplication::translate("cli", "RetryLab order service listening on %1\n").arg(url);
    if (everywhere) {
        // What students type: this machine's other addresses.
        const QList<QHostAddress> addresses = QNetworkInterface::allAddresses();
        for (const QHostAddress &a : addresses) {
            if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback())
                text += QCoreApplication::translate("cli", "  also reachable at http://%1:%2\n").arg(a.toString()).arg(server.port());
        }
    }
    text += QCoreApplication::translate("cli", "  idempotency: %1, key store: %2, database: %3\n")
                    .arg(scenario::toString(s.server.idempotency.mode), scenario::toString(s.server.idempotency.store),
                         options.dbFile.isEmpty() ? QCoreApplication::translate("cli", "in memory") : echo(options.dbFile, -1));
    if (!options.dbFile.isEmpty()) {
        const OrderServer::Loaded loaded = server.loaded();
        text += QCoreApplication::translate("cli", "  loaded from the file: %1 records, %2 keys, %3 order tokens\n")
                        .arg(loaded.records)
                        .arg(loaded.keys)
                        .arg(loaded.tokens);
    }
    if (fromScenario)
        text += QCoreApplication::translate("cli", "  server and fault settings from scenario %1 (seed %2)\n").arg(echo(s.name), QString::number(s.seed));
    const QString faults = activeFaults(s);
    text += faults.isEmpty() ? QCoreApplication::translate("cli", "  faults: none\n")
                             : QCoreApplication::translate("cli", "  faults: %1 (an answer may never come)\n").arg(faults);
    if (!options.adminToken.isEmpty())
        text += QCoreApplication::translate("cli", "  admin: needs the token given by --admin-token or RETRYLAB_ADMIN_TOKEN\n");
    else if (!server.adminToken().isEmpty())
        text += QCoreApplication::translate("cli", "  admin token (Authorization: Bearer ...): %1\n").arg(QString::fromLatin1(server.adminToken()));
    text += trySteps(s, url);
    text += QCoreApplication::translate("cli", "Press Ctrl+C to stop.\n");
    return text;
}

// Ctrl+C and SIGTERM reach the event loop through a pipe: a signal handler may only write().
int g_signalPipe[2] = {-1, -1};

void onStopSignal(int)
{
    const char byte = 1;
    if (g_signalPipe[1] >= 0)
        (void)!::write(g_signalPipe[1], &byte, 1);
}

// Runs the event loop until Ctrl+C or SIGTERM; false when the handler cannot be installed.
bool serveUntilStopped()
{
    if (::pipe(g_signalPipe) != 0)
        return false;
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, QCoreApplication::instance(), [] {
        char byte = 0;
        (void)!::read(g_signalPipe[0], &byte, 1);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    QCoreApplication::exec();
    return true;
}

} // namespace

int serveCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("serve"),
                          QStringLiteral("[--port P] [--listen ADDR] [--db FILE] [--key-store memory|durable] [--admin-token TOKEN] "
                                         "[--scenario NAME|FILE] [--set path=value ...]"),
                          QCoreApplication::translate("cli", "Serves the order service over real HTTP/1.1: POST /orders, GET /orders/{id}, "
                                         "GET /orders?ref=, POST /order-tokens, GET /metrics, GET /healthz, "
                                         "GET /problems/{type}, GET|PUT /admin/faults, POST /admin/reset. Stop it with Ctrl+C."));
    QCommandLineParser &parser = command.parser();
    const ServeFlags flags = serveFlags();
    for (const QCommandLineOption &option : {flags.port, flags.listen, flags.db, flags.keyStore, flags.adminToken, scenarioOption(),
                                             setOption(), seedOption()})
        parser.addOption(option);
    if (const int rc = command.parse(arguments); rc != Continue)
        return rc;

    ServeOptions options;
    // A preset or file, else the built-in serve settings; --set and --seed change either.
    const Scenario builtIn = ServeOptions::defaultScenario();
    if (const int rc = loadScenario(parser, QStringLiteral("serve"), &options.scenario, &builtIn); rc != Continue)
        return rc;
    if (const int rc = readAddress(parser, flags, &options); rc != Continue)
        return rc;
    if (const int rc = readStorage(parser, flags, &options); rc != Continue)
        return rc;
    if (const int rc = readAdminToken(parser, flags, &options); rc != Continue)
        return rc;

    // The store grows by small blocks all the time: keep freed heap instead of handing it back to
    // the kernel and faulting it in again (glibc trims above 128 KiB by default).
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    mallopt(M_TOP_PAD, 16 * 1024 * 1024);
    OrderServer server;
    const QString error = server.start(options);
    if (!error.isEmpty()) {
        fail(QStringLiteral("serve: %1").arg(error));
        return ExitRuntime;
    }
    writeOut(banner(server, options, parser.isSet(scenarioOption())));
    std::fflush(stdout);
    if (!serveUntilStopped()) {
        fail(QCoreApplication::translate("cli", "serve: cannot install the signal handler"));
        return ExitRuntime;
    }
    server.stop();
    writeOut(QCoreApplication::translate("cli", "Stopped.\n"));
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
