#include "orderservice.h"

#include <map>

namespace retrylab {

OrderService::OrderService(const ServerConfig &config)
    : m_config(config)
    , m_ttlUs(qint64(config.idempotency.ttlS) * 1000000)
{
}

bool OrderService::usesKeys() const
{
    return m_config.idempotency.mode != IdempotencyMode::Off;
}

OrderService::KeyEntry *OrderService::lookup(quint64 key, qint64 nowUs, bool *expired)
{
    auto it = m_keys.find(key);
    if (it == m_keys.end())
        return nullptr;
    // An in-flight reservation never expires under its own request.
    if (!it->second.inFlight && nowUs - it->second.created >= m_ttlUs) {
        m_keys.erase(it);
        *expired = true;
        return nullptr;
    }
    return &it->second;
}

ServiceDecision OrderService::beginKeyed(const OrderRequest &request, qint64 nowUs)
{
    ServiceDecision d;
    const IdempotencyConfig &idem = m_config.idempotency;
    const bool token = idem.mode == IdempotencyMode::Token;
    if (request.key == 0 && (idem.requireKey || token)) {
        d.kind = ServiceDecision::Reject;
        d.status = 400;
        d.reason = token ? QStringLiteral("order token required") : QStringLiteral("Idempotency-Key required");
        d.why = token ? TraceCause::TokenRequired : TraceCause::KeyRequired;
        return d;
    }
    if (!usesKeys() || request.key == 0)
        return d;
    if (token && m_tokens.find(request.key) == m_tokens.end()) {
        d.kind = ServiceDecision::Reject;
        d.status = 400;
        d.reason = QStringLiteral("unknown order token");
        d.why = TraceCause::UnknownToken;
        return d;
    }
    // Single-use: the token was consumed when its order committed (a later try at the same
    // order gets 409 however long ago that was; the key TTL does not bring the token back).
    if (token && idem.tokenReuse == TokenReuse::Reject && m_usedTokens.count(request.key) != 0) {
        d.kind = ServiceDecision::Reject;
        d.status = 409;
        d.tokenUsed = true;
        d.reason = QStringLiteral("order token already used");
        d.why = TraceCause::TokenUsed;
        return d;
    }

    KeyEntry *entry = lookup(request.key, nowUs, &d.keyExpired);
    if (entry) {
        if (entry->inFlight) {
            // Only atomic/token reserve keys; naive never stores in-flight entries.
            d.kind = ServiceDecision::Reject;
            d.status = 409;
            d.reason = QStringLiteral("a request with this key is in progress");
            d.why = TraceCause::KeyInProgress;
            return d;
        }
        if (idem.fingerprint && entry->fingerprint != request.fingerprint) {
            d.kind = ServiceDecision::Reject;
            d.status = 422;
            d.reason = QStringLiteral("key reused with a different payload");
            d.why = TraceCause::PayloadMismatch;
            return d;
        }
        d.kind = ServiceDecision::Replay;
        d.status = entry->status;
        d.record = entry->record;
        d.reason = QStringLiteral("stored response replayed");
        return d;
    }
    if (idem.mode == IdempotencyMode::Atomic || token) {
        KeyEntry reserved;
        reserved.created = nowUs;
        reserved.fingerprint = request.fingerprint;
        reserved.inFlight = true;
        m_keys[request.key] = reserved;
        d.keyReserved = true;
    }
    return d;
}

int OrderService::storedStatus(KeyOutcome outcome, int status, const IdempotencyConfig &config)
{
    switch (outcome) {
    case KeyOutcome::Created:
        return 201;
    case KeyOutcome::FailedAfterCommit:
        // The order exists either way: replay the error it answered (storeErrors, Stripe's "including
        // 500 errors") or the 201 of the order it committed.
        return config.storeErrors ? status : 201;
    case KeyOutcome::FailedBeforeCommit: // rolled back with its transaction: a retry may succeed
    case KeyOutcome::VersionConflict:    // the client is meant to re-read and retry
    case KeyOutcome::CommitRefused:
    case KeyOutcome::Refused:            // Stripe: validation errors and concurrent conflicts are not saved
    case KeyOutcome::Throttled:          // answered before the endpoint began
    case KeyOutcome::Dropped:
        break;
    }
    return 0;
}

int OrderService::commit(const OrderRequest &request, qint64 nowUs, int status)
{
    StoredRecord r;
    r.id = ++m_recordCount;
    r.op = request.op;
    r.key = request.key;
    r.t = nowUs;
    if (m_keep == Keep::Records) {
        m_records.push_back(r);
        m_firstRecordByOp.emplace(request.op, r.id);
    } else if (m_keep == Keep::FirstByOp && request.op >= 0) {
        const size_t op = size_t(request.op);
        if (op >= m_firstRecordOfOp.size())
            m_firstRecordOfOp.resize(op + 1, 0);
        if (m_firstRecordOfOp[op] == 0)
            m_firstRecordOfOp[op] = r.id;
    }
    if (m_config.idempotency.mode == IdempotencyMode::Token && request.key != 0)
        m_usedTokens.insert(request.key);

    if (usesKeys() && request.key != 0) {
        // The key row is written with the order (same transaction in atomic mode,
        // after the insert in naive mode).
        KeyEntry &entry = m_keys[request.key];
        if (!entry.inFlight)
            entry.created = nowUs;
        entry.inFlight = false;
        entry.fingerprint = request.fingerprint;
        entry.record = r.id;
        entry.status = storedStatus(status >= 400 ? KeyOutcome::FailedAfterCommit : KeyOutcome::Created, status,
                                    m_config.idempotency);
    }
    return r.id;
}

void OrderService::failBeforeCommit(const OrderRequest &request, KeyOutcome outcome)
{
    Q_ASSERT(storedStatus(outcome, 0, m_config.idempotency) == 0);
    Q_UNUSED(outcome);
    release(request);
}

void OrderService::restart(bool forgetKeys)
{
    if (forgetKeys) {
        m_keys.clear();
        m_tokens.clear();
        m_usedTokens.clear();
        return;
    }
    for (auto it = m_keys.begin(); it != m_keys.end();) {
        if (it->second.inFlight)
            it = m_keys.erase(it);
        else
            ++it;
    }
}

void OrderService::setConfig(const ServerConfig &config)
{
    m_config = config;
    m_ttlUs = qint64(config.idempotency.ttlS) * 1000000;
}

void OrderService::loadRecord(const StoredRecord &record)
{
    m_records.push_back(record);
    m_records.back().id = int(m_records.size());
    m_recordCount = m_records.back().id;
    m_firstRecordByOp.emplace(record.op, m_records.back().id);
}

void OrderService::loadKey(quint64 key, qint64 createdUs, quint64 fingerprint, int status, int record)
{
    KeyEntry entry;
    entry.created = createdUs;
    entry.fingerprint = fingerprint;
    entry.status = status;
    entry.record = record;
    m_keys[key] = entry;
}

void OrderService::loadToken(quint64 token, bool used)
{
    m_tokens.insert(token);
    if (used)
        m_usedTokens.insert(token);
}

void OrderService::reserve(size_t keys, size_t records)
{
    m_keys.reserve(keys);
    m_records.reserve(records);
    m_firstRecordByOp.reserve(keys);
}

void OrderService::release(const OrderRequest &request)
{
    auto it = m_keys.find(request.key);
    if (it != m_keys.end() && it->second.inFlight)
        m_keys.erase(it);
}

quint64 OrderService::issueToken(quint64 token)
{
    m_tokens.insert(token);
    return token;
}

int OrderService::findByRef(int op) const
{
    if (m_keep == Keep::FirstByOp)
        return op >= 0 && size_t(op) < m_firstRecordOfOp.size() ? m_firstRecordOfOp[size_t(op)] : 0;
    auto it = m_firstRecordByOp.find(op);
    return it == m_firstRecordByOp.end() ? 0 : it->second;
}

QList<ReconcileChange> OrderService::reconcile(ReconcileAction action, qint64 nowUs)
{
    // The first live record of an op is kept for good; every later one is flagged or voided once.
    QList<ReconcileChange> changes;
    for (; m_reconciledUpTo < m_records.size(); ++m_reconciledUpTo) {
        StoredRecord &r = m_records[m_reconciledUpTo];
        if (r.voided)
            continue;
        bool &kept = m_reconcileKept[r.op];
        if (!kept) {
            kept = true;
            continue;
        }
        r.flagged = true;
        if (action == ReconcileAction::Void) {
            r.voided = true;
            r.voidedAt = nowUs;
        }
        changes.append({r.id, r.op, action == ReconcileAction::Void});
    }
    return changes;
}

} // namespace retrylab
