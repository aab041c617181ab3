/* kernels/scatter_window.cl — the deterministic float sums' fast path (CLAT_SC_WINDOW): the values
 * of a window of exponents as plain 64-bit integers, the rest in 128-bit fixed point.
 * Part of kernels/scatter.cl, which includes it after scatter_fixed.cl.
 *
 * The fixed point gives a value v the integer round(v / 2^e_grid) (scatter_fixed.cl), a general
 * shift, rounding and 128-bit negation, and a 128-bit add: many integer instructions a value. A
 * float whose biased exponent lies in [w_lo, w_lo + w_span] is an integer multiple of
 * 2^L, L = w_lo - 150, below 2^(w_span + 24) of them; L >= e_grid (the host keeps it so), so
 * that its fixed point is exactly (v / 2^L) * 2^(L - e_grid), no rounding. So it joins a signed
 * 64-bit sum in units of 2^L: one multiply by 2^-L and one conversion, both exact, and one
 * 64-bit add (an atomic without a carry or a result in memory). The host keeps count *
 * 2^(w_span + 24) <= 2^63, so that no partial sum of these can overflow. Values outside the
 * window (zeros, subnormals, values far below the largest, values above the sample's largest)
 * take the 128-bit path into a second accumulator, `wide`; the finish adds the two exactly, so
 * every slot's 128-bit sum, hence its result, is bit for bit what the 128-bit path alone gives.
 *
 * The accumulator the runs, __local copies and the global slots carry is the 64-bit sum. Values
 * outside the window are rare, and their 128-bit sums stay out of the runs' registers: each
 * work-item sums them for one slot at a time in __local memory (w_sums, w_keys: CLAT_SC_GROUP
 * entries, the host's largest work-group) and adds that sum to `wide` when a value outside the
 * window comes for another slot, and at its end. Measured on the H200 (64M values): the
 * accumulating kernel at 256 bins 0.235 -> 0.180 ms, 65,536 bins sorted 0.187 -> 0.160, against
 * the same sum kept beside each run in registers and added to `wide` at the run's end.
 */
#ifndef CLATOMICS_KERNELS_SCATTER_WINDOW_CL
#define CLATOMICS_KERNELS_SCATTER_WINDOW_CL

#if CLAT_SC_WINDOW
#define CLAT_SC_A long
#define CLAT_SC_STORE long
#define CLAT_SC_WORDS 1
#define CLAT_SC_IDENT 0l
#define CLAT_SC_IS_IDENT(a) ((a) == 0l)
#define CLAT_SC_COMB(a, b) ((a) + (b))
#define CLAT_SC_GLOBAL(p, a) atom_add((volatile __global long *)(p), a)
#define CLAT_SC_READ(p) ((p)[0])
#define CLAT_SC_WRITE(p, a) ((p)[0] = (a))

/* The private copies' limbs (CLAT_SC_LIMBS, the host's choice on NVIDIA, whose 64-bit __local
 * add is a compare-and-swap loop and whose 32-bit one a single instruction): a copy's word is two
 * 32-bit sums, of each run's low `limb` bits (unsigned) and of the rest (signed), two adds that
 * return nothing, their carries settled when the group reads its copies. With E the most values a
 * copy takes in one group (per_copy), limb = clz(E) keeps the low sum below E * 2^limb < 2^32,
 * and the host keeps the signed one within int: E * 2^(B - limb) + E < 2^31, where 2^B bounds a
 * value's window integer (scatter_limbs_hold, scatter/device_call.hpp). Measured on the H200
 * (64M values into 256 bins): the accumulating kernel 0.180 -> 0.151 ms. */
#if CLAT_SC_LIMBS && (CLAT_SC_MODE != CLAT_SC_MODE_PRIVATE || CLAT_SC_SOLO)
#error "kernels/scatter.cl: CLAT_SC_LIMBS is for the private copies of work-groups of many work-items"
#endif
#if CLAT_SC_LIMBS
CLAT_FN void clat_sc_limbs_add(volatile __local uint *w, long a, uint limb) {
  atomic_add(w, (uint)a & ((1u << limb) - 1u));
  atomic_add((volatile __local int *)w + 1, (int)(a >> limb));
}
CLAT_FN long clat_sc_limbs_read(__local const uint *w, uint limb) { return ((long)(int)w[1] << limb) + (long)w[0]; }
#define CLAT_SC_LOCAL(p, a) clat_sc_limbs_add((volatile __local uint *)(p), (a), limb)
#define CLAT_SC_READ_LOCAL(p) clat_sc_limbs_read((__local const uint *)(p), limb)
#else
#define CLAT_SC_LOCAL(p, a) CLAT_SC_LOCAL_ADD64((volatile __local ulong *)(p), (ulong)(a))
#endif

/* 2^(150 - w_lo) as a float: the window's unit's inverse (the host keeps 23 <= w_lo <= 254 for a
 * window that is not empty; an empty one never uses it). */
CLAT_FN float clat_sc_window_scale(int w_lo) { return as_float((uint)clamp(277 - w_lo, 1, 254) << 23); }

/* A 64-bit sum x in units of 2^sh on the 128-bit grid (sh >= 0): x * 2^sh, two's complement. */
CLAT_FN ulong2 clat_sc_window_wide(long x, int sh) {
  if (sh == 0) return (ulong2)((ulong)x, (ulong)(x >> 63));
  if (sh < 64) return (ulong2)((ulong)x << sh, (ulong)(x >> (64 - sh)));
  return (ulong2)(0ul, sh < 128 ? (ulong)x << (sh - 64) : 0ul);
}

/* Four values' window integers and whether each lies in the window, as vector operations (one
 * instruction each on CPUs with wide vectors). A value outside the window gets an unused q. */
#define CLAT_SC_WINDOW4(F, Q, OK)                                                  \
  {                                                                                \
    const float4 f4_ = (F);                                                        \
    (Q) = convert_long4(f4_ * w_scale);                                            \
    (OK) = ((as_uint4(f4_) >> 23) & 0xffu) - (uint4)((uint)w_lo) <= (uint4)w_span; \
  }

/* A slot's flags bit that says its `wide` sum may not be zero: the finish reads `wide` only
 * there (most slots get no value outside the window, and `wide` is 16 of the finish's bytes a
 * slot). */
#define CLAT_SC_WIDE_USED 16u

/* A sum of values outside the window into `wide` at slot key, and the slot's flag set. */
CLAT_FN void clat_sc_wide_flush(ulong key, ulong2 a, uint width, __global ulong *wide, ulong acc_off, ulong astride,
                                __global uint *flags) {
  if (!(a.x | a.y)) return;
  clat_sc_mark(flags, key);
  const ulong bin = width == 1u ? key : key / width, d = width == 1u ? 0ul : key % width;
  clat_sc_add128_global(wide + (acc_off + bin * astride + d) * 2ul, a);
  clat_sc_flag_once(flags + key, CLAT_SC_WIDE_USED);
}
#endif

#endif /* CLATOMICS_KERNELS_SCATTER_WINDOW_CL */
