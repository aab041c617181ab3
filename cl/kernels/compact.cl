#include "clatomics/atomics.cl"
/* kernels/compact.cl — stream compaction (copy_if): keep the elements x of a range for which
 * clat_compact_keep(x) holds.
 *
 * Build options (defaults in brackets):
 *   CLAT_COMPACT_T  the element type [float]
 *   CLAT_COMPACT_K  elements per work-item per block [8]
 *   CLAT_COMPACT_STAGE  1: work-groups of one work-item (CPUs) stage a block in private memory
 *                   and read it once (see clat_compact_stage_mine) [0]
 * The host defines CLAT_COMPACT_USER_PREDICATE and
 * `bool clat_compact_keep(CLAT_COMPACT_T x, __global const CLAT_COMPACT_T *clat_p)` before this
 * file (clat_p: the predicate's values, a kernel argument); without them the predicate is x != 0.
 *
 * Blocks of G * K elements (G the work-group size): in block b, work-item i owns the K
 * contiguous elements from b * G * K + i * K, so a work-group exclusive scan of the work-items'
 * kept counts gives each its place inside the block, in input order. Work-groups take blocks in
 * a grid stride.
 *   clat_compact_unstable: work-item 0 takes the block's place in the output with one atomic_add
 *     on *counter (the "take a number" pattern); blocks land in the order they took numbers.
 *   clat_compact_count: the kept elements of every block into block_counts[b].
 *   clat_compact_scan (one work-group): block_offsets[b] = kept elements of the blocks before b,
 *     block_offsets[nblocks] = all of them.
 *   clat_compact_scatter: as clat_compact_unstable, at block_offsets[b]: input order kept.
 * Those read a work-item's K contiguous elements (strided across a warp) and write each
 * work-item's kept elements on its own: the path for CPUs, where a work-group is one work-item.
 *
 * clat_compact_tiles: one pass, for GPUs. More build options:
 *   CLAT_COMPACT_G  the work-group size the kernel is compiled for [256]
 * Tiles of G * K elements, in input order. A work-group loads a tile coalesced (element
 * j * G + lid, j < K) into __local memory, reads back its own K contiguous elements (one pad word
 * per 32 keeps both orders free of bank conflicts), scans the kept counts over the work-group
 * (NVIDIA: warp shuffles and a scan of the warp totals; elsewhere clat_group_exclusive_scan),
 * writes the kept elements compacted into the same __local tile and then copies them out with
 * consecutive work-items on consecutive elements. Work-groups take tiles by atomic_inc on
 * scratch[0], in the order they reach them: work-groups that start late (more than fit on the
 * device at once) find the tiles taken, and under stable = 1 every tile before a work-group's is
 * held by one that is running or done (no wait on a tile nobody holds). Where the tile's kept
 * elements go:
 *   stable = 0: one atomic_add on scratch[1] per tile ("take a number").
 *   stable = 1: decoupled look-back (Merrill and Garland, as CUB's select). Tile
 *     t's status word scratch[1 + t], set to 0 by the host: 0 nothing yet, CLAT_CS_A | its kept
 *     count, CLAT_CS_P | kept elements of tiles 0 .. t (its inclusive prefix). The count and its
 *     flag are one 32-bit word, written with atomic_xchg and read with atomic_add(p, 0): a reader
 *     sees a whole word, so no fence orders anything. A tile publishes its count, then reads a
 *     window of up to 32 predecessors' words at once (NVIDIA: warp 0, one word per lane, ballots
 *     and shuffles; elsewhere work-item 0 alone, with independent loads), adding counts back to
 *     the nearest prefix and reading again from a tile that has published nothing yet, then
 *     publishes its own prefix. Every tile publishes, an empty one included. A launch holds fewer
 *     than 2^30 elements (the 30 bits of a count); scratch[ntiles] ends as CLAT_CS_P | the
 *     launch's kept elements.
 */
#include "kernels/algo_common.cl"

#ifndef CLATOMICS_KERNELS_COMPACT_CL
#define CLATOMICS_KERNELS_COMPACT_CL

#ifndef CLAT_COMPACT_T
#define CLAT_COMPACT_T float
#endif
#ifndef CLAT_COMPACT_K
#define CLAT_COMPACT_K 8
#endif
#ifndef CLAT_COMPACT_STAGE
#define CLAT_COMPACT_STAGE 0
#endif
#ifndef CLAT_COMPACT_USER_PREDICATE
CLAT_FN bool clat_compact_keep(CLAT_COMPACT_T x, __global const CLAT_COMPACT_T *clat_p) { return x != (CLAT_COMPACT_T)0; }
#endif

#define CLAT_CT CLAT_COMPACT_T

