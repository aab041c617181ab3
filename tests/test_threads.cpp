// One Runtime shared by 8 host threads that build programs (some shared, some their own) and
// run kernels at the same time: every result exact, every distinct program built exactly once
// (Runtime::build_count), and clean under ThreadSanitizer (scripts/sanitize.sh).
// Each thread makes its own cl::Kernel objects (clSetKernelArg is the one OpenCL call that is
// not thread-safe on a shared kernel) and shares the Runtime's queue, which OpenCL allows.
// Results are gathered per thread and checked on the main thread (doctest's assertions are not
// made for use from several threads).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "core/pocl_instances.hpp"
#include "support.hpp"

namespace {

constexpr int thread_count = 8;
constexpr int rounds = 3;
constexpr std::size_t items = 4096;

// Every thread builds both shared programs; `counting` (plain) and `counting` with -DSTEP=3 are
// two programs. Each work-item adds STEP to a float total and counts itself with inc.
const std::string counting = R"CLC(
#ifndef STEP
#define STEP 1
#endif
kernel void count(global float *total, global uint *ticket, global uint *olds) {
  clat_atomic_add_float(total, (float)STEP);
  olds[get_global_id(0)] = clat_atomic_inc_uint(ticket, 0xffffffffu);
}
)CLC";

// Thread t's own program: its tag in the source (even t) or in the options (odd t).
std::string own_source(int t) {
  std::string tag = t % 2 == 0 ? "#define TAG " + std::to_string(t + 1) + "\n" : "";
  return tag + R"CLC(
kernel void tagged(global uint *cells) {
  atomic_add(cells + get_global_id(0) % 16, (uint)TAG);
  clat_atomic_max_float((global float *)(cells + 16), (float)TAG);
}
)CLC";
}
std::string own_options(int t) { return t % 2 ? "-DTAG=" + std::to_string(t + 1) : ""; }

// Releases every thread at once, so that builds of the same program overlap.
class StartGate {
 public:
  void arrive_and_wait(int count) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (++arrived_ == count) ready_.notify_all();
    ready_.wait(lock, [&] { return arrived_ >= count; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  int arrived_ = 0;
};

struct ThreadResult {
  std::vector<std::string> errors;  // exceptions and wrong results, checked on the main thread
  void expect(bool ok, const std::string& what) {
    if (!ok) errors.push_back(what);
  }
};

void run_counting(const clatomics::Runtime& rt, const cl::Program& program, float step, ThreadResult& result) {
  std::vector<float> total{0.0f};
  std::vector<cl_uint> ticket{0};
  cl::Buffer total_buf = test::to_device(rt, total), ticket_buf = test::to_device(rt, ticket);
  cl::Buffer olds_buf(rt.context(), CL_MEM_READ_WRITE, items * sizeof(cl_uint));
  cl::Kernel kernel(program, "count");
  kernel.setArg(0, total_buf);
  kernel.setArg(1, ticket_buf);
  kernel.setArg(2, olds_buf);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(64));
  total = test::to_host<float>(rt, total_buf, 1);
  ticket = test::to_host<cl_uint>(rt, ticket_buf, 1);
  auto olds = test::to_host<cl_uint>(rt, olds_buf, items);
  std::sort(olds.begin(), olds.end());
  bool each_once = true;
  for (std::size_t i = 0; i < items; ++i) each_once = each_once && olds[i] == i;
  result.expect(total[0] == step * float(items), "count: total " + std::to_string(total[0]));
  result.expect(ticket[0] == items, "count: ticket " + std::to_string(ticket[0]));
  result.expect(each_once, "count: tickets not 0..n-1 once each");
}

void run_tagged(const clatomics::Runtime& rt, const cl::Program& program, int t, ThreadResult& result) {
  std::vector<cl_uint> cells(17, 0);
  cl::Buffer cells_buf = test::to_device(rt, cells);
  cl::Kernel kernel(program, "tagged");
  kernel.setArg(0, cells_buf);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(64));
  cells = test::to_host<cl_uint>(rt, cells_buf, 17);
  const cl_uint tag = cl_uint(t + 1);
  for (std::size_t c = 0; c < 16; ++c)
    result.expect(cells[c] == tag * (items / 16), "tagged: cell " + std::to_string(c) + " = " + std::to_string(cells[c]));
  result.expect(test::from_bits<float>(cells[16]) == float(tag), "tagged: max");
}

