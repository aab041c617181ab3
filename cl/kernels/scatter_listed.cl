/* kernels/scatter_listed.cl — the deterministic sums' finish over the bins a call's values
 * reached, for calls of one value a row and fewer values than bins: the finish then reads the
 * slots of those bins, not every slot (16M bins, 4M values: a quarter of them at most).
 * Part of kernels/scatter.cl, which includes it after scatter_finish.cl.
 *
 * clat_scatter_touch marks each bin a value reaches in its flags' word (CLAT_SC_TOUCHED, which
 * the finish clears with the rest) and writes bin + 1 at the position of the value that marked
 * it: a list with no atomic counter, as long as the values, mostly zero. clat_scatter_finish_listed
 * finishes the bins listed there and leaves the list at zero again (the host keeps it, as the
 * slots: core/zeroed_scratch.hpp). With include_self, clat_scatter_settle first gives the bins no
 * value reached what the finish over every slot gives them (an own -0 becomes +0, a NaN is
 * written back as read), so that both finishes leave the same bits. */
#ifndef CLATOMICS_KERNELS_SCATTER_LISTED_CL
#define CLATOMICS_KERNELS_SCATTER_LISTED_CL

#if CLAT_SC_FIXED && !CLAT_SC_SEGMENTS
#define CLAT_SC_TOUCHED 8u

__kernel void clat_scatter_touch(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong n, ulong nbins, __global uint *flags,
                                 __global uint *list) {
  const __global CLAT_SC_IDX *ip = idx + idx_off;
  const clat_share p_share = clat_item_share(n);
  for (ulong p = p_share.begin; p < p_share.end; p += p_share.step) {
    const ulong b = ip[p];
    if (b >= nbins || (p > 0 && ip[p - 1] == b)) continue; /* a run of one bin is marked at its first value */
    volatile __global uint *f = flags + b;
    if (CLAT_FIRST_READ_uint(__global, f) & CLAT_SC_TOUCHED) continue;
    if (!(atomic_or(f, CLAT_SC_TOUCHED) & CLAT_SC_TOUCHED)) list[p] = (uint)b + 1u;
  }
}

/* out's own -0 and NaN in each of its nbins rows (one value a row, ostride apart) as
 * clat_sc_finish_slot leaves them where no value arrived. */
__kernel void clat_scatter_settle(__global CLAT_SC_T *out, ulong out_off, ulong ostride, ulong nbins) {
  const clat_share b_share = clat_item_share(nbins);
  for (ulong b = b_share.begin; b < b_share.end; b += b_share.step) clat_sc_settle_slot(out + out_off + b * ostride);
}

/* out (one value a row, ostride apart) for the bins listed in list[0, n). */
__kernel void clat_scatter_finish_listed(__global uint *list, ulong n, __global CLAT_SC_T *out, ulong out_off, ulong ostride,
                                         __global CLAT_SC_STORE *acc, __global const ulong *counts, __global uint *flags, int e_grid,
                                         int e_top, __global ulong *wide, int w_lo, uint include_self, uint mean) {
  const clat_share p_share = clat_item_share(n);
  for (ulong p = p_share.begin; p < p_share.end; p += p_share.step) {
    const uint listed = list[p];
    if (!listed) continue;
    list[p] = 0u;
    const ulong b = listed - 1u;
    clat_sc_finish_slot(b, b, 0ul, out, out_off, ostride, acc, counts, flags, e_grid, e_top, wide, w_lo, include_self, mean);
  }
}
#endif

#endif /* CLATOMICS_KERNELS_SCATTER_LISTED_CL */