/* The first element this work-item owns in block b. */
CLAT_FN ulong clat_compact_first(ulong b) {
  return (b * get_local_size(0) + get_local_id(0)) * (ulong)CLAT_COMPACT_K;
}

CLAT_FN uint clat_compact_count_mine(const __global CLAT_CT *p, ulong first, ulong count, __global const CLAT_CT *clat_p) {
  const ulong end = min(first + (ulong)CLAT_COMPACT_K, count);
  uint kept = 0u;
  for (ulong i = first; i < end; ++i) kept += clat_compact_keep(p[i], clat_p) ? 1u : 0u;
  return kept;
}

CLAT_FN void clat_compact_write_mine(const __global CLAT_CT *p, ulong first, ulong count, __global const CLAT_CT *clat_p,
                                     __global CLAT_CT *out, ulong at) {
  const ulong end = min(first + (ulong)CLAT_COMPACT_K, count);
  for (ulong i = first; i < end; ++i) {
    const CLAT_CT x = p[i];
    if (clat_compact_keep(x, clat_p)) out[at++] = x;
  }
}

#if CLAT_COMPACT_STAGE
/* One work-item per work-group (CPUs, the host sets CLAT_COMPACT_STAGE): a block's elements are
 * read once, each stored to a private stage and kept by advancing the stage's end (no branch on
 * the predicate), then the kept ones copied out. */
CLAT_FN uint clat_compact_stage_mine(const __global CLAT_CT *p, ulong first, ulong count, __global const CLAT_CT *clat_p,
                                     CLAT_CT *stage) {
  const ulong end = min(first + (ulong)CLAT_COMPACT_K, count);
  uint kept = 0u;
  for (ulong i = first; i < end; ++i) {
    const CLAT_CT x = p[i];
    stage[kept] = x;
    kept += clat_compact_keep(x, clat_p) ? 1u : 0u;
  }
  return kept;
}
CLAT_FN void clat_compact_copy_out(const CLAT_CT *stage, uint kept, __global CLAT_CT *out) {
  for (uint j = 0; j < kept; ++j) out[j] = stage[j];
}
#endif

__kernel void clat_compact_unstable(__global const CLAT_CT *in, ulong offset, ulong count, __global const CLAT_CT *clat_p,
                                    __global CLAT_CT *out, ulong out_base, __global uint *counter, __local uint *scratch) {
#if CLAT_COMPACT_STAGE
  const __global CLAT_CT *p = in + offset;
  const ulong nblocks = (count + CLAT_COMPACT_K - 1) / CLAT_COMPACT_K;
  CLAT_CT stage[CLAT_COMPACT_K];
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    const uint kept = clat_compact_stage_mine(p, b * CLAT_COMPACT_K, count, clat_p, stage);
    if (kept) clat_compact_copy_out(stage, kept, out + out_base + atomic_add(counter, kept)); /* take a number */
  }
#else
  __local uint base;
  const __global CLAT_CT *p = in + offset;
  const ulong block = (ulong)get_local_size(0) * CLAT_COMPACT_K;
  const ulong nblocks = (count + block - 1) / block;
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    const ulong first = clat_compact_first(b);
    const uint mine = clat_compact_count_mine(p, first, count, clat_p);
    uint total;
    const uint before = clat_group_exclusive_scan(mine, scratch, &total);
    if (get_local_id(0) == 0 && total) base = atomic_add(counter, total); /* take a number */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (mine) clat_compact_write_mine(p, first, count, clat_p, out, out_base + base + before);
    barrier(CLK_LOCAL_MEM_FENCE); /* base is taken again for the next block */
  }
#endif
}

__kernel void clat_compact_count(__global const CLAT_CT *in, ulong offset, ulong count, __global const CLAT_CT *clat_p,
                                 __global uint *block_counts, __local uint *scratch) {
  const __global CLAT_CT *p = in + offset;
  const ulong block = (ulong)get_local_size(0) * CLAT_COMPACT_K;
  const ulong nblocks = (count + block - 1) / block;
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    uint total;
    clat_group_exclusive_scan(clat_compact_count_mine(p, clat_compact_first(b), count, clat_p), scratch, &total);
    if (get_local_id(0) == 0) block_counts[b] = total;
  }
}

__kernel void clat_compact_scan(__global const uint *block_counts, ulong nblocks, __global ulong *block_offsets,
                                __local uint *scratch) {
  ulong carry = 0;
  for (ulong start = 0; start < nblocks; start += get_local_size(0)) {
    const ulong b = start + get_local_id(0);
    uint total;
    const uint before = clat_group_exclusive_scan(b < nblocks ? block_counts[b] : 0u, scratch, &total);
    if (b < nblocks) block_offsets[b] = carry + before;
    carry += total;
  }
  if (get_local_id(0) == 0) block_offsets[nblocks] = carry;
}

