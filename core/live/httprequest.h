#pragma once

#include <QByteArray>
#include <QHttpServerRequest>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

namespace retrylab {

// One request as the order service reads it, whichever parser read it: Qt HTTP Server's (every
// request the scanner does not take itself), or the scanner's own for the ordinary requests it
// has already read whole (ConnectionScanner::plain). Both give the same fields for the same bytes.
struct HttpRequest
{
    QHttpServerRequest::Method method = QHttpServerRequest::Method::Unknown;
    QString path;    // decoded, as QUrl::path()
    QUrlQuery query; // as QHttpServerRequest::query()
    QList<QPair<QByteArray, QByteArray>> headers; // as sent, values without surrounding white space
    QByteArray body;

    // Every field named `name` (any case), joined by ", " (QHttpServerRequest::value()).
    QByteArray value(QByteArrayView name) const;

    static HttpRequest fromQt(const QHttpServerRequest &request);
    // The method token as Qt HTTP Server 6.4 names it (Unknown for any other, TRACE included).
    static QHttpServerRequest::Method methodOf(QByteArrayView token);
};

} // namespace retrylab
