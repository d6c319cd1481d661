// View > Language: the window is rebuilt in the new language at run time (WindowHost), keeps what
// the user had in front of them (MainWindow::handover / takeOver), and remembers the choice.
#include "charts/chartspanel.h"
#include "compare/comparewindow.h"
#include "lessons/lessonplayer.h"
#include "shell/gui.h"
#include "i18n.h"
#include "shell/mainwindow.h"
#include "presentation/presentation.h"
#include "document/runcontroller.h"
#include "editor/scenarioeditor.h"
#include "common/settings.h"
#include "timeline/timelinewidget.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QSignalSpy>
#include <QToolBar>
#include <QToolButton>
#include <QRegularExpression>
#include <QLabel>
#include <QStatusBar>
#include <QTest>
#include <QVariantAnimation>

using namespace retrylab;

namespace {

bool hasChinese(const QString &text)
{
    for (const QChar c : text) {
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF)
            return true;
    }
    return false;
}

QString menuTitle(const MainWindow *w, int index)
{
    const QList<QAction *> menus = w->menuBar()->actions();
    return index < menus.size() ? menus.at(index)->text() : QString();
}

QAction *languageAction(const MainWindow *w, const char *language)
{
    return w->findChild<QAction *>(QStringLiteral("language_%1").arg(QLatin1String(language)));
}

// Waits until the window shows a run's result and a caption.
bool settled(MainWindow *w)
{
    return QTest::qWaitFor([w] { return w->hasResult() && !w->runController()->isPending()
                                        && !w->timeline()->caption().isEmpty(); },
                           60000);
}

// The window's chart titles and axis titles, non-empty ones.
QStringList chartTexts(const MainWindow *w)
{
    QStringList out;
    const auto views = w->charts()->findChildren<QChartView *>();
    for (const QChartView *view : views) {
        if (!view->chart()->title().isEmpty())
            out << view->chart()->title();
        const auto axes = view->chart()->axes();
        for (const QAbstractAxis *axis : axes) {
            if (!axis->titleText().isEmpty())
                out << axis->titleText();
        }
    }
    return out;
}

// A choice among the items of the scenario editor's combo boxes.
bool editorOffers(const MainWindow *w, const QString &item)
{
    const auto combos = w->editor()->findChildren<QComboBox *>();
    for (const QComboBox *c : combos) {
        for (int i = 0; i < c->count(); ++i) {
            if (c->itemText(i) == item)
                return true;
        }
    }
    return false;
}

// Switches with the View > Language action; returns the new window.
MainWindow *switchTo(WindowHost &host, const char *language)
{
    QSignalSpy replaced(&host, &WindowHost::windowReplaced);
    QAction *action = languageAction(host.window(), language);
    if (!action)
        return nullptr;
    action->trigger();
    if (!replaced.wait(10000))
        return nullptr;
    return host.window();
}

} // namespace

