// A 2-D sweep, timed: the shape of the AWS backoff-and-jitter figure (client counts x jitter
// strategies x seeds). Prints wall seconds, CPU seconds (both cores busy: CPU close to 2 x wall),
// runs per second and simulated HTTP attempts per second.
//
//   bench_sweep [PRESET [SEEDS [PARAM2 [VALUES2]]]]
//   default:    retry-storm 100 client.business.backoff.jitter none,full,equal,decorrelated
//
// The first parameter is workload.clients from 10 to 190 in 19 steps, as in the study.
//
// RETRYLAB_AWS_SIMULATOR=/path/to/backoff_simulator.py (aws-samples/aws-arch-backoff-simulator,
// src/backoff_simulator.py, Python 2 code run by python3 with xrange = range) also runs the AWS
// simulator's own code, which makes the same figure, in a temporary directory, and prints its
// wall and CPU seconds next to ours.
#include "scenario.h"
#include "sweep.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QStringList>
#include <QThreadPool>

#include <cstdio>
#include <ctime>

using namespace retrylab;

namespace {

// The AWS simulator's own code for the same figure, if its file is given: prints its times and
// the ratio to ours (wall to wall, CPU to CPU).
void runAwsSimulator(double wallS, double cpuS)
{
    const QString script = qEnvironmentVariable("RETRYLAB_AWS_SIMULATOR");
    if (script.isEmpty())
        return;
    QTemporaryDir dir; // it writes backoff_results.csv and ts_* where it runs
    if (!QFile::exists(script) || !dir.isValid()) {
        std::printf("  AWS simulator: %s not found\n", qPrintable(script));
        return;
    }
    QProcess python;
    python.setWorkingDirectory(dir.path());
    const QString code = QStringLiteral("import builtins; builtins.xrange = range; exec(open(%1).read())")
                             .arg(QLatin1Char('\'') + script + QLatin1Char('\''));
    QElapsedTimer timer;
    timer.start();
    python.start(QStringLiteral("/usr/bin/time"), {QStringLiteral("-f"), QStringLiteral("%U %S"),
                                                   QStringLiteral("python3"), QStringLiteral("-c"), code});
    if (!python.waitForFinished(-1) || python.exitCode() != 0) {
        std::printf("  AWS simulator: python3 failed: %s\n", python.readAllStandardError().constData());
        return;
    }
    const double awsWall = timer.nsecsElapsed() / 1e9;
    const QList<QByteArray> cpu = python.readAllStandardError().trimmed().split('\n').constLast().split(' ');
    const double awsCpu = cpu.value(0).toDouble() + cpu.value(1).toDouble();
    std::printf("  AWS simulator (python3): %.1f s wall, %.1f s CPU: %.0fx our wall, %.0fx our CPU\n", awsWall,
                awsCpu, wallS > 0 ? awsWall / wallS : 0.0, cpuS > 0 ? awsCpu / cpuS : 0.0);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    // Default: the AWS study's figure, 19 client counts x its 5 strategies x 100 seeds.
    const QString preset = args.value(0, QStringLiteral("jitter-contention"));
    const int seeds = args.value(1, QStringLiteral("100")).toInt();
    // RETRYLAB_BENCH_THREADS=1 gives the one-core baseline.
    if (const int threads = qEnvironmentVariableIntValue("RETRYLAB_BENCH_THREADS"); threads > 0)
        QThreadPool::globalInstance()->setMaxThreadCount(threads);

    const ScenarioParse parsed = scenario::resolve(preset);
    if (!parsed.ok()) {
        std::fprintf(stderr, "bench_sweep: %s\n", qPrintable(parsed.errors.join(QStringLiteral("; "))));
        return 2;
    }
    SweepSpec spec = sweep::awsFigureSpec(seeds);
    // Another second axis: bench_sweep PRESET SEEDS PARAM2 VALUES2.
    if (args.size() > 3) {
        spec.param2 = args.at(2);
        spec.values2 = sweep::splitValues(args.at(3));
    }
    const QStringList errors = sweep::validate(parsed.scenario, spec);
    if (!errors.isEmpty()) {
        std::fprintf(stderr, "bench_sweep: %s\n", qPrintable(errors.join(QStringLiteral("; "))));
        return 2;
    }

    QElapsedTimer prepare;
    prepare.start();
    const QList<SweepJob> jobs = sweep::jobs(parsed.scenario, spec);
    const double prepareS = prepare.nsecsElapsed() / 1e9;

    const std::clock_t cpu0 = std::clock();
    QElapsedTimer timer;
    timer.start();
    const QList<SweepPoint> points = sweep::run(parsed.scenario, spec);
    const double wallS = timer.nsecsElapsed() / 1e9;
    const double cpuS = double(std::clock() - cpu0) / CLOCKS_PER_SEC;

    double attempts = 0;
    for (const SweepPoint &p : points)
        attempts += p.stat(QStringLiteral("httpAttempts")).mean * seeds;
    const double runs = double(jobs.size());
    std::printf("bench_sweep: %s, workload.clients 10..190 (19) x %s (%lld) x %d seeds = %.0f runs, %d threads\n",
                qPrintable(preset), qPrintable(spec.param2), qlonglong(spec.values2.size()), seeds, runs,
                QThreadPool::globalInstance()->maxThreadCount());
    std::printf("  cells and jobs built in %.3f s (not in the times below)\n", prepareS);
    std::printf("  %.3f s wall, %.3f s CPU (%.2f cores busy)\n", wallS, cpuS, wallS > 0 ? cpuS / wallS : 0.0);
    std::printf("  %.0f runs/s, %.3g HTTP attempts/s (%.0f attempts in all)\n", runs / wallS, attempts / wallS,
                attempts);

    runAwsSimulator(wallS, cpuS);

    // RETRYLAB_BENCH_BASELINE=1: the same runs as plain simulate() calls on one thread, no sweep
    // around them; CPU seconds above minus these is the sweep's own overhead (jobs, copies, folding).
    if (qEnvironmentVariableIntValue("RETRYLAB_BENCH_BASELINE") > 0) {
        RunOptions options;
        options.trace = false;
        const std::clock_t base0 = std::clock();
        double check = 0;
        double events = 0;
        for (const SweepJob &job : jobs) {
            Scenario s = job.cell->scenario;
            s.seed = job.seed;
            const RunResult r = simulate(s, options);
            check += double(r.metrics.httpAttempts);
            events += double(r.events);
        }
        const double baseS = double(std::clock() - base0) / CLOCKS_PER_SEC;
        std::printf("  baseline: %.3f s CPU for the same runs as plain simulate() calls (%s attempts); "
                    "sweep overhead %.1f%%\n",
                    baseS, check == attempts ? "same" : "DIFFERENT", baseS > 0 ? 100.0 * (cpuS - baseS) / baseS : 0.0);
        std::printf("  baseline: %.3g engine events/s, %.3g HTTP attempts/s on one core\n", events / baseS, check / baseS);
    }
    return 0;
}
