#include "clatomics/atomics.cl"
/* kernels/histogram.cl — histograms of bytes, of uint keys, and of floats or doubles in even
 * bins, over one axis or two, with up to 4 weight channels.
 *
 * Build options (defaults in brackets):
 *   CLAT_HIST_KIND      what is counted: CLAT_HIST_BYTES (uchar, 256 bins), CLAT_HIST_KEYS (uint),
 *                       CLAT_HIST_EVEN (even bins over positions) [CLAT_HIST_BYTES]
 *   CLAT_POS            the type of even-bin positions (values, lo, hi, scale, edges): float or
 *                       double [float]
 *   CLAT_HIST_2D        1: even bins over two axes: a point (in[i], in_y[i]) [0]
 *   CLAT_HIST_CHANNELS  0 .. 4 float weight arrays summed per slot (even bins only) [0]
 *   CLAT_HIST_ACCUM     how weights are summed: CLAT_ACCUM_FLOAT float atomics,
 *                       CLAT_ACCUM_PAIR compensated float pairs (a double-word (hi, lo) updated
 *                       as one 64-bit compare-exchange), CLAT_ACCUM_DOUBLE double atomics
 *                       [CLAT_ACCUM_FLOAT]
 *   CLAT_HIST_SLOTS     private counters per copy in clat_hist_private, >= the slots [256]
 *   CLAT_HIST_COPIES    private copies per work-item in clat_hist_private, a power of two: the
 *                       lanes of a vector load count into different copies, which breaks the
 *                       chain of increments of one counter when many elements fall in one bin [1]
 *   CLAT_HIST_SHIFT     clat_hist_local: 1 << CLAT_HIST_SHIFT copies (a constant: cheaper
 *                       index math in the hot loop than a kernel argument) [0]
 *   CLAT_HIST_DIRECT    1: count straight into the 64-bit totals with 64-bit atomics (needs
 *                       cl_khr_int64_base_atomics; no 32-bit counts, no merge launch) [0]
 *   CLAT_HIST_VSLOTS    1: even bins compute a whole load's slots in vector arithmetic (CPUs) [0]
 *   CLAT_HIST_GROUP     clat_hist_local is compiled for exactly this work-group size
 *                       (reqd_work_group_size; the host sets it on NVIDIA, which reports
 *                       CL_KERNEL_WORK_GROUP_SIZE 256 for any kernel without it, while 1024-item
 *                       groups with 32 copies are what reach the read-only pass) [unset]
 *   CLAT_CONTIGUOUS     see algo_common.cl [0]
 *
 * Slots: the bins, then the tallies: keys: slot nbins counts keys >= nbins; even bins over one
 * axis: slot nbins below lo, nbins + 1 above hi, nbins + 2 NaN; over two axes: bin (ix, iy) is
 * slot ix * nbins_y + iy, and a point in no bin takes slot nbins * nbins_y + 4 * cx + cy - 1,
 * where cx, cy say where it lies on each axis (0 in range, 1 below, 2 above, 3 NaN). __local
 * counts are 32-bit: the host keeps each launch below 2^32 elements. Each group adds its counts
 * into the 64-bit totals directly (CLAT_HIST_DIRECT), or into 32-bit counts that
 * clat_hist_merge adds into the totals after each launch. Weights always go straight into their
 * totals: wsums[c * nslots + slot] for channel c.
 *
 * Kernels, all with the same arguments (CLAT_HIST_ARGS), each counting its share of
 * in[offset, offset + count) into counts[slot] (and weights into wsums):
 *   clat_hist_global   one global atomic per element
 *   clat_hist_local    (1 << CLAT_HIST_SHIFT) copies of the histogram in __local memory, bin-major
 *                      (lcounts[(slot << CLAT_HIST_SHIFT) + copy], copy = local id % copies: the 32 copies
 *                      of a bin sit in 32 banks), merged with one global atomic per slot and group
 *   clat_hist_private  private counters per work-item, no atomics until the merge
 * clat_hist_merge: totals[s] += counts[s], counts[s] = 0.
 * The data's range when the caller gives none: kernels/histogram/range.cl.
 *
 * Even bins, NumPy's rule: bin b holds edges[b] <= x < edges[b + 1], the last bin hi too (the host
 * passes the nbins + 1 edges, non-decreasing, edges[0] = lo, edges[nbins] = hi). A first guess
 * floor((x - lo) * scale), scale = nbins / (hi - lo), is kept when its edges agree, else a binary
 * search over the edges finds the bin: bounded work per value.
 */
