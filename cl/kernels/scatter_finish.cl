/* kernels/scatter_finish.cl — what runs after clat_scatter in its program: the accumulator's
 * fill, the finish into out (op with out's own value, means) and argmin/argmax.
 * Part of kernels/scatter.cl, which includes it after the build options' defaults.
 */
#ifndef CLATOMICS_KERNELS_SCATTER_FINISH_CL
#define CLATOMICS_KERNELS_SCATTER_FINISH_CL

/* The accumulator at its identity: slots [0, n). */
__kernel void clat_scatter_fill(__global CLAT_SC_STORE *acc, ulong n) {
  const clat_share s_share = clat_item_share(n);
  for (ulong s = s_share.begin; s < s_share.end; s += s_share.step) CLAT_SC_WRITE(acc + s * CLAT_SC_WORDS, CLAT_SC_IDENT);
}

#if CLAT_SC_FIXED
/* The 128-bit sum a (times 2^e_grid) rounded once to T: its top 64 bits with a sticky bit for
 * the rest, converted with round to nearest even, then scaled by a power of two. */
CLAT_FN CLAT_SC_T clat_sc_round_fixed(ulong2 a, int e_grid) {
  const int neg = (long)a.y < 0;
  const ulong mask = 0ul - (ulong)neg;
  const ulong lo = (a.x ^ mask) - mask, hi = (a.y ^ mask) + (mask & (a.x == 0ul ? 1ul : 0ul));
  ulong top = lo;
  int shift = 0;
  if (hi) {
    const int lz = (int)clz(hi);
    top = lz ? (hi << lz) | (lo >> (64 - lz)) : hi;
    top |= (lz ? lo << lz : lo) != 0ul ? 1ul : 0ul; /* sticky: the bits below the top 64 */
    shift = 64 - lz;
  }
  const CLAT_SC_T m = ldexp((CLAT_SC_T)top, e_grid + shift);
  return neg ? -m : m;
}
#endif

#if CLAT_SC_REAL
/* A bin's mean, correctly rounded on every device, so that deterministic means have the same bits
 * everywhere: OpenCL lets float division be 2.5 ulp off (NVIDIA's and Intel's CPU runtime's are
 * unless asked), while double division is correctly rounded on every device. A float quotient
 * through double is rounded twice, harmlessly while count < 2^28: sum is a multiple of half an
 * ulp of the quotient's float midpoints, so the exact quotient lies at least 2^-28 of such an ulp
 * from any midpoint it is not on, farther than double's rounding moves it. Without double, the
 * host asks for correctly rounded float division where the device offers it. */
CLAT_FN CLAT_SC_T clat_sc_mean(CLAT_SC_T sum, ulong count) {
#if !CLAT_SC_DOUBLE && defined(CLAT_HAS_DOUBLE)
  return (CLAT_SC_T)((double)sum / (double)count);
#else
  return sum / (CLAT_SC_T)count;
#endif
}
#endif

#if CLAT_SC_FIXED
/* A fixed-point slot's result from the exact sum of its values (times 2^e_grid), its flags and
 * out's own value self (include_self): self joins the exact sum when it lies within the grid
 * (e_top), so that the result is rounded once; the flags' NaN and infinities decide where they
 * are set. */
CLAT_FN CLAT_SC_T clat_sc_fixed_result(ulong2 of_values, uint flag, CLAT_SC_T self, uint include_self, int e_grid, int e_top) {
  ulong2 sum = of_values;
  CLAT_SC_T r;
  int self_apart = 0; /* out's value is added after rounding */
  if (include_self) {
    if (clat_sc_exponent(self) <= CLAT_SC_KEEP_LIMIT(e_top)) sum = clat_sc_add128(sum, clat_sc_fixed(self, e_grid));
    else self_apart = 1;
  }
  if ((flag & 1u) || (flag & 6u) == 6u) r = (CLAT_SC_T)NAN;
  else if (flag & 2u) r = (CLAT_SC_T)INFINITY;
  else if (flag & 4u) r = -(CLAT_SC_T)INFINITY;
  else if (include_self && self != (CLAT_SC_T)0 && !(of_values.x | of_values.y))
    r = self, self_apart = 0; /* no value, or values adding to exactly 0: out's own value as it is, not on the grid */
  else r = clat_sc_round_fixed(sum, e_grid);
  if (self_apart) r = self + r;
  return r;
}
#endif

