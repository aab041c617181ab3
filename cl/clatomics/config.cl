/* clatomics/config.cl — what the device offers, and which path each op takes.
 *
 * The host (clatomics::build_options) passes -D macros after probing the device:
 *   CLAT_FORCE_CAS       every op on the portable compare-exchange loop (tests use it)
 *   CLAT_NVIDIA_PTX      the device is NVIDIA: inline PTX atomics may be used
 *   CLAT_NO_FP64         hide the double ops even where the device has fp64
 *   CLAT_NO_<PATH>       a native path whose check run on this device failed (see below)
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

/* ---- float add: PTX on NVIDIA, else cl_ext_float_atomics, else CAS ---- */
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_FLOAT_GLOBAL)
#define CLAT_PATH_ADD_FLOAT_GLOBAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(__opencl_c_ext_fp32_global_atomic_add) && !defined(CLAT_NO_EXT_ADD_FLOAT_GLOBAL)
#define CLAT_PATH_ADD_FLOAT_GLOBAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_FLOAT_GLOBAL CLAT_PATH_CAS
#endif

#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_FLOAT_LOCAL)
#define CLAT_PATH_ADD_FLOAT_LOCAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(__opencl_c_ext_fp32_local_atomic_add) && !defined(CLAT_NO_EXT_ADD_FLOAT_LOCAL)
#define CLAT_PATH_ADD_FLOAT_LOCAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_FLOAT_LOCAL CLAT_PATH_CAS
#endif

/* ---- double add ---- */
#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_DOUBLE_GLOBAL)
#define CLAT_PATH_ADD_DOUBLE_GLOBAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(__opencl_c_ext_fp64_global_atomic_add) && !defined(CLAT_NO_EXT_ADD_DOUBLE_GLOBAL)
#define CLAT_PATH_ADD_DOUBLE_GLOBAL CLAT_PATH_EXT
#else
#define CLAT_PATH_ADD_DOUBLE_GLOBAL CLAT_PATH_CAS
#endif

#if !defined(CLAT_FORCE_CAS) && defined(CLAT_NVIDIA_PTX) && !defined(CLAT_NO_PTX_ADD_DOUBLE_LOCAL)
#define CLAT_PATH_ADD_DOUBLE_LOCAL CLAT_PATH_PTX
#elif !defined(CLAT_FORCE_CAS) && defined(__opencl_c_ext_fp64_local_atomic_add) && !defined(CLAT_NO_EXT_ADD_DOUBLE_LOCAL)
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

#endif /* CLATOMICS_CONFIG_CL */
