// The house may move code, never behaviour: the trace of every preset and of every lesson step is
// pinned to the SHA-256 of its JSONL (tests/data/golden/trace-hashes.txt, "name hash" per line).
// A deliberate change of behaviour updates the file in the same commit and says why.
// trace-hashes.txt pins trace::hash (the original fields only, unchanged since before the typed
// fields); trace-full-hashes.txt pins trace::fullHash, the whole JSONL with the typed fields.
#include "lesson.h"
#include "scenario.h"
#include "simulator.h"
#include "testpaths.h"
#include "testsupport.h"
#include "trace.h"

#include <QFile>
#include <QHash>
#include <QTest>

Q_DECLARE_METATYPE(retrylab::Scenario)

using namespace retrylab;

class TestGolden : public QObject
{
    Q_OBJECT

private:
    static QHash<QString, QByteArray> golden(const char *name)
    {
        QHash<QString, QByteArray> out;
        QFile file(retrylab::test::dataPath(QStringLiteral("golden/")) + QLatin1String(name));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(file.fileName()));
        const QList<QByteArray> lines = file.readAll().split('\n');
        for (const QByteArray &line : lines) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (parts.size() == 2)
                out.insert(QString::fromUtf8(parts[0]), parts[1]);
        }
        return out;
    }

private Q_SLOTS:
    void traces_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<Scenario>("scenario");
        const QStringList presets = scenario::presetNames();
        QVERIFY(presets.size() >= 12);
        for (const QString &name : presets)
            QTest::addRow("%s", qPrintable(name)) << name << test::presetScenario(name);
        for (const QString &lessonName : lesson::builtinNames()) {
            const LessonParse parsed = lesson::builtin(lessonName);
            QVERIFY2(parsed.ok(), qPrintable(parsed.errors.join(QLatin1Char('\n'))));
            for (int i = 0; i < parsed.lesson.steps.size(); ++i) {
                const QString name = QStringLiteral("lesson:%1:%2").arg(lessonName).arg(i + 1);
                QTest::addRow("%s", qPrintable(name)) << name << parsed.lesson.steps[i].scenario;
            }
        }
    }

    void traces()
    {
        QFETCH(QString, name);
        QFETCH(Scenario, scenario);
        static const QHash<QString, QByteArray> expected = golden("trace-hashes.txt");
        static const QHash<QString, QByteArray> expectedFull = golden("trace-full-hashes.txt");
        const Trace trace = simulate(scenario).trace;
        const QByteArray actual = trace::hash(trace);
        QVERIFY2(expected.value(name) == actual,
                 qPrintable(QStringLiteral("%1 %2 (update tests/data/golden/trace-hashes.txt only for a deliberate "
                                           "change of behaviour)").arg(name, QString::fromLatin1(actual))));
        const QByteArray full = trace::fullHash(trace);
        QVERIFY2(expectedFull.value(name) == full,
                 qPrintable(QStringLiteral("full %1 %2 (update tests/data/golden/trace-full-hashes.txt only for a "
                                           "deliberate change of the typed fields)").arg(name, QString::fromLatin1(full))));
    }
};

QTEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
