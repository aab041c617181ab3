#include "clatomics/atomics.cl"
/* kernels/compact.cl — stream compaction (copy_if): keep the elements x of a range for which
 * clat_compact_keep(x) holds.
 *
 * Build options (defaults in brackets):
 *   CLAT_COMPACT_T  the element type [float]
 *   CLAT_COMPACT_K  elements per work-item per block [8]
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

__kernel void clat_compact_unstable(__global const CLAT_CT *in, ulong offset, ulong count, __global const CLAT_CT *clat_p,
                                    __global CLAT_CT *out, ulong out_base, __global uint *counter, __local uint *scratch) {
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
  const ulong block = (ulong)get_local_size(0) * CLAT_COMPACT_K;
  const ulong nblocks = (count + block - 1) / block;
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    const ulong first = clat_compact_first(b);
    const uint mine = clat_compact_count_mine(p, first, count, clat_p);
    uint total;
    const uint before = clat_group_exclusive_scan(mine, scratch, &total);
    if (mine) clat_compact_write_mine(p, first, count, clat_p, out, out_base + block_offsets[b] + before);
  }
}

#endif /* CLATOMICS_KERNELS_COMPACT_CL */
