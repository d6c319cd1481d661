#include "shell/helpdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace retrylab {

namespace {

QString keysText(const QList<QKeySequence> &keys)
{
    QStringList parts;
    for (const QKeySequence &k : keys)
        parts << k.toString(QKeySequence::NativeText);
    return parts.join(u'\n');
}

// Rows as tall as their wrapped text at the column's width: a tree view asks its delegate for a
// height without the width, so a long description would be cut with "…".
class WrappedRowDelegate : public QStyledItemDelegate
{
public:
    explicit WrappedRowDelegate(QTreeView *view)
        : QStyledItemDelegate(view)
        , m_view(view)
    {
    }
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        // The text's room: the column less the item's margins (and the indentation in the first).
        int width = m_view->columnWidth(index.column()) - 2 * TextMargin;
        if (index.column() == 0 && index.parent().isValid())
            width -= m_view->indentation();
        if (width <= 0 || opt.text.isEmpty())
            return size;
        const QRect text = opt.fontMetrics.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, opt.text);
        size.setHeight(qMax(size.height(), text.height() + 2 * TextMargin));
        return size;
    }
    // Room QCommonStyle leaves on either side of an item's text, and some to spare.
    static constexpr int TextMargin = 6;

private:
    QTreeView *m_view;
};

} // namespace

HelpDialog::HelpDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("helpDialog"));
    setWindowTitle(tr("RetryLab Help"));
    setModal(false);
    // Read at a projector: a size larger than the window's default text.
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    setFont(big);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("helpTabs"));
    m_tabs->addTab(buildShortcutsPage(), tr("Keyboard shortcuts"));
    m_tabs->addTab(buildGlossaryPage(), tr("Glossary"));
    m_tabs->addTab(buildTeachingPage(), tr("How to teach with RetryLab"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    layout->addWidget(buttons);
    resize(960, 640);
}

HelpDialog::Page HelpDialog::page() const
{
    return Page(m_tabs->currentIndex());
}

void HelpDialog::setPage(Page page)
{
    m_tabs->setCurrentIndex(int(page));
}

HelpDialog *HelpDialog::showHelp(QWidget *parent, Page page)
{
    auto *dialog = parent ? parent->findChild<HelpDialog *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
    if (!dialog)
        dialog = new HelpDialog(parent);
    dialog->setPage(page);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

QList<HelpDialog::Shortcut> HelpDialog::shortcuts()
{
    const QString play = tr("Playback");
    const QString pages = tr("Pages");
    const QString timeline = tr("On the timeline (click it first)");
    const QString files = tr("Files and live runs");
    const QString help = tr("Help");
    const QString presenting = tr("Presenting");
    const QString lessons = tr("Lessons");
    return {
        {play, {QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_MediaTogglePlayPause)},
         tr("Play the operation from the beginning, or pause it")},
        {play, {QKeySequence(Qt::CTRL | Qt::Key_Left), QKeySequence(Qt::Key_MediaPrevious)},
         tr("Step back to the previous event of this operation")},
        {play, {QKeySequence(Qt::CTRL | Qt::Key_Right), QKeySequence(Qt::Key_MediaNext)},
         tr("Step on to the next event of this operation")},
        {play, {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Left)}, tr("Previous interesting operation")},
        {play, {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Right)},
         tr("Next interesting operation")},
        {play, {QKeySequence(QKeySequence::Refresh)}, tr("Run the scenario again (same seed, same result)")},
        {play, {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)}, tr("Run again with a new random seed")},
        {timeline, {QKeySequence(Qt::Key_Left)}, tr("Previous event"), false},
        {timeline, {QKeySequence(Qt::Key_Right)}, tr("Next event"), false},
        {timeline, {QKeySequence(Qt::Key_Home)}, tr("Back to the first event"), false},
        {timeline, {QKeySequence(Qt::Key_End)}, tr("On to the last event"), false},
        {timeline, {QKeySequence(Qt::Key_PageUp)},
         tr("Previous interesting operation (a presenter clicker's back button)")},
        {timeline, {QKeySequence(Qt::Key_PageDown)},
         tr("Next interesting operation (a presenter clicker's forward button)")},
        {timeline, {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)},
         tr("Zoom in (also Ctrl and the mouse wheel)"), false},
        {timeline, {QKeySequence(Qt::Key_Minus)}, tr("Zoom out"), false},
        {pages, {QKeySequence(Qt::CTRL | Qt::Key_1)}, tr("Timeline page")},
        {pages, {QKeySequence(Qt::CTRL | Qt::Key_2)}, tr("Charts page")},
        {pages, {QKeySequence(Qt::CTRL | Qt::Key_3)}, tr("Records page")},
        {pages, {QKeySequence(Qt::CTRL | Qt::Key_4)}, tr("Log page")},
        {pages, {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)},
         tr("Predict before you see: hide the numbers until the class has guessed, then reveal")},
        {pages, {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)},
         tr("Compare: this scenario beside a copy with one toggle changed (in that window: Space plays both, "
            "Left and Right step both, Escape closes it)")},
        {presenting, {QKeySequence(Qt::Key_F11)},
         tr("Presentation mode: full screen, large text, editing panels hidden (F11 or Escape leaves)")},
        {presenting, {QKeySequence(Qt::Key_Escape)}, tr("Leave presentation mode (a live run is stopped first)")},
        {presenting, {QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_Right)},
         tr("While presenting: previous / next event, wherever the focus is")},
        {presenting, {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)},
         tr("Zoom the whole window in, for a projector (kept for next time)")},
        {presenting, {QKeySequence(Qt::CTRL | Qt::Key_Minus)}, tr("Zoom the whole window out")},
        {presenting, {QKeySequence(Qt::CTRL | Qt::Key_0)}, tr("Back to the actual size")},
        {files, {QKeySequence(QKeySequence::Open)}, tr("Open a scenario file")},
        {files, {QKeySequence(QKeySequence::Save)}, tr("Save the scenario")},
        {files, {QKeySequence(QKeySequence::SaveAs)}, tr("Save the scenario under another name")},
        {files, {QKeySequence(Qt::CTRL | Qt::Key_L)}, tr("Live: run the scenario over real HTTP on this computer")},
        {files, {QKeySequence(Qt::Key_Escape)}, tr("Stop the live run")},
        {files, {QKeySequence(QKeySequence::Quit)}, tr("Quit RetryLab")},
        {lessons, {QKeySequence(Qt::Key_PageDown)},
         tr("While a lesson is open: the next step, wherever the focus is (a presenter clicker's forward button)")},
        {lessons, {QKeySequence(Qt::Key_PageUp)}, tr("While a lesson is open: the previous step")},
        {help, {QKeySequence(Qt::Key_F1)}, tr("This list of keyboard shortcuts")},
    };
}

