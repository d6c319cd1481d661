#include "trace.h"

#include "engine/tracetext.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <charconv>
#include <algorithm>
#include <functional>
#include <limits>

#include <sys/stat.h>

using namespace retrylab;

namespace {

constexpr int LaneCount = int(Lane::Database) + 1;
constexpr int KindCount = EventKindCount;

TraceEvent sample()
{
    TraceEvent e;
    e.t = 3'000'123;
    e.lane = Lane::Server;
    e.kind = EventKind::Committed;
    e.op = 7;
    e.sub = 2;
    e.setPath(QStringLiteral("op7/b2/w1/t3"));
    e.setRequestId(QStringLiteral("req-0007"));
    e.setKey(QStringLiteral("key-7a"));
    e.status = 201;
    e.record = 3;
    e.setDetail(QStringLiteral("after \"retry\" \u00e4"));
    e.arg = qint64(1) << 40;
    e.arg2 = -1;
    e.arg3 = 19;
    e.id = 12;
    e.answers = 9;
    e.business = 2;
    e.wrapper = 1;
    e.transport = 3;
    e.method = TraceMethod::PostOrder;
    e.phase = CommitPhase::AfterCommit;
    e.cause = TraceCause::Duplicate;
    e.outcome = TraceOutcome::Replayed;
    return e;
}

Trace sampleTrace()
{
    Trace trace;
    for (int k = 0; k < KindCount; ++k) {
        TraceEvent e = sample();
        e.kind = EventKind(k);
        e.lane = Lane(k % LaneCount);
        e.t = qint64(k) * 1'000'003 + (qint64(1) << 40); // beyond 32 bits
        e.op = k + 1;
        trace.append(e);
    }
    return trace;
}

} // namespace

Q_DECLARE_METATYPE(std::function<void(retrylab::TraceEvent &)>)
Q_DECLARE_METATYPE(retrylab::Trace)
Q_DECLARE_METATYPE(retrylab::TraceEvent)

// Trace event format (JSONL), names, hashing and narration.
class TestTrace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonKeys();
    void jsonRoundTrip();
    void jsonlRoundTrip();
    void jsonlEmpty();
    void laneNames_data();
    void laneNames();
    void kindNames_data();
    void kindNames();
    void unknownNames();
    void narrateEveryKind();
    void narrateUsesFields_data();
    void narrateUsesFields();
    void hashStable();
    void hashChangesWithEveryField_data();
    void hashChangesWithEveryField();
    void typedFieldsChangeOnlyTheFullHash_data();
    void typedFieldsChangeOnlyTheFullHash();
    void oldJsonlReadsWithoutTypedFields();
    void engineLinks_data();
    void engineLinks();
    void saveWritesJsonl();
    void saveToUnwritablePath();
    void jsonlMatchesQtWriter_data();
    void jsonlMatchesQtWriter();
    void saveToFullDeviceFails();
    void saveStreamsEventByEvent();
    void writerReplacesARegularFileOnlyWhenDone();
    void engineStoresNoText_data();
    void engineStoresNoText();
    void readBackHoldsNoText_data();
    void readBackHoldsNoText();
    void readBackKeepsGivenTexts();
    void waitWords_data();
    void waitWords();
    void typedDetailWords_data();
    void typedDetailWords();
    void typedEqualsText();
    void composedTexts_data();
    void composedTexts();
    void compactEvent();
    void longestDetailFits();
    void numberWriters();
};

void TestTrace::jsonKeys()
{
    const QJsonObject o = sample().toJson();
    // The original keys, then (sorted in among them) the typed fields under their own names.
    const QStringList expected{QStringLiteral("answers"), QStringLiteral("arg"),      QStringLiteral("arg2"),
                               QStringLiteral("arg3"),    QStringLiteral("business"), QStringLiteral("cause"),
                               QStringLiteral("detail"),  QStringLiteral("id"),       QStringLiteral("key"),
                               QStringLiteral("kind"),    QStringLiteral("lane"),     QStringLiteral("method"),
                               QStringLiteral("op"),      QStringLiteral("outcome"),  QStringLiteral("path"),
                               QStringLiteral("phase"),   QStringLiteral("record"),   QStringLiteral("ref"),
                               QStringLiteral("requestId"),
                               QStringLiteral("status"),  QStringLiteral("sub"),      QStringLiteral("t"),
                               QStringLiteral("transport"), QStringLiteral("wrapper")};
    QCOMPARE(o.keys(), expected);
    QCOMPARE(o.value(QLatin1String("method")).toString(), QStringLiteral("postOrder"));
    QCOMPARE(o.value(QLatin1String("phase")).toString(), QStringLiteral("afterCommit"));
    QCOMPARE(o.value(QLatin1String("cause")).toString(), QStringLiteral("duplicate"));
    QCOMPARE(o.value(QLatin1String("outcome")).toString(), QStringLiteral("replayed"));
    QCOMPARE(o.value(QLatin1String("lane")).toString(), QStringLiteral("server"));
    QCOMPARE(o.value(QLatin1String("kind")).toString(), QStringLiteral("committed"));
    QCOMPARE(o.value(QLatin1String("t")).toInteger(), 3000123);
}

void TestTrace::jsonRoundTrip()
{
    const TraceEvent e = sample();
    QVERIFY(TraceEvent::fromJson(e.toJson()) == e);
    QVERIFY(!(TraceEvent() == e));
}

void TestTrace::jsonlRoundTrip()
{
    const Trace trace = sampleTrace();
    const QByteArray jsonl = trace::toJsonl(trace);
    QVERIFY(jsonl.endsWith('\n'));
    const QList<QByteArray> lines = jsonl.split('\n');
    QCOMPARE(lines.size(), trace.size() + 1); // trailing newline leaves one empty piece
    QVERIFY(lines.last().isEmpty());
    for (int i = 0; i < trace.size(); ++i) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(lines.at(i), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY2(TraceEvent::fromJson(doc.object()) == trace.at(i), lines.at(i).constData());
    }
}

void TestTrace::jsonlEmpty()
{
    QCOMPARE(trace::toJsonl(Trace()), QByteArray());
}

void TestTrace::laneNames_data()
{
    QTest::addColumn<int>("lane");
    QTest::addColumn<QString>("name");
    const char *names[] = {"business", "wrapper", "transport", "network", "server", "database"};
    QCOMPARE(int(std::size(names)), LaneCount);
    for (int i = 0; i < LaneCount; ++i)
        QTest::addRow("%s", names[i]) << i << QString::fromLatin1(names[i]);
}