class TestLanguage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<retrylab::MainWindow *>(); }
    void cleanup() { i18n::install(QStringLiteral("en")); }

    void menuOffersBothLanguages()
    {
        MainWindow w(nullptr, false);
        QAction *en = languageAction(&w, "en");
        QAction *zh = languageAction(&w, "zh_CN");
        QVERIFY(en && zh);
        QCOMPARE(en->text(), QStringLiteral("English"));
        QCOMPARE(zh->text(), QStringLiteral("简体中文"));
        QVERIFY(en->isChecked());
        QVERIFY(!zh->isChecked());
    }

    // The narration is computed by core from the re-run scenario: it comes back in Chinese, on the
    // same operation, page, seed and modified state; the choice is remembered.
    void switchKeepsStateAndTranslatesNarration()
    {
        WindowHost host(new MainWindow(nullptr, false));
        MainWindow *en = host.window();
        QVERIFY(en->loadPreset(QStringLiteral("ghost-request")));
        en->show();
        QVERIFY(settled(en));
        en->setSeed(7);
        QVERIFY(settled(en));
        // Not the story operation (a new window opens on that one), and not the end of it.
        const int operation = en->currentOperation() == 5 ? 6 : 5;
        en->setOperation(operation);
        en->timeline()->seekToEnd();
        en->timeline()->stepPrevious();
        en->timeline()->stepPrevious();
        en->showPage(MainWindow::Page::Records);
        const QString captionEnglish = en->timeline()->caption();
        const qint64 playhead = en->timeline()->playhead();
        QVERIFY(en->isModified());
        QVERIFY(!hasChinese(captionEnglish));

        MainWindow *zh = switchTo(host, "zh_CN");
        QVERIFY(zh);
        QVERIFY(zh != en);
        QVERIFY(settled(zh));
        QTRY_COMPARE(zh->currentOperation(), operation);
        QCOMPARE(i18n::currentLanguage(), QStringLiteral("zh_CN"));
        QCOMPARE(Settings().language(), QStringLiteral("zh_CN"));
        QVERIFY(zh->isVisible());
        QCOMPARE(zh->scenario().name, QStringLiteral("ghost-request"));
        QCOMPARE(zh->scenario().seed, quint64(7));
        QVERIFY(zh->isModified());
        QCOMPARE(zh->currentPage(), MainWindow::Page::Records);
        QTRY_COMPARE(zh->timeline()->playhead(), playhead);
        const QString captionChinese = zh->timeline()->caption();
        QVERIFY2(hasChinese(captionChinese), qPrintable(captionChinese));
        QVERIFY(languageAction(zh, "zh_CN")->isChecked());

        MainWindow *back = switchTo(host, "en");
        QVERIFY(back);
        QVERIFY(settled(back));
        QTRY_COMPARE(back->currentOperation(), operation);
        QTRY_COMPARE(back->timeline()->caption(), captionEnglish);
        QCOMPARE(Settings().language(), QStringLiteral("en"));
        QCOMPARE(menuTitle(back, 0), QStringLiteral("&File"));
    }

    // Widgets, menus and chart titles come from the ui translation (resources/translations/
    // retrylab_ui_zh_CN.ts).
    void switchTranslatesWidgetsAndCharts()
    {
        if (!QFile::exists(QStringLiteral(":/i18n/retrylab_ui_zh_CN.qm")))
            QSKIP("this build has no ui translation (resources/translations/retrylab_ui_zh_CN.ts)");
        WindowHost host(new MainWindow(nullptr, false));
        MainWindow *en = host.window();
        QVERIFY(en->loadPreset(QStringLiteral("ghost-request")));
        en->show();
        QVERIFY(settled(en));
        en->showPage(MainWindow::Page::Charts);
        QVERIFY(QTest::qWaitFor([en] { return !chartTexts(en).isEmpty(); }, 10000));
        QCOMPARE(menuTitle(en, 0), QStringLiteral("&File"));

        MainWindow *zh = switchTo(host, "zh_CN");
        QVERIFY(zh);
        QVERIFY(settled(zh));
        QCOMPARE(zh->currentPage(), MainWindow::Page::Charts);
        // A menu title.
        const QString file = menuTitle(zh, 0);
        QCOMPARE(file, QCoreApplication::translate("retrylab::MainWindow", "&File"));
        QVERIFY2(hasChinese(file), qPrintable(file));
        // A button: the timeline's Fit.
        const QString fit = QCoreApplication::translate("retrylab::TimelineWidget", "Fit");
        QVERIFY(hasChinese(fit));
        bool found = false;
        const auto buttons = zh->timeline()->findChildren<QAbstractButton *>();
        for (const QAbstractButton *b : buttons)
            found = found || b->text() == fit;
        QVERIFY2(found, qPrintable(fit));
        // Chart titles and axes.
        QVERIFY(QTest::qWaitFor([zh] { return !chartTexts(zh).isEmpty(); }, 10000));
        const QStringList texts = chartTexts(zh);
        QVERIFY(texts.size() >= 5); // titles and axes of the duplicates, load, attempts, what-if and sweep charts
        for (const QString &t : texts)
            QVERIFY2(hasChinese(t), qPrintable(QStringLiteral("chart text in English: %1").arg(t)));

        // The editor's choices, built with the window (a static table once kept the first language's).
        const QString atomic = QCoreApplication::translate("retrylab::ScenarioEditor", "Atomic: reserve the key first");
        QVERIFY(hasChinese(atomic));
        QVERIFY(editorOffers(zh, atomic));

        // Toolbar buttons: no "(O)" left of the Chinese menus' "(&O)", and the text follows a change of the action's.
        const QRegularExpression shownMnemonic(QStringLiteral("\\([A-Z]\\)|&"));
        const QList<QToolBar *> bars = zh->findChildren<QToolBar *>();
        QVERIFY(!bars.isEmpty());
        int buttonTexts = 0;
        for (const QToolBar *bar : bars) {
            for (const QToolButton *b : bar->findChildren<QToolButton *>()) {
                if (!b->isVisible() || b->text().isEmpty())
                    continue;
                ++buttonTexts;
                QVERIFY2(!b->text().contains(shownMnemonic), qPrintable(b->text()));
            }
        }
        QVERIFY(buttonTexts >= 3);

        MainWindow *back = switchTo(host, "en");
        QVERIFY(back);
        QCOMPARE(menuTitle(back, 0), QStringLiteral("&File"));
        QVERIFY(settled(back));
        QVERIFY(editorOffers(back, QStringLiteral("Atomic: reserve the key first")));
        for (const QString &t : chartTexts(back))
            QVERIFY2(!hasChinese(t), qPrintable(t));
    }

    // Presentation mode survives the switch, and leaving it restores the editor.
    void switchKeepsPresentationMode()
    {
        WindowHost host(new MainWindow(nullptr, false));
        MainWindow *en = host.window();
        QVERIFY(en->loadPreset(QStringLiteral("stable-key")));
        en->show();
        QVERIFY(settled(en));
        QVERIFY(en->scenarioDock()->isVisible());
        en->presenter()->presentation()->setActive(true);
        QVERIFY(!en->scenarioDock()->isVisible());

        MainWindow *zh = switchTo(host, "zh_CN");
        QVERIFY(zh);
        QVERIFY(settled(zh));
        QVERIFY(zh->isVisible());
        QVERIFY(zh->presenter()->presentation()->isActive());
        QVERIFY(zh->isFullScreen());
        QVERIFY(!zh->scenarioDock()->isVisible());
        zh->presenter()->presentation()->setActive(false);
        QVERIFY(!zh->isFullScreen());
        QVERIFY(zh->scenarioDock()->isVisible());
    }

    // A lesson in progress survives the switch: the same step, the class's guess, the answer shown
    // again (now in Chinese); an open compare window comes back with the toggle picked.
    void switchKeepsLessonAndCompare()
    {
        WindowHost host(new MainWindow(nullptr, false));
        MainWindow *en = host.window();
        QVERIFY(en->lessons()->startLesson(QStringLiteral("nested-layers"), 1));
        en->show();
        QVERIFY(QTest::qWaitFor([en] { return en->lessons()->isLessonStepReady() && en->hasResult(); }, 60000));
        en->lessons()->player()->setGuess(7);
        en->lessons()->player()->reveal();
        QTRY_VERIFY_WITH_TIMEOUT(en->lessons()->player()->isRevealed(), 60000);
        const QString answerEnglish = en->lessons()->player()->answerText();
        QVERIFY(answerEnglish.contains(QLatin1String("7")));
        en->openCompare();
        QVERIFY(en->compareWindow()->variants().size() > 2);
        en->compareWindow()->setVariantIndex(2);

        MainWindow *zh = switchTo(host, "zh_CN");
        QVERIFY(zh);
        QVERIFY(zh->lessons()->isLessonOpen());
        QCOMPARE(zh->lessons()->player()->lesson().name, QStringLiteral("nested-layers"));
        QCOMPARE(zh->lessons()->player()->step(), 1);
        QCOMPARE(zh->lessons()->player()->guessedNumber(), 7.0);
        QTRY_VERIFY_WITH_TIMEOUT(zh->lessons()->player()->isRevealed(), 60000);
        const QString answerChinese = zh->lessons()->player()->answerText();
        QVERIFY2(hasChinese(answerChinese) && answerChinese.contains(QLatin1String("7")), qPrintable(answerChinese));
        QVERIFY(zh->compareWindow() && zh->compareWindow()->isVisible());
        QCOMPARE(zh->compareWindow()->variantIndex(), 2);
    }

    // Switching after a Reveal shows the answer again at once: no second playing of the operation,
    // no "?" in the status bar meanwhile (issue 19).
    void switchAfterRevealShowsTheAnswerAtOnce()
    {
        WindowHost host(new MainWindow(nullptr, false));
        MainWindow *en = host.window();
        QVERIFY(en->lessons()->startLesson(QStringLiteral("nested-layers"), 2));
        en->show();
        QVERIFY(QTest::qWaitFor([en] { return en->lessons()->isLessonStepReady() && en->hasResult(); }, 60000));
        en->lessons()->player()->setGuess(20);
        en->lessons()->player()->reveal();
        QVariantAnimation *anim = en->timeline()->animation();
        anim->setCurrentTime(anim->totalDuration());
        QTRY_VERIFY_WITH_TIMEOUT(en->lessons()->player()->isRevealed(), 60000);

        MainWindow *zh = switchTo(host, "zh_CN");
        QVERIFY(zh);
        QSignalSpy played(zh->timeline()->animation(), &QAbstractAnimation::stateChanged);
        QTRY_VERIFY_WITH_TIMEOUT(zh->lessons()->isLessonStepReady() && zh->hasResult(), 60000);
        QVERIFY(zh->lessons()->player()->isRevealed());
        QVERIFY(!zh->lessons()->player()->isRevealing());
        QCOMPARE(played.count(), 0);
        QVERIFY(!zh->outcomeHidden());
        const QList<QLabel *> status = zh->statusBar()->findChildren<QLabel *>();
        for (const QLabel *label : status) {
            if (label->isVisibleTo(zh))
                QVERIFY2(!label->text().contains(QLatin1Char('?')), qPrintable(label->text()));
        }
        QVERIFY(zh->lessons()->player()->answerText().contains(QLatin1String("12")));
    }

    void toolButtonText_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("button");
        QTest::newRow("chinese mnemonic") << QStringLiteral("打开(&O)…") << QStringLiteral("打开");
        QTest::newRow("english") << QStringLiteral("&Open…") << QStringLiteral("Open");
        QTest::newRow("ascii dots") << QStringLiteral("Save &As...") << QStringLiteral("Save As");
        QTest::newRow("ampersand") << QStringLiteral("R&&D") << QStringLiteral("R&D");
        QTest::newRow("plain") << QStringLiteral("Live") << QStringLiteral("Live");
        QTest::newRow("mnemonic inside") << QStringLiteral("新随机种子(&S)") << QStringLiteral("新随机种子");
    }

    void toolButtonText()
    {
        QFETCH(QString, action);
        QFETCH(QString, button);
        QCOMPARE(MainWindow::toolButtonText(action), button);
    }

    // Choosing the language installed already rebuilds nothing.
    void sameLanguageKeepsTheWindow()
    {
        WindowHost host(new MainWindow(nullptr, false));
        MainWindow *w = host.window();
        QSignalSpy replaced(&host, &WindowHost::windowReplaced);
        languageAction(w, "en")->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(replaced.count(), 0);
        QCOMPARE(host.window(), w);
    }
};

QTEST_MAIN(TestLanguage)
#include "tst_language.moc"
