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

/* The same update with work between the read and the write, as a real update has (here: a few
 * dozen arithmetic steps on the old value, their result kept in `work`). The window in which
 * another work-item's write is overwritten is wider, so the race shows even where `x += 1` is
 * compiled to one read and one write per work-item and work-groups seldom overlap (a CPU). */
kernel void demo_plain_increment_work(volatile global uint *counter, uint repeats, global uint *work) {
  for (uint r = 0u; r < repeats; ++r) {
    const uint old = counter[0];
    uint h = old;
    for (uint k = 0u; k < 64u; ++k) h = h * 1664525u + 1013904223u;
    work[get_global_id(0)] = h;
    counter[0] = old + 1u;
  }
}

/* The same work with the increment atomic: nothing is lost, however wide the window. */
kernel void demo_atomic_increment_work(volatile global uint *counter, uint repeats, global uint *work) {
  for (uint r = 0u; r < repeats; ++r) {
    uint h = atomic_inc(counter);
    for (uint k = 0u; k < 64u; ++k) h = h * 1664525u + 1013904223u;
    work[get_global_id(0)] = h;
  }
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
