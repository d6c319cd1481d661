#pragma once

#include "live/livesession.h"
#include "scenario.h"
#include "watchtrace.h"

#include <QStringList>
#include <QUrl>

namespace retrylab {

class OrderServer;

// How the window serves (File > Serve…).
struct WatchOptions
{
    static constexpr quint16 DefaultPort = 8080;
    quint16 port = DefaultPort;
    // When the port is taken, listen on a free one instead of failing.
    bool anyPortIfBusy = true;
    // 0.0.0.0 instead of 127.0.0.1: other computers can send orders; /admin then needs the token.
    bool localNetwork = false;
};

// The window's embedded order server and what arrived at it: every handled request goes into a
// WatchTrace, and a RunResult of it (metrics from the server's own /metrics) is published as
// LiveSession batches it.
class WatchSession : public LiveSession
{
    Q_OBJECT
public:
    explicit WatchSession(QObject *parent = nullptr);
    ~WatchSession() override;

    // Starts serving the scenario's server and fault settings. Returns an empty string or why not.
    QString start(const Scenario &scenario, const WatchOptions &options);
    // Closes the port; the last result stays published. Safe to call twice.
    void stop();
    bool isRunning() const override;

    QUrl url() const;
    // Where other computers reach it (local network only): one URL per IPv4 address of this machine.
    QStringList networkUrls() const;
    // The URL to put in the copyable commands: the first network URL, else url().
    QUrl commandUrl() const;
    QByteArray adminToken() const;

    // The most events kept (older requests are dropped whole); for tests.
    void setMaxEvents(qsizetype maxEvents);
    const WatchTrace &watchTrace() const { return m_live; }
    OrderServer *server() const { return m_server; }

Q_SIGNALS:
    // The server process restarts (a serverRestart fault, server.restarts or /admin): down while true.
    void restarted(bool down);

protected:
    RunResult currentResult() const override;
    int latestOperation() const override { return m_live.lastOperation(); }

private:
    void newServer();
    void onRequest(const retrylab::Trace &events);

    OrderServer *m_server = nullptr;
    WatchTrace m_live;
    Scenario m_scenario;
    WatchOptions m_options;
};

} // namespace retrylab
