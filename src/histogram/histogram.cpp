// Histograms: a strategy per device (kernels/histogram.cl), 32-bit counts per launch merged
// into 64-bit totals on the device; sizes checked against the device's and the host's memory
// before anything is allocated.
#include "clatomics/histogram.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <unistd.h>

#include "core/buffer_checks.hpp"
#include "core/cl_types.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"
#include "groups/started.hpp"
#include "histogram/numpy_bins.hpp"

namespace clatomics {

const char* strategy_name(HistogramStrategy s) {
  switch (s) {
    case HistogramStrategy::automatic: return "automatic";
    case HistogramStrategy::local_replicated: return "local_replicated";
    case HistogramStrategy::local_single: return "local_single";
    case HistogramStrategy::global_atomics: return "global_atomics";
    case HistogramStrategy::private_per_item: return "private_per_item";
  }
  throw std::invalid_argument("clatomics: histogram: options.strategy (" + std::to_string(int(s)) + ") is not a HistogramStrategy");
}

namespace {

using detail::Axis;
using detail::EdgeRule;
using detail::data_range;
using detail::even_axis;
using detail::host_range;
using detail::refuse;

enum class Kind { bytes, keys, even };

// The kernels' name for each kind (CLAT_HIST_KIND).
const char* kind_macro(Kind kind) {
  switch (kind) {
    case Kind::bytes: return "CLAT_HIST_BYTES";
    case Kind::keys: return "CLAT_HIST_KEYS";
    case Kind::even: return "CLAT_HIST_EVEN";
  }
  throw std::logic_error("clatomics: histogram: no kernel kind for this Kind");
}

// The kernels' name for each accumulation (CLAT_HIST_ACCUM).
const char* accumulation_macro(WeightAccumulation accumulation) {
  switch (accumulation) {
    case WeightAccumulation::float_atomic: return "CLAT_ACCUM_FLOAT";
    case WeightAccumulation::compensated_float2: return "CLAT_ACCUM_PAIR";
    case WeightAccumulation::double_atomic: return "CLAT_ACCUM_DOUBLE";
  }
  throw std::logic_error("clatomics: histogram: no kernel accumulation for this WeightAccumulation");
}

// The kernels' position type (CLAT_POS): even bins' values, lo, hi, scale and edges.
std::string position_define(bool doubles) {
  return doubles ? detail::type_define<double>("CLAT_POS") : detail::type_define<float>("CLAT_POS");
}

using detail::ArgSpace;
// clat_hist_global, clat_hist_local and clat_hist_private: CLAT_HIST_ARGS.
const std::vector<detail::Param> counting_params{
    {"in", ArgSpace::global},        {"offset", ArgSpace::value},    {"count", ArgSpace::value},    {"nbins", ArgSpace::value},
    {"lo", ArgSpace::value},         {"hi", ArgSpace::value},        {"scale", ArgSpace::value},    {"edges", ArgSpace::global},
    {"in_y", ArgSpace::global},      {"y_offset", ArgSpace::value},  {"nbins_y", ArgSpace::value},  {"lo_y", ArgSpace::value},
    {"hi_y", ArgSpace::value},       {"scale_y", ArgSpace::value},   {"edges_y", ArgSpace::global}, {"w0", ArgSpace::global},
    {"w0_offset", ArgSpace::value},  {"w1", ArgSpace::global},       {"w1_offset", ArgSpace::value}, {"w2", ArgSpace::global},
    {"w2_offset", ArgSpace::value},  {"w3", ArgSpace::global},       {"w3_offset", ArgSpace::value}, {"counts", ArgSpace::global},
    {"wsums", ArgSpace::global},     {"lcounts", ArgSpace::local},   {"lweights", ArgSpace::local}};
const detail::Signature global_kernel{"clat_hist_global", counting_params};
const detail::Signature local_kernel{"clat_hist_local", counting_params};
const detail::Signature private_kernel{"clat_hist_private", counting_params};
const detail::Signature merge_kernel{
    "clat_hist_merge", {{"counts", ArgSpace::global}, {"totals", ArgSpace::global}, {"nslots", ArgSpace::value}}};
const detail::Signature range_kernel{"clat_hist_range",
                                     {{"in", ArgSpace::global},
                                      {"offset", ArgSpace::value},
                                      {"count", ArgSpace::value},
                                      {"out", ArgSpace::global},
                                      {"found", ArgSpace::local}}};

constexpr std::size_t max_private_counters = 16384;  // 64 KiB of private counters per work-item
constexpr std::size_t max_copies = 32;               // __local copies per work-group (one per bank)
constexpr std::size_t max_nbins = (std::size_t(1) << 32) - 4;
constexpr std::size_t two_d_tallies = 15;     // the (where on x, where on y) classes of points in no bin
constexpr std::size_t max_channels = 4;

struct Setup {
  Kind kind = Kind::bytes;
  std::size_t nbins = 256;  // bytes and keys; even bins: x.nbins (times y.nbins over two axes)
  bool doubles = false;     // even bins: double positions
  bool two_d = false;
  Axis x, y;
  std::size_t channels = 0;  // weight channels
  WeightAccumulation accumulation = WeightAccumulation::float_atomic;
  std::size_t bins() const { return two_d ? x.nbins * y.nbins : nbins; }
  std::size_t slots() const {
    return kind == Kind::bytes ? 256 : kind == Kind::keys ? nbins + 1 : two_d ? bins() + two_d_tallies : nbins + 3;
  }
  std::size_t acc_bytes() const { return accumulation == WeightAccumulation::float_atomic ? 4 : 8; }
  std::size_t position_bytes() const { return kind == Kind::bytes ? 1 : doubles ? 8 : 4; }
};

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
  const detail::Signature* kernel = &global_kernel;
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
  const std::size_t slot_bytes = 4 + setup.channels * setup.acc_bytes();
  // Without weights the kernel's __local weight argument still takes 4 bytes (a __local argument
  // cannot be empty): the launch needs them beside the counters, or a device with exactly the
  // counters' bytes of __local memory (32 copies of 256 byte slots in 32 KiB) refuses it.
  // And a second __local argument may start at an aligned address: 16 bytes of slack (NVIDIA's
  // launch refused counters of 4 bytes less than the usable room beside a 4-byte second argument).
  const std::size_t stand_in = setup.channels ? 0 : 4, slack = 16 + stand_in;
  const cl_ulong usable = rt.device_info().local_mem_usable;
  const std::size_t local_room = usable > slack ? std::size_t(usable) - slack : 0;
  std::size_t copies = 0;
  for (std::size_t c = std::min(max_copies, local_group); c >= 1 && !copies; c /= 2)
    if (slots <= local_room / (c * slot_bytes)) copies = c;
  // private: 4 copies for bytes (the four bytes of a word count into different copies).
  const std::size_t private_copies = setup.kind == Kind::bytes && !gpu ? 4 : 1;
  const std::size_t private_cap = std::max<std::size_t>(64, ceil_pow2(slots));
  // The weights' private sums take at most as many bytes as the counters may.
  const bool private_fits = slots <= max_private_counters && private_cap * private_copies <= max_private_counters &&
                            setup.channels * private_cap * setup.acc_bytes() <= max_private_counters * 4;

