// The `clatomics` command as a script sees it: exit codes, stdout, stderr, and the files it
// writes. The path of the program comes from CLATOMICS_CLI (set by CTest to the built target).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include "clatomics/clatomics.hpp"
#include "cli_harness.hpp"

using namespace cli_test;

TEST_CASE("usage") {
  SUBCASE("no command is a usage error") {
    const auto r = cli("");
    CHECK(r.code == 2);
    CHECK(contains(r.err, "Usage: clatomics"));
  }
  SUBCASE("--help lists the commands and the exit codes") {
    const auto r = cli("--help");
    CHECK(r.code == 0);
    for (const char* word : {"info", "demo", "bench", "options", "Exit codes", "0 success", "1 a failed check", "2 a usage error",
                             "3 no such OpenCL device"})
      CHECK_MESSAGE(contains(r.out, word), word);
  }
  SUBCASE("every subcommand has --help") {
    for (const char* command : {"info", "demo", "bench", "options"}) {
      CAPTURE(command);
      const auto r = cli(std::string(command) + " --help");
      CHECK(r.code == 0);
      CHECK(contains(r.out, std::string("Usage: clatomics ") + command));
      CHECK(contains(r.out, "Exit codes"));
    }
    CHECK(contains(cli("bench --help").out, "--json FILE"));
    CHECK(contains(cli("help bench").out, "--plot FILE.svg"));
    CHECK(contains(cli("demo --help").out, "histogram"));  // the lessons are listed
    CHECK(contains(cli("demo --help").out, "CLATOMICS_DEMO_BREAK"));
    CHECK(cli("help frobnicate").code == 2);
  }
  SUBCASE("unknown command") {
    const auto r = cli("frobnicate");
    CHECK(r.code == 2);
    CHECK(contains(r.err, "unknown command 'frobnicate'"));
  }
  SUBCASE("unknown options and bad values, before any OpenCL work") {
    for (const char* args : {"bench --bogus", "info --bogus", "demo --bogus", "bench --size 12X", "bench --size",
                             "bench --repeats 0", "bench --warmup x", "bench --suite nope", "demo --lesson nope",
                             "demo --device", "bench --json", "bench --json /no/such/dir/x.json", "--bogus"}) {
      CAPTURE(args);
      const auto r = cli(args);
      CHECK(r.code == 2);
      CHECK(contains(r.err, "--help"));
      CHECK(r.out.empty());
    }
    CHECK(contains(cli("bench --bogus").err, "unknown option '--bogus'"));
    CHECK(contains(cli("bench --suite nope").err, "atomics"));  // the suites are listed
    CHECK(contains(cli("demo --lesson nope").err, "histogram"));  // the lessons are listed
    CHECK(contains(cli("bench --json /no/such/dir/x.json").err, "cannot write --json file"));
    CHECK(contains(cli("bench extra").err, "unexpected argument 'extra'"));
    CHECK(cli("help").code == 2);
  }
  SUBCASE("sizes take K, M, G suffixes (powers of 1024)") {
    for (const char* size : {"4096", "64K", "256M", "1G", "2KiB"}) {
      CAPTURE(size);
      CHECK(cli(std::string("bench --list --size ") + size).code == 0);
    }
    for (const char* size : {"0", "1.5G", "12X", "-1", "99999999999999T"}) {
      CAPTURE(size);
      const auto r = cli(std::string("bench --list --size ") + size);
      CHECK(r.code == 2);
      CHECK(contains(r.err, "is not a size in bytes"));
    }
  }
  SUBCASE("--version") {
    const auto r = cli("--version");
    CHECK(r.code == 0);
    CHECK(r.out.rfind("clatomics ", 0) == 0);
  }
}

