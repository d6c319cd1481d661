#include "common/documentfollower.h"

#include "document/labdocument.h"

#include <QEvent>
#include <QWidget>

namespace retrylab {

DocumentFollower::DocumentFollower(QWidget *view, LabDocument *document, When when, std::function<void()> pull)
    : QObject(view)
    , m_view(view)
    , m_document(document)
    , m_when(when)
    , m_pull(std::move(pull))
{
    connect(document, &LabDocument::resultChanged, this, &DocumentFollower::onResultChanged);
    connect(document, &LabDocument::viewsCatchUpWanted, this, &DocumentFollower::pullIfStale);
    view->installEventFilter(this);
}

void DocumentFollower::onResultChanged()
{
    m_stale = true;
    // isHidden, not isVisible: a page stack hides the pages not in view, while a window not shown
    // yet (a test's, an export's) still shows its current page.
    if (m_when == When::Always || !m_view->isHidden())
        pullIfStale();
}

void DocumentFollower::pullIfStale()
{
    if (!m_stale || !m_document->hasResult())
        return;
    m_stale = false;
    m_pull();
}

bool DocumentFollower::eventFilter(QObject *watched, QEvent *event)
{
    // ShowToParent, not Show: a page becomes current also in a window that is not on screen.
    if (watched == m_view && event->type() == QEvent::ShowToParent)
        pullIfStale();
    return QObject::eventFilter(watched, event);
}

} // namespace retrylab
