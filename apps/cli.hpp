// Shared by the subcommands of `clatomics`: exit codes, usage errors, the options every command
// takes (--device, --force-cas), making the Runtime.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench.hpp"
#include "clatomics/clatomics.hpp"

namespace clatomics::cli {

using bench::checked;

// Exit codes, as every --help documents them.
constexpr int exit_ok = 0;
constexpr int exit_failed = 1;     // a check failed, or an OpenCL/runtime error
constexpr int exit_usage = 2;      // unknown command, option, suite or lesson; a bad option value
constexpr int exit_no_device = 3;  // no device matches --device / CLATOMICS_DEVICE, or none at all

// The exit codes as every --help prints them.
constexpr const char* exit_codes_help =
    "Exit codes: 0 success, 1 a failed check or an OpenCL error (or another failure, such as no\n"
    "matplotlib for --plot), 2 a usage error (unknown command, option, suite or lesson; a bad value;\n"
    "an output file that cannot be written), 3 no such OpenCL device (none matches, or none at all).\n";

// A mistake in the command line (exit code 2); main() prints it with a hint to use --help.
struct UsageError : std::runtime_error {
  UsageError(const std::string& command, const std::string& message)
      : std::runtime_error(message), command(command) {}
  std::string command;  // "bench", or "" for the top level
};

// The device asked for is not there (exit code 3): scripts can tell "no GPU here" from a mistake.
struct NoDeviceError : std::runtime_error {
  NoDeviceError(const std::string& command, const std::string& message)
      : std::runtime_error(message), command(command) {}
  std::string command;
};

// A subcommand: its CLI11 app (options, help) and what runs it once the command line is parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the exit code
};

// The options of every command that runs on a device.
struct DeviceChoice {
  std::string device;  // --device; empty: CLATOMICS_DEVICE, else the default
  bool force_cas = false;
  // Options from the environment (CLATOMICS_DEVICE, CLATOMICS_FORCE_CAS, ...), overridden by
  // these: a non-empty device selector, force_cas when set.
  Options options() const;
};

// Adds a subcommand and its help: the description (a one-line summary, a blank line, then the
// details) and the footer, followed by the exit codes every command's help ends with.
CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description, const std::string& footer = "");

// Adds --device SEL and --force-cas (what it means for this command) to a subcommand.
void add_device_options(CLI::App& app, DeviceChoice& choice, const std::string& force_cas_help);

// The help layout of every command: usage first, then the description, options and the footer.
std::shared_ptr<CLI::Formatter> help_formatter();

// A size in bytes: "4096", "64K", "256M", "1G" (powers of 1024; "KiB", "kb" too), more than 0.
CLI::Option* add_size_option(CLI::App& app, const std::string& name, std::size_t& bytes, const std::string& help);

// Refuses an empty value ("--json ''").
CLI::Validator non_empty();

// Checks that a value is one of names() (e.g. the suites), naming them all when it is not.
CLI::Validator one_of(const std::string& what, std::function<std::vector<std::string>()> names);

// The device those options select; a selector that matches no device (the message lists the
// devices present), or no OpenCL device at all, is a NoDeviceError.
cl::Device pick_device(const std::string& command, const Options& options);

// The Runtime for those options, on pick_device's device.
std::unique_ptr<Runtime> make_runtime(const std::string& command, const Options& options);

// "3.0" from 300.
std::string opencl_c_name(int version);

}  // namespace clatomics::cli
