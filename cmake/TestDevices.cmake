# The OpenCL implementations CTest runs the suites and examples on: PoCL (the system's ICD files)
# and Intel's OpenCL CPU runtime, which scripts/setup.sh unpacks into the build tree from PyPI's
# wheels. Each Intel test sees that platform alone, through an ICD file of its own
# (OCL_ICD_VENDORS); no system folder is touched. Where the runtime is missing, one test,
# intel.unavailable, says so and is reported as skipped.
#
# clatomics_device_test(NAME name COMMAND ... [ENVIRONMENT ...] [LABELS ...] [TIMEOUT s]
#                       [POCL_ONLY] [PROPERTIES ...])
# adds `name` on PoCL (label pocl) and `intel.name` on Intel's runtime (label intel), the same
# command and environment; POCL_ONLY keeps it to PoCL (PoCL's work-group methods, say).

option(CLATOMICS_TEST_INTEL "Run the tests on Intel's OpenCL CPU runtime too, where scripts/setup.sh fetched it" ON)
set(CLATOMICS_INTEL_OPENCL_DIR "${CMAKE_BINARY_DIR}/intel-opencl" CACHE PATH
    "Where scripts/setup.sh unpacked Intel's OpenCL CPU runtime (lib/libintelocl.so)")

set(CLATOMICS_INTEL_ENV "")     # the environment that shows a process Intel's runtime alone
set(CLATOMICS_DEVICES_ENV "")   # the environment that shows it every CI device (PoCL and Intel)
if(CLATOMICS_TEST_INTEL)
  set(intel_lib "${CLATOMICS_INTEL_OPENCL_DIR}/lib/libintelocl.so")
  if(EXISTS "${intel_lib}")
    file(WRITE "${CLATOMICS_INTEL_OPENCL_DIR}/vendors/intel.icd" "${intel_lib}\n")
    set(CLATOMICS_INTEL_ENV "OCL_ICD_VENDORS=${CLATOMICS_INTEL_OPENCL_DIR}/vendors")
    # Every device: the system's ICD files (PoCL) beside Intel's.
    file(REMOVE_RECURSE "${CLATOMICS_INTEL_OPENCL_DIR}/all-vendors")
    file(GLOB system_icds "/etc/OpenCL/vendors/*.icd")
    file(COPY ${system_icds} DESTINATION "${CLATOMICS_INTEL_OPENCL_DIR}/all-vendors")
    file(WRITE "${CLATOMICS_INTEL_OPENCL_DIR}/all-vendors/intel.icd" "${intel_lib}\n")
    set(CLATOMICS_DEVICES_ENV "OCL_ICD_VENDORS=${CLATOMICS_INTEL_OPENCL_DIR}/all-vendors")
    message(STATUS "clatomics: tests run on PoCL and on Intel's OpenCL CPU runtime (${CLATOMICS_INTEL_OPENCL_DIR})")
  else()
    message(WARNING "clatomics: Intel's OpenCL CPU runtime is not at ${intel_lib}: the tests run on PoCL only "
                    "(scripts/setup.sh fetches it; -DCLATOMICS_TEST_INTEL=OFF silences this)")
    add_test(NAME intel.unavailable COMMAND sh -c
      "echo \"Intel's OpenCL CPU runtime is not at ${intel_lib}: every test ran on PoCL only. scripts/setup.sh fetches it.\"; exit 77")
    set_tests_properties(intel.unavailable PROPERTIES SKIP_RETURN_CODE 77 LABELS intel)
  endif()
endif()

function(clatomics_device_test)
  cmake_parse_arguments(ARG "POCL_ONLY" "NAME;TIMEOUT" "COMMAND;ENVIRONMENT;LABELS;PROPERTIES" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  # The suites' watchdog (tests/main.cpp) reports a hung test case, with every thread's stack,
  # before CTest's timeout kills the suite unheard.
  math(EXPR watchdog "${ARG_TIMEOUT} * 9 / 10")
  list(APPEND ARG_ENVIRONMENT "CLATOMICS_TEST_WATCHDOG_S=${watchdog}")
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_COMMAND})
  set_tests_properties(${ARG_NAME} PROPERTIES ENVIRONMENT "${ARG_ENVIRONMENT}" TIMEOUT ${ARG_TIMEOUT}
                                              LABELS "pocl;${ARG_LABELS}" ${ARG_PROPERTIES})
  if(CLATOMICS_INTEL_ENV AND NOT ARG_POCL_ONLY)
    set(env ${ARG_ENVIRONMENT})
    list(FILTER env EXCLUDE REGEX "^(POCL_|OCL_ICD_VENDORS=)")
    add_test(NAME intel.${ARG_NAME} COMMAND ${ARG_COMMAND})
    set_tests_properties(intel.${ARG_NAME} PROPERTIES ENVIRONMENT "${env};${CLATOMICS_INTEL_ENV}" TIMEOUT ${ARG_TIMEOUT}
                                                      LABELS "intel;${ARG_LABELS}" ${ARG_PROPERTIES})
  endif()
endfunction()
