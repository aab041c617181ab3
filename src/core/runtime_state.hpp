// What a Runtime holds, for the library's own code.
#pragma once

#include <string>

#include "core/cl_handles.hpp"
#include "clatomics/runtime.hpp"
#include "core/pocl_instances.hpp"
#include "core/program_cache.hpp"
#include "core/zeroed_scratch.hpp"

namespace clatomics::detail {

struct RuntimeState {
  RuntimeState(Options options_in, cl_device_id device_in, Context context_in, Queue queue_in,
               const std::vector<std::string>& failing_checks = {});
  ~RuntimeState();  // waits for the queue where a PoCL instance number is given back
  RuntimeState(const RuntimeState&) = delete;
  RuntimeState& operator=(const RuntimeState&) = delete;

  Options options;
  Device device;
  Context context;
  Queue queue;
  bool out_of_order = false;  // the queue runs commands out of order: order them with events
  bool pocl = false;          // PoCL's device: never asked for binaries (binary_cache.hpp), unusable
                              // in a fork()ed child (process.hpp)
  PoclInstance pocl_instance;  // PoCL before 7.0: a number of its own while it lives (pocl_instances.hpp)
  const DeviceInfo* info = nullptr;
  std::string build_options;  // the device's, and pocl_instance's
  mutable ProgramCache cache;
  mutable ZeroedScratch scratch;  // buffers calls leave at zero, lent to the next call
};

// Builds one of the library's embedded files ("kernels/reduce.cl"; its includes expanded) with
// the runtime's build options plus extra_options, through the runtime's cache.
Program build_library_file(const Runtime& rt, const std::string& path, const std::string& extra_options = {});

// The same for any full source text (nothing prepended).
Program build_cached(const RuntimeState& state, const std::string& full_source, const std::string& extra_options);

// A state for Options (the device they select, a new context and profiling queue); the checks
// named in failing_checks fail on purpose (tests of the fallbacks).
std::unique_ptr<RuntimeState> make_state(Options options, const std::vector<std::string>& failing_checks);

// Throws std::invalid_argument naming `what` when double ops are not available on rt's device.
void require_double(const Runtime& rt, const char* what);

}  // namespace clatomics::detail
