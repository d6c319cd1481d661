// `retrylab compare`: a scenario (A) and a copy with some settings changed (B), same seed,
// side by side.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "compare.h"
#include "scenario.h"
#include "work.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace retrylab {
namespace cli {

namespace {

QString compareTr(const char *text)
{
    return QCoreApplication::translate("cli", text);
}

QJsonObject compareJson(const Scenario &a, const QString &labelB, const QList<ScenarioChange> &changes,
                        const CompareSummary &summary)
{
    QJsonArray changed;
    for (const ScenarioChange &c : changes)
        changed.append(QJsonObject{{QStringLiteral("path"), c.path}, {QStringLiteral("from"), c.from},
                                   {QStringLiteral("to"), c.to}});
    QJsonArray rows;
    for (const CompareRow &r : summary.rows) {
        const std::optional<double> relative = r.relative();
        rows.append(QJsonObject{
                {QStringLiteral("metric"), r.key},
                {QStringLiteral("a"), r.a},
                {QStringLiteral("b"), r.b},
                {QStringLiteral("difference"), r.difference()},
                {QStringLiteral("relative"), relative ? QJsonValue(*relative) : QJsonValue(QJsonValue::Null)},
        });
    }
    return QJsonObject{
            {QStringLiteral("scenario"), a.name},
            {QStringLiteral("seed"), seedJson(a)},
            {QStringLiteral("b"), QJsonObject{{QStringLiteral("label"), labelB}, {QStringLiteral("changes"), changed}}},
            {QStringLiteral("metrics"), rows},
    };
}

QString compareCsv(const CompareSummary &summary)
{
    QString out = QStringLiteral("metric,a,b,difference,relative\n");
    for (const CompareRow &r : summary.rows) {
        const std::optional<double> relative = r.relative();
        out += QStringList{r.key, csvNumber(r.a), csvNumber(r.b), csvNumber(r.difference()),
                           relative ? csvNumber(*relative) : QString()}
                       .join(QLatin1Char(','))
               + QLatin1Char('\n');
    }
    return out;
}

QString compareTable(const Scenario &a, const QString &labelB, const QList<ScenarioChange> &changes,
                     const CompareSummary &summary)
{
    QString out = compareTr("%1 (seed %2)\n").arg(scenarioHeading(a), QString::number(a.seed));
    out += compareTr("A: the scenario as it is\n");
    out += changes.isEmpty() ? compareTr("B: the same settings (no change)\n")
                             : compareTr("B: %1 (%2)\n").arg(labelB, compare::toggleLabel(changes));
    out += QLatin1Char('\n');
    QList<QStringList> rows;
    rows << QStringList{compareTr("metric"), QStringLiteral("A"), QStringLiteral("B"), compareTr("B \u2212 A"),
                        compareTr("change")};
    for (const CompareRow &r : summary.rows)
        rows << QStringList{r.label, compare::formatValue(r, r.a), compare::formatValue(r, r.b),
                            compare::formatDifference(r), compare::formatRelative(r)};
    return out + alignedTable(rows);
}

// A: --scenario and --seed only; B: A with every --set (labelled "--set"), or A with
// compare::defaultVariant (labelled with the variant's name).
int loadSides(const QCommandLineParser &parser, Scenario *a, Scenario *b, QString *labelB)
{
    const QString name = QStringLiteral("compare");
    // A is read by the same code as every command (same errors).
    QCommandLineParser sideA;
    sideA.addOptions({scenarioOption(), seedOption(), setOption()});
    QStringList argumentsA{QStringLiteral("retrylab")};
    if (parser.isSet(scenarioOption()))
        argumentsA << QStringLiteral("--scenario") << parser.value(scenarioOption());
    if (parser.isSet(seedOption()))
        argumentsA << QStringLiteral("--seed") << parser.value(seedOption());
    sideA.parse(argumentsA);
    if (const int rc = loadScenario(sideA, name, a); rc != Continue)
        return rc;
    if (parser.isSet(setOption())) {
        if (const int rc = loadScenario(parser, name, b); rc != Continue)
            return rc;
        *labelB = compareTr("--set");
    } else {
        const WhatIfVariant variant = compare::defaultVariant(*a);
        *b = variant.scenario;
        *labelB = variant.label;
    }
    return Continue;
}

} // namespace

// A = the scenario (with --seed); B = A with every --set, or A with compare::defaultVariant.
int compareCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("compare"),
                          compareTr("--scenario NAME|FILE [--set path=value ...] [--seed N] "
                                    "[--format table|json|csv] [--max-attempts N]"),
                          compareTr("Runs a scenario (A) and a copy of it with some settings changed (B), with "
                                    "the same seed, and prints the difference: records, duplicates, orphans, "
                                    "POST attempts, successes, failures, latency p50 and p99, goodput. B is A "
                                    "with every --set; without --set, A with the one toggle that teaches most "
                                    "(for example no key -> a key per operation and an atomic server)."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption maxAttempts = maxAttemptsOption(
            compareTr("Refuse the comparison (exit code 2) if A and B together could make more than N HTTP "
                      "attempts at worst. Default %1.")
                    .arg(work::formatCount(work::DefaultMaxAttempts)));
    parser.addOptions({scenarioOption(), seedOption(), setOption(), formatOption(QStringLiteral("table, json, csv")),
                       maxAttempts});
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, true, &format); rc != Continue)
        return rc;
    const QString name = QStringLiteral("compare");
    qint64 limit = 0;
    if (const int rc = parseMaxAttempts(parser, name, work::DefaultMaxAttempts, &limit); rc != Continue)
        return rc;

    Scenario a;
    Scenario b;
    QString labelB;
    if (const int rc = loadSides(parser, &a, &b, &labelB); rc != Continue)
        return rc;
    b = compare::withSeedOf(a, b);
    const QList<ScenarioChange> changes = whatif::changes(a, b);

    const qint64 worst = work::estimate(a).attempts + work::estimate(b).attempts;
    if (worst > limit) {
        fail(compareTr("compare: A and B could make up to %1 HTTP attempts together, over the limit of %2; "
                       "raise it with --max-attempts N")
                     .arg(work::formatCount(worst), work::formatCount(limit)));
        return ExitUsage;
    }

    const CompareResult result = compare::run(a, b, false);
    for (const RunResult *side : {&result.a, &result.b}) {
        if (!side->error.isEmpty()) {
            fail(compareTr("compare: %1").arg(side->error));
            return ExitRuntime;
        }
    }
    switch (format) {
    case Format::Json:
        writeOut(QString::fromUtf8(QJsonDocument(compareJson(a, labelB, changes, result.summary)).toJson()));
        break;
    case Format::Csv:
        writeOut(compareCsv(result.summary));
        break;
    case Format::Table:
        writeOut(compareTable(a, labelB, changes, result.summary));
        break;
    }
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
