#include "clatomics/atomics.cl"
/* kernels/histogram/config.cl — the histogram kernels' build options, their defaults and the
 * combinations refused, and how a count reaches the result (CLAT_HIST_ADD).
 *
 * Build options (defaults in brackets):
 *   CLAT_HIST_KIND      what is counted: CLAT_HIST_BYTES (uchar, 256 bins), CLAT_HIST_KEYS (uint),
 *                       CLAT_HIST_EVEN (even bins over positions) [CLAT_HIST_BYTES]
 *   CLAT_POS            the type of even-bin positions (values, lo, hi, scale, edges): float or
 *                       double [float]
 *   CLAT_HIST_2D        1: even bins over two axes: a point (in[i], in_y[i]) [0]
 *   CLAT_HIST_CHANNELS  0 .. 4 float weight arrays summed per slot (even bins only) [0]
 *   CLAT_HIST_ACCUM     how weights are summed: CLAT_ACCUM_FLOAT float atomics,
 *                       CLAT_ACCUM_PAIR compensated float pairs (global sums a double-word
 *                       (hi, lo) updated as one 64-bit compare-exchange; partial sums in double
 *                       where the device has fp64), CLAT_ACCUM_DOUBLE double atomics
 *                       [CLAT_ACCUM_FLOAT]
 *   CLAT_HIST_SLOTS     private counters per copy in clat_hist_private, >= the slots [256]
 *   CLAT_HIST_COPIES    private copies per work-item in clat_hist_private, a power of two: the
 *                       lanes of a vector load count into different copies, which breaks the
 *                       chain of increments of one counter when many elements fall in one bin [1]
 *   CLAT_HIST_SHIFT     clat_hist_local: 1 << CLAT_HIST_SHIFT copies of the counts (a constant:
 *                       cheaper index math in the hot loop than a kernel argument) [0]
 *   CLAT_HIST_WSHIFT    clat_hist_local: 1 << CLAT_HIST_WSHIFT copies of the weight sums [0]
 *   CLAT_HIST_PHASES    clat_hist_local, 2 or 4 channels: 2 makes the work-items of every other
 *                       run of 1 << CLAT_HIST_WSHIFT add their channels in a rotated order, so
 *                       that one step's adds of neighbouring work-items fall in different banks
 *                       (count.cl) [1]
 *   CLAT_HIST_WCOPIES   copies of the weights' global sums, a power of two (weights.cl) [1]
 *   CLAT_HIST_DIRECT    1: count straight into the 64-bit totals with 64-bit atomics (needs
 *                       cl_khr_int64_base_atomics; no 32-bit counts, no merge launch) [0]
 *   CLAT_HIST_GROUP     clat_hist_local is compiled for exactly this work-group size
 *                       (reqd_work_group_size; the host sets it on NVIDIA, which reports
 *                       CL_KERNEL_WORK_GROUP_SIZE 256 for any kernel without it, while 1024-item
 *                       groups with 32 copies are what reach the read-only pass) [unset]
 *   CLAT_CONTIGUOUS     see algo_common.cl [0]
 */
#include "kernels/histogram/positions.cl"

#ifndef CLATOMICS_KERNELS_HISTOGRAM_CONFIG_CL
#define CLATOMICS_KERNELS_HISTOGRAM_CONFIG_CL

/* The values CLAT_HIST_KIND and CLAT_HIST_ACCUM name. */
#define CLAT_HIST_BYTES 1
#define CLAT_HIST_KEYS 2
#define CLAT_HIST_EVEN 3
#define CLAT_ACCUM_FLOAT 1
#define CLAT_ACCUM_PAIR 2
#define CLAT_ACCUM_DOUBLE 3

#ifndef CLAT_HIST_KIND
#define CLAT_HIST_KIND CLAT_HIST_BYTES
#endif
#ifndef CLAT_HIST_2D
#define CLAT_HIST_2D 0
#endif
#ifndef CLAT_HIST_CHANNELS
#define CLAT_HIST_CHANNELS 0
#endif
#ifndef CLAT_HIST_ACCUM
#define CLAT_HIST_ACCUM CLAT_ACCUM_FLOAT
#endif
#ifndef CLAT_HIST_SLOTS
#define CLAT_HIST_SLOTS 256
#endif
#ifndef CLAT_HIST_COPIES
#define CLAT_HIST_COPIES 1
#endif
#ifndef CLAT_HIST_SHIFT
#define CLAT_HIST_SHIFT 0
#endif
#ifndef CLAT_HIST_DIRECT
#define CLAT_HIST_DIRECT 0
#endif
#ifndef CLAT_HIST_WSHIFT
#define CLAT_HIST_WSHIFT 0
#endif
#ifndef CLAT_HIST_PHASES
#define CLAT_HIST_PHASES 1
#endif
#ifndef CLAT_HIST_WCOPIES
#define CLAT_HIST_WCOPIES 1
#endif

#if (CLAT_HIST_DOUBLE || CLAT_HIST_2D || CLAT_HIST_CHANNELS) && CLAT_HIST_KIND != CLAT_HIST_EVEN
#error "kernels/histogram.cl: double positions, two axes and weights need CLAT_HIST_KIND CLAT_HIST_EVEN"
#endif
#if CLAT_HIST_CHANNELS < 0 || CLAT_HIST_CHANNELS > 4
#error "kernels/histogram.cl: CLAT_HIST_CHANNELS must be 0 .. 4"
#endif
#if CLAT_HIST_PHASES != 1 && !(CLAT_HIST_PHASES == 2 && (CLAT_HIST_CHANNELS == 2 || CLAT_HIST_CHANNELS == 4))
#error "kernels/histogram.cl: CLAT_HIST_PHASES must be 1, or 2 with 2 or 4 channels"
#endif
#if CLAT_HIST_WCOPIES < 1 || (CLAT_HIST_WCOPIES & (CLAT_HIST_WCOPIES - 1))
#error "kernels/histogram.cl: CLAT_HIST_WCOPIES must be a power of two"
#endif

/* CLAT_HIST_ADD(s, n): a group's (or element's) n counts of slot s into the result. With
 * CLAT_HIST_DIRECT `counts` is the ulong totals. */
#if CLAT_HIST_DIRECT
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define CLAT_HIST_ADD(s, n) atom_add((volatile __global ulong *)counts + (s), (ulong)(n))
#else
#define CLAT_HIST_ADD(s, n) atomic_add(counts + (s), (n))
#endif

#endif /* CLATOMICS_KERNELS_HISTOGRAM_CONFIG_CL */
