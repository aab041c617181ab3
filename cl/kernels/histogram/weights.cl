/* kernels/histogram/weights.cl — how weights are summed (CLAT_HIST_ACCUM): the partial sums of
 * __local and global memory, the private sums of clat_hist_private, and the per-channel macros
 * that repeat a step for each weight channel (CLAT_HIST_CHANNELS).
 */
#include "kernels/histogram/config.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_WEIGHTS_CL
#define CLATOMICS_KERNELS_HISTOGRAM_WEIGHTS_CL

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

#endif /* CLATOMICS_KERNELS_HISTOGRAM_WEIGHTS_CL */
