// clatomics bench: runs the registered suites, prints a table on stdout (progress on stderr),
// and writes JSON and an SVG plot on request.
#include <algorithm>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "report.hpp"
#include "suites.hpp"

namespace clatomics::cli {
namespace {

std::string bench_help() {
  std::string text =
      "Usage: clatomics bench [--device SEL] [--size BYTES] [--repeats N] [--warmup N] [--suite NAME]...\n"
      "                       [--quick] [--json FILE] [--plot FILE.svg] [--force-cas] [--list]\n\n"
      "Runs benchmark suites on one device. Each figure is the median of N timed runs after a warm-up,\n"
      "kernel time from OpenCL profiling events, printed beside a yardstick measured in the same run\n"
      "(the CAS loop, a read-only pass over the same bytes, a plain multi-threaded C++ loop) and the\n"
      "ratio. Progress goes to stderr, the table to stdout. Suites (all by default, in this order):\n";
  for (const auto& s : bench::suites()) text += "  " + s.name + std::string(12 - std::min<std::size_t>(11, s.name.size()), ' ') + s.description + "\n";
  text +=
      "\nOptions:\n"
      "  --device SEL     an index, cpu, gpu, or part of the \"platform / device\" names\n"
      "                   (default: CLATOMICS_DEVICE, else the first GPU, else CPU)\n"
      "  --size BYTES     data size of the algorithm suites: 4096, 64K, 256M, 1G (default 256M)\n"
      "  --repeats N      timed runs per figure, the median is reported (default 7)\n"
      "  --warmup N       untimed runs first (default 2)\n"
      "  --suite NAME     run only this suite (repeatable)\n"
      "  --quick          tiny sizes, one run, fewer cases: a smoke test, not a measurement\n"
      "  --json FILE      also write the results as JSON (device, platform, date, config, rows)\n"
      "  --plot FILE.svg  also draw throughput against contention per path, and each ratio\n"
      "  --force-cas      the main runtime puts every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)\n"
      "  --list           list the suites and exit\n"
      "  -h, --help       this text\n\n"
      "Environment (the atomics suite; comma lists narrow a run, e.g. for tuning): CLATOMICS_BENCH_OPS\n"
      "(add,sub,mul,div,mad,min,max,xchg), CLATOMICS_BENCH_TYPES (float,double), CLATOMICS_BENCH_SPACES\n"
      "(global,local), CLATOMICS_BENCH_LEVELS (1,32,1024,65536); CLATOMICS_BACKOFF_OPTIONS: build options\n"
      "for the backoff variant (-DCLAT_BACKOFF_MIN_NS=... -DCLAT_BACKOFF_MAX_NS=...).\n\n"
      "A suite that fails is reported (exit code 1); the others still run and are reported.\n";
  text += exit_codes_help;
  return text;
}

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + bench::json_string(items[i]);
  return out + "]";
}

// Opens a file for writing now, so a bad path fails before the benchmarks run.
std::ofstream open_output(const std::string& option, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw UsageError("bench", "cannot write " + option + " file '" + path + "'");
  return out;
}

}  // namespace

int bench_command(const Args& args) {
  std::string device, value, json_path, plot_path;
  bool force_cas = false;
  bench::Config config;
  std::vector<const bench::Suite*> chosen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      std::cout << bench_help();
      return exit_ok;
    }
    if (a == "--list") {
      for (const auto& s : bench::suites()) std::cout << s.name << "\t" << s.description << "\n";
      return exit_ok;
    }
    if (a == "--quick") {
      config.quick = true;
    } else if (a == "--force-cas") {
      force_cas = true;
    } else if (take_value("bench", args, i, "--device", device)) {
    } else if (take_value("bench", args, i, "--size", value)) {
      config.bytes = parse_size("bench", "--size", value);
    } else if (take_value("bench", args, i, "--repeats", value)) {
      config.repeats = parse_count("bench", "--repeats", value, 1, 1000);
    } else if (take_value("bench", args, i, "--warmup", value)) {
      config.warmup = parse_count("bench", "--warmup", value, 0, 1000);
    } else if (take_value("bench", args, i, "--json", json_path)) {
    } else if (take_value("bench", args, i, "--plot", plot_path)) {
    } else if (take_value("bench", args, i, "--suite", value)) {
      const bench::Suite* s = bench::find_suite(value);
      if (!s) {
        std::string known;
        for (const auto& k : bench::suites()) known += " " + k.name;
        throw UsageError("bench", "unknown suite '" + value + "' (suites:" + known + ")");
      }
      if (std::find(chosen.begin(), chosen.end(), s) == chosen.end()) chosen.push_back(s);
    } else {
      throw UsageError("bench", "unknown option '" + a + "'");
    }
  }
  if (chosen.empty())
    for (const auto& s : bench::suites()) chosen.push_back(&s);
  std::ofstream json_file, plot_file;
  if (!json_path.empty()) json_file = open_output("--json", json_path);
  if (!plot_path.empty()) plot_file = open_output("--plot", plot_path);

  auto rt = make_runtime("bench", options(device, force_cas));
  config.progress = &std::cerr;
  const auto& caps = rt->device_info().caps;
  bench::RunInfo run{caps.device_name, caps.platform_name, caps.driver_version, caps.device_version,
                     rt->build_options(), bench::utc_now(), {}, {}};
  std::vector<std::string> suite_names;
  for (const auto* s : chosen) suite_names.push_back(s->name);
  run.config = {{"suites", json_list(suite_names)},
                {"bytes", std::to_string(config.bytes)},
                {"repeats", std::to_string(config.quick ? 1 : config.repeats)},
                {"warmup", std::to_string(config.quick ? 0 : config.warmup)},
                {"quick", config.quick ? "true" : "false"},
                {"force_cas", rt->options().force_cas ? "true" : "false"}};
  bench::progress(config, "device: " + caps.device_name + " (" + caps.platform_name + ")");

  std::vector<bench::Row> rows;
  for (const auto* suite : chosen) {
    bench::progress(config, "suite " + suite->name);
    try {
      auto some = suite->run(*rt, config);
      rows.insert(rows.end(), some.begin(), some.end());
    } catch (const std::exception& e) {  // report it, keep the other suites' figures
      run.errors.push_back(suite->name + ": " + e.what());
      std::cerr << "clatomics bench: suite " << suite->name << " failed: " << e.what() << "\n";
    }
  }

  std::cout << "clatomics bench on " << caps.device_name << " (" << caps.platform_name << "), " << run.date
            << (config.quick ? ", quick" : "") << "\n\n";
  bench::print_table(std::cout, rows);
  for (const auto* suite : chosen)
    if (suite->summary) suite->summary(rows, std::cout);
  if (json_file.is_open()) {
    bench::write_json(json_file, run, rows);
    json_file.close();
    if (!json_file) throw std::runtime_error("writing " + json_path + " failed");
    std::cerr << "[bench] wrote " << json_path << "\n";
  }
  if (plot_file.is_open()) {
    bench::write_svg(plot_file, run, rows);
    plot_file.close();
    if (!plot_file) throw std::runtime_error("writing " + plot_path + " failed");
    std::cerr << "[bench] wrote " << plot_path << "\n";
  }
  return run.errors.empty() ? exit_ok : exit_failed;
}

}  // namespace clatomics::cli
