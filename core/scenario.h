#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace retrylab {

// Backoff shapes shared by every retry layer.
// Exponential waits initialMs x multiplier^(n-1) for retry n (urllib3, tenacity); AwsExponential
// waits initialMs x multiplier^n, the indexing of the AWS backoff-and-jitter study (expo(n) =
// min(cap, base x 2^n), n from 1).
enum class BackoffKind { Constant, Linear, Exponential, AwsExponential };
// Proportional: the wait times 1 + U(-p, +p), p = jitterPercent / 100.
// AwsDecorrelated: min(cap, U(base, 3 x previous wait)), the "decorrelated jitter" of the AWS
// Architecture Blog's backoff study (aws-arch-backoff-simulator); Polly's decorrelated jitter is another formula.
enum class Jitter { None, Full, Equal, AwsDecorrelated, Proportional };
enum class KeyPlacement { None, PerOperation, PerBusinessAttempt, PerWrapperAttempt };
enum class IdempotencyMode { Off, Naive, Atomic, Token };
enum class WrapperRetryOn { Any, Transient };
enum class ReconcileAction { Flag, Void };
// What the token server does with a token whose order is already committed.
enum class TokenReuse { Reject, Replay };
// Where the idempotency keys live: a durable table survives a server restart, memory does not.
enum class KeyStore { Durable, Memory };
// What the business loop does when a status query gets no answer at all.
enum class UnknownQuery { Fail, Resend };
// server.model occ: the layer that does the read-modify-write, so re-reads the row's version on
// each of its attempts. The layers below it resend the same conditional write, old version and all
// (urllib3 resends the same request), and so meet a conflict where the re-reading layer would apply
// a committed write twice.
enum class OccRead { Business, Wrapper };
// What a server restart does to the connections it holds (queued, processing, committed but not
// answered): a crashed process's sockets are closed by the kernel, so each client sees a reset at
// once (urllib3: a read error); or, a server that hangs before dying, they stay open and silent
// until each client's timeout.
enum class RestartInFlight { Reset, Hang };

// Faults that a script entry can force on one HTTP attempt.
enum class FaultKind {
    ConnectFailure,
    RequestLost,
    ResponseLost,
    ResetAfterCommit,
    LatencySpike,
    Server5xxBeforeCommit,
    Server5xxAfterCommit,
    Throttle429,
    ServerRestart, // the server restarts right after this attempt commits (its response is never sent)
};

// Wait before retry n (n = 1 for the first retry) of a business or wrapper layer.
struct BackoffConfig
{
    BackoffKind kind = BackoffKind::Exponential;
    int initialMs = 100;
    double multiplier = 2.0;
    int maxMs = 1000;
    Jitter jitter = Jitter::None;
    // The shortest wait, applied after the cap and the jitter (tenacity's `min`); full jitter
    // draws from [minMs, wait] as tenacity's wait_random_exponential does.
    int minMs = 0;
    int jitterPercent = 10; // jitter "proportional": the wait varies by up to this many percent either way
};

// A hand-written loop (business) or a @retry decorator (wrapper).
struct LayerConfig
{
    bool enabled = true;
    int maxAttempts = 3; // 0 = unlimited (tenacity stop_never), bounded by deadlineMs
    BackoffConfig backoff;
    int deadlineMs = 0; // 0 = no overall deadline for this layer

    // The shortest wait the backoff can give before any retry, in milliseconds.
    int minimumWaitMs() const;
    // maxAttempts, or for unlimited the most attempts the deadline lets through:
    // 1 + deadlineMs / minimumWaitMs (each retry waits at least that long).
    int effectiveMaxAttempts() const;
};