#include "kernels/algo_common.cl"
#include "kernels/histogram/positions.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_CL
#define CLATOMICS_KERNELS_HISTOGRAM_CL

/* The values CLAT_HIST_KIND and CLAT_HIST_ACCUM name. */
#define CLAT_HIST_BYTES 1
#define CLAT_HIST_KEYS 2
#define CLAT_HIST_EVEN 3
#define CLAT_ACCUM_FLOAT 1
#define CLAT_ACCUM_PAIR 2
#define CLAT_ACCUM_DOUBLE 3

#ifndef CLAT_HIST_KIND
#define CLAT_HIST_KIND CLAT_HIST_BYTES
#endif
#ifndef CLAT_HIST_2D
#define CLAT_HIST_2D 0
#endif
#ifndef CLAT_HIST_CHANNELS
#define CLAT_HIST_CHANNELS 0
#endif
#ifndef CLAT_HIST_ACCUM
#define CLAT_HIST_ACCUM CLAT_ACCUM_FLOAT
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
#ifndef CLAT_HIST_VSLOTS
#define CLAT_HIST_VSLOTS 0
#endif

#if (CLAT_HIST_DOUBLE || CLAT_HIST_2D || CLAT_HIST_CHANNELS) && CLAT_HIST_KIND != CLAT_HIST_EVEN
#error "kernels/histogram.cl: double positions, two axes and weights need CLAT_HIST_KIND CLAT_HIST_EVEN"
#endif
#if CLAT_HIST_CHANNELS < 0 || CLAT_HIST_CHANNELS > 4
#error "kernels/histogram.cl: CLAT_HIST_CHANNELS must be 0 .. 4"
#endif

/* CLAT_HIST_ADD(s, n): a group's (or element's) n counts of slot s into the result. With
 * CLAT_HIST_DIRECT `counts` is the ulong totals. */
#if CLAT_HIST_DIRECT
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define CLAT_HIST_ADD(s, n) atom_add((volatile __global ulong *)counts + (s), (ulong)(n))
#else
#define CLAT_HIST_ADD(s, n) atomic_add(counts + (s), (n))
#endif

/* ---- weight sums: clat_acc, a partial sum; CLAT_ACC_OF(w) one weight as one; CLAT_ACC_MERGE(a, b)
 * two partial sums as one; CLAT_ACC_ATOMIC(p, a) (and _LOCAL) adds a partial sum into memory. ---- */
#if CLAT_HIST_ACCUM == CLAT_ACCUM_FLOAT
typedef float clat_acc;
#define CLAT_ACC_ZERO 0.0f
#define CLAT_ACC_OF(w) (w)
#define CLAT_ACC_MERGE(a, b) ((a) + (b))
#define CLAT_ACC_ATOMIC(p, a) clat_atomic_add_float((p), (a))
#define CLAT_ACC_ATOMIC_LOCAL(p, a) clat_atomic_add_float_local((p), (a))

#elif CLAT_HIST_ACCUM == CLAT_ACCUM_PAIR
#ifndef CLAT_HAS_INT64_ATOMICS
#error "kernels/histogram.cl: compensated weight sums need cl_khr_int64_base_atomics"
#endif
/* A double-word (hi, lo): the value hi + lo, |lo| <= ulp(hi) / 2 after every update. The sum of
 * two is Joldes, Muller and Popescu's AccurateDWPlusDW (ACM TOMS 44(2), 2017, algorithm 6):
 * relative error at most 3u^2 / (1 - 4u), u = 2^-24, when float adds round to nearest (OpenCL
 * requires it; the histogram's build has no fast-math option) and nothing overflows. Only adds:
 * no multiply that FP_CONTRACT could fuse. */
