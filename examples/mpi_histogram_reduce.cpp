// mpi_histogram_reduce: many processes, each with its own device, each with a shard of the data;
// MPI combines their partial results, and every rank checks them against one process over all
// the data: the histogram counts equal, the deterministic float sum equal bit for bit, and a
// scatter_reduce (np.add.at, index_add_) of the shards' (index, value) pairs into one output as
// one process's: integer means exactly, float sums bit for bit as the shards merged in order;
// and a reduce_by_key over sorted keys whose runs cross the ranks' cuts, its integer means and
// maxima as one process's, exactly. The dot product's last bits vary from run to run (one atomic
// add per work-group), so its ranks' sum is checked for the same bits on every rank and against
// an exact sum within a stated bound.
//   mpirun -np 2 ./mpi_histogram_reduce            (CTest: --oversubscribe, as root too)
//   mpirun -np 2 ./mpi_histogram_reduce --mismatch (rank r asks for 100 + r bins: refused on
//                                                   every rank before anything is reduced)
//   mpirun -np 2 ./mpi_histogram_reduce --mismatch-range (rank r bins [-500, 500 + r]: refused)
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "clatomics/clatomics.hpp"
#include "clatomics/mpi.hpp"

namespace {

// The whole data set, reproducible on every rank: element i depends on i alone.
float value_at(std::size_t i) {
  std::uint32_t x = std::uint32_t(i) * 2654435761u;
  x ^= x >> 13;
  return float(x % 1000003u) * 1e-3f - 500.0f;
}

// Where element i goes in the scatter: bin depends on i alone.
cl_uint bin_at(std::size_t i) { return cl_uint((std::uint64_t(i) * 40503u) % 1009u); }

// The sorted key of element i (runs of 37 or 38 elements, so some cross every rank's cut).
cl_uint key_at(std::size_t i) { return cl_uint(std::uint64_t(i) * 1000 / 37501); }

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

int run(int rank, int ranks, bool bins_differ, bool ranges_differ) {
  clatomics::Runtime rt;  // each rank its own device: CLATOMICS_DEVICE, else GPU, else CPU
  const std::size_t n = 1000003, tile = clatomics::reduce_tile, tiles = (n + tile - 1) / tile;
  // This rank's shard, cut at whole tiles so that the deterministic sum's bits do not depend on it.
  const std::size_t first = std::min(n, tiles * rank / ranks * tile), end = std::min(n, tiles * (rank + 1) / ranks * tile);
  std::vector<float> shard(end - first);
  for (std::size_t i = first; i < end; ++i) shard[i - first] = value_at(i);

  // --- the twenty lines a user copies: partial results, then MPI ---
  const std::size_t nbins = bins_differ ? 100 + rank : 100;
  const float hi = ranges_differ ? 500.0f + float(rank) : 500.0f;
  clatomics::EvenHistogram hist = clatomics::histogram_even(rt, shard, {nbins, -500.0f, hi});
  clatomics::mpi::allreduce(hist, MPI_COMM_WORLD);  // counts and tallies added over the ranks
  const clatomics::ReducePartial<float> part =
      clatomics::reduce_partial<float>(rt, shard, clatomics::ReduceOp::sum, first, clatomics::ReduceOptions{true});
  const float sum = clatomics::mpi::allreduce(part, MPI_COMM_WORLD);  // the tree finished on every rank
  std::vector<cl_uint> bins(shard.size());
  std::vector<cl_int> counts(shard.size());
  for (std::size_t i = first; i < end; ++i) bins[i - first] = bin_at(i), counts[i - first] = cl_int(shard[i - first]);
  clatomics::ScatterOptions deterministic;
  deterministic.deterministic = true;
  auto means = clatomics::scatter_reduce_partial(rt, 1009, bins, counts, clatomics::ScatterOp::mean);
  auto sums = clatomics::scatter_reduce_partial(rt, 1009, bins, shard, clatomics::ScatterOp::sum, deterministic);
  clatomics::mpi::allreduce(means, MPI_COMM_WORLD);  // merged in rank order on every rank
  clatomics::mpi::allreduce(sums, MPI_COMM_WORLD);
  std::vector<cl_int> out_means(1009, 7);
  std::vector<float> out_sums(1009, 0.5f);
  clatomics::finish_scatter(out_means, means);  // out as one scatter_reduce over all the data leaves it
  clatomics::finish_scatter(out_sums, sums);
  std::vector<cl_uint> keys(shard.size());
  for (std::size_t i = first; i < end; ++i) keys[i - first] = key_at(i);
  auto key_means = clatomics::reduce_by_key_partial(rt, keys, counts, clatomics::ScatterOp::mean);
  auto key_max = clatomics::reduce_by_key_partial(rt, keys, shard, clatomics::ScatterOp::max);
  clatomics::mpi::allreduce(key_means, MPI_COMM_WORLD);  // the runs merged in rank order, a run cut by ranks joined
  clatomics::mpi::allreduce(key_max, MPI_COMM_WORLD);
  const auto by_key_means = clatomics::finish_by_key(key_means);  // as one reduce_by_key over all the data
  const auto by_key_max = clatomics::finish_by_key(key_max);
  clatomics::EvenHistogram2D hist2d = clatomics::histogram2d_even(rt, shard, shard, clatomics::EvenBins<float>{30, -500.0f, 500.0f},
                                                                  clatomics::EvenBins<float>{20, 0.0f, 400.0f});
  clatomics::mpi::allreduce(hist2d, MPI_COMM_WORLD);
  clatomics::CompactOptions stable;
  stable.stable = true;
  const std::vector<float> kept = clatomics::mpi::concatenate(clatomics::compact(rt, shard, clatomics::where::x > 490.0f, stable), MPI_COMM_WORLD);
  const float dot = clatomics::mpi::sum(clatomics::dot(rt, shard, shard), MPI_COMM_WORLD);  // the ranks' dots added in rank order
  // --- end ---

  std::vector<float> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = value_at(i);
  const clatomics::EvenHistogram one = clatomics::histogram_even(rt, all, {nbins, -500.0f, hi});
  const float one_sum = clatomics::reduce<float>(rt, all, clatomics::ReduceOp::sum, clatomics::ReduceOptions{true});
  // One process: the integer mean over all the data, and the float sums of the same shards
  // merged in rank order.
  std::vector<cl_uint> all_bins(n);
  std::vector<cl_int> all_counts(n);
  for (std::size_t i = 0; i < n; ++i) all_bins[i] = bin_at(i), all_counts[i] = cl_int(all[i]);
  std::vector<cl_int> one_means(1009, 7);
  clatomics::scatter_reduce(rt, one_means, all_bins, all_counts, clatomics::ScatterOp::mean);
  clatomics::ScatterPartial<float> one_sums_part;
  for (int r = 0; r < ranks; ++r) {
    const std::size_t a = std::min(n, tiles * r / ranks * tile), b = std::min(n, tiles * (r + 1) / ranks * tile);
    auto p = clatomics::scatter_reduce_partial(rt, 1009, std::vector<cl_uint>(all_bins.begin() + a, all_bins.begin() + b),
                                               std::vector<float>(all.begin() + a, all.begin() + b), clatomics::ScatterOp::sum,
                                               deterministic);
    if (r == 0) one_sums_part = p;
    else clatomics::merge_into(one_sums_part, p);
  }
  std::vector<float> one_sums(1009, 0.5f);
  clatomics::finish_scatter(one_sums, one_sums_part);
  std::vector<cl_uint> all_keys(n);
  for (std::size_t i = 0; i < n; ++i) all_keys[i] = key_at(i);
  const auto one_key_means = clatomics::reduce_by_key(rt, all_keys, all_counts, clatomics::ScatterOp::mean);
  const auto one_key_max = clatomics::reduce_by_key(rt, all_keys, all, clatomics::ScatterOp::max);
  const bool by_key_ok = by_key_means == one_key_means && by_key_max == one_key_max && by_key_means.first.size() > 1000;
  const clatomics::EvenHistogram2D one2d = clatomics::histogram2d_even(rt, all, all, clatomics::EvenBins<float>{30, -500.0f, 500.0f},
                                                                       clatomics::EvenBins<float>{20, 0.0f, 400.0f});
  const std::vector<float> one_kept = clatomics::compact(rt, all, clatomics::where::x > 490.0f, stable);
  double exact_dot = 0;  // float products are exact in double; 1e6 of them add with ~1e-10 relative error
  for (const float v : all) exact_dot += double(v) * double(v);
  // Each work-item adds its share of the products in float, in sequence (n / (work-items * 16) of
  // them, about 7,800 on a CPU with 8 work-items): 1e-3 of the sum is 20 times the error that allows.
  const bool dot_close = std::abs(double(dot) - exact_dot) <= 1e-3 * exact_dot;
  std::uint32_t dot_bits = 0;
  std::memcpy(&dot_bits, &dot, sizeof dot);
  std::uint32_t lowest_bits = 0, highest_bits = 0;
  MPI_Allreduce(&dot_bits, &lowest_bits, 1, MPI_UINT32_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&dot_bits, &highest_bits, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
  const bool sums_same = std::memcmp(out_sums.data(), one_sums.data(), one_sums.size() * sizeof(float)) == 0;
  const std::pair<const char*, bool> checks[] = {
      {"histogram counts and tallies", hist.counts == one.counts && hist.below == one.below && hist.above == one.above && hist.nan == one.nan},
      {"deterministic sum bits", same_bits(sum, one_sum)},
      {"scatter integer means", out_means == one_means},
      {"scatter deterministic float sums bits", sums_same},
      {"reduce_by_key means and maxima", by_key_ok},
      {"2-D histogram counts and tallies", hist2d.counts == one2d.counts && hist2d.outside == one2d.outside &&
                                               hist2d.x.below == one2d.x.below && hist2d.y.above == one2d.y.above},
      {"stable compaction", kept == one_kept && !kept.empty()},
      {"dot within 1e-3 of the exact sum", dot_close},
      {"dot the same bits on every rank", lowest_bits == highest_bits},
  };
  bool ok = true;
  for (const auto& [what, passed] : checks) {
    if (!passed) std::fprintf(stderr, "rank %d: failed: %s\n", rank, what);
    ok = ok && passed;
  }
  if (rank == 0)
    std::printf("ranks: %d, elements: %zu, device of rank 0: %s\nsum over the ranks %.9g, one process %.9g (%s bits)\n", ranks, n,
                rt.device_info().caps.device_name.c_str(), double(sum), double(one_sum), same_bits(sum, one_sum) ? "same" : "different");
  if (rank == 0)
    std::printf("scatter over the ranks: integer means %s one process's, float sums %s bits as the shards merged in order\n",
                out_means == one_means ? "equal" : "differ from", sums_same ? "the same" : "not the same");
  if (rank == 0)
    std::printf("reduce_by_key over the ranks: %zu runs, integer means and float maxima %s one process's\n", by_key_means.first.size(),
                by_key_ok ? "equal" : "differ from");
  if (rank == 0) std::printf("dot over the ranks: %.2e from the exact sum (relative)\n", std::abs(double(dot) - exact_dot) / exact_dot);
  int all_ok = 0, mine = ok ? 1 : 0;
  MPI_Allreduce(&mine, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) std::cout << (all_ok ? "mpi_histogram_reduce: PASS\n" : "mpi_histogram_reduce: FAIL\n");
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool bins_differ = argc > 1 && std::strcmp(argv[1], "--mismatch") == 0;
  const bool ranges_differ = argc > 1 && std::strcmp(argv[1], "--mismatch-range") == 0;
  const bool mismatch = bins_differ || ranges_differ;
  int status = 1;
  try {
    status = run(rank, ranks, bins_differ, ranges_differ);
    if (mismatch) status = 1;  // the mismatch must be refused
  } catch (const std::invalid_argument& e) {
    if (rank == 0) std::cout << "refused: " << e.what() << "\n";
    if (mismatch && rank == 0) std::cout << "mpi_histogram_reduce: PASS (refused)\n";
    status = mismatch ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "rank " << rank << ": " << e.what() << "\n";
  }
  MPI_Finalize();
  return status;
}