void TestTrace::laneNames()
{
    QFETCH(int, lane);
    QFETCH(QString, name);
    QCOMPARE(trace::laneName(Lane(lane)), name);
    Lane back = lane == 0 ? Lane::Database : Lane::Business;
    QVERIFY(trace::laneFromName(name, &back));
    QCOMPARE(int(back), lane);
}

void TestTrace::kindNames_data()
{
    QTest::addColumn<int>("kind");
    for (int k = 0; k < KindCount; ++k)
        QTest::addRow("%s", qPrintable(trace::kindName(EventKind(k)))) << k;
}

void TestTrace::kindNames()
{
    QFETCH(int, kind);
    const QString name = trace::kindName(EventKind(kind));
    QVERIFY(!name.isEmpty());
    QVERIFY2(name.at(0).isLower(), qPrintable(name));
    QVERIFY2(!name.contains(QLatin1Char('_')) && !name.contains(QLatin1Char(' ')), qPrintable(name));
    EventKind back = kind == 0 ? EventKind::ReconcileVoided : EventKind::OpStart;
    QVERIFY(trace::kindFromName(name, &back));
    QCOMPARE(int(back), kind);

    // Names are unique.
    for (int other = 0; other < KindCount; ++other) {
        if (other != kind)
            QVERIFY(trace::kindName(EventKind(other)) != name);
    }
}

void TestTrace::unknownNames()
{
    Lane lane = Lane::Wrapper;
    QVERIFY(!trace::laneFromName(QStringLiteral("Business"), &lane));
    QVERIFY(!trace::laneFromName(QString(), &lane));
    QCOMPARE(lane, Lane::Wrapper);
    EventKind kind = EventKind::Timeout;
    QVERIFY(!trace::kindFromName(QStringLiteral("response_lost"), &kind));
    QCOMPARE(kind, EventKind::Timeout);
    // Spot checks of the contract spelling.
    QCOMPARE(trace::kindName(EventKind::TransportAttempt), QStringLiteral("transportAttempt"));
    QCOMPARE(trace::kindName(EventKind::ResponseLost), QStringLiteral("responseLost"));
    QCOMPARE(trace::kindName(EventKind::OpStart), QStringLiteral("opStart"));
}

void TestTrace::narrateEveryKind()
{
    QSet<QString> seen;
    for (int k = 0; k < KindCount; ++k) {
        TraceEvent e;
        e.kind = EventKind(k);
        e.op = 1;
        const QString sentence = trace::narrate(e);
        QVERIFY2(!sentence.isEmpty(), qPrintable(trace::kindName(e.kind)));
        QVERIFY2(sentence.endsWith(QLatin1Char('.')), qPrintable(sentence));
        QVERIFY2(sentence.at(0).isUpper(), qPrintable(sentence));
        QVERIFY2(!seen.contains(sentence), qPrintable(sentence));
        seen.insert(sentence);
    }
}