// urllib3 Retry mounted on the session, field for field. A counter of -1 is urllib3's None
// (unlimited); an empty allowedMethods is allowed_methods=None (every method, POST included).
struct TransportConfig
{
    static constexpr int Unlimited = -1;
    bool enabled = false;
    int total = 3;
    int connect = Unlimited;
    int read = Unlimited;
    int status = Unlimited;
    int other = Unlimited;
    double backoffFactor = 0.5;
    double backoffMaxS = 120.0;  // backoff_max
    double backoffJitterS = 0.0; // backoff_jitter: U(0, jitter) seconds added to the backoff
    QList<int> statusForcelist{500, 502, 503, 504};
    QStringList allowedMethods{QStringLiteral("GET"), QStringLiteral("HEAD"), QStringLiteral("PUT"),
                               QStringLiteral("DELETE"), QStringLiteral("OPTIONS"), QStringLiteral("TRACE")};
    bool respectRetryAfter = true;
    int retryAfterMaxS = 21600; // retry_after_max
    bool raiseOnStatus = true;  // raise_on_status

    // Retries one request can make before some counter runs out; -1 when no counter bounds it.
    int worstCaseRetries() const;
};

// Whose tokens a retry spends: each client's own bucket, or one bucket shared by every client
// (a server-side or fleet-wide budget).
enum class BudgetScope { PerClient, Global };

// Which design of retry budget (client.retryBudget.kind), each as its peer states it:
// TokenPerRetry: a token bucket where each retry costs 1 token and each success (2xx) deposits
//   `ratio`, capped at maxTokens (RetryLab's first budget; no peer uses exactly this).
// GrpcThrottling: gRPC retry throttling (grpc/proposal A6-client-retries.md, "Throttling Retry
//   Attempts"): token_count starts at maxTokens, every failed attempt takes 1, every success adds
//   `ratio` (tokenRatio); a retry is allowed only while token_count > maxTokens / 2. Retries cost nothing.
// Percent: Finagle's RetryBudget (finagle-core RetryBudget.apply): each request deposits, each retry
//   withdraws; within a sliding `ttlS` window about percentCanRetry % of the requests may be retried,
//   on top of a reserve of minRetriesPerSec x ttlS retries (Envoy's retry_budget is the same idea
//   over concurrent requests).
enum class BudgetKind { TokenPerRetry, GrpcThrottling, Percent };

// A retry budget: which design and its numbers.
struct RetryBudgetConfig
{
    bool enabled = false;
    double ratio = 0.1;
    double maxTokens = 10.0;
    BudgetScope scope = BudgetScope::PerClient;
    double initialTokens = -1; // tokens at t = 0; -1 (JSON null, the default) = full (maxTokens)
    double startTokens() const { return initialTokens < 0 ? maxTokens : std::min(initialTokens, maxTokens); }
    BudgetKind kind = BudgetKind::TokenPerRetry;
    double percentCanRetry = 20; // Percent: Finagle's default 0.2, as a percentage
    int minRetriesPerSec = 10;   // Percent: Finagle's default reserve
    int ttlS = 10;               // Percent: Finagle's default ttl (1 to 60 s)
};

// Consecutive: opens after failureThreshold failures in a row. FailureRate: opens when, of the last
// `window` recorded outcomes (the window full), at least failureRatePercent percent failed.
enum class BreakerMode { Consecutive, FailureRate };

// Fails attempts fast when open; only time moves it to half-open, where it admits halfOpenCalls
// probes whose outcomes close or re-open it (Polly's CircuitStateController, resilience4j's
// CircuitBreakerStateMachine).
struct CircuitBreakerConfig
{
    bool enabled = false;
    int failureThreshold = 5;
    int openMs = 5000;
    BreakerMode mode = BreakerMode::Consecutive;
    int window = 20;
    int failureRatePercent = 50;
    bool retriesOnly = false; // open: refuse retries only, let every operation's first try through
    // Calls admitted while half-open; 0 (the default) = the mode's peer default:
    // consecutive 1 (Polly's single probe), failureRate 10 (resilience4j's
    // permittedNumberOfCallsInHalfOpenState).
    int halfOpenCalls = 0;
    int permittedHalfOpenCalls() const
    {
        return halfOpenCalls > 0 ? halfOpenCalls : (mode == BreakerMode::Consecutive ? 1 : 10);
    }
};

