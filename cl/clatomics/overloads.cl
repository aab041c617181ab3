/* clatomics/overloads.cl — one name per operation, for every type and address space.
 *
 *   T    clat_fetch_add(p, v)          *p += v
 *   T    clat_fetch_sub(p, v)          *p -= v
 *   T    clat_fetch_mul(p, v)          *p *= v
 *   T    clat_fetch_div(p, v)          *p /= v
 *   T    clat_fetch_min(p, v)          *p = min(*p, v)
 *   T    clat_fetch_max(p, v)          *p = max(*p, v)
 *   T    clat_fetch_mad(p, a, b)       *p = fma(a, b, *p) (float, double); *p + a * b (integers)
 *   T    clat_exchange(p, v)           *p = v
 *   bool clat_compare_exchange(p, T *expected, T desired)   C++ compare_exchange_strong, on bits
 *   T    clat_load(p)                  the value, never torn
 *   void clat_store(p, v)              *p = v, never torn
 * p points to float, double, int, uint, long or ulong in __global or __local memory (double
 * needs CLAT_HAS_DOUBLE, long and ulong CLAT_HAS_INT64_ATOMICS); float2 (one 64-bit word) has
 * add, sub, exchange, compare_exchange, load and store. fetch_* and exchange return the old value.
 * The float/double fetch_* are ops.def's list. Each name calls the per-type function of the same
 * op (clat_atomic_add_float, ..._local, the OpenCL built-ins for integer add, sub and exchange),
 * so it takes the same checked native path; integer semantics are integer.cl's (wrapping,
 * division by zero changes nothing). All relaxed.
 *
 * Defined where CLAT_HAVE_OVERLOADS is (config.cl). Bad use fails to compile with a message
 * naming the supported forms: a __constant or __private pointer, or a pointer to char, uchar,
 * short or ushort (half and bfloat16 live in ushort and have their own names:
 * clat_atomic_add_half, ...). A
 * pointer to another type (float4, a struct) is converted with clang's "incompatible pointer
 * types" warning, as any C call would be: build with -Werror=incompatible-pointer-types to refuse
 * it. Generic pointers (OpenCL C 2.0+, __opencl_c_generic_address_space) are accepted where the
 * compiler offers them and must point to __global or __local memory.
 */
#ifndef CLATOMICS_OVERLOADS_CL
#define CLATOMICS_OVERLOADS_CL
#ifdef CLAT_HAVE_OVERLOADS

#define CLAT_OVL CLAT_FN __attribute__((overloadable))

/* clat_fetch_<op> for a float/double op of ops.def: the per-type function of the same op. The
 * readers paste every name before passing it on: a bare op name given to another macro would be
 * expanded first, and an OpenCL C header may define min, max or mad as macros (PoCL does). */
