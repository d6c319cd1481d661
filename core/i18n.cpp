#include "i18n.h"

#include "scenario.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <cstring>
#include <memory>
#include <vector>

namespace retrylab {
namespace i18n {

namespace {

const char *const English = "en";
const char *const Chinese = "zh_CN";

struct State
{
    QString language = QLatin1String(English);
    std::vector<std::unique_ptr<QTranslator>> translators;
};

State &state()
{
    static State s;
    return s;
}

} // namespace

QStringList languages()
{
    return {QLatin1String(English), QLatin1String(Chinese)};
}

bool isSupported(const QString &language)
{
    return languages().contains(language);
}

QString systemLanguage()
{
    const QLocale locale = QLocale::system();
    return locale.language() == QLocale::Chinese ? QLatin1String(Chinese) : QLatin1String(English);
}

bool takeLanguageArgument(int &argc, char **argv, QString *language, QString *error)
{
    language->clear();
    int out = 1;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (!std::strcmp(arg, "--")) {
            // Everything after a lone "--" belongs to the command.
            while (i < argc)
                argv[out++] = argv[i++];
            break;
        }
        QString value;
        if (!std::strcmp(arg, "--lang")) {
            if (i + 1 >= argc) {
                *error = QStringLiteral("--lang: expected a language (%1)").arg(languages().join(QStringLiteral(" or ")));
                ok = false;
                continue;
            }
            value = QString::fromLocal8Bit(argv[++i]);
        } else if (!std::strncmp(arg, "--lang=", 7)) {
            value = QString::fromLocal8Bit(arg + 7);
        } else {
            argv[out++] = argv[i];
            continue;
        }
        if (!isSupported(value)) {
            *error = QStringLiteral("--lang: expected %1, got '%2'").arg(languages().join(QStringLiteral(" or ")), scenario::printable(value));
            ok = false;
            continue;
        }
        *language = value;
    }
    argc = out;
    argv[argc] = nullptr;
    return ok;
}

bool install(const QString &language)
{
    if (!isSupported(language))
        return false;
    State &s = state();
    for (const auto &t : s.translators)
        QCoreApplication::removeTranslator(t.get());
    s.translators.clear();
    s.language = language;
    if (language == QLatin1String(English))
        return true;

    // Ours first, then Qt's (QCommandLineParser's "Usage:", dialog buttons).
    const QDir dir(QStringLiteral(":/i18n"));
    const QStringList ours = dir.entryList({QStringLiteral("retrylab_*_%1.qm").arg(language)}, QDir::Files, QDir::Name);
    QStringList files;
    for (const QString &name : ours)
        files << dir.filePath(name);
    const QString qt = QDir(QLibraryInfo::path(QLibraryInfo::TranslationsPath))
                               .filePath(QStringLiteral("qtbase_%1.qm").arg(language));
    if (QFile::exists(qt))
        files << qt;
    for (const QString &file : std::as_const(files)) {
        auto translator = std::make_unique<QTranslator>();
        if (translator->load(file) && QCoreApplication::installTranslator(translator.get()))
            s.translators.push_back(std::move(translator));
    }
    return true;
}

QString currentLanguage()
{
    return state().language;
}

QString content(const QString &text)
{
    if (text.isEmpty())
        return text;
    return QCoreApplication::translate("content", text.toUtf8().constData());
}

} // namespace i18n
} // namespace retrylab
