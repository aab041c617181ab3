// Shared by the subcommands of `clatomics`: usage errors, option parsing, making the Runtime.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "clatomics/clatomics.hpp"

namespace clatomics::cli {

using bench::checked;

// Exit codes, as every --help documents them.
constexpr int exit_ok = 0;
constexpr int exit_failed = 1;  // a check failed, or an OpenCL/runtime error
constexpr int exit_usage = 2;   // unknown command, option, suite or lesson; a bad option value
constexpr int exit_no_device = 3;  // no device matches --device / CLATOMICS_DEVICE, or none at all

// The exit codes as every --help prints them.
constexpr const char* exit_codes_help =
    "Exit codes: 0 success, 1 a failed check or an OpenCL error, 2 a usage error (unknown command,\n"
    "option, suite or lesson; a bad value), 3 no such OpenCL device (none matches, or none at all).\n";

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

using Args = std::vector<std::string>;

// If args[i] is "--name VALUE" or "--name=VALUE", stores VALUE, advances i past it and returns
// true; a missing value is a UsageError.
bool take_value(const std::string& command, const Args& args, std::size_t& i, const std::string& name,
                std::string& value);

// "4096", "64K", "256M", "1G" (powers of 1024; an optional trailing "B" or "iB"), more than 0.
std::size_t parse_size(const std::string& command, const std::string& option, const std::string& text);

// A whole number in [min, max].
int parse_count(const std::string& command, const std::string& option, const std::string& text, int min, int max);

// Options from the environment (CLATOMICS_DEVICE, CLATOMICS_FORCE_CAS, ...), overridden by the
// command line: a non-empty device selector, force_cas when set.
Options options(const std::string& device, bool force_cas);

// The device those options select; a selector that matches no device (the message lists the
// devices present), or no OpenCL device at all, is a NoDeviceError.
cl::Device pick_device(const std::string& command, const Options& options);

// The Runtime for those options, on pick_device's device.
std::unique_ptr<Runtime> make_runtime(const std::string& command, const Options& options);

// "3.0" from 300.
std::string opencl_c_name(int version);

}  // namespace clatomics::cli
