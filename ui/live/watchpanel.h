#pragma once

#include "simulator.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;

namespace retrylab {

class WatchSession;

// The Watch view: while the window serves orders, where to send them (the URL and commands to
// copy: curl with and without an Idempotency-Key, Python requests with a urllib3 Retry) and what
// arrived so far. The requests themselves appear on the timeline, records and log.
class WatchPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WatchPanel(WatchSession *session, QWidget *parent = nullptr);

    // The commands as copied (the URL of the running server filled in).
    QString curlCommand() const;
    QString curlWithKeyCommand() const;
    QString pythonSnippet() const;
    // Move the timeline to each newly arrived order (on by default).
    bool followsLatest() const;
    void setFollowsLatest(bool follow);

public Q_SLOTS:
    // Counts and the note about dropped events, from the latest published result.
    void showResult(const retrylab::RunResult &result);

Q_SIGNALS:
    void serveRequested();
    void stopRequested();

private:
    void updateState();
    QWidget *commandBox(const QString &objectName, const QString &title, QLabel **text);

    WatchSession *m_session;
    QString m_key;
    QLabel *m_title = nullptr;
    QLabel *m_url = nullptr;
    QPushButton *m_copyUrl = nullptr;
    QLabel *m_network = nullptr;
    QLabel *m_portNote = nullptr;
    QLabel *m_counts = nullptr;
    QLabel *m_dropped = nullptr;
    QLabel *m_lastRefusal = nullptr;
    QLabel *m_restarting = nullptr;
    QLabel *m_curl = nullptr;
    QLabel *m_curlKey = nullptr;
    QLabel *m_python = nullptr;
    QWidget *m_commands = nullptr;
    QCheckBox *m_follow = nullptr;
    QPushButton *m_serve = nullptr;
    QPushButton *m_stop = nullptr;
};

} // namespace retrylab
