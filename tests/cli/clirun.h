#pragma once

#include "testpaths.h"

#include <QProcess>
#include <QStringList>

// The built retrylab run as a child process in English, for the tests that drive the command line.
namespace clirun {

struct CliResult
{
    int exitCode = -1; // -1: crashed or timed out
    QByteArray out;
    QByteArray err;
};

inline CliResult runCli(const QStringList &arguments, int timeoutMs = 240000)
{
    QProcess process;
    process.setProgram(retrylab::test::retrylabBin());
    process.setArguments(QStringList{QStringLiteral("--lang"), QStringLiteral("en")} + arguments);
    process.start();
    CliResult result;
    if (!process.waitForStarted(30000) || !process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace clirun
