#pragma once

// Installed as <retrylab/orderservicefixture.h> (RetryLab::Testing). It includes only the other
// installed headers, scenario.h and trace.h; the server, its store and its pipeline stay behind
// a pimpl.
#include "scenario.h"
#include "trace.h"

#include <QDebug>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace retrylab {

// A record the order service committed, as a test reads it.
struct FixtureRecord
{
    int id = 0;          // the record's number in the store, from 1
    QString ref;         // the business reference of the order ("ORD-0001")
    QString key;         // the Idempotency-Key it was committed with (empty: none)
    QString path;        // the attempt that committed it ("op1/b1/w1/t2")
    QString requestId;   // X-Request-ID (the server mints one when the client sends none)
    qint64 t = 0;        // microseconds since the service started
    bool duplicate = false; // not the first record of its reference
};

// A request the order service received (POST /orders, POST /order-tokens, GET /orders?ref=).
struct FixtureAttempt
{
    TraceMethod method = TraceMethod::None;
    QString ref;
    QString key;         // Idempotency-Key as sent (empty: none)
    QString path;        // "op1/b1/w1/t2": for a client without X-RetryLab-Attempt, t counts the POSTs of the ref
    QString requestId;
    qint64 t = 0;        // arrival, microseconds since the service started
    int status = 0;      // the answer the server sent (0: none, e.g. dropped by a restart)
    bool answerLost = false; // the answer was lost or the connection reset: the client never saw it
    bool committed = false;  // this attempt committed a record
    bool replayed = false;   // the stored answer was replayed (Idempotent-Replayed: true)
};

class OrderServiceFixturePrivate;

// RetryLab's live order service inside a Qt Test: start it on a free loopback port, script
// faults per attempt, point the client under test at url(), then read what the server did:
// records, duplicates, orphans, the attempts with their keys, the trace and a readable timeline.
// Runs in the thread that creates it (the test's thread): a client waiting in an event loop
// (QSignalSpy::wait, QTRY_*, QEventLoop) lets it answer.
class OrderServiceFixture
{
public:
    OrderServiceFixture();
    ~OrderServiceFixture();
    OrderServiceFixture(const OrderServiceFixture &) = delete;
    OrderServiceFixture &operator=(const OrderServiceFixture &) = delete;

    // Start from a preset ("stable-key"; see scenario::presetNames()), a scenario file, or a
    // Scenario built in code. Its network.* and server.* settings apply (idempotency mode, key
    // store, faults and their script, processing time); its client and workload are yours. A
    // running service is stopped first. False on error, with errorString() saying what was wrong.
    bool startPreset(const QString &name);
    bool startFile(const QString &fileName);
    bool start(const Scenario &scenario);
    // A scenario to build on in code: an atomic service with a durable key store, no faults and
    // no processing delay (what `retrylab serve` runs without --scenario).
    static Scenario serviceScenario();
    void stop();
    bool isRunning() const;
    QString errorString() const;

    quint16 port() const;
    QUrl url() const;        // http://127.0.0.1:PORT
    QUrl ordersUrl() const;  // http://127.0.0.1:PORT/orders
    // The settings in effect: the scenario started from with every fault set since.
    Scenario scenario() const;

    // Scripts a fault as network.script does. `op` is the order's number (the reference
    // "ORD-0007" is order 7; 0: every order) and `post` the n-th POST /orders the service
    // receives for it (0: every one). Returns an empty string or the error.
    //   scriptFault(FaultKind::ResponseLost, 1, 1)    the 1st POST of ORD-0001 commits, its answer is lost
    //   scriptFault(FaultKind::Throttle429, 0, 1)     every order's 1st POST gets 429 + Retry-After
    //   scriptFault(FaultKind::ServerRestart, 1, 1)   commit, then restart (a memory key store forgets)
    QString scriptFault(FaultKind fault, int op, int post);
    // Any script entry (method, attempt pattern "bN/wN/tN" with * per segment).
    QString scriptFault(const ScriptEntry &entry);
    // Changes network.* and server.* settings as PUT /admin/faults does:
    // {"server": {"errorStatus": 503, "retryAfterS": 2}} or {"server.error5xxBeforeCommit": 1}.
    // Returns an empty string or the errors, one per line.
    QString setFaults(const QJsonObject &patch);
    // The server process restarts now: in-flight requests are dropped; a memory key store
    // forgets every key.
    void restartServer();

    // Between test functions (init()): forgets every record, key, token, counter and event, and
    // puts the faults back to the scenario started from. The port stays.
    void reset();

    QList<FixtureRecord> records() const;
    QList<FixtureRecord> records(const QString &ref) const;
    int recordCount(const QString &ref) const;
    // Records beyond the first of each reference (design 1.5), and the references that have them.
    int duplicates() const;
    QStringList duplicatedRefs() const;
    // References with a record whose client never received a 2xx for it: as far as the server can
    // tell, the client believes the order failed although it exists.
    QStringList orphans() const;
    // Every request received, in arrival order; or those of one reference.
    QList<FixtureAttempt> attempts() const;
    QList<FixtureAttempt> attempts(const QString &ref) const;
    // The distinct Idempotency-Key values the POSTs of a reference carried, in order of first use
    // ("" stands for a POST without a key).
    QStringList keysSeen(const QString &ref) const;
    // The server's events since start() or reset(), in order.
    Trace trace() const;

    // One reference's events as text, one line per event: time since its first request, attempt
    // path and the narration the lab's timeline shows (through tr()).
    QString timeline(const QString &ref) const;
    // Why a duplicates check fails: each duplicated reference's record count and timeline.
    // Empty when there is no duplicate.
    QString duplicatesReport() const;
    // Why a same-key check fails for `ref`: the keys seen and the timeline. Empty when every POST
    // carried the same non-empty key.
    QString keysReport(const QString &ref) const;
    // Why a record count check fails: the count, the expectation and the timeline. Empty when
    // `ref` has exactly `expected` records.
    QString recordsReport(const QString &ref, int expected) const;

private:
    std::unique_ptr<OrderServiceFixturePrivate> d;
};

} // namespace retrylab

// One-line checks for a Qt Test function (include <QTest> before using them). On failure the whole
// report (each failing order's timeline) goes to the test log as a QINFO message, which has no
// length limit, and the check fails with the report's first line (QVERIFY2 cuts its message at
// 1024 bytes). Under QEXPECT_FAIL the timeline is still logged.
#define RETRYLAB_VERIFY_REPORT(report)                                                                 \
    do {                                                                                               \
        const QString retrylabReport_ = (report);                                                      \
        if (!retrylabReport_.isEmpty())                                                                \
            qInfo().noquote() << retrylabReport_;                                                      \
        QVERIFY2(retrylabReport_.isEmpty(), qPrintable(retrylabReport_.section(QLatin1Char('\n'), 0, 0))); \
    } while (false)
#define RETRYLAB_VERIFY_NO_DUPLICATES(fixture) RETRYLAB_VERIFY_REPORT((fixture).duplicatesReport())
#define RETRYLAB_VERIFY_SAME_KEY(fixture, ref) RETRYLAB_VERIFY_REPORT((fixture).keysReport(ref))
#define RETRYLAB_COMPARE_RECORDS(fixture, ref, expected) RETRYLAB_VERIFY_REPORT((fixture).recordsReport(ref, expected))
