// `retrylab check URL`: an idempotency report card of any endpoint that takes POST.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "check/checkrunner.h"
#include "check/checkverdicts.h"
#include "check/checkwords.h"
#include "check/proxyfaults.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QRegularExpression>

#include <cstdio>

namespace retrylab {
namespace cli {

namespace {

// The options of `check`.
struct CheckFlags
{
    QCommandLineOption body{QStringLiteral("body"),
                            QCoreApplication::translate("cli", "Request body; {n} becomes a fresh number for each logical request (default "
                               "{\"ref\":\"CHK-{n}\",\"item\":\"book\",\"qty\":1})."),
                            QStringLiteral("TEMPLATE")};
    QCommandLineOption keyHeader{QStringLiteral("key-header"), QCoreApplication::translate("cli", "Name of the idempotency key header (default Idempotency-Key)."),
                                 QStringLiteral("NAME"), QStringLiteral("Idempotency-Key")};
    QCommandLineOption header{QStringList{QStringLiteral("H"), QStringLiteral("header")},
                              QCoreApplication::translate("cli", "An extra request header 'Name: value' (repeatable), e.g. authorization."),
                              QStringLiteral("HEADER")};
    QCommandLineOption rounds{QStringLiteral("rounds"), QCoreApplication::translate("cli", "Run every probe N times (1 to 100, default 1); the worst round counts."),
                              QStringLiteral("N"), QStringLiteral("1")};
    QCommandLineOption concurrency{QStringLiteral("concurrency"),
                                   QCoreApplication::translate("cli", "Requests with one key sent at once by the in-flight probe (2 to 64, default 2)."),
                                   QStringLiteral("N"), QStringLiteral("2")};
    QCommandLineOption timeout{QStringLiteral("timeout"),
                               QCoreApplication::translate("cli", "Milliseconds to wait for an answer (100 to 600000, default 5000); the ghost probe "
                                  "waits this long for the answer the proxy drops."),
                               QStringLiteral("MS"), QStringLiteral("5000")};
    QCommandLineOption list{QStringLiteral("list"),
                            QCoreApplication::translate("cli", "A GET that returns the collection ({n} allowed): resources are counted before and "
                               "after each probe."),
                            QStringLiteral("URL")};
    QCommandLineOption countField{QStringLiteral("count-field"),
                                  QCoreApplication::translate("cli", "Where the --list answer holds the count or the array (a dotted path; default: a "
                                     "top-level array, or the answer's only array)."),
                                  QStringLiteral("PATH")};
    QCommandLineOption save{QStringLiteral("save"),
                            QCoreApplication::translate("cli", "Also write the report with every probe's exchanges to FILE (JSON), for the window: "
                               "retrylab --check-report FILE, or File > Open check report…."),
                            QStringLiteral("FILE")};
    QCommandLineOption idField{QStringLiteral("id-field"),
                               QCoreApplication::translate("cli", "Where a JSON answer names the created resource (a dotted path, default id); "
                                  "else its Location header."),
                               QStringLiteral("PATH"), QStringLiteral("id")};
};

// An http:// URL with a host; `what` names it in the error.
int readUrl(const QString &text, const QString &what, QUrl *out)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.scheme() != QLatin1String("http") || url.host().isEmpty()) {
        fail(QCoreApplication::translate("cli", "check: %1: expected an http:// URL such as http://127.0.0.1:8080/orders, got '%2'").arg(what, echo(text)));
        return ExitUsage;
    }
    *out = url;
    return Continue;
}

int readHeaders(const QCommandLineParser &parser, const CheckFlags &flags, CheckOptions *options)
{
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
    for (const QString &h : parser.values(flags.header)) {
        const int colon = int(h.indexOf(QLatin1Char(':')));
        const QString name = h.left(colon).trimmed();
        const QString value = h.mid(colon + 1).trimmed();
        bool printable = true;
        for (const QChar c : value)
            printable = printable && c.unicode() >= 0x20 && c.unicode() < 0x7f;
        if (colon <= 0 || !token.match(name).hasMatch() || !printable) {
            fail(QCoreApplication::translate("cli", "check: -H: expected 'Name: value' in visible ASCII, got '%1'").arg(echo(h)));
            return ExitUsage;
        }
        options->headers.append({name.toLatin1(), value.toLatin1()});
    }
    const QString key = parser.value(flags.keyHeader).trimmed();
    if (!token.match(key).hasMatch()) {
        fail(QCoreApplication::translate("cli", "check: --key-header: expected a header name such as Idempotency-Key, got '%1'").arg(echo(key)));
        return ExitUsage;
    }
    options->keyHeader = key.toLatin1();
    return Continue;
}

int readOptions(const QCommandLineParser &parser, const CheckFlags &flags, CheckOptions *options)
{
    if (parser.isSet(flags.body)) {
        options->bodyTemplate = parser.value(flags.body).toUtf8();
        if (options->bodyTemplate.isEmpty() || options->bodyTemplate.size() > 64 * 1024) {
            fail(QCoreApplication::translate("cli", "check: --body: expected 1 byte to 64 KiB, got %1 bytes").arg(options->bodyTemplate.size()));
            return ExitUsage;
        }
    }
    if (const int rc = readHeaders(parser, flags, options); rc != Continue)
        return rc;
    const QString command = QStringLiteral("check");
    qint64 rounds = 0, concurrency = 0, timeout = 0;
    if (const int rc = readWholeFlag(parser, flags.rounds, command, 1, CheckOptions::MaxRounds, &rounds); rc != Continue)
        return rc;
    if (const int rc = readWholeFlag(parser, flags.concurrency, command, 2, CheckOptions::MaxConcurrency, &concurrency); rc != Continue)
        return rc;
    if (const int rc = readWholeFlag(parser, flags.timeout, command, 100, 600000, &timeout); rc != Continue)
        return rc;
    options->rounds = int(rounds);
    options->concurrency = int(concurrency);
    options->timeoutMs = int(timeout);
    if (parser.isSet(flags.list)) {
        if (const int rc = readUrl(parser.value(flags.list), QStringLiteral("--list"), &options->listUrl); rc != Continue)
            return rc;
    }
    options->countField = parser.value(flags.countField).trimmed();
    options->idField = parser.value(flags.idField).trimmed();
    return Continue;
}

// "201, 201; created 1" (a dropped answer as "201 lost").
QString evidence(const ProbeVerdict &v, const ProbeObservation &o)
{
    QStringList statuses;
    for (int i = 0; i < v.statuses.size(); ++i) {
        const bool lost = i < o.exchanges.size() && o.exchanges.at(i).fault == CheckFault::ResponseLost;
        const bool proxy = i < o.exchanges.size() && o.exchanges.at(i).fault == CheckFault::Error5xxBeforeCommit;
        statuses << (lost ? QCoreApplication::translate("cli", "%1 lost").arg(v.statuses.at(i))
                          : proxy ? QCoreApplication::translate("cli", "%1 from the proxy").arg(v.statuses.at(i))
                                  : v.statuses.at(i) == 0 ? QCoreApplication::translate("cli", "none") : QString::number(v.statuses.at(i)));
    }
    const QString created = v.creations < 0 ? QCoreApplication::translate("cli", "created ?") : QCoreApplication::translate("cli", "created %1").arg(v.creations);
    return QCoreApplication::translate("cli", "[%1; %2]").arg(statuses.join(QStringLiteral(", ")), created);
}

QString table(const CheckReport &report, const CheckOptions &options)
{
    QString text = QCoreApplication::translate("cli", "Idempotency check of %1 (%n round(s)", nullptr, options.rounds).arg(echo(options.url.toString()))
            + QCoreApplication::translate("cli", ", %n at once in flight)\n\n", nullptr, options.concurrency);
    QList<QStringList> rows{{QCoreApplication::translate("cli", "probe"), QCoreApplication::translate("cli", "verdict"), QCoreApplication::translate("cli", "what it shows [statuses; resources created]")}};
    int counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < report.card.size(); ++i) {
        const ProbeVerdict &v = report.card.at(i);
        const ProbeObservation o = report.rounds.value(i).value(v.round - 1);
        rows << QStringList{check::probeTitle(v.probe), check::verdictWord(v.verdict), check::findingText(v, options.idField) + QLatin1Char(' ') + evidence(v, o)};
        ++counts[int(v.verdict)];
    }
    text += wrappedTable(rows);
    text += QCoreApplication::translate("cli", "\n%1 pass, %2 fail, %3 warn, %4 cannot tell, %5 not applicable.\n")
                    .arg(counts[int(Verdict::Pass)])
                    .arg(counts[int(Verdict::Fail)])
                    .arg(counts[int(Verdict::Warn)])
                    .arg(counts[int(Verdict::CannotTell)])
                    .arg(counts[int(Verdict::NotApplicable)]);
    QString notes = options.listUrl.isEmpty()
            ? QCoreApplication::translate("cli", "Resources are told apart by the answer's \"%1\", else its Location; give --list to count them "
                 "where the answers name none.").arg(options.idField)
            : QCoreApplication::translate("cli", "Resources are counted by --list before and after each probe.");
    if (!report.listError.isEmpty())
        notes += QLatin1Char(' ') + QCoreApplication::translate("cli", "--list gave no count (%1): ids and Location only.").arg(echo(report.listError));
    return text + wrapped(notes, TerminalWidth).join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString synopsis()
{
    return QStringLiteral("URL [--body TEMPLATE] [--key-header NAME] [-H 'Name: value' ...] [--rounds N] [--concurrency N] "
                          "[--timeout MS] [--list URL] [--count-field PATH] [--id-field PATH] [--format table|json] [--save FILE]");
}

} // namespace

int checkCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("check"), synopsis(),
                          QCoreApplication::translate("cli", "Checks how an endpoint that takes POST handles idempotency keys: replays, another body "
                             "(422), a request in flight (409), a lost answer (the ghost, through a fault proxy it "
                             "starts on loopback), a missing key (400), no key twice, and a 5xx before commit. Exit "
                             "status 0 when no probe fails, 1 when one does, 2 for bad usage or an unreachable endpoint."));
    QCommandLineParser &parser = command.parser();
    const CheckFlags flags;
    for (const QCommandLineOption &option : {flags.body, flags.keyHeader, flags.header, flags.rounds, flags.concurrency,
                                             flags.timeout, flags.list, flags.countField, flags.idField, flags.save,
                                             formatOption(QStringLiteral("table|json"))})
        parser.addOption(option);
    // The endpoint comes first: `retrylab check http://127.0.0.1:5000/orders --rounds 3`.
    QStringList rest = arguments;
    const QString url = !rest.isEmpty() && !rest.constFirst().startsWith(QLatin1Char('-')) ? rest.takeFirst() : QString();
    Format format = Format::Table;
    if (const int rc = command.parse(rest, false, &format); rc != Continue)
        return rc;
    if (url.isEmpty()) {
        fail(QCoreApplication::translate("cli", "check: expected the endpoint's URL first: retrylab check http://127.0.0.1:8080/orders [options]"));
        return ExitUsage;
    }
    CheckOptions options;
    if (const int rc = readUrl(url, QStringLiteral("URL"), &options.url); rc != Continue)
        return rc;
    if (const int rc = readOptions(parser, flags, &options); rc != Continue)
        return rc;

    // The file is opened before the check runs, so a bad path costs no probe; it is replaced
    // only once the report is whole.
    const QString saveFile = parser.value(flags.save);
    QSaveFile saved(saveFile);
    if (parser.isSet(flags.save) && (saveFile.isEmpty() || !saved.open(QIODevice::WriteOnly))) {
        fail(QCoreApplication::translate("cli", "check: --save: cannot write '%1': %2").arg(echo(saveFile), saved.errorString()));
        return ExitUsage;
    }

    ProxyFaults proxy;
    const QString proxyError = proxy.start(options.url, options.keyHeader);
    if (!proxyError.isEmpty()) {
        fail(QCoreApplication::translate("cli", "check: cannot start the fault proxy: %1").arg(proxyError));
        return ExitRuntime;
    }
    CheckRunner runner(options, &proxy);
    const CheckReport report = runner.run();
    if (!report.error.isEmpty()) {
        fail(QStringLiteral("check: %1").arg(report.error));
        return ExitUsage;
    }
    const QByteArray json = QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented);
    if (parser.isSet(flags.save) && (saved.write(json) != json.size() || !saved.commit())) {
        fail(QCoreApplication::translate("cli", "check: --save: cannot write '%1': %2").arg(echo(saveFile), saved.errorString()));
        return ExitRuntime;
    }
    if (format == Format::Json)
        writeOut(QString::fromUtf8(json));
    else
        writeOut(table(report, options));
    return check::exitStatus(report.card);
}

} // namespace cli
} // namespace retrylab