#define CLAT_OVERLOAD_CALL(T, AS, OPERANDS, FETCH, ATOMIC)                                     \
  CLAT_OVL T FETCH(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T)) { return ATOMIC(p CLAT_ARGS_##OPERANDS); }
#define CLAT_OVERLOAD_REAL_OP(T, AS, SFX, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC, \
                              AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                  \
  CLAT_OVERLOAD_CALL(T, AS, OPERANDS, clat_fetch_##NAME, clat_atomic_##NAME##_##T##SFX)
#define CLAT_OVERLOAD_REAL_VIA(T, AS, SFX, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)               \
  CLAT_OVERLOAD_CALL(T, AS, OPERANDS, clat_fetch_##NAME, clat_atomic_##NAME##_##T##SFX)

#define CLAT_OVERLOAD_COMPARE_EXCHANGE(T, AS, SFX)                                             \
  CLAT_OVL bool clat_compare_exchange(volatile AS T *p, T *expected, T desired) {              \
    return clat_atomic_compare_exchange_##T##SFX(p, expected, desired);                        \
  }

#define CLAT_OVERLOADS_REAL(T, AS, SFX)                                                        \
  CLAT_REAL_OPS(CLAT_OVERLOAD_REAL_OP, CLAT_OVERLOAD_REAL_VIA, T, AS, SFX, , )                 \
  CLAT_OVERLOAD_COMPARE_EXCHANGE(T, AS, SFX)                                                   \
  CLAT_OVL T clat_exchange(volatile AS T *p, T v) { return clat_atomic_xchg_##T##SFX(p, v); }  \
  CLAT_OVL T clat_load(volatile AS T *p) { return clat_atomic_load_##T##SFX(p); }              \
  CLAT_OVL void clat_store(volatile AS T *p, T v) { clat_atomic_store_##T##SFX(p, v); }

/* Integers: add, sub and exchange are the built-ins (ADD, SUB, XCHG: atomic_* or atom_*), mad
 * an add of the wrapped product, mul, div, min and max integer.cl's, a load one volatile access.
 * Their fetch ops are CLAT_INTEGER_FETCH_OPS, a part of ops.def's list. */
#define CLAT_INTEGER_FETCH_OPS(X, T) X(T, add, v) X(T, sub, v) X(T, mul, v) X(T, div, v) \
  X(T, mad, a_b) X(T, min, v) X(T, max, v)
#define CLAT_OVERLOADS_INTEGER(T, U, AS, SFX, ADD, SUB, XCHG)                                  \
  CLAT_OVL T clat_fetch_mul(volatile AS T *p, T v) { return clat_atomic_mul_##T##SFX(p, v); }  \
  CLAT_OVL T clat_fetch_div(volatile AS T *p, T v) { return clat_atomic_div_##T##SFX(p, v); }  \
  CLAT_OVL T clat_fetch_min(volatile AS T *p, T v) { return clat_atomic_min_##T##SFX(p, v); }  \
  CLAT_OVL T clat_fetch_max(volatile AS T *p, T v) { return clat_atomic_max_##T##SFX(p, v); }  \
  CLAT_OVERLOAD_COMPARE_EXCHANGE(T, AS, SFX)                                                   \
  CLAT_OVL T clat_fetch_add(volatile AS T *p, T v) { return ADD(p, v); }                       \
  CLAT_OVL T clat_fetch_sub(volatile AS T *p, T v) { return SUB(p, v); }                       \
  CLAT_OVL T clat_fetch_mad(volatile AS T *p, T a, T b) { return ADD(p, (T)((U)a * (U)b)); }   \
  CLAT_OVL T clat_exchange(volatile AS T *p, T v) { return XCHG(p, v); }                       \
  CLAT_OVL T clat_load(volatile AS T *p) { return *p; }                                        \
  CLAT_OVL void clat_store(volatile AS T *p, T v) { (void)XCHG(p, v); }

#define CLAT_OVERLOADS_FLOAT2(AS, SFX)                                                         \
  CLAT_OVL float2 clat_fetch_add(volatile AS float2 *p, float2 v) { return clat_atomic_add_float2##SFX(p, v); } \
  CLAT_OVL float2 clat_fetch_sub(volatile AS float2 *p, float2 v) { return clat_atomic_sub_float2##SFX(p, v); } \
  CLAT_OVL float2 clat_exchange(volatile AS float2 *p, float2 v) { return clat_atomic_xchg_float2##SFX(p, v); } \
  CLAT_OVL bool clat_compare_exchange(volatile AS float2 *p, float2 *expected, float2 desired) { \
    return clat_atomic_compare_exchange_float2##SFX(p, expected, desired);                     \
  }                                                                                            \
  CLAT_OVL float2 clat_load(volatile AS float2 *p) { return clat_atomic_load_float2##SFX(p); } \
  CLAT_OVL void clat_store(volatile AS float2 *p, float2 v) { clat_atomic_store_float2##SFX(p, v); }

#define CLAT_OVERLOADS_IN(AS, SFX)                                                             \
  CLAT_OVERLOADS_REAL(float, AS, SFX)                                                          \
  CLAT_OVERLOADS_INTEGER(int, uint, AS, SFX, atomic_add, atomic_sub, atomic_xchg)              \
  CLAT_OVERLOADS_INTEGER(uint, uint, AS, SFX, atomic_add, atomic_sub, atomic_xchg)
CLAT_OVERLOADS_IN(__global, )
CLAT_OVERLOADS_IN(__local, _local)
#ifdef CLAT_HAS_DOUBLE
CLAT_OVERLOADS_REAL(double, __global, )
CLAT_OVERLOADS_REAL(double, __local, _local)
#endif
#ifdef CLAT_HAS_INT64_ATOMICS
CLAT_OVERLOADS_INTEGER(long, ulong, __global, , atom_add, atom_sub, atom_xchg)
CLAT_OVERLOADS_INTEGER(long, ulong, __local, _local, atom_add, atom_sub, atom_xchg)
CLAT_OVERLOADS_INTEGER(ulong, ulong, __global, , atom_add, atom_sub, atom_xchg)
CLAT_OVERLOADS_INTEGER(ulong, ulong, __local, _local, atom_add, atom_sub, atom_xchg)
CLAT_OVERLOADS_FLOAT2(__global, )
CLAT_OVERLOADS_FLOAT2(__local, _local)
#endif

/* Generic pointers: the __global or __local form, whichever memory p points to. */
#if defined(__opencl_c_generic_address_space)
#define CLAT_GENERIC_TO(NAME, T, ARGS)                                                         \
  {                                                                                            \
    volatile __global T *g = to_global(p);                                                     \
    if (g) return NAME(g ARGS);                                                                \
    return NAME(to_local(p) ARGS);                                                             \
  }
#define CLAT_GENERIC_FETCH(T, FETCH, OPERANDS)                                                 \
  CLAT_OVL T FETCH(volatile T *p CLAT_OPERANDS_##OPERANDS(T)) CLAT_GENERIC_TO(FETCH, T, CLAT_ARGS_##OPERANDS)
#define CLAT_GENERIC_INTEGER_OP(T, NAME, OPERANDS) CLAT_GENERIC_FETCH(T, clat_fetch_##NAME, OPERANDS)
#define CLAT_GENERIC_REAL_OP(T, A, B, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC,  \
                             AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                  \
  CLAT_GENERIC_FETCH(T, clat_fetch_##NAME, OPERANDS)
#define CLAT_GENERIC_REAL_VIA(T, A, B, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)                   \
  CLAT_GENERIC_FETCH(T, clat_fetch_##NAME, OPERANDS)
/* The forms every type shares. */
#define CLAT_OVERLOADS_GENERIC(T)                                                              \
  CLAT_OVL T clat_exchange(volatile T *p, T v) CLAT_GENERIC_TO(clat_exchange, T, CLAT_COMMA v) \
  CLAT_OVL bool clat_compare_exchange(volatile T *p, T *expected, T desired)                   \
      CLAT_GENERIC_TO(clat_compare_exchange, T, CLAT_COMMA expected CLAT_COMMA desired)       \
  CLAT_OVL T clat_load(volatile T *p) CLAT_GENERIC_TO(clat_load, T, )                          \
  CLAT_OVL void clat_store(volatile T *p, T v) CLAT_GENERIC_TO(clat_store, T, CLAT_COMMA v)
#define CLAT_OVERLOADS_GENERIC_REAL(T)                                                         \
  CLAT_REAL_OPS(CLAT_GENERIC_REAL_OP, CLAT_GENERIC_REAL_VIA, T, , , , )                        \
  CLAT_OVERLOADS_GENERIC(T)
#define CLAT_OVERLOADS_GENERIC_INTEGER(T)                                                      \
  CLAT_INTEGER_FETCH_OPS(CLAT_GENERIC_INTEGER_OP, T)                                              \
  CLAT_OVERLOADS_GENERIC(T)
#define CLAT_COMMA ,
CLAT_OVERLOADS_GENERIC_REAL(float)
CLAT_OVERLOADS_GENERIC_INTEGER(int)
CLAT_OVERLOADS_GENERIC_INTEGER(uint)
#ifdef CLAT_HAS_DOUBLE
CLAT_OVERLOADS_GENERIC_REAL(double)
#endif
#ifdef CLAT_HAS_INT64_ATOMICS
CLAT_OVERLOADS_GENERIC_INTEGER(long)
CLAT_OVERLOADS_GENERIC_INTEGER(ulong)
#endif
#endif /* __opencl_c_generic_address_space */

/* Refused forms: declared, never defined, so a call names the forms that exist. */
#define CLAT_OVERLOAD_FORMS                                                                    \
  " takes a __global or __local pointer to float, double, int, uint, long or ulong (float2: add, " \
  "sub, exchange, compare_exchange, load, store); half and bfloat16 live in ushort and have "  \
  "their own names (clat_atomic_add_half, clat_atomic_add_bf16, ...)"
#define CLAT_REFUSED(NAME) __attribute__((overloadable, unavailable(#NAME CLAT_OVERLOAD_FORMS)))
/* Every fetch op is refused by ops.def's name: the integer ones are a part of that list. */
#define CLAT_REFUSE_CALL(T, Q, OPERANDS, FETCH) CLAT_FN T FETCH(Q T *p CLAT_OPERANDS_##OPERANDS(T)) CLAT_REFUSED(FETCH);
#define CLAT_REFUSE_REAL_OP(T, Q, B, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC,   \
                            AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                   \
  CLAT_REFUSE_CALL(T, Q, OPERANDS, clat_fetch_##NAME)
#define CLAT_REFUSE_REAL_VIA(T, Q, B, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)                    \
  CLAT_REFUSE_CALL(T, Q, OPERANDS, clat_fetch_##NAME)
#define CLAT_REFUSE_POINTER(Q, T)                                                              \
  CLAT_REAL_OPS(CLAT_REFUSE_REAL_OP, CLAT_REFUSE_REAL_VIA, T, Q, , , )                         \
  CLAT_FN T clat_exchange(Q T *p, T v) CLAT_REFUSED(clat_exchange);                            \
  CLAT_FN bool clat_compare_exchange(Q T *p, T *expected, T desired) CLAT_REFUSED(clat_compare_exchange); \
  CLAT_FN T clat_load(Q T *p) CLAT_REFUSED(clat_load);                                         \
  CLAT_FN void clat_store(Q T *p, T v) CLAT_REFUSED(clat_store);
#define CLAT_REFUSE_SMALL(Q)                                                                   \
  CLAT_REFUSE_POINTER(Q, char)                                                                 \
  CLAT_REFUSE_POINTER(Q, uchar)                                                                \
  CLAT_REFUSE_POINTER(Q, short)                                                                \
  CLAT_REFUSE_POINTER(Q, ushort)
#ifdef CLAT_HAS_DOUBLE
#define CLAT_REFUSE_DOUBLE(Q) CLAT_REFUSE_POINTER(Q, double)
#else
#define CLAT_REFUSE_DOUBLE(Q)
#endif
#ifdef CLAT_HAS_INT64_ATOMICS
#define CLAT_REFUSE_WIDE(Q) CLAT_REFUSE_POINTER(Q, long) CLAT_REFUSE_POINTER(Q, ulong) CLAT_REFUSE_POINTER(Q, float2)
#else
#define CLAT_REFUSE_WIDE(Q)
#endif
/* Every type in an address space no atomic can serve. */
#define CLAT_REFUSE_SPACE(Q)                                                                   \
  CLAT_REFUSE_SMALL(Q)                                                                         \
  CLAT_REFUSE_POINTER(Q, float)                                                                \
  CLAT_REFUSE_POINTER(Q, int)                                                                  \
  CLAT_REFUSE_POINTER(Q, uint)                                                                 \
  CLAT_REFUSE_DOUBLE(Q)                                                                        \
  CLAT_REFUSE_WIDE(Q)
CLAT_REFUSE_SMALL(volatile __global)
CLAT_REFUSE_SMALL(volatile __local)
CLAT_REFUSE_SPACE(__constant)
/* A private variable has no other work-item to race with: no atomic is needed, and none exists. */
CLAT_REFUSE_SPACE(__private)

#endif /* CLAT_HAVE_OVERLOADS */
#endif /* CLATOMICS_OVERLOADS_CL */
