// Printing DeviceInfo's paths: tables, what each path is, and the library's own notes. Nothing
// here decides or guesses why an op is on its path: that is the note's job.
#include "info_paths.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "table.hpp"

namespace clatomics::cli {
namespace {

struct Description {
  const char* family;  // "" for every family without a line of its own
  Path path;
  const char* text;
};

constexpr Description descriptions[] = {
    {"", Path::cas, "the compare-exchange loop on the value's bits"},
    {"", Path::ext, "cl_ext_float_atomics (compiled as OpenCL C 3.0), checked on the device"},
    {"", Path::ptx, "NVIDIA inline PTX atom, checked on the device"},
    {"", Path::bits, "integer atomic min/max on the bit pattern, checked on the device"},
    {"", Path::hardware, "a plain OpenCL atomic on the bits"},
    {"aggregated", Path::warp, "NVIDIA warp aggregation (shfl.sync + vote.sync; match.any.sync for mixed addresses), checked"},
    {"aggregated", Path::subgroup, "sub-group aggregation (cl_khr_subgroups + cl_khr_subgroup_shuffle), checked"},
    {"aggregated", Path::plain, "no aggregation: the plain op on its own path, one atomic per call"},
    {"16-bit", Path::ptx, "PTX atom.add.noftz.f16x2 / .bf16x2 on the containing 32-bit word (CAS if the neighbour is NaN), checked"},
    {"16-bit", Path::cas, "a CAS loop on the containing 32-bit word"},
    {"no-return", Path::ptx, "NVIDIA inline PTX: red.global.add on global memory (no value comes back), atom on local, checked"},
    {"no-return", Path::plain, "the returning add on its own path, its result discarded"},
    {"saturating", Path::cas, "a CAS loop (OpenCL has no saturating atomic)"},
    {"float2", Path::cas, "one 64-bit CAS loop on both components"},
    {"float2", Path::hardware, "one 64-bit atom_xchg / atom_cmpxchg / atom_add(0)"},
};

std::string column_of(const OpPath& p) { return p.type + " " + p.space; }

template <class T, class Key>
void add_once(std::vector<T>& list, const Key& key) {
  if (std::find(list.begin(), list.end(), key) == list.end()) list.push_back(key);
}

// An op x (type, space) table of path names, what each of those paths is, then one line per
// distinct (note, flushes) naming the ops and columns it is about.
void print_family(std::ostream& out, const std::vector<OpPath>& paths) {
  std::vector<std::string> columns, ops;
  std::vector<Path> used;
  for (const auto& p : paths) {
    add_once(columns, column_of(p));
    add_once(ops, p.op);
    add_once(used, p.path);
  }
  std::vector<std::vector<std::string>> table{{"op"}};
  table[0].insert(table[0].end(), columns.begin(), columns.end());
  for (const auto& op : ops) {
    std::vector<std::string> row{op};
    for (const auto& col : columns) {
      const auto it = std::find_if(paths.begin(), paths.end(), [&](const OpPath& p) { return p.op == op && column_of(p) == col; });
      row.push_back(it == paths.end() ? "-" : path_name(it->path));
    }
    table.push_back(row);
  }
  out << text_table(table, 2);

  out << "  Paths:\n";
  for (const Path path : used) out << named_line(path_name(path), path_description(paths.front().family, path), 4);

  struct Note {
    std::string text;
    bool flushes;
    std::vector<std::string> ops, columns;
  };
  std::vector<Note> notes;
  for (const auto& p : paths) {
    if (p.note.empty() && !p.flushes_subnormals) continue;
    auto it = std::find_if(notes.begin(), notes.end(), [&](const Note& n) { return n.text == p.note && n.flushes == p.flushes_subnormals; });
    if (it == notes.end()) it = notes.insert(notes.end(), Note{p.note, p.flushes_subnormals, {}, {}});
    add_once(it->ops, p.op);
    add_once(it->columns, column_of(p));
  }
  if (!notes.empty()) out << "  Notes (the library's):\n";
  for (const auto& n : notes) {
    std::string ops, where;
    for (const auto& o : n.ops) ops += (ops.empty() ? "" : "/") + o;
    for (const auto& c : n.columns) where += (where.empty() ? "" : ", ") + c;
    if (n.columns.size() == columns.size()) where = "all";
    out << "    " << ops << " (" << where << ")" << (n.flushes ? " [flushes subnormals]" : "") << ": " << n.text << "\n";
  }
}

}  // namespace

const char* path_description(const std::string& family, Path path) {
  for (const auto& d : descriptions)
    if (d.family == family && d.path == path) return d.text;
  for (const auto& d : descriptions)
    if (*d.family == '\0' && d.path == path) return d.text;
  return path_name(path);
}

void print_paths(std::ostream& out, const DeviceInfo& info) {
  print_family(out, info.paths);
  if (!info.doubles)
    out << "  (no double ops: they need cl_khr_fp64 and cl_khr_int64_base_atomics, and CLATOMICS_HIDE_FP64 hides them)\n";
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
    print_family(out, paths);
  }
  out << "\nNative path checks (a tiny run with an exact expected result before a path is trusted):\n";
  if (info.checks.empty()) out << "  (none ran: no native path was offered)\n";
  for (const auto& c : info.checks)
    out << "  " << c.slot << " (" << path_name(c.path) << "): " << (c.passed ? "passed" : "FAILED: " + c.why)
        << (c.flushes_subnormals ? ", flushes subnormals" : "") << "\n";
  out << "\nBuild options for this device: " << (info.build_options.empty() ? "(none)" : info.build_options) << "\n";
}

}  // namespace clatomics::cli
