/* clatomics/real.cl — the public float/double atomics, each on the path config.cl chose.
 *
 *   T clat_atomic_add_T(p, v)          *p += v        (native where checked, else CAS)
 *   T clat_atomic_sub_T(p, v)          *p -= v        (an add of -v: bit-identical in IEEE)
 *   T clat_atomic_mul_T(p, v)          *p *= v        (CAS)
 *   T clat_atomic_div_T(p, v)          *p /= v        (CAS)
 *   T clat_atomic_mad_T(p, a, b)       *p = fma(a, b, *p): fused, one rounding, on every device
 *   T clat_atomic_min_T(p, v)          order.cl's min (NaN is missing data, -0 < +0)
 *   T clat_atomic_max_T(p, v)          order.cl's max
 *   T clat_atomic_xchg_T(p, v)         *p = v
 *   T clat_atomic_cmpxchg_T(p, cmp, v) *p = v if the *bits* of *p equal those of cmp
 * with T float or double, on __global pointers; the same names ending in _local take __local
 * pointers. The read-modify-writes are those of ops.def. Each returns the value that was in
 * memory before. All are relaxed: atomic on the location, with no ordering of other memory (use a
 * barrier/fence for that).
 */
#ifndef CLATOMICS_REAL_CL
#define CLATOMICS_REAL_CL

/* CLAT_IMPL(path code, add_float) names clat_cas_add_float, clat_ptx_add_float, ... */
#define CLAT_PREFIX_0 clat_cas_
#define CLAT_PREFIX_1 clat_ext_
#define CLAT_PREFIX_2 clat_ptx_
#define CLAT_PREFIX_3 clat_bits_
#define CLAT_CAT_(a, b) a##b
#define CLAT_CAT(a, b) CLAT_CAT_(a, b)
#define CLAT_IMPL(path, name) CLAT_CAT(CLAT_CAT(CLAT_PREFIX_, path), name)

/* The path of an op of ops.def, from its native column and the paths config.cl chose. */
#define CLAT_PUBLIC_PATH_add(ADD_PATH, MINMAX_PATH) ADD_PATH
#define CLAT_PUBLIC_PATH_minmax(ADD_PATH, MINMAX_PATH) MINMAX_PATH
#define CLAT_PUBLIC_PATH_none(ADD_PATH, MINMAX_PATH) 0

/* clat_atomic_<op>_<T><SFX> for each op of ops.def: its implementation on its path, or its base
 * with its base operand. */
#define CLAT_PUBLIC_OP(T, AS, SFX, ADD_PATH, MINMAX_PATH, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND,  \
                       AGG_ATOMIC, AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                            \
  CLAT_FN T clat_atomic_##NAME##_##T##SFX(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T)) {           \
    return CLAT_IMPL(CLAT_PUBLIC_PATH_##NATIVE(ADD_PATH, MINMAX_PATH), NAME##_##T##SFX)(           \
        p CLAT_ARGS_##OPERANDS);                                                                   \
  }
#define CLAT_PUBLIC_VIA(T, AS, SFX, ADD_PATH, MINMAX_PATH, NAME, OPERANDS, BASE, BASE_OPERAND)      \
  CLAT_FN T clat_atomic_##NAME##_##T##SFX(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T)) {           \
    return clat_atomic_##BASE##_##T##SFX(p, BASE_OPERAND);                                         \
  }

#define CLAT_DEFINE_PUBLIC_OPS(T, U, AS, SFX, CAS, XCHG, ADD_PATH, MINMAX_PATH)                \
  CLAT_REAL_OPS(CLAT_PUBLIC_OP, CLAT_PUBLIC_VIA, T, AS, SFX, ADD_PATH, MINMAX_PATH)            \
  CLAT_FN T clat_atomic_xchg_##T##SFX(volatile AS T *p, T v) {                                 \
    return as_##T(XCHG((volatile AS U *)p, as_##U(v)));                                        \
  }                                                                                            \
  CLAT_FN T clat_atomic_cmpxchg_##T##SFX(volatile AS T *p, T cmp, T v) {                       \
    return as_##T(CAS((volatile AS U *)p, as_##U(cmp), as_##U(v)));                            \
  }

#endif /* CLATOMICS_REAL_CL */
