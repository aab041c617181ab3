/* clatomics/half.cl — half-precision (IEEE binary16) atomics on ushort storage.
 *
 *   float  clat_half_to_float(ushort h)           exact
 *   ushort clat_float_to_half(float f)            round to nearest even; overflow -> inf;
 *                                                 NaN stays NaN (quiet, top payload bits kept)
 *   float  clat_atomic_add_half(volatile __global ushort *p, float v)   *p = half(*p + half(v))
 *   float  clat_atomic_sub_half(p, v)             *p = half(*p - half(v))
 *   float  clat_atomic_min_half(p, v), _max_half  order.cl's rules (NaN is missing data, -0 < +0)
 *   float  clat_atomic_xchg_half(p, v)            *p = half(v)
 *   ushort clat_atomic_cmpxchg_half(p, ushort cmp, ushort v)   bitwise, on the 16-bit patterns
 * The same names ending in _local take __local pointers. Each returns the old value (as float,
 * exactly; cmpxchg: its bits). v is rounded to half first, then the result of the operation
 * (computed in float, exact before the one rounding: float has more than 2*11+2 bits) is rounded
 * to nearest even, so every path gives the correctly rounded half result. NaN payloads are not
 * kept by add/sub. A buffer of `half` works too: cast its pointer to ushort *.
 *
 * How: on NVIDIA (CLAT_NVIDIA_PTX, __global) add/sub are the packed `atom.global.add.noftz.f16x2`
 * (.bf16x2) on the containing word, the neighbour's addend -0.0: x + -0.0 keeps every number,
 * both zeros, infinities and subnormals (noftz) bit for bit. It does not keep a NaN: the H200
 * turns a NaN neighbour into the canonical NaN (measured). So the word is read first and a NaN
 * neighbour sends the add to the CAS loop instead. The one case left: another work-item stores a
 * NaN into the neighbour between that read and the packed add; the neighbour then holds the
 * canonical NaN instead of the stored one (still NaN). -DCLAT_PTX_HALF_SCALAR takes the scalar
 * `atom.global.add.noftz.f16` (.bf16) instead, which never touches the neighbour, but the H200
 * runs it like a CAS loop: 0.5 vs 569 M ops/s into one address (bench/BENCHMARKS.md).
 * Everywhere else a 16-bit atomic is a compare-exchange loop on
 * the aligned 32-bit word that contains it, writing the neighbour's bits back as they were. So
 * the neighbour never changes, and both halves of one word may be updated at the same time.
 *
 * ALLOCATION RULE: the containing 32-bit word must be inside the allocation and 4-byte aligned.
 * Element 2k lives in bytes [4k, 4k+4) together with element 2k+1, so a buffer of an odd number
 * of halves must be allocated rounded up to a multiple of 4 bytes (the 2 padding bytes are read,
 * never changed), and a __local ushort array needs __attribute__((aligned(4))) and an even length.
 */
#ifndef CLATOMICS_HALF_CL
#define CLATOMICS_HALF_CL

/* ---- conversions ---- */
CLAT_FN float clat_half_to_float(ushort h) {
  const uint sign = (uint)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0u) {  // zero or subnormal: m * 2^-24, exact in float
    const float f = (float)m * 0x1.0p-24f;
    return as_float(as_uint(f) | sign);
  }
  if (e == 31u) return as_float(sign | 0x7f800000u | (m << 13));  // inf, NaN (payload kept)
  return as_float(sign | ((e + 112u) << 23) | (m << 13));
}

