// Bad input to the runtime gets a specific exception that names what was wrong: an unknown
// device selector, null OpenCL objects, an unknown embedded file, a user kernel that does not
// compile (with the whole log, the options, and the user's own line numbers), double ops on a
// device without fp64 (Options::hide_fp64 makes PoCL one). The build cache builds a source once
// and never caches a failure. Every algorithm of the registry (algorithm_cases.hpp) refuses, in
// every operand, null buffers, ranges beyond the buffer or wrapping size_t and buffers from
// another context, and its double form without fp64, before enqueueing anything (a ProfileScope
// records no command), naming the operand, and leaves the poisoned buffers untouched; count 0
// is valid, gives the empty result and touches nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <limits>
#include <sstream>

#include "algorithm_cases.hpp"
#include "core/source_text.hpp"
#include "support.hpp"

namespace {



// The line number in "file:LINE:COL: ..." on the first log line that mentions word; 0 if none.
int line_of_error(const std::string& log, const std::string& word) {
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (!test::contains(line, word)) continue;
    for (std::size_t colon = line.find(':'); colon != std::string::npos; colon = line.find(':', colon + 1)) {
      std::size_t end = colon + 1;
      while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
      if (end > colon + 1 && end < line.size() && line[end] == ':') return std::stoi(line.substr(colon + 1, end - colon - 1));
    }
  }
  return 0;
}

// Line 6 of the user's source calls an undeclared function.
const char* broken_kernel =
    "// a user kernel\n"
    "kernel void broken(global float *x) {\n"
    "  size_t i = get_global_id(0);\n"
    "  clat_atomic_add_float(x, 1.0f);\n"
    "  x[i] = 2.0f;\n"
    "  x[i] += no_such_variable_in_opencl;\n"
    "}\n";

}  // namespace

TEST_CASE("an unknown device selector throws invalid_argument listing the devices") {
  const auto devices = clatomics::all_devices();
  REQUIRE(!devices.empty());
  const std::string first = devices.front().getInfo<CL_DEVICE_NAME>();
  for (const char* selector : {"no-such-device-anywhere", "999", "pocl/no-such-device"}) {
    CAPTURE(selector);
    const auto what = test::message_of<std::invalid_argument>([&] { clatomics::select_device(selector); });
    CHECK(test::contains(what, selector));
    CHECK(test::contains(what, "devices present"));
    CHECK(test::contains(what, first));
    clatomics::Options options;
    options.device = selector;
    CHECK_THROWS_AS(clatomics::Runtime{options}, std::invalid_argument);
  }
  const test::ScopedEnv env("CLATOMICS_DEVICE", "no-such-device-anywhere");
  const auto what = test::message_of<std::invalid_argument>([] { clatomics::Runtime rt; });
  CHECK(test::contains(what, "CLATOMICS_DEVICE"));
  CHECK(test::contains(what, "no-such-device-anywhere"));
}

TEST_CASE("a Runtime from a null context, device or queue throws invalid_argument") {
  const auto& rt = test::runtime();
  CHECK_THROWS_AS(clatomics::Runtime(cl::Context(), rt.device(), rt.queue()), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::Runtime(rt.context(), cl::Device(), rt.queue()), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::Runtime(rt.context(), rt.device(), cl::CommandQueue()), std::invalid_argument);
  const clatomics::Runtime adopted(rt.context(), rt.device(), rt.queue());  // and the real ones work
  CHECK(adopted.device()() == rt.device()());
}

TEST_CASE("an unknown embedded file throws invalid_argument naming it") {
  const auto what = test::message_of<std::invalid_argument>([] { clatomics::testing::embedded_source("kernels/no_such_file.cl"); });
  CHECK(test::contains(what, "kernels/no_such_file.cl"));
  CHECK_THROWS_AS(clatomics::testing::build_library_file(test::runtime(), "kernels/no_such_file.cl"), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::testing::embedded_source(""), std::invalid_argument);
}

