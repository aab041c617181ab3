// Histograms: a strategy per device (kernels/histogram.cl), 32-bit counts per launch merged
// into 64-bit totals on the device; sizes checked against the device's and the host's memory
// before anything is allocated.
#include "clatomics/histogram.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include <unistd.h>

#include "buffer_checks.hpp"
#include "launch.hpp"
#include "runtime_state.hpp"

namespace clatomics {
namespace {

enum class Kind { bytes = 0, keys = 1, even = 2 };

constexpr std::size_t max_private_counters = 16384;  // 64 KiB of private counters per work-item
constexpr std::size_t auto_private_slots = 4096;     // CPUs: private counters up to this many slots
constexpr std::size_t max_copies = 32;               // __local copies per work-group (one per bank)
constexpr std::size_t max_nbins = (std::size_t(1) << 32) - 4;

struct Setup {
  Kind kind = Kind::bytes;
  std::size_t nbins = 256;
  bool weighted = false;
  float lo = 0, hi = 0, scale = 0;
  std::vector<float> edges;  // even bins: the nbins + 1 edges as NumPy computes them for float32
  std::size_t slots() const { return kind == Kind::bytes ? 256 : kind == Kind::keys ? nbins + 1 : nbins + 3; }
};

const char* strategy_name(HistogramStrategy s) {
  switch (s) {
    case HistogramStrategy::automatic: return "automatic";
    case HistogramStrategy::local_replicated: return "local_replicated";
    case HistogramStrategy::local_single: return "local_single";
    case HistogramStrategy::global_atomics: return "global_atomics";
    case HistogramStrategy::private_per_item: return "private_per_item";
  }
  throw std::invalid_argument("clatomics: histogram: options.strategy is not a HistogramStrategy");
}

std::size_t ceil_pow2(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// The resolved strategy and what its kernel is built and launched with.
struct Plan {
  HistogramStrategy strategy = HistogramStrategy::global_atomics;
  unsigned shift = 0;         // local: 1 << shift copies
  std::size_t group = 1, max_groups = 1;
  std::size_t fill_items = 0;  // when set: max_groups = fill_items / the group size the kernel allows
  std::size_t slots_cap = 256, copies = 1;  // private: counters per copy, copies per work-item
  const char* kernel = "clat_hist_global";
  bool direct = false;  // groups add into the 64-bit totals themselves: no 32-bit counts, no merge
  std::string options;
};

Plan make_plan(const Runtime& rt, const Setup& setup, HistogramStrategy asked) {
  strategy_name(asked);
  const auto& caps = rt.device_info().caps;
  const bool gpu = caps.is_gpu();
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const std::size_t slots = setup.slots();
  Plan plan;
  // __local: the largest power-of-two number of copies (<= 32 and <= the group) that fits.
  const std::size_t local_group = detail::floor_pow2(std::min<std::size_t>(gpu ? 1024 : 16, caps.max_work_group_size));
  const std::size_t slot_bytes = setup.weighted ? 8 : 4;
  std::size_t copies = 0;
  for (std::size_t c = std::min(max_copies, local_group); c >= 1 && !copies; c /= 2)
    if (slots <= caps.local_mem_size / (c * slot_bytes)) copies = c;
  // private: 4 copies for bytes (the four bytes of a word count into different copies).
  const std::size_t private_copies = setup.kind == Kind::bytes && !gpu ? 4 : 1;
  const std::size_t private_cap = std::max<std::size_t>(64, ceil_pow2(slots));
  const bool private_fits = slots <= max_private_counters && private_cap * private_copies <= max_private_counters;

  HistogramStrategy s = asked;
  if (s == HistogramStrategy::automatic) {
    if (gpu)
      s = copies >= 2 ? HistogramStrategy::local_replicated : copies == 1 ? HistogramStrategy::local_single : HistogramStrategy::global_atomics;
    else
      s = private_fits && slots <= auto_private_slots ? HistogramStrategy::private_per_item
          : copies >= 1                               ? HistogramStrategy::local_single
                                                      : HistogramStrategy::global_atomics;
  }
  switch (s) {
    case HistogramStrategy::local_replicated:
    case HistogramStrategy::local_single: {
      if (!copies)
        throw std::invalid_argument("clatomics: histogram: options.strategy " + std::string(strategy_name(s)) + ": " +
                                    std::to_string(slots) + " slots do not fit in " + std::to_string(caps.local_mem_size) +
                                    " bytes of __local memory");
      if (s == HistogramStrategy::local_single) copies = 1;
      while ((std::size_t(1) << plan.shift) < copies) ++plan.shift;
      plan.kernel = "clat_hist_local";
      plan.group = local_group;
      plan.max_groups = 4 * cu;
      if (gpu) plan.fill_items = cu * 2048;  // a full GPU: 2048 resident work-items per compute unit
      break;
    }
    case HistogramStrategy::private_per_item:
      if (!private_fits)
        throw std::invalid_argument("clatomics: histogram: options.strategy private_per_item: " + std::to_string(slots) +
                                    " slots exceed " + std::to_string(max_private_counters) + " private counters");
      plan.kernel = "clat_hist_private";
      plan.slots_cap = private_cap;
      plan.copies = private_copies;
      plan.group = gpu ? 256 : 1;
      plan.max_groups = gpu ? 8 * cu : 4 * cu;
      break;
    default:
      plan.kernel = "clat_hist_global";
      plan.group = gpu ? 256 : 16;
      plan.max_groups = gpu ? 8 * cu : 4 * cu;
      break;
  }
  plan.strategy = s;
  plan.direct = caps.int64_base_atomics && !detail::merge_32bit();
  plan.options = detail::define("CLAT_HIST_KIND", int(setup.kind)) + detail::define("CLAT_HIST_WEIGHTED", setup.weighted ? 1 : 0) +
                 detail::define("CLAT_CONTIGUOUS", gpu ? 0 : 1) + detail::define("CLAT_HIST_SHIFT", int(plan.shift)) +
                 detail::define("CLAT_HIST_DIRECT", plan.direct ? 1 : 0);
  // NVIDIA reports CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, yet 1024-item groups are what
  // reach the read-only pass (bench/BENCHMARKS.md): compile the kernel for that size there. Other
  // GPUs keep the size their driver offers (a required size a kernel cannot meet fails the build).
  if (caps.nvidia && gpu && plan.kernel == std::string("clat_hist_local"))
    plan.options += detail::define("CLAT_HIST_GROUP", (long long)plan.group);
  if (s == HistogramStrategy::private_per_item)
    plan.options += detail::define("CLAT_HIST_SLOTS", (long long)plan.slots_cap) + detail::define("CLAT_HIST_COPIES", (long long)plan.copies);
  return plan;
}

std::size_t element_size(Kind kind) { return kind == Kind::bytes ? 1 : 4; }

// One histogram being accumulated: every add() counts a range in launches below 2^32 elements,
// each merged into the 64-bit totals on the device; totals() reads them once. Its commands are
// one chain (detail::Commands), so the reads come after every launch on any queue.
class Run {
 public:
  Run(Runtime& rt, const Setup& setup, HistogramOptions options)
      : rt_(rt), setup_(setup), plan_(make_plan(rt, setup, options.strategy)), slots_(setup.slots()), commands_(rt) {
    const detail::Program program = detail::build_library_file(rt, "kernels/histogram.cl", plan_.options);
    kernel_ = detail::make_kernel(program, plan_.kernel);
    if (!plan_.direct) merge_ = detail::make_kernel(program, "clat_hist_merge");
    if (plan_.fill_items) {
      const std::size_t group = detail::make_grid(rt, kernel_, 1, plan_.group, 1).group;
      plan_.max_groups = std::max<std::size_t>(1, plan_.fill_items / group);
    }
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Allocates and zeroes the counters: call after every check, right before the first add().
  // Direct plans count into totals_ (and wtotals_) themselves: no counts_/wsums_ to merge.
  void start() {
    const auto zeroed = [&](std::size_t bytes) {
      detail::Mem buffer = detail::make_buffer(rt_, bytes);
      commands_.fill_zero(buffer.get(), bytes);
      return buffer;
    };
    totals_ = zeroed(slots_ * 8);
    counts_ = plan_.direct ? totals_ : zeroed(slots_ * 4);
    // Only even bins read edges; the others get any valid buffer.
    edges_ = setup_.edges.empty() ? counts_
                                  : detail::make_buffer(rt_, setup_.edges.size() * sizeof(float), CL_MEM_READ_ONLY, setup_.edges.data());
    wsums_ = wtotals_ = counts_;
    if (setup_.weighted) {
      wtotals_ = zeroed(slots_ * 4);
      wsums_ = plan_.direct ? wtotals_ : zeroed(slots_ * 4);
    }
  }

  void add(cl_mem values, std::size_t offset, std::size_t count, cl_mem weights, std::size_t weights_offset) {
    const std::uint64_t per_launch = detail::launch_elements();
    const bool local = plan_.kernel == std::string("clat_hist_local");
    const std::size_t local_slots = local ? slots_ << plan_.shift : 1;
    for (std::size_t done = 0; done < count;) {
      const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, count - done));
      const std::size_t units = n / (16 / element_size(setup_.kind)) + 1;
      const detail::Grid grid = detail::make_grid(rt_, kernel_, units, plan_.group, plan_.max_groups);
      // The arguments of CLAT_HIST_ARGS, in order.
      detail::set_args(kernel_, values, cl_ulong(offset + done), cl_ulong(n), cl_uint(setup_.nbins), setup_.lo, setup_.hi,
                       setup_.scale, edges_, weights ? weights : counts_.get(), cl_ulong(weights ? weights_offset + done : 0),
                       counts_, wsums_, detail::LocalBytes{local_slots * 4},
                       detail::LocalBytes{(setup_.weighted ? local_slots : 1) * 4});
      commands_.launch(kernel_, grid);
      if (!plan_.direct) {
        detail::set_args(merge_, counts_, totals_, wsums_, wtotals_, cl_uint(slots_));
        commands_.launch(merge_, detail::make_grid(rt_, merge_, slots_, 256, slots_));
      }
      done += n;
    }
  }

  // Copies host data into a staging buffer, in this run's order of commands.
  void write(cl_mem buffer, std::size_t bytes, const void* host) { commands_.write(buffer, 0, bytes, host); }

  std::vector<std::uint64_t> totals() {
    std::vector<std::uint64_t> out(slots_);
    commands_.read(totals_.get(), 0, slots_ * 8, out.data());
    return out;
  }
  std::vector<float> weight_totals() {
    std::vector<float> out(setup_.nbins);
    commands_.read(wtotals_.get(), 0, setup_.nbins * 4, out.data());
    return out;
  }

 private:
  Runtime& rt_;
  Setup setup_;
  Plan plan_;
  std::size_t slots_;
  detail::Commands commands_;
  detail::Kernel kernel_, merge_;
  detail::Mem counts_, totals_, wsums_, wtotals_, edges_;
};

std::string to_text(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / double(std::size_t(1) << 30));
  return text;
}

// nbins in range, and the memory its counts take on the device and the host within bounds:
// checked before anything (edges included) is allocated.
void check_nbins(const Runtime& rt, const char* what, std::size_t nbins, std::size_t slots, bool even, bool weighted) {
  if (nbins == 0) throw std::invalid_argument(std::string("clatomics: ") + what + ": nbins must be at least 1");
  if (nbins > max_nbins) throw std::invalid_argument(std::string("clatomics: ") + what + ": nbins must be at most 2^32 - 4");
  const auto& caps = rt.device_info().caps;
  const double largest = double(slots) * 8;  // the 64-bit totals: the largest buffer
  const double device = largest + double(slots) * 4 + (even ? double(nbins + 1) * 4 : 0) + (weighted ? double(slots) * 8 : 0);
  const double host = double(nbins) * 8 + (even ? double(nbins + 1) * 4 : 0) + (weighted ? double(nbins) * 4 : 0);
  const double host_memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  const auto refuse = [&](const std::string& why) {
    throw std::invalid_argument(std::string("clatomics: ") + what + ": nbins = " + std::to_string(nbins) + " is too many: " + why);
  };
  if (largest > double(caps.max_mem_alloc_size))
    refuse("its 64-bit counts take " + to_text(largest) + ", more than one buffer may hold on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
           to_text(double(caps.max_mem_alloc_size)) + ")");
  if (device > double(caps.global_mem_size) / 2)
    refuse("its buffers take " + to_text(device) + ", more than half the device's memory (CL_DEVICE_GLOBAL_MEM_SIZE " +
           to_text(double(caps.global_mem_size)) + ")");
  if (host_memory > 0 && host > host_memory / 2)
    refuse("its results take " + to_text(host) + " of host memory, more than half of the host's " + to_text(host_memory));
}

Setup even_setup(const Runtime& rt, std::size_t nbins, float lo, float hi, bool weighted) {
  check_nbins(rt, "histogram_even", nbins, nbins + 3, true, weighted);
  if (!std::isfinite(lo)) throw std::invalid_argument("clatomics: histogram_even: lo is not finite");
  if (!std::isfinite(hi)) throw std::invalid_argument("clatomics: histogram_even: hi is not finite");
  if (!(lo < hi)) throw std::invalid_argument("clatomics: histogram_even: lo must be below hi");
  if (!std::isfinite(hi - lo)) throw std::invalid_argument("clatomics: histogram_even: hi - lo overflows float");
  Setup setup;
  setup.kind = Kind::even;
  setup.nbins = nbins;
  setup.weighted = weighted;
  setup.lo = lo;
  setup.hi = hi;
  setup.scale = float(double(nbins) / (double(hi) - double(lo)));
  if (!std::isfinite(setup.scale) || !(setup.scale > 0))
    throw std::invalid_argument("clatomics: histogram_even: nbins / (hi - lo) is not a finite positive float");
  // NumPy: np.linspace(lo, hi, nbins + 1) in double, cast to float32, the last edge hi itself.
  const double step = (double(hi) - double(lo)) / double(nbins);
  setup.edges.resize(nbins + 1);
  for (std::size_t k = 0; k < nbins; ++k) setup.edges[k] = float(double(k) * step + double(lo));
  setup.edges[nbins] = hi;
  // Bins of no width in float: the range has fewer floats than bins (NumPy refuses these too:
  // "Too many bins for data range").
  for (std::size_t k = 0; k < nbins; ++k)
    if (!(setup.edges[k] < setup.edges[k + 1])) {
      char text[96];
      std::snprintf(text, sizeof text, "edges %zu and %zu are both %.9g", k, k + 1, double(setup.edges[k]));
      throw std::invalid_argument("clatomics: histogram_even: too many bins for the range [lo, hi]: in float, " + std::string(text) +
                                  " (fewer floats than bins)");
    }
  return setup;
}

KeyHistogram key_result(const std::vector<std::uint64_t>& totals, std::size_t nbins) {
  KeyHistogram h;
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(nbins));
  h.out_of_range = totals[nbins];
  return h;
}

