#pragma once

namespace retrylab {

// Starts the desktop lab (QApplication, main window). Handles GUI-only flags
// such as --scenario X and --screenshot out.png. Returns the process exit code.
int runGui(int argc, char *argv[]);

} // namespace retrylab