void worker(const clatomics::Runtime& rt, int t, StartGate& gate, ThreadResult& result) {
  try {
    gate.arrive_and_wait(thread_count);
    for (int r = 0; r < rounds; ++r) {
      // Alternate the order so that threads race on different programs first.
      const bool shared_first = (t + r) % 2 == 0;
      if (!shared_first) run_tagged(rt, rt.build(own_source(t), own_options(t)), t, result);
      run_counting(rt, rt.build(counting), 1.0f, result);
      run_counting(rt, rt.build(counting, "-DSTEP=3"), 3.0f, result);
      if (shared_first) run_tagged(rt, rt.build(own_source(t), own_options(t)), t, result);
    }
  } catch (const std::exception& e) {
    result.errors.push_back(std::string("exception: ") + e.what());
  }
}

void check(const std::vector<ThreadResult>& results) {
  for (std::size_t t = 0; t < results.size(); ++t) {
    CAPTURE(t);
    for (const auto& error : results[t].errors) FAIL_CHECK(error);
    CHECK(results[t].errors.empty());
  }
}

}  // namespace

TEST_CASE("8 threads share one Runtime: each distinct program built once, every result exact") {
  const clatomics::Runtime rt(clatomics::Options::from_env());  // fresh: its build count starts at 0
  StartGate gate;
  std::vector<ThreadResult> results(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) threads.emplace_back(worker, std::cref(rt), t, std::ref(gate), std::ref(results[t]));
  for (auto& thread : threads) thread.join();
  check(results);
  CHECK(rt.build_count() == 2 + thread_count);  // two shared programs, one per thread
}

TEST_CASE("threads share one Runtime's deterministic sums: its kept scratch lent to one call at a time, the same bits as alone") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  // Each thread its own size, so that the kept buffers change hands between calls of every size;
  // the last two have fewer values than half their bins, in order and on few bins (the finish
  // over the bins reached). NaN and infinities set flags.
  struct Call {
    std::vector<cl_uint> idx;
    std::vector<float> values, want;
  };
  std::vector<Call> calls(4);
  clatomics::ScatterOptions deterministic;
  deterministic.deterministic = true;
  for (std::size_t t = 0; t < calls.size(); ++t) {
    const std::size_t bins = t < 2 ? 500 << (2 * t) : std::size_t(1) << 20, n = 30011 + 1000 * t;
    for (std::size_t i = 0; i < n; ++i) {
      calls[t].idx.push_back(cl_uint(t == 2 ? i * bins / n : t == 3 ? i * 7919 % 97 * 1000 : i * 7919 % bins));
      const double special = i % 1009 == 5 ? NAN : i % 1013 == 7 ? INFINITY : 0.0;
      calls[t].values.push_back(float(special != 0.0 ? special : std::ldexp(double(i % 1013) - 506, int(i % 29) - 14)));
    }
    calls[t].want.assign(bins, 0.5f);
    clatomics::scatter_reduce(rt, calls[t].want, calls[t].idx, calls[t].values, clatomics::ScatterOp::sum, deterministic);
  }
  StartGate gate;
  std::vector<ThreadResult> results(calls.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < calls.size(); ++t)
    threads.emplace_back([&, t] {
      try {
        gate.arrive_and_wait(int(calls.size()));
        for (int r = 0; r < 8; ++r) {
          std::vector<float> out(calls[t].want.size(), 0.5f);
          clatomics::scatter_reduce(rt, out, calls[t].idx, calls[t].values, clatomics::ScatterOp::sum, deterministic);
          results[t].expect(std::memcmp(out.data(), calls[t].want.data(), out.size() * sizeof(float)) == 0,
                            "round " + std::to_string(r) + ": not the bits of the call alone");
        }
      } catch (const std::exception& e) {
        results[t].errors.push_back(std::string("exception: ") + e.what());
      }
    });
  for (auto& thread : threads) thread.join();
  check(results);
}

