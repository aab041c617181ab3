// What the `clatomics` command's suites share: running the command as a script does (its path from
// CLATOMICS_CLI, set by CTest to the built target) and the files it writes.
#pragma once

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "clatomics/clatomics.hpp"

namespace cli_test {

struct Result {
  int code = -1;
  std::string out, err;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string temp_path(const std::string& what) {
  return "cli-" + std::to_string(::getpid()) + "-" + what;
}

// Runs `clatomics <args>` through the shell, with env assignments before it.
inline Result cli(const std::string& args, const std::string& env = "") {
  const char* cli = std::getenv("CLATOMICS_CLI");
  REQUIRE_MESSAGE(cli != nullptr, "CLATOMICS_CLI must name the clatomics program");
  const std::string err_path = temp_path("stderr");
  const std::string command = env + " '" + cli + "' " + args + " 2>" + err_path;
  Result r;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_path);
  std::remove(err_path.c_str());
  return r;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// An SVG document as matplotlib writes it, complete (not cut off).
inline bool is_svg(const std::string& text) {
  return text.rfind("<?xml", 0) == 0 && contains(text, "<svg") && text.size() > 7 &&
         text.compare(text.size() - 7, 7, "</svg>\n") == 0;
}

// A fresh directory of its own for a test's files, removed with everything in it at the end.
struct TempDir {
  TempDir() {
    std::string name = "cli-" + std::to_string(::getpid()) + "-XXXXXX";
    REQUIRE(::mkdtemp(name.data()) != nullptr);
    path = std::filesystem::absolute(name).string();
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
  std::set<std::string> names() const {  // what the directory holds, temporary files included
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path)) out.insert(e.path().filename().string());
    return out;
  }
  std::string path;
};

inline void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A runtime's options for device 0, as `--device 0` gives the command.
inline clatomics::Options device_0() {
  clatomics::Options o = clatomics::Options::from_env();
  o.device = "0";
  return o;
}

}  // namespace cli_test
