/* clatomics/user_op.cl — your own atomic read-modify-write, on the library's compare-exchange loop.
 *
 *   CLAT_DEFINE_ATOMIC_OP(name, T, expression of old and v)
 * defines
 *   T name(volatile __global T *p, T v)        *p = expression, atomically; returns the old value
 *   T name_local(volatile __local T *p, T v)   the same on __local memory
 * where T is float, int or uint, or an 8-byte type — double, long, ulong, float2 (two floats as
 * one 64-bit word: never seen half-updated) — where the device has cl_khr_int64_base_atomics
 * (double also needs fp64). With overloads (overloads.cl: CLAT_HAVE_OVERLOADS), both are also
 * overloadable, and name itself takes __local pointers too, so one name may serve several types.
 *
 * The guarantees are the built-in ops': one load before the loop, then the value the
 * compare-exchange returned is reused (never re-read inside the loop); the bits are compared, so
 * NaN and -0.0 cannot make it spin or lose a write; when the expression gives the bits already
 * there, nothing is written. The expression may be evaluated several times under contention and
 * must depend on old and v only.
 *
 * Example, a Kahan-Neumaier compensated sum in a float2 (x: the sum, y: the lost low part):
 *   float2 kahan(float2 s, float x) { const float t = s.x + x;
 *     return (float2)(t, s.y + (fabs(s.x) >= fabs(x) ? (s.x - t) + x : (x - t) + s.x)); }
 *   CLAT_DEFINE_ATOMIC_OP(atomic_kahan_add, float2, kahan(old, v.x))
 * (examples/kahan_atomic.cpp runs it.)
 */
#ifndef CLATOMICS_USER_OP_CL
#define CLATOMICS_USER_OP_CL

/* The unsigned integer of each type's size, and its compare-exchange. */
#define CLAT_WORD_float uint
#define CLAT_WORD_int uint
#define CLAT_WORD_uint uint
#define CLAT_WORD_double ulong
#define CLAT_WORD_long ulong
#define CLAT_WORD_ulong ulong
#define CLAT_WORD_float2 ulong
#define CLAT_WORD_CAS_uint atomic_cmpxchg
#define CLAT_WORD_CAS_ulong atom_cmpxchg
#define CLAT_WORD_OF(T) CLAT_CAT(CLAT_WORD_, T)
#define CLAT_WORD_CAS_OF(T) CLAT_CAT(CLAT_WORD_CAS_, CLAT_WORD_OF(T))

#ifdef CLAT_HAVE_OVERLOADS
#define CLAT_USER_FN CLAT_FN __attribute__((overloadable))
/* name on __local pointers too, beside name_local. */
#define CLAT_USER_OP_LOCAL_ALIAS(NAME, T)                                                      \
  CLAT_USER_FN T NAME(volatile __local T *p, T v) { return NAME##_local(p, v); }
#else
#define CLAT_USER_FN CLAT_FN
#define CLAT_USER_OP_LOCAL_ALIAS(NAME, T)
#endif

#define CLAT_DEFINE_ATOMIC_OP(NAME, T, EXPR)                                                   \
  CLAT_USER_FN T NAME(volatile __global T *p, T v)                                             \
      CLAT_CAS_BODY(T, CLAT_WORD_OF(T), __global, CLAT_WORD_CAS_OF(T), p, EXPR)                \
  CLAT_USER_FN T NAME##_local(volatile __local T *p, T v)                                      \
      CLAT_CAS_BODY(T, CLAT_WORD_OF(T), __local, CLAT_WORD_CAS_OF(T), p, EXPR)                 \
  CLAT_USER_OP_LOCAL_ALIAS(NAME, T)

#endif /* CLATOMICS_USER_OP_CL */
