#include "cli/cli.h"
#include "shell/gui.h"
#include "i18n.h"

#include <cstdio>

int main(int argc, char *argv[])
{
    // --lang is taken out first, so that `retrylab --lang zh_CN --help` is the CLI's help in Chinese
    // and every parser after this builds its texts in the chosen language.
    QString language;
    QString error;
    if (!retrylab::i18n::takeLanguageArgument(argc, argv, &language, &error)) {
        std::fprintf(stderr, "retrylab: %s\n", error.toLocal8Bit().constData());
        return 2;
    }
    if (retrylab::cli::wanted(argc, argv))
        return retrylab::cli::run(argc, argv, language);
    return retrylab::runGui(argc, argv, language);
}
