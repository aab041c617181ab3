/* clatomics/config.cl — what the device offers, and which path each op takes.
 *
 * The host (clatomics::build_options) passes -D macros after probing the device:
 *   CLAT_FORCE_CAS       every op on the portable compare-exchange loop (tests use it)
 *   CLAT_NVIDIA_PTX      the device is NVIDIA: inline PTX atomics may be used
 *   CLAT_NO_FP64         hide the double ops even where the device has fp64
 *   CLAT_EXT_FP32_GLOBAL_ADD (and _LOCAL_, FP64_)  the device's cl_ext_float_atomics queries
 *                        report that add, where the compiler defines no OpenCL C 3.0 feature macro
 *                        for it (Intel's CPU runtime)
 *   CLAT_NO_<PATH>_<OP>  a native path whose check run on this device failed: the slots of
 *                        kernels/native_paths.def, e.g. CLAT_NO_PTX_ADD_FLOAT_GLOBAL
 * Without any -D the snippets still compile on any OpenCL C 1.2 device, using the native
 * cl_ext_float_atomics paths the compiler announces and the CAS loop for everything else.
 *
 * Path codes, readable by kernels (and reported by the host) as CLAT_PATH_<OP>_<TYPE>_<SPACE>:
 */
#ifndef CLATOMICS_CONFIG_CL
#define CLATOMICS_CONFIG_CL

#define CLAT_PATH_CAS 0      /* compare-exchange loop on the bits */
#define CLAT_PATH_EXT 1      /* cl_ext_float_atomics (OpenCL C 3.0 feature macros) */
#define CLAT_PATH_PTX 2      /* NVIDIA inline PTX atom */
#define CLAT_PATH_BITS 3     /* integer atomic min/max on the bit pattern */
#define CLAT_PATH_HW 4       /* a plain OpenCL atomic (xchg, cmpxchg) */

/* Every function is static inline so that two programs that both prepend the library link. */
#ifndef CLAT_FN
#define CLAT_FN static inline
#endif

/* ---- one overloaded name per op (overloads.cl): clang's __attribute__((overloadable)), which
 * PoCL's and NVIDIA's OpenCL compilers accept (measured, OpenCL C 1.2 and 3.0). Elsewhere the
 * per-type names remain and CLAT_HAVE_OVERLOADS stays undefined. -DCLAT_NO_OVERLOADS turns them
 * off; -DCLAT_ASSUME_OVERLOADS turns them on for another compiler that accepts the attribute. */
#if !defined(CLAT_NO_OVERLOADS) && (defined(__clang__) || defined(__NV_CL_C_VERSION) || defined(CLAT_NVIDIA_PTX) || \
                                    defined(CLAT_ASSUME_OVERLOADS))
#define CLAT_HAVE_OVERLOADS 1
#endif

/* ---- double support: fp64 plus 64-bit compare-exchange ---- */
#if defined(cl_khr_fp64) && defined(cl_khr_int64_base_atomics) && !defined(CLAT_NO_FP64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define CLAT_HAS_DOUBLE 1
#endif
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define CLAT_HAS_INT64_ATOMICS 1
#endif
#if defined(cl_khr_int64_extended_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define CLAT_HAS_INT64_MINMAX 1
#endif

/* ---- the cl_ext_float_atomics adds the compiler announces, or the host read from the device ---- */
#if defined(__opencl_c_ext_fp32_global_atomic_add) || (defined(cl_ext_float_atomics) && defined(CLAT_EXT_FP32_GLOBAL_ADD))
#define CLAT_EXT_ADD_FLOAT_GLOBAL 1
#endif
#if defined(__opencl_c_ext_fp32_local_atomic_add) || (defined(cl_ext_float_atomics) && defined(CLAT_EXT_FP32_LOCAL_ADD))
#define CLAT_EXT_ADD_FLOAT_LOCAL 1
#endif
#if defined(__opencl_c_ext_fp64_global_atomic_add) || (defined(cl_ext_float_atomics) && defined(CLAT_EXT_FP64_GLOBAL_ADD))
#define CLAT_EXT_ADD_DOUBLE_GLOBAL 1
#endif
#if defined(__opencl_c_ext_fp64_local_atomic_add) || (defined(cl_ext_float_atomics) && defined(CLAT_EXT_FP64_LOCAL_ADD))
#define CLAT_EXT_ADD_DOUBLE_LOCAL 1
#endif

