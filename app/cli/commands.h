#pragma once

#include <QString>
#include <QStringList>

namespace retrylab {
namespace cli {

// One function per command, each in its own file (app/cli/<command>.cpp). Each takes the
// arguments after the command word and returns the exit code (0 ok, 1 runtime error, 2 usage error).
int runCommand(const QStringList &arguments);
int sweepCommand(const QStringList &arguments);
int compareCommand(const QStringList &arguments);
int listCommand(const QStringList &arguments);
int lessonsCommand(const QStringList &arguments);
int fieldsCommand(const QStringList &arguments);
int serveCommand(const QStringList &arguments);
int proxyCommand(const QStringList &arguments);

// `retrylab help` and `retrylab` alone: every command's synopsis on one screen.
QString generalHelp();

} // namespace cli
} // namespace retrylab