TEST_CASE("a user kernel that does not compile: Error with the code, whole log, options, user's line") {
  const auto& rt = test::runtime();
  const std::string extra = "-DCLATOMICS_TEST_EXTRA=1";
  try {
    rt.build(broken_kernel, extra);
    FAIL("the broken kernel built");
  } catch (const clatomics::Error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(test::contains(e.call(), "clBuildProgram"));
    CHECK(test::contains(e.build_log(), "no_such_variable_in_opencl"));
    CHECK(test::contains(e.build_options(), extra));
    CHECK(test::contains(e.build_options(), rt.build_options()));
    CHECK(test::contains(what, "CL_BUILD_PROGRAM_FAILURE"));
    CHECK(test::contains(what, e.build_log()));  // the whole log, not an excerpt
    CHECK(test::contains(what, extra));
    // The compiler reports the user's line 6 (Runtime::build puts #line 1 before the user
    // source), not its line in the snippet library + user text. NVIDIA's compiler does not honour
    // #line (measured on the H200: line 1235 of its own count): there only a line is required.
    const auto line = line_of_error(e.build_log(), "no_such_variable_in_opencl");
    if (rt.device_info().caps.nvidia) {
      CHECK(line > 0);
    } else {
      CHECK(line == 6);
      CHECK(test::contains(e.build_log(), "<user source>:6:"));  // not the compiler's temporary file
    }
  }
}

TEST_CASE("the expanded sources name each file and line of the snippet library") {
  // A compiler's message about library code names the .cl file and its own line (#line).
  const std::string& text = clatomics::source();
  CHECK(text.rfind("#line 1 \"clatomics/atomics.cl\"\n", 0) == 0);
  CHECK(test::contains(text, "#line 1 \"clatomics/cas.cl\"\n"));
  // After an included file, the includer resumes at its own next line: the line after
  // atomics.cl's #include "clatomics/cas.cl" (its line `number`) is line number + 1.
  const std::string atomics(*clatomics::detail::embedded_file("clatomics/atomics.cl"));
  const std::size_t include_at = atomics.find("#include \"clatomics/cas.cl\"");
  REQUIRE(include_at != std::string::npos);
  const std::size_t number = 1 + std::size_t(std::count(atomics.begin(), atomics.begin() + std::ptrdiff_t(include_at), '\n'));
  const auto after_cas = text.find("\n", text.find("#line 1 \"clatomics/cas.cl\""));
  CHECK(test::contains(text.substr(after_cas), "#line " + std::to_string(number + 1) + " \"clatomics/atomics.cl\"\n"));
}

TEST_CASE("the build cache: a source builds once, a failed build is never cached") {
  const auto& rt = test::runtime();
  const std::string good = "kernel void cache_probe(global uint *p) { clat_atomic_inc_uint(p, 7u); }\n";
  const auto before = rt.build_count();
  const cl::Program first = rt.build(good);
  const cl::Program second = rt.build(good);
  CHECK(rt.build_count() == before + 1);
  CHECK(first() == second());  // the same program object
  rt.build(good, "-DOTHER_OPTIONS=1");  // other options: another program
  CHECK(rt.build_count() == before + 2);

  const auto failed_before = rt.build_count();
  CHECK_THROWS_AS(rt.build(broken_kernel), clatomics::Error);
  CHECK_THROWS_AS(rt.build(broken_kernel), clatomics::Error);  // tried again, fails again
  CHECK(rt.build_count() == failed_before + 2);
  rt.build(good);  // still cached after the failures
  CHECK(rt.build_count() == failed_before + 2);
}

