#include "clatomics/atomics.cl"
/* kernels/scatter_checks.cl — what scatter-reduce runs around its accumulation, built with the
 * types' options only (kernels/scatter_types.cl), so that every op of a type shares one program:
 * the checks of the indices and segment offsets, the sample of the indices and the largest
 * exponent of the values, the fill of arg, and a 16-bit output's widening and narrowing.
 */
#include "kernels/algo_common.cl"
#include "kernels/scatter_types.cl"

#ifndef CLATOMICS_KERNELS_SCATTER_CHECKS_CL
#define CLATOMICS_KERNELS_SCATTER_CHECKS_CL

/* The largest biased double exponent of the finite values (the fixed point's scale) into *top:
 * of rows first + j * stride, j < n (stride 1: all of them; else the host's sample). */
__kernel void clat_scatter_top(__global const CLAT_SC_IN *val, ulong val_off, ulong first, ulong n, ulong stride, uint width,
                               ulong vstride, __global uint *top) {
  uint mine = 0u;
  const clat_share j_share = clat_item_share(n * width);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step) {
    const ulong i = j / width;
    const CLAT_SC_T v = CLAT_SC_LOAD(val + val_off, (first + i * stride) * vstride + (j - i * width));
#if CLAT_SC_REAL && defined(CLAT_HAS_DOUBLE)
    if (isfinite(v)) mine = max(mine, (uint)((as_ulong((double)v) >> 52) & 0x7fful));
#endif
  }
  if (mine) atomic_max(top, mine);
}

/* ulong positions [0, n) set to value (arg's "no element"). */
__kernel void clat_scatter_fill_ulong(__global ulong *p, ulong off, ulong n, ulong value) {
  const clat_share j_share = clat_item_share(n);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step) p[off + j] = value;
}

/* Indices >= nbins among positions [first, first + n), n < 2^32, counted into oor[0], the
 * lowest such position (from first) into oor[1] (OutOfRange::refuse; the host quotes it). */
__kernel void clat_scatter_check_indices(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong first, ulong n, ulong nbins,
                                         __global uint *oor) {
  uint mine = 0u, lowest = 0xffffffffu;
  const clat_share j_share = clat_item_share(n);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step)
    if ((ulong)idx[idx_off + first + j] >= nbins) {
      if (!mine) lowest = (uint)j;
      ++mine;
    }
  if (mine) {
    atomic_add(oor, mine);
    atomic_min(oor + 1, lowest);
  }
}

/* Segment offsets that decrease, or pass count: *bad = the lowest such entry k (offs[k] > count
 * or offs[k] > offs[k + 1]), capped at 2^32 - 2; 2^32 - 1 when none. */
__kernel void clat_scatter_check_offsets(__global const CLAT_SC_IDX *offs, ulong off, ulong nentries, ulong count,
                                         __global uint *bad) {
  const clat_share k_share = clat_item_share(nentries);
  for (ulong k = k_share.begin; k < k_share.end; k += k_share.step) {
    const ulong o = offs[off + k];
    if (o > count || (k + 1 < nentries && o > (ulong)offs[off + k + 1])) atomic_min(bad, (uint)min(k, 0xfffffffeul));
  }
}

/* nsample indices at evenly spaced positions, for the host's choice of strategy. */
__kernel void clat_scatter_sample(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong n, __global ulong *sample, uint nsample) {
  const uint j = get_global_id(0);
  if (j < nsample) sample[j] = idx[idx_off + (ulong)j * n / nsample];
}

#if CLAT_SC_STORED16
/* A 16-bit output (half, bfloat16 values into out of their own type): the call accumulates into
 * float scratch `wide` (rows of width, contiguous) and rounds each slot into out once at the end,
 * to nearest even (clatomics/half.cl, bfloat16.cl: NaN stays NaN, overflow gives inf). out's rows
 * are bins rows of width at off + b * stride. */
#define CLAT_SC_WIDEN16 CLAT_CAT(CLAT_CAT(clat_, CLAT_SC_FLOAT16), _to_float)
#define CLAT_SC_NARROW16 CLAT_CAT(clat_float_to_, CLAT_SC_FLOAT16)

/* Exact: out's own values take part (include_self) as they are. */
__kernel void clat_scatter_widen16(__global const ushort *out, ulong off, ulong stride, uint width, ulong bins, __global float *wide) {
  const clat_share j_share = clat_item_share(bins * width);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step) {
    const ulong b = j / width;
    wide[j] = CLAT_SC_WIDEN16(out[off + b * stride + (j - b * width)]);
  }
}

/* A slot whose float is still the widened old value keeps its bits: a bin that no value reached
 * keeps a signalling NaN's bits too, which rounding would quiet. */
__kernel void clat_scatter_narrow16(__global ushort *out, ulong off, ulong stride, uint width, ulong bins, __global const float *wide) {
  const clat_share j_share = clat_item_share(bins * width);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step) {
    const ulong b = j / width, at = off + b * stride + (j - b * width);
    const float f = wide[j];
    if (as_uint(f) != as_uint(CLAT_SC_WIDEN16(out[at]))) out[at] = CLAT_SC_NARROW16(f);
  }
}
#endif

#endif /* CLATOMICS_KERNELS_SCATTER_CHECKS_CL */
