#include "clatomics/atomics.cl"
/* kernels/histogram/range.cl — the range of even-bin positions when the caller gives none: each
 * work-group's minimum and maximum, NaN left out, and how many NaN it saw (the host combines the
 * groups' and applies NumPy's rules).
 *
 * Build options (defaults in brackets):
 *   CLAT_POS            the positions' type: float or double [float]
 *   CLAT_CONTIGUOUS     see algo_common.cl [0]
 */
#include "kernels/algo_common.cl"
#include "kernels/histogram/positions.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_RANGE_CL
#define CLATOMICS_KERNELS_HISTOGRAM_RANGE_CL

/* One position x into a work-item's (least, most, nans): fmin and fmax pass NaN over. */
#define CLAT_RANGE_ADD(least, most, nans, x)    \
  do {                                          \
    const CLAT_POS x_ = (x);                    \
    least = fmin(least, x_), most = fmax(most, x_); \
    nans += isnan(x_) ? (CLAT_POS)1 : (CLAT_POS)0; \
  } while (0)

/* out[3 * group ..]: the work-group's minimum and maximum of in[offset, offset + count), NaN left
 * out (+inf and -inf when it saw no other value), then how many NaN it saw. As reduce.cl reads:
 * the elements before the first 16-byte boundary and after the last whole vector one at a time,
 * the rest as 16-byte vectors, two in flight (one scalar load at a time left a GPU's memory
 * idle). found: 3 values per work-item. */
__kernel void clat_hist_range(__global const CLAT_POS *in, ulong offset, ulong count, __global CLAT_POS *out,
                              __local CLAT_POS *found) {
  const __global CLAT_POS *p = in + offset;
  const ulong head = CLAT_HEAD(p, count, CLAT_POS_PER_VEC);
  const ulong nvec = (count - head) / CLAT_POS_PER_VEC;
  const __global CLAT_POS_VEC *pv = (const __global CLAT_POS_VEC *)(p + head);
  CLAT_POS_VEC least_v = (CLAT_POS_VEC)INFINITY, most_v = (CLAT_POS_VEC)(-INFINITY), nans_v = (CLAT_POS_VEC)0;
  const clat_share share = clat_item_share(nvec);
  ulong i = share.begin;
  for (; i + share.step < share.end; i += 2 * share.step) {
    const CLAT_POS_VEC x0 = pv[i], x1 = pv[i + share.step];
    least_v = fmin(least_v, fmin(x0, x1)), most_v = fmax(most_v, fmax(x0, x1));
    nans_v += select((CLAT_POS_VEC)0, (CLAT_POS_VEC)1, isnan(x0)) + select((CLAT_POS_VEC)0, (CLAT_POS_VEC)1, isnan(x1));
  }
  if (i < share.end) {
    const CLAT_POS_VEC x = pv[i];
    least_v = fmin(least_v, x), most_v = fmax(most_v, x);
    nans_v += select((CLAT_POS_VEC)0, (CLAT_POS_VEC)1, isnan(x));
  }
#if CLAT_POS_PER_VEC == 2
  CLAT_POS least = fmin(least_v.x, least_v.y), most = fmax(most_v.x, most_v.y), nans = nans_v.x + nans_v.y;
#else
  CLAT_POS least = fmin(fmin(least_v.x, least_v.y), fmin(least_v.z, least_v.w));
  CLAT_POS most = fmax(fmax(most_v.x, most_v.y), fmax(most_v.z, most_v.w));
  CLAT_POS nans = (nans_v.x + nans_v.y) + (nans_v.z + nans_v.w);
#endif
  const ulong id = get_global_id(0), items = get_global_size(0);
  for (ulong k = id; k < head; k += items) CLAT_RANGE_ADD(least, most, nans, p[k]);
  for (ulong k = head + nvec * CLAT_POS_PER_VEC + id; k < count; k += items) CLAT_RANGE_ADD(least, most, nans, p[k]);

  /* The group's triples combined in a tree (any group size), one triple per group to the host. */
  const uint lid = get_local_id(0), size = get_local_size(0);
  __local CLAT_POS *f_least = found, *f_most = found + size, *f_nans = found + 2 * size;
  f_least[lid] = least, f_most[lid] = most, f_nans[lid] = nans;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint n = size; n > 1u;) {
    const uint upper = (n + 1u) / 2u; /* the upper part starts here */
    if (lid < n - upper) {
      f_least[lid] = fmin(f_least[lid], f_least[lid + upper]);
      f_most[lid] = fmax(f_most[lid], f_most[lid + upper]);
      f_nans[lid] += f_nans[lid + upper];
    }
    n = upper;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid != 0u) return;
  const size_t at = 3 * get_group_id(0);
  out[at] = f_least[0];
  out[at + 1] = f_most[0];
  out[at + 2] = f_nans[0];
}

#endif /* CLATOMICS_KERNELS_HISTOGRAM_RANGE_CL */
