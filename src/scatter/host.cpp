// Scatter on host data: its rows checked, copied to the device whole, and the output read back.
#include <string>

#include "scatter/device_call.hpp"

namespace clatomics::detail {

void scatter_check_fits(const Runtime& rt, const char* what, const char* name, std::size_t elements, std::size_t element_size) {
  const cl_ulong largest = rt.device_info().caps.max_mem_alloc_size;
  if (largest && (elements > largest / element_size))
    scatter_refuse(what, std::string(name) + " (" + std::to_string(elements) + " elements of " + std::to_string(element_size) +
                             " bytes) is larger than one buffer may be on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                             std::to_string(largest) + " bytes); the std::vector overloads copy it whole: use views of its parts");
}

void scatter_size_mismatch(const char* what, std::size_t keys, std::size_t values) {
  scatter_refuse(what, "the keys or indices have " + std::to_string(keys) + " elements, the values " + std::to_string(values));
}

HostRows host_rows(const char* what, std::size_t width, bool segments, std::size_t out_elements, std::size_t index_elements,
                   std::size_t value_elements) {
  HostRows rows;
  if (width == 0) {
    // Rows of no values (segments: out names none, so an offsets array of 0 or 1 entries).
    if (out_elements || value_elements)
      scatter_refuse(what, "width 0 with " + std::to_string(out_elements) + " out and " + std::to_string(value_elements) +
                               " value elements; rows of width 0 hold none");
    rows.count = segments ? 0 : index_elements;
    return rows;
  }
  if (out_elements % width)
    scatter_refuse(what, "out has " + std::to_string(out_elements) + " elements, not a multiple of width " + std::to_string(width));
  rows.bins = out_elements / width;
  if (value_elements % width)
    scatter_refuse(what, "values has " + std::to_string(value_elements) + " elements, not a multiple of width " + std::to_string(width));
  rows.count = value_elements / width;
  if (segments) {
    if (index_elements != rows.bins + 1 && !(rows.bins == 0 && index_elements == 0))
      scatter_refuse(
          what, "offsets has " + std::to_string(index_elements) + " elements, out.size() / width + 1 is " + std::to_string(rows.bins + 1));
  } else if (index_elements != rows.count) {
    scatter_size_mismatch(what, index_elements, rows.count);
  }
  return rows;
}

ScatterResult scatter_host(Runtime& rt, const ScatterCall& call_in, void* out, std::size_t out_elements, const void* indices,
                           std::size_t index_elements, const void* values, std::size_t value_elements, cl_ulong* arg) {
  ScatterCall call = call_in;
  call.with_arg = call.with_arg || arg != nullptr;
  const char* what = scatter_what(call);
  const ScatterTypeInfo info = scatter_type_info(call.type);
  const HostRows rows = host_rows(what, call.rows.width, call.segments, out_elements, index_elements, value_elements);
  call.bins = rows.bins;
  call.count = rows.count;
  if (Scatter::empty(call)) {  // nothing to copy or run: the options' checks alone
    Scatter scatter(rt, call, what);
    scatter.check_options();
    return scatter.run_empty();
  }
  const std::size_t index_size = call.index64 ? 8 : 4;
  const std::size_t out_size = scatter_out_bytes(what, call.type, call.out16);
  scatter_check_fits(rt, what, "out", out_elements, out_size);
  scatter_check_fits(rt, what, call.segments ? "offsets" : "indices", index_elements, index_size);
  scatter_check_fits(rt, what, "values", value_elements, info.in_size);
  const auto copy_of = [&](const void* host, std::size_t bytes, cl_mem_flags flags) {
    return make_buffer(rt, bytes, flags, bytes ? host : nullptr);
  };
  const Mem out_buffer = copy_of(out, out_elements * out_size, CL_MEM_READ_WRITE);
  const Mem index_buffer = copy_of(indices, index_elements * index_size, CL_MEM_READ_ONLY);
  const Mem value_buffer = copy_of(values, value_elements * info.in_size, CL_MEM_READ_ONLY);
  const Mem arg_buffer = arg ? make_buffer(rt, call.bins * sizeof(cl_ulong)) : Mem();
  call.out = out_buffer.get();
  call.indices = index_buffer.get();
  call.values = value_buffer.get();
  call.arg = arg_buffer.get();
  call.out_offset = call.indices_offset = call.values_offset = call.arg_offset = 0;
  const ScatterResult result = scatter_buffers(rt, call);
  Commands commands(rt);
  commands.read(out_buffer.get(), 0, out_elements * out_size, out);
  if (arg) commands.read(arg_buffer.get(), 0, call.bins * sizeof(cl_ulong), arg);
  return result;
}

}  // namespace clatomics::detail
