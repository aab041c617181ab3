// clatomics: the command a new user runs first (info, demo) and a maintainer runs to measure (bench).
#include <iostream>
#include <vector>

#include "commands.hpp"

namespace clatomics::cli {
namespace {

const char* const environment_help =
    "Environment: CLATOMICS_DEVICE picks the device (index, cpu, gpu or a name), CLATOMICS_FORCE_CAS=1\n"
    "puts every op on the CAS loop, CLATOMICS_HIDE_FP64=1 hides double.\n\n";

// The subcommand CLI11 selected, or "" at the top level.
std::string selected_name(const CLI::App& app) {
  const auto selected = app.get_subcommands();
  return selected.empty() ? std::string() : selected.front()->get_name();
}

// A word the parser did not take: an unknown command at the top level, else an unknown option.
UsageError leftover(const std::string& command, const std::string& word) {
  if (word.rfind("-", 0) == 0) return UsageError(command, "unknown option '" + word + "'");
  return UsageError(command, (command.empty() ? "unknown command '" : "unexpected argument '") + word + "'");
}

int run(int argc, char** argv) {
  CLI::App app("Portable float/double atomics for OpenCL (clatomics " CLATOMICS_VERSION ").", "clatomics");
  app.formatter(help_formatter());
  app.footer(std::string(environment_help) + exit_codes_help);
  app.set_version_flag("--version", "clatomics " CLATOMICS_VERSION);
  app.require_subcommand(0, 1);
  app.allow_extras();  // unknown words are reported below, in this program's words

  std::vector<Command> commands = {add_info_command(app), add_demo_command(app), add_bench_command(app),
                                   add_options_command(app), add_plan_command(app)};
  std::string topic;
  CLI::App* help = app.add_subcommand("help", "the help of one command: clatomics help bench");
  help->add_option("command", topic, "info, demo, bench, options or plan")->required();
  for (auto& c : commands) c.app->allow_extras();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return exit_ok;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    throw UsageError(selected_name(app), e.what());
  }
  if (!app.remaining().empty()) throw leftover("", app.remaining().front());
  if (help->parsed()) {
    for (const auto& c : commands)
      if (c.app->get_name() == topic) {
        std::cout << c.app->help("clatomics");
        return exit_ok;
      }
    throw UsageError("", "unknown command '" + topic + "'");
  }
  for (const auto& c : commands) {
    if (!c.app->parsed()) continue;
    if (!c.app->remaining().empty()) throw leftover(c.app->get_name(), c.app->remaining().front());
    return c.run();
  }
  std::cerr << app.help();  // no command: the usage, as an error
  return exit_usage;
}

}  // namespace
}  // namespace clatomics::cli

int main(int argc, char** argv) {
  using namespace clatomics::cli;
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    const std::string command = "clatomics" + (e.command.empty() ? "" : " " + e.command);
    std::cerr << command << ": " << e.what() << "\nRun '" << command << " --help' for usage.\n";
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