struct ClientConfig
{
    KeyPlacement keyPlacement = KeyPlacement::None;
    bool requestId = true;
    bool queryBeforeRetry = false;
    UnknownQuery onUnknownQuery = UnknownQuery::Fail;
    bool mutatePayloadOnRetry = false;
    bool businessRespectRetryAfter = true;
    WrapperRetryOn wrapperRetryOn = WrapperRetryOn::Any;
    OccRead occRead = OccRead::Business; // server.model occ: which layer reads the row's version
    LayerConfig business{true, 3, {BackoffKind::Exponential, 1000, 2.0, 8000, Jitter::Full}, 0};
    LayerConfig wrapper{true, 3, {BackoffKind::Exponential, 100, 2.0, 1000, Jitter::None}, 0};
    TransportConfig transport;
    int timeoutMs = 3000;
    int connectFailMs = 5; // how soon a refused connection is reported
    RetryBudgetConfig retryBudget;
    CircuitBreakerConfig circuitBreaker;
};

// A time drawn per request, in milliseconds: uniform base + U(0, jitter), or normal |N(mean, sd)|
// (the AWS backoff-and-jitter simulator's network: the absolute value of a normal draw).
enum class DistributionShape { Uniform, Normal };
struct Distribution
{
    int base = 20;
    int jitter = 10;
    DistributionShape shape = DistributionShape::Uniform; // JSON "distribution": "uniform" | "normal"
    double mean = 10; // normal only
    double sd = 2;    // normal only
};

// The requests a script entry addresses: the order's POST attempts, or its status queries
// (GET /orders?ref=, whose path is bN/w1/tQ: the business attempt it precedes and the query's
// own HTTP attempt, transport retries included).
enum class ScriptMethod { Post, Get };

struct ScriptEntry
{
    int op = 0; // 0 = any ("*")
    QString attempt = QStringLiteral("*/*/*");
    FaultKind fault = FaultKind::ResponseLost;
    ScriptMethod method = ScriptMethod::Post;
    bool operator==(const ScriptEntry &o) const
    {
        return op == o.op && attempt == o.attempt && fault == o.fault && method == o.method;
    }
};

struct NetworkConfig
{
    Distribution latencyMs{20, 10};
    double connectFailure = 0;
    double requestLoss = 0;
    double responseLoss = 0;
    double resetAfterCommit = 0;
    double latencySpike = 0;
    int spikeMs = 5000; // extra one-way delay of a spiked request
    QList<ScriptEntry> script;
};

struct IdempotencyConfig
{
    IdempotencyMode mode = IdempotencyMode::Off;
    bool requireKey = false;
    int ttlS = 86400;
    bool fingerprint = true;
    bool storeErrors = true;
    TokenReuse tokenReuse = TokenReuse::Reject; // token mode: a used token gets 409, or replays
    KeyStore store = KeyStore::Durable;
};

enum class ServerModel { Orders, Occ };

struct ServerConfig
{
    Distribution processingMs{50, 20};
    int capacity = 0; // concurrent requests; 0 = unlimited
    int queue = 0;    // waiting requests when all slots are busy
    int errorStatus = 503;
    double error5xxBeforeCommit = 0;
    double error5xxAfterCommit = 0;
    double throttle429 = 0;
    int retryAfterS = 1;
    QList<int> restartsAtS; // "restarts": [{"atS": 12}, ...]: scheduled restarts, in seconds
    int restartDownMs = 2000; // how long a restart keeps the server down
    RestartInFlight restartInFlight = RestartInFlight::Reset;
    IdempotencyConfig idempotency;
    // orders: POST /orders creates an order (the idempotency lessons). occ: optimistic concurrency
    // as in the AWS backoff simulator: each attempt reads a row's version, then writes with it; the
    // write commits only if the version is unchanged, else 409 (a version conflict).
    ServerModel model = ServerModel::Orders;
    int occRows = 1; // "occ": {"rows": N}; each operation picks one row uniformly
    // Service time grows with concurrency: each request processing already adds this much to the
    // processing time of one that starts (the root of metastable failures).
    double latencyPerInFlightMs = 0;
};

