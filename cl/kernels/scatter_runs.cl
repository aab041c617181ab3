/* kernels/scatter_runs.cl — the runs of clat_scatter: an element's value as an accumulator,
 * the bin of a position, and a finished run handed on to __local or global memory.
 * Part of kernels/scatter.cl, which includes it after the build options' defaults.
 */
#ifndef CLATOMICS_KERNELS_SCATTER_RUNS_CL
#define CLATOMICS_KERNELS_SCATTER_RUNS_CL

/* One work-item alone in its work-group: its __local memory is its own. */
#if CLAT_SC_SOLO
#undef CLAT_SC_LOCAL
#define CLAT_SC_LOCAL(p, a) do { const CLAT_SC_A t_ = CLAT_SC_COMB(CLAT_SC_READ(p), a); CLAT_SC_WRITE(p, t_); } while (0)
#define CLAT_SC_LOCAL_COUNT(p, n) (*(p) += (n))
#else
#define CLAT_SC_LOCAL_COUNT(p, n) atomic_add(p, n)
#endif
/* A __local slot's accumulator as the group hands it on (the limbs' form it settles). */
#ifndef CLAT_SC_READ_LOCAL
#define CLAT_SC_READ_LOCAL(p) CLAT_SC_READ(p)
#endif

/* An element's value as an accumulator; CLAT_SC_KEEP(v, slot) is false for values that do not
 * enter it (fixed point: NaN and infinities, which set their slot's flags). */
#if CLAT_SC_FIXED
#define CLAT_SC_TO_A(v) clat_sc_fixed((v), e_grid)
/* Values above the grid's top (the host guessed it from a sample) are left out and flagged in
 * oor[0]: the host runs the call again with the true top. */
#define CLAT_SC_KEEP(v, slot) (clat_sc_exponent(v) <= e_keep || clat_sc_rare(v, (slot), flags, oor))
/* The common case costs one integer compare: the value's own biased exponent against e_keep, the
 * largest one within the grid (NaN and infinities have the largest exponent of all). */
#if CLAT_SC_DOUBLE
#define clat_sc_exponent(v) ((int)((as_ulong(v) >> 52) & 0x7fful))
#define CLAT_SC_KEEP_LIMIT(e_top) min((e_top), 2046)
#else
#define clat_sc_exponent(v) ((int)((as_uint(v) >> 23) & 0xffu))
#define CLAT_SC_KEEP_LIMIT(e_top) min((e_top) - 896, 254)
#endif
/* NaN and infinities set their slot's flags; a finite value above the grid flags oor[0]. */
CLAT_FN int clat_sc_rare(CLAT_SC_T v, ulong slot, __global uint *flags, __global uint *oor) {
  if (isfinite(v)) {
    oor[0] = 1u;
  } else {
    clat_sc_mark(flags, slot);
    atomic_or(flags + slot, isnan(v) ? 1u : v > 0 ? 2u : 4u);
  }
  return 0;
}
#else
#if CLAT_SC_PROP
#define CLAT_SC_TO_A(v) clat_sc_canon(v)
#else
#define CLAT_SC_TO_A(v) (v)
#endif
#define CLAT_SC_KEEP(v, slot) 1
#endif

#define CLAT_SC_NONE ((ulong)-1) /* no run yet */
#define CLAT_SC_EMPTY 0xffffffffu /* a free table slot */

#if CLAT_SC_SEGMENTS
/* The segment of position p: offsets[s] <= p < offsets[s + 1] with s < nbins, or nbins when p
 * lies in none. *cursor keeps the last answer: consecutive positions are cheap. */
CLAT_FN ulong clat_sc_segment(__global const CLAT_SC_IDX *offs, ulong nbins, ulong p, ulong *cursor) {
  ulong s = *cursor;
  if (s < nbins && offs[s] <= p && p < offs[s + 1]) return s;
  if (s + 1 < nbins && offs[s + 1] <= p && p < offs[s + 2]) return *cursor = s + 1;
  if (p < offs[0] || p >= offs[nbins]) return nbins;
  ulong lo = 0, hi = nbins; /* offs[lo] <= p < offs[hi] */
  while (hi - lo > 1) {
    const ulong mid = lo + (hi - lo) / 2;
    if (p < offs[mid]) hi = mid;
    else lo = mid;
  }
  return *cursor = lo;
}
#endif

