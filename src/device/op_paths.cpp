// Path tables: each op's path is its slot's, with the reasons the checks recorded.
#include "device/op_paths.hpp"

#include <algorithm>

#include "clatomics/ops.def"
#include "device/native_table.hpp"

namespace clatomics::detail {
namespace {

// The path the probe reported for a slot (cas/plain when the slot's type is absent).
Path chosen(const Probe& probe, const Slot& slot) {
  const auto& all = slots();
  const auto index = std::size_t(&slot - all.data());
  const int code = probe.codes[index];
  return code < 0 ? slot.fallback : Path(code);
}

// What a native path needs before config.cl offers it.
std::string needs(const Slot& slot, Path path) {
  const std::string type = slot.type, space = slot.space;
  switch (path) {
    case Path::ptx:
      return std::string("ptx needs NVIDIA's OpenCL") + (std::string(slot.check) == "noret" ? " and the returning add on ptx" : "");
    case Path::ext:
      if (type == "bf16") return "ext needs __opencl_c_intel_bfloat_global_atomic_add (Intel's bfloat16 atomics, OpenCL C 3.0)";
      return "ext needs cl_ext_float_atomics with the " + type + " " + space +
             " add (its device query or __opencl_c_ext_" + std::string(type == "double" ? "fp64" : "fp32") + "_" + space +
             "_atomic_add) and OpenCL C 3.0";
    case Path::bits: return type == "double" ? "bits needs cl_khr_int64_extended_atomics" : "bits needs only core OpenCL";
    case Path::warp: return "warp needs NVIDIA's OpenCL";
    case Path::subgroup: return "subgroup needs sub-groups (cl_khr_subgroups or __opencl_c_subgroups), cl_khr_subgroup_shuffle, OpenCL C 2.0 and Options::subgroup_aggregation";
    default: return path_name(path);
  }
}

// Why the slot is not on a native path (its failed checks, else what its native paths need), and
// what its path flushes.
std::string note_of(const Probe& probe, const Slot& slot, bool& flushes) {
  std::string note;
  const Path path = chosen(probe, slot);
  flushes = false;
  for (const auto& c : probe.checks) {
    if (c.slot != slot.name) continue;
    if (!c.passed) note += (note.empty() ? "" : "; ") + std::string(path_name(c.path)) + " check failed: " + c.why;
    if (c.passed && c.path == path && c.flushes_subnormals) flushes = true;
  }
  if (path == slot.fallback && note.empty() && probe.forced) note = "every native path off (Options::force_cas)";
  if (path == slot.fallback && note.empty()) {
    note = "no native path offered here: ";
    for (std::size_t k = 0; k < slot.natives.size(); ++k) note += (k ? "; " : "") + needs(slot, slot.natives[k]);
  }
  if (flushes) note += (note.empty() ? "" : "; ") + std::string("flushes subnormals to zero (Options::exact_subnormals avoids it)");
  return note;
}

// An op whose path no check decides.
OpPath fixed_path(const char* family, const std::string& op, const std::string& type, const std::string& space, Path path) {
  OpPath p;
  p.op = op;
  p.type = type;
  p.space = space;
  p.path = path;
  p.family = family;
  return p;
}

OpPath slot_path(const Probe& probe, const char* family, const std::string& op, const std::string& type,
                 const std::string& space, const std::string& slot_name) {
  const Slot& slot = slot_named(slot_name);
  OpPath p = fixed_path(family, op, type, space, chosen(probe, slot));
  p.note = note_of(probe, slot, p.flushes_subnormals);
  p.slot = slot.name;
  return p;
}

// The float/double read-modify-writes of clatomics/ops.def, in its order, with the native family
// each takes (add, minmax or none); a VIA op takes its base's.
struct RealOp {
  std::string name, native;
};

const std::vector<RealOp>& real_ops() {
  static const std::vector<RealOp> ops = [] {
    std::vector<RealOp> list;
    const auto native_of = [&](const std::string& base) {
      for (const auto& op : list)
        if (op.name == base) return op.native;
      return std::string("none");
    };
#define CLAT_HOST_OP(T, A, B, C, D, name, operands, new_value, native, ...) list.push_back({#name, #native});
#define CLAT_HOST_VIA(T, A, B, C, D, name, operands, base, base_operand) list.push_back({#name, native_of(#base)});
    CLAT_REAL_OPS(CLAT_HOST_OP, CLAT_HOST_VIA, , , , , )
#undef CLAT_HOST_OP
#undef CLAT_HOST_VIA
    return list;
  }();
  return ops;
}

bool any_of(const std::string& value, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return value == n; });
}

}  // namespace