  HistogramStrategy s = asked;
  if (s == HistogramStrategy::automatic) {
    if (gpu)
      s = copies >= 2 ? HistogramStrategy::local_replicated : copies == 1 ? HistogramStrategy::local_single : HistogramStrategy::global_atomics;
    else
      s = private_fits ? HistogramStrategy::private_per_item
          : copies >= 1                               ? HistogramStrategy::local_single
                                                      : HistogramStrategy::global_atomics;
  }
  switch (s) {
    case HistogramStrategy::local_replicated:
    case HistogramStrategy::local_single: {
      if (!copies)
        throw std::invalid_argument("clatomics: histogram: options.strategy " + std::string(strategy_name(s)) + ": " +
                                    std::to_string(slots) + " slots do not fit in " + std::to_string(usable) +
                                    " bytes of __local memory");
      if (s == HistogramStrategy::local_single) copies = 1;
      while ((std::size_t(1) << plan.shift) < copies) ++plan.shift;
      plan.kernel = &local_kernel;
      plan.group = local_group;
      plan.max_groups = 4 * cu;
      if (gpu) plan.fill_items = cu * 2048;  // a full GPU: 2048 resident work-items per compute unit
      break;
    }
    case HistogramStrategy::private_per_item:
      if (!private_fits)
        throw std::invalid_argument("clatomics: histogram: options.strategy private_per_item: " + std::to_string(slots) + " slots" +
                                    (setup.channels ? " and their weight sums (" + std::to_string(setup.channels) + " channels of " +
                                                          std::to_string(setup.acc_bytes()) + " bytes a slot)"
                                                    : std::string()) +
                                    " exceed " + std::to_string(max_private_counters * 4) + " bytes of private counters");
      plan.kernel = &private_kernel;
      plan.slots_cap = private_cap;
      plan.copies = private_copies;
      plan.group = gpu ? 256 : 1;
      plan.max_groups = detail::resident_groups(caps);
      break;
    default:
      plan.kernel = &global_kernel;
      plan.group = gpu ? 256 : 16;
      plan.max_groups = detail::resident_groups(caps);
      break;
  }
  plan.strategy = s;
  plan.direct = caps.int64_base_atomics && !detail::merge_32bit();
  // GPUs: four steps' loads before their atomics where a step reads the values and at most one
  // weight channel (H200: byte histogram 0.88x -> 0.92x of a read-only pass, 100 even bins 0.49x
  // -> 0.74x with the guard); with two axes or more channels it measured slower (2-D 0.64x -> 0.43x).
  const int ahead = gpu && !setup.two_d && setup.channels <= 1 ? 4 : 1;
  plan.options = detail::define("CLAT_HIST_KIND", kind_macro(setup.kind)) + position_define(setup.doubles) +
                 detail::define("CLAT_HIST_2D", setup.two_d ? 1 : 0) + detail::define("CLAT_HIST_CHANNELS", (long long)setup.channels) +
                 detail::define("CLAT_HIST_ACCUM", accumulation_macro(setup.accumulation)) +
                 detail::define("CLAT_CONTIGUOUS", gpu ? 0 : 1) + detail::define("CLAT_HIST_SHIFT", int(plan.shift)) +
                 detail::define("CLAT_HIST_DIRECT", plan.direct ? 1 : 0) + detail::define("CLAT_HIST_AHEAD", ahead) +
                 detail::define("CLAT_HIST_VSLOTS", gpu ? 0 : 1);
  // NVIDIA reports CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, yet 1024-item groups are what
  // reach the read-only pass (bench/BENCHMARKS.md): compile the kernel for that size there. Other
  // GPUs keep the size their driver offers (a required size a kernel cannot meet fails the build).
  if (caps.nvidia && gpu && plan.kernel == &local_kernel)
    plan.options += detail::define("CLAT_HIST_GROUP", (long long)plan.group);
  if (s == HistogramStrategy::private_per_item)
    plan.options += detail::define("CLAT_HIST_SLOTS", (long long)plan.slots_cap) + detail::define("CLAT_HIST_COPIES", (long long)plan.copies);
  return plan;
}

// What one launch reads: positions (and a second axis' positions), weight channels.
struct Inputs {
  cl_mem values = nullptr;
  std::size_t offset = 0;
  cl_mem y = nullptr;
  std::size_t y_offset = 0;
  std::vector<detail::WeightRange> weights;
};

// One histogram being accumulated: every add() counts a range in launches below 2^32 elements,
// each merged into the 64-bit totals on the device; totals() reads them once. Its commands are
// one chain (detail::Commands), so the reads come after every launch on any queue.
class Run {
 public:
  Run(Runtime& rt, const Setup& setup, HistogramOptions options)
      : rt_(rt), setup_(setup), plan_(make_plan(rt, setup, options.strategy)), slots_(setup.slots()), commands_(rt) {
    const detail::Program program = detail::build_library_file(rt, "kernels/histogram.cl", plan_.options);
    kernel_ = detail::make_kernel(program, *plan_.kernel);
    if (!plan_.direct) merge_ = detail::make_kernel(program, merge_kernel);
    if (plan_.fill_items) {
      const std::size_t group = detail::make_grid(rt, kernel_, 1, plan_.group, 1).group;
      plan_.max_groups = std::max<std::size_t>(1, plan_.fill_items / group);
    }
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Allocates and zeroes the counters: call after every check, right before the first add().
  // Direct plans count into totals_ themselves: no counts_ to merge. Weights always go straight
  // into wtotals_.
  void start() {
    const auto zeroed = [&](std::size_t bytes) {
      detail::Mem buffer = detail::make_buffer(rt_, bytes);
      commands_.fill_zero(buffer.get(), bytes);
      return buffer;
    };
    totals_ = zeroed(slots_ * 8);
    counts_ = plan_.direct ? totals_ : zeroed(slots_ * 4);
    // Only even bins read edges (and only two axes the second axis'); the others get any valid buffer.
    edges_x_ = setup_.x.edges.empty() ? counts_ : edges_buffer(setup_.x.edges);
    edges_y_ = setup_.y.edges.empty() ? counts_ : edges_buffer(setup_.y.edges);
    wtotals_ = setup_.channels ? zeroed(setup_.channels * slots_ * setup_.acc_bytes()) : counts_;
  }

  void add(const Inputs& in, std::size_t count) {
    if (setup_.doubles)
      add_as<cl_double>(in, count);
    else
      add_as<cl_float>(in, count);
  }

  // Copies host data into a staging buffer, in this run's order of commands.
  void write(cl_mem buffer, std::size_t bytes, const void* host) { commands_.write(buffer, 0, bytes, host); }

  // The totals once the run's commands have finished (the run's buffers may go before).
  detail::Pending<std::vector<std::uint64_t>> totals_later() {
    const auto out = std::make_shared<std::vector<std::uint64_t>>(slots_);
    commands_.read_later(totals_.get(), 0, slots_ * 8, out->data());
    return detail::Pending<std::vector<std::uint64_t>>(commands_, [out] { return std::move(*out); });
  }
  std::vector<std::uint64_t> totals() { return totals_later().get(); }
  HistogramStrategy strategy() const { return plan_.strategy; }
  // Per channel, the bins' sums in double (a compensated pair read as hi + lo).
  std::vector<std::vector<double>> weight_sums() {
    const std::size_t acc = setup_.acc_bytes(), bins = setup_.bins();
    std::vector<unsigned char> raw(setup_.channels * slots_ * acc);
    commands_.read(wtotals_.get(), 0, raw.size(), raw.data());
    std::vector<std::vector<double>> sums(setup_.channels, std::vector<double>(bins));
    for (std::size_t c = 0; c < setup_.channels; ++c)
      for (std::size_t b = 0; b < bins; ++b) {
        const unsigned char* at = raw.data() + (c * slots_ + b) * acc;
        float pair[2] = {0, 0};
        double value = 0;
        if (setup_.accumulation == WeightAccumulation::double_atomic)
          std::memcpy(&value, at, 8);
        else
          std::memcpy(pair, at, acc), value = double(pair[0]) + double(pair[1]);
        sums[c][b] = value;
      }
    return sums;
  }

 private:
  detail::Mem edges_buffer(const std::vector<double>& edges) {
    if (setup_.doubles) return detail::make_buffer(rt_, edges.size() * 8, CL_MEM_READ_ONLY, edges.data());
    const std::vector<float> narrow(edges.begin(), edges.end());  // float values held in double: exact
    return detail::make_buffer(rt_, narrow.size() * 4, CL_MEM_READ_ONLY, narrow.data());
  }

  // P: the kernel's position type (CLAT_POS).
  template <class P>
  void add_as(const Inputs& in, std::size_t count) {
    const std::uint64_t per_launch = detail::launch_elements();
    const bool local = plan_.kernel == &local_kernel;
    const std::size_t local_slots = local ? slots_ << plan_.shift : 1;
    const std::size_t local_weights = setup_.channels ? local_slots * setup_.channels * setup_.acc_bytes() : 4;
    const Axis& x = setup_.x;
    const Axis& y = setup_.y;
    for (std::size_t done = 0; done < count;) {
      const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, count - done));
      const std::size_t units = n / (16 / setup_.position_bytes()) + 1;
      const detail::Grid grid = detail::make_grid(rt_, kernel_, units, plan_.group, plan_.max_groups);
      const auto weight = [&](std::size_t c) { return c < in.weights.size() ? in.weights[c].buffer : counts_.get(); };
      const auto weight_offset = [&](std::size_t c) { return cl_ulong(c < in.weights.size() ? in.weights[c].offset + done : 0); };
      // Kinds and plans that do not read an argument still bind it: a valid buffer, a zero.
      detail::bind(kernel_, detail::arg("in", in.values), detail::arg("offset", cl_ulong(in.offset + done)), detail::arg("count", cl_ulong(n)),
                   detail::arg("nbins", cl_uint(setup_.two_d ? x.nbins : setup_.nbins)), detail::arg("lo", P(x.lo)),
                   detail::arg("hi", P(x.hi)), detail::arg("scale", P(x.scale)), detail::arg("edges", edges_x_),
                   detail::arg("in_y", in.y ? in.y : in.values), detail::arg("y_offset", cl_ulong(in.y ? in.y_offset + done : 0)),
                   detail::arg("nbins_y", cl_uint(y.nbins)), detail::arg("lo_y", P(y.lo)), detail::arg("hi_y", P(y.hi)),
                   detail::arg("scale_y", P(y.scale)), detail::arg("edges_y", edges_y_), detail::arg("w0", weight(0)),
                   detail::arg("w0_offset", weight_offset(0)), detail::arg("w1", weight(1)), detail::arg("w1_offset", weight_offset(1)),
                   detail::arg("w2", weight(2)), detail::arg("w2_offset", weight_offset(2)), detail::arg("w3", weight(3)),
                   detail::arg("w3_offset", weight_offset(3)), detail::arg("counts", counts_), detail::arg("wsums", wtotals_),
                   detail::arg("lcounts", detail::LocalBytes{local_slots * 4}), detail::arg("lweights", detail::LocalBytes{local_weights}));
      commands_.launch(kernel_, grid);
      if (!plan_.direct) {
        detail::bind(merge_, detail::arg("counts", counts_), detail::arg("totals", totals_), detail::arg("nslots", cl_uint(slots_)));
        commands_.launch(merge_, detail::make_grid(rt_, merge_, slots_, 256, slots_));
      }
      done += n;
    }
  }

