#include "clatomics/atomics.cl"
/* kernels/histogram.cl — histograms of bytes, of uint keys, and of floats in even bins.
 *
 * Build options (defaults in brackets):
 *   CLAT_HIST_KIND      0 bytes (uchar, 256 bins), 1 keys (uint), 2 even bins over floats [0]
 *   CLAT_HIST_WEIGHTED  1: per-slot sums of float weights too (even bins only) [0]
 *   CLAT_HIST_SLOTS     private counters per copy in clat_hist_private, >= the slots [256]
 *   CLAT_HIST_COPIES    private copies per work-item in clat_hist_private, a power of two: the
 *                       lanes of a vector load count into different copies, which breaks the
 *                       chain of increments of one counter when many elements fall in one bin [1]
 *   CLAT_HIST_SHIFT     clat_hist_local: 1 << CLAT_HIST_SHIFT copies (a constant: cheaper
 *                       index math in the hot loop than a kernel argument) [0]
 *   CLAT_HIST_DIRECT    1: count straight into the 64-bit totals with 64-bit atomics (needs
 *                       cl_khr_int64_base_atomics; no 32-bit counts, no merge launch) [0]
 *   CLAT_HIST_GROUP     clat_hist_local is compiled for exactly this work-group size
 *                       (reqd_work_group_size; the host sets it on NVIDIA, which reports
 *                       CL_KERNEL_WORK_GROUP_SIZE 256 for any kernel without it, while 1024-item
 *                       groups with 32 copies are what reach the read-only pass) [unset]
 *   CLAT_CONTIGUOUS     see algo_common.cl [0]
 *
 * Slots: the nbins bins, then the tallies: keys: slot nbins counts keys >= nbins; even bins:
 * slot nbins below lo, nbins + 1 above hi, nbins + 2 NaN. __local counts are 32-bit: the host
 * keeps each launch below 2^32 elements. Each group adds its counts into the 64-bit totals
 * directly (CLAT_HIST_DIRECT), or into 32-bit counts that clat_hist_merge adds into the totals
 * after each launch.
 *
 * Kernels, all with the same arguments (CLAT_HIST_ARGS), each counting its share of
 * in[offset, offset + count) into counts[slot] (and weights into wsums[slot]):
 *   clat_hist_global   one global atomic per element
 *   clat_hist_local    (1 << CLAT_HIST_SHIFT) copies of the histogram in __local memory, bin-major
 *                      (lcounts[(slot << CLAT_HIST_SHIFT) + copy], copy = local id % copies: the 32 copies
 *                      of a bin sit in 32 banks), merged with one global atomic per slot and group
 *   clat_hist_private  private counters per work-item, no atomics until the merge
 * clat_hist_merge: totals[s] += counts[s], counts[s] = 0 (and the same for the weights).
 *
 * Even bins, NumPy's rule: bin b holds edges[b] <= x < edges[b + 1], the last bin hi too (the host
 * passes the nbins + 1 edges as NumPy computes them for float32 data, strictly increasing). A
 * first guess floor((x - lo) * scale), scale = nbins / (hi - lo), is kept when its edges agree,
 * else a binary search over the edges finds the bin: bounded work per value.
 */
#include "kernels/algo_common.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_CL
#define CLATOMICS_KERNELS_HISTOGRAM_CL

#ifndef CLAT_HIST_KIND
#define CLAT_HIST_KIND 0
#endif
#ifndef CLAT_HIST_WEIGHTED
#define CLAT_HIST_WEIGHTED 0
#endif
#ifndef CLAT_HIST_SLOTS
#define CLAT_HIST_SLOTS 256
#endif
#ifndef CLAT_HIST_COPIES
#define CLAT_HIST_COPIES 1
#endif
#ifndef CLAT_HIST_SHIFT
#define CLAT_HIST_SHIFT 0
#endif
#ifndef CLAT_HIST_DIRECT
#define CLAT_HIST_DIRECT 0
#endif

/* CLAT_HIST_ADD(s, n): a group's (or element's) n counts of slot s into the result. With
 * CLAT_HIST_DIRECT `counts` is the ulong totals and `wsums` the float weight totals. */
#if CLAT_HIST_DIRECT
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define CLAT_HIST_ADD(s, n) atom_add((volatile __global ulong *)counts + (s), (ulong)(n))
#else
#define CLAT_HIST_ADD(s, n) atomic_add(counts + (s), (n))
#endif

#if CLAT_HIST_WEIGHTED
#define CLAT_IF_WEIGHTED(x) x
#else
#define CLAT_IF_WEIGHTED(x)
#endif

/* CLAT_E the element, CLAT_LOAD a 16-byte load of CLAT_PER_LOAD elements,
 * CLAT_UNPACK(PUT, v, wv) calls PUT(slot, weight, lane) for each of its elements. */
