// Plans as text, for `clatomics plan`.
#include "clatomics/plan.hpp"

#include <sstream>

namespace clatomics {

std::string to_string(const Plan& plan) {
  const std::size_t first = plan.build_options.find_first_not_of(' ');
  const std::string options = first == std::string::npos ? "(none)" : plan.build_options.substr(first);
  std::ostringstream out;
  out << "algorithm      " << plan.algorithm << "\n"
      << "strategy       " << plan.strategy << "\n"
      << "kernel         " << plan.kernel << " (" << plan.program << ")\n"
      << "launch         " << plan.global_size << " work-items in groups of " << plan.local_size << "\n"
      << "build options  " << options << "\n";
  for (const auto& [name, value] : plan.tuning) out << "  " << name << " = " << value << "\n";
  return out.str();
}

}  // namespace clatomics
