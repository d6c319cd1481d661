// The order service on its own: its decisions with time passed in, no engine around it.
#include "orderservice.h"

#include <QTest>

using namespace retrylab;

namespace {

OrderRequest request(int op, quint64 key = 0)
{
    OrderRequest r;
    r.op = op;
    r.key = key;
    r.fingerprint = 1000 + quint64(op);
    return r;
}

int commit(OrderService &service, int op, qint64 t)
{
    const OrderRequest r = request(op);
    if (service.begin(r, t).kind != ServiceDecision::Proceed)
        return -1;
    return service.commit(r, t, 201);
}

} // namespace

class TestOrderService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reconcileVoidsEveryExtraOnce();
    void reconcileFlagsWithoutVoiding();
    void tokenIsSingleUse();
    void tokenReplaysWhenAskedTo();
    void keyExpiresExactlyAtTtlFromReservation();
    void inFlightReservationNeverExpires();
    void zeroTtlForgetsAtCompletion();
    void failureBeforeCommitIsNeverStored_data();
    void failureBeforeCommitIsNeverStored();
    void unknownTokenIsRejected();
};

void TestOrderService::reconcileVoidsEveryExtraOnce()
{
    ServerConfig config; // mode off: every POST commits
    OrderService service(config);
    const int a1 = commit(service, 1, 10);
    const int a2 = commit(service, 1, 20);
    const int b1 = commit(service, 2, 30);
    const int a3 = commit(service, 1, 40);
    QVERIFY(a1 > 0 && a2 > 0 && b1 > 0 && a3 > 0);

    QList<ReconcileChange> changes = service.reconcile(ReconcileAction::Void, 1000);
    QCOMPARE(changes.size(), 2);
    QCOMPARE(changes.at(0).record, a2);
    QCOMPARE(changes.at(1).record, a3);
    QVERIFY(changes.at(0).voided && changes.at(1).voided);
    QCOMPARE(service.records().at(size_t(a2 - 1)).voidedAt, 1000);

    QCOMPARE(service.reconcileVisits(), 4);

    // Nothing new: nothing to do (no record looked at again), nothing reported twice.
    QVERIFY(service.reconcile(ReconcileAction::Void, 2000).isEmpty());
    QCOMPARE(service.reconcileVisits(), 4);

    // A late copy of op 1 and the first of op 3: only the copy goes; op 1's kept record stays kept.
    const int a4 = commit(service, 1, 2500);
    const int c1 = commit(service, 3, 2600);
    changes = service.reconcile(ReconcileAction::Void, 3000);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.first().record, a4);
    QCOMPARE(changes.first().op, 1);
    QVERIFY(!service.records().at(size_t(a1 - 1)).voided);
    QVERIFY(!service.records().at(size_t(c1 - 1)).voided);
    QCOMPARE(service.records().at(size_t(a4 - 1)).voidedAt, 3000);
    QCOMPARE(service.records().at(size_t(a2 - 1)).voidedAt, 1000); // voided once, at its own pass
    QCOMPARE(service.reconcileVisits(), 6); // each record looked at once over three passes
}

void TestOrderService::reconcileFlagsWithoutVoiding()
{
    ServerConfig config;
    OrderService service(config);
    commit(service, 5, 1);
    const int extra = commit(service, 5, 2);
    QList<ReconcileChange> changes = service.reconcile(ReconcileAction::Flag, 100);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.first().record, extra);
    QVERIFY(!changes.first().voided);
    QVERIFY(service.records().at(size_t(extra - 1)).flagged);
    QVERIFY(!service.records().at(size_t(extra - 1)).voided);
    // Flagged once: a later pass reports it no more.
    QVERIFY(service.reconcile(ReconcileAction::Flag, 200).isEmpty());
    const int third = commit(service, 5, 300);
    changes = service.reconcile(ReconcileAction::Flag, 400);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.first().record, third);
}

