#pragma once

#include "document/resultsource.h"
#include "scenario.h"
#include "simulator.h"

#include <QObject>

class QLabel;
class QMainWindow;
class QProgressBar;
class QStatusBar;

namespace retrylab {

// The status bar's outcome: the last run's numbers (attempts, records, duplicates, orphans…),
// the worst case of the scenario, the busy bar, and a banner when a run was refused or failed.
// The Watch and Live run labels sit among them, written by LiveController.
class StatusOutcome : public QObject
{
    Q_OBJECT
public:
    // Adds its labels to `window`'s status bar, in their order from the left.
    explicit StatusOutcome(QMainWindow *window);

    // The run's numbers ("?" while `hidden`: prediction mode or a lesson question).
    void showOutcome(const RunResult &result, ResultSource source, bool hidden, bool liveRunning);
    // The worst case of `scenario` in attempts per operation ("?" while `hidden`).
    void updateWorstCase(const Scenario &scenario, bool hidden);
    // The banner at the left of the status bar: the numbers beside it are the last run's.
    void showBanner(const QString &text, const QString &toolTip);
    void hideBanner();
    // A simulation in the background.
    void setRunBusy(bool busy);
    // A Live run started or ended; `runBusy`: a simulation is still running too.
    void setLiveRunning(bool running, bool runBusy, ResultSource source);

    // Where the embedded server serves (Watch), and the Live run's progress or description.
    QLabel *watchLabel() const { return m_watch; }
    QLabel *liveRunLabel() const { return m_liveRun; }
    // True when the bar is too narrow for the numbers in full: the worst case and the attempts
    // drop their detail ("Worst case: 36 attempts per op", "Attempts: 29") rather than be cut.
    bool isShort() const { return m_short; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QLabel *addLabel(const QString &name, const QString &tip);
    // A label's text in full and short; which one shows is fitToBar()'s choice.
    void setTexts(QLabel *label, const QString &full, const QString &shortText);
    // The short texts when the full ones do not fit the bar's width. Decided from the full texts and
    // the bar's width only, so that it settles at once.
    void fitToBar();

    QMainWindow *m_window;
    QStatusBar *m_bar = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_refused = nullptr;
    QLabel *m_watch = nullptr;
    QLabel *m_liveRun = nullptr;
    QLabel *m_worstCase = nullptr;
    QLabel *m_attempts = nullptr;
    QLabel *m_records = nullptr;
    QLabel *m_queries = nullptr;
    QLabel *m_duplicates = nullptr;
    QLabel *m_outstanding = nullptr;
    QLabel *m_orphans = nullptr;
    QLabel *m_lost = nullptr;
    bool m_short = false;
};

} // namespace retrylab
