// `clatomics bench --plot`: bench/plot.py draws the SVG from the run's JSON, run by a Python
// that has matplotlib.
#pragma once

#include <string>

namespace clatomics::cli {

struct Plotter {
  std::string python;  // an interpreter that imports matplotlib
  std::string script;  // plot.py
};

// Finds plot.py (locate.hpp) and a Python with matplotlib: CLATOMICS_PYTHON when set, else
// python3 on the PATH, else /usr/bin/python3 (the system's, where Debian's python3-matplotlib
// lives even when another python3 comes first on the PATH). Throws std::runtime_error saying
// what is missing and how to install it.
Plotter find_plotter();

// Runs plot.py: json_path -> svg_path; throws std::runtime_error when it fails (its own messages
// go to stderr).
void draw_plot(const Plotter& plotter, const std::string& json_path, const std::string& svg_path);

}  // namespace clatomics::cli
