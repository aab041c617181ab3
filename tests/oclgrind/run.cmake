# Runs oclgrind_driver FAMILY under Oclgrind; fails on the driver's exit code and on any line in
# Oclgrind's log (every Oclgrind report is an error or a warning: "Data race at ...",
# "Uninitialized value ...", "Invalid read/write ...", "OpenCL error ...").
# -DOCLGRIND=<oclgrind> -DDRIVER=<oclgrind_driver> -DFAMILY=<family> -DLOG=<log file>
# [-DBUILD_OPTIONS=<options Oclgrind's compiler adds to every program build>]
file(REMOVE "${LOG}")
set(build_options "")
if(BUILD_OPTIONS)
  set(build_options --build-options "${BUILD_OPTIONS}")
endif()
execute_process(
  COMMAND "${OCLGRIND}" --data-races --uninitialized --check-api --num-threads 1 ${build_options} --log "${LOG}" "${DRIVER}" "${FAMILY}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
set(log "")
if(EXISTS "${LOG}")
  file(READ "${LOG}" log)
endif()
if(NOT log STREQUAL "")
  string(LENGTH "${log}" length)
  if(length GREATER 20000)
    string(SUBSTRING "${log}" 0 20000 log)
    set(log "${log}\n... (the whole log: ${LOG})")
  endif()
  message(FATAL_ERROR "Oclgrind reported:\n${log}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "oclgrind_driver ${FAMILY} exited with ${rc}")
endif()
