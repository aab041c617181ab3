// Builds each OpenCL C file named on the command line the way README.md tells a user to:
// Runtime::build, which prepends the snippet library and its build options for the device.
// check_snippets.py writes README.md's ```c blocks into such files, each starting with a #line
// that points back at the README, so a failed build's log names README lines.
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include <clatomics/clatomics.hpp>

int main(int argc, char** argv) {
  try {
    clatomics::Runtime rt;
    const std::string device = rt.device().getInfo<CL_DEVICE_NAME>();
    int failed = 0;
    for (int i = 1; i < argc; ++i) {
      std::ifstream in(argv[i]);
      std::stringstream text;
      text << in.rdbuf();
      if (!in) {
        std::fprintf(stderr, "%s: cannot read\n", argv[i]);
        return 1;
      }
      try {
        rt.build(text.str());
        std::printf("%s: built on %s\n", argv[i], device.c_str());
      } catch (const std::exception& e) {
        std::printf("%s: does not build on %s\n%s\n", argv[i], device.c_str(), e.what());
        ++failed;
      }
    }
    return failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "build_kernels: %s\n", e.what());
    return 1;
  }
}