// Exit code 3, distinct from a usage error: a script can tell "no such device here" apart.
TEST_CASE("unknown device") {
  const auto r = cli("info --device no-such-device-xyz");
  CHECK(r.code == 3);
  CHECK(contains(r.err, "no OpenCL device matches"));
  CHECK(contains(r.err, "0: "));  // the devices present are listed
  CHECK(r.out.empty());
  for (const char* command : {"demo", "bench --quick"}) {
    CAPTURE(command);
    const auto e = cli(command, "CLATOMICS_DEVICE=no-such-device-xyz");
    CHECK(e.code == 3);
    CHECK(contains(e.err, "no-such-device-xyz"));
  }
  CHECK(cli("bench --quick --device 999").code == 3);
  CHECK(cli("demo --device 0 --lesson race").code == 0);  // the index the listing gave works
}

// info prints the library's own account of the paths: each note verbatim, nothing re-derived.
TEST_CASE("info") {
  const auto r = cli("info --device 0");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  for (const char* part : {"Platform 0:", "[0] ", "OpenCL C", "highest accepted", "extensions", "Atomic paths on",
                           "float global", "Paths:", "the compare-exchange loop on the value's bits", "Native path checks",
                           "Build options"})
    CHECK_MESSAGE(contains(r.out, part), part);
  // The scatter line states the device's capacities, as scatter_capacity() computes them.
  {
    clatomics::Options chosen = clatomics::Options::from_env();
    chosen.device = "0";
    clatomics::Runtime rt(chosen);
    for (const bool deterministic : {false, true}) {
      const auto c = clatomics::scatter_capacity(rt, 4, deterministic);
      const std::string line = std::string("float ") + (deterministic ? "deterministic" : "fast         ") +
                               "  local_private up to " + std::to_string(c.private_slots) + " bins * width";
      CHECK_MESSAGE(contains(r.out, line), line);
      CHECK(contains(r.out, "local_cache of " + std::to_string(c.cache_slots) + " hot slots"));
      CHECK(c.private_slots > 0);
    }
  }
  const auto forced = cli("info --device 0 --force-cas");
  CHECK(forced.code == 0);
  CHECK(contains(forced.out, "CAS forced"));
  CHECK(contains(forced.out, "-DCLAT_FORCE_CAS"));

  const cl::Device device = clatomics::select_device("0");
  clatomics::Options options = clatomics::Options::from_env();
  for (const bool force : {false, true}) {
    options.force_cas = force;
    const auto& info = clatomics::device_info(device, options);
    const std::string& out = force ? forced.out : r.out;
    std::size_t notes = 0;
    for (const auto* list : {&info.paths, &info.variant_paths})
      for (const auto& p : *list) {
        if (p.note.empty()) continue;
        ++notes;
        CAPTURE(p.op + " " + p.type + " " + p.space + " " + p.family);
        CHECK(contains(out, ": " + p.note + "\n"));
      }
    CHECK(notes > 0);  // on any device: mul/div/mad say why they have no native path
    for (const auto& c : info.checks) CHECK(contains(out, c.slot + " (" + clatomics::path_name(c.path) + "): "));
  }
}

TEST_CASE("demo") {
  const auto r = cli("demo");
  REQUIRE_MESSAGE(r.code == 0, std::string(r.out + r.err));
  for (const char* part : {"lost update", "atomic_inc", "clat_atomic_add_float", "Tickets", "mul", "div", "min", "max",
                           "clatomics::reduce", "deterministic", "clatomics::dot", "float, integers", "gamma_n",
                           "clatomics::histogram", "global_atomics", "uint keys", "NaN", "GB/s", "host reference",
                           "demo: 5 lessons, all checks passed"})
    CHECK_MESSAGE(contains(r.out, part), part);
  CHECK_FALSE(contains(r.out, "FAILED"));
  CHECK_FALSE(contains(r.out, "ERROR"));
  const auto listed = cli("demo --list");
  CHECK(listed.code == 0);
  for (const char* name : {"race", "float", "reduce", "dot", "histogram"}) CHECK_MESSAGE(contains(listed.out, name), name);
}

