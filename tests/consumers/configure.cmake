# Script mode: cmake -DSOURCE=<tests/consumers> -DDIR=<build tree> -DGENERATOR=<generator>
#                    -DJOBS=<n> -P configure.cmake [cache options...]
# Configures the consumers' shared build tree with the options after the script, then builds what
# every consumer needs first (consumers_prerequisites: from source, the library) with JOBS jobs.
# A script rather than ctest --build-and-test, which builds with one job whatever MAKEFLAGS says.
# The cache options: every argument after the script's name.
set(options "")
set(first -1)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(first EQUAL -1 AND CMAKE_ARGV${i} STREQUAL "-P")
    math(EXPR first "${i} + 2")
  elseif(NOT first EQUAL -1 AND i GREATER_EQUAL first)
    list(APPEND options "${CMAKE_ARGV${i}}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${DIR}" -G "${GENERATOR}" ${options} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring ${DIR} failed: ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${DIR}" --target consumers_prerequisites --parallel "${JOBS}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building consumers_prerequisites in ${DIR} failed: ${rc}")
endif()
