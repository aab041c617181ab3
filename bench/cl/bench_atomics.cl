/* kernels/bench_atomics.cl — throughput of each clatomics op at a chosen contention level.
 *
 * bench_<op>_<T>_global(cells, mask, iters, sink): work-item id applies op `iters` times, the
 * k-th time to cells[(id + k * global size) & mask], so mask + 1 (a power of two) addresses share
 * all the work evenly. bench_<op>_<T>_local does the same on mask + 1 __local cells per
 * work-group, set to init first. Operands keep every value finite and every op a real update:
 * add/sub/mad alternate +1 and -1 (a random walk over small integers), mul/div use 1 + epsilon
 * (every product a new value: operands that only flip between two values, such as -1, let stale
 * compare-exchanges succeed and flatter the CAS loop), min/max get ever smaller/larger values,
 * xchg the work-item's id. The sum of the returned old values goes to sink only in a case that never
 * happens, so the compiler keeps every op and its result. The _backoff kernels time backoff.cl; the
 * _naive kernels time the atomicMaxFloat loop users commonly write (a compare-exchange on every call,
 * no early exit when memory already holds the winner): the yardstick of the min/max paths. */
#include "clatomics/atomics.cl"

#define BENCH_ALT(T) ((((id + k) & 1u) != 0u) ? (T)1 : (T)-1)
#define BENCH_EPS_float FLT_EPSILON
#define BENCH_EPS_double DBL_EPSILON
#define BENCH_GROW(T) ((T)1 + BENCH_EPS_##T)
#define BENCH_DOWN(T) (-(T)(k * stride + id))
#define BENCH_UP(T) ((T)(k * stride + id))
#define BENCH_ID(T) ((T)id)

#define BENCH_GLOBAL(KNAME, T, CALL, OPERAND)                                                 \
  kernel void KNAME(global T *cells, uint mask, uint iters, global T *sink) {                 \
    const uint id = (uint)get_global_id(0), stride = (uint)get_global_size(0);                \
    T acc = (T)0;                                                                             \
    for (uint k = 0u; k < iters; ++k) {                                                       \
      volatile global T *p = cells + ((id + k * stride) & mask);                              \
      acc += CALL(p, OPERAND(T));                                                             \
    }                                                                                         \
    if (acc == (T)1234567.25) sink[0] = acc;                                                  \
  }

#define BENCH_LOCAL(KNAME, T, CALL, OPERAND)                                                  \
  kernel void KNAME(T init, uint mask, uint iters, global T *sink, local T *cells) {          \
    const uint lid = (uint)get_local_id(0), lsize = (uint)get_local_size(0);                  \
    const uint id = (uint)get_global_id(0), stride = (uint)get_global_size(0);                \
    for (uint c = lid; c <= mask; c += lsize) cells[c] = init;                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    T acc = (T)0;                                                                             \
    for (uint k = 0u; k < iters; ++k) {                                                       \
      volatile local T *p = cells + ((lid + k * lsize) & mask);                               \
      acc += CALL(p, OPERAND(T));                                                             \
    }                                                                                         \
    if (acc == (T)1234567.25) sink[0] = acc;                                                  \
  }

/* Each op of ops.def times with an operand that keeps its cell bounded under the op's algebra
 * (the header says how each evolves), chosen by how ops.def's line says the op combines operands
 * (its aggregated form's combine); a VIA op's, by its base op. An op that combines another way
 * fails to build here, so that it gets an operand chosen for it. */
#define BENCH_OPERAND_CLAT_AGG_ADD BENCH_ALT
#define BENCH_OPERAND_CLAT_AGG_MUL BENCH_GROW
#define BENCH_OPERAND_clat_min_float BENCH_DOWN
#define BENCH_OPERAND_clat_min_double BENCH_DOWN
#define BENCH_OPERAND_clat_max_float BENCH_UP
#define BENCH_OPERAND_clat_max_double BENCH_UP
#define BENCH_OPERAND_VIA_add BENCH_ALT
#define BENCH_OPERAND_VIA_mul BENCH_GROW

/* Every op as F(p, v): an op of two operands takes (v, 1) through an adapter (mad: old + v).
 * Names are pasted before they are passed on: the OpenCL C header may define min, max or mad. */
#define BENCH_ADAPTERS_v(ADAPTER, ATOMIC, T)
#define BENCH_ADAPTERS_a_b(ADAPTER, ATOMIC, T)                                                \
  T ADAPTER(volatile global T *p, T v) { return ATOMIC(p, v, (T)1); }                         \
  T ADAPTER##_local(volatile local T *p, T v) { return ATOMIC##_local(p, v, (T)1); }
#define BENCH_CALL_v(ATOMIC, ADAPTER) ATOMIC
#define BENCH_CALL_a_b(ATOMIC, ADAPTER) ADAPTER

