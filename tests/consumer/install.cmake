# Script mode: cmake -DBUILD_DIR=<build tree> -DPREFIX=<dir> -P install.cmake
# Installs the build tree into a fresh PREFIX (a stale one could hide a file the install lost)
# and checks that the package config, the library, the headers, the .cl files and clatomics.pc
# are there.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed: ${rc}")
endif()
foreach(pattern "*/cmake/clatomics/clatomicsConfig.cmake" "*/libclatomics.a" "include/clatomics/clatomics.hpp"
                "include/clatomics/atomics.cl" "include/clatomics/mutex.cl" "*/pkgconfig/clatomics.pc")
  file(GLOB_RECURSE found RELATIVE "${PREFIX}" "${PREFIX}/${pattern}")
  if(NOT found)
    message(FATAL_ERROR "installed package lacks ${pattern}")
  endif()
endforeach()
