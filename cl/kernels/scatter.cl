#include "clatomics/atomics.cl"
/* kernels/scatter.cl — scatter-reduce: acc[slot(i, d)] op= values[i, d], where element i goes to
 * bin indices[i] (or, for segments, the s with offsets[s] <= i < offsets[s + 1]) and
 * slot = bin * astride + d, d < width.
 *
 * Build options (defaults in brackets), besides the types (scatter_types.cl):
 *   CLAT_SC_OP      CLAT_SC_OP_SUM, CLAT_SC_OP_PROD, CLAT_SC_OP_MIN or CLAT_SC_OP_MAX [SUM]
 *   CLAT_SC_FIXED   1: sums in 128-bit fixed point (the deterministic mode; floating types) [0]
 *   CLAT_SC_WINDOW  1: fixed-point float sums take the window's 64-bit fast path
 *                   (scatter_window.cl) [CLAT_SC_FIXED and float values]
 *   CLAT_SC_GROUP   the window: the largest work-group the host launches (the __local sums of
 *                   values outside the window) [256]
 *   CLAT_SC_LIMBS   1: the window's private copies as two 32-bit sums (scatter_window.cl) [0]
 *   CLAT_SC_MODE    where a finished run goes: CLAT_SC_MODE_GLOBAL the global accumulator,
 *                   CLAT_SC_MODE_PRIVATE private copies of every slot in __local memory,
 *                   CLAT_SC_MODE_CACHE a tagged __local table of the slots a work-group meets
 *                   first (the rest go global) [GLOBAL]
 *   CLAT_SC_SHIFT   private: 1 << CLAT_SC_SHIFT copies per slot (copy = local id % copies) [0]
 *   CLAT_SC_SLOTS   cache: slots of the table, a power of two [1024]
 *   CLAT_SC_SOLO    1: work-groups of one work-item (CPUs): __local updates need no atomics [0]
 *   CLAT_SC_COUNTS  1: count the elements of every bin into counts (mean, include_self false) [0]
 *   CLAT_SC_SEGMENTS 1: bins from CSR offsets instead of indices [0]
 *   CLAT_SC_AGG     1: global updates through the warp-aggregated ops where the warp path
 *                   exists (NVIDIA; hot indices) [0]
 *   CLAT_SC_RUNS    1: indices in runs (sorted, or one bin): where the warp path exists, a full
 *                   warp's runs that continue from lane to lane are combined before they reach
 *                   global memory [0]
 *   CLAT_SC_SORT_ROWS 1: the kernels that group deterministic rows by bin before they are summed
 *                   (scatter_sorted_rows.cl; CLAT_SC_FIXED, global slots, indices) [0]
 *   CLAT_SC_MARKS   1: the finish reads only the blocks of 2^CLAT_SC_MARK_SHIFT slots that an
 *                   update marked (scatter_fixed.cl; CLAT_SC_FIXED, indexed bins, one value a row) [0]
 *   CLAT_SC_VEC_RED 1: the device has PTX's vector red.global.add.v4.f32 (sm_90 and later) [0]
 *   CLAT_SC_K       consecutive elements a work-item takes per step (one column, 16-byte aligned
 *                   ranges), a multiple of 4 [16]
 *   CLAT_SC_NAN_PROP 1: floating-point min/max propagate NaN (torch's amax/amin, np.maximum.at);
 *                   0: NaN is missing data (np.fmax.at, order.cl) [1]
 *
 * Runs: every work-item keeps the slot it is filling and its partial value in registers and only
 * hands a run on (to __local or global memory) when the slot changes. A work-group takes one
 * contiguous range of elements, in steps in which each work-item takes CLAT_SC_K consecutive
 * elements (rows and unaligned ranges: 4 pairs a work-group apart): sorted indices or a single
 * bin make long runs, and neighbouring work-items rarely share a run's slot.
 *
 * The accumulator, the runs and the finish are in the files included below (scatter_combine.cl,
 * scatter_fixed.cl, scatter_accumulator.cl, scatter_runs.cl, scatter_finish.cl); deterministic rows
 * whose bins are spread are grouped by bin first (scatter_sorted_rows.cl).
 */
#include "kernels/algo_common.cl"
#include "kernels/scatter_types.cl"

