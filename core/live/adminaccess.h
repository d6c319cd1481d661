#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace retrylab {

// Who may use /admin/*: the pure decision, from the request's fields, so that it is tested
// without a socket. A browser can send a cross-origin POST with no body or a text/plain body
// without asking first (a CORS "simple request"), and always marks it with Origin; scripts
// (curl, requests, the lab) send neither Origin nor a form content type. So /admin/* refuses
// every request that carries Origin, every body that is not declared JSON, and, when a token is
// set (always off loopback), every request without "Authorization: Bearer <token>".
class AdminAccess
{
public:
    struct Request
    {
        QByteArray method;        // "GET", "PUT", "POST"
        QByteArray authorization; // the Authorization field
        QByteArray contentType;   // the Content-Type field (empty: none)
        int originFields = 0;     // how many Origin fields it carries
        int secFetchSite = 0;     // 1: Sec-Fetch-Site says cross-site or same-site (a browser's page)
    };
    struct Verdict
    {
        int status = 0;          // 0: allowed; else 401, 403 or 415
        QString detail;          // the problem's detail
        QByteArray header;       // WWW-Authenticate for a 401
        bool allowed() const { return status == 0; }
    };

    explicit AdminAccess(const QByteArray &token = QByteArray()) : m_token(token) {}
    const QByteArray &token() const { return m_token; }

    Verdict check(const Request &r) const;
    // The fields check() reads, from a request's header list (names in any case).
    static Request fromHeaders(const QByteArray &method, const QList<QPair<QByteArray, QByteArray>> &headers);
    // A token minted for a non-loopback bind with no --admin-token: 32 hex digits.
    static QByteArray mintToken();
    // --admin-token / RETRYLAB_ADMIN_TOKEN: empty when acceptable, else why not.
    static QString tokenProblem(const QByteArray &token);

private:
    QByteArray m_token;
};

// Compares every byte whatever differs first, so the time taken does not reveal a prefix.
bool sameSecret(const QByteArray &given, const QByteArray &expected);

} // namespace retrylab
