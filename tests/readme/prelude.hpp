// The names README.md's C++ fragments use without declaring them: what a reader takes them to be
// from the prose around them. check_snippets.py includes this before each fragment and compiles
// the fragment as a function body; a fragment's own declarations hide these. A fragment that
// means a name as another type says so in its marker (<!-- snippet: given TYPE NAME; -->).
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <clatomics/clatomics.hpp>

namespace readme {
extern clatomics::Runtime rt;
extern cl::Context ctx;
extern cl::Device dev;
extern cl::CommandQueue queue;
extern std::string user_source, text;  // OpenCL C source
extern std::size_t n, nbins, M;        // element and bin counts
// Device buffers.
extern cl::Buffer buf, a, b, xs, ws, in, out, idx, val, ibuf, vbuf;
// Host data.
extern std::vector<float> vec, x, y, v, q, signal, variance, norm, count, best, sums, host_vector, values;
extern std::vector<double> xd;
extern std::vector<std::uint8_t> bytes;
extern std::vector<cl_uint> keys, u, indices, sorted_keys;
extern std::vector<cl_ulong> csr_offsets;
// A rank's slice [first, last) of the data (the MPI fragment).
std::vector<float> load(std::size_t first, std::size_t last);
}  // namespace readme
