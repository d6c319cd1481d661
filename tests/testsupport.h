#pragma once

// Helpers shared by the test executables: presets that must load, or the test stops.
#include "scenario.h"
#include "simulator.h"

#include <QtGlobal>

namespace retrylab::test {

inline Scenario presetScenario(const QString &name)
{
    const ScenarioParse parsed = scenario::preset(name);
    if (!parsed.ok())
        qFatal("preset %s: %s", qPrintable(name), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    return parsed.scenario;
}

inline RunResult runPreset(const QString &name)
{
    return simulate(presetScenario(name));
}

} // namespace retrylab::test