// The race lesson shows what it teaches on the test device too (2-core PoCL, where `x += 1` on a
// uint is folded into one read and one write per work-item): the read-work-write update loses
// updates, the atomics lose none, and a plain row that lost nothing says so and why, never
// "0 lost" marked as a race.
TEST_CASE("demo race lesson") {
  const auto r = cli("demo --lesson race");
  REQUIRE_MESSAGE(r.code == 0, std::string(r.out + r.err));
  std::istringstream lines(r.out);
  bool work_row = false, atomic_work_row = false, none_lost = false;
  for (std::string line; std::getline(lines, line);) {
    CAPTURE(line);
    CHECK_FALSE(contains(line, "(race)"));
    if (contains(line, "plain  t = x; work; x = t + 1")) {
      work_row = true;
      CHECK(contains(line, "race: lost"));
    }
    if (contains(line, "t = atomic_inc(&x); work")) {
      atomic_work_row = true;
      CHECK(contains(line, " 0 "));
      CHECK(contains(line, " ok "));
    }
    if (contains(line, "none lost this run")) {
      none_lost = true;
      CHECK(contains(line, " 0 "));
    }
  }
  CHECK(work_row);
  CHECK(atomic_work_row);
  if (none_lost) CHECK((contains(r.out, "lost no update this run, yet it races") || contains(r.out, "No update was lost in this run")));
}

// CLATOMICS_DEMO_BREAK shifts a lesson's host reference: its checks must say FAILED, the demo
// exits 1, and the other lessons still run and pass.
TEST_CASE("demo failure") {
  for (const char* lesson : {"race", "float", "reduce", "dot", "histogram"}) {
    CAPTURE(lesson);
    const std::string other = std::string(lesson) == "race" ? "float" : "race";
    const auto r = cli("demo --lesson " + std::string(lesson) + " --lesson " + other,
                             std::string("CLATOMICS_DEMO_BREAK=") + lesson);
    CHECK(r.code == 1);
    CHECK(contains(r.out, "lesson '" + std::string(lesson) + "' FAILED"));
    CHECK_FALSE(contains(r.out, "lesson '" + other + "' FAILED"));
    CHECK(contains(r.out, "demo: 1 of 2 lessons FAILED"));
  }
  const auto all = cli("demo --lesson dot", "CLATOMICS_DEMO_BREAK=all");
  CHECK(all.code == 1);
  const auto none = cli("demo --lesson dot", "CLATOMICS_DEMO_BREAK=nothing");
  CHECK(none.code == 0);
}