CLAT_FN ushort clat_float_to_half(float f) {
  const uint x = as_uint(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  const uint e = ax >> 23, m = ax & 0x7fffffu;
  if (ax > 0x7f800000u) return (ushort)(sign | 0x7e00u | (m >> 13));  // NaN: quiet
  if (e >= 143u) return (ushort)(sign | 0x7c00u);                       // >= 2^16 or inf
  if (e >= 113u) {  // normal half: keep 10 bits, round the 13 dropped ones to nearest even
    uint h = ((e - 112u) << 10) | (m >> 13);
    const uint rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry may reach inf: right
    return (ushort)(sign | h);
  }
  if (e < 102u) return (ushort)sign;  // below 2^-25: rounds to zero
  // subnormal half: round (1.m * 2^(e-127)) / 2^-24 = mant >> (126 - e) to nearest even
  const uint mant = m | 0x800000u, shift = 126u - e;
  uint h = mant >> shift;
  const uint rest = mant & ((1u << shift) - 1u), half_ulp = 1u << (shift - 1u);
  if (rest > half_ulp || (rest == half_ulp && (h & 1u))) ++h;  // may become the smallest normal
  return (ushort)(sign | h);
}

/* ---- the containing 32-bit word of a 16-bit element ---- */
#ifdef __ENDIAN_LITTLE__
#define CLAT_SLOT_SHIFT(p) (((size_t)(p) & 2u) ? 16u : 0u)
#else
#define CLAT_SLOT_SHIFT(p) (((size_t)(p) & 2u) ? 0u : 16u)
#endif
#define CLAT_SLOT_WORD(AS, p) ((volatile AS uint *)((volatile AS uchar *)(p) - ((size_t)(p) & 2u)))

/* The body of a function returning the old 16 bits: NEW is an expression of clat_old (ushort).
 * A compare-exchange on the word that only changes this element's bits; returns without writing
 * when NEW equals the old bits. */
#define CLAT_SLOT_CAS_BODY(AS, p, NEW)                                                         \
  {                                                                                            \
    volatile AS uint *clat_w = CLAT_SLOT_WORD(AS, p);                                          \
    const uint clat_sh = CLAT_SLOT_SHIFT(p);                                                   \
    uint clat_seen = CLAT_FIRST_READ_uint(AS, clat_w);                                         \
    for (;;) {                                                                                 \
      const ushort clat_old = (ushort)(clat_seen >> clat_sh);                                  \
      const ushort clat_new = (NEW);                                                           \
      if (clat_new == clat_old) return clat_old;                                               \
      const uint clat_next = (clat_seen & ~(0xffffu << clat_sh)) | ((uint)clat_new << clat_sh); \
      const uint clat_prev = atomic_cmpxchg(clat_w, clat_seen, clat_next);                     \
      if (clat_prev == clat_seen) return clat_old;                                             \
      clat_seen = clat_prev;                                                                   \
    }                                                                                          \
  }

/* Which of two 16-bit values order.cl's min/max picks (NaN missing data, -0 < +0), through the
 * exact conversion TO_F: the bits of the winner, never a re-rounded value. */
#define CLAT_SLOT_PICK(MINMAX, TO_F, a, b) \
  (as_uint(clat_##MINMAX##_float(TO_F(a), TO_F(b))) == as_uint(TO_F(a)) ? (a) : (b))

/* The ops of a 16-bit float type NAME (half here, bf16 in bfloat16.cl), whose exact conversions
 * are clat_NAME_to_float and clat_float_to_NAME. First the CAS ops, on the bits (v is in the
 * type's bits already), on __global and __local: */
#define CLAT_SLOT_CAS_OPS(NAME, AS, SFX)                                                       \
  CLAT_FN ushort clat_cas_add_##NAME##SFX(volatile AS ushort *p, ushort v)                    \
      CLAT_SLOT_CAS_BODY(AS, p, clat_float_to_##NAME(clat_##NAME##_to_float(clat_old) +        \
                                                     clat_##NAME##_to_float(v)))               \
  CLAT_FN ushort clat_cas_min_##NAME##SFX(volatile AS ushort *p, ushort v)                    \
      CLAT_SLOT_CAS_BODY(AS, p, CLAT_SLOT_PICK(min, clat_##NAME##_to_float, clat_old, v))      \
  CLAT_FN ushort clat_cas_max_##NAME##SFX(volatile AS ushort *p, ushort v)                    \
      CLAT_SLOT_CAS_BODY(AS, p, CLAT_SLOT_PICK(max, clat_##NAME##_to_float, clat_old, v))      \
  CLAT_FN ushort clat_cas_xchg_##NAME##SFX(volatile AS ushort *p, ushort v)                   \
      CLAT_SLOT_CAS_BODY(AS, p, v)                                                             \
  CLAT_FN ushort clat_atomic_cmpxchg_##NAME##SFX(volatile AS ushort *p, ushort cmp, ushort v) \
      CLAT_SLOT_CAS_BODY(AS, p, clat_old == cmp ? v : clat_old)
#define CLAT_DEFINE_SLOT_CAS_OPS(NAME)                                                         \
  CLAT_SLOT_CAS_OPS(NAME, __global, )                                                          \
  CLAT_SLOT_CAS_OPS(NAME, __local, _local)

/* The public value ops, in float: each converts v, runs IMPL on the bits, converts the old value
 * back. ADD_PATH picks the add (PTX packed add or the CAS loop); sub adds -v (its sign bit). */
#define CLAT_SLOT_PUBLIC_OP(NAME, AS, SFX, OP, IMPL, BITS)                                     \
  CLAT_FN float clat_atomic_##OP##_##NAME##SFX(volatile AS ushort *p, float v) {              \
    return clat_##NAME##_to_float(IMPL(p, BITS));                                              \
  }
#define CLAT_SLOT_PUBLIC_OPS(NAME, AS, SFX, ADD_PATH)                                          \
  CLAT_SLOT_PUBLIC_OP(NAME, AS, SFX, add, CLAT_IMPL(ADD_PATH, add_##NAME##SFX),                \
                      clat_float_to_##NAME(v))                                                 \
  CLAT_SLOT_PUBLIC_OP(NAME, AS, SFX, sub, CLAT_IMPL(ADD_PATH, add_##NAME##SFX),                \
                      clat_float_to_##NAME(v) ^ (ushort)0x8000u)                               \
  CLAT_SLOT_PUBLIC_OP(NAME, AS, SFX, min, clat_cas_min_##NAME##SFX, clat_float_to_##NAME(v))   \
  CLAT_SLOT_PUBLIC_OP(NAME, AS, SFX, max, clat_cas_max_##NAME##SFX, clat_float_to_##NAME(v))   \
  CLAT_SLOT_PUBLIC_OP(NAME, AS, SFX, xchg, clat_cas_xchg_##NAME##SFX, clat_float_to_##NAME(v))
#define CLAT_DEFINE_SLOT_PUBLIC_OPS(NAME, ADD_PATH_GLOBAL, ADD_PATH_LOCAL)                     \
  CLAT_SLOT_PUBLIC_OPS(NAME, __global, , ADD_PATH_GLOBAL)                                      \
  CLAT_SLOT_PUBLIC_OPS(NAME, __local, _local, ADD_PATH_LOCAL)

/* NVIDIA: the packed atom.global.add.noftz.<PTX_TYPE>x2 on the containing word, neighbour's
 * addend -0.0 (0x8000), unless the neighbour is a NaN (its 15 magnitude bits above NAN_ABOVE,
 * the type's infinity): then the CAS loop, which keeps its bits. With CLAT_PTX_HALF_SCALAR the
 * scalar atom on the element. Expanded after the type's CAS ops. */
#ifndef CLAT_PTX_HALF_SCALAR
#define CLAT_DEFINE_SLOT_PTX_ADD(NAME, PTX_TYPE, NAN_ABOVE)                                    \
  CLAT_FN ushort clat_ptx_add_##NAME(volatile __global ushort *p, ushort v) {                  \
    volatile __global uint *w = CLAT_SLOT_WORD(__global, p);                                   \
    const uint sh = CLAT_SLOT_SHIFT(p);                                                        \
    if (((*w >> (16u - sh)) & 0x7fffu) > (NAN_ABOVE)) return clat_cas_add_##NAME(p, v);        \
    const uint addend = ((uint)v << sh) | (0x8000u << (16u - sh));                             \
    uint old;                                                                                  \
    asm volatile("atom.global.add.noftz." PTX_TYPE "x2 %0, [%1], %2;"                          \
                 : "=r"(old) : "l"(w), "r"(addend) : "memory");                                \
    return (ushort)(old >> sh);                                                                \
  }
#else
#define CLAT_DEFINE_SLOT_PTX_ADD(NAME, PTX_TYPE, NAN_ABOVE)                                    \
  CLAT_FN ushort clat_ptx_add_##NAME(volatile __global ushort *p, ushort v) {                  \
    ushort old;                                                                                \
    asm volatile("atom.global.add.noftz." PTX_TYPE " %0, [%1], %2;"                            \
                 : "=h"(old) : "l"(p), "h"(v) : "memory");                                     \
    return old;                                                                                \
  }
#endif

CLAT_DEFINE_SLOT_CAS_OPS(half)
#if CLAT_PATH_ADD_HALF_GLOBAL == CLAT_PATH_PTX
CLAT_DEFINE_SLOT_PTX_ADD(half, "f16", 0x7c00u)
#endif
CLAT_DEFINE_SLOT_PUBLIC_OPS(half, CLAT_PATH_ADD_HALF_GLOBAL, CLAT_PATH_ADD_HALF_LOCAL)

#endif /* CLATOMICS_HALF_CL */
