#pragma once

#include <QString>

// The command line's entry, called by main() before any QCoreApplication exists.

namespace retrylab {
namespace cli {

// True when argv asks for the command line (a subcommand word, --help, -h or --version)
// rather than the desktop lab.
bool wanted(int argc, char *argv[]);

// `retrylab <command> ...`: run, sweep, compare, list, lessons, fields, serve, help (one file each
// in app/cli/). Returns the exit code: 0 ok, 1 runtime error, 2 usage error (docs/command-line.md,
// "Exit codes"). Human-readable texts are in `language`
// (en or zh_CN; empty: the system locale's); machine formats (JSON, CSV, traces) stay English.
int run(int argc, char *argv[], const QString &language = QString());

} // namespace cli
} // namespace retrylab
