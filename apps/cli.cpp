// Option parsing and runtime creation shared by the subcommands.
#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace clatomics::cli {

bool take_value(const std::string& command, const Args& args, std::size_t& i, const std::string& name,
                std::string& value) {
  const std::string& arg = args[i];
  if (arg.compare(0, name.size() + 1, name + "=") == 0) {
    value = arg.substr(name.size() + 1);
    if (value.empty()) throw UsageError(command, name + " needs a value");
    return true;
  }
  if (arg != name) return false;
  if (i + 1 >= args.size()) throw UsageError(command, name + " needs a value");
  value = args[++i];
  return true;
}

std::size_t parse_size(const std::string& command, const std::string& option, const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::string suffix = text.substr(digits);
  for (auto& c : suffix) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.size() > 1 && (suffix.substr(1) == "B" || suffix.substr(1) == "IB")) suffix = suffix.substr(0, 1);
  if (suffix == "B") suffix.clear();
  int shift = -1;
  if (suffix.empty()) shift = 0;
  if (suffix == "K") shift = 10;
  if (suffix == "M") shift = 20;
  if (suffix == "G") shift = 30;
  if (suffix == "T") shift = 40;
  const auto bad = [&] {
    return UsageError(command, option + " '" + text + "' is not a size in bytes (e.g. 4096, 64K, 256M, 1G)");
  };
  if (digits == 0 || digits > 15 || shift < 0) throw bad();
  const unsigned long long n = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  if (n == 0 || n > (std::numeric_limits<std::size_t>::max() >> shift)) throw bad();
  return std::size_t(n) << shift;
}

int parse_count(const std::string& command, const std::string& option, const std::string& text, int min, int max) {
  const bool digits = !text.empty() && text.size() <= 9 &&
                      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  const long n = digits ? std::strtol(text.c_str(), nullptr, 10) : -1;
  if (!digits || n < min || n > max)
    throw UsageError(command, option + " '" + text + "' must be a whole number from " + std::to_string(min) + " to " +
                                  std::to_string(max));
  return int(n);
}

Options options(const std::string& device, bool force_cas) {
  Options o = Options::from_env();
  if (!device.empty()) o.device = device;
  if (force_cas) o.force_cas = true;
  return o;
}

cl::Device pick_device(const std::string& command, const Options& options) {
  try {
    return select_device(options.device.empty() ? device_selector_from_env() : options.device);
  } catch (const std::invalid_argument& e) {
    throw NoDeviceError(command, e.what());
  } catch (const Error& e) {
    // no ICD loaded (CL_PLATFORM_NOT_FOUND_KHR), or platforms without devices
    if (e.code() == CL_DEVICE_NOT_FOUND || e.code() == -1001) throw NoDeviceError(command, e.what());
    throw;
  }
}

std::unique_ptr<Runtime> make_runtime(const std::string& command, const Options& options) {
  pick_device(command, options);  // a missing device is a NoDeviceError before the Runtime's own error
  return std::make_unique<Runtime>(options);
}

std::string opencl_c_name(int version) { return std::to_string(version / 100) + "." + std::to_string(version / 10 % 10); }

}  // namespace clatomics::cli
