// Shared by the test suites: one Runtime per process, test kernel sources, buffer helpers.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"

namespace test {

// The process's runtime, from the environment (CLATOMICS_DEVICE, CLATOMICS_FORCE_CAS, ...).
// Made on first use, never at static initialisation.
inline clatomics::Runtime& runtime() {
  static clatomics::Runtime rt;
  return rt;
}

// A file under tests/cl/.
// The directory is compiled in; CLATOMICS_TEST_CL_DIR overrides it (a build run elsewhere).
inline std::string test_source(const std::string& name) {
  const char* dir = std::getenv("CLATOMICS_TEST_CL_DIR");
  std::ifstream in(std::string(dir ? dir : CLATOMICS_TEST_CL_DIR) + "/" + name);
  if (!in) throw std::runtime_error("missing test kernel file " + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
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

template <class T>
auto bits(T value) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  U u;
  std::memcpy(&u, &value, sizeof u);
  return u;
}

template <class T>
T from_bits(std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t> u) {
  T value;
  std::memcpy(&value, &u, sizeof value);
  return value;
}

// The work-group size the tests use: 256, or less where the device allows less.
inline std::size_t group_size() { return std::min<std::size_t>(256, runtime().device_info().caps.max_work_group_size); }

}  // namespace test
