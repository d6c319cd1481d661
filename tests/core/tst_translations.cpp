// The zh_CN translations: every .ts entry finished with its placeholders and markup kept, every
// translatable string of the sources present in its .ts, the content strings generated from the JSON
// files in sync with them, and the translators installed by i18n.
#include "contentstrings.h"
#include "i18n.h"
#include "story.h"
#include "testpaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QXmlStreamReader>

#include <vector>

using namespace retrylab;

namespace {

// The checkout (a function: test paths are resolved once the application exists).
QString checkout()
{
    return retrylab::test::sourcePath();
}

QString translationsDir()
{
    return QDir::cleanPath(checkout() + QStringLiteral("/resources/translations"));
}

struct Message
{
    QString context;
    QString source;
    QStringList translations; // one, or the numerus forms
    QString type;             // of <translation>: empty when finished
};

// Every message of a .ts file, or an error.
QList<Message> readTs(const QString &fileName, QString *error)
{
    QList<Message> out;
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return out;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message m;
    bool inMessage = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("name") && !inMessage) {
                context = xml.readElementText();
            } else if (name == QLatin1String("message")) {
                inMessage = true;
                m = Message();
                m.context = context;
            } else if (name == QLatin1String("source") && inMessage) {
                m.source = xml.readElementText();
            } else if (name == QLatin1String("translation") && inMessage) {
                m.type = xml.attributes().value(QLatin1String("type")).toString();
                // Either plain text or <numerusform> children.
                QString text;
                while (!xml.atEnd()) {
                    xml.readNext();
                    if (xml.isCharacters())
                        text += xml.text();
                    else if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                        m.translations << xml.readElementText();
                    else if (xml.isEndElement() && xml.name() == QLatin1String("translation"))
                        break;
                }
                if (m.translations.isEmpty())
                    m.translations << text;
            }
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            inMessage = false;
            out << m;
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber());
    return out;
}

// %1..%99 and %n, as a sorted list (a placeholder may appear twice).
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("%(?:\\d{1,2}|n|L\\d)"));
    QStringList out;
    auto it = re.globalMatch(text);
    while (it.hasNext())
        out << it.next().captured();
    out.removeDuplicates();
    out.sort();
    return out;
}

// HTML tags (<b>, </p>, <br/>), sorted.
QStringList tags(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("</?[a-zA-Z][a-zA-Z0-9]*[^<>]*>"));
    QStringList out;
    auto it = re.globalMatch(text);
    while (it.hasNext())
        out << it.next().captured();
    out.sort();
    return out;
}

// The C string literals of a call's argument: "a" "b" concatenated, escapes undone.
QString unescapeLiterals(const QString &literals)
{
    static const QRegularExpression piece(QStringLiteral("\"((?:[^\"\\\\]|\\\\.)*)\""));
    QString out;
    auto it = piece.globalMatch(literals);
    while (it.hasNext()) {
        const QString raw = it.next().captured(1);
        for (int i = 0; i < raw.size(); ++i) {
            if (raw.at(i) == QLatin1Char('\\') && i + 5 < raw.size() && raw.at(i + 1) == QLatin1Char('u')) {
                out += QChar(raw.mid(i + 2, 4).toUShort(nullptr, 16)); // \u2192 and the like
                i += 5;
            } else if (raw.at(i) == QLatin1Char('\\') && i + 1 < raw.size()) {
                const QChar c = raw.at(++i);
                out += c == QLatin1Char('n') ? QChar(QLatin1Char('\n')) : c == QLatin1Char('t') ? QChar(QLatin1Char('\t')) : c;
            } else {
                out += raw.at(i);
            }
        }
    }
    return out;
}

