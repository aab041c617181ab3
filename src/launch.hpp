// What the algorithms share on the host: argument checks, launch shapes, enqueueing with
// profiling, and streaming host data larger than one device buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "clatomics/error.hpp"
#include "clatomics/opencl.hpp"
#include "clatomics/runtime.hpp"

namespace clatomics::detail {

// The size of a buffer in bytes (CL_MEM_SIZE).
std::size_t buffer_bytes(const cl::Buffer& buffer);

// Throws std::invalid_argument naming `what` when buffer is null, belongs to another context than
// rt's, when offset + count overflows, or when elements [offset, offset + count) of element_size
// bytes lie beyond the buffer.
void check_range(const Runtime& rt, const char* what, const cl::Buffer& buffer, std::size_t offset, std::size_t count, std::size_t element_size);

// Largest power of two <= n (n >= 1).
std::size_t floor_pow2(std::size_t n);

// A 1-D launch: groups work-groups of group work-items (a power of two).
struct Grid {
  std::size_t group = 1, groups = 1;
  std::size_t items() const { return group * groups; }
};

// group: the wanted work-group size, capped by the device and the kernel, rounded down to a
// power of two. groups: enough to cover `units` with one unit per work-item, at most max_groups.
Grid make_grid(const Runtime& rt, const cl::Kernel& kernel, std::uint64_t units, std::size_t group, std::size_t max_groups);

cl::Kernel make_kernel(const cl::Program& program, const std::string& name);

// Enqueues a 1-D kernel on rt's queue (recorded by an active ProfileScope).
void launch(const Runtime& rt, const cl::Kernel& kernel, const Grid& grid);

// A device buffer of `bytes` (at least 1); copy_from, when given, is copied in at creation.
cl::Buffer make_buffer(const Runtime& rt, std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE, const void* copy_from = nullptr);

// Blocking copies between a buffer and host memory (recorded by an active ProfileScope).
void write(const Runtime& rt, const cl::Buffer& buffer, std::size_t offset_bytes, std::size_t bytes, const void* host);
void read(const Runtime& rt, const cl::Buffer& buffer, std::size_t offset_bytes, std::size_t bytes, void* host);
void fill_zero(const Runtime& rt, const cl::Buffer& buffer, std::size_t bytes);

// How many elements of element_size one device buffer may hold when streaming host data:
// everything when the device allows it in one buffer, else chunks below
// CL_DEVICE_MAX_MEM_ALLOC_SIZE (at most 256 MiB each). `buffers`: how many such buffers the
// caller holds at once. A multiple of 64 elements. Tests may lower it (stream_limits).
std::size_t chunk_elements(const Runtime& rt, std::size_t n, std::size_t element_size, std::size_t buffers = 1);

// Most elements one launch may count into 32-bit counters (below 2^32; tests may lower it).
std::uint64_t launch_elements();

// A -D build option.
std::string define(const char* name, long long value);

}  // namespace clatomics::detail