// Every registered suite in quick mode, with both files: the JSON must parse, the SVG must hold
// the atomics panels (log axes, a legend per path) and a ratio section per unit.
TEST_CASE("bench") {
  const std::string json = temp_path("bench.json"), svg = temp_path("bench.svg");
  const auto r = cli("bench --quick --json " + json + " --plot " + svg);
  CHECK_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "[bench] suite atomics"));  // progress on stderr: which suite...
  CHECK(contains(r.err, "] atomics: add float global, 1 address ("));  // ... which benchmark, which size
  CHECK(contains(r.err, "[1/"));
  CHECK(contains(r.err, "[bench] wrote " + json));
  CHECK(contains(r.out, "M ops/s"));
  CHECK(contains(r.out, "cas loop"));
  CHECK(contains(r.out, "backoff"));
  CHECK(contains(r.out, "float add global, M ops/s"));  // the summary
  CHECK(contains(r.out, "scatter summary"));
  CHECK(contains(r.out, "GB/s"));
  CHECK(contains(r.out, "read-only pass"));
  const auto doc = nlohmann::json::parse(read_file(json));  // throws (the test fails) unless it is JSON
  CHECK(doc.at("tool") == "clatomics bench");
  CHECK("clatomics " + doc.at("version").get<std::string>() + "\n" == cli("--version").out);
  for (const char* key : {"name", "platform", "driver", "version", "build_options"})
    CHECK_MESSAGE(doc.at("device").at(key).is_string(), key);
  CHECK(doc.at("date").get<std::string>().size() == 20);  // 2026-01-02T03:04:05Z
  CHECK(doc.at("config").at("quick") == true);
  CHECK(doc.at("config").at("suites") == nlohmann::json({"atomics", "variants", "algorithms", "scatter", "multi"}));
  CHECK(doc.at("errors").empty());
  const auto& rows = doc.at("rows");
  REQUIRE(!rows.empty());
  const char* fields[] = {"suite", "op", "type", "space", "form", "addresses", "bytes", "bins", "width", "distribution", "path",
                          "value", "unit", "yardstick", "yardstick_value", "ratio"};
  std::set<std::string> suites, yardsticks;
  for (const auto& row : rows) {
    CHECK(row.size() == std::size(fields));
    for (const char* f : fields) CHECK_MESSAGE(row.contains(f), f);
    suites.insert(row.at("suite").get<std::string>());
    yardsticks.insert(row.at("yardstick").get<std::string>());
    CHECK(row.at("value").get<double>() > 0);
    if (row.at("suite") == "algorithms") {
      CHECK(row.at("unit") == "GB/s");
      // --quick: 1 MiB, rounded down to whole values (4 weight channels: 20 bytes a value)
      const auto bytes = row.at("bytes").get<std::size_t>();
      CHECK(bytes <= 1u << 20);
      CHECK(bytes > (1u << 20) - 20);
      CHECK(row.at("addresses").is_null());
    } else if (row.at("suite") == "scatter") {
      CHECK(row.at("unit") == "GB/s");
      CHECK(row.at("op") == "scatter_reduce sum");
      const auto width = row.at("width").get<std::size_t>(), bins = row.at("bins").get<std::size_t>();
      // --quick: 1 MiB of float values with their uint32 indices; rows: 1/16 of the elements
      CHECK(row.at("bytes").get<std::size_t>() == (width == 1 ? 2u << 20 : (1u << 14) * 4 * (1 + width)));
      CHECK((bins == 1 || bins == 256 || bins == 65536 || bins == 100000));
      CHECK(std::set<std::string>{"global_atomics", "local_private", "local_cache"}.count(row.at("path").get<std::string>()));
      CHECK(row.at("addresses").is_null());
    } else if (row.at("suite") == "multi") {
      CHECK(row.at("unit") == "GB/s");
      // --quick: 16 MiB resident, 16 MiB of host data
      CHECK(row.at("bytes").get<std::size_t>() == (16u << 20));
      CHECK(std::set<std::string>{"1 device", "fast mode", "host-to-device copies", "pageable", "pinned host-to-device copies", "host memory copy"}.count(row.at("yardstick").get<std::string>()));
      CHECK(row.at("addresses").is_null());
    } else {
      CHECK(row.at("unit") == "M ops/s");
      CHECK(row.at("addresses").get<std::size_t>() >= 1);
      CHECK(row.at("type").is_string());
      CHECK(row.at("space").is_string());
      CHECK(row.at("path").is_string());
    }
    CHECK(row.at("ratio").get<double>() ==
          doctest::Approx(row.at("value").get<double>() / row.at("yardstick_value").get<double>()));
  }
  CHECK(suites == std::set<std::string>{"atomics", "variants", "algorithms", "scatter", "multi"});
  for (const char* y : {"cas loop", "naive cas loop", "read-only pass", "returning add", "fast mode"}) CHECK_MESSAGE(yardsticks.count(y), y);
  const auto backoff = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.at("path") == "cas+backoff"; });
  REQUIRE(backoff != rows.end());
  CHECK(backoff->at("op") == "mul");  // --quick: backoff for mul only
  const std::string plot = read_file(svg);  // drawn by bench/plot.py
  CHECK(is_svg(plot));
  for (const char* part : {"atomics: float global", "atomics: float local", "M ops/s", "addresses (contention falls to the right)",
                           "native path", "cas loop", "cas+backoff", "naive cas loop", "variants: ratio to returning add",
                           "algorithms: ratio to read-only pass", "algorithms: ratio to C++", "scatter: ratio to read-only pass",
                           "scatter: ratio to fast mode"})
    CHECK_MESSAGE(contains(plot, part), part);
  std::remove(json.c_str());
  std::remove(svg.c_str());
}