#if CLAT_HIST_KIND == 0
#define CLAT_E uchar
#define CLAT_LOAD uint4
#define CLAT_PER_LOAD 16
#define CLAT_NSLOTS(nbins) 256u
CLAT_FN uint clat_slot(uchar x, uint nbins, float lo, float hi, float scale, __global const float *edges) { return x; }
#define CLAT_WORD(PUT, c, j)                 \
  PUT((c)&0xffu, 0.0f, (j))                  \
  PUT(((c) >> 8) & 0xffu, 0.0f, (j) + 1)     \
  PUT(((c) >> 16) & 0xffu, 0.0f, (j) + 2)    \
  PUT((c) >> 24, 0.0f, (j) + 3)
#define CLAT_UNPACK(PUT, v, wv) \
  CLAT_WORD(PUT, v.x, 0) CLAT_WORD(PUT, v.y, 4) CLAT_WORD(PUT, v.z, 8) CLAT_WORD(PUT, v.w, 12)

#elif CLAT_HIST_KIND == 1
#define CLAT_E uint
#define CLAT_LOAD uint4
#define CLAT_PER_LOAD 4
#define CLAT_NSLOTS(nbins) ((nbins) + 1u)
CLAT_FN uint clat_slot(uint x, uint nbins, float lo, float hi, float scale, __global const float *edges) {
  return x < nbins ? x : nbins;
}

#elif CLAT_HIST_KIND == 2
#define CLAT_E float
#define CLAT_LOAD float4
#define CLAT_PER_LOAD 4
#define CLAT_NSLOTS(nbins) ((nbins) + 3u)
CLAT_FN uint clat_slot(float x, uint nbins, float lo, float hi, float scale, __global const float *edges) {
  if (isnan(x)) return nbins + 2u;
  if (x < lo) return nbins;
  if (x > hi) return nbins + 1u;
  uint b = min(convert_uint_sat_rtz((x - lo) * scale), nbins - 1u);
  if (x >= edges[b] && (b == nbins - 1u || x < edges[b + 1u])) return b; /* the guess is right */
  /* Near an edge, or where float rounding moved the guess further (huge bin counts, narrow
   * ranges): a binary search over the edges, at most 32 steps whatever the range. Invariant:
   * edges[first] <= x (or first == 0: x >= lo), and x < edges[last] (or last == nbins). */
  uint first = 0u, last = nbins;
  while (last - first > 1u) {
    const uint mid = first + (last - first) / 2u;
    if (x < edges[mid]) last = mid;
    else first = mid;
  }
  return first;
}
#else
#error "kernels/histogram.cl: CLAT_HIST_KIND must be 0, 1 or 2"
#endif

#if CLAT_HIST_KIND != 0
#define CLAT_SLOT(x) clat_slot((x), nbins, lo, hi, scale, edges)
#define CLAT_UNPACK(PUT, v, wv)              \
  PUT(CLAT_SLOT(v.x), wv.x, 0)               \
  PUT(CLAT_SLOT(v.y), wv.y, 1)               \
  PUT(CLAT_SLOT(v.z), wv.z, 2)               \
  PUT(CLAT_SLOT(v.w), wv.w, 3)
#endif

#if CLAT_HIST_WEIGHTED
#if CLAT_HIST_KIND != 2
#error "kernels/histogram.cl: weights need CLAT_HIST_KIND 2"
#endif
#define CLAT_WEIGHTS_AT(i) vload4((i), wp)
#define CLAT_WEIGHT(i) wp[i]
#else
#define CLAT_WEIGHTS_AT(i) ((float4)(0.0f))
#define CLAT_WEIGHT(i) 0.0f
#endif

#define CLAT_HIST_ARGS                                                                              \
  __global const CLAT_E *in, ulong offset, ulong count, uint nbins, float lo, float hi, float scale, \
      __global const float *edges,                                                                    \
      __global const float *w, ulong w_offset, __global uint *counts, __global float *wsums,               \
      __local uint *lcounts, __local float *lweights

/* PUT(slot, weight, lane) for every element of this work-item's share: whole 16-byte loads,
 * then the unaligned head and the tail one element at a time. The load loop counts in uint
 * (cheaper than ulong on GPUs): a launch has < 2^32 elements and >= 4 per load, so nvec < 2^30
 * and i + step cannot wrap. */
#define CLAT_HIST_FOR_EACH(PUT)                                                            \
  {                                                                                        \
    const __global CLAT_E *p = in + offset;                                                \
    const ulong head = CLAT_HEAD(p, count, CLAT_PER_LOAD);                                 \
    const ulong nvec = (count - head) / CLAT_PER_LOAD;                                     \
    const __global CLAT_LOAD *pv = (const __global CLAT_LOAD *)(p + head);                 \
    const __global float *wp = w + w_offset + head;                                        \
    const clat_share share = clat_item_share(nvec);                                        \
    const uint end = (uint)share.end, step = (uint)share.step;                             \
    for (uint i = (uint)share.begin; i < end; i += step) {                                 \
      const CLAT_LOAD v = pv[i];                                                           \
      const float4 wv = CLAT_WEIGHTS_AT(i);                                                \
      CLAT_UNPACK(PUT, v, wv)                                                              \
    }                                                                                      \
    /* The < 2 * CLAT_PER_LOAD leftovers (unaligned head, tail) in one loop with one PUT:      \
     * less code beside the hot loop (two loops here cost the H200 12% of its throughput). */ \
    wp = w + w_offset;                                                                     \
    const uint nhead = (uint)head, tail_at = (uint)(head + nvec * CLAT_PER_LOAD);           \
    const uint nleft = nhead + (uint)count - tail_at;                                      \
    for (uint k = (uint)get_global_id(0); k < nleft; k += (uint)get_global_size(0)) {      \
      const uint i = k < nhead ? k : tail_at + (k - nhead);                                \
      PUT(clat_slot(p[i], nbins, lo, hi, scale, edges), CLAT_WEIGHT(i), 0)                 \
    }                                                                                      \
  }

