/* clatomics/integer.cl — integer atomics that OpenCL lacks.
 *
 *   T clat_atomic_inc_T(p, limit)   CUDA atomicInc: *p = (old >= limit) ? 0 : old + 1
 *   T clat_atomic_dec_T(p, limit)   CUDA atomicDec: *p = (old == 0 || old > limit) ? limit : old - 1
 *   bool clat_atomic_compare_exchange_T(p, T *expected, T desired)
 *       C++ compare_exchange_strong / C++ AMP atomic_compare_exchange: if *p == *expected, stores
 *       desired and returns true; else copies *p into *expected and returns false.
 * T is int or uint, and long or ulong where cl_khr_int64_base_atomics exists; names ending in
 * _local take __local pointers. inc/dec return the old value. For int and long the comparisons
 * are signed (CUDA has only the unsigned forms); the arithmetic wraps, it never overflows.
 */
#ifndef CLATOMICS_INTEGER_CL
#define CLATOMICS_INTEGER_CL

/* DEF(T, U, AS, SFX, CAS) for each integer type the helpers serve, on __global and __local:
 * U is the unsigned type of T's size, CAS its compare-exchange. */
#define CLAT_FOR_EACH_ATOMIC_INT(DEF)                                                          \
  DEF(uint, uint, __global, , atomic_cmpxchg)                                                  \
  DEF(uint, uint, __local, _local, atomic_cmpxchg)                                             \
  DEF(int, uint, __global, , atomic_cmpxchg)                                                   \
  DEF(int, uint, __local, _local, atomic_cmpxchg)                                              \
  CLAT_FOR_EACH_ATOMIC_INT64(DEF)
#ifdef CLAT_HAS_INT64_ATOMICS
#define CLAT_FOR_EACH_ATOMIC_INT64(DEF)                                                        \
  DEF(ulong, ulong, __global, , atom_cmpxchg)                                                  \
  DEF(ulong, ulong, __local, _local, atom_cmpxchg)                                             \
  DEF(long, ulong, __global, , atom_cmpxchg)                                                   \
  DEF(long, ulong, __local, _local, atom_cmpxchg)
#else
#define CLAT_FOR_EACH_ATOMIC_INT64(DEF)
#endif

#define CLAT_DEFINE_INTEGER_OPS(T, U, AS, SFX, CAS)                                            \
  CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, inc, limit, old >= limit ? (T)0 : (T)((U)old + 1u))  \
  CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, dec, limit,                                          \
                      (old == (T)0 || old > limit) ? limit : (T)((U)old - 1u))                 \
  CLAT_FN bool clat_atomic_compare_exchange_##T##SFX(volatile AS T *p, T *expected, T desired) { \
    T seen = as_##T(CAS((volatile AS U *)p, as_##U(*expected), as_##U(desired)));             \
    bool ok = seen == *expected;                                                               \
    *expected = seen;                                                                          \
    return ok;                                                                                 \
  }

CLAT_FOR_EACH_ATOMIC_INT(CLAT_DEFINE_INTEGER_OPS)

#endif /* CLATOMICS_INTEGER_CL */
