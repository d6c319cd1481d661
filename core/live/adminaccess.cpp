#include "adminaccess.h"

#include <QRandomGenerator>

namespace retrylab {

bool sameSecret(const QByteArray &given, const QByteArray &expected)
{
    uchar diff = given.size() == expected.size() ? 0 : 1;
    for (qsizetype i = 0; i < expected.size(); ++i)
        diff |= uchar(expected.at(i) ^ (i < given.size() ? given.at(i) : 0));
    return diff == 0;
}

AdminAccess::Verdict AdminAccess::check(const Request &r) const
{
    // The browser checks first: they hold with or without a token, since a page cannot read the
    // token but a leaked one must not turn every open page into an admin.
    if (r.originFields > 0 || r.secFetchSite > 0)
        return {403, QStringLiteral("the admin endpoints refuse requests from web pages (the request carries %1); "
                                    "use curl or a script")
                             .arg(r.originFields > 0 ? QStringLiteral("Origin") : QStringLiteral("Sec-Fetch-Site")),
                QByteArray()};
    // The scheme is case-insensitive (RFC 9110 section 11.1), the token is not.
    const qsizetype space = r.authorization.indexOf(' ');
    const bool bearer = space > 0 && r.authorization.left(space).compare("bearer", Qt::CaseInsensitive) == 0;
    if (!m_token.isEmpty() && !(bearer && sameSecret(r.authorization.mid(space + 1).trimmed(), m_token)))
        return {401, QStringLiteral("the admin endpoints need \"Authorization: Bearer <token>\" (--admin-token, "
                                    "RETRYLAB_ADMIN_TOKEN or the token printed at start-up)"),
                QByteArrayLiteral("WWW-Authenticate: Bearer")};
    if (r.method == "PUT" || r.method == "POST") {
        // Only the media type counts ("application/json; charset=utf-8" is JSON too).
        const QByteArray type = r.contentType.split(';').value(0).trimmed().toLower();
        if (type != "application/json")
            return {415, QStringLiteral("the admin endpoints take Content-Type: application/json (got %1)")
                                 .arg(r.contentType.isEmpty() ? QStringLiteral("none") : QString::fromLatin1(r.contentType.left(60))),
                    QByteArray()};
    }
    return {};
}

AdminAccess::Request AdminAccess::fromHeaders(const QByteArray &method, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    Request r;
    r.method = method;
    for (const auto &h : headers) {
        if (h.first.compare("origin", Qt::CaseInsensitive) == 0) {
            ++r.originFields;
        } else if (h.first.compare("authorization", Qt::CaseInsensitive) == 0) {
            r.authorization = h.second.trimmed();
        } else if (h.first.compare("content-type", Qt::CaseInsensitive) == 0) {
            r.contentType = h.second.trimmed();
        } else if (h.first.compare("sec-fetch-site", Qt::CaseInsensitive) == 0) {
            const QByteArray v = h.second.trimmed().toLower();
            // "none": typed in the address bar or a bookmark; "same-origin" cannot happen (the
            // server serves no pages), so only a page elsewhere is refused.
            if (v == "cross-site" || v == "same-site")
                r.secFetchSite = 1;
        }
    }
    return r;
}

QByteArray AdminAccess::mintToken()
{
    const quint64 a = QRandomGenerator::system()->generate64();
    const quint64 b = QRandomGenerator::system()->generate64();
    return QByteArray::number(a, 16).rightJustified(16, '0') + QByteArray::number(b, 16).rightJustified(16, '0');
}

QString AdminAccess::tokenProblem(const QByteArray &token)
{
    if (token.size() < 16 || token.size() > 200)
        return QStringLiteral("expected 16 to 200 characters, got %1").arg(token.size());
    for (const char c : token) {
        // A token68 (RFC 9110 section 11.2): what fits after "Bearer " unquoted.
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
        if (!ok)
            return QStringLiteral("only letters, digits and - . _ ~ + / are allowed");
    }
    return QString();
}

} // namespace retrylab
