// clatomics/mpi.hpp — partial results (each algorithm's header declares its own) combined across MPI ranks. Header-only: the
// library never links MPI; include this where you include <mpi.h> and link MPI yourself.
//
// Every rank calls each function with its own part; every rank gets the whole result. Counts add
// exactly (64-bit); a deterministic float sum or product is gathered as its tile values and
// finished by the same tree on every rank, so the bits equal one process over all the data
// however the ranks split it (at multiples of clatomics::reduce_tile). Ranks whose parts do not
// fit together (different bin counts, histogram ranges, edges or weight channels, ops, or
// kinds) are refused on every rank before anything is reduced: std::invalid_argument, the same
// on all ranks.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "clatomics/algorithms.hpp"

namespace clatomics::mpi {

template <class T>
MPI_Datatype datatype() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int32_t>) return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return MPI_UINT32_T;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else {
    static_assert(std::is_same_v<T, std::uint64_t>, "clatomics::mpi: float, double or 32/64-bit integers");
    return MPI_UINT64_T;
  }
}

// Refuses on every rank unless every rank passed the same value (a NaN matches none). V: a type
// datatype() knows.
template <class V>
void require_same(V value, const std::string& what, MPI_Comm comm) {
  V least{}, most{};
  MPI_Allreduce(&value, &least, 1, datatype<V>(), MPI_MIN, comm);
  MPI_Allreduce(&value, &most, 1, datatype<V>(), MPI_MAX, comm);
  int mismatched = least == most && value == least ? 0 : 1, any = 0;  // MIN and MAX may pass a NaN over
  MPI_Allreduce(&mismatched, &any, 1, MPI_INT, MPI_MAX, comm);
  if (any) {
    std::ostringstream text;  // every digit: two ranges of small doubles must not read alike
    text << std::setprecision(std::numeric_limits<V>::max_digits10) << "clatomics::mpi: the ranks' " << what << " differ (" << least
         << " to " << most << "): refused before reducing";
    throw std::invalid_argument(text.str());
  }
}

// Counts: added over the ranks, in place.
inline void allreduce(std::vector<std::uint64_t>& counts, MPI_Comm comm) {
  require_same(std::uint64_t(counts.size()), "bin counts", comm);
  MPI_Allreduce(MPI_IN_PLACE, counts.data(), int(counts.size()), MPI_UINT64_T, MPI_SUM, comm);
}

// An even histogram: counts and the below/above/NaN tallies exactly, weight sums in double.
inline void allreduce(EvenHistogram& h, MPI_Comm comm) {
  require_same(std::uint64_t(h.counts.size()), "bin counts", comm);
  require_same(std::uint64_t(h.sums.size()), "weight channels", comm);
  require_same(h.lo, "histogram ranges (lo)", comm);
  require_same(h.hi, "histogram ranges (hi)", comm);
  require_same(std::uint64_t(h.edges), "histogram edge computations", comm);
  std::uint64_t tallies[3] = {h.below, h.above, h.nan};
  allreduce(h.counts, comm);
  MPI_Allreduce(MPI_IN_PLACE, tallies, 3, MPI_UINT64_T, MPI_SUM, comm);
  h.below = tallies[0], h.above = tallies[1], h.nan = tallies[2];
  for (auto& channel : h.sums) MPI_Allreduce(MPI_IN_PLACE, channel.data(), int(channel.size()), MPI_DOUBLE, MPI_SUM, comm);
}

// A key histogram: counts and the out-of-range tally added over the ranks.
inline void allreduce(KeyHistogram& h, MPI_Comm comm) {
  allreduce(h.counts, comm);
  MPI_Allreduce(MPI_IN_PLACE, &h.out_of_range, 1, MPI_UINT64_T, MPI_SUM, comm);
}

