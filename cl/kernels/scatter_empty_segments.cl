#include "clatomics/atomics.cl"
/* kernels/scatter_empty_segments.cl — a segment reduction of no values without include_self: every
 * segment gets the empty reduction. Built with the types' options only (kernels/scatter_types.cl).
 */
#include "kernels/algo_common.cl"
#include "kernels/scatter_types.cl"

#ifndef CLATOMICS_KERNELS_SCATTER_EMPTY_SEGMENTS_CL
#define CLATOMICS_KERNELS_SCATTER_EMPTY_SEGMENTS_CL

/* Rows [0, nbins) of out, width columns each, set to 1 (one) or 0: the empty segments of a
 * segment reduction without include_self when no value reaches any. */
__kernel void clat_scatter_fill_rows(__global CLAT_SC_T *out, ulong off, ulong ostride, uint width, ulong nbins, uint one) {
  const clat_share j_share = clat_item_share(nbins * width);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step) {
    const ulong bin = j / width;
    out[off + bin * ostride + (j - bin * width)] = (CLAT_SC_T)(one ? 1 : 0);
  }
}


#endif /* CLATOMICS_KERNELS_SCATTER_EMPTY_SEGMENTS_CL */
