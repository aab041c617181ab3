/* clatomics/float2.cl — a float2 (a complex number, a 2-D point) updated as one 64-bit
 * compare-exchange, so no reader ever sees one component updated and the other not.
 *
 *   float2 clat_atomic_add_float2(volatile __global float2 *p, float2 v)   *p += v
 *   float2 clat_atomic_sub_float2(p, v)                                     *p -= v
 *   float2 clat_atomic_cmul_float2(p, v)     *p = *p * v as complex numbers (x + iy)
 *   float2 clat_atomic_xchg_float2(p, v)     *p = v
 *   float2 clat_atomic_cmpxchg_float2(p, cmp, v)   *p = v if the 64 bits of *p equal cmp's
 *   float2 clat_atomic_load_float2(p)        one atomic 64-bit read
 * and the same names ending in _local for __local pointers. Each returns the old value. Needs
 * cl_khr_int64_base_atomics (defined where CLAT_HAS_INT64_ATOMICS is); p must be 8-byte aligned,
 * as float2 is. Two 32-bit atomics would let a reader see a half-updated value.
 */
#ifndef CLATOMICS_FLOAT2_CL
#define CLATOMICS_FLOAT2_CL
#ifdef CLAT_HAS_INT64_ATOMICS

#define CLAT_DEFINE_FLOAT2_OPS(AS, SFX)                                                        \
  CLAT_ATOMIC_LOOP_OP(float2, ulong, AS, SFX, atom_cmpxchg, add, v, old + v)                   \
  CLAT_ATOMIC_LOOP_OP(float2, ulong, AS, SFX, atom_cmpxchg, sub, v, old - v)                   \
  CLAT_ATOMIC_LOOP_OP(float2, ulong, AS, SFX, atom_cmpxchg, cmul, v,                           \
                      (float2)(old.x * v.x - old.y * v.y, old.x * v.y + old.y * v.x))          \
  CLAT_FN float2 clat_atomic_xchg_float2##SFX(volatile AS float2 *p, float2 v) {               \
    return as_float2(atom_xchg((volatile AS ulong *)p, as_ulong(v)));                          \
  }                                                                                            \
  CLAT_FN float2 clat_atomic_cmpxchg_float2##SFX(volatile AS float2 *p, float2 cmp, float2 v) { \
    return as_float2(atom_cmpxchg((volatile AS ulong *)p, as_ulong(cmp), as_ulong(v)));        \
  }                                                                                            \
  CLAT_FN float2 clat_atomic_load_float2##SFX(volatile AS float2 *p) {                         \
    return as_float2(atom_add((volatile AS ulong *)p, (ulong)0));                              \
  }

CLAT_DEFINE_FLOAT2_OPS(__global, )
CLAT_DEFINE_FLOAT2_OPS(__local, _local)

#endif /* CLAT_HAS_INT64_ATOMICS */
#endif /* CLATOMICS_FLOAT2_CL */