__kernel void clat_compact_scatter(__global const CLAT_CT *in, ulong offset, ulong count, __global const CLAT_CT *clat_p,
                                   __global CLAT_CT *out, ulong out_base, __global const ulong *block_offsets,
                                   __local uint *scratch) {
  const __global CLAT_CT *p = in + offset;
#if CLAT_COMPACT_STAGE
  const ulong nblocks = (count + CLAT_COMPACT_K - 1) / CLAT_COMPACT_K;
  CLAT_CT stage[CLAT_COMPACT_K];
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0))
    clat_compact_copy_out(stage, clat_compact_stage_mine(p, b * CLAT_COMPACT_K, count, clat_p, stage), out + out_base + block_offsets[b]);
#else
  const ulong block = (ulong)get_local_size(0) * CLAT_COMPACT_K;
  const ulong nblocks = (count + block - 1) / block;
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    const ulong first = clat_compact_first(b);
    const uint mine = clat_compact_count_mine(p, first, count, clat_p);
    uint total;
    const uint before = clat_group_exclusive_scan(mine, scratch, &total);
    if (mine) clat_compact_write_mine(p, first, count, clat_p, out, out_base + block_offsets[b] + before);
  }
#endif
}

/* ---- one pass: clat_compact_tiles, built where the host defines CLAT_COMPACT_ONE_PASS ---- */
#ifdef CLAT_COMPACT_ONE_PASS
#ifndef CLAT_COMPACT_G
#define CLAT_COMPACT_G 256
#endif
#if CLAT_COMPACT_K > 32
#error "CLAT_COMPACT_K: at most 32 (a work-item's kept elements are bits of a uint)"
#endif
#define CLAT_CTILE (CLAT_COMPACT_G * CLAT_COMPACT_K)
#define CLAT_CPAD(i) ((i) + ((i) >> 5))
#define CLAT_CS_A 0x40000000u
#define CLAT_CS_P 0x80000000u
#define CLAT_CS_COUNT 0x3fffffffu
/* The look-back window: the predecessors read at once. */
#define CLAT_CWINDOW (CLAT_COMPACT_G < 32 ? CLAT_COMPACT_G : 32)

#if CLAT_PATH_AGG == CLAT_PATH_WARP && CLAT_COMPACT_G % 32 == 0
/* NVIDIA: a 1-D work-group's warp w is work-items 32w .. 32w + 31 (lane = local id % 32). Every
 * call below is made by whole warps (uniform control flow), so the full mask is right. */
CLAT_FN uint clat_compact_warp_inclusive(uint v, uint lane) {
  for (uint d = 1u; d < 32u; d <<= 1) {
    const uint y = clat_warp_shfl_up_uint(0xffffffffu, v, d);
    if (lane >= d) v += y;
  }
  return v;
}

/* Exclusive prefix sum of v over the work-group; *total: the sum of all. */
CLAT_FN uint clat_compact_group_scan(uint v, __local uint *words, uint *total) {
  const uint lid = get_local_id(0), lane = lid & 31u, warp = lid >> 5;
  const uint inclusive = clat_compact_warp_inclusive(v, lane);
  if (lane == 31u) words[warp] = inclusive;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint before = 0u, sum = 0u;
  for (uint w = 0u; w < CLAT_COMPACT_G / 32u; ++w) {
    const uint c = words[w];
    before += w < warp ? c : 0u;
    sum += c;
  }
  *total = sum;
  return before + inclusive - v;
}

/* The kept elements of tiles 0 .. t - 1: called by warp 0, returned to each of its lanes. */
#define CLAT_CLOOKERS 32u
CLAT_FN uint clat_compact_look_back(volatile __global uint *status, ulong t) {
  const uint lane = get_local_id(0);
  uint prefix = 0u;
  long back = (long)t - 1;
  for (;;) {
    const long at = back - (long)lane;
    const uint s = at >= 0 ? atomic_add(status + at, 0u) : CLAT_CS_P; /* before tile 0: prefix 0 */
    const uint stop = clat_warp_ballot(0xffffffffu, (s & ~CLAT_CS_COUNT) != CLAT_CS_A);
    const uint k = stop ? clat_lowest_lane(stop) : 32u; /* nearest tile with no count or a prefix */
    /* An empty word counts 0, so lane k may add its count either way. */
    const uint sum = clat_compact_warp_inclusive(lane <= k ? (s & CLAT_CS_COUNT) : 0u, lane);
    prefix += clat_warp_shfl_uint(0xffffffffu, sum, 31u);
    if (k < 32u && ((clat_warp_ballot(0xffffffffu, (s & CLAT_CS_P) != 0u) >> k) & 1u)) return prefix;
    back -= (long)k; /* all counts: the next window; else read again from tile back - k */
  }
}
#else
#define clat_compact_group_scan clat_group_exclusive_scan

