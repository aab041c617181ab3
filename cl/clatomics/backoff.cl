/* clatomics/backoff.cl — the CAS loop with exponential backoff, for contended addresses.
 *
 * Defined only when the build defines CLAT_WITH_BACKOFF (so it costs nothing otherwise):
 *   T clat_atomic_<op>_<T>_backoff(volatile __global T *p, ...)
 *   T clat_atomic_<op>_<T>_local_backoff(volatile __local T *p, ...)
 * for op in add sub mul div mad min max, T float (and double where CLAT_HAS_DOUBLE), with the
 * same arguments, results and returned old values as clat_atomic_<op>_<T>, always on the CAS loop.
 *
 * After a failed compare-exchange the work-item pauses before retrying, doubling the pause up to
 * CLAT_BACKOFF_MAX_NS: fewer work-items hammer the line at once, so more of the attempts succeed.
 * The pause is PTX nanosleep on NVIDIA (sm_70 and later; -DCLAT_NO_NANOSLEEP turns it off) and a
 * short private spin elsewhere (OpenCL C has no sleep). Like cas.cl, the loop never re-reads the
 * location: it retries with the value the failed compare-exchange returned.
 */
#ifndef CLATOMICS_BACKOFF_CL
#define CLATOMICS_BACKOFF_CL
#ifdef CLAT_WITH_BACKOFF

#ifndef CLAT_BACKOFF_MIN_NS
#define CLAT_BACKOFF_MIN_NS 32u
#endif
#ifndef CLAT_BACKOFF_MAX_NS
#define CLAT_BACKOFF_MAX_NS 1024u
#endif

#if defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_NANOSLEEP)
CLAT_FN void clat_backoff_pause(uint ns) { asm volatile("nanosleep.u32 %0;" : : "r"(ns)); }
#else
CLAT_FN void clat_backoff_pause(uint ns) {
  /* a volatile private counter keeps the compiler from deleting the wait */
  volatile uint clat_spin = 0u;
  for (uint i = 0u; i < ns / 16u; ++i) clat_spin = clat_spin + 1u;
}
#endif

/* CLAT_CAS_BODY (cas.cl) with a pause after each lost compare-exchange. */
#define CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, NEW)                           \
  {                                                                            \
    volatile AS U *clat_bits = (volatile AS U *)(p);                           \
    U clat_seen = *clat_bits;                                                  \
    uint clat_wait = CLAT_BACKOFF_MIN_NS;                                      \
    for (;;) {                                                                 \
      T old = as_##T(clat_seen);                                               \
      U clat_next = as_##U((T)(NEW));                                          \
      if (clat_next == clat_seen) return old;                                  \
      U clat_prev = CAS(clat_bits, clat_seen, clat_next);                      \
      if (clat_prev == clat_seen) return old;                                  \
      clat_seen = clat_prev;                                                   \
      clat_backoff_pause(clat_wait);                                           \
      clat_wait = min(clat_wait * 2u, (uint)CLAT_BACKOFF_MAX_NS);              \
    }                                                                          \
  }

#define CLAT_DEFINE_BACKOFF_OPS(T, U, AS, SFX, CAS)                                                      \
  CLAT_FN T clat_atomic_add_##T##SFX##_backoff(volatile AS T *p, T v)                                    \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, old + v)                                                   \
  CLAT_FN T clat_atomic_sub_##T##SFX##_backoff(volatile AS T *p, T v)                                    \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, old + (-v))                                                \
  CLAT_FN T clat_atomic_mul_##T##SFX##_backoff(volatile AS T *p, T v)                                    \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, old * v)                                                   \
  CLAT_FN T clat_atomic_div_##T##SFX##_backoff(volatile AS T *p, T v)                                    \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, old / v)                                                   \
  CLAT_FN T clat_atomic_mad_##T##SFX##_backoff(volatile AS T *p, T a, T b)                               \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, fma(a, b, old))                                            \
  CLAT_FN T clat_atomic_min_##T##SFX##_backoff(volatile AS T *p, T v)                                    \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, clat_min_##T(old, v))                                      \
  CLAT_FN T clat_atomic_max_##T##SFX##_backoff(volatile AS T *p, T v)                                    \
      CLAT_CAS_BACKOFF_BODY(T, U, AS, CAS, p, clat_max_##T(old, v))

CLAT_DEFINE_BACKOFF_OPS(float, uint, __global, , atomic_cmpxchg)
CLAT_DEFINE_BACKOFF_OPS(float, uint, __local, _local, atomic_cmpxchg)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_BACKOFF_OPS(double, ulong, __global, , atom_cmpxchg)
CLAT_DEFINE_BACKOFF_OPS(double, ulong, __local, _local, atom_cmpxchg)
#endif

#endif /* CLAT_WITH_BACKOFF */
#endif /* CLATOMICS_BACKOFF_CL */