  Runtime& rt_;
  Setup setup_;
  Plan plan_;
  std::size_t slots_;
  detail::Commands commands_;
  detail::LibraryKernel kernel_, merge_;
  detail::Mem counts_, totals_, wtotals_, edges_x_, edges_y_;
};

std::string to_text(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / double(std::size_t(1) << 30));
  return text;
}

// nbins in range (the argument is named `name`).
void check_nbins(const std::string& what, const char* name, std::size_t nbins) {
  if (nbins == 0) refuse(what, std::string(name) + " is 0; it must be at least 1");
  if (nbins > max_nbins) refuse(what, std::string(name) + " is " + std::to_string(nbins) + "; it must be at most 2^32 - 4");
}

// The memory the setup's counts, sums and edges take on the device and the host within bounds:
// checked before anything (edges included) is allocated. setup: kind, nbins (or both axes'
// nbins), doubles, channels and accumulation set.
void check_memory(const Runtime& rt, const std::string& what, const Setup& setup) {
  const auto& caps = rt.device_info().caps;
  const double slots = double(setup.slots()), bins = double(setup.bins());
  const double edges = setup.kind != Kind::even ? 0 : double(setup.x.nbins + 1) + (setup.two_d ? double(setup.y.nbins + 1) : 0);
  const double largest = slots * 8;  // the 64-bit totals: the largest buffer but for many weight channels
  const double weights = double(setup.channels) * slots * double(setup.acc_bytes());
  const double device = largest + slots * 4 + edges * double(setup.position_bytes()) + weights;
  const double host = bins * 8 + edges * 8 + double(setup.channels) * bins * 8 + (setup.channels ? bins * 4 : 0);
  const double host_memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  const auto too_many = [&](const std::string& why) {
    refuse(what, "nbins = " + std::to_string(setup.bins()) + " is too many: " + why);
  };
  if (std::max(largest, weights) > double(caps.max_mem_alloc_size))
    too_many("its 64-bit counts or weight sums take " + to_text(std::max(largest, weights)) +
             ", more than one buffer may hold on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " + to_text(double(caps.max_mem_alloc_size)) +
             ")");
  if (device > double(caps.global_mem_size) / 2)
    too_many("its buffers take " + to_text(device) + ", more than half the device's memory (CL_DEVICE_GLOBAL_MEM_SIZE " +
             to_text(double(caps.global_mem_size)) + ")");
  if (host_memory > 0 && host > host_memory / 2)
    too_many("its results take " + to_text(host) + " of host memory, more than half of the host's " + to_text(host_memory));
}

