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
    void labelsAreNeverCut_data();
    void labelsAreNeverCut();
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

void TestStatusOutcome::labelsAreNeverCut_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("width");
    for (const char *preset : {"metastable", "retry-storm", "ghost-request", "reconciliation", "query-before-retry"}) {
        // Every width a class uses, finely: which text fits changes within a few pixels.
        for (int width = 960; width <= 1920; width += 24)
            QTest::addRow("%s-%d", preset, width) << QString::fromLatin1(preset) << width;
    }
}

// metastable at 1024x640: "Worst case: 3 x 4 = 12 att" and "Attempts: 35882 (9.97 pe" were cut. The
// bar chose between full and short texts before the records' text, the duplicates' bold font and
// which labels show had changed. Every label it shows is whole, at window widths from 960 to 1920,
// whichever of the two calls comes first, before and after the reveal.
void TestStatusOutcome::labelsAreNeverCut()
{
    QFETCH(QString, preset);
    QFETCH(int, width);
    QMainWindow window;
    window.setCentralWidget(new QWidget);
    StatusOutcome outcome(&window);
    window.resize(width, 400);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const RunResult r = test::runPreset(preset);
    for (const bool hidden : {true, false}) {
        for (const bool worstFirst : {true, false}) {
            if (worstFirst)
                outcome.updateWorstCase(r.scenario, hidden);
            outcome.showOutcome(r, ResultSource::Simulation, hidden, false);
            if (!worstFirst)
                outcome.updateWorstCase(r.scenario, hidden);
            QCoreApplication::processEvents();
            const QList<QLabel *> labels = window.statusBar()->findChildren<QLabel *>(Qt::FindDirectChildrenOnly);
            for (const QLabel *label : labels) {
                if (!label->isVisible())
                    continue;
                const int needed = label->fontMetrics().horizontalAdvance(label->text()) + label->contentsMargins().left()
                                   + label->contentsMargins().right();
                QVERIFY2(label->width() >= needed,
                         qPrintable(QStringLiteral("\"%1\" needs %2 px, has %3 (%4)")
                                        .arg(label->text()).arg(needed).arg(label->width())
                                        .arg(hidden ? QStringLiteral("hidden") : QStringLiteral("revealed"))));
            }
        }
    }
}

QTEST_MAIN(TestStatusOutcome)
#include "tst_statusoutcome.moc"