void TestTrace::narrateUsesFields_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("lane");
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("record");
    using Edit = std::function<void(TraceEvent &)>;
    QTest::addColumn<Edit>("typed"); // the typed fields; the detail text stays empty
    const Edit none = [](TraceEvent &) {};
    QTest::addColumn<QString>("expected");
    const int server = int(Lane::Server);
    QTest::addRow("committed") << int(EventKind::Committed) << server << 1 << 0 << 3 << none
                               << QStringLiteral("The server committed record #3 for ORD-0001.");
    QTest::addRow("committed-op-42") << int(EventKind::Committed) << server << 42 << 0 << 17 << none
                                     << QStringLiteral("The server committed record #17 for ORD-0042.");
    QTest::addRow("response-lost") << int(EventKind::ResponseLost) << int(Lane::Network) << 1 << 0 << 0 << none
                                   << QStringLiteral("The server committed, but the response was lost: the client will only see a timeout.");
    QTest::addRow("timeout") << int(EventKind::Timeout) << int(Lane::Transport) << 1 << 0 << 0 << none
                             << QStringLiteral("No answer within the timeout: the client cannot know whether the order was created.");
    QTest::addRow("replayed") << int(EventKind::Replayed) << server << 1 << 201 << 1 << none
                              << QStringLiteral("Same key seen before: the server replays the stored response "
                                                "(Idempotent-Replayed: true) instead of creating a new order.");
    QTest::addRow("retry-wrapper") << int(EventKind::RetryScheduled) << int(Lane::Wrapper) << 1 << 0 << 0
                                   << Edit([](TraceEvent &e) { e.cause = TraceCause::Backoff; e.arg = 200'000; }) << QStringLiteral("The wrapper layer retries after 200 ms.");
    QTest::addRow("retry-business") << int(EventKind::RetryScheduled) << int(Lane::Business) << 1 << 0 << 0
                                    << Edit([](TraceEvent &e) { e.cause = TraceCause::Backoff; e.arg = 1'200'000; }) << QStringLiteral("The business layer retries after 1.20 s.");
    QTest::addRow("retry-with-cause") << int(EventKind::RetryScheduled) << int(Lane::Transport) << 1 << 0 << 0
                                      << Edit([](TraceEvent &e) { e.cause = TraceCause::Backoff; e.outcome = TraceOutcome::ReadTimeout; })
                                      << QStringLiteral("The transport layer retries after 0 ms (last outcome: read timeout).");
    QTest::addRow("gave-up") << int(EventKind::GaveUp) << int(Lane::Business) << 1 << 0 << 0
                             << Edit([](TraceEvent &e) { e.cause = TraceCause::MaxAttempts; e.arg = 3; })
                             << QStringLiteral("The business layer gives up: all 3 attempts are used.");
    QTest::addRow("query-found") << int(EventKind::QueryResult) << int(Lane::Business) << 5 << 200 << 0 << none
                                 << QStringLiteral("ORD-0005 already exists: the client does not send it again.");
    QTest::addRow("reconcile-voided") << int(EventKind::ReconcileVoided) << int(Lane::Database) << 2 << 0 << 9 << none
                                      << QStringLiteral("Reconciliation voided record #9, an extra copy of ORD-0002.");
}

void TestTrace::narrateUsesFields()
{
    QFETCH(int, kind);
    QFETCH(int, lane);
    QFETCH(int, op);
    QFETCH(int, status);
    QFETCH(int, record);
    using Edit = std::function<void(TraceEvent &)>;
    QFETCH(Edit, typed);
    QFETCH(QString, expected);
    TraceEvent e;
    e.kind = EventKind(kind);
    e.lane = Lane(lane);
    e.op = op;
    e.status = status;
    e.record = record;
    typed(e);
    QCOMPARE(trace::narrate(e), expected);
}

void TestTrace::hashStable()
{
    const Trace trace = sampleTrace();
    const QByteArray h = trace::hash(trace);
    QCOMPARE(h.size(), 64);
    QVERIFY(QByteArray::fromHex(h).toHex() == h);
    QCOMPARE(trace::hash(sampleTrace()), h);
    QVERIFY(trace::hash(Trace()) != h);

    Trace reordered = trace;
    reordered.swapItemsAt(0, 1);
    QVERIFY(trace::hash(reordered) != h);
}

void TestTrace::hashChangesWithEveryField_data()
{
    using Edit = std::function<void(TraceEvent &)>;
    QTest::addColumn<Edit>("edit");
    QTest::addRow("t") << Edit([](TraceEvent &e) { e.t += 1; });
    QTest::addRow("lane") << Edit([](TraceEvent &e) { e.lane = e.lane == Lane::Database ? Lane::Business : Lane::Database; });
    QTest::addRow("kind") << Edit([](TraceEvent &e) { e.kind = e.kind == EventKind::Replayed ? EventKind::OpStart : EventKind::Replayed; });
    QTest::addRow("op") << Edit([](TraceEvent &e) { e.op += 1; });
    QTest::addRow("sub") << Edit([](TraceEvent &e) { e.sub = 1; });
    QTest::addRow("path") << Edit([](TraceEvent &e) { e.setPath(QStringLiteral("op7/b2/w1/t4")); });
    QTest::addRow("request-id") << Edit([](TraceEvent &e) { e.setRequestId(QString()); });
    QTest::addRow("key") << Edit([](TraceEvent &e) { e.setKey(QStringLiteral("key-7b")); });
    QTest::addRow("status") << Edit([](TraceEvent &e) { e.status = 200; });
    QTest::addRow("record") << Edit([](TraceEvent &e) { e.record = 4; });
    QTest::addRow("detail") << Edit([](TraceEvent &e) { e.setDetail(e.detail() + QLatin1Char('.')); });
}

void TestTrace::hashChangesWithEveryField()
{
    using Edit = std::function<void(TraceEvent &)>;
    QFETCH(Edit, edit);
    Trace trace = sampleTrace();
    const QByteArray before = trace::hash(trace);
    TraceEvent &e = trace[trace.size() / 2];
    const TraceEvent original = e;
    edit(e);
    QVERIFY(!(e == original));
    QVERIFY(trace::hash(trace) != before);
}

void TestTrace::typedFieldsChangeOnlyTheFullHash_data()
{
    using Edit = std::function<void(TraceEvent &)>;
    QTest::addColumn<Edit>("edit");
    QTest::addRow("arg") << Edit([](TraceEvent &e) { e.arg += 1; });
    QTest::addRow("arg2") << Edit([](TraceEvent &e) { e.arg2 += 1; });
    QTest::addRow("arg3") << Edit([](TraceEvent &e) { e.arg3 += 1; });
    QTest::addRow("id") << Edit([](TraceEvent &e) { e.id += 1; });
    QTest::addRow("answers") << Edit([](TraceEvent &e) { e.answers += 1; });
    QTest::addRow("ref") << Edit([](TraceEvent &e) { e.setRef(QStringLiteral("coffee: large")); });
    QTest::addRow("business") << Edit([](TraceEvent &e) { e.business += 1; });
    QTest::addRow("wrapper") << Edit([](TraceEvent &e) { e.wrapper += 1; });
    QTest::addRow("transport") << Edit([](TraceEvent &e) { e.transport += 1; });
    QTest::addRow("method") << Edit([](TraceEvent &e) { e.method = TraceMethod::GetOrder; });
    QTest::addRow("phase") << Edit([](TraceEvent &e) { e.phase = CommitPhase::BeforeCommit; });
    QTest::addRow("cause") << Edit([](TraceEvent &e) { e.cause = TraceCause::Insert; });
    QTest::addRow("outcome") << Edit([](TraceEvent &e) { e.outcome = TraceOutcome::ReadTimeout; });
}

void TestTrace::typedFieldsChangeOnlyTheFullHash()
{
    // trace::hash pins behaviour with the original fields (tests/data/golden/trace-hashes.txt);
    // trace::fullHash covers the typed ones too.
    using Edit = std::function<void(TraceEvent &)>;
    QFETCH(Edit, edit);
    Trace trace = sampleTrace();
    const QByteArray before = trace::hash(trace);
    const QByteArray fullBefore = trace::fullHash(trace);
    TraceEvent &e = trace[trace.size() / 2];
    const TraceEvent original = e;
    edit(e);
    QVERIFY(!(e == original));
    QCOMPARE(trace::hash(trace), before);
    QVERIFY(trace::fullHash(trace) != fullBefore);
    QVERIFY(TraceEvent::fromJson(e.toJson()) == e);
}

void TestTrace::oldJsonlReadsWithoutTypedFields()
{
    // A file written before the typed fields: they read as 0 / None, the rest as written.
    const QByteArray line = R"({"detail":"x","key":"","kind":"committed","lane":"database","op":3,"path":"op3/b1/w1/t1",)"
                            R"("record":2,"requestId":"req-1","status":0,"sub":1,"t":5})";
    const TraceEvent e = TraceEvent::fromJson(QJsonDocument::fromJson(line).object());
    QCOMPARE(e.kind, EventKind::Committed);
    QCOMPARE(e.record, 2);
    QCOMPARE(e.id, 0);
    QCOMPARE(e.answers, 0);
    QCOMPARE(int(e.business), 0);
    QCOMPARE(e.cause, TraceCause::None);
    QCOMPARE(e.method, TraceMethod::None);
    QCOMPARE(e.phase, CommitPhase::None);
    QCOMPARE(e.outcome, TraceOutcome::None);
}

void TestTrace::engineLinks_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : scenario::presetNames())
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestTrace::engineLinks()
{
    // Event ids are positions + 1; each link points back to an event of the kind trace.h names.
    QFETCH(QString, name);
    const Trace trace = test::runPreset(name).trace;
    auto isSend = [](EventKind k) {
        return k == EventKind::TransportAttempt || k == EventKind::QuerySent || k == EventKind::RequestDelayed;
    };
    int responses = 0;
    for (int i = 0; i < trace.size(); ++i) {
        const TraceEvent &e = trace.at(i);
        QCOMPARE(e.id, i + 1);
        QVERIFY2(e.answers >= 0 && e.answers < e.id, qPrintable(QString::number(i)));
        if (e.answers == 0)
            continue;
        const TraceEvent &a = trace.at(e.answers - 1);
        QCOMPARE(a.op, e.op);
        switch (e.kind) {
        case EventKind::RequestArrived:
        case EventKind::RequestLost:
        case EventKind::Timeout:
        case EventKind::ConnectFailed:
            QVERIFY2(isSend(a.kind), qPrintable(trace::kindName(a.kind)));
            break;
        case EventKind::ResponseSent:
        case EventKind::Rejected:
        case EventKind::Committed:
        case EventKind::ProcessingStarted:
            QCOMPARE(a.kind, EventKind::RequestArrived);
            QCOMPARE(a.requestId(), e.requestId());
            break;
        case EventKind::Replayed:
            QVERIFY(a.kind == EventKind::Committed || a.kind == EventKind::RequestArrived);
            if (a.kind == EventKind::Committed)
                QCOMPARE(a.record, e.record);
            break;
        case EventKind::ResponseReceived:
        case EventKind::LateResponse:
        case EventKind::ResponseLost:
            QCOMPARE(a.kind, EventKind::ResponseSent);
            QCOMPARE(a.path(), e.path());
            QVERIFY(a.t <= e.t);
            ++responses;
            break;
        default:
            break;
        }
    }
    QVERIFY(responses > 0);
}

