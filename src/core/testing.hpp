// clatomics' testing hooks: for the project's own tests, never installed. Each lets a test reach
// a path that real data reaches only at sizes or on devices a test machine does not have.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "clatomics/runtime.hpp"

namespace clatomics::testing {

// Shrinks the chunks the std::vector overloads stream through the device and the elements one
// launch may count, to exercise the merging paths on small data. 0 restores the default (chunks
// up to 256 MiB below CL_DEVICE_MAX_MEM_ALLOC_SIZE; launches below 2^32 elements).
// merge_32bit: histograms count each launch in 32-bit counters merged into the 64-bit totals
// afterwards, as on a device without 64-bit atomics, instead of adding into the totals directly.
struct StreamLimits {
  std::size_t chunk_bytes = 0;
  std::uint64_t launch_elements = 0;
  bool merge_32bit = false;
};
StreamLimits stream_limits();
void set_stream_limits(const StreamLimits& limits);

// A DeviceGroup's chunk (of host data, or of resident data run in chunks) that fails on
// whichever device runs it (an Error with CL_OUT_OF_RESOURCES, as a device lost mid-run), to test
// that the failure is reported with its device and chunk; SIZE_MAX (the default) fails none.
std::size_t failing_group_chunk();
void set_failing_group_chunk(std::size_t chunk);

// Whether a DeviceGroup stages host data through pinned host memory (detail::PinnedHost):
// automatic (on GPUs, whose copies from pageable memory go through the driver's staging) or
// forced either way, so that CPU-only machines test the pinned path too.
enum class PinnedStaging { automatic, always, never };
PinnedStaging pinned_staging();
void set_pinned_staging(PinnedStaging staging);

// compact's path: automatic (one pass on GPUs, count + scan + scatter on CPUs) or forced either
// way (one_pass runs the GPU kernel on a CPU too), and the one-pass tile: work-group size (a power
// of two) and elements per work-item (at most 32); 0 keeps the default (256 and 16).
enum class CompactPath { automatic, one_pass, count_scan };
struct CompactPlan {
  CompactPath path = CompactPath::automatic;
  std::size_t group = 0, per_item = 0;
};
CompactPlan compact_plan();
void set_compact_plan(const CompactPlan& plan);

// Deterministic scatter rows: automatic (grouped by bin first on GPUs where enough rows share a
// bin, scatter/device_call.hpp) or forced either way (sorted groups every call that can take it:
// global slots, indices, fewer than 2^32 bins, on CPUs too; in_place groups none).
enum class ScatterRows { automatic, sorted, in_place };
ScatterRows scatter_rows();
void set_scatter_rows(ScatterRows rows);

// The deterministic sums' finish: automatic (over the bins reached where the values are fewer
// than half the bins, over the marked blocks of slots where they reach few of many bins:
// scatter/plan.cpp), or forced (listed, marked: every call of one value a row, no segments and
// fewer than 2^32 - 1 bins; every_slot: none).
enum class ScatterFinish { automatic, listed, marked, every_slot };
ScatterFinish scatter_finish();
void set_scatter_finish(ScatterFinish finish);

// A Runtime (as Runtime(options) makes it) whose listed native checks fail on purpose, by slot
// name ("add_float_global", "minmax_double_local", ...) or "all": tests of the fallbacks.
std::unique_ptr<Runtime> runtime_with_failing_checks(Options options, const std::vector<std::string>& checks);

// How many programs this process has built from binaries in CLATOMICS_CACHE_DIR, and the bytes
// of entries that directory keeps (0 restores the default, 1 GiB).
std::size_t binary_cache_loads();
void set_binary_cache_limit(std::uint64_t bytes);

// A slot of the native-path table (cl/kernels/native_paths.def).
struct NativeSlot {
  std::string name, macro, check, type, space;
  Path fallback;
  std::vector<Path> natives;
};
// Every slot, in the probe kernel's order.
std::vector<NativeSlot> native_slots();

// Runs the check kernels of one slot on rt's device, built with rt's build options plus
// extra_options, on whatever path that build gives the slot: passed when every result is exactly
// the expected one (else why says what differed), and whether subnormals were flushed (add
// slots). Throws std::invalid_argument for an unknown slot, or a double slot where double is not
// available.
struct CheckOutcome {
  bool passed = false;
  std::string why;
  bool flushes_subnormals = false;
};
CheckOutcome run_native_check(const Runtime& rt, const std::string& slot, const std::string& extra_options = {});

// The library's embedded cl/ files: every path, one file as it is in cl/, and one file with its
// includes expanded. Both throw std::invalid_argument for a path that is not embedded.
std::vector<std::string> embedded_paths();
std::string embedded_file_text(const std::string& path);
std::string embedded_source(const std::string& path);

// Library programs built with -cl-kernel-arg-info (apart in the program cache: the option is part
// of the key) and each library kernel's parameters, when it is made, compared with the host's
// list for it (detail::Signature): a difference is a std::logic_error. Off by default.
void set_check_kernel_args(bool on);
bool check_kernel_args();
// Since the check was last turned on: the kernels of every program built through the library, and
// those of them that were made, so compared.
struct KernelCoverage {
  std::set<std::string> built, checked;
};
KernelCoverage kernel_coverage();

// Builds one of the library's own kernel files ("kernels/reduce.cl") as the algorithms do.
cl_program build_library_file(const Runtime& rt, const std::string& path, const std::string& extra_options = {});

}  // namespace clatomics::testing
