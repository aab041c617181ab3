/* kernels/scatter_fixed.cl — scatter's accumulator in 128-bit fixed point (CLAT_SC_FIXED, the
 * deterministic sums).
 * Part of kernels/scatter.cl, which includes it after the build options' defaults.
 *
 * A value v = m * 2^e becomes the 128-bit integer v / 2^e_grid (rounded to nearest even), e_grid
 * chosen by the host from the largest exponent (clat_scatter_top in scatter_checks.cl) and the
 * element count so that no sum overflows; 128-bit adds with carries are exact and their order does
 * not matter. NaN and infinities set flags (1 NaN, 2 +inf, 4 -inf) instead.
 */
#ifndef CLATOMICS_KERNELS_SCATTER_FIXED_CL
#define CLATOMICS_KERNELS_SCATTER_FIXED_CL

/* The marked finish (CLAT_SC_MARKS, the host's choice for one value a row where its sample says
 * few of many slots are reached): every update of a slot in global memory (its sum, its flags,
 * its `wide` sum, its count) marks the slot's block of 2^CLAT_SC_MARK_SHIFT slots, and the finish
 * reads the slots of marked blocks only, leaving the others as it leaves a slot no value reached
 * (16M bins, one of them reached: one block of 65,536). A block's mark is the word
 * flags[-1 - block], ahead of the slots' flags (the kernels step flags past the marks' words).
 * Each mark is set once or a few times (clat_sc_flag_once). */
#ifndef CLAT_SC_MARKS
#define CLAT_SC_MARKS 0
#endif
#if CLAT_SC_MARKS && (!CLAT_SC_FIXED || CLAT_SC_SEGMENTS || CLAT_SC_SORT_ROWS || !defined(CLAT_SC_MARK_SHIFT))
#error "kernels/scatter.cl: CLAT_SC_MARKS marks fixed-point slots of indexed bins, in blocks of 2^CLAT_SC_MARK_SHIFT (the host's)"
#endif
#ifndef CLAT_SC_MARK_SHIFT
#define CLAT_SC_MARK_SHIFT 0 /* no marks */
#endif
/* Sets bit in the flags word *f, read first (CLAT_FIRST_READ, cas.cl): a word that many updates
 * meet takes one atomic, a stale read one more that changes nothing. */
CLAT_FN void clat_sc_flag_once(volatile __global uint *f, uint bit) {
  if (!(CLAT_FIRST_READ_uint(__global, f) & bit)) atomic_or(f, bit);
}
CLAT_FN ulong clat_sc_mark_words(ulong slots) {
  return CLAT_SC_MARKS ? (slots + (1ul << CLAT_SC_MARK_SHIFT) - 1ul) >> CLAT_SC_MARK_SHIFT : 0ul;
}
CLAT_FN void clat_sc_mark(__global uint *flags, ulong slot) {
#if CLAT_SC_MARKS
  clat_sc_flag_once(flags - 1 - (long)(slot >> CLAT_SC_MARK_SHIFT), 1u);
#endif
}
CLAT_FN int clat_sc_marked(__global const uint *flags, ulong slot) { return flags[-1 - (long)(slot >> CLAT_SC_MARK_SHIFT)] != 0u; }

#if CLAT_SC_FIXED
/* ---- the accumulator: 128-bit two's complement fixed point, ulong2 (x low, y high) ---- */
#if !CLAT_SC_REAL || CLAT_SC_OP != CLAT_SC_OP_SUM || !defined(CLAT_HAS_DOUBLE)
#error "kernels/scatter.cl: CLAT_SC_FIXED sums floating-point values on a device with fp64"
#endif
CLAT_FN ulong2 clat_sc_add128(ulong2 a, ulong2 b) {
  const ulong lo = a.x + b.x;
  return (ulong2)(lo, a.y + b.y + (lo < a.x ? 1ul : 0ul));
}
/* m * 2^lsb / 2^e_grid rounded to nearest even, as 128 bits, negated when neg; m < 2^53 and
 * the host keeps lsb - e_grid <= 102 - log2(elements). */
CLAT_FN ulong2 clat_sc_fixed_bits(ulong m, int lsb, int neg, int e_grid) {
  const int s = lsb - e_grid;
  ulong lo, hi;
  if (s >= 64) {
    lo = 0ul;
    hi = m << (s - 64);
  } else if (s > 0) {
    lo = m << s;
    hi = m >> (64 - s);
  } else if (s == 0) {
    lo = m;
    hi = 0ul;
  } else if (s > -54) {
    const int r = -s;
    const ulong q = m >> r, rest = m & ((1ul << r) - 1ul), tie = 1ul << (r - 1);
    lo = q + ((rest > tie || (rest == tie && (q & 1ul))) ? 1ul : 0ul);
    hi = 0ul;
  } else {
    lo = hi = 0ul; /* below half a step: rounds to 0 */
  }
  /* Two's complement when neg, without a branch (signs of data are unpredictable). */
  const ulong mask = 0ul - (ulong)neg;
  return (ulong2)((lo ^ mask) - mask, (hi ^ mask) + (mask & (lo == 0ul ? 1ul : 0ul)));
}
/* A finite value's fixed point. */
#if CLAT_SC_DOUBLE
CLAT_FN ulong2 clat_sc_fixed(double v, int e_grid) {
  const ulong bits = as_ulong(v);
  const int e = (int)((bits >> 52) & 0x7fful);
  const ulong m = (bits & 0xffffffffffffful) | (e ? 1ul << 52 : 0ul);
  return clat_sc_fixed_bits(m, (e ? e : 1) - 1075, (int)(bits >> 63), e_grid);
}
#else
CLAT_FN ulong2 clat_sc_fixed(float v, int e_grid) {
  const uint bits = as_uint(v);
  const int e = (int)((bits >> 23) & 0xffu);
  const uint m = (bits & 0x7fffffu) | (e ? 0x800000u : 0u);
  return clat_sc_fixed_bits((ulong)m, (e ? e : 1) - 150, (int)(bits >> 31), e_grid);
}
#endif
/* 128-bit add into memory with a carry: exact in any order. The grid puts the largest values'
 * bits in the high word, so most values have no low word and cost one atomic, without a result.
 * The __local form, clat_sc_add128_local, is below. */
