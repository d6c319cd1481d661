#pragma once

#include <QString>
#include <QStringList>

namespace retrylab {

// Languages of the app: English (the source texts) and Simplified Chinese. The translations of every
// library (core, ui, cli, content) are compiled into the binary as :/i18n/retrylab_*_<language>.qm.
namespace i18n {

// The language codes the app speaks: "en" and "zh_CN".
QStringList languages();
bool isSupported(const QString &language);
// The language for the system locale: zh_CN for any Chinese locale, English otherwise.
QString systemLanguage();

// Takes `--lang X` or `--lang=X` out of argv (anywhere before a lone "--"), so that neither the
// command dispatcher nor a parser sees it. Returns false with a one-line error for a missing or
// unsupported value; *language stays empty when the flag is absent.
bool takeLanguageArgument(int &argc, char **argv, QString *language, QString *error);

// Installs the translators of `language` into the application (replacing any installed before):
// every :/i18n/*_<language>.qm and Qt's own qtbase translation when the system has it. "en"
// removes them all. Returns false (and installs nothing) for an unsupported language.
bool install(const QString &language);
// The language installed last ("en" before any install).
QString currentLanguage();

// A text of a scenario or lesson file (title, description, lesson text) in the current language:
// QCoreApplication::translate("content", text). The English text when there is no translation.
QString content(const QString &text);

} // namespace i18n
} // namespace retrylab