// The bench table: one line per benchmark with its yardsticks as columns (the JSON keeps a row
// per yardstick), the ratio to the device class's yardstick, no path column where no row has
// one, sizes from one formatter, about 100 columns.
TEST_CASE("bench table") {
  const TempDir dir;
  const auto r = cli("bench --quick --suite algorithms --json " + dir / "a.json", "CLATOMICS_BENCH_ALGOS=reduce,histogram,even_forms");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto doc = nlohmann::json::parse(read_file(dir / "a.json"));
  const bool gpu = contains(doc.at("device").at("name").get<std::string>(), "GPU") ||
                   clatomics::select_device("0").getInfo<CL_DEVICE_TYPE>() == CL_DEVICE_TYPE_GPU;
  // The JSON: a row per (benchmark, yardstick), as bench/plot.py reads it.
  std::map<std::string, std::set<std::string>> yardsticks;  // benchmark -> its yardsticks
  for (const auto& row : doc.at("rows")) {
    const std::string name = row.at("op").get<std::string>() + " " + row.at("type").get<std::string>() +
                             (row.at("form").is_null() ? "" : " " + row.at("form").get<std::string>()) + "/" +
                             (row.at("distribution").is_null() ? "" : row.at("distribution").get<std::string>()) + "/" +
                             std::to_string(row.at("bins").is_null() ? 0 : row.at("bins").get<std::size_t>());
    yardsticks[name].insert(row.at("yardstick").get<std::string>());
  }
  REQUIRE(yardsticks.size() >= 5);
  for (const auto& [name, ys] : yardsticks) CHECK_MESSAGE(ys.size() == 2, name);  // read-only pass and C++
  std::istringstream lines(r.out);
  std::vector<std::string> table;  // the lines between the underline and the blank line after it
  std::string heading, header;
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    // Every line fits 110 columns but the first, which carries the device's own name (PoCL's on a
    // processor with AVX-512 made it 127).
    CHECK_MESSAGE((line.size() <= 110 || line.rfind("clatomics bench on ", 0) == 0), line);
    CHECK_FALSE(contains(line, ".0 MiB"));
    if (line.rfind("algorithms: ", 0) == 0) heading = line;
    if (line.rfind("benchmark ", 0) == 0) header = line;
    if (in_table && line.empty()) break;
    if (in_table) table.push_back(line);
    if (!header.empty() && !line.empty() && line.find_first_not_of('-') == std::string::npos) in_table = true;
  }
  CHECK(table.size() == yardsticks.size());  // one line per benchmark
  CHECK_FALSE(contains(r.out, " path "));  // ... and no path column: no algorithm row has a path
  for (const char* column : {"GB/s", "read-only", "C++", "ratio"}) CHECK_MESSAGE(contains(r.out, column), column);
  CHECK(contains(heading, gpu ? "ratio to read-only pass" : "ratio to C++ "));
  for (const auto& line : table) CHECK_MESSAGE(contains(line, "1 MiB"), line);  // 4 weights: 1 MiB less 16 bytes, still "1 MiB"
  // The summary states its target per device class, never a GPU's target for a CPU's ratio.
  CHECK(contains(r.out, gpu ? "x the read-only pass (target" : "x plain C++ (target"));
  CHECK_FALSE(contains(r.out, gpu ? "no target on a GPU" : "GPU target"));
}

