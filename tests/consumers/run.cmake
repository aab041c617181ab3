# Script mode: cmake -DDIR=<tests/consumers build tree> -DTARGET=<consumer> -P run.cmake
# Builds one consumer in the shared build tree, then runs it; fails on either failing.
# (The tests that use it share DIR, so they hold a RESOURCE_LOCK on it.)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${DIR}" --target "${TARGET}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building ${TARGET} in ${DIR} failed: ${rc}")
endif()
execute_process(COMMAND "${DIR}/bin/${TARGET}" RESULT_VARIABLE rc TIMEOUT 200)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TARGET} failed: ${rc}")
endif()
