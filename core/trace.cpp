#include "trace.h"

#include "engine/tracetext.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <array>
#include <cstdio>
#include <cstring>
#include <iterator>

#include <sys/stat.h>
#include <unistd.h>

namespace retrylab {

namespace {

// Indexed by the enum value; the names are the JSONL contract.
constexpr const char *LaneNames[] = {"business", "wrapper", "transport", "network", "server", "database"};

constexpr const char *KindNames[] = {
    "opStart",          "keyMinted",        "tokenIssued",     "businessAttempt", "wrapperAttempt",
    "transportAttempt", "querySent",        "queryResult",     "connectFailed",   "circuitOpen",
    "requestLost",      "requestDelayed",   "requestArrived",  "queued",          "rejected",
    "processingStarted", "keyReserved",     "keyExpired",      "committed",       "replayed",
    "serverError",      "responseSent",     "responseLost",    "connectionReset", "responseReceived",
    "lateResponse",     "timeout",          "retryScheduled",  "gaveUp",          "budgetExhausted",
    "opSucceeded",      "opFailed",         "reconcileFlagged", "reconcileVoided",
    "serverRestarted",  "rowRead",          "versionConflict", "breakerChanged",
};

static_assert(int(std::size(KindNames)) == EventKindCount, "one name per EventKind");

constexpr const char *MethodNames[] = {"none", "postOrder", "getOrder", "postToken"};
constexpr const char *PhaseNames[] = {"none", "beforeCommit", "afterCommit"};
constexpr const char *OutcomeNames[] = {"none", "response", "replayed", "raised", "connectError", "readTimeout",
                                    "connectionReset", "circuitOpen"};
constexpr const char *CauseNames[] = {"none", "perOperation", "perBusinessAttempt", "perWrapperAttempt", "keyRequired", "tokenRequired", "unknownToken", "malformedRequest", "tokenUsed", "keyInProgress", "keyTaken", "payloadMismatch", "rateLimited", "serverFull", "commitRefused", "injectedError", "queryFailed", "keysForgotten", "keysKept", "keyTtl", "neverReached", "serverRestarting", "readAndDropped", "latencySpike", "queuePosition", "processing", "insert", "duplicate", "responseLost", "peerReset", "rowVersion", "staleVersion", "backoff", "retryAfter", "deadline", "maxAttempts", "notRetried", "tokenSpent", "transportOff", "methodNotAllowed", "readErrorNotAllowed", "statusNotRetryable", "retriesExhausted", "breakerOpen", "budgetEmpty", "statusUnknown", "final", "foundByQuery", "tokenSpentNotFound", "tokenFailed", "breakerOpened", "breakerHalfOpen", "breakerClosed"};

static_assert(int(std::size(MethodNames)) == int(TraceMethod::PostToken) + 1, "one name per TraceMethod");
static_assert(int(std::size(PhaseNames)) == int(CommitPhase::AfterCommit) + 1, "one name per CommitPhase");
static_assert(int(std::size(OutcomeNames)) == int(TraceOutcome::CircuitOpen) + 1, "one name per TraceOutcome");
static_assert(int(std::size(CauseNames)) == int(TraceCause::BreakerClosed) + 1, "one name per TraceCause");

template<class Enum, size_t N>
QString enumName(const char *const (&names)[N], Enum value)
{
    const size_t i = size_t(value);
    return i < N ? QLatin1String(names[i]) : QString();
}

template<class Enum, size_t N>
Enum enumFromName(const char *const (&names)[N], const QString &name)
{
    for (size_t i = 0; i < N; ++i) {
        if (name == QLatin1String(names[i]))
            return Enum(i);
    }
    return Enum(0);
}
static_assert(int(std::size(LaneNames)) == int(Lane::Database) + 1, "one name per Lane");

QString orderRef(int op)
{
    return QStringLiteral("ORD-%1").arg(op, 4, 10, QLatin1Char('0'));
}

QString laneLabel(Lane lane)
{
    switch (lane) {
    case Lane::Business:
        return QCoreApplication::translate("trace", "business");
    case Lane::Wrapper:
        return QCoreApplication::translate("trace", "wrapper");
    case Lane::Transport:
        return QCoreApplication::translate("trace", "transport");
    case Lane::Network:
        return QCoreApplication::translate("trace", "network");
    case Lane::Server:
        return QCoreApplication::translate("trace", "server");
    case Lane::Database:
        return QCoreApplication::translate("trace", "database");
    }
    return QString();
}

// A wait as the engine measures it: milliseconds below a second, else seconds with two decimals.
QString waitWords(qint64 us)
{
    if (us < 1000000)
        return QCoreApplication::translate("trace", "%1 ms").arg(double(us) / 1000, 0, 'f', us % 1000 ? 1 : 0);
    return QCoreApplication::translate("trace", "%1 s").arg(double(us) / 1000000, 0, 'f', 2);
}

// How the client saw the attempt end (the status for a response).
QString outcomeWords(const TraceEvent &e)
{
    switch (e.outcome) {
    case TraceOutcome::Response:
        return QCoreApplication::translate("trace", "status %1").arg(e.status);
    case TraceOutcome::Replayed:
        return QCoreApplication::translate("trace", "status %1, replayed").arg(e.status);
    case TraceOutcome::Raised:
        return QCoreApplication::translate("trace", "too many %1 error responses (MaxRetryError)").arg(e.status);
    case TraceOutcome::ConnectError:
        return QCoreApplication::translate("trace", "connect error");
    case TraceOutcome::ReadTimeout:
        return QCoreApplication::translate("trace", "read timeout");
    case TraceOutcome::ConnectionReset:
        return QCoreApplication::translate("trace", "connection reset");
    case TraceOutcome::CircuitOpen:
        return QCoreApplication::translate("trace", "circuit open");
    case TraceOutcome::None:
        break;
    }
    return QString();
}

QString counterWords(qint64 counter)
{
    switch (counter) {
    case 1:
        return QCoreApplication::translate("trace", "connect");
    case 2:
        return QCoreApplication::translate("trace", "read");
    case 3:
        return QCoreApplication::translate("trace", "status");
    case 4:
        return QCoreApplication::translate("trace", "other");
    default:
        return QCoreApplication::translate("trace", "total");
    }
}

// Why a layer stopped retrying (GaveUp), from its typed cause.
QString gaveUpWhy(const TraceEvent &e)
{
    switch (e.cause) {
    case TraceCause::Deadline:
        return QCoreApplication::translate("trace", "its %1 ms deadline is reached").arg(e.arg);
    case TraceCause::MaxAttempts:
        return QCoreApplication::translate("trace", "all %1 attempts are used").arg(e.arg);
    case TraceCause::NotRetried:
        return QCoreApplication::translate("trace", "%1 is not retried").arg(outcomeWords(e));
    case TraceCause::TokenSpent:
        return QCoreApplication::translate("trace", "the order token is already used, so every answer is final");
    case TraceCause::TransportOff:
        return QCoreApplication::translate("trace", "transport retries are off");
    case TraceCause::MethodNotAllowed:
        return QCoreApplication::translate("trace", "%1 is not in allowed_methods").arg(e.method == TraceMethod::GetOrder ? QStringLiteral("GET") : QStringLiteral("POST"));
    case TraceCause::ReadErrorNotAllowed:
        return QCoreApplication::translate("trace", "a read error on %1, which is not in allowed_methods")
            .arg(e.method == TraceMethod::GetOrder ? QStringLiteral("GET") : QStringLiteral("POST"));
    case TraceCause::StatusNotRetryable:
        return QCoreApplication::translate("trace", "status %1 is not retryable").arg(e.status);
    case TraceCause::RetriesExhausted:
        return QCoreApplication::translate("trace", "the %1 retries (%2) are used up").arg(counterWords(e.arg2)).arg(e.arg);
    case TraceCause::BreakerOpen:
        return QCoreApplication::translate("trace", "the circuit is open");
    default:
        return QString();
    }
}

QString keysWords(const TraceEvent &e)
{
    return e.cause == TraceCause::KeysForgotten ? QCoreApplication::translate("trace", "its in-memory idempotency keys are gone")
                                                : QCoreApplication::translate("trace", "its durable idempotency keys survive");
}

} // namespace

// ------------------------------------------------------------- TraceEvent texts

QString TraceEvent::path() const
{
    if (composed & ComposedPath)
        return engine::attemptPath(op, sub, business, wrapper, transport);
    return m_texts ? m_texts->path : QString();
}

QString TraceEvent::requestId() const
{
    if (composed & ComposedRequestId)
        return engine::hex(QLatin1StringView("req-"), requestNumber, 8);
    return m_texts ? m_texts->requestId : QString();
}

QString TraceEvent::key() const
{
    if (composed & ComposedKey)
        return keyNumber == 0 ? QString()
                              : engine::hex(composed & ComposedToken ? QLatin1StringView("tok-") : QLatin1StringView("key-"), keyNumber, 10);
    return m_texts ? m_texts->key : QString();
}

QString TraceEvent::detail() const
{
    if (detailSource == DetailSource::Typed)
        return trace::composedDetail(*this);
    return m_texts ? m_texts->detail : QString();
}

TraceTexts &TraceEvent::mutableTexts()
{
    if (!m_texts)
        m_texts = new TraceTexts;
    return *m_texts; // detaches a copy shared with another event
}

void TraceEvent::setPath(const QString &path)
{
    composed &= quint8(~ComposedPath);
    mutableTexts().path = path;
}

void TraceEvent::setRequestId(const QString &requestId)
{
    composed &= quint8(~ComposedRequestId);
    mutableTexts().requestId = requestId;
}

void TraceEvent::setKey(const QString &key)
{
    composed &= quint8(~(ComposedKey | ComposedToken));
    mutableTexts().key = key;
}

void TraceEvent::setDetail(const QString &detail)
{
    detailSource = DetailSource::Text;
    mutableTexts().detail = detail;
}

void TraceEvent::setRef(const QString &ref)
{
    mutableTexts().reference = ref;
}

namespace {

// The path, request ID, key and reference of two events as read: numbers where both compose a
// text the same way, else the texts (a composed one against a given one reads both).
bool sameTexts(const TraceEvent &a, const TraceEvent &b)
{
    const TraceTexts *x = a.texts();
    const TraceTexts *y = b.texts();
    const quint8 c = a.composed;
    if (c == b.composed && x == y) {
        // A key's text is its number's low 40 bits (ten hex digits), none for 0.
        constexpr quint64 keyText = (quint64(1) << 40) - 1;
        const bool sameKey = (a.keyNumber == 0) == (b.keyNumber == 0) && ((a.keyNumber ^ b.keyNumber) & keyText) == 0;
        return (!(c & ComposedRequestId) || a.requestNumber == b.requestNumber) && (!(c & ComposedKey) || sameKey);
    }
    static const TraceTexts none;
    const TraceTexts &s = x ? *x : none;
    const TraceTexts &u = y ? *y : none;
    const quint8 either = quint8(c | b.composed);
    return ((either & ComposedPath) ? a.path() == b.path() : s.path == u.path)
        && ((either & ComposedRequestId) ? a.requestId() == b.requestId() : s.requestId == u.requestId)
        && ((either & ComposedKey) ? a.key() == b.key() : s.key == u.key) && s.reference == u.reference;
}

} // namespace

bool TraceEvent::operator==(const TraceEvent &o) const
{
    return t == o.t && lane == o.lane && kind == o.kind && op == o.op && sub == o.sub && status == o.status
        && record == o.record && arg == o.arg && arg2 == o.arg2 && arg3 == o.arg3 && id == o.id
        && answers == o.answers && business == o.business && wrapper == o.wrapper && transport == o.transport
        && method == o.method && phase == o.phase && cause == o.cause && outcome == o.outcome && sameTexts(*this, o)
        && (detailSource == o.detailSource ? detailSource == DetailSource::Typed || detail() == o.detail()
                                           : detail() == o.detail());
}

namespace {

// Which lines a field belongs to: every line, or only the full one (trace::hash covers the
// original fields only; see trace.h).
enum class Scope { Original, Full };

// What the line writer may reuse for a number: the time (the events of one instant follow each
// other), the id (one more than the line before), the op (written again in the path and the
// detail). The meaning is the same for every visitor; only the line writer uses it.
enum class Repeats { No, Time, Id, Op };

// The texts of a line other than the detail.
enum class Text { Path, RequestId, Key, Ref };

QString textOf(const TraceEvent &e, Text which)
{
    switch (which) {
    case Text::Path:
        return e.path();
    case Text::RequestId:
        return e.requestId();
    case Text::Key:
        return e.key();
    case Text::Ref:
        return e.ref();
    }
    return QString();
}

// The text as given (the event does not compose it).
const QString &storedText(const TraceTexts &texts, Text which)
{
    switch (which) {
    case Text::Path:
        return texts.path;
    case Text::RequestId:
        return texts.requestId;
    case Text::Key:
        return texts.key;
    case Text::Ref:
        break;
    }
    return texts.reference;
}

// THE field list of a trace line, in its key order (QJsonObject's sorted order, so the line
// writer and Qt's writer agree byte for byte): TraceEvent::toJson and the line writer both walk
// it, so a field is written in one place.
template<class Visitor>
void visitFields(Visitor &v, const TraceEvent &e)
{
    v.number("answers", e.answers, Scope::Full);
    v.number("arg", e.arg, Scope::Full);
    v.number("arg2", e.arg2, Scope::Full);
    v.number("arg3", e.arg3, Scope::Full);
    v.number("business", e.business, Scope::Full);
    v.name("cause", CauseNames, e.cause, Scope::Full);
    v.detail("detail", e, Scope::Original);
    v.number("id", e.id, Scope::Full, Repeats::Id);
    v.text("key", e, Text::Key, Scope::Original);
    v.name("kind", KindNames, e.kind, Scope::Original);
    v.name("lane", LaneNames, e.lane, Scope::Original);
    v.name("method", MethodNames, e.method, Scope::Full);
    v.number("op", e.op, Scope::Original, Repeats::Op);
    v.name("outcome", OutcomeNames, e.outcome, Scope::Full);
    v.text("path", e, Text::Path, Scope::Original);
    v.name("phase", PhaseNames, e.phase, Scope::Full);
    v.number("record", e.record, Scope::Original);
    v.text("ref", e, Text::Ref, Scope::Full);
    v.text("requestId", e, Text::RequestId, Scope::Original);
    v.number("status", e.status, Scope::Original);
    v.number("sub", e.sub, Scope::Original);
    v.number("t", e.t, Scope::Original, Repeats::Time);
    v.number("transport", e.transport, Scope::Full);
    v.number("wrapper", e.wrapper, Scope::Full);
}

// Builds the QJsonObject of the field list (`full`: the typed fields too).
class JsonBuilder
{
public:
    explicit JsonBuilder(bool full)
        : m_full(full)
    {
    }
    QJsonObject object;
    void number(const char *key, qint64 value, Scope scope, Repeats = Repeats::No)
    {
        if (wanted(scope))
            object.insert(QLatin1String(key), value);
    }
    template<class Enum, size_t N>
    void name(const char *key, const char *const (&names)[N], Enum value, Scope scope)
    {
        if (wanted(scope))
            object.insert(QLatin1String(key), enumName(names, value));
    }
    void text(const char *key, const TraceEvent &e, Text which, Scope scope)
    {
        if (wanted(scope))
            object.insert(QLatin1String(key), textOf(e, which));
    }
    void detail(const char *key, const TraceEvent &e, Scope scope)
    {
        if (wanted(scope))
            object.insert(QLatin1String(key), e.detail());
    }

private:
    bool wanted(Scope scope) const { return m_full || scope == Scope::Original; }
    bool m_full;
};

QJsonObject jsonOf(const TraceEvent &e, bool full)
{
    JsonBuilder builder(full);
    visitFields(builder, e);
    return builder.object;
}

} // namespace

QJsonObject TraceEvent::toJson() const
{
    return jsonOf(*this, true);
}

namespace {

// The number of a composed text: `prefix` and exactly `digits` lowercase hexadecimal digits
// (engine::hex), else false.
bool composedNumber(const QString &text, QLatin1StringView prefix, int digits, quint64 *number)
{
    if (text.size() != prefix.size() + digits || !text.startsWith(prefix))
        return false;
    quint64 v = 0;
    for (qsizetype i = prefix.size(); i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (c >= u'0' && c <= u'9')
            v = v << 4 | quint64(c - u'0');
        else if (c >= u'a' && c <= u'f')
            v = v << 4 | quint64(c - u'a' + 10);
        else
            return false;
    }
    *number = v;
    return true;
}

// Keeps an event's texts read back as the engine keeps them: a text its numbers compose is
// composed again (no string), any other is kept as given; an empty one is not kept at all. So an
// engine trace read back holds no text block, and every event reads, writes and compares as the
// line it came from.
void readTexts(TraceEvent &e, const QJsonObject &o)
{
    const QString path = o.value(QLatin1String("path")).toString();
    if (path == engine::attemptPath(e.op, e.sub, e.business, e.wrapper, e.transport))
        e.composed |= ComposedPath;
    else if (!path.isEmpty())
        e.setPath(path);
    const QString requestId = o.value(QLatin1String("requestId")).toString();
    quint64 number = 0;
    if (composedNumber(requestId, QLatin1StringView("req-"), 8, &number)) {
        e.requestNumber = quint32(number);
        e.composed |= ComposedRequestId;
    } else if (!requestId.isEmpty()) {
        e.setRequestId(requestId);
    }
    const QString key = o.value(QLatin1String("key")).toString();
    const bool token = key.startsWith(QLatin1String("tok-"));
    if (composedNumber(key, token ? QLatin1StringView("tok-") : QLatin1StringView("key-"), 10, &number) && number != 0) {
        e.keyNumber = number;
        e.composed |= ComposedKey | (token ? ComposedToken : 0);
    } else if (!key.isEmpty()) {
        e.setKey(key);
    }
    const QString ref = o.value(QLatin1String("ref")).toString();
    if (!ref.isEmpty())
        e.setRef(ref);
    const QString detail = o.value(QLatin1String("detail")).toString();
    if (!detail.isEmpty() && detail == trace::composedDetail(e))
        e.detailSource = DetailSource::Typed;
    else if (!detail.isEmpty())
        e.setDetail(detail);
}

} // namespace

TraceEvent TraceEvent::fromJson(const QJsonObject &o)
{
    TraceEvent e;
    e.t = o.value(QStringLiteral("t")).toInteger();
    trace::laneFromName(o.value(QStringLiteral("lane")).toString(), &e.lane);
    trace::kindFromName(o.value(QStringLiteral("kind")).toString(), &e.kind);
    e.op = o.value(QStringLiteral("op")).toInt();
    e.sub = o.value(QStringLiteral("sub")).toInt(1);
    e.status = o.value(QStringLiteral("status")).toInt();
    e.record = o.value(QStringLiteral("record")).toInt();
    // The typed fields: absent in files written before them (then 0 / None).
    e.arg = o.value(QStringLiteral("arg")).toInteger();
    e.arg2 = o.value(QStringLiteral("arg2")).toInteger();
    e.arg3 = o.value(QStringLiteral("arg3")).toInteger();
    e.id = o.value(QStringLiteral("id")).toInt();
    e.answers = o.value(QStringLiteral("answers")).toInt();
    e.business = qint16(o.value(QStringLiteral("business")).toInt());
    e.wrapper = qint16(o.value(QStringLiteral("wrapper")).toInt());
    e.transport = qint16(o.value(QStringLiteral("transport")).toInt());
    e.method = enumFromName<TraceMethod>(MethodNames, o.value(QStringLiteral("method")).toString());
    e.phase = enumFromName<CommitPhase>(PhaseNames, o.value(QStringLiteral("phase")).toString());
    e.cause = enumFromName<TraceCause>(CauseNames, o.value(QStringLiteral("cause")).toString());
    e.outcome = enumFromName<TraceOutcome>(OutcomeNames, o.value(QStringLiteral("outcome")).toString());
    readTexts(e, o); // after the numbers that compose them
    return e;
}

namespace trace {

QString laneName(Lane lane)
{
    const int i = int(lane);
    return i >= 0 && i < int(std::size(LaneNames)) ? QLatin1String(LaneNames[i]) : QString();
}

QString kindName(EventKind kind)
{
    const int i = int(kind);
    return i >= 0 && i < int(std::size(KindNames)) ? QLatin1String(KindNames[i]) : QString();
}

QString methodName(TraceMethod m)
{
    return enumName(MethodNames, m);
}

QString phaseName(CommitPhase p)
{
    return enumName(PhaseNames, p);
}

QString causeName(TraceCause c)
{
    return enumName(CauseNames, c);
}

QString outcomeName(TraceOutcome o)
{
    return enumName(OutcomeNames, o);
}

bool laneFromName(const QString &name, Lane *lane)
{
    for (int i = 0; i < int(std::size(LaneNames)); ++i) {
        if (name == QLatin1String(LaneNames[i])) {
            *lane = Lane(i);
            return true;
        }
    }
    return false;
}

bool kindFromName(const QString &name, EventKind *kind)
{
    for (int i = 0; i < int(std::size(KindNames)); ++i) {
        if (name == QLatin1String(KindNames[i])) {
            *kind = EventKind(i);
            return true;
        }
    }
    return false;
}

namespace {

// A name as the line writer copies it: its text and closing quote in a slot of fixed width, so a
// name is one copy of NameSlotWidth bytes (the line has room for it) and no strlen or
// variable-length memcpy.
constexpr size_t NameSlotWidth = 24;
struct NameSlot
{
    char text[NameSlotWidth];
    quint8 size; // the name and its quote
    char padding[31 - NameSlotWidth]; // a slot of 32 bytes: its address is a shift of the value
};
static_assert(sizeof(NameSlot) == 32);

template<size_t M>
constexpr std::array<NameSlot, M> nameSlots(const char *const (&names)[M])
{
    std::array<NameSlot, M> slots{};
    for (size_t i = 0; i < M; ++i) {
        size_t n = 0;
        for (; names[i][n]; ++n) {
            if (n + 1 >= NameSlotWidth)
                throw "a name longer than its slot"; // fails the constant evaluation
            slots[i].text[n] = names[i][n];
        }
        slots[i].text[n] = '"';
        slots[i].size = quint8(n + 1);
    }
    return slots;
}

constexpr auto LaneSlots = nameSlots(LaneNames);
constexpr auto KindSlots = nameSlots(KindNames);
constexpr auto MethodSlots = nameSlots(MethodNames);
constexpr auto PhaseSlots = nameSlots(PhaseNames);
constexpr auto CauseSlots = nameSlots(CauseNames);
constexpr auto OutcomeSlots = nameSlots(OutcomeNames);

// The slots of an enum's names, chosen by its type.
constexpr const NameSlot *slotsOf(Lane) { return LaneSlots.data(); }
constexpr const NameSlot *slotsOf(EventKind) { return KindSlots.data(); }
constexpr const NameSlot *slotsOf(TraceMethod) { return MethodSlots.data(); }
constexpr const NameSlot *slotsOf(CommitPhase) { return PhaseSlots.data(); }
constexpr const NameSlot *slotsOf(TraceCause) { return CauseSlots.data(); }
constexpr const NameSlot *slotsOf(TraceOutcome) { return OutcomeSlots.data(); }

// A number and its decimal text, kept from one line to the next (size 0: none yet).
struct NumberText
{
    qint64 value = 0;
    char text[24] = {};
    quint8 size = 0;
};

// What a writer's previous lines wrote for the numbers that repeat from line to line (see
// Repeats): a run's events come in id order, a few at each instant.
struct LineMemo
{
    NumberText time;
    NumberText id;
    // The op of the line being written, in decimal once (size 0 until then). Here rather than in
    // the LineWriter, whose position then stays in a register: a char store may alias anything
    // in memory.
    char op[16] = {};
    quint8 opSize = 0;
};

// Writes one JSONL line straight into a buffer sized for its worst case, walking the field list:
// no QJsonObject, no printf, no per-key append (each QByteArray append checks capacity and
// detaches). `Full` (the typed fields too) is a constant, so the fields a line leaves out cost
// nothing. Every key is written with the comma before it and its quotes and colon in one run of
// constant bytes, and the line's first comma becomes its '{' at the end.
template<bool Full>
class LineWriter
{
public:
    LineWriter(char *p, LineMemo &memo)
        : m_line(p)
        , m_p(p)
        , m_memo(memo)
    {
        memo.opSize = 0;
    }
    char *end() const { return m_p; }
    // False once a string needs escaping (Qt's writer then writes the line).
    bool plain() const { return m_plain; }
    template<size_t N>
    void number(const char (&key)[N], qint64 value, Scope scope, Repeats repeats = Repeats::No)
    {
        if (!wanted(scope))
            return;
        putKey(key, "\":");
        switch (repeats) { // a constant where the call is inlined
        case Repeats::Time:
            return putSame(m_memo.time, value);
        case Repeats::Id:
            return putNext(m_memo.id, value);
        case Repeats::Op:
            std::memcpy(m_p, opText(int(value)), 16);
            m_p += m_memo.opSize;
            return;
        case Repeats::No:
            break;
        }
        if (quint64(value) < 10) // most typed fields are 0
            *m_p++ = char('0' + value);
        else if (quint64(value) <= 0xffffffffu) // and most others a count or a time of 32 bits
            m_p = engine::putDecimal32(m_p, quint32(value));
        else
            m_p = engine::putDecimal(m_p, value);
    }
    template<size_t N, class Enum, size_t M>
    void name(const char (&key)[N], const char *const (&)[M], Enum value, Scope scope)
    {
        if (!wanted(scope))
            return;
        putKey(key, "\":\"");
        // namesKnown() checked the value; the slot holds the closing quote.
        const NameSlot &slot = slotsOf(value)[size_t(value)];
        std::memcpy(m_p, slot.text, NameSlotWidth);
        m_p += slot.size;
    }
    // A text composed from the event's numbers (digits and ASCII letters: never escaped), or
    // the one it was given.
    template<size_t N>
    void text(const char (&key)[N], const TraceEvent &e, Text which, Scope scope)
    {
        if (!wanted(scope))
            return;
        putKey(key, "\":\"");
        const quint8 c = e.composed;
        if (which == Text::Path && (c & ComposedPath)) {
            m_p[0] = 'o';
            m_p[1] = 'p';
            std::memcpy(m_p + 2, opText(e.op), 16);
            m_p = engine::putAttemptTail(m_p + 2 + m_memo.opSize, e.sub, e.business, e.wrapper, e.transport);
        }
        else if (which == Text::RequestId && (c & ComposedRequestId))
            putComposedHex("req-", 0, e.requestNumber); // engine::hex(.., 8)
        else if (which == Text::Key && (c & ComposedKey)) {
            if (e.keyNumber != 0) // engine::hex(.., 10): the key's low 40 bits
                putComposedHex(c & ComposedToken ? "tok-" : "key-", 2, e.keyNumber);
        }
        else if (const TraceTexts *texts = e.texts())
            putString(storedText(*texts, which));
        *m_p++ = '"';
    }
    // The detail as stored, or composed from the typed fields straight into the line.
    template<size_t N>
    void detail(const char (&key)[N], const TraceEvent &e, Scope scope)
    {
        if (!wanted(scope))
            return;
        putKey(key, "\":\"");
        if (e.detailSource != DetailSource::Typed) {
            if (const TraceTexts *texts = e.texts())
                putString(texts->detail);
        } else {
            DetailBytes bytes{m_p};
            bytes.opText = opText(e.op);
            bytes.opSize = m_memo.opSize;
            m_p = composeDetail(bytes, e);
            m_plain &= bytes.plain;
        }
        *m_p++ = '"';
    }
    void close()
    {
        *m_line = '{'; // the first key's comma
        m_p[0] = '}';
        m_p[1] = '\n';
        m_p += 2;
    }

private:
    static constexpr bool wanted(Scope scope) { return Full || scope == Scope::Original; }
    // A string of printable ASCII other than '"' and '\\' is written as is by every JSON writer.
    void putString(const QString &value)
    {
        const char16_t *u = reinterpret_cast<const char16_t *>(value.constData());
        const qsizetype n = value.size();
        unsigned bad = 0;
        for (qsizetype i = 0; i < n; ++i) {
            // Branch-free (the loop vectorises): one unsigned compare for below 0x20 and from 0x7f on.
            const char16_t c = u[i];
            bad |= unsigned(char16_t(c - 0x20) >= 0x5f) | unsigned(c == u'"') | unsigned(c == u'\\');
            m_p[i] = char(c);
        }
        m_p += n;
        m_plain &= bad == 0;
    }
    // `prefix`, then the low 32 + 4 * high bits of v in hexadecimal (high: 0 or 2 digits more).
    void putComposedHex(const char (&prefix)[5], int high, quint64 v)
    {
        std::memcpy(m_p, prefix, 4);
        m_p += 4;
        if (high) {
            std::memcpy(m_p, engine::digitPairs.hex + 2 * ((v >> 32) & 0xff), 2);
            m_p += 2;
        }
        engine::putHexWord(m_p, quint32(v));
        m_p += 8;
    }
    // The op in decimal, written once per line (the op field, the path and the detail's
    // ORD-0007 use it); 16 bytes readable.
    const char *opText(int op)
    {
        if (m_memo.opSize == 0)
            m_memo.opSize = quint8((op >= 0 ? engine::putDecimal32(m_memo.op, quint32(op)) : engine::putDecimal(m_memo.op, op)) - m_memo.op);
        return m_memo.op;
    }
    // A number the line before may have written: its text again, or the new one kept.
    void putSame(NumberText &memo, qint64 value)
    {
        if (memo.size == 0 || memo.value != value) {
            memo.value = value;
            memo.size = quint8(engine::putDecimal(memo.text, value) - memo.text);
        }
        std::memcpy(m_p, memo.text, sizeof memo.text);
        m_p += memo.size;
    }
    // A number that is usually one more than the line before: its text counted up in place.
    void putNext(NumberText &memo, qint64 value)
    {
        if (memo.size != 0 && memo.value > 0 && value == memo.value + 1) {
            memo.value = value;
            char *d = memo.text + memo.size - 1;
            while (*d == '9' && d > memo.text)
                *d-- = '0';
            if (*d != '9') {
                ++*d;
            } else { // 9..9 + 1: one digit more
                *d = '1';
                memo.text[memo.size++] = '0';
            }
        } else if (memo.size == 0 || memo.value != value) {
            memo.value = value;
            memo.size = quint8(engine::putDecimal(memo.text, value) - memo.text);
        }
        std::memcpy(m_p, memo.text, sizeof memo.text);
        m_p += memo.size;
    }
    // `,"key":` (and the opening quote of a string): constant bytes at constant offsets.
    template<size_t N, size_t S>
    void putKey(const char (&key)[N], const char (&suffix)[S])
    {
        m_p[0] = ',';
        m_p[1] = '"';
        std::memcpy(m_p + 2, key, N - 1);
        std::memcpy(m_p + 1 + N, suffix, S - 1);
        m_p += N + S;
    }
    char *m_line;
    char *m_p;
    LineMemo &m_memo;
    bool m_plain = true;
};

// The most bytes a line can take apart from its given strings: keys, punctuation, 17 numbers of
// at most 20 characters, 6 names (each copied as its whole slot of NameSlotWidth bytes) and the
// composed path, request ID and key (engine::PathBound, 12 and 14 bytes).
constexpr qsizetype LineOverhead = 1024 + engine::PathBound + 32;

bool namesKnown(const TraceEvent &e)
{
    return size_t(e.lane) < std::size(LaneNames) && size_t(e.kind) < std::size(KindNames)
        && size_t(e.method) < std::size(MethodNames) && size_t(e.phase) < std::size(PhaseNames)
        && size_t(e.cause) < std::size(CauseNames) && size_t(e.outcome) < std::size(OutcomeNames);
}

// The most bytes writeLine may write for `e`.
constexpr qsizetype TypedLineBound = LineOverhead + DetailBytes::DetailBound;

qsizetype lineBound(const TraceEvent &e)
{
    const TraceTexts *texts = e.texts();
    if (!texts)
        return e.detailSource == DetailSource::Typed ? TypedLineBound : LineOverhead; // an engine event
    const qsizetype ref = texts->reference.size();
    qsizetype bound = LineOverhead + (e.detailSource == DetailSource::Typed ? DetailBytes::DetailBound + ref : 0);
    bound += texts->path.size() + texts->requestId.size() + texts->key.size() + texts->detail.size() + ref;
    return bound;
}

template<bool Full>
char *writeLineAs(char *p, const TraceEvent &e, LineMemo &memo)
{
    LineWriter<Full> w(p, memo);
    visitFields(w, e);
    if (!w.plain())
        return nullptr;
    w.close();
    return w.end();
}

// Writes one event's line at `p`, where lineBound(e) bytes are free; `full` adds the typed
// fields; `memo` holds what the writer's previous lines wrote (any order of events is right, and
// the line after it is cheaper). Returns the line's end, or null where Qt's writer must write it
// (escapes, non-ASCII text, a name out of range): byte for byte what
// QJsonDocument(e.toJson()).toJson(Compact) writes.
char *writeLine(char *p, const TraceEvent &e, bool full, LineMemo &memo)
{
    if (!namesKnown(e))
        return nullptr;
    return full ? writeLineAs<true>(p, e, memo) : writeLineAs<false>(p, e, memo);
}

QByteArray qtLine(const TraceEvent &e, bool full)
{
    return QJsonDocument(jsonOf(e, full)).toJson(QJsonDocument::Compact) + '\n';
}

void appendLine(QByteArray &out, const TraceEvent &e, bool full, LineMemo &memo)
{
    const qsizetype start = out.size();
    const qsizetype bound = lineBound(e);
    if (out.capacity() < start + bound)
        out.reserve(std::max(start + bound, 2 * out.capacity()));
    out.resize(start + bound);
    if (const char *end = writeLine(out.data() + start, e, full, memo)) {
        out.resize(end - out.constData());
        return;
    }
    out.resize(start);
    out += qtLine(e, full);
}

QByteArray sha256(const Trace &events, bool full)
{
    QCryptographicHash sha(QCryptographicHash::Sha256);
    QByteArray line;
    LineMemo memo;
    for (const TraceEvent &e : events) {
        line.resize(0);
        appendLine(line, e, full, memo);
        sha.addData(line);
    }
    return sha.result().toHex();
}

} // namespace

void appendJsonl(QByteArray &out, const TraceEvent &e)
{
    LineMemo memo;
    appendLine(out, e, true, memo);
}

QByteArray toJsonl(const Trace &events)
{
    QByteArray out;
    LineMemo memo;
    for (const TraceEvent &e : events)
        appendLine(out, e, true, memo);
    return out;
}

QByteArray hash(const Trace &events)
{
    return sha256(events, false);
}

QByteArray fullHash(const Trace &events)
{
    return sha256(events, true);
}

bool samePath(const TraceEvent &a, const TraceEvent &b)
{
    if (a.composed & b.composed & ComposedPath)
        return a.op == b.op && a.sub == b.sub && a.business == b.business && a.wrapper == b.wrapper && a.transport == b.transport;
    return a.path() == b.path();
}

QString composedDetail(const TraceEvent &e)
{
    char buffer[DetailBytes::DetailBound];
    DetailBytes bytes{buffer};
    bytes.refMarker = true;
    const char *end = composeDetail(bytes, e);
    const char *marker = static_cast<const char *>(std::memchr(buffer, DetailBytes::RefMarker, size_t(end - buffer)));
    if (!marker)
        return QString::fromLatin1(buffer, end - buffer);
    return QString::fromLatin1(buffer, marker - buffer) + e.ref() + QString::fromLatin1(marker + 1, end - marker - 1);
}

QString save(const Trace &events, const QString &fileName)
{
    TraceWriter writer;
    const QString error = writer.open(fileName);
    if (!error.isEmpty())
        return error;
    for (const TraceEvent &e : events)
        writer.write(e);
    return writer.finish();
}

namespace {

// The sentences of the server's events (RequestArrived .. ConnectionReset); empty for others.
QString narrateServer(const TraceEvent &e, const QString &ref)
{
    switch (e.kind) {
    case EventKind::RequestArrived:
        if (e.key().isEmpty())
            return QCoreApplication::translate("trace", "The server received the request, without an idempotency key.");
        return QCoreApplication::translate("trace", "The server received the request with key %1.").arg(e.key());
    case EventKind::Queued:
        return QCoreApplication::translate("trace", "All processing slots are busy: the request waits in the queue.");
    case EventKind::Rejected:
        switch (e.status) {
        case 400:
            return QCoreApplication::translate("trace", "Rejected with 400: the server requires an Idempotency-Key header.");
        case 409:
            return QCoreApplication::translate("trace", "Rejected with 409: a request with the same key is still being processed.");
        case 422:
            return QCoreApplication::translate("trace", "Rejected with 422: the same key came back with a different payload.");
        case 429:
            return QCoreApplication::translate("trace", "Throttled with 429: the server asks the client to slow down and wait (Retry-After).");
        case 503:
            return QCoreApplication::translate("trace", "Rejected with 503: every slot and the whole queue are full.");
        default:
            return QCoreApplication::translate("trace", "The server rejected the request with status %1 before processing it.").arg(e.status);
        }
    case EventKind::ProcessingStarted:
        return QCoreApplication::translate("trace", "The server starts processing the order.");
    case EventKind::KeyReserved:
        return QCoreApplication::translate("trace", "The server reserved key %1 as in flight: a concurrent copy will get 409.").arg(e.key());
    case EventKind::KeyExpired:
        return QCoreApplication::translate("trace", "Key %1 expired: the server has forgotten it, so a late retry looks brand new.").arg(e.key());
    case EventKind::Committed:
        return QCoreApplication::translate("trace", "The server committed record #%1 for %2.").arg(e.record).arg(ref);
    case EventKind::Replayed:
        // A real service's answer (the proxy, a check report) says whether it sent the header.
        if (e.outcome == TraceOutcome::Response)
            return QCoreApplication::translate("trace", "Same key seen before: the server answers with the order it created before, "
                      "without an Idempotent-Replayed header, instead of creating a new one.");
        return QCoreApplication::translate("trace", "Same key seen before: the server replays the stored response (Idempotent-Replayed: true) "
                  "instead of creating a new order.");
    case EventKind::ServerError:
        if (e.phase == CommitPhase::AfterCommit)
            return QCoreApplication::translate("trace", "The server failed with %1 after committing: the order exists although the client sees an error.")
                .arg(e.status);
        if (e.phase == CommitPhase::BeforeCommit)
            return QCoreApplication::translate("trace", "The server failed with %1 before committing: nothing was written.").arg(e.status);
        return QCoreApplication::translate("trace", "The server failed with %1.").arg(e.status);
    case EventKind::ResponseSent:
        return QCoreApplication::translate("trace", "The server sends its answer: %1.").arg(e.status);
    case EventKind::ResponseLost:
        return QCoreApplication::translate("trace", "The server committed, but the response was lost: the client will only see a timeout.");
    case EventKind::ConnectionReset:
        return QCoreApplication::translate("trace", "The connection was reset after the commit: the client sees an error, yet the order exists.");
    default:
        return QString();
    }
}

// BreakerChanged: the state it moved to, and what moved it.
QString narrateBreaker(const TraceEvent &e)
{
    switch (e.cause) {
    case TraceCause::BreakerOpened:
        return QCoreApplication::translate("trace", "The circuit breaker opens: every call fails at once for %1; answers to calls sent "
                  "earlier neither close it nor keep it open longer.").arg(waitWords(e.arg - e.t));
    case TraceCause::BreakerHalfOpen:
        return QCoreApplication::translate("trace", "The open time is over: the circuit breaker is half-open and lets %1 trial "
                  "call(s) through; their outcome closes it or opens it again.").arg(e.arg2);
    case TraceCause::BreakerClosed:
        return QCoreApplication::translate("trace", "The trial calls succeeded: the circuit breaker closes and calls flow again.");
    default:
        return QCoreApplication::translate("trace", "The circuit breaker changes state.");
    }
}

} // namespace

QString narrate(const TraceEvent &e)
{
    // The reference the client wrote where a real exchange carries one (Watch, the proxy, a check).
    const QString ref = e.ref().isEmpty() ? orderRef(e.op) : e.ref();
    const QString server = narrateServer(e, ref);
    if (!server.isEmpty())
        return server;
    switch (e.kind) {
    case EventKind::OpStart:
        if (e.sub > 1)
            return QCoreApplication::translate("trace", "A second submission of %1 starts (a double click or a second tab).").arg(ref);
        return QCoreApplication::translate("trace", "Order %1 starts: the client wants it created exactly once.").arg(ref);
    case EventKind::KeyMinted:
        switch (e.cause) {
        case TraceCause::PerOperation:
            return QCoreApplication::translate("trace", "The client minted idempotency key %1, one for the whole operation.").arg(e.key());
        case TraceCause::PerBusinessAttempt:
            return QCoreApplication::translate("trace", "The client minted idempotency key %1, a new one for each business attempt.").arg(e.key());
        case TraceCause::PerWrapperAttempt:
            return QCoreApplication::translate("trace", "The client minted idempotency key %1, a new one for each @retry attempt.").arg(e.key());
        default:
            return QCoreApplication::translate("trace", "The client minted idempotency key %1.").arg(e.key());
        }
    case EventKind::TokenIssued:
        return QCoreApplication::translate("trace", "The server issued the single-use token %1 for %2.").arg(e.key(), ref);
    case EventKind::BusinessAttempt:
        return QCoreApplication::translate("trace", "The business loop starts attempt %1 for %2.").arg(qMax(1, int(e.business))).arg(ref);
    case EventKind::WrapperAttempt:
        return QCoreApplication::translate("trace", "The @retry wrapper starts attempt %1.").arg(qMax(1, int(e.wrapper)));
    case EventKind::TransportAttempt:
        if (e.key().isEmpty())
            return QCoreApplication::translate("trace", "The transport sends POST /orders (HTTP attempt %1) without an idempotency key.").arg(qMax(1, int(e.transport)));
        return QCoreApplication::translate("trace", "The transport sends POST /orders (HTTP attempt %1) with key %2.").arg(qMax(1, int(e.transport))).arg(e.key());
    case EventKind::QuerySent:
        return QCoreApplication::translate("trace", "Before retrying, the client asks whether %1 already exists (GET /orders?ref=%1).").arg(ref);
    case EventKind::QueryResult:
        if (e.status == 200)
            return QCoreApplication::translate("trace", "%1 already exists: the client does not send it again.").arg(ref);
        if (e.status == 404)
            return QCoreApplication::translate("trace", "The server has no %1 yet: resending is safe.").arg(ref);
        return QCoreApplication::translate("trace", "The status query answered %1: the client still does not know.").arg(e.status);
    case EventKind::ConnectFailed:
        return QCoreApplication::translate("trace", "The connection was refused before anything was sent: this one is safe to retry.");
    case EventKind::CircuitOpen:
        return QCoreApplication::translate("trace", "The circuit breaker is open: the attempt fails at once without reaching the server.");
    case EventKind::RequestLost:
        return QCoreApplication::translate("trace", "The request was lost on the way: the server never saw it.");
    case EventKind::RequestDelayed:
        return QCoreApplication::translate("trace", "A latency spike holds the request: it will reach the server after the client has given up.");
    case EventKind::ResponseReceived:
        if (e.status >= 200 && e.status < 300)
            return QCoreApplication::translate("trace", "The client received %1: the order is confirmed.").arg(e.status);
        return QCoreApplication::translate("trace", "The client received status %1.").arg(e.status);
    case EventKind::LateResponse:
        return QCoreApplication::translate("trace", "A response arrived after the client's timeout: nobody is listening any more, so it is ignored.");
    case EventKind::Timeout:
        return QCoreApplication::translate("trace", "No answer within the timeout: the client cannot know whether the order was created.");
    case EventKind::RetryScheduled: {
        const QString cause = outcomeWords(e);
        if (cause.isEmpty())
            return QCoreApplication::translate("trace", "The %1 layer retries after %2.").arg(laneLabel(e.lane), waitWords(e.arg));
        return QCoreApplication::translate("trace", "The %1 layer retries after %2 (last outcome: %3).").arg(laneLabel(e.lane), waitWords(e.arg), cause);
    }
    case EventKind::GaveUp: {
        const QString why = gaveUpWhy(e);
        if (why.isEmpty())
            return QCoreApplication::translate("trace", "The %1 layer gives up.").arg(laneLabel(e.lane));
        return QCoreApplication::translate("trace", "The %1 layer gives up: %2.").arg(laneLabel(e.lane), why);
    }
    case EventKind::BudgetExhausted:
        return QCoreApplication::translate("trace", "The retry budget is empty: the %1 layer may not retry, which keeps a retry storm from growing.")
            .arg(laneLabel(e.lane));
    case EventKind::OpSucceeded:
        return QCoreApplication::translate("trace", "%1 succeeded as far as the client can tell.").arg(ref);
    case EventKind::OpFailed:
        return QCoreApplication::translate("trace", "The client reports %1 as failed; if a record exists anyway, it is an orphan.").arg(ref);
    case EventKind::ReconcileFlagged:
        return QCoreApplication::translate("trace", "Reconciliation flagged record #%1 as an extra copy of %2.").arg(e.record).arg(ref);
    case EventKind::ReconcileVoided:
        return QCoreApplication::translate("trace", "Reconciliation voided record #%1, an extra copy of %2.").arg(e.record).arg(ref);
    case EventKind::ServerRestarted: {
        const QString keys = keysWords(e);
        if (e.record > 0)
            return QCoreApplication::translate("trace", "The server committed record #%1, then restarted before answering: the client will only see a "
                      "timeout, and %2.").arg(e.record).arg(keys);
        return QCoreApplication::translate("trace", "The server restarted and dropped this request unanswered; %1.").arg(keys);
    }
    case EventKind::RowRead:
        if (e.cause != TraceCause::RowVersion)
            return QCoreApplication::translate("trace", "The client reads the row's current version before writing.");
        return QCoreApplication::translate("trace", "The client reads version %2 of row %1 before writing.").arg(e.arg).arg(e.arg2);
    case EventKind::VersionConflict:
        if (e.cause != TraceCause::StaleVersion)
            return QCoreApplication::translate("trace", "Another client wrote the row since this one read it: 409, and nothing is written.");
        return QCoreApplication::translate("trace", "Another client wrote row %1 since this one read it (it read version %2, the row is now at %3): 409, "
                  "and nothing is written.").arg(e.arg).arg(e.arg2).arg(e.arg3);
    case EventKind::BreakerChanged:
        return narrateBreaker(e);
    default:
        return QString();
    }
}

} // namespace trace

// ------------------------------------------------------------- TraceWriter

namespace {

// Written in pieces of this size: a big trace never sits in memory as one array.
constexpr qsizetype WriteChunk = 1 << 16;

} // namespace

struct TraceWriter::Private
{
    QString fileName;
    std::unique_ptr<QSaveFile> atomic; // regular files
    QFile direct;                      // FIFOs, devices, standard output
    QIODevice *device = nullptr;
    QByteArray buffer; // sized once: lines are written at `used`, with no resize per line
    qsizetype used = 0;
    trace::LineMemo memo;
    QString error;
};

TraceWriter::TraceWriter()
    : d(std::make_unique<Private>())
{
}

TraceWriter::~TraceWriter() = default; // QSaveFile without commit() leaves the old file alone

bool TraceWriter::isStandardOutput(const QString &fileName)
{
    if (fileName == QLatin1String("-"))
        return true;
    struct stat path = {};
    struct stat out = {};
    return ::stat(QFile::encodeName(fileName).constData(), &path) == 0 && ::fstat(STDOUT_FILENO, &out) == 0
        && path.st_dev == out.st_dev && path.st_ino == out.st_ino;
}

QString TraceWriter::open(const QString &fileName)
{
    d->fileName = fileName;
    d->error.clear();
    d->buffer.resize(2 * WriteChunk);
    d->used = 0;
    struct stat st = {};
    if (isStandardOutput(fileName)) {
        std::fflush(stdout);
        if (!d->direct.open(STDOUT_FILENO, QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle))
            fail(d->direct.errorString());
        else
            d->device = &d->direct;
    } else if (::stat(QFile::encodeName(fileName).constData(), &st) == 0 && !S_ISREG(st.st_mode)
               && !S_ISDIR(st.st_mode)) {
        // ExistingOnly: never create a regular file in place of a device that just vanished.
        d->direct.setFileName(fileName);
        if (!d->direct.open(QIODevice::WriteOnly | QIODevice::Unbuffered | QIODevice::ExistingOnly))
            fail(d->direct.errorString());
        else
            d->device = &d->direct;
    } else {
        d->atomic = std::make_unique<QSaveFile>(fileName);
        if (!d->atomic->open(QIODevice::WriteOnly))
            fail(d->atomic->errorString());
        else
            d->device = d->atomic.get();
    }
    return d->error;
}

void TraceWriter::write(const TraceEvent &e)
{
    if (!d->device)
        return;
    // Room for `n` more bytes at `used`: flushes first when they do not fit. False after an error.
    const auto room = [this](qsizetype n) {
        if (d->used + n <= d->buffer.size())
            return true;
        if (!flush())
            return false;
        if (n > d->buffer.size())
            d->buffer.resize(n);
        return true;
    };
    if (!room(trace::lineBound(e)))
        return;
    char *const at = d->buffer.data() + d->used;
    if (const char *end = trace::writeLine(at, e, true, d->memo)) {
        d->used += end - at;
    } else {
        const QByteArray line = trace::qtLine(e, true);
        if (!room(line.size()))
            return;
        std::memcpy(d->buffer.data() + d->used, line.constData(), size_t(line.size()));
        d->used += line.size();
    }
    if (d->used >= WriteChunk)
        flush();
}

bool TraceWriter::ok() const
{
    return d->error.isEmpty();
}

bool TraceWriter::flush()
{
    if (!d->device)
        return false;
    if (d->used > 0 && d->device->write(d->buffer.constData(), d->used) != d->used) {
        fail(d->device->errorString());
        return false;
    }
    d->used = 0;
    return true;
}

void TraceWriter::fail(const QString &why)
{
    if (d->error.isEmpty())
        d->error = QCoreApplication::translate("trace", "cannot write trace file \"%1\": %2").arg(d->fileName, why);
    if (d->atomic && d->device)
        d->atomic->cancelWriting();
    d->device = nullptr; // drop the rest
}

QString TraceWriter::finish()
{
    if (d->device && flush()) {
        if (d->atomic) {
            if (!d->atomic->commit())
                fail(d->atomic->errorString());
        } else if (!d->direct.flush()) {
            fail(d->direct.errorString());
        }
        if (d->direct.isOpen())
            d->direct.close();
    }
    d->device = nullptr;
    d->buffer = QByteArray();
    d->used = 0;
    return d->error;
}

} // namespace retrylab