#ifndef CLATOMICS_KERNELS_SCATTER_CL
#define CLATOMICS_KERNELS_SCATTER_CL

/* The values CLAT_SC_OP and CLAT_SC_MODE name (numbers, so that the preprocessor compares them). */
#define CLAT_SC_OP_SUM 0
#define CLAT_SC_OP_PROD 1
#define CLAT_SC_OP_MIN 2
#define CLAT_SC_OP_MAX 3
#define CLAT_SC_MODE_GLOBAL 0
#define CLAT_SC_MODE_PRIVATE 1
#define CLAT_SC_MODE_CACHE 2

#ifndef CLAT_SC_OP
#define CLAT_SC_OP CLAT_SC_OP_SUM
#endif
#ifndef CLAT_SC_FIXED
#define CLAT_SC_FIXED 0
#endif
#ifndef CLAT_SC_MODE
#define CLAT_SC_MODE CLAT_SC_MODE_GLOBAL
#endif
#ifndef CLAT_SC_SHIFT
#define CLAT_SC_SHIFT 0
#endif
#ifndef CLAT_SC_SLOTS
#define CLAT_SC_SLOTS 1024
#endif
#ifndef CLAT_SC_SOLO
#define CLAT_SC_SOLO 0
#endif
#ifndef CLAT_SC_COUNTS
#define CLAT_SC_COUNTS 0
#endif
#ifndef CLAT_SC_SEGMENTS
#define CLAT_SC_SEGMENTS 0
#endif
#ifndef CLAT_SC_AGG
#define CLAT_SC_AGG 0
#endif
#ifndef CLAT_SC_K
#define CLAT_SC_K 16
#endif
#ifndef CLAT_SC_NAN_PROP
#define CLAT_SC_NAN_PROP 1
#endif
/* Deterministic float sums: the window's 64-bit integers beside the 128-bit fixed point (the
 * host turns it off for large outputs; doubles never take it). */
#ifndef CLAT_SC_WINDOW
#define CLAT_SC_WINDOW (CLAT_SC_FIXED && !CLAT_SC_DOUBLE)
#endif
#ifndef CLAT_SC_GROUP
#define CLAT_SC_GROUP 256
#endif
#ifndef CLAT_SC_LIMBS
#define CLAT_SC_LIMBS 0
#endif
#if CLAT_SC_WINDOW && (!CLAT_SC_FIXED || CLAT_SC_DOUBLE)
#error "kernels/scatter.cl: CLAT_SC_WINDOW is for deterministic float sums"
#endif
/* Floating-point min/max whose NaN propagates: the ordered-bits path below. */
#if CLAT_SC_REAL && (CLAT_SC_OP == CLAT_SC_OP_MIN || CLAT_SC_OP == CLAT_SC_OP_MAX) && CLAT_SC_NAN_PROP && !CLAT_SC_FIXED
#define CLAT_SC_PROP 1
#else
#define CLAT_SC_PROP 0
#endif


#if CLAT_SC_FIXED || CLAT_SC_COUNTS || CLAT_SC_WIDE_INT
#ifndef CLAT_HAS_INT64_ATOMICS
#error "kernels/scatter.cl: 64-bit accumulators and counts need cl_khr_int64_base_atomics"
#endif
#endif

#include "kernels/scatter_combine.cl"
#include "kernels/scatter_fixed.cl"
#include "kernels/scatter_window.cl"
#include "kernels/scatter_accumulator.cl"
#include "kernels/scatter_runs.cl"

/* Rows of float sums on NVIDIA, straight to global memory: four columns of a row a work-item,
 * one 16-byte load and one vector atomic (red.global.add.v4.f32, sm_90) for them: a quarter of
 * the atomic instructions of one column each. Subnormals flush to zero, as in the scalar red. */
#ifndef CLAT_SC_VEC_RED
#define CLAT_SC_VEC_RED 0
#endif
#if CLAT_SC_VEC_RED && CLAT_SC_REAL && !CLAT_SC_DOUBLE && !CLAT_SC_STORED16 && CLAT_SC_OP == CLAT_SC_OP_SUM && !CLAT_SC_FIXED && \
    CLAT_SC_MODE == CLAT_SC_MODE_GLOBAL && !CLAT_SC_RUNS && !CLAT_SC_SEGMENTS && CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX
