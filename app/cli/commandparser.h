#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include "options.h"

namespace retrylab {
namespace cli {

// One subcommand's parser with the options every command shares: --help with the real
// synopsis, and one error line for a bad flag or a stray argument.
class CommandParser
{
public:
    CommandParser(const QString &command, const QString &synopsis, const QString &description);

    QCommandLineParser &parser() { return m_parser; }

    // Parses `retrylab <command> args...`; returns Continue or the exit code to return now.
    int parse(const QStringList &arguments);
    // parse(), then --format (table, json, and csv when csvAllowed) for a command whose options
    // include formatOption().
    int parse(const QStringList &arguments, bool csvAllowed, Format *format);

    QString helpText() const;

private:
    QString m_command;
    QString m_synopsis;
    QCommandLineParser m_parser;
    QCommandLineOption m_help;
};

} // namespace cli
} // namespace retrylab
