#include "clatomics/atomics.cl"
/* kernels/reduce_by_key.cl — reduce_by_key's runs of equal consecutive keys, whose offsets the
 * segment reduction then reduces. Build options: the index type CLAT_SC_IDX (kernels/scatter_types.cl)
 * and CLAT_SC_RBK_K, the keys a work-item takes [8].
 */
#include "kernels/algo_common.cl"
#include "kernels/scatter_types.cl"

#ifndef CLATOMICS_KERNELS_REDUCE_BY_KEY_CL
#define CLATOMICS_KERNELS_REDUCE_BY_KEY_CL

/* reduce_by_key: the runs of equal consecutive keys. Work-group b takes block b of
 * get_local_size(0) * CLAT_SC_RBK_K keys, work-item i its CLAT_SC_RBK_K consecutive keys from
 * b * block + i * CLAT_SC_RBK_K; a head is a key unlike the one before it (or the first). */
#ifndef CLAT_SC_RBK_K
#define CLAT_SC_RBK_K 8
#endif
CLAT_FN uint clat_rbk_heads_mine(__global const CLAT_SC_IDX *k, ulong n, ulong from) {
  uint heads = 0u;
  for (ulong i = from; i < min(from + CLAT_SC_RBK_K, n); ++i) heads += (i == 0 || k[i] != k[i - 1]) ? 1u : 0u;
  return heads;
}
CLAT_FN ulong clat_rbk_first(void) {
  return ((ulong)get_group_id(0) * get_local_size(0) + get_local_id(0)) * CLAT_SC_RBK_K;
}

/* block_counts[b]: the heads in block b. */
__kernel void clat_rbk_count(__global const CLAT_SC_IDX *keys, ulong off, ulong n, __global uint *block_counts, __local uint *scratch) {
  uint total;
  clat_group_exclusive_scan(clat_rbk_heads_mine(keys + off, n, clat_rbk_first()), scratch, &total);
  if (get_local_id(0) == 0) block_counts[get_group_id(0)] = total;
}

/* Run r (numbered in key order, block_offsets[b] runs before block b) starts at seg[r], with key
 * unique[unique_off + r]; seg[runs] = n ends the list. */
__kernel void clat_rbk_heads(__global const CLAT_SC_IDX *keys, ulong off, ulong n, __global const ulong *block_offsets,
                             __global ulong *seg, __global CLAT_SC_IDX *unique, ulong unique_off, __local uint *scratch) {
  const __global CLAT_SC_IDX *k = keys + off;
  const ulong from = clat_rbk_first();
  uint total;
  ulong at = block_offsets[get_group_id(0)] + clat_group_exclusive_scan(clat_rbk_heads_mine(k, n, from), scratch, &total);
  for (ulong i = from; i < min(from + CLAT_SC_RBK_K, n); ++i)
    if (i == 0 || k[i] != k[i - 1]) {
      seg[at] = i;
      unique[unique_off + at] = k[i];
      ++at;
    }
  /* The work-item holding the last key has every run before its `at`: it writes the end itself,
   * so the host needs no write (one that would wait for this kernel) between the launches. */
  if (from < n && n <= from + CLAT_SC_RBK_K) seg[at] = n;
}


#endif /* CLATOMICS_KERNELS_REDUCE_BY_KEY_CL */
