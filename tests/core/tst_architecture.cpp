// docs/architecture.md against the tree: the paths it names exist, every source folder is named on it,
// the document (ui/document/) reaches no widget header, and no function passes 120 lines.
#include "testpaths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLibraryInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

// The checkout (a function: test paths are resolved once the application exists).
QString checkout()
{
    return retrylab::test::sourcePath();
}
constexpr int MaxFunctionLines = 120;

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromUtf8(file.readAll());
}

QStringList sourceFiles(const QString &dir)
{
    QStringList out;
    QDirIterator it(checkout() + QLatin1Char('/') + dir, {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

// A line's code without string and character literals and without a // comment.
QString codeOf(const QString &line)
{
    static const QRegularExpression literal(QStringLiteral("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])'"));
    QString code = line;
    code.replace(literal, QStringLiteral("\"\""));
    const int comment = code.indexOf(QLatin1String("//"));
    return comment < 0 ? code : code.left(comment);
}

struct LongFunction
{
    QString where;
    int lines = 0;
};

// A function definition starts at a line that looks like a declarator ("name(" not after a keyword, no
// ';' at its end) and opens its body within the next few lines; its extent is counted by braces. Classes,
// namespaces and enums are containers, not functions.
QList<LongFunction> longFunctions(const QString &path, int limit)
{
    static const QRegularExpression head(QStringLiteral("^\\s*(?:[A-Za-z_~][\\w:<>,\\s\\*&~]*\\s)?[\\w:~]+\\s*\\("));
    static const QRegularExpression statement(
        QStringLiteral("^\\s*(if|for|while|switch|return|else|case|do|catch|emit|Q_EMIT|connect|#|//)"));
    static const QRegularExpression container(QStringLiteral("^\\s*(class|struct|namespace|enum|union)\\b"));
    const QStringList lines = readText(path).split(QLatin1Char('\n'));
    QList<LongFunction> out;
    for (int i = 0; i < lines.size(); ++i) {
        const QString &line = lines[i];
        if (!head.match(line).hasMatch() || statement.match(line).hasMatch() || container.match(line).hasMatch()
            || line.trimmed().endsWith(QLatin1Char(';')))
            continue;
        int open = -1;
        for (int j = i; j < qMin(lines.size(), i + 8); ++j) {
            const QString code = codeOf(lines[j]);
            if (code.contains(QLatin1Char('{'))) {
                open = j;
                break;
            }
            if (code.trimmed().endsWith(QLatin1Char(';')))
                break;
        }
        if (open < 0)
            continue;
        int depth = 0;
        int end = open;
        bool started = false;
        for (; end < lines.size(); ++end) {
            const QString code = codeOf(lines[end]);
            depth += int(code.count(QLatin1Char('{'))) - int(code.count(QLatin1Char('}')));
            started = started || code.contains(QLatin1Char('{'));
            if (started && depth <= 0)
                break;
        }
        const int length = end - i + 1;
        if (length > limit)
            out.append({QStringLiteral("%1:%2 (%3 lines)").arg(QDir(checkout()).relativeFilePath(path)).arg(i + 1).arg(length),
                        length});
        i = end;
    }
    return out;
}

// Every project header a file includes ("x.h" or "wing/x.h"), resolved against its own folder and the
// include roots of the libraries.
QStringList projectIncludes(const QString &path)
{
    static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+\"([^\"]+)\""),
                                            QRegularExpression::MultilineOption);
    static const QStringList roots = {QStringLiteral("ui"), QStringLiteral("core"), QStringLiteral("core/live"),
                                      QStringLiteral("app")};
    QStringList out;
    auto it = include.globalMatch(readText(path));
    while (it.hasNext()) {
        const QString name = it.next().captured(1);
        QStringList candidates{QFileInfo(path).absolutePath() + QLatin1Char('/') + name};
        for (const QString &root : roots)
            candidates << checkout() + QLatin1Char('/') + root + QLatin1Char('/') + name;
        for (const QString &c : candidates) {
            if (QFileInfo::exists(c)) {
                out << QDir::cleanPath(c);
                break;
            }
        }
    }
    return out;
}

QStringList systemIncludes(const QString &path)
{
    static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+<([^>]+)>"),
                                            QRegularExpression::MultilineOption);
    QStringList out;
    auto it = include.globalMatch(readText(path));
    while (it.hasNext())
        out << it.next().captured(1);
    return out;
}

// The headers of Qt's widget and chart modules, by name ("QWidget", "qpushbutton.h").
QSet<QString> widgetHeaders()
{
    QSet<QString> out;
    const QString headers = QLibraryInfo::path(QLibraryInfo::HeadersPath);
    for (const char *module : {"QtWidgets", "QtCharts"}) {
        const QDir dir(headers + QLatin1Char('/') + QLatin1String(module));
        const QStringList names = dir.entryList(QDir::Files);
        for (const QString &name : names)
            out.insert(name);
    }
    return out;
}