TEST_CASE("8 threads each make a Runtime at once: one device probe, the same answers") {
  auto options = clatomics::Options::from_env();
  options.hide_fp64 = !options.hide_fp64;  // options no earlier runtime used: a probe not yet cached
  StartGate gate;
  std::vector<const clatomics::DeviceInfo*> infos(thread_count, nullptr);
  std::vector<ThreadResult> results(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t)
    threads.emplace_back([&, t] {
      try {
        gate.arrive_and_wait(thread_count);
        const clatomics::Runtime rt(options);
        infos[std::size_t(t)] = &rt.device_info();
        run_counting(rt, rt.build(counting), 1.0f, results[std::size_t(t)]);
      } catch (const std::exception& e) {
        results[std::size_t(t)].errors.push_back(std::string("exception: ") + e.what());
      }
    });
  for (auto& thread : threads) thread.join();
  check(results);
  // device_info is cached per device and options: every runtime got the same one.
  CHECK(std::set<const clatomics::DeviceInfo*>(infos.begin(), infos.end()).size() == 1);
}

TEST_CASE("a Runtime asks for programs while another's kernels of the same programs run: every result exact") {
  // PoCL before 7.0 aborts the process when a program's binaries are asked for while a kernel of
  // an equal program compiled for a fixed work-group size (the deterministic reduce's tiles) runs
  // (src/core/binary_cache.hpp says how), once PoCL has pushed that kernel's entry of an earlier
  // query out of its 128 loaded kernels. A fresh Runtime gets the tiles' program again here.
  const auto options = clatomics::Options::from_env();
  clatomics::Runtime busy(options);
  constexpr std::size_t n = std::size_t(1) << 22;
  const cl::Buffer ones = test::to_device(busy, std::vector<float>(n, 1.0f));
  const clatomics::ReduceOptions tree{/*deterministic=*/true};
  std::atomic<bool> stop{false};
  std::vector<float> sums;
  std::string error;
  std::thread runner([&] {
    try {
      while (!stop) sums.push_back(clatomics::reduce(busy, clatomics::view<float>(ones), clatomics::ReduceOp::sum, tree));
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  std::string main_error;  // the runner is joined whatever happens here
  try {
    for (int round = 0; round < 3; ++round) {
      // A program of 160 kernels, asked for its binaries: PoCL makes room for them by unloading
      // kernels no launch holds, the tile kernels' entries of earlier queries among them.
      std::string source = "// round " + std::to_string(round) + "\n";
      for (int k = 0; k < 160; ++k) source += "kernel void k" + std::to_string(k) + "(global int* x) { x[0] = " + std::to_string(k) + "; }\n";
      cl::Program crowd(busy.context(), source);
      crowd.build("");  // CLHPP's build on construction asks for -cl-std=CL2.0, which PoCL 5 refuses
      CHECK(crowd.getInfo<CL_PROGRAM_BINARY_SIZES>().size() == 1);
      clatomics::Runtime fresh(options);  // its own program cache: gets the tile kernels' program again
      const cl::Buffer own = test::to_device(fresh, std::vector<float>(n, 1.0f));
      CHECK(clatomics::reduce(fresh, clatomics::view<float>(own), clatomics::ReduceOp::sum, tree) == float(n));
    }
  } catch (const cl::BuildError& e) {
    main_error = std::string(e.what()) + ": " + std::to_string(e.err());
    for (const auto& built : e.getBuildLog()) main_error += "\n" + built.second;
  } catch (const cl::Error& e) {
    main_error = std::string(e.what()) + ": " + std::to_string(e.err());
  } catch (const std::exception& e) {
    main_error = e.what();
  }
  stop = true;
  runner.join();
  CHECK(main_error == "");
  CHECK(error == "");
  CHECK(!sums.empty());
  CHECK(std::count(sums.begin(), sums.end(), float(n)) == std::ptrdiff_t(sums.size()));
}

TEST_CASE("Runtimes alive at once launch one kernel at different widths: every result exact") {
  // PoCL before 7.0 aborts when contexts launch a kernel of equal programs at different grid
  // widths at once (src/core/pocl_instances.hpp): each thread's Runtime builds the same source
  // and launches it at widths that change every round, beside a deterministic reduce of a width
  // that changes too (the library's own kernels).
  const auto options = clatomics::Options::from_env();
  constexpr int threads_at_once = 4, launches = 200;
  constexpr std::size_t group = 64, widest = group * 1024;
  const std::string source = "kernel void add_one(global float *x) { x[get_global_id(0)] += 1.0f; }\n";
  std::vector<std::string> errors(threads_at_once);
  std::vector<std::thread> threads;
  for (int t = 0; t < threads_at_once; ++t)
    threads.emplace_back([&, t] {
      try {
        clatomics::Runtime rt(options);
        cl::Kernel add_one = clatomics::Runtime::kernel(rt.build(source), "add_one");
        std::vector<float> expected(widest, 0.0f);
        const cl::Buffer x = test::to_device(rt, expected);
        const cl::Buffer ones = test::to_device(rt, std::vector<float>(widest, 1.0f));
        add_one.setArg(0, x);
        const clatomics::ReduceOptions tree{/*deterministic=*/true};
        cl::CommandQueue queue = rt.queue();
        for (int r = 0; r < launches; ++r) {
          const std::size_t width = group * (1 + std::size_t(r * 7 + t * 3) % 1024);
          queue.enqueueNDRangeKernel(add_one, cl::NullRange, cl::NDRange(width), cl::NDRange(group));
          for (std::size_t i = 0; i < width; ++i) expected[i] += 1.0f;
          if (r % 20 == 0) {
            const std::size_t n = width / 2 + std::size_t(r);
            const float sum = clatomics::reduce(rt, clatomics::view<float>(ones, 0, n), clatomics::ReduceOp::sum, tree);
            if (sum != float(n)) errors[std::size_t(t)] += "reduce of " + std::to_string(n) + " gave " + std::to_string(sum) + "; ";
          }
        }
        std::vector<float> got(widest);
        queue.enqueueReadBuffer(x, CL_TRUE, 0, widest * sizeof(float), got.data());
        if (got != expected) errors[std::size_t(t)] += "add_one's counts differ; ";
      } catch (const std::exception& e) {
        errors[std::size_t(t)] += std::string("exception: ") + e.what();
      }
    });
  for (auto& thread : threads) thread.join();
  for (const std::string& e : errors) CHECK(e == "");
}

TEST_CASE("a PoCL instance number: the lowest no live Runtime holds; the option only past 0") {
  using clatomics::detail::pocl_major;
  CHECK(pocl_major("OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts, RELOC, LLVM 16.0.6, SLEEF, DISTRO, POCL_DEBUG") == 5);
  CHECK(pocl_major("OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, LLVM 15.0.6, SLEEF, DISTRO, POCL_DEBUG") == 3);
  CHECK(pocl_major("OpenCL 3.0 PoCL 6.0  Linux, Release, RELOC, LLVM 18.1.8") == 6);
  CHECK(pocl_major("OpenCL 3.0 CUDA 13.0.88") == 0);
  const clatomics::detail::PoclInstance none(false);
  CHECK_FALSE(none.held());
  CHECK(none.build_option().empty());
  const clatomics::detail::PoclInstance first(true);
  int second_number = -1;
  {
    const clatomics::detail::PoclInstance second(true);
    second_number = second.number();
    CHECK(second.held());
    CHECK(second_number > first.number());
    CHECK(second.build_option() == " -DCLAT_POCL_INSTANCE=" + std::to_string(second_number));
  }
  const clatomics::detail::PoclInstance third(true);
  CHECK(third.number() == second_number);  // given back, then taken again
  CHECK(first.build_option().empty() == (first.number() == 0));
}
