// The status bar's outcome: the records label says how many records came too late (issue 19 item 8:
// retry-storms asks "How many commits came too late?" and nothing on screen showed late commits).
#include "shell/statusoutcome.h"
#include "testsupport.h"

#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>
#include <QTest>

using namespace retrylab;

class TestStatusOutcome : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsSayHowManyCameLate();
};

void TestStatusOutcome::recordsSayHowManyCameLate()
{
    QMainWindow window;
    StatusOutcome outcome(&window);
    auto *records = window.findChild<QLabel *>(QStringLiteral("statusRecords"));
    QVERIFY(records);

    // retry-storm: 4012 of its 4530 records were committed after their client had given up (the
    // numbers retry-storms step 2 states, checked by tst_lessons).
    const RunResult storm = test::runPreset(QStringLiteral("retry-storm"));
    QCOMPARE(storm.metrics.lateCommits, 4012);
    QCOMPARE(storm.metrics.records, 4530);
    outcome.showOutcome(storm, ResultSource::Simulation, false, false);
    QCOMPARE(records->text(), QStringLiteral("Records (4012 late): 4530"));
    // Before the reveal the number stays hidden.
    outcome.showOutcome(storm, ResultSource::Simulation, true, false);
    QCOMPARE(records->text(), QStringLiteral("Records: ?"));

    // Exactly none late: the label is as it always was.
    const RunResult stable = test::runPreset(QStringLiteral("stable-key"));
    QCOMPARE(stable.metrics.lateCommits, 0);
    outcome.showOutcome(stable, ResultSource::Simulation, false, false);
    QCOMPARE(records->text(), QStringLiteral("Records: %1").arg(stable.metrics.records));
}

QTEST_MAIN(TestStatusOutcome)
#include "tst_statusoutcome.moc"
