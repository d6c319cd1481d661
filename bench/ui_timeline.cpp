// Times the attempt timeline on one operation with more than 5,000 trace events:
// setResult, then ~300 playback frames (advance the animation by one frame, then grab the viewport).

#include "scenario.h"
#include "simulator.h"
#include "timelineview.h"
#include "timelinewidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QRegularExpression>
#include <QVariantAnimation>

#include <algorithm>
#include <cstdio>

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
            const QRegularExpressionMatch m = business.match(e.path);
            if (m.hasMatch()) {
                const int b = m.captured(2).toInt() + copy * r.scenario.client.business.maxAttempts;
                e.path = QStringLiteral("op1/b%1/").arg(b) + e.path.mid(m.capturedEnd(0));
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
    std::printf("ui_timeline: one operation with %d trace events, %d items\n", int(run.trace.size()), w.itemCount());
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
    return 0;
}