TEST_CASE("double ops on a device without fp64 (Options::hide_fp64) are refused clearly") {
  clatomics::Options options = clatomics::Options::from_env();
  options.hide_fp64 = true;
  clatomics::Runtime rt(options);
  CHECK_FALSE(rt.supports_double());
  const cl::Buffer one(rt.context(), CL_MEM_READ_WRITE, sizeof(double));
  const auto what = test::message_of<std::invalid_argument>([&] { clatomics::reduce(rt, clatomics::view<double>(one, 0, 1), clatomics::ReduceOp::sum); });
  CHECK(test::contains(what, "reduce<double>"));
  CHECK(test::contains(what, "hide_fp64"));
  CHECK(test::contains(rt.build_options(), "-DCLAT_NO_FP64"));
  CHECK_THROWS_AS(rt.device_info().path_of("add", "double", "global"), std::invalid_argument);
  CHECK(rt.device_info().path_of("add", "float", "global") == test::runtime().device_info().path_of("add", "float", "global"));
  // A user kernel calling a double op does not build there: the snippets define none.
  const std::string uses_double =
      "kernel void k(global double *p) { clat_atomic_add_double(p, 1.0); }\n";
  try {
    rt.build(uses_double);
    FAIL("a double op built with fp64 hidden");
  } catch (const clatomics::Error& e) {
    CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(test::contains(e.build_log(), "clat_atomic_add_double"));
  }
  // The environment variable does the same.
  const test::ScopedEnv env("CLATOMICS_HIDE_FP64", "1");
  CHECK(clatomics::Options::from_env().hide_fp64);
}

TEST_CASE("path_of an unknown op, type or space throws invalid_argument naming it") {
  const auto& info = test::runtime().device_info();
  const auto what = test::message_of<std::invalid_argument>([&] { info.path_of("fetch_nand", "float", "global"); });
  CHECK(test::contains(what, "fetch_nand"));
  CHECK_THROWS_AS(info.path_of("add", "half", "global"), std::invalid_argument);
  CHECK_THROWS_AS(info.path_of("add", "float", "constant"), std::invalid_argument);
}

namespace {

namespace alg = test::algorithms;

// Buffers filled with a recognisable pattern, and a check that they still hold it.
struct Poisoned {
  static constexpr cl_uint word = 0xA5A55A5Au;
  std::size_t n;
  cl::Buffer buffer;
  explicit Poisoned(const cl::Context& context, std::size_t elements) : n(elements) {
    std::vector<cl_uint> fill(n, word);
    buffer = cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, fill.data());
  }
  bool untouched(const cl::CommandQueue& queue = test::runtime().queue()) const {
    std::vector<cl_uint> now(n);
    queue.enqueueReadBuffer(buffer, CL_TRUE, 0, n * 4, now.data());
    return std::all_of(now.begin(), now.end(), [](cl_uint w) { return w == word; });
  }
};

// One poisoned buffer for each operand of a call (four at most), of `words` words each.
std::vector<Poisoned> pools(const cl::Context& context, std::size_t words) {
  std::vector<Poisoned> p;
  for (int k = 0; k < 4; ++k) p.emplace_back(context, words);
  return p;
}

// f must throw std::invalid_argument whose message names `argument` (and `reason`), with nothing enqueued.
void refused(const std::string& what, const std::string& argument, const std::function<void()>& f, const std::string& reason = "") {
  CAPTURE(what);
  const clatomics::ProfileScope scope;
  const auto message = test::message_of<std::invalid_argument>(f);
  CHECK_MESSAGE(test::contains(message, argument), message);
  CHECK_MESSAGE(test::contains(message, reason), message);
  CHECK(scope.commands() == 0);
}

// f(algorithm, call, k) for every operand k of every valid call of every algorithm rt runs.
template <class F>
void each_operand(const clatomics::Runtime& rt, F&& f) {
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    for (const alg::Call& call : a.calls)
      for (std::size_t k = 0; k < a.operands.size(); ++k)
        if (call.valid && call.passes(k)) f(a, call, k);
  }
}

constexpr alg::Shape defaults{16, 4};  // a call's shape where no operand says otherwise

}  // namespace

