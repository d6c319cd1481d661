// LabDocument: where the result on show came from, views pulling it when shown, the selection
// every view follows (without echo), and the prepared data handed to a view when the run came with it.
#include "common/documentfollower.h"
#include "document/labdocument.h"
#include "document/runcontroller.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>
#include <QWidget>

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
    void hiddenViewPullsWhenShown();
    void viewsCatchUpWhenAsked();
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

void TestLabDocument::hiddenViewPullsWhenShown()
{
    LabDocument document;
    QWidget page; // never on screen: a page stack's hiding is what counts
    auto *shown = new QWidget(&page);
    auto *hidden = new QWidget(&page);
    hidden->hide();
    int shownPulls = 0;
    int hiddenPulls = 0;
    new DocumentFollower(shown, &document, DocumentFollower::When::Shown, [&] { ++shownPulls; });
    auto *follower = new DocumentFollower(hidden, &document, DocumentFollower::When::Shown, [&] { ++hiddenPulls; });
    document.publish(runPreset(QStringLiteral("ghost-request")), ResultSource::Simulation);
    QCOMPARE(shownPulls, 1);
    QCOMPARE(hiddenPulls, 0); // only marked stale
    QVERIFY(follower->isStale());
    hidden->show();
    QCOMPARE(hiddenPulls, 1);
    hidden->hide();
    hidden->show();
    QCOMPARE(hiddenPulls, 1); // once per result
    QVERIFY(!follower->isStale());
}

void TestLabDocument::viewsCatchUpWhenAsked()
{
    LabDocument document;
    QWidget page;
    auto *hidden = new QWidget(&page);
    hidden->hide();
    auto *always = new QWidget(&page);
    always->hide();
    int hiddenPulls = 0;
    int alwaysPulls = 0;
    new DocumentFollower(hidden, &document, DocumentFollower::When::Shown, [&] { ++hiddenPulls; });
    new DocumentFollower(always, &document, DocumentFollower::When::Always, [&] { ++alwaysPulls; });
    document.bringViewsUpToDate();
    QCOMPARE(hiddenPulls, 0); // no result yet: nothing to pull
    document.publish(runPreset(QStringLiteral("ghost-request")), ResultSource::Simulation);
    QCOMPARE(alwaysPulls, 1); // hidden or not
    QCOMPARE(hiddenPulls, 0);
    document.bringViewsUpToDate();
    QCOMPARE(hiddenPulls, 1);
    document.bringViewsUpToDate();
    QCOMPARE(hiddenPulls, 1);
    QCOMPARE(alwaysPulls, 1);
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
