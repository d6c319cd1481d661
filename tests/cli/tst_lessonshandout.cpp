// retrylab lessons --handout FILE --lesson NAME [--student]: a lesson's handout from a terminal
// (issue 19 item 10), the teacher's copy with the answers and the students' without.
#include "testpaths.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString err;
};

Run runRetrylab(const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(env);
    process.start(retrylab::test::retrylabBin(), arguments);
    if (!process.waitForFinished(180000) || process.exitStatus() != QProcess::NormalExit)
        return Run{};
    return Run{process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
}

QString pdfText(const QString &file)
{
    QProcess text;
    text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), {file, QStringLiteral("-")});
    text.waitForFinished(30000);
    return QString::fromUtf8(text.readAllStandardOutput()).simplified();
}

} // namespace

class TestLessonsHandout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void teacherAndStudentCopies()
    {
        QTemporaryDir dir;
        const QString teacher = dir.filePath(QStringLiteral("teacher.pdf"));
        const QString student = dir.filePath(QStringLiteral("student.pdf"));
        QCOMPARE(runRetrylab({QStringLiteral("lessons"), QStringLiteral("--handout"), teacher, QStringLiteral("--lesson"),
                           QStringLiteral("timeout-is-not-failure")}).exitCode, 0);
        QCOMPARE(runRetrylab({QStringLiteral("lessons"), QStringLiteral("--handout"), student, QStringLiteral("--lesson"),
                           QStringLiteral("timeout-is-not-failure"), QStringLiteral("--student")}).exitCode, 0);
        const QString withAnswers = pdfText(teacher);
        const QString without = pdfText(student);
        QVERIFY2(withAnswers.contains(QLatin1String("Answer: 2")), qPrintable(withAnswers));
        QVERIFY2(without.contains(QLatin1String("How many records of this one order will the server hold?")), qPrintable(without));
        QVERIFY2(!without.contains(QLatin1String("Answer")), qPrintable(without));
        QVERIFY2(without.contains(QLatin1String("My prediction:")), qPrintable(without));
    }

    // Usage errors say what is missing, exit 2 and write nothing.
    void usageErrors()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("h.pdf"));
        Run r = runRetrylab({QStringLiteral("lessons"), QStringLiteral("--handout"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("--handout needs --lesson NAME")), qPrintable(r.err));
        r = runRetrylab({QStringLiteral("lessons"), QStringLiteral("--student")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("go with --handout")), qPrintable(r.err));
        r = runRetrylab({QStringLiteral("lessons"), QStringLiteral("--handout"), file, QStringLiteral("--lesson"),
                      QStringLiteral("no-such-lesson")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("no-such-lesson")), qPrintable(r.err));
        r = runRetrylab({QStringLiteral("lessons"), QStringLiteral("--handout"), dir.filePath(QStringLiteral("h.txt")),
                      QStringLiteral("--lesson"), QStringLiteral("timeout-is-not-failure")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("h.txt")), qPrintable(r.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLessonsHandout)
#include "tst_lessonshandout.moc"
