// Runs the cases check_numpy.py asks for (a JSON file: {"cases": [...]}) on the device through the
// library's host-data calls, and prints one JSON object of results, a result per case in order.
// Floating-point data travel as their bits (float32 as uint32, float64 as uint64, float16 as
// uint16): exact, NaN and infinities included, which JSON numbers cannot carry.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <clatomics/clatomics.hpp>

#include "../float_bits.hpp"
#include "core/names.hpp"

using json = nlohmann::json;
namespace cat = clatomics;

namespace {

// A JSON array as elements of T: floats from their bits, half_t from uint16 bits, integers as they
// are (json_of writes them back the same way).
template <class T>
std::vector<T> array_of(const json& j) {
  std::vector<T> out;
  for (const json& e : j) {
    if constexpr (std::is_same_v<T, float>)
      out.push_back(test::from_bits<float>(e.get<std::uint32_t>()));
    else if constexpr (std::is_same_v<T, double>)
      out.push_back(test::from_bits<double>(e.get<std::uint64_t>()));
    else if constexpr (std::is_same_v<T, cat::half_t>)
      out.push_back(cat::half_t{e.get<cl_ushort>()});
    else
      out.push_back(e.get<T>());
  }
  return out;
}
template <class T>
json json_of(const std::vector<T>& v) {
  json out = json::array();
  for (const T& e : v) {
    if constexpr (std::is_floating_point_v<T>)
      out.push_back(test::bits(e));
    else if constexpr (std::is_same_v<T, cat::half_t>)
      out.push_back(e.bits);
    else
      out.push_back(e);
  }
  return out;
}

cat::ScatterOp op_of(const std::string& name) { return cat::detail::scatter_op_named("numpy case", name); }

cat::WeightAccumulation accumulation_of(const json& c) {
  const std::string name = c.value("accumulation", "float_atomic");
  if (name == "float_atomic") return cat::WeightAccumulation::float_atomic;
  if (name == "compensated_float2") return cat::WeightAccumulation::compensated_float2;
  if (name == "double_atomic") return cat::WeightAccumulation::double_atomic;
  throw std::runtime_error("unknown accumulation " + name);
}

json json_of(const cat::EvenHistogram& h) {
  json sums = json::array();
  for (const auto& channel : h.sums) sums.push_back(json_of(channel));
  return {{"counts", h.counts}, {"below", h.below}, {"above", h.above}, {"nan", h.nan},
          {"lo", test::bits(h.lo)}, {"hi", test::bits(h.hi)}, {"sums", sums}};
}

// Bins over a range given as float64 bits, as NumPy takes a range (Python floats) whatever the
// data's type.
template <class T>
cat::EvenBins<T> bins_of(std::size_t nbins, const json& range) {
  const std::vector<double> r = array_of<double>(range);
  cat::EvenBins<T> bins;
  bins.nbins = nbins;
  bins.lo = r[0];
  bins.hi = r[1];
  return bins;
}

template <class T>
json histogram_even(cat::Runtime& rt, const json& c) {
  const std::vector<T> values = array_of<T>(c["values"]);
  std::vector<std::vector<float>> weights;
  for (const json& w : c.value("weights", json::array())) weights.push_back(array_of<float>(w));
  const std::vector<cat::HostFloats> channels(weights.begin(), weights.end());
  cat::HistogramOptions options;
  options.accumulation = accumulation_of(c);
  const std::size_t nbins = c["nbins"];
  if (c["range"].is_null()) return json_of(cat::histogram_even<T>(rt, values, nbins, channels, options));
  return json_of(cat::histogram_even(rt, values, bins_of<T>(nbins, c["range"]), channels, options));
}

template <class T>
json histogram2d_even(cat::Runtime& rt, const json& c) {
  const std::vector<T> x = array_of<T>(c["x"]), y = array_of<T>(c["y"]);
  const cat::EvenHistogram2D h = cat::histogram2d_even(rt, x, y, bins_of<T>(c["nx"], c["xrange"]), bins_of<T>(c["ny"], c["yrange"]));
  const auto tallies = [](const cat::AxisTallies& t) { return json{{"below", t.below}, {"above", t.above}, {"nan", t.nan}}; };
  return {{"counts", h.counts}, {"x", tallies(h.x)}, {"y", tallies(h.y)}, {"outside", h.outside}};
}

// scatter_reduce or segment_reduce (c["offsets"] given) of values V into out.
template <class V>
json scatter(cat::Runtime& rt, const json& c) {
  using O = cat::scatter_output_t<V>;
  std::vector<O> out = array_of<O>(c["out"]);
  const std::vector<V> values = array_of<V>(c["values"]);
  cat::ScatterOptions options;
  options.include_self = c.value("include_self", true);
  options.deterministic = c.value("deterministic", false);
  if (c.value("refuse", false)) options.out_of_range = cat::OutOfRange::refuse;
  if (c.value("nan", std::string("propagate")) == "missing") options.nan = cat::NanRule::missing;
  const cat::ScatterOp op = op_of(c["op"]);
  const std::size_t width = c.value("width", 1);
  json result;
  try {
    cat::ScatterResult r;
    if (c.contains("offsets"))
      r = cat::segment_reduce<V, cl_ulong>(rt, out, array_of<cl_ulong>(c["offsets"]), values, op, options, width);
    else
      r = cat::scatter_reduce<V, cl_uint>(rt, out, array_of<cl_uint>(c["indices"]), values, op, options, width);
    result["out_of_range"] = r.out_of_range;
  } catch (const std::invalid_argument& e) {
    result["error"] = "invalid_argument";
    result["what"] = e.what();
  }
  result["out"] = json_of(out);
  return result;
}

json run_case(cat::Runtime& rt, const json& c) {
  const std::string call = c["call"], type = c.value("type", "f32");
  if (call == "histogram_even") return type == "f64" ? histogram_even<double>(rt, c) : histogram_even<float>(rt, c);
  if (call == "histogram2d_even") return type == "f64" ? histogram2d_even<double>(rt, c) : histogram2d_even<float>(rt, c);
  if (call == "histogram_keys") {
    const cat::KeyHistogram h = cat::histogram_keys(rt, array_of<cl_uint>(c["keys"]), c["nbins"]);
    return {{"counts", h.counts}, {"out_of_range", h.out_of_range}};
  }
  if (call == "histogram") return {{"counts", cat::histogram(rt, array_of<std::uint8_t>(c["bytes"]))}};
  if (call == "scatter") {
    if (type == "f32") return scatter<float>(rt, c);
    if (type == "f64") return scatter<double>(rt, c);
    if (type == "i32") return scatter<cl_int>(rt, c);
    if (type == "f16") return scatter<cat::half_t>(rt, c);
  }
  throw std::runtime_error("unknown call " + call + " of type " + type);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: numpy_cases CASES.json\n");
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    const json request = json::parse(in);
    cat::Runtime rt;
    json results = json::array();
    for (const json& c : request["cases"]) {
      try {
        results.push_back(run_case(rt, c));
      } catch (const std::invalid_argument& e) {
        results.push_back({{"error", "invalid_argument"}, {"what", e.what()}});
      }
    }
    std::cout << json{{"device", rt.device().getInfo<CL_DEVICE_NAME>()}, {"results", results}}.dump() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "numpy_cases: %s\n", e.what());
    return 1;
  }
}
