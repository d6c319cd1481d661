#pragma once

// What the fuzz tests share: the per-case budget and the runner that starts the binary on each
// case, two at a time, under an address-space limit.
#include "testpaths.h"

#include <QElapsedTimer>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <algorithm>

#include <sys/resource.h>

namespace retrylab::fuzz {

constexpr int CaseTimeoutMs = 10000;
constexpr rlim_t ChildAddressSpace = rlim_t(2) << 30; // 2 GiB
constexpr long PeakRssLimitKb = 1024L * 1024L;        // 1 GiB
constexpr int Parallel = 2;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool UnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool UnderAsan = true;
#else
constexpr bool UnderAsan = false;
#endif
#else
constexpr bool UnderAsan = false;
#endif

// Runs `count` cases of the binary, Parallel at a time, each under the address-space limit and
// given `timeoutMs` from its batch's start; `check` sees each finished (or still running) process.
template<typename Args, typename Check>
inline void runInBatches(int count, int timeoutMs, const QProcessEnvironment &env, Args args, Check check)
{
    for (int first = 0; first < count; first += Parallel) {
        QList<QProcess *> running;
        for (int i = first; i < std::min(first + Parallel, count); ++i) {
            auto *process = new QProcess;
            process->setProgram(retrylab::test::retrylabBin());
            process->setArguments(args(i));
            process->setProcessEnvironment(env);
            if (!UnderAsan) {
                process->setChildProcessModifier([] {
                    const rlimit limit{ChildAddressSpace, ChildAddressSpace};
                    setrlimit(RLIMIT_AS, &limit);
                });
            }
            process->start();
            running << process;
        }
        QElapsedTimer batch;
        batch.start();
        for (int k = 0; k < running.size(); ++k) {
            QProcess *process = running.at(k);
            process->waitForStarted(timeoutMs);
            process->waitForFinished(int(std::max<qint64>(1, timeoutMs - batch.elapsed())));
            check(first + k, process);
            delete process;
        }
    }
}

} // namespace retrylab::fuzz
