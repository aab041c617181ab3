/* kernels/histogram/weights.cl — how weights are summed (CLAT_HIST_ACCUM): the sums in global
 * memory (clat_acc), the partial sums a work-group keeps in __local memory or a work-item in
 * private memory (clat_pacc), and the per-channel macros that repeat a step for each weight
 * channel (CLAT_HIST_CHANNELS).
 */
#include "kernels/histogram/config.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_WEIGHTS_CL
#define CLATOMICS_KERNELS_HISTOGRAM_WEIGHTS_CL

/* ---- the sums in global memory: clat_acc; CLAT_ACC_ATOMIC(p, a) adds a partial sum a,
 * CLAT_ACC_ATOMIC_W(p, w) one float weight w (the global kernel's step). ---- */
#if CLAT_HIST_ACCUM == CLAT_ACCUM_FLOAT
typedef float clat_acc;
#define CLAT_ACC_ATOMIC(p, a) clat_atomic_add_float_noret((p), (a))
#define CLAT_ACC_ATOMIC_W(p, w) clat_atomic_add_float_noret((p), (w))

#elif CLAT_HIST_ACCUM == CLAT_ACCUM_PAIR
#ifndef CLAT_HAS_INT64_ATOMICS
#error "kernels/histogram.cl: compensated weight sums need cl_khr_int64_base_atomics"
#endif
/* A double-word (hi, lo): the value hi + lo, |lo| <= ulp(hi) / 2 after every update. The sum of
 * two is Joldes, Muller and Popescu's AccurateDWPlusDW (ACM TOMS 44(2), 2017, algorithm 6):
 * relative error at most 3u^2 / (1 - 4u), u = 2^-24; a pair plus one float is their DWPlusFP
 * (algorithm 4): at most 2u^2 / (1 - 2u), within the same bound at half the operations (a shorter
 * compare-exchange window). Both when float adds round to nearest (OpenCL requires it; the
 * histogram's build has no fast-math option) and nothing overflows. Only adds: no multiply that
 * FP_CONTRACT could fuse. */
typedef float2 clat_acc;
CLAT_FN float2 clat_two_sum(float a, float b) {
  const float s = a + b, bb = s - a;
  return (float2)(s, (a - (s - bb)) + (b - bb));
}
CLAT_FN float2 clat_fast_two_sum(float a, float b) { /* |a| >= |b| or a == 0 */
  const float s = a + b;
  return (float2)(s, b - (s - a));
}
/* An infinity, a NaN or a sum past float's range makes the error terms inf - inf (NaN): the sum
 * is then the float sum of the hi parts, as float_atomic gives it. */
CLAT_FN float2 clat_pair_add(float2 x, float2 y) {
  const float2 s = clat_two_sum(x.x, y.x), t = clat_two_sum(x.y, y.y);
  const float2 v = clat_fast_two_sum(s.x, s.y + t.x);
  const float2 r = clat_fast_two_sum(v.x, t.y + v.y);
  return isfinite(r.x) ? r : (float2)(x.x + y.x, 0.0f);
}
CLAT_FN float2 clat_pair_add_float(float2 x, float y) {
  const float2 s = clat_two_sum(x.x, y);
  const float2 r = clat_fast_two_sum(s.x, x.y + s.y);
  return isfinite(r.x) ? r : (float2)(x.x + y, 0.0f);
}
CLAT_DEFINE_LOOP_OP(clat_hist_pair_add, float2, ulong, __global, atom_cmpxchg, CLAT_NO_PAUSE, v, clat_pair_add(old, v))
CLAT_DEFINE_LOOP_OP(clat_hist_pair_add_w, float2, ulong, __global, atom_cmpxchg, CLAT_NO_PAUSE, v, clat_pair_add_float(old, v.x))
#define CLAT_ACC_ATOMIC(p, a) clat_hist_pair_add((p), (a))
#define CLAT_ACC_ATOMIC_W(p, w) clat_hist_pair_add_w((p), (float2)((w), 0.0f))

#elif CLAT_HIST_ACCUM == CLAT_ACCUM_DOUBLE
#ifndef CLAT_HAS_DOUBLE
#error "kernels/histogram.cl: double weight sums need fp64 and cl_khr_int64_base_atomics"
#endif
typedef double clat_acc;
#define CLAT_ACC_ATOMIC(p, a) clat_atomic_add_double_noret((p), (a))
#define CLAT_ACC_ATOMIC_W(p, w) clat_atomic_add_double_noret((p), (double)(w))
#else
#error "kernels/histogram.cl: CLAT_HIST_ACCUM must be CLAT_ACCUM_FLOAT, CLAT_ACCUM_PAIR or CLAT_ACCUM_DOUBLE"
#endif

/* ---- partial sums, a work-group's (__local copies) or a work-item's (private): clat_pacc;
 * CLAT_PACC_ADD(a, w) a plus one float weight; CLAT_PACC_MERGE(a, b) two as one;
 * CLAT_PACC_ATOMIC_LOCAL(p, w) adds one weight into a __local partial sum; CLAT_PACC_OUT(a) a as
 * a global sum; CLAT_PACC_NONZERO(a): adding a to a global sum can change it (global sums start
 * at +0 and never hold -0, so a zero of either sign leaves them as they are).
 * Compensated pairs sum in double where the device has it: one add per weight instead of a pair's
 * ten, each within 2^-53 of the partial sum (a pair's: 2u^2), turned into a pair (within u^2 of
 * the double) once, when the partial sum goes to global memory. ---- */
