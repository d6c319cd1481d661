#pragma once

// Helpers of the live tests: raw HTTP/1.1 over a QTcpSocket (many at once, byte-exact hostile
// input) and a server started in-process on a free loopback port.
#include "orderserver.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <vector>

namespace retrylab::test {

// One HTTP response as read off the wire (status 0: the connection closed without one).
struct RawResponse
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    bool closed = false;
    QByteArray header(const QByteArray &name) const
    {
        for (const auto &h : headers) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        }
        return QByteArray();
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// A client connection that reads complete responses (Content-Length framing).
class RawClient
{
public:
    explicit RawClient(quint16 port)
    {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    }
    bool connected(int timeoutMs = 5000) { return m_socket.waitForConnected(timeoutMs); }
    // Writes now, or as soon as the connection is up.
    void send(const QByteArray &bytes)
    {
        if (m_socket.state() == QAbstractSocket::ConnectedState) {
            m_socket.write(bytes);
            return;
        }
        QObject::connect(&m_socket, &QTcpSocket::connected, &m_socket, [this, bytes] { m_socket.write(bytes); },
                         Qt::SingleShotConnection);
    }
    QTcpSocket &socket() { return m_socket; }

    // Parses one response if the buffer holds it whole; false while incomplete.
    bool tryParse(RawResponse *out)
    {
        m_buffer += m_socket.readAll();
        const int headEnd = int(m_buffer.indexOf("\r\n\r\n"));
        if (headEnd < 0)
            return false;
        const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
        RawResponse r;
        const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
        r.status = statusLine.value(1).toInt();
        qint64 length = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const int colon = int(lines[i].indexOf(':'));
            if (colon <= 0)
                continue;
            const QByteArray name = lines[i].left(colon).trimmed();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            r.headers.append({name, value});
            if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                length = value.toLongLong();
        }
        if (m_buffer.size() < headEnd + 4 + length)
            return false;
        r.body = m_buffer.mid(headEnd + 4, int(length));
        m_buffer.remove(0, int(headEnd + 4 + length));
        *out = r;
        return true;
    }

    // Waits for one response or the connection's end.
    RawResponse read(int timeoutMs = 5000)
    {
        RawResponse r;
        QElapsedTimer timer;
        timer.start();
        while (!tryParse(&r)) {
            if (m_socket.state() != QAbstractSocket::ConnectedState && m_socket.bytesAvailable() == 0) {
                r = RawResponse();
                r.closed = true;
                return r;
            }
            if (timer.elapsed() > timeoutMs)
                return RawResponse();
            m_socket.waitForReadyRead(50);
        }
        return r;
    }

    // True when the server closes the connection within the time.
    bool waitClosed(int timeoutMs = 5000)
    {
        QElapsedTimer timer;
        timer.start();
        while (m_socket.state() == QAbstractSocket::ConnectedState && timer.elapsed() < timeoutMs) {
            m_socket.readAll();
            m_socket.waitForDisconnected(50);
        }
        return m_socket.state() != QAbstractSocket::ConnectedState;
    }

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

inline QByteArray postOrder(const QByteArray &body, const QByteArray &key = QByteArray(),
                            const QByteArray &extraHeaders = QByteArray())
{
    QByteArray r = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
    if (!key.isEmpty())
        r += "Idempotency-Key: " + key + "\r\n";
    r += extraHeaders;
    r += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    return r;
}

inline QByteArray request(const QByteArray &method, const QByteArray &path, const QByteArray &body = QByteArray(),
                          const QByteArray &extraHeaders = QByteArray())
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extraHeaders;
    if (!body.isEmpty() || method == "POST" || method == "PUT")
        r += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    return r + "\r\n" + body;
}

