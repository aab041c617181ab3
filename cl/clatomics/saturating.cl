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
  CLAT_FN T clat_atomic_inc_sat_##T##SFX(volatile AS T *p, T limit)                            \
      CLAT_CAS_BODY(T, U, AS, CAS, p, old < limit ? (T)((U)old + 1u) : old)                    \
  CLAT_FN T clat_atomic_dec_sat_##T##SFX(volatile AS T *p)                                     \
      CLAT_CAS_BODY(T, U, AS, CAS, p, old > (T)0 ? (T)((U)old - 1u) : old)

CLAT_DEFINE_SATURATING_OPS(uint, uint, __global, , atomic_cmpxchg)
CLAT_DEFINE_SATURATING_OPS(uint, uint, __local, _local, atomic_cmpxchg)
CLAT_DEFINE_SATURATING_OPS(int, uint, __global, , atomic_cmpxchg)
CLAT_DEFINE_SATURATING_OPS(int, uint, __local, _local, atomic_cmpxchg)
#ifdef CLAT_HAS_INT64_ATOMICS
CLAT_DEFINE_SATURATING_OPS(ulong, ulong, __global, , atom_cmpxchg)
CLAT_DEFINE_SATURATING_OPS(ulong, ulong, __local, _local, atom_cmpxchg)
CLAT_DEFINE_SATURATING_OPS(long, ulong, __global, , atom_cmpxchg)
CLAT_DEFINE_SATURATING_OPS(long, ulong, __local, _local, atom_cmpxchg)
#endif

#endif /* CLATOMICS_SATURATING_CL */
