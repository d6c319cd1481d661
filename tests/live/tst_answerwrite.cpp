// How an answer reaches the wire (core/live/httpconnection.cpp, HttpConnection::send): straight
// to the kernel with one send() when nothing waits in the socket's buffer, and what the kernel
// does not take (a part of the answer, or all of it when its buffer is full) through QTcpSocket's
// buffer, after every earlier byte. A client on a raw descriptor with a small receive buffer
// that reads only when the test says so makes each case happen for certain.
#include "httpconnection.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace retrylab;

namespace {

// A server-side QTcpSocket with its HttpConnection, and the client's raw descriptor.
struct Pair
{
    QTcpServer server;
    QTcpSocket *socket = nullptr;
    HttpConnection *connection = nullptr;
    int client = -1;

    ~Pair()
    {
        if (client >= 0)
            ::close(client);
    }
    void open()
    {
        QVERIFY(server.listen(QHostAddress::LocalHost));
        client = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(client >= 0);
        const int small = 4096;
        ::setsockopt(client, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(server.serverPort());
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::connect(client, reinterpret_cast<sockaddr *>(&to), sizeof to), 0);
        ::fcntl(client, F_SETFL, ::fcntl(client, F_GETFL) | O_NONBLOCK);
        QVERIFY(server.waitForNewConnection(10000));
        socket = server.nextPendingConnection();
        QVERIFY(socket);
        ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
        connection = new HttpConnection(socket);
    }
    // The next request's place in the answer order.
    quint64 next()
    {
        connection->expect(HttpConnection::Request{});
        return connection->begin();
    }
    // Reads `size` bytes as the client, letting the event loop drain the socket's buffer.
    QByteArray read(qsizetype size)
    {
        QByteArray got;
        QElapsedTimer safety;
        safety.start();
        char buffer[65536];
        while (got.size() < size && safety.elapsed() < 20000) {
            QCoreApplication::processEvents();
            const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
            if (n > 0)
                got.append(buffer, n);
            else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
                break;
        }
        return got;
    }
};

HttpAnswer answerOf(const QByteArray &body)
{
    HttpAnswer a;
    a.status = 201;
    a.contentType = "application/json";
    a.body = body;
    return a;
}

QByteArray wire(const HttpAnswer &a)
{
    QByteArray out;
    HttpConnection::compose(out, a, HttpConnection::Request{});
    return out;
}

} // namespace

class TestAnswerWrite : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void smallAnswerGoesStraightOut();
    void partOfAnAnswerWaitsInOrder();
    void fullKernelBufferWaitsWhole();
    void peerResetBeforeTheAnswer();
    void peerResetMidAnswer();
};

void TestAnswerWrite::smallAnswerGoesStraightOut()
{
    Pair p;
    p.open();
    const HttpAnswer a = answerOf(R"({"id":1,"ref":"ORD-1"})");
    p.connection->answer(p.next(), a);
    // Nothing passed through the socket's own buffer: the kernel has it all.
    QCOMPARE(p.socket->bytesToWrite(), qint64(0));
    QCOMPARE(p.connection->unsentBytes(), qint64(0));
    QCOMPARE(p.read(wire(a).size()), wire(a));
}

void TestAnswerWrite::partOfAnAnswerWaitsInOrder()
{
    Pair p;
    p.open();
    const HttpAnswer big = answerOf(QByteArray(8 << 20, 'b'));
    const HttpAnswer after = answerOf("after");
    const qint64 bigSize = wire(big).size();
    p.connection->answer(p.next(), big);
    // The kernel took a part, the rest waits in the socket's buffer.
    const qint64 waiting = p.connection->unsentBytes();
    QVERIFY2(waiting > 0 && waiting < bigSize, qPrintable(QString::number(waiting)));
    QCOMPARE(p.socket->bytesToWrite(), waiting);
    // A later answer waits behind it, never ahead of it.
    p.connection->answer(p.next(), after);
    QCOMPARE(p.connection->unsentBytes(), waiting + wire(after).size());
    const QByteArray expected = wire(big) + wire(after);
    QCOMPARE(p.read(expected.size()), expected);
    QCOMPARE(p.connection->unsentBytes(), qint64(0));
}

void TestAnswerWrite::fullKernelBufferWaitsWhole()
{
    Pair p;
    p.open();
    // Fill the kernel's buffers on both sides until send() says EAGAIN.
    const int fd = int(p.socket->socketDescriptor());
    const QByteArray chunk(4096, 'f');
    qint64 filled = 0;
    for (;;) {
        const ssize_t n = ::send(fd, chunk.constData(), size_t(chunk.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n <= 0)
            break;
        filled += n;
    }
    QVERIFY(filled > 0);
    QCOMPARE(p.socket->bytesToWrite(), qint64(0));
    const HttpAnswer a = answerOf(R"({"id":2,"ref":"ORD-2"})");
    p.connection->answer(p.next(), a);
    // The kernel took none of it: the whole answer waits, and goes out once the client reads.
    QCOMPARE(p.connection->unsentBytes(), qint64(wire(a).size()));
    const QByteArray got = p.read(filled + wire(a).size());
    QCOMPARE(got.size(), filled + wire(a).size());
    QCOMPARE(got.left(filled), QByteArray(filled, 'f'));
    QCOMPARE(got.mid(filled), wire(a));
}

// Waits (without the event loop) until the server's descriptor sees the client's reset.
static bool resetArrived(int fd)
{
    pollfd pfd{fd, POLLIN, 0};
    return ::poll(&pfd, 1, 10000) == 1 && (pfd.revents & (POLLIN | POLLERR | POLLHUP));
}

static void resetClient(Pair &p)
{
    const linger l{1, 0};
    ::setsockopt(p.client, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    ::close(p.client); // SO_LINGER 0: a reset, as a client that crashed
    p.client = -1;
}

void TestAnswerWrite::peerResetBeforeTheAnswer()
{
    Pair p;
    p.open();
    const quint64 slot = p.next();
    resetClient(p);
    const int fd = int(p.socket->socketDescriptor());
    QVERIFY(resetArrived(fd));
    // The reset is taken note of (its pending error read), so the answer's send() meets EPIPE
    // rather than ECONNRESET: the path of a peer that left some time ago.
    int pending = 0;
    socklen_t size = sizeof pending;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &size);
    QCOMPARE(pending, ECONNRESET);
    p.connection->answer(slot, answerOf(R"({"id":3})"));
    // Qt's own write met the error too: the connection ends, nothing waits for it.
    QTRY_COMPARE(p.socket->state(), QAbstractSocket::UnconnectedState);
    QCOMPARE(p.connection->unsentBytes(), qint64(0));
}

void TestAnswerWrite::peerResetMidAnswer()
{
    Pair p;
    p.open();
    p.connection->answer(p.next(), answerOf(QByteArray(8 << 20, 'm')));
    QVERIFY(p.connection->unsentBytes() > 0);
    const quint64 later = p.next();
    resetClient(p);
    QVERIFY(resetArrived(int(p.socket->socketDescriptor())));
    // The rest of the answer cannot go anywhere: the connection ends, and an answer due after
    // the reset is dropped without a write to a closed socket.
    QTRY_COMPARE(p.socket->state(), QAbstractSocket::UnconnectedState);
    p.connection->answer(later, answerOf("late"));
    QCOMPARE(p.socket->bytesToWrite(), qint64(0));
}

QTEST_GUILESS_MAIN(TestAnswerWrite)
#include "tst_answerwrite.moc"
