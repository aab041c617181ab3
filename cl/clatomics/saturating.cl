/* clatomics/saturating.cl — saturating increment and decrement, beside integer.cl's wrapping
 * CUDA-style inc/dec.
 *
 *   T clat_atomic_inc_sat_T(p, T limit)   *p = old < limit ? old + 1 : old   (stops at limit)
 *   T clat_atomic_dec_sat_T(p)            *p = old > 0 ? old - 1 : old       (stops at 0)
 * T is int or uint, and long or ulong where cl_khr_int64_base_atomics exists; names ending in
 * _local take __local pointers. Both return the old value. A value already at (or beyond) its
 * bound is left alone and nothing is written. For int and long the comparisons are signed: a
 * negative value is never decremented, and inc_sat never passes limit.
 */
#ifndef CLATOMICS_SATURATING_CL
#define CLATOMICS_SATURATING_CL

#define CLAT_DEFINE_SATURATING_OPS(T, U, AS, SFX, CAS)                                         \
  CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, inc_sat, limit, old < limit ? (T)((U)old + 1u) : old) \
  CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, dec_sat, none, old > (T)0 ? (T)((U)old - 1u) : old)

CLAT_FOR_EACH_ATOMIC_INT(CLAT_DEFINE_SATURATING_OPS)

#endif /* CLATOMICS_SATURATING_CL */
