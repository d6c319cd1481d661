#pragma once

#include <QObject>

#include <functional>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace retrylab {

class LabDocument;

// Keeps one view in step with the document's result: the view pulls its part when a result
// arrives while it is shown, and a hidden view only marks itself stale and pulls when it is shown
// (resetting the tables and charts of a 40,000-order result costs tens of ms, wasted on a hidden page).
class DocumentFollower : public QObject
{
    Q_OBJECT
public:
    enum class When {
        Shown,  // pulls while the view is shown (not hidden by its page stack)
        Always, // pulls every result: a view others read (the timeline's operation and playhead)
    };
    // `pull` gives the view the document's result on show; the follower is a child of `view`.
    DocumentFollower(QWidget *view, LabDocument *document, When when, std::function<void()> pull);

    // Whether the view shows an older result than the document's.
    bool isStale() const { return m_stale; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onResultChanged();
    void pullIfStale();

    QWidget *m_view;
    LabDocument *m_document;
    When m_when;
    std::function<void()> m_pull;
    bool m_stale = false;
};

} // namespace retrylab
