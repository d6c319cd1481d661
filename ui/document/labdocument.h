#pragma once

#include "document/preparedviews.h"
#include "document/resultsource.h"
#include "scenario.h"
#include "simulator.h"
#include "story.h"

#include <QList>
#include <QObject>
#include <QString>

#include <utility>

namespace retrylab {

class RunController;

// The lab's one document: the scenario (as loaded and as edited), the run result with what the
// views derive from it, where that result came from, and what the user looks at (operation,
// selected event, playhead). Views and controllers observe it; it includes no widget header.
class LabDocument : public QObject
{
    Q_OBJECT
public:
    explicit LabDocument(QObject *parent = nullptr);
    ~LabDocument() override;

    // Runs the scenario being edited; the document publishes its results.
    RunController *runController() const { return m_run; }

    // ---- The scenario
    // As loaded (preset or file): the editor's "modified" reference and the language switch's.
    const Scenario &baseline() const { return m_baseline; }
    void setBaseline(const Scenario &scenario) { m_baseline = scenario; }
    const Scenario &scenario() const;
    QString fileName() const { return m_fileName; }
    void setFileName(const QString &fileName) { m_fileName = fileName; }
    bool isModified() const { return m_modified; }
    void setModified(bool modified) { m_modified = modified; }

    // ---- The result
    const RunResult &result() const;
    bool hasResult() const;
    const PreparedViews &prepared() const;
    // Operations worth a look in the result on show (duplicate, orphan, 409, 422, replay, query).
    const QList<InterestingOp> &interesting() const { return m_interesting; }
    ResultSource source() const { return m_source; }
    // Hands a result from outside the simulation (Watch, Live run) to the run controller, so it
    // is shown as a run of the scenario is; resultChanged then carries its source.
    void publish(const RunResult &result, ResultSource source);
    // The next result opens on its story operation (a scenario was loaded, a new seed, another source).
    void setOpenOnStory(bool story) { m_openOnStory = story; }
    // Whether the result just arrived opens on its story operation; reading it clears it.
    bool takeOpenOnStory() { return std::exchange(m_openOnStory, false); }

    // ---- What the user looks at
    int operation() const { return m_operation; }
    void setOperation(int op);
    int selectedEvent() const { return m_selectedEvent; }
    qint64 playhead() const { return m_playhead; }
    void setPlayhead(qint64 t);
    // The views have the new result (its operation and playhead set): resultShown follows.
    void notifyShown() { Q_EMIT resultShown(); }

    // Views that are a result behind (hidden pages) pull it now: an export reads them all.
    void bringViewsUpToDate() { Q_EMIT viewsCatchUpWanted(); }

    // A view pulls the result on show through these: with its prepared part when the run came
    // with one (computed on the worker thread), else to derive it. Templates, so that document/
    // needs no widget header: any view with the same setResult overloads fits.
    template<class Timeline> void showTimeline(Timeline *timeline) const
    {
        if (prepared().ready)
            timeline->setResult(result(), prepared().timeline);
        else
            timeline->setResult(result());
    }
    template<class Charts> void showCharts(Charts *charts) const
    {
        if (prepared().ready)
            charts->setResult(result(), prepared().charts);
        else
            charts->setResult(result());
    }
    template<class Records> void showRecords(Records *records) const
    {
        if (prepared().ready)
            records->setPrepared(prepared().records);
        else
            records->setResult(result());
    }

public Q_SLOTS:
    // A view picked event `traceIndex` of the result on show; `origin` is that view (null: none).
    void selectEvent(int traceIndex, QObject *origin = nullptr);

Q_SIGNALS:
    // A new result is on show (source() says where from): the views follow it (DocumentFollower).
    void resultChanged(const retrylab::RunResult &result);
    // After the views were given a new result (its operation and playhead set).
    void resultShown();
    void operationChanged(int op);
    // Every view but `origin` selects the event; the document stops the echo of their answers.
    void selectionChanged(int traceIndex, QObject *origin);
    void playheadChanged(qint64 t);
    // Every view a result behind pulls it (bringViewsUpToDate).
    void viewsCatchUpWanted();

private:
    void onResultReady(const RunResult &result);

    RunController *m_run = nullptr;
    Scenario m_baseline;
    QString m_fileName;
    bool m_modified = false;
    QList<InterestingOp> m_interesting;
    ResultSource m_source = ResultSource::Simulation;     // of the result on show
    ResultSource m_publishing = ResultSource::Simulation; // of the result being handed over
    bool m_openOnStory = true;
    int m_operation = 0;
    int m_selectedEvent = -1;
    qint64 m_playhead = -1;
    bool m_selecting = false;
};

} // namespace retrylab
