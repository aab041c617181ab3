// The subcommands of `clatomics`: each adds itself (options, help) to the program's CLI11 app and
// returns what runs it; a command-line mistake found while running throws UsageError.
#pragma once

#include "cli.hpp"

namespace clatomics::cli {

Command add_info_command(CLI::App& app);
Command add_demo_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_options_command(CLI::App& app);
Command add_plan_command(CLI::App& app);

}  // namespace clatomics::cli