void TestTrace::saveWritesJsonl()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("run.jsonl"));
    const Trace trace = sampleTrace();
    QCOMPARE(trace::save(trace, fileName), QString());
    QFile file(fileName);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), trace::toJsonl(trace));
}

void TestTrace::saveToUnwritablePath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("no/such/dir/run.jsonl"));
    const QString error = trace::save(sampleTrace(), fileName);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(fileName), qPrintable(error));
}

namespace {

QByteArray qtJsonl(const Trace &trace)
{
    QByteArray out;
    for (const TraceEvent &e : trace)
        out += QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n';
    return out;
}

// A /proc/self/status field in kilobytes.
qint64 statusKb(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(int(qstrlen(field))).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

} // namespace

void TestTrace::jsonlMatchesQtWriter_data()
{
    // The hand-written JSONL must be Qt's, byte for byte: golden trace hashes depend on it.
    QTest::addColumn<Trace>("trace");
    TraceEvent plain;
    plain.t = 1234567;
    plain.lane = Lane::Transport;
    plain.kind = EventKind::TransportAttempt;
    plain.op = 12;
    plain.setPath(QStringLiteral("op12/b1/w2/t3"));
    plain.setRequestId(QStringLiteral("req-0a1b2c3d"));
    plain.setKey(QStringLiteral("key-00000000ff"));
    plain.setDetail(QStringLiteral("POST /orders, attempt 3"));
    QTest::addRow("plain-ascii") << Trace{plain};
    TraceEvent empty;
    QTest::addRow("empty-strings-and-zeros") << Trace{empty};
    TraceEvent extremes = plain;
    extremes.t = std::numeric_limits<qint64>::max();
    extremes.op = std::numeric_limits<int>::min();
    extremes.status = -1;
    extremes.record = std::numeric_limits<int>::max();
    QTest::addRow("extreme-numbers") << Trace{extremes};
    const QStringList texts{QStringLiteral("quote \" here"), QStringLiteral("back\\slash"),
                            QStringLiteral("tab\tnew\nline\rret\bbs\ffeed"), QString(QChar(1)) + QChar(0x1f),
                            QStringLiteral("del\x7f"), QStringLiteral("caf\u00e9 \u2192 \U0001F600"),
                            QString(QChar(0xD800)), QStringLiteral("slash / and ~")};
    for (const QString &text : texts) {
        TraceEvent e = plain;
        e.setDetail(text);
        e.setKey(text);
        QTest::addRow("text-%s", text.toUtf8().toHex().constData()) << Trace{e};
    }
    QTest::addRow("every-kind") << sampleTrace();
    // Composed details (DetailSource::Typed) are written straight into the line; a reference
    // that needs escapes sends the line to Qt's writer.
    const QStringList refs{QString(), QStringLiteral("ORD-9"), QStringLiteral("caf\u00e9"), QStringLiteral("quo\"te"),
                           QStringLiteral("back\\slash"), QStringLiteral("tab\t")};
    for (const QString &ref : refs) {
        TraceEvent e = plain;
        e.kind = EventKind::Committed;
        e.lane = Lane::Database;
        e.setDetail(QString());
        e.detailSource = DetailSource::Typed;
        e.setRef(ref);
        e.arg = 3;
        QTest::addRow("typed-ref-%s", ref.toUtf8().toHex().constData()) << Trace{e};
    }
    for (const QString &name : scenario::presetNames())
        QTest::addRow("preset-%s", qPrintable(name)) << test::runPreset(name).trace;
}

void TestTrace::jsonlMatchesQtWriter()
{
    QFETCH(Trace, trace);
    QCOMPARE(trace::toJsonl(trace), qtJsonl(trace));
}

void TestTrace::saveToFullDeviceFails()
{
    struct stat before = {};
    if (::stat("/dev/full", &before) != 0 || !S_ISCHR(before.st_mode))
        QSKIP("no /dev/full character device here");
    const QString error = trace::save(sampleTrace(), QStringLiteral("/dev/full"));
    QVERIFY2(error.startsWith(QLatin1String("cannot write trace file \"/dev/full\": ")), qPrintable(error));
    struct stat after = {};
    QCOMPARE(::stat("/dev/full", &after), 0);
    QVERIFY2(S_ISCHR(after.st_mode), "/dev/full must stay a character device");
    QCOMPARE(after.st_rdev, before.st_rdev);
    // A device that takes everything is written directly too.
    QCOMPARE(trace::save(sampleTrace(), QStringLiteral("/dev/null")), QString());
}

void TestTrace::saveStreamsEventByEvent()
{
    // About 80 MB of JSONL from 400,000 events that share their strings (some 40 MB in memory).
    Trace big;
    const Trace kinds = sampleTrace();
    TraceEvent ascii = kinds.first();
    ascii.setDetail(QStringLiteral("a detail long enough to make each line about two hundred bytes of JSON"));
    big.reserve(400000);
    for (int i = 0; i < 400000; ++i) {
        big.append(ascii);
        big.last().t = i;
    }
    if (statusKb("VmHWM:") < 0)
        QSKIP("no /proc/self/status here");
    // The rise of the peak resident size from the moment it is reset, read as the reset left it
    // (VmHWM), not as VmRSS a moment later: whatever leaves the process between the reset and that
    // read (pages the kernel reclaims, memory another thread frees) would count as growth.
    // The process's peak also takes what is not the writer's (another thread, the kernel filling a
    // huge page, pages brought back in): once, under load 8-10, 32.5 MB against the usual 8-12 kB.
    // So the save is measured three times and the least rise kept: a writer that holds the text
    // raises the peak by about 80 MB every time, and fails each.
    qint64 growthKb = std::numeric_limits<qint64>::max();
    for (int round = 0; round < 3 && growthKb >= 16 * 1024; ++round) {
        QFile clear(QStringLiteral("/proc/self/clear_refs"));
        if (!clear.open(QIODevice::WriteOnly) || clear.write("5") != 1)
            QSKIP("cannot reset the peak resident size (/proc/self/clear_refs)");
        clear.close();
        const qint64 peakBefore = statusKb("VmHWM:");
        QCOMPARE(trace::save(big, QStringLiteral("/dev/null")), QString());
        const qint64 roundKb = statusKb("VmHWM:") - peakBefore;
        qInfo("saving about 80 MB of JSONL raised the peak by %lld kB", roundKb);
        growthKb = std::min(growthKb, roundKb);
    }
    // The whole text at once would raise it by 80 MB.
    QVERIFY2(growthKb < 16 * 1024, qPrintable(QString::number(growthKb)));
}

void TestTrace::writerReplacesARegularFileOnlyWhenDone()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("old.jsonl"));
    QFile old(fileName);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old trace\n");
    old.close();
    {
        TraceWriter writer;
        QCOMPARE(writer.open(fileName), QString());
        for (const TraceEvent &e : sampleTrace())
            writer.write(e);
        // Not finished (a run that stopped): the old file stays as it was.
    }
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("old trace\n"));
    old.close();
    TraceWriter writer;
    QCOMPARE(writer.open(fileName), QString());
    for (const TraceEvent &e : sampleTrace())
        writer.write(e);
    QCOMPARE(writer.finish(), QString());
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), trace::toJsonl(sampleTrace()));
}

