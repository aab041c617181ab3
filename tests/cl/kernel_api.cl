/* Test kernels for the one-name API (overloads.cl), load/store/compare_exchange (load_store.cl),
 * user-defined ops (user_op.cl) and release/acquire (message_passing.cl). Cells as local_cells.cl
 * says. Every call below is the overloaded name, so each kernel checks that the name reaches the
 * op of its type and address space. */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MIN, OP_MAX, OP_MAD, OP_XCHG, OP_CAS_INC, OP_STORE };

/* OP_CAS_INC: add 1 through the compare_exchange loop a user writes: load, then retry with the
 * value a failed exchange put into `expected`. Bounded, so a compare_exchange that did not
 * update `expected` fails the test instead of hanging it; the result is the number of tries. */
#define APPLY(T, SFX)                                                                           \
  T apply_##T##SFX(uint op, volatile AS_##SFX T *p, T a, T b) {                                 \
    switch (op) {                                                                               \
      case OP_ADD: return clat_fetch_add(p, a);                                                 \
      case OP_SUB: return clat_fetch_sub(p, a);                                                 \
      case OP_MUL: return clat_fetch_mul(p, a);                                                 \
      case OP_DIV: return clat_fetch_div(p, a);                                                 \
      case OP_MIN: return clat_fetch_min(p, a);                                                 \
      case OP_MAX: return clat_fetch_max(p, a);                                                 \
      case OP_MAD: return clat_fetch_mad(p, a, b);                                              \
      case OP_XCHG: return clat_exchange(p, a);                                                 \
      case OP_CAS_INC: {                                                                        \
        T expected = clat_load(p);                                                              \
        for (uint tries = 1; tries < 1000000u; ++tries)                                         \
          if (clat_compare_exchange(p, &expected, (T)(expected + (T)1))) return (T)tries;       \
        return (T)0;                                                                            \
      }                                                                                         \
      default: clat_store(p, a); return a;                                                      \
    }                                                                                           \
  }
#define OVERLOAD_KERNELS(T)                                                                     \
  APPLY(T, )                                                                                    \
  APPLY(T, _local)                                                                              \
  kernel void ops_##T##_global(global T *mem, global T *olds, global const T *a, global const T *b, \
                               global const uint *cell, uint op) {                              \
    size_t i = get_global_id(0);                                                                \
    olds[i] = apply_##T(op, mem + cell[i], a[i], b[i]);                                         \
  }                                                                                             \
  kernel void ops_##T##_local(global T *mem, global T *olds, global const T *a, global const T *b, \
                              global const uint *cell, uint op, uint ncells, local T *cells) {  \
    LOCAL_IN                                                                                    \
    olds[i] = apply_##T##_local(op, cells + cell[i], a[i], b[i]);                               \
    LOCAL_OUT                                                                                   \
  }
OVERLOAD_KERNELS(float)
OVERLOAD_KERNELS(int)
OVERLOAD_KERNELS(uint)
#ifdef CLAT_HAS_DOUBLE
OVERLOAD_KERNELS(double)
#endif
#ifdef CLAT_HAS_INT64_ATOMICS
OVERLOAD_KERNELS(long)
OVERLOAD_KERNELS(ulong)
#endif

/* ---- compare_exchange on bits, and half/bfloat16 load/store/compare_exchange ---- */
/* One work-item: result[k] is 1 where check k held. */
kernel void cas_bits(global float *f, global uint *result) {
  float expected = -0.0f; /* *f holds +0.0: equal as floats, not as bits */
  result[0] = !clat_compare_exchange(f, &expected, 1.0f) && as_uint(expected) == 0u && as_uint(f[0]) == 0u;
  f[1] = as_float(0x7fc00123u); /* a NaN: unequal to itself as a float, equal as bits */
  expected = as_float(0x7fc00123u);
  result[1] = clat_compare_exchange(f + 1, &expected, 2.0f) && f[1] == 2.0f;
#ifdef CLAT_HAS_INT64_ATOMICS
  /* float2: one 64-bit word; a pair that differs in one half fails and reads back both */
  volatile global float2 *pair = (volatile global float2 *)(f + 2);
  float2 want = (float2)(1.0f, 3.0f);
  result[2] = !clat_compare_exchange(pair, &want, (float2)(5.0f, 6.0f)) && want.x == 1.0f && want.y == 2.0f &&
              clat_compare_exchange(pair, &want, (float2)(5.0f, 6.0f)) && f[2] == 5.0f && f[3] == 6.0f;
#else
  result[2] = 1u;
#endif
}