TEST_CASE("algorithms: null, short, wrapping and foreign buffers are refused before anything runs") {
  auto& rt = test::runtime();
  constexpr std::size_t n = 64, max = std::numeric_limits<std::size_t>::max();
  // The bad ranges lie in `in`; the call's other operands in buffers of their own, large enough
  // that an operand whose count follows a bad count of n + 1 is still valid.
  const Poisoned in(rt.context(), n);
  const std::size_t pool_words = 2 * n + 2;
  const std::vector<Poisoned> other = pools(rt.context(), pool_words);
  const cl::Buffer null;

  // (buffer, offset, count) cases every operand refuses, for one of `cap` elements in `in`.
  struct Bad {
    const char* what;
    const cl::Buffer* buffer;
    std::size_t offset, count;
  };
  const auto bad = [&](std::size_t cap) {
    return std::vector<Bad>{{"null buffer", &null, 0, 1},          {"null buffer, count 0", &null, 0, 0},
                            {"count beyond the buffer", &in.buffer, 0, cap + 1}, {"offset + count beyond", &in.buffer, cap - 1, 2},
                            {"offset beyond, count 0", &in.buffer, cap + 1, 0},  {"offset + count wraps size_t", &in.buffer, max, 2},
                            {"count wraps size_t", &in.buffer, 2, max},          {"(offset + count) * size wraps", &in.buffer, max / 2, 2}};
  };
  each_operand(rt, [&](const alg::Algorithm& a, const alg::Call& call, std::size_t k) {
    const alg::Operand& o = a.operands[k];
    for (const Bad& b : bad(4 * n / o.element_bytes)) {
      const alg::Shape shape = a.shape_with(k, b.count, defaults);
      alg::Ranges ranges;
      for (std::size_t j = 0; j < a.operands.size(); ++j) {
        const auto count = alg::count_of(a.operands[j], shape);
        // An operand the library checks before k must be valid for k to be the one refused
        // (counts that overflow are refused before any range).
        if (!count || (j < k && call.passes(j) && *count > 4 * pool_words / a.operands[j].element_bytes)) break;
        ranges.push_back(j == k ? alg::Range{*b.buffer, b.offset, b.count} : alg::Range{other[j].buffer, 0, *count});
      }
      if (ranges.size() < a.operands.size()) continue;
      refused(a.name + ": " + call.what + ", " + o.name + ": " + b.what, o.name, [&] { call.run(rt, ranges, nullptr); });
    }
  });

  // double where the device has no fp64: refused before anything runs, with data or none.
  {
    clatomics::Options options = clatomics::Options::from_env();
    options.hide_fp64 = true;
    clatomics::Runtime no_fp64(options);
    const std::vector<Poisoned> d = pools(no_fp64.context(), 2 * n + 2);
    std::vector<cl::Buffer> buffers;
    for (const Poisoned& p : d) buffers.push_back(p.buffer);
    for (const alg::Algorithm& a : alg::registry())
      for (const std::size_t count : {n, std::size_t(0)})
        if (a.fp64_call && a.runs_on(no_fp64))
          refused(a.name + "<double> of " + std::to_string(count), a.fp64_name, [&] { a.fp64_call(no_fp64, buffers, count); }, "cl_khr_fp64");
    for (const Poisoned& p : d) CHECK(p.untouched(no_fp64.queue()));
  }

  // count 0 is valid: identities and empty results, nothing written. Each operand ends its buffer.
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    for (const alg::Call& call : a.calls) {
      if (!call.valid) continue;
      INFO(a.name << ": " << call.what << ", count 0");
      alg::Ranges ranges;
      alg::Contents contents;
      for (std::size_t j = 0; j < a.operands.size(); ++j) {
        const std::size_t e = a.operands[j].element_bytes, count = *alg::count_of(a.operands[j], {0, 0});
        ranges.push_back({other[j].buffer, 4 * pool_words / e - count, count});
        contents.push_back(alg::read(rt, ranges.back(), e));
      }
      call.run(rt, ranges, &contents);
    }
  }

  CHECK(in.untouched());
  for (const Poisoned& p : other) CHECK(p.untouched());
}