typedef float2 clat_acc;
CLAT_FN float2 clat_two_sum(float a, float b) {
  const float s = a + b, bb = s - a;
  return (float2)(s, (a - (s - bb)) + (b - bb));
}
CLAT_FN float2 clat_fast_two_sum(float a, float b) { /* |a| >= |b| or a == 0 */
  const float s = a + b;
  return (float2)(s, b - (s - a));
}
CLAT_FN float2 clat_pair_add(float2 x, float2 y) {
  const float2 s = clat_two_sum(x.x, y.x), t = clat_two_sum(x.y, y.y);
  const float2 v = clat_fast_two_sum(s.x, s.y + t.x);
  const float2 r = clat_fast_two_sum(v.x, t.y + v.y);
  /* An infinity, a NaN or a sum past float's range: the error terms would be inf - inf (NaN);
   * the sum is then the his' plain float sum, as float_atomic gives it. */
  return isfinite(r.x) ? r : (float2)(x.x + y.x, 0.0f);
}
CLAT_DEFINE_LOOP_OP(clat_hist_pair_add, float2, ulong, __global, atom_cmpxchg, CLAT_NO_PAUSE, v, clat_pair_add(old, v))
CLAT_DEFINE_LOOP_OP(clat_hist_pair_add_local, float2, ulong, __local, atom_cmpxchg, CLAT_NO_PAUSE, v, clat_pair_add(old, v))
#define CLAT_ACC_ZERO ((float2)(0.0f))
#define CLAT_ACC_OF(w) ((float2)((w), 0.0f))
#define CLAT_ACC_MERGE(a, b) clat_pair_add((a), (b))
#define CLAT_ACC_ATOMIC(p, a) clat_hist_pair_add((p), (a))
#define CLAT_ACC_ATOMIC_LOCAL(p, a) clat_hist_pair_add_local((p), (a))

#elif CLAT_HIST_ACCUM == CLAT_ACCUM_DOUBLE
#ifndef CLAT_HAS_DOUBLE
#error "kernels/histogram.cl: double weight sums need fp64 and cl_khr_int64_base_atomics"
#endif
typedef double clat_acc;
#define CLAT_ACC_ZERO 0.0
#define CLAT_ACC_OF(w) ((double)(w))
#define CLAT_ACC_MERGE(a, b) ((a) + (b))
#define CLAT_ACC_ATOMIC(p, a) clat_atomic_add_double((p), (a))
#define CLAT_ACC_ATOMIC_LOCAL(p, a) clat_atomic_add_double_local((p), (a))
#else
#error "kernels/histogram.cl: CLAT_HIST_ACCUM must be CLAT_ACCUM_FLOAT, CLAT_ACCUM_PAIR or CLAT_ACCUM_DOUBLE"
#endif

/* CLAT_EACH_C(F): F(c) for every weight channel c; CLAT_EACH_W(F, W): F(c, W(c)), W naming the
 * channel's weight of the element at hand. */
#if CLAT_HIST_CHANNELS == 0
#define CLAT_EACH_C(F)
#define CLAT_EACH_W(F, W)
#elif CLAT_HIST_CHANNELS == 1
#define CLAT_EACH_C(F) F(0)
#define CLAT_EACH_W(F, W) F(0, W(0))
#elif CLAT_HIST_CHANNELS == 2
#define CLAT_EACH_C(F) F(0) F(1)
#define CLAT_EACH_W(F, W) F(0, W(0)) F(1, W(1))
#elif CLAT_HIST_CHANNELS == 3
#define CLAT_EACH_C(F) F(0) F(1) F(2)
#define CLAT_EACH_W(F, W) F(0, W(0)) F(1, W(1)) F(2, W(2))
#else
#define CLAT_EACH_C(F) F(0) F(1) F(2) F(3)
#define CLAT_EACH_W(F, W) F(0, W(0)) F(1, W(1)) F(2, W(2)) F(3, W(3))
#endif

/* CLAT_POS: the type of even-bin positions (and of lo, hi, scale, edges; float for the other
 * kinds, which ignore them). CLAT_E the element, CLAT_LOAD a 16-byte load of CLAT_PER_LOAD
 * elements, CLAT_UNPACK(PUT, v) calls PUT(slot, W, lane) for each of its elements, W(c) naming
 * channel c's weight of that element. */

#if CLAT_HIST_KIND == CLAT_HIST_BYTES
#define CLAT_E uchar
#define CLAT_LOAD uint4
#define CLAT_PER_LOAD 16
#define CLAT_NSLOTS 256u
CLAT_FN uint clat_slot(uchar x, uint nbins, float lo, float hi, float scale, __global const float *edges) { return x; }
#define CLAT_WORD(PUT, c, j)                 \
  PUT((c)&0xffu, W, (j))                     \
  PUT(((c) >> 8) & 0xffu, W, (j) + 1)        \
  PUT(((c) >> 16) & 0xffu, W, (j) + 2)       \
  PUT((c) >> 24, W, (j) + 3)
#define CLAT_UNPACK(PUT, v) \
  CLAT_WORD(PUT, v.x, 0) CLAT_WORD(PUT, v.y, 4) CLAT_WORD(PUT, v.z, 8) CLAT_WORD(PUT, v.w, 12)

