// Finding a Python with matplotlib and running plot.py with it.
#include "plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "locate.hpp"

extern char** environ;

namespace clatomics::cli {
namespace {

// Runs argv[0] (looked up on the PATH) with argv, stdout to stderr, or both to /dev/null when
// quiet; returns its exit code, or -1 when it could not run or died of a signal.
int run_program(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  } else {
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);  // stdout is the table's
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

Plotter find_plotter() {
  Plotter p;
  p.script = plot_script();
  if (p.script.empty())
    throw std::runtime_error("--plot: plot.py is neither installed beside this program (share/clatomics) nor in its build tree");
  const char* chosen = std::getenv("CLATOMICS_PYTHON");
  const std::vector<std::string> candidates =
      chosen && *chosen ? std::vector<std::string>{chosen} : std::vector<std::string>{"python3", "/usr/bin/python3"};
  std::string tried;
  for (const auto& python : candidates) {
    if (run_program({python, "-c", "import matplotlib"}, true) == 0) {
      p.python = python;
      return p;
    }
    tried += (tried.empty() ? "" : ", ") + python;
  }
  throw std::runtime_error("--plot needs Python 3 with matplotlib (Debian: apt-get install python3-matplotlib; or set "
                           "CLATOMICS_PYTHON to an interpreter that has it); tried " + tried);
}

void draw_plot(const Plotter& plotter, const std::string& json_path, const std::string& svg_path) {
  const int code = run_program({plotter.python, plotter.script, json_path, svg_path}, false);
  if (code != 0)
    throw std::runtime_error(plotter.script + " failed (exit code " + std::to_string(code) + ") drawing " + svg_path);
}

}  // namespace clatomics::cli
