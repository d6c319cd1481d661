// LabDocument: where the result on show came from, which pages are a result behind, the selection
// every view follows (without echo), and the prepared data handed to a view when the run came with it.
#include "document/labdocument.h"
#include "document/runcontroller.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace retrylab;
using retrylab::test::runPreset;

namespace {
// Any view with TimelineWidget's two setResult overloads: which one the document called.
struct FakeTimeline
{
    int plain = 0;
    int prepared = 0;
    void setResult(const RunResult &) { ++plain; }
    void setResult(const RunResult &, TimelineData) { ++prepared; }
};
} // namespace

class TestLabDocument : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void publishCarriesItsSource();
    void stalePagesAreTakenOnce();
    void selectionDoesNotEcho();
    void preparedDataGoesToTheView();
};

void TestLabDocument::publishCarriesItsSource()
{
    LabDocument document;
    QList<ResultSource> sources;
    connect(&document, &LabDocument::resultChanged, this, [&] { sources << document.source(); });
    const RunResult result = runPreset(QStringLiteral("ghost-request"));
    document.publish(result, ResultSource::Watch);
    document.publish(result, ResultSource::LiveRun);
    document.runController()->setResult(result); // a result of the simulation's own
    QCOMPARE(sources, (QList<ResultSource>{ResultSource::Watch, ResultSource::LiveRun, ResultSource::Simulation}));
    QVERIFY(!document.interesting().isEmpty());
}

void TestLabDocument::stalePagesAreTakenOnce()
{
    LabDocument document;
    document.setPageCount(4);
    document.markPagesStale(0);
    QVERIFY(!document.takeStalePage(1)); // no result yet: nothing to show
    document.publish(runPreset(QStringLiteral("ghost-request")), ResultSource::Simulation);
    document.markPagesStale(0);
    QVERIFY(!document.takeStalePage(0)); // the page in view got it already
    QVERIFY(document.takeStalePage(2));
    QVERIFY(!document.takeStalePage(2)); // once
    QVERIFY(document.takeStalePage(3));
    QVERIFY(!document.takeStalePage(4)); // no such page
}

void TestLabDocument::selectionDoesNotEcho()
{
    LabDocument document;
    document.publish(runPreset(QStringLiteral("ghost-request")), ResultSource::Simulation);
    QObject view;
    QSignalSpy selected(&document, &LabDocument::selectionChanged);
    // A view told to select answers with its own pick, as the tables do.
    connect(&document, &LabDocument::selectionChanged, &view,
            [&](int index, QObject *) { document.selectEvent(index, &view); });
    document.selectEvent(1, nullptr);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(document.selectedEvent(), 1);
    document.selectEvent(int(document.result().trace.size()), nullptr); // out of range: ignored
    QCOMPARE(selected.count(), 1);
}

void TestLabDocument::preparedDataGoesToTheView()
{
    LabDocument document;
    const RunResult result = runPreset(QStringLiteral("ghost-request"));
    FakeTimeline view;
    document.runController()->setResult(result);
    document.showTimeline(&view);
    QCOMPARE(view.plain, 1);
    document.runController()->setPreparedResult(result, PreparedViews::prepare(result));
    document.showTimeline(&view);
    QCOMPARE(view.prepared, 1);
}

QTEST_MAIN(TestLabDocument)
#include "tst_labdocument.moc"
