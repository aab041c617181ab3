/* clatomics/cas.cl — the portable compare-exchange loop, and the ops that run on it.
 *
 * One loop serves every read-modify-write that has no native instruction: float and double
 * (here), float2 (float2.cl), the integer helpers (integer.cl, saturating.cl), and the same ops
 * with a pause after each lost exchange (backoff.cl). An op is only an expression of the old
 * value, as in Kokkos' desul atomics.
 *
 * The loop loads the location once (CLAT_FIRST_READ below), then reuses the value
 * atomic_cmpxchg returned (as GROMACS' loop does): a re-read inside the loop may see a stale
 * cached value. It compares *bits*, never
 * floats: a float compare spins forever on NaN and cannot tell -0.0 from +0.0. When the new bits
 * equal the old ones (min/max that change nothing, x*1, ...) it returns without writing. 8-byte
 * types use one 64-bit CAS (atom_cmpxchg on ulong); two 32-bit CASes would tear the value.
 */
#ifndef CLATOMICS_CAS_CL
#define CLATOMICS_CAS_CL

/* CLAT_FIRST_READ_<U>(AS, p): the first read of a location that other work-items update with
 * atomics (p: volatile AS U *, U uint or ulong), used by the CAS loop, the 16-bit CAS
 * (half.cl) and the early exit of the bits min/max (minmax_bits.cl).
 *
 * OpenCL C 2.0 and later: a relaxed atomic load (atomic_load_explicit on the atomic type of the
 * same size), so no data race under that memory model; it compiles to the same plain load on
 * CPUs and GPUs. It needs device scope (__opencl_c_atomic_scope_device under 3.0) and, for
 * ulong, both int64 atomics extensions (atomic_ulong exists only with them). Not on NVIDIA's
 * compiler, which accepts -cl-std=CL2.0 but announces none of 2.0's atomics features.
 *
 * OpenCL C 1.2 has no atomic load (NVIDIA's OpenCL, Oclgrind): a plain volatile read, which is
 * safe here because
 *   - it is one naturally aligned 32- or 64-bit access, which no supported device splits, so it
 *     returns a value some store or atomic left there (it cannot be torn); NVIDIA's ld.volatile
 *     has the semantics of ld.relaxed.sys in the PTX memory model, i.e. it is a relaxed atomic
 *     load there, and OpenCL 1.2's memory model has no rule that makes a race undefined;
 *   - the loop never trusts it: the compare-exchange compares bits and returns what memory
 *     really held, so a stale value costs one more iteration and nothing else;
 *   - an early exit on it (NEW leaves the bits as they are: min/max that change nothing, x*1)
 *     returns a value that was in memory when it was read, i.e. the op took effect then.
 * A race checker that follows the 2.0 rules still reports the plain read (Oclgrind does, as a
 * data race with the atomics). -DCLAT_ATOMIC_FIRST_READ (Options::atomic_first_read,
 * CLATOMICS_ATOMIC_FIRST_READ=1) makes it an atomic read where no atomic load exists:
 * atomic_cmpxchg(p, 0, 0), which returns the current value and leaves memory as it was. It costs
 * one more atomic per call instead of a plain load (on GPUs the atomic unit's throughput is what
 * spread CAS loops run at), which is why it is not the default. */
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200 && !defined(__NV_CL_C_VERSION) && \
    (__OPENCL_C_VERSION__ < 300 || defined(__opencl_c_atomic_scope_device))
#define CLAT_FIRST_READ_uint(AS, p) atomic_load_explicit((volatile AS atomic_uint *)(p), memory_order_relaxed)
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_int64_extended_atomics)
#define CLAT_FIRST_READ_ulong(AS, p) atomic_load_explicit((volatile AS atomic_ulong *)(p), memory_order_relaxed)
#endif
#endif
#if !defined(CLAT_FIRST_READ_uint) && defined(CLAT_ATOMIC_FIRST_READ)
#define CLAT_FIRST_READ_uint(AS, p) atomic_cmpxchg((p), 0u, 0u)
#elif !defined(CLAT_FIRST_READ_uint)
#define CLAT_FIRST_READ_uint(AS, p) (*(p))
#endif
#if !defined(CLAT_FIRST_READ_ulong) && defined(CLAT_ATOMIC_FIRST_READ) && defined(CLAT_HAS_INT64_ATOMICS)
#define CLAT_FIRST_READ_ulong(AS, p) atom_cmpxchg((p), (ulong)0, (ulong)0)
#elif !defined(CLAT_FIRST_READ_ulong)
#define CLAT_FIRST_READ_ulong(AS, p) (*(p))
#endif

/* The body of a function returning T: applies NEW (an expression of `old`) to *p atomically and
 * returns the value that was there before. U is the unsigned integer of T's size, CAS its
 * compare-exchange. PAUSE names what a lost compare-exchange does: PAUSE##_STATE is declared
 * before the loop, PAUSE##_AFTER_LOSS runs after each loss. CLAT_NO_PAUSE does nothing. */
#define CLAT_CAS_LOOP(T, U, AS, CAS, p, NEW, PAUSE)                            \
  {                                                                            \
    volatile AS U *clat_bits = (volatile AS U *)(p);                           \
    U clat_seen = CLAT_FIRST_READ_##U(AS, clat_bits);                          \
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

/* The parameters after p, named as an op's expression uses them, and the same names as the
 * arguments of a call (after p). */
#define CLAT_OPERANDS_v(T) , T v
#define CLAT_OPERANDS_a_b(T) , T a, T b
#define CLAT_OPERANDS_limit(T) , T limit
#define CLAT_OPERANDS_none(T)
#define CLAT_ARGS_v , v
#define CLAT_ARGS_a_b , a, b

/* A reader of ops.def's CLAT_REAL_OPS that has nothing to define for its VIA ops. */
#define CLAT_SKIP_VIA(T, A, B, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)

/* T FN(volatile AS T *p, operands): one op on the loop. */
#define CLAT_DEFINE_LOOP_OP(FN, T, U, AS, CAS, PAUSE, OPERANDS, NEW)                            \
  CLAT_FN T FN(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T))                                    \
      CLAT_CAS_LOOP(T, U, AS, CAS, p, NEW, PAUSE)

/* clat_atomic_<name>_<T><SFX>: an op that is always on the loop (integer.cl, float2.cl, ...). */
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

/* clat_cas_<op>_<T><SFX>: every float/double op of ops.def that has a loop of its own (not the
 * VIA ones: sub is an add of -v), whatever the device offers; real.cl chooses between these and
 * the native paths. */
#define CLAT_CAS_REAL_OP(T, U, AS, SFX, CAS, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC, \
                         AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                     \
  CLAT_DEFINE_LOOP_OP(clat_cas_##NAME##_##T##SFX, T, U, AS, CAS, CLAT_NO_PAUSE, OPERANDS, NEW)
#define CLAT_DEFINE_CAS_OPS(T, U, AS, SFX, CAS) \
  CLAT_REAL_OPS(CLAT_CAS_REAL_OP, CLAT_SKIP_VIA, T, U, AS, SFX, CAS)

#endif /* CLATOMICS_CAS_CL */
