// One histogram being accumulated on the device: the counting kernel's launches over ranges of
// positions, each launch's 32-bit counts merged into the 64-bit totals, the totals and weight sums
// read back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "groups/started.hpp"
#include "histogram/plan.hpp"

namespace clatomics::detail::hist {

// What one launch reads: positions (and a second axis' positions), weight channels.
struct Inputs {
  cl_mem values = nullptr;
  std::size_t offset = 0;
  cl_mem y = nullptr;
  std::size_t y_offset = 0;
  std::vector<WeightRange> weights;
};

// Every add() counts a range in launches below 2^32 elements, each merged into the 64-bit totals
// on the device; totals() reads them once. Its commands are one chain (detail::Commands), so the
// reads come after every launch on any queue.
class Run {
 public:
  Run(Runtime& rt, const Setup& setup, HistogramOptions options);
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Allocates and zeroes the counters: call after every check, right before the first add().
  // A run never started has nothing on the device: its totals and sums are zeros.
  void start();
  bool started() const { return bool(totals_); }
  void add(const Inputs& in, std::size_t count);
  // Copies host data into a staging buffer, in this run's order of commands.
  void write(cl_mem buffer, std::size_t bytes, const void* host) { commands_.write(buffer, 0, bytes, host); }

  // The totals once the run's commands have finished (the run's buffers may go before).
  Pending<std::vector<std::uint64_t>> totals_later();
  std::vector<std::uint64_t> totals() { return totals_later().get(); }
  HistogramStrategy strategy() const { return plan_.strategy; }
  // Per channel, the bins' sums in double (compensated pairs read as hi + lo, copies added up).
  std::vector<std::vector<double>> weight_sums();

 private:
  Mem edges_buffer(const std::vector<double>& edges);
  // P: the kernel's position type (CLAT_POS).
  template <class P>
  void add_as(const Inputs& in, std::size_t count);

  Runtime& rt_;
  Setup setup_;
  Plan plan_;
  std::size_t slots_;
  Commands commands_;
  LibraryKernel kernel_, merge_;
  Mem counts_, totals_, wtotals_, edges_x_, edges_y_;
};

}  // namespace clatomics::detail::hist
