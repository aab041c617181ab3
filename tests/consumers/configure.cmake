# Script mode: cmake -DSOURCE=<tests/consumers> -DDIR=<build tree> -DGENERATOR=<generator>
#                    -DJOBS=<n> -P configure.cmake [cache options...]
# Configures the consumers' shared build tree with the options after the script, then builds what
# every consumer needs first (consumers_prerequisites: from source, the library) with JOBS jobs.
# A script rather than ctest --build-and-test, which builds with one job whatever MAKEFLAGS says.
set(options "")
set(after_script FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(after_script)
    list(APPEND options "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "-P")
    math(EXPR script "${i} + 1")
    set(skip_to ${script})
  endif()
  if(DEFINED skip_to AND i EQUAL skip_to)
    set(after_script TRUE)
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