// Every QCoreApplication::translate("context", "text") of the sources in dir (or of the file dir).
// The C++ sources under dir, in every subfolder (ui/ has a folder per feature), or dir itself when
// it names a file.
QFileInfoList sourceFiles(const QString &dir)
{
    if (QFileInfo(dir).isFile())
        return {QFileInfo(dir)};
    QFileInfoList out;
    QDirIterator it(dir, {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QFileInfo(it.next());
    return out;
}

QList<QPair<QString, QString>> translateCalls(const QString &dir)
{
    static const QRegularExpression call(QStringLiteral(
        "QCoreApplication::translate\\(\\s*\"([^\"]+)\"\\s*,\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*)+)[,)]"));
    QList<QPair<QString, QString>> out;
    const QFileInfoList files = sourceFiles(dir);
    for (const QFileInfo &info : files) {
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromUtf8(file.readAll());
        auto it = call.globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            out.append({m.captured(1), unescapeLiterals(m.captured(2))});
        }
    }
    return out;
}

// The keys content_strings.cmake takes displayed texts from (its retrylab_content_keys list).
QStringList contentKeys()
{
    QFile file(translationsDir() + QStringLiteral("/content_strings.cmake"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(file.readAll());
    static const QRegularExpression set(QStringLiteral("set\\(retrylab_content_keys\\s+([^)]*)\\)"));
    const QRegularExpressionMatch m = set.match(text);
    return m.captured(1).simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

void collectContent(const QJsonValue &value, const QStringList &keys, QStringList *out)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (keys.contains(it.key()) && it.value().isString()) {
                *out << it.value().toString();
            } else if (keys.contains(it.key()) && it.value().isArray()) {
                const QJsonArray a = it.value().toArray();
                for (const QJsonValue &v : a) {
                    if (v.isString())
                        *out << v.toString();
                    else
                        collectContent(v, keys, out);
                }
            } else {
                collectContent(it.value(), keys, out);
            }
        }
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (const QJsonValue &v : a)
            collectContent(v, keys, out);
    }
}

// The displayed texts of every scenario and lesson JSON file, read here independently of CMake.
QStringList contentOfJsonFiles()
{
    const QStringList keys = contentKeys();
    QStringList out;
    for (const QString &sub : {QStringLiteral("scenarios"), QStringLiteral("lessons")}) {
        const QDir dir(QDir::cleanPath(checkout() + QStringLiteral("/resources/") + sub));
        const QFileInfoList files = dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QFileInfo &info : files) {
            QFile file(info.filePath());
            if (!file.open(QIODevice::ReadOnly))
                continue;
            collectContent(QJsonDocument::fromJson(file.readAll()).object(), keys, &out);
        }
    }
    return out;
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { i18n::install(QStringLiteral("en")); }

    void tsFilesComplete_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(translationsDir()).entryList({QStringLiteral("*_zh_CN.ts")}, QDir::Files, QDir::Name);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << QDir(translationsDir()).filePath(f);
    }

    // No unfinished, vanished or obsolete entry; every translation keeps the placeholders and tags.
    void tsFilesComplete()
    {
        QFETCH(QString, file);
        QString error;
        const QList<Message> messages = readTs(file, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!messages.isEmpty());
        QStringList problems;
        for (const Message &m : messages) {
            const QString where = QStringLiteral("[%1] \"%2\"").arg(m.context, m.source.left(70));
            if (!m.type.isEmpty()) {
                problems << QStringLiteral("%1: %2").arg(where, m.type);
                continue;
            }
            for (const QString &t : m.translations) {
                if (t.trimmed().isEmpty() && !m.source.trimmed().isEmpty())
                    problems << QStringLiteral("%1: empty translation").arg(where);
                else if (placeholders(t) != placeholders(m.source))
                    problems << QStringLiteral("%1: placeholders %2 in the translation, %3 in the source")
                                    .arg(where, placeholders(t).join(QLatin1Char(' ')),
                                         placeholders(m.source).join(QLatin1Char(' ')));
                else if (tags(t) != tags(m.source))
                    problems << QStringLiteral("%1: HTML tags differ").arg(where);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void sourcesAllInTs_data()
    {
        QTest::addColumn<QStringList>("dirs");
        QTest::addColumn<QString>("ts");
        QTest::newRow("core") << QStringList{QStringLiteral("core")}
                              << QStringLiteral("retrylab_core_zh_CN.ts");
        QTest::newRow("cli") << QStringList{QStringLiteral("app"), QStringLiteral("ui/shell/gui.cpp")}
                             << QStringLiteral("retrylab_cli_zh_CN.ts");
    }

    // Every QCoreApplication::translate() of the sources has its entry in the .ts (lupdate was run),
    // in the same context.
    void sourcesAllInTs()
    {
        QFETCH(QStringList, dirs);
        QFETCH(QString, ts);
        QString error;
        const QList<Message> messages = readTs(QDir(translationsDir()).filePath(ts), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QString> known;
        for (const Message &m : messages)
            known.insert(m.context + QLatin1Char('\x1f') + m.source);
        QStringList missing;
        int calls = 0;
        for (const QString &dir : dirs) {
            const auto found = translateCalls(QDir::cleanPath(checkout() + QLatin1Char('/') + dir));
            calls += found.size();
            for (const auto &c : found) {
                if (!known.contains(c.first + QLatin1Char('\x1f') + c.second))
                    missing << QStringLiteral("[%1] \"%2\"").arg(c.first, c.second.left(80));
            }
        }
        QVERIFY(calls > 50);
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("not in %1 (run: cmake --build build --target update_translations):\n%2")
                                .arg(ts, missing.join(QLatin1Char('\n')))));
    }

    // Every tr("...") of ui/ has an entry in retrylab_ui_zh_CN.ts (in some context: a class's tr()
    // context is its qualified name, which a pattern cannot tell reliably).
    void uiSourcesAllInTs()
    {
        const QString ts = QDir(translationsDir()).filePath(QStringLiteral("retrylab_ui_zh_CN.ts"));
        if (!QFile::exists(ts))
            QSKIP("no resources/translations/retrylab_ui_zh_CN.ts in this checkout");
        QString error;
        const QList<Message> messages = readTs(ts, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QString> known;
        for (const Message &m : messages)
            known.insert(m.source);
        static const QRegularExpression call(
            QStringLiteral("(?<![A-Za-z0-9_])tr\\(\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*)+)[,)]"));
        const QFileInfoList files = sourceFiles(QDir::cleanPath(checkout() + QStringLiteral("/ui")));
        QStringList missing;
        int calls = 0;
        for (const QFileInfo &info : files) {
            QFile file(info.filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            auto it = call.globalMatch(text);
            while (it.hasNext()) {
                const QString source = unescapeLiterals(it.next().captured(1));
                ++calls;
                if (!known.contains(source))
                    missing << QStringLiteral("%1: \"%2\"").arg(info.fileName(), source.left(80));
            }
        }
        QVERIFY(calls > 100);
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("not in retrylab_ui_zh_CN.ts (run: cmake --build build --target "
                                           "update_translations):\n%1")
                                .arg(missing.join(QLatin1Char('\n')))));
    }

    // The generated QT_TRANSLATE_NOOP list is the JSON files' displayed texts: a JSON edit without
    // a configure, or a new key the generator does not know, shows here.
    void contentStringsInSyncWithJson()
    {
        QVERIFY(!contentKeys().isEmpty());
        QStringList fromJson = contentOfJsonFiles();
        QStringList generated = contentSourceTexts();
        QVERIFY(fromJson.size() >= 32); // 16 presets, a title and a description each
        fromJson.sort();
        generated.sort();
        QCOMPARE(generated, fromJson);
    }

    // Every displayed text of the JSON files has a Chinese translation at run time.
    void contentTranslated()
    {
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        QStringList untranslated;
        const QStringList texts = contentOfJsonFiles();
        for (const QString &text : texts) {
            if (i18n::content(text) == text)
                untranslated << text.left(80);
        }
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(QLatin1Char('\n'))));
    }

    void installSwitchesLanguage()
    {
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/retrylab_core_zh_CN.qm")));
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/retrylab_content_zh_CN.qm")));
        OpSummary op;
        op.ref = QStringLiteral("ORD-0001");
        op.succeeded = true;
        op.records = 3;
        const QString english = QStringLiteral("The server holds 3 records of ORD-0001: 2 are duplicates.");
        QCOMPARE(story::outcome(op), english);
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        QCOMPARE(i18n::currentLanguage(), QStringLiteral("zh_CN"));
        QCOMPARE(story::outcome(op), QStringLiteral("服务端存有 ORD-0001 的 3 条记录：其中 2 条是重复订单。"));
        QVERIFY(i18n::install(QStringLiteral("en")));
        QCOMPARE(story::outcome(op), english);
        QVERIFY(!i18n::install(QStringLiteral("xx")));
        QCOMPARE(i18n::currentLanguage(), QStringLiteral("en"));
    }

    void takeLanguageArgument_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QStringList>("rest");
        QTest::addColumn<QString>("error");
        const QString app = QStringLiteral("retrylab");
        QTest::newRow("absent") << QStringList{app, QStringLiteral("run")} << true << QString()
                                << QStringList{app, QStringLiteral("run")} << QString();
        QTest::newRow("first") << QStringList{app, QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--help")}
                               << true << QStringLiteral("zh_CN") << QStringList{app, QStringLiteral("--help")} << QString();
        QTest::newRow("equals") << QStringList{app, QStringLiteral("run"), QStringLiteral("--lang=en"), QStringLiteral("-x")}
                                << true << QStringLiteral("en") << QStringList{app, QStringLiteral("run"), QStringLiteral("-x")}
                                << QString();
        QTest::newRow("after --") << QStringList{app, QStringLiteral("--"), QStringLiteral("--lang"), QStringLiteral("zh_CN")}
                                  << true << QString()
                                  << QStringList{app, QStringLiteral("--"), QStringLiteral("--lang"), QStringLiteral("zh_CN")}
                                  << QString();
        QTest::newRow("unknown") << QStringList{app, QStringLiteral("--lang"), QStringLiteral("xx")} << false << QString()
                                 << QStringList{app} << QStringLiteral("--lang: expected en or zh_CN, got 'xx'");
        QTest::newRow("zh alone") << QStringList{app, QStringLiteral("--lang=zh")} << false << QString()
                                  << QStringList{app} << QStringLiteral("--lang: expected en or zh_CN, got 'zh'");
        QTest::newRow("missing") << QStringList{app, QStringLiteral("--lang")} << false << QString() << QStringList{app}
                                 << QStringLiteral("--lang: expected a language (en or zh_CN)");
    }

    void takeLanguageArgument()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, ok);
        QFETCH(QString, language);
        QFETCH(QStringList, rest);
        QFETCH(QString, error);
        std::vector<QByteArray> storage;
        for (const QString &a : std::as_const(args))
            storage.push_back(a.toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &b : storage)
            argv.push_back(b.data());
        argv.push_back(nullptr);
        int argc = int(args.size());
        QString lang;
        QString message;
        QCOMPARE(i18n::takeLanguageArgument(argc, argv.data(), &lang, &message), ok);
        QCOMPARE(lang, language);
        QCOMPARE(message, error);
        QStringList left;
        for (int i = 0; i < argc; ++i)
            left << QString::fromLocal8Bit(argv[size_t(i)]);
        QCOMPARE(left, rest);
        QVERIFY(argv[size_t(argc)] == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