// Progress: a line per benchmark with its count and an estimate of the time left; one line each
// into a file or pipe, overwritten in place (carriage return) on a terminal.
TEST_CASE("bench progress") {
  const std::string env = "CLATOMICS_BENCH_ALGOS=reduce,compact CLATOMICS_BENCH_SCATTER=onebin";
  const auto r = cli("bench --quick --suite algorithms --suite scatter", env);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK_FALSE(contains(r.err, "\r"));
  std::istringstream lines(r.err);
  std::vector<std::string> steps;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("[", 0) == 0 && line.rfind("[bench]", 0) != 0) steps.push_back(line);
  // reduce float and int, compact and compact stable; scatter one bin at 1 and 256 bins
  REQUIRE(steps.size() == 6);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    CAPTURE(steps[i]);
    CHECK(steps[i].rfind("[" + std::to_string(i + 1) + "/6] ", 0) == 0);
    CHECK(contains(steps[i], " ETA ") == (i > 0));  // from the second on: the rate so far
  }
  CHECK(contains(steps[0], "algorithms: reduce sum float"));
  CHECK(contains(steps[5], "scatter: 256 bins, one bin"));
  // On a terminal (script(1) gives it one): the same steps, each overwriting the last.
  if (std::system("script -qec true /dev/null >/dev/null 2>&1") == 0) {
    const char* program = std::getenv("CLATOMICS_CLI");
    const std::string command = "script -qec \"" + env + " '" + program +
                                "' bench --quick --suite algorithms --suite scatter >/dev/null\" /dev/null";
    Result t;
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) t.out.append(buf, n);
    ::pclose(pipe);
    CHECK(contains(t.out, "[6/6] "));
    CHECK(contains(t.out, "\r\033[K[2/6] "));
  }
}

// Other libraries' figures from a file (bench/cub_yardsticks.cu's --json) become yardsticks of
// the algorithms rows they match in every field, bytes included, and nothing else: a figure for
// another size is noted, not merged; a bad file fails the suite before it measures.
TEST_CASE("bench peers") {
  const TempDir dir;
  // --quick measures 1 MiB. The float sum and the stable compaction match; the int sum is for
  // another size; the scatter row is another suite's; the plain compaction has no figure.
  write_file(dir / "peers.json", R"({"tool": "hand-written", "rows": [
    {"suite": "algorithms", "op": "reduce sum", "type": "float", "form": null, "distribution": "uniform", "bins": null,
     "bytes": 1048576, "yardstick": "CUB", "call": "DeviceReduce::Sum", "value": 0.25, "unit": "GB/s"},
    {"suite": "algorithms", "op": "reduce sum", "type": "int", "distribution": "uniform", "bytes": 2097152, "yardstick": "CUB", "value": 7},
    {"suite": "algorithms", "op": "compact", "type": "float", "form": "stable", "distribution": "half kept", "bytes": 1048576,
     "yardstick": "CUB", "value": 0.5},
    {"suite": "scatter", "op": "reduce sum", "type": "float", "distribution": "uniform", "bytes": 1048576, "yardstick": "CUB", "value": 9}]})");
  const std::string env = "CLATOMICS_BENCH_ALGOS=reduce,compact CLATOMICS_BENCH_ALGORITHMS_PEERS=" + dir / "peers.json";
  const auto r = cli("bench --quick --suite algorithms --json " + dir / "a.json", env);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "algorithms: peer figures from " + dir / "peers.json" + " (3 rows)"));
  CHECK(contains(r.err, "the peer figures for reduce sum int are for other sizes than this run's 1 MiB"));
  const auto doc = nlohmann::json::parse(read_file(dir / "a.json"));
  std::map<std::string, std::set<std::string>> yardsticks;  // benchmark -> its yardsticks
  std::map<std::string, double> cub;                        // benchmark -> its CUB figure
  std::map<std::string, double> value;                      // benchmark -> its own figure
  for (const auto& row : doc.at("rows")) {
    const std::string name = row.at("op").get<std::string>() + " " + row.at("type").get<std::string>() +
                             (row.at("form").is_null() ? "" : " " + row.at("form").get<std::string>());
    yardsticks[name].insert(row.at("yardstick").get<std::string>());
    value[name] = row.at("value").get<double>();
    if (row.at("yardstick") == "CUB") {
      cub[name] = row.at("yardstick_value").get<double>();
      CHECK(row.at("ratio").get<double>() == doctest::Approx(row.at("value").get<double>() / cub[name]));
    }
  }
  REQUIRE(yardsticks.size() == 4);  // float and int sums, compact plain and stable
  CHECK(cub == std::map<std::string, double>{{"reduce sum float", 0.25}, {"compact float stable", 0.5}});
  for (const auto& [name, ys] : yardsticks) CHECK_MESSAGE(ys.size() == (cub.count(name) ? 3u : 2u), name);
  // The table's CUB column, and the summary's ratio to it per benchmark that has one.
  CHECK(contains(r.out, " CUB "));
  CHECK(contains(r.out, "against other libraries measured in the same job (CLATOMICS_BENCH_ALGORITHMS_PEERS)"));
  CHECK(contains(r.out, "reduce sum float (uniform): "));
  CHECK(contains(r.out, "x CUB (0.25 GB/s)"));
  CHECK(contains(r.out, "compact float, stable (half kept): "));
  CHECK_FALSE(contains(r.out, "reduce sum int (uniform): "));
  // A file that is not the format, or not there: the suite fails, saying which file, and nothing is measured.
  write_file(dir / "bad.json", R"({"rows": [{"suite": "algorithms", "op": "reduce sum", "bytes": "many"}]})");
  for (const std::string& file : {dir / "bad.json", dir / "none.json"}) {
    const auto bad = cli("bench --quick --suite algorithms", "CLATOMICS_BENCH_ALGOS=reduce CLATOMICS_BENCH_ALGORITHMS_PEERS=" + file);
    CHECK(bad.code == 1);
    CHECK_MESSAGE(contains(bad.err, "CLATOMICS_BENCH_ALGORITHMS_PEERS"), bad.err);
    CHECK_MESSAGE(contains(bad.err, file), bad.err);
    CHECK_FALSE(contains(bad.err, "algorithms: reduce sum float"));
  }
}