void TestOrderService::tokenIsSingleUse()
{
    ServerConfig config;
    config.idempotency.mode = IdempotencyMode::Token;
    config.idempotency.ttlS = 10; // the key row expires; the spent token stays spent
    OrderService service(config);
    service.issueToken(7);
    const OrderRequest r = request(1, 7);
    QCOMPARE(service.begin(r, 0).kind, ServiceDecision::Proceed);
    // In flight: the usual 409, not "already used".
    ServiceDecision d = service.begin(r, 1);
    QCOMPARE(d.kind, ServiceDecision::Reject);
    QCOMPARE(d.status, 409);
    QVERIFY(!d.tokenUsed);
    QCOMPARE(service.commit(r, 100, 201), 1);

    d = service.begin(r, 200);
    QCOMPARE(d.kind, ServiceDecision::Reject);
    QCOMPARE(d.status, 409);
    QVERIFY(d.tokenUsed);
    QVERIFY(d.reason.contains(QLatin1String("already used")));
    // Long after the key TTL (10 s): still spent, still no second record.
    d = service.begin(r, 100 + 10 * 1000000);
    QCOMPARE(d.status, 409);
    QVERIFY(d.tokenUsed);
    QCOMPARE(service.records().size(), size_t(1));

    // A token whose request failed before commit is not spent: the retry goes ahead.
    service.issueToken(9);
    const OrderRequest other = request(2, 9);
    QCOMPARE(service.begin(other, 300).kind, ServiceDecision::Proceed);
    service.failBeforeCommit(other, KeyOutcome::FailedBeforeCommit);
    d = service.begin(other, 400);
    QVERIFY(!d.tokenUsed);
}

void TestOrderService::tokenReplaysWhenAskedTo()
{
    ServerConfig config;
    config.idempotency.mode = IdempotencyMode::Token;
    config.idempotency.tokenReuse = TokenReuse::Replay;
    OrderService service(config);
    service.issueToken(7);
    const OrderRequest r = request(1, 7);
    QCOMPARE(service.begin(r, 0).kind, ServiceDecision::Proceed);
    QCOMPARE(service.commit(r, 100, 201), 1);
    const ServiceDecision d = service.begin(r, 200);
    QCOMPARE(d.kind, ServiceDecision::Replay);
    QCOMPARE(d.status, 201);
    QCOMPARE(d.record, 1);
    QVERIFY(!d.tokenUsed);
}

namespace {
ServerConfig keyed(IdempotencyMode mode, int ttlS)
{
    ServerConfig c;
    c.idempotency.mode = mode;
    c.idempotency.ttlS = ttlS;
    return c;
}
} // namespace

void TestOrderService::keyExpiresExactlyAtTtlFromReservation()
{
    // TTL 2 s. Reserved at 1.000000 s, committed 50 ms later: the TTL runs from the reservation.
    constexpr qint64 reserved = 1000000;
    constexpr qint64 ttl = 2000000;
    for (const qint64 probe : {reserved + ttl - 1, reserved + ttl}) {
        OrderService service(keyed(IdempotencyMode::Atomic, 2));
        const OrderRequest r = request(7, 42);
        QCOMPARE(int(service.begin(r, reserved).kind), int(ServiceDecision::Proceed));
        const int record = service.commit(r, reserved + 50000, 201);
        const ServiceDecision d = service.begin(r, probe);
        if (probe < reserved + ttl) {
            // 1 µs before: still known, the stored answer is replayed.
            QCOMPARE(int(d.kind), int(ServiceDecision::Replay));
            QCOMPARE(d.record, record);
            QCOMPARE(d.status, 201);
            QVERIFY(!d.keyExpired);
        } else {
            // Exactly at reservation + TTL: forgotten (although only 1.95 s after the commit).
            QCOMPARE(int(d.kind), int(ServiceDecision::Proceed));
            QVERIFY(d.keyExpired);
            QVERIFY(d.keyReserved);
        }
    }
}

