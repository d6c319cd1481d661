#include "cli.h"
#include "gui.h"

int main(int argc, char *argv[])
{
    if (retrylab::cli::wanted(argc, argv))
        return retrylab::cli::run(argc, argv);
    return retrylab::runGui(argc, argv);
}
