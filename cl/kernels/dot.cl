#include "clatomics/atomics.cl"
/* kernels/dot.cl — the atomic dot product: sum of a[i] * b[i].
 *
 * Build options (defaults in brackets):
 *   CLAT_T           the element type: float or double (the host checks double support) [float]
 *   CLAT_VEC         elements per vector load: 2, 4, 8 or 16 [4]
 *   CLAT_CONTIGUOUS  see algo_common.cl [0]
 *
 * __kernel clat_dot(a, a_offset, b, b_offset, count, out, scratch): every work-item accumulates
 * products of its share in a private vector, the work-group sums them in __local memory, and
 * work-item 0 adds the group's sum to out[0] with one no-return clat_atomic_add. a's range is read with
 * aligned vector loads after an unaligned head; b's too when its address then has the same
 * alignment, else with vloadn.
 */
#include "kernels/algo_common.cl"

#ifndef CLATOMICS_KERNELS_DOT_CL
#define CLATOMICS_KERNELS_DOT_CL

#ifndef CLAT_T
#define CLAT_T float
#endif
#ifndef CLAT_VEC
#define CLAT_VEC 4
#endif


#define CLAT_TV CLAT_CAT(CLAT_T, CLAT_VEC)
#define CLAT_VLOAD CLAT_CAT(vload, CLAT_VEC)
#define CLAT_ADD(a, b) ((a) + (b))

CLAT_DEFINE_GROUP_REDUCE(clat_group_dot, CLAT_T, CLAT_ADD)

CLAT_FN CLAT_T clat_dot_fold(CLAT_TV v) {
#if CLAT_VEC == 16
  const CLAT_CAT(CLAT_T, 8) v8 = v.lo + v.hi;
  const CLAT_CAT(CLAT_T, 4) v4 = v8.lo + v8.hi;
#elif CLAT_VEC == 8
  const CLAT_CAT(CLAT_T, 4) v4 = v.lo + v.hi;
#elif CLAT_VEC == 4
  const CLAT_CAT(CLAT_T, 4) v4 = v;
#endif
#if CLAT_VEC == 2
  const CLAT_CAT(CLAT_T, 2) v2 = v;
#else
  const CLAT_CAT(CLAT_T, 2) v2 = v4.lo + v4.hi;
#endif
  return v2.lo + v2.hi;
}

__kernel void clat_dot(__global const CLAT_T *a, ulong a_offset, __global const CLAT_T *b, ulong b_offset,
                       ulong count, __global CLAT_T *out, __local CLAT_T *scratch) {
  const __global CLAT_T *pa = a + a_offset;
  const __global CLAT_T *pb = b + b_offset;
  const ulong head = CLAT_HEAD(pa, count, CLAT_VEC);
  const ulong nvec = (count - head) / CLAT_VEC;
  const __global CLAT_TV *va = (const __global CLAT_TV *)(pa + head);
  const clat_share share = clat_item_share(nvec);
  CLAT_TV acc = (CLAT_TV)(0);
  if (CLAT_ALIGNED(pb + head, CLAT_VEC)) {
    const __global CLAT_TV *vb = (const __global CLAT_TV *)(pb + head);
    for (ulong i = share.begin; i < share.end; i += share.step) acc += va[i] * vb[i];
  } else {
    for (ulong i = share.begin; i < share.end; i += share.step) acc += va[i] * CLAT_VLOAD(i, pb + head);
  }
  CLAT_T sum = clat_dot_fold(acc);
  const ulong id = get_global_id(0), items = get_global_size(0);
  for (ulong i = id; i < head; i += items) sum += pa[i] * pb[i];
  for (ulong i = head + nvec * CLAT_VEC + id; i < count; i += items) sum += pa[i] * pb[i];
  sum = clat_group_dot(sum, scratch);
  if (get_local_id(0) == 0) CLAT_CAT(CLAT_CAT(clat_atomic_add_, CLAT_T), _noret)(out, sum); /* no old value needed */
}

#endif /* CLATOMICS_KERNELS_DOT_CL */
