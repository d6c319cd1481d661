// The window's memory bound (ui/document/windowbudget.h): the events per attempt it assumes hold on
// every preset, a scenario expected past its kept events is refused exactly one operation past
// them, a run past them stops there, and the largest accepted scenario of the shape that keeps the
// most per event stays under the bound in the real window (a child process under RLIMIT_AS, its
// peak RSS checked). Memory, not time: no wall-clock assert.
#include "document/runcontroller.h"
#include "document/windowbudget.h"
#include "lesson.h"
#include "scenario.h"
#include "simulator.h"
#include "testpaths.h"
#include "testsupport.h"
#include "work.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <sys/resource.h>

using namespace retrylab;

namespace {

constexpr int RunTimeoutMs = 120000;

// Counted, not kept: the engine's events of a run.
qint64 countEvents(const Scenario &s)
{
    RunOptions options;
    options.trace = false;
    qint64 events = 0;
    options.sink = [&events](const TraceEvent &) { ++events; };
    simulate(s, options);
    return events;
}

Scenario with(const Scenario &s, const char *path, const QJsonValue &value)
{
    const ScenarioParse parsed = scenario::withValue(s, QLatin1String(path), value);
    if (!parsed.ok())
        qFatal("%s: %s", path, qPrintable(parsed.errors.join(QLatin1Char('\n'))));
    return parsed.scenario;
}

// `orders` orders of the quiet scenario: every order alone on the wire, the same events each.
Scenario quiet(int orders)
{
    Scenario s = test::quietScenario();
    s.workload.orders = orders;
    return s;
}

// The shape that keeps the most per event in the window: ghost-request with every response lost
// (nine attempts per order, each timing out) and every order at once.
Scenario everyResponseLost(int orders)
{
    Scenario s = test::presetScenario(QStringLiteral("ghost-request"));
    s.workload.orders = orders;
    s.workload.interArrivalMs = 0;
    s.network.responseLoss = 1.0;
    s.network.script.clear();
    return s;
}

QString writeScenario(const QTemporaryDir &dir, const QString &name, const Scenario &s)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString();
    file.write(QJsonDocument(s.toJson()).toJson());
    return path;
}

} // namespace

class TestWindowMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eventsPerAttemptHoldOnEveryPreset();
    void refusedOneOperationPastTheBudget();
    void runPastTheBudgetStopsThere();
    void controllerRefusesBeforeRunning();
    void handoutStepsTogetherFitTheBound();
    void largestAcceptedWindowStaysUnderTheBound();
};

void TestWindowMemory::eventsPerAttemptHoldOnEveryPreset()
{
    // windowbudget::EventsPerAttempt is what the window assumes where no pilot can be cut: every
    // preset under the fault shapes that make the most events per request stays within it.
    double worst = 0;
    QString worstName;
    for (const QString &name : scenario::presetNames()) {
        const Scenario base = test::presetScenario(name);
        Scenario transport = with(with(base, "client.transport.enabled", true), "network.responseLoss", 1.0);
        const QList<QPair<const char *, Scenario>> shapes{
                {"as-is", base},
                {"every-response-lost", with(base, "network.responseLoss", 1.0)},
                {"every-request-lost", with(base, "network.requestLoss", 1.0)},
                {"every-5xx-before-commit", with(base, "server.error5xxBeforeCommit", 1.0)},
                {"every-5xx-after-commit", with(base, "server.error5xxAfterCommit", 1.0)},
                {"every-429", with(base, "server.throttle429", 1.0)},
                {"transport-on-lost", transport},
                {"query-before-retry-lost", with(with(base, "client.queryBeforeRetry", true), "network.responseLoss", 1.0)},
                {"double-submit-lost", with(with(base, "workload.doubleSubmitRate", 1.0), "network.responseLoss", 1.0)},
                {"reconciliation-lost",
                 with(with(with(base, "reconciliation.enabled", true), "reconciliation.intervalS", 1), "network.responseLoss", 1.0)},
        };
        for (const auto &[shape, s] : shapes) {
            const qint64 attempts = work::estimate(s).attempts;
            const qint64 events = countEvents(s);
            const double ratio = double(events) / double(qMax<qint64>(1, attempts));
            if (ratio > worst) {
                worst = ratio;
                worstName = name + QLatin1Char(' ') + QLatin1String(shape);
            }
            QVERIFY2(events <= windowbudget::EventsPerAttempt * attempts,
                     qPrintable(QStringLiteral("%1 %2: %3 events for up to %4 attempts")
                                        .arg(name, QLatin1String(shape))
                                        .arg(events)
                                        .arg(attempts)));
        }
    }
    qInfo("most events per worst-case attempt: %.2f (%s)", worst, qPrintable(worstName));
}

