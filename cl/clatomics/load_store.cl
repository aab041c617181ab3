/* clatomics/load_store.cl — atomic load and store of the floating types, and compare-exchange
 * that says whether it succeeded.
 *
 *   T    clat_atomic_load_T(volatile __global T *p)          the value, never torn
 *   void clat_atomic_store_T(volatile __global T *p, T v)    *p = v, never torn
 *   bool clat_atomic_compare_exchange_T(p, T *expected, T desired)
 *        C++ compare_exchange_strong on the *bits*: if the bits of *p equal those of *expected,
 *        stores desired and returns true; else copies *p into *expected and returns false.
 * T is float, double (CLAT_HAS_DOUBLE) or float2 (CLAT_HAS_INT64_ATOMICS, one 64-bit word); the
 * same names ending in _local take __local pointers. half and bfloat16 (ushort storage, see
 * half.cl) have the same three in their own form: load returns the value as float (exact),
 * store takes a float and rounds it to nearest even, compare_exchange compares the 16-bit
 * patterns (ushort *expected, ushort desired). All are relaxed: atomic on the location, no
 * ordering of other memory (message_passing.cl has release/acquire).
 *
 * Why these forms: a load is one volatile access of the whole aligned value (ld.volatile of 32 or
 * 64 bits on NVIDIA, a single mov on CPUs), so it works on read-only memory and costs no atomic
 * unit; a store is an atomic exchange, so it is ordered with the read-modify-writes on the same
 * location everywhere (a 16-bit store exchanges its bits inside the containing 32-bit word,
 * leaving the neighbour as it is). Bits are compared, never values: a float compare would call
 * NaN unequal to itself and -0.0 equal to +0.0.
 */
#ifndef CLATOMICS_LOAD_STORE_CL
#define CLATOMICS_LOAD_STORE_CL

/* store and compare_exchange of T (U: the unsigned integer of its size) in AS; load beside them
 * for every T but float2, whose load float2.cl has (an atomic 64-bit read). */
#define CLAT_DEFINE_STORE_CAS(T, U, AS, SFX, CAS, XCHG)                                        \
  CLAT_FN void clat_atomic_store_##T##SFX(volatile AS T *p, T v) {                             \
    (void)XCHG((volatile AS U *)p, as_##U(v));                                                 \
  }                                                                                            \
  CLAT_DEFINE_COMPARE_EXCHANGE(T, U, AS, SFX, CAS)
#define CLAT_DEFINE_LOAD_STORE(T, U, AS, SFX, CAS, XCHG)                                       \
  CLAT_FN T clat_atomic_load_##T##SFX(volatile AS T *p) { return as_##T(*(volatile AS U *)p); } \
  CLAT_DEFINE_STORE_CAS(T, U, AS, SFX, CAS, XCHG)

CLAT_DEFINE_LOAD_STORE(float, uint, __global, , atomic_cmpxchg, atomic_xchg)
CLAT_DEFINE_LOAD_STORE(float, uint, __local, _local, atomic_cmpxchg, atomic_xchg)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_LOAD_STORE(double, ulong, __global, , atom_cmpxchg, atom_xchg)
CLAT_DEFINE_LOAD_STORE(double, ulong, __local, _local, atom_cmpxchg, atom_xchg)
#endif
#ifdef CLAT_HAS_INT64_ATOMICS
CLAT_DEFINE_STORE_CAS(float2, ulong, __global, , atom_cmpxchg, atom_xchg)
CLAT_DEFINE_STORE_CAS(float2, ulong, __local, _local, atom_cmpxchg, atom_xchg)
#endif

/* half and bfloat16 (NAME), on their 16-bit patterns inside the containing word (half.cl). */
#define CLAT_DEFINE_SLOT_LOAD_STORE(NAME, AS, SFX)                                             \
  CLAT_FN float clat_atomic_load_##NAME##SFX(volatile AS ushort *p) { return clat_##NAME##_to_float(*p); } \
  CLAT_FN void clat_atomic_store_##NAME##SFX(volatile AS ushort *p, float v) {                 \
    (void)clat_cas_xchg_##NAME##SFX(p, clat_float_to_##NAME(v));                               \
  }                                                                                            \
  CLAT_FN bool clat_atomic_compare_exchange_##NAME##SFX(volatile AS ushort *p, ushort *expected, \
                                                        ushort desired) {                      \
    const ushort want = *expected;                                                             \
    const ushort seen = clat_atomic_cmpxchg_##NAME##SFX(p, want, desired);                     \
    *expected = seen;                                                                          \
    return seen == want;                                                                       \
  }
CLAT_DEFINE_SLOT_LOAD_STORE(half, __global, )
CLAT_DEFINE_SLOT_LOAD_STORE(half, __local, _local)
CLAT_DEFINE_SLOT_LOAD_STORE(bf16, __global, )
CLAT_DEFINE_SLOT_LOAD_STORE(bf16, __local, _local)

#endif /* CLATOMICS_LOAD_STORE_CL */
