#include "engine/tracetext.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace retrylab::engine {

// printf-style ASCII formatting for the trace's hot paths: QString::arg and
// QString::number go through QLocale and dominated traced runs. Integers only
// (%d, %x), so the C locale question never arises.
QString ascii(const char *format, ...)
{
    char buffer[128];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return QString::fromLatin1(buffer, qBound(0, n, int(sizeof buffer) - 1));
}

QString hex(QLatin1StringView prefix, quint64 v, int digits)
{
    digits = qBound(1, digits, 16);
    QString text(prefix.size() + digits, Qt::Uninitialized);
    QChar *out = text.data();
    for (const char c : prefix)
        *out++ = QLatin1Char(c);
    for (int i = digits - 1; i >= 0; --i, v >>= 4)
        out[i] = QLatin1Char("0123456789abcdef"[v & 0xF]);
    return text;
}

QString orderText(int op)
{
    char buffer[32] = {'O', 'R', 'D', '-'};
    char *p = buffer + 4;
    if (op < 0)
        *p++ = '-'; // %04d pads "-1" to "-001"
    const quint32 magnitude = op < 0 ? 0u - quint32(op) : quint32(op);
    char digits[16];
    const qsizetype n = putDecimal32(digits, magnitude) - digits;
    for (qsizetype width = op < 0 ? 3 : 4; width > n; --width)
        *p++ = '0';
    std::memcpy(p, digits, size_t(n));
    return QString::fromLatin1(buffer, p + n - buffer);
}

char *putHex(char *out, const char (&prefix)[5], quint64 v, int digits)
{
    digits = qBound(1, digits, 16);
    std::memcpy(out, prefix, 4);
    char *const end = out + 4 + digits;
    char *q = end;
    if (digits >= 8) { // the last eight digits at once
        q -= 8;
        putHexWord(q, quint32(v));
        digits -= 8;
        v >>= 32;
    }
    for (; digits >= 2; digits -= 2, v >>= 8) {
        q -= 2;
        std::memcpy(q, digitPairs.hex + 2 * (v & 0xff), 2);
    }
    if (digits)
        q[-1] = "0123456789abcdef"[v & 0xf];
    return end;
}

char *putAttemptPath(char *p, int op, int sub, int b, int w, int t)
{
    *p++ = 'o';
    *p++ = 'p';
    return putAttemptTail(putDecimal(p, op), sub, b, w, t);
}

char *putAttemptTailSlow(char *p, int sub, int b, int w, int t)
{
    if (sub != 1) {
        *p++ = '#';
        p = putDecimal(p, sub);
    }
    if (b == 0 && w == 0 && t == 0)
        return p; // an event of the operation, of no attempt (reconciliation)
    std::memcpy(p, "/b", 2);
    p = putDecimal(p + 2, b);
    std::memcpy(p, "/w", 2);
    p = putDecimal(p + 2, w);
    std::memcpy(p, "/t", 2);
    return putDecimal(p + 2, t);
}

QString attemptPath(int op, int sub, int b, int w, int t)
{
    char buffer[PathBound];
    return QString::fromLatin1(buffer, putAttemptPath(buffer, op, sub, b, w, t) - buffer);
}

} // namespace retrylab::engine

