// clatomics bench: runs the registered suites, prints a table on stdout (progress on stderr),
// and writes JSON and an SVG plot on request.
#include <algorithm>
#include <iostream>
#include <memory>

#include <unistd.h>

#include "bench_table.hpp"
#include "commands.hpp"
#include "output_file.hpp"
#include "plot.hpp"
#include "report.hpp"
#include "suites.hpp"
#include "table.hpp"

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

// The run's facts besides its rows, for the JSON.
bench::RunInfo run_info(const Runtime& rt, const bench::Config& config, const std::vector<const bench::Suite*>& chosen) {
  const auto& caps = rt.device_info().caps;
  bench::RunInfo run;
  run.tool_version = CLATOMICS_VERSION;
  run.device = caps.device_name;
  run.platform = caps.platform_name;
  run.driver = caps.driver_version;
  run.device_version = caps.device_version;
  run.build_options = rt.build_options();
  run.date = bench::utc_now();
  for (const auto* s : chosen) run.suites.push_back(s->name);
  run.config = config;
  run.force_cas = rt.options().force_cas;
  return run;
}

// Writes the JSON and the plot, each whole or not at all. The plot is drawn from the JSON: the
// --json file once written, else a temporary one beside the plot.
void write_outputs(const OutputFile& json, const OutputFile& plot, const Plotter& plotter, const std::string& text) {
  if (json.wanted()) {
    write_output(json, text);
    std::cerr << "[bench] wrote " << json.path() << "\n";
  }
  if (plot.wanted()) {
    std::unique_ptr<TempFile> own_json;
    if (!json.wanted()) {
      own_json = std::make_unique<TempFile>(plot);
      own_json->write(text);
    }
    TempFile svg(plot);
    draw_plot(plotter, json.wanted() ? json.target() : own_json->path(), svg.path());
    svg.commit();
    std::cerr << "[bench] wrote " << plot.path() << "\n";
  }
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
  // Everything that can be wrong with the command line fails here, before any output file is
  // touched and before the benchmarks run: the paths, then the plotter, then the device.
  const OutputFile json = args.json_path.empty() ? OutputFile() : OutputFile("bench", "--json", args.json_path);
  const OutputFile plot = args.plot_path.empty() ? OutputFile() : OutputFile("bench", "--plot", args.plot_path);
  json.refuse_same_as(plot);
  const Plotter plotter = plot.wanted() ? find_plotter() : Plotter();
  auto rt = make_runtime("bench", args.choice.options());

  bench::Progress progress(std::cerr, ::isatty(STDERR_FILENO) == 1);
  config.progress = &progress;
  bench::RunInfo run = run_info(*rt, config, chosen);
  const auto& caps = rt->device_info().caps;
  bench::progress(config, "device: " + caps.device_name + " (" + caps.platform_name + ")");
  for (const auto* suite : chosen) {
    try {
      progress.add_steps(suite->steps(*rt, config));
    } catch (const std::exception&) {  // the suite's run reports it
    }
  }

  std::vector<bench::Row> rows;
  for (const auto* suite : chosen) {
    bench::progress(config, "suite " + suite->name);
    try {
      auto some = suite->run(*rt, config);
      rows.insert(rows.end(), some.begin(), some.end());
    } catch (const std::exception& e) {  // report it, keep the other suites' figures
      run.errors.push_back(suite->name + ": " + e.what());
      progress.finish();
      std::cerr << "clatomics bench: suite " << suite->name << " failed: " << e.what() << "\n";
    }
  }
  progress.finish();

  std::cout << "clatomics bench on " << caps.device_name << " (" << caps.platform_name << "), " << run.date
            << (config.quick ? ", quick" : "") << "\n\n";
  print_bench_table(std::cout, rows, caps.is_gpu());
  for (const auto* suite : chosen)
    if (suite->summary) suite->summary(rows, caps.is_gpu(), std::cout);
  if (rows.empty() && !run.errors.empty()) {  // e.g. a typo in CLATOMICS_BENCH_OPS: keep the old files
    if (json.wanted() || plot.wanted()) std::cerr << "[bench] nothing was measured: no output file written\n";
    return exit_failed;
  }
  write_outputs(json, plot, plotter, bench::to_json(run, rows));
  return run.errors.empty() ? exit_ok : exit_failed;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  std::string description =
      "benchmark suites with yardsticks from the same run: table, JSON, SVG plot.\n\n"
      "Runs benchmark suites on one device. Each figure is the median of N timed runs after a warm-up,\n"
      "kernel time from OpenCL profiling events, printed beside yardsticks measured in the same run\n"
      "(the CAS loop, a read-only pass over the same bytes, a plain multi-threaded C++ loop): one table\n"
      "per suite, a line per benchmark, its yardsticks as columns and the ratio to the one that bounds\n"
      "the device class (the algorithms: a read-only pass on a GPU, plain C++ on a CPU, where the\n"
      "read-only pass is one more kernel through the runtime, no bound). The table goes to stdout;\n"
      "progress to stderr, '[12/40] WHAT ... ETA 14 s', overwritten in place on a terminal, a line\n"
      "per benchmark otherwise. Suites (all by default, in this order):\n";
  for (const auto& s : bench::suites()) description += named_line(s.name, s.description);
  CLI::App* sub = add_command(
      app, "bench", description,
      "Environment (the atomics suite; comma lists narrow a run, e.g. for tuning): CLATOMICS_BENCH_OPS\n"
      "(add,sub,mul,div,mad,min,max,xchg), CLATOMICS_BENCH_TYPES (float,double), CLATOMICS_BENCH_SPACES\n"
      "(global,local), CLATOMICS_BENCH_LEVELS (1,32,1024,65536); CLATOMICS_BACKOFF_OPTIONS: build options\n"
      "for the backoff variant (-DCLAT_BACKOFF_MIN_NS=... -DCLAT_BACKOFF_MAX_NS=...).\n"
      "The scatter suite: CLATOMICS_BENCH_SCATTER (uniform,zipf,sorted,onebin,rows and bin counts)\n"
      "narrows a run; CLATOMICS_BENCH_SCATTER_TORCH names bench/scatter_torch.py's output for the same\n"
      "--size, whose torch/cupy figures become yardsticks (bench/scatter_compare.sh runs both).\n"
      "The algorithms suite: CLATOMICS_BENCH_ALGOS (reduce,dot,histogram,even,even_forms,compact)\n"
      "narrows a run; CLATOMICS_BENCH_ALGORITHMS_PEERS names bench/cub_yardsticks.cu's --json output\n"
      "for the same --size, whose CUB figures become yardsticks.\n"
      "CLATOMICS_PYTHON: the Python that runs plot.py (default: python3, else /usr/bin/python3).\n\n"
      "Output files are checked before the run and each is replaced only once it is complete (a\n"
      "temporary file beside it, renamed over it); --json and --plot must name different files, and\n"
      "a run that measures nothing writes neither.\n"
      "A suite that fails is reported (exit code 1); the others still run and are reported.\n");
  add_device_options(*sub, args->choice, "the main runtime puts every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)");
  add_size_option(*sub, "--size", args->config.bytes, "data size of the algorithm suites (scatter: of the values): 4096, 64K, 256M, 1G\n"
                "(default 256M)");
  sub->add_option("--repeats", args->config.repeats, "timed runs per figure, the median is reported (1 to 1000, default 7)")
      ->option_text("N")
      ->check(CLI::Range(1, 1000).description(""));
  sub->add_option("--warmup", args->config.warmup, "untimed runs first (0 to 1000, default 2)")
      ->option_text("N")
      ->check(CLI::Range(0, 1000).description(""));
  sub->add_option("--suite", args->suites, "run only this suite (repeatable)")->option_text("NAME")->check(one_of("suite", suite_names));
  sub->add_flag("--quick", args->config.quick, "tiny sizes, one run, fewer cases: a smoke test, not a measurement");
  sub->add_option("--json", args->json_path, "also write the results as JSON (device, platform, date, config, rows)")
      ->option_text("FILE")
      ->check(non_empty());
  sub->add_option("--plot", args->plot_path,
                  "also draw an SVG with bench/plot.py (Python 3 + matplotlib): throughput against\n"
                  "contention per path, and each ratio to its yardstick")
      ->option_text("FILE.svg")
      ->check(non_empty());
  sub->add_flag("--list", args->list, "list the suites and exit");
  return {sub, [args] { return run_bench(*args); }};
}

}  // namespace clatomics::cli
