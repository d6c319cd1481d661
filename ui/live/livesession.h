#pragma once

#include "simulator.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace retrylab {

// What the window's sessions of real traffic share (Watch: the embedded order server; Proxy: the
// fault proxy in front of someone's service): a port asked for, or a free one when it is taken;
// and a RunResult of what went through, published at most once per BatchIntervalMs (longer, up to
// MaxBatchIntervalMs, while updates are expensive), so a flood of requests costs the views one
// update per interval.
class LiveSession : public QObject
{
    Q_OBJECT
public:
    static constexpr int BatchIntervalMs = 100;
    static constexpr int MaxBatchIntervalMs = 2000;

    virtual bool isRunning() const = 0;
    // Why the port is not the one asked for ("Port 8080 is in use, so …"); empty otherwise.
    QString portNote() const { return m_portNote; }

Q_SIGNALS:
    void runningChanged(bool running);
    // A new picture of what went through; lastOperation is the op of the latest request (0: none).
    void resultReady(const retrylab::RunResult &result, int lastOperation);

protected:
    explicit LiveSession(QObject *parent = nullptr);

    // listen(port, again) on the port asked for; when that fails, the port was not 0, a free port
    // will do and nothing runs, listen(0, true) once more. Returns the error, or empty; *moved:
    // whether it listens on another port than the one asked for.
    QString listenOn(quint16 port, bool anyPortIfBusy, const std::function<QString(quint16, bool)> &listen, bool *moved);
    // A new start: updates come at the shortest interval again, the port note is cleared.
    void restartBatching();
    // Something went through: an update within the interval.
    void schedulePublish();
    // Stops a pending update; true when one was pending.
    bool cancelPublish();
    // Emits resultReady now, and lengthens the next interval when that cost much.
    void publish();

    // The picture to publish, and the op of the latest request.
    virtual RunResult currentResult() const = 0;
    virtual int latestOperation() const = 0;

    QString m_portNote;

private:
    QTimer m_batch;
};

} // namespace retrylab
