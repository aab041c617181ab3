// The testing hooks that are not part of another concern's file.
#include "core/testing.hpp"

#include <atomic>
#include <cstdint>
#include <stdexcept>

#include "core/runtime_state.hpp"
#include "core/source_text.hpp"

namespace clatomics::testing {
namespace {

std::atomic<std::size_t> chunk_bytes{0};
std::atomic<std::uint64_t> launch_elements{0};
std::atomic<bool> merge_32bit{false};
std::atomic<CompactPath> compact_path{CompactPath::automatic};
std::atomic<std::size_t> compact_group{0}, compact_per_item{0};
std::atomic<std::size_t> failing_chunk{SIZE_MAX};
std::atomic<PinnedStaging> staging{PinnedStaging::automatic};
std::atomic<ScatterRows> rows{ScatterRows::automatic};
std::atomic<ScatterFinish> finish{ScatterFinish::automatic};

}  // namespace

StreamLimits stream_limits() { return {chunk_bytes.load(), launch_elements.load(), merge_32bit.load()}; }

void set_stream_limits(const StreamLimits& limits) {
  // The kernels count a launch in 32 bits (kernels/histogram/share_loop.cl's uint load loop, __local counts).
  if (limits.launch_elements > (std::uint64_t(1) << 31))
    throw std::invalid_argument("clatomics: StreamLimits::launch_elements must be at most 2^31");
  chunk_bytes = limits.chunk_bytes;
  launch_elements = limits.launch_elements;
  merge_32bit = limits.merge_32bit;
}

std::size_t failing_group_chunk() { return failing_chunk.load(); }
void set_failing_group_chunk(std::size_t chunk) { failing_chunk = chunk; }

PinnedStaging pinned_staging() { return staging.load(); }
void set_pinned_staging(PinnedStaging s) { staging = s; }

ScatterRows scatter_rows() { return rows.load(); }
void set_scatter_rows(ScatterRows r) { rows = r; }

ScatterFinish scatter_finish() { return finish.load(); }
void set_scatter_finish(ScatterFinish f) { finish = f; }

CompactPlan compact_plan() { return {compact_path.load(), compact_group.load(), compact_per_item.load()}; }

void set_compact_plan(const CompactPlan& plan) {
  if (plan.per_item > 32 || (plan.group & (plan.group - 1)))
    throw std::invalid_argument("clatomics: CompactPlan: group must be a power of two, per_item at most 32");
  compact_path = plan.path;
  compact_group = plan.group;
  compact_per_item = plan.per_item;
}

std::unique_ptr<Runtime> runtime_with_failing_checks(Options options, const std::vector<std::string>& checks) {
  return detail::runtime_from_state(detail::make_state(std::move(options), checks));
}

std::vector<std::string> embedded_paths() {
  std::vector<std::string> paths;
  for (const auto path : detail::embedded_paths()) paths.emplace_back(path);
  return paths;
}

std::string embedded_file_text(const std::string& path) {
  const auto* text = detail::embedded_file(path);
  if (!text) throw std::invalid_argument("clatomics: no embedded OpenCL file '" + path + "'");
  return std::string(*text);
}

std::string embedded_source(const std::string& path) { return detail::embedded_source(path); }

cl_program build_library_file(const Runtime& rt, const std::string& path, const std::string& extra_options) {
  return detail::build_library_file(rt, path, extra_options).release();
}

}  // namespace clatomics::testing