void TestWindowMemory::refusedOneOperationPastTheBudget()
{
    // Every quiet order makes the same events, so the pilot's 1,000 orders extrapolate exactly.
    const qint64 perOrder = countEvents(quiet(1));
    QVERIFY(perOrder > 0 && perOrder < windowbudget::EventsPerAttempt); // else no pilot would run
    const int orders = 2 * windowbudget::PilotOperations;
    const qint64 maxEvents = perOrder * orders;
    QCOMPARE(countEvents(quiet(orders)), maxEvents);

    const windowbudget::Expectation at = windowbudget::expect(quiet(orders));
    QCOMPARE(at.pilotOperations, qint64(windowbudget::PilotOperations));
    QCOMPARE(at.events, maxEvents);
    QVERIFY2(windowbudget::memoryRefusal(quiet(orders), maxEvents).isEmpty(), "exactly at the budget: runs");

    const QString refusal = windowbudget::memoryRefusal(quiet(orders + 1), maxEvents);
    QVERIFY2(!refusal.isEmpty(), "one order past the budget: refused");
    // Names the field and its value, the expected events and the budget.
    QVERIFY2(refusal.contains(QStringLiteral("workload.orders %1").arg(orders + 1)), qPrintable(refusal));
    QVERIFY2(refusal.contains(QString::number(maxEvents + perOrder)), qPrintable(refusal));
    QVERIFY2(refusal.contains(QString::number(maxEvents)), qPrintable(refusal));
    QVERIFY2(refusal.contains(windowbudget::boundText()), qPrintable(refusal));
    // The same through the one check the window's command line and lessons use.
    QCOMPARE(windowbudget::refusal(quiet(orders + 1), work::DefaultMaxTracedAttempts, maxEvents), refusal);
}

void TestWindowMemory::runPastTheBudgetStopsThere()
{
    const Scenario s = test::presetScenario(QStringLiteral("ghost-request"));
    const qint64 events = countEvents(s);
    bool overflow = true;
    RunResult kept = windowbudget::runKept(s, events, nullptr, &overflow);
    QVERIFY(!overflow); // exactly at the budget: every event kept
    QCOMPARE(kept.trace.size(), events);
    QCOMPARE(trace::hash(kept.trace), trace::hash(simulate(s).trace));

    kept = windowbudget::runKept(s, events - 1, nullptr, &overflow);
    QVERIFY(overflow);
    QVERIFY(kept.cancelled);
    QVERIFY(kept.trace.isEmpty());
}

void TestWindowMemory::controllerRefusesBeforeRunning()
{
    const qint64 perOrder = countEvents(quiet(1));
    const int orders = 2 * windowbudget::PilotOperations;
    RunController run;
    run.setSyncLimit(0); // the background path, where the pilot runs
    run.setMaxEvents(perOrder * orders);
    QSignalSpy refused(&run, &RunController::runRefused);
    QSignalSpy results(&run, &RunController::resultReady);

    run.setScenario(quiet(orders + 1));
    QVERIFY(refused.wait(RunTimeoutMs));
    QCOMPARE(results.count(), 0);
    QVERIFY2(run.refusal().startsWith(QStringLiteral("Not run: ")), qPrintable(run.refusal()));
    QVERIFY2(run.refusal().contains(QStringLiteral("workload.orders %1").arg(orders + 1)), qPrintable(run.refusal()));
    QVERIFY(!run.hasResult());

    run.setScenario(quiet(orders));
    QVERIFY(results.wait(RunTimeoutMs));
    QCOMPARE(run.result().trace.size(), perOrder * orders);
    QVERIFY(run.refusal().isEmpty());

    // Small runs skip the pilot; one past the budget is stopped by the kept events instead.
    RunController small;
    small.setMaxEvents(perOrder * 10 - 1);
    QSignalSpy smallRefused(&small, &RunController::runRefused);
    small.setScenario(quiet(10));
    QVERIFY(smallRefused.wait(RunTimeoutMs));
    QVERIFY2(small.refusal().startsWith(QStringLiteral("Stopped: ")), qPrintable(small.refusal()));
    QVERIFY(!small.hasResult());
}

void TestWindowMemory::handoutStepsTogetherFitTheBound()
{
    // Three steps of about 0.7 x MaxEvents each: the window (one step at a time) opens the lesson,
    // a handout (every step kept at once, 2 x MaxEvents) refuses it, naming the steps' total.
    const qint64 perOrder = countEvents(quiet(1));
    const int orders = int(windowbudget::MaxEvents * 7 / 10 / perOrder);
    Lesson lesson;
    lesson.name = QStringLiteral("big");
    for (int i = 0; i < 3; ++i) {
        LessonStep step;
        step.scenario = quiet(orders);
        lesson.steps << step;
    }
    QVERIFY(windowbudget::lessonRefusal(lesson).isEmpty());
    const QString refused = windowbudget::lessonRefusal(lesson, true);
    QVERIFY2(refused.startsWith(QStringLiteral("its 3 steps together would keep about ")), qPrintable(refused));
    QVERIFY2(refused.contains(work::formatCount(2 * windowbudget::MaxEvents)), qPrintable(refused));
    lesson.steps.removeLast(); // two: 1.4 x MaxEvents together, within the bound
    QVERIFY(windowbudget::lessonRefusal(lesson, true).isEmpty());

    // A step over the budget on its own is named by its number.
    LessonStep over;
    over.scenario = quiet(int(windowbudget::MaxEvents / perOrder) + 1);
    lesson.steps << over;
    const QString step = windowbudget::lessonRefusal(lesson);
    QVERIFY2(step.startsWith(QStringLiteral("step 3: this scenario would keep about ")), qPrintable(step));
}