// `clatomics options` prints what the library's build_options() returns for the same device and
// options, so that a program building the snippets itself builds them as the library would.
TEST_CASE("options") {
  const cl::Device device = clatomics::select_device("0");
  clatomics::Options defaults = clatomics::Options::from_env(), forced = defaults;
  forced.force_cas = true;
  for (const auto& [args, env, expected] :
       {std::tuple<std::string, std::string, clatomics::Options>{"options --device 0", "", defaults},
        {"options --device 0 --force-cas", "", forced},
        {"options --device 0", "CLATOMICS_FORCE_CAS=1", forced}}) {
    CAPTURE(args);
    CAPTURE(env);
    const auto r = cli(args, env);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const std::string options = clatomics::build_options(device, expected);
    CHECK(r.out == options + "\n");  // stdout: the options alone, for $(clatomics options)
    // An empty line alone reads as broken: a note says why, on stderr, never on stdout.
    CHECK(contains(r.err, "(none: the portable paths") == options.empty());
  }
  CHECK(cli("options --device 0 --force-cas").out != cli("options --device 0").out);

  const auto j = cli("options --device 0 --force-cas --json");
  REQUIRE_MESSAGE(j.code == 0, j.err);
  const auto doc = nlohmann::json::parse(j.out);
  const auto caps = clatomics::detect_capabilities(device);
  CHECK(doc.at("build_options") == clatomics::build_options(device, forced));
  CHECK(doc.at("device") == caps.device_name);
  CHECK(doc.at("platform") == caps.platform_name);
  REQUIRE(doc.at("include_dir").is_string());  // the build tree's cl/ here
  CHECK(std::ifstream(doc.at("include_dir").get<std::string>() + "/clatomics/atomics.cl").good());

  const auto missing = cli("options --device no-such-device-xyz");
  CHECK(missing.code == 3);
  CHECK(missing.out.empty());
  CHECK(contains(missing.err, "no-such-device-xyz"));
  CHECK(cli("options --bogus").code == 2);
  CHECK(contains(cli("options --help").out, "--json"));
}

