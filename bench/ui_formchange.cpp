// Times one scenario edit of a 100-operation scenario until the views show it:
// simulate, reset the log and records models, ChartsPanel::setResult, then process
// events (layout and paint). The what-if bars are computed in the background; the
// time until they arrive is reported separately. Last, the GUI-thread cost of handing a
// 40,000-order result to the same views: first with each view deriving its data itself (as
// before issue 11), then with that data prepared as a background run prepares it on its worker
// thread (PreparedViews, timed apart); and to the main window as it really happens: only the
// page in view (the timeline) takes it at once, the others when they are shown. Wall-clock and
// GUI-thread CPU time: on a busy machine (the what-if variants of 40,000 orders run on both
// cores right after the charts take the result) the GUI thread waits for a core.
// RETRYLAB_BENCH_HANDOFF_RUNS=N: N handoffs instead of 5, and only 2 form changes (for perf).

#include "charts/chartspanel.h"
#include "tables/logview.h"
#include "shell/mainwindow.h"
#include "document/preparedviews.h"
#include "document/runcontroller.h"
#include "tables/recordsview.h"
#include "scenario.h"
#include "simulator.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QStandardPaths>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace retrylab;

namespace {

struct Samples
{
    QList<double> ms;
    void add(qint64 ns) { ms.append(double(ns) / 1e6); }
    double quantile(double q) const
    {
        QList<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        return sorted.isEmpty() ? 0 : sorted.at(std::min<qsizetype>(sorted.size() - 1, qsizetype(q * sorted.size())));
    }
};

// CPU time of the calling thread: what the GUI thread spent, whatever else the machine runs.
qint64 threadCpuNs()
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
#else
    return 0;
#endif
}