// open: operations arrive on a schedule whatever the server does (today's model). closed: each of
// `clients` clients does opsPerClient operations one after another, thinkTimeMs apart, so a slow
// server slows the arrivals.
enum class WorkloadMode { Open, Closed };
// open mode: arrivals evenly spaced, or a Poisson process with the same mean rate.
enum class Arrivals { Fixed, Poisson };

// open mode: from fromS to toS, operations arrive at ratePerS (instead of interArrivalMs / clients).
struct LoadPhase
{
    double fromS = 0;
    double toS = 10;
    double ratePerS = 10;
    bool operator==(const LoadPhase &o) const { return fromS == o.fromS && toS == o.toS && ratePerS == o.ratePerS; }
};

struct WorkloadConfig
{
    int orders = 20; // open mode without phases: the operations (phases define their own)
    int interArrivalMs = 500;
    int clients = 1;
    double doubleSubmitRate = 0;
    int doubleSubmitDelayMs = 5;
    WorkloadMode mode = WorkloadMode::Open;
    Arrivals arrivals = Arrivals::Fixed;
    QList<LoadPhase> phases; // open mode; empty = one rate for the whole run
    int opsPerClient = 1;    // closed mode
    int thinkTimeMs = 0;     // closed mode: between an operation's end and the client's next one
    bool startTogether = true; // closed mode: every client at t = 0, else client i at i x interArrivalMs / clients
    // The operations of a run at most: closed clients x opsPerClient, open `orders`, or with phases
    // what they bring (fixed: each phase's ceil(length x rate); Poisson: that mean plus ten standard
    // deviations and 10, beyond which a count has a probability below 1e-20).
    int operations() const;
};

// A period in which one fault has its own probability (replacing the scenario's for that fault):
// an outage, a burst of lost responses, a latency spike lasting from fromS to toS.
struct FaultWindow
{
    double fromS = 0;
    double toS = 10;
    FaultKind fault = FaultKind::ConnectFailure; // any but serverRestart
    double probability = 1;
    bool operator==(const FaultWindow &o) const
    {
        return fromS == o.fromS && toS == o.toS && fault == o.fault && probability == o.probability;
    }
};

struct ReconciliationConfig
{
    bool enabled = false;
    int intervalS = 60;
    ReconcileAction action = ReconcileAction::Flag;
};

// One experiment: workload, client, network, server. JSON schema 1 (design section 3).
struct Scenario
{
    int schema = 1;
    QString name = QStringLiteral("custom");
    QString title;
    QString description;
    quint64 seed = 42;
    WorkloadConfig workload;
    ClientConfig client;
    NetworkConfig network;
    ServerConfig server;
    ReconciliationConfig reconciliation;
    QList<FaultWindow> windows; // top-level "windows"
    bool operator==(const Scenario &o) const;
    bool operator!=(const Scenario &o) const { return !(*this == o); }

    // Attempts per logical operation if every layer exhausts its retries.
    int worstCaseAttemptsPerOp() const;
    // "3 x 3 x 4 = 36" for the enabled layers.
    QString worstCaseFormula() const;
    // The same for people: "3 x 3 = 9", but just "3" when a single layer retries ("3 = 3" says nothing).
    QString worstCaseText() const;

    QJsonObject toJson() const;
};

// Result of parsing or validating: either a scenario or a list of errors, each
// naming the field path and the rule ("client.transport.total: expected ...").
struct ScenarioParse
{
    Scenario scenario;
    QStringList errors;
    bool ok() const { return errors.isEmpty(); }
};

