/* kernels/histogram/slots.cl — an element's slot for each kind (CLAT_HIST_KIND): bytes and
 * keys as they are, even bins by a first guess checked against the edges; CLAT_UNPACK, the slots
 * of one 16-byte load.
 */
#include "kernels/histogram/config.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_SLOTS_CL
#define CLATOMICS_KERNELS_HISTOGRAM_SLOTS_CL

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
 * both with a factor 4 to spare. Past 2^24 bins (float) the fraction is no use, and with no
 * first guess (scale 0: every t is 0) there is none: 1, never far for clat_slot, whose fraction
 * lies in [0, 1] (not NaN, which inf * 0 would make). */
CLAT_FN CLAT_POS clat_slot_guard(uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale) {
  const CLAT_POS eps = CLAT_HIST_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
  return nbins < (1u << 24) && scale != (CLAT_POS)0
             ? (CLAT_POS)4 * eps * ((CLAT_POS)1.5 * max(fabs(lo), fabs(hi)) * scale + (CLAT_POS)2 * nbins)
             : (CLAT_POS)1;
}
/* The guard of clat_slots (below), whose rounded guess is no use past 2^22 bins (float): there
 * the rounder's sum has no whole number in its low bits, |d| reaches 2 and more, and no lane in
 * range is sure (a guard of 1 would pass them). */
CLAT_FN CLAT_POS clat_slots_guard(uint nbins, CLAT_POS guard) {
  return CLAT_HIST_DOUBLE || nbins < (1u << 22) ? guard : (CLAT_POS)INFINITY;
}
/* The bin of x, lo <= x <= hi, from a guess b <= nbins - 1: b where its edges hold x, else a
 * binary search over the edges (near an edge, or where rounding moved the guess further: huge bin
 * counts, narrow ranges), at most 32 steps whatever the range. Invariant: edges[first] <= x (or
 * first == 0: x >= lo), and x < edges[last] (or last == nbins). Equal edges (bins no value of
 * this type falls in) are passed over: first ends on the last edge <= x. */
CLAT_FN uint clat_slot_search(CLAT_POS x, uint b, uint nbins, __global const CLAT_POS *edges) {
  if (x >= edges[b] && (b == nbins - 1u || x < edges[b + 1u])) return b;
  uint first = 0u, last = nbins;
  while (last - first > 1u) {
    const uint mid = first + (last - first) / 2u;
    if (x < edges[mid]) last = mid;
    else first = mid;
  }
  return first;
}
/* The scalar guess: floor(t) by conversion. t >= 0; the float cap keeps the conversion defined
 * where t rounds past 2^32 (it is exact). */
