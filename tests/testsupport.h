#pragma once

// Helpers shared by the test executables: presets that must load, or the test stops.
#include "scenario.h"
#include "simulator.h"

#include <QJsonObject>
#include <QStringList>
#include <QtGlobal>

namespace retrylab::test {

inline Scenario presetScenario(const QString &name)
{
    const ScenarioParse parsed = scenario::preset(name);
    if (!parsed.ok())
        qFatal("preset %s: %s", qPrintable(name), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    return parsed.scenario;
}

// Latency checks (a GUI-thread watchdog under 100 ms) mean nothing in a sanitizer build, which runs
// several times slower: scripts/lab sanitize sets RETRYLAB_SANITIZE and those tests report the
// figure instead of asserting it. Everything else they check still holds.
inline bool latencyIsMeaningful()
{
    return !qEnvironmentVariableIsSet("RETRYLAB_SANITIZE");
}

// The same for peak memory: ASan's shadow memory and quarantine multiply a process's RSS.
inline bool peakMemoryIsMeaningful()
{
    return !qEnvironmentVariableIsSet("RETRYLAB_SANITIZE");
}

// Every leaf path of a JSON object ("client.transport.total"); arrays count as one value.
inline void collectLeaves(const QJsonObject &object, const QString &prefix, QStringList *out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            collectLeaves(it.value().toObject(), path, out);
        else
            out->append(path);
    }
}

inline RunResult runPreset(const QString &name)
{
    return simulate(presetScenario(name));
}

} // namespace retrylab::test
