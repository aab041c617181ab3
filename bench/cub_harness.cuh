// What bench/cub_yardsticks.cu stands on: the suite's data made on the device (its generator and
// seeds), the timing of device work as the suite times it, and the small functors CUB's calls take.
#pragma once

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

void fail(const std::string& what) {
  std::fprintf(stderr, "cub_yardsticks: %s\n", what.c_str());
  std::exit(1);
}

void check_cuda(cudaError_t e, const char* call, int line) {
  if (e != cudaSuccess) fail(std::string(call) + " (line " + std::to_string(line) + "): " + cudaGetErrorString(e));
}
#define CUDA_CHECK(call) check_cuda((call), #call, __LINE__)

// ---- The suite's data: bench_algorithms.cpp's fill_random(seed) is splitmix64 with the state
// advanced once per 8 bytes, so word k is a function of (seed, k) alone and a GPU thread can make
// any word of it. The host makes the same values for the checks.

__host__ __device__ inline std::uint64_t random_word(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The i-th 32-bit word and byte of those bytes (little-endian, as the suite's memcpy lays them).
__host__ __device__ inline std::uint32_t random_u32(std::uint64_t seed, std::uint64_t i) {
  const std::uint64_t w = random_word(seed, i / 2);
  return std::uint32_t((i & 1) ? w >> 32 : w);
}

__host__ __device__ inline unsigned char random_byte(std::uint64_t seed, std::uint64_t i) {
  return static_cast<unsigned char>(random_word(seed, i / 8) >> (8 * (i % 8)));
}

// The suite's random_floats: lo + (hi - lo) * float(bits >> 8) / 2^24, rounded step by step on
// the device too (no fused multiply-add), so that host and device make the same floats.
__host__ __device__ inline float uniform_float(std::uint64_t seed, std::uint64_t i, float lo, float hi) {
  const float m = float(random_u32(seed, i) >> 8);
#ifdef __CUDA_ARCH__
  return __fadd_rn(lo, __fmul_rn(__fmul_rn(hi - lo, m), 1.0f / 16777216.0f));
#else
  return lo + (hi - lo) * m * (1.0f / 16777216.0f);
#endif
}

template <class T>
__global__ void fill_uniform(T* out, std::size_t n, std::uint64_t seed, float lo, float hi) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = T(uniform_float(seed, i, lo, hi));
}

__global__ void fill_bits(std::uint32_t* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = random_u32(seed, i);
}

__global__ void fill_bytes(unsigned char* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = random_byte(seed, i);
}

// The suite's yardstick, timed here too so that figures of two jobs can be put side by side:
// every 16 bytes read once, nothing written (the store never happens, but the compiler cannot know).
__global__ void read_only_pass(const uint4* data, std::size_t n4, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4; i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u && n4 == 3) *sink = acc;
}