std::vector<OpPath> op_paths(const Probe& probe, bool doubles) {
  std::vector<OpPath> paths;
  for (const std::string type : {"float", "double"}) {
    if (type == "double" && !doubles) continue;
    for (const std::string space : {"global", "local"}) {
      for (const auto& op : real_ops()) {
        if (op.native != "none") {
          paths.push_back(slot_path(probe, "atomic", op.name, type, space, op.native + "_" + type + "_" + space));
        } else {
          paths.push_back(fixed_path("atomic", op.name, type, space, Path::cas));
          paths.back().note = "no device has a native atomic for it (backoff.cl: the CAS loop with backoff)";
        }
      }
      for (const char* op : {"xchg", "cmpxchg"}) paths.push_back(fixed_path("atomic", op, type, space, Path::hardware));
    }
  }
  return paths;
}

std::vector<OpPath> variant_paths(const Probe& probe, const std::vector<OpPath>& core, const Capabilities& caps, bool doubles) {
  const auto core_path = [&](const std::string& op, const std::string& type, const std::string& space) {
    for (const auto& p : core)
      if (p.op == op && p.type == type && p.space == space) return p;
    return fixed_path("atomic", op, type, space, Path::cas);
  };
  std::vector<OpPath> paths;
  const std::vector<std::string> reals = doubles ? std::vector<std::string>{"float", "double"} : std::vector<std::string>{"float"};
  for (const std::string space : {"global", "local"}) {
    for (const auto& type : reals)
      for (const auto& op : real_ops()) paths.push_back(slot_path(probe, "aggregated", op.name, type, space, "agg"));
    for (const char* type : {"int", "uint"})
      for (const char* op : {"add", "min", "max"}) paths.push_back(slot_path(probe, "aggregated", op, type, space, "agg"));
  }
  for (const std::string type : {"half", "bf16"})
    for (const std::string space : {"global", "local"})
      for (const std::string op : {"add", "sub", "min", "max", "xchg", "cmpxchg"}) {
        if (any_of(op, {"add", "sub"}) && space == "global")
          paths.push_back(slot_path(probe, "16-bit", op, type, space, "add_" + type + "_global"));
        else
          paths.push_back(fixed_path("16-bit", op, type, space, Path::cas));
      }
  for (const auto& type : reals)
    for (const std::string space : {"global", "local"})
      for (const std::string op : {"add", "sub", "min", "max"}) {
        const bool red = any_of(op, {"add", "sub"}) && space == "global";
        const OpPath own = core_path(red ? "add" : op, type, space);
        if (!red) {
          OpPath p = own;
          p.family = "no-return";
          paths.push_back(p);
          continue;
        }
        OpPath p = slot_path(probe, "no-return", op, type, space, "noret_add_" + type + "_global");
        if (p.path == Path::plain) {  // the returning add, on its path: its note and flushes
          p.flushes_subnormals = own.flushes_subnormals;
          p.note += (p.note.empty() ? "" : "; ") + ("the returning add: " + std::string(path_name(own.path))) +
                    (own.note.empty() ? "" : " (" + own.note + ")");
        }
        paths.push_back(p);
      }
  std::vector<std::string> ints = {"int", "uint"};
  if (caps.int64_base_atomics) ints.insert(ints.end(), {"long", "ulong"});
  for (const auto& type : ints)
    for (const char* space : {"global", "local"})
      for (const char* op : {"inc_sat", "dec_sat"}) paths.push_back(fixed_path("saturating", op, type, space, Path::cas));
  if (caps.int64_base_atomics)
    for (const char* space : {"global", "local"})
      for (const std::string op : {"add", "sub", "cmul", "xchg", "cmpxchg", "load"})
        paths.push_back(fixed_path("float2", op, "float2", space, any_of(op, {"xchg", "cmpxchg", "load"}) ? Path::hardware : Path::cas));
  return paths;
}

}  // namespace clatomics::detail