#elif CLAT_HIST_KIND == CLAT_HIST_KEYS
#define CLAT_E uint
#define CLAT_LOAD uint4
#define CLAT_PER_LOAD 4
#define CLAT_NSLOTS (nbins + 1u)
CLAT_FN uint clat_slot(uint x, uint nbins, float lo, float hi, float scale, __global const float *edges) {
  return x < nbins ? x : nbins;
}

#elif CLAT_HIST_KIND == CLAT_HIST_EVEN
#define CLAT_E CLAT_POS
#define CLAT_LOAD CLAT_POS_VEC
#define CLAT_PER_LOAD CLAT_POS_PER_VEC
#if CLAT_HIST_DOUBLE
#define CLAT_WVEC float2
#define CLAT_VLOAD_W vload2
#else
#define CLAT_WVEC float4
#define CLAT_VLOAD_W vload4
#endif
#if CLAT_HIST_2D
#define CLAT_NSLOTS (nbins * nbins_y + 15u)
#else
#define CLAT_NSLOTS (nbins + 3u)
#endif
/* How far (in bins) from a bin's edges the guess below may be wrong: t is within a few ulps of
 * the exact (x - lo) / bin width, each edge within one ulp of lo + k * width; the bound covers
 * both with a factor 4 to spare. Past 2^24 bins (float) the fraction is no use: 1, never far. */
CLAT_FN CLAT_POS clat_slot_guard(uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale) {
  const CLAT_POS eps = CLAT_HIST_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
  return nbins < (1u << 24) ? (CLAT_POS)4 * eps * ((CLAT_POS)1.5 * max(fabs(lo), fabs(hi)) * scale + (CLAT_POS)2 * nbins)
                            : (CLAT_POS)1;
}
CLAT_FN uint clat_slot(CLAT_POS x, uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale, CLAT_POS guard,
                       __global const CLAT_POS *edges) {
  if (!(x >= lo && x <= hi)) return isnan(x) ? nbins + 2u : x < lo ? nbins : nbins + 1u;
  const CLAT_POS t = (x - lo) * scale; /* >= 0, and at most nbins by a few ulps */
  /* t >= 0; the float cap keeps the conversion defined where t rounds past 2^32 (it is exact). */
  const uint b = min((uint)min(t, (CLAT_POS)4294967040.0f), nbins - 1u);
  /* Far inside bin b the guess is right without reading an edge. */
  const CLAT_POS frac = t - (CLAT_POS)b;
  if (frac > guard && frac < (CLAT_POS)1 - guard) return b;
  if (x >= edges[b] && (b == nbins - 1u || x < edges[b + 1u])) return b; /* the guess is right */
  /* Near an edge, or where rounding moved the guess further (huge bin counts, narrow ranges): a
   * binary search over the edges, at most 32 steps whatever the range. Invariant: edges[first]
   * <= x (or first == 0: x >= lo), and x < edges[last] (or last == nbins). Equal edges (bins no
   * value of this type falls in) are passed over: first ends on the last edge <= x. */
  uint first = 0u, last = nbins;
  while (last - first > 1u) {
    const uint mid = first + (last - first) / 2u;
    if (x < edges[mid]) last = mid;
    else first = mid;
  }
  return first;
}
#if CLAT_HIST_2D
/* A point's slot from its two axes' slots (see the header). */
CLAT_FN uint clat_slot_2d(uint sx, uint sy, uint nbins, uint nbins_y) {
  if (sx < nbins && sy < nbins_y) return sx * nbins_y + sy;
  const uint cx = sx < nbins ? 0u : sx - nbins + 1u, cy = sy < nbins_y ? 0u : sy - nbins_y + 1u;
  return nbins * nbins_y + 4u * cx + cy - 1u;
}
#define CLAT_SLOT_AT(x, y)                                                                                            \
  clat_slot_2d(clat_slot((x), nbins, lo, hi, scale, guard, edges), clat_slot((y), nbins_y, lo_y, hi_y, scale_y, guard_y, edges_y), \
               nbins, nbins_y)
#define CLAT_HIST_GUARDS                                                \
  const CLAT_POS guard = clat_slot_guard(nbins, lo, hi, scale);        \
  const CLAT_POS guard_y = clat_slot_guard(nbins_y, lo_y, hi_y, scale_y);
