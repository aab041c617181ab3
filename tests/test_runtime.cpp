// The runtime's positive paths: the embedded snippets, building user kernels by prepending or
// by -I, OpenCL C 1.2 compatibility, the program cache, and the path table.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/zeroed_scratch.hpp"
#include "support.hpp"

namespace {

const char* user_kernel = R"CLC(
kernel void scale_and_count(global float *x, global float *total, global uint *ticket) {
  size_t i = get_global_id(0);
  local float group_sum;
  if (get_local_id(0) == 0) group_sum = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  clat_atomic_add_float_local(&group_sum, x[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) clat_atomic_add_float(total, group_sum);
  clat_atomic_inc_uint(ticket, 9u);
}
)CLC";

}  // namespace

TEST_CASE("source() holds the whole snippet library, includes expanded") {
  const std::string src = clatomics::source();
  std::istringstream lines(src);
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t");
    CHECK_FALSE((first != std::string::npos && line.compare(first, 8, "#include") == 0));
  }
  // every snippet file's include guard is there, config.cl first
  for (const char* guard : {"CLATOMICS_CONFIG_CL", "CLATOMICS_CAS_CL", "CLATOMICS_REAL_CL", "CLATOMICS_FLOAT_CL",
                            "CLATOMICS_DOUBLE_CL", "CLATOMICS_INTEGER_CL", "CLATOMICS_MINMAX_BITS_CL"})
    CHECK(src.find(std::string("#define ") + guard) != std::string::npos);
  CHECK(src.find("CLATOMICS_CONFIG_CL") < src.find("CLATOMICS_CAS_CL"));
  const auto paths = clatomics::testing::embedded_paths();
  CHECK(std::find(paths.begin(), paths.end(), "clatomics/atomics.cl") != paths.end());
  CHECK_THROWS_AS(clatomics::testing::embedded_source("clatomics/nope.cl"), std::invalid_argument);
}

TEST_CASE("a user kernel prepended through Runtime::build runs with exact results") {
  auto& rt = test::runtime();
  const std::size_t n = 4096;
  cl::Program program = rt.build(user_kernel);
  cl::Buffer x = test::to_device(rt, std::vector<float>(n, 0.5f));
  cl::Buffer total = test::to_device(rt, std::vector<float>{1.0f});
  cl::Buffer ticket = test::to_device(rt, std::vector<cl_uint>{0});
  cl::Kernel kernel(program, "scale_and_count");
  kernel.setArg(0, x);
  kernel.setArg(1, total);
  kernel.setArg(2, ticket);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(test::group_size()));
  CHECK(test::to_host<float>(rt, total, 1)[0] == 1.0f + 0.5f * n);
  CHECK(test::to_host<cl_uint>(rt, ticket, 1)[0] == n % 10);  // wraps at 9: 4096 % 10
}

TEST_CASE("the cache builds each (source, options) once") {
  auto& rt = test::runtime();
  const std::string src = std::string(user_kernel) + "\n// cache probe\n";
  const auto before = rt.build_count();
  rt.build(src);
  rt.build(src);
  CHECK(rt.build_count() == before + 1);
  rt.build(src, "-DCLAT_FORCE_CAS");  // other options: another program
  CHECK(rt.build_count() == before + 2);
}

// A kernel that writes one number, built with clatomics::build_program (no Runtime cache between).
cl_int run_writer(clatomics::Runtime& rt, const std::string& source) {
  cl::Program program = clatomics::build_program(rt.context(), rt.device(), source, "");
  cl::Buffer out = test::to_device(rt, std::vector<cl_int>{0});
  cl::Kernel kernel(program, "write_number");
  kernel.setArg(0, out);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange);
  return test::to_host<cl_int>(rt, out, 1)[0];
}

// PoCL makes binaries only when asked, by compiling every kernel again, and keeps its own disk
// cache: there the library asks for none (src/core/binary_cache.hpp says why).
bool on_pocl(const clatomics::Runtime& rt) { return test::contains(rt.device_info().caps.platform_name, "Portable Computing Language"); }

