#pragma once

#include <QNetworkAccessManager>
#include <QObject>
#include <QUrl>

// A small order client of the kind an application writes: POST /orders, and on a timeout, a
// connection error, 429 or 5xx, try again up to maxAttempts times. With a stable key it sends one
// Idempotency-Key, minted once per order, on every attempt; without, nothing tells the server
// that a resend is the same order.
class OrderClient : public QObject
{
    Q_OBJECT
public:
    enum class Keys { None, StablePerOrder };

    explicit OrderClient(const QUrl &ordersUrl, QObject *parent = nullptr);

    void setKeys(Keys keys) { m_keys = keys; }
    void setMaxAttempts(int n) { m_maxAttempts = n; }
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }

    // Places one order; emits finished() once, after the last attempt.
    void placeOrder(const QString &ref, const QString &item);

Q_SIGNALS:
    // ok: a 2xx arrived; status: the last HTTP status (0: none); attempts: POSTs sent.
    void finished(bool ok, int status, int attempts);

private:
    void send();

    QNetworkAccessManager m_nam;
    QUrl m_url;
    Keys m_keys = Keys::None;
    int m_maxAttempts = 3;
    int m_timeoutMs = 1000;
    QByteArray m_body;
    QByteArray m_key;
    int m_attempt = 0;
};
