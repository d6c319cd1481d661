#include "shell/helpdialog.h"
#include "shell/mainwindow.h"
#include "document/runcontroller.h"
#include "timeline/timelinewidget.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QShortcut>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

#include <algorithm>

using namespace retrylab;

namespace {

constexpr int RunTimeoutMs = 120000;

// One key per string, sorted, so that two lists compare as multisets.
QStringList sortedKeys(QStringList keys)
{
    std::sort(keys.begin(), keys.end());
    return keys;
}

// Every key the window binds through a QAction or a QShortcut.
QStringList windowKeys(const MainWindow &w)
{
    QStringList keys;
    const QList<QAction *> actions = w.findChildren<QAction *>();
    for (const QAction *a : actions) {
        const QList<QKeySequence> shortcuts = a->shortcuts();
        for (const QKeySequence &k : shortcuts)
            keys << k.toString(QKeySequence::PortableText);
    }
    const QList<QShortcut *> shortcuts = w.findChildren<QShortcut *>();
    for (const QShortcut *s : shortcuts) {
        const QList<QKeySequence> list = s->keys();
        for (const QKeySequence &k : list)
            keys << k.toString(QKeySequence::PortableText);
    }
    return sortedKeys(keys);
}

// The keys the dialog's shortcuts page shows, read from its rows: window keys or timeline keys.
QStringList shownKeys(const HelpDialog &dialog, bool windowKey)
{
    const auto *tree = dialog.findChild<QTreeWidget *>(QStringLiteral("helpShortcuts"));
    if (!tree)
        return {};
    QStringList keys;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        const QTreeWidgetItem *group = tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i) {
            const QTreeWidgetItem *item = group->child(i);
            if (item->data(0, Qt::UserRole + 1).toBool() != windowKey)
                continue;
            const QStringList portable = item->data(0, Qt::UserRole).toStringList();
            // What the row shows is what the data says.
            QStringList native;
            for (const QString &k : portable)
                native << QKeySequence::fromString(k, QKeySequence::PortableText).toString(QKeySequence::NativeText);
            if (item->text(0) != native.join(u'\n') || item->text(1).isEmpty())
                return {QStringLiteral("row %1 shows %2 for %3")
                            .arg(item->text(1), item->text(0), portable.join(u','))};
            keys << portable;
        }
    }
    return sortedKeys(keys);
}

bool sendKey(QWidget *widget, Qt::Key key)
{
    QKeyEvent event(QEvent::KeyPress, key, Qt::NoModifier);
    QApplication::sendEvent(widget, &event);
    return event.isAccepted();
}

} // namespace

class TestHelp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void threePages();
    void shortcutDescriptionsWrap();
    void shortcutsMatchTheWindow();
    void timelineKeysMatchTheTimeline();
    void glossaryHasEveryTerm();
    void helpMenuOpensTheRightPage_data();
    void helpMenuOpensTheRightPage();
    void f1OpensTheShortcuts();
    void escapeCloses();
};

void TestHelp::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(QStringLiteral("RetryLab"));
}

void TestHelp::init()
{
    QSettings().clear();
}

// Issue 19: a description the column cannot hold on one line wraps; no row is cut with "…".
void TestHelp::shortcutDescriptionsWrap()
{
    HelpDialog dialog;
    QFont big = dialog.font();
    big.setPointSizeF(big.pointSizeF() * 1.5); // as in presentation mode
    dialog.setFont(big);
    dialog.resize(520, 700);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *tree = dialog.findChild<QTreeWidget *>(QStringLiteral("helpShortcuts"));
    QVERIFY(tree);
    QCOMPARE(tree->textElideMode(), Qt::ElideNone);
    QTest::qWait(50); // the rows are laid out again after the columns settle
    int wrapped = 0;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        const QTreeWidgetItem *group = tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i) {
            const QModelIndex index = tree->indexFromItem(group->child(i), 1);
            const QRect rect = tree->visualRect(index);
            const QString text = group->child(i)->text(1);
            const QFontMetrics fm(tree->font());
            const QRect needed = fm.boundingRect(QRect(0, 0, rect.width() - 8, 100000), Qt::TextWordWrap, text);
            QVERIFY2(rect.height() >= needed.height(),
                     qPrintable(QStringLiteral("\"%1\": %2 px high, its text needs %3").arg(text).arg(rect.height()).arg(needed.height())));
            if (fm.horizontalAdvance(text) > rect.width())
                ++wrapped;
        }
    }
    QVERIFY2(wrapped > 0, "the dialog is narrow enough for some descriptions to wrap");
}

