/* clatomics/backoff.cl — the CAS loop with exponential backoff, for contended addresses.
 *
 * Defined only when the build defines CLAT_WITH_BACKOFF (so it costs nothing otherwise):
 *   T clat_atomic_<op>_<T>_backoff(volatile __global T *p, ...)
 *   T clat_atomic_<op>_<T>_local_backoff(volatile __local T *p, ...)
 * for every op of ops.def (add sub mul div mad min max), T float (and double where
 * CLAT_HAS_DOUBLE), with the same arguments, results and returned old values as
 * clat_atomic_<op>_<T>, always on the CAS loop.
 *
 * After a failed compare-exchange the work-item pauses before retrying, doubling the pause up to
 * CLAT_BACKOFF_MAX_NS: fewer work-items hammer the line at once, so more of the attempts succeed.
 * The pause is PTX nanosleep on NVIDIA (sm_70 and later; -DCLAT_NO_NANOSLEEP turns it off) and a
 * short private spin elsewhere (OpenCL C has no sleep). The loop is cas.cl's, with this pause as
 * its PAUSE hook: it retries with the value the failed compare-exchange returned.
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

/* The pause of the backoff loop (CLAT_CAS_LOOP's PAUSE hook): starts at CLAT_BACKOFF_MIN_NS and
 * doubles after each lost compare-exchange, up to CLAT_BACKOFF_MAX_NS. */
#define CLAT_BACKOFF_STATE uint clat_wait = CLAT_BACKOFF_MIN_NS;
#define CLAT_BACKOFF_AFTER_LOSS                                                \
  clat_backoff_pause(clat_wait);                                               \
  clat_wait = min(clat_wait * 2u, (uint)CLAT_BACKOFF_MAX_NS);

/* clat_atomic_<op>_<T><SFX>_backoff: ops.def's float/double ops on the backoff loop; a VIA op
 * (sub: an add of -v) is its base's backoff form, as on every other path. */
#define CLAT_BACKOFF_OP(T, U, AS, SFX, CAS, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC,    \
                        AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                       \
  CLAT_DEFINE_LOOP_OP(clat_atomic_##NAME##_##T##SFX##_backoff, T, U, AS, CAS, CLAT_BACKOFF,       \
                      OPERANDS, NEW)
#define CLAT_BACKOFF_VIA(T, U, AS, SFX, CAS, NAME, OPERANDS, BASE, BASE_OPERAND)                   \
  CLAT_FN T clat_atomic_##NAME##_##T##SFX##_backoff(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T)) { \
    return clat_atomic_##BASE##_##T##SFX##_backoff(p, BASE_OPERAND);                              \
  }
#define CLAT_DEFINE_BACKOFF_OPS(T, U, AS, SFX, CAS) \
  CLAT_REAL_OPS(CLAT_BACKOFF_OP, CLAT_BACKOFF_VIA, T, U, AS, SFX, CAS)

CLAT_DEFINE_BACKOFF_OPS(float, uint, __global, , atomic_cmpxchg)
CLAT_DEFINE_BACKOFF_OPS(float, uint, __local, _local, atomic_cmpxchg)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_BACKOFF_OPS(double, ulong, __global, , atom_cmpxchg)
CLAT_DEFINE_BACKOFF_OPS(double, ulong, __local, _local, atom_cmpxchg)
#endif

#endif /* CLAT_WITH_BACKOFF */
#endif /* CLATOMICS_BACKOFF_CL */