EvenHistogram even_result(Run& run, const Setup& setup) {
  const auto totals = run.totals();
  EvenHistogram h;
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(setup.nbins));
  h.below = totals[setup.nbins];
  h.above = totals[setup.nbins + 1];
  h.nan = totals[setup.nbins + 2];
  if (setup.weighted) h.weights = run.weight_totals();
  return h;
}

// Streams host values (and weights) through the device into run.
template <class T>
void add_host(Runtime& rt, Run& run, const std::vector<T>& values, const std::vector<float>* weights) {
  run.start();
  if (values.empty()) return;
  const std::size_t chunk = detail::chunk_elements(rt, values.size(), sizeof(T), weights ? 2 : 1);
  const detail::Mem buffer = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  const detail::Mem wbuffer = weights ? detail::make_buffer(rt, chunk * sizeof(float), CL_MEM_READ_ONLY) : detail::Mem();
  for (std::size_t first = 0; first < values.size(); first += chunk) {
    const std::size_t n = std::min(chunk, values.size() - first);
    run.write(buffer.get(), n * sizeof(T), values.data() + first);
    if (weights) run.write(wbuffer.get(), n * sizeof(float), weights->data() + first);
    run.add(buffer.get(), 0, n, wbuffer.get(), 0);
  }
}

Setup key_setup(const Runtime& rt, std::size_t nbins) {
  check_nbins(rt, "histogram_keys", nbins, nbins + 1, false, false);
  Setup setup;
  setup.kind = Kind::keys;
  setup.nbins = nbins;
  return setup;
}

}  // namespace

