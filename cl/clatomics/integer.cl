/* clatomics/integer.cl — integer atomics that OpenCL lacks.
 *
 *   T clat_atomic_inc_T(p, limit)   CUDA atomicInc: *p = (old >= limit) ? 0 : old + 1
 *   T clat_atomic_dec_T(p, limit)   CUDA atomicDec: *p = (old == 0 || old > limit) ? limit : old - 1
 *   bool clat_atomic_compare_exchange_T(p, T *expected, T desired)
 *       C++ compare_exchange_strong / C++ AMP atomic_compare_exchange: if *p == *expected, stores
 *       desired and returns true; else copies *p into *expected and returns false.
 *   T clat_atomic_mul_T(p, v)       *p = old * v, wrapping (computed on the unsigned type)
 *   T clat_atomic_div_T(p, v)       *p = old / v, truncating toward zero; v == 0 leaves *p as it
 *                                   is, and the one overflow (the least int or long by -1) wraps
 *                                   to itself, so no input is undefined
 *   T clat_atomic_min_T(p, v), _max_T   the built-in atomic_min/max (64-bit: atom_min/max where
 *                                   cl_khr_int64_extended_atomics exists, else the CAS loop)
 * T is int or uint, and long or ulong where cl_khr_int64_base_atomics exists; names ending in
 * _local take __local pointers. inc/dec return the old value. For int and long the comparisons
 * are signed (CUDA has only the unsigned forms); the arithmetic wraps, it never overflows.
 * mul and div run on the compare-exchange loop (no device has them native).
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
  CLAT_DEFINE_COMPARE_EXCHANGE(T, U, AS, SFX, CAS)                                             \
  CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, mul, v, (T)((U)old * (U)v))                          \
  CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, div, v,                                              \
                      v == (T)0 ? old : ((T)-1 < (T)0 && v == (T)-1) ? (T)((U)0 - (U)old) : old / v)

CLAT_FOR_EACH_ATOMIC_INT(CLAT_DEFINE_INTEGER_OPS)

/* min and max: one built-in atomic where the device has it. */
#define CLAT_DEFINE_INTEGER_MINMAX(T, AS, SFX, IMIN, IMAX)                                     \
  CLAT_FN T clat_atomic_min_##T##SFX(volatile AS T *p, T v) { return IMIN(p, v); }            \
  CLAT_FN T clat_atomic_max_##T##SFX(volatile AS T *p, T v) { return IMAX(p, v); }
CLAT_DEFINE_INTEGER_MINMAX(int, __global, , atomic_min, atomic_max)
CLAT_DEFINE_INTEGER_MINMAX(int, __local, _local, atomic_min, atomic_max)
CLAT_DEFINE_INTEGER_MINMAX(uint, __global, , atomic_min, atomic_max)
CLAT_DEFINE_INTEGER_MINMAX(uint, __local, _local, atomic_min, atomic_max)
#if defined(CLAT_HAS_INT64_MINMAX)
CLAT_DEFINE_INTEGER_MINMAX(long, __global, , atom_min, atom_max)
CLAT_DEFINE_INTEGER_MINMAX(long, __local, _local, atom_min, atom_max)
CLAT_DEFINE_INTEGER_MINMAX(ulong, __global, , atom_min, atom_max)
CLAT_DEFINE_INTEGER_MINMAX(ulong, __local, _local, atom_min, atom_max)
#elif defined(CLAT_HAS_INT64_ATOMICS)
#define CLAT_DEFINE_INTEGER_MINMAX_LOOP(T, AS, SFX)                                            \
  CLAT_ATOMIC_LOOP_OP(T, ulong, AS, SFX, atom_cmpxchg, min, v, v < old ? v : old)              \
  CLAT_ATOMIC_LOOP_OP(T, ulong, AS, SFX, atom_cmpxchg, max, v, v > old ? v : old)
CLAT_DEFINE_INTEGER_MINMAX_LOOP(long, __global, )
CLAT_DEFINE_INTEGER_MINMAX_LOOP(long, __local, _local)
CLAT_DEFINE_INTEGER_MINMAX_LOOP(ulong, __global, )
CLAT_DEFINE_INTEGER_MINMAX_LOOP(ulong, __local, _local)
#endif

#endif /* CLATOMICS_INTEGER_CL */