namespace {

// The texts the engine and the server pipeline still write as text (everything else is composed
// from the typed fields): the budget's balance, a rounded double.
bool keepsText(const TraceEvent &e)
{
    switch (e.kind) {
    case EventKind::Rejected:
        return e.cause == TraceCause::KeyTaken; // the live store's words
    case EventKind::BudgetExhausted:
        return true;
    default:
        return false;
    }
}

} // namespace

void TestTrace::engineStoresNoText_data()
{
    engineLinks_data(); // every preset
}

void TestTrace::engineStoresNoText()
{
    // Item 1 of the compact trace: a kept event holds no string of its own for its words.
    QFETCH(QString, name);
    const Trace trace = test::runPreset(name).trace;
    int typed = 0;
    for (const TraceEvent &e : trace) {
        if (e.detailSource == DetailSource::Typed) {
            QVERIFY2(!e.texts(), qPrintable(trace::kindName(e.kind)));
            ++typed;
        } else {
            QVERIFY2(keepsText(e), qPrintable(trace::kindName(e.kind) + QLatin1String(": ") + e.detail()));
        }
    }
    QVERIFY(typed > trace.size() / 2);
    if (name == QLatin1String("ghost-request"))
        QCOMPARE(typed, trace.size());
}

void TestTrace::readBackHoldsNoText_data()
{
    engineLinks_data(); // every preset
}

void TestTrace::readBackHoldsNoText()
{
    // A trace file read back keeps its events as the run kept them: the texts its numbers compose
    // are composed again, so an engine event read back holds no string either (a shared block of
    // five strings each before: about 300 bytes an event). It reads, compares and writes as the
    // line it came from.
    QFETCH(QString, name);
    const Trace trace = test::runPreset(name).trace;
    const QList<QByteArray> lines = trace::toJsonl(trace).split('\n');
    QCOMPARE(lines.size(), trace.size() + 1);
    Trace back;
    for (int i = 0; i < trace.size(); ++i) {
        const TraceEvent e = TraceEvent::fromJson(QJsonDocument::fromJson(lines.at(i)).object());
        QVERIFY2(e == trace.at(i), lines.at(i).constData());
        // Given as text in the run (the budget's balance, the live store's words): text again.
        QVERIFY2(!e.texts() || trace.at(i).texts(), lines.at(i).constData());
        QCOMPARE(e.detailSource, trace.at(i).detailSource);
        back.append(e);
    }
    QCOMPARE(trace::toJsonl(back), trace::toJsonl(trace));
    QCOMPARE(trace::fullHash(back), trace::fullHash(trace));
}

