#include "problemtypes.h"

namespace retrylab {

const QList<ProblemType> &ProblemType::all()
{
    // The words are the HTTP API's, in English as its field names are; the lab's window shows
    // its own translated sentences from the typed cause.
    static const QList<ProblemType> types{
        {"bad-request", 400, "The request is malformed: the detail names the field and, for JSON, the offset. "
                             "Resending it unchanged gets the same answer."},
        {"invalid-key", 400, "The Idempotency-Key field is not one key: it must be an RFC 8941 string (\"k-1\") "
                             "or a bare run of visible characters (k-1), 1 to 255 characters, sent once. "
                             "An empty key is refused rather than ignored, so that a client bug is not a silent "
                             "loss of protection."},
        {"key-required", 400, "This service requires an Idempotency-Key on POST /orders (server.idempotency.requireKey)."},
        {"token-required", 400, "Token mode: POST /order-tokens first, then send the token as Idempotency-Key."},
        {"unknown-token", 400, "Token mode: this token was never issued by this service (or it was reset)."},
        {"unauthorized", 401, "The admin endpoints need Authorization: Bearer <token>."},
        {"admin-from-page", 403, "The admin endpoints refuse requests that a web page sends (they carry Origin), "
                                 "so that a page open in a browser cannot change or wipe the service."},
        {"not-found", 404, "No such endpoint, order or problem type."},
        {"method-not-allowed", 405, "The endpoint exists but not with this method; Allow lists those it takes."},
        {"key-in-use", 409, "A request with this Idempotency-Key is still being processed (the draft's 409). Retry "
                            "later with the same key: it will be answered with the stored response."},
        {"token-used", 409, "Token mode: this single-use token was already spent on an order (the lab's default, "
                            "server.idempotency.tokenReuse \"reject\"). The order it created exists: ask "
                            "GET /orders?ref= rather than retrying. The draft would replay instead "
                            "(tokenReuse \"replay\")."},
        {"version-conflict", 409, "The row changed since it was read (optimistic concurrency): read it again and retry."},
        {"unsupported-media-type", 415, "The admin endpoints take Content-Type: application/json."},
        {"payload-mismatch", 422, "This Idempotency-Key was first used with a different payload: a key names one "
                                  "request, not a slot to reuse."},
        {"rate-limited", 429, "Too many requests: wait the Retry-After seconds."},
        {"commit-refused", 500, "The database refused the commit; nothing was written."},
        {"failed-before-commit", 503, "The service failed before committing: nothing was written, and the key is "
                                      "free again. Retry after Retry-After with the same key."},
        {"failed-after-commit", 503, "The service failed after committing: the order exists. A retry with the same "
                                     "key gets the stored answer; without a key it makes a duplicate."},
        {"server-full", 503, "All processing slots and the queue are busy (server.capacity): retry after Retry-After."},
        {"query-failed", 503, "The status query failed; whether the order exists is unknown."},
        {"server-error", 500, "The service failed."},
    };
    return types;
}

const ProblemType *ProblemType::find(QStringView slug)
{
    for (const ProblemType &t : all()) {
        if (QLatin1String(t.slug) == slug)
            return &t;
    }
    return nullptr;
}

const ProblemType &ProblemType::of(int status, TraceCause cause)
{
    const char *slug = nullptr;
    switch (cause) {
    case TraceCause::KeyRequired: slug = "key-required"; break;
    case TraceCause::TokenRequired: slug = "token-required"; break;
    case TraceCause::UnknownToken: slug = "unknown-token"; break;
    case TraceCause::TokenUsed: slug = "token-used"; break;
    case TraceCause::KeyInProgress:
    case TraceCause::KeyTaken: slug = "key-in-use"; break;
    case TraceCause::StaleVersion: slug = "version-conflict"; break;
    case TraceCause::PayloadMismatch: slug = "payload-mismatch"; break;
    case TraceCause::RateLimited: slug = "rate-limited"; break;
    case TraceCause::ServerFull: slug = "server-full"; break;
    case TraceCause::CommitRefused: slug = "commit-refused"; break;
    case TraceCause::QueryFailed: slug = "query-failed"; break;
    default: break;
    }
    if (!slug) {
        switch (status) {
        case 400: slug = "bad-request"; break;
        case 401: slug = "unauthorized"; break;
        case 403: slug = "admin-from-page"; break;
        case 404: slug = "not-found"; break;
        case 405: slug = "method-not-allowed"; break;
        case 409: slug = "key-in-use"; break;
        case 415: slug = "unsupported-media-type"; break;
        case 422: slug = "payload-mismatch"; break;
        case 429: slug = "rate-limited"; break;
        default: slug = "server-error"; break;
        }
    }
    return *find(QString::fromLatin1(slug));
}

} // namespace retrylab
