/* clatomics/native_ptx.cl — NVIDIA inline PTX atomics (host sets CLAT_NVIDIA_PTX).
 *
 * Measured to build and run through NVIDIA's OpenCL: atom.global.add.f32/.f64,
 * red.global.add.f32/.f64 and atom.shared.add.f32 (atom.shared.add.f64, like every native path,
 * is used only where the host's check of it passed). The shared-memory form takes the 32-bit
 * shared-window address, (uint)(size_t)p; a generic-address atom on a __local pointer faults the
 * context, so it is never used. PTX has no float min/max atom.
 */
#ifndef CLATOMICS_NATIVE_PTX_CL
#define CLATOMICS_NATIVE_PTX_CL

/* Per type: the PTX type and the register constraints of its value (written, read). */
#define CLAT_PTX_TYPE_float "f32"
#define CLAT_PTX_OUT_float "=f"
#define CLAT_PTX_IN_float "f"
#define CLAT_PTX_TYPE_double "f64"
#define CLAT_PTX_OUT_double "=d"
#define CLAT_PTX_IN_double "d"
/* Per address space (SFX): the PTX state space and the address operand. */
#define CLAT_PTX_SPACE_ "global"
#define CLAT_PTX_ADDRESS_(p) "l"(p)
#define CLAT_PTX_SPACE__local "shared"
#define CLAT_PTX_ADDRESS__local(p) "r"((uint)(size_t)p)

/* clat_ptx_add_<T><SFX>: atom.<space>.add.<type>, returning the old value. */
#define CLAT_DEFINE_PTX_ADD(T, AS, SFX)                                                        \
  CLAT_FN T clat_ptx_add_##T##SFX(volatile AS T *p, T v) {                                     \
    T old;                                                                                     \
    asm volatile("atom." CLAT_PTX_SPACE_##SFX ".add." CLAT_PTX_TYPE_##T " %0, [%1], %2;"      \
                 : CLAT_PTX_OUT_##T(old)                                                       \
                 : CLAT_PTX_ADDRESS_##SFX(p), CLAT_PTX_IN_##T(v)                               \
                 : "memory");                                                                  \
    return old;                                                                                \
  }

/* clat_ptx_red_add_<T>: red.global.add.<type>, for callers that discard the old value. */
#define CLAT_DEFINE_PTX_RED_ADD(T)                                                             \
  CLAT_FN void clat_ptx_red_add_##T(volatile __global T *p, T v) {                             \
    asm volatile("red.global.add." CLAT_PTX_TYPE_##T " [%0], %1;"                              \
                 :                                                                             \
                 : CLAT_PTX_ADDRESS_(p), CLAT_PTX_IN_##T(v)                                    \
                 : "memory");                                                                  \
  }

#if CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX
CLAT_DEFINE_PTX_ADD(float, __global, )
CLAT_DEFINE_PTX_RED_ADD(float)
#endif
#if CLAT_PATH_ADD_FLOAT_LOCAL == CLAT_PATH_PTX
CLAT_DEFINE_PTX_ADD(float, __local, _local)
#endif
#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_GLOBAL == CLAT_PATH_PTX
CLAT_DEFINE_PTX_ADD(double, __global, )
CLAT_DEFINE_PTX_RED_ADD(double)
#endif
#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_LOCAL == CLAT_PATH_PTX
CLAT_DEFINE_PTX_ADD(double, __local, _local)
#endif

#endif /* CLATOMICS_NATIVE_PTX_CL */