void TestHelp::threePages()
{
    HelpDialog dialog;
    const auto *tabs = dialog.findChild<QTabWidget *>(QStringLiteral("helpTabs"));
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 3);
    QCOMPARE(tabs->tabText(0), QStringLiteral("Keyboard shortcuts"));
    QCOMPARE(tabs->tabText(1), QStringLiteral("Glossary"));
    QCOMPARE(tabs->tabText(2), QStringLiteral("How to teach with RetryLab"));
    QVERIFY(!dialog.isModal());

    const auto *teaching = dialog.findChild<QTextBrowser *>(QStringLiteral("helpTeaching"));
    QVERIFY(teaching);
    const QString text = teaching->toPlainText();
    for (const char *needle : {"preset", "Left and Right", "Page Up and Page Down", "What if?", "Sweep",
                               "Load over time", "Serve", "Lessons menu", "Reveal", "Compare", "Handout", "Language"})
        QVERIFY2(text.contains(QLatin1String(needle)), needle);
}

// The list cannot drift: a shortcut added to the window without a row here (or a row whose
// key the window no longer binds) fails this test.
void TestHelp::shortcutsMatchTheWindow()
{
    MainWindow w;
    HelpDialog dialog;
    const QStringList actual = windowKeys(w);
    const QStringList shown = shownKeys(dialog, true);
    QVERIFY(actual.contains(QStringLiteral("F1")));
    QVERIFY(actual.contains(QStringLiteral("PgDown")));
    QStringList missing;
    for (const QString &k : actual) {
        if (!shown.contains(k))
            missing << k;
    }
    QStringList extra;
    for (const QString &k : shown) {
        if (!actual.contains(k))
            extra << k;
    }
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not listed: ") + missing.join(u' ')));
    QVERIFY2(extra.isEmpty(), qPrintable(QStringLiteral("listed but not bound: ") + extra.join(u' ')));
    QCOMPARE(shown, actual);
}

// The keys the timeline handles itself (without a modifier) are the ones listed for it,
// plus the window's keys that it mirrors (Space).
void TestHelp::timelineKeysMatchTheTimeline()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.loadPreset(QStringLiteral("stable-key"), &error), qPrintable(error));
    RunController *run = w.runController();
    QVERIFY(QTest::qWaitFor([run] { return !run->isPending() && run->hasResult(); }, RunTimeoutMs));

    // A window of its own: an ignored key goes no further, so "accepted" means the timeline handled it.
    TimelineWidget timeline;
    timeline.setResult(w.result());
    HelpDialog dialog;
    const QStringList listed = shownKeys(dialog, false);
    QVERIFY(!listed.isEmpty());
    const QStringList window = shownKeys(dialog, true);

    for (const QString &k : listed) {
        const QKeySequence seq = QKeySequence::fromString(k, QKeySequence::PortableText);
        QVERIFY2(sendKey(&timeline, Qt::Key(seq[0].key())), qPrintable(k));
    }
    QList<int> keys;
    for (int k = Qt::Key_Space; k <= Qt::Key_AsciiTilde; ++k)
        keys << k;
    for (int k = Qt::Key_Escape; k <= Qt::Key_PageDown; ++k)
        keys << k;
    for (int k = Qt::Key_F1; k <= Qt::Key_F12; ++k)
        keys << k;
    for (int k : std::as_const(keys)) {
        if (k == Qt::Key_Tab || k == Qt::Key_Backtab)
            continue; // focus navigation, done by every widget
        const QString name = QKeySequence(k).toString(QKeySequence::PortableText);
        if (sendKey(&timeline, Qt::Key(k)))
            QVERIFY2(listed.contains(name) || window.contains(name), qPrintable(name));
    }
    timeline.pause();
}

