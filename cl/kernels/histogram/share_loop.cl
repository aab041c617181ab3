/* kernels/histogram/share_loop.cl — the counting kernels' parameters (CLAT_HIST_ARGS) and the
 * loop over a work-item's share of the elements (CLAT_HIST_FOR_EACH), which each kernel runs with
 * its own step for one element (PUT).
 */
#include "kernels/algo_common.cl"
#include "kernels/histogram/slots.cl"
#include "kernels/histogram/weights.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_SHARE_LOOP_CL
#define CLATOMICS_KERNELS_HISTOGRAM_SHARE_LOOP_CL

#define CLAT_HIST_ARGS                                                                                          \
  __global const CLAT_E *in, ulong offset, ulong count, uint nbins, CLAT_POS lo, CLAT_POS hi, CLAT_POS scale,   \
      __global const CLAT_POS *edges, __global const CLAT_E *in_y, ulong y_offset, uint nbins_y, CLAT_POS lo_y, \
      CLAT_POS hi_y, CLAT_POS scale_y, __global const CLAT_POS *edges_y, __global const float *w0, ulong w0_offset,  \
      __global const float *w1, ulong w1_offset, __global const float *w2, ulong w2_offset,                     \
      __global const float *w3, ulong w3_offset, __global uint *counts, __global clat_acc *wsums,              \
      __local uint *lcounts, __local clat_pacc *lweights

/* Per-element loads beside the values: the second axis' points and the weights (vload: any
 * alignment of their own). */
#if CLAT_HIST_2D
#define CLAT_LOAD_Y(i) const CLAT_LOAD vy = CLAT_VLOAD_Y((i), py);
#if CLAT_HIST_DOUBLE
#define CLAT_VLOAD_Y vload2
#else
#define CLAT_VLOAD_Y vload4
#endif
#else
#define CLAT_LOAD_Y(i)
#endif
#define CLAT_DECLARE_WP(c) const __global float *wp##c = w##c + w##c##_offset + head, *wq##c = w##c + w##c##_offset;
#define CLAT_LOAD_WV(c) const CLAT_WVEC wv##c = CLAT_VLOAD_W(i, wp##c);
#define CLAT_WS(c) wq##c[i]

/* CLAT_HIST_AHEAD steps' loads (values and weights; one axis) issued before their elements'
 * atomics (GPUs; the host sets it): the atomics would otherwise hold the next loads back. */
#ifndef CLAT_HIST_AHEAD
#define CLAT_HIST_AHEAD 1
#endif
#define CLAT_AHEAD_W_DECL(c) CLAT_WVEC ahead_w##c[CLAT_HIST_AHEAD];
#define CLAT_AHEAD_W_LOAD(c) ahead_w##c[u] = CLAT_VLOAD_W(i + u * step, wp##c);
#define CLAT_AHEAD_W_USE(c) const CLAT_WVEC wv##c = ahead_w##c[u];
#if CLAT_HIST_AHEAD > 1 && !CLAT_HIST_2D
#define CLAT_HIST_LOADS_AHEAD(PUT)                                                 \
  for (; i + (CLAT_HIST_AHEAD - 1u) * step < end; i += CLAT_HIST_AHEAD * step) {   \
    CLAT_LOAD ahead[CLAT_HIST_AHEAD];                                              \
    CLAT_EACH_C(CLAT_AHEAD_W_DECL)                                                 \
    for (uint u = 0; u < CLAT_HIST_AHEAD; ++u) {                                   \
      ahead[u] = pv[i + u * step];                                                 \
      CLAT_EACH_C(CLAT_AHEAD_W_LOAD)                                               \
    }                                                                              \
    for (uint u = 0; u < CLAT_HIST_AHEAD; ++u) {                                   \
      const CLAT_LOAD v = ahead[u];                                                \
      CLAT_EACH_C(CLAT_AHEAD_W_USE)                                                \
      CLAT_UNPACK(PUT, v)                                                          \
    }                                                                              \
  }
#else
#define CLAT_HIST_LOADS_AHEAD(PUT)
#endif

/* PUT(slot, W, lane) for every element of this work-item's share: whole 16-byte loads, then the
 * unaligned head and the tail one element at a time. The load loop counts in uint (cheaper than
 * ulong on GPUs): a launch has < 2^32 elements and >= 2 per load, so nvec < 2^31 and i + step
 * cannot wrap. */
#define CLAT_HIST_FOR_EACH(PUT)                                                            \
  {                                                                                        \
    const __global CLAT_E *p = in + offset;                                                \
    const ulong head = CLAT_HEAD(p, count, CLAT_PER_LOAD);                                 \
    const ulong nvec = (count - head) / CLAT_PER_LOAD;                                     \
    const __global CLAT_LOAD *pv = (const __global CLAT_LOAD *)(p + head);                 \
    const __global CLAT_E *py = in_y + y_offset + head, *pyq = in_y + y_offset;            \
    CLAT_EACH_C(CLAT_DECLARE_WP)                                                           \
    CLAT_HIST_GUARDS                                                                       \
    const clat_share share = clat_item_share(nvec);                                        \
    const uint end = (uint)share.end, step = (uint)share.step;                             \
    uint i = (uint)share.begin;                                                            \
    CLAT_HIST_LOADS_AHEAD(PUT)                                                             \
    for (; i < end; i += step) {                                                           \
      const CLAT_LOAD v = pv[i];                                                           \
      CLAT_LOAD_Y(i)                                                                       \
      CLAT_EACH_C(CLAT_LOAD_WV)                                                            \
      CLAT_UNPACK(PUT, v)                                                                  \
    }                                                                                      \
    /* The < 2 * CLAT_PER_LOAD leftovers (unaligned head, tail) in one loop with one PUT:      \
     * less code beside the hot loop (two loops here cost the H200 12% of its throughput). */ \
    const uint nhead = (uint)head, tail_at = (uint)(head + nvec * CLAT_PER_LOAD);           \
    const uint nleft = nhead + (uint)count - tail_at;                                      \
    for (uint k = (uint)get_global_id(0); k < nleft; k += (uint)get_global_size(0)) {      \
      const uint i = k < nhead ? k : tail_at + (k - nhead);                                \
      PUT(CLAT_SLOT_AT(p[i], pyq[i]), CLAT_WS, 0)                                          \
    }                                                                                      \
  }

#endif /* CLATOMICS_KERNELS_HISTOGRAM_SHARE_LOOP_CL */
