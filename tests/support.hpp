// Shared by the test suites: one Runtime per process, test kernel sources, buffer helpers.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "clatomics/clatomics.hpp"
#include "core/cl_types.hpp"
#include "core/testing.hpp"
#include "float_bits.hpp"

namespace test {

// The kernels of tests/cl, embedded at build time (cmake/Embed.cmake).
const std::string_view* embedded_file(std::string_view path);

// The process's runtime, from the environment (CLATOMICS_DEVICE, CLATOMICS_FORCE_CAS, ...).
// Made on first use, never at static initialisation.
inline clatomics::Runtime& runtime() {
  static clatomics::Runtime rt;
  return rt;
}

// A file of tests/cl/.
inline std::string test_source(const std::string& name) {
  const std::string_view* text = embedded_file(name);
  if (!text) throw std::runtime_error("no test kernel file " + name);
  return std::string(*text);
}

// Files of tests/cl/, one after another: a kernel file after the helpers it uses.
inline std::string test_sources(std::initializer_list<std::string> names) {
  std::string text;
  for (const auto& name : names) text += test_source(name) + "\n";
  return text;
}

template <class T>
cl::Buffer to_device(const clatomics::Runtime& rt, const std::vector<T>& host) {
  return cl::Buffer(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, std::max<std::size_t>(1, host.size()) * sizeof(T),
                    const_cast<T*>(host.data()));
}

template <class T>
std::vector<T> to_host(const clatomics::Runtime& rt, const cl::Buffer& buffer, std::size_t n) {
  std::vector<T> host(n);
  if (n) rt.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, n * sizeof(T), host.data());
  return host;
}

// Sets a kernel's arguments 0, 1, ... to args; returns the next index, for arguments that only
// some launches pass.
template <class... Args>
cl_uint set_args(cl::Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (kernel.setArg(index++, args), ...);
  return index;
}

// Runs a one-work-item kernel that writes n ints into its only argument, and returns them.
inline std::vector<cl_int> run_probe(const cl::Program& program, const char* kernel_name, std::size_t n) {
  auto& rt = runtime();
  cl::Kernel kernel(program, kernel_name);
  cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, n * sizeof(cl_int));
  kernel.setArg(0, out);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  return to_host<cl_int>(rt, out, n);
}

// The min/max every path of the library computes (cl/clatomics/order.cl): NaN is missing data,
// -0.0 orders below +0.0.
template <class T>
T ref_min(T a, T b) {
  if (std::isnan(b)) return a;
  if (std::isnan(a)) return b;
  if (a == b) return std::signbit(a) ? a : b;
  return b < a ? b : a;
}
template <class T>
T ref_max(T a, T b) {
  if (std::isnan(b)) return a;
  if (std::isnan(a)) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return b > a ? b : a;
}

// The even-bin rule of histogram_even (NumPy's), computed another way on the host: the float32
// edges of np.linspace(lo, hi, nbins + 1) computed in double, then the last edge <= x by binary
// search. even_slot: the bin, or nbins for x < lo, nbins + 1 for x > hi, nbins + 2 for NaN.
inline std::vector<float> numpy_edges(std::size_t nbins, float lo, float hi) {
  std::vector<float> e(nbins + 1);
  const double step = (double(hi) - double(lo)) / double(nbins);
  for (std::size_t k = 0; k < nbins; ++k) e[k] = float(double(k) * step + double(lo));
  e[nbins] = hi;
  return e;
}
inline std::size_t even_slot(float x, const std::vector<float>& edges) {
  const std::size_t nbins = edges.size() - 1;
  if (std::isnan(x)) return nbins + 2;
  if (x < edges.front()) return nbins;
  if (x > edges.back()) return nbins + 1;
  const auto above = std::upper_bound(edges.begin(), edges.end() - 1, x);  // first edge > x, among the first nbins
  return std::size_t(above - edges.begin()) - 1;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One tuning value of a plan, or "" when the plan shows none by that name.
inline std::string tuning_value(const clatomics::Plan& plan, const std::string& name) {
  for (const auto& [key, value] : plan.tuning)
    if (key == name) return value;
  return "";
}

// Memory a test hands to OpenCL with CL_MEM_USE_HOST_PTR: 64-byte aligned, so base + a has
// exactly the alignment a asks for.
struct HostMemory {
  explicit HostMemory(std::size_t bytes) : bytes_(std::make_unique<unsigned char[]>(bytes + 128)) {
    base = bytes_.get() + (64 - reinterpret_cast<std::uintptr_t>(bytes_.get()) % 64) % 64;
  }
  unsigned char* base;

 private:
  std::unique_ptr<unsigned char[]> bytes_;
};

// Sets an environment variable for one scope (nullptr: unsets it), restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) had_ = true, old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

// The message of the exception f throws as E ("" and a failed check if it throws nothing).
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  FAIL("no exception thrown");
  return {};
}

// The OpenCL C name of a host type, as the library names it to its kernels.
using clatomics::detail::cl_type_name;

// True, and says so, where T is double and the device has no fp64: the caller skips.
template <class T>
bool skip_without_double() {
  if (!std::is_same_v<T, double> || runtime().supports_double()) return false;
  MESSAGE("double not supported on this device: skipped");
  return true;
}

// Small integers from -spread to spread as floats: sums, dots and weighted bins of them are exact
// in any order.
inline std::vector<float> small_floats(std::size_t n, unsigned seed, int spread) {
  std::mt19937 gen(seed);
  std::vector<float> v(n);
  for (auto& e : v) e = float(int(gen() % unsigned(2 * spread + 1)) - spread);
  return v;
}

// A fixed hash: "random" but reproducible operands and layouts.
inline std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// The work-group size the tests use: 256, or less where the device allows less.
inline std::size_t group_size() { return std::min<std::size_t>(256, runtime().device_info().caps.max_work_group_size); }

// An out-of-order queue on rt's device and context, or none (with a message) where the device
// offers none.
inline std::optional<cl::CommandQueue> out_of_order_queue(const clatomics::Runtime& rt) {
  if (!(rt.device().getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    MESSAGE("no out-of-order queues on " << rt.device_info().caps.device_name);
    return std::nullopt;
  }
  return cl::CommandQueue(rt.context(), rt.device(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

// The caller's own non-blocking writes on its queue, made just before a library call that must
// see them. Gated: the write also waits for a user event that another thread completes 10 ms
// later, so a call that did not wait for the caller's earlier commands would surely read the old
// data. The threads are joined (join, or on destruction) before the written host data goes.
class CallerWrites {
 public:
  CallerWrites(const cl::Context& context, const cl::CommandQueue& queue) : context_(context), queue_(queue) {}
  CallerWrites(const CallerWrites&) = delete;
  CallerWrites& operator=(const CallerWrites&) = delete;
  ~CallerWrites() { join(); }
  void write(const cl::Buffer& buffer, const void* host, std::size_t bytes, bool gated) {
    if (!gated) {
      queue_.enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes, host);
      return;
    }
    cl::UserEvent gate(context_);
    const std::vector<cl::Event> waits{gate};
    queue_.enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes, host, &waits);
    openers_.emplace_back([gate]() mutable {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      gate.setStatus(CL_COMPLETE);
    });
  }
  void join() {
    for (auto& t : openers_) t.join();
    openers_.clear();
  }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  std::vector<std::thread> openers_;
};

}  // namespace test
