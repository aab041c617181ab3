/* clatomics/cas.cl — the portable compare-exchange loop, and the ops that run on it.
 *
 * One loop serves every read-modify-write that has no native instruction: float and double
 * (here), float2 (float2.cl), the integer helpers (integer.cl, saturating.cl), and the same ops
 * with a pause after each lost exchange (backoff.cl). An op is only an expression of the old
 * value, as in Kokkos' desul atomics.
 *
 * The loop loads the location once, then reuses the value atomic_cmpxchg returned (as GROMACS'
 * loop does): a re-read inside the loop may see a stale cached value. It compares *bits*, never
 * floats: a float compare spins forever on NaN and cannot tell -0.0 from +0.0. When the new bits
 * equal the old ones (min/max that change nothing, x*1, ...) it returns without writing. 8-byte
 * types use one 64-bit CAS (atom_cmpxchg on ulong); two 32-bit CASes would tear the value.
 */
#ifndef CLATOMICS_CAS_CL
#define CLATOMICS_CAS_CL

/* The body of a function returning T: applies NEW (an expression of `old`) to *p atomically and
 * returns the value that was there before. U is the unsigned integer of T's size, CAS its
 * compare-exchange. PAUSE names what a lost compare-exchange does: PAUSE##_STATE is declared
 * before the loop, PAUSE##_AFTER_LOSS runs after each loss. CLAT_NO_PAUSE does nothing. */
#define CLAT_CAS_LOOP(T, U, AS, CAS, p, NEW, PAUSE)                            \
  {                                                                            \
    volatile AS U *clat_bits = (volatile AS U *)(p);                           \
    U clat_seen = *clat_bits;                                                  \
    PAUSE##_STATE                                                              \
    for (;;) {                                                                 \
      T old = as_##T(clat_seen);                                               \
      U clat_next = as_##U((T)(NEW));                                          \
      if (clat_next == clat_seen) return old;                                  \
      U clat_prev = CAS(clat_bits, clat_seen, clat_next);                      \
      if (clat_prev == clat_seen) return old;                                  \
      clat_seen = clat_prev;                                                   \
      PAUSE##_AFTER_LOSS                                                       \
    }                                                                          \
  }
#define CLAT_NO_PAUSE_STATE
#define CLAT_NO_PAUSE_AFTER_LOSS
#define CLAT_CAS_BODY(T, U, AS, CAS, p, NEW) CLAT_CAS_LOOP(T, U, AS, CAS, p, NEW, CLAT_NO_PAUSE)

/* The parameters after p, named as an op's expression uses them. */
#define CLAT_OPERANDS_v(T) , T v
#define CLAT_OPERANDS_a_b(T) , T a, T b
#define CLAT_OPERANDS_limit(T) , T limit
#define CLAT_OPERANDS_none(T)

/* T FN(volatile AS T *p, operands): one op on the loop. */
#define CLAT_DEFINE_LOOP_OP(FN, T, U, AS, CAS, PAUSE, OPERANDS, NEW)                            \
  CLAT_FN T FN(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T))                                    \
      CLAT_CAS_LOOP(T, U, AS, CAS, p, NEW, PAUSE)

/* An op list calls X(T, U, AS, SFX, CAS, name, operands, new value) for each of its ops; these
 * X define them as clat_cas_<name>_<T><SFX> and clat_atomic_<name>_<T><SFX>. */
#define CLAT_CAS_OP(T, U, AS, SFX, CAS, NAME, OPERANDS, NEW) \
  CLAT_DEFINE_LOOP_OP(clat_cas_##NAME##_##T##SFX, T, U, AS, CAS, CLAT_NO_PAUSE, OPERANDS, NEW)
#define CLAT_ATOMIC_LOOP_OP(T, U, AS, SFX, CAS, NAME, OPERANDS, NEW) \
  CLAT_DEFINE_LOOP_OP(clat_atomic_##NAME##_##T##SFX, T, U, AS, CAS, CLAT_NO_PAUSE, OPERANDS, NEW)

/* bool clat_atomic_compare_exchange_<T><SFX>(p, T *expected, T desired): C++
 * compare_exchange_strong on the bits (one CAS): true, or false with *expected updated. */
#define CLAT_DEFINE_COMPARE_EXCHANGE(T, U, AS, SFX, CAS)                                        \
  CLAT_FN bool clat_atomic_compare_exchange_##T##SFX(volatile AS T *p, T *expected, T desired) { \
    const U want = as_##U(*expected);                                                          \
    const U seen = CAS((volatile AS U *)p, want, as_##U(desired));                             \
    *expected = as_##T(seen);                                                                  \
    return seen == want;                                                                       \
  }

/* The float/double ops of the loop. mad computes fma(a, b, old): one rounding, the same result
 * on every device. sub is no entry: every path computes it as an add of -v. */
#define CLAT_REAL_LOOP_OPS(X, T, U, AS, SFX, CAS)                              \
  X(T, U, AS, SFX, CAS, add, v, old + v)                                       \
  X(T, U, AS, SFX, CAS, mul, v, old * v)                                       \
  X(T, U, AS, SFX, CAS, div, v, old / v)                                       \
  X(T, U, AS, SFX, CAS, mad, a_b, fma(a, b, old))                              \
  X(T, U, AS, SFX, CAS, min, v, clat_min_##T(old, v))                          \
  X(T, U, AS, SFX, CAS, max, v, clat_max_##T(old, v))

/* clat_cas_<op>_<T><SFX>: every float/double op on the loop, whatever the device offers; real.cl
 * chooses between these and the native paths. */
#define CLAT_DEFINE_CAS_OPS(T, U, AS, SFX, CAS) CLAT_REAL_LOOP_OPS(CLAT_CAS_OP, T, U, AS, SFX, CAS)

#endif /* CLATOMICS_CAS_CL */
