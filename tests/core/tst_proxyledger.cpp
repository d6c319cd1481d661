// ProxyLedger without sockets: grouping by order field, key or alone; attempts, answers,
// distinct resources, duplicates and orphans as design.md section 1.5 defines them.
#include "proxyledger.h"

#include <QJsonArray>
#include <QtTest>

using namespace retrylab;

namespace {

ProxyExchange exchange(quint64 id, const QByteArray &key, const QString &ref, int upstream, int client,
                       const QString &resource = QString(), const QByteArray &method = "POST")
{
    ProxyExchange e;
    e.id = id;
    e.method = method;
    e.key = key;
    e.orderRef = ref;
    e.op = int(id);
    if (upstream > 0) {
        e.upstream = ProxyUpstreamOutcome::Answered;
        e.upstreamStatus = upstream;
    }
    e.client = client > 0 ? ProxyClientOutcome::Answered : ProxyClientOutcome::NoAnswer;
    e.clientStatus = client;
    e.resourceId = resource;
    return e;
}

} // namespace

class TestProxyLedger : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ghostWithoutKeyIsADuplicate();
    void replayWithTheSameIdIsNoDuplicate();
    void orphanNeedsACommitAndNoSuccess();
    void orderFieldWinsOverARotatingKey();
    void withoutKeyOrFieldEachRequestStandsAlone();
    void readsAreOutsideEveryLogicalRequest();
    void failuresAndUnidentifiedCreations();
    void rowsCapKeepsTotals();
    void jsonCarriesRowsAndTotals();
};

void TestProxyLedger::ghostWithoutKeyIsADuplicate()
{
    // The ghost of design 1.3: the first answer lost after commit, the retry commits again.
    ProxyLedger l;
    l.add(exchange(1, QByteArray(), QStringLiteral("ORD-1"), 201, 0, QStringLiteral("1")));
    l.add(exchange(2, QByteArray(), QStringLiteral("ORD-1"), 201, 201, QStringLiteral("2")));
    QCOMPARE(l.rows().size(), size_t(1));
    const ProxyLedger::Row &r = l.rows().front();
    QCOMPARE(r.attempts, 2);
    QCOMPARE(r.answers, 1);
    QCOMPARE(r.created(), 2);
    QCOMPARE(r.duplicates(), 1);
    QVERIFY(!r.orphan()); // the client saw a success in the end
    QCOMPARE(r.clientStatuses, (QList<int>{0, 201}));
    QCOMPARE(l.totals().duplicates, 1);
    QCOMPARE(l.totals().created, 2);
}

void TestProxyLedger::replayWithTheSameIdIsNoDuplicate()
{
    ProxyLedger l;
    l.add(exchange(1, "k-1", QString(), 201, 0, QStringLiteral("7")));
    l.add(exchange(2, "k-1", QString(), 201, 201, QStringLiteral("7"))); // replayed: same resource
    QCOMPARE(l.totals().logicalRequests, 1);
    QCOMPARE(l.totals().created, 1);
    QCOMPARE(l.totals().duplicates, 0);
    QCOMPARE(l.rows().front().by, ProxyLedger::GroupBy::Key);
    // Exactly two distinct resources: one duplicate (the boundary of "created - 1 when > 1").
    l.add(exchange(3, "k-1", QString(), 201, 201, QStringLiteral("8")));
    QCOMPARE(l.totals().duplicates, 1);
}

void TestProxyLedger::orphanNeedsACommitAndNoSuccess()
{
    ProxyLedger l;
    // Committed, the client saw a timeout and then a 409: an orphan.
    l.add(exchange(1, "a", QString(), 201, 0, QStringLiteral("1")));
    l.add(exchange(2, "a", QString(), 409, 409));
    // Never committed and failed: not an orphan (nothing exists).
    l.add(exchange(3, "b", QString(), 0, 0));
    // Committed and the client saw it: not an orphan.
    l.add(exchange(4, "c", QString(), 201, 201, QStringLiteral("2")));
    QCOMPARE(l.totals().orphans, 1);
    QVERIFY(l.rows()[0].orphan());
    QVERIFY(!l.rows()[1].orphan());
    QVERIFY(!l.rows()[2].orphan());
    // A later success ends the orphan.
    l.add(exchange(5, "a", QString(), 201, 201, QStringLiteral("1")));
    QCOMPARE(l.totals().orphans, 0);
}

