// Times the Scenario editor on a scenario whose network.script has the most entries a file may
// hold, scenario::MaxScriptEntries (or argv[1]):
// setScenario, one edit of a plain field, one edit of a script cell, and the peak memory (VmHWM).

#include "editor/editorscripttable.h"
#include "scenario.h"
#include "editor/scenarioeditor.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSpinBox>
#include <QTableView>

#include <cstdio>
#include <cstdlib>

using namespace retrylab;

namespace {

// Peak resident memory of this process in MB (Linux), or -1.
double peakMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return -1;
}

double msSince(const QElapsedTimer &timer)
{
    return timer.nsecsElapsed() / 1e6;
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const int entries = argc > 1 ? std::atoi(argv[1]) : scenario::MaxScriptEntries;
    const ScenarioParse parsed = scenario::preset(QStringLiteral("ghost-request"));
    if (!parsed.ok())
        qFatal("ghost-request does not load");
    Scenario s = parsed.scenario;
    for (int i = 0; i < entries; ++i) {
        ScriptEntry e;
        e.op = i % 20 + 1;
        e.attempt = QStringLiteral("b%1/*/*").arg(i % 3 + 1);
        e.fault = i % 2 ? FaultKind::ResponseLost : FaultKind::RequestLost;
        s.network.script.append(e);
    }

    ScenarioEditor editor;
    editor.resize(480, 800);
    editor.show();
    QCoreApplication::processEvents();
    const double before = peakMb();
    std::printf("ui_editor: a scenario with %d script entries (peak memory before: %.0f MB)\n", entries, before);
    std::fflush(stdout);

    QElapsedTimer timer;
    timer.start();
    editor.setScenario(s);
    const double set = msSince(timer);
    QCoreApplication::processEvents();
    std::printf("  setScenario %.1f ms, + first paint %.1f ms\n", set, msSince(timer));
    std::fflush(stdout);

    auto *orders = editor.findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    timer.start();
    orders->setValue(orders->value() + 1);
    QCoreApplication::processEvents();
    std::printf("  one edit (workload.orders) %.1f ms\n", msSince(timer));
    std::fflush(stdout);

    auto *script = editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"));
    QAbstractItemModel *model = script->table()->model();
    timer.start();
    model->setData(model->index(entries / 2, 1), QStringLiteral("b2/w1/*"));
    QCoreApplication::processEvents();
    std::printf("  one edit (a script cell) %.1f ms\n", msSince(timer));

    const bool ok = editor.scenario().workload.orders == s.workload.orders + 1
                    && editor.scenario().network.script.size() == entries
                    && editor.scenario().network.script.at(entries / 2).attempt == QStringLiteral("b2/w1/*");
    std::printf("  edits applied: %s; peak memory %.0f MB (%.0f MB more than before)\n", ok ? "yes" : "NO",
                peakMb(), peakMb() - before);
    return ok ? 0 : 1;
}
