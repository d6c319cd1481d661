// `retrylab fields`: every scenario field --set and sweep --param accept, with its type,
// allowed values and default.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include "scenario.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace retrylab {
namespace cli {

namespace {

QString compactJson(const QJsonValue &value)
{
    if (value.isArray()) {
        QStringList items;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &v : array)
            items << compactJson(v);
        return items.isEmpty() ? QCoreApplication::translate("cli", "none") : items.join(QStringLiteral(", "));
    }
    if (value.isString())
        return value.toString().isEmpty() ? QStringLiteral("\"\"") : value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return formatNumber(value.toDouble());
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

} // namespace

int fieldsCommand(const QStringList &arguments)
{
    CommandParser command(QStringLiteral("fields"), QStringLiteral("[--format table|json]"),
                          QCoreApplication::translate("cli", "Lists every scenario field that --set path=value and sweep --param "
                                         "accept, with its type, allowed values and default."));
    QCommandLineParser &parser = command.parser();
    parser.addOption(formatOption(QStringLiteral("table, json")));
    Format format = Format::Table;
    if (const int rc = command.parse(arguments, false, &format); rc != Continue)
        return rc;

    const QList<FieldInfo> fields = scenario::fields();
    if (format == Format::Json) {
        QJsonArray array;
        for (const FieldInfo &f : fields) {
            QJsonObject o{{QStringLiteral("path"), f.path},
                          {QStringLiteral("type"), f.type},
                          {QStringLiteral("allowed"), f.allowed},
                          {QStringLiteral("default"), f.defaultValue}};
            if (f.bounded) {
                o.insert(QStringLiteral("minimum"), f.minimum);
                o.insert(QStringLiteral("maximum"), f.maximum);
            }
            if (!f.choices.isEmpty())
                o.insert(QStringLiteral("choices"), QJsonArray::fromStringList(f.choices));
            array.append(o);
        }
        writeOut(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }

    QString out = wrapped(QCoreApplication::translate("cli", "Every field of a scenario, for --set path=value (run, sweep) and "
                                         "--param PATH (sweep). Durations end in Ms (milliseconds) or S "
                                         "(seconds); rates are fractions from 0 to 1. In network.script[N], "
                                         "workload.phases[N] and windows[N], N is an entry's index; the next free "
                                         "index appends an entry."),
                          TerminalWidth)
                          .join(QLatin1Char('\n'))
            + QStringLiteral("\n\n");
    QList<QStringList> rows{{QCoreApplication::translate("cli", "FIELD"), QCoreApplication::translate("cli", "TYPE"),
                             QCoreApplication::translate("cli", "ALLOWED (DEFAULT)")}};
    QString section;
    for (const FieldInfo &f : fields) {
        const QString top = f.path.section(QLatin1Char('.'), 0, 0);
        if (f.path.contains(QLatin1Char('.')) && top != section && rows.size() > 1)
            rows << QStringList{QString(), QString(), QString()};
        if (f.path.contains(QLatin1Char('.')))
            section = top;
        rows << QStringList{f.path, f.type,
                            QCoreApplication::translate("cli", "%1 (default %2)").arg(f.allowed, compactJson(f.defaultValue))};
    }
    writeOut(out + wrappedTable(rows));
    return ExitOk;
}

} // namespace cli
} // namespace retrylab