// A device allocation of n Ts (at least one byte), freed with its owner.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) { CUDA_CHECK(cudaMalloc(&data_, std::max<std::size_t>(1, n * sizeof(T)))); }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::size_t size() const { return n_; }
  std::vector<T> to_host() const {
    std::vector<T> host(n_);
    CUDA_CHECK(cudaMemcpy(host.data(), data_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t n_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs and times device work: grid sizes that fill the device, and each timed call after an
// untimed read-only pass, as the suite does (a GPU idle before a call starts it on lower clocks).
class Device {
 public:
  Device(int warmup, int repeats) : warmup_(warmup), repeats_(repeats) {
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    name_ = prop.name;
    blocks_ = prop.multiProcessorCount * std::max(1, prop.maxThreadsPerMultiProcessor / threads);
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~Device() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  const std::string& name() const { return name_; }

  template <class T>
  void uniform(const DeviceArray<T>& out, std::uint64_t seed, float lo, float hi) {
    fill_uniform<<<blocks_, threads>>>(out.get(), out.size(), seed, lo, hi);
    CUDA_CHECK(cudaGetLastError());
  }
  void bits(const DeviceArray<std::uint32_t>& out, std::uint64_t seed) {
    fill_bits<<<blocks_, threads>>>(out.get(), out.size(), seed);
    CUDA_CHECK(cudaGetLastError());
  }
  void bytes(const DeviceArray<unsigned char>& out, std::uint64_t seed) {
    fill_bytes<<<blocks_, threads>>>(out.get(), out.size(), seed);
    CUDA_CHECK(cudaGetLastError());
  }

  // Milliseconds of the device work f enqueues (on the default stream, as every call here).
  template <class F>
  double ms(F&& f) {
    CUDA_CHECK(cudaEventRecord(start_));
    f();
    CUDA_CHECK(cudaEventRecord(stop_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start_, stop_));
    return t;
  }

  double read_only_ms(const void* data, std::size_t bytes) {
    return ms([&] {
      read_only_pass<<<blocks_, threads>>>(static_cast<const uint4*>(data), bytes / 16, sink_.get());
      CUDA_CHECK(cudaGetLastError());
    });
  }

  // GB/s of `bytes` for once_ms (one call's milliseconds): the median of the timed runs after the
  // warm-up ones, each after a read-only pass over the call's input.
  double gbps(std::size_t bytes, const void* input, std::size_t input_bytes, const std::function<double()>& once_ms) {
    std::vector<double> times;
    for (int i = -warmup_; i < repeats_; ++i) {
      read_only_ms(input, input_bytes);
      const double t = once_ms();
      if (i >= 0) times.push_back(t);
    }
    return double(bytes) / (median(times) * 1e6);
  }

  // The same for a call whose device time is all of what it enqueues.
  template <class Call>
  double call_gbps(std::size_t bytes, const void* input, Call&& call) {
    return gbps(bytes, input, bytes, [&] { return ms(call); });
  }

  double read_only_gbps(const void* data, std::size_t bytes) {
    return gbps(bytes, data, bytes, [&] { return read_only_ms(data, bytes); });
  }

 private:
  static constexpr int threads = 256;
  int warmup_, repeats_, blocks_ = 0;
  std::string name_;
  cudaEvent_t start_{}, stop_{};
  DeviceArray<unsigned> sink_{1};
};

// Temporary storage of a CUB call: its size asked once (d_temp_storage null), then kept, as a
// user who calls it repeatedly keeps it.
class Temp {
 public:
  template <class F>
  explicit Temp(F&& size_query) {
    CUDA_CHECK(size_query(bytes_));
    storage_ = std::make_unique<DeviceArray<unsigned char>>(bytes_);
  }
  void* get() const { return storage_->get(); }
  std::size_t& bytes() { return bytes_; }

 private:
  std::size_t bytes_ = 0;
  std::unique_ptr<DeviceArray<unsigned char>> storage_;
};

// Host sums over [0, n) of f(i), for the checks.
template <class T, class F>
T host_sum(std::size_t n, F f) {
  T s = 0;
  for (std::size_t i = 0; i < n; ++i) s += f(i);
  return s;
}

void note(const std::string& what) { std::fprintf(stderr, "[cub_yardsticks] %s\n", what.c_str()); }

void require(bool ok, const std::string& what) {
  if (!ok) fail(what + ": CUB's result differs from the host's");
}

// ---- What CUB's calls take beyond pointers.

struct Product {  // a[i] * b[i], for the dot product as a sum
  const float* a;
  const float* b;
  __host__ __device__ float operator()(int i) const { return a[i] * b[i]; }
};

// The suite's 2-D bins: x and y in [0, 1] (1 in the last bin), 100 x 100; -1 outside, which
// HistogramEven over [0, 10000) drops.
struct Bin2D {
  const float* x;
  const float* y;
  __host__ __device__ int operator()(int i) const {
    const float u = x[i], v = y[i];
    if (!(u >= 0.0f && u <= 1.0f && v >= 0.0f && v <= 1.0f)) return -1;
    const int bx = int(u * 100.0f), by = int(v * 100.0f);
    return (bx < 99 ? bx : 99) * 100 + (by < 99 ? by : 99);
  }
};

struct MinMax {
  float lo, hi;
};

struct ToMinMax {
  __host__ __device__ MinMax operator()(float v) const { return {v, v}; }
};

struct MergeMinMax {
  __host__ __device__ MinMax operator()(const MinMax& a, const MinMax& b) const { return {fminf(a.lo, b.lo), fmaxf(a.hi, b.hi)}; }
};

struct AboveHalf {
  __host__ __device__ bool operator()(const float& v) const { return v > 0.5f; }
};

}  // namespace
