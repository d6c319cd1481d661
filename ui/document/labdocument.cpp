#include "document/labdocument.h"

#include "document/runcontroller.h"

namespace retrylab {

LabDocument::LabDocument(QObject *parent)
    : QObject(parent)
    , m_run(new RunController(this))
{
    connect(m_run, &RunController::resultReady, this, &LabDocument::onResultReady);
}

LabDocument::~LabDocument() = default;

const Scenario &LabDocument::scenario() const
{
    return m_run->scenario();
}

const RunResult &LabDocument::result() const
{
    return m_run->result();
}

bool LabDocument::hasResult() const
{
    return m_run->hasResult();
}

const PreparedViews &LabDocument::prepared() const
{
    return m_run->prepared();
}

void LabDocument::publish(const RunResult &result, ResultSource source)
{
    m_publishing = source;
    m_run->setResult(result);
    m_publishing = ResultSource::Simulation;
}

void LabDocument::onResultReady(const RunResult &result)
{
    m_source = m_publishing;
    m_interesting = m_run->interesting(); // computed with the run, off the GUI thread when it was big
    m_selectedEvent = -1;
    Q_EMIT resultChanged(result);
}

void LabDocument::setOperation(int op)
{
    if (op == m_operation)
        return;
    m_operation = op;
    Q_EMIT operationChanged(op);
}

void LabDocument::setPlayhead(qint64 t)
{
    if (t == m_playhead)
        return;
    m_playhead = t;
    Q_EMIT playheadChanged(t);
}

void LabDocument::selectEvent(int traceIndex, QObject *origin)
{
    // Each view re-emits when told to select: the guard stops the echo.
    if (m_selecting || !hasResult() || traceIndex < 0 || traceIndex >= result().trace.size())
        return;
    m_selecting = true;
    m_selectedEvent = traceIndex;
    Q_EMIT selectionChanged(traceIndex, origin);
    m_selecting = false;
}

} // namespace retrylab
