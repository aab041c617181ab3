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
 * first guess (scale 0: every t is 0) there is none: 1, never far (and never NaN, which
 * inf * 0 would make and the vector path would read as far from every edge). */
CLAT_FN CLAT_POS clat_slot_guard(uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale) {
  const CLAT_POS eps = CLAT_HIST_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
  return nbins < (1u << 24) && scale != (CLAT_POS)0
             ? (CLAT_POS)4 * eps * ((CLAT_POS)1.5 * max(fabs(lo), fabs(hi)) * scale + (CLAT_POS)2 * nbins)
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

#endif /* CLATOMICS_KERNELS_HISTOGRAM_SLOTS_CL */
