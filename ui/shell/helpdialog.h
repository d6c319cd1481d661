#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QString>

class QTabWidget;
class QTextBrowser;
class QTreeWidget;

namespace retrylab {

// Help inside the app: the keyboard shortcuts, a glossary and how to teach with RetryLab (non-modal).
class HelpDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Page { Shortcuts, Glossary, Teaching };

    // One line of the shortcuts page. A window key is a QAction or QShortcut of the main window;
    // the others are keys the timeline handles itself while it has the focus.
    struct Shortcut
    {
        QString group;
        QList<QKeySequence> keys;
        QString description;
        bool windowKey = true;
    };

    struct Term
    {
        QString term;
        QString definition;
    };

    explicit HelpDialog(QWidget *parent = nullptr);

    Page page() const;
    void setPage(Page page);

    // Shows the window's help dialog (one per parent, made on first use) on the given page.
    static HelpDialog *showHelp(QWidget *parent, Page page);

    static QList<Shortcut> shortcuts();
    static QList<Term> glossary();

private:
    QWidget *buildShortcutsPage();
    QWidget *buildGlossaryPage();
    QWidget *buildTeachingPage();

    QTabWidget *m_tabs = nullptr;
};

} // namespace retrylab