#if CLAT_HIST_ACCUM == CLAT_ACCUM_FLOAT
typedef float clat_pacc;
#define CLAT_PACC_ZERO 0.0f
#define CLAT_PACC_ADD(a, w) ((a) + (w))
#define CLAT_PACC_MERGE(a, b) ((a) + (b))
#define CLAT_PACC_ATOMIC_LOCAL(p, w) clat_atomic_add_float_noret_local((p), (w))
#define CLAT_PACC_OUT(a) (a)
#define CLAT_PACC_NONZERO(a) ((a) != 0.0f)
#elif CLAT_HIST_ACCUM == CLAT_ACCUM_DOUBLE || defined(CLAT_HAS_DOUBLE)
typedef double clat_pacc;
#define CLAT_PACC_ZERO 0.0
#define CLAT_PACC_ADD(a, w) ((a) + (double)(w))
#define CLAT_PACC_MERGE(a, b) ((a) + (b))
#define CLAT_PACC_ATOMIC_LOCAL(p, w) clat_atomic_add_double_noret_local((p), (double)(w))
#define CLAT_PACC_NONZERO(a) ((a) != 0.0)
#if CLAT_HIST_ACCUM == CLAT_ACCUM_DOUBLE
#define CLAT_PACC_OUT(a) (a)
#else
CLAT_FN float2 clat_pair_of(double d) {
  const float hi = (float)d; /* past float's range: an infinity, as a pair's add gives it */
  return (float2)(hi, isfinite(hi) ? (float)(d - (double)hi) : 0.0f);
}
#define CLAT_PACC_OUT(a) clat_pair_of(a)
#endif
#else /* compensated pairs without fp64 */
typedef float2 clat_pacc;
CLAT_DEFINE_LOOP_OP(clat_hist_pair_add_w_local, float2, ulong, __local, atom_cmpxchg, CLAT_NO_PAUSE, v, clat_pair_add_float(old, v.x))
#define CLAT_PACC_ZERO ((float2)(0.0f))
#define CLAT_PACC_ADD(a, w) clat_pair_add_float((a), (w))
#define CLAT_PACC_MERGE(a, b) clat_pair_add((a), (b))
#define CLAT_PACC_ATOMIC_LOCAL(p, w) clat_hist_pair_add_w_local((p), (float2)((w), 0.0f))
#define CLAT_PACC_OUT(a) (a)
#define CLAT_PACC_NONZERO(a) ((a).x != 0.0f || (a).y != 0.0f)
#endif

/* The global sums a work-group adds into: CLAT_HIST_WCOPIES copies of every channel's sums (a
 * power of two, added up by the host), group g's in copy g % CLAT_HIST_WCOPIES. Compare-exchange
 * loops of many groups on one address serialize (a round trip each); the copies spread them. */
#define CLAT_WSUMS_MINE(nslots) (wsums + (get_group_id(0) & (CLAT_HIST_WCOPIES - 1u)) * (CLAT_HIST_CHANNELS * (nslots)))

/* CLAT_EACH_C(F): F(c) for every weight channel c; CLAT_EACH_W(F, W): F(c, W(c)), W naming the
 * channel's weight of the element at hand; CLAT_EACH_WR(F, W, r): F(k, the weight of channel
 * (k + r) % channels) for every k, r 0 or 1 (1 only with 2 or 4 channels: clat_hist_local). */
#if CLAT_HIST_CHANNELS == 0
#define CLAT_EACH_C(F)
#define CLAT_EACH_W(F, W)
#elif CLAT_HIST_CHANNELS == 1
#define CLAT_EACH_C(F) F(0)
#define CLAT_EACH_W(F, W) F(0, W(0))
#elif CLAT_HIST_CHANNELS == 2
#define CLAT_EACH_C(F) F(0) F(1)
#define CLAT_EACH_W(F, W) F(0, W(0)) F(1, W(1))
#define CLAT_EACH_WR(F, W, r) F(0, (r) ? W(1) : W(0)) F(1, (r) ? W(0) : W(1))
#elif CLAT_HIST_CHANNELS == 3
#define CLAT_EACH_C(F) F(0) F(1) F(2)
#define CLAT_EACH_W(F, W) F(0, W(0)) F(1, W(1)) F(2, W(2))
#else
#define CLAT_EACH_C(F) F(0) F(1) F(2) F(3)
#define CLAT_EACH_W(F, W) F(0, W(0)) F(1, W(1)) F(2, W(2)) F(3, W(3))
#define CLAT_EACH_WR(F, W, r) F(0, (r) ? W(1) : W(0)) F(1, (r) ? W(2) : W(1)) F(2, (r) ? W(3) : W(2)) F(3, (r) ? W(0) : W(3))
#endif
#ifndef CLAT_EACH_WR
#define CLAT_EACH_WR(F, W, r) CLAT_EACH_W(F, W)
#endif

/* Four channels summed by plain adds (float, or double): one slot's four sums are one vector,
 * an element's four weights one vector add. */
#if CLAT_HIST_CHANNELS == 4 && (CLAT_HIST_ACCUM == CLAT_ACCUM_FLOAT || defined(CLAT_HAS_DOUBLE))
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

#endif /* CLATOMICS_KERNELS_HISTOGRAM_WEIGHTS_CL */