// A 2-D even histogram: counts and tallies exactly, weight sums in double; every rank's bins,
// ranges and edge computations must agree.
inline void allreduce(EvenHistogram2D& h, MPI_Comm comm) {
  require_same(std::uint64_t(h.nx), "2-D histogram x bins", comm);
  require_same(std::uint64_t(h.ny), "2-D histogram y bins", comm);
  for (const double bound : {h.x_lo, h.x_hi, h.y_lo, h.y_hi}) require_same(bound, "2-D histogram ranges", comm);
  require_same(std::uint64_t(h.x_edges), "2-D histogram edge computations (x)", comm);
  require_same(std::uint64_t(h.y_edges), "2-D histogram edge computations (y)", comm);
  require_same(std::uint64_t(h.sums.size()), "weight channels", comm);
  allreduce(h.counts, comm);
  std::uint64_t tallies[7] = {h.x.below, h.x.above, h.x.nan, h.y.below, h.y.above, h.y.nan, h.outside};
  MPI_Allreduce(MPI_IN_PLACE, tallies, 7, MPI_UINT64_T, MPI_SUM, comm);
  h.x = {tallies[0], tallies[1], tallies[2]}, h.y = {tallies[3], tallies[4], tallies[5]}, h.outside = tallies[6];
  for (auto& channel : h.sums) MPI_Allreduce(MPI_IN_PLACE, channel.data(), int(channel.size()), MPI_DOUBLE, MPI_SUM, comm);
}

// A reduction: every rank's part gathered (a few values per rank, or one per tile), then merged
// by merge_reduce on every rank.
template <class T>
T allreduce(const ReducePartial<T>& mine, MPI_Comm comm) {
  require_same(std::uint64_t(mine.op), "reduce ops", comm);
  require_same(std::uint64_t(mine.tiled ? 1 : 0), "reduction kinds (deterministic or not)", comm);
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  const std::uint64_t header[3] = {mine.first, mine.count, mine.values.size()};
  std::vector<std::uint64_t> headers(3 * std::size_t(ranks));
  MPI_Allgather(header, 3, MPI_UINT64_T, headers.data(), 3, MPI_UINT64_T, comm);
  std::vector<int> sizes(ranks), offsets(ranks);
  std::size_t total = 0;
  for (int r = 0; r < ranks; ++r) sizes[r] = int(headers[3 * r + 2]), offsets[r] = int(total), total += sizes[r];
  std::vector<T> values(total);
  MPI_Allgatherv(mine.values.data(), int(mine.values.size()), datatype<T>(), values.data(), sizes.data(), offsets.data(), datatype<T>(),
                 comm);
  std::vector<ReducePartial<T>> parts(ranks);
  for (int r = 0; r < ranks; ++r) {
    parts[r] = {mine.op, mine.tiled, headers[3 * r], headers[3 * r + 1], {}};
    parts[r].values.assign(values.begin() + offsets[r], values.begin() + offsets[r] + sizes[r]);
  }
  return merge_reduce<T>(std::move(parts));
}

// Elements of v sent, received or broadcast in pieces that fit MPI's int counts.
template <class T>
void send_all(std::vector<T>& v, int peer, int how, MPI_Comm comm) {  // how: 0 send, 1 receive, else broadcast from peer
  constexpr std::size_t piece = std::size_t(1) << 30;
  for (std::size_t at = 0; at < v.size(); at += piece) {
    const int n = int(std::min(piece, v.size() - at));
    if (how == 0) MPI_Send(v.data() + at, n, datatype<T>(), peer, 0, comm);
    else if (how == 1) MPI_Recv(v.data() + at, n, datatype<T>(), peer, 0, comm, MPI_STATUS_IGNORE);
    else MPI_Bcast(v.data() + at, n, datatype<T>(), peer, comm);
  }
}