__kernel void clat_hist_global(CLAT_HIST_ARGS) {
#define CLAT_PUT_GLOBAL(s, wt, j)                                       \
  {                                                                     \
    const uint slot_ = (s);                                             \
    CLAT_HIST_ADD(slot_, 1u);                                           \
    CLAT_IF_WEIGHTED(clat_atomic_add_float(wsums + slot_, (wt));)       \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_GLOBAL)
}

#ifdef CLAT_HIST_GROUP
#define CLAT_HIST_LOCAL_ATTR __attribute__((reqd_work_group_size(CLAT_HIST_GROUP, 1, 1)))
#else
#define CLAT_HIST_LOCAL_ATTR
#endif
__kernel CLAT_HIST_LOCAL_ATTR void clat_hist_local(CLAT_HIST_ARGS) {
  const uint lid = get_local_id(0), lsize = get_local_size(0);
  const uint shift = CLAT_HIST_SHIFT, copies = 1u << shift, nslots = CLAT_NSLOTS(nbins);
  for (uint i = lid; i < (nslots << shift); i += lsize) {
    lcounts[i] = 0u;
    CLAT_IF_WEIGHTED(lweights[i] = 0.0f;)
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile __local uint *mine = lcounts + (lid & (copies - 1u));
  volatile __local float *mine_w = lweights + (lid & (copies - 1u));
#define CLAT_PUT_LOCAL(s, wt, j)                                              \
  {                                                                           \
    const uint at_ = (s) << shift;                                            \
    atomic_inc(mine + at_);                                                   \
    CLAT_IF_WEIGHTED(clat_atomic_add_float_local(mine_w + at_, (wt));)        \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_LOCAL)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = lid; s < nslots; s += lsize) {
    uint total = 0u;
    float weight = 0.0f;
    for (uint c = 0; c < copies; ++c) {
      const uint k = (s << shift) + ((c + s) & (copies - 1u)); /* rotated: neighbours in other banks */
      total += lcounts[k];
      CLAT_IF_WEIGHTED(weight += lweights[k];)
    }
    if (total) {
      CLAT_HIST_ADD(s, total);
      CLAT_IF_WEIGHTED(clat_atomic_add_float(wsums + s, weight);)
    }
  }
}

__kernel void clat_hist_private(CLAT_HIST_ARGS) {
  uint mine[CLAT_HIST_COPIES * CLAT_HIST_SLOTS];
  const uint nslots = CLAT_NSLOTS(nbins);
  for (uint c = 0; c < CLAT_HIST_COPIES; ++c)
    for (uint s = 0; s < nslots; ++s) mine[c * CLAT_HIST_SLOTS + s] = 0u;
#if CLAT_HIST_WEIGHTED
  float mine_w[CLAT_HIST_SLOTS];
  for (uint s = 0; s < nslots; ++s) mine_w[s] = 0.0f;
#endif
#define CLAT_PUT_PRIVATE(s, wt, j)                                        \
  {                                                                       \
    const uint slot_ = (s);                                               \
    ++mine[((j) & (CLAT_HIST_COPIES - 1)) * CLAT_HIST_SLOTS + slot_];     \
    CLAT_IF_WEIGHTED(mine_w[slot_] += (wt);)                              \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_PRIVATE)
  for (uint s = 0; s < nslots; ++s) {
    uint total = 0u;
    for (uint c = 0; c < CLAT_HIST_COPIES; ++c) total += mine[c * CLAT_HIST_SLOTS + s];
    if (total) {
      CLAT_HIST_ADD(s, total);
      CLAT_IF_WEIGHTED(clat_atomic_add_float(wsums + s, mine_w[s]);)
    }
  }
}

__kernel void clat_hist_merge(__global uint *counts, __global ulong *totals, __global float *wsums,
                              __global float *wtotals, uint nslots) {
  const size_t s = get_global_id(0);
  if (s >= nslots) return;
  totals[s] += counts[s];
  counts[s] = 0u;
  CLAT_IF_WEIGHTED(wtotals[s] += wsums[s]; wsums[s] = 0.0f;)
}

#endif /* CLATOMICS_KERNELS_HISTOGRAM_CL */