void TestTrace::readBackKeepsGivenTexts()
{
    // Texts the numbers do not compose stay as given: a live path, a request ID of another
    // shape, a key of number 0, an old file's detail, a reference.
    TraceEvent e = sample(); // op7/b2/w1/t3 with sub 2 composes "op7#2/b2/w1/t3", not the given path
    e.setRequestId(QStringLiteral("req-0a1b2c3D"));
    e.setKey(QStringLiteral("key-0000000000"));
    e.setRef(QStringLiteral("ORD-7"));
    const TraceEvent back = TraceEvent::fromJson(e.toJson());
    QVERIFY(back == e);
    QVERIFY(back.texts());
    QCOMPARE(back.texts()->path, QStringLiteral("op7/b2/w1/t3"));
    QCOMPARE(back.texts()->requestId, QStringLiteral("req-0a1b2c3D"));
    QCOMPARE(back.texts()->key, QStringLiteral("key-0000000000"));
    QCOMPARE(back.texts()->detail, e.detail());
    QCOMPARE(back.ref(), QStringLiteral("ORD-7"));
    QCOMPARE(back.composed, quint8(0));
    // The same event with composable texts holds numbers: a token key too.
    TraceEvent composed;
    composed.kind = EventKind::TransportAttempt;
    composed.lane = Lane::Transport;
    composed.op = 7;
    composed.business = composed.wrapper = composed.transport = 1;
    composed.transport = 3;
    composed.setPath(QStringLiteral("op7/b1/w1/t3"));
    composed.setRequestId(QStringLiteral("req-0a1b2c3d"));
    composed.setKey(QStringLiteral("tok-00000000ff"));
    composed.setDetail(QStringLiteral("POST /orders, attempt 3"));
    const TraceEvent read = TraceEvent::fromJson(composed.toJson());
    QVERIFY(read == composed);
    QVERIFY(!read.texts());
    QCOMPARE(read.composed, quint8(ComposedPath | ComposedRequestId | ComposedKey | ComposedToken));
    QCOMPARE(read.requestNumber, quint32(0x0a1b2c3d));
    QCOMPARE(read.keyNumber, quint64(0xff));
    QCOMPARE(read.detailSource, DetailSource::Typed);
    QCOMPARE(read.key(), QStringLiteral("tok-00000000ff"));
}

void TestTrace::waitWords_data()
{
    QTest::addColumn<qint64>("us");
    // Ties (250 us = 0.25 ms, 1.125 s) where the binary value decides, each side of them, the
    // switch from milliseconds to seconds, and the extremes.
    const qint64 values[] = {0,      1,      49,      50,      51,      149,     150,     250,
                             750,    999,    1000,    1050,    1250,    12345,   999949,  999950,
                             999951, 999999, 1000000, 1004999, 1005000, 1005001, 1125000, 1375000,
                             1234567, 59999999, 3600000000,
                             // Where the exact sum stops (2^50 us, 35 years), past it (the double
                             // rounds 9617010409134999 us up to .14 s, the exact sum down to .13),
                             // and both ends of the range (the sum overflowed at the top).
                             (qint64(1) << 50) - 1, qint64(1) << 50, Q_INT64_C(9617010409134999),
                             std::numeric_limits<qint64>::max() - 4999,
                             std::numeric_limits<qint64>::max(), -1, std::numeric_limits<qint64>::min()};
    for (const qint64 us : values)
        QTest::addRow("us-%lld", static_cast<long long>(us)) << us;
}

void TestTrace::waitWords()
{
    QFETCH(qint64, us);
    TraceEvent e;
    e.kind = EventKind::RetryScheduled;
    e.lane = Lane::Wrapper;
    e.detailSource = DetailSource::Typed;
    e.arg = us;
    e.status = 503;
    e.outcome = TraceOutcome::Response;
    // The words the engine wrote before (core/engine/tracetext.cpp's waitText, QString::arg).
    const QString wait = us < 1000000 ? QStringLiteral("wait %1 ms").arg(double(us) / 1000, 0, 'f', us % 1000 ? 1 : 0)
                                      : QStringLiteral("wait %1 s").arg(double(us) / 1000000, 0, 'f', 2);
    QCOMPARE(e.detail(), wait + QLatin1String(" after 503"));
    QCOMPARE(trace::toJsonl({e}), qtJsonl({e}));
}

void TestTrace::typedDetailWords_data()
{
    QTest::addColumn<TraceEvent>("event");
    QTest::addColumn<QString>("words");
    const auto typed = [](EventKind kind, Lane lane) {
        TraceEvent e;
        e.kind = kind;
        e.lane = lane;
        e.op = 7;
        e.detailSource = DetailSource::Typed;
        return e;
    };
    TraceEvent e = typed(EventKind::OpStart, Lane::Business);
    QTest::addRow("op-start") << e << QStringLiteral("ORD-0007");
    e.op = 12345;
    e.sub = 2;
    QTest::addRow("op-start-again-wide") << e << QStringLiteral("ORD-12345 submitted again");
    e = typed(EventKind::BusinessAttempt, Lane::Business);
    e.business = 2;
    e.arg = 3;
    QTest::addRow("business-of") << e << QStringLiteral("business attempt 2 of 3");
    e.arg = 0;
    e.arg2 = 5000;
    QTest::addRow("business-deadline") << e << QStringLiteral("business attempt 2 (unlimited until the 5000 ms deadline)");
    e = typed(EventKind::Committed, Lane::Database);
    e.arg = 1;
    e.arg2 = 3;
    e.arg3 = 4;
    e.setRef(QStringLiteral("caf\u00e9"));
    QTest::addRow("update-again-client-ref") << e << QStringLiteral("UPDATE row 3 to version 4: caf\u00e9 applied again (record #1)");
    e = typed(EventKind::OpFailed, Lane::Business);
    e.cause = TraceCause::Final;
    e.outcome = TraceOutcome::Raised;
    e.arg = 503;
    QTest::addRow("failed-raised") << e << QStringLiteral("MaxRetryError (too many 503 error responses)");
    e = typed(EventKind::ConnectionReset, Lane::Network);
    QTest::addRow("reset-by-peer") << e << QStringLiteral("connection reset by peer");
    e.lane = Lane::Transport;
    e.outcome = TraceOutcome::ConnectionReset;
    QTest::addRow("reset-seen-by-client") << e << QStringLiteral("connection reset");
    e = typed(EventKind::ResponseSent, Lane::Server);
    e.status = 201;
    e.outcome = TraceOutcome::Replayed;
    QTest::addRow("response-replayed") << e << QStringLiteral("201, Idempotent-Replayed: true");
}

void TestTrace::typedDetailWords()
{
    QFETCH(TraceEvent, event);
    QFETCH(QString, words);
    QCOMPARE(event.detail(), words);
    QCOMPARE(trace::composedDetail(event), words);
    QVERIFY(!event.texts() || event.texts()->detail.isNull());
    QCOMPARE(trace::toJsonl({event}), qtJsonl({event}));
    // The hash's line has no `ref` field of its own: the composed detail alone must send a
    // reference that needs escapes to Qt's writer.
    QJsonObject original = event.toJson();
    const QStringList typedKeys{QStringLiteral("answers"), QStringLiteral("arg"), QStringLiteral("arg2"),
                                QStringLiteral("arg3"), QStringLiteral("business"), QStringLiteral("cause"),
                                QStringLiteral("id"), QStringLiteral("method"), QStringLiteral("outcome"),
                                QStringLiteral("phase"), QStringLiteral("ref"), QStringLiteral("transport"),
                                QStringLiteral("wrapper")};
    for (const QString &key : typedKeys)
        original.remove(key);
    const QByteArray line = QJsonDocument(original).toJson(QJsonDocument::Compact) + '\n';
    QCOMPARE(trace::hash({event}), QCryptographicHash::hash(line, QCryptographicHash::Sha256).toHex());
}

