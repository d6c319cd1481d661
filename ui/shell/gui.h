#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

namespace retrylab {

class MainWindow;

// Owns the desktop lab's main window. When View > Language switches the language, the window is
// rebuilt in the new language: a new MainWindow takes over the old one's state
// (MainWindow::handover / takeOver), is shown in its place, and the old one is deleted.
class WindowHost : public QObject
{
    Q_OBJECT
public:
    // Takes ownership of window (heap-allocated, no parent).
    explicit WindowHost(MainWindow *window, QObject *parent = nullptr);
    ~WindowHost() override;

    MainWindow *window() const;
    // Installs the translators of `language` and rebuilds the window (as View > Language does).
    void switchLanguage(const QString &language);

Q_SIGNALS:
    // The new window is shown; the old one is gone.
    void windowReplaced(retrylab::MainWindow *window);

private:
    void adopt(MainWindow *window);
    void rebuild();

    QPointer<MainWindow> m_window;
};

// Starts the desktop lab (QApplication, main window). Handles GUI-only flags
// such as --scenario X and --screenshot out.png. Returns the process exit code.
// `language` (en or zh_CN, from --lang) wins over the one chosen in View > Language, which wins
// over the system locale's.
int runGui(int argc, char *argv[], const QString &language = QString());

// Drops Qt's two warnings of every clean run that draws widgets (offscreen "propagateSizeHints",
// QStandardPaths' unset XDG_RUNTIME_DIR) and passes every other message on: the window and the
// command line's handout install it, so a clean run prints nothing on stderr.
void quietenQtWarnings();

} // namespace retrylab