#define SLOT_KERNEL(NAME)                                                                       \
  kernel void slot_##NAME(global ushort *h, global float *loads, global uint *result) {         \
    /* h[0], h[1] share a word: each store, exchange and load keeps the neighbour's bits */     \
    clat_atomic_store_##NAME(h + 1, -2.5f);                                                      \
    loads[0] = clat_atomic_load_##NAME(h);                                                       \
    loads[1] = clat_atomic_load_##NAME(h + 1);                                                   \
    ushort expected = h[0];                                                                      \
    result[0] = clat_atomic_compare_exchange_##NAME(h, &expected, (ushort)0x3c00u);              \
    expected = 0x1234u;                                                                          \
    result[1] = !clat_atomic_compare_exchange_##NAME(h + 1, &expected, (ushort)0u) &&            \
                expected == h[1];                                                                \
    __local ushort l[2] __attribute__((aligned(4)));                                            \
    l[0] = 0x0000u;                                                                              \
    l[1] = 0x8000u;                                                                              \
    clat_atomic_store_##NAME##_local(l, 1.0f);                                                   \
    loads[2] = clat_atomic_load_##NAME##_local(l);                                               \
    loads[3] = clat_atomic_load_##NAME##_local(l + 1);                                           \
    expected = 0x8000u;                                                                          \
    result[2] = clat_atomic_compare_exchange_##NAME##_local(l + 1, &expected, (ushort)0x4000u) && \
                clat_atomic_load_##NAME##_local(l + 1) == 2.0f;                                  \
  }
SLOT_KERNEL(half)
SLOT_KERNEL(bf16)

/* ---- never torn: writers store two patterns whose halves differ, readers check ---- */
#ifdef CLAT_HAS_INT64_ATOMICS
#define TEAR_KERNEL(T, PATTERN_A, PATTERN_B, BITS)                                              \
  kernel void tear_##T(global T *p, global uint *torn, uint rounds) {                           \
    const size_t i = get_global_id(0);                                                          \
    const T a = PATTERN_A, b = PATTERN_B;                                                       \
    uint bad = 0u;                                                                              \
    for (uint r = 0; r < rounds; ++r) {                                                         \
      if (i % 2u) clat_store(p, ((i / 2u + r) % 2u) ? a : b);                                   \
      else {                                                                                    \
        const ulong seen = BITS(clat_load(p));                                                  \
        bad += seen != BITS(a) && seen != BITS(b);                                              \
      }                                                                                         \
    }                                                                                           \
    if (bad) atomic_add(torn, bad);                                                             \
  }
TEAR_KERNEL(long, (long)0x0123456789abcdefl, (long)0xfedcba9876543210l, as_ulong)
TEAR_KERNEL(float2, ((float2)(1.0f, 2.0f)), ((float2)(-3.0f, -4.0f)), as_ulong)
#ifdef CLAT_HAS_DOUBLE
TEAR_KERNEL(double, 1.0000000000000002, -3.9999999999999996, as_ulong)
#endif
#endif

/* ---- user-defined ops ---- */
#ifdef CLAT_HAS_INT64_ATOMICS
/* Kahan-Neumaier: (sum, lost low part) in one 64-bit word. */
float2 kahan(float2 s, float x) {
  const float t = s.x + x;
  return (float2)(t, s.y + (fabs(s.x) >= fabs(x) ? (s.x - t) + x : (x - t) + s.x));
}
CLAT_DEFINE_ATOMIC_OP(test_kahan_add, float2, kahan(old, v.x))
/* The largest value and, among equal values, the least index: (value, index as float). */
CLAT_DEFINE_ATOMIC_OP(test_argmax, float2, (v.x > old.x || (v.x == old.x && v.y < old.y)) ? v : old)
#endif
CLAT_DEFINE_ATOMIC_OP(test_add_clamp, float, fmin(old + v, 100.0f))
CLAT_DEFINE_ATOMIC_OP(test_add_clamp, int, min(old + v, 100))

