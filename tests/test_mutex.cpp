// clat_mutex_lock/unlock/trylock used as their rule says (one work-item per work-group): a
// multi-word record updated with plain reads and writes under the lock must come out exact.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "support.hpp"

namespace {

const cl::Program& program() {
  static const cl::Program p = test::runtime().build(test::test_source("mutex.cl"));
  return p;
}

struct RecordRun {
  std::vector<cl_uint> rec, log;
  cl_int mutex = -1;
};

RecordRun run_record(std::size_t groups, cl_uint rounds, const std::vector<cl_uint>& values) {
  auto& rt = test::runtime();
  const std::size_t group = test::group_size();
  cl::Buffer mutex = test::to_device(rt, std::vector<cl_int>{0});
  cl::Buffer rec = test::to_device(rt, std::vector<cl_uint>(3, 0));
  cl::Buffer log = test::to_device(rt, std::vector<cl_uint>(groups * rounds, 0xFFFFFFFFu));
  cl::Buffer vals = test::to_device(rt, values);
  cl::Kernel kernel(program(), "mutex_record");
  test::set_args(kernel, mutex, rec, log, vals, rounds);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * group), cl::NDRange(group));
  RecordRun out;
  out.rec = test::to_host<cl_uint>(rt, rec, 3);
  out.log = test::to_host<cl_uint>(rt, log, groups * rounds);
  out.mutex = test::to_host<cl_int>(rt, mutex, 1)[0];
  return out;
}

struct TryRun {
  std::vector<cl_uint> got;
  cl_uint count = 0;
  cl_int mutex = -1;
};

TryRun run_try(std::size_t groups, cl_int initial, bool hold) {
  auto& rt = test::runtime();
  cl::Buffer mutex = test::to_device(rt, std::vector<cl_int>{initial});
  cl::Buffer rec = test::to_device(rt, std::vector<cl_uint>{0});
  cl::Buffer got = test::to_device(rt, std::vector<cl_uint>(groups, 7));
  cl::Kernel kernel(program(), "mutex_try");
  test::set_args(kernel, mutex, rec, got, cl_uint(hold ? 1 : 0));
  const std::size_t group = test::group_size();
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * group), cl::NDRange(group));
  TryRun out;
  out.got = test::to_host<cl_uint>(rt, got, groups);
  out.count = test::to_host<cl_uint>(rt, rec, 1)[0];
  out.mutex = test::to_host<cl_int>(rt, mutex, 1)[0];
  return out;
}

}  // namespace

TEST_CASE("leaders update a multi-word record under the lock: exact count, 64-bit sum and log") {
  const std::size_t groups = 512, group = test::group_size();
  const cl_uint rounds = 16;
  // Values near 2^32 / group: each group's wrapped sum is close to 2^32, so almost every update
  // carries into the high word and a torn update would show.
  std::vector<cl_uint> values(groups * group);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = cl_uint(0xFFFFFFFFu / group - (i * 2654435761u) % 4096u);
  std::vector<std::uint64_t> group_sum(groups, 0);
  for (std::size_t i = 0; i < values.size(); ++i) group_sum[i / group] = cl_uint(group_sum[i / group] + values[i]);
  const std::uint64_t expected_sum = rounds * std::accumulate(group_sum.begin(), group_sum.end(), std::uint64_t{0});

  const RecordRun r = run_record(groups, rounds, values);
  CHECK(r.rec[0] == groups * rounds);
  CHECK(((std::uint64_t(r.rec[2]) << 32) | r.rec[1]) == expected_sum);
  std::vector<std::size_t> per_group(groups, 0);
  bool in_range = true;
  for (cl_uint g : r.log) {
    in_range = in_range && g < groups;
    if (g < groups) ++per_group[g];
  }
  CHECK(in_range);  // every slot written once: no slot left at 0xFFFFFFFF, none out of range
  CHECK(std::count(per_group.begin(), per_group.end(), std::size_t(rounds)) == std::ptrdiff_t(groups));
  CHECK(r.mutex == 0);  // released
}

TEST_CASE("trylock: fails on a held lock, and exactly the winners count under it") {
  const std::size_t groups = 256;
  SUBCASE("held from the start: every try fails, nothing is counted") {
    const TryRun t = run_try(groups, 1, false);
    CHECK(std::accumulate(t.got.begin(), t.got.end(), 0u) == 0u);
    CHECK(t.count == 0u);
    CHECK(t.mutex == 1);
  }
  SUBCASE("the first winner keeps it: exactly one group gets it") {
    const TryRun t = run_try(groups, 0, true);
    CHECK(std::accumulate(t.got.begin(), t.got.end(), 0u) == 1u);
    CHECK(t.count == 1u);
    CHECK(t.mutex == 1);
  }
  SUBCASE("winners release it: at least one wins, and the count equals the winners") {
    const TryRun t = run_try(groups, 0, false);
    const cl_uint winners = std::accumulate(t.got.begin(), t.got.end(), 0u);
    CHECK(winners >= 1u);
    CHECK(std::all_of(t.got.begin(), t.got.end(), [](cl_uint v) { return v <= 1u; }));
    CHECK(t.count == winners);
    CHECK(t.mutex == 0);
  }
}