void TestHelp::glossaryHasEveryTerm()
{
    const QStringList required{
        QStringLiteral("timeout"),          QStringLiteral("idempotency key"),
        QStringLiteral("replay"),           QStringLiteral("orphan"),
        QStringLiteral("duplicate"),        QStringLiteral("lost"),
        QStringLiteral("amplification"),    QStringLiteral("jitter"),
        QStringLiteral("exponential backoff"), QStringLiteral("retry budget"),
        QStringLiteral("circuit breaker"),  QStringLiteral("version conflict (OCC)"),
        QStringLiteral("metastable failure"), QStringLiteral("reconciliation"),
        QStringLiteral("request ID"),
    };
    const QList<HelpDialog::Term> terms = HelpDialog::glossary();
    HelpDialog dialog;
    const auto *browser = dialog.findChild<QTextBrowser *>(QStringLiteral("helpGlossary"));
    QVERIFY(browser);
    const QString shown = browser->toPlainText();
    for (const QString &name : required) {
        const auto it = std::find_if(terms.begin(), terms.end(),
                                     [&name](const HelpDialog::Term &t) { return t.term == name; });
        QVERIFY2(it != terms.end(), qPrintable(name));
        QVERIFY2(it->definition.size() > 20, qPrintable(name));
        QVERIFY2(shown.contains(name) && shown.contains(it->definition), qPrintable(name));
    }
    // Each term once, in alphabetical order.
    for (int i = 1; i < terms.size(); ++i)
        QVERIFY2(terms.at(i - 1).term.localeAwareCompare(terms.at(i).term) < 0, qPrintable(terms.at(i).term));
}

void TestHelp::helpMenuOpensTheRightPage_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("page");
    QTest::addRow("shortcuts") << QStringLiteral("helpShortcutsAction") << QStringLiteral("&Keyboard shortcuts")
                               << int(HelpDialog::Page::Shortcuts);
    QTest::addRow("glossary") << QStringLiteral("helpGlossaryAction") << QStringLiteral("&Glossary")
                              << int(HelpDialog::Page::Glossary);
    QTest::addRow("teaching") << QStringLiteral("helpTeachingAction") << QStringLiteral("How to &teach with RetryLab")
                              << int(HelpDialog::Page::Teaching);
}

void TestHelp::helpMenuOpensTheRightPage()
{
    QFETCH(QString, action);
    QFETCH(QString, text);
    QFETCH(int, page);
    MainWindow w;
    w.show();

    QMenu *help = nullptr;
    const QList<QAction *> menus = w.menuBar()->actions();
    for (QAction *m : menus) {
        if (m->text() == QStringLiteral("&Help"))
            help = m->menu();
    }
    QVERIFY(help);
    QAction *a = nullptr;
    const QList<QAction *> items = help->actions();
    for (QAction *i : items) {
        if (i->objectName() == action)
            a = i;
    }
    QVERIFY2(a, qPrintable(action));
    QCOMPARE(a->text(), text);

    // Open another page first: the action must switch an open dialog to its own page.
    HelpDialog::showHelp(&w, page == 0 ? HelpDialog::Page::Teaching : HelpDialog::Page::Shortcuts);
    a->trigger();
    const QList<HelpDialog *> dialogs = w.findChildren<HelpDialog *>();
    QCOMPARE(dialogs.size(), 1);
    QVERIFY(dialogs.first()->isVisible());
    QCOMPARE(int(dialogs.first()->page()), page);
    QCOMPARE(dialogs.first()->findChild<QTabWidget *>()->currentIndex(), page);
    QVERIFY(w.isEnabled()); // not modal: the window stays usable behind it
}

void TestHelp::f1OpensTheShortcuts()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.findChildren<HelpDialog *>().isEmpty());
    QTest::keyClick(&w, Qt::Key_F1);
    QTRY_COMPARE(w.findChildren<HelpDialog *>().size(), 1);
    HelpDialog *dialog = w.findChildren<HelpDialog *>().first();
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->page(), HelpDialog::Page::Shortcuts);
}

void TestHelp::escapeCloses()
{
    MainWindow w;
    w.show();
    HelpDialog *dialog = HelpDialog::showHelp(&w, HelpDialog::Page::Glossary);
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!dialog->isVisible());
    // Shown again, it is the same dialog, on the page asked for.
    QCOMPARE(HelpDialog::showHelp(&w, HelpDialog::Page::Teaching), dialog);
    QCOMPARE(dialog->page(), HelpDialog::Page::Teaching);
}

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