/* Hands a finished run (slot key, value a, elements n) on to where CLAT_SC_MODE says. */
CLAT_FN void clat_sc_global(ulong key, CLAT_SC_A a, ulong nelem, uint width, __global CLAT_SC_STORE *acc, ulong acc_off,
                            ulong astride, __global ulong *counts, __global uint *flags) {
  const int sum = !CLAT_SC_IS_IDENT(a), count = CLAT_SC_COUNTS && nelem;
  if (sum || count) clat_sc_mark(flags, key); /* a slot left at the identity finishes as one no value reached */
  const ulong bin = width == 1u ? key : key / width, d = width == 1u ? 0ul : key % width;
  if (sum) CLAT_SC_GLOBAL(acc + (acc_off + bin * astride + d) * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
  if (count) atom_add(counts + bin, nelem);
#endif
}

#ifndef CLAT_SC_RUNS
#define CLAT_SC_RUNS 0
#endif
#if CLAT_SC_RUNS && CLAT_PATH_AGG == CLAT_PATH_WARP && CLAT_SC_MODE == CLAT_SC_MODE_GLOBAL
#define CLAT_SC_WARP_RUNS 1
/* The accumulator as 32-bit words, for shuffles. */
#if CLAT_SC_FIXED && !CLAT_SC_WINDOW
#define CLAT_SC_AW uint4
#elif CLAT_SC_DOUBLE || CLAT_SC_WIDE_INT || CLAT_SC_WINDOW
#define CLAT_SC_AW uint2
#else
#define CLAT_SC_AW uint
#endif
CLAT_FN uint clat_sc_up(uint v, uint d) { return clat_warp_shfl_up_uint(0xffffffffu, v, d); }
CLAT_FN CLAT_SC_A clat_sc_up_a(CLAT_SC_A a, uint d) {
  CLAT_SC_AW w = CLAT_CAT(as_, CLAT_SC_AW)(a);
#if CLAT_SC_FIXED && !CLAT_SC_WINDOW
  w = (uint4)(clat_sc_up(w.x, d), clat_sc_up(w.y, d), clat_sc_up(w.z, d), clat_sc_up(w.w, d));
#elif CLAT_SC_DOUBLE || CLAT_SC_WIDE_INT || CLAT_SC_WINDOW
  w = (uint2)(clat_sc_up(w.x, d), clat_sc_up(w.y, d));
#else
  w = clat_sc_up(w, d);
#endif
  return CLAT_CAT(as_, CLAT_SC_A)(w);
}
/* Sorted indices hand runs on at the same moment on every lane, mostly to the slot of the lane
 * before: a segmented scan over lanes with equal neighbouring keys leaves each segment's sum on
 * its last lane, the only one that updates memory. Only a full warp takes part (the shuffles name
 * every lane); a warp whose lanes all hold different keys costs two shuffles and a vote. Returns
 * whether this lane still has to hand its (combined) run on. */
CLAT_FN int clat_sc_warp_runs(ulong key, CLAT_SC_A *a, uint *nelem) {
  if (clat_warp_active() != 0xffffffffu) return 1;
  const uint lane = clat_warp_lane();
  const ulong prev = ((ulong)clat_sc_up((uint)(key >> 32), 1u) << 32) | clat_sc_up((uint)key, 1u);
  const uint heads = clat_warp_ballot(0xffffffffu, lane == 0u || prev != key);
  if (heads == 0xffffffffu) return 1;
  const uint head = 31u - clz(heads & ((2u << lane) - 1u)); /* lane 31: 2u << 31 wraps to 0 */
  for (uint d = 1u; d < 32u; d <<= 1) {
    const CLAT_SC_A y = clat_sc_up_a(*a, d);
    const uint yn = clat_sc_up(*nelem, d);
    if (lane >= head + d) {
      *a = CLAT_SC_COMB(y, *a);
      *nelem += yn;
    }
  }
  return lane == 31u || ((heads >> (lane + 1u)) & 1u);
}
#else
#define CLAT_SC_WARP_RUNS 0
#endif

CLAT_FN void clat_sc_flush(ulong key, CLAT_SC_A a, uint nelem, uint width, __global CLAT_SC_STORE *acc, ulong acc_off,
                           ulong astride, __global ulong *counts, __global uint *flags, __local CLAT_SC_STORE *lacc,
                           __local uint *ltag, __local uint *lcount, uint limb) {
#if CLAT_SC_MODE == CLAT_SC_MODE_PRIVATE
  const uint at = ((uint)key << CLAT_SC_SHIFT) + (get_local_id(0) & ((1u << CLAT_SC_SHIFT) - 1u));
  CLAT_SC_LOCAL(lacc + at * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
  if (nelem) CLAT_SC_LOCAL_COUNT(lcount + at, nelem);
#endif
#elif CLAT_SC_MODE == CLAT_SC_MODE_CACHE
  const uint at = (uint)key & (CLAT_SC_SLOTS - 1u);
  /* A tag goes from empty to a key once; a stale empty only costs the compare-exchange, which
   * returns the real tag (CLAT_FIRST_READ, cas.cl). */
  uint tag = CLAT_FIRST_READ_uint(__local, ltag + at);
  if (tag == CLAT_SC_EMPTY) {
#if CLAT_SC_SOLO
    ltag[at] = tag = (uint)key;
#else
    tag = atomic_cmpxchg(ltag + at, CLAT_SC_EMPTY, (uint)key);
    if (tag == CLAT_SC_EMPTY) tag = (uint)key;
#endif
  }
  if (tag == (uint)key) {
    CLAT_SC_LOCAL(lacc + at * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
    if (nelem) CLAT_SC_LOCAL_COUNT(lcount + at, nelem);
#endif
  } else {
    clat_sc_global(key, a, nelem, width, acc, acc_off, astride, counts, flags);
  }
#else
#if CLAT_SC_WARP_RUNS
  if (!clat_sc_warp_runs(key, &a, &nelem)) return;
#endif
  clat_sc_global(key, a, nelem, width, acc, acc_off, astride, counts, flags);
#endif
}

/* One element's value v for slot key: extends the run or hands it on. n counts elements (d == 0). */
#if CLAT_SC_WINDOW
/* This work-item's sum of values outside the window (*w_sum, for slot *w_key) into `wide`. */
CLAT_FN void clat_sc_wide_end(__local const ulong2 *w_sum, __local const ulong *w_key, uint width, __global ulong *wide,
                              ulong acc_off, ulong astride, __global uint *flags) {
  if (*w_key != CLAT_SC_NONE) clat_sc_wide_flush(*w_key, *w_sum, width, wide, acc_off, astride, flags);
}

/* A value v of slot key outside the window: within the grid it joins this work-item's sum of such
 * values (zeros add nothing), which first goes to `wide` if it holds another slot's; NaN,
 * infinities and values above the grid set flags (clat_sc_rare). CPUs keep it out of line (a
 * work-group of one work-item runs the loop as plain code, which stays small: measured faster on
 * PoCL). */
#if CLAT_SC_SOLO
__attribute__((noinline))
#else
CLAT_FN
#endif
void clat_sc_outside(float v, ulong key, __local ulong2 *w_sum, __local ulong *w_key, int e_keep, int e_grid, uint width,
                     __global ulong *wide, ulong acc_off, ulong astride, __global uint *flags, __global uint *oor) {
  if (clat_sc_exponent(v) > e_keep) {
    clat_sc_rare(v, key, flags, oor);
    return;
  }
  if (v == 0.0f) return;
  const ulong2 f = clat_sc_fixed(v, e_grid);
  if (*w_key == key) {
    *w_sum = clat_sc_add128(*w_sum, f);
    return;
  }
  clat_sc_wide_end(w_sum, w_key, width, wide, acc_off, astride, flags);
  *w_key = key;
  *w_sum = f;
}

/* The window's fast path (scatter_window.cl): Q, the value's 64-bit integer, counts when OK (its
 * exponent lies in the window); any other value goes to clat_sc_outside (finite values within the
 * grid: zeros, subnormals, values below or above the window, into this work-item's 128-bit sum of
 * them; the rest set flags). Every element counts in its bin. Loads of four values compute Q and
 * OK as vectors (CLAT_SC_WINDOW4, scatter.cl); one value alone, CLAT_SC_PUT. The kernels name
 * this work-item's entries of their __local w_sums and w_keys w_sum and w_key. */
#define CLAT_SC_PUT_Q(KEY, Q, OK, V, D)                                                         \
  {                                                                                            \
    const ulong k_ = (KEY);                                                                    \
    if (k_ != run_key) {                                                                       \
      if (run_key != CLAT_SC_NONE)                                                             \
        clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, flags, lacc, ltag, lcount, limb); \
      run_key = k_;                                                                            \
      run = 0l;                                                                                \
      run_n = 0u;                                                                              \
    }                                                                                          \
    if (OK) run += (Q);                                                                        \
    else clat_sc_outside((V), k_, w_sum, w_key, e_keep, e_grid, width, wide, acc_off, astride, flags, oor); \
    run_n += (D) == 0u ? 1u : 0u;                                                              \
  }
#define CLAT_SC_PUT(KEY, V, D)                                                                                   \
  {                                                                                                             \
    const float pv_ = (V);                                                                                      \
    CLAT_SC_PUT_Q(KEY, convert_long(pv_ * w_scale), (uint)clat_sc_exponent(pv_) - (uint)w_lo <= w_span, pv_, D) \
  }
#else
#define CLAT_SC_PUT(KEY, V, D)                                                                  \
  {                                                                                            \
    const ulong k_ = (KEY);                                                                    \
    const CLAT_SC_T v_ = (V);                                                                  \
    if (CLAT_SC_KEEP(v_, k_)) {                                                                \
      if (k_ != run_key) {                                                                     \
        if (run_key != CLAT_SC_NONE)                                                           \
          clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, flags, lacc, ltag, lcount, limb); \
        run_key = k_;                                                                          \
        run = CLAT_SC_TO_A(v_);                                                                \
        run_n = (D) == 0u ? 1u : 0u;                                                           \
      } else {                                                                                 \
        run = CLAT_SC_COMB(run, CLAT_SC_TO_A(v_));                                             \
        run_n += (D) == 0u ? 1u : 0u;                                                          \
      }                                                                                        \
    } else {                                                                                   \
      CLAT_SC_COUNT_SKIPPED(k_, D)                                                             \
    }                                                                                          \
  }
#endif
/* A value that did not enter the accumulator (fixed point: NaN, infinities) still counts as an
 * element of its bin (mean, include_self false). */
#if CLAT_SC_FIXED && CLAT_SC_COUNTS
#define CLAT_SC_COUNT_SKIPPED(K, D) \
  if ((D) == 0u) clat_sc_flush(K, CLAT_SC_IDENT, 1u, width, acc, acc_off, astride, counts, flags, lacc, ltag, lcount, limb);
#else
#define CLAT_SC_COUNT_SKIPPED(K, D)
#endif

/* The bin of position p (or nbins when it has none). */
#if CLAT_SC_SEGMENTS
#define CLAT_SC_BIN(p) clat_sc_segment(ip, nbins, (p), &cursor)
#else
#define CLAT_SC_BIN(p) ((ulong)ip[(p)])
#endif

#endif /* CLATOMICS_KERNELS_SCATTER_RUNS_CL */