void TestTrace::typedEqualsText()
{
    // Equality compares the words, not where they are kept: a file read back equals the run.
    TraceEvent typed;
    typed.kind = EventKind::Timeout;
    typed.lane = Lane::Transport;
    typed.arg = 3000;
    typed.detailSource = DetailSource::Typed;
    TraceEvent text = typed;
    text.detailSource = DetailSource::Text;
    text.setDetail(QStringLiteral("no response within 3000 ms"));
    QVERIFY(typed == text);
    QVERIFY(text == typed);
    QVERIFY(TraceEvent::fromJson(typed.toJson()) == typed);
    text.setDetail(QStringLiteral("no response within 3001 ms"));
    QVERIFY(!(typed == text));
    TraceEvent other = typed;
    other.arg = 3001;
    QVERIFY(!(typed == other));
}

void TestTrace::composedTexts_data()
{
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("sub");
    QTest::addColumn<int>("attempt"); // b = w = t
    QTest::addColumn<quint32>("requestNumber");
    QTest::addColumn<quint64>("keyNumber");
    QTest::addColumn<bool>("token");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("requestId");
    QTest::addColumn<QString>("key");
    // The engine's formats before the compact event (engine.cpp: attemptPath, hex(.., 8), hex(.., 10)).
    QTest::addRow("first-attempt") << 7 << 1 << 1 << quint32(0x0a1b2c3d) << quint64(0xff) << false
                                   << QStringLiteral("op7/b1/w1/t1") << QStringLiteral("req-0a1b2c3d") << QStringLiteral("key-00000000ff");
    QTest::addRow("second-submission") << 7 << 2 << 3 << quint32(0) << quint64(1) << false
                                       << QStringLiteral("op7#2/b3/w3/t3") << QStringLiteral("req-00000000") << QStringLiteral("key-0000000001");
    QTest::addRow("no-key") << 12 << 1 << 2 << quint32(1) << quint64(0) << false
                            << QStringLiteral("op12/b2/w2/t2") << QStringLiteral("req-00000001") << QString();
    QTest::addRow("token") << 1 << 1 << 1 << quint32(0xffffffff) << quint64(0xabcdef0123) << true
                           << QStringLiteral("op1/b1/w1/t1") << QStringLiteral("req-ffffffff") << QStringLiteral("tok-abcdef0123");
    // Ten hex digits of the key: the bits above 40 are not written, as hex(.., 10) did.
    QTest::addRow("widest") << std::numeric_limits<int>::max() << 32767 << 32767 << quint32(0xffffffff)
                            << std::numeric_limits<quint64>::max() << false
                            << QStringLiteral("op2147483647#32767/b32767/w32767/t32767") << QStringLiteral("req-ffffffff")
                            << QStringLiteral("key-ffffffffff");
    QTest::addRow("narrowest") << std::numeric_limits<int>::min() << -32768 << -32768 << quint32(0) << quint64(1) << true
                               << QStringLiteral("op-2147483648#-32768/b-32768/w-32768/t-32768") << QStringLiteral("req-00000000")
                               << QStringLiteral("tok-0000000001");
    // A reconciliation event belongs to no attempt.
    QTest::addRow("no-attempt") << 7 << 1 << 0 << quint32(0) << quint64(0) << false << QStringLiteral("op7") << QStringLiteral("req-00000000")
                                << QString();
}

void TestTrace::composedTexts()
{
    // An engine event holds numbers where it used to hold the texts; read, written and compared,
    // it is the event with the texts given.
    QFETCH(int, op);
    QFETCH(int, sub);
    QFETCH(int, attempt);
    QFETCH(quint32, requestNumber);
    QFETCH(quint64, keyNumber);
    QFETCH(bool, token);
    QFETCH(QString, path);
    QFETCH(QString, requestId);
    QFETCH(QString, key);
    TraceEvent composed;
    composed.kind = EventKind::TransportAttempt;
    composed.lane = Lane::Transport;
    composed.op = op;
    composed.sub = qint16(sub);
    composed.business = composed.wrapper = composed.transport = qint16(attempt);
    composed.requestNumber = requestNumber;
    composed.keyNumber = keyNumber;
    composed.composed = ComposedPath | ComposedRequestId | ComposedKey | (token ? ComposedToken : 0);
    QCOMPARE(composed.path(), path);
    QCOMPARE(composed.requestId(), requestId);
    QCOMPARE(composed.key(), key);
    QVERIFY(!composed.texts());
    TraceEvent given = composed;
    given.setPath(path);
    given.setRequestId(requestId);
    given.setKey(key);
    QCOMPARE(given.composed, quint8(0));
    QVERIFY(composed == given);
    QVERIFY(given == composed);
    QVERIFY(trace::samePath(composed, given));
    QCOMPARE(trace::toJsonl({composed}), trace::toJsonl({given}));
    QCOMPARE(trace::toJsonl({composed}), qtJsonl({composed}));
    QCOMPARE(trace::hash({composed}), trace::hash({given}));
    QVERIFY(TraceEvent::fromJson(composed.toJson()) == composed);
    // Each number is its text: another number, another event.
    TraceEvent other = composed;
    other.requestNumber = requestNumber + 1;
    QVERIFY(!(other == composed));
    QVERIFY(!(other == given));
    other = composed;
    other.keyNumber = keyNumber ^ 1;
    QVERIFY(!(other == composed));
    QVERIFY(!(other == given));
    other = composed;
    other.transport = qint16(attempt + 1);
    QVERIFY(!trace::samePath(other, composed));
    QVERIFY(!trace::samePath(other, given));
}