CLAT_FN void clat_sc_add128_global(volatile __global ulong *p, ulong2 a) {
  ulong carry = 0ul;
  if (a.x) {
    const ulong old = atom_add(p, a.x);
    carry = (old + a.x < old) ? 1ul : 0ul;
  }
  if (a.y + carry) atom_add(p + 1, a.y + carry);
}

/* 64-bit adds into __local memory. NVIDIA's 64-bit __local atomic add is a compare-and-swap loop
 * (ATOMS.CAST.SPIN.64 on sm_90) and its 32-bit one a single instruction, so there the hot-bin
 * table's words take two 32-bit adds, the low one's carry passed on: exact modulo 2^64 in any
 * order, as the slots are read only after the work-group's barrier. Measured on the H200
 * (deterministic sums): the table's cases 8-11% faster; the private copies', whose few slots
 * every work-item meets, 20-34% slower, so they keep the loop (the window's copies take two adds
 * that return nothing instead: its limbs, scatter_window.cl). The _carry form returns the carry
 * out of bit 63 (the 128-bit sums' low word's). */
#ifndef CLAT_SC_SPLIT_LOCAL64
#if defined(CLAT_NVIDIA_PTX) && defined(__ENDIAN_LITTLE__) && CLAT_SC_MODE == CLAT_SC_MODE_CACHE
#define CLAT_SC_SPLIT_LOCAL64 1
#else
#define CLAT_SC_SPLIT_LOCAL64 0
#endif
#endif
#if CLAT_SC_SPLIT_LOCAL64
CLAT_FN uint clat_sc_local_add64_carry(volatile __local ulong *p, ulong x) {
  volatile __local uint *w = (volatile __local uint *)p;
  const uint lo = (uint)x, hi = (uint)(x >> 32);
  uint c = 0u;
  if (lo) {
    const uint old = atomic_add(w, lo);
    c = old + lo < old ? 1u : 0u;
  }
  if (hi == 0xffffffffu && c) return 1u; /* 2^32 into the high word: it wraps round whole */
  const uint h = hi + c;
  if (!h) return 0u;
  const uint old = atomic_add(w + 1, h);
  return old + h < old ? 1u : 0u;
}
#define CLAT_SC_LOCAL_ADD64(p, x) ((void)clat_sc_local_add64_carry(p, x))
#else
CLAT_FN uint clat_sc_local_add64_carry(volatile __local ulong *p, ulong x) {
  const ulong old = atom_add(p, x);
  return old + x < old ? 1u : 0u;
}
#define CLAT_SC_LOCAL_ADD64(p, x) ((void)atom_add(p, x))
#endif
CLAT_FN void clat_sc_add128_local(volatile __local ulong *p, ulong2 a) {
  const ulong carry = a.x ? (ulong)clat_sc_local_add64_carry(p, a.x) : 0ul;
  if (a.y + carry) CLAT_SC_LOCAL_ADD64(p + 1, a.y + carry);
}
#define CLAT_SC_READ128(p) ((ulong2)((p)[0], (p)[1]))
#define CLAT_SC_WRITE128(p, a) ((p)[0] = (a).x, (p)[1] = (a).y)

/* The accumulator of every slot 128 bits wide (doubles; floats take scatter_window.cl's). */
#if !CLAT_SC_WINDOW
#define CLAT_SC_A ulong2
#define CLAT_SC_STORE ulong
#define CLAT_SC_WORDS 2
#define CLAT_SC_IDENT ((ulong2)(0ul, 0ul))
#define CLAT_SC_IS_IDENT(a) ((a).x == 0ul && (a).y == 0ul)
#define CLAT_SC_COMB(a, b) clat_sc_add128(a, b)
#define CLAT_SC_GLOBAL(p, a) clat_sc_add128_global(p, a)
#define CLAT_SC_LOCAL(p, a) clat_sc_add128_local(p, a)
#define CLAT_SC_READ(p) CLAT_SC_READ128(p)
#define CLAT_SC_WRITE(p, a) CLAT_SC_WRITE128(p, a)
#endif

#endif

#endif /* CLATOMICS_KERNELS_SCATTER_FIXED_CL */
