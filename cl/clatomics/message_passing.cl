/* clatomics/message_passing.cl — release and acquire on a flag, so that one work-group can hand
 * data in __global memory to another.
 *
 *   void clat_store_release_uint(volatile __global uint *flag, uint v)
 *        every write this work-item made before (to __global memory) is visible to a work-item
 *        that reads v from flag with clat_load_acquire_uint; then *flag = v (atomic)
 *   uint clat_load_acquire_uint(volatile __global uint *flag)
 *        reads flag; the reads this work-item makes after it see what was written before the
 *        release that stored the value read
 *
 * The pattern (tests/test_kernel_api.cpp runs it as a litmus test on every device):
 *   producer:  data[i] = ...;  clat_store_release_uint(&flag, 1);
 *   consumer:  if (clat_load_acquire_uint(&flag) == 1) use(data[i]);
 * Scope: work-items of one device (any work-groups of one launch), on __global memory. The other
 * work-items of the producer's work-group join in through barrier(CLK_GLOBAL_MEM_FENCE) before
 * the release. Inside one work-group, __local memory is ordered by barrier() alone. A consumer
 * that waits for a flag must bound its wait: OpenCL does not promise that the producer's
 * work-group runs while the consumer's spins (it may start only after the consumer ends).
 *
 * How: NVIDIA (CLAT_NVIDIA_PTX): PTX membar.gl (fence.sc.gpu) with a volatile (relaxed) access,
 * which the PTX memory model makes a release / an acquire at GPU scope. OpenCL C 2.0+ with the
 * device-scope acquire/release features: atomic_work_item_fence. Elsewhere (OpenCL C 1.2) the
 * mem_fence of the global memory, which orders the work-item's accesses on the devices measured
 * (PoCL); each of these is what the litmus test checks.
 */
#ifndef CLATOMICS_MESSAGE_PASSING_CL
#define CLATOMICS_MESSAGE_PASSING_CL

#if defined(CLAT_NVIDIA_PTX)
#define CLAT_FENCE_RELEASE() asm volatile("membar.gl;" ::: "memory")
#define CLAT_FENCE_ACQUIRE() asm volatile("membar.gl;" ::: "memory")
#elif defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200 &&                            \
    (__OPENCL_C_VERSION__ < 300 || (defined(__opencl_c_atomic_order_acq_rel) && defined(__opencl_c_atomic_scope_device)))
#define CLAT_FENCE_RELEASE() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device)
#define CLAT_FENCE_ACQUIRE() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device)
#else
#define CLAT_FENCE_RELEASE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#define CLAT_FENCE_ACQUIRE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

CLAT_FN void clat_store_release_uint(volatile __global uint *flag, uint v) {
  CLAT_FENCE_RELEASE();
  (void)atomic_xchg(flag, v);
}

CLAT_FN uint clat_load_acquire_uint(volatile __global uint *flag) {
  const uint v = *flag;
  CLAT_FENCE_ACQUIRE();
  return v;
}

#endif /* CLATOMICS_MESSAGE_PASSING_CL */
