// clatomics options: the build options clatomics::build_options() gives for one device, for
// programs that build the snippets themselves (PyOpenCL, a Makefile, another language).
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "locate.hpp"

namespace clatomics::cli {
namespace {

const char* const options_help =
    "Usage: clatomics options [--device SEL] [--force-cas] [--json]\n\n"
    "Prints, on one line, the OpenCL C build options for the snippet library on one device: exactly\n"
    "what clatomics::build_options(device, options) returns (-cl-std where native atomics need it,\n"
    "-D macros for the native paths whose checks passed). An empty line when there are none.\n"
    "Build your kernel, with the snippets prepended or included, with these options.\n\n"
    "Options:\n"
    "  --device SEL   an index, cpu, gpu, or part of the \"platform / device\" names\n"
    "                 (default: CLATOMICS_DEVICE, else the first GPU, else CPU)\n"
    "  --force-cas    the options with every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)\n"
    "  --json         one JSON object instead: {\"device\": NAME, \"platform\": NAME,\n"
    "                 \"build_options\": STRING, \"include_dir\": DIR or null}, where include_dir is\n"
    "                 the directory to pass with -I for #include \"clatomics/atomics.cl\"\n"
    "  -h, --help     this text\n\n"
    "The environment (CLATOMICS_FORCE_CAS, CLATOMICS_HIDE_FP64, CLATOMICS_EXACT_SUBNORMALS, ...)\n"
    "counts as it does for the library.\n\n";

}  // namespace

int options_command(const Args& args) {
  std::string device;
  bool force_cas = false, json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-h" || args[i] == "--help") {
      std::cout << options_help << exit_codes_help;
      return exit_ok;
    }
    if (take_value("options", args, i, "--device", device)) continue;
    if (args[i] == "--force-cas") {
      force_cas = true;
    } else if (args[i] == "--json") {
      json = true;
    } else {
      throw UsageError("options", "unknown option '" + args[i] + "'");
    }
  }
  const Options opts = options(device, force_cas);
  const cl::Device chosen = pick_device("options", opts);
  const std::string text = build_options(chosen, opts);
  if (!json) {
    std::cout << text << "\n";
    return exit_ok;
  }
  const Capabilities caps = detect_capabilities(chosen);
  const std::string include_dir = cl_include_dir();
  const nlohmann::ordered_json out = {
      {"device", caps.device_name},
      {"platform", caps.platform_name},
      {"build_options", text},
      {"include_dir", include_dir.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(include_dir)}};
  std::cout << out.dump() << "\n";
  return exit_ok;
}

}  // namespace clatomics::cli