#else
#define CLAT_SLOT_AT(x, y) clat_slot((x), nbins, lo, hi, scale, guard, edges)
#define CLAT_HIST_GUARDS const CLAT_POS guard = clat_slot_guard(nbins, lo, hi, scale);
#endif
#define CLAT_WV_x(c) wv##c.x
#define CLAT_WV_y(c) wv##c.y
#define CLAT_WV_z(c) wv##c.z
#define CLAT_WV_w(c) wv##c.w
#if CLAT_HIST_VSLOTS
/* CPUs (the host sets CLAT_HIST_VSLOTS): a whole load's slots in vector arithmetic, the same
 * operations clat_slot does per element (PoCL runs a work-item on one thread: nothing else
 * vectorizes the bin math); a load with a lane near an edge takes clat_slot per lane. */
#if CLAT_HIST_DOUBLE
#define CLAT_UVEC uint2
#define CLAT_MASK long2
#else
#define CLAT_UVEC uint4
#define CLAT_MASK int4
#endif
CLAT_FN CLAT_UVEC clat_slots(CLAT_LOAD x, uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale, CLAT_POS guard,
                             __global const CLAT_POS *edges) {
  const CLAT_MASK inside = (x >= lo) & (x <= hi); /* false for NaN */
  const CLAT_LOAD t = select((CLAT_LOAD)0, min((x - lo) * scale, (CLAT_POS)4294967040.0f), inside);
  const CLAT_UVEC b = min(CLAT_CAT(convert_, CLAT_UVEC)(t), (CLAT_UVEC)(nbins - 1u));
  const CLAT_LOAD frac = t - CLAT_CAT(convert_, CLAT_LOAD)(b);
  if (!any(inside & ((frac <= guard) | (frac >= (CLAT_POS)1 - guard)))) {
    CLAT_UVEC slot = select(b, (CLAT_UVEC)(nbins), CLAT_CAT(convert_, CLAT_UVEC)(x < lo));
    slot = select(slot, (CLAT_UVEC)(nbins + 1u), CLAT_CAT(convert_, CLAT_UVEC)(x > hi));
    return select(slot, (CLAT_UVEC)(nbins + 2u), CLAT_CAT(convert_, CLAT_UVEC)(isnan(x)));
  }
#if CLAT_HIST_DOUBLE
  return (uint2)(clat_slot(x.x, nbins, lo, hi, scale, guard, edges), clat_slot(x.y, nbins, lo, hi, scale, guard, edges));
#else
  return (uint4)(clat_slot(x.x, nbins, lo, hi, scale, guard, edges), clat_slot(x.y, nbins, lo, hi, scale, guard, edges),
                 clat_slot(x.z, nbins, lo, hi, scale, guard, edges), clat_slot(x.w, nbins, lo, hi, scale, guard, edges));
#endif
}
#if CLAT_HIST_2D
/* Two axes: each axis' slots, then the points' slots, all in vector arithmetic (clat_slot_2d's
 * rule, lanes in no bin by select). */
CLAT_FN CLAT_UVEC clat_slots_2d(CLAT_UVEC sx, CLAT_UVEC sy, uint nbins, uint nbins_y) {
  const CLAT_UVEC cx = select(sx - nbins + 1u, (CLAT_UVEC)0, sx < nbins), cy = select(sy - nbins_y + 1u, (CLAT_UVEC)0, sy < nbins_y);
  return select(nbins * nbins_y + 4u * cx + cy - 1u, sx * nbins_y + sy, (sx < nbins) & (sy < nbins_y));
}
#define CLAT_VSLOTS(v)                                                                            \
  const CLAT_UVEC slots_ = clat_slots_2d(clat_slots(v, nbins, lo, hi, scale, guard, edges),       \
                                         clat_slots(vy, nbins_y, lo_y, hi_y, scale_y, guard_y, edges_y), nbins, nbins_y);
#else
#define CLAT_VSLOTS(v) const CLAT_UVEC slots_ = clat_slots(v, nbins, lo, hi, scale, guard, edges);
#endif
#if CLAT_HIST_DOUBLE
#define CLAT_UNPACK(PUT, v)                                                        \
  {                                                                                \
    CLAT_VSLOTS(v)                                                                 \
    PUT(slots_.x, CLAT_WV_x, 0)                                                    \
    PUT(slots_.y, CLAT_WV_y, 1)                                                    \
  }
