/* kernels/scatter_sorted_rows.cl — deterministic sums of rows whose bins are spread: the rows
 * grouped by bin first, then each bin's rows summed column by column in registers.
 * Part of kernels/scatter.cl, which includes it after clat_scatter.
 *
 * In place, every value of a row is one 64-bit atomic on its slot (the fast mode adds four floats
 * with one vector atomic). Grouped, a work-item sums one column of a stretch of rows and hands a
 * bin's run on once: a slot gets about one atomic per run of its bin's rows in a stretch.
 *
 * The grouping is a counting sort that is not stable: clat_sr_count counts each bin's rows and
 * gives each row its rank among them (the atomic's old count: in no fixed order), clat_sr_starts
 * gives every bin its first entry (each work-group claims its bins' stretch of the entries with
 * one atomic, so the bins are in no fixed order either), and clat_sr_place writes each row's
 * (row, bin) at its bin's first entry plus its rank. The order of the rows, and of the bins,
 * varies from run to run; the fixed point's sums are exact integers, so the results do not.
 *
 * Rows of one launch: fewer than 2^32, as are the bins (the host keeps both so).
 */
#ifndef CLATOMICS_KERNELS_SCATTER_SORTED_ROWS_CL
#define CLATOMICS_KERNELS_SCATTER_SORTED_ROWS_CL

#ifndef CLAT_SC_SORT_ROWS
#define CLAT_SC_SORT_ROWS 0
#endif
#if CLAT_SC_SORT_ROWS
#if !CLAT_SC_FIXED || CLAT_SC_MODE != CLAT_SC_MODE_GLOBAL || CLAT_SC_SEGMENTS
#error "kernels/scatter.cl: CLAT_SC_SORT_ROWS groups deterministic rows of indices into global slots"
#endif

/* Entries a work-item of clat_sr_sum takes (a multiple of 8). */
#ifndef CLAT_SR_STRETCH
#define CLAT_SR_STRETCH 64
#endif

/* Rows a work-item of clat_sr_count and clat_sr_place takes per step, a grid apart: their loads
 * first, then their atomics or stores (each in flight beside the others). */
#define CLAT_SR_AHEAD 4u

/* starts[b] += rows of bin b among rows [first, first + n), ranks[i] = row i's place among
 * them; rows whose index is >= nbins are counted into oor[oor_slot]. */
__kernel void clat_sr_count(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong first, uint n, uint nbins, __global uint *starts,
                            __global uint *ranks, __global uint *oor, uint oor_slot) {
  const __global CLAT_SC_IDX *ip = idx + idx_off + first;
  const uint grid = get_global_size(0);
  uint out_of_range = 0u;
  for (uint i = get_global_id(0); i < n; i += CLAT_SR_AHEAD * grid) {
    ulong b[CLAT_SR_AHEAD];
    uint r[CLAT_SR_AHEAD];
    for (uint c = 0; c < CLAT_SR_AHEAD; ++c) b[c] = i + c * grid < n ? (ulong)ip[i + c * grid] : (ulong)nbins;
    for (uint c = 0; c < CLAT_SR_AHEAD; ++c)
      if (b[c] < nbins) r[c] = atomic_inc(starts + b[c]);
      else if (i + c * grid < n) ++out_of_range;
    for (uint c = 0; c < CLAT_SR_AHEAD; ++c)
      if (b[c] < nbins) ranks[i + c * grid] = r[c];
  }
  if (out_of_range) atomic_add(oor + oor_slot, out_of_range);
}

/* starts[b]: bin b's count in, its first entry out. A work-item takes a stretch of bins, its
 * group scans the stretches' sums and claims their entries at once from starts[nbins] (which
 * ends as the number of entries). */
__kernel void clat_sr_starts(__global uint *starts, uint nbins, __local uint *scratch) {
  __local uint base;
  const uint per = (uint)(((ulong)nbins + get_global_size(0) - 1) / get_global_size(0));
  const uint lo = (uint)min((ulong)get_global_id(0) * per, (ulong)nbins), hi = (uint)min((ulong)lo + per, (ulong)nbins);
  uint mine = 0u;
  for (uint b = lo; b < hi; ++b) mine += starts[b];
  uint total;
  const uint before = clat_group_exclusive_scan(mine, scratch, &total);
  if (get_local_id(0) == 0u) base = atomic_add(starts + nbins, total);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint at = base + before;
  for (uint b = lo; b < hi; ++b) {
    const uint c = starts[b];
    starts[b] = at;
    at += c;
  }
}

/* entries[starts[b] + ranks[i]] = (i, b) for each row i of rows [first, first + n) whose bin b
 * is < nbins. */
