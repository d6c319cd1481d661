#pragma once

// Helpers of the proxy tests: a proxy started in-process in front of a given upstream, and a
// scripted upstream (a bare QTcpServer) that records the bytes it receives and answers each
// request with bytes the test chose, so that pass-through can be checked byte for byte.
#include "faultproxy.h"
#include "livesupport.h"

#include <QTcpServer>

#include <functional>

namespace retrylab::test {

inline std::unique_ptr<FaultProxy> startProxy(const QUrl &upstream, FaultProxy::Options options = FaultProxy::Options())
{
    auto proxy = std::make_unique<FaultProxy>();
    options.upstream = upstream;
    const QString error = proxy->start(options);
    if (!error.isEmpty())
        qFatal("proxy: %s", qPrintable(error));
    return proxy;
}

// An upstream that reads one whole request (head and Content-Length body) per turn, records it,
// and writes the answer `answer` returns for it (empty: say nothing).
class ScriptedUpstream
{
public:
    using Answer = std::function<QByteArray(const QByteArray &request)>;
    explicit ScriptedUpstream(Answer answer) : m_answer(std::move(answer))
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                ++m_connections;
                auto buffer = std::make_shared<QByteArray>();
                QObject::connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] { onRead(s, buffer.get()); });
                QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }
    const QList<QByteArray> &requests() const { return m_requests; }
    int connections() const { return m_connections; }

private:
    void onRead(QTcpSocket *s, QByteArray *buffer)
    {
        *buffer += s->readAll();
        for (;;) {
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            qint64 length = 0;
            for (const QByteArray &line : buffer->left(end).split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buffer->size() < end + 4 + length)
                return;
            const QByteArray request = buffer->left(end + 4 + length);
            buffer->remove(0, end + 4 + length);
            m_requests.append(request);
            const QByteArray answer = m_answer(request);
            if (answer == "CLOSE") {
                s->disconnectFromHost();
                return;
            }
            if (!answer.isEmpty())
                s->write(answer);
        }
    }

    QTcpServer m_server;
    Answer m_answer;
    QList<QByteArray> m_requests;
    int m_connections = 0;
};

} // namespace retrylab::test
