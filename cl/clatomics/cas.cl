/* clatomics/cas.cl — the portable compare-exchange loop, for any op on float or double.
 *
 * The loop loads the location once, then reuses the value atomic_cmpxchg returned (the GROMACS
 * fix: a re-read inside the loop may see a stale cached value). It compares *bits*, never floats:
 * a float compare spins forever on NaN and cannot tell -0.0 from +0.0. When the new bits equal
 * the old ones (min/max that change nothing, x*1, ...) it returns without writing.
 * double uses one 64-bit CAS (atom_cmpxchg on ulong); two 32-bit CASes would tear the value.
 */
#ifndef CLATOMICS_CAS_CL
#define CLATOMICS_CAS_CL

/* The body of a function returning T: applies NEW (an expression of `old`) to *p atomically
 * and returns the value that was there before. U is the unsigned integer of T's size. */
#define CLAT_CAS_BODY(T, U, AS, CAS, p, NEW)                                   \
  {                                                                            \
    volatile AS U *clat_bits = (volatile AS U *)(p);                           \
    U clat_seen = *clat_bits;                                                  \
    for (;;) {                                                                 \
      T old = as_##T(clat_seen);                                               \
      U clat_next = as_##U((T)(NEW));                                          \
      if (clat_next == clat_seen) return old;                                  \
      U clat_prev = CAS(clat_bits, clat_seen, clat_next);                      \
      if (clat_prev == clat_seen) return old;                                  \
      clat_seen = clat_prev;                                                   \
    }                                                                          \
  }

/* clat_cas_<op>_<T><SFX>: every read-modify-write on the loop, whatever the device offers.
 * mad computes fma(a, b, old): one rounding, the same result on every device. */
#define CLAT_DEFINE_CAS_OPS(T, U, AS, SFX, CAS)                                                  \
  CLAT_FN T clat_cas_add_##T##SFX(volatile AS T *p, T v) CLAT_CAS_BODY(T, U, AS, CAS, p, old + v) \
  CLAT_FN T clat_cas_mul_##T##SFX(volatile AS T *p, T v) CLAT_CAS_BODY(T, U, AS, CAS, p, old * v) \
  CLAT_FN T clat_cas_div_##T##SFX(volatile AS T *p, T v) CLAT_CAS_BODY(T, U, AS, CAS, p, old / v) \
  CLAT_FN T clat_cas_mad_##T##SFX(volatile AS T *p, T a, T b)                                     \
      CLAT_CAS_BODY(T, U, AS, CAS, p, fma(a, b, old))                                             \
  CLAT_FN T clat_cas_min_##T##SFX(volatile AS T *p, T v)                                          \
      CLAT_CAS_BODY(T, U, AS, CAS, p, clat_min_##T(old, v))                                       \
  CLAT_FN T clat_cas_max_##T##SFX(volatile AS T *p, T v)                                          \
      CLAT_CAS_BODY(T, U, AS, CAS, p, clat_max_##T(old, v))

#endif /* CLATOMICS_CAS_CL */
