// clatomics demo: runs the lessons on one device, each checked; exit code 1 if any check fails.
#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "lessons.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

struct DemoArgs {
  DeviceChoice choice;
  std::vector<std::string> lessons;  // --lesson, in the order given; empty: all
  bool list = false;
};

std::vector<std::string> lesson_names() {
  std::vector<std::string> names;
  for (const auto& l : lessons()) names.push_back(l.name);
  return names;
}

int run_demo(const DemoArgs& args) {
  if (args.list) {
    for (const auto& l : lessons()) std::cout << l.name << "\t" << l.title << "\n";
    return exit_ok;
  }
  std::vector<const Lesson*> chosen;
  for (const auto& l : lessons())
    if (args.lessons.empty() || std::find(args.lessons.begin(), args.lessons.end(), l.name) != args.lessons.end())
      chosen.push_back(&l);

  auto rt = make_runtime("demo", args.choice.options());
  const auto& caps = rt->device_info().caps;
  std::cout << "clatomics demo on " << caps.device_name << " (" << caps.platform_name << ")"
            << (rt->options().force_cas ? ", every op on the CAS loop" : "") << "\n";
  std::size_t failed = 0;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const Lesson& lesson = *chosen[k];
    std::cout << "\n" << k + 1 << ". " << lesson.title << "\n";
    bool ok = false;
    try {
      ok = lesson.run(*rt, std::cout);
    } catch (const std::exception& e) {  // one lesson's error does not hide the others
      std::cout << "  ERROR: " << e.what() << "\n";
    }
    if (!ok) {
      ++failed;
      std::cout << "  -> lesson '" << lesson.name << "' FAILED\n";
    }
  }
  std::cout << "\n";
  if (failed) {
    std::cout << "demo: " << failed << " of " << chosen.size() << " lessons FAILED\n";
    return exit_failed;
  }
  std::cout << "demo: " << chosen.size() << " lessons, all checks passed\n";
  return exit_ok;
}

}  // namespace

Command add_demo_command(CLI::App& app) {
  auto args = std::make_shared<DemoArgs>();
  std::string description =
      "the lessons of atomics, each checked and shown in a short table.\n\n"
      "Runs the lessons of atomics on one device, each with its expected results checked, and prints\n"
      "a short table per lesson. Lessons (in the order they run):\n";
  for (const auto& l : lessons()) description += named_line(l.name, l.title);
  CLI::App* sub = add_command(
      app, "demo", description,
      "Environment: CLATOMICS_DEMO_BREAK=LESSON[,...] or all shifts those lessons' host references by one\n"
      "unit, so that their checks must fail (a test of the checks themselves).\n");
  add_device_options(*sub, args->choice, "every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)");
  sub->add_option("--lesson", args->lessons, "run only this lesson (repeatable)")
      ->option_text("NAME")
      ->check(one_of("lesson", lesson_names));
  sub->add_flag("--list", args->list, "list the lessons and exit");
  return {sub, [args] { return run_demo(*args); }};
}

}  // namespace clatomics::cli
