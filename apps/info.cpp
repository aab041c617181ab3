// clatomics info: every platform and device, what they report about atomics, and which path
// each op takes on the selected device (after the native paths' check runs).
#include <algorithm>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

bool atomic_related(const std::string& name) {
  for (const char* word : {"atomic", "fp64", "subgroup", "int64"})
    if (name.find(word) != std::string::npos) return true;
  return false;
}

// Words wrapped at width, continuation lines indented.
std::string wrap(const std::vector<std::string>& words, std::size_t indent, std::size_t width = 100) {
  if (words.empty()) return "(none)";
  std::string out, line;
  for (const auto& w : words) {
    if (!line.empty() && indent + line.size() + 1 + w.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line;
}

// OpenCL C feature macros (OpenCL 3.0 devices; empty elsewhere).
std::vector<std::string> opencl_c_features(const cl::Device& device) {
  std::vector<std::string> names;
  try {
    for (const auto& f : device.getInfo<CL_DEVICE_OPENCL_C_FEATURES>()) names.push_back(f.name);
  } catch (const cl::Error&) {  // not an OpenCL 3.0 device
  }
  return names;
}

void print_device(std::ostream& out, std::size_t index, const cl::Device& device) {
  const Capabilities caps = detect_capabilities(device);
  std::vector<std::string> extensions, features;
  for (const auto& e : caps.extensions)
    if (atomic_related(e)) extensions.push_back(e);
  for (const auto& f : opencl_c_features(device))
    if (atomic_related(f)) features.push_back(f);
  const std::string pad(22, ' ');
  out << "  [" << index << "] " << caps.device_name << " (" << type_name(caps.type) << ", " << caps.device_vendor << ")\n"
      << "      OpenCL          " << caps.device_version << "\n"
      << "      OpenCL C        " << caps.opencl_c_version << " (highest accepted: " << opencl_c_name(caps.opencl_c_max)
      << ")\n"
      << "      driver          " << caps.driver_version << "\n"
      << "      compute units   " << caps.compute_units << ", max work-group " << caps.max_work_group_size
      << ", local memory " << bytes_name(caps.local_mem_size) << ", global " << bytes_name(caps.global_mem_size)
      << " (largest buffer " << bytes_name(caps.max_mem_alloc_size) << ")\n"
      << "      extensions      " << wrap(extensions, pad.size()) << "\n";
  if (!features.empty()) out << "      OpenCL C feat.  " << wrap(features, pad.size()) << "\n";
}

// Why an op takes the path it does, in a few words.
std::string why(const DeviceInfo& info, const Options& options, const OpPath& p) {
  if (!p.note.empty()) return p.note + "; CAS loop instead";
  const bool add = p.op == "add" || p.op == "sub", minmax = p.op == "min" || p.op == "max";
  switch (p.path) {
    case Path::ptx: return "NVIDIA inline PTX atom.add, checked on the device";
    case Path::ext: return "cl_ext_float_atomics (compiled as OpenCL C 3.0), checked on the device";
    case Path::bits: return "integer atomic min/max on the bit pattern, checked on the device";
    case Path::hardware: return "a plain OpenCL atomic on the bits";
    case Path::cas:
    case Path::warp:
    case Path::subgroup:
    case Path::plain: break;
  }
  if (options.force_cas) return "forced (--force-cas / CLATOMICS_FORCE_CAS)";
  if (!add && !minmax) return "no hardware op for it anywhere (backoff.cl has a CAS loop with backoff)";
  if (minmax) return p.type == "double" ? "no 64-bit integer min/max (cl_khr_int64_extended_atomics)" : "CAS loop";
  const std::string width = p.type == "float" ? "fp32" : "fp64";
  return "not NVIDIA, and no __opencl_c_ext_" + width + "_" + p.space + "_atomic_add" +
         (info.caps.ext_float_atomics ? "" : " (no cl_ext_float_atomics)");
}

// Why an issue-9 op (aggregated, 16-bit, no-return, saturating, float2) takes its path.
std::string variant_why(const DeviceInfo& info, const Options& options, const OpPath& p) {
  const std::string failed = p.note.empty() ? "" : p.note + "; ";
  if (p.family == "aggregated") {
    if (p.path == Path::warp) return "NVIDIA warp aggregation (shfl.sync + vote.sync decide, match.any.sync only for mixed addresses), checked on the device";
    if (p.path == Path::subgroup) return "sub-group aggregation (cl_khr_subgroups + cl_khr_subgroup_shuffle), checked on the device";
    if (options.force_cas) return "forced (--force-cas / CLATOMICS_FORCE_CAS): the plain op, one atomic per call";
    return failed + (p.note.empty() ? "not NVIDIA, and no cl_khr_subgroups + cl_khr_subgroup_shuffle" : "") +
           (p.note.empty() ? ": " : "") + "the plain op, one atomic per call";
  }
  if (p.family == "16-bit") {
    if (p.path == Path::ptx)
      return "PTX atom.global.add.noftz.f16x2/.bf16x2 on the containing word (CAS when the neighbour is NaN), checked on the device";
    return failed + "a CAS loop on the containing 32-bit word" +
           ((p.op == "add" || p.op == "sub") && p.space == "global" && !info.caps.nvidia && p.note.empty() ? " (not NVIDIA)" : "");
  }
  if (p.family == "no-return") {
    if (p.path == Path::ptx && (p.op == "add" || p.op == "sub") && p.space == "global")
      return "PTX red.global.add (no value comes back), checked on the device";
    return failed + "the returning op on its own path, result discarded";
  }
  if (p.family == "saturating") return "a CAS loop (no saturating atomic in OpenCL)";
  if (p.family == "float2")
    return p.path == Path::hardware ? "one 64-bit atom_xchg / atom_cmpxchg / atom_add(0)" : "one 64-bit CAS loop on both components";
  return why(info, options, p);
}

std::size_t columns_count(const std::vector<OpPath>& paths) {
  std::vector<std::string> columns;
  for (const auto& p : paths)
    if (std::find(columns.begin(), columns.end(), p.type + " " + p.space) == columns.end())
      columns.push_back(p.type + " " + p.space);
  return columns.size();
}

// An op x (type, space) table of path names, then one line per distinct (path, reason).
template <class WhyFn>
void print_table(std::ostream& out, const std::vector<OpPath>& paths, WhyFn&& why) {
  std::vector<std::string> columns, ops;
  for (const auto& p : paths) {
    const std::string col = p.type + " " + p.space;
    if (std::find(columns.begin(), columns.end(), col) == columns.end()) columns.push_back(col);
    if (std::find(ops.begin(), ops.end(), p.op) == ops.end()) ops.push_back(p.op);
  }
  std::vector<std::vector<std::string>> table{{"op"}};
  table[0].insert(table[0].end(), columns.begin(), columns.end());
  for (const auto& op : ops) {
    std::vector<std::string> row{op};
    for (const auto& col : columns) {
      std::string cell = "-";
      for (const auto& p : paths)
        if (p.op == op && p.type + " " + p.space == col) cell = path_name(p.path);
      row.push_back(cell);
    }
    table.push_back(row);
  }
  out << text_table(table, 2);

  // One line per distinct (path, reason), naming the ops and the columns it covers.
  struct Why {
    std::vector<std::string> ops, columns;
    std::string path, reason;
  };
  std::vector<Why> whys;
  for (const auto& p : paths) {
    const std::string reason = why(p), column = p.type + " " + p.space;
    auto it = std::find_if(whys.begin(), whys.end(), [&](const Why& w) { return w.path == path_name(p.path) && w.reason == reason; });
    if (it == whys.end()) it = whys.insert(whys.end(), Why{{}, {}, path_name(p.path), reason});
    if (std::find(it->ops.begin(), it->ops.end(), p.op) == it->ops.end()) it->ops.push_back(p.op);
    if (std::find(it->columns.begin(), it->columns.end(), column) == it->columns.end()) it->columns.push_back(column);
  }
  out << "  Why:\n";
  for (const auto& w : whys) {
    std::string ops, columns;
    for (const auto& o : w.ops) ops += (ops.empty() ? "" : "/") + o;
    for (const auto& c : w.columns) columns += (columns.empty() ? "" : ", ") + c;
    if (w.columns.size() == columns_count(paths)) columns = "all";
    out << "    " << ops << " (" << columns << "): " << w.path << " - " << w.reason << "\n";
  }
}

void print_paths(std::ostream& out, const DeviceInfo& info, const Options& options) {
  print_table(out, info.paths, [&](const OpPath& p) { return why(info, options, p); });
  if (!info.doubles)
    out << "  (no double ops: " << (options.hide_fp64 ? "hidden by CLATOMICS_HIDE_FP64" : "needs cl_khr_fp64 and cl_khr_int64_base_atomics")
        << ")\n";
  const std::pair<const char*, const char*> families[] = {
      {"aggregated", "Aggregated ops, clat_atomic_<op>_<type>_agg[_local] (one atomic per address per warp / sub-group)"},
      {"16-bit", "half and bfloat16 ops, clat_atomic_<op>_half / _bf16[_local] (ushort storage)"},
      {"no-return", "No-return ops, clat_atomic_<op>_<type>_noret[_local]"},
      {"saturating", "Saturating ops, clat_atomic_inc_sat_<type> / dec_sat_<type>[_local]"},
      {"float2", "float2 as one 64-bit word, clat_atomic_<op>_float2[_local]"}};
  for (const auto& [family, title] : families) {
    std::vector<OpPath> paths;
    for (const auto& p : info.variant_paths)
      if (p.family == family) paths.push_back(p);
    if (paths.empty()) continue;
    out << "\n" << title << ":\n";
    print_table(out, paths, [&](const OpPath& p) { return variant_why(info, options, p); });
  }
  out << "\nNative path checks (a tiny run with an exact expected result before a path is trusted):\n";
  if (info.checks.empty()) out << "  (none: no native float path to check on this device"
                               << (options.force_cas ? ", CAS forced" : "") << ")\n";
  for (const auto& c : info.checks)
    out << "  " << c.slot << " (" << path_name(c.path) << "): " << (c.passed ? "passed" : "FAILED: " + c.why) << "\n";
  out << "\nBuild options for this device: " << (info.build_options.empty() ? "(none)" : info.build_options) << "\n";
}

int run_info(const DeviceChoice& choice) {
  const Options opts = choice.options();
  auto rt = make_runtime("info", opts);  // an unknown device fails here, before any output

  std::cout << "OpenCL platforms and devices ([index] is what --device and CLATOMICS_DEVICE take)\n";
  std::vector<cl::Platform> platforms;
  checked("clGetPlatformIDs", [&] { cl::Platform::get(&platforms); });
  std::size_t index = 0, selected = 0;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const auto& platform = platforms[p];
    std::cout << "\nPlatform " << p << ": " << platform.getInfo<CL_PLATFORM_NAME>() << " ("
              << platform.getInfo<CL_PLATFORM_VENDOR>() << "), " << platform.getInfo<CL_PLATFORM_VERSION>() << "\n";
    std::vector<cl::Device> devices;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error& e) {
      if (e.err() != CL_DEVICE_NOT_FOUND) throw Error(e.err(), "clGetDeviceIDs");
    }
    if (devices.empty()) std::cout << "  (no devices)\n";
    for (const auto& d : devices) {
      if (d() == rt->device()()) selected = index;
      print_device(std::cout, index++, d);
    }
  }
  const auto& info = rt->device_info();
  std::cout << "\nAtomic paths on [" << selected << "] " << info.caps.device_name << " (" << info.caps.platform_name
            << ")" << (opts.force_cas ? ", CAS forced" : "") << ":\n";
  print_paths(std::cout, info, opts);
  return exit_ok;
}

}  // namespace

Command add_info_command(CLI::App& app) {
  auto choice = std::make_shared<DeviceChoice>();
  CLI::App* sub = app.add_subcommand("info");
  sub->description(
      "OpenCL platforms and devices, their atomic extensions, and the path each op takes.\n\n"
      "Lists every OpenCL platform and device: OpenCL and OpenCL C versions (with the highest OpenCL C\n"
      "the compiler accepts), the atomic-related extensions and OpenCL C features it reports. Then,\n"
      "for the selected device, the path each atomic op takes, what that path is, the library's note\n"
      "on it, and the check run of each native path.");
  add_device_options(*sub, *choice, "show the paths with every op forced onto the CAS loop");
  sub->footer(exit_codes_help);
  return {sub, [choice] { return run_info(*choice); }};
}

}  // namespace clatomics::cli