#else
#define CLAT_UNPACK(PUT, v)                                                        \
  {                                                                                \
    CLAT_VSLOTS(v)                                                                 \
    PUT(slots_.x, CLAT_WV_x, 0)                                                    \
    PUT(slots_.y, CLAT_WV_y, 1)                                                    \
    PUT(slots_.z, CLAT_WV_z, 2)                                                    \
    PUT(slots_.w, CLAT_WV_w, 3)                                                    \
  }
#endif
#elif CLAT_HIST_DOUBLE
#define CLAT_UNPACK(PUT, v)                      \
  PUT(CLAT_SLOT_AT(v.x, vy.x), CLAT_WV_x, 0)     \
  PUT(CLAT_SLOT_AT(v.y, vy.y), CLAT_WV_y, 1)
#else
#define CLAT_UNPACK(PUT, v)                      \
  PUT(CLAT_SLOT_AT(v.x, vy.x), CLAT_WV_x, 0)     \
  PUT(CLAT_SLOT_AT(v.y, vy.y), CLAT_WV_y, 1)     \
  PUT(CLAT_SLOT_AT(v.z, vy.z), CLAT_WV_z, 2)     \
  PUT(CLAT_SLOT_AT(v.w, vy.w), CLAT_WV_w, 3)
#endif
#else
#error "kernels/histogram.cl: CLAT_HIST_KIND must be CLAT_HIST_BYTES, CLAT_HIST_KEYS or CLAT_HIST_EVEN"
#endif

#if CLAT_HIST_KIND == CLAT_HIST_KEYS
#define CLAT_UNPACK(PUT, v)                                          \
  PUT(clat_slot(v.x, nbins, lo, hi, scale, edges), W, 0)             \
  PUT(clat_slot(v.y, nbins, lo, hi, scale, edges), W, 1)             \
  PUT(clat_slot(v.z, nbins, lo, hi, scale, edges), W, 2)             \
  PUT(clat_slot(v.w, nbins, lo, hi, scale, edges), W, 3)
#endif
#if CLAT_HIST_KIND != CLAT_HIST_EVEN
#define CLAT_SLOT_AT(x, y) clat_slot((x), nbins, lo, hi, scale, edges)
#define CLAT_HIST_GUARDS
#endif

#define CLAT_HIST_ARGS                                                                                          \
  __global const CLAT_E *in, ulong offset, ulong count, uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale,   \
      __global const CLAT_POS *edges, __global const CLAT_E *in_y, ulong y_offset, uint nbins_y, CLAT_POS lo_y, \
      CLAT_POS hi_y, CLAT_POS scale_y, __global const CLAT_POS *edges_y, __global const float *w0, ulong w0_offset,  \
      __global const float *w1, ulong w1_offset, __global const float *w2, ulong w2_offset,                     \
      __global const float *w3, ulong w3_offset, __global uint *counts, __global clat_acc *wsums,               \
      __local uint *lcounts, __local clat_acc *lweights

/* Per-element loads beside the values: the second axis' points and the weights (vload: any
 * alignment of their own). */
#if CLAT_HIST_2D
#define CLAT_LOAD_Y(i) const CLAT_LOAD vy = CLAT_VLOAD_Y((i), py);
#if CLAT_HIST_DOUBLE
#define CLAT_VLOAD_Y vload2
#else
#define CLAT_VLOAD_Y vload4
#endif
#else
#define CLAT_LOAD_Y(i)
#endif
#define CLAT_DECLARE_WP(c) const __global float *wp##c = w##c + w##c##_offset + head, *wq##c = w##c + w##c##_offset;
#define CLAT_LOAD_WV(c) const CLAT_WVEC wv##c = CLAT_VLOAD_W(i, wp##c);
#define CLAT_WS(c) wq##c[i]

/* CLAT_HIST_AHEAD steps' loads (values and weights; one axis) issued before their elements'
 * atomics (GPUs; the host sets it): the atomics would otherwise hold the next loads back. */
