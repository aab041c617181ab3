// Scatter's element types and ops as its kernels name them.
#include "scatter/types.hpp"

#include <stdexcept>
#include <type_traits>

#include "clatomics/error.hpp"
#include "core/cl_types.hpp"
#include "core/launch.hpp"

namespace clatomics::detail {
namespace {

// Values of V accumulated as O (float for the 16-bit floats, whose bits are stored as ushort).
template <class V, class O = V>
ScatterTypeInfo info_of(const char* float16 = nullptr) {
  return {cl_type_name<V>(),
          cl_type_name<O>(),
          float16,
          sizeof(V),
          sizeof(O),
          std::is_floating_point_v<O>,
          std::is_integral_v<O> && sizeof(O) == 8};
}

}  // namespace

ScatterTypeInfo scatter_type_info(ScatterType type) {
  switch (type) {
    case ScatterType::f32:
      return info_of<float>();
    case ScatterType::f64:
      return info_of<double>();
    case ScatterType::i32:
      return info_of<cl_int>();
    case ScatterType::u32:
      return info_of<cl_uint>();
    case ScatterType::i64:
      return info_of<cl_long>();
    case ScatterType::u64:
      return info_of<cl_ulong>();
    case ScatterType::f16:
      return info_of<half_t, float>("half");
    case ScatterType::bf16:
      return info_of<bfloat16_t, float>("bf16");
  }
  throw std::invalid_argument("clatomics: scatter: the value type is not a ScatterType");
}

std::string scatter_index_option(bool index64) {
  return index64 ? type_define<cl_ulong>("CLAT_SC_IDX") : type_define<cl_uint>("CLAT_SC_IDX");
}

std::string scatter_type_options(const ScatterTypeInfo& info, bool index64, bool contiguous) {
  std::string options = define("CLAT_SC_IN", info.in_name) + define("CLAT_SC_T", info.out_name) + scatter_index_option(index64) +
                        define("CLAT_CONTIGUOUS", contiguous ? 1 : 0);
  if (info.float16) options += define("CLAT_SC_FLOAT16", info.float16);
  return options;
}

const char* scatter_op_macro(const char* what, ScatterOp op) {
  switch (op) {
    case ScatterOp::sum:
    case ScatterOp::mean:
      return "CLAT_SC_OP_SUM";
    case ScatterOp::prod:
      return "CLAT_SC_OP_PROD";
    case ScatterOp::min:
      return "CLAT_SC_OP_MIN";
    case ScatterOp::max:
      return "CLAT_SC_OP_MAX";
  }
  throw std::invalid_argument(std::string("clatomics: ") + what + ": op (" + std::to_string(static_cast<int>(op)) + ") is not a ScatterOp");
}

const char* scatter_mode_macro(ScatterStrategy strategy) {
  switch (strategy) {
    case ScatterStrategy::local_private:
      return "CLAT_SC_MODE_PRIVATE";
    case ScatterStrategy::local_cache:
      return "CLAT_SC_MODE_CACHE";
    case ScatterStrategy::global_atomics:
    case ScatterStrategy::automatic:
      break;
  }
  return "CLAT_SC_MODE_GLOBAL";
}

void scatter_refuse(const char* what, const std::string& why) {
  throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why);
}

void scatter_refuse_index(const char* what, const std::string& why) {
  throw IndexOutOfRange(std::string("clatomics: ") + what + ": " + why);
}

ScatterResult scatter_without_bins(const char* what, const ScatterOptions& options, std::size_t width, bool segments, std::size_t count) {
  ScatterResult result;
  result.strategy = scatter_asked_strategy(options);
  if (width == 0 || segments || count == 0) return result;
  if (options.out_of_range == OutOfRange::refuse)
    scatter_refuse_index(what, "bins is 0, so all " + std::to_string(count) + " indices are out of range, and options.out_of_range is refuse");
  result.out_of_range = count;
  return result;
}

bool scatter_sixteen_bits(ScatterType type) { return type == ScatterType::f16 || type == ScatterType::bf16; }

std::size_t scatter_out_bytes(const char* what, ScatterType type, bool out16) {
  if (out16 && !scatter_sixteen_bits(type)) scatter_refuse(what, "a 16-bit output needs half_t or bfloat16_t values");
  return out16 ? 2 : scatter_type_info(type).out_size;
}

}  // namespace clatomics::detail