void TestTrace::compactEvent()
{
    // Item 1 of issue 23's compact trace: five QStrings (120 bytes) became one shared pointer.
    // 88 bytes: eight 64-bit words (t, arg x3, keyNumber, the texts), six ints and the request
    // ID's number, four attempt numbers of 16 bits and eight one-byte enums and flags.
    QCOMPARE(sizeof(TraceEvent), size_t(88));
    // A copy shares the given texts; setting one on the copy leaves the original as it was.
    TraceEvent a = sample();
    TraceEvent b = a;
    QCOMPARE(b.texts(), a.texts());
    b.setKey(QStringLiteral("key-other"));
    QVERIFY(b.texts() != a.texts());
    QCOMPARE(a.key(), QStringLiteral("key-7a"));
    QCOMPARE(b.key(), QStringLiteral("key-other"));
    QCOMPARE(b.path(), a.path());
    // Setting a text stops composing it; the others are still composed.
    TraceEvent c;
    c.op = 3;
    c.business = c.wrapper = c.transport = 1;
    c.keyNumber = 5;
    c.composed = ComposedPath | ComposedRequestId | ComposedKey | ComposedToken;
    c.setKey(QStringLiteral("tok-live"));
    QCOMPARE(c.composed, quint8(ComposedPath | ComposedRequestId));
    QCOMPARE(c.key(), QStringLiteral("tok-live"));
    QCOMPARE(c.path(), QStringLiteral("op3/b1/w1/t1"));
    QCOMPARE(c.requestId(), QStringLiteral("req-00000000"));
}

void TestTrace::longestDetailFits()
{
    // The JSONL writer composes a typed detail into DetailBytes::DetailBound bytes it reserved,
    // with no check as it writes: every kind, cause, outcome, lane, method and phase, with the
    // widest numbers each can carry (and the zeros that choose longer words), must fit. The
    // reference is not counted (the writer reserves its length too): here it is the engine's
    // ORD-op at its widest.
    constexpr qint64 lo = std::numeric_limits<qint64>::min();
    constexpr qint64 hi = std::numeric_limits<qint64>::max();
    struct Numbers
    {
        qint64 arg, arg2, arg3;
        int status;
    };
    QList<Numbers> sets;
    for (const qint64 arg : {qint64(0), lo, hi})
        for (const qint64 arg2 : {qint64(0), lo, hi})
            for (const qint64 arg3 : {qint64(0), lo, hi})
                sets.append({arg, arg2, arg3, std::numeric_limits<int>::min()});
    for (const int status : {0, 200, 404, 429, 503})
        sets.append({lo, lo, lo, status});
    std::array<char, 4096> buffer;
    qsizetype longest = 0;
    QByteArray longestText;
    TraceEvent e;
    e.op = std::numeric_limits<int>::min();
    e.sub = 2;
    e.business = e.wrapper = e.transport = std::numeric_limits<qint16>::min();
    e.record = std::numeric_limits<int>::min();
    e.detailSource = DetailSource::Typed;
    for (const Numbers &n : std::as_const(sets)) {
        e.arg = n.arg;
        e.arg2 = n.arg2;
        e.arg3 = n.arg3;
        e.status = n.status;
        for (int kind = 0; kind < KindCount; ++kind)
            for (int cause = 0; cause <= int(TraceCause::BreakerClosed); ++cause)
                for (int outcome = 0; outcome <= int(TraceOutcome::CircuitOpen); ++outcome)
                    for (int lane = 0; lane < LaneCount; ++lane)
                        for (int method = 0; method <= int(TraceMethod::PostToken); ++method)
                            for (int phase = 0; phase <= int(CommitPhase::AfterCommit); ++phase) {
                                e.kind = EventKind(kind);
                                e.cause = TraceCause(cause);
                                e.outcome = TraceOutcome(outcome);
                                e.lane = Lane(lane);
                                e.method = TraceMethod(method);
                                e.phase = CommitPhase(phase);
                                trace::DetailBytes bytes{buffer.data()};
                                const qsizetype n = trace::composeDetail(bytes, e) - buffer.data();
                                if (n > longest) {
                                    longest = n;
                                    longestText = QByteArray(buffer.data(), n);
                                }
                            }
    }
    qInfo("longest detail: %lld bytes: %s", static_cast<long long>(longest), longestText.constData());
    QVERIFY2(longest <= trace::DetailBytes::DetailBound, longestText.constData());
}

void TestTrace::numberWriters()
{
    // The line writer's own number writers, against std::to_chars and hex(): each power of ten and
    // of sixteen, each side of it, and both ends of the range.
    QList<qint64> values{0, std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max()};
    for (qint64 p = 1; p <= std::numeric_limits<qint64>::max() / 10; p *= 10)
        values << p - 1 << p << p + 1 << -p << 10 * p - 1;
    // The fixed-point ranges' ends (10^2, 10^4, 10^6, 10^8, 2^32) and the eight-digit pieces
    // of 64-bit values are among the powers above; a spread of values inside each range and
    // around 2^32 checks the pairs between them (every 32-bit value was checked once, off line).
    for (quint64 v = 1; v < (quint64(1) << 63); v = v * 3 + 7)
        values << qint64(v) << qint64(v - 1) << qint64(0xffffffffull - v % 0xffffffffull);
    for (qint64 v = 0; v < 200000; ++v)
        values << v * 21467 << 0xffffffffll + v << 99999999ll + v * 7919;
    for (const qint64 v : std::as_const(values)) {
        char mine[32];
        char theirs[32];
        const char *mineEnd = engine::putDecimal(mine, v);
        const char *theirsEnd = std::to_chars(theirs, theirs + sizeof theirs, v).ptr;
        QCOMPARE(QByteArray(mine, mineEnd - mine), QByteArray(theirs, theirsEnd - theirs));
    }
    // The records' and operations' references, printf's "ORD-%04d" before.
    for (const int op : {0, 1, 7, 9, 10, 99, 100, 999, 1000, 9999, 10000, 123456, -1, -999, -1000,
                         std::numeric_limits<int>::max(), std::numeric_limits<int>::min()})
        QCOMPARE(engine::orderText(op), QString::asprintf("ORD-%04d", op));
    for (int digits = 0; digits <= 17; ++digits) {
        for (const quint64 v : {quint64(0), quint64(0x0123456789abcdef), std::numeric_limits<quint64>::max(), quint64(0xf) << 60}) {
            char mine[32];
            const char *end = engine::putHex(mine, "key-", v, digits);
            QCOMPARE(QString::fromLatin1(mine, end - mine), engine::hex(QLatin1StringView("key-"), v, digits));
        }
    }
}

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