void TestProxyLedger::orderFieldWinsOverARotatingKey()
{
    // perWrapperAttempt: a new key on each retry, one business reference: one logical request.
    ProxyLedger l;
    l.add(exchange(1, "k-1", QStringLiteral("ORD-9"), 201, 0, QStringLiteral("1")));
    l.add(exchange(2, "k-2", QStringLiteral("ORD-9"), 201, 201, QStringLiteral("2")));
    QCOMPARE(l.totals().logicalRequests, 1);
    QCOMPARE(l.rows().front().by, ProxyLedger::GroupBy::OrderRef);
    QCOMPARE(l.rows().front().group, QStringLiteral("ORD-9"));
    QCOMPARE(l.totals().duplicates, 1);
}

void TestProxyLedger::withoutKeyOrFieldEachRequestStandsAlone()
{
    ProxyLedger l;
    l.add(exchange(1, QByteArray(), QString(), 201, 201, QStringLiteral("1")));
    l.add(exchange(2, QByteArray(), QString(), 201, 201, QStringLiteral("2")));
    QCOMPARE(l.totals().logicalRequests, 2);
    QCOMPARE(l.totals().duplicates, 0);
    QCOMPARE(l.rows()[1].group, QStringLiteral("#2"));
    QCOMPARE(l.rows()[1].by, ProxyLedger::GroupBy::Single);
}

void TestProxyLedger::readsAreOutsideEveryLogicalRequest()
{
    ProxyLedger l;
    l.add(exchange(1, QByteArray(), QString(), 200, 200, QStringLiteral("5"), "GET"));
    l.add(exchange(2, QByteArray(), QString(), 200, 200, QString(), "HEAD"));
    QCOMPARE(l.totals().reads, 2);
    QCOMPARE(l.totals().logicalRequests, 0);
    QCOMPARE(l.totals().created, 0);
    // A keyed GET belongs to its key's request, but a read creates nothing.
    l.add(exchange(3, "k", QString(), 200, 200, QStringLiteral("5"), "GET"));
    QCOMPARE(l.totals().logicalRequests, 1);
    QCOMPARE(l.totals().created, 0);
}

void TestProxyLedger::failuresAndUnidentifiedCreations()
{
    ProxyLedger l;
    l.add(exchange(1, "a", QString(), 503, 503));
    l.add(exchange(2, "a", QString(), 201, 201)); // created, but no id to tell it apart
    ProxyExchange reset = exchange(3, "b", QString(), 201, 0, QStringLiteral("9"));
    reset.client = ProxyClientOutcome::Reset;
    l.add(reset);
    const ProxyLedger::Totals t = l.totals();
    QCOMPARE(t.attempts, 3);
    QCOMPARE(t.answers, 2);
    QCOMPARE(t.successes, 1);
    QCOMPARE(t.failures, 2);
    QCOMPARE(t.unidentified, 1);
    QCOMPARE(t.created, 1);
    QCOMPARE(t.orphans, 1); // b: committed, reset, never a success
    QCOMPARE(l.rows()[0].clientStatuses, (QList<int>{503, 201}));
}

void TestProxyLedger::rowsCapKeepsTotals()
{
    ProxyLedger l(2);
    for (int i = 1; i <= 3; ++i)
        l.add(exchange(quint64(i), QByteArray::number(i), QString(), 201, 201, QString::number(i)));
    QCOMPARE(l.rows().size(), size_t(2)); // exactly at the cap, the third has no row
    QCOMPARE(l.totals().logicalRequests, 3);
    QCOMPARE(l.totals().rowsDropped, 1);
    QCOMPARE(l.totals().created, 3);
}

void TestProxyLedger::jsonCarriesRowsAndTotals()
{
    ProxyLedger l;
    l.add(exchange(1, QByteArray(), QStringLiteral("ORD-1"), 201, 0, QStringLiteral("1")));
    l.add(exchange(2, QByteArray(), QStringLiteral("ORD-1"), 201, 201, QStringLiteral("2")));
    l.add(exchange(3, QByteArray(), QStringLiteral("ORD-2"), 201, 201, QStringLiteral("3")));
    const QJsonObject o = l.toJson(1);
    QCOMPARE(o.value(QLatin1String("totals")).toObject().value(QLatin1String("duplicates")).toInt(), 1);
    const QJsonArray rows = o.value(QLatin1String("requests")).toArray();
    QCOMPARE(rows.size(), 1); // the last one only
    QCOMPARE(rows[0].toObject().value(QLatin1String("group")).toString(), QStringLiteral("ORD-2"));
    QCOMPARE(o.value(QLatin1String("requestsOmitted")).toInt(), 1);
    const QJsonObject all = l.toJson().value(QLatin1String("requests")).toArray()[0].toObject();
    QCOMPARE(all.value(QLatin1String("resources")).toArray(), (QJsonArray{QStringLiteral("1"), QStringLiteral("2")}));
    QCOMPARE(all.value(QLatin1String("orphan")).toBool(), false);
}

QTEST_GUILESS_MAIN(TestProxyLedger)
#include "tst_proxyledger.moc"