// An even histogram's request before its range is known: refuses bad nbins, channels and
// accumulations, and bins beyond memory.
template <class T>
Setup even_request(const Runtime& rt, const std::string& what, std::size_t nx, std::size_t ny, bool two_d, std::size_t channels,
                   WeightAccumulation accumulation) {
  Setup setup;
  setup.kind = Kind::even;
  setup.doubles = std::is_same_v<T, double>;
  setup.two_d = two_d;
  check_nbins(what, setup.two_d ? "xbins.nbins" : "nbins", nx);
  if (setup.two_d) {
    check_nbins(what, "ybins.nbins", ny);
    if (nx > (max_nbins - two_d_tallies) / ny)
      refuse(what, "xbins.nbins * ybins.nbins = " + std::to_string(nx) + " * " + std::to_string(ny) + " bins exceed 2^32 - 19");
  }
  setup.nbins = nx;
  setup.x.nbins = nx;
  setup.y.nbins = ny;
  if (channels > max_channels) refuse(what, "weights: " + std::to_string(channels) + " channels, at most 4");
  setup.channels = channels;
  // Without weights there is nothing to accumulate: one program whatever was asked.
  setup.accumulation = channels ? accumulation : WeightAccumulation::float_atomic;
  if (channels) switch (accumulation) {
      case WeightAccumulation::float_atomic: break;
      case WeightAccumulation::compensated_float2:
        if (!rt.device_info().caps.int64_base_atomics)
          refuse(what, "options.accumulation compensated_float2 needs cl_khr_int64_base_atomics, which " +
                           rt.device_info().caps.device_name + " lacks");
        break;
      case WeightAccumulation::double_atomic: detail::require_double(rt, (what + ": options.accumulation double_atomic").c_str()); break;
      default: refuse(what, "options.accumulation is not a WeightAccumulation");
    }
  if (setup.doubles) detail::require_double(rt, (what + ": double positions").c_str());
  check_memory(rt, what, setup);
  return setup;
}

