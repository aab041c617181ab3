#include "core/process.hpp"

#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string>

namespace clatomics::detail {
namespace {
std::atomic<pid_t> set_up_in{0};
}

void note_opencl_set_up() {
  pid_t none = 0;
  set_up_in.compare_exchange_strong(none, ::getpid());
}

bool forked_after_opencl_set_up() {
  const pid_t parent = set_up_in.load();
  return parent != 0 && parent != ::getpid();
}

void refuse_pocl_after_fork(bool pocl) {
  if (!pocl || !forked_after_opencl_set_up()) return;
  const pid_t parent = set_up_in.load();
  throw std::logic_error("clatomics: PoCL was set up in process " + std::to_string(parent) +
                         ", before fork(); its worker threads do not exist in this process " + std::to_string(::getpid()) +
                         ", where commands would wait forever. Make Runtimes only after fork(), or exec() a new program");
}

}  // namespace clatomics::detail