QList<HelpDialog::Term> HelpDialog::glossary()
{
    QList<Term> terms{
        {tr("timeout"),
         tr("How long a client waits for an answer before it gives up on an attempt. A timeout says nothing about "
            "what the server did: the request may have been lost, or the order committed and only the response "
            "lost. A timeout is not a failure.")},
        {tr("idempotency key"),
         tr("A unique value the client sends in the Idempotency-Key header so that the server recognises a retry of "
            "a request it has already processed. It protects only when it is minted once per logical operation, "
            "before any retry loop, and the server reserves it atomically.")},
        {tr("replay"),
         tr("The server's answer to a retry whose idempotency key it already holds: the stored response, same "
            "status and same body, with the header Idempotent-Replayed: true, and no new record.")},
        {tr("orphan"),
         tr("An order the client reported as failed although the server committed at least one record for it. "
            "The user is told that the order failed, yet it exists.")},
        {tr("duplicate"),
         tr("A committed record beyond the first for the same order (the same business reference). RetryLab counts "
            "records minus orders with at least one record; records voided by reconciliation still count.")},
        {tr("lost"),
         tr("An order the client reported as succeeded that has no record on the server. It must always be 0.")},
        {tr("amplification"),
         tr("HTTP attempts divided by logical operations: how many requests the server receives for each order "
            "the users meant to place. Nested retry layers multiply it.")},
        {tr("jitter"),
         tr("Randomness added to the wait before a retry, so that clients that failed together do not retry "
            "together. Full jitter waits a random time from 0 to the backoff; equal jitter keeps half of the "
            "backoff and draws the other half; decorrelated jitter draws from the base to three times the "
            "previous wait.")},
        {tr("exponential backoff"),
         tr("Waiting longer before each retry: the wait is multiplied by a constant factor (usually 2) after each "
            "attempt, up to a cap. Without jitter, clients that failed together still retry together.")},
        {tr("retry budget"),
         tr("A limit on retries as a share of the successful traffic: each success deposits a fraction of a token, "
            "each retry spends one token, and a retry finding no token is not sent. It keeps retries from "
            "multiplying the load on an overloaded server.")},
        {tr("circuit breaker"),
         tr("A switch in the client that stops sending requests after too many failures (in a row, or as a "
            "failure rate), fails at once for a while, then lets a trial request through to see whether the "
            "server has recovered.")},
        {tr("version conflict (OCC)"),
         tr("Optimistic concurrency control: a client reads a row with its version and writes with that version; "
            "if another write came first, the server answers 409 and the client reads again and retries. It "
            "settles concurrent writes but does not make a retry safe: a write whose response was lost is "
            "applied twice.")},
        {tr("metastable failure"),
         tr("An overload that outlives its trigger: the retries caused by the slow server keep the load above "
            "its capacity after the trigger has ended. Only less load (a retry budget, fewer retry layers, fewer "
            "arrivals) brings the server back.")},
        {tr("reconciliation"),
         tr("A job that periodically looks for orders with more than one record and flags or voids the extras. "
            "It is the last safety net: it repairs duplicates after the fact, it does not prevent them.")},
        {tr("request ID"),
         tr("An identifier (the X-Request-ID header) given to each logical operation and carried by every attempt "
            "at every layer, so that the log groups all the attempts of one order. It helps people read the log; "
            "unlike an idempotency key, the server decides nothing with it.")},
        {tr("logical operation"),
         tr("One order the user meant to place, with a business reference such as ORD-0007, however many "
            "requests it took.")},
        {tr("record"), tr("A row the order service committed: one created order.")},
        {tr("retry layer"),
         tr("One place in the client that retries: the business loop in the application code, a @retry wrapper "
            "around the send method, or the HTTP transport (urllib3 Retry). Each layer retries the whole of the "
            "layers inside it.")},
        {tr("worst case"),
         tr("The attempts of one operation when every enabled layer uses up its retries: the product of the "
            "layers' attempt counts, for example 3 x 3 x 4 = 36.")},
        {tr("ghost request"),
         tr("A request that reaches the server late and is committed after its client has given up on it, "
            "typically after a latency spike longer than the timeout.")},
        {tr("payload fingerprint"),
         tr("A hash of the request body stored with the idempotency key. The same key with a different body is "
            "refused with 422 instead of being replayed.")},
        {tr("single-use token"),
         tr("A token the client first asks the server for (POST /order-tokens) and then sends with its order. "
            "A used token is refused with 409, so a lost first response ends as an orphan unless the client "
            "queries the order's status.")},
        {tr("query before retry"),
         tr("Before resending, the client asks the server whether the order exists (GET /orders?ref=...) and "
            "resends only if it does not.")},
        {tr("goodput"), tr("Operations that succeeded per second: the useful part of the traffic, retries left out.")},
    };
    std::sort(terms.begin(), terms.end(),
              [](const Term &a, const Term &b) { return a.term.localeAwareCompare(b.term) < 0; });
    return terms;
}