/* ---- float add: PTX on NVIDIA, else cl_ext_float_atomics, else CAS ---- */
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_FLOAT_GLOBAL)
#define CLAT_PATH_ADD_FLOAT_GLOBAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(CLAT_EXT_ADD_FLOAT_GLOBAL) && !defined(CLAT_NO_EXT_ADD_FLOAT_GLOBAL)
#define CLAT_PATH_ADD_FLOAT_GLOBAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_FLOAT_GLOBAL CLAT_PATH_CAS
#endif

#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_FLOAT_LOCAL)
#define CLAT_PATH_ADD_FLOAT_LOCAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(CLAT_EXT_ADD_FLOAT_LOCAL) && !defined(CLAT_NO_EXT_ADD_FLOAT_LOCAL)
#define CLAT_PATH_ADD_FLOAT_LOCAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_FLOAT_LOCAL CLAT_PATH_CAS
#endif

/* ---- double add ---- */
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_DOUBLE_GLOBAL)
#define CLAT_PATH_ADD_DOUBLE_GLOBAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(CLAT_EXT_ADD_DOUBLE_GLOBAL) && !defined(CLAT_NO_EXT_ADD_DOUBLE_GLOBAL)
#define CLAT_PATH_ADD_DOUBLE_GLOBAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_DOUBLE_GLOBAL CLAT_PATH_CAS
#endif

#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_DOUBLE_LOCAL)
#define CLAT_PATH_ADD_DOUBLE_LOCAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(CLAT_EXT_ADD_DOUBLE_LOCAL) && !defined(CLAT_NO_EXT_ADD_DOUBLE_LOCAL)
#define CLAT_PATH_ADD_DOUBLE_LOCAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_DOUBLE_LOCAL CLAT_PATH_CAS
#endif

/* ---- min/max: integer atomics on the bits (32-bit atomics are core OpenCL; 64-bit need
 * cl_khr_int64_extended_atomics). The cl_ext_float_atomics min/max are not used: their NaN and
 * signed-zero rules are the device's, while the bits path gives the same answer as the CAS loop. */
#if !defined(CLAT_FORCE_CAS) && !defined(CLAT_NO_BITS_MINMAX_FLOAT_GLOBAL)
#define CLAT_PATH_MINMAX_FLOAT_GLOBAL CLAT_PATH_BITS
#else
#define CLAT_PATH_MINMAX_FLOAT_GLOBAL CLAT_PATH_CAS
#endif
#if !defined(CLAT_FORCE_CAS) && !defined(CLAT_NO_BITS_MINMAX_FLOAT_LOCAL)
#define CLAT_PATH_MINMAX_FLOAT_LOCAL CLAT_PATH_BITS
#else
#define CLAT_PATH_MINMAX_FLOAT_LOCAL CLAT_PATH_CAS
#endif
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_HAS_INT64_MINMAX) && !defined(CLAT_NO_BITS_MINMAX_DOUBLE_GLOBAL)
#define CLAT_PATH_MINMAX_DOUBLE_GLOBAL CLAT_PATH_BITS
#else
#define CLAT_PATH_MINMAX_DOUBLE_GLOBAL CLAT_PATH_CAS
#endif
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_HAS_INT64_MINMAX) && !defined(CLAT_NO_BITS_MINMAX_DOUBLE_LOCAL)
#define CLAT_PATH_MINMAX_DOUBLE_LOCAL CLAT_PATH_BITS
#else
#define CLAT_PATH_MINMAX_DOUBLE_LOCAL CLAT_PATH_CAS
#endif

/* cl_ext_float_atomics functions take atomic_float / atomic_double objects */
#if CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_EXT || CLAT_PATH_ADD_FLOAT_LOCAL == CLAT_PATH_EXT || \
    CLAT_PATH_ADD_DOUBLE_GLOBAL == CLAT_PATH_EXT || CLAT_PATH_ADD_DOUBLE_LOCAL == CLAT_PATH_EXT
#define CLAT_USES_EXT 1
#endif

