// Bad input to the runtime gets a specific exception that names what was wrong: an unknown
// device selector, null OpenCL objects, an unknown embedded file, a user kernel that does not
// compile (with the whole log, the options, and the user's own line numbers), double ops on a
// device without fp64 (Options::hide_fp64 makes PoCL one). The build cache builds a source once
// and never caches a failure. Every algorithm refuses null buffers, ranges beyond the buffer or
// wrapping size_t, buffers from another context and double without fp64 before enqueueing
// anything (a ProfileScope records no command), and leaves the poisoned buffers untouched;
// count 0 is valid and touches nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <limits>
#include <sstream>

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

// f must throw std::invalid_argument whose message names `argument`, with nothing enqueued.
void refused(const std::string& what, const std::string& argument, const std::function<void()>& f) {
  CAPTURE(what);
  const clatomics::ProfileScope scope;
  const auto message = test::message_of<std::invalid_argument>(f);
  CHECK_MESSAGE(test::contains(message, argument), message);
  CHECK(scope.commands() == 0);
}

}  // namespace

TEST_CASE("algorithms: null, short, wrapping and foreign buffers are refused before anything runs") {
  auto& rt = test::runtime();
  constexpr std::size_t n = 64, max = std::numeric_limits<std::size_t>::max();
  const Poisoned in(rt.context(), n), other_in(rt.context(), n), out(rt.context(), n);
  cl::Buffer out_buffer = out.buffer;
  const cl::Buffer null;
  using clatomics::ReduceOp;

  // (buffer, offset, count) cases every entry point refuses.
  struct Bad {
    const char* what;
    const cl::Buffer* buffer;
    std::size_t offset, count;
  };
  const Bad bad[] = {{"null buffer", &null, 0, 1},          {"null buffer, count 0", &null, 0, 0},
                     {"count beyond the buffer", &in.buffer, 0, n + 1}, {"offset + count beyond", &in.buffer, n - 1, 2},
                     {"offset beyond, count 0", &in.buffer, n + 1, 0},  {"offset + count wraps size_t", &in.buffer, max, 2},
                     {"count wraps size_t", &in.buffer, 2, max},        {"(offset + count) * 4 wraps", &in.buffer, max / 2, 2}};
  for (const Bad& b : bad) {
    const std::string bad_case = b.what;
    CAPTURE(bad_case);
    const cl::Buffer& buf = *b.buffer;
    refused("reduce", "reduce: buffer", [&] { clatomics::reduce(rt, clatomics::view<float>(buf, b.offset, b.count), ReduceOp::sum); });
    refused("dot a", "dot: a", [&] { clatomics::dot(rt, clatomics::view<float>(buf, b.offset, b.count), clatomics::view<float>(other_in.buffer, 0, b.count)); });
    if (b.count <= n)  // else a's range (checked first) is the bad one
      refused("dot b", "dot: b", [&] { clatomics::dot(rt, clatomics::view<float>(other_in.buffer, 0, b.count), clatomics::view<float>(buf, b.offset, b.count)); });
    refused("histogram_keys", "histogram_keys: keys", [&] { clatomics::histogram_keys(rt, clatomics::view<cl_uint>(buf, b.offset, b.count), 16); });
    refused("histogram_even", "histogram_even: values", [&] { clatomics::histogram_even(rt, clatomics::view<float>(buf, b.offset, b.count), {4, 0.0f, 1.0f}); });
    refused("compact in", "compact: in", [&] { clatomics::compact(rt, clatomics::view<float>(buf, b.offset, b.count), clatomics::view<float>(out_buffer, 0, b.count), "x > 0.0f"); });
  }
  // The same in bytes for the byte histogram.
  const Bad bad_bytes[] = {{"null buffer", &null, 0, 1},         {"count beyond the buffer", &in.buffer, 0, 4 * n + 1},
                           {"offset + count beyond", &in.buffer, 4 * n - 1, 2}, {"offset beyond, count 0", &in.buffer, 4 * n + 1, 0},
                           {"offset + count wraps size_t", &in.buffer, max, 2}, {"count wraps size_t", &in.buffer, 2, max}};
  for (const Bad& b : bad_bytes) {
    const std::string bad_case = b.what;
    CAPTURE(bad_case);
    refused("histogram", "histogram: bytes", [&] { clatomics::histogram(rt, clatomics::view<cl_uchar>(*b.buffer, b.offset, b.count)); });
  }
  // Weights and compaction output too short.
  refused("histogram_even weights", "histogram_even: weights",
          [&] { clatomics::histogram_even(rt, clatomics::view<float>(in.buffer, 0, n), {4, 0.0f, 1.0f}, {clatomics::view<float>(other_in.buffer, 1, n)}); });
  cl::Buffer short_out(rt.context(), CL_MEM_READ_WRITE, 4 * (n - 1));
  refused("compact out", "compact: out", [&] { clatomics::compact(rt, clatomics::view<float>(in.buffer, 0, n), clatomics::view<float>(short_out, 0, n), "x > 0.0f"); });

  // double where the device has no fp64: refused before the ranges are even looked at.
  {
    clatomics::Options options = clatomics::Options::from_env();
    options.hide_fp64 = true;
    clatomics::Runtime no_fp64(options);
    const Poisoned d(no_fp64.context(), 2 * n);
    refused("reduce<double>", "reduce<double>", [&] { clatomics::reduce(no_fp64, clatomics::view<double>(d.buffer, 0, n), ReduceOp::sum); });
    refused("dot<double>", "dot", [&] { clatomics::dot(no_fp64, clatomics::view<double>(d.buffer, 0, n), clatomics::view<double>(d.buffer, 0, n)); });
    CHECK(d.untouched(no_fp64.queue()));
  }

  // count 0 is valid: identities and empty results, nothing written.
  CHECK(clatomics::reduce(rt, clatomics::view<float>(in.buffer, n, 0), ReduceOp::sum) == 0.0f);
  CHECK(clatomics::dot(rt, clatomics::view<float>(in.buffer, 0, 0), clatomics::view<float>(other_in.buffer, n, 0)) == 0.0f);
  CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(in.buffer, 4 * n, 0)) == std::vector<std::uint64_t>(256, 0));
  CHECK(clatomics::compact(rt, clatomics::view<float>(in.buffer, n, 0), clatomics::view<float>(out_buffer, 0, 0), "x > 0.0f") == 0);

  CHECK(in.untouched());
  CHECK(other_in.untouched());
  CHECK(out.untouched());
}