TEST_CASE("CLATOMICS_CACHE_DIR on PoCL: nothing is written, every program still right") {
  namespace fs = std::filesystem;
  auto& rt = test::runtime();
  if (!on_pocl(rt)) return;
  const fs::path dir = fs::temp_directory_path() / ("clatomics-binaries-pocl-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const test::ScopedEnv env("CLATOMICS_CACHE_DIR", dir.string().c_str());
  const std::size_t loads = clatomics::testing::binary_cache_loads();
  CHECK(run_writer(rt, "kernel void write_number(global int* out) { out[0] = 7; }\n") == 7);
  CHECK(run_writer(rt, "kernel void write_number(global int* out) { out[0] = 8; }\n") == 8);
  CHECK(clatomics::reduce(rt, std::vector<float>(100000, 1.0f), clatomics::ReduceOp::sum) == 100000.0f);
  CHECK(!fs::exists(dir));
  CHECK(clatomics::testing::binary_cache_loads() == loads);
}

TEST_CASE("CLATOMICS_CACHE_DIR keeps built programs on disk, each used only for its own source and options") {
  namespace fs = std::filesystem;
  auto& rt = test::runtime();
  if (on_pocl(rt)) return;
  const fs::path dir = fs::temp_directory_path() / ("clatomics-binaries-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const test::ScopedEnv env("CLATOMICS_CACHE_DIR", dir.string().c_str());
  const std::string seven = "kernel void write_number(global int* out) { out[0] = 7; }\n";
  const std::string eight = "kernel void write_number(global int* out) { out[0] = 8; }\n";
  const auto entries = [&] {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
    return files;
  };

  const std::size_t loads = clatomics::testing::binary_cache_loads();
  CHECK(run_writer(rt, seven) == 7);  // built from source, its binary kept
  REQUIRE(entries().size() == 1);
  CHECK(clatomics::testing::binary_cache_loads() == loads);
  CHECK(run_writer(rt, seven) == 7);  // from the binary
  CHECK(clatomics::testing::binary_cache_loads() == loads + 1);
  CHECK(run_writer(rt, eight) == 8);  // another source: another entry, never the first one's
  CHECK(entries().size() == 2);
  CHECK(clatomics::testing::binary_cache_loads() == loads + 1);

  // Every entry damaged (cut short, or another entry's bytes under its name): each source is
  // built again and gives its own number.
  for (const auto& file : entries()) fs::resize_file(file, fs::file_size(file) / 2);
  CHECK(run_writer(rt, seven) == 7);
  CHECK(run_writer(rt, eight) == 8);
  CHECK(clatomics::testing::binary_cache_loads() == loads + 1);
  const auto files = entries();
  REQUIRE(files.size() == 2);
  fs::copy_file(files[0], files[1].string() + ".swap");
  fs::copy_file(files[1], files[0], fs::copy_options::overwrite_existing);
  fs::rename(files[1].string() + ".swap", files[1]);
  CHECK(run_writer(rt, seven) == 7);
  CHECK(run_writer(rt, eight) == 8);
  CHECK(clatomics::testing::binary_cache_loads() == loads + 1);

  // Bounded: with room for about one entry, the least recently used go and the newest stays.
  fs::remove_all(dir);
  CHECK(run_writer(rt, seven) == 7);
  const std::uintmax_t one = fs::file_size(entries().at(0));
  clatomics::testing::set_binary_cache_limit(one + one / 2);
  CHECK(run_writer(rt, eight) == 8);
  CHECK(entries().size() == 1);
  CHECK(run_writer(rt, eight) == 8);  // the one kept is the newest: loaded
  CHECK(clatomics::testing::binary_cache_loads() == loads + 2);
  CHECK(run_writer(rt, seven) == 7);  // the oldest went: built again
  CHECK(clatomics::testing::binary_cache_loads() == loads + 2);
  clatomics::testing::set_binary_cache_limit(0);
  fs::remove_all(dir);
}

// The snippet files as installed: clatomics/*.cl in a directory of their own, for -I; removed
// when it goes.
struct SnippetDirectory {
  std::filesystem::path root = std::filesystem::temp_directory_path() / ("clatomics-snippets-" + std::to_string(::getpid()));
  SnippetDirectory() {
    std::filesystem::create_directories(root / "clatomics");
    for (const auto& path : clatomics::testing::embedded_paths())
      if (path.rfind("clatomics/", 0) == 0) std::ofstream(root / path, std::ios::binary) << clatomics::testing::embedded_file_text(path);
  }
  ~SnippetDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
  }
};

TEST_CASE("the snippets compile with -I and #include, and as OpenCL C 1.2") {
  auto& rt = test::runtime();
  const std::string by_include = std::string("#include \"clatomics/atomics.cl\"\n") + user_kernel;
  const SnippetDirectory include_dir;
  CHECK_NOTHROW(clatomics::build_program(rt.context(), rt.device(), by_include,
                                         rt.build_options() + " -I " + include_dir.root.string()));
  CHECK_NOTHROW(clatomics::build_program(rt.context(), rt.device(), clatomics::source() + user_kernel,
                                         "-cl-std=CL1.2 -DCLAT_FORCE_CAS"));
}

TEST_CASE("every snippet file compiles on its own after atomics.cl") {
  auto& rt = test::runtime();
  std::string all;
  for (const auto& path : clatomics::testing::embedded_paths())
    if (path.rfind("clatomics/", 0) == 0) all += clatomics::testing::embedded_source(path);
  CHECK_NOTHROW(clatomics::build_program(rt.context(), rt.device(), clatomics::source() + all, rt.build_options()));
}

TEST_CASE("device_info lists a path for every op, type and space") {
  const auto& info = test::runtime().device_info();
  for (const char* op : {"add", "sub", "mul", "div", "mad", "min", "max", "xchg", "cmpxchg"})
    for (const char* space : {"global", "local"}) {
      CHECK_NOTHROW(info.path_of(op, "float", space));
      if (info.doubles) CHECK_NOTHROW(info.path_of(op, "double", space));
    }
  CHECK(info.path_of("mul", "float", "global") == clatomics::Path::cas);
  CHECK(info.path_of("xchg", "float", "local") == clatomics::Path::hardware);
  if (test::runtime().options().force_cas) CHECK(info.path_of("min", "float", "global") == clatomics::Path::cas);
  CHECK(info.describe().find("float global:") != std::string::npos);
}

TEST_CASE("the usable __local memory is measured: at most what the device reports, and a launch takes it") {
  auto& rt = test::runtime();
  const auto& info = rt.device_info();
  CHECK(info.local_mem_usable > 0);
  CHECK(info.local_mem_usable <= info.caps.local_mem_size);
  CHECK(info.local_mem_usable >= info.caps.local_mem_size / 2);
  MESSAGE(info.caps.device_name, ": __local memory ", info.caps.local_mem_size, " bytes reported, ", info.local_mem_usable, " launch");
  // A kernel of the user's with that much __local memory launches and runs.
  const cl::Program program = rt.build("kernel void fill(local uint *l, global uint *o) { l[0] = 7u; o[0] = l[0]; }\n");
  cl::Kernel kernel = clatomics::Runtime::kernel(program, "fill");
  const cl::Buffer out = test::to_device(rt, std::vector<cl_uint>{0});
  kernel.setArg(0, cl::Local(std::size_t(info.local_mem_usable)));
  kernel.setArg(1, out);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  CHECK(test::to_host<cl_uint>(rt, out, 1)[0] == 7u);
}

TEST_CASE("sub-group aggregation is tried by default wherever the device offers sub-groups and shuffles") {
  // Intel's CPU runtime announces sub-groups as OpenCL C 3.0's __opencl_c_subgroups, not as
  // cl_khr_subgroups; PoCL before 6 is known to hang in them and is not tried (its check says so).
  auto& rt = test::runtime();
  const auto& info = rt.device_info();
  const auto& caps = info.caps;
  const bool offered = (caps.has_extension("cl_khr_subgroups") || caps.has_feature("__opencl_c_subgroups")) &&
                       caps.has_extension("cl_khr_subgroup_shuffle") && caps.opencl_c_max >= 200;
  if (!offered || rt.options().force_cas || !rt.options().subgroup_aggregation || caps.nvidia) return;
  const auto agg = std::find_if(info.checks.begin(), info.checks.end(),
                                [](const clatomics::NativeCheck& c) { return c.slot == "agg" && c.path == clatomics::Path::subgroup; });
  REQUIRE(agg != info.checks.end());
  INFO(agg->why);
  if (test::contains(agg->why, "not tried")) {
    CHECK(test::contains(caps.platform_version, "PoCL"));
  } else {
    CHECK(agg->passed);  // the devices this suite runs on with sub-groups (Intel's runtime) pass it
    CHECK(info.variant_path_of("aggregated", "add", "float", "global") == clatomics::Path::subgroup);
  }
}

TEST_CASE("cl_ext_float_atomics adds are found from the device's queries as well as the compiler's macros") {
  // Intel's CPU runtime reports its float and double adds in CL_DEVICE_{SINGLE,DOUBLE}_FP_ATOMIC_
  // CAPABILITIES_EXT and defines no __opencl_c_ext_fp32_* macro: the adds must still be native.
  auto& rt = test::runtime();
  const auto& info = rt.device_info();
  if (!info.caps.ext_float_atomics || rt.options().force_cas || info.caps.nvidia) return;
  constexpr cl_bitfield global_add = clatomics::Capabilities::fp_atomic_global_add, local_add = clatomics::Capabilities::fp_atomic_local_add;
  // On the devices this suite runs on the checks pass, so the path is ext (describe() says why not).
  const auto native = [&](const char* type, const char* space) {
    INFO(type, " ", space, "\n", info.describe());
    CHECK(info.path_of("add", type, space) == clatomics::Path::ext);
  };
  if (info.caps.fp32_atomics & global_add) native("float", "global");
  if (info.caps.fp32_atomics & local_add) native("float", "local");
  if (info.doubles && (info.caps.fp64_atomics & global_add)) native("double", "global");
  if (info.doubles && (info.caps.fp64_atomics & local_add)) native("double", "local");
}

namespace {

// Two sub-devices of the device (CL_DEVICE_PARTITION_EQUALLY, a compute unit each), or none where
// it cannot be partitioned (GPUs).
std::vector<cl::Device> two_sub_devices(const cl::Device& device) {
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint n = 0;
  if (clCreateSubDevices(device(), equally, 0, nullptr, &n) != CL_SUCCESS || n < 2) return {};
  std::vector<cl_device_id> ids(n);
  if (clCreateSubDevices(device(), equally, n, ids.data(), nullptr) != CL_SUCCESS) return {};
  std::vector<cl::Device> subs;
  for (const cl_device_id id : ids) subs.emplace_back(id);  // each released with its wrapper
  subs.resize(2);
  return subs;
}

}  // namespace

// A context made from sub-devices need not list them: PoCL 3.1 lists one other device handle
// (measured). The queue's own context and device say whether the three belong together.
TEST_CASE("a Runtime on a sub-device's context and queue runs the algorithms; a queue of another sub-device is refused") {
  const auto subs = two_sub_devices(test::runtime().device());
  if (subs.empty()) return;
  for (const std::size_t count : {std::size_t(1), std::size_t(2)}) {
    CAPTURE(count);
    const cl::Context context(std::vector<cl::Device>(subs.begin(), subs.begin() + std::ptrdiff_t(count)));
    const cl::CommandQueue queue(context, subs[0]);
    clatomics::Runtime rt(context, subs[0], queue);
    CHECK(clatomics::reduce(rt, std::vector<cl_uint>(100003, 3u), clatomics::ReduceOp::sum) == 300009u);
    std::vector<float> out(10, 0.0f);
    std::vector<cl_uint> idx(1000);
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = cl_uint(i % 10);
    (void)clatomics::scatter_reduce(rt, out, idx, std::vector<float>(1000, 1.0f), clatomics::ScatterOp::sum);
    CHECK(out == std::vector<float>(10, 100.0f));
    if (count == 2) {
      const cl::CommandQueue other(context, subs[1]);
      CHECK_THROWS_WITH_AS(clatomics::Runtime(context, subs[0], other), doctest::Contains("another device"), std::invalid_argument);
    }
  }
}

TEST_CASE("a fork()ed child of a process that used PoCL is refused clearly, not left waiting") {
  auto& rt = test::runtime();  // OpenCL set up in this process
  if (!on_pocl(rt)) return;
  // The child's exit code: 0 when both a fresh Runtime and the parent's are refused naming
  // fork(); it dies of the alarm where a command waits forever.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::alarm(30);
    const auto refused = [](const std::function<void()>& use) {
      try {
        use();
      } catch (const std::logic_error& e) {
        return std::string(e.what()).find("fork()") != std::string::npos;
      } catch (...) {
      }
      return false;
    };
    const bool fresh = refused([] { clatomics::Runtime mine; });
    const bool inherited = refused([&] { (void)clatomics::reduce(rt, std::vector<float>(10, 1.0f), clatomics::ReduceOp::sum); });
    ::_exit(fresh && inherited ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The parent goes on as before.
  CHECK(clatomics::reduce(rt, std::vector<float>(10, 1.0f), clatomics::ReduceOp::sum) == 10.0f);
}

TEST_CASE("CLATOMICS_CACHE_DIR unset: the user's cache directory; set empty: no disk cache") {
  namespace fs = std::filesystem;
  auto& rt = test::runtime();
  const fs::path home = fs::temp_directory_path() / ("clatomics-xdg-" + std::to_string(::getpid()));
  fs::remove_all(home);
  const test::ScopedEnv xdg("XDG_CACHE_HOME", home.string().c_str());
  const auto entries = [&] {
    std::size_t n = 0;
    if (fs::exists(home / "clatomics"))
      for (const auto& entry : fs::directory_iterator(home / "clatomics")) n += entry.path().extension() == ".bin";
    return n;
  };
  {
    const test::ScopedEnv unset("CLATOMICS_CACHE_DIR", nullptr);
    CHECK(run_writer(rt, "kernel void write_number(global int* out) { out[0] = 9; }\n") == 9);
  }
  CHECK(entries() == (on_pocl(rt) ? 0u : 1u));  // PoCL keeps its own cache (nothing is written there)
  {
    const test::ScopedEnv off("CLATOMICS_CACHE_DIR", "");
    CHECK(run_writer(rt, "kernel void write_number(global int* out) { out[0] = 10; }\n") == 10);
  }
  CHECK(entries() == (on_pocl(rt) ? 0u : 1u));
  fs::remove_all(home);
}

TEST_CASE("the zeroed scratch: the smallest kept buffer that fits, given back only when zeroed, the smallest dropped over the limit") {
  auto& rt = test::runtime();
  clatomics::detail::ZeroedScratch scratch;
  scratch.set_limit(1000);
  const auto lend = [&](std::size_t bytes, bool zeroed) {
    auto lent = scratch.take(rt, bytes);
    const cl_mem handle = lent.get();
    if (zeroed) lent.mark_zeroed();
    return handle;
  };
  {
    auto first = scratch.take(rt, 100);
    CHECK(first.fresh());
  }  // not marked: released
  CHECK(scratch.kept_bytes() == 0);
  const cl_mem small = lend(100, true), large = lend(600, true);
  CHECK(scratch.kept_bytes() == 700);
  {
    auto again = scratch.take(rt, 50);  // the smallest that fits
    CHECK_FALSE(again.fresh());
    CHECK(again.get() == small);
    CHECK(scratch.kept_bytes() == 600);
  }  // not marked: released
  CHECK(scratch.kept_bytes() == 600);
  {
    auto x = scratch.take(rt, 300), y = scratch.take(rt, 300);  // the 600 and a fresh 300
    CHECK(x.get() == large);
    CHECK(y.fresh());
    x.mark_zeroed(), y.mark_zeroed();
  }
  CHECK(scratch.kept_bytes() == 900);
  const cl_mem largest = lend(700, true);  // none fits: a fresh 700, for which the 300 goes, then the 600
  CHECK(scratch.kept_bytes() == 700);
  CHECK(lend(600, true) == largest);
  {
    auto x = scratch.take(rt, 400), y = scratch.take(rt, 400);  // the 700 and a fresh 400
    x.mark_zeroed(), y.mark_zeroed();
    x = {};  // the 700 comes back first
  }  // then the 400, for which only the larger 700 could go: the 400 is released
  CHECK(scratch.kept_bytes() == 700);
  {
    auto x = scratch.take(rt, 400), y = scratch.take(rt, 400);
    x.mark_zeroed(), y.mark_zeroed();
  }  // the 400 comes back first, then the 700, for which the smaller 400 goes
  CHECK(scratch.kept_bytes() == 700);
  {
    auto x = scratch.take(rt, 400), y = scratch.take(rt, 400);
    y.mark_zeroed();  // the fresh 400 only
  }  // the 700, not marked, is released; the 400 is kept
  CHECK(scratch.kept_bytes() == 400);
  lend(800, true);  // a fresh 800: the 400 goes for it
  CHECK(scratch.kept_bytes() == 800);
  lend(2000, true);  // larger than the limit: never kept
  CHECK(scratch.kept_bytes() == 800);
  lend(10, true);
  scratch.release();
  CHECK(scratch.kept_bytes() == 0);
}