#define USER_F2_KERNELS(NAME)                                                                   \
  kernel void NAME##_global(global float2 *mem, global const float2 *a, global const uint *cell) { \
    size_t i = get_global_id(0);                                                                \
    test_##NAME(mem + cell[i], a[i]);                                                           \
  }                                                                                             \
  kernel void NAME##_local(global float2 *mem, global const float2 *a, global const uint *cell,  \
                           uint ncells, local float2 *cells) {                                   \
    LOCAL_IN                                                                                     \
    test_##NAME##_local(cells + cell[i], a[i]);                                                  \
    LOCAL_OUT                                                                                    \
  }
#ifdef CLAT_HAS_INT64_ATOMICS
USER_F2_KERNELS(kahan_add)
USER_F2_KERNELS(argmax)
#endif
/* add_clamp by its one name on both address spaces (the local form through the overload). */
#define CLAMP_KERNELS(T)                                                                        \
  kernel void clamp_##T##_global(global T *mem, global const T *a, global const uint *cell) {   \
    size_t i = get_global_id(0);                                                                \
    test_add_clamp(mem + cell[i], a[i]);                                                        \
  }                                                                                             \
  kernel void clamp_##T##_local(global T *mem, global const T *a, global const uint *cell,      \
                                uint ncells, local T *cells) {                                  \
    LOCAL_IN                                                                                    \
    test_add_clamp(cells + cell[i], a[i]);                                                      \
    LOCAL_OUT                                                                                   \
  }
CLAMP_KERNELS(float)
CLAMP_KERNELS(int)

/* ---- release / acquire: even groups publish, odd groups poll (bounded) ----
 * Group 2k writes n data words into its slot then releases flag[k] = round; group 2k + 1
 * acquires flag[k] and, if it sees this round, reads the data. seen[k]: 0 not observed (the
 * producer had not run yet, or ran after), 1 observed with all the data, 2 observed with
 * stale data: the ordering failed. The data of round r - 1 is in the slots when round r starts. */
kernel void message_passing(global uint *data, global uint *flag, global uint *seen, uint n, uint round, uint spins) {
  const size_t g = get_group_id(0), k = g / 2u, lid = get_local_id(0);
  global uint *slot = data + k * n;
  if (g % 2u == 0u) {
    for (uint j = lid; j < n; j += get_local_size(0)) slot[j] = round * 1000003u + j;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) clat_store_release_uint(flag + k, round);
  } else if (lid == 0) {
    /* The last round's data first, as a consumer that reuses its buffer would: a cache that kept
     * it would serve the stale words after the flag unless the acquire discards them. */
    uint before = 0u;
    for (uint j = 0; j < n; ++j) before += slot[j];
    uint got = 0u;
    for (uint s = 0; s < spins && got != round; ++s) got = clat_load_acquire_uint(flag + k);
    uint result = before == 0xfffffffeu ? 3u : 0u; /* keeps the first reads; never taken */
    if (got == round) {
      result = 1u;
      for (uint j = 0; j < n; ++j)
        if (slot[j] != round * 1000003u + j) result = 2u;
    }
    seen[k] = result;
  }
}

/* ---- what this compiler offers ---- */
kernel void features(global uint *f) {
#ifdef CLAT_HAVE_OVERLOADS
  f[0] = 1u;
#endif
#if defined(__opencl_c_generic_address_space)
  f[1] = 1u;
#endif
}
#if defined(__opencl_c_generic_address_space)
/* The one name through generic pointers, to __global and to __local memory. */
kernel void generic_ops(global float *g) {
  local float l[1];
  if (get_local_id(0) == 0) l[0] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float *pg = g, *pl = l;
  clat_fetch_add(pg, 1.0f);
  clat_fetch_max(pl, (float)get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) g[1] = clat_load(pl);
}
#endif
