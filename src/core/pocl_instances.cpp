#include "core/pocl_instances.hpp"

#include <cstdlib>
#include <mutex>
#include <vector>

namespace clatomics::detail {
namespace {

std::mutex numbers_mutex;
std::vector<bool> numbers_held;  // numbers_held[k]: a live Runtime holds k

}  // namespace

int pocl_major(const std::string& platform_version) {
  const std::string name = "PoCL ";
  const std::size_t at = platform_version.find(name);
  if (at == std::string::npos) return 0;
  return std::atoi(platform_version.c_str() + at + name.size());
}

bool pocl_mixes_launches(cl_device_id pocl_device) {
  return pocl_major(platform_text(device_value<cl_platform_id>(pocl_device, CL_DEVICE_PLATFORM), CL_PLATFORM_VERSION)) < 7;
}

PoclInstance::PoclInstance(bool needed) {
  if (!needed) return;
  const std::lock_guard<std::mutex> lock(numbers_mutex);
  std::size_t k = 0;
  while (k < numbers_held.size() && numbers_held[k]) ++k;
  if (k == numbers_held.size()) numbers_held.push_back(false);
  numbers_held[k] = true;
  number_ = int(k);
}

PoclInstance::~PoclInstance() {
  if (!held()) return;
  const std::lock_guard<std::mutex> lock(numbers_mutex);
  numbers_held[std::size_t(number_)] = false;
}

std::string PoclInstance::build_option() const { return number_ > 0 ? " -DCLAT_POCL_INSTANCE=" + std::to_string(number_) : std::string(); }

}  // namespace clatomics::detail
