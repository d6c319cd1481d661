// `retrylab help`: every command's synopsis on one screen.
#include "commandparser.h"
#include "commands.h"
#include "options.h"
#include "output.h"

#include <QCoreApplication>

namespace retrylab {
namespace cli {

QString generalHelp()
{
    return QCoreApplication::translate("cli",
            "RetryLab: a lab for retries and idempotency. A timeout is not a failure.\n"
            "\n"
            "Usage:\n"
            "  retrylab                        open the desktop lab\n"
            "  retrylab run --scenario NAME|FILE [--seed N] [--set path=value ...]\n"
            "               [--format table|json|csv] [--trace FILE.jsonl|-] [--max-attempts N]\n"
            "  retrylab sweep --scenario NAME|FILE --param PATH\n"
            "               (--values a,b,c | --from A --to B --steps K) [--seeds S]\n"
            "               [--param2 PATH (--values2 a,b | --from2 A --to2 B --steps2 K)]\n"
            "               [--metrics m1,m2] [--seed N] [--set path=value ...]\n"
            "               [--format table|json|csv] [--max-attempts N]\n"
            "  retrylab compare --scenario NAME|FILE [--set path=value ...] [--seed N]\n"
            "               [--format table|json|csv]\n"
            "                                  A and B = A with the changes (or one toggle), side by side\n"
            "  retrylab list [--long] [--format table|json]\n"
            "                                  the presets and what each one teaches\n"
            "  retrylab lessons [--format table|json]\n"
            "                                  the guided lessons; open one with --lesson NAME [--step N]\n"
            "  retrylab lessons --handout FILE.pdf --lesson NAME [--student]\n"
            "                                  a lesson's handout (--student: without the answers)\n"
            "  retrylab fields [--format table|json]\n"
            "                                  every --set / --param path: type, range, default\n"
            "  retrylab serve [--port P] [--listen ADDR] [--db FILE] [--key-store memory|durable]\n"
            "               [--scenario NAME|FILE] [--set path=value ...]\n"
            "                                  the order service over real HTTP, for your own client\n"
            "  retrylab proxy --upstream URL [--port P] [--scenario NAME|FILE] [--set network.*=value ...]\n"
            "               [--order-field FIELD] [--report] [--requests N] [--format table|json]\n"
            "                                  the lab's faults in front of your own service; its duplicates counted\n"
            "  retrylab help [COMMAND]\n"
            "\n"
            "Run 'retrylab COMMAND --help' for the options of one command.\n"
            "Exit codes: 0 ok, 1 runtime error, 2 usage error.\n");
}

} // namespace cli
} // namespace retrylab