namespace scenario {
// Limits on what a scenario file may hold. The field catalogue (`retrylab fields`) states the list
// and text caps with each field; a file beyond them is refused with an error naming the field.
inline constexpr int MaxScriptEntries = 1000;     // network.script
inline constexpr int MaxForcelistEntries = 64;    // client.transport.statusForcelist
inline constexpr int MaxMethodEntries = 16;       // client.transport.allowedMethods
inline constexpr int MaxRestartEntries = 100;     // server.restarts
inline constexpr int MaxPhaseEntries = 100;       // workload.phases
inline constexpr int MaxWindowEntries = 100;      // windows
inline constexpr int MaxNameChars = 100;          // name
inline constexpr int MaxTitleChars = 200;         // title
inline constexpr int MaxDescriptionChars = 10000; // description
inline constexpr qint64 MaxFileBytes = 4 * 1024 * 1024; // a scenario file, in bytes
inline constexpr int MaxNesting = 64;             // objects and arrays inside each other in a file
// Error output stays short: at most this many errors, then "and N more errors"; echoed text from
// the file is cut after MaxEchoChars characters; no spelling suggestions for longer keys.
inline constexpr int MaxReportedErrors = 20;
inline constexpr int MaxEchoChars = 60;
inline constexpr int MaxSuggestedKeyChars = 64;

// Text from outside (a file, a flag, a request) made safe to echo in a message or on a terminal:
// control characters and invisible direction marks as \uXXXX, cut after maxChars characters with
// an ellipsis (a negative maxChars: never cut). The reader's echoes and the CLI's share it.
QString printable(const QString &text, int maxChars = MaxEchoChars);

// The seed as a scenario file writes it: a number, or a decimal string beyond 2^53.
QJsonValue seedToJson(quint64 seed);

ScenarioParse fromJson(const QJsonObject &object);
ScenarioParse fromJsonBytes(const QByteArray &bytes, const QString &source = QString());
ScenarioParse load(const QString &fileName);
// Atomic write (QSaveFile). Returns an empty string on success, else the error.
QString save(const Scenario &s, const QString &fileName);

// Applies "path=value" (value parsed as JSON if it parses, else as a string) and re-validates.
ScenarioParse withSet(const Scenario &s, const QString &assignment);
// Every assignment applied, then the result validated once, so their order does not matter.
// `sources` (if given) gets, per error, the assignment it concerns (empty when none).
ScenarioParse withSets(const Scenario &s, const QStringList &assignments, QStringList *sources = nullptr);
// The same, with a path and a JSON value.
ScenarioParse withValue(const Scenario &s, const QString &path, const QJsonValue &value);
// The value at a dotted path, or undefined.
QJsonValue valueAt(const Scenario &s, const QString &path);

// Presets embedded as resources (":/scenarios/<name>.json").
QStringList presetNames();
ScenarioParse preset(const QString &name);
// A preset name or a file path.
ScenarioParse resolve(const QString &nameOrFile);

QString toString(BackoffKind);
QString toString(Jitter);
QString toString(KeyPlacement);
QString toString(IdempotencyMode);
QString toString(WrapperRetryOn);
QString toString(ReconcileAction);
QString toString(TokenReuse);
QString toString(KeyStore);
QString toString(UnknownQuery);
QString toString(OccRead);
QString toString(RestartInFlight);
QString toString(FaultKind);
QString toString(ScriptMethod);
QString toString(DistributionShape);
QString toString(BudgetScope);
QString toString(BreakerMode);
QString toString(BudgetKind);
QString toString(ServerModel);
QString toString(WorkloadMode);
QString toString(Arrivals);
} // namespace scenario

// One path of the field catalogue: what `--set path=value` and `--param path` accept.
struct FieldInfo
{
    QString path;        // dotted; "[N]" stands for any index of network.script
    QString type;        // integer, number, boolean, string, choice or list
    QString allowed;     // "0 to 20", "none, full, equal, decorrelated", ...
    bool bounded = false; // minimum and maximum apply (integer and number)
    double minimum = 0;
    double maximum = 0;
    QStringList choices; // for type choice
    QJsonValue defaultValue;
};

namespace scenario {
// Everything but name, title, description and seed, compared field by field:
// the settings that a scenario's title and description were written for.
bool sameSettings(const Scenario &a, const Scenario &b);

// Every leaf path of a scenario in file order, generated by running the validator over the
// default scenario, so the types and ranges are the ones fromJson enforces.
QList<FieldInfo> fields();
// Catalogue paths closest to an unknown path (edit distance), best first; empty when none is close.
QStringList closestFields(const QString &path, int max = 3);
} // namespace scenario

} // namespace retrylab
