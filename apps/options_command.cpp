// clatomics options: the build options clatomics::build_options() gives for one device, for
// programs that build the snippets themselves (PyOpenCL, a Makefile, another language).
#include <iostream>
#include <string>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "locate.hpp"

namespace clatomics::cli {
namespace {

struct OptionsArgs {
  DeviceChoice choice;
  bool json = false;
};

int run_options(const OptionsArgs& args) {
  const Options opts = args.choice.options();
  const cl::Device chosen = pick_device("options", opts);
  const std::string text = build_options(chosen, opts);
  if (!args.json) {
    // stdout stays the options alone (scripts pass it to a compiler: `$(clatomics options)`);
    // the note for a person reading an empty line goes to stderr.
    std::cout << text << "\n";
    if (text.find_first_not_of(' ') == std::string::npos)
      std::cerr << "clatomics options: (none: the portable paths on " << detect_capabilities(chosen).device_name
                << "; nothing to add to your build)\n";
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

}  // namespace

Command add_options_command(CLI::App& app) {
  auto args = std::make_shared<OptionsArgs>();
  CLI::App* sub = add_command(
      app, "options",
      "the OpenCL C build options for the snippets on one device (for your own builds).\n\n"
      "Prints, on one line, the OpenCL C build options for the snippet library on one device: exactly\n"
      "what clatomics::build_options(device, options) returns (-cl-std where native atomics need it,\n"
      "-D macros for the native paths whose checks passed). Where there are none (the portable paths,\n"
      "e.g. PoCL 3.1) an empty line, and on stderr a note saying so: stdout is only ever the options.\n"
      "Build your kernel, with the snippets prepended or included, with these options.",
      "The environment (CLATOMICS_FORCE_CAS, CLATOMICS_HIDE_FP64, CLATOMICS_EXACT_SUBNORMALS, ...)\n"
      "counts as it does for the library.\n");
  add_device_options(*sub, args->choice, "the options with every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)");
  sub->add_flag("--json", args->json,
                "one JSON object instead: {\"device\": NAME, \"platform\": NAME, \"build_options\": STRING,\n"
                "\"include_dir\": DIR or null}; include_dir is the directory to pass with -I for\n"
                "#include \"clatomics/atomics.cl\"");
  return {sub, [args] { return run_options(*args); }};
}

}  // namespace clatomics::cli
