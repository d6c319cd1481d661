#pragma once

#include "proxyexchange.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

class QTcpSocket;

namespace retrylab {

// One answer of the upstream as the proxy passes it on.
struct UpstreamAnswer
{
    ProxyUpstreamOutcome outcome = ProxyUpstreamOutcome::Unreachable;
    int status = 0;
    QByteArray reason;
    // The answer's header lines as received ("Name: value\r\n" each) without the hop-by-hop ones
    // (RFC 9110 section 7.6.1) and without Transfer-Encoding: the body is passed whole.
    QByteArray headerLines;
    bool hasLength = false; // a Content-Length line is among headerLines
    QByteArray body;
    QByteArray location;
    QByteArray contentType;
    bool replayed = false; // Idempotent-Replayed: true
    QString error; // why there is no answer, for the problem detail of a 502 or 504
};

// The proxy's HTTP/1.1 client of its one upstream, on raw sockets so that the request goes out
// byte for byte as the proxy composed it (QNetworkAccessManager adds User-Agent, Accept-Encoding
// and Accept-Language, and opens at most six connections to a host). Keeps idle connections for
// reuse; reads Content-Length, chunked and close-delimited bodies whole, within a size limit.
class UpstreamClient : public QObject
{
public:
    struct Limits
    {
        int timeoutMs = 30000;               // from send to the whole answer; 504 beyond
        qint64 maxAnswerBytes = 16 << 20;    // an answer's body; 502 beyond
        int maxHeadBytes = 64 * 1024;        // an answer's status line and headers; 502 beyond
        int maxConnections = 256;            // open at once; later requests wait their turn
    };
    using Done = std::function<void(const UpstreamAnswer &)>;

    UpstreamClient(const QUrl &upstream, const Limits &limits, QObject *parent = nullptr);
    // Hop-by-hop fields (RFC 9110 section 7.6.1) a proxy never passes on, besides those that
    // Connection names: Connection, Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade, Proxy-*.
    static bool hopByHop(QByteArrayView name);
    ~UpstreamClient() override;

    // Sends `request` (a whole HTTP/1.1 request) and calls `done` once with the answer. `head`:
    // the answer has no body. `idempotent`: may be sent again on a fresh connection when a kept-
    // alive one closes before a byte of the answer came (never a POST: it may have committed).
    void send(const QByteArray &request, bool head, bool idempotent, Done done);
    // Drops every request in flight without calling back, and every connection.
    void abortAll();
    int openConnections() const { return m_open; }

    QString host() const { return m_host; }
    quint16 port() const { return m_port; }

private:
    struct Call;
    void start(Call *call);
    void connectCall(Call *call, QTcpSocket *socket, bool reused);
    // A socket's signals, connected once when it is opened: they go to the call it carries, if any.
    void onSocketRead(QTcpSocket *socket);
    void onSocketGone(QTcpSocket *socket);
    void onSocketError(QTcpSocket *socket, int error);
    Call *callOn(QTcpSocket *socket) const;
    // Every call's deadline, on one timer armed for the earliest (a QTimer per call cost a timer
    // registration and a connection per request).
    void armDeadline();
    void expire();
    enum class Step { Go, Wait, Done };
    void onRead(Call *call);
    Step readHead(Call *call);
    void readChunks(Call *call);
    Step failed(Call *call, ProxyUpstreamOutcome outcome, const QString &error);
    void fail(Call *call, ProxyUpstreamOutcome outcome, const QString &error);
    void finish(Call *call, bool keep);
    void release(QTcpSocket *socket, bool keep);
    void discard(QTcpSocket *socket);
    void next();

    QString m_host;
    quint16 m_port;
    Limits m_limits;
    std::vector<QTcpSocket *> m_idle;
    std::deque<Call *> m_waiting;
    std::vector<Call *> m_calls;
    std::unordered_map<QTcpSocket *, Call *> m_carrying; // the call each busy socket carries
    int m_open = 0;
    QElapsedTimer m_clock;
    QTimer m_deadline;
};

} // namespace retrylab