#if CLAT_SC_WINDOW
/* The 128-bit sum of window slot j (scatter_window.cl): wide's (read only where its flags say a
 * value outside the window reached it) plus its 64-bit one on the grid, exact; wide left at zero. */
CLAT_FN ulong2 clat_sc_window_sum(ulong j, long in_window, uint flag, __global ulong *wide, int w_lo, int e_grid) {
  ulong2 of_values = (ulong2)(0ul, 0ul);
  if (flag & CLAT_SC_WIDE_USED) {
    of_values = CLAT_SC_READ128(wide + j * 2ul);
    CLAT_SC_WRITE128(wide + j * 2ul, (ulong2)(0ul, 0ul));
  }
  return in_window ? clat_sc_add128(of_values, clat_sc_window_wide(in_window, w_lo - 150 - e_grid)) : of_values;
}
#endif

/* Slot j (bin, column d) of out = (out op acc) or acc, for a bin that received elements (counts),
 * mean divided. Fixed point: clat_sc_fixed_result. A bin no element reached keeps its value; a
 * CSR segment with none (segments, include_self false) gets the empty reduction, as
 * torch_scatter's segment_csr writes it: 1 for prod, else 0. The fixed point's slots, flags and
 * window sums are left at zero for the next call (the host keeps them: core/zeroed_scratch.hpp);
 * only words that are not zero are written. */
CLAT_FN void clat_sc_finish_slot(ulong j, ulong bin, ulong d, __global CLAT_SC_T *out, ulong out_off, ulong ostride,
                                 __global CLAT_SC_STORE *acc, __global const ulong *counts, __global uint *flags, int e_grid,
                                 int e_top, __global ulong *wide, int w_lo, uint include_self, uint mean) {
  __global CLAT_SC_T *o = out + out_off + bin * ostride + d;
  ulong c = 1;
#if CLAT_SC_COUNTS
  c = counts[bin];
  if (c == 0) {
    if (CLAT_SC_SEGMENTS && !include_self) *o = (CLAT_SC_T)(CLAT_SC_OP == CLAT_SC_OP_PROD ? 1 : 0);
    return;
  }
#endif
#if CLAT_SC_FIXED
  const uint flag = flags[j];
  if (flag) flags[j] = 0u;
#if CLAT_SC_WINDOW
  const long in_window = acc[j];
  if (in_window) acc[j] = 0l;
  const ulong2 of_values = clat_sc_window_sum(j, in_window, flag, wide, w_lo, e_grid);
#else
  const ulong2 of_values = CLAT_SC_READ(acc + j * CLAT_SC_WORDS);
  if (of_values.x | of_values.y) CLAT_SC_WRITE(acc + j * CLAT_SC_WORDS, CLAT_SC_IDENT);
#endif
  const CLAT_SC_T self = include_self ? *o : (CLAT_SC_T)0;
  CLAT_SC_T r = clat_sc_fixed_result(of_values, flag, self, include_self, e_grid, e_top);
  if (include_self) c += 1;
#else
  CLAT_SC_T r = acc[j];
  if (include_self) {
#if CLAT_SC_PROP
    if (CLAT_SC_IS_IDENT(r)) return; /* out op identity: out's value, its NaN's bits included */
#endif
    r = CLAT_SC_COMB(*o, r);
    c += 1;
  }
#if CLAT_SC_PROP
  if (isnan(r)) r = CLAT_SC_QNAN; /* min's canonical NaN is negative: every NaN written is the positive quiet one */
#endif
#endif
  if (mean) {
#if CLAT_SC_REAL
    r = clat_sc_mean(r, c);
#elif CLAT_SC_UNSIGNED
    r = (CLAT_SC_T)((ulong)r / c);
#else
    /* floor division, as PyTorch's integer mean */
    const long q = (long)r / (long)c;
    r = (CLAT_SC_T)(q - (((long)r % (long)c != 0 && (long)r < 0) ? 1 : 0));
#endif
  }
  *o = r;
}

