// `retrylab proxy`: the lab's wire faults in front of any HTTP service, and its ledger at exit.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "faultproxy.h"
#include "faults.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace retrylab {
namespace cli {

namespace {

// The options of `proxy` beyond the shared ones.
struct ProxyFlags
{
    QCommandLineOption upstream{QStringLiteral("upstream"),
                                QCoreApplication::translate("cli", "The service behind the proxy: http://host:port (required)."),
                                QStringLiteral("URL")};
    QCommandLineOption port{QStringLiteral("port"),
                            QCoreApplication::translate("cli", "TCP port (default 8081; 0 picks a free port and prints it)."),
                            QStringLiteral("P"), QStringLiteral("8081")};
    QCommandLineOption listen{QStringLiteral("listen"),
                              QCoreApplication::translate("cli", "Address to listen on (default 127.0.0.1)."),
                              QStringLiteral("ADDR"), QStringLiteral("127.0.0.1")};
    QCommandLineOption keyHeader{QStringLiteral("key-header"),
                                 QCoreApplication::translate("cli", "The idempotency key's header (default Idempotency-Key)."),
                                 QStringLiteral("NAME"), QStringLiteral("Idempotency-Key")};
    QCommandLineOption orderField{QStringLiteral("order-field"),
                                  QCoreApplication::translate("cli", "A field of the JSON body naming the logical request "
                                                                     "(such as ref): its attempts are counted together."),
                                  QStringLiteral("FIELD")};
    QCommandLineOption faultMethods{QStringLiteral("fault-methods"),
                                    QCoreApplication::translate("cli", "Methods the faults strike (default POST)."),
                                    QStringLiteral("M1,M2"), QStringLiteral("POST")};
    QCommandLineOption timeout{QStringLiteral("upstream-timeout"),
                               QCoreApplication::translate("cli", "Milliseconds to wait for the upstream's whole answer "
                                                                  "before answering 504 (default 30000)."),
                               QStringLiteral("MS"), QStringLiteral("30000")};
    QCommandLineOption report{QStringLiteral("report"),
                              QCoreApplication::translate("cli", "At exit, print every logical request: attempts, answers, "
                                                                 "resources created, duplicates, orphans.")};
    QCommandLineOption requests{QStringLiteral("requests"),
                                QCoreApplication::translate("cli", "Stop after N finished requests (default: at Ctrl+C or SIGTERM)."),
                                QStringLiteral("N")};
};

// A whole number from `min` to `max`, or a usage error naming the flag.
int readOptions(const QCommandLineParser &parser, const ProxyFlags &flags, FaultProxy::Options *o, qint64 *stopAfter)
{
    if (!parser.isSet(flags.upstream)) {
        fail(QCoreApplication::translate("cli", "proxy: missing --upstream URL (the service to put the faults in front of)"));
        return ExitUsage;
    }
    o->upstream = QUrl(parser.value(flags.upstream).trimmed(), QUrl::StrictMode);
    const QString command = QStringLiteral("proxy");
    qint64 port = 0, timeout = 0;
    if (const int rc = readWholeFlag(parser, flags.port, command, 0, 65535, &port); rc != Continue)
        return rc;
    if (const int rc = readWholeFlag(parser, flags.timeout, command, 1, 3600000, &timeout); rc != Continue)
        return rc;
    o->port = quint16(port);
    o->upstreamTimeoutMs = int(timeout);
    if (parser.isSet(flags.requests)) {
        if (const int rc = readWholeFlag(parser, flags.requests, command, 1, 1000000000, stopAfter); rc != Continue)
            return rc;
    }
    const QString address = parser.value(flags.listen).trimmed();
    if (address == QLatin1String("localhost"))
        o->listen = QHostAddress(QHostAddress::LocalHost);
    else if (!o->listen.setAddress(address)) {
        fail(QCoreApplication::translate("cli", "proxy: --listen: expected an IP address such as 127.0.0.1, got '%1'").arg(echo(address)));
        return ExitUsage;
    }
    o->keyHeader = parser.value(flags.keyHeader).trimmed().toLatin1();
    o->orderField = parser.value(flags.orderField).trimmed();
    o->faultMethods.clear();
    for (const QString &m : parser.value(flags.faultMethods).split(QLatin1Char(','), Qt::SkipEmptyParts))
        o->faultMethods.append(m.trimmed().toUpper().toLatin1());
    return Continue;
}

// The faults in effect by their scenario paths; empty: none.
QString faultList(const Scenario &s)
{
    const std::pair<const char *, double> rates[] = {
            {"network.connectFailure", s.network.connectFailure}, {"network.requestLoss", s.network.requestLoss},
            {"network.responseLoss", s.network.responseLoss},     {"network.resetAfterCommit", s.network.resetAfterCommit},
            {"network.latencySpike", s.network.latencySpike},     {"server.error5xxBeforeCommit", s.server.error5xxBeforeCommit},
            {"server.error5xxAfterCommit", s.server.error5xxAfterCommit}, {"server.throttle429", s.server.throttle429}};
    QStringList on;
    for (const auto &r : rates) {
        if (r.second > 0)
            on << QStringLiteral("%1 %2").arg(QLatin1String(r.first)).arg(r.second);
    }
    if (!s.network.script.isEmpty())
        on << QCoreApplication::translate("cli", "%n script entry(s) (network.script)", nullptr, int(s.network.script.size()));
    return on.join(QStringLiteral(", "));
}

QString banner(const FaultProxy &proxy, const FaultProxy::Options &o)
{
    QString text = QCoreApplication::translate("cli", "RetryLab fault proxy listening on %1, in front of %2\n")
                           .arg(proxy.url().toString(), echo(o.upstream.toString()));
    const QString faults = faultList(o.scenario);
    text += faults.isEmpty() ? QCoreApplication::translate("cli", "  faults: none (seed %1)\n").arg(o.scenario.seed)
                             : QCoreApplication::translate("cli", "  faults on %1: %2 (seed %3)\n")
                                       .arg(QString::fromLatin1(o.faultMethods.join(',')), faults)
                                       .arg(o.scenario.seed);
    text += QCoreApplication::translate("cli", "  logical requests grouped by %1\n")
                    .arg(o.orderField.isEmpty() ? QCoreApplication::translate("cli", "the %1 header").arg(QString::fromLatin1(o.keyHeader))
                                                : QCoreApplication::translate("cli", "the body field \"%1\", else the %2 header")
                                                          .arg(echo(o.orderField), QString::fromLatin1(o.keyHeader)));
    if (!o.metricsPath.isEmpty())
        text += QCoreApplication::translate("cli", "  its counts: %1%2\n").arg(proxy.url().toString(), QString::fromLatin1(o.metricsPath));
    text += QCoreApplication::translate("cli", "Press Ctrl+C to stop.\n");
    return text;
}

// The ledger for people: one line per logical request, then the totals.
QString reportTable(const FaultProxy &proxy)
{
    const ProxyLedger &ledger = proxy.ledger();
    QList<QStringList> rows;
    rows << QStringList{QCoreApplication::translate("cli", "op"), QCoreApplication::translate("cli", "request"),
                        QCoreApplication::translate("cli", "attempts"), QCoreApplication::translate("cli", "client saw"),
                        QCoreApplication::translate("cli", "created"), QCoreApplication::translate("cli", "duplicates"),
                        QCoreApplication::translate("cli", "orphan")};
    for (const ProxyLedger::Row &r : ledger.rows()) {
        QStringList seen;
        for (const int s : r.clientStatuses)
            seen << (s > 0 ? QString::number(s) : QStringLiteral("-"));
        rows << QStringList{QString::number(r.op), echo(r.group, 40), QString::number(r.attempts), seen.join(QLatin1Char(' ')),
                            QString::number(r.created()), QString::number(r.duplicates()),
                            r.orphan() ? QCoreApplication::translate("cli", "yes") : QString()};
    }
    const ProxyLedger::Totals t = ledger.totals();
    return alignedTable(rows)
           + QCoreApplication::translate("cli", "\n%1 logical requests, %2 attempts, %3 resources created, %4 duplicates, "
                                                "%5 orphans (%6 exchanges, %7 reads; - : no answer)\n")
                     .arg(t.logicalRequests)
                     .arg(t.attempts)
                     .arg(t.created)
                     .arg(t.duplicates)
                     .arg(t.orphans)
                     .arg(t.exchanges)
                     .arg(t.reads);
}

// Ctrl+C and SIGTERM end the event loop through a pipe (a handler may only write()).
int g_stopPipe[2] = {-1, -1};

void stopSignal(int)
{
    const char byte = 1;
    if (g_stopPipe[1] >= 0)
        (void)!::write(g_stopPipe[1], &byte, 1);
}

bool runUntilStopped(FaultProxy &proxy, qint64 stopAfter)
{
    if (::pipe(g_stopPipe) != 0)
        return false;
    QSocketNotifier notifier(g_stopPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &proxy, [] {
        char byte = 0;
        (void)!::read(g_stopPipe[0], &byte, 1);
        QCoreApplication::quit();
    });
    if (stopAfter > 0) {
        QObject::connect(&proxy, &FaultProxy::exchangeFinished, &proxy, [&proxy, stopAfter] {
            if (proxy.ledger().totals().exchanges >= stopAfter)
                QCoreApplication::quit();
        });
    }
    struct sigaction onStop = {};
    onStop.sa_handler = stopSignal;
    sigemptyset(&onStop.sa_mask);
    for (const int sig : {SIGINT, SIGTERM})
        ::sigaction(sig, &onStop, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    QCoreApplication::exec();
    return true;
}

} // namespace

int proxyCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("proxy"),
                          QStringLiteral("--upstream URL [--port P] [--listen ADDR] [--scenario NAME|FILE] [--set network.*=value ...] "
                                         "[--seed N] [--order-field FIELD] [--key-header NAME] [--fault-methods M1,M2] "
                                         "[--upstream-timeout MS] [--report] [--requests N] [--format table|json]"),
                          QCoreApplication::translate("cli", "A reverse proxy in front of your own HTTP service that applies the lab's "
                                                             "wire faults (network.* and server.* of the scenario) to real requests "
                                                             "and counts, without touching the service, the duplicates and orphans "
                                                             "it creates. GET /metrics on the proxy gives its counts."));
    QCommandLineParser &parser = command.parser();
    const ProxyFlags flags;
    for (const QCommandLineOption &option : {flags.upstream, flags.port, flags.listen, flags.keyHeader, flags.orderField,
                                             flags.faultMethods, flags.timeout, flags.report, flags.requests, scenarioOption(),
                                             setOption(), seedOption(), formatOption(QStringLiteral("table|json"))})
        parser.addOption(option);
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, false, &format); rc != Continue)
        return rc;
    FaultProxy::Options options;
    const Scenario none = FaultProxy::Options::noFaults();
    if (const int rc = loadScenario(parser, QStringLiteral("proxy"), &options.scenario, &none); rc != Continue)
        return rc;
    qint64 stopAfter = 0;
    if (const int rc = readOptions(parser, flags, &options, &stopAfter); rc != Continue)
        return rc;
    FaultProxy proxy;
    const QString error = proxy.start(options);
    if (!error.isEmpty()) {
        fail(QStringLiteral("proxy: %1").arg(echo(error, 300)));
        return error.startsWith(QLatin1String("upstream:")) ? ExitUsage : ExitRuntime;
    }
    writeTo(format == Format::Json ? stderr : stdout, banner(proxy, options));
    std::fflush(stdout);
    if (!runUntilStopped(proxy, stopAfter)) {
        fail(QCoreApplication::translate("cli", "proxy: cannot install the signal handler"));
        return ExitRuntime;
    }
    proxy.stop();
    if (format == Format::Json) {
        QJsonObject out = proxy.ledger().toJson(1000000);
        out.insert(QStringLiteral("proxy"), proxy.metricsJson().value(QLatin1String("proxy")));
        writeOut(QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Indented)));
    } else if (parser.isSet(flags.report)) {
        writeOut(reportTable(proxy));
    }
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
