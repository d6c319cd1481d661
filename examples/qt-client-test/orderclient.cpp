#include "orderclient.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QUuid>

OrderClient::OrderClient(const QUrl &ordersUrl, QObject *parent)
    : QObject(parent)
    , m_url(ordersUrl)
{
}

void OrderClient::placeOrder(const QString &ref, const QString &item)
{
    m_body = QJsonDocument(QJsonObject{{QStringLiteral("ref"), ref}, {QStringLiteral("item"), item}})
                 .toJson(QJsonDocument::Compact);
    // Minted before the first attempt, so every retry of this order carries the same key.
    m_key = m_keys == Keys::StablePerOrder ? QUuid::createUuid().toByteArray(QUuid::WithoutBraces) : QByteArray();
    m_attempt = 0;
    send();
}

void OrderClient::send()
{
    ++m_attempt;
    QNetworkRequest request(m_url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    if (!m_key.isEmpty())
        request.setRawHeader("Idempotency-Key", m_key);
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply = m_nam.post(request, m_body);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status >= 200 && status < 300)
            return Q_EMIT finished(true, status, m_attempt);
        // A timeout or a broken connection (status 0), throttling and server errors are retried;
        // any other 4xx is final.
        const bool retryable = status == 0 || status == 429 || status >= 500;
        if (!retryable || m_attempt >= m_maxAttempts)
            return Q_EMIT finished(false, status, m_attempt);
        send();
    });
}
