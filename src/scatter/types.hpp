// Scatter's element types and ops as its kernels name them (kernels/scatter_types.cl,
// kernels/scatter.cl), and the refusal every scatter check throws.
#pragma once

#include <cstddef>
#include <string>

#include "clatomics/scatter.hpp"

namespace clatomics::detail {

struct ScatterTypeInfo {
  const char* in_name;   // CLAT_SC_IN: a stored value's OpenCL C type
  const char* out_name;  // CLAT_SC_T: the type values are accumulated and written in
  const char* float16;   // CLAT_SC_FLOAT16: the 16-bit float format of the stored bits, or null
  std::size_t in_size;   // bytes of a stored value
  std::size_t out_size;  // bytes of an output element
  bool real;             // floating point
  bool wide;             // 64-bit integers
};
ScatterTypeInfo scatter_type_info(ScatterType type);

// The types' build options and the small kernels' loop (CLAT_CONTIGUOUS): all that
// kernels/scatter_checks.cl takes.
std::string scatter_type_options(const ScatterTypeInfo& info, bool index64, bool contiguous);
// CLAT_SC_IDX alone: the indices', offsets' or keys' type.
std::string scatter_index_option(bool index64);

// The kernel's op, as kernels/scatter.cl names it (mean is a sum with counts), or a refusal for a
// value outside ScatterOp.
const char* scatter_op_macro(const char* what, ScatterOp op);

// Where kernels/scatter.cl hands its finished runs on, for a chosen (not automatic) strategy.
const char* scatter_mode_macro(ScatterStrategy strategy);

[[noreturn]] void scatter_refuse(const char* what, const std::string& why);
// The same for indices beyond the bins (OutOfRange::refuse): IndexOutOfRange.
[[noreturn]] void scatter_refuse_index(const char* what, const std::string& why);

// The strategy a call that runs no accumulation reports: the one asked for, or global_atomics.
inline ScatterStrategy scatter_asked_strategy(const ScatterOptions& options) {
  return options.strategy == ScatterStrategy::automatic ? ScatterStrategy::global_atomics : options.strategy;
}

// What a call with nothing to accumulate gives (no bins, rows of width 0, or no indices): rows of
// width 0 carry no value (torch: an index tensor of no elements) and segments count nothing out
// of range; with no bins every one of count indices is out of range, counted, or refused
// (std::invalid_argument naming what) with OutOfRange::refuse.
ScatterResult scatter_without_bins(const char* what, const ScatterOptions& options, std::size_t width, bool segments, std::size_t count);

bool scatter_sixteen_bits(ScatterType type);

// Bytes of an output element: the values' own 16 bits (ScatterCall::out16), else what the type's
// accumulation writes.
std::size_t scatter_out_bytes(const char* what, ScatterType type, bool out16);

// The entry point a call came through, as its refusals name it.
inline const char* scatter_what(const ScatterCall& call) {
  return call.segments ? "segment_reduce" : call.with_arg ? "scatter_reduce_arg" : "scatter_reduce";
}

// Host data goes to the device whole (the output must stay there while every value reaches it):
// each array within one device buffer, or a clear refusal before anything is allocated.
void scatter_check_fits(const Runtime& rt, const char* what, const char* name, std::size_t elements, std::size_t element_size);

}  // namespace clatomics::detail
