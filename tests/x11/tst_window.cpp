// The main window on a real X server (xvfb-run, platform xcb): every preset at the sizes a
// classroom projector or laptop uses, resized between them. The offscreen platform never showed
// the scroll-bar/relayout loop that froze the real window, so this test runs under X11 only.
#include "x11/x11support.h"
#include "shell/mainwindow.h"
#include "document/runcontroller.h"
#include "scenario.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QHash>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

using namespace retrylab;

namespace {

constexpr int RunTimeoutMs = 120000;
// A layout that has converged resizes each widget a few times at most after a size change.
constexpr int MaxResizesPerWidget = 6;
// Past this many resizes of one widget the layout is looping: stop it and fail.
constexpr int LoopResizes = 400;
// The GUI thread must come back to its event loop within this long, however big the preset.
constexpr qint64 MaxGapMs = 2000;
// Last resort when the loop starves even timers: the watchdog thread ends the process.
constexpr int HangSeconds = 30;

const QList<QSize> Sizes{{1024, 640}, {1280, 720}, {1366, 768}, {1920, 1080}};

// Counts resize events per widget of one window; hides the window when one widget loops.
class ResizeCounter : public QObject
{
public:
    explicit ResizeCounter(QWidget *window)
        : m_window(window)
    {
        qApp->installEventFilter(this);
    }
    ~ResizeCounter() override { qApp->removeEventFilter(this); }

    void reset()
    {
        m_counts.clear();
        m_last.restart();
    }
    int maxCount(QString *who) const
    {
        int best = 0;
        for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it) {
            if (it.value() > best) {
                best = it.value();
                *who = it.key();
            }
        }
        return best;
    }
    qint64 msSinceLastResize() const { return m_last.elapsed(); }
    bool looped() const { return m_looped; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Resize || !watched->isWidgetType())
            return false;
        auto *w = static_cast<QWidget *>(watched);
        if (!m_window || (w != m_window && !m_window->isAncestorOf(w)))
            return false;
        QString name = QString::fromLatin1(w->metaObject()->className());
        for (QWidget *p = w; p; p = p->parentWidget()) {
            if (!p->objectName().isEmpty()) {
                name += QLatin1Char('@') + p->objectName();
                break;
            }
        }
        name += QStringLiteral("#%1").arg(quintptr(w), 0, 16);
        const int n = ++m_counts[name];
        m_last.restart();
        if (n >= LoopResizes && !m_looped) {
            m_looped = true;
            QTimer::singleShot(0, m_window, [w = m_window] { w->hide(); });
        }
        return false;
    }

private:
    QPointer<QWidget> m_window;
    QHash<QString, int> m_counts;
    QElapsedTimer m_last;
    bool m_looped = false;
};

// Ticks on the GUI thread; a second thread ends the process if the ticks stop for good.
class Watchdog
{
public:
    Watchdog()
    {
        m_clock.start();
        m_lastTick = 0;
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
        m_timer.start(20);
        m_thread = std::thread([this] {
            while (!m_stop.load()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                if (m_clock.elapsed() - m_lastTick.load() > HangSeconds * 1000) {
                    std::fprintf(stderr, "FAIL: the GUI thread did not return to its event loop for %d s (%s)\n",
                                 HangSeconds, m_where.load());
                    std::fflush(stderr);
                    std::_Exit(3);
                }
            }
        });
    }
    ~Watchdog()
    {
        m_stop = true;
        m_thread.join();
    }
    void setWhere(const char *where) { m_where = where; }
    // Longest gap between ticks since the last reset, in ms.
    qint64 maxGap() const { return m_maxGap; }
    void reset()
    {
        m_maxGap = 0;
        m_lastTick = m_clock.elapsed();
    }

private:
    void tick()
    {
        const qint64 now = m_clock.elapsed();
        m_maxGap = qMax(m_maxGap, now - m_lastTick.load());
        m_lastTick = now;
    }

    QElapsedTimer m_clock;
    std::atomic<qint64> m_lastTick{0};
    std::atomic<bool> m_stop{false};
    std::atomic<const char *> m_where{"start"};
    qint64 m_maxGap = 0;
    QTimer m_timer;
    std::thread m_thread;
};

} // namespace

class TestWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void everyPresetSettlesAtEverySize_data();
    void everyPresetSettlesAtEverySize();
};

void TestWindow::initTestCase()
{
    const QString notHere = x11test::setUp(QStringLiteral("RetryLabX11Test"));
    QVERIFY2(notHere.isEmpty(), qPrintable(notHere));
}

void TestWindow::init()
{
    QSettings().clear();
}

void TestWindow::everyPresetSettlesAtEverySize_data()
{
    QTest::addColumn<QString>("preset");
    const QStringList presets = scenario::presetNames();
    for (const QString &name : presets)
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestWindow::everyPresetSettlesAtEverySize()
{
    QFETCH(QString, preset);
    Watchdog watchdog;
    MainWindow w;
    ResizeCounter counter(&w);
    const QByteArray where = preset.toUtf8();
    watchdog.setWhere(where.constData());

    w.resize(Sizes.at(1));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY2(w.loadPreset(preset, &error), qPrintable(error));
    RunController *run = w.runController();
    QVERIFY(QTest::qWaitFor([run] { return !run->isPending() && run->hasResult(); }, RunTimeoutMs));

    // Every size from the default one, then back down through them, as a teacher dragging the window.
    QList<QSize> tour = Sizes;
    for (int i = Sizes.size() - 2; i >= 0; --i)
        tour << Sizes.at(i);
    for (const QSize &size : tour) {
        counter.reset();
        watchdog.reset();
        w.resize(size);
        // Settled: no widget of the window was resized for 300 ms (or the loop guard hid it).
        const bool settled = QTest::qWaitFor(
            [&counter] { return counter.looped() || counter.msSinceLastResize() >= 300; }, 10000);
        const QString at = QStringLiteral("%1 at %2x%3").arg(preset).arg(size.width()).arg(size.height());
        QString who;
        const int resizes = counter.maxCount(&who);
        QVERIFY2(!counter.looped(),
                 qPrintable(QStringLiteral("%1: layout loop, %2 resized %3 times").arg(at, who).arg(resizes)));
        QVERIFY2(settled, qPrintable(QStringLiteral("%1: still resizing after 10 s (%2)").arg(at, who)));
        QVERIFY2(resizes <= MaxResizesPerWidget,
                 qPrintable(QStringLiteral("%1: %2 resized %3 times after one size change").arg(at, who).arg(resizes)));
        QVERIFY2(watchdog.maxGap() <= MaxGapMs,
                 qPrintable(QStringLiteral("%1: the event loop was blocked for %2 ms").arg(at).arg(watchdog.maxGap())));
        QVERIFY2(w.isVisible(), qPrintable(at));
    }
}

QTEST_MAIN(TestWindow)
#include "tst_window.moc"