// The range of values[offset, offset + count) on the device: every work-group's minimum, maximum
// and NaN count (kernels/histogram/range.cl), combined here.
template <class T>
detail::FoundRange<T> device_range(Runtime& rt, const std::string& what, cl_mem values, std::size_t offset, std::size_t count) {
  if (count == 0) return data_range(what, count, T(0), T(0), false);
  const auto& caps = rt.device_info().caps;
  const bool gpu = caps.is_gpu();
  const detail::Program program = detail::build_library_file(
      rt, "kernels/histogram/range.cl",
      detail::type_define<T>("CLAT_POS") +
          detail::define("CLAT_CONTIGUOUS", gpu ? 0 : 1) + detail::define("CLAT_HIST_VSLOTS", gpu ? 0 : 1));
  const detail::LibraryKernel kernel = detail::make_kernel(program, range_kernel);
  const detail::Grid grid = detail::make_grid(rt, kernel, count, gpu ? 256 : 16, detail::resident_groups(caps));
  const detail::Mem out = detail::make_buffer(rt, grid.groups * 3 * sizeof(T));
  detail::Commands commands(rt);
  detail::bind(kernel, detail::arg("in", values), detail::arg("offset", cl_ulong(offset)), detail::arg("count", cl_ulong(count)),
               detail::arg("out", out), detail::arg("found", detail::LocalBytes{grid.group * 3 * sizeof(T)}));
  commands.launch(kernel, grid);
  std::vector<T> found(grid.groups * 3);
  commands.read(out.get(), 0, found.size() * sizeof(T), found.data());
  T least = std::numeric_limits<T>::infinity(), most = -least;
  bool nan_seen = false;
  for (std::size_t i = 0; i < grid.groups; ++i)
    least = std::min(least, found[3 * i]), most = std::max(most, found[3 * i + 1]), nan_seen |= found[3 * i + 2] > 0;
  return data_range(what, count, least, most, nan_seen);
}