/* Window sums without counts (sum, include_self or not) whose out rows are dense: four slots j..j+3
 * at a time, their flags, 64-bit sums and out values each in one 16- or 32-byte load (the words
 * aligned), all issued before any slot's rounding. */
#define CLAT_SC_QUADS (CLAT_SC_WINDOW && !CLAT_SC_COUNTS && !CLAT_SC_MARKS)
#if CLAT_SC_QUADS
CLAT_FN float clat_sc_quad_slot(ulong j, long in_window, uint flag, float self, __global ulong *wide, int w_lo, int e_grid, int e_top,
                                uint include_self) {
  return clat_sc_fixed_result(clat_sc_window_sum(j, in_window, flag, wide, w_lo, e_grid), flag, self, include_self, e_grid, e_top);
}
CLAT_FN void clat_sc_finish_quad(ulong j, __global float *o, __global long *acc, __global uint *flags, int e_grid, int e_top,
                                 __global ulong *wide, int w_lo, uint include_self) {
  __global uint4 *f = (__global uint4 *)(flags + j);
  __global long4 *a = (__global long4 *)(acc + j);
  const uint4 flag = *f;
  const long4 in_window = *a;
  const float4 self = include_self ? *(__global const float4 *)o : (float4)(0.0f);
  if (flag.x | flag.y | flag.z | flag.w) *f = (uint4)(0u);
  if (in_window.x | in_window.y | in_window.z | in_window.w) *a = (long4)(0l);
  *(__global float4 *)o = (float4)(clat_sc_quad_slot(j, in_window.x, flag.x, self.x, wide, w_lo, e_grid, e_top, include_self),
                                   clat_sc_quad_slot(j + 1, in_window.y, flag.y, self.y, wide, w_lo, e_grid, e_top, include_self),
                                   clat_sc_quad_slot(j + 2, in_window.z, flag.z, self.z, wide, w_lo, e_grid, e_top, include_self),
                                   clat_sc_quad_slot(j + 3, in_window.w, flag.w, self.w, wide, w_lo, e_grid, e_top, include_self));
}
#endif

/* out's own value at o as clat_sc_finish_slot leaves it where no value arrived (sums with
 * include_self, which keep no counts): the finish reads a -0 as it would +0 (an exact 0 either
 * way) and writes a NaN back as it was. */
#if CLAT_SC_FIXED
CLAT_FN void clat_sc_settle_slot(__global CLAT_SC_T *o) {
  const CLAT_SC_T self = *o;
  if (self == (CLAT_SC_T)0) {
    if (signbit(self)) *o = (CLAT_SC_T)0;
  } else if (isnan(self)) {
    *o = self;
  }
}
/* The same for the four values at o (one load; a store only where one is a zero). */
CLAT_FN void clat_sc_settle_quad(__global CLAT_CAT(CLAT_SC_T, 4) *o) {
  const CLAT_CAT(CLAT_SC_T, 4) self = *o;
  const CLAT_CAT(CLAT_SC_T, 4) zero = (CLAT_CAT(CLAT_SC_T, 4))(0);
  if (any(self == zero)) *o = select(self, zero, self == zero);
}
#endif

/* Every slot of out's nbins rows of width (CLAT_SC_MARKS: those of marked blocks; the others as
 * no value reached them). */