std::vector<std::uint64_t> detail::histogram_buffer(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                                    HistogramOptions options) {
  check_range(rt, {"histogram: bytes", bytes, offset, count, 1, Access::read});
  Run run(rt, Setup{}, options);
  run.start();
  run.add(bytes, offset, count, nullptr, 0);
  return run.totals();
}

std::vector<std::uint64_t> histogram(Runtime& rt, const std::vector<std::uint8_t>& bytes, HistogramOptions options) {
  Run run(rt, Setup{}, options);
  add_host(rt, run, bytes, nullptr);
  return run.totals();
}

KeyHistogram detail::histogram_keys_buffer(Runtime& rt, cl_mem keys, std::size_t offset, std::size_t count, std::size_t nbins,
                                           HistogramOptions options) {
  check_range(rt, {"histogram_keys: keys", keys, offset, count, sizeof(cl_uint), Access::read});
  const Setup setup = key_setup(rt, nbins);
  Run run(rt, setup, options);
  run.start();
  run.add(keys, offset, count, nullptr, 0);
  return key_result(run.totals(), nbins);
}

KeyHistogram histogram_keys(Runtime& rt, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  const Setup setup = key_setup(rt, nbins);
  Run run(rt, setup, options);
  add_host(rt, run, keys, nullptr);
  return key_result(run.totals(), nbins);
}

