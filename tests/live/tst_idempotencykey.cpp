// The Idempotency-Key field's syntax (issue 21 item 10), without a socket. The rules come from
// the draft (ietf-wg-httpapi/idempotency, draft-ietf-httpapi-idempotency-key-header.md, section
// "Syntax": an Item Structured Header whose value MUST be a String) and RFC 8941 sections 3.3.3
// and 4.2.5 (the sf-string and its parsing: DQUOTE, printable ASCII, only \" and \\ escaped).
#include "idempotencykey.h"

#include <QtTest>

using namespace retrylab;

class TestIdempotencyKey : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void absentIsNoKey();
};

void TestIdempotencyKey::parse_data()
{
    QTest::addColumn<QList<QByteArray>>("fields");
    QTest::addColumn<QByteArray>("key");   // empty: refused
    QTest::addColumn<QString>("mentions"); // part of the error
    const QString ok;
    QTest::addRow("bare") << QList<QByteArray>{"q-1"} << QByteArray("q-1") << ok;
    QTest::addRow("sf-string-same-key") << QList<QByteArray>{"\"q-1\""} << QByteArray("q-1") << ok;
    QTest::addRow("ows-around") << QList<QByteArray>{" \t\"q-1\" "} << QByteArray("q-1") << ok;
    QTest::addRow("sf-string-with-space") << QList<QByteArray>{"\"my key 1\""} << QByteArray("my key 1") << ok;
    QTest::addRow("sf-string-escapes") << QList<QByteArray>{"\"a\\\"b\\\\c\""} << QByteArray("a\"b\\c") << ok;
    QTest::addRow("sf-string-parameters-ignored") << QList<QByteArray>{"\"k\";v=1"} << QByteArray("k") << ok;
    QTest::addRow("uuid") << QList<QByteArray>{"8e03978e-40d5-43e8-bc93-6894a57f9324"}
                          << QByteArray("8e03978e-40d5-43e8-bc93-6894a57f9324") << ok;
    QTest::addRow("255-chars") << QList<QByteArray>{QByteArray(255, 'k')} << QByteArray(255, 'k') << ok;
    QTest::addRow("255-chars-quoted") << QList<QByteArray>{'"' + QByteArray(255, 'k') + '"'} << QByteArray(255, 'k') << ok;
    QTest::addRow("256-chars") << QList<QByteArray>{QByteArray(256, 'k')} << QByteArray() << QStringLiteral("longer than 255");
    QTest::addRow("empty") << QList<QByteArray>{""} << QByteArray() << QStringLiteral("is empty");
    QTest::addRow("only-spaces") << QList<QByteArray>{"   "} << QByteArray() << QStringLiteral("is empty");
    QTest::addRow("empty-sf-string") << QList<QByteArray>{"\"\""} << QByteArray() << QStringLiteral("is empty");
    QTest::addRow("two-fields") << QList<QByteArray>{"a", "b"} << QByteArray() << QStringLiteral("sent 2 times");
    QTest::addRow("two-fields-same-value") << QList<QByteArray>{"a", "a"} << QByteArray() << QStringLiteral("sent 2 times");
    QTest::addRow("list-quoted") << QList<QByteArray>{"\"a\", \"b\""} << QByteArray() << QStringLiteral("holds a list");
    QTest::addRow("list-bare") << QList<QByteArray>{"a, b"} << QByteArray() << QStringLiteral("holds a list");
    QTest::addRow("bare-space") << QList<QByteArray>{"my key"} << QByteArray() << QStringLiteral("quoted string");
    QTest::addRow("bad-escape") << QList<QByteArray>{"\"a\\x\""} << QByteArray() << QStringLiteral("backslash at position 3");
    QTest::addRow("unterminated") << QList<QByteArray>{"\"abc"} << QByteArray() << QStringLiteral("no closing");
    QTest::addRow("after-string") << QList<QByteArray>{"\"abc\"x"} << QByteArray() << QStringLiteral("unexpected 'x'");
    QTest::addRow("control-in-string") << QList<QByteArray>{"\"a\x01\""} << QByteArray() << QStringLiteral("byte 0x01 at position 3");
    QTest::addRow("non-ascii-bare") << QList<QByteArray>{"k\xc3\xa9"} << QByteArray() << QStringLiteral("byte 0xc3 at position 2");
    QTest::addRow("quote-inside-bare") << QList<QByteArray>{"a\"b"} << QByteArray() << QStringLiteral("'\"' at position 2");
}

void TestIdempotencyKey::parse()
{
    QFETCH(QList<QByteArray>, fields);
    QFETCH(QByteArray, key);
    QFETCH(QString, mentions);
    const IdempotencyKeyField f = IdempotencyKeyField::parse(fields, 255);
    QVERIFY(f.present);
    QCOMPARE(f.key, key);
    QCOMPARE(f.error.isEmpty(), key.size() > 0);
    if (!mentions.isEmpty())
        QVERIFY2(f.error.contains(mentions), qPrintable(f.error));
}

void TestIdempotencyKey::absentIsNoKey()
{
    const IdempotencyKeyField f = IdempotencyKeyField::parse({}, 255);
    QVERIFY(!f.present);
    QVERIFY(f.key.isEmpty());
    QVERIFY(f.error.isEmpty());
}

QTEST_GUILESS_MAIN(TestIdempotencyKey)
#include "tst_idempotencykey.moc"