void TestOrderService::inFlightReservationNeverExpires()
{
    // A request still processing keeps its key however long it takes: a concurrent retry after
    // the TTL still gets 409, not a second insert.
    OrderService service(keyed(IdempotencyMode::Atomic, 1));
    const OrderRequest r = request(3, 99);
    QCOMPARE(int(service.begin(r, 0).kind), int(ServiceDecision::Proceed));
    const ServiceDecision d = service.begin(r, 1000000 + 1);
    QCOMPARE(int(d.kind), int(ServiceDecision::Reject));
    QCOMPARE(d.status, 409);
    QVERIFY(!d.keyExpired);
}

// ttlS 0, the lowest value validation accepts: the reservation still holds while the request is
// processed (409 at the same instant), and the key is forgotten the moment it could be replayed.
void TestOrderService::zeroTtlForgetsAtCompletion()
{
    OrderService service(keyed(IdempotencyMode::Atomic, 0));
    const OrderRequest r = request(4, 55);
    QCOMPARE(int(service.begin(r, 0).kind), int(ServiceDecision::Proceed));
    const ServiceDecision concurrent = service.begin(r, 0);
    QCOMPARE(int(concurrent.kind), int(ServiceDecision::Reject));
    QCOMPARE(concurrent.status, 409);
    QCOMPARE(service.commit(r, 50000, 201), 1);
    const ServiceDecision later = service.begin(r, 50000);
    QCOMPARE(int(later.kind), int(ServiceDecision::Proceed));
    QVERIFY(later.keyExpired);
}

void TestOrderService::failureBeforeCommitIsNeverStored_data()
{
    QTest::addColumn<bool>("atomic");
    QTest::addColumn<bool>("storeErrors");
    QTest::addRow("naive-store-errors") << false << true;
    QTest::addRow("naive-only-successes") << false << false;
    QTest::addRow("atomic-store-errors") << true << true;
    QTest::addRow("atomic-only-successes") << true << false;
}

void TestOrderService::failureBeforeCommitIsNeverStored()
{
    // README "Stored results": a 5xx before commit rolled back with its transaction; whatever
    // storeErrors says, the key is free again and the retry is processed (brandur's
    // rocket-rides-atomic unlocks the key; Stripe saves nothing for a request that wrote nothing).
    QFETCH(bool, atomic);
    QFETCH(bool, storeErrors);
    const IdempotencyMode mode = atomic ? IdempotencyMode::Atomic : IdempotencyMode::Naive;
    ServerConfig c = keyed(mode, 3600);
    c.idempotency.storeErrors = storeErrors;
    OrderService service(c);
    const OrderRequest r = request(5, 77);
    QCOMPARE(int(service.begin(r, 0).kind), int(ServiceDecision::Proceed));
    service.failBeforeCommit(r, KeyOutcome::FailedBeforeCommit);
    const ServiceDecision d = service.begin(r, 20);
    QCOMPARE(int(d.kind), int(ServiceDecision::Proceed));
    QCOMPARE(d.keyReserved, atomic);
    QVERIFY(service.records().empty());
}

void TestOrderService::unknownTokenIsRejected()
{
    OrderService service(keyed(IdempotencyMode::Token, 3600));
    const quint64 token = service.issueToken(1234);
    const ServiceDecision unknown = service.begin(request(1, token + 1), 0);
    QCOMPARE(int(unknown.kind), int(ServiceDecision::Reject));
    QCOMPARE(unknown.status, 400);
    QCOMPARE(unknown.reason, QStringLiteral("unknown order token"));
    const ServiceDecision missing = service.begin(request(1, 0), 0);
    QCOMPARE(missing.status, 400);
    QCOMPARE(int(service.begin(request(1, token), 0).kind), int(ServiceDecision::Proceed));
}

QTEST_GUILESS_MAIN(TestOrderService)
#include "tst_orderservice.moc"