bool isWidgetHeader(const QString &include, const QSet<QString> &widgets)
{
    if (include.startsWith(QLatin1String("QtWidgets")) || include.startsWith(QLatin1String("QtCharts")))
        return true;
    return widgets.contains(include);
}

} // namespace

class TestArchitecture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Paths quoted on the page (`core/engine/engine.cpp`, `ui/document/`) exist; `x.*` means any extension.
    void namedPathsExist()
    {
        const QString page = readText(checkout() + QStringLiteral("/docs/architecture.md"));
        QVERIFY(!page.isEmpty());
        static const QRegularExpression quoted(QStringLiteral("`([A-Za-z0-9_./*-]+)`"));
        QStringList missing;
        int checked = 0;
        auto it = quoted.globalMatch(page);
        while (it.hasNext()) {
            const QString path = it.next().captured(1);
            if (!path.contains(QLatin1Char('/')) || path.contains(QLatin1Char('<')) || path.startsWith(QLatin1String("build/")))
                continue;
            ++checked;
            if (path.endsWith(QLatin1String(".*"))) {
                const QFileInfo base(checkout() + QLatin1Char('/') + path.chopped(2));
                if (QDir(base.absolutePath()).entryList({base.fileName() + QStringLiteral(".*")}, QDir::Files).isEmpty())
                    missing << path;
            } else if (!QFileInfo::exists(checkout() + QLatin1Char('/') + path)) {
                missing << path;
            }
        }
        QVERIFY(checked > 30);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("docs/architecture.md names paths that do not exist: ")
                                                   + missing.join(QStringLiteral(", "))));
    }

    // A new source folder is a new room of the house: the page must say what it holds.
    void everySourceFolderNamed()
    {
        const QString page = readText(checkout() + QStringLiteral("/docs/architecture.md"));
        QStringList unnamed;
        for (const char *top : {"core", "ui", "app"}) {
            QDirIterator it(checkout() + QLatin1Char('/') + QLatin1String(top), QDir::Dirs | QDir::NoDotAndDotDot,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString dir = QDir(checkout()).relativeFilePath(it.next());
                if (!page.contains(dir + QLatin1Char('/')))
                    unnamed << dir;
            }
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("folders not named in docs/architecture.md: ")
                                                   + unnamed.join(QStringLiteral(", "))));
    }

    // ui/document/ and every project header it reaches include no widget or chart header.
    void documentReachesNoWidget()
    {
        const QSet<QString> widgets = widgetHeaders();
        QVERIFY(widgets.contains(QStringLiteral("QWidget")));
        QStringList queue = sourceFiles(QStringLiteral("ui/document"));
        QVERIFY(!queue.isEmpty());
        QSet<QString> seen;
        QStringList offending;
        while (!queue.isEmpty()) {
            const QString file = queue.takeFirst();
            if (seen.contains(file))
                continue;
            seen.insert(file);
            for (const QString &include : systemIncludes(file)) {
                if (isWidgetHeader(include, widgets))
                    offending << QDir(checkout()).relativeFilePath(file) + QStringLiteral(": <") + include + QLatin1Char('>');
            }
            queue << projectIncludes(file);
        }
        QVERIFY(seen.size() > 5);
        QVERIFY2(offending.isEmpty(), qPrintable(offending.join(QLatin1Char('\n'))));
    }

    // The scanner finds a long function (and only the function) in a file written for it.
    void longFunctionScannerWorks()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString text = QStringLiteral("namespace x {\nstruct S { int a; };\nint f(int a)\n{\n");
        for (int i = 0; i < 125; ++i)
            text += QStringLiteral("    a += 1; // {\n");
        text += QStringLiteral("    return a;\n}\nint g() { return 1; }\n}\n");
        const QString path = dir.filePath(QStringLiteral("long.cpp"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
        file.close();
        const QList<LongFunction> found = longFunctions(path, MaxFunctionLines);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().lines, 129);
        QVERIFY(longFunctions(path, 129).isEmpty());
    }

    void noFunctionOver120Lines()
    {
        QStringList tooLong;
        int files = 0;
        for (const char *dir : {"core", "ui", "app"}) {
            for (const QString &path : sourceFiles(QLatin1String(dir))) {
                ++files;
                for (const LongFunction &f : longFunctions(path, MaxFunctionLines))
                    tooLong << f.where;
            }
        }
        QVERIFY(files > 100);
        QVERIFY2(tooLong.isEmpty(), qPrintable(QStringLiteral("functions over %1 lines:\n").arg(MaxFunctionLines)
                                                   + tooLong.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestArchitecture)
#include "tst_architecture.moc"
