# Script mode: cmake -DCXX=<compiler> -DSOURCE=<file> -DINCLUDE=<dir> -P run.cmake
# Compiles SOURCE (syntax only) and passes only if the compiler refuses it with the message its
# first line names ("// MUST NOT COMPILE: "<text>""): a type mistake must fail to compile, and for
# the stated reason, not another.
file(STRINGS "${SOURCE}" first LIMIT_COUNT 1)
if(NOT first MATCHES "MUST NOT COMPILE: \"(.*)\"")
  message(FATAL_ERROR "${SOURCE}: the first line must say // MUST NOT COMPILE: \"<expected message>\"")
endif()
set(expected "${CMAKE_MATCH_1}")
execute_process(COMMAND "${CXX}" -std=c++17 -fsyntax-only -DCL_HPP_TARGET_OPENCL_VERSION=300 -I "${INCLUDE}" "${SOURCE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled; it must not")
endif()
string(FIND "${out}${err}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${SOURCE} failed to compile, but without \"${expected}\":\n${out}${err}")
endif()
message("refused as expected: ${expected}")