#ifndef CLAT_HIST_AHEAD
#define CLAT_HIST_AHEAD 1
#endif
#define CLAT_AHEAD_W_DECL(c) CLAT_WVEC ahead_w##c[CLAT_HIST_AHEAD];
#define CLAT_AHEAD_W_LOAD(c) ahead_w##c[u] = CLAT_VLOAD_W(i + u * step, wp##c);
#define CLAT_AHEAD_W_USE(c) const CLAT_WVEC wv##c = ahead_w##c[u];
#if CLAT_HIST_AHEAD > 1 && !CLAT_HIST_2D
#define CLAT_HIST_LOADS_AHEAD(PUT)                                                 \
  for (; i + (CLAT_HIST_AHEAD - 1u) * step < end; i += CLAT_HIST_AHEAD * step) {   \
    CLAT_LOAD ahead[CLAT_HIST_AHEAD];                                              \
    CLAT_EACH_C(CLAT_AHEAD_W_DECL)                                                 \
    for (uint u = 0; u < CLAT_HIST_AHEAD; ++u) {                                   \
      ahead[u] = pv[i + u * step];                                                 \
      CLAT_EACH_C(CLAT_AHEAD_W_LOAD)                                               \
    }                                                                              \
    for (uint u = 0; u < CLAT_HIST_AHEAD; ++u) {                                   \
      const CLAT_LOAD v = ahead[u];                                                \
      CLAT_EACH_C(CLAT_AHEAD_W_USE)                                                \
      CLAT_UNPACK(PUT, v)                                                          \
    }                                                                              \
  }
#else
#define CLAT_HIST_LOADS_AHEAD(PUT)
#endif

/* PUT(slot, W, lane) for every element of this work-item's share: whole 16-byte loads, then the
 * unaligned head and the tail one element at a time. The load loop counts in uint (cheaper than
 * ulong on GPUs): a launch has < 2^32 elements and >= 2 per load, so nvec < 2^31 and i + step
 * cannot wrap. */
#define CLAT_HIST_FOR_EACH(PUT)                                                            \
  {                                                                                        \
    const __global CLAT_E *p = in + offset;                                                \
    const ulong head = CLAT_HEAD(p, count, CLAT_PER_LOAD);                                 \
    const ulong nvec = (count - head) / CLAT_PER_LOAD;                                     \
    const __global CLAT_LOAD *pv = (const __global CLAT_LOAD *)(p + head);                 \
    const __global CLAT_E *py = in_y + y_offset + head, *pyq = in_y + y_offset;            \
    CLAT_EACH_C(CLAT_DECLARE_WP)                                                           \
    CLAT_HIST_GUARDS                                                                       \
    const clat_share share = clat_item_share(nvec);                                        \
    const uint end = (uint)share.end, step = (uint)share.step;                             \
    uint i = (uint)share.begin;                                                            \
    CLAT_HIST_LOADS_AHEAD(PUT)                                                             \
    for (; i < end; i += step) {                                                           \
      const CLAT_LOAD v = pv[i];                                                           \
      CLAT_LOAD_Y(i)                                                                       \
      CLAT_EACH_C(CLAT_LOAD_WV)                                                            \
      CLAT_UNPACK(PUT, v)                                                                  \
    }                                                                                      \
    /* The < 2 * CLAT_PER_LOAD leftovers (unaligned head, tail) in one loop with one PUT:      \
     * less code beside the hot loop (two loops here cost the H200 12% of its throughput). */ \
    const uint nhead = (uint)head, tail_at = (uint)(head + nvec * CLAT_PER_LOAD);           \
    const uint nleft = nhead + (uint)count - tail_at;                                      \
    for (uint k = (uint)get_global_id(0); k < nleft; k += (uint)get_global_size(0)) {      \
      const uint i = k < nhead ? k : tail_at + (k - nhead);                                \
      PUT(CLAT_SLOT_AT(p[i], pyq[i]), CLAT_WS, 0)                                          \
    }                                                                                      \
  }

