#include "clatomics/atomics.cl"
/* kernels/histogram/count.cl — histograms of bytes, of uint keys, and of floats or doubles in even
 * bins, over one axis or two, with up to 4 weight channels. Build options:
 * kernels/histogram/config.cl.
 *
 * Slots: the bins, then the tallies: keys: slot nbins counts keys >= nbins; even bins over one
 * axis: slot nbins below lo, nbins + 1 above hi, nbins + 2 NaN; over two axes: bin (ix, iy) is
 * slot ix * nbins_y + iy, and a point in no bin takes slot nbins * nbins_y + 4 * cx + cy - 1,
 * where cx, cy say where it lies on each axis (0 in range, 1 below, 2 above, 3 NaN). __local
 * counts are 32-bit: the host keeps each launch below 2^32 elements. Each group adds its counts
 * into the 64-bit totals directly (CLAT_HIST_DIRECT), or into 32-bit counts that
 * clat_hist_merge adds into the totals after each launch. Weights go into their totals:
 * wsums[(g * channels + c) * nslots + slot] for channel c, g the group's copy of the global sums
 * (CLAT_WSUMS_MINE, weights.cl).
 *
 * Kernels, all with the same arguments (CLAT_HIST_ARGS), each counting its share of
 * in[offset, offset + count) into counts[slot] (and weights into wsums):
 *   clat_hist_global   one global atomic per element (and per weight)
 *   clat_hist_local    copies of the histogram in __local memory, merged with one global atomic
 *                      per slot (and per slot and channel) and group: 1 << CLAT_HIST_SHIFT copies
 *                      of the counts, bin-major (lcounts[(slot << CLAT_HIST_SHIFT) + copy], copy =
 *                      local id % copies: the 32 copies of a bin sit in 32 banks); 1 <<
 *                      CLAT_HIST_WSHIFT copies of the weights' partial sums, slot-major
 *                      (lweights[((slot * channels + c) << CLAT_HIST_WSHIFT) + copy]; see there)
 *   clat_hist_private  private counters per work-item, no atomics until the merge
 * clat_hist_merge: totals[s] += counts[s], counts[s] = 0.
 *
 * Even bins, NumPy's rule: x is in a bin when lo <= x <= hi, and bin b holds edges[b] <= x <
 * edges[b + 1], the last bin hi too. The host passes the nbins + 1 edges, non-decreasing, in the
 * positions' type, and lo, hi: the least and the greatest position NumPy keeps (its range as it
 * compares it with positions of this type: edges[0] and edges[nbins] for one axis; for float
 * points over two axes the floats inside the double range). A first guess floor((x - lo) *
 * scale), scale = nbins / (the range's width), is kept when its edges agree, else a binary
 * search over the edges finds the bin: bounded work per value.
 */
#include "kernels/histogram/share_loop.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_COUNT_CL
#define CLATOMICS_KERNELS_HISTOGRAM_COUNT_CL

__kernel void clat_hist_global(CLAT_HIST_ARGS) {
  const uint nslots = CLAT_NSLOTS;
  __global clat_acc *wmine = CLAT_WSUMS_MINE(nslots);
#define CLAT_GLOBAL_W(c, wt) CLAT_ACC_ATOMIC_W(wmine + (c) * nslots + slot_, (wt));
#define CLAT_PUT_GLOBAL(s, W, j)                \
  {                                             \
    const uint slot_ = (s);                     \
    CLAT_HIST_ADD(slot_, 1u);                   \
    CLAT_EACH_W(CLAT_GLOBAL_W, W)               \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_GLOBAL)
}

#ifdef CLAT_HIST_GROUP
#define CLAT_HIST_LOCAL_ATTR __attribute__((reqd_work_group_size(CLAT_HIST_GROUP, 1, 1)))
#else
#define CLAT_HIST_LOCAL_ATTR
#endif
/* The weights' copies: a slot's channels side by side, each channel's copies side by side, copy =
 * local id % wcopies. With 4-byte sums, 4 channels and 16 copies, channel c's copies of any slot
 * sit in banks 16 * (c % 2) + copy. Of 32 neighbouring work-items (one bank-wide access), two 16
 * ids apart share a copy: adding the same channel, they hit one bank half the time. With
 * CLAT_HIST_PHASES 2 the second adds channel (k + 1) % channels in step k, 16 banks further on:
 * the 32 adds take 32 banks whatever their slots (8-byte sums: 8 copies, 16 work-items an access). */