QWidget *HelpDialog::buildShortcutsPage()
{
    // Parented at once, so the columns are measured in the dialog's (larger) font.
    auto *page = new QWidget(this);
    auto *note = new QLabel(tr("The keys work anywhere in the main window, except those listed under \"On the "
                               "timeline\". An interesting operation has a duplicate, an orphan, a replay, a 409, "
                               "a 422 or a status query."),
                            page);
    note->setWordWrap(true);
    auto *tree = new QTreeWidget(page);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(note);
    layout->addWidget(tree);

    tree->setObjectName(QStringLiteral("helpShortcuts"));
    tree->setColumnCount(2);
    tree->setHeaderLabels({tr("Keys"), tr("What it does")});
    tree->setRootIsDecorated(false);
    tree->setItemsExpandable(false);
    tree->setSelectionMode(QAbstractItemView::NoSelection);
    tree->setFocusPolicy(Qt::NoFocus);
    tree->setWordWrap(true);
    tree->setTextElideMode(Qt::ElideNone);
    tree->setUniformRowHeights(false);
    tree->setItemDelegate(new WrappedRowDelegate(tree));
    // A narrower column makes taller rows: laid out again once the widths have settled.
    connect(tree->header(), &QHeaderView::sectionResized, tree, [tree] {
        QTimer::singleShot(0, tree, [tree] { tree->doItemsLayout(); });
    });
    QFont groupFont = tree->font();
    groupFont.setBold(true);
    QTreeWidgetItem *group = nullptr;
    const QList<Shortcut> list = shortcuts();
    for (Shortcut s : list) {
        // A standard key (Refresh, Quit...) may have no binding on this platform: no row for it.
        s.keys.removeAll(QKeySequence());
        if (s.keys.isEmpty())
            continue;
        if (!group || group->text(0) != s.group) {
            group = new QTreeWidgetItem(tree, {s.group});
            group->setFirstColumnSpanned(true);
            group->setFont(0, groupFont);
        }
        auto *item = new QTreeWidgetItem(group, {keysText(s.keys), s.description});
        QStringList portable;
        for (const QKeySequence &k : s.keys)
            portable << k.toString(QKeySequence::PortableText);
        item->setData(0, Qt::UserRole, portable);
        item->setData(0, Qt::UserRole + 1, s.windowKey);
    }
    tree->expandAll();
    tree->header()->setStretchLastSection(true);
    tree->resizeColumnToContents(0);
    tree->setColumnWidth(0, tree->columnWidth(0) + 24);
    return page;
}