/* ==== Aggregated, half/bfloat16 and no-return ops (aggregate.cl, half.cl, bfloat16.cl, noret.cl) ====
 * More path codes, and the path each of those ops takes. Host macros read here:
 *   CLAT_SUBGROUPS          the device reports cl_khr_subgroups: aggregate over sub-groups
 *   CLAT_NO_WARP_AGG        no NVIDIA warp aggregation (the plain op instead)
 *   CLAT_NO_SUBGROUP_AGG    no sub-group aggregation
 *   CLAT_NO_PTX_ADD_HALF_GLOBAL, CLAT_NO_PTX_ADD_BF16_GLOBAL   no PTX f16/bf16 atom add
 *   CLAT_NO_EXT_ADD_BF16_GLOBAL  no Intel bfloat16 atomic add
 *   CLAT_NO_PTX_NORET_ADD_FLOAT_GLOBAL, _DOUBLE_GLOBAL         no PTX red for the no-return add */
#define CLAT_PATH_WARP 5     /* NVIDIA warp aggregation: match.any.sync + shfl.sync inline PTX */
#define CLAT_PATH_SUBGROUP 6 /* sub-group aggregation: cl_khr_subgroups + cl_khr_subgroup_shuffle */
#define CLAT_PATH_PLAIN 7    /* the plain op, on its own path: no aggregation, or a returning add */

/* Aggregation. The sub-group path needs the generic shuffle too (mul/div have no built-in scan). */
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_WARP_AGG)
#define CLAT_PATH_AGG CLAT_PATH_WARP
#elif !defined(CLAT_FORCE_CAS) && defined(CLAT_SUBGROUPS) && !defined(CLAT_NO_SUBGROUP_AGG) &&     \
    (defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)) && defined(cl_khr_subgroup_shuffle)
#define CLAT_PATH_AGG CLAT_PATH_SUBGROUP
#else
#define CLAT_PATH_AGG CLAT_PATH_PLAIN
#endif

/* Rounds of the sub-group path: each serves one distinct address; the rest go plain. */
#ifndef CLAT_AGG_MAX_ROUNDS
#define CLAT_AGG_MAX_ROUNDS 4
#endif

/* half / bfloat16 add: packed PTX atom on the containing word (global only), Intel's bfloat16
 * atomic add, else the CAS. */
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_HALF_GLOBAL)
#define CLAT_PATH_ADD_HALF_GLOBAL CLAT_PATH_PTX
#else
#define CLAT_PATH_ADD_HALF_GLOBAL CLAT_PATH_CAS
#endif
#define CLAT_PATH_ADD_HALF_LOCAL CLAT_PATH_CAS
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_BF16_GLOBAL)
#define CLAT_PATH_ADD_BF16_GLOBAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(__opencl_c_intel_bfloat_global_atomic_add) && !defined(CLAT_NO_EXT_ADD_BF16_GLOBAL)
#define CLAT_PATH_ADD_BF16_GLOBAL CLAT_PATH_EXT /* Intel's bfloat16 atomics (OpenCL C 3.0) */
#else
#define CLAT_PATH_ADD_BF16_GLOBAL CLAT_PATH_CAS
#endif
#define CLAT_PATH_ADD_BF16_LOCAL CLAT_PATH_CAS

/* No-return add: PTX red where the returning add is PTX atom; else plain: the returning add, on
 * its own path. */
#if CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX && !defined(CLAT_NO_PTX_NORET_ADD_FLOAT_GLOBAL)
#define CLAT_PATH_NORET_ADD_FLOAT_GLOBAL CLAT_PATH_PTX
#else
#define CLAT_PATH_NORET_ADD_FLOAT_GLOBAL CLAT_PATH_PLAIN
#endif
#if CLAT_PATH_ADD_DOUBLE_GLOBAL == CLAT_PATH_PTX && !defined(CLAT_NO_PTX_NORET_ADD_DOUBLE_GLOBAL)
#define CLAT_PATH_NORET_ADD_DOUBLE_GLOBAL CLAT_PATH_PTX
#else
#define CLAT_PATH_NORET_ADD_DOUBLE_GLOBAL CLAT_PATH_PLAIN
#endif
/* ==== end of the aggregated, half/bfloat16 and no-return section ==== */

#endif /* CLATOMICS_CONFIG_CL */
