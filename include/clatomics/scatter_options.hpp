// clatomics/scatter_options.hpp — the element types, ops, options and results the scatter_reduce
// family (scatter.hpp, segment_reduce.hpp, reduce_by_key.hpp) shares.
#pragma once

#include <cstddef>
#include <cstdint>

#include <CL/opencl.hpp>

namespace clatomics {

// 16-bit float values, stored as their bits; accumulated in float (see scatter_output_t for
// what is written).
struct half_t {
  cl_ushort bits;
};
struct bfloat16_t {
  cl_ushort bits;
};

// mean: the sum divided by the number of values (integers: rounded toward minus infinity, as
// PyTorch's scatter_reduce "mean").
enum class ScatterOp { sum, prod, min, max, mean };

// Every strategy first folds runs of equal consecutive indices in registers (what makes sorted
// indices and a single bin cheap); they differ in where a finished run goes.
enum class ScatterStrategy {
  automatic,       // from the bins, the device and a sample of the indices: see below
  global_atomics,  // one atomic on the output per run (warp-aggregated on NVIDIA)
  local_private,   // every work-group keeps copies of the whole output in __local memory and
                   // merges them with one atomic per slot: bins * width must fit
  local_cache,     // every work-group keeps the bins it meets first in a tagged __local table
                   // (hot bins stay there), the others go to the output by global atomics
};
// automatic: local_private when the bins fit in __local memory; else local_cache when a sample of
// 4096 indices shows hot bins (at least a fifth of the sample, and twice what spread indices
// would put there, on bins seen twice or more; the sample not sorted); else global_atomics.

enum class OutOfRange {
  count,   // an index >= bins is skipped and counted (ScatterResult::out_of_range)
  refuse,  // the indices are checked first: any index >= bins throws std::invalid_argument
           // before the output is touched (one more pass over the indices)
};

// NaN in floating-point min and max (float, double, half, bfloat16).
enum class NanRule {
  propagate,  // a NaN reaching a bin (a value, or out's own with include_self) makes it NaN, as
              // torch.scatter_reduce_ amax/amin and np.maximum.at / np.minimum.at
  missing,    // NaN is missing data: max(1, NaN) = 1, NaN only where every value is (np.fmax.at /
              // np.fmin.at, clat_atomic_min/max and reduce)
};

struct ScatterOptions {
  // true: out's own values take part (out = out op values...); false: each bin that receives a
  // value gets the reduction of its values alone, bins that receive none keep their values
  // (PyTorch's scatter_reduce include_self).
  bool include_self = true;
  // A hint: the indices never decrease. Results are correct either way.
  bool indices_are_sorted = false;
  // float/double/half/bfloat16 sum and mean: bit-identical results on every run and strategy.
  // The values of a call are summed in 128-bit fixed point scaled to its largest magnitude
  // (integer adds: their order does not matter), then rounded to the output type: the exact sum
  // rounded about once, for values within 2^44 (double) or 2^73 (float) of the largest one;
  // smaller ones are rounded to a step of the largest magnitude times 2^-100. With include_self,
  // out's own value joins that exact sum when it is no larger than the grid allows; a larger
  // one is added to the values' rounded sum (two roundings); a bin whose values add to exactly
  // 0 (or that none reached) keeps a nonzero own value. A sum of exactly 0 is +0 (the
  // fast mode gives -0 where every addend was -0). With include_self every bin is written, those
  // no value reached too: an own -0 comes back +0 and a signalling NaN quiet (the fast mode
  // leaves such bins untouched). NaN and infinities
  // give what IEEE sums give (NaN, or the infinity). Integer ops and min/max are deterministic in
  // every mode; prod of floating-point values has no deterministic mode (std::invalid_argument).
  // Needs cl_khr_fp64 and 64-bit atomics.
  bool deterministic = false;
  OutOfRange out_of_range = OutOfRange::count;
  ScatterStrategy strategy = ScatterStrategy::automatic;
  // min/max of floating-point values (every entry point: scatter_reduce, scatter_reduce_arg,
  // segment_reduce, reduce_by_key, the DeviceGroup form; deterministic or not: min/max are exact
  // either way). -0 orders below +0 under both rules. A NaN result is written as the positive
  // quiet NaN (0x7fc00000 float, 0x7ff8000000000000 double: std::numeric_limits' quiet_NaN on
  // common hosts); a bin no value reaches keeps out's value, its NaN's bits included.
  NanRule nan = NanRule::propagate;
};

// "automatic", "global_atomics", "local_private", "local_cache"; std::invalid_argument for a
// value outside the enum.
const char* strategy_name(ScatterStrategy strategy);

struct ScatterResult {
  std::uint64_t out_of_range = 0;  // elements skipped for an index >= bins
  ScatterStrategy strategy = ScatterStrategy::automatic;  // the strategy that ran
};

// Row layout: element i holds `width` values at values[i * value_stride + d], d < width, and
// bin b is out[b * out_stride + d]. Strides 0 mean width (contiguous rows). A plain number is a
// width: scatter_reduce(rt, out, indices, values, op, {}, 4) reduces rows of 4.
struct Rows {
  std::size_t width = 1;
  std::size_t value_stride = 0;
  std::size_t out_stride = 0;
  Rows(std::size_t width = 1, std::size_t value_stride = 0, std::size_t out_stride = 0)  // NOLINT: a width converts
      : width(width), value_stride(value_stride), out_stride(out_stride) {}
};

// The output element type for values of type V: V itself. half_t and bfloat16_t values are
// accumulated in float; a 16-bit output (the default, as a half tensor's scatter_reduce_ gives
// half in PyTorch) holds each result rounded once to the 16-bit type at the end (round to
// nearest even, NaN stays NaN, half overflows to inf). A float output is the second choice for
// 16-bit values: the float accumulation written as it is, unrounded (views: View<float> out;
// host vectors: std::vector<float> out; reduce_by_key's host form: O = float). Either way out's
// own values (include_self) enter exactly, as widening a 16-bit value to float is exact.
// Deterministic sums and means into a 16-bit output round twice (ScatterOptions::deterministic's
// result in float, then that float to 16 bits): still the same bits on every run and strategy.
template <class V>
using scatter_output_t = V;

// The scatter family's instantiations, declared `extern template` by its headers and made by the
// library's sources from the same macros (EXTERN: `extern` or nothing): X(V, I) for each value
// type V and index, offset or key type I; X(O) for each type its partial results hold.
#define CLATOMICS_FOR_SCATTER_VALUE(X, V) X(V, cl_uint) X(V, cl_ulong)
#define CLATOMICS_FOR_SCATTER_TYPES(X)                                                                              \
  CLATOMICS_FOR_SCATTER_VALUE(X, float) CLATOMICS_FOR_SCATTER_VALUE(X, double) CLATOMICS_FOR_SCATTER_VALUE(X, cl_int) \
  CLATOMICS_FOR_SCATTER_VALUE(X, cl_uint) CLATOMICS_FOR_SCATTER_VALUE(X, cl_long) CLATOMICS_FOR_SCATTER_VALUE(X, cl_ulong) \
  CLATOMICS_FOR_SCATTER_VALUE(X, half_t) CLATOMICS_FOR_SCATTER_VALUE(X, bfloat16_t)
#define CLATOMICS_FOR_SCATTER_OUTPUTS(X) X(float) X(double) X(cl_int) X(cl_uint) X(cl_long) X(cl_ulong)

}  // namespace clatomics