__kernel void clat_sr_place(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong first, uint n, uint nbins, __global const uint *starts,
                            __global const uint *ranks, __global uint2 *entries) {
  const __global CLAT_SC_IDX *ip = idx + idx_off + first;
  const uint grid = get_global_size(0);
  for (uint i = get_global_id(0); i < n; i += CLAT_SR_AHEAD * grid) {
    ulong b[CLAT_SR_AHEAD];
    uint at[CLAT_SR_AHEAD];
    for (uint c = 0; c < CLAT_SR_AHEAD; ++c) b[c] = i + c * grid < n ? (ulong)ip[i + c * grid] : (ulong)nbins;
    for (uint c = 0; c < CLAT_SR_AHEAD; ++c)
      if (b[c] < nbins) at[c] = starts[b[c]] + ranks[i + c * grid];
    for (uint c = 0; c < CLAT_SR_AHEAD; ++c)
      if (b[c] < nbins) entries[at[c]] = (uint2)(i + c * grid, (uint)b[c]);
  }
}

/* Unit u: column d = u % width of entries [s * CLAT_SR_STRETCH, (s + 1) * CLAT_SR_STRETCH),
 * s = u / width, of the starts[nbins] entries: their values (element first + row) summed by runs of
 * one bin as clat_scatter's runs are, and handed on to the global slots (acc, counts, flags,
 * wide) at the end of each run. Neighbouring work-items take neighbouring columns of the same
 * rows. */
__kernel void clat_sr_sum(__global const uint2 *entries, __global const uint *starts, uint nbins, __global const CLAT_SC_IN *val, ulong val_off,
                          ulong first, uint width, ulong vstride, __global CLAT_SC_STORE *acc, ulong acc_off, ulong astride,
                          __global ulong *counts, __global uint *flags, int e_grid, int e_top, __global ulong *wide, int w_lo,
                          uint w_span, __global uint *oor) {
#if CLAT_SC_WINDOW
  __local ulong2 w_sums[CLAT_SC_GROUP];
  __local ulong w_keys[CLAT_SC_GROUP];
  __local ulong2 *w_sum = w_sums + get_local_id(0);
  __local ulong *w_key = w_keys + get_local_id(0);
  *w_key = CLAT_SC_NONE;
#endif
  /* clat_sc_flush's __local arguments and limbs (global slots use none of them). */
  __local CLAT_SC_STORE *lacc = 0;
  __local uint *ltag = 0, *lcount = 0;
  const uint limb = 0u;
  const __global CLAT_SC_IN *vp = val + val_off;
  const int e_keep = CLAT_SC_KEEP_LIMIT(e_top);
#if CLAT_SC_WINDOW
  const float w_scale = clat_sc_window_scale(w_lo);
#endif
  const uint total = starts[nbins];
  const ulong units = (ulong)((total + CLAT_SR_STRETCH - 1u) / CLAT_SR_STRETCH) * width;
  const clat_share u_share = clat_item_share(units);
  for (ulong u = u_share.begin; u < u_share.end; u += u_share.step) {
    const uint s = (uint)(u / width), d = (uint)(u - (ulong)s * width);
    const uint begin = s * CLAT_SR_STRETCH, end = min(begin + CLAT_SR_STRETCH, total);
    ulong run_key = CLAT_SC_NONE;
    CLAT_SC_A run = CLAT_SC_IDENT;
    uint run_n = 0u;
    /* Eight entries (16-byte loads: a stretch starts on a multiple of 8 entries) and their
     * values loaded before any of them is added. */
    for (uint k = begin; k < end; k += 8u) {
      uint4 e[4];
      CLAT_SC_T v[8];
      for (uint c = 0; c < 4u; ++c)
        if (k + 2u * c < end) e[c] = ((const __global uint4 *)(entries + k))[c];
      for (uint c = 0; c < 8u; ++c)
        if (k + c < end) v[c] = CLAT_SC_LOAD(vp, (first + (c & 1u ? e[c / 2u].z : e[c / 2u].x)) * vstride + d);
      for (uint c = 0; c < 8u; ++c)
        if (k + c < end) CLAT_SC_PUT((ulong)(c & 1u ? e[c / 2u].w : e[c / 2u].y) * width + d, v[c], d)
    }
    if (run_key != CLAT_SC_NONE) clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, flags, lacc, ltag, lcount, limb);
  }
#if CLAT_SC_WINDOW
  clat_sc_wide_end(w_sum, w_key, width, wide, acc_off, astride, flags);
#endif
}

#endif

#endif /* CLATOMICS_KERNELS_SCATTER_SORTED_ROWS_CL */
