#include "live/livemode.h"

#include <QLocale>

namespace retrylab {

LiveMode::LiveMode(QObject *parent)
    : QObject(parent)
    , m_run(new LiveRun(this))
{
    m_ticker.setInterval(200);
    connect(&m_ticker, &QTimer::timeout, this, [this] { Q_EMIT tick(elapsedMs()); });
    connect(m_run, &LiveRun::finished, this, &LiveMode::onRunFinished);
}

LiveMode::~LiveMode() = default;

bool LiveMode::isRunning() const
{
    return m_running;
}

QUrl LiveMode::url() const
{
    return m_url;
}

qint64 LiveMode::elapsedMs() const
{
    return m_running && m_elapsed.isValid() ? m_elapsed.elapsed() : 0;
}

QString LiveMode::describe(const QUrl &url, double timeScale)
{
    return tr("Live run over %1, time scale %2")
        .arg(url.toString(QUrl::StripTrailingSlash), QLocale::c().toString(timeScale, 'g', 3));
}

void LiveMode::setEnabled(bool enabled)
{
    if (m_enabled == enabled)
        return;
    m_enabled = enabled;
    if (!enabled)
        stop();
    Q_EMIT enabledChanged(enabled);
}

void LiveMode::start(const Scenario &scenario)
{
    // LiveRun::start drops a run in flight without a finished signal.
    m_runScale = m_timeScale;
    LiveOptions options;
    options.timeScale = m_runScale;
    // Ghost requests commit late: wait for them in scaled time, as the simulation does.
    options.drainMs = 5000;
    m_elapsed.start();
    const bool wasRunning = m_running;
    m_running = true;
    m_url = QUrl();
    m_run->start(scenario, options);
    if (!m_running)
        return; // finished at once (an error)
    m_url = m_run->url();
    m_ticker.start();
    Q_EMIT started();
    if (!wasRunning)
        Q_EMIT runningChanged(true);
}

void LiveMode::stop()
{
    if (!m_running)
        return;
    // Said at once, so Stop answers at once; the finished() that LiveRun queues is then stale.
    m_run->cancel();
    m_running = false;
    m_ticker.stop();
    Q_EMIT runningChanged(false);
    Q_EMIT cancelled();
}

void LiveMode::onRunFinished()
{
    // A finished() queued by a run that was stopped or replaced belongs to no run on show.
    if (!m_running || m_run->isRunning())
        return;
    m_running = false;
    m_ticker.stop();
    if (m_url.isEmpty())
        m_url = m_run->url();
    const RunResult &result = m_run->result();
    Q_EMIT runningChanged(false);
    if (result.cancelled) {
        Q_EMIT cancelled();
        return;
    }
    if (!result.error.isEmpty() && result.trace.isEmpty()) {
        Q_EMIT failed(result.error);
        return;
    }
    Q_EMIT finished(result, describe(m_url, m_runScale));
}

} // namespace retrylab
