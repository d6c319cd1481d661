// Times the attempt timeline on one operation with more than 5,000 trace events:
// setResult, then ~300 playback frames (advance the animation by one frame, then grab the viewport).
// Then one operation with B x W failing attempts (default 100 x 100, every connection refused):
// setResult plus the first paint, a resize, a zoom, a fit, and the items that exist.
// Usage: bench_ui_timeline [B W [only-big]]   ("only-big" skips the playback part)

#include "scenario.h"
#include "simulator.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QRegularExpression>
#include <QScrollBar>
#include <QVariantAnimation>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace retrylab;

namespace {

// The busiest operation of ghost-request, repeated end to end as one long operation.
RunResult longOperation(int minEvents)
{
    const ScenarioParse parsed = scenario::preset(QStringLiteral("ghost-request"));
    if (!parsed.ok())
        qFatal("ghost-request does not load");
    const RunResult base = simulate(parsed.scenario);
    QHash<int, int> count;
    for (const TraceEvent &e : base.trace)
        count[e.op]++;
    int op = 1;
    for (auto it = count.cbegin(); it != count.cend(); ++it) {
        if (it.key() > 0 && it.value() > count.value(op))
            op = it.key();
    }
    Trace one;
    for (const TraceEvent &e : base.trace) {
        if (e.op == op)
            one.append(e);
    }
    const qint64 t0 = one.first().t;
    const qint64 span = one.last().t - t0 + 1000000;
    const QRegularExpression business(QStringLiteral("^op\\d+(#\\d+)?/b(\\d+)/"));
    RunResult r;
    r.scenario = base.scenario;
    r.scenario.workload.orders = 1;
    int copy = 0;
    int record = 0;
    while (r.trace.size() < minEvents) {
        QHash<int, int> renumber;
        for (TraceEvent e : std::as_const(one)) {
            e.op = 1;
            e.t = e.t - t0 + copy * span;
            // Business attempt numbers keep counting up, so every attempt path stays unique.
            const QString path = e.path();
            const QRegularExpressionMatch m = business.match(path);
            if (m.hasMatch()) {
                const int b = m.captured(2).toInt() + copy * r.scenario.client.business.maxAttempts;
                e.setPath(QStringLiteral("op1/b%1/").arg(b) + path.mid(m.capturedEnd(0)));
            }
            if (e.record > 0) {
                if (!renumber.contains(e.record))
                    renumber.insert(e.record, ++record);
                e.record = renumber.value(e.record);
            }
            r.trace.append(e);
        }
        ++copy;
    }
    OpSummary s;
    s.op = 1;
    s.ref = QStringLiteral("ORD-0001");
    s.start = r.trace.first().t;
    s.end = r.trace.last().t;
    r.ops.append(s);
    return r;
}

// One order whose every connection is refused: B business attempts of W wrapper attempts each.
RunResult failingOperation(int business, int wrapper)
{
    const ScenarioParse parsed = scenario::preset(QStringLiteral("ghost-request"));
    if (!parsed.ok())
        qFatal("ghost-request does not load");
    Scenario s = parsed.scenario;
    s.workload.orders = 1;
    s.client.business.maxAttempts = business;
    s.client.wrapper.maxAttempts = wrapper;
    s.network.connectFailure = 1.0;
    return simulate(s);
}

double msSince(const QElapsedTimer &timer)
{
    return timer.nsecsElapsed() / 1e6;
}

void timeBigOperation(int business, int wrapper)
{
    QElapsedTimer timer;
    timer.start();
    const RunResult run = failingOperation(business, wrapper);
    std::printf("ui_timeline: one operation with %d x %d failing attempts: %d trace events (simulated in %.0f ms)\n",
                business, wrapper, int(run.trace.size()), msSince(timer));
    std::fflush(stdout);

    TimelineWidget w;
    w.resize(1280, 720);
    w.show();
    QCoreApplication::processEvents();
    timer.start();
    w.setResult(run);
    const double set = msSince(timer);
    QCoreApplication::processEvents();
    const QPixmap first = w.view()->viewport()->grab();
    std::printf("  setResult %.1f ms, + first paint %.1f ms; %d events, %d graphics items\n", set, msSince(timer),
                w.itemCount(), int(w.scene()->items().size()));
    std::fflush(stdout);

    timer.start();
    w.resize(1000, 600);
    QCoreApplication::processEvents();
    w.view()->viewport()->grab();
    const double shrink = msSince(timer);
    timer.start();
    w.resize(1280, 720);
    QCoreApplication::processEvents();
    w.view()->viewport()->grab();
    std::printf("  resize 1280x720 -> 1000x600 + paint %.1f ms, back %.1f ms\n", shrink, msSince(timer));

    timer.start();
    w.zoomBy(0.8);
    QCoreApplication::processEvents();
    w.view()->viewport()->grab();
    const double out = msSince(timer);
    timer.start();
    w.zoomBy(1.25);
    QCoreApplication::processEvents();
    w.view()->viewport()->grab();
    std::printf("  zoom out + paint %.1f ms, zoom in + paint %.1f ms\n", out, msSince(timer));

    timer.start();
    w.fitToView();
    QCoreApplication::processEvents();
    w.view()->viewport()->grab();
    std::printf("  fit + paint %.1f ms; %d graphics items\n", msSince(timer), int(w.scene()->items().size()));

    QScrollBar *bar = w.view()->horizontalScrollBar();
    timer.start();
    for (int i = 1; i <= 20; ++i) {
        bar->setValue(bar->minimum() + (bar->maximum() - bar->minimum()) * i / 20);
        QCoreApplication::processEvents();
        w.view()->viewport()->grab();
    }
    std::printf("  scroll across in 20 steps + paint: %.1f ms per step\n", msSince(timer) / 20);
    if (first.isNull())
        qFatal("empty frame");
}

struct Stats
{
    double median = 0;
    double p95 = 0;
    double max = 0;
};

Stats stats(QList<double> v)
{
    std::sort(v.begin(), v.end());
    Stats s;
    if (v.isEmpty())
        return s;
    s.median = v.at(v.size() / 2);
    s.p95 = v.at(qMin<qsizetype>(v.size() - 1, qsizetype(v.size() * 0.95)));
    s.max = v.last();
    return s;
}

Stats playFrames(TimelineWidget &w, double speed, int frames)
{
    w.setSpeed(speed);
    w.setPlayhead(0);
    w.play();
    QVariantAnimation *animation = w.findChild<QVariantAnimation *>();
    QList<double> ms;
    QElapsedTimer timer;
    const int frameMs = 16;
    for (int i = 1; i <= frames; ++i) {
        timer.start();
        animation->setCurrentTime(qMin(animation->duration(), i * frameMs));
        QCoreApplication::processEvents(); // the batched repaint requests of this frame
        const QPixmap pixmap = w.view()->viewport()->grab();
        ms.append(timer.nsecsElapsed() / 1e6);
        if (pixmap.isNull())
            qFatal("empty frame");
    }
    w.pause();
    return stats(ms);
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const int business = argc > 2 ? std::atoi(argv[1]) : 100;
    const int wrapper = argc > 2 ? std::atoi(argv[2]) : 100;
    if (business <= 0 || wrapper <= 0)
        qFatal("usage: bench_ui_timeline [B W [only-big]]");
    if (argc > 3 && qstrcmp(argv[3], "only-big") == 0) {
        timeBigOperation(business, wrapper);
        return 0;
    }
    const RunResult run = longOperation(5000);

    TimelineWidget w;
    w.resize(1280, 720);
    w.show();
    QCoreApplication::processEvents();

    QList<double> setResultMs;
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer timer;
        timer.start();
        w.setResult(run);
        setResultMs.append(timer.nsecsElapsed() / 1e6);
    }
    QCoreApplication::processEvents();
    std::printf("ui_timeline: one operation with %d trace events, %d graphics items\n", int(run.trace.size()),
                w.liveItemCount());
    std::printf("  setResult: median %.1f ms (3 runs, min %.1f ms)\n", stats(setResultMs).median,
                *std::min_element(setResultMs.cbegin(), setResultMs.cend()));

    QList<double> still;
    for (int i = 0; i < 100; ++i) {
        QElapsedTimer timer;
        timer.start();
        w.view()->viewport()->grab();
        still.append(timer.nsecsElapsed() / 1e6);
    }
    std::printf("  baseline, grab without moving the playhead:        median %.2f ms\n", stats(still).median);
    const Stats normal = playFrames(w, 1.0, 300);
    std::printf("  playback 1x, 300 frames (advance + viewport grab): median %.2f ms, p95 %.2f ms, max %.2f ms\n",
                normal.median, normal.p95, normal.max);
    const Stats fast = playFrames(w, 16.0, 300);
    std::printf("  playback 16x, 300 frames (scrolling every frame):  median %.2f ms, p95 %.2f ms, max %.2f ms\n",
                fast.median, fast.p95, fast.max);

    // Worst case: the whole operation fitted into the view, every item visible.
    w.fitToView();
    const Stats fitted = playFrames(w, 16.0, 60);
    std::printf("  fitted (all items visible), 60 frames:             median %.2f ms, p95 %.2f ms\n", fitted.median,
                fitted.p95);
    std::fflush(stdout);
    timeBigOperation(business, wrapper);
    return 0;
}