KeyHistogram key_result(Run& run, std::size_t nbins) {
  const auto totals = run.totals();
  KeyHistogram h;
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(nbins));
  h.out_of_range = totals[nbins];
  h.strategy = run.strategy();
  return h;
}

EvenHistogram even_result(Run& run, const Setup& setup) {
  const auto totals = run.totals();
  EvenHistogram h;
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(setup.nbins));
  h.below = totals[setup.nbins];
  h.above = totals[setup.nbins + 1];
  h.nan = totals[setup.nbins + 2];
  h.lo = setup.x.lo;
  h.hi = setup.x.hi;
  h.strategy = run.strategy();
  h.edges = setup.doubles                               ? EvenHistogram::Edges::double_linspace
            : setup.x.rule == EdgeRule::data_range ? EvenHistogram::Edges::float_linspace
                                                   : EvenHistogram::Edges::double_linspace_to_float;
  if (setup.channels) h.sums = run.weight_sums();
  return h;
}

EvenHistogram2D even_result_2d(Run& run, const Setup& setup) {
  const auto totals = run.totals();
  const std::size_t bins = setup.bins();
  EvenHistogram2D h;
  h.nx = setup.x.nbins;
  h.ny = setup.y.nbins;
  h.strategy = run.strategy();
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(bins));
  // Slot bins + 4 * cx + cy - 1: cx, cy = 0 in range, 1 below, 2 above, 3 NaN (kernels/histogram.cl).
  std::uint64_t* x_tally[4] = {nullptr, &h.x.below, &h.x.above, &h.x.nan};
  std::uint64_t* y_tally[4] = {nullptr, &h.y.below, &h.y.above, &h.y.nan};
  for (std::size_t cx = 0; cx < 4; ++cx)
    for (std::size_t cy = 0; cy < 4; ++cy) {
      if (!cx && !cy) continue;
      const std::uint64_t n = totals[bins + 4 * cx + cy - 1];
      if (cx) *x_tally[cx] += n;
      if (cy) *y_tally[cy] += n;
      h.outside += n;
    }
  if (setup.channels) h.sums = run.weight_sums();
  return h;
}

// T as written, not deduced from the argument (a null y says nothing of T).
template <class T>
struct Written {
  using type = T;
};

// Streams host positions (and a second axis', and weights) through the device into run.
template <class T>
void add_host(Runtime& rt, Run& run, const std::vector<T>& values, const typename Written<std::vector<T>>::type* y,
              const std::vector<HostFloats>& weights) {
  run.start();
  if (values.empty()) return;
  const std::size_t buffers = 1 + (y ? 1 : 0) + weights.size();
  const std::size_t chunk = detail::chunk_elements(rt, values.size(), sizeof(T), buffers);
  const auto staging = [&](std::size_t bytes) { return detail::make_buffer(rt, chunk * bytes, CL_MEM_READ_ONLY); };
  const detail::Mem buffer = staging(sizeof(T));
  const detail::Mem ybuffer = y ? staging(sizeof(T)) : detail::Mem();
  std::vector<detail::Mem> wbuffers;
  for (std::size_t c = 0; c < weights.size(); ++c) wbuffers.push_back(staging(sizeof(float)));
  Inputs in;
  in.values = buffer.get();
  in.y = ybuffer.get();
  for (const auto& w : wbuffers) in.weights.push_back({w.get(), 0});
  for (std::size_t first = 0; first < values.size(); first += chunk) {
    const std::size_t n = std::min(chunk, values.size() - first);
    run.write(buffer.get(), n * sizeof(T), values.data() + first);
    if (y) run.write(ybuffer.get(), n * sizeof(T), y->data() + first);
    for (std::size_t c = 0; c < weights.size(); ++c) run.write(wbuffers[c].get(), n * sizeof(float), weights[c].data() + first);
    run.add(in, n);
  }
}