/* The kept elements of tiles 0 .. t - 1: called by work-item 0 alone, which reads a window of
 * predecessors with independent loads at a time. */
#define CLAT_CLOOKERS 1u
CLAT_FN uint clat_compact_look_back(volatile __global uint *status, ulong t) {
  uint prefix = 0u;
  long back = (long)t - 1;
  for (;;) {
    uint s[CLAT_CWINDOW];
    for (uint i = 0u; i < CLAT_CWINDOW; ++i) {
      const long at = back - (long)i;
      s[i] = at >= 0 ? atomic_add(status + at, 0u) : CLAT_CS_P; /* before tile 0: prefix 0 */
    }
    uint k = 0u;
    for (; k < CLAT_CWINDOW; ++k) {
      prefix += s[k] & CLAT_CS_COUNT; /* an empty word counts 0 */
      if ((s[k] & ~CLAT_CS_COUNT) != CLAT_CS_A) {
        if (s[k] & CLAT_CS_P) return prefix;
        break;
      }
    }
    back -= (long)k; /* all counts: the next window; else read again from tile back - k */
  }
}
#endif

/* No barrier sits in a branch or a loop whose condition is not the whole work-group's. */
__kernel __attribute__((reqd_work_group_size(CLAT_COMPACT_G, 1, 1))) void clat_compact_tiles(
    __global const CLAT_CT *in, ulong offset, ulong count, __global const CLAT_CT *clat_p, __global CLAT_CT *out,
    ulong out_base, volatile __global uint *scratch, uint stable) {
  __local CLAT_CT tile[CLAT_CPAD(CLAT_CTILE)];
  __local uint words[CLAT_COMPACT_G];
  __local uint taken, place;
  const __global CLAT_CT *p = in + offset;
  volatile __global uint *status = scratch + 1;
  const uint lid = get_local_id(0);
  const ulong ntiles = (count + CLAT_CTILE - 1) / CLAT_CTILE;
  /* Tile ids: stable takes them from the counter when it reaches a tile (taking the next one
   * early measured slower: a tile held but not started holds up every tile after it); unstable
   * needs no order and strides over the tiles from its group id, without an atomic. */
  for (ulong next = get_group_id(0);; next += get_num_groups(0)) {
    if (lid == 0u) taken = stable ? atomic_inc(scratch) : (uint)next;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong t = taken;
    if (t >= ntiles) break;
    const ulong first = t * CLAT_CTILE;
    const uint n = (uint)min((ulong)CLAT_CTILE, count - first);
    for (uint j = 0u; j < CLAT_COMPACT_K; ++j) {
      const uint i = j * CLAT_COMPACT_G + lid;
      if (i < n) tile[CLAT_CPAD(i)] = p[first + i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    CLAT_CT v[CLAT_COMPACT_K];
    uint keep = 0u, mine = 0u;
    for (uint k = 0u; k < CLAT_COMPACT_K; ++k) {
      const uint i = lid * CLAT_COMPACT_K + k;
      v[k] = tile[CLAT_CPAD(i)];
      if (i < n && clat_compact_keep(v[k], clat_p)) {
        keep |= 1u << k;
        ++mine;
      }
    }
    uint total;
    uint at = clat_compact_group_scan(mine, words, &total); /* every read of tile is done after it */
    if (stable && lid == 0u) atomic_xchg(status + t, (t ? CLAT_CS_A : CLAT_CS_P) | total);
    for (uint k = 0u; k < CLAT_COMPACT_K; ++k)
      if ((keep >> k) & 1u) {
        tile[CLAT_CPAD(at)] = v[k];
        ++at;
      }
    if (lid < CLAT_CLOOKERS) {
      uint base = 0u;
      if (stable) {
        base = clat_compact_look_back(status, t);
        if (lid == 0u && t) atomic_xchg(status + t, CLAT_CS_P | (base + total));
      } else if (lid == 0u && total) {
        base = atomic_add(scratch + 1, total); /* take a number */
      }
      if (lid == 0u) place = base;
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* the compacted tile and its place */
    const ulong to = out_base + place;
    for (uint i = lid; i < total; i += CLAT_COMPACT_G) out[to + i] = tile[CLAT_CPAD(i)];
    barrier(CLK_LOCAL_MEM_FENCE); /* the copy out and every read of taken are done */
  }
}

#endif /* CLAT_COMPACT_ONE_PASS */

#endif /* CLATOMICS_KERNELS_COMPACT_CL */