#define BENCH_KERNELS(KNAME, T, CALL, CALL_LOCAL, OPERAND)                                    \
  BENCH_GLOBAL(KNAME##_global, T, CALL, OPERAND)                                              \
  BENCH_LOCAL(KNAME##_local, T, CALL_LOCAL, OPERAND)
#define BENCH_OP(T, KNAME, OPERANDS, ATOMIC, ADAPTER, ATOMIC_LOCAL, ADAPTER_LOCAL, OPERAND)    \
  BENCH_ADAPTERS_##OPERANDS(ADAPTER, ATOMIC, T)                                               \
  BENCH_KERNELS(KNAME, T, BENCH_CALL_##OPERANDS(ATOMIC, ADAPTER),                             \
                BENCH_CALL_##OPERANDS(ATOMIC_LOCAL, ADAPTER_LOCAL), OPERAND)
#define BENCH_ROW(T, A, B, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC, AGG_NEUTRAL, \
                  AGG_COMBINE, AGG_APPLY)                                                     \
  BENCH_OP(T, bench_##NAME##_##T, OPERANDS, clat_atomic_##NAME##_##T, bench_call_##NAME##_##T, \
           clat_atomic_##NAME##_##T##_local, bench_call_##NAME##_##T##_local, BENCH_OPERAND_##AGG_COMBINE)
#define BENCH_ROW_VIA(T, A, B, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)                      \
  BENCH_OP(T, bench_##NAME##_##T, OPERANDS, clat_atomic_##NAME##_##T, bench_call_##NAME##_##T, \
           clat_atomic_##NAME##_##T##_local, bench_call_##NAME##_##T##_local, BENCH_OPERAND_VIA_##BASE)

#define BENCH_ALL_OPS(T)                                                                      \
  CLAT_REAL_OPS(BENCH_ROW, BENCH_ROW_VIA, T, , , , )                                          \
  BENCH_KERNELS(bench_xchg_##T, T, clat_atomic_xchg_##T, clat_atomic_xchg_##T##_local, BENCH_ID)

BENCH_ALL_OPS(float)
#ifdef CLAT_HAS_DOUBLE
BENCH_ALL_OPS(double)
#endif

#ifdef CLAT_WITH_BACKOFF
#define BENCH_BACKOFF_OP(OP, T, OPERAND)                                                                 \
  BENCH_GLOBAL(bench_##OP##_##T##_global_backoff, T, clat_atomic_##OP##_##T##_backoff, OPERAND)          \
  BENCH_LOCAL(bench_##OP##_##T##_local_backoff, T, clat_atomic_##OP##_##T##_local_backoff, OPERAND)
#define BENCH_BACKOFF_OPS(T)            \
  BENCH_BACKOFF_OP(add, T, BENCH_ALT)   \
  BENCH_BACKOFF_OP(mul, T, BENCH_GROW)  \
  BENCH_BACKOFF_OP(div, T, BENCH_GROW)
BENCH_BACKOFF_OPS(float)
#ifdef CLAT_HAS_DOUBLE
BENCH_BACKOFF_OPS(double)
#endif
#endif

/* The loop as users commonly write it: always compare-exchange, retry until it sticks. */
#define BENCH_NAIVE_FN(NAME, T, U, AS, CAS, PICK)                                             \
  T NAME(volatile AS T *p, T v) {                                                             \
    volatile AS U *q = (volatile AS U *)p;                                                    \
    U old = *q, assumed;                                                                      \
    do {                                                                                      \
      assumed = old;                                                                          \
      old = CAS(q, assumed, as_##U(PICK(v, as_##T(assumed))));                                \
    } while (assumed != old);                                                                 \
    return as_##T(old);                                                                       \
  }
#define BENCH_NAIVE_OPS(T, U, CAS)                                                            \
  BENCH_NAIVE_FN(bench_naive_min_##T, T, U, global, CAS, fmin)                                \
  BENCH_NAIVE_FN(bench_naive_max_##T, T, U, global, CAS, fmax)                                \
  BENCH_NAIVE_FN(bench_naive_min_##T##_local, T, U, local, CAS, fmin)                         \
  BENCH_NAIVE_FN(bench_naive_max_##T##_local, T, U, local, CAS, fmax)                         \
  BENCH_GLOBAL(bench_min_##T##_global_naive, T, bench_naive_min_##T, BENCH_DOWN)              \
  BENCH_LOCAL(bench_min_##T##_local_naive, T, bench_naive_min_##T##_local, BENCH_DOWN)        \
  BENCH_GLOBAL(bench_max_##T##_global_naive, T, bench_naive_max_##T, BENCH_UP)                \
  BENCH_LOCAL(bench_max_##T##_local_naive, T, bench_naive_max_##T##_local, BENCH_UP)
BENCH_NAIVE_OPS(float, uint, atomic_cmpxchg)
#if defined(CLAT_HAS_DOUBLE) && defined(CLAT_HAS_INT64_ATOMICS)
BENCH_NAIVE_OPS(double, ulong, atom_cmpxchg)
#endif
