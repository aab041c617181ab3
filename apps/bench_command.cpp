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

struct BenchArgs {
  DeviceChoice choice;
  bench::Config config;
  std::vector<std::string> suites;  // --suite; empty: all
  std::string json_path, plot_path;
  bool list = false;
};

std::vector<std::string> suite_names() {
  std::vector<std::string> names;
  for (const auto& s : bench::suites()) names.push_back(s.name);
  return names;
}

// Opens a file for writing now, so a bad path fails before the benchmarks run.
std::ofstream open_output(const std::string& option, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw UsageError("bench", "cannot write " + option + " file '" + path + "'");
  return out;
}

int run_bench(BenchArgs& args) {
  if (args.list) {
    for (const auto& s : bench::suites()) std::cout << s.name << "\t" << s.description << "\n";
    return exit_ok;
  }
  bench::Config& config = args.config;
  std::vector<const bench::Suite*> chosen;
  for (const auto& s : bench::suites())
    if (args.suites.empty() || std::find(args.suites.begin(), args.suites.end(), s.name) != args.suites.end())
      chosen.push_back(&s);
  const std::string &json_path = args.json_path, &plot_path = args.plot_path;
  std::ofstream json_file, plot_file;
  if (!json_path.empty()) json_file = open_output("--json", json_path);
  if (!plot_path.empty()) plot_file = open_output("--plot", plot_path);

  auto rt = make_runtime("bench", args.choice.options());
  config.progress = &std::cerr;
  const auto& caps = rt->device_info().caps;
  bench::RunInfo run;
  run.tool_version = CLATOMICS_VERSION;
  run.device = caps.device_name;
  run.platform = caps.platform_name;
  run.driver = caps.driver_version;
  run.device_version = caps.device_version;
  run.build_options = rt->build_options();
  run.date = bench::utc_now();
  for (const auto* s : chosen) run.suites.push_back(s->name);
  run.config = config;
  run.force_cas = rt->options().force_cas;
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

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* sub = app.add_subcommand("bench");
  std::string description =
      "benchmark suites with yardsticks from the same run: table, JSON, SVG plot.\n\n"
      "Runs benchmark suites on one device. Each figure is the median of N timed runs after a warm-up,\n"
      "kernel time from OpenCL profiling events, printed beside a yardstick measured in the same run\n"
      "(the CAS loop, a read-only pass over the same bytes, a plain multi-threaded C++ loop) and the\n"
      "ratio. Progress goes to stderr, the table to stdout. Suites (all by default, in this order):\n";
  for (const auto& s : bench::suites())
    description += "  " + s.name + std::string(12 - std::min<std::size_t>(11, s.name.size()), ' ') + s.description + "\n";
  description.pop_back();  // the formatter adds the line break
  sub->description(description);
  add_device_options(*sub, args->choice, "the main runtime puts every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)");
  add_size_option(*sub, "--size", args->config.bytes, "data size of the algorithm suites: 4096, 64K, 256M, 1G (default 256M)");
  sub->add_option("--repeats", args->config.repeats, "timed runs per figure, the median is reported (1 to 1000, default 7)")
      ->option_text("N")
      ->check(CLI::Range(1, 1000).description(""));
  sub->add_option("--warmup", args->config.warmup, "untimed runs first (0 to 1000, default 2)")
      ->option_text("N")
      ->check(CLI::Range(0, 1000).description(""));
  sub->add_option("--suite", args->suites, "run only this suite (repeatable)")->option_text("NAME")->check(one_of("suite", suite_names));
  sub->add_flag("--quick", args->config.quick, "tiny sizes, one run, fewer cases: a smoke test, not a measurement");
  sub->add_option("--json", args->json_path, "also write the results as JSON (device, platform, date, config, rows)")
      ->option_text("FILE");
  sub->add_option("--plot", args->plot_path, "also draw throughput against contention per path, and each ratio")
      ->option_text("FILE.svg");
  sub->add_flag("--list", args->list, "list the suites and exit");
  sub->footer(std::string(
                  "Environment (the atomics suite; comma lists narrow a run, e.g. for tuning): CLATOMICS_BENCH_OPS\n"
                  "(add,sub,mul,div,mad,min,max,xchg), CLATOMICS_BENCH_TYPES (float,double), CLATOMICS_BENCH_SPACES\n"
                  "(global,local), CLATOMICS_BENCH_LEVELS (1,32,1024,65536); CLATOMICS_BACKOFF_OPTIONS: build options\n"
                  "for the backoff variant (-DCLAT_BACKOFF_MIN_NS=... -DCLAT_BACKOFF_MAX_NS=...).\n\n"
                  "A suite that fails is reported (exit code 1); the others still run and are reported.\n\n") +
              exit_codes_help);
  return {sub, [args] { return run_bench(*args); }};
}

}  // namespace clatomics::cli
