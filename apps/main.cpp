// clatomics: the command a new user runs first (info, demo) and a maintainer runs to measure (bench).
#include <iostream>

#include "commands.hpp"

namespace clatomics::cli {
namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args&);
};

constexpr Command commands[] = {
    {"info", "OpenCL platforms and devices, their atomic extensions, and the path each op takes", info_command},
    {"demo", "the lessons of atomics, each checked and shown in a short table", demo_command},
    {"bench", "benchmark suites with yardsticks from the same run: table, JSON, SVG plot", bench_command},
    {"options", "the OpenCL C build options for the snippets on one device (for your own builds)", options_command},
};

void print_usage(std::ostream& out) {
  out << "Usage: clatomics <command> [options]\n"
         "       clatomics <command> --help\n\n"
         "Portable float/double atomics for OpenCL (clatomics " CLATOMICS_VERSION ").\n\nCommands:\n";
  for (const auto& c : commands) out << "  " << c.name << std::string(9 - std::string(c.name).size(), ' ') << c.summary << "\n";
  out << "\nEnvironment: CLATOMICS_DEVICE picks the device (index, cpu, gpu or a name), CLATOMICS_FORCE_CAS=1\n"
         "puts every op on the CAS loop, CLATOMICS_HIDE_FP64=1 hides double.\n\n"
      << exit_codes_help;
}

const Command* find_command(const std::string& name) {
  for (const auto& c : commands)
    if (name == c.name) return &c;
  return nullptr;
}

int run(const Args& args) {
  if (args.empty()) {
    print_usage(std::cerr);
    return exit_usage;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    if (first == "help" && args.size() > 1) {
      const Command* c = find_command(args[1]);
      if (!c) throw UsageError("", "unknown command '" + args[1] + "'");
      return c->run({"--help"});
    }
    print_usage(std::cout);
    return exit_ok;
  }
  if (first == "--version") {
    std::cout << "clatomics " CLATOMICS_VERSION "\n";
    return exit_ok;
  }
  const Command* c = find_command(first);
  if (!c) throw UsageError("", (first.rfind("-", 0) == 0 ? "unknown option '" : "unknown command '") + first + "'");
  return c->run(Args(args.begin() + 1, args.end()));
}

}  // namespace
}  // namespace clatomics::cli

int main(int argc, char** argv) {
  using namespace clatomics::cli;
  try {
    return run(Args(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::cerr << "clatomics" << (e.command.empty() ? "" : " " + e.command) << ": " << e.what() << "\n"
              << "Run 'clatomics" << (e.command.empty() ? "" : " " + e.command) << " --help' for usage.\n";
    return exit_usage;
  } catch (const NoDeviceError& e) {
    std::cerr << "clatomics" << (e.command.empty() ? "" : " " + e.command) << ": " << e.what() << "\n";
    return exit_no_device;
  } catch (const clatomics::Error& e) {
    std::cerr << "clatomics: OpenCL error: " << e.what() << "\n";
    return exit_failed;
  } catch (const std::exception& e) {
    std::cerr << "clatomics: error: " << e.what() << "\n";
    return exit_failed;
  }
}
