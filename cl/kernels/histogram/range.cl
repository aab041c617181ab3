#include "clatomics/atomics.cl"
/* kernels/histogram/range.cl — the range of even-bin positions when the caller gives none: each
 * work-group's minimum and maximum, NaN left out, and how many NaN it saw (the host combines the
 * groups' and applies NumPy's rules).
 *
 * Build options (defaults in brackets):
 *   CLAT_POS            the positions' type: float or double [float]
 *   CLAT_HIST_VSLOTS    1: a contiguous share is read in whole vectors first (CPUs) [0]
 *   CLAT_CONTIGUOUS     see algo_common.cl [0]
 */
#include "kernels/algo_common.cl"
#include "kernels/histogram/positions.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_RANGE_CL
#define CLATOMICS_KERNELS_HISTOGRAM_RANGE_CL

#ifndef CLAT_HIST_VSLOTS
#define CLAT_HIST_VSLOTS 0
#endif

/* out[3 * item ..]: the item's minimum and maximum of in[offset, offset + count), NaN left out
 * (+inf and -inf when it saw no other value), then how many NaN it saw. */
__kernel void clat_hist_range(__global const CLAT_POS *in, ulong offset, ulong count, __global CLAT_POS *out,
                              __local CLAT_POS *found) {
  const clat_share share = clat_item_share(count);
  CLAT_POS least = INFINITY, most = -INFINITY, nans = 0;
  ulong i = share.begin;
#if CLAT_HIST_VSLOTS
  /* CPUs: a contiguous share, whole vectors first (fmin and fmax pass NaN over). */
  if (share.step == 1) {
    CLAT_POS_VEC least_v = (CLAT_POS_VEC)INFINITY, most_v = (CLAT_POS_VEC)(-INFINITY), nans_v = (CLAT_POS_VEC)0;
    for (; i + CLAT_POS_PER_VEC <= share.end; i += CLAT_POS_PER_VEC) {
      const CLAT_POS_VEC x = CLAT_CAT(vload, CLAT_POS_PER_VEC)(0, in + offset + i);
      least_v = fmin(least_v, x), most_v = fmax(most_v, x);
      nans_v += select((CLAT_POS_VEC)0, (CLAT_POS_VEC)1, isnan(x));
    }
#if CLAT_HIST_DOUBLE
    least = fmin(least_v.x, least_v.y), most = fmax(most_v.x, most_v.y), nans = nans_v.x + nans_v.y;
#else
    least = fmin(fmin(least_v.x, least_v.y), fmin(least_v.z, least_v.w));
    most = fmax(fmax(most_v.x, most_v.y), fmax(most_v.z, most_v.w));
    nans = (nans_v.x + nans_v.y) + (nans_v.z + nans_v.w);
#endif
  }
#endif
  /* Four loads in flight before their compares: one at a time left a GPU's memory idle (the
   * range pass at 0.71x a read-only pass on an H100). fmin and fmax pass NaN over. */
  for (; i + 3 * share.step < share.end; i += 4 * share.step) {
    const CLAT_POS x0 = in[offset + i], x1 = in[offset + i + share.step];
    const CLAT_POS x2 = in[offset + i + 2 * share.step], x3 = in[offset + i + 3 * share.step];
    least = fmin(least, fmin(fmin(x0, x1), fmin(x2, x3)));
    most = fmax(most, fmax(fmax(x0, x1), fmax(x2, x3)));
    nans += (CLAT_POS)((isnan(x0) != 0) + (isnan(x1) != 0) + (isnan(x2) != 0) + (isnan(x3) != 0));
  }
  for (; i < share.end; i += share.step) {
    const CLAT_POS x = in[offset + i];
    if (isnan(x)) nans += 1;
    else least = fmin(least, x), most = fmax(most, x);
  }
  /* One triple per work-group reaches the host: a few KiB to read back, not one per work-item. */
  const uint lid = get_local_id(0);
  found[3 * lid] = least, found[3 * lid + 1] = most, found[3 * lid + 2] = nans;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid != 0u) return;
  for (uint k = 1u; k < get_local_size(0); ++k)
    least = fmin(least, found[3 * k]), most = fmax(most, found[3 * k + 1]), nans += found[3 * k + 2];
  const size_t at = 3 * get_group_id(0);
  out[at] = least;
  out[at + 1] = most;
  out[at + 2] = nans;
}

#endif /* CLATOMICS_KERNELS_HISTOGRAM_RANGE_CL */