__kernel void clat_hist_global(CLAT_HIST_ARGS) {
  const uint nslots = CLAT_NSLOTS;
#define CLAT_GLOBAL_W(c, wt) CLAT_ACC_ATOMIC(wsums + (c) * nslots + slot_, CLAT_ACC_OF(wt));
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
__kernel CLAT_HIST_LOCAL_ATTR void clat_hist_local(CLAT_HIST_ARGS) {
  const uint lid = get_local_id(0), lsize = get_local_size(0);
  const uint shift = CLAT_HIST_SHIFT, copies = 1u << shift, nslots = CLAT_NSLOTS;
  for (uint i = lid; i < (nslots << shift); i += lsize) lcounts[i] = 0u;
  for (uint i = lid; i < ((CLAT_HIST_CHANNELS * nslots) << shift); i += lsize) lweights[i] = CLAT_ACC_ZERO;
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile __local uint *mine = lcounts + (lid & (copies - 1u));
  volatile __local clat_acc *mine_w = lweights + (lid & (copies - 1u));
#define CLAT_LOCAL_W(c, wt) CLAT_ACC_ATOMIC_LOCAL(mine_w + (((c) * nslots + slot_) << shift), CLAT_ACC_OF(wt));
#define CLAT_PUT_LOCAL(s, W, j)                \
  {                                            \
    const uint slot_ = (s);                    \
    atomic_inc(mine + (slot_ << shift));       \
    CLAT_EACH_W(CLAT_LOCAL_W, W)               \
  }
  CLAT_HIST_FOR_EACH(CLAT_PUT_LOCAL)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = lid; s < nslots; s += lsize) {
    uint total = 0u;
    for (uint c = 0; c < copies; ++c) total += lcounts[(s << shift) + ((c + s) & (copies - 1u))]; /* rotated: neighbours in other banks */
    if (!total) continue;
    CLAT_HIST_ADD(s, total);
    for (uint ch = 0; ch < CLAT_HIST_CHANNELS; ++ch) {
      const uint at = (ch * nslots + s) << shift;
      clat_acc weight = CLAT_ACC_ZERO;
      for (uint c = 0; c < copies; ++c) weight = CLAT_ACC_MERGE(weight, lweights[at + ((c + s) & (copies - 1u))]);
      CLAT_ACC_ATOMIC(wsums + ch * nslots + s, weight);
    }
  }
}

/* clat_hist_private's weight sums over one work-item's share. Compensated pairs sum in double
 * where the device has it: one add per weight instead of a pair's twenty, each within 2^-53 of
 * the partial sum (a pair's add: 3u^2), turned into a pair (within u^2 of the double) once, when
 * merged. */
#if CLAT_HIST_ACCUM == CLAT_ACCUM_PAIR && defined(CLAT_HAS_DOUBLE)
typedef double clat_pacc;
#define CLAT_PACC_ZERO 0.0
#define CLAT_PACC_OF(w) ((double)(w))
#define CLAT_PACC_MERGE(a, b) ((a) + (b))
CLAT_FN float2 clat_pair_of(double d) {
  const float hi = (float)d; /* past float's range: an infinity, as a pair's add gives it */
  return (float2)(hi, isfinite(hi) ? (float)(d - (double)hi) : 0.0f);
}
#define CLAT_PACC_OUT(a) clat_pair_of(a)
#else
typedef clat_acc clat_pacc;
#define CLAT_PACC_ZERO CLAT_ACC_ZERO
#define CLAT_PACC_OF(w) CLAT_ACC_OF(w)
#define CLAT_PACC_MERGE(a, b) CLAT_ACC_MERGE(a, b)
#define CLAT_PACC_OUT(a) (a)
#endif

/* Four channels summed by plain adds (float, or double): one slot's four sums are one vector,
 * an element's four weights one vector add. */
#if CLAT_HIST_CHANNELS == 4 && CLAT_HIST_VSLOTS && (CLAT_HIST_ACCUM == CLAT_ACCUM_FLOAT || defined(CLAT_HAS_DOUBLE))
#define CLAT_PRIVATE_VEC4 1
#if CLAT_HIST_ACCUM == CLAT_ACCUM_FLOAT
#define CLAT_PACC4 float4
#define CLAT_PACC4_OF(w) (w)
#else
#define CLAT_PACC4 double4
#define CLAT_PACC4_OF(w) convert_double4(w)
#endif
#else
#define CLAT_PRIVATE_VEC4 0
#endif

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
#define CLAT_PRIVATE_W(c, wt) CLAT_WEIGHTS_AT(c, slot_) = CLAT_PACC_MERGE(CLAT_WEIGHTS_AT(c, slot_), CLAT_PACC_OF(wt));
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
  for (uint s = 0; s < nslots; ++s) {
    uint total = 0u;
    for (uint c = 0; c < CLAT_HIST_COPIES; ++c) total += mine[c * CLAT_HIST_SLOTS + s];
    if (!total) continue;
    CLAT_HIST_ADD(s, total);
#if CLAT_HIST_CHANNELS
    for (uint ch = 0; ch < CLAT_HIST_CHANNELS; ++ch) CLAT_ACC_ATOMIC(wsums + ch * nslots + s, CLAT_PACC_OUT(CLAT_WEIGHTS_AT(ch, s)));
#endif
  }
}

__kernel void clat_hist_merge(__global uint *counts, __global ulong *totals, uint nslots) {
  const size_t s = get_global_id(0);
  if (s >= nslots) return;
  totals[s] += counts[s];
  counts[s] = 0u;
}

#endif /* CLATOMICS_KERNELS_HISTOGRAM_CL */