// PoCL would run the kernel on the foreign buffer without complaint; other drivers fail in
// clSetKernelArg/clEnqueue* after commands were enqueued: check_range refuses it first.
TEST_CASE("algorithms: a buffer from another context is refused by name before anything runs") {
  auto& rt = test::runtime();
  constexpr std::size_t n = 64;
  const Poisoned in(rt.context(), n), out(rt.context(), n);
  const cl::Context foreign_context(rt.device());  // the same device, another context
  const Poisoned foreign(foreign_context, n);
  const cl::Buffer& f = foreign.buffer;
  cl::Buffer out_buffer = out.buffer, foreign_out = foreign.buffer;
  using clatomics::ReduceOp;
  refused("reduce", "reduce: buffer", [&] { clatomics::reduce(rt, clatomics::view<float>(f, 0, n), ReduceOp::sum); });
  refused("dot a", "dot: a", [&] { clatomics::dot(rt, clatomics::view<float>(f, 0, n), clatomics::view<float>(in.buffer, 0, n)); });
  refused("dot b", "dot: b", [&] { clatomics::dot(rt, clatomics::view<float>(in.buffer, 0, n), clatomics::view<float>(f, 0, n)); });
  refused("histogram", "histogram: bytes", [&] { clatomics::histogram(rt, clatomics::view<cl_uchar>(f, 0, 4 * n)); });
  refused("histogram_keys", "histogram_keys: keys", [&] { clatomics::histogram_keys(rt, clatomics::view<cl_uint>(f, 0, n), 16); });
  refused("histogram_even", "histogram_even: values", [&] { clatomics::histogram_even(rt, clatomics::view<float>(f, 0, n), {4, 0.0f, 1.0f}); });
  refused("histogram_even weights", "histogram_even: weights", [&] { clatomics::histogram_even(rt, clatomics::view<float>(in.buffer, 0, n), {4, 0.0f, 1.0f}, {clatomics::view<float>(f, 0, n)}); });
  refused("compact in", "compact: in", [&] { clatomics::compact(rt, clatomics::view<float>(f, 0, n), clatomics::view<float>(out_buffer, 0, n), "x > 0.0f"); });
  refused("compact out", "compact: out", [&] { clatomics::compact(rt, clatomics::view<float>(in.buffer, 0, n), clatomics::view<float>(foreign_out, 0, n), "x > 0.0f"); });
  CHECK(in.untouched());
  CHECK(out.untouched());
  CHECK(foreign.untouched(cl::CommandQueue(foreign_context, rt.device())));
}