// A plot from a tiny run, with no --json: the SVG names the suite, and the temporary JSON it was
// drawn from is gone.
TEST_CASE("plot") {
  const TempDir dir;
  const auto r = cli("bench --quick --suite atomics --plot " + dir / "tiny.svg", "CLATOMICS_BENCH_OPS=add");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::string plot = read_file(dir / "tiny.svg");
  CHECK(is_svg(plot));
  CHECK(contains(plot, "atomics: float global"));
  CHECK(contains(plot, "add, native path"));
  CHECK(dir.names() == std::set<std::string>{"tiny.svg"});
  // No Python with matplotlib: a clear error before the benchmarks run, the old plot untouched.
  const auto none = cli("bench --quick --suite atomics --plot " + dir / "tiny.svg", "CLATOMICS_PYTHON=/no/such/python3");
  CHECK(none.code == 1);
  CHECK(contains(none.err, "matplotlib"));
  CHECK_FALSE(contains(none.err, "[bench] suite"));
  CHECK(read_file(dir / "tiny.svg") == plot);
}

// Bad arguments never destroy a file: everything is checked before an output is touched, and an
// output replaces its file only once complete (a temporary file renamed over it).
TEST_CASE("outputs") {
  const TempDir dir;
  const std::string file = dir / "results.json", old = "keep me\n";
  write_file(file, old);
  const std::string run = "bench --quick --suite atomics ", env = "CLATOMICS_BENCH_OPS=add";
  SUBCASE("an unknown device") {
    CHECK(cli(run + "--json " + file + " --device no-such-device-xyz", env).code == 3);
    CHECK(cli(run + "--plot " + file + " --device no-such-device-xyz", env).code == 3);
  }
  SUBCASE("one file for two outputs, however it is spelled") {
    ::symlink(file.c_str(), (dir / "link.json").c_str());
    const std::string base = std::filesystem::path(dir.path).filename().string();
    for (const std::string& other : {file, dir / "./results.json", dir / ("../" + base + "/results.json"), dir / "link.json"}) {
      CAPTURE(other);
      const auto r = cli(run + "--json " + file + " --plot " + other, env);
      CHECK(r.code == 2);
      CHECK(contains(r.err, "name the same file"));
      CHECK(r.out.empty());
    }
    const std::string here = std::filesystem::current_path().string();
    const auto relative = cli(run + "--json x-" + std::to_string(::getpid()) + ".json --plot ./x-" + std::to_string(::getpid()) +
                              ".json", env);
    CHECK(relative.code == 2);
    CHECK_FALSE(std::filesystem::exists(here + "/x-" + std::to_string(::getpid()) + ".json"));
  }
  SUBCASE("bad values and unwritable paths") {
    for (const std::string& args : {"--json " + file + " --size 12X", "--json " + file + " --suite nope",
                                    "--json " + file + " --repeats 0", "--plot " + file + " --bogus"}) {
      CAPTURE(args);
      CHECK(cli(run + args, env).code == 2);
    }
    for (const std::string& path : {dir / "no/such/dir/x.json", dir.path}) {
      CAPTURE(path);
      const auto r = cli(run + "--json " + path, env);
      CHECK(r.code == 2);
      CHECK(contains(r.err, "cannot write --json file"));
    }
  }
  SUBCASE("a run that measures nothing") {
    const auto r = cli(run + "--json " + file, "CLATOMICS_BENCH_OPS=nope");
    CHECK(r.code == 1);
    CHECK(contains(r.err, "nothing was measured"));
  }
  SUBCASE("replaced whole on success") {
    ::chmod(file.c_str(), 0640);
    REQUIRE(::link(file.c_str(), (dir / "old.json").c_str()) == 0);
    const auto r = cli(run + "--json " + file, env);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(nlohmann::json::parse(read_file(file)).at("rows").size() > 0);
    CHECK(read_file(dir / "old.json") == old);  // the old file was replaced, never rewritten in place
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);  // and the new one keeps its mode
    CHECK(dir.names() == std::set<std::string>{"results.json", "old.json"});  // no temporary file left
    return;
  }
  CHECK(read_file(file) == old);
}