Setup key_setup(const Runtime& rt, std::size_t nbins) {
  if (nbins > max_nbins) refuse("histogram_keys", "nbins is " + std::to_string(nbins) + "; it must be at most 2^32 - 4");
  Setup setup;
  setup.kind = Kind::keys;
  setup.nbins = nbins;
  check_memory(rt, "histogram_keys", setup);
  return setup;
}

// No bins (np.bincount(keys, minlength=0)[:0]): every key is out of range; nothing to run, but
// the strategy is still checked as it would be with bins.
KeyHistogram no_key_bins(std::size_t count, HistogramOptions options) {
  strategy_name(options.strategy);
  KeyHistogram h;
  h.out_of_range = count;
  h.strategy = options.strategy;
  return h;
}

// Host weights: each channel as long as the values.
void check_host_weights(const std::string& what, const std::vector<HostFloats>& weights, std::size_t n) {
  for (std::size_t c = 0; c < weights.size(); ++c)
    if (weights[c].size() != n)
      refuse(what, "weights[" + std::to_string(c) + "] has " + std::to_string(weights[c].size()) + " elements, values has " +
                       std::to_string(n) + "; they must be of the same length");
}

// Device weights: each channel's range within its buffer.
void check_buffer_weights(const Runtime& rt, const std::string& what, const std::vector<detail::WeightRange>& weights,
                          std::size_t count) {
  for (std::size_t c = 0; c < weights.size(); ++c) {
    const std::string name = what + ": weights" + (weights.size() > 1 ? "[" + std::to_string(c) + "]" : "");
    detail::check_range(rt, {name.c_str(), weights[c].buffer, weights[c].offset, count, sizeof(float), detail::Access::read});
  }
}

// One-axis even histograms: the range given (range non-null) or found in the data (after every
// other check, by find_range()).
template <class T, class FindRange>
EvenHistogram even_histogram(Runtime& rt, std::size_t nbins, const T* range, std::size_t channels, HistogramOptions options,
                             FindRange find_range, const std::function<void(Run&)>& count) {
  const std::string what = "histogram_even";
  Setup setup = even_request<T>(rt, what, nbins, 0, false, channels, options.accumulation);
  const detail::FoundRange<T> r = range ? detail::FoundRange<T>{range[0], range[1], EdgeRule::given_range} : find_range(what);
  setup.x = even_axis<T>(what, nbins, r.lo, r.hi, r.rule);
  Run run(rt, setup, options);
  count(run);
  return even_result(run, setup);
}

}  // namespace

detail::Pending<std::vector<std::uint64_t>> detail::histogram_buffer_later(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                                                           HistogramOptions options) {
  check_range(rt, {"histogram: bytes", bytes, offset, count, 1, Access::read});
  Run run(rt, Setup{}, options);
  run.start();
  run.add({bytes, offset, nullptr, 0, {}}, count);
  return run.totals_later();
}

std::vector<std::uint64_t> detail::histogram_buffer(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                                    HistogramOptions options) {
  return histogram_buffer_later(rt, bytes, offset, count, options).get();
}

std::vector<std::uint64_t> histogram(Runtime& rt, const std::vector<std::uint8_t>& bytes, HistogramOptions options) {
  Run run(rt, Setup{}, options);
  add_host(rt, run, bytes, nullptr, {});
  return run.totals();
}

KeyHistogram detail::histogram_keys_buffer(Runtime& rt, cl_mem keys, std::size_t offset, std::size_t count, std::size_t nbins,
                                           HistogramOptions options) {
  check_range(rt, {"histogram_keys: keys", keys, offset, count, sizeof(cl_uint), Access::read});
  const Setup setup = key_setup(rt, nbins);
  if (nbins == 0) return no_key_bins(count, options);
  Run run(rt, setup, options);
  run.start();
  run.add({keys, offset, nullptr, 0, {}}, count);
  return key_result(run, nbins);
}

KeyHistogram histogram_keys(Runtime& rt, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  const Setup setup = key_setup(rt, nbins);
  if (nbins == 0) return no_key_bins(keys.size(), options);
  Run run(rt, setup, options);
  add_host(rt, run, keys, nullptr, {});
  return key_result(run, nbins);
}

