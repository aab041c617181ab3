// The subcommands of `clatomics`: each takes the arguments after its name and returns the exit
// code; a command-line mistake throws UsageError.
#pragma once

#include "cli.hpp"

namespace clatomics::cli {

int info_command(const Args& args);
int demo_command(const Args& args);
int bench_command(const Args& args);
int options_command(const Args& args);

}  // namespace clatomics::cli
