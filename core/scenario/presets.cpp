#include "scenario.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <iterator>

// The presets embedded as resources (":/scenarios/<name>.json"), in the order the lessons build on.
namespace retrylab::scenario {

namespace {
const char *const PresetOrder[] = {
    "ghost-request", "layered-fix",        "stable-key",   "rotating-key",
    "payload-mismatch", "concurrent-race", "key-expiry",   "query-before-retry",
    "server-token",  "server-token-query", "key-store-restart", "reconciliation",
    "retry-storm",   "correlation-ids",    "jitter-contention", "metastable",
};
} // namespace

QStringList presetNames()
{
    const QDir dir(QStringLiteral(":/scenarios"));
    QStringList names;
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files))
        names << info.completeBaseName();
    auto rank = [](const QString &name) {
        for (int i = 0; i < int(std::size(PresetOrder)); ++i) {
            if (name == QLatin1String(PresetOrder[i]))
                return i;
        }
        return int(std::size(PresetOrder));
    };
    std::sort(names.begin(), names.end(), [&](const QString &a, const QString &b) {
        const int ra = rank(a), rb = rank(b);
        return ra != rb ? ra < rb : a < b;
    });
    return names;
}

ScenarioParse preset(const QString &name)
{
    const QString fileName = QStringLiteral(":/scenarios/%1.json").arg(name);
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || !QFile::exists(fileName)) {
        ScenarioParse result;
        result.errors << QCoreApplication::translate("scenario", "unknown preset \"%1\"; available presets: %2")
                             .arg(printable(name), presetNames().join(QStringLiteral(", ")));
        return result;
    }
    return load(fileName);
}

ScenarioParse resolve(const QString &nameOrFile)
{
    const QFileInfo info(nameOrFile);
    if (info.exists() && info.isFile())
        return load(nameOrFile);
    if (presetNames().contains(nameOrFile))
        return preset(nameOrFile);
    ScenarioParse result;
    result.errors << QCoreApplication::translate("scenario", "\"%1\" is neither a scenario file nor a preset; available presets: %2")
                         .arg(printable(nameOrFile), presetNames().join(QStringLiteral(", ")));
    return result;
}

} // namespace retrylab::scenario