namespace retrylab::trace {

namespace {

// The event's business reference, as Put writes it.
struct Ref
{
    const TraceEvent &e;
};

// Appends to a DetailBytes buffer: literal pieces, integers and the event's reference.
class Put
{
public:
    explicit Put(DetailBytes &out)
        : m_out(out)
    {
    }
    template<size_t N>
    Put &operator<<(const char (&text)[N])
    {
        std::memcpy(m_out.p, text, N - 1);
        m_out.p += N - 1;
        return *this;
    }
    // A piece chosen at run time (the literal overload above copies a fixed size).
    Put &operator<<(const char *text)
    {
        const size_t n = std::strlen(text);
        std::memcpy(m_out.p, text, n);
        m_out.p += n;
        return *this;
    }
    Put &operator<<(qint64 v)
    {
        if (quint64(v) < 10)
            *m_out.p++ = char('0' + v);
        else if (quint64(v) <= 0xffffffffu)
            m_out.p = engine::putDecimal32(m_out.p, quint32(v));
        else
            m_out.p = engine::putDecimal(m_out.p, v);
        return *this;
    }
    Put &operator<<(int v) { return *this << qint64(v); }
    // "ORD-0007": the engine's reference of an operation (%04d).
    Put &order(int op)
    {
        *this << "ORD-";
        if (m_out.opText) {
            for (qsizetype n = m_out.opSize; n < 4 && op >= 0; ++n)
                *m_out.p++ = '0';
            std::memcpy(m_out.p, m_out.opText, 16);
            m_out.p += m_out.opSize;
            return *this;
        }
        for (int d = 1000; d > 1 && op < d && op >= 0; d /= 10)
            *m_out.p++ = '0';
        return *this << op;
    }
    // The client's reference (live events), else the engine's of `op`. The reference is the only
    // text from outside: anything a JSON writer would escape makes the line Qt's.
    Put &operator<<(Ref r)
    {
        const TraceEvent &e = r.e;
        const TraceTexts *texts = e.texts();
        if (!texts || texts->reference.isEmpty())
            return order(e.op);
        if (m_out.refMarker) {
            *m_out.p++ = DetailBytes::RefMarker;
            return *this;
        }
        for (const QChar c : texts->reference) {
            const char16_t u = c.unicode();
            m_out.plain &= !(u < 0x20 || u >= 0x7f || u == u'"' || u == u'\\');
            *m_out.p++ = char(u);
        }
        return *this;
    }
    // A wait as the engine words it: "wait 250 ms", "wait 1.5 ms", "wait 1.25 s" (QString::arg's
    // 'f' rounding of the exact value; a tie, where the binary value decides, asks Qt, and so
    // does a wait past 2^50 us, where the double's error nears a microsecond and the sum below
    // would overflow).
    Put &wait(qint64 us)
    {
        *this << "wait ";
        if (us >= 0 && us < 1000000 && us % 1000 == 0)
            return *this << us / 1000 << " ms";
        if (us >= 0 && us < 1000000 && us % 100 != 50) {
            const qint64 tenths = (us + 50) / 100;
            return *this << tenths / 10 << "." << tenths % 10 << " ms";
        }
        if (us >= 1000000 && us < (qint64(1) << 50) && us % 10000 != 5000) {
            const qint64 hundredths = (us + 5000) / 10000;
            *this << hundredths / 100 << ".";
            *m_out.p++ = char('0' + hundredths % 100 / 10);
            *m_out.p++ = char('0' + hundredths % 10);
            return *this << " s";
        }
        const QByteArray qt = us < 1000000 ? QString::number(double(us) / 1000, 'f', us % 1000 ? 1 : 0).toLatin1() + " ms"
                                           : QString::number(double(us) / 1000000, 'f', 2).toLatin1() + " s";
        std::memcpy(m_out.p, qt.constData(), size_t(qt.size()));
        m_out.p += qt.size();
        return *this;
    }
    // How the client saw an attempt end (AttemptOutcome::describe), from the typed outcome.
    Put &outcome(TraceOutcome o, int status)
    {
        switch (o) {
        case TraceOutcome::Response:
            return *this << status;
        case TraceOutcome::Replayed:
            return *this << status << " (replayed)";
        case TraceOutcome::Raised:
            return *this << "MaxRetryError (too many " << status << " error responses)";
        case TraceOutcome::ConnectError:
            return *this << "connect error";
        case TraceOutcome::ReadTimeout:
            return *this << "read timeout";
        case TraceOutcome::ConnectionReset:
            return *this << "connection reset";
        case TraceOutcome::CircuitOpen:
            return *this << "circuit open";
        case TraceOutcome::None:
            break;
        }
        return *this;
    }
    // Where the client minted its key (KeyMinted, TokenIssued).
    Put &where(TraceCause cause)
    {
        switch (cause) {
        case TraceCause::PerOperation:
            return *this << "per operation";
        case TraceCause::PerBusinessAttempt:
            return *this << "per business attempt";
        case TraceCause::PerWrapperAttempt:
            return *this << "per wrapper attempt";
        default:
            return *this;
        }
    }

private:
    DetailBytes &m_out;
};

// "business attempt 2 of 3", "wrapper attempt 4 (unlimited until the 5000 ms deadline)".
void layerAttempt(Put &put, const TraceEvent &e, int attempt)
{
    if (e.arg != 0)
        put << attempt << " of " << e.arg;
    else
        put << attempt << " (unlimited until the " << e.arg2 << " ms deadline)";
}

// Why urllib3's Retry stopped (policy::transport's reason), from its typed verdict: the cause,
// the limit (arg) and which counter ran out (arg2: 0 total, 1 connect, 2 read, 3 status, 4 other).
void transportGaveUp(Put &put, const TraceEvent &e)
{
    const char *method = e.method == TraceMethod::GetOrder ? "GET" : "POST";
    switch (e.cause) {
    case TraceCause::TransportOff:
        put << "transport retries off";
        return;
    case TraceCause::ReadErrorNotAllowed:
        put << "read error on " << method << ", which is not in allowed_methods";
        return;
    case TraceCause::BreakerOpen:
        put << "circuit open";
        return;
    case TraceCause::MethodNotAllowed:
        put << method << " is not in allowed_methods";
        return;
    case TraceCause::StatusNotRetryable:
        put << "status " << e.status << " is not retryable";
        return;
    case TraceCause::RetriesExhausted: {
        static const char *const counters[] = {"total", "connect", "read", "status", "other"};
        put << (e.arg2 > 0 && e.arg2 < 5 ? counters[e.arg2] : "total") << "=" << e.arg << " retries exhausted";
        return;
    }
    default:
        put << "success";
        return;
    }
}

// Why the business loop or the @retry wrapper stopped; the transport's own words otherwise.
void gaveUp(Put &put, const TraceEvent &e)
{
    if (e.lane == Lane::Transport)
        return transportGaveUp(put, e);
    if (e.cause == TraceCause::Deadline)
        put << "deadline reached";
    else if (e.cause == TraceCause::MaxAttempts)
        put << "stop after " << e.arg << " attempts";
    else if (e.cause == TraceCause::TokenSpent)
        put << "order token already used: final";
    else
        put.outcome(e.outcome, e.status) << " is not retried";
}

// How an operation ended, as the client reports it (OpSucceeded, OpFailed).
void operationEnd(Put &put, const TraceEvent &e)
{
    if (e.cause == TraceCause::FoundByQuery)
        put << "found by status query";
    else if (e.cause == TraceCause::TokenSpentNotFound)
        put << "order token already used, and no order found";
    else if (e.cause == TraceCause::TokenSpent)
        put << "409: order token already used";
    else if (e.kind == EventKind::OpFailed)
        put.outcome(e.outcome, int(e.arg));
    else if (e.outcome == TraceOutcome::Replayed)
        put << "replayed " << e.arg;
    else
        put << e.arg;
}

// The client's side: the layers, the query, the outcome of an operation.
void composeClient(Put &put, const TraceEvent &e)
{
    switch (e.kind) {
    case EventKind::OpStart:
        put.order(e.op);
        if (e.sub != 1)
            put << " submitted again";
        return;
    case EventKind::KeyMinted:
        put.where(e.cause);
        return;
    case EventKind::TokenIssued:
        put << "POST /order-tokens (";
        put.where(e.cause) << ")";
        return;
    case EventKind::BusinessAttempt:
        put << "business attempt ";
        return layerAttempt(put, e, e.business);
    case EventKind::WrapperAttempt:
        put << "wrapper attempt ";
        return layerAttempt(put, e, e.wrapper);
    case EventKind::TransportAttempt:
        put << "POST /orders, attempt " << int(e.transport);
        return;
    case EventKind::CircuitOpen:
        put << "circuit breaker open";
        return;
    case EventKind::QuerySent:
        put << "GET /orders?ref=";
        put.order(e.op);
        if (e.lane == Lane::Transport)
            put << ", attempt " << e.arg;
        return;
    case EventKind::QueryResult:
        if (e.cause == TraceCause::StatusUnknown) {
            put << "status unknown (";
            put.outcome(e.outcome, int(e.arg)) << "): send again";
        } else {
            put << (e.status == 200 ? "order exists: do not resend" : "no order yet: send again");
        }
        return;
    case EventKind::RetryScheduled:
        if (e.lane == Lane::Transport && e.method == TraceMethod::GetOrder)
            put << "GET ";
        put.wait(e.arg) << " after ";
        put.outcome(e.outcome, e.status);
        return;
    case EventKind::GaveUp:
        return gaveUp(put, e);
    case EventKind::BreakerChanged:
        put << "circuit breaker ";
        put << (e.cause == TraceCause::BreakerOpened ? "opened" : e.cause == TraceCause::BreakerHalfOpen ? "half-open" : "closed");
        return;
    case EventKind::OpSucceeded:
    case EventKind::OpFailed:
        return operationEnd(put, e);
    case EventKind::LateResponse:
        put << "arrived after the client gave up: ignored";
        return;
    case EventKind::ResponseReceived:
    case EventKind::ConnectionReset:
        put.outcome(e.outcome, e.status);
        return;
    case EventKind::ConnectFailed:
        put << "connection refused";
        return;
    case EventKind::Timeout:
        put << "no response within " << e.arg << " ms";
        return;
    default:
        return;
    }
}

// Why the server refused a request before processing it (OrderService's reasons, admission).
const char *rejection(const TraceEvent &e)
{
    switch (e.cause) {
    case TraceCause::RateLimited:
        return "rate limited";
    case TraceCause::ServerFull:
        return "server full";
    case TraceCause::KeyRequired:
        return "Idempotency-Key required";
    case TraceCause::TokenRequired:
        return "order token required";
    case TraceCause::UnknownToken:
        return "unknown order token";
    case TraceCause::TokenUsed:
        return "order token already used";
    case TraceCause::KeyInProgress:
        return "a request with this key is in progress";
    case TraceCause::PayloadMismatch:
        return "key reused with a different payload";
    default:
        return "";
    }
}

// A commit: arg is the first record when this one duplicates it; arg2 and arg3 the row and its
// version (server.model occ).
void committed(Put &put, const TraceEvent &e)
{
    if (e.arg2 != 0) {
        put << "UPDATE row " << e.arg2 << " to version " << e.arg3;
        if (e.arg == 0)
            put << " (" << Ref{e} << ")";
        else
            put << ": " << Ref{e} << " applied again (record #" << e.arg << ")";
    } else {
        put << "INSERT order " << Ref{e};
        if (e.arg != 0)
            put << ": duplicate of record #" << e.arg;
    }
}

// The wire's and the server's side (the simulated network and the server pipeline).
bool composeServer(Put &put, const TraceEvent &e)
{
    switch (e.kind) {
    case EventKind::RowRead:
        put << "row " << e.arg << ": version " << e.arg2;
        return true;
    case EventKind::RequestLost:
        if (e.cause == TraceCause::ServerRestarting)
            put << "the server is restarting: the request was dropped";
        else if (e.cause == TraceCause::ReadAndDropped)
            put << "the request was read and dropped: no answer will come";
        else
            put << (e.method == TraceMethod::GetOrder ? "the status query was lost" : "the request never reached the server");
        return true;
    case EventKind::RequestDelayed:
        put << "delayed by " << e.arg << " ms";
        return true;
    case EventKind::RequestArrived:
        if (e.method == TraceMethod::GetOrder)
            put << "GET /orders?ref=" << Ref{e};
        else
            put << "POST /orders";
        return true;
    case EventKind::ReconcileFlagged:
    case EventKind::ReconcileVoided:
        put << (e.kind == EventKind::ReconcileVoided ? "reconciliation voided" : "reconciliation flagged")
            << " duplicate record #" << e.record;
        return true;
    case EventKind::Rejected:
        put << rejection(e);
        if (e.cause == TraceCause::RateLimited || e.cause == TraceCause::ServerFull)
            put << ", Retry-After: " << e.arg;
        return true;
    case EventKind::Queued:
        put << "queue position " << e.arg;
        return true;
    case EventKind::ServerError:
        put << (e.cause == TraceCause::QueryFailed ? "the status query failed"
                : e.phase == CommitPhase::AfterCommit ? "failed after commit"
                                                      : "failed before commit");
        return true;
    case EventKind::KeyExpired:
        put << "key older than the " << e.arg << " s TTL was forgotten";
        return true;
    case EventKind::Replayed:
        put << "Idempotent-Replayed: true";
        return true;
    case EventKind::KeyReserved:
        put << "key reserved in flight";
        return true;
    case EventKind::ProcessingStarted:
        put << "processing " << e.arg << " ms";
        return true;
    case EventKind::VersionConflict:
        put << "row " << e.arg << ": read version " << e.arg2 << ", now " << e.arg3;
        return true;
    case EventKind::Committed:
        committed(put, e);
        return true;
    case EventKind::ServerRestarted:
        // faults::restartText: arg is the down time, the cause what became of the keys.
        put << (e.phase == CommitPhase::AfterCommit ? "committed, then" : "request dropped:")
            << " the server restarted (down " << e.arg
            << (e.cause == TraceCause::KeysForgotten ? " ms, in-memory idempotency keys forgotten)"
                                                     : " ms, durable idempotency keys kept)");
        return true;
    case EventKind::ResponseSent:
        put << e.status;
        if (e.outcome == TraceOutcome::Replayed)
            put << ", Idempotent-Replayed: true";
        return true;
    case EventKind::ResponseLost:
        put << (e.phase == CommitPhase::AfterCommit ? "committed, but the response was lost" : "the response was lost");
        return true;
    case EventKind::ConnectionReset:
        if (e.lane != Lane::Network)
            return false; // the client's side: its outcome
        put << "connection reset by peer";
        return true;
    default:
        return false;
    }
}

} // namespace

char *composeDetail(DetailBytes &out, const TraceEvent &e)
{
    Put put(out);
    if (!composeServer(put, e))
        composeClient(put, e);
    return out.p;
}

} // namespace retrylab::trace