TEST_CASE("algorithms: arguments of their own they refuse, before anything runs, quoting what is wrong") {
  auto& rt = test::runtime();
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    const alg::Contents contents = a.contents(defaults, 5);
    for (const alg::Call& call : a.refusals) {
      CHECK_FALSE(call.valid);
      REQUIRE_FALSE(call.says.empty());
      const alg::Ranges ranges = alg::on_device(rt, a, contents);
      refused(a.name + ": " + call.what, call.says, [&] { call.run(rt, ranges, nullptr); }, "clatomics");
      for (std::size_t k = 0; k < ranges.size(); ++k) CHECK(alg::read(rt, ranges[k], a.operands[k].element_bytes) == contents[k]);
    }
  }
}

// PoCL would run the kernel on the foreign buffer without complaint; other drivers fail in
// clSetKernelArg/clEnqueue* after commands were enqueued: check_range refuses it first.
TEST_CASE("algorithms: a buffer from another context is refused by name before anything runs") {
  auto& rt = test::runtime();
  constexpr std::size_t n = 64;
  const std::vector<Poisoned> other = pools(rt.context(), n);
  const cl::Context foreign_context(rt.device());  // the same device, another context
  const Poisoned foreign(foreign_context, n);
  each_operand(rt, [&](const alg::Algorithm& a, const alg::Call& call, std::size_t k) {
    alg::Ranges ranges;
    for (std::size_t j = 0; j < a.operands.size(); ++j)
      ranges.push_back({j == k ? foreign.buffer : other[j].buffer, 0, *alg::count_of(a.operands[j], defaults)});
    refused(a.name + ": " + call.what + ", " + a.operands[k].name + " foreign", a.operands[k].name, [&] { call.run(rt, ranges, nullptr); },
            "another OpenCL context");
  });
  for (const Poisoned& p : other) CHECK(p.untouched());
  CHECK(foreign.untouched(cl::CommandQueue(foreign_context, rt.device())));
}

TEST_CASE("a view longer than the call needs is still checked against its buffer as a whole") {
  auto& rt = test::runtime();
  const std::size_t n = 100;
  const cl::Buffer in = test::to_device(rt, std::vector<float>(n, 1.0f));
  const cl::Buffer keys = test::to_device(rt, std::vector<cl_uint>(n, 7u));
  const std::vector<float> before(n, -3.0f);
  const std::vector<cl_uint> keys_before(n, 9u);
  const cl::Buffer out = test::to_device(rt, before);
  const cl::Buffer unique = test::to_device(rt, keys_before);
  // Views of n + 1 elements over buffers of n: the calls use n, the views promise one more.
  const auto past = [](const cl::Buffer& b) { return clatomics::view<float>(b, 0, n + 1); };
  const auto past_keys = [](const cl::Buffer& b) { return clatomics::view<cl_uint>(b, 0, n + 1); };
  clatomics::ProfileScope enqueued;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
          clatomics::compact(rt, clatomics::view<float>(in), past(out), clatomics::where::x > 0.0f);
        }),
        "compact: out: offset + count = 101 elements of 4 bytes lie beyond the buffer's 400 bytes"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
          clatomics::reduce_by_key(rt, clatomics::view<cl_uint>(keys), clatomics::view<float>(in), past_keys(unique),
                                   clatomics::view<float>(out), clatomics::ScatterOp::sum);
        }),
        "reduce_by_key: unique_keys: offset + count = 101 elements"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
          clatomics::reduce_by_key(rt, clatomics::view<cl_uint>(keys), clatomics::view<float>(in), clatomics::view<cl_uint>(unique),
                                   past(out), clatomics::ScatterOp::sum);
        }),
        "reduce_by_key: reductions: offset + count = 101 elements"));
  CHECK(enqueued.commands() == 0);
  CHECK(test::to_host<float>(rt, out, n) == before);
  CHECK(test::to_host<cl_uint>(rt, unique, n) == keys_before);
  // Views of exactly what the calls need, and longer ones inside their buffers, run.
  const cl::Buffer roomy = test::to_device(rt, std::vector<float>(2 * n, 0.0f));
  CHECK(clatomics::compact(rt, clatomics::view<float>(in), clatomics::view<float>(roomy, 0, 2 * n), clatomics::where::x > 0.0f) == n);
}
