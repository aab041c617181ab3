/* kernels/demo_race.cl — the lost update (read, add, write from many work-items at once) and
 * the atomic that fixes it. Each work-item increments one shared counter `repeats` times. */
#include "clatomics/atomics.cl"

/* Not atomic: two work-items can read the same value, and one of the two writes is lost. */
kernel void demo_plain_increment(volatile global uint *counter, uint repeats) {
  for (uint r = 0u; r < repeats; ++r) counter[0] = counter[0] + 1u;
}

kernel void demo_atomic_increment(volatile global uint *counter, uint repeats) {
  for (uint r = 0u; r < repeats; ++r) atomic_inc(counter);
}

/* The float version: a plain += against clat_atomic_add_float. */
kernel void demo_plain_add_float(volatile global float *sum, uint repeats) {
  for (uint r = 0u; r < repeats; ++r) sum[0] = sum[0] + 1.0f;
}

kernel void demo_atomic_add_float(volatile global float *sum, uint repeats) {
  for (uint r = 0u; r < repeats; ++r) clat_atomic_add_float(sum, 1.0f);
}

/* Tickets: each work-item takes a number. The old value atomic_inc returns is unique; a plain
 * read-then-write hands the same number to several work-items. */
kernel void demo_plain_ticket(volatile global uint *counter, global uint *tickets) {
  uint mine = counter[0];
  counter[0] = mine + 1u;
  tickets[get_global_id(0)] = mine;
}

kernel void demo_atomic_ticket(volatile global uint *counter, global uint *tickets) {
  tickets[get_global_id(0)] = atomic_inc(counter);
}