#define CLAT_SC_ROWS4 1
CLAT_FN void clat_sc_red4(__global float *p, float4 v) {
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}
#else
#define CLAT_SC_ROWS4 0
#endif

/* Element p (first <= p < first + n) of the call holds values val[val_off + p * vstride + d]; its
 * bin is idx[idx_off + p] (or its segment in the nbins + 1 offsets from idx + idx_off); slot
 * (bin, d) is acc[acc_off + bin * astride + d] (in words of CLAT_SC_WORDS). counts[bin] and
 * flags[bin * width + d] as the options say; elements with an index >= nbins are counted into
 * oor[oor_slot]. e_grid, e_top: the fixed point's grid and top; wide, w_lo, w_span: the window's
 * second accumulator (2 words a slot, as acc) and exponents (scatter_window.cl). lslots: private, the slots (bins * width) each __local copy holds. lacc, ltag
 * and lcount: the __local slots, the cache's tags and the __local counts. */
__kernel void clat_scatter(__global const CLAT_SC_IDX *idx, ulong idx_off, __global const CLAT_SC_IN *val, ulong val_off, ulong first,
                           ulong n, uint width, ulong vstride, ulong nbins, __global CLAT_SC_STORE *acc, ulong acc_off, ulong astride,
                           __global ulong *counts, __global uint *flags, int e_grid, int e_top, __global ulong *wide, int w_lo, uint w_span,
                           __global uint *oor, uint oor_slot,
                           uint lslots, __local CLAT_SC_STORE *lacc, __local uint *ltag, __local uint *lcount) {
#if CLAT_SC_WINDOW
  __local ulong2 w_sums[CLAT_SC_GROUP];
  __local ulong w_keys[CLAT_SC_GROUP];
#endif
  const uint lid = get_local_id(0), lsize = get_local_size(0);
  flags += clat_sc_mark_words(nbins * width);
#if CLAT_SC_MODE == CLAT_SC_MODE_PRIVATE
  const uint nlocal = lslots << CLAT_SC_SHIFT;
#elif CLAT_SC_MODE == CLAT_SC_MODE_CACHE
  const uint nlocal = CLAT_SC_SLOTS;
#endif
#if CLAT_SC_MODE != CLAT_SC_MODE_GLOBAL
  for (uint i = lid; i < nlocal; i += lsize) {
    CLAT_SC_WRITE(lacc + i * CLAT_SC_WORDS, CLAT_SC_IDENT);
    if (CLAT_SC_MODE == CLAT_SC_MODE_CACHE) ltag[i] = CLAT_SC_EMPTY;
    if (CLAT_SC_COUNTS) lcount[i] = 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  const __global CLAT_SC_IDX *ip = idx + idx_off;
  const __global CLAT_SC_IN *vp = val + val_off;
#if CLAT_SC_FIXED
  const int e_keep = CLAT_SC_KEEP_LIMIT(e_top);
#endif
#if CLAT_SC_WINDOW
  const float w_scale = clat_sc_window_scale(w_lo);
  __local ulong2 *w_sum = w_sums + lid;
  __local ulong *w_key = w_keys + lid;
  *w_key = CLAT_SC_NONE;
#endif
  ulong cursor = 0;
  ulong run_key = CLAT_SC_NONE;
  CLAT_SC_A run = CLAT_SC_IDENT;
  uint run_n = 0u, out_of_range = 0u;

  /* This group's range of the launch's n * width (element, column) pairs, in whole steps. The
   * host keeps a launch below 2^32 pairs: uint positions. Each step issues all of a work-item's
   * loads before any of its atomics (which would hold later loads back): enough bytes in flight
   * to keep memory busy.
   *   vectors (one column of contiguous values, 16-byte aligned): a work-item takes CLAT_SC_K consecutive elements
   *     a step, in 16-byte loads;
   *   otherwise: 4 pairs a step, lsize apart, so that a warp reads neighbouring pairs (a row's
   *     columns side by side). */
  const uint step = lsize * CLAT_SC_K, total = (uint)(n * width);
  const uint per_group = (uint)(((ulong)total + get_num_groups(0) - 1) / get_num_groups(0) + step - 1) / step * step;
  const uint begin = (uint)min((ulong)get_group_id(0) * per_group, (ulong)total);
  const uint end = (uint)min((ulong)begin + per_group, (ulong)total);
  /* The private copies' limbs (scatter_window.cl): the low one's bits, from the most values a copy
   * takes. */
  const uint limb = CLAT_SC_LIMBS ? clz(max(per_group / min(lsize, 1u << CLAT_SC_SHIFT), 1u)) : 0u;
#if !CLAT_SC_SEGMENTS
  const int vectors = width == 1u && vstride == 1u && CLAT_ALIGNED(ip + first + begin, 4) && CLAT_ALIGNED(vp + first + begin, 4);
#else
  const int vectors = 0;
#endif
#if CLAT_SC_ROWS4
  const int rows4 = width % 4u == 0u && vstride % 4u == 0u && astride % 4u == 0u && CLAT_ALIGNED(vp + first * vstride, 4) &&
                    CLAT_ALIGNED(acc + acc_off, 4);
#else
  const int rows4 = 0;
#endif
  if (rows4) {
#if CLAT_SC_ROWS4
    /* Quad j = (element j / (width / 4), columns 4 * (j % (width / 4)) ..); begin and end are
     * multiples of 4 (width is). Each step issues its loads before its atomics. */
    const uint w4 = width / 4u;
    for (uint j = begin / 4u + lid; j < end / 4u; j += lsize * 4u) {
      ulong b[4];
      uint q[4];
      float4 v[4];
      for (uint c = 0; c < 4u; ++c) {
        const uint jc = j + c * lsize;
        b[c] = nbins; /* none */
        if (jc >= end / 4u) continue;
        const uint i = jc / w4;
        q[c] = jc - i * w4;
        b[c] = ip[first + i];
        if (b[c] < nbins) v[c] = *(const __global float4 *)(vp + (first + i) * vstride + 4u * q[c]);
        else if (q[c] == 0u) ++out_of_range;
      }
      for (uint c = 0; c < 4u; ++c) {
        if (b[c] >= nbins) continue;
        clat_sc_red4(acc + acc_off + b[c] * astride + 4u * q[c], v[c]);
#if CLAT_SC_COUNTS
        if (q[c] == 0u) atom_add(counts + b[c], 1ul);
#endif
      }
    }
#endif
  } else if (vectors) {
#if !CLAT_SC_SEGMENTS
    const __global CLAT_SC_IDX *ipf = ip + first;
    const __global CLAT_SC_IN *vpf = vp + first;
#define CLAT_SC_ONE(B, V)                                  \
  if ((ulong)(B) < nbins) CLAT_SC_PUT((ulong)(B), V, 0u)   \
  else ++out_of_range;
#define CLAT_SC_ONE_Q(B, Q, OK, V)                                  \
  if ((ulong)(B) < nbins) CLAT_SC_PUT_Q((ulong)(B), Q, OK, V, 0u)   \
  else ++out_of_range;
    for (uint e = begin + lid * CLAT_SC_K; e < end; e += step) {
      if (e + CLAT_SC_K <= end) {
        /* CPUs (one work-item a group) keep each load next to its use: measured faster there. */
#if CLAT_SC_SOLO
#define CLAT_SC_LOADS 1
#else
#define CLAT_SC_LOADS (CLAT_SC_K / 4)
#endif
        for (uint g = 0; g < CLAT_SC_K / 4; g += CLAT_SC_LOADS) {
          CLAT_CAT(CLAT_SC_IDX, 4) b[CLAT_SC_LOADS];
          CLAT_SC_T v[4 * CLAT_SC_LOADS];
          /* Unrolled, so that b and v stay in registers: a loop over them would index them, and
           * the large updates of the fixed point keep compilers from unrolling on their own
           * (NVIDIA's put them in 128 bytes of stack). */
#pragma unroll
          for (uint c = 0; c < CLAT_SC_LOADS; ++c) {
            const uint p = e + 4u * (g + c);
            b[c] = *(const __global CLAT_CAT(CLAT_SC_IDX, 4) *)(ipf + p);
#if CLAT_SC_STORED16
            for (uint k = 0; k < 4u; ++k) v[4u * c + k] = CLAT_SC_LOAD(vpf, p + k);
#else
            const CLAT_CAT(CLAT_SC_IN, 4) w = *(const __global CLAT_CAT(CLAT_SC_IN, 4) *)(vpf + p);
            v[4u * c] = w.x, v[4u * c + 1u] = w.y, v[4u * c + 2u] = w.z, v[4u * c + 3u] = w.w;
#endif
          }
#if CLAT_SC_WINDOW
          /* Deterministic float sums: the window's integers of four values at once. */
#pragma unroll
          for (uint c = 0; c < CLAT_SC_LOADS; ++c) {
            long4 q;
            int4 ok;
            CLAT_SC_WINDOW4(((float4)(v[4u * c], v[4u * c + 1u], v[4u * c + 2u], v[4u * c + 3u])), q, ok)
            CLAT_SC_ONE_Q(b[c].x, q.x, ok.x, v[4u * c]) CLAT_SC_ONE_Q(b[c].y, q.y, ok.y, v[4u * c + 1u])
            CLAT_SC_ONE_Q(b[c].z, q.z, ok.z, v[4u * c + 2u]) CLAT_SC_ONE_Q(b[c].w, q.w, ok.w, v[4u * c + 3u])
          }
#else
#pragma unroll
          for (uint c = 0; c < CLAT_SC_LOADS; ++c) {
            CLAT_SC_ONE(b[c].x, v[4u * c]) CLAT_SC_ONE(b[c].y, v[4u * c + 1u])
            CLAT_SC_ONE(b[c].z, v[4u * c + 2u]) CLAT_SC_ONE(b[c].w, v[4u * c + 3u])
          }
#endif
        }
      } else {
        for (uint q = e; q < end; ++q) {
          const ulong b = ipf[q];
          CLAT_SC_ONE(b, CLAT_SC_LOAD(vpf, q))
        }
      }
    }
#endif
  } else {
    /* Pair j = (element j / width, column j % width). */
    for (uint e = begin + lid; e < end; e += lsize * 4u) {
      ulong b[4];
      uint d[4];
      CLAT_SC_T v[4];
      for (uint c = 0; c < 4u; ++c) {
        const uint j = e + c * lsize;
        b[c] = nbins; /* none */
        if (j >= end) continue;
        const uint i = width == 1u ? j : j / width;
        const ulong p = first + i;
        d[c] = j - i * width;
        b[c] = CLAT_SC_BIN(p);
        if (b[c] < nbins) v[c] = CLAT_SC_LOAD(vp, p * vstride + d[c]);
        else if (!CLAT_SC_SEGMENTS && d[c] == 0u && j < end) ++out_of_range;
      }
      for (uint c = 0; c < 4u; ++c)
        if (b[c] < nbins) CLAT_SC_PUT(b[c] * width + d[c], v[c], d[c])
    }
  }
  if (run_key != CLAT_SC_NONE) clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, flags, lacc, ltag, lcount, limb);
#if CLAT_SC_WINDOW
  clat_sc_wide_end(w_sum, w_key, width, wide, acc_off, astride, flags);
#endif
  if (out_of_range) atomic_add(oor + oor_slot, out_of_range);

#if CLAT_SC_MODE != CLAT_SC_MODE_GLOBAL
  /* The group's __local slots into the global accumulator: one update per slot it touched. */
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint copies = CLAT_SC_MODE == CLAT_SC_MODE_PRIVATE ? 1u << CLAT_SC_SHIFT : 1u;
  for (uint s = lid; s < nlocal / copies; s += lsize) {
    CLAT_SC_A a = CLAT_SC_IDENT;
    uint c = 0u;
    for (uint k = 0; k < copies; ++k) {
      const uint at = s * copies + ((k + s) & (copies - 1u)); /* rotated: neighbours in other banks */
      a = CLAT_SC_COMB(a, CLAT_SC_READ_LOCAL(lacc + at * CLAT_SC_WORDS));
      if (CLAT_SC_COUNTS) c += lcount[at];
    }
#if CLAT_SC_MODE == CLAT_SC_MODE_CACHE
    const uint tag = ltag[s];
    if (tag == CLAT_SC_EMPTY) continue;
    const ulong key = tag;
#else
    const ulong key = s;
#endif
    clat_sc_global(key, a, c, width, acc, acc_off, astride, counts, flags);
  }
#endif
}

#include "kernels/scatter_sorted_rows.cl"
#include "kernels/scatter_finish.cl"
#include "kernels/scatter_listed.cl"

#endif /* CLATOMICS_KERNELS_SCATTER_CL */