template <class T>
EvenHistogram detail::even_histogram_buffer(Runtime& rt, PositionRange values, std::size_t count, std::size_t nbins, const T* range,
                                            const std::vector<WeightRange>& weights, HistogramOptions options) {
  check_range(rt, {"histogram_even: values", values.buffer, values.offset, count, sizeof(T), Access::read});
  check_buffer_weights(rt, "histogram_even", weights, count);
  return even_histogram<T>(
      rt, nbins, range, weights.size(), options,
      [&](const std::string& what) { return device_range<T>(rt, what, values.buffer, values.offset, count); },
      [&](Run& run) {
        run.start();
        run.add({values.buffer, values.offset, nullptr, 0, weights}, count);
      });
}

template <class T>
EvenHistogram detail::even_histogram_host(Runtime& rt, const std::vector<T>& values, std::size_t nbins, const T* range,
                                          const std::vector<HostFloats>& weights, HistogramOptions options) {
  check_host_weights("histogram_even", weights, values.size());
  return even_histogram<T>(
      rt, nbins, range, weights.size(), options, [&](const std::string& what) { return host_range(what, values); },
      [&](Run& run) { add_host(rt, run, values, nullptr, weights); });
}

namespace {

template <class T>
Setup even_setup_2d(const Runtime& rt, const EvenBins<T>& xbins, const EvenBins<T>& ybins, std::size_t channels,
                    WeightAccumulation accumulation) {
  const std::string what = "histogram2d_even";
  Setup setup = even_request<T>(rt, what, xbins.nbins, ybins.nbins, true, channels, accumulation);
  setup.x = even_axis<T>(what + ": xbins", xbins.nbins, xbins.lo, xbins.hi, EdgeRule::two_d);
  setup.y = even_axis<T>(what + ": ybins", ybins.nbins, ybins.lo, ybins.hi, EdgeRule::two_d);
  return setup;
}

}  // namespace

template <class T>
EvenHistogram2D detail::even_histogram2d_buffer(Runtime& rt, PositionRange x, PositionRange y, std::size_t count,
                                                const EvenBins<T>& xbins, const EvenBins<T>& ybins,
                                                const std::vector<WeightRange>& weights, HistogramOptions options) {
  check_range(rt, {"histogram2d_even: x", x.buffer, x.offset, count, sizeof(T), Access::read});
  check_range(rt, {"histogram2d_even: y", y.buffer, y.offset, count, sizeof(T), Access::read});
  check_buffer_weights(rt, "histogram2d_even", weights, count);
  const Setup setup = even_setup_2d(rt, xbins, ybins, weights.size(), options.accumulation);
  Run run(rt, setup, options);
  run.start();
  run.add({x.buffer, x.offset, y.buffer, y.offset, weights}, count);
  return even_result_2d(run, setup);
}

template <class T>
EvenHistogram2D detail::even_histogram2d_host(Runtime& rt, const std::vector<T>& x, const std::vector<T>& y, const EvenBins<T>& xbins,
                                              const EvenBins<T>& ybins, const std::vector<HostFloats>& weights, HistogramOptions options) {
  if (y.size() != x.size())
    refuse("histogram2d_even", "y has " + std::to_string(y.size()) + " elements, x has " + std::to_string(x.size()));
  check_host_weights("histogram2d_even", weights, x.size());
  const Setup setup = even_setup_2d(rt, xbins, ybins, weights.size(), options.accumulation);
  Run run(rt, setup, options);
  add_host(rt, run, x, &y, weights);
  return even_result_2d(run, setup);
}

#define CLATOMICS_EVEN_HISTOGRAMS(T)                                                                                                    \
  template EvenHistogram detail::even_histogram_buffer<T>(Runtime&, PositionRange, std::size_t, std::size_t, const T*,                \
                                                          const std::vector<WeightRange>&, HistogramOptions);                         \
  template EvenHistogram detail::even_histogram_host<T>(Runtime&, const std::vector<T>&, std::size_t, const T*,                      \
                                                        const std::vector<HostFloats>&, HistogramOptions);                           \
  template EvenHistogram2D detail::even_histogram2d_buffer<T>(Runtime&, PositionRange, PositionRange, std::size_t, const EvenBins<T>&, \
                                                              const EvenBins<T>&, const std::vector<WeightRange>&, HistogramOptions); \
  template EvenHistogram2D detail::even_histogram2d_host<T>(Runtime&, const std::vector<T>&, const std::vector<T>&,                 \
                                                            const EvenBins<T>&, const EvenBins<T>&, const std::vector<HostFloats>&, \
                                                            HistogramOptions);
CLATOMICS_EVEN_HISTOGRAMS(float)
CLATOMICS_EVEN_HISTOGRAMS(double)
#undef CLATOMICS_EVEN_HISTOGRAMS

}  // namespace clatomics
