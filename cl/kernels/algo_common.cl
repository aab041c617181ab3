#include "clatomics/atomics.cl"
/* kernels/algo_common.cl — what the algorithm kernels share: splitting a range of elements into
 * an unaligned head, whole aligned vectors and a tail; each work-item's share of the vectors; the
 * work-group reduction and scan in __local memory.
 *
 * Build options (each has a default, so the file compiles alone):
 *   CLAT_CONTIGUOUS 1  work-item k takes the k-th contiguous chunk: CPUs, where one thread runs
 *                      a whole work-group and a contiguous chunk stays in its cache;
 *                   0  a grid stride: neighbouring work-items read neighbouring vectors, which
 *                      coalesces on GPUs.
 * Work-group sizes are powers of two (the host picks them).
 */
#ifndef CLATOMICS_KERNELS_ALGO_COMMON_CL
#define CLATOMICS_KERNELS_ALGO_COMMON_CL

#ifndef CLAT_CONTIGUOUS
#define CLAT_CONTIGUOUS 0
#endif

/* Elements before the first one at an address that is a multiple of width elements, so that
 * vector loads start there. The address decides, not the offset: a buffer made with
 * CL_MEM_USE_HOST_PTR sits where the user's memory is (PoCL uses it as it is), at any alignment.
 * Elements that are not even aligned to their own size (the host refuses those) are all head. */
CLAT_FN ulong clat_head_bytes(ulong address, ulong count, ulong width_bytes, ulong element_bytes) {
  const ulong past = address % width_bytes;
  if (past % element_bytes) return count;
  return min((width_bytes - past) % width_bytes / element_bytes, count);
}
#define CLAT_HEAD(p, count, width) clat_head_bytes((ulong)(size_t)(p), (count), (width) * sizeof(*(p)), sizeof(*(p)))

/* Whether p may be read as vectors of width elements. */
#define CLAT_ALIGNED(p, width) ((ulong)(size_t)(p) % ((width) * sizeof(*(p))) == 0)

/* This work-item's units: for (i = s.begin; i < s.end; i += s.step). */
typedef struct {
  ulong begin, end, step;
} clat_share;

CLAT_FN clat_share clat_item_share(ulong n) {
  clat_share s;
  const ulong items = get_global_size(0), id = get_global_id(0);
#if CLAT_CONTIGUOUS
  const ulong chunk = (n + items - 1) / items;
  s.begin = min(id * chunk, n);
  s.end = min(s.begin + chunk, n);
  s.step = 1;
#else
  s.begin = id;
  s.end = n;
  s.step = items;
#endif
  return s;
}

/* CLAT_DEFINE_GROUP_REDUCE(name, A, COMB): A name(A v, __local A *scratch) combines every
 * work-item's v in a fixed tree order (the same order on every run) and returns the result to
 * every work-item. scratch holds get_local_size(0) values; COMB(a, b) is a macro. */
#define CLAT_DEFINE_GROUP_REDUCE(NAME, A, COMB)                                 \
  CLAT_FN A NAME(A v, __local A *scratch) {                                     \
    const uint lid = get_local_id(0);                                           \
    scratch[lid] = v;                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                               \
    for (uint step = get_local_size(0) >> 1; step > 0; step >>= 1) {            \
      if (lid < step) scratch[lid] = COMB(scratch[lid], scratch[lid + step]);   \
      barrier(CLK_LOCAL_MEM_FENCE);                                             \
    }                                                                           \
    const A result = scratch[0];                                                \
    barrier(CLK_LOCAL_MEM_FENCE); /* scratch may be reused right after */       \
    return result;                                                              \
  }

/* Exclusive prefix sum of v over the work-group (in local id order); *total gets the sum of all.
 * scratch holds get_local_size(0) uints. */
CLAT_FN uint clat_group_exclusive_scan(uint v, __local uint *scratch, uint *total) {
  const uint lid = get_local_id(0), n = get_local_size(0);
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < n; d <<= 1) {
    const uint t = lid >= d ? scratch[lid - d] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint inclusive = scratch[lid];
  *total = scratch[n - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return inclusive - v;
}

#endif /* CLATOMICS_KERNELS_ALGO_COMMON_CL */