// Sends each request on a connection of its own, all at once, and waits (in the event loop:
// the server may live in this thread) until every one has an answer, a closed connection, or
// the time is up (status 0, closed false).
inline QList<RawResponse> exchangeAll(quint16 port, const QList<QByteArray> &requests, int timeoutMs = 5000)
{
    std::vector<std::unique_ptr<RawClient>> clients;
    QList<RawResponse> responses(requests.size());
    QList<bool> done(requests.size(), false);
    int remaining = int(requests.size());
    QEventLoop loop;
    for (int i = 0; i < requests.size(); ++i) {
        clients.push_back(std::make_unique<RawClient>(port));
        RawClient *client = clients.back().get();
        auto check = [&, i, client] {
            if (done[i])
                return;
            if (client->tryParse(&responses[i])
                || (client->socket().state() != QAbstractSocket::ConnectedState && client->socket().bytesAvailable() == 0
                    && client->socket().state() != QAbstractSocket::ConnectingState
                    && client->socket().state() != QAbstractSocket::HostLookupState)) {
                if (responses[i].status == 0)
                    responses[i].closed = true;
                done[i] = true;
                if (--remaining == 0)
                    loop.quit();
            }
        };
        QObject::connect(&client->socket(), &QTcpSocket::readyRead, &loop, check);
        QObject::connect(&client->socket(), &QTcpSocket::disconnected, &loop, check);
        QObject::connect(&client->socket(), &QTcpSocket::errorOccurred, &loop, check);
        client->send(requests[i]);
    }
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (remaining > 0)
        loop.exec();
    return responses;
}

inline RawResponse exchange(quint16 port, const QByteArray &bytes, int timeoutMs = 5000)
{
    return exchangeAll(port, {bytes}, timeoutMs).value(0);
}

// Order number `n` (reference ORD-000n) under `key`, as the tests of the store's batches send it.
inline QByteArray orderFor(int n, const QByteArray &key)
{
    return postOrder("{\"ref\":\"ORD-" + QByteArray::number(n).rightJustified(4, '0') + "\",\"item\":\"book\"}", key);
}

// Orders 1 to `count`, each under its own key "<prefix>-<n>", pipelined as one send.
inline QByteArray ordersFor(int count, const QByteArray &prefix)
{
    QByteArray bytes;
    for (int n = 1; n <= count; ++n)
        bytes += orderFor(n, prefix + '-' + QByteArray::number(n));
    return bytes;
}

// Every answer to `count` requests pipelined on one connection (the server runs in this thread).
inline QList<RawResponse> answers(RawClient &client, int count, int timeoutMs = 10000)
{
    QList<RawResponse> out;
    QElapsedTimer timer;
    timer.start();
    RawResponse r;
    while (out.size() < count && timer.elapsed() < timeoutMs) {
        if (client.tryParse(&r))
            out << r;
        else
            QTest::qWait(5);
    }
    return out;
}

// The id of the order an answer created or replayed.
inline int orderId(const RawResponse &r)
{
    return r.json().value(QLatin1String("id")).toInt();
}

// `created` are new orders 1 to `count` in turn: 201, not replays, ids from 1 (what a resend of
// keys the store never kept must get). Void so the comparisons can return; callers check
// QTest::currentTestFailed().
inline void expectNewOrders(const QList<RawResponse> &created, int count)
{
    QCOMPARE(created.size(), count);
    for (int i = 0; i < count; ++i) {
        QCOMPARE(created.at(i).status, 201);
        QVERIFY(created.at(i).header("Idempotent-Replayed").isEmpty());
        QCOMPARE(orderId(created.at(i)), i + 1);
    }
}

inline std::unique_ptr<OrderServer> startServer(const Scenario &s, const QString &db = QString(),
                                                const ServeLimits &limits = ServeLimits())
{
    auto server = std::make_unique<OrderServer>();
    ServeOptions options;
    options.scenario = s;
    options.dbFile = db;
    options.limits = limits;
    const QString error = server->start(options);
    if (!error.isEmpty())
        qFatal("server: %s", qPrintable(error));
    return server;
}

} // namespace retrylab::test
