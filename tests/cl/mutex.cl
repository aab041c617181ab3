/* Test kernels for clatomics/mutex.cl, used as its rule says: one work-item per group (the
 * leader) takes the lock, after a barrier, and updates a record with plain reads and writes.
 *   rec[0]         updates so far, also the next free slot of log
 *   rec[1], rec[2] a 64-bit sum kept as two 32-bit words (lo, hi): a torn update loses a carry
 *   log[k]         the group that made update k: each group must appear exactly `rounds` times
 * values[i] is summed per group (wrapping, mod 2^32) with local atomics before the leader runs. */
kernel void mutex_record(global int *mutex, global uint *rec, global uint *log,
                         global const uint *values, uint rounds) {
  local uint group_sum;
  if (get_local_id(0) == 0) group_sum = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&group_sum, values[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) != 0) return;
  for (uint r = 0; r < rounds; ++r) {
    clat_mutex_lock(mutex);
    const uint n = rec[0];
    log[n] = (uint)get_group_id(0);
    rec[0] = n + 1;
    const uint lo = rec[1], next = lo + group_sum;
    rec[2] = rec[2] + (next < lo ? 1u : 0u);
    rec[1] = next;
    clat_mutex_unlock(mutex);
  }
}

/* One try per group leader; out[g] = 1 if group g got the lock (and then it counts in rec[0]).
 * hold != 0: the winner keeps the lock, so every later try must fail. */
kernel void mutex_try(global int *mutex, global uint *rec, global uint *out, uint hold) {
  if (get_local_id(0) != 0) return;
  const bool got = clat_mutex_trylock(mutex);
  out[get_group_id(0)] = got ? 1u : 0u;
  if (got) {
    rec[0] = rec[0] + 1;
    if (!hold) clat_mutex_unlock(mutex);
  }
}
