// `retrylab sweep --merge FILES`: the JSON of `sweep --shard K/N` runs joined into the output one
// machine prints for the whole sweep, byte for byte (point i is shard i mod N + 1's, in order).
#include "commandparser.h"
#include "options.h"
#include "output.h"
#include "sweepoutput.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace retrylab {
namespace cli {

namespace {

// A shard's output is a few kilobytes per point; anything this big is not one.
constexpr qint64 MaxShardBytes = qint64(256) * 1024 * 1024;

struct ShardFile
{
    QString name;
    QJsonObject object;
    int index = 0;
    int count = 0;
    QString sweep;
    int points = 0;
};

QString mergeError(const QString &message)
{
    return QStringLiteral("sweep: --merge: %1").arg(message);
}

// Reads one shard's JSON; false after printing why it is not one.
bool readShard(const QString &name, ShardFile *shard)
{
    shard->name = name;
    const QFileInfo info(name);
    if (!info.exists() || !info.isFile()) {
        // A directory, a FIFO or a device would block or mean nothing: only regular files.
        fail(mergeError(info.exists() ? QCoreApplication::translate("cli", "\"%1\" is not a regular file").arg(echo(name))
                                      : QCoreApplication::translate("cli", "no such file \"%1\"").arg(echo(name))));
        return false;
    }
    if (info.size() > MaxShardBytes) {
        fail(mergeError(QCoreApplication::translate("cli", "\"%1\" is larger than a shard's output can be (%2 bytes)")
                                .arg(echo(name))
                                .arg(info.size())));
        return false;
    }
    QFile file(name);
    if (!file.open(QIODevice::ReadOnly)) {
        fail(mergeError(QCoreApplication::translate("cli", "cannot read \"%1\": %2").arg(echo(name), file.errorString())));
        return false;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.read(MaxShardBytes), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        fail(mergeError(QCoreApplication::translate("cli", "\"%1\" is not JSON (at byte %2: %3)")
                                .arg(echo(name))
                                .arg(error.offset)
                                .arg(error.errorString())));
        return false;
    }
    shard->object = doc.object();
    const QJsonObject info2 = shard->object.value(QStringLiteral("shard")).toObject();
    shard->index = info2.value(QStringLiteral("index")).toInt();
    shard->count = info2.value(QStringLiteral("count")).toInt();
    shard->sweep = info2.value(QStringLiteral("sweep")).toString();
    shard->points = info2.value(QStringLiteral("points")).toInt();
    if (shard->count < 1 || shard->index < 1 || shard->index > shard->count || shard->sweep.isEmpty()
        || !shard->object.value(QStringLiteral("points")).isArray()) {
        fail(mergeError(QCoreApplication::translate("cli", "\"%1\" is not the output of 'retrylab sweep ... --shard K/N'")
                                .arg(echo(name))));
        return false;
    }
    if (shard->object.contains(QStringLiteral("partial"))) {
        fail(mergeError(QCoreApplication::translate("cli", "\"%1\" (shard %2/%3) is partial: it was interrupted; run it again")
                                .arg(echo(name))
                                .arg(shard->index)
                                .arg(shard->count)));
        return false;
    }
    const SweepShard slice{shard->index, shard->count};
    const qsizetype held = shard->object.value(QStringLiteral("points")).toArray().size();
    if (held != slice.pointsOf(shard->points)) {
        fail(mergeError(QCoreApplication::translate("cli", "\"%1\" (shard %2/%3) holds %4 points, expected %5 of the sweep's %6")
                                .arg(echo(name))
                                .arg(shard->index)
                                .arg(shard->count)
                                .arg(held)
                                .arg(slice.pointsOf(shard->points))
                                .arg(shard->points)));
        return false;
    }
    return true;
}

// Every shard of one sweep, each once; false after printing what is wrong.
bool checkSet(const QList<ShardFile> &shards)
{
    const ShardFile &first = shards.constFirst();
    std::map<int, QString> seen;
    for (const ShardFile &shard : shards) {
        if (shard.sweep != first.sweep || shard.count != first.count || shard.points != first.points) {
            fail(mergeError(QCoreApplication::translate("cli", "\"%1\" and \"%2\" are slices of different sweeps "
                                                               "(sweep %3 in %4 slices, sweep %5 in %6 slices)")
                                    .arg(echo(first.name), echo(shard.name), first.sweep)
                                    .arg(first.count)
                                    .arg(shard.sweep)
                                    .arg(shard.count)));
            return false;
        }
        if (const auto it = seen.find(shard.index); it != seen.end()) {
            fail(mergeError(QCoreApplication::translate("cli", "shard %1/%2 is given twice: \"%3\" and \"%4\"")
                                    .arg(shard.index)
                                    .arg(shard.count)
                                    .arg(echo(it->second), echo(shard.name))));
            return false;
        }
        seen[shard.index] = shard.name;
    }
    QStringList missing;
    for (int k = 1; k <= first.count; ++k) {
        if (!seen.count(k))
            missing << QStringLiteral("%1/%2").arg(k).arg(first.count);
    }
    if (!missing.isEmpty()) {
        const int shown = 10;
        QString list = QStringList(missing.mid(0, shown)).join(QStringLiteral(", "));
        if (missing.size() > shown)
            list += QCoreApplication::translate("cli", " and %1 more").arg(missing.size() - shown);
        fail(mergeError(QCoreApplication::translate("cli", "missing shard(s) %1 of sweep %2").arg(list, first.sweep)));
        return false;
    }
    return true;
}

} // namespace

QCommandLineOption mergeOption()
{
    return QCommandLineOption(QStringLiteral("merge"),
                              QCoreApplication::translate("cli", "Join the JSON files of every 'sweep ... --shard K/N' (FILES, "
                                                                 "in any order) into the output of the whole sweep."));
}

int sweepMergeCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("sweep"),
                          QStringLiteral("--merge FILES [--format table|json|csv] [--metrics m1,m2]"),
                          QCoreApplication::translate("cli", "Joins the JSON of every slice of a sharded sweep."));
    QCommandLineParser &parser = command.parser();
    const QCommandLineOption metricsOption(QStringLiteral("metrics"),
                                           QCoreApplication::translate("cli", "Metrics of the table and CSV, comma-separated."),
                                           QStringLiteral("m1,m2"));
    parser.addOptions({mergeOption(), formatOption(QStringLiteral("table, json, csv")), metricsOption});
    parser.addPositionalArgument(QStringLiteral("FILES"), QCoreApplication::translate("cli", "The shards' JSON files."));
    QStringList list = arguments;
    list.prepend(QStringLiteral("retrylab"));
    if (!parser.parse(list)) {
        fail(QCoreApplication::translate("cli", "sweep: %1 (see 'retrylab sweep --help')").arg(echo(sentence(parser.errorText()))));
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(command.helpText());
        return ExitOk;
    }
    Format format = Format::Table;
    if (const int rc = parseFormat(parser, QStringLiteral("sweep"), true, &format); rc != Continue)
        return rc;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
        fail(mergeError(QCoreApplication::translate("cli", "name the shards' JSON files, e.g. --merge shard-*.json")));
        return ExitUsage;
    }
    QList<ShardFile> shards;
    for (const QString &name : files) {
        ShardFile shard;
        if (!readShard(name, &shard))
            return ExitUsage;
        shards << shard;
    }
    if (!checkSet(shards))
        return ExitUsage;

    std::map<int, QJsonArray> byIndex;
    for (const ShardFile &shard : std::as_const(shards))
        byIndex[shard.index] = shard.object.value(QStringLiteral("points")).toArray();
    const int count = shards.constFirst().count;
    QJsonArray points;
    for (int i = 0; i < shards.constFirst().points; ++i)
        points.append(byIndex[i % count + 1].at(i / count));
    QJsonObject merged = shards.constFirst().object;
    merged.remove(QStringLiteral("shard"));
    merged.insert(QStringLiteral("points"), points);
    if (format == Format::Json) {
        writeSweepJson(merged);
        return ExitOk;
    }
    Scenario s;
    SweepSpec spec;
    QList<SweepPoint> parsed;
    sweepFromJson(merged, &s, &spec, &parsed);
    QStringList requested;
    if (parser.isSet(metricsOption) && !readMetricNames(parser.value(metricsOption), &requested))
        return ExitUsage;
    writeSweep(format, s, spec, parsed, requested);
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
