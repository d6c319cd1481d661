#include "httprequest.h"

namespace retrylab {

QByteArray HttpRequest::value(QByteArrayView name) const
{
    QByteArray out;
    bool first = true;
    for (const auto &h : headers) {
        // The length first: most fields differ in it, and the case-blind compare costs more.
        if (h.first.size() != name.size() || h.first.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        if (!first)
            out += ", ";
        out += h.second;
        first = false;
    }
    return out;
}

HttpRequest HttpRequest::fromQt(const QHttpServerRequest &request)
{
    HttpRequest r;
    r.method = request.method();
    r.path = request.url().path();
    r.query = request.query();
    r.headers = request.headers();
    r.body = request.body();
    return r;
}

QHttpServerRequest::Method HttpRequest::methodOf(QByteArrayView token)
{
    // qhttpserverrequest.cpp, QHttpServerRequestPrivate::parseRequestLine (6.4.2)
    using M = QHttpServerRequest::Method;
    if (token == "GET")
        return M::Get;
    if (token == "POST")
        return M::Post;
    if (token == "PUT")
        return M::Put;
    if (token == "HEAD")
        return M::Head;
    if (token == "DELETE")
        return M::Delete;
    if (token == "OPTIONS")
        return M::Options;
    if (token == "PATCH")
        return M::Patch;
    if (token == "CONNECT")
        return M::Connect;
    return M::Unknown;
}

} // namespace retrylab
