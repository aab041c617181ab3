// clatomics demo: runs the lessons on one device, each checked; exit code 1 if any check fails.
#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "lessons.hpp"

namespace clatomics::cli {
namespace {

std::string demo_help() {
  std::string text =
      "Usage: clatomics demo [--device SEL] [--lesson NAME]... [--force-cas] [--list]\n\n"
      "Runs the lessons of atomics on one device, each with its expected results checked, and prints\n"
      "a short table per lesson. Lessons:\n";
  for (const auto& l : lessons()) text += "  " + l.name + std::string(10 - std::min<std::size_t>(9, l.name.size()), ' ') + l.title + "\n";
  text +=
      "\nOptions:\n"
      "  --device SEL   an index, cpu, gpu, or part of the \"platform / device\" names\n"
      "                 (default: CLATOMICS_DEVICE, else the first GPU, else CPU)\n"
      "  --lesson NAME  run only this lesson (repeatable)\n"
      "  --force-cas    every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)\n"
      "  --list         list the lessons and exit\n"
      "  -h, --help     this text\n\n"
      "Environment: CLATOMICS_DEMO_BREAK=LESSON[,...] or all shifts those lessons' host references by one\n"
      "unit, so that their checks must fail (a test of the checks themselves).\n\n";
  text += exit_codes_help;
  return text;
}

const Lesson* find_lesson(const std::string& name) {
  for (const auto& l : lessons())
    if (l.name == name) return &l;
  return nullptr;
}

}  // namespace

int demo_command(const Args& args) {
  std::string device, name;
  bool force_cas = false;
  std::vector<const Lesson*> chosen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-h" || args[i] == "--help") {
      std::cout << demo_help();
      return exit_ok;
    }
    if (args[i] == "--list") {
      for (const auto& l : lessons()) std::cout << l.name << "\t" << l.title << "\n";
      return exit_ok;
    }
    if (args[i] == "--force-cas") {
      force_cas = true;
      continue;
    }
    if (take_value("demo", args, i, "--device", device)) continue;
    if (take_value("demo", args, i, "--lesson", name)) {
      const Lesson* l = find_lesson(name);
      if (!l) {
        std::string known;
        for (const auto& k : lessons()) known += " " + k.name;
        throw UsageError("demo", "unknown lesson '" + name + "' (lessons:" + known + ")");
      }
      chosen.push_back(l);
      continue;
    }
    throw UsageError("demo", "unknown option '" + args[i] + "'");
  }
  if (chosen.empty())
    for (const auto& l : lessons()) chosen.push_back(&l);

  auto rt = make_runtime("demo", options(device, force_cas));
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

}  // namespace clatomics::cli