__kernel CLAT_HIST_LOCAL_ATTR void clat_hist_local(CLAT_HIST_ARGS) {
  const uint lid = get_local_id(0), lsize = get_local_size(0);
  const uint shift = CLAT_HIST_SHIFT, copies = 1u << shift, nslots = CLAT_NSLOTS;
  const uint wshift = CLAT_HIST_WSHIFT, wcopies = 1u << wshift, nrows = CLAT_HIST_CHANNELS * nslots;
  for (uint i = lid; i < (nslots << shift); i += lsize) lcounts[i] = 0u;
  for (uint i = lid; i < (nrows << wshift); i += lsize) lweights[i] = CLAT_PACC_ZERO;
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile __local uint *mine = lcounts + (lid & (copies - 1u));
  volatile __local clat_pacc *mine_w = lweights + (lid & (wcopies - 1u));
#if CLAT_HIST_PHASES == 2
  const uint phase = (lid >> wshift) & 1u;
#else
  const uint phase = 0u;
#endif
  /* Step k adds channel (k + phase) % channels: its row's offset from the slot's first. */
#define CLAT_ROW(k) ((k) + phase < CLAT_HIST_CHANNELS ? (k) + phase : (k) + phase - CLAT_HIST_CHANNELS)
#define CLAT_LOCAL_W(k, wt) CLAT_PACC_ATOMIC_LOCAL(mine_w + ((slot_ * CLAT_HIST_CHANNELS + CLAT_ROW(k)) << wshift), (wt));
#define CLAT_PUT_LOCAL(s, W, j)                \
  {                                            \
    const uint slot_ = (s);                    \
    atomic_inc(mine + (slot_ << shift));       \
    CLAT_EACH_WR(CLAT_LOCAL_W, W, phase)       \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_LOCAL)
  barrier(CLK_LOCAL_MEM_FENCE);
  /* The copies read rotated: neighbouring work-items' reads in other banks. */
  for (uint s = lid; s < nslots; s += lsize) {
    uint total = 0u;
    for (uint c = 0; c < copies; ++c) total += lcounts[(s << shift) + ((c + s) & (copies - 1u))];
    if (total) CLAT_HIST_ADD(s, total);
  }
#if CLAT_HIST_CHANNELS
  __global clat_acc *wmine = CLAT_WSUMS_MINE(nslots);
  for (uint r = lid; r < nrows; r += lsize) { /* row r: slot r / channels, channel r % channels */
    clat_pacc sum = CLAT_PACC_ZERO;
    for (uint c = 0; c < wcopies; ++c) sum = CLAT_PACC_MERGE(sum, lweights[(r << wshift) + ((c + r) & (wcopies - 1u))]);
    if (CLAT_PACC_NONZERO(sum)) CLAT_ACC_ATOMIC(wmine + (r % CLAT_HIST_CHANNELS) * nslots + r / CLAT_HIST_CHANNELS, CLAT_PACC_OUT(sum));
  }
#endif
}
__kernel void clat_hist_private(CLAT_HIST_ARGS) {
  uint mine[CLAT_HIST_COPIES * CLAT_HIST_SLOTS];
  const uint nslots = CLAT_NSLOTS;
  for (uint c = 0; c < CLAT_HIST_COPIES; ++c)
    for (uint s = 0; s < nslots; ++s) mine[c * CLAT_HIST_SLOTS + s] = 0u;
#if CLAT_PRIVATE_VEC4
  CLAT_PACC4 mine_w4[CLAT_HIST_SLOTS];
  for (uint s = 0; s < CLAT_HIST_SLOTS; ++s) mine_w4[s] = (CLAT_PACC4)(0);
  const clat_pacc *mine_w = (const clat_pacc *)mine_w4; /* slot s, channel c: mine_w[4 * s + c] */
#define CLAT_WEIGHTS_AT(c, s) mine_w[4u * (s) + (c)]
#define CLAT_PRIVATE_WEIGHTS(W) mine_w4[slot_] += CLAT_PACC4_OF((float4)(W(0), W(1), W(2), W(3)));
#elif CLAT_HIST_CHANNELS
  clat_pacc mine_w[CLAT_HIST_CHANNELS * CLAT_HIST_SLOTS];
  for (uint s = 0; s < CLAT_HIST_CHANNELS * CLAT_HIST_SLOTS; ++s) mine_w[s] = CLAT_PACC_ZERO;
#define CLAT_WEIGHTS_AT(c, s) mine_w[(c) * CLAT_HIST_SLOTS + (s)]
#define CLAT_PRIVATE_W(c, wt) CLAT_WEIGHTS_AT(c, slot_) = CLAT_PACC_ADD(CLAT_WEIGHTS_AT(c, slot_), (wt));
#define CLAT_PRIVATE_WEIGHTS(W) CLAT_EACH_W(CLAT_PRIVATE_W, W)
#else
#define CLAT_PRIVATE_WEIGHTS(W)
#endif
#define CLAT_PUT_PRIVATE(s, W, j)                                         \
  {                                                                       \
    const uint slot_ = (s);                                               \
    ++mine[((j) & (CLAT_HIST_COPIES - 1)) * CLAT_HIST_SLOTS + slot_];     \
    CLAT_PRIVATE_WEIGHTS(W)                                               \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_PRIVATE)
#if CLAT_HIST_CHANNELS
  __global clat_acc *wmine = CLAT_WSUMS_MINE(nslots);
#endif
  for (uint s = 0; s < nslots; ++s) {
    uint total = 0u;
    for (uint c = 0; c < CLAT_HIST_COPIES; ++c) total += mine[c * CLAT_HIST_SLOTS + s];
    if (!total) continue;
    CLAT_HIST_ADD(s, total);
#if CLAT_HIST_CHANNELS
    for (uint ch = 0; ch < CLAT_HIST_CHANNELS; ++ch)
      if (CLAT_PACC_NONZERO(CLAT_WEIGHTS_AT(ch, s))) CLAT_ACC_ATOMIC(wmine + ch * nslots + s, CLAT_PACC_OUT(CLAT_WEIGHTS_AT(ch, s)));
#endif
  }
}

__kernel void clat_hist_merge(__global uint *counts, __global ulong *totals, uint nslots) {
  const size_t s = get_global_id(0);
  if (s >= nslots) return;
  totals[s] += counts[s];
  counts[s] = 0u;
}

#endif /* CLATOMICS_KERNELS_HISTOGRAM_COUNT_CL */