CLAT_FN uint clat_slot_guess(CLAT_POS t, uint nbins) { return min((uint)min(t, (CLAT_POS)4294967040.0f), nbins - 1u); }
CLAT_FN uint clat_slot(CLAT_POS x, uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale, CLAT_POS guard,
                       __global const CLAT_POS *edges) {
  if (!(x >= lo && x <= hi)) return isnan(x) ? nbins + 2u : x < lo ? nbins : nbins + 1u;
  const CLAT_POS t = (x - lo) * scale; /* >= 0, and at most nbins by a few ulps */
  const uint b = clat_slot_guess(t, nbins);
  /* Far inside bin b the guess is right without reading an edge. */
  const CLAT_POS frac = t - (CLAT_POS)b;
  if (frac > guard && frac < (CLAT_POS)1 - guard) return b;
  return clat_slot_search(x, b, nbins, edges);
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
#define CLAT_HIST_GUARDS                                                                   \
  const CLAT_POS guard = clat_slot_guard(nbins, lo, hi, scale);                           \
  const CLAT_POS guard_y = clat_slot_guard(nbins_y, lo_y, hi_y, scale_y);                 \
  const CLAT_POS vguard = clat_slots_guard(nbins, guard), vguard_y = clat_slots_guard(nbins_y, guard_y);
#else
#define CLAT_SLOT_AT(x, y) clat_slot((x), nbins, lo, hi, scale, guard, edges)
#define CLAT_HIST_GUARDS                                        \
  const CLAT_POS guard = clat_slot_guard(nbins, lo, hi, scale); \
  const CLAT_POS vguard = clat_slots_guard(nbins, guard);
#endif
#define CLAT_WV_x(c) wv##c.x
#define CLAT_WV_y(c) wv##c.y
#define CLAT_WV_z(c) wv##c.z
#define CLAT_WV_w(c) wv##c.w
/* A whole load's slots in vector arithmetic: the same rule as clat_slot, with one test for the
 * load where clat_slot tests each element. A CPU runs a work-item on one thread, so nothing else
 * vectorizes the bin math; a GPU, which runs each lane alone all the same, saves the per-element
 * branches and conversions: it is bound by the instructions issued per element (H200: 100 bins at
 * the read-only pass's rate allow fewer than 30; clat_slot per element took about 28 and ran at
 * 0.70x of it, this at 0.92x). floor(t) needs no conversion: adding 1.5 * 2^23 (float; 2^52
 * double) to t in [0, 2^22) leaves its nearest integer in the sum's low bits, and t less that
 * integer, d, is exact; the integer is floor(t), or one less where d is negative. |d| > guard is
 * then the scalar guess's test (t at least guard from an edge; clat_slots_guard past 2^22 bins).
 * Values below lo or above hi take their tallies here; only a lane in doubt (NaN, or near an
 * edge) reads the edges, alone: with many bins the guard is wide (10,000 bins: 1.7% of a bin
 * each side), and a load that sent all four lanes to clat_slot for one lane in doubt ran 22%
 * slower on the H200 than clat_slot per element. */
/* CLAT_BITS: unsigned words as wide as a position (the rounded sum's bits less the rounder's wrap
 * for values below lo: no signed overflow); CLAT_MASK: a position compare's result. */
#if CLAT_HIST_DOUBLE
#define CLAT_UVEC uint2
#define CLAT_BITS ulong2
#define CLAT_AS_BITS as_ulong2
#define CLAT_MASK long2
#define CLAT_SIGN_SHIFT 63
#define CLAT_ROUNDER 6755399441055744.0 /* 1.5 * 2^52 */
#else
#define CLAT_UVEC uint4
#define CLAT_BITS uint4
#define CLAT_AS_BITS as_uint4
#define CLAT_MASK int4
#define CLAT_SIGN_SHIFT 31
#define CLAT_ROUNDER 12582912.0f /* 1.5 * 2^23 */
#endif
/* A lane the rounder leaves in doubt (NaN, or in range near an edge): its rounded floor(t) b as
 * the guess, or past 2^22 bins (float) the scalar one. */
CLAT_FN uint clat_slot_lane(CLAT_POS x, CLAT_POS t, uint b, uint nbins, __global const CLAT_POS *edges) {
  if (isnan(x)) return nbins + 2u;
  const uint guess = CLAT_HIST_DOUBLE || nbins < (1u << 22) ? min(b, nbins - 1u) : clat_slot_guess(t, nbins);
  return clat_slot_search(x, guess, nbins, edges);
}
#define CLAT_SLOT_LANE(c) \
  if (!sure.c) slot.c = clat_slot_lane(x.c, t.c, (uint)b.c, nbins, edges);
CLAT_FN CLAT_UVEC clat_slots(CLAT_LOAD x, uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale, CLAT_POS guard,
                             __global const CLAT_POS *edges) {
  const CLAT_LOAD t = (x - lo) * scale;
  const CLAT_LOAD r = t + CLAT_ROUNDER;
  const CLAT_LOAD d = t - (r - CLAT_ROUNDER);
  /* d's sign bit: the nearest integer less one. A d of -0 (x -0, lo +0) is on an edge, in doubt
   * whatever the guess. */
  const CLAT_BITS b = CLAT_AS_BITS(r) - CLAT_AS_BITS((CLAT_LOAD)CLAT_ROUNDER) - (CLAT_AS_BITS(d) >> CLAT_SIGN_SHIFT);
  const CLAT_MASK below = x < lo, above = x > hi;
  const CLAT_MASK sure = below | above | (fabs(d) > guard);
  CLAT_BITS slot = select(select(b, (CLAT_BITS)(nbins + 1u), above), (CLAT_BITS)(nbins), below);
  if (!all(sure)) {
    CLAT_SLOT_LANE(x)
    CLAT_SLOT_LANE(y)
#if !CLAT_HIST_DOUBLE
    CLAT_SLOT_LANE(z)
    CLAT_SLOT_LANE(w)
#endif
  }
  return CLAT_CAT(convert_, CLAT_UVEC)(slot);
}
#if CLAT_HIST_2D
/* Two axes: each axis' slots, then the points' slots, all in vector arithmetic (clat_slot_2d's
 * rule, lanes in no bin by select). */
CLAT_FN CLAT_UVEC clat_slots_2d(CLAT_UVEC sx, CLAT_UVEC sy, uint nbins, uint nbins_y) {
  const CLAT_UVEC cx = select(sx - nbins + 1u, (CLAT_UVEC)0, sx < nbins), cy = select(sy - nbins_y + 1u, (CLAT_UVEC)0, sy < nbins_y);
  return select(nbins * nbins_y + 4u * cx + cy - 1u, sx * nbins_y + sy, (sx < nbins) & (sy < nbins_y));
}
#define CLAT_VSLOTS(v)                                                                            \
  const CLAT_UVEC slots_ = clat_slots_2d(clat_slots(v, nbins, lo, hi, scale, vguard, edges),       \
                                         clat_slots(vy, nbins_y, lo_y, hi_y, scale_y, vguard_y, edges_y), nbins, nbins_y);
#else
#define CLAT_VSLOTS(v) const CLAT_UVEC slots_ = clat_slots(v, nbins, lo, hi, scale, vguard, edges);
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

#endif /* CLATOMICS_KERNELS_HISTOGRAM_SLOTS_CL */
