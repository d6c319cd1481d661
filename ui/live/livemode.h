#pragma once

#include "liverun.h"
#include "scenario.h"
#include "simulator.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QUrl>

namespace retrylab {

// The window's Live switch: runs the current scenario with the lab's own client over real HTTP
// against an embedded order server on a free loopback port (LiveRun, asynchronous on this
// thread's event loop), and reports how long it has been running.
class LiveMode : public QObject
{
    Q_OBJECT
public:
    // The time scales the window offers (real milliseconds per simulated millisecond).
    static QList<double> timeScales() { return {1.0, 0.1, 0.02}; }
    static constexpr double defaultTimeScale = 0.1;

    explicit LiveMode(QObject *parent = nullptr);
    ~LiveMode() override;

    bool isEnabled() const { return m_enabled; }
    bool isRunning() const;
    double timeScale() const { return m_timeScale; }
    void setTimeScale(double scale) { m_timeScale = scale; }
    // The server of the run in flight or of the last one.
    QUrl url() const;
    // Real time since the run in flight started, in milliseconds.
    qint64 elapsedMs() const;
    // "Live run over http://127.0.0.1:PORT, time scale 0.1"
    static QString describe(const QUrl &url, double timeScale);

public Q_SLOTS:
    void setEnabled(bool enabled);
    // Starts a run of the scenario; a run in flight is dropped first (no finished signal for it).
    void start(const retrylab::Scenario &scenario);
    // Stops the run in flight: cancelled() follows, the result is dropped.
    void stop();

Q_SIGNALS:
    void enabledChanged(bool enabled);
    void runningChanged(bool running);
    void started();
    // Every few hundred milliseconds while running.
    void tick(qint64 elapsedMs);
    // A complete run: publish it. description says where and how fast it ran.
    void finished(const retrylab::RunResult &result, const QString &description);
    void failed(const QString &error);
    void cancelled();

private:
    void onRunFinished();

    LiveRun *m_run = nullptr;
    bool m_enabled = false;
    bool m_running = false;
    double m_timeScale = defaultTimeScale;
    double m_runScale = defaultTimeScale;
    QUrl m_url;
    QElapsedTimer m_elapsed;
    QTimer m_ticker;
};

} // namespace retrylab
