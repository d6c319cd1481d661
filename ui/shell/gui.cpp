#include "shell/gui.h"

#include "charts/chartspanel.h"
#include "lessons/lessonplayer.h"
#include "i18n.h"
#include "live/livecontroller.h"
#include "shell/mainwindow.h"
#include "document/runcontroller.h"
#include "document/windowbudget.h"
#include "scenario.h"
#include "story.h"

#include "timeline/timelinewidget.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QImageWriter>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <tuple>
#include <utility>

namespace retrylab {

namespace {

// One line on stderr, as the command line writes its errors: whatever it quotes (a flag's
// value, a file name, Qt's text, a lesson's message) escaped, so nothing raw reaches the terminal.
int errorLine(int exitCode, const QString &message)
{
    QString line = message.trimmed();
    line.replace(QLatin1Char('\n'), QStringLiteral("; "));
    const QByteArray bytes = QStringLiteral("retrylab: %1\n").arg(scenario::printable(line, -1)).toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    return exitCode;
}

// Exit codes as on the command line: 2 for what the user typed, 1 for what went wrong running it.
int usageError(const QString &message)
{
    return errorLine(2, message);
}

int runtimeError(const QString &message)
{
    return errorLine(1, message);
}

// A value the user typed, made safe to repeat and cut at 200 characters: the core's one
// function, at the command line's length (cli::MaxEchoChars), so both echo alike.
constexpr int MaxEchoChars = 200;

QString echo(const QString &text)
{
    return scenario::printable(text, MaxEchoChars);
}

// A file named on the command line that is not a regular file (a directory, a FIFO, a device)
// would block or mean nothing: the message, or empty when it is a file or does not exist.
QString notAFile(const QString &name)
{
    const QFileInfo info(name);
    if (!info.exists() || info.isFile())
        return QString();
    return info.isDir() ? QCoreApplication::translate("gui", "\"%1\" is a directory, not a file").arg(echo(name))
                        : QCoreApplication::translate("gui", "\"%1\" is not a regular file (a FIFO, a device or a socket)")
                                  .arg(echo(name));
}

// Qt's two warnings of every clean run, and only those: the offscreen platform's
// "propagateSizeHints" and QStandardPaths' missing XDG_RUNTIME_DIR (Qt then uses a directory of
// its own, which is all the lab needs). Everything else still reaches stderr.
QtMessageHandler g_previousHandler = nullptr;

void quietHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg
        && (message == QLatin1String("This plugin does not support propagateSizeHints()")
            || message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

// Runs the event loop until `done` holds or the timeout passes; returns `done`.
template<typename Predicate>
bool settle(Predicate done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    poll.start(20);
    timeout.start(timeoutMs);
    if (!done())
        loop.exec();
    return done();
}

void pause(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

int takeScreenshot(MainWindow &window, const QString &fileName, int operation, int page)
{
    // Defaults, not the user's saved layout: screenshots must be reproducible.
    window.resetLayout();
    window.showPage(MainWindow::Page(page));
    window.resize(1280, 720);
    window.show();
    RunController *run = window.runController();
    if (!settle([run, &window] {
            return !run->refusal().isEmpty()
                || (!run->isPending() && run->hasResult() && window.lessons()->isLessonStepReady());
        }, 120000))
        return runtimeError(QCoreApplication::translate("gui", "the scenario did not finish running"));
    if (!run->refusal().isEmpty())
        return usageError(run->refusal());
    // A lesson step shows its own operation; a question keeps the operation at its start.
    const bool lesson = window.lessons()->isLessonOpen();
    const int op = operation > 0 ? operation : storyOperation(window.result());
    if (!lesson || operation > 0)
        window.setOperation(op);
    ChartsPanel *charts = window.charts();
    settle([charts] { return !charts->isWhatIfPending(); }, 60000);
    if (!window.outcomeHidden())
        window.timeline()->showWhole(); // as the window opens it
    pause(400); // layouts, chart animations and the first paint
    const QImage image = window.grab().toImage();
    QImageWriter writer(fileName);
    if (!writer.write(image))
        return runtimeError(QCoreApplication::translate("gui", "cannot write \"%1\": %2").arg(echo(fileName), writer.errorString()));
    return 0;
}

} // namespace

WindowHost::WindowHost(MainWindow *window, QObject *parent)
    : QObject(parent)
{
    adopt(window);
}

WindowHost::~WindowHost()
{
    delete m_window.data();
}

MainWindow *WindowHost::window() const
{
    return m_window.data();
}

void WindowHost::adopt(MainWindow *window)
{
    m_window = window;
    connect(window, &MainWindow::languageChanged, this, &WindowHost::rebuild, Qt::QueuedConnection);
}

void WindowHost::switchLanguage(const QString &language)
{
    if (!m_window)
        return;
    if (language == i18n::currentLanguage()) {
        return;
    }
    m_window->setLanguage(language); // emits languageChanged: rebuild() follows
}

void WindowHost::rebuild()
{
    MainWindow *old = m_window;
    if (!old)
        return;
    const MainWindow::Handover state = old->handover();
    const bool visible = old->isVisible();
    auto *window = new MainWindow(nullptr, false);
    window->takeOver(state);
    adopt(window);
    if (visible)
        window->show(); // full screen when takeOver put it back into presentation mode
    old->hide();
    delete old;
    Q_EMIT windowReplaced(window);
}

namespace {
// What the desktop lab's command line asks for.
struct GuiOptions
{
    bool hasScenario = false;
    QString scenario;
    bool hasLesson = false;
    QString lesson;
    int lessonStep = 1;
    QString checkReport; // --check-report FILE
    bool hasSeed = false;
    quint64 seed = 0;
    int operation = 0; // 0: the story operation
    int page = 0;      // MainWindow::Page
    QString screenshot;
};

void setUpApplication(const QString &language)
{
    QApplication::setApplicationName(QStringLiteral("RetryLab"));
    QApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("RetryLab"));
    QApplication::setApplicationVersion(QStringLiteral("1.0.0"));
    QApplication::setDesktopFileName(QStringLiteral("retrylab"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/retrylab.svg")));

    // Projector-friendly base size; larger system fonts are kept.
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0 && font.pointSizeF() < 11) {
        font.setPointSizeF(11);
        QApplication::setFont(font);
    }

    // --lang (taken out of argv by main) wins over View > Language, which wins over the system locale.
    QString chosen = language;
    if (chosen.isEmpty()) {
        chosen = Settings().language();
        if (!i18n::isSupported(chosen))
            chosen = i18n::systemLanguage();
    }
    i18n::install(chosen);
}

// The arguments into `o`: -1 when the lab should start, else the exit code (--help, --version, a
// usage error).
int parseOptions(GuiOptions &o)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("gui", "RetryLab desktop lab: retries, timeouts and idempotency."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"),
                                            QCoreApplication::translate("gui", "Preset name or scenario file to open."),
                                            QStringLiteral("name|file"));
    const QCommandLineOption seedOption(QStringLiteral("seed"), QCoreApplication::translate("gui", "Seed of the run."), QStringLiteral("n"));
    const QCommandLineOption operationOption(QStringLiteral("operation"),
                                             QCoreApplication::translate("gui", "Operation shown on the timeline."), QStringLiteral("n"));
    const QCommandLineOption pageOption(QStringLiteral("page"),
                                        QCoreApplication::translate("gui", "Page to open: timeline (default), charts, records or log."),
                                        QStringLiteral("name"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("gui", "Render the window at 1280x720 into an image file and exit (works offscreen)."),
        QStringLiteral("file.png"));
    // Guided lessons (lessons wiring): `retrylab --lesson NAME|FILE [--step N]`.
    const QCommandLineOption lessonOption(QStringLiteral("lesson"),
                                          QCoreApplication::translate("gui", "Lesson to open (see 'retrylab lessons') or a lesson file."),
                                          QStringLiteral("name|file"));
    const QCommandLineOption stepOption(QStringLiteral("step"), QCoreApplication::translate("gui", "Step of the lesson to open, from 1."),
                                        QStringLiteral("n"));
    const QCommandLineOption checkReportOption(QStringLiteral("check-report"),
                                               QCoreApplication::translate("gui", "A report of 'retrylab check URL --save FILE' to show: each probe's requests on the timeline."),
                                               QStringLiteral("file"));
    parser.addOptions({scenarioOption, seedOption, operationOption, pageOption, screenshotOption, lessonOption, stepOption,
                       checkReportOption});
    if (!parser.parse(QApplication::arguments()))
        return usageError(echo(parser.errorText()));
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("RetryLab %s\n", qPrintable(QApplication::applicationVersion()));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(QCoreApplication::translate("gui", "unexpected argument \"%1\" (see --help)").arg(echo(parser.positionalArguments().first())));

    bool ok = true;
    if (parser.isSet(seedOption)) {
        o.seed = parser.value(seedOption).toULongLong(&ok);
        if (!ok)
            return usageError(QCoreApplication::translate("gui", "--seed: expected a non-negative integer, got \"%1\"").arg(echo(parser.value(seedOption))));
    }
    if (parser.isSet(operationOption)) {
        o.operation = parser.value(operationOption).toInt(&ok);
        if (!ok || o.operation < 1)
            return usageError(
                QCoreApplication::translate("gui", "--operation: expected an operation number from 1, got \"%1\"").arg(echo(parser.value(operationOption))));
    }
    if (parser.isSet(pageOption)) {
        const QStringList pages{QStringLiteral("timeline"), QStringLiteral("charts"), QStringLiteral("records"),
                                QStringLiteral("log")};
        o.page = int(pages.indexOf(parser.value(pageOption)));
        if (o.page < 0)
            return usageError(QCoreApplication::translate("gui", "--page: expected timeline, charts, records or log, got \"%1\"")
                                  .arg(echo(parser.value(pageOption))));
    }
    if (parser.isSet(screenshotOption)) {
        o.screenshot = parser.value(screenshotOption);
        const QByteArray format = QFileInfo(o.screenshot).suffix().toLower().toUtf8();
        if (!QImageWriter::supportedImageFormats().contains(format))
            return usageError(QCoreApplication::translate("gui", "--screenshot: cannot write images of type \"%1\"").arg(echo(QString::fromUtf8(format))));
    }

    if (parser.isSet(stepOption)) {
        o.lessonStep = parser.value(stepOption).toInt(&ok);
        if (!ok || o.lessonStep < 1 || !parser.isSet(lessonOption))
            return usageError(QCoreApplication::translate("gui", "--step: expected a step number from 1 after --lesson, got \"%1\"")
                                  .arg(echo(parser.value(stepOption))));
    }
    o.hasSeed = parser.isSet(seedOption);
    o.hasScenario = parser.isSet(scenarioOption);
    o.scenario = parser.value(scenarioOption);
    o.hasLesson = parser.isSet(lessonOption);
    o.lesson = parser.value(lessonOption);
    o.checkReport = parser.value(checkReportOption);
    return -1;
}
} // namespace

void quietenQtWarnings()
{
    static bool installed = false;
    if (!std::exchange(installed, true))
        g_previousHandler = qInstallMessageHandler(quietHandler);
}

int runGui(int argc, char *argv[], const QString &language)
{
    quietenQtWarnings();
    QApplication app(argc, argv);
    setUpApplication(language);
    GuiOptions o;
    if (const int exitCode = parseOptions(o); exitCode >= 0)
        return exitCode;
    for (const auto &[flag, name, given] : {std::tuple{"--lesson", o.lesson, o.hasLesson}, std::tuple{"--scenario", o.scenario, o.hasScenario}}) {
        if (const QString problem = given ? notAFile(name) : QString(); !problem.isEmpty())
            return usageError(QStringLiteral("%1: %2").arg(QLatin1String(flag), problem));
    }

    WindowHost host(new MainWindow(nullptr, !o.hasScenario && !o.hasLesson && o.checkReport.isEmpty()));
    MainWindow &window = *host.window();
    if (o.hasLesson) {
        QString error;
        if (!window.lessons()->startLesson(o.lesson, o.lessonStep - 1, &error))
            return usageError(QCoreApplication::translate("gui", "--lesson: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
        if (o.lessonStep > window.lessons()->player()->stepCount())
            return usageError(QCoreApplication::translate("gui", "--step: the lesson has %1 steps, got %2")
                                  .arg(window.lessons()->player()->stepCount())
                                  .arg(o.lessonStep));
    }
    if (o.hasScenario) {
        QString error;
        if (!window.loadScenario(o.scenario, &error))
            return usageError(QStringLiteral("--scenario: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
    }
    if (o.hasSeed)
        window.setSeed(o.seed);
    // Over the window's work or memory budget: refused now, naming the fields, not after a run.
    if (const QString refusal = windowbudget::refusal(window.scenario(), window.runController()->maxAttempts(),
                                                      window.runController()->maxEvents());
        !refusal.isEmpty())
        return usageError(QStringLiteral("--scenario: %1").arg(refusal));
    if (!o.checkReport.isEmpty()) {
        QString error;
        if (!window.live()->openCheckReport(o.checkReport, &error))
            return usageError(QStringLiteral("--check-report: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
        if (o.operation > 0)
            window.setOperation(o.operation);
        window.showOnScreen();
        return app.exec();
    }
    // An operation the scenario cannot have is a typo, not something to ignore.
    const int orders = window.scenario().workload.orders;
    if (o.operation > orders)
        return usageError(orders == 1 ? QCoreApplication::translate("gui", "--operation: the scenario has 1 operation "
                                                                           "(workload.orders), got %1")
                                            .arg(o.operation)
                                      : QCoreApplication::translate("gui", "--operation: the scenario has %1 operations "
                                                                           "(workload.orders), got %2")
                                            .arg(orders)
                                            .arg(o.operation));
    if (o.operation > 0) {
        const int operation = o.operation;
        QObject::connect(window.runController(), &RunController::resultReady, &window,
                         [&window, operation] { window.setOperation(operation); }, Qt::SingleShotConnection);
    }

    if (!o.screenshot.isEmpty())
        return takeScreenshot(window, o.screenshot, o.operation, o.page);

    window.showPage(MainWindow::Page(o.page));
    window.showOnScreen();
    return app.exec();
}

} // namespace retrylab