QWidget *HelpDialog::buildGlossaryPage()
{
    auto *browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("helpGlossary"));
    QString html = QStringLiteral("<dl>");
    const QList<Term> terms = glossary();
    for (const Term &t : terms) {
        html += QStringLiteral("<dt style=\"font-weight:bold; margin-top:10px\">%1</dt><dd>%2</dd>")
                    .arg(t.term.toHtmlEscaped(), t.definition.toHtmlEscaped());
    }
    html += QStringLiteral("</dl>");
    browser->setHtml(html);
    return browser;
}

QWidget *HelpDialog::buildTeachingPage()
{
    auto *browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("helpTeaching"));
    const QStringList steps{
        tr("<b>Start with a guided lesson.</b> The Lessons menu holds lessons of three or four steps each. Each step "
           "sets the scenario up, says what to watch and asks the class a question; the answer stays hidden "
           "until you press Reveal, which plays the operation and then answers. Page Down and Page Up (a "
           "presenter clicker) go to the next or previous step. Press F11 first for presentation mode."),
        tr("<b>Pick a preset.</b> The Presets tab on the left (or File ▸ New from preset) lists the lessons; "
           "each preset sets up one experiment. Start with <nobr>ghost-request</nobr>, then its fixes "
           "<nobr>stable-key</nobr> and <nobr>layered-fix</nobr>, and <nobr>rotating-key</nobr>, a fix that is "
           "not one."),
        tr("<b>Read the lesson.</b> The preset's description says what it shows. Read it aloud, then ask the "
           "class what they expect: how many records will the server hold?"),
        tr("<b>Play the story operation.</b> The Timeline opens on the operation that tells the lesson (a "
           "duplicate, an orphan, a replay, a 409 or a 422). Space plays it from the beginning; the sentence "
           "under the timeline narrates each event."),
        tr("<b>Step through it.</b> Click the timeline, then Left and Right step event by event, so you can stop "
           "and ask what happens next. Page Up and Page Down, the keys a presenter clicker sends, jump to the "
           "previous or next interesting operation. The status bar keeps attempts, records, duplicates, orphans "
           "and lost in view."),
        tr("<b>Compare with What if?</b> Charts ▸ What if? runs the same seed with one change at a time, so the "
           "class sees which single change removes the duplicates."),
        tr("<b>Side by side.</b> View ▸ Compare… (Ctrl+Shift+C) shows the scenario beside a copy with one "
           "toggle changed, same seed: both timelines play together, one chart holds both runs, and a table "
           "gives the difference in records, duplicates, attempts, latency and goodput."),
        tr("<b>Sweep.</b> Charts ▸ Sweep varies one setting over a range (for example the response loss rate), "
           "with several seeds per value, and draws one line per value of its \"Compare by\" setting. New seed "
           "(Ctrl+Shift+R) shows that the lesson holds for any seed."),
        tr("<b>Many clients.</b> For <nobr>retry-storm</nobr>, metastable and <nobr>jitter-contention</nobr>, "
           "open Charts ▸ Load over time: offered load, served requests, goodput and retries, with the "
           "timeline's playhead."),
        tr("<b>Students' own clients.</b> File ▸ Serve… runs the order service over HTTP with the scenario's "
           "faults; tick \"Listen on the local network\" so students can send orders from their laptops with "
           "curl, Python or their own code. File ▸ Watch live requests shows every request as it arrives."),
        tr("<b>Hand out.</b> File ▸ Export ▸ Handout as PDF prints the scenario on show; Lessons ▸ Handout of "
           "this lesson as PDF prints a lesson, one step per page. View ▸ Language switches between English and "
           "Simplified Chinese at any time, and the handouts follow it."),
    };
    QString html = QStringLiteral("<p>%1</p><ol>").arg(
        tr("A lesson at the projector, step by step. Set the window to the projector's resolution first; "
           "F1 shows the keyboard shortcuts."));
    // Qt breaks lines at a hyphen even inside <nobr>: preset names get non-breaking hyphens.
    static const QRegularExpression name(QStringLiteral("<nobr>([^<]*)</nobr>"));
    for (QString s : steps) {
        QRegularExpressionMatch m;
        while ((m = name.match(s)).hasMatch())
            s.replace(m.capturedStart(), m.capturedLength(), m.captured(1).replace(u'-', QChar(0x2011)));
        html += QStringLiteral("<li style=\"margin-bottom:8px\">%1</li>").arg(s);
    }
    html += QStringLiteral("</ol>");
    browser->setHtml(html);
    return browser;
}

} // namespace retrylab
