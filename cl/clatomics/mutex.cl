/* clatomics/mutex.cl — a spin lock in global memory, for one work-item per work-group.
 *
 *   void clat_mutex_lock(volatile __global int *m)    waits until it turns *m from 0 into 1
 *   void clat_mutex_unlock(volatile __global int *m)  turns *m back into 0
 *   bool clat_mutex_trylock(volatile __global int *m) takes the lock if it is free, never waits
 * The host sets *m to 0 before the first kernel that uses it.
 *
 * THE RULE: at most one work-item of a work-group ever waits for the lock, e.g.
 *     barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // the group's data is ready
 *     if (get_local_id(0) == 0) {
 *       clat_mutex_lock(m);
 *       ... plain reads and writes of the shared record ...
 *       clat_mutex_unlock(m);
 *     }
 * Never call clat_mutex_lock where several work-items of one group can reach it. The work-items
 * of a warp / sub-group / SIMD group share one program counter and OpenCL gives them no
 * independent forward progress: when one lane wins the lock, the group keeps running the spin
 * loop for the lanes that lost it, so the winner never reaches its unlock and the kernel hangs
 * forever (NVIDIA pre-Volta; PoCL, which runs a group's work-items as loops or vector lanes, can
 * hang the same way). Different work-groups are safe: a group that holds the lock is running,
 * so it finishes its critical section while the others spin. There is no __local variant for
 * that reason: inside one group, use barrier() to order work, not a lock.
 *
 * Memory ordering: OpenCL 1.2 atomics are relaxed on some devices (NVIDIA), so the lock adds a
 * device-wide fence after taking it (acquire: reads inside cannot move before the lock) and
 * before releasing it (release: writes inside are visible before the next holder gets the lock).
 * Data written under the lock with plain reads and writes is then seen by the next holder in
 * any work-group. The fence must be device-wide: OpenCL 1.2's mem_fence(CLK_GLOBAL_MEM_FENCE)
 * is not one on NVIDIA (it becomes membar.cta, work-group scope), and a lock built on it lost
 * 8124 of 8192 updates on an H200 (measured). So CLAT_MUTEX_FENCE is PTX membar.gl on NVIDIA
 * (CLAT_NVIDIA_PTX from the host, or the cl_nv_pragma_unroll macro NVIDIA's compiler defines),
 * atomic_work_item_fence(..., memory_scope_device) when compiling as OpenCL C 2.0 or later, and
 * mem_fence otherwise (PoCL's atomics are acquire-release already; on other devices built as
 * OpenCL C 1.2, pass -cl-std=CL2.0 or later if their mem_fence is work-group scoped).
 */
#ifndef CLATOMICS_MUTEX_CL
#define CLATOMICS_MUTEX_CL

#if defined(CLAT_NVIDIA_PTX) || defined(cl_nv_pragma_unroll)
#define CLAT_MUTEX_FENCE() asm volatile("membar.gl;" ::: "memory")
#elif defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200 &&                          \
    (__OPENCL_C_VERSION__ < 300 ||                                                            \
     (defined(__opencl_c_atomic_order_acq_rel) && defined(__opencl_c_atomic_scope_device)))
#define CLAT_MUTEX_FENCE() \
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device)
#else
#define CLAT_MUTEX_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

CLAT_FN bool clat_mutex_trylock(volatile __global int *m) {
  if (atomic_cmpxchg(m, 0, 1) != 0) return false;
  CLAT_MUTEX_FENCE(); /* acquire */
  return true;
}

CLAT_FN void clat_mutex_lock(volatile __global int *m) {
  while (atomic_cmpxchg(m, 0, 1) != 0) {
  }
  CLAT_MUTEX_FENCE(); /* acquire */
}

CLAT_FN void clat_mutex_unlock(volatile __global int *m) {
  CLAT_MUTEX_FENCE(); /* release */
  atomic_xchg(m, 0);
}

#endif /* CLATOMICS_MUTEX_CL */
