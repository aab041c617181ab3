/* clatomics/bfloat16.cl — bfloat16 atomics on ushort storage (the top 16 bits of a float).
 *
 *   float  clat_bf16_to_float(ushort b)           exact
 *   ushort clat_float_to_bf16(float f)            round to nearest even; NaN stays NaN (quiet)
 *   float  clat_atomic_add_bf16(volatile __global ushort *p, float v)   *p = bf16(*p + bf16(v))
 *   float  clat_atomic_sub_bf16, _min_bf16, _max_bf16, _xchg_bf16 (p, float v)
 *   ushort clat_atomic_cmpxchg_bf16(p, ushort cmp, ushort v)   bitwise
 * and the same names ending in _local for __local pointers; each returns the old value. The
 * rules are half.cl's (same rounding, same neighbour guarantee, same ALLOCATION RULE: the
 * containing aligned 32-bit word must be allocated); on NVIDIA the global add/sub is the packed
 * `atom.global.add.noftz.bf16x2` (sm_90) with half.cl's NaN-neighbour guard, or the scalar
 * `.bf16` atom under CLAT_PTX_HALF_SCALAR; with Intel's bfloat16 atomics (OpenCL C 3.0,
 * __opencl_c_intel_bfloat_global_atomic_add) the global add/sub is theirs.
 */
#ifndef CLATOMICS_BFLOAT16_CL
#define CLATOMICS_BFLOAT16_CL

CLAT_FN float clat_bf16_to_float(ushort b) { return as_float((uint)b << 16); }

CLAT_FN ushort clat_float_to_bf16(float f) {
  const uint x = as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (ushort)((x >> 16) | 0x40u);  // NaN: quiet
  return (ushort)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);  // nearest even; may carry to inf
}

CLAT_DEFINE_SLOT_CAS_OPS(bf16)
#if CLAT_PATH_ADD_BF16_GLOBAL == CLAT_PATH_PTX
CLAT_DEFINE_SLOT_PTX_ADD(bf16, "bf16", 0x7f80u)
#elif CLAT_PATH_ADD_BF16_GLOBAL == CLAT_PATH_EXT
/* Intel's bfloat16 atomics (__opencl_c_intel_bfloat_global_atomic_add): the add on the element
 * itself, its neighbour never touched; its rounding is proven by the native check as any path's. */
CLAT_FN ushort clat_ext_add_bf16(volatile __global ushort *p, ushort v) {
  union { ushort bits; intel_bfloat value; } in, out;
  in.bits = v;
  out.value = atomic_fetch_add_explicit((volatile __global atomic_intel_bfloat *)p, in.value, memory_order_relaxed,
                                        memory_scope_device);
  return out.bits;
}
#endif
CLAT_DEFINE_SLOT_PUBLIC_OPS(bf16, CLAT_PATH_ADD_BF16_GLOBAL, CLAT_PATH_ADD_BF16_LOCAL)

#endif /* CLATOMICS_BFLOAT16_CL */
