# Script mode: cmake -DEXE=<program> [-DARGS=<arguments separated by |>] -DKEY=<regular expression> [-DSECONDS=<limit>] -P run_example.cmake
# Runs one example and fails unless it exits with 0 AND its output matches KEY. (CTest's
# PASS_REGULAR_EXPRESSION alone would ignore the exit code, so both checks are made here.)
if(NOT SECONDS)
  set(SECONDS 100)
endif()
string(REPLACE "|" ";" ARGS "${ARGS}")  # '|', not ';': the test's command passes through a function's list
execute_process(COMMAND "${EXE}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${SECONDS})
message("${out}${err}")
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${EXE} failed: ${rc}")
endif()
if(NOT out MATCHES "${KEY}")
  message(FATAL_ERROR "${EXE} exited with 0, but its output lacks the key line '${KEY}'")
endif()