__kernel void clat_scatter_finish(__global CLAT_SC_T *out, ulong out_off, ulong ostride, uint width, ulong nbins,
                                  __global CLAT_SC_STORE *acc, __global const ulong *counts,
                                  __global uint *flags, int e_grid, int e_top, __global ulong *wide, int w_lo,
                                  uint include_self, uint mean) {
  flags += clat_sc_mark_words(nbins * width);
  ulong j_first = 0; /* the slots before it finished in quads */
#if CLAT_SC_QUADS
  if (ostride == width && CLAT_ALIGNED(out + out_off, 4) && CLAT_ALIGNED(acc, 4) && CLAT_ALIGNED(flags, 4)) {
    const ulong quads = nbins * width / 4ul;
    const clat_share q_share = clat_item_share(quads);
    for (ulong q = q_share.begin; q < q_share.end; q += q_share.step)
      clat_sc_finish_quad(4ul * q, out + out_off + 4ul * q, acc, flags, e_grid, e_top, wide, w_lo, include_self);
    j_first = 4ul * quads;
  }
#endif
#if CLAT_SC_MARKS && !CLAT_SC_COUNTS
  /* One value a row, out dense: four slots a step (a block of marks holds a multiple of four), an
   * unmarked block's settled in one load. */
  if (ostride == 1ul && CLAT_ALIGNED(out + out_off, 4)) {
    const ulong quads = nbins / 4ul;
    const clat_share q_share = clat_item_share(quads);
    for (ulong q = q_share.begin; q < q_share.end; q += q_share.step) {
      const ulong j = 4ul * q;
      if (!clat_sc_marked(flags, j)) {
        clat_sc_settle_quad((__global CLAT_CAT(CLAT_SC_T, 4) *)(out + out_off + j));
        continue;
      }
      for (ulong k = j; k < j + 4ul; ++k)
        clat_sc_finish_slot(k, k, 0ul, out, out_off, 1ul, acc, counts, flags, e_grid, e_top, wide, w_lo, include_self, mean);
    }
    j_first = 4ul * quads;
  }
#endif
  const clat_share j_share = clat_item_share(nbins * width - j_first);
  for (ulong j = j_first + j_share.begin; j < j_first + j_share.end; j += j_share.step) {
#if CLAT_SC_MARKS
    if (!clat_sc_marked(flags, j)) { /* one value a row: slot j is bin j */
      if (!CLAT_SC_COUNTS) clat_sc_settle_slot(out + out_off + j * ostride);
      continue;
    }
#endif
    const ulong bin = j / width;
    clat_sc_finish_slot(j, bin, j - bin * width, out, out_off, ostride, acc, counts, flags, e_grid, e_top, wide, w_lo, include_self,
                        mean);
  }
}

/* argmin/argmax: the lowest position whose value equals out[bin] after the scatter (the same
 * bits; a NaN out[bin], where NaN propagates: the lowest position whose value is a NaN). */
__kernel void clat_scatter_arg(__global const CLAT_SC_IDX *idx, ulong idx_off, __global const CLAT_SC_IN *val, ulong val_off,
                               ulong first, ulong n, ulong nbins, __global const CLAT_SC_T *out, ulong out_off,
                               __global ulong *arg, ulong arg_off) {
  const clat_share j_share = clat_item_share(n);
  for (ulong j = j_share.begin; j < j_share.end; j += j_share.step) {
    const ulong p = first + j;
    const ulong b = idx[idx_off + p];
    if (b >= nbins) continue;
    const CLAT_SC_T v = CLAT_SC_LOAD(val + val_off, p), o = out[out_off + b];
#if CLAT_SC_REAL && CLAT_SC_NAN_PROP
    if (isnan(o) ? !isnan(v) : !CLAT_SC_SAME_BITS(v, o)) continue;
#elif CLAT_SC_REAL
    if (isnan(v) || !CLAT_SC_SAME_BITS(v, o)) continue;
#else
    if (!CLAT_SC_SAME_BITS(v, o)) continue;
#endif
    volatile __global ulong *a = arg + arg_off + b;
#ifdef CLAT_HAS_INT64_MINMAX
    atom_min(a, p);
#else
    ulong old = *a;
    while (p < old) {
      const ulong seen = atom_cmpxchg(a, old, p);
      if (seen == old) break;
      old = seen;
    }
#endif
  }
}

#endif /* CLATOMICS_KERNELS_SCATTER_FINISH_CL */
