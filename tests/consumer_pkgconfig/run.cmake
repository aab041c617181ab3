# Script mode: cmake -DPREFIX=<installed package> -DCXX=<C++ compiler> -DSOURCE=<main.cpp>
#                    -DEXE=<program to write> -P run.cmake
# Builds SOURCE the way a user without CMake would, with the flags pkg-config gives for the
# installed clatomics.pc, then runs it with the snippets' directory from the same file.
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config is not installed (Debian: pkg-config; scripts/setup.sh installs it)")
endif()
file(GLOB_RECURSE pc RELATIVE "${PREFIX}" "${PREFIX}/*/pkgconfig/clatomics.pc")
if(NOT pc)
  message(FATAL_ERROR "the package in ${PREFIX} has no pkgconfig/clatomics.pc")
endif()
get_filename_component(pc_dir "${PREFIX}/${pc}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
# The .pc must name the prefix it was installed to (not the configured CMAKE_INSTALL_PREFIX).
execute_process(COMMAND "${PKG_CONFIG}" --variable=prefix clatomics OUTPUT_VARIABLE prefix OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT prefix STREQUAL PREFIX)
  message(FATAL_ERROR "clatomics.pc says prefix=${prefix}, but it was installed into ${PREFIX}")
endif()
# The user's command line, through a shell as they would type it (CXX: the compiler the library
# was built with, standing for c++).
set(ENV{CXX} "${CXX}")
set(ENV{SOURCE} "${SOURCE}")
set(ENV{EXE} "${EXE}")
set(command [["$CXX" -std=c++17 "$SOURCE" $(pkg-config --cflags --libs clatomics) -o "$EXE"]])
message("${command}")
execute_process(COMMAND sh -c "set -x; ${command}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling with pkg-config's flags failed: ${rc}")
endif()
execute_process(COMMAND sh -c [["$EXE" "$(pkg-config --variable=clincludedir clatomics)"]] RESULT_VARIABLE rc TIMEOUT 200)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} failed: ${rc}")
endif()
