// The native-path table, read from the same file the probe kernel reads.
#include "device/native_table.hpp"

#include <cctype>
#include <stdexcept>

namespace clatomics::detail {
namespace {

// The path names the table uses; NONE marks a slot with a single native path.
constexpr Path PTX = Path::ptx, EXT = Path::ext, BITS = Path::bits, WARP = Path::warp, SUBGROUP = Path::subgroup,
               CAS = Path::cas, PLAIN = Path::plain, NONE = Path::cas;

std::vector<Path> natives(Path first, Path second) {
  return second == NONE ? std::vector<Path>{first} : std::vector<Path>{first, second};
}

}  // namespace

const std::vector<Slot>& slots() {
  static const std::vector<Slot> table = {
#define CLAT_NATIVE_SLOT(slot, MACRO, check, type, space, FALLBACK, FIRST, SECOND) \
  {#slot, #MACRO, #check, #type, #space, FALLBACK, natives(FIRST, SECOND)},
#include "kernels/native_paths.def"
#undef CLAT_NATIVE_SLOT
  };
  return table;
}

const Slot& slot_named(const std::string& name) {
  for (const auto& slot : slots())
    if (name == slot.name) return slot;
  throw std::invalid_argument("clatomics: no native-path slot '" + name + "'");
}

bool is_native(const Slot& slot, Path path) {
  for (const Path p : slot.natives)
    if (p == path) return true;
  return false;
}

std::string disable_option(const Slot& slot, Path path) {
  std::string name = path_name(path);
  for (auto& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
  return " -DCLAT_NO_" + name + "_" + slot.macro;
}

}  // namespace clatomics::detail