void TestWindowMemory::largestAcceptedWindowStaysUnderTheBound()
{
    // The largest number of orders the window accepts of the shape that keeps the most per event.
    const windowbudget::Expectation pilot = windowbudget::expect(everyResponseLost(windowbudget::PilotOperations));
    int orders = int(windowbudget::MaxEvents * pilot.pilotOperations / pilot.pilotEvents);
    while (!windowbudget::memoryRefusal(everyResponseLost(orders)).isEmpty())
        --orders;
    while (windowbudget::memoryRefusal(everyResponseLost(orders + 1)).isEmpty())
        ++orders;
    qInfo("largest accepted: %d orders, every response lost, every order at once (about %lld events)", orders,
          windowbudget::expect(everyResponseLost(orders)).events);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString largest = writeScenario(dir, QStringLiteral("largest.json"), everyResponseLost(orders));
    const QString over = writeScenario(dir, QStringLiteral("over.json"), everyResponseLost(orders + 1));
    QVERIFY(!largest.isEmpty() && !over.isEmpty());

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // The address space holds far more than the resident memory: code, thread stacks, and glibc's
    // per-thread malloc arenas (64 MB each reserved). Two arenas; the bound plus 600 MB of mappings.
    env.insert(QStringLiteral("MALLOC_ARENA_MAX"), QStringLiteral("2"));
    const auto window = [&](const QString &file, const QString &shot) {
        auto *process = new QProcess;
        process->setProgram(retrylab::test::retrylabBin());
        process->setArguments({QStringLiteral("--scenario"), file, QStringLiteral("--screenshot"), dir.filePath(shot)});
        process->setProcessEnvironment(env);
        // A sanitizer build reserves terabytes of address space for its shadow: no cap there (the
        // window must still run whole; its peak is reported, not asserted, below).
        if (test::peakMemoryIsMeaningful()) {
            process->setChildProcessModifier([] {
                const rlim_t cap = rlim_t(windowbudget::MemoryBoundBytes) + (rlim_t(600) << 20);
                const rlimit limit{cap, cap};
                setrlimit(RLIMIT_AS, &limit);
            });
        }
        process->start();
        process->waitForFinished(RunTimeoutMs * 2);
        return process;
    };

    std::unique_ptr<QProcess> ran(window(largest, QStringLiteral("largest.png")));
    const QByteArray err = ran->readAllStandardError();
    QCOMPARE(ran->exitStatus(), QProcess::NormalExit);
    QVERIFY2(ran->exitCode() == 0, err.constData());
    QVERIFY(err.isEmpty());
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("largest.png"))).size() > 0);
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    qInfo("peak RSS of the window at its largest: %ld MB (bound %lld MB)", long(usage.ru_maxrss / 1024),
          windowbudget::MemoryBoundBytes >> 20);
    // One run's share as the budget reckons it (the bound holds two: the run on show and the next).
    const qint64 oneRun = windowbudget::BaseBytes + windowbudget::MaxEvents * windowbudget::BytesPerEvent;
    if (test::peakMemoryIsMeaningful())
        QVERIFY2(qint64(usage.ru_maxrss) * 1024 < oneRun,
                 qPrintable(QStringLiteral("%1 KiB, over %2 KiB").arg(usage.ru_maxrss).arg(oneRun / 1024)));

    // One order more: refused before any run, exit 2, naming the field and the numbers.
    std::unique_ptr<QProcess> refused(window(over, QStringLiteral("over.png")));
    const QString line = QString::fromUtf8(refused->readAllStandardError());
    QCOMPARE(refused->exitCode(), 2);
    QVERIFY2(line.startsWith(QStringLiteral("retrylab: --scenario: this scenario would keep about ")), qPrintable(line));
    QVERIFY2(line.contains(QStringLiteral("workload.orders %1").arg(orders + 1)), qPrintable(line));
    QVERIFY2(line.contains(work::formatCount(windowbudget::MaxEvents)), qPrintable(line));
    QCOMPARE(line.count(QLatin1Char('\n')), 1);
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("over.png"))));
}

QTEST_GUILESS_MAIN(TestWindowMemory)
#include "tst_windowmemory.moc"