EvenHistogram detail::histogram_even_buffer(Runtime& rt, cl_mem values, std::size_t offset, std::size_t count, std::size_t nbins,
                                            float lo, float hi, bool weighted, cl_mem weights, std::size_t weights_offset,
                                            HistogramOptions options) {
  check_range(rt, {"histogram_even: values", values, offset, count, sizeof(float), Access::read});
  if (weighted) check_range(rt, {"histogram_even: weights", weights, weights_offset, count, sizeof(float), Access::read});
  const Setup setup = even_setup(rt, nbins, lo, hi, weighted);
  Run run(rt, setup, options);
  run.start();
  run.add(values, offset, count, weights, weights_offset);
  return even_result(run, setup);
}

EvenHistogram histogram_even(Runtime& rt, const std::vector<float>& values, std::size_t nbins, float lo, float hi,
                             const std::vector<float>& weights, HistogramOptions options) {
  if (!weights.empty() && weights.size() != values.size())
    throw std::invalid_argument("clatomics: histogram_even: weights has " + std::to_string(weights.size()) + " elements, values has " +
                                std::to_string(values.size()));
  const Setup setup = even_setup(rt, nbins, lo, hi, !weights.empty());
  Run run(rt, setup, options);
  add_host(rt, run, values, weights.empty() ? nullptr : &weights);
  return even_result(run, setup);
}

}  // namespace clatomics
