#pragma once

#include "lesson.h"
#include "scenario.h"
#include "simulator.h"
#include "work.h"

#include <QString>

#include <atomic>

namespace retrylab {

// The window's memory bound: it keeps every trace event of the run on show (the timeline, the log,
// the records and the charts read them), so the number of events it may keep is the bound divided
// by the bytes one kept event costs, as measured. A scenario expected to pass it is refused before
// it runs, naming its fields; a run that passes it anyway is stopped there.
namespace windowbudget {

// The bound stated in the README: peak resident memory of the whole window process.
inline constexpr qint64 MemoryBoundBytes = qint64(400) << 20;
// The window with a small preset on show, before any run of size: 58 MB of peak RSS measured
// (`/usr/bin/time -v retrylab --scenario stable-key --screenshot x.png`, offscreen), with room for
// the fonts and charts of a real screen.
inline constexpr qint64 BaseBytes = qint64(100) << 20;
// Peak RSS per kept event, measured on the window with --screenshot (offscreen): the slope of
// peak RSS between about 97,000 and 376,000 events, over the shapes that keep the most per event:
// 169 bytes (ghost-request, every response lost, every order at once: 1,100 and 4,200 orders),
// 179 (reconciliation, every order at once), 180 (a third lost, every order at once), 181
// (nothing lost, 9,900 and 37,800 orders). That is the event (88 bytes: the compact TraceEvent,
// whose engine events hold no string; 200 with five QStrings before, measured at 294-324), the
// records and operations tables, the chart points and the allocator's share. 217 leaves a fifth
// for what was not measured; tst_windowmemory holds the largest accepted run under it.
inline constexpr qint64 BytesPerEvent = 217;
// The run on show and the one being computed are both in memory while it runs.
inline constexpr qint64 MaxEvents = (MemoryBoundBytes - BaseBytes) / (2 * BytesPerEvent);
// A pilot runs the scenario cut to this many operations (or whole when it has fewer): its events
// per operation, times the operations, is the run's expected number of events.
inline constexpr int PilotOperations = 1000;
// The most events one HTTP request of work::estimate causes in any run measured (12.7, rotating-key
// with every response lost and reconciliation on; tst_windowmemory checks every preset under
// eight fault shapes): the expectation where no pilot can be cut (load phases).
inline constexpr qint64 EventsPerAttempt = 16;

// What a scenario is expected to keep in the window.
struct Expectation
{
    qint64 events = 0;         // expected trace events of the whole run
    qint64 operations = 0;     // of the whole run
    qint64 pilotOperations = 0; // 0: no pilot (events from the worst case)
    qint64 pilotEvents = 0;
    bool exact() const { return pilotOperations == operations; }
};

// Runs the pilot (metrics only, events counted, not kept): a few milliseconds for most scenarios,
// at most PilotOperations operations' worth. Thread-safe.
Expectation expect(const Scenario &scenario, const std::atomic_bool *cancel = nullptr);

// Empty when the window may run `scenario`; else why not, one line naming the fields and the
// numbers. Over the work budget `maxAttempts` (time; no run, at once):
QString workRefusal(const Scenario &scenario, qint64 maxAttempts = work::DefaultMaxTracedAttempts);
// Expected past `maxEvents` kept events (memory): at once when even its worst case fits (most
// scenarios), else after the pilot (milliseconds to a second of CPU: run it off the GUI thread).
QString memoryRefusal(const Scenario &scenario, qint64 maxEvents = MaxEvents, const std::atomic_bool *cancel = nullptr);
// Both, work first.
QString refusal(const Scenario &scenario, qint64 maxAttempts = work::DefaultMaxTracedAttempts,
                qint64 maxEvents = MaxEvents);
// A lesson's steps checked as refusal() checks a scenario, "step 2: ..." for the first refused.
// The window runs one step at a time; a handout (`allSteps`) keeps every step's run at once, so
// their expected events together must also fit in the bound (2 x MaxEvents).
QString lessonRefusal(const Lesson &lesson, bool allSteps = false);
// The line of a run stopped at `maxEvents` kept events.
QString stoppedAt(const Scenario &scenario, qint64 maxEvents);

// Runs `scenario` for the window, keeping at most `maxEvents` trace events: a run that would pass
// them is stopped there (*overflow set, the result cancelled and empty). `cancel` (may be null)
// stops it too. Thread-safe.
RunResult runKept(const Scenario &scenario, qint64 maxEvents, std::atomic_bool *cancel, bool *overflow);

// "400 MB"
QString boundText();

} // namespace windowbudget

} // namespace retrylab