// Every rank's elements joined in rank order (compact()'s kept elements of each rank's part),
// the same on every rank.
template <class T>
std::vector<T> concatenate(const std::vector<T>& mine, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::vector<T> all;
  for (int r = 0; r < ranks; ++r) {
    std::uint64_t n = mine.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, r, comm);
    std::vector<T> part = r == rank ? mine : std::vector<T>(n);
    send_all(part, r, 2, comm);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

// Every rank's value added in rank order (dot() of each rank's part): the same bits on every
// rank, whatever the MPI implementation.
template <class T>
T sum(T mine, MPI_Comm comm) {
  std::vector<T> all = concatenate(std::vector<T>{mine}, comm);
  T total = all.front();
  for (std::size_t r = 1; r < all.size(); ++r) total += all[r];
  return total;
}

// mine becomes every rank's partial merged in rank order by merge_into: a rank receives the merge
// of the ranks before it from rank - 1 (into before, which has mine's shape), merges its own
// after it and passes the result to rank + 1; the last rank's is broadcast to all. pass(p, peer,
// how) moves one partial as send_all moves a vector.
template <class P, class Pass>
void merge_in_rank_order(P& mine, P before, const Pass& pass, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (rank > 0) {
    pass(before, rank - 1, 1);
    merge_into(before, mine);
    mine = std::move(before);
  }
  if (rank + 1 < ranks) pass(mine, rank + 1, 0);
  pass(mine, ranks - 1, 2);
}

// A scatter_reduce's partial results (scatter.hpp): every rank's merged in rank order, as
// merge_into merges them (rank 0's values first; a rank passes the merge of the ranks before it
// and its own to the next, and the last rank's is sent to all), so the result's bits depend on
// the ranks' parts alone, never on the MPI implementation. Every rank then holds the whole
// partial; finish_scatter applies it to out. Ranks whose ops, bins, widths, include_self or NaN
// rules differ are refused on every rank before anything is merged.
template <class O>
void allreduce(ScatterPartial<O>& mine, MPI_Comm comm) {
  require_same(std::uint64_t(mine.op), "scatter ops", comm);
  require_same(std::uint64_t(mine.bins), "scatter bins", comm);
  require_same(std::uint64_t(mine.width), "scatter widths", comm);
  require_same(std::uint64_t(mine.options.include_self), "scatter include_self", comm);
  require_same(std::uint64_t(mine.options.nan), "scatter NaN rules", comm);
  require_same(std::uint64_t(mine.counts.size()), "scatter counts", comm);
  // What travels: the values, the counts, and {out_of_range, any, strategy}.
  const auto pass = [&](ScatterPartial<O>& p, int peer, int how) {
    std::vector<std::uint64_t> head = {p.result.out_of_range, p.any ? 1u : 0u, std::uint64_t(p.result.strategy)};
    send_all(head, peer, how, comm);
    send_all(p.values, peer, how, comm);
    send_all(p.counts, peer, how, comm);
    p.result.out_of_range = head[0], p.any = head[1] != 0, p.result.strategy = ScatterStrategy(head[2]);
  };
  merge_in_rank_order(mine, mine, pass, comm);
}

// A reduce_by_key's partial results (reduce_by_key.hpp): every rank's runs merged in rank order, as
// merge_into merges them (rank 0's elements first; the same chain as ScatterPartial's, each rank
// sending its run count ahead of its runs), so a run that crosses ranks joins as one process
// finds it and the bits depend on the ranks' parts alone. Every rank then holds the whole
// partial; finish_by_key gives the keys and reductions. Ranks whose ops or NaN rules differ are
// refused on every rank before anything is merged.
template <class K, class O>
void allreduce(ByKeyPartial<K, O>& mine, MPI_Comm comm) {
  require_same(std::uint64_t(mine.op), "reduce_by_key ops", comm);
  require_same(std::uint64_t(mine.options.nan), "reduce_by_key NaN rules", comm);
  // What travels: {runs, lengths}, then the keys, the values and the lengths.
  const auto pass = [&](ByKeyPartial<K, O>& p, int peer, int how) {
    std::vector<std::uint64_t> head = {p.keys.size(), p.lengths.size()};
    send_all(head, peer, how, comm);
    p.keys.resize(head[0]), p.values.resize(head[0]), p.lengths.resize(head[1]);
    send_all(p.keys, peer, how, comm);
    send_all(p.values, peer, how, comm);
    send_all(p.lengths, peer, how, comm);
  };
  ByKeyPartial<K, O> before;  // no runs yet: the ranks before this one fill it
  before.op = mine.op, before.options = mine.options;
  merge_in_rank_order(mine, std::move(before), pass, comm);
}

}  // namespace clatomics::mpi