void print(const char *what, const Samples &s)
{
    std::printf("%-34s median %7.2f ms   p90 %7.2f ms   min %7.2f ms\n", what, s.quantile(0.5), s.quantile(0.9),
                s.quantile(0.0));
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    const ScenarioParse parsed = scenario::preset(QStringLiteral("ghost-request"));
    if (!parsed.ok())
        qFatal("ghost-request does not load");
    Scenario s = parsed.scenario;
    s.workload.orders = 100;

    ChartsPanel charts(nullptr);
    LogView log;
    RecordsView records;
    for (QWidget *w : {static_cast<QWidget *>(&charts), static_cast<QWidget *>(&log), static_cast<QWidget *>(&records)}) {
        w->resize(1280, 720);
        w->show();
    }
    int whatIfCount = 0;
    QEventLoop waitLoop;
    QObject::connect(&charts, &ChartsPanel::whatIfUpdated, &waitLoop, [&] {
        ++whatIfCount;
        waitLoop.quit();
    });

    // RETRYLAB_BENCH_HANDOFF_RUNS=N times N handoffs and skips most form changes (for a profiler).
    const int runs = qEnvironmentVariableIntValue("RETRYLAB_BENCH_HANDOFF_RUNS") > 0 ? 2 : 50;
    Samples total, simulateMs, modelsMs, chartsMs, paintMs, whatIfMs;
    int events = 0;
    for (int i = 0; i < runs + 3; ++i) {
        // A form edit: the response-loss slider moves by one step.
        s.network.responseLoss = 0.30 + 0.005 * (i % 10);
        QElapsedTimer clock;
        clock.start();
        const RunResult r = simulate(s);
        const qint64 t1 = clock.nsecsElapsed();
        log.setResult(r);
        records.setResult(r);
        const qint64 t2 = clock.nsecsElapsed();
        charts.setResult(r);
        const qint64 t3 = clock.nsecsElapsed();
        QCoreApplication::processEvents();
        const qint64 t4 = clock.nsecsElapsed();
        const int before = whatIfCount;
        if (whatIfCount == before && charts.isWhatIfPending())
            waitLoop.exec();
        const qint64 t5 = clock.nsecsElapsed();
        events = int(r.trace.size());
        if (i < 3)
            continue; // warm-up: fonts, glyph caches, thread pool
        simulateMs.add(t1);
        modelsMs.add(t2 - t1);
        chartsMs.add(t3 - t2);
        paintMs.add(t4 - t3);
        total.add(t4);
        whatIfMs.add(t5);
    }
    std::printf("form change, 100 operations (%d trace events), %d runs\n", events, runs);
    print("simulate", simulateMs);
    print("log + records models reset", modelsMs);
    print("ChartsPanel::setResult", chartsMs);
    print("processEvents (layout, paint)", paintMs);
    print("total until views updated", total);
    print("until what-if bars arrive", whatIfMs);

    // A big run computed in the background still lands on the GUI thread: time the handoff.
    Scenario big = s;
    big.workload.orders = 40000;
    big.network.responseLoss = 0.31; // the last form change of a full run: 565k events

    const RunResult bigResult = simulate(big);
    const int handoffRuns = qEnvironmentVariableIntValue("RETRYLAB_BENCH_HANDOFF_RUNS") > 0
        ? qEnvironmentVariableIntValue("RETRYLAB_BENCH_HANDOFF_RUNS") : 5;
    // As a background run does it: the views' data prepared on the worker thread, next to the run.
    Samples prepareMs;
    PreparedViews prepared;
    for (int i = 0; i < handoffRuns; ++i) {
        QElapsedTimer clock;
        clock.start();
        prepared = PreparedViews::prepare(bigResult);
        prepareMs.add(clock.nsecsElapsed());
    }
    // prepared: what the window hands over now; !prepared: each view derives its data itself.
    const auto handoff = [&](bool withPrepared) {
        Samples total, cpu, hLog, hRecords, hCharts, hPaint;
        for (int i = 0; i < handoffRuns; ++i) {
            QElapsedTimer clock;
            clock.start();
            const qint64 cpu0 = threadCpuNs();
            log.setResult(bigResult);
            const qint64 a = clock.nsecsElapsed();
            if (withPrepared)
                records.setPrepared(prepared.records);
            else
                records.setResult(bigResult);
            const qint64 b = clock.nsecsElapsed();
            if (withPrepared)
                charts.setResult(bigResult, prepared.charts);
            else
                charts.setResult(bigResult);
            const qint64 c = clock.nsecsElapsed();
            QCoreApplication::processEvents();
            total.add(clock.nsecsElapsed());
            cpu.add(threadCpuNs() - cpu0);
            hLog.add(a);
            hRecords.add(b - a);
            hCharts.add(c - b);
            hPaint.add(clock.nsecsElapsed() - c);
            log.setResult(RunResult());
            records.setResult(RunResult());
            charts.setResult(RunResult());
            QCoreApplication::processEvents();
        }
        std::printf("handoff of a 40,000-order result (%lld trace events, %d records), %s, %d runs\n",
                    static_cast<long long>(bigResult.trace.size()), int(bigResult.records.size()),
                    withPrepared ? "prepared in the background" : "views derive it on the GUI thread",
                    handoffRuns);
        print("  log", hLog);
        print("  records", hRecords);
        print("  charts", hCharts);
        print("  processEvents (layout, paint)", hPaint);
        print("log + records + charts, painted", total);
        print("  the same in GUI-thread CPU time", cpu);
    };
    handoff(false);
    handoff(true);
    print("preparation (worker thread)", prepareMs);

    // The window's handoff: RunController::resultReady -> MainWindow (timeline page in view), with
    // the views' data prepared as a background run prepares it on its worker thread.
    QStandardPaths::setTestModeEnabled(true);
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    QCoreApplication::processEvents();
    Samples windowHandoff;
    for (int i = 0; i < handoffRuns; ++i) {
        QElapsedTimer clock;
        clock.start();
        window.runController()->setPreparedResult(bigResult, prepared);
        QCoreApplication::processEvents();
        windowHandoff.add(clock.nsecsElapsed());
        window.runController()->setResult(simulate(s));
        QCoreApplication::processEvents();
    }
    print("main window (timeline page), painted", windowHandoff);

    // As after a real run, the window holds the only copies of the big run; a small result
    // replaces it. Its views let go of the big one; nobody must free it on the GUI thread.
    Samples replaced, replacedCpu;
    const RunResult small = simulate(s);
    // One more run first, not counted: the earlier sections made their big run on this thread,
    // and glibc merges the chunks freed from it at this thread's next big allocation.
    for (int i = -1; i < handoffRuns; ++i) {
        {
            // Run and prepared on a worker, as a background run is: its memory is the worker's.
            const auto run = QtConcurrent::run([&big] {
                RunResult own = simulate(big);
                PreparedViews views = PreparedViews::prepare(own);
                return std::make_pair(std::move(own), std::move(views));
            });
            auto ran = run.result();
            window.runController()->setPreparedResult(ran.first, std::move(ran.second));
            QCoreApplication::processEvents();
        }
        QThreadPool::globalInstance()->waitForDone();
        QElapsedTimer clock;
        clock.start();
        const qint64 cpu0 = threadCpuNs();
        window.runController()->setResult(small);
        QCoreApplication::processEvents();
        const qint64 wall = clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs() - cpu0;
        QThreadPool::globalInstance()->waitForDone();
        if (i < 0)
            continue;
        replaced.add(wall);
        replacedCpu.add(cpu);
    }
    print("main window, big result replaced", replaced);
    print("  the same in GUI-thread CPU time", replacedCpu);

    // What a replaced result costs whoever holds its last copy (every event's strings freed).
    Samples release;
    for (int i = 0; i < 3; ++i) {
        RunResult doomed = simulate(big);
        const qint64 cpu0 = threadCpuNs();
        doomed = RunResult();
        release.add(threadCpuNs() - cpu0);
    }
    print("freeing it (CPU time)", release);
    return 0;
}
