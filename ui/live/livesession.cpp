#include "live/livesession.h"

#include <QElapsedTimer>

namespace retrylab {

LiveSession::LiveSession(QObject *parent)
    : QObject(parent)
{
    m_batch.setSingleShot(true);
    m_batch.setInterval(BatchIntervalMs);
    connect(&m_batch, &QTimer::timeout, this, &LiveSession::publish);
}

QString LiveSession::listenOn(quint16 port, bool anyPortIfBusy, const std::function<QString(quint16, bool)> &listen, bool *moved)
{
    *moved = false;
    QString error = listen(port, false);
    if (!error.isEmpty() && anyPortIfBusy && port != 0 && !isRunning()) {
        if (listen(0, true).isEmpty()) {
            *moved = true;
            error.clear();
        }
    }
    return error;
}

void LiveSession::restartBatching()
{
    m_batch.setInterval(BatchIntervalMs);
    m_portNote.clear();
}

void LiveSession::schedulePublish()
{
    if (!m_batch.isActive())
        m_batch.start();
}

bool LiveSession::cancelPublish()
{
    if (!m_batch.isActive())
        return false;
    m_batch.stop();
    return true;
}

void LiveSession::publish()
{
    QElapsedTimer cost;
    cost.start();
    Q_EMIT resultReady(currentResult(), latestOperation());
    // The views redraw inside that emit. When a flood of requests makes an update expensive, the
    // next one waits longer, so the window (and the server or proxy on the same thread) keep most
    // of the time.
    m_batch.setInterval(int(qBound(qint64(BatchIntervalMs), 4 * cost.elapsed(), qint64(MaxBatchIntervalMs))));
}

} // namespace retrylab
